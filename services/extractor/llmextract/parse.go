package llmextract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ErrInvalidOutput is returned when the model's JSON holds no claims list at all (as opposed to an empty
// one). It wraps llm.ErrMalformedResponse through Output.UnmarshalJSON so the client retries such answers.
var ErrInvalidOutput = errors.New("llmextract: model output has no claims list")

// maxItems bounds how many claims one answer may contribute; a runaway answer is cut, not rejected.
const maxItems = 512

// Item is one claim as the model stated it, after tolerant decoding.
type Item struct {
	// Turn is the index of the source turn in the window; -1 when the model gave none.
	Turn       int
	Subject    string
	Predicate  string
	Object     string
	Text       string
	Functional *bool
	ValidFrom  string
	Sequence   *int64
	Confidence *float64
}

// Output is the model's answer. Its UnmarshalJSON is tolerant of what models do: a bare array instead of
// {"claims": [...]}, other key names ("facts", "items"), numbers as strings, booleans as "yes"/"true",
// missing optional fields, extra fields. Items without subject, predicate and object are skipped.
type Output struct {
	Claims []Item
}

// UnmarshalJSON implements json.Unmarshaler.
func (o *Output) UnmarshalJSON(b []byte) error {
	items, err := Parse(b)
	if err != nil {
		return err
	}
	o.Claims = items
	return nil
}

// Parse decodes a model's JSON answer into items (see Output).
func Parse(b []byte) ([]Item, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidOutput, err)
	}
	list, ok := claimsList(v, 0)
	if !ok {
		return nil, ErrInvalidOutput
	}
	out := make([]Item, 0, min(len(list), maxItems))
	for _, raw := range list {
		if len(out) == maxItems {
			break
		}
		m, ok := raw.(map[string]any)
		if !ok {
			continue
		}
		it := Item{
			Turn:      intOr(first(m, "turn", "turn_index", "source_turn", "turn_id", "index", "i"), -1),
			Subject:   str(first(m, "subject", "entity", "s")),
			Predicate: str(first(m, "predicate", "relation", "attribute", "property", "p")),
			Object:    str(first(m, "object", "value", "o")),
			Text:      str(first(m, "text", "claim", "sentence", "statement", "fact")),
			ValidFrom: str(first(m, "valid_from", "date", "time", "when", "valid_time")),
		}
		if f, ok := boolean(first(m, "functional", "single_valued", "is_functional")); ok {
			it.Functional = &f
		}
		if n, ok := integer(first(m, "sequence", "seq", "number")); ok {
			it.Sequence = &n
		}
		if c, ok := number(first(m, "confidence", "score", "certainty")); ok && c >= 0 && c <= 1 {
			it.Confidence = &c
		} else if ok && c > 1 && c <= 100 {
			// Some models answer in percent.
			c /= 100
			it.Confidence = &c
		}
		if it.Subject == "" || it.Predicate == "" || it.Object == "" {
			continue
		}
		out = append(out, it)
	}
	return out, nil
}

// claimsList finds the list of claims: the value itself when it is an array, else the first array under a
// known key, else the only array-valued field (one level down at most).
func claimsList(v any, depth int) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case map[string]any:
		for _, k := range []string{"claims", "facts", "items", "results", "data", "output", "memories"} {
			if l, ok := x[k].([]any); ok {
				return l, true
			}
		}
		if depth == 0 {
			var found []any
			n := 0
			for _, val := range x {
				if l, ok := val.([]any); ok {
					found = l
					n++
				}
			}
			if n == 1 {
				return found, true
			}
			// {"result": {"claims": [...]}}
			for _, val := range x {
				if inner, ok := val.(map[string]any); ok {
					if l, ok := claimsList(inner, depth+1); ok {
						return l, true
					}
				}
			}
		}
		// A single claim object stands for a list of one.
		if _, ok := x["subject"]; ok {
			return []any{x}, true
		}
	}
	return nil, false
}

func first(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	for k, v := range m {
		for _, want := range keys {
			if strings.EqualFold(k, want) && v != nil {
				return v
			}
		}
	}
	return nil
}

// str renders scalars as strings; objects and arrays give "".
func str(v any) string {
	switch x := v.(type) {
	case string:
		return strings.TrimSpace(x)
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func boolean(v any) (bool, bool) {
	switch x := v.(type) {
	case bool:
		return x, true
	case string:
		switch strings.ToLower(strings.TrimSpace(x)) {
		case "true", "yes", "y", "1":
			return true, true
		case "false", "no", "n", "0":
			return false, true
		}
	case json.Number:
		return x.String() != "0", true
	}
	return false, false
}

func number(v any) (float64, bool) {
	var f float64
	var err error
	switch x := v.(type) {
	case json.Number:
		f, err = x.Float64()
	case string:
		f, err = strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(x), "%"), 64)
	default:
		return 0, false
	}
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

func integer(v any) (int64, bool) {
	f, ok := number(v)
	if !ok || f != math.Trunc(f) || f < -1e15 || f > 1e15 {
		if s, isStr := v.(string); isStr {
			// "D1:3", "#12", "turn 4": take the last run of digits.
			return lastDigits(s)
		}
		return 0, false
	}
	return int64(f), true
}

func lastDigits(s string) (int64, bool) {
	end := -1
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] >= '0' && s[i] <= '9' {
			if end < 0 {
				end = i + 1
			}
		} else if end >= 0 {
			n, err := strconv.ParseInt(s[i+1:end], 10, 64)
			return n, err == nil
		}
	}
	if end >= 0 {
		n, err := strconv.ParseInt(s[:end], 10, 64)
		return n, err == nil
	}
	return 0, false
}

func intOr(v any, def int) int {
	n, ok := integer(v)
	if !ok || n < 0 || n > math.MaxInt32 {
		return def
	}
	return int(n)
}
