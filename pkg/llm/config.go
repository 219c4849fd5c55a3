package llm

import (
	"log/slog"
	"net/http"
	"time"
)

// Defaults applied by New to zero-valued Config fields.
const (
	DefaultTimeout           = 60 * time.Second
	DefaultMaxRetries        = 4
	DefaultMaxElapsed        = 2 * time.Minute
	DefaultMalformedAttempts = 3
	DefaultEmbedBatchSize    = 128
	DefaultInitialBackoff    = 500 * time.Millisecond
	DefaultMaxBackoff        = 20 * time.Second
)

// AuthHeader selects how Config.APIKey is sent.
type AuthHeader string

const (
	// AuthBearer sends "Authorization: Bearer <key>" (OpenAI, vLLM, Ollama, LM Studio, llama.cpp).
	AuthBearer AuthHeader = ""
	// AuthAPIKey sends "api-key: <key>" (Azure OpenAI).
	AuthAPIKey AuthHeader = "api-key"
)

// Config configures a Client. Only BaseURL and Model are required; every other zero value means
// the documented default.
type Config struct {
	// BaseURL is the API root that /chat/completions and /embeddings are appended to, e.g.
	// "http://localhost:11434/v1" (Ollama), "http://localhost:8000/v1" (vLLM),
	// "http://localhost:8080/v1" (llama.cpp), "http://localhost:1234/v1" (LM Studio),
	// "https://<resource>.openai.azure.com/openai/deployments/<deployment>" (Azure, with APIVersion).
	// Required.
	BaseURL string
	// APIKey is sent as selected by AuthHeader; empty sends no credential (local servers).
	APIKey string
	// AuthHeader selects the credential header. Default AuthBearer; AuthAPIKey for Azure OpenAI.
	AuthHeader AuthHeader
	// APIVersion, when set, is sent as the api-version query parameter (Azure OpenAI).
	APIVersion string
	// Model is the model (or Azure deployment) name sent with every request. Required.
	Model string
	// ReasoningModel adapts chat requests to OpenAI reasoning models (o-series, gpt-5), which
	// reject temperature and max_tokens: temperature is omitted and MaxTokens is sent as
	// max_completion_tokens. Default false (what local servers and classic models expect).
	ReasoningModel bool
	// Headers are extra HTTP headers sent with every request (e.g. OpenAI-Organization).
	Headers map[string]string

	// Timeout bounds one HTTP attempt (connect to last byte). Default DefaultTimeout (60s).
	Timeout time.Duration
	// MaxRetries bounds retries after the first attempt. Default DefaultMaxRetries (4);
	// negative disables retries.
	MaxRetries int
	// MaxElapsed bounds the total time spent on one request including its retries, backoff waits
	// and structured-output fallbacks' attempts each (every Embed batch is one request); a
	// Retry-After that would exceed it ends the call. Default DefaultMaxElapsed (2m).
	MaxElapsed time.Duration
	// InitialBackoff is the first retry delay before jitter and growth. Default DefaultInitialBackoff
	// (500ms). Tests set it small.
	InitialBackoff time.Duration
	// MaxBackoff caps one retry delay computed by the exponential policy (a server's Retry-After
	// may exceed it, within MaxElapsed). Default DefaultMaxBackoff (20s).
	MaxBackoff time.Duration
	// MalformedAttempts is how many malformed 2xx responses one call tolerates before giving up
	// with ErrMalformedResponse. Default DefaultMalformedAttempts (3); it counts within MaxRetries.
	MalformedAttempts int

	// EmbedBatchSize is the maximum number of inputs sent in one embeddings request; Embed splits
	// larger inputs into several requests. Default DefaultEmbedBatchSize (128).
	EmbedBatchSize int
	// Dimensions, when positive, is sent as the embeddings "dimensions" parameter (models that can
	// shorten their vectors) and every returned vector must have that length.
	Dimensions int

	// HTTPClient sends the requests. Default: a client with no overall timeout (Timeout applies per
	// attempt through the request context).
	HTTPClient *http.Client
	// Accountant, when set, receives the Usage of every call under its stage name.
	Accountant *Accountant
	// Logger receives retry and fallback messages at debug/warn level. Default slog.Default().
	Logger *slog.Logger
}
