package query

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
)

// request is what every handler gets: the authenticated caller and a context with the request deadline.
type request struct {
	*http.Request
	ctx   context.Context
	ws    string
	agent string
	start time.Time
}

// handler wraps an endpoint with what every endpoint needs: the request deadline, authentication (a read: an
// unknown workspace is a 404), panic containment, and one place that turns errors into responses.
func (s *Service) handler(name string, h func(w http.ResponseWriter, r *request) error) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, hr *http.Request) {
		start := time.Now()
		// Ingest work in this process waits for the request (at most the gate's deferral) before it starts.
		defer s.priority.Query()()
		w := &statusWriter{ResponseWriter: rw}
		defer func() { s.metrics.request(context.WithoutCancel(hr.Context()), name, w.status, time.Since(start)) }()
		ctx, cancel := context.WithTimeout(hr.Context(), s.cfg.RequestTimeout)
		defer cancel()
		hr = hr.WithContext(ctx)
		defer func() {
			if p := recover(); p != nil {
				// A panic is a bug; contain it to this request and leave a trace to fix it.
				s.log.Error("handler panic", "path", hr.URL.Path, "panic", p, "stack", string(debug.Stack()))
				api.WriteError(w, http.StatusInternalServerError, api.CodeInternal, "", "internal error")
			}
		}()
		ws := hr.PathValue("ws")
		id, err := s.auth.Identify(hr, ws, false)
		if err != nil {
			var ae *auth.Error
			if errors.As(err, &ae) && ae.Status >= 500 {
				s.log.WarnContext(ctx, "auth lookup failed", "err", err)
			}
			s.writeErr(w, hr, err)
			return
		}
		if err := h(w, &request{Request: hr, ctx: ctx, ws: id.Workspace, agent: id.Agent, start: start}); err != nil {
			s.writeErr(w, hr, err)
		}
	})
}

// writeErr answers err: its own status for an api.HTTPError or auth.Error, 503 for a deadline or an unreachable
// database (the caller may retry), never a 500 for anything a caller can send.
func (s *Service) writeErr(w http.ResponseWriter, r *http.Request, err error) {
	var he *api.HTTPError
	var ae *auth.Error
	switch {
	case errors.As(err, &he):
		if he.Cause != nil {
			s.log.WarnContext(r.Context(), "request failed", "path", r.URL.Path, "err", err)
		}
		he.Write(w)
	case errors.As(err, &ae):
		auth.WriteError(w, err)
	case errors.Is(err, context.DeadlineExceeded):
		api.WriteJSON(w, http.StatusServiceUnavailable, api.Error{Error: api.ErrorBody{Code: api.CodeUnavailable,
			Message: fmt.Sprintf("the request did not finish within its deadline of %s (MNEME_QUERY_REQUEST_TIMEOUT); retry, or narrow the request", s.cfg.RequestTimeout)}})
	case errors.Is(err, context.Canceled) && r.Context().Err() != nil:
		// The caller went away; nobody reads the answer.
	default:
		s.log.WarnContext(r.Context(), "request failed", "path", r.URL.Path, "err", err)
		api.WriteJSON(w, http.StatusServiceUnavailable, api.Error{Error: api.ErrorBody{Code: api.CodeUnavailable,
			Message: "the memory store could not answer; retry shortly"}})
	}
}

// parseTime reads an optional RFC 3339 time of field.
func parseTime(field string, s *string) (*time.Time, error) {
	if s == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil, api.BadRequest(field, "%s must be an RFC 3339 time such as 2024-05-01T12:00:00Z, got %q", field, truncate(*s, 64))
	}
	if t.Year() < 1 || t.Year() > 9999 {
		return nil, api.BadRequest(field, "%s is out of range (years 1..9999)", field)
	}
	t = t.UTC()
	return &t, nil
}

// checkText validates a query or question: present, within the byte limit, free of NUL (Postgres text cannot
// hold it).
func (s *Service) checkText(field, text string) error {
	if strings.TrimSpace(text) == "" {
		return api.BadRequest(field, "%s is required and must not be blank", field)
	}
	if len(text) > s.cfg.MaxQueryBytes {
		return api.TooLarge(field, int64(s.cfg.MaxQueryBytes), "bytes", "%s is %d bytes; the limit is %d (MNEME_QUERY_MAX_QUERY_BYTES)", field, len(text), s.cfg.MaxQueryBytes)
	}
	if strings.ContainsRune(text, 0) {
		return api.BadRequest(field, "%s must not contain NUL characters", field)
	}
	return nil
}

// checkBudget validates token_budget (0 = default).
func (s *Service) checkBudget(b int) (int, error) {
	switch {
	case b == 0:
		return s.cfg.DefaultTokenBudget, nil
	case b < 0:
		return 0, api.OutOfRange("token_budget", s.cfg.MaxTokenBudget, "token_budget must be positive (or absent for the default %d)", s.cfg.DefaultTokenBudget)
	case b > s.cfg.MaxTokenBudget:
		return 0, api.OutOfRange("token_budget", s.cfg.MaxTokenBudget, "token_budget %d exceeds the limit %d (MNEME_QUERY_MAX_TOKEN_BUDGET)", b, s.cfg.MaxTokenBudget)
	}
	return b, nil
}

// checkPathText validates a path parameter: valid UTF-8, no NUL, bounded.
func checkPathText(field, v string, limit int) error {
	switch {
	case v == "":
		return api.BadRequest(field, "%s is empty", field)
	case len(v) > limit:
		return api.OutOfRange(field, limit, "%s is %d bytes; the limit is %d", field, len(v), limit)
	case !utf8.ValidString(v):
		return api.BadRequest(field, "%s is not valid UTF-8", field)
	case strings.ContainsRune(v, 0):
		return api.BadRequest(field, "%s must not contain NUL characters", field)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
