package llm

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
)

// Client calls one model of an OpenAI-compatible API. It is safe for concurrent use.
type Client struct {
	cfg       Config
	chatURL   string
	embedURL  string
	modelsURL string
	http      *http.Client
	log       *slog.Logger
	// format is the best structured-output Format known to work with this server; it only moves
	// down the ladder (json_schema → json_object → prompt) so rejected requests are not repeated.
	format atomic.Int32
}

// New validates cfg, applies defaults and returns a Client. It fails with ErrNotConfigured when
// BaseURL or Model is empty.
func New(cfg Config) (*Client, error) {
	if strings.TrimSpace(cfg.BaseURL) == "" || strings.TrimSpace(cfg.Model) == "" {
		return nil, fmt.Errorf("%w: BaseURL and Model are required", ErrNotConfigured)
	}
	u, err := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("%w: BaseURL %q is not an http(s) URL", ErrNotConfigured, cfg.BaseURL)
	}
	cfg = withDefaults(cfg)
	c := &Client{cfg: cfg, http: cfg.HTTPClient, log: cfg.Logger}
	c.chatURL = endpoint(u, "chat/completions", cfg.APIVersion)
	c.embedURL = endpoint(u, "embeddings", cfg.APIVersion)
	c.modelsURL = endpoint(u, "models", cfg.APIVersion)
	c.format.Store(int32(FormatJSONSchema))
	return c, nil
}

// Config returns the effective configuration (defaults applied).
func (c *Client) Config() Config { return c.cfg }

// Model returns Config.Model.
func (c *Client) Model() string { return c.cfg.Model }

// StructuredFormat returns the structured-output Format the client currently starts with: it
// begins at FormatJSONSchema and moves down when the server rejects a format.
func (c *Client) StructuredFormat() Format { return Format(c.format.Load()) }

func withDefaults(cfg Config) Config {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.MaxElapsed <= 0 {
		cfg.MaxElapsed = DefaultMaxElapsed
	}
	if cfg.InitialBackoff <= 0 {
		cfg.InitialBackoff = DefaultInitialBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.MalformedAttempts <= 0 {
		cfg.MalformedAttempts = DefaultMalformedAttempts
	}
	if cfg.EmbedBatchSize <= 0 {
		cfg.EmbedBatchSize = DefaultEmbedBatchSize
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	return cfg
}

func endpoint(base *url.URL, path, apiVersion string) string {
	u := *base
	u.Path = strings.TrimRight(u.Path, "/") + "/" + path
	if apiVersion != "" {
		q := u.Query()
		q.Set("api-version", apiVersion)
		u.RawQuery = q.Encode()
	}
	return u.String()
}
