// Package beam reads the parts of the BEAM benchmark's published format that more than one tool needs.
package beam

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// SourceIDs reads a probing question's source_chat_ids: null, a list of message ids (possibly nested:
// event_ordering groups some ids in sub-lists), or an object of named lists ({"original_info": [86], ...}).
// all is every id, sorted and without repeats; groups is nil unless the value is an object.
func SourceIDs(raw json.RawMessage) (all []string, groups map[string][]string, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, nil, err
	}
	if m, ok := v.(map[string]any); ok {
		groups = map[string][]string{}
		for k, e := range m {
			var ids []string
			if err := collect(e, &ids); err != nil {
				return nil, nil, fmt.Errorf("%s: %w", k, err)
			}
			groups[k] = sortedUnique(ids)
			all = append(all, ids...)
		}
		return sortedUnique(all), groups, nil
	}
	if err := collect(v, &all); err != nil {
		return nil, nil, err
	}
	return sortedUnique(all), nil, nil
}

func collect(v any, out *[]string) error {
	switch x := v.(type) {
	case json.Number:
		*out = append(*out, x.String())
	case string:
		*out = append(*out, strings.TrimSpace(x))
	case []any:
		for _, e := range x {
			if err := collect(e, out); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("unexpected %T among message ids", v)
	}
	return nil
}

// sortedUnique returns the distinct non-empty ids, sorted.
func sortedUnique(ids []string) []string {
	ids = slices.DeleteFunc(ids, func(s string) bool { return s == "" })
	slices.Sort(ids)
	return slices.Compact(ids)
}
