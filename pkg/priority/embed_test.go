package priority_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/priority"
)

func loadModel(t *testing.T) *uselite.Model {
	t.Helper()
	dir := embedding.DefaultModelDir()
	m, err := uselite.Load(dir)
	if errors.Is(err, embedding.ErrModelMissing) && os.Getenv("MNEME_REQUIRE_MODEL") == "" {
		t.Skipf("USE-lite weights not found in %s (run `make deps`; set MNEME_REQUIRE_MODEL=1 to fail instead): %v", dir, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func ingestTexts(n int) []string {
	people := []string{"Maria", "Tom", "Aisha", "Kenji", "Elena"}
	cities := []string{"Lisbon", "Oslo", "Lima", "Seoul", "Prague", "Dublin", "Austin"}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s moved to %s in spring and works as a nurse at the hospital near the river (%d).", people[i%len(people)], cities[i%len(cities)], i)
	}
	return out
}

// A query's embedding, asked for while a large ingest batch is being embedded by the same local model, is
// served before the rest of the batch: the batch stops at its next chunk and waits until the query ends. The
// batch's vectors are still the model's own, and the batch completes.
func TestQueryEmbeddingJumpsAheadOfIngestBatch(t *testing.T) {
	model := loadModel(t)
	const chunk, n = 4, 128
	g := priority.New(priority.Options{Slots: 1, MaxDefer: time.Hour})
	ingest := priority.NewEmbedder(model.ThreadLimited(1), g, chunk)
	texts := ingestTexts(n)

	type result struct {
		vecs [][]float32
		err  error
	}
	batch := make(chan result, 1)
	go func() {
		v, err := ingest.Embed(context.Background(), texts)
		batch <- result{v, err}
	}()
	// The batch is under way: at least one chunk admitted.
	eventually(t, "the ingest batch starts", func() bool { return g.Stats().Units >= 1 })

	done := g.Query()
	q, err := model.Embed(context.Background(), []string{"Where does Maria live?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(q) != 1 || len(q[0]) != model.Dim() {
		t.Fatalf("query embedding: %d vectors", len(q))
	}
	// The query got its vector while the batch waits at a chunk boundary for it.
	eventually(t, "the batch waits for the query", func() bool {
		st := g.Stats()
		return st.Waiting == 1 && st.Deferred >= 1
	})
	select {
	case <-batch:
		t.Fatal("the ingest batch finished while the query was in flight: it did not yield")
	default:
	}
	unitsDuringQuery := g.Stats().Units
	if unitsDuringQuery >= n/chunk {
		t.Fatalf("%d of %d chunks ran before the query ended", unitsDuringQuery, n/chunk)
	}
	done()

	var res result
	select {
	case res = <-batch:
	case <-time.After(2 * time.Minute):
		t.Fatal("the ingest batch did not finish after the query ended")
	}
	if res.err != nil {
		t.Fatal(res.err)
	}
	if got := g.Stats().Units; got != n/chunk {
		t.Errorf("%d units, want %d chunks of %d", got, n/chunk, chunk)
	}
	want, err := model.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.vecs) != n {
		t.Fatalf("%d vectors for %d texts", len(res.vecs), n)
	}
	for i := range want {
		if c := embedding.Cosine(res.vecs[i], want[i]); c < 0.9999 {
			t.Errorf("text %d: chunked vector differs from the model's (cosine %.6f)", i, c)
		}
	}
}

// With queries in flight the whole time, a batch still completes: each chunk waits at most MaxDefer.
func TestIngestEmbeddingProgressesUnderConstantQueries(t *testing.T) {
	model := loadModel(t)
	g := priority.New(priority.Options{Slots: 1, MaxDefer: 5 * time.Millisecond})
	ingest := priority.NewEmbedder(model.ThreadLimited(1), g, 8)
	done := g.Query()
	defer done()
	vecs, err := ingest.Embed(context.Background(), ingestTexts(24))
	if err != nil {
		t.Fatal(err)
	}
	if len(vecs) != 24 {
		t.Fatalf("%d vectors for 24 texts", len(vecs))
	}
	if st := g.Stats(); st.Units != 3 || st.Expired != 3 {
		t.Errorf("stats %+v: want 3 chunks, each run after its deferral expired", st)
	}
}

func TestEmbedderWithoutGateOrTexts(t *testing.T) {
	model := loadModel(t)
	e := priority.NewEmbedder(model, nil, 0)
	if e.Model() != model.Model() || e.Dim() != model.Dim() {
		t.Errorf("model %s/%d, want %s/%d", e.Model(), e.Dim(), model.Model(), model.Dim())
	}
	vecs, err := e.Embed(context.Background(), ingestTexts(3))
	if err != nil || len(vecs) != 3 {
		t.Fatalf("ungated: %d vectors, %v", len(vecs), err)
	}
	gated := priority.NewEmbedder(model, priority.New(priority.Options{}), 2)
	vecs, err = gated.Embed(context.Background(), nil)
	if err != nil || len(vecs) != 0 {
		t.Fatalf("no texts: %d vectors, %v", len(vecs), err)
	}
}
