package query

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// denseOnly runs the query service's retrieval for a question made only of stopwords, naming no subject of the
// workspace: no lexical term and no known name, so every candidate comes from the dense mode, best first.
func denseOnly(t *testing.T, h *harness, ws, agent, question string) []string {
	t.Helper()
	ctx := context.Background()
	if terms := lexicalTerms(question); len(terms) > 0 {
		t.Fatalf("question %q has lexical terms %v; the test needs the dense mode alone", question, terms)
	}
	vecs, err := h.emb.Embed(ctx, []string{question})
	if err != nil {
		t.Fatal(err)
	}
	cands, _, _, err := h.svc.retrieve(ctx, store.View{Workspace: ws, Agent: agent}, question, nil, vecs[0], h.emb.Dim())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, c := range cands {
		ids = append(ids, c.id)
	}
	return ids
}

// A workspace without an index of its own is searched by its vectors' signs first, its nearest vectors among
// those next and the view's filters last. When the vectors nearest the question are claims the agent may not read, the claims it may read are
// still found, however far down the workspace's order they are.
func TestExactDenseFindsVisibleClaimsBeyondTheNearestCut(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Candidates = 2 }) // the cut holds store.SignsCutFactor·2 = 8 vectors
	f := h.workspace("team")
	const question = "about over under into onto"
	// Twenty private claims of agent-b share every word of the question: they are the nearest vectors, more
	// than the cut holds.
	var private []string
	for i := range 20 {
		private = append(private, f.add(fclaim{Subject: fmt.Sprintf("Item%d", i), Predicate: "note",
			Object: fmt.Sprintf("x%d", i), Text: "about over under into onto " + fmt.Sprintf("n%d", i),
			Scope: "private", Owner: "agent-b"}))
	}
	// Shared claims share fewer words, the first more than the second; a third shares none.
	nearer := f.add(fclaim{Subject: "Alpha", Predicate: "note", Object: "a", Text: "about over under alpha"})
	farther := f.add(fclaim{Subject: "Beta", Predicate: "note", Object: "b", Text: "about beta gamma delta"})
	f.add(fclaim{Subject: "Gamma", Predicate: "note", Object: "c", Text: "epsilon zeta eta theta"})

	if got, want := denseOnly(t, h, "team", "agent-a", question), []string{nearer, farther}; !slices.Equal(got, want) {
		t.Errorf("agent-a's dense candidates = %v; want the two nearest shared claims %v", got, want)
	}
	// agent-b reads its own private claims, nearest of all.
	got := denseOnly(t, h, "team", "agent-b", question)
	if len(got) != 2 || !slices.Contains(private, got[0]) || !slices.Contains(private, got[1]) {
		t.Errorf("agent-b's dense candidates = %v; want two of its private claims", got)
	}
	// A workspace smaller than the cut whose claims are all hidden from the agent gives nothing, not an error.
	g := h.workspace("small")
	g.add(fclaim{Subject: "Delta", Predicate: "note", Object: "d", Text: "about over", Scope: "private", Owner: "agent-b"})
	if got := denseOnly(t, h, "small", "agent-a", question); len(got) != 0 {
		t.Errorf("agent-a's dense candidates in a workspace of agent-b's private claims = %v; want none", got)
	}
}

// In a workspace with an HNSW index of its own, the dense mode takes the nearest claims the agent may see
// whatever their belief status: a value its slot has since replaced leads to the slot's current value, never to
// itself, and another agent's private claim, nearer still, is not one of them. One candidate per mode makes
// the nearest claim the only one the dense mode gives; the question names no subject and no claim the view
// believes holds its words, so the dense mode alone answers it.
func TestIndexedDenseLeadsFromAReplacedValueToTheCurrentOne(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Candidates = 1 })
	f := h.workspace("jobs")
	nurse := f.add(fclaim{Subject: "Lucas", Predicate: "occupation", Object: "nurse", Text: "Lucas worked as a nurse at the hospital.", ValidFrom: day("2023-01-01")})
	pilot := f.add(fclaim{Subject: "Lucas", Predicate: "occupation", Object: "pilot", Text: "Lucas is a pilot.", ValidFrom: day("2024-01-01")})
	f.supersede(pilot, nurse, day("2024-01-01"))
	hidden := f.add(fclaim{Subject: "Nadia", Predicate: "occupation", Object: "nurse", Text: "Nadia works as a nurse at the city hospital.",
		Scope: "private", Owner: "agent-b", ValidFrom: day("2024-02-01")})
	ctx := context.Background()
	if _, err := store.IndexWorkspaces(ctx, h.db, 1); err != nil {
		t.Fatal(err)
	}
	if !h.svc.denseIndexes.covers(ctx, h.svc, "jobs") {
		t.Fatal("the workspace has no dense index of its own; the test needs the indexed dense query")
	}
	sr, err := h.client("agent-a").Search(ctx, "jobs", api.SearchRequest{Query: "Who works as a nurse at the city hospital?"})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range sr.Claims {
		got[c.ID] = true
	}
	if !got[pilot] || got[nurse] || got[hidden] {
		t.Errorf("claims %v; want Lucas's current job (%s) and neither the replaced one (%s) nor agent-b's private claim (%s); context:\n%s",
			slices.Collect(maps.Keys(got)), pilot, nurse, hidden, sr.Context)
	}
}

// A search takes one pool connection at a time: asking whether the workspace has a dense index of its own may
// read the indexes through the pool, and doing so with the search's transaction open left every search waiting
// for a connection that only another waiting search could give back. A pool of one connection is the smallest
// case: the first search (nothing read of the indexes yet) must answer.
func TestSearchHoldsOneConnectionAtATime(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("ws-pool")
	f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Lisbon", Text: "Alice lives in Lisbon.", ValidFrom: day("2025-01-01")})
	ctx := context.Background()
	cfg := h.db.Config().Copy()
	cfg.MaxConns = 1
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	svc, err := New(service.Deps{DB: pool, Embedder: h.emb, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	res, err := svc.search(ctx, store.View{Workspace: "ws-pool", Agent: "agent-a"}, searchParams{query: "Where does Alice live?", k: 5, budget: 500})
	if err != nil {
		t.Fatalf("search on a one-connection pool: %v", err)
	}
	if !strings.Contains(res.context, "Lisbon") {
		t.Fatalf("context %q does not say Lisbon", res.context)
	}
}
