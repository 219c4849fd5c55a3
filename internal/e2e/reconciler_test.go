package e2e

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/kljensen/snowball/english"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/query"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// TestThroughReconciler runs the resolution scenarios through the real reconciler: claims are published to
// the claims stream as the embedder would, the reconciler writes the projection, and the query service reads
// it. It checks that the query side reads the reconciler's rows as documented in services/reconciler/doc.go.
func TestThroughReconciler(t *testing.T) {
	const partitions = 4
	ctx := context.Background()
	p := startPipeline(t, partitions, nil)
	js, pool, emb, a := p.js, p.pool, p.emb, p.a
	b := a.WithAgent("agent-b")

	publish := func(subject, predicate, object string, validFrom time.Time, agent string, scope event.Scope) string {
		t.Helper()
		c := event.ClaimEmbeddedV1{ClaimProposedV1: event.ClaimProposedV1{
			Workspace: "team", Subject: subject, SubjectKey: canon.SubjectKey(subject), Predicate: predicate,
			PredicateKey: canon.PredicateKey(predicate), Object: object, Functional: true, ValidFrom: validFrom,
			Scope: scope, Confidence: 0.9, Text: canon.ClaimText(subject, predicate, object), ProposedAt: time.Now().UTC(),
			Provenance: event.Provenance{AgentID: agent, Extractor: "structured", ExtractorVersion: "1"},
		}}
		c.ClaimID = event.DeterministicID("team", c.SubjectKey, c.PredicateKey, object, validFrom.String(), agent, string(scope))
		vs, _ := emb.Embed(ctx, []string{c.Text, "predicate:" + c.PredicateKey})
		c.Embedding = event.Vector{Model: emb.Model(), Dim: emb.Dim(), Values: vs[0]}
		c.PredicateEmbedding = event.Vector{Model: emb.Model(), Dim: emb.Dim(), Values: vs[1]}
		c.Partition = bus.PartitionOf("team", c.SubjectKey, partitions)
		env, err := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "mneme/test", "team", c.ProposedAt, c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bus.PublishEvent(ctx, js, bus.ClaimsSubject(c.Partition), env); err != nil {
			t.Fatal(err)
		}
		return c.ClaimID
	}
	answer := func(c *client.Client, question string, asOf, knownAt *time.Time) *api.AnswerResponse {
		t.Helper()
		res, err := c.Answer(ctx, "team", api.AnswerRequest{Question: question, AsOf: asOf, KnownAt: knownAt})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}

	paris := publish("Alice", "lives in", "Paris", onDay("2022-01-01"), "agent-a", event.ScopeShared)
	publish("Dune", "author", "Frank Herbert", onDay("2020-01-01"), "agent-a", event.ScopeShared)
	publish("Frank Herbert", "married to", "Beverly Herbert", onDay("2020-01-01"), "agent-a", event.ScopeShared)
	publish("Bob", "salary", "120k", onDay("2024-01-01"), "agent-b", event.ScopePrivate)
	waitReconciled(t, pool, js, partitions)
	beforeBerlin := time.Now().UTC()
	// Transaction time is the stream's log time: make the next messages visibly later.
	waitUntil(t, func() bool { return time.Now().UTC().After(beforeBerlin.Add(10 * time.Millisecond)) })

	berlin := publish("Alice", "lives in", "Berlin", onDay("2024-01-01"), "agent-c", event.ScopeShared)
	rome := publish("Alice", "lives in", "Rome", onDay("2020-01-01"), "agent-a", event.ScopeShared) // late, older
	x := publish("Project Apollo", "deadline", "March 3", onDay("2024-02-01"), "agent-a", event.ScopeShared)
	y := publish("Project Apollo", "deadline", "March 10", onDay("2024-02-01"), "agent-c", event.ScopeShared)
	waitReconciled(t, pool, js, partitions)

	if r := answer(a, "Where does Alice live?", nil, nil); r.Answer != "Berlin" {
		t.Fatalf("current = %+v", r)
	}
	if r := answer(a, "Where did Alice live before?", nil, nil); r.Answer != "Paris" {
		t.Fatalf("former = %+v", r)
	}
	if r := answer(a, "Where does Alice live?", ptime(onDay("2023-01-01")), nil); r.Answer != "Paris" {
		t.Fatalf("as_of 2023 = %+v", r)
	}
	if r := answer(a, "Where does Alice live?", ptime(onDay("2021-01-01")), nil); r.Answer != "Rome" {
		t.Fatalf("as_of 2021 (the late older fact) = %+v", r)
	}
	if r := answer(a, "Where does Alice live?", nil, &beforeBerlin); r.Answer != "Paris" {
		t.Fatalf("known_at before Berlin was recorded = %+v", r)
	}
	r := answer(a, "What is the deadline of Project Apollo?", nil, nil)
	if !r.Disputed || !strings.Contains(r.Answer, "March 3") || !strings.Contains(r.Answer, "March 10") {
		t.Fatalf("disputed = %+v", r)
	}
	if r := answer(a, "Who is the spouse of the author of Dune?", nil, nil); r.Answer != "Beverly Herbert" || r.Mode != query.ModeMultiHop {
		t.Fatalf("chained = %+v", r)
	}
	if r := answer(a, "What is Bob's salary?", nil, nil); strings.Contains(r.Answer, "120k") {
		t.Fatalf("agent-a read agent-b's private claim: %+v", r)
	}
	if r := answer(b, "What is Bob's salary?", nil, nil); r.Answer != "120k" {
		t.Fatalf("owner = %+v", r)
	}

	sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "Where did Alice live before?"})
	if err != nil {
		t.Fatal(err)
	}
	ids := claimIDs(sr.Claims)
	if len(ids) < 3 || ids[0] != berlin || !slices.Contains(ids, paris) || !slices.Contains(ids, rome) {
		t.Fatalf("search with history = %v (berlin %s paris %s rome %s)", ids, berlin, paris, rome)
	}
	sr, err = a.Search(ctx, "team", api.SearchRequest{Query: "Project Apollo deadline"})
	if err != nil {
		t.Fatal(err)
	}
	if cx, cy := findClaim(sr.Claims, x), findClaim(sr.Claims, y); cx == nil || cy == nil || cx.Status != "disputed" ||
		!slices.Contains(cx.Conflicts, y) {
		t.Fatalf("dispute in search = %+v", sr.Claims)
	}
	sub, err := a.Subject(ctx, "team", "Alice", client.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.Slots) != 1 || !slices.Equal(sub.Slots[0].Current, []string{berlin}) || len(sub.Slots[0].Decisions) == 0 {
		t.Fatalf("timeline = %+v", sub)
	}
	var parisSuperseded bool
	for _, e := range sub.Slots[0].Timeline {
		if e.ClaimID == paris && e.Status == "superseded" && e.ValidTo != nil && e.ValidTo.Equal(onDay("2024-01-01")) &&
			len(e.SupersededBy) == 1 && e.SupersededBy[0].ClaimID == berlin && e.DecisionID != "" {
			parisSuperseded = true
		}
	}
	if !parisSuperseded {
		t.Fatalf("Paris is not shown superseded by Berlin: %+v", sub.Slots[0].Timeline)
	}
	// Predicate phrase embeddings of the reconciler's subject_predicates reach the resolver.
	// (The same read the query service's resolver makes for the subjects of a question.)
	sql, args := store.ClaimsBySubjectsSQL(store.View{Workspace: "team", Agent: "agent-a"}, []string{"alice"}, 500, emb.Model())
	rows, err := pool.Query(ctx, sql, args)
	if err != nil {
		t.Fatal(err)
	}
	beliefs, err := store.CollectBeliefs(rows)
	if err != nil || len(beliefs) == 0 || len(beliefs[0].PredVec) != emb.Dim() {
		t.Fatalf("predicate embeddings not loaded: %d rows, %v", len(beliefs), err)
	}
	cr, err := a.Claim(ctx, "team", rome, client.ReadOptions{})
	if err != nil || cr.Claim.Status != "superseded" || len(cr.Decisions) == 0 {
		t.Fatalf("late older claim = %+v, %v", cr, err)
	}
}

// waitReconciled waits until every partition's offset reaches the last message published to it.
func waitReconciled(t *testing.T, pool *pgxpool.Pool, js jetstream.JetStream, partitions int) {
	t.Helper()
	ctx := context.Background()
	st, err := js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]uint64{}
	for p := range partitions {
		if m, err := st.GetLastMsgForSubject(ctx, bus.ClaimsSubject(p)); err == nil {
			want[p] = m.Sequence
		}
	}
	var last string
	ok := poll(30*time.Second, func() bool {
		for p, seq := range want {
			var got int64
			_ = pool.QueryRow(ctx, `SELECT coalesce((SELECT stream_seq FROM partition_offsets WHERE partition = $1), 0)`, p).Scan(&got)
			if uint64(got) < seq {
				last = fmt.Sprintf("partition %d at %d, want %d", p, got, seq)
				return false
			}
		}
		return true
	})
	if !ok {
		t.Fatalf("reconciler did not catch up: %s", last)
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	if !poll(10*time.Second, cond) {
		t.Fatal("condition not met in time")
	}
}

// poll checks cond until it holds or the deadline passes.
func poll(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		<-tick.C
	}
	return true
}

// pipeline is the real reconciler over an embedded JetStream and a fresh, migrated database, with the query
// service on an HTTP server over the same database and a workspace "team".
type pipeline struct {
	js   jetstream.JetStream
	pool *pgxpool.Pool
	emb  *embeddingtest.Words
	a    *client.Client // agent-a
	url  string         // the query service's base URL
}

// startPipeline starts it; mod adjusts the reconciler's configuration.
func startPipeline(t *testing.T, partitions int, mod func(*reconciler.Config)) *pipeline {
	t.Helper()
	ctx := context.Background()
	srv := bustest.Start(t)
	nc, js := srv.NC, srv.JS
	db := pgtest.NewDB(t)
	pool, err := store.Connect(ctx, db.URL, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := store.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	rcfg := reconciler.DefaultConfig()
	rcfg.Partitions = partitions
	rcfg.RebalanceInterval = 50 * time.Millisecond
	rcfg.DevMode = true
	if mod != nil {
		mod(&rcfg)
	}
	rec, err := reconciler.New(service.Deps{Logger: quiet, NATS: nc, JS: js, DB: pool, Partitions: partitions, Instance: "rec-1"}, rcfg)
	if err != nil {
		t.Fatal(err)
	}
	rctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- rec.Run(rctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("reconciler: %v", err)
		}
	})
	// The query service tests' embedder: hashed words, stemmed as the service stems them.
	emb := embeddingtest.NewWords(64, func(w string) string { return english.Stem(w, false) })
	qcfg := query.DefaultConfig()
	qcfg.DevMode = true
	q, err := query.New(service.Deps{DB: pool, Embedder: emb, Logger: quiet}, qcfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	q.Routes(mux)
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	a, err := client.New(hs.URL, "agent-a")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, `INSERT INTO workspaces (id, created_by) VALUES ('team', 'test')`); err != nil {
		t.Fatal(err)
	}
	return &pipeline{js: js, pool: pool, emb: emb, a: a, url: hs.URL}
}
