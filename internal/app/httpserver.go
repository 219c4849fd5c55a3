package app

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
)

// HTTPConfig bounds what one caller can make the HTTP server hold: time to send a request, bodies in memory
// at once, and requests per second per key.
type HTTPConfig struct {
	// ReadHeaderTimeout is how long a client may take to send a request's headers.
	ReadHeaderTimeout time.Duration `env:"MNEME_HTTP_READ_HEADER_TIMEOUT" envDefault:"10s"`
	// ReadTimeout is how long a client may take to send a whole request, body included; a slower body is cut
	// off and its connection closed, so slow senders cannot hold connections and memory.
	ReadTimeout time.Duration `env:"MNEME_HTTP_READ_TIMEOUT" envDefault:"30s"`
	// IdleTimeout closes keep-alive connections idle this long.
	IdleTimeout time.Duration `env:"MNEME_HTTP_IDLE_TIMEOUT" envDefault:"120s"`
	// MaxHeaderBytes bounds the request line and headers.
	MaxHeaderBytes int `env:"MNEME_HTTP_MAX_HEADER_BYTES" envDefault:"65536"`
	// MaxInflightBodies bounds the requests with a body handled at once (with each service's body limit, the
	// memory bodies can take); one more is answered 503 with Retry-After at once instead of waiting.
	MaxInflightBodies int `env:"MNEME_HTTP_MAX_INFLIGHT_BODIES" envDefault:"64"`
	// RateLimit is the requests per second each key may make on average (per remote address for
	// development-mode callers and unknown keys); 0 turns rate limiting off. Over it: 429 with Retry-After.
	RateLimit float64 `env:"MNEME_HTTP_RATE_LIMIT" envDefault:"50"`
	// RateBurst is how many requests a key may make at once before RateLimit applies.
	RateBurst int `env:"MNEME_HTTP_RATE_BURST" envDefault:"100"`
	// AuthCacheTTL is how long a process trusts a key it looked up: a revoked key is refused on every
	// replica at most this long after revocation (an expired key at its expiry). 0 looks every request up.
	AuthCacheTTL time.Duration `env:"MNEME_AUTH_CACHE_TTL" envDefault:"10s"`
}

func (c HTTPConfig) validate() []error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.ReadHeaderTimeout <= 0 || c.ReadHeaderTimeout > 10*time.Minute {
		bad("MNEME_HTTP_READ_HEADER_TIMEOUT=%s is out of range: use more than 0 up to 10m (default 10s)", c.ReadHeaderTimeout)
	}
	if c.ReadTimeout < c.ReadHeaderTimeout || c.ReadTimeout > time.Hour {
		bad("MNEME_HTTP_READ_TIMEOUT=%s is out of range: use MNEME_HTTP_READ_HEADER_TIMEOUT (%s) up to 1h (default 30s)", c.ReadTimeout, c.ReadHeaderTimeout)
	}
	if c.IdleTimeout <= 0 || c.IdleTimeout > time.Hour {
		bad("MNEME_HTTP_IDLE_TIMEOUT=%s is out of range: use more than 0 up to 1h (default 120s)", c.IdleTimeout)
	}
	if c.MaxHeaderBytes < 4096 || c.MaxHeaderBytes > 1<<20 {
		bad("MNEME_HTTP_MAX_HEADER_BYTES=%d is out of range: use 4096..1048576 (default 65536)", c.MaxHeaderBytes)
	}
	if c.MaxInflightBodies < 1 || c.MaxInflightBodies > 100000 {
		bad("MNEME_HTTP_MAX_INFLIGHT_BODIES=%d is out of range: use 1..100000 (default 64)", c.MaxInflightBodies)
	}
	if c.RateLimit < 0 {
		bad("MNEME_HTTP_RATE_LIMIT=%g must not be negative (0 turns rate limiting off; default 50)", c.RateLimit)
	}
	if c.RateLimit > 0 && c.RateBurst < 1 {
		bad("MNEME_HTTP_RATE_BURST=%d must be at least 1 when MNEME_HTTP_RATE_LIMIT is set (default 100)", c.RateBurst)
	}
	if c.AuthCacheTTL < 0 || c.AuthCacheTTL > time.Hour {
		bad("MNEME_AUTH_CACHE_TTL=%s is out of range: use 0 (no cache) up to 1h (default 10s)", c.AuthCacheTTL)
	}
	return errs
}

// authenticator returns the process's one Authenticator: every HTTP service shares its key cache and rate
// limits.
func (c HTTPConfig) authenticator(db *pgxpool.Pool, devMode bool) *auth.Authenticator {
	return auth.New(db, devMode, auth.WithCacheTTL(c.AuthCacheTTL), auth.WithRateLimit(c.RateLimit, c.RateBurst))
}

// newHTTPServer is the server of every Mneme process, with the timeouts and bounds of c around h.
func newHTTPServer(c HTTPConfig, h http.Handler, log *slog.Logger) *http.Server {
	return &http.Server{
		Handler:           limitBodies(c.MaxInflightBodies, h),
		ReadHeaderTimeout: c.ReadHeaderTimeout,
		ReadTimeout:       c.ReadTimeout,
		IdleTimeout:       c.IdleTimeout,
		MaxHeaderBytes:    c.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// limitBodies lets at most n requests with a body be handled at once. One more is answered 503 with
// Retry-After immediately: a queue would hold the very memory the bound is there to cap. Requests without a
// body (GET, HEAD) pass.
func limitBodies(n int, next http.Handler) http.Handler {
	slots := make(chan struct{}, n)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 { // no body (an unknown length, -1, counts as one)
			next.ServeHTTP(w, r)
			return
		}
		select {
		case slots <- struct{}{}:
			defer func() { <-slots }()
			next.ServeHTTP(w, r)
		default:
			w.Header().Set("Retry-After", strconv.Itoa(1))
			w.Header().Set("Connection", "close")
			api.WriteJSON(w, http.StatusServiceUnavailable, api.Error{Error: api.ErrorBody{Code: api.CodeUnavailable,
				Message: fmt.Sprintf("the server is handling as many request bodies as it allows (%d, MNEME_HTTP_MAX_INFLIGHT_BODIES); retry shortly", n)}})
		}
	})
}

// errNotReady is what /readyz tells callers: the reason is logged, never served, because it can name
// internals (database user, host and port, broker address).
var errNotReady = errors.New("not ready")
