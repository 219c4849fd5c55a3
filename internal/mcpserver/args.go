package mcpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/jsonschema-go/jsonschema"
)

// maxArgumentBytes bounds the arguments of one tool call before they are decoded: the ingest service's default
// request bound (MNEME_INGEST_MAX_BODY_BYTES), which applies again, configurably, to the call it leads to.
const maxArgumentBytes = 8 << 20

// maxMessageBytes bounds one MCP message on either transport: the arguments and the JSON-RPC envelope around
// them. It is read before anything is decoded.
const maxMessageBytes = maxArgumentBytes + 1<<20

// argError is a tool argument the server refuses: Field is its path ("claims[2].valid_from"; "" for the
// arguments as a whole), Msg says what is wrong and what is allowed.
type argError struct {
	Field string
	Msg   string
}

func (e *argError) Error() string { return e.Msg }

func argErrorf(field, format string, a ...any) *argError {
	return &argError{Field: field, Msg: fmt.Sprintf(format, a...)}
}

// decodeArgs checks raw tool arguments against the tool's input schema and decodes them into out. The schema
// is the one source of truth the client sees; the checks here read it (type, required, unknown properties,
// enum, lengths, ranges, item counts) so that a refusal names the field, the limit and what was sent, in
// words a model can act on — the SDK's own validator reports JSON-pointer paths instead.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Schema, out any) error {
	if len(raw) > maxArgumentBytes {
		return argErrorf("", "the arguments are %d bytes; the limit is %d", len(raw), maxArgumentBytes)
	}
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = json.RawMessage("{}")
	}
	if !utf8.Valid(raw) {
		return argErrorf("", "the arguments are not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return argErrorf("", "the arguments are not valid JSON: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return argErrorf("", "the arguments hold more than one JSON value")
	}
	if err := check("", schema, v); err != nil {
		return err
	}
	// The value already matches the schema, whose properties are out's fields (TestSchemasMatchInputs), so
	// this decode only fails on a value the schema cannot express, such as an integer beyond int64.
	d := json.NewDecoder(bytes.NewReader(raw))
	d.DisallowUnknownFields()
	if err := d.Decode(out); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return argErrorf(te.Field, "%s cannot hold %s", te.Field, te.Value)
		}
		return argErrorf("", "the arguments cannot be decoded: %v", err)
	}
	return nil
}

// check validates v against s at path.
func check(path string, s *jsonschema.Schema, v any) error {
	name := path
	if name == "" {
		name = "the arguments"
	}
	if len(s.Enum) > 0 {
		for _, e := range s.Enum {
			if e == v {
				return nil
			}
		}
		opts := make([]string, len(s.Enum))
		for i, e := range s.Enum {
			opts[i] = fmt.Sprintf("%q", e)
		}
		return argErrorf(path, "%s must be one of %s, not %s", name, strings.Join(opts, ", "), shortJSON(v))
	}
	switch s.Type {
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return argErrorf(path, "%s must be a JSON object, not %s", name, kindOf(v))
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			ps, ok := s.Properties[k]
			if !ok {
				return argErrorf(join(path, k), "unknown argument %q: %s takes %s", truncate(k, 64), name, strings.Join(propertyNames(s), ", "))
			}
			if m[k] == nil {
				continue // JSON null is "not given" for an optional argument
			}
			if err := check(join(path, k), ps, m[k]); err != nil {
				return err
			}
		}
		for _, r := range s.Required {
			if m[r] == nil {
				return argErrorf(join(path, r), "%s is required: %s", join(path, r), s.Properties[r].Description)
			}
		}
	case "array":
		a, ok := v.([]any)
		if !ok {
			return argErrorf(path, "%s must be an array, not %s", name, kindOf(v))
		}
		if s.MinItems != nil && len(a) < *s.MinItems {
			return argErrorf(path, "%s must hold at least %d item(s), not %d", name, *s.MinItems, len(a))
		}
		if s.MaxItems != nil && len(a) > *s.MaxItems {
			return argErrorf(path, "%s holds %d items; the limit is %d", name, len(a), *s.MaxItems)
		}
		for i, item := range a {
			if err := check(fmt.Sprintf("%s[%d]", path, i), s.Items, item); err != nil {
				return err
			}
		}
	case "string":
		str, ok := v.(string)
		if !ok {
			return argErrorf(path, "%s must be a string, not %s", name, kindOf(v))
		}
		n := utf8.RuneCountInString(str)
		if s.MinLength != nil && n < *s.MinLength {
			if *s.MinLength == 1 {
				return argErrorf(path, "%s must not be empty", name)
			}
			return argErrorf(path, "%s must be at least %d characters long", name, *s.MinLength)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			return argErrorf(path, "%s is %d characters long; the limit is %d", name, n, *s.MaxLength)
		}
		if strings.ContainsRune(str, 0) {
			return argErrorf(path, "%s must not contain NUL characters", name)
		}
		if s.Pattern != "" && !matches(s.Pattern, str) {
			return argErrorf(path, "%s must be %s; got %q", name, patternText(s.Pattern), truncate(str, 64))
		}
	case "integer", "number":
		num, ok := v.(json.Number)
		if !ok {
			return argErrorf(path, "%s must be a number, not %s", name, kindOf(v))
		}
		f, err := num.Float64()
		if err != nil || math.IsInf(f, 0) {
			return argErrorf(path, "%s is not a number this server can hold: %s", name, truncate(num.String(), 32))
		}
		if s.Type == "integer" {
			if _, err := strconv.ParseInt(num.String(), 10, 64); err != nil {
				return argErrorf(path, "%s must be a whole number, not %s", name, truncate(num.String(), 32))
			}
		}
		if (s.Minimum != nil && f < *s.Minimum) || (s.Maximum != nil && f > *s.Maximum) {
			return argErrorf(path, "%s must be %s; got %s", name, rangeText(s), truncate(num.String(), 32))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return argErrorf(path, "%s must be true or false, not %s", name, kindOf(v))
		}
	}
	return nil
}

var patterns sync.Map // pattern → *regexp.Regexp

// matches reports whether s matches pattern; the patterns are the tool schemas' own, so a bad one is a bug.
func matches(pattern, s string) bool {
	re, ok := patterns.Load(pattern)
	if !ok {
		re, _ = patterns.LoadOrStore(pattern, regexp.MustCompile(pattern))
	}
	return re.(*regexp.Regexp).MatchString(s)
}

func patternText(pattern string) string {
	if pattern == uuidPattern {
		return "a UUID such as 0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11"
	}
	return "of the form " + pattern
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func propertyNames(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}

func rangeText(s *jsonschema.Schema) string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case s.Minimum != nil && s.Maximum != nil:
		return "between " + f(*s.Minimum) + " and " + f(*s.Maximum)
	case s.Minimum != nil:
		return "at least " + f(*s.Minimum)
	default:
		return "at most " + f(*s.Maximum)
	}
}

func kindOf(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return fmt.Sprintf("a string (%q)", truncate(v, 32))
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

func shortJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return kindOf(v)
	}
	return truncate(string(b), 64)
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

// parseTime reads an optional time argument: RFC 3339 ("2024-06-01T12:00:00Z"), or a calendar date
// ("2024-06-01", meaning midnight UTC), which is how models most often write a day.
func parseTime(field, s string) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		if t, err = time.Parse(time.DateOnly, s); err != nil {
			return nil, argErrorf(field, "%s must be an RFC 3339 time such as 2024-06-01T12:00:00Z, or a date such as 2024-06-01; got %q", field, truncate(s, 64))
		}
	}
	if t.Year() < 1 || t.Year() > 9999 {
		return nil, argErrorf(field, "%s is out of range (years 1..9999)", field)
	}
	t = t.UTC()
	return &t, nil
}
