package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cenkalti/backoff/v4"
)

// maxResponseBytes bounds what one response body may hold; larger bodies are malformed. It fits a
// batch of 128 vectors of 3072 dimensions in JSON with ample room.
const maxResponseBytes = 64 << 20

// decodeFunc turns a 2xx body into the call's result. It returns an error wrapping
// ErrMalformedResponse for bodies worth asking again, any other error to stop. It adds the tokens
// the body reports to u even when it then rejects the content (those tokens were billed).
type decodeFunc func(body []byte, u *Usage) error

// postOptions tune one post.
type postOptions struct {
	// formatSensitive marks a request carrying response_format: a non-2xx answer that blames the
	// response format is permanent at once, so the caller can fall back without burning retries.
	formatSensitive bool
	// method is the HTTP method; "" means POST.
	method string
}

// post sends body to url with the retry policy and feeds every 2xx body to decode until decode
// accepts one. u accumulates calls, retries and tokens of every attempt.
func (c *Client) post(ctx context.Context, url string, body []byte, u *Usage, opt postOptions, decode decodeFunc) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	// callCtx enforces MaxElapsed on the whole call, including an attempt in flight.
	callCtx, cancel := context.WithTimeout(ctx, c.cfg.MaxElapsed)
	defer cancel()

	policy := &retryAfterBackOff{max: c.cfg.MaxElapsed, inner: &backoff.ExponentialBackOff{
		InitialInterval:     c.cfg.InitialBackoff,
		RandomizationFactor: backoff.DefaultRandomizationFactor,
		Multiplier:          backoff.DefaultMultiplier,
		MaxInterval:         c.cfg.MaxBackoff,
		MaxElapsedTime:      c.cfg.MaxElapsed,
		Stop:                backoff.Stop,
		Clock:               backoff.SystemClock,
	}}
	b := backoff.WithMaxRetries(backoff.WithContext(policy, callCtx), uint64(c.cfg.MaxRetries))

	attempts, malformed := 0, 0
	var last error
	op := func() error {
		attempts++
		u.Calls++
		if attempts > 1 {
			u.Retries++
		}
		err := c.attempt(ctx, callCtx, url, body, u, opt, decode, policy)
		if err == nil {
			return nil
		}
		last = err
		if errors.Is(err, ErrMalformedResponse) {
			malformed++
			if malformed >= c.cfg.MalformedAttempts {
				return backoff.Permanent(err)
			}
		}
		return err
	}
	notify := func(err error, wait time.Duration) {
		c.log.DebugContext(ctx, "llm: retrying", "url", url, "attempt", attempts, "wait", wait, "err", err)
	}
	err := backoff.RetryNotify(op, b, notify)
	switch {
	case err == nil:
		return nil
	case ctx.Err() != nil:
		// The caller gave up: report that, never as a retryable failure.
		if last != nil {
			return fmt.Errorf("%w (after %d attempts; last error: %v)", ctx.Err(), attempts, last)
		}
		return ctx.Err()
	case callCtx.Err() != nil:
		return fmt.Errorf("%w: call exceeded MaxElapsed %v after %d attempts: %w", ErrTimeout, c.cfg.MaxElapsed, attempts, lastOr(last, callCtx.Err()))
	case attempts > 1:
		return fmt.Errorf("after %d attempts: %w", attempts, err)
	}
	return err
}

func lastOr(err, alt error) error {
	if err != nil {
		return err
	}
	return alt
}

// attempt sends one request. Errors it returns are retryable unless wrapped in backoff.Permanent.
func (c *Client) attempt(ctx, callCtx context.Context, url string, body []byte, u *Usage, opt postOptions, decode decodeFunc, policy *retryAfterBackOff) error {
	actx, cancel := context.WithTimeout(callCtx, c.cfg.Timeout)
	defer cancel()
	method := opt.method
	if method == "" {
		method = http.MethodPost
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, method, url, rd)
	if err != nil {
		return backoff.Permanent(fmt.Errorf("%w: build request: %w", ErrNotConfigured, err))
	}
	c.setHeaders(req)
	resp, err := c.http.Do(req)
	if err != nil {
		return c.transportError(ctx, callCtx, actx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return c.transportError(ctx, callCtx, actx, fmt.Errorf("read body: %w", err))
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		apiErr := newAPIError(resp.StatusCode, resp.Header, data)
		if opt.formatSensitive && blamesResponseFormat(apiErr) {
			return backoff.Permanent(apiErr)
		}
		if retryableStatus(resp.StatusCode) {
			policy.hint(apiErr.RetryAfter)
			return apiErr
		}
		return backoff.Permanent(apiErr)
	}
	if len(data) > maxResponseBytes {
		return fmt.Errorf("%w: body larger than %d bytes", ErrMalformedResponse, maxResponseBytes)
	}
	if err := decode(data, u); err != nil {
		if errors.Is(err, ErrMalformedResponse) {
			return err
		}
		return backoff.Permanent(err)
	}
	return nil
}

// transportError classifies a failure to send or read: caller cancellation and MaxElapsed are
// permanent, an attempt timeout and connection failures are retryable.
func (c *Client) transportError(ctx, callCtx, actx context.Context, err error) error {
	switch {
	case ctx.Err() != nil:
		return backoff.Permanent(ctx.Err())
	case callCtx.Err() != nil:
		return backoff.Permanent(fmt.Errorf("%w: %w", ErrTimeout, err))
	case actx.Err() != nil:
		return fmt.Errorf("%w: attempt exceeded %v: %w", ErrTimeout, c.cfg.Timeout, err)
	}
	return fmt.Errorf("%w: %w", ErrConnection, err)
}

func (c *Client) setHeaders(req *http.Request) {
	if req.Body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	req.Header.Set("User-Agent", "mneme-llm/1")
	for k, v := range c.cfg.Headers {
		req.Header.Set(k, v)
	}
	if c.cfg.APIKey != "" {
		if c.cfg.AuthHeader == AuthAPIKey {
			req.Header.Set("api-key", c.cfg.APIKey)
		} else {
			req.Header.Set("Authorization", "Bearer "+c.cfg.APIKey)
		}
	}
}

// retryableStatus follows OpenAI's client libraries: 408, 409, 429 and every 5xx are retried.
func retryableStatus(code int) bool {
	return code == http.StatusRequestTimeout || code == http.StatusConflict || code == http.StatusTooManyRequests || code >= 500
}

// blamesResponseFormat reports whether an error answer says the server cannot do the requested
// response_format (OpenAI and vLLM answer 400, some llama.cpp builds 500).
func blamesResponseFormat(e *APIError) bool {
	msg := strings.ToLower(e.Message + " " + e.Param + " " + e.Code)
	// A schema the server understood but found invalid is the caller's bug: falling back would
	// hide it behind weaker output.
	if strings.Contains(msg, "invalid schema") {
		return false
	}
	for _, w := range []string{"response_format", "response format", "json_schema", "json schema", "json_object", "structured output", "guided"} {
		if strings.Contains(msg, w) {
			return e.StatusCode != http.StatusTooManyRequests && e.StatusCode != http.StatusUnauthorized && e.StatusCode != http.StatusForbidden
		}
	}
	if e.StatusCode == http.StatusBadRequest || e.StatusCode == http.StatusUnprocessableEntity {
		// A bare "unsupported" counts only when nothing else in the request is named: reasoning
		// models answer "Unsupported value: 'temperature'…", which no format fallback cures.
		for _, other := range []string{"temperature", "seed", "max_tokens", "max_completion_tokens", "stop", "model", "messages", "top_p"} {
			if strings.Contains(msg, other) {
				return false
			}
		}
		return strings.Contains(msg, "unsupported") || strings.Contains(msg, "not supported")
	}
	return false
}

// newAPIError builds an APIError from an error answer, reading the OpenAI error object when the
// body has one.
func newAPIError(status int, h http.Header, body []byte) *APIError {
	e := &APIError{StatusCode: status, RetryAfter: parseRetryAfter(h, time.Now())}
	if eo, ok := parseErrorBody(body); ok {
		e.Type, e.Code, e.Param, e.Message = eo.Type, eo.Code, eo.Param, eo.Message
	} else {
		e.Message = truncate(strings.TrimSpace(string(body)), 300)
	}
	return e
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	// Cut on a rune boundary.
	for n > 0 && !utf8RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }

// parseRetryAfter reads retry-after-ms (OpenAI, milliseconds) or Retry-After (seconds or an HTTP
// date). Unparseable or negative values give 0.
func parseRetryAfter(h http.Header, now time.Time) time.Duration {
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && ms < 1e9 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s > 0 && s < 1e6 {
			return time.Duration(s * float64(time.Second))
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// retryAfterBackOff is an exponential policy that waits at least what the server asked for, and
// stops when that wait would end past the MaxElapsed budget.
type retryAfterBackOff struct {
	inner *backoff.ExponentialBackOff
	max   time.Duration
	start time.Time
	next  time.Duration
}

func (b *retryAfterBackOff) hint(d time.Duration) { b.next = d }

func (b *retryAfterBackOff) Reset() {
	b.inner.Reset()
	b.start = time.Now()
	b.next = 0
}

func (b *retryAfterBackOff) NextBackOff() time.Duration {
	d := b.inner.NextBackOff()
	if d == backoff.Stop {
		return backoff.Stop
	}
	if b.next > d {
		d = b.next
	}
	b.next = 0
	if time.Since(b.start)+d > b.max {
		return backoff.Stop
	}
	return d
}
