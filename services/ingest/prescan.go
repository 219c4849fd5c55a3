package ingest

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
)

// scanLimits bound what a body may hold before anything is built from it. Building a document tree (the JSON
// Schema validator's) and then Go values costs far more memory than the body's bytes: 8 MiB of "{}," is 2.8
// million maps, which took the process from 188 MB to 2 GB. prescan checks these bounds first, so what is
// built afterwards is bounded by them.
type scanLimits struct {
	// list is the body's one top-level array ("turns" or "claims") and maxItems its length bound.
	list     string
	maxItems int
	// maxDepth bounds nesting (the body object is depth 1, an item depth 3).
	maxDepth int
	// maxValues bounds the keys and values of the whole body.
	maxValues int
	// fields bounds the string fields of an item by name; nested is the bound (and the field reported) for
	// strings and keys inside an item's object-valued field (metadata); other bounds every other string.
	fields map[string]int
	nested int
	other  int
}

// scanLimits returns the bounds of a body of kind under the service's configuration.
func (s *Service) scanLimits(kind string) scanLimits {
	c := s.cfg
	l := scanLimits{list: kind, maxDepth: c.MaxJSONDepth, maxValues: c.MaxJSONValues, nested: c.MaxMetadataBytes}
	if kind == kindTurns {
		l.maxItems = c.MaxTurnsPerBatch
		l.fields = map[string]int{
			"turn_id": c.MaxIDBytes, "session_id": c.MaxIDBytes, "speaker": c.MaxIDBytes,
			"content": c.MaxTurnContentBytes, "agent_id": auth.MaxAgentIDLen,
		}
	} else {
		l.maxItems = c.MaxClaimsPerBatch
		l.fields = map[string]int{
			"claim_id": c.MaxIDBytes, "subject": c.MaxSubjectBytes, "predicate": c.MaxPredicateBytes,
			"object": c.MaxObjectBytes, "text": c.MaxClaimTextBytes, "source": c.MaxSourceBytes, "agent_id": auth.MaxAgentIDLen,
		}
	}
	// Other strings (enums, times, unknown fields the schema refuses next) are bounded by the largest field.
	l.other = l.nested
	for _, n := range l.fields {
		l.other = max(l.other, n)
	}
	return l
}

// scanFrame is one open object or array.
type scanFrame struct {
	array bool
	index int // next element's index (arrays)
	key   string
	// wantKey is true in an object when the next token is a key.
	wantKey bool
}

// prescan walks body token by token (encoding/json's Decoder.Token, holding one token and a stack as deep as
// the nesting) and rejects it at the first bound broken — too many items in the list, too deep, too many
// values, a string longer than its field allows — naming the field and the limit, before anything is
// materialized. Syntax errors are left to the full decoder, which reports them as before: it stops at the
// same point, having built no more than prescan allowed.
func prescan(body []byte, l scanLimits) *api.HTTPError {
	dec := json.NewDecoder(bytes.NewReader(body))
	var stack []scanFrame
	values := 0
	// path renders the location of the token being read; withKey includes the innermost object's key.
	path := func(withKey bool) string {
		var b strings.Builder
		for i, f := range stack {
			switch {
			case f.array:
				b.WriteString("[" + strconv.Itoa(f.index) + "]")
			case i < len(stack)-1 || withKey:
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			}
		}
		return b.String()
	}
	// inItem reports whether the innermost container is an item of the list (depth 3: body, list, item).
	inItem := func() bool {
		return len(stack) == 3 && !stack[0].array && stack[0].key == l.list && stack[1].array && !stack[2].array
	}
	// fieldOf names the item field a nested token belongs to ("turns[3].metadata") and whether there is one.
	fieldOf := func() (string, bool) {
		if len(stack) < 4 || stack[0].array || stack[0].key != l.list || !stack[1].array || stack[2].array {
			return "", false
		}
		return l.list + "[" + strconv.Itoa(stack[1].index) + "]." + stack[2].key, true
	}
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
		tok, err := dec.Token()
		if err != nil {
			return nil // end of input, or a syntax error the full decoder reports
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			afterValue()
			continue
		}
		inKey := len(stack) > 0 && !stack[len(stack)-1].array && stack[len(stack)-1].wantKey
		values++
		if values > l.maxValues {
			return api.TooLarge(path(!inKey), int64(l.maxValues), "values", "the body holds more than %d JSON keys and values", l.maxValues)
		}
		// An element of the list beyond its bound.
		if len(stack) == 2 && stack[1].array && !stack[0].array && stack[0].key == l.list && stack[1].index >= l.maxItems {
			return api.TooLarge(l.list, int64(l.maxItems), "items", "has more than %d %s", l.maxItems, l.list)
		}
		if str, ok := tok.(string); ok {
			if ierr := l.checkString(str, inKey, inItem(), path, fieldOf); ierr != nil {
				return ierr
			}
			if inKey {
				stack[len(stack)-1].key = str
				stack[len(stack)-1].wantKey = false
				continue
			}
			afterValue()
			continue
		}
		if d, ok := tok.(json.Delim); ok {
			if len(stack)+1 > l.maxDepth {
				return api.TooLarge(path(true), int64(l.maxDepth), "levels", "nests deeper than %d levels", l.maxDepth)
			}
			stack = append(stack, scanFrame{array: d == '[', wantKey: d == '{'})
			continue
		}
		afterValue() // number, bool, null
	}
}

// checkString bounds one string token: an item field's value by that field's limit, anything inside an
// item's object-valued field by the nested bound (reported on that field, as the later size check is),
// everything else by the largest field limit.
func (l scanLimits) checkString(s string, isKey, inItem bool, path func(bool) string, fieldOf func() (string, bool)) *api.HTTPError {
	if inItem && !isKey {
		field := path(true)
		name := field[strings.LastIndexByte(field, '.')+1:]
		if limit, ok := l.fields[name]; ok {
			if len(s) > limit {
				return api.TooLarge(field, int64(limit), "bytes", "is %d bytes", len(s))
			}
			return nil
		}
	}
	if field, ok := fieldOf(); ok {
		if len(s) > l.nested {
			return api.TooLarge(field, int64(l.nested), "bytes", "holds a string of %d bytes", len(s))
		}
		return nil
	}
	if len(s) > l.other {
		return api.TooLarge(path(!isKey), int64(l.other), "bytes", "is a string of %d bytes", len(s))
	}
	return nil
}
