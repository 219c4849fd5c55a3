// Package embeddingtest provides a deterministic, dependency-free embedder for tests and benchmarks that need
// vectors but not model quality: texts sharing words get similar vectors (feature hashing of word unigrams
// and bigrams), so similarity-based logic behaves plausibly.
package embeddingtest

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Hash is a feature-hashing embedder. The zero value is not usable; use New.
type Hash struct {
	dim   int
	model string
}

// New returns a Hash embedder of the given dimension.
func New(dim int) *Hash { return &Hash{dim: dim, model: "test-hash-v1"} }

// Model implements embedding.Embedder.
func (h *Hash) Model() string { return h.model }

// Dim implements embedding.Embedder.
func (h *Hash) Dim() int { return h.dim }

// Embed implements embedding.Embedder.
func (h *Hash) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = h.one(t)
	}
	return out, nil
}

func (h *Hash) one(text string) []float32 {
	v := make([]float32, h.dim)
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	add := func(feature string, weight float32) {
		f := fnv.New64a()
		_, _ = f.Write([]byte(feature))
		s := f.Sum64()
		idx := int(s % uint64(h.dim))
		if (s>>63)&1 == 1 {
			weight = -weight
		}
		v[idx] += weight
	}
	for i, w := range words {
		add(w, 1)
		if i > 0 {
			add(words[i-1]+" "+w, 0.5)
		}
	}
	if len(words) == 0 {
		add("\x00empty", 1)
	}
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm > 0 {
		inv := float32(1 / math.Sqrt(norm))
		for i := range v {
			v[i] *= inv
		}
	}
	return v
}
