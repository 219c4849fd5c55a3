package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"hash/fnv"
	"math"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/schemas"
)

// hashEmbedder is the query service's test embedder: feature hashing of stemmed words, so texts sharing words
// are close. The pipeline tests' thresholds (NegationSimilarity 0.25) are set for it, so it keeps the stemming
// that pkg/embedding/embeddingtest's embedder does not do.
type hashEmbedder struct{ dim int }

func (h hashEmbedder) Model() string { return "test-hash" }
func (h hashEmbedder) Dim() int      { return h.dim }
func (h hashEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i, t := range texts {
		v := make([]float32, h.dim)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			f := fnv.New64a()
			_, _ = f.Write([]byte(english.Stem(w, false)))
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
			v[0], n = 1, 1
		}
		for j := range v {
			v[j] /= float32(math.Sqrt(n))
		}
		out[i] = v
	}
	return out, nil
}

// onDay is midnight UTC of a YYYY-MM-DD date.
func onDay(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func ptime(t time.Time) *time.Time { return &t }

func claimIDs(cs []api.Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func findClaim(cs []api.Claim, id string) *api.Claim {
	for i := range cs {
		if cs[i].ID == id {
			return &cs[i]
		}
	}
	return nil
}

const openapiURL = "https://schemas.mneme.io/openapi.json"

// componentSchemas compiles the named component schemas of schemas/openapi.yaml (JSON Schema 2020-12).
func componentSchemas(t *testing.T, names ...string) map[string]*jsonschema.Schema {
	t.Helper()
	b, err := schemas.FS.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(b, &doc); err != nil {
		t.Fatalf("openapi.yaml: %v", err)
	}
	// Round-trip through JSON so the compiler sees JSON types (YAML decodes integers as int).
	raw, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	if err := c.AddResource(openapiURL, v); err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	for _, n := range names {
		s, err := c.Compile(openapiURL + "#/components/schemas/" + n)
		if err != nil {
			t.Fatalf("compile %s: %v", n, err)
		}
		out[n] = s
	}
	return out
}
