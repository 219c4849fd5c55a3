package query

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
)

// httpError is a response the handler decided on: bad input (4xx) or an unavailable dependency (503).
type httpError struct {
	status int
	body   api.ErrorBody
	cause  error // logged, never sent
}

func (e *httpError) Error() string {
	if e.cause != nil {
		return fmt.Sprintf("%d %s: %s: %v", e.status, e.body.Code, e.body.Message, e.cause)
	}
	return fmt.Sprintf("%d %s: %s", e.status, e.body.Code, e.body.Message)
}

func badRequest(field, format string, a ...any) *httpError {
	return &httpError{status: http.StatusBadRequest, body: api.ErrorBody{Code: api.CodeInvalid, Field: field, Message: fmt.Sprintf(format, a...)}}
}

func outOfRange(field string, limit int, format string, a ...any) *httpError {
	e := badRequest(field, format, a...)
	e.body.Limit = strconv.Itoa(limit)
	return e
}

func tooLarge(field string, limit int64, format string, a ...any) *httpError {
	return &httpError{status: http.StatusRequestEntityTooLarge, body: api.ErrorBody{Code: api.CodeTooLarge, Field: field,
		Limit: strconv.FormatInt(limit, 10) + " bytes", Message: fmt.Sprintf(format, a...)}}
}

func notFound(field, format string, a ...any) *httpError {
	return &httpError{status: http.StatusNotFound, body: api.ErrorBody{Code: api.CodeNotFound, Field: field, Message: fmt.Sprintf(format, a...)}}
}

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

// writeErr answers err: its own status for an httpError or auth.Error, 503 for a deadline or an unreachable
// database (the caller may retry), never a 500 for anything a caller can send.
func (s *Service) writeErr(w http.ResponseWriter, r *http.Request, err error) {
	var he *httpError
	var ae *auth.Error
	switch {
	case errors.As(err, &he):
		if he.cause != nil {
			s.log.WarnContext(r.Context(), "request failed", "path", r.URL.Path, "err", err)
		}
		api.WriteJSON(w, he.status, api.Error{Error: he.body})
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

// decodeBody reads a JSON object of at most the configured size into v, strictly: unknown fields, trailing
// data and wrong types are 400s that name the field.
func (s *Service) decodeBody(w http.ResponseWriter, r *request, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return tooLarge("", s.cfg.MaxBodyBytes, "the request body exceeds %d bytes", s.cfg.MaxBodyBytes)
		}
		return badRequest("", "cannot read the request body: %v", err)
	}
	if !utf8.Valid(body) {
		return badRequest("", "the request body is not valid UTF-8")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return badRequest("", "the request body is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return badRequest("", "the request body holds more than one JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("", "the request body has trailing data after the JSON object")
	}
	return nil
}

// jsonError turns a decoding error into a 400 naming the field where possible.
func jsonError(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return badRequest("", "malformed JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return badRequest("", "the request body must be a JSON object, not %s", te.Value)
		}
		return badRequest(field, "%s must be %s, not %s", field, jsonTypeName(te.Type.Kind().String()), te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return badRequest("", "the request body ends before the JSON object does")
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		f = strings.Trim(f, `"`)
		return badRequest(f, "unknown field %q", f)
	}
	return badRequest("", "invalid JSON: %s", strings.TrimPrefix(msg, "json: "))
}

func jsonTypeName(kind string) string {
	switch kind {
	case "int", "int64", "int32":
		return "an integer"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "float64":
		return "a number"
	case "struct", "map":
		return "an object"
	case "slice":
		return "an array"
	}
	return "a " + kind
}

// parseTime reads an optional RFC 3339 time of field.
func parseTime(field string, s *string) (*time.Time, error) {
	if s == nil {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, *s)
	if err != nil {
		return nil, badRequest(field, "%s must be an RFC 3339 time such as 2024-05-01T12:00:00Z, got %q", field, truncate(*s, 64))
	}
	if t.Year() < 1 || t.Year() > 9999 {
		return nil, badRequest(field, "%s is out of range (years 1..9999)", field)
	}
	t = t.UTC()
	return &t, nil
}

// checkText validates a query or question: present, within the byte limit, free of NUL (Postgres text cannot
// hold it).
func (s *Service) checkText(field, text string) error {
	if strings.TrimSpace(text) == "" {
		return badRequest(field, "%s is required and must not be blank", field)
	}
	if len(text) > s.cfg.MaxQueryBytes {
		return tooLarge(field, int64(s.cfg.MaxQueryBytes), "%s is %d bytes; the limit is %d (MNEME_QUERY_MAX_QUERY_BYTES)", field, len(text), s.cfg.MaxQueryBytes)
	}
	if strings.ContainsRune(text, 0) {
		return badRequest(field, "%s must not contain NUL characters", field)
	}
	return nil
}

// checkBudget validates token_budget (0 = default).
func (s *Service) checkBudget(b int) (int, error) {
	switch {
	case b == 0:
		return s.cfg.DefaultTokenBudget, nil
	case b < 0:
		return 0, outOfRange("token_budget", s.cfg.MaxTokenBudget, "token_budget must be positive (or absent for the default %d)", s.cfg.DefaultTokenBudget)
	case b > s.cfg.MaxTokenBudget:
		return 0, outOfRange("token_budget", s.cfg.MaxTokenBudget, "token_budget %d exceeds the limit %d (MNEME_QUERY_MAX_TOKEN_BUDGET)", b, s.cfg.MaxTokenBudget)
	}
	return b, nil
}

// checkPathText validates a path parameter: valid UTF-8, no NUL, bounded.
func checkPathText(field, v string, limit int) error {
	switch {
	case v == "":
		return badRequest(field, "%s is empty", field)
	case len(v) > limit:
		return outOfRange(field, limit, "%s is %d bytes; the limit is %d", field, len(v), limit)
	case !utf8.ValidString(v):
		return badRequest(field, "%s is not valid UTF-8", field)
	case strings.ContainsRune(v, 0):
		return badRequest(field, "%s must not contain NUL characters", field)
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
