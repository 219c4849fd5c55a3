package llm

import (
	"fmt"
	"net/url"
	"strings"
)

// Endpoint is where a service reaches an OpenAI-compatible API, as its environment says: a service's Config
// holds one per use under its own prefix, e.g.
//
//	LLM llm.Endpoint `envPrefix:"MNEME_QUERY_LLM_"` // MNEME_QUERY_LLM_BASE_URL, _MODEL, _API_KEY
//
// Timeouts and retry bounds stay with each service: they bound different things (one HTTP attempt, one call
// with its retries, one call within a request's deadline) and have different defaults.
type Endpoint struct {
	// BaseURL is the API root (e.g. http://localhost:11434/v1); empty turns off what the endpoint serves.
	BaseURL string `env:"BASE_URL"`
	// Model is the model name sent with every request; required when the base URL is set.
	Model string `env:"MODEL"`
	// APIKey is sent as a bearer credential; empty for local servers.
	APIKey string `env:"API_KEY"`
}

// Set reports whether a base URL is given.
func (e Endpoint) Set() bool { return strings.TrimSpace(e.BaseURL) != "" }

// Config returns the client configuration of the endpoint; the caller adds timeouts and retry bounds.
func (e Endpoint) Config() Config {
	return Config{BaseURL: e.BaseURL, Model: e.Model, APIKey: e.APIKey}
}

// Check validates a set endpoint whose variables start with prefix (e.g. "MNEME_QUERY_LLM_"): an http(s) base
// URL and a model. It returns one message per problem, naming the variable; an endpoint not Set has none.
func (e Endpoint) Check(prefix string) []string {
	if !e.Set() {
		return nil
	}
	var bad []string
	if u, err := url.Parse(e.BaseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		bad = append(bad, fmt.Sprintf("%sBASE_URL=%q is not an http(s) URL (example: http://localhost:11434/v1)", prefix, e.BaseURL))
	}
	if strings.TrimSpace(e.Model) == "" {
		bad = append(bad, fmt.Sprintf("%sMODEL is empty: name the model when %sBASE_URL is set", prefix, prefix))
	}
	return bad
}
