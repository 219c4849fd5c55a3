package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// HTTPError is a response a handler decided on: what to send (Status and the embedded ErrorBody) and, for logs
// only, the Cause. Every service's handlers return it for bad input (4xx) and for an unavailable dependency.
type HTTPError struct {
	Status int
	ErrorBody
	// Cause is the underlying error (a database error behind a 503, say): logged, never sent.
	Cause error
}

// Error reads as the caller would: the field, the message, the limit, then the cause if any.
func (e *HTTPError) Error() string {
	var b strings.Builder
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.Limit != "" {
		b.WriteString(" (limit ")
		b.WriteString(e.Limit)
		b.WriteString(")")
	}
	if e.Cause != nil {
		b.WriteString(": ")
		b.WriteString(e.Cause.Error())
	}
	return b.String()
}

// Unwrap returns the cause.
func (e *HTTPError) Unwrap() error { return e.Cause }

// Write sends e as the JSON error response.
func (e *HTTPError) Write(w http.ResponseWriter) {
	WriteJSON(w, e.Status, Error{Error: e.ErrorBody})
}

// BadRequest is a 400 invalid_argument about field (empty: the body as a whole).
func BadRequest(field, format string, a ...any) *HTTPError {
	return &HTTPError{Status: http.StatusBadRequest, ErrorBody: ErrorBody{Code: CodeInvalid, Field: field, Message: fmt.Sprintf(format, a...)}}
}

// OutOfRange is a 400 invalid_argument about a number of field above limit.
func OutOfRange(field string, limit int, format string, a ...any) *HTTPError {
	e := BadRequest(field, format, a...)
	e.Limit = strconv.Itoa(limit)
	return e
}

// TooLarge is a 413 too_large: field (empty: the body) is over limit units ("bytes", "characters", "items").
func TooLarge(field string, limit int64, unit, format string, a ...any) *HTTPError {
	return &HTTPError{Status: http.StatusRequestEntityTooLarge, ErrorBody: ErrorBody{Code: CodeTooLarge, Field: field,
		Limit: strconv.FormatInt(limit, 10) + " " + unit, Message: fmt.Sprintf(format, a...)}}
}

// NotFound is a 404 not_found about field.
func NotFound(field, format string, a ...any) *HTTPError {
	return &HTTPError{Status: http.StatusNotFound, ErrorBody: ErrorBody{Code: CodeNotFound, Field: field, Message: fmt.Sprintf(format, a...)}}
}

// DecodeBody reads a request body of at most limit bytes holding one JSON object into v, strictly: a larger
// body is a 413 naming the limit; invalid UTF-8, an empty body, malformed JSON, wrong types, unknown fields
// and trailing data are 400s that name the field where there is one. The error is always an *HTTPError.
func DecodeBody(w http.ResponseWriter, r *http.Request, limit int64, v any) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return TooLarge("", limit, "bytes", "the request body exceeds %d bytes", limit)
		}
		return BadRequest("", "cannot read the request body: %v", err)
	}
	if !utf8.Valid(body) {
		return BadRequest("", "the request body is not valid UTF-8")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return BadRequest("", "the request body is empty: send a JSON object")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if dec.More() {
		return BadRequest("", "the request body holds more than one JSON value")
	}
	if _, err := dec.Token(); err != io.EOF {
		return BadRequest("", "the request body has trailing data after the JSON object")
	}
	return nil
}

// jsonError turns a decoding error into a 400 naming the field where possible.
func jsonError(err error) *HTTPError {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return BadRequest("", "malformed JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			return BadRequest("", "the request body must be a JSON object, not %s", te.Value)
		}
		return BadRequest(field, "%s must be %s, not %s", field, jsonTypeName(te.Type.Kind().String()), te.Value)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return BadRequest("", "the request body ends before the JSON object does")
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		f = strings.Trim(f, `"`)
		return BadRequest(f, "unknown field %q", f)
	}
	return BadRequest("", "invalid JSON: %s", strings.TrimPrefix(msg, "json: "))
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

// Forbidden is a 403 permission_denied about field.
func Forbidden(field, format string, a ...any) *HTTPError {
	return &HTTPError{Status: http.StatusForbidden, ErrorBody: ErrorBody{Code: CodeForbidden, Field: field, Message: fmt.Sprintf(format, a...)}}
}
