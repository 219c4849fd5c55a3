package ingest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/mneme-ai/mneme/pkg/api"
)

// Schema ids of the request bodies (schemas/api/v1).
const (
	schemaTurnsRequest  = "io.mneme.api.v1.turns_request"
	schemaClaimsRequest = "io.mneme.api.v1.claims_request"
)

// Bad input is an *api.HTTPError: the caller must change the request. It becomes a 4xx response on HTTP and a
// dead letter on the inbox; Field names the offending JSON path ("turns[3].content") and Limit the bound broken.

// rejectBody is the HTTP body of bad input. Its message repeats the field and the limit (api.HTTPError.Error),
// so it reads the same as the reason of the inbox's dead letter for the same input.
func rejectBody(e *api.HTTPError) api.Error {
	return api.Error{Error: api.ErrorBody{Code: e.Code, Message: e.Error(), Field: e.Field, Limit: e.Limit}}
}

// readBody reads an HTTP body of at most limit bytes. A declared Content-Length within the limit sizes the
// buffer once (io.ReadAll's doubling would take up to twice the body); a larger one is refused before reading.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, *api.HTTPError) {
	if r.ContentLength > limit {
		return nil, api.TooLarge("", limit, "bytes", "request body is %d bytes, larger than %d", r.ContentLength, limit)
	}
	var buf bytes.Buffer
	if r.ContentLength > 0 {
		buf.Grow(int(r.ContentLength) + bytes.MinRead)
	}
	_, err := buf.ReadFrom(http.MaxBytesReader(w, r.Body, limit))
	body := buf.Bytes()
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			return nil, api.TooLarge("", limit, "bytes", "request body exceeds %d bytes", limit)
		}
		return nil, api.BadRequest("", "cannot read request body: %v", err)
	}
	return body, nil
}

// decodeStrict turns raw bytes into v (a *api.TurnsRequest or *api.ClaimsRequest) after checking, in order:
// size, UTF-8, the bounds of scan (items, nesting, values, string lengths — before anything is built from
// the body), JSON syntax and the JSON Schema. Unknown fields are rejected by the schema
// (additionalProperties: false), and the Go types declare exactly the schema's properties
// (TestRequestTypesMatchSchemas), so the Go type never silently drops input.
//
// It is not api.DecodeBody, the other services' decoder: the same bytes come from the NATS inbox as well as
// HTTP, and a batch may be megabytes, so its bounds must be checked in place (prescan) before any tree or Go
// value is built from it (see docs/architecture.md, ingest).
func decodeStrict(body []byte, limit int64, scan scanLimits, schema *jsonschema.Schema, v any) *api.HTTPError {
	if int64(len(body)) > limit {
		return api.TooLarge("", limit, "bytes", "body is %d bytes, larger than %d", len(body), limit)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return api.BadRequest("", "body is empty: send a JSON object")
	}
	if !utf8.Valid(body) {
		off := invalidUTF8Offset(body)
		return api.BadRequest(pathAtOffset(body, off), "not valid UTF-8 (byte offset %d)", off)
	}
	if ierr := prescan(body, scan); ierr != nil {
		return ierr
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(body))
	if err != nil {
		return api.BadRequest("", "body is not valid JSON: %s", jsonErrorText(err))
	}
	if err := schema.Validate(doc); err != nil {
		var ve *jsonschema.ValidationError
		if errors.As(err, &ve) {
			return schemaError(ve)
		}
		return api.BadRequest("", "%v", err)
	}
	// The tree is not needed any more: dropping it before the Go values are built lets the collector take it
	// meanwhile (for a large body it is several times the body's size). The rare error below rebuilds it.
	// json.Unmarshal reads the body in place, where a Decoder would first copy it into a growing buffer.
	doc = nil
	if err := json.Unmarshal(body, v); err != nil {
		ierr := decodeError(err)
		if ierr.Field == "" {
			if tree, err := jsonschema.UnmarshalJSON(bytes.NewReader(body)); err == nil {
				if field, msg := badTime(tree); field != "" {
					return api.BadRequest(field, "%s", msg)
				}
			}
		}
		return ierr
	}
	return nil
}

// badTime finds a time field the schema's date-time format accepted but Go cannot represent (a leap second,
// for example), since the decoder's error does not say where it is.
func badTime(doc any) (field, msg string) {
	top, _ := doc.(map[string]any)
	for list, name := range map[string]string{"turns": "occurred_at", "claims": "valid_from"} {
		items, _ := top[list].([]any)
		for i, it := range items {
			m, _ := it.(map[string]any)
			s, ok := m[name].(string)
			if !ok {
				continue
			}
			if _, err := time.Parse(time.RFC3339Nano, s); err != nil {
				return fmt.Sprintf("%s[%d].%s", list, i, name), "must be an RFC 3339 time Go can represent (no leap seconds): " + err.Error()
			}
		}
	}
	return "", ""
}

func jsonErrorText(err error) string {
	msg := err.Error()
	// The library's messages start with the package name; the caller does not need it.
	return strings.TrimPrefix(msg, "jsonschema: ")
}

func decodeError(err error) *api.HTTPError {
	var ute *json.UnmarshalTypeError
	if errors.As(err, &ute) {
		return api.BadRequest(ute.Field, "must be %s, got JSON %s", ute.Type, ute.Value)
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return api.BadRequest("", "body is not valid JSON at byte %d: %v", se.Offset, err)
	}
	msg := err.Error()
	if f, ok := strings.CutPrefix(msg, `json: unknown field "`); ok {
		return api.BadRequest(strings.TrimSuffix(f, `"`), "unknown field")
	}
	// Time values reach here when their text is not RFC 3339 (the schema's date-time format should have said
	// so first).
	return api.BadRequest("", "%s", strings.TrimPrefix(msg, "json: "))
}

var printer = message.NewPrinter(language.English)

// schemaError reports the first leaf of a schema validation failure, naming its field as a path such as
// "turns[3].content".
func schemaError(ve *jsonschema.ValidationError) *api.HTTPError {
	leaf := firstLeaf(ve)
	field := fieldPath(leaf.InstanceLocation)
	join := func(name string) string {
		if field == "" {
			return name
		}
		return field + "." + name
	}
	switch k := leaf.ErrorKind.(type) {
	case *kind.Required:
		return api.BadRequest(join(k.Missing[0]), "is required")
	case *kind.AdditionalProperties:
		return api.BadRequest(join(k.Properties[0]), "unknown field")
	case *kind.MaxLength:
		return api.TooLarge(field, int64(k.Want), "characters", "is %d characters long", k.Got)
	case *kind.MaxItems:
		return api.TooLarge(field, int64(k.Want), "items", "has %d items", k.Got)
	case *kind.MinItems:
		return api.BadRequest(field, "must have at least %d item(s)", k.Want)
	case *kind.MinLength:
		return api.BadRequest(field, "must not be empty")
	case *kind.Format:
		if k.Want == "date-time" {
			return api.BadRequest(field, "must be an RFC 3339 time such as 2026-03-01T10:00:00Z, got %s", truncatedJSON(k.Got))
		}
		return api.BadRequest(field, "must be a valid %s", k.Want)
	case *kind.Pattern:
		return api.BadRequest(field, "has characters or a length outside what is allowed (pattern %s)", k.Want)
	case *kind.Type:
		if field == "" {
			return api.BadRequest(field, "the body must be a JSON %s, got %s", strings.Join(k.Want, " or "), k.Got)
		}
		return api.BadRequest(field, "must be %s, got %s", strings.Join(k.Want, " or "), k.Got)
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		return api.BadRequest(field, "must be one of %s, got %s", strings.Join(want, ", "), truncatedJSON(k.Got))
	case *kind.Minimum:
		return api.BadRequest(field, "must be at least %s, got %s", k.Want.RatString(), k.Got.RatString())
	case *kind.Maximum:
		return api.BadRequest(field, "must be at most %s, got %s", k.Want.RatString(), k.Got.RatString())
	}
	return api.BadRequest(field, "%s", leaf.ErrorKind.LocalizedString(printer))
}

// firstLeaf descends to the first cause without causes: the most specific failure.
func firstLeaf(ve *jsonschema.ValidationError) *jsonschema.ValidationError {
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve
}

// fieldPath renders a JSON pointer's tokens as a field path: ["turns","3","content"] → "turns[3].content".
func fieldPath(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		if _, err := strconv.Atoi(t); err == nil && b.Len() > 0 {
			b.WriteString("[" + t + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(t)
	}
	return b.String()
}

func truncatedJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "a value"
	}
	const max = 64
	if len(b) > max {
		// Cut on a rune boundary so the message stays valid UTF-8.
		cut := max
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		return string(b[:cut]) + "…"
	}
	return string(b)
}

func invalidUTF8Offset(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size <= 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// pathAtOffset returns the field path of the JSON value containing byte offset off of body, or "" when it
// cannot tell (for example when the JSON is malformed before off). It walks the token stream, so it works on
// bodies with invalid UTF-8, which the decoder replaces rather than rejects.
func pathAtOffset(body []byte, off int) string {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		array bool
		index int
		key   string
		// wantKey is true in an object when the next string token is a key.
		wantKey bool
	}
	var stack []frame
	path := func(withKey bool) string {
		var parts []string
		for i, f := range stack {
			switch {
			case f.array:
				parts = append(parts, strconv.Itoa(f.index))
			case i < len(stack)-1 || withKey:
				parts = append(parts, f.key)
			}
		}
		return fieldPath(parts)
	}
	// afterValue advances the innermost container past one value.
	afterValue := func() {
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].wantKey = true
			}
		}
	}
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return ""
		}
		end := dec.InputOffset()
		inKey := len(stack) > 0 && !stack[len(stack)-1].array && stack[len(stack)-1].wantKey
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if int64(off) < end && int64(off) >= start {
					return path(true)
				}
				stack = append(stack, frame{array: d == '[', wantKey: d == '{'})
			case '}', ']':
				stack = stack[:len(stack)-1]
				afterValue()
			}
			continue
		}
		if inKey {
			if int64(off) < end {
				// The bad byte is in a key: name the object holding it.
				return path(false)
			}
			stack[len(stack)-1].key = tok.(string)
			stack[len(stack)-1].wantKey = false
			continue
		}
		if int64(off) < end {
			return path(true)
		}
		afterValue()
	}
}
