package uselite

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

// parityFixture is testdata/parity.json, written by scripts/embedding-fixtures/generate.js from the
// reference implementation.
type parityFixture struct {
	Reference string `json:"reference"`
	Cases     []struct {
		Text   string    `json:"text"`
		IDs    []int     `json:"ids"`
		Vector []float64 `json:"vector"`
	} `json:"cases"`
	TokenizerCases []struct {
		Text string `json:"text"`
		IDs  []int  `json:"ids"`
	} `json:"tokenizer_cases"`
}

func readFixture(t testing.TB) *parityFixture {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "parity.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f parityFixture
	if err := json.Unmarshal(raw, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) == 0 {
		t.Fatal("fixture has no cases")
	}
	return &f
}

var (
	modelsMu sync.Mutex
	models   = map[string]*Model{}
)

// loadModel loads the model from embedding.DefaultModelDir() once per implementation. Missing weights
// skip the test, unless MNEME_REQUIRE_MODEL is set (as `make test` does), when they fail it.
func loadModel(t testing.TB, impl Implementation) *Model {
	t.Helper()
	return loadCached(t, impl.String(), WithImplementation(impl))
}

// loadKernel loads the optimised implementation with the named kernel forced, once per kernel.
func loadKernel(t testing.TB, name string) *Model {
	t.Helper()
	return loadCached(t, "optimized/"+name, WithKernel(name))
}

func loadCached(t testing.TB, key string, opts ...Option) *Model {
	t.Helper()
	modelsMu.Lock()
	defer modelsMu.Unlock()
	if m := models[key]; m != nil {
		return m
	}
	dir := embedding.DefaultModelDir()
	m, err := Load(dir, opts...)
	if errors.Is(err, embedding.ErrModelMissing) && os.Getenv("MNEME_REQUIRE_MODEL") == "" {
		t.Skipf("USE-lite weights not found in %s (run `make deps`; set MNEME_REQUIRE_MODEL=1 to fail instead): %v", dir, err)
	}
	if err != nil {
		t.Fatalf("load model from %s: %v", dir, err)
	}
	models[key] = m
	return m
}

func cosine(a []float32, b []float64) float64 {
	var d, na, nb float64
	for i := range a {
		d += float64(a[i]) * b[i]
		na += float64(a[i]) * float64(a[i])
		nb += b[i] * b[i]
	}
	return d / math.Sqrt(na*nb)
}

// TestParityWithReference checks every kernel this CPU can run, and the naive baseline, against the
// reference vectors. The assembly kernels are checked batched and one text per call on every text;
// the portable kernel batched (only short texts under the race detector or -short, which slow
// scalar Go about tenfold); the naive baseline (seconds per long text) on the shorter texts.
func TestParityWithReference(t *testing.T) {
	logUnchecked(t)
	f := readFixture(t)
	genericMax, naiveMax := MaxTokens+1000, 12
	if raceEnabled || testing.Short() {
		genericMax, naiveMax = 6, 6
	}
	type target struct {
		name      string // subtest name: the kernel, or "naive"
		load      func(testing.TB) *Model
		single    bool
		maxTokens int
	}
	var targets []target
	for _, name := range Kernels() {
		tc := target{name: name, load: func(t testing.TB) *Model { return loadKernel(t, name) }, single: true, maxTokens: MaxTokens + 1000}
		if name == KernelGeneric {
			tc.single, tc.maxTokens = false, genericMax
		}
		targets = append(targets, tc)
	}
	targets = append(targets, target{name: "naive", load: func(t testing.TB) *Model { return loadModel(t, Naive) }, maxTokens: naiveMax})
	for _, tc := range targets {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.load(t)
			var texts []string
			var want [][]float64
			for _, c := range f.Cases {
				if len(c.IDs) <= tc.maxTokens {
					texts = append(texts, c.Text)
					want = append(want, c.Vector)
				}
			}
			check := func(mode string, got [][]float32) float64 {
				t.Helper()
				if len(got) != len(want) {
					t.Fatalf("%s: got %d vectors for %d texts", mode, len(got), len(want))
				}
				minCos := 1.0
				for i := range got {
					if len(got[i]) != Dim {
						t.Fatalf("%s %q: got %d dims", mode, texts[i], len(got[i]))
					}
					cos := cosine(got[i], want[i])
					minCos = min(minCos, cos)
					if cos < 0.999 {
						t.Errorf("%s %q: cosine with reference %.6f < 0.999", mode, texts[i], cos)
					}
				}
				return minCos
			}
			batched, err := m.Embed(context.Background(), texts)
			if err != nil {
				t.Fatal(err)
			}
			minCos := check("batched", batched)
			if tc.single {
				single := make([][]float32, len(texts))
				for i, text := range texts {
					v, err := m.Embed(context.Background(), []string{text})
					if err != nil {
						t.Fatal(err)
					}
					single[i] = v[0]
				}
				minCos = min(minCos, check("single", single))
			}
			t.Logf("%s: min cosine with the reference over %d texts: %.7f", m.Implementation(), len(texts), minCos)
		})
	}
}

func TestTokenizerMatchesReference(t *testing.T) {
	f := readFixture(t)
	m := loadModel(t, Optimized)
	check := func(text string, want []int) {
		t.Helper()
		got := m.Tokenizer().Encode(text)
		if !equalInts(got, want) {
			t.Errorf("Encode(%q)\n got %v\nwant %v", text, got, want)
		}
	}
	for _, c := range f.Cases {
		check(c.Text, c.IDs)
	}
	for _, c := range f.TokenizerCases {
		check(c.Text, c.IDs)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
