package llm_test

import (
	"errors"
	"math"
	"testing"

	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

func TestEmbedBatching(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(16))
	cfg := testConfig(srv)
	cfg.Model = "text-embedding-3-small"
	cfg.EmbedBatchSize = 3
	acc := llm.NewAccountant()
	cfg.Accountant = acc
	c := newClient(t, cfg)
	texts := []string{"a", "b", "c", "d", "e", "f", "g"}
	res, err := c.Embed(llm.WithStage(ctxT(t), "embed-claims"), texts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Dim != 16 || len(res.Vectors) != len(texts) || res.Model != "text-embedding-3-small" {
		t.Fatalf("dim %d n %d model %q", res.Dim, len(res.Vectors), res.Model)
	}
	for i, s := range texts {
		if !equal(res.Vectors[i], openaitest.FakeEmbedding(s, 16)) {
			t.Fatalf("vector %d is not the embedding of %q", i, s)
		}
	}
	reqs := srv.RequestsTo(openaitest.PathEmbeddings)
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 batches", len(reqs))
	}
	for i, want := range []int{3, 3, 1} {
		er, err := reqs[i].Embeddings()
		if err != nil || len(er.Input) != want || er.Model != "text-embedding-3-small" || er.Dimensions != nil {
			t.Fatalf("batch %d: %+v %v", i, er, err)
		}
	}
	wantUsage := llm.Usage{PromptTokens: 7 * openaitest.DefaultEmbeddingTokensPerInput, TotalTokens: 7 * openaitest.DefaultEmbeddingTokensPerInput, Calls: 3}
	if res.Usage != wantUsage || acc.Stage("embed-claims") != wantUsage {
		t.Fatalf("usage %+v / %+v, want %+v", res.Usage, acc.Stage("embed-claims"), wantUsage)
	}
}

func TestEmbedDimensionsParameter(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(64))
	cfg := testConfig(srv)
	cfg.Dimensions = 24
	c := newClient(t, cfg)
	res, err := c.Embed(ctxT(t), []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	er, _ := srv.RequestsTo(openaitest.PathEmbeddings)[0].Embeddings()
	if res.Dim != 24 || er.Dimensions == nil || *er.Dimensions != 24 {
		t.Fatalf("dim %d, request %+v", res.Dim, er)
	}
	// A server that ignores dimensions is caught.
	srv.EnqueueEmbeddings(openaitest.FakeEmbeddings("", []string{"x"}, 64))
	if _, err := c.Embed(ctxT(t), []string{"x"}); !errors.Is(err, llm.ErrDimensionMismatch) {
		t.Fatalf("err = %v", err)
	}
}

func TestEmbedReordersByIndex(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueEmbeddings(openaitest.Response{Body: []byte(`{"object":"list","model":"m","data":[
		{"object":"embedding","index":1,"embedding":[0,1]},
		{"object":"embedding","index":0,"embedding":[1,0]}]}`)})
	c := newClient(t, testConfig(srv))
	res, err := c.Embed(ctxT(t), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Vectors[0][0] != 1 || res.Vectors[1][1] != 1 || res.Usage.PromptTokens != 0 || res.Usage.Calls != 1 {
		t.Fatalf("res %+v", res)
	}
}

func TestEmbedBase64(t *testing.T) {
	srv := openaitest.NewServer(t)
	// [1.0, -2.0] as little-endian float32, base64.
	srv.EnqueueEmbeddings(openaitest.Response{Body: []byte(`{"data":[{"index":0,"embedding":"AACAPwAAAMA="}]}`)})
	c := newClient(t, testConfig(srv))
	res, err := c.Embed(ctxT(t), []string{"x"})
	if err != nil || res.Vectors[0][0] != 1 || res.Vectors[0][1] != -2 {
		t.Fatalf("err %v res %+v", err, res)
	}
}

func TestEmbedMismatch(t *testing.T) {
	cases := map[string]openaitest.Response{
		"dimensions differ within a batch": openaitest.EmbeddingsReply("m", [][]float32{{1, 0, 0}, {1, 0}}),
		"fewer vectors than inputs":        openaitest.EmbeddingsReply("m", [][]float32{{1, 0}}),
		"more vectors than inputs":         openaitest.EmbeddingsReply("m", [][]float32{{1, 0}, {0, 1}, {1, 1}}),
	}
	for name, resp := range cases {
		t.Run(name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			srv.EnqueueEmbeddings(resp, openaitest.FakeEmbeddings("m", []string{"a", "b"}, 2))
			c := newClient(t, testConfig(srv))
			_, err := c.Embed(ctxT(t), []string{"a", "b"})
			if !errors.Is(err, llm.ErrDimensionMismatch) {
				t.Fatalf("err = %v", err)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Fatalf("%d requests: mismatch must be permanent", n)
			}
		})
	}
	t.Run("dimensions differ across batches", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		srv.EnqueueEmbeddings(openaitest.EmbeddingsReply("m", [][]float32{{1, 0}}), openaitest.EmbeddingsReply("m", [][]float32{{1, 0, 0}}))
		cfg := testConfig(srv)
		cfg.EmbedBatchSize = 1
		c := newClient(t, cfg)
		if _, err := c.Embed(ctxT(t), []string{"a", "b"}); !errors.Is(err, llm.ErrDimensionMismatch) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestEmbedRetries(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(4))
	srv.EnqueueEmbeddings(openaitest.RateLimited(0), openaitest.MalformedJSON(), openaitest.ServerError(503),
		openaitest.Response{Body: []byte(`{"data":[{"index":0,"embedding":[]}]}`)})
	c := newClient(t, testConfig(srv))
	res, err := c.Embed(ctxT(t), []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Usage.Calls != 5 || res.Usage.Retries != 4 || res.Dim != 4 {
		t.Fatalf("res %+v", res)
	}
}

func TestEmbedEmpty(t *testing.T) {
	srv := openaitest.NewServer(t)
	c := newClient(t, testConfig(srv))
	res, err := c.Embed(ctxT(t), nil)
	if err != nil || len(res.Vectors) != 0 || len(srv.Requests()) != 0 {
		t.Fatalf("err %v res %+v", err, res)
	}
}

func equal(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > 1e-7 {
			return false
		}
	}
	return true
}
