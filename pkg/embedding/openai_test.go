package embedding_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

func openAIConfig(srv *openaitest.Server, model string) llm.Config {
	return llm.Config{
		BaseURL: srv.URL(), Model: model,
		InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func norm(v []float32) float64 {
	var s float64
	for _, x := range v {
		s += float64(x) * float64(x)
	}
	return math.Sqrt(s)
}

func TestOpenAIEmbedder(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(12))
	// A server returning unnormalised vectors: the adapter normalises them.
	srv.EnqueueEmbeddings(openaitest.EmbeddingsReply("m", [][]float32{{3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0}}))
	e, err := embedding.NewOpenAI(openAIConfig(srv, "text-embedding-3-small"))
	if err != nil {
		t.Fatal(err)
	}
	var _ embedding.Embedder = e
	if e.Model() != "openai:text-embedding-3-small" || e.Dim() != 0 {
		t.Fatalf("model %q dim %d before first call", e.Model(), e.Dim())
	}
	ctx := context.Background()
	vs, err := e.Embed(ctx, []string{"a", "b"})
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 12 || len(vs) != 2 || math.Abs(float64(vs[0][0])-0.6) > 1e-6 || math.Abs(float64(vs[1][2])-1) > 1e-6 {
		t.Fatalf("dim %d vectors %v", e.Dim(), vs)
	}
	vs, err = e.Embed(ctx, []string{"x", "y", "z"})
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if math.Abs(norm(v)-1) > 1e-5 {
			t.Fatalf("vector %d norm %v", i, norm(v))
		}
	}
	if vs, err := e.Embed(ctx, nil); err != nil || len(vs) != 0 {
		t.Fatalf("empty input: %v %v", vs, err)
	}
}

func TestOpenAIEmbedderDimensionFixed(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(8))
	cfg := openAIConfig(srv, "m")
	cfg.Dimensions = 4
	e, err := embedding.NewOpenAI(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if e.Dim() != 4 {
		t.Fatalf("Dim %d, want 4 from config", e.Dim())
	}
	if vs, err := e.Embed(context.Background(), []string{"a"}); err != nil || len(vs[0]) != 4 {
		t.Fatalf("%v %v", vs, err)
	}

	// WithDim: a server that changes its dimension is refused.
	e2, err := embedding.NewOpenAI(openAIConfig(srv, "m"), embedding.WithDim(16))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e2.Embed(context.Background(), []string{"a"}); !errors.Is(err, embedding.ErrDimensionMismatch) || !errors.Is(err, llm.ErrDimensionMismatch) {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAIEmbedderDiscoveredDimensionSticks(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(6))
	e, err := embedding.NewOpenAI(openAIConfig(srv, "m"))
	if err != nil {
		t.Fatal(err)
	}
	if d, err := e.Probe(context.Background()); err != nil || d != 6 {
		t.Fatalf("probe %d %v", d, err)
	}
	srv.EnqueueEmbeddings(openaitest.FakeEmbeddings("m", []string{"a"}, 7))
	if _, err := e.Embed(context.Background(), []string{"a"}); !errors.Is(err, embedding.ErrDimensionMismatch) {
		t.Fatalf("err = %v", err)
	}
}

func TestOpenAIEmbedderConcurrentDiscovery(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(10))
	e, err := embedding.NewOpenAI(openAIConfig(srv, "m"))
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := e.Embed(context.Background(), []string{"a", "b"}); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if e.Dim() != 10 {
		t.Fatalf("dim %d", e.Dim())
	}
}

func TestOpenAIEmbedderRejectsZeroVector(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueEmbeddings(openaitest.EmbeddingsReply("m", [][]float32{{0, 0}}))
	e, err := embedding.NewOpenAI(openAIConfig(srv, "m"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Embed(context.Background(), []string{"a"}); !errors.Is(err, llm.ErrMalformedResponse) {
		t.Fatalf("err = %v", err)
	}
}

func TestNewOpenAINotConfigured(t *testing.T) {
	if _, err := embedding.NewOpenAI(llm.Config{}); !errors.Is(err, llm.ErrNotConfigured) {
		t.Fatalf("err = %v", err)
	}
}
