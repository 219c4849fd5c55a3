package embeddingtest

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Words is a feature-hashing embedder over single words, each passed through a normalizer (a stemmer, say)
// first, so texts sharing normalized words are close. Unlike Hash it has no bigrams: the query service's tests
// and the pipeline tests tune their similarity thresholds to it. The zero value is not usable; use NewWords.
type Words struct {
	dim       int
	normalize func(string) string
}

// NewWords returns a Words embedder of the given dimension; normalize maps each lower-cased word (nil: as is).
func NewWords(dim int, normalize func(string) string) *Words {
	if normalize == nil {
		normalize = func(w string) string { return w }
	}
	return &Words{dim: dim, normalize: normalize}
}

// Model implements embedding.Embedder.
func (h *Words) Model() string { return "test-hash" }

// Dim implements embedding.Embedder.
func (h *Words) Dim() int { return h.dim }

// Embed implements embedding.Embedder.
func (h *Words) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		v := make([]float32, h.dim)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			f := fnv.New64a()
			_, _ = f.Write([]byte(h.normalize(w)))
			x := f.Sum64()
			sign := float32(1)
			if x>>63 == 1 {
				sign = -1
			}
			v[x%uint64(h.dim)] += sign
		}
		var n float64
		for _, x := range v {
			n += float64(x * x)
		}
		if n == 0 {
			// An empty text still gets a unit vector.
			v[0], n = 1, 1
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}
