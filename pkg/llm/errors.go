package llm

import (
	"errors"
	"fmt"
	"time"
)

// Sentinel errors. Every error returned by Client wraps exactly one class below (and, for HTTP
// failures, an *APIError with the details), so callers classify with errors.Is.
var (
	// ErrNotConfigured is returned by New when Config has no BaseURL or no Model.
	ErrNotConfigured = errors.New("llm: not configured")
	// ErrRateLimited: the server answered 429. Retried; returned once retries are exhausted.
	ErrRateLimited = errors.New("llm: rate limited")
	// ErrServer: the server answered 5xx. Retried; returned once retries are exhausted.
	ErrServer = errors.New("llm: server error")
	// ErrTimeout: one attempt exceeded Config.Timeout. Retried; returned once retries are exhausted.
	ErrTimeout = errors.New("llm: timeout")
	// ErrConnection: the request could not be sent or the response not read (refused, reset,
	// truncated transfer). Retried; returned once retries are exhausted.
	ErrConnection = errors.New("llm: connection error")
	// ErrMalformedResponse: a 2xx response whose body is not the expected JSON (bad JSON, wrong
	// shape, no choices, no data, no JSON in the content of a structured call). Retried up to
	// Config.MalformedAttempts times, then permanent.
	ErrMalformedResponse = errors.New("llm: malformed response")
	// ErrBadRequest: a 4xx other than 401, 403 and 429 (invalid request, unknown model, context
	// length exceeded). Permanent.
	ErrBadRequest = errors.New("llm: bad request")
	// ErrUnauthorized: 401 or 403. Permanent.
	ErrUnauthorized = errors.New("llm: unauthorized")
	// ErrRefused: the model refused to answer (the message carries a refusal instead of content).
	// Permanent: asking again at temperature 0 gives the same refusal.
	ErrRefused = errors.New("llm: model refused")
	// ErrDimensionMismatch: embeddings whose count differs from the inputs, whose dimensions differ
	// from each other, or differ from the expected dimension. Permanent.
	ErrDimensionMismatch = errors.New("llm: embedding dimension mismatch")
)

// APIError describes a non-2xx answer from the server. It unwraps to the sentinel of its class
// (ErrRateLimited, ErrServer, ErrBadRequest or ErrUnauthorized).
type APIError struct {
	StatusCode int
	// Type, Code, Param and Message come from the OpenAI error object {"error":{...}} when the body
	// carries one; Message holds the start of the raw body otherwise.
	Type    string
	Code    string
	Param   string
	Message string
	// RetryAfter is the delay the server asked for (Retry-After, retry-after-ms headers); zero when absent.
	RetryAfter time.Duration
}

func (e *APIError) Error() string {
	s := fmt.Sprintf("HTTP %d", e.StatusCode)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Unwrap returns the sentinel error of the status class.
func (e *APIError) Unwrap() error {
	switch {
	case e.StatusCode == 429:
		return ErrRateLimited
	case e.StatusCode == 401 || e.StatusCode == 403:
		return ErrUnauthorized
	case e.StatusCode >= 500:
		return ErrServer
	default:
		return ErrBadRequest
	}
}
