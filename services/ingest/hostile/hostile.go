// Package hostile makes request bodies that cost a JSON decoder far more memory than their size, the shapes
// an attacker sends to exhaust a service's memory, and valid bodies of the same size to compare them with.
// The ingest tests and bench/cmd/hostilebench share them; the ingest service itself never links this package.
package hostile

import (
	"bytes"
	"fmt"
	"strings"
)

// Body is one generated body.
type Body struct {
	// Name says what the body is ("empty-objects").
	Name string
	// Kind is "turns" or "claims": the endpoint (or inbox subject) it is sent to.
	Kind string
	// Data is the JSON.
	Data []byte
	// Valid is true for the baseline: a body ingest accepts.
	Valid bool
}

// Bodies returns every hostile shape and the valid baseline, each as close to size bytes as the shape allows
// (never above it).
func Bodies(size int) []Body {
	return []Body{
		Valid(size),
		EmptyObjects(size),
		DeepNesting(size),
		HugeArray(size),
		LongString(size),
		ManySmallItems(size),
	}
}

// fill repeats unit between head and tail until the body would exceed size; sep separates units.
func fill(head, unit, sep, tail string, size int) []byte {
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(head)
	first := true
	for b.Len()+len(sep)+len(unit)+len(tail) <= size {
		if !first {
			b.WriteString(sep)
		}
		b.WriteString(unit)
		first = false
	}
	b.WriteString(tail)
	return b.Bytes()
}

// EmptyObjects is {"turns":[{},{},…]}: 8 MiB of it is 2.8 million maps once decoded.
func EmptyObjects(size int) Body {
	return Body{Name: "empty-objects", Kind: "turns", Data: fill(`{"turns":[`, `{}`, `,`, `]}`, size)}
}

// DeepNesting nests arrays inside one turn's metadata as deep as the size allows.
func DeepNesting(size int) Body {
	head := `{"turns":[{"session_id":"s","role":"user","content":"x","metadata":{"a":`
	tail := `}}]}`
	depth := (size - len(head) - len(tail)) / 2
	return Body{Name: "deep-nesting", Kind: "turns", Data: []byte(head + strings.Repeat("[", depth) + strings.Repeat("]", depth) + tail)}
}

// HugeArray is one turn whose metadata holds an array of millions of zeros.
func HugeArray(size int) Body {
	return Body{Name: "huge-array", Kind: "turns", Data: fill(`{"turns":[{"session_id":"s","role":"user","content":"x","metadata":{"a":[`, `0`, `,`, `]}}]}`, size)}
}

// LongString is one turn whose content is one string of nearly size bytes.
func LongString(size int) Body {
	head := `{"turns":[{"session_id":"s","role":"user","content":"`
	tail := `"}]}`
	return Body{Name: "long-string", Kind: "turns", Data: []byte(head + strings.Repeat("x", size-len(head)-len(tail)) + tail)}
}

// ManySmallItems is {"claims":[…]} with as many small claims as fit: far beyond any batch limit.
func ManySmallItems(size int) Body {
	return Body{Name: "many-small-items", Kind: "claims", Data: fill(`{"claims":[`, `{"subject":"a","predicate":"b","object":"c"}`, `,`, `]}`, size)}
}

// Valid is the baseline: a turns batch of 256 turns (the default batch limit) whose contents fill size, each
// within the default content limit of 64 KiB when size is at most 16 MiB.
func Valid(size int) Body {
	const n = 256
	var b bytes.Buffer
	b.Grow(size)
	b.WriteString(`{"turns":[`)
	item := func(i int, content string) string {
		return fmt.Sprintf(`{"turn_id":"t%d","session_id":"s","role":"user","content":"%s"}`, i, content)
	}
	overhead := len(`{"turns":[]}`) + n*(len(item(0, ""))+4)
	per := (size - overhead) / n
	words := strings.Repeat("memory is bounded ", per/18+1)[:per]
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(item(i, words))
	}
	b.WriteString(`]}`)
	return Body{Name: "valid", Kind: "turns", Data: b.Bytes(), Valid: true}
}
