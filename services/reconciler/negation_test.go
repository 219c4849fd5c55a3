package reconciler

import (
	"context"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

// negationFixture is a subject's claims about one topic in both polarities, plus claims that must not be linked.
type negationFixture struct {
	never, downloaded, reviewedFar, unrelated, privateNever, privatePos, otherAgentPriv event.ClaimEmbeddedV1
}

// withText sets a claim's text and embeds it with vec (mkClaim embeds its generated text).
func withText(c event.ClaimEmbeddedV1, text string, vec []float32) event.ClaimEmbeddedV1 {
	c.Text = text
	c.Embedding = event.Vector{Model: "fake", Dim: len(vec), Values: vec}
	return c
}

// negated marks c negated; its id changes with it, as the producers' ids do.
func negated(c event.ClaimEmbeddedV1) event.ClaimEmbeddedV1 {
	c.Negated = true
	c.ClaimID = event.DeterministicID(c.ClaimID, "negated")
	return c
}

func opposite(v []float32) []float32 {
	out := make([]float32, len(v))
	for i := range v {
		out[i] = -v[i]
	}
	return out
}

func newNegationFixture(ws string, partitions int) negationFixture {
	topic := fakeVector("zotero")
	var f negationFixture
	f.never = withText(negated(mkClaim(ws, "Maya", "has used", "citation software like Zotero", baseTime, partitions, withFunctional(false))),
		"Maya has never used citation software like Zotero.", topic)
	f.downloaded = withText(mkClaim(ws, "Maya", "downloaded", "Zotero", baseTime.Add(-48*time.Hour), partitions, withFunctional(false), withAgent("agent-b")),
		"Maya downloaded Zotero to manage references.", near(topic, "downloaded"))
	// Shares a word, but is about something else by its embedding.
	f.reviewedFar = withText(mkClaim(ws, "Maya", "reviewed", "the Zotero pricing page", baseTime.Add(time.Hour), partitions, withFunctional(false)),
		"Maya reviewed the Zotero pricing page.", opposite(topic))
	// Close by embedding, but shares no content word.
	f.unrelated = withText(mkClaim(ws, "Maya", "lives in", "Berlin", baseTime.Add(2*time.Hour), partitions),
		"Maya lives in Berlin.", near(topic, "berlin"))
	// A private tier: agent-x's own negation and positive are linked to each other, never to the shared tier.
	f.privateNever = withText(negated(mkClaim(ws, "Maya", "has used", "Mendeley", baseTime, partitions, withFunctional(false),
		withScope(event.ScopePrivate), withAgent("agent-x"))), "Maya has never used Mendeley or Zotero.", near(topic, "mendeley"))
	f.privatePos = withText(mkClaim(ws, "Maya", "installed", "Mendeley", baseTime.Add(3*time.Hour), partitions, withFunctional(false),
		withScope(event.ScopePrivate), withAgent("agent-x")), "Maya installed Mendeley.", near(topic, "installed"))
	f.otherAgentPriv = withText(mkClaim(ws, "Maya", "uses", "Zotero", baseTime.Add(4*time.Hour), partitions, withFunctional(false),
		withScope(event.ScopePrivate), withAgent("agent-y")), "Maya uses Zotero daily.", near(topic, "daily"))
	return f
}

func (f negationFixture) all() []event.ClaimEmbeddedV1 {
	return []event.ClaimEmbeddedV1{f.never, f.downloaded, f.reviewedFar, f.unrelated, f.privateNever, f.privatePos, f.otherAgentPriv}
}

// wantLinks are the pairs the fixture must link (claim_a < claim_b).
func (f negationFixture) wantLinks() [][2]string {
	pair := func(a, b string) [2]string {
		if b < a {
			a, b = b, a
		}
		return [2]string{a, b}
	}
	out := [][2]string{pair(f.never.ClaimID, f.downloaded.ClaimID), pair(f.privateNever.ClaimID, f.privatePos.ClaimID)}
	slices.SortFunc(out, func(x, y [2]string) int { return compareStrings(x[0]+x[1], y[0]+y[1]) })
	return out
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func links(t testing.TB, pool *pgxpool.Pool, ws string) [][2]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT claim_a::text, claim_b::text FROM contradictions WHERE workspace_id = $1 ORDER BY claim_a::text || claim_b::text`, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out [][2]string
	for rows.Next() {
		var a, b string
		if err := rows.Scan(&a, &b); err != nil {
			t.Fatal(err)
		}
		out = append(out, [2]string{a, b})
	}
	return out
}

// A negated claim is linked to the positive claims of its subject and tier about the same thing, whichever
// arrives first and however the stream is batched; the link set is part of the belief digest and is the same for
// every order. Statuses are untouched (the link is the flag), and every link has its decision.
func TestNegationLinksEveryOrder(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	cfg := testConfig()
	e := newTestEngine(t, pool, cfg)
	const ws = "wsn"
	f := newNegationFixture(ws, cfg.Partitions)
	claims := f.all()
	p := claims[0].Partition
	orders := [][]int{{0, 1, 2, 3, 4, 5, 6}, {6, 5, 4, 3, 2, 1, 0}, {1, 3, 0, 5, 2, 6, 4}, {4, 0, 6, 1, 5, 3, 2}}
	var want string
	for oi, order := range orders {
		for _, batch := range []int{1, 3, 0} {
			truncateProjection(t, pool)
			msgs := make([]logMsg, len(order))
			for i, idx := range order {
				msgs[i] = claimMsg(t, claims[idx], uint64(i+1), baseTime.Add(time.Duration(100+i)*time.Hour))
			}
			applyDirect(t, e, p, msgs, batch)
			if got := links(t, pool, ws); !slices.Equal(got, f.wantLinks()) {
				t.Fatalf("order %d batch %d: links %v, want %v", oi, batch, got, f.wantLinks())
			}
			for id, s := range currentStatus(t, pool, ws) {
				if s != "active" {
					t.Fatalf("order %d batch %d: claim %s is %s; a contradiction link changes no status", oi, batch, id, s)
				}
			}
			var undecided int
			if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM contradictions k
				WHERE NOT EXISTS (SELECT 1 FROM decisions d WHERE d.id = k.decision_id AND d.operator = 'negation'
				  AND k.claim_a = ANY(d.inputs) AND k.claim_b = ANY(d.inputs))`).Scan(&undecided); err != nil {
				t.Fatal(err)
			}
			if undecided != 0 {
				t.Fatalf("%d links without their decision", undecided)
			}
			got, err := store.BeliefDigest(context.Background(), pool)
			if err != nil {
				t.Fatal(err)
			}
			if want == "" {
				want = got
			} else if got != want {
				t.Fatalf("belief digest of order %d (batch %d) differs", oi, batch)
			}
		}
	}
	// Negated and positive predicates never share a slot: the negation neither corroborates nor supersedes.
	var slots int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM claims WHERE workspace_id = $1 AND negated AND slot_key NOT LIKE 'not:%'`, ws).Scan(&slots); err != nil {
		t.Fatal(err)
	}
	if slots != 0 {
		t.Fatalf("%d negated claims in a positive slot", slots)
	}
}

// Replaying the claims stream rebuilds the same links and decisions (full digest).
func TestNegationReplayDigest(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	runService(t, pool, b, cfg, "r1")
	f := newNegationFixture("wsnr", cfg.Partitions)
	for _, c := range f.all() {
		publishClaim(t, b.js, c)
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 30*time.Second)
	if got := links(t, pool, "wsnr"); !slices.Equal(got, f.wantLinks()) {
		t.Fatalf("links %v, want %v", got, f.wantLinks())
	}
	ctx := context.Background()
	live, err := store.Digest(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := newStore(t)
	if _, err := Replay(ctx, b.js, target, ReplayOptions{Config: cfg, Logger: testLogger()}); err != nil {
		t.Fatal(err)
	}
	replayed, err := store.Digest(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if replayed != live {
		diffProjections(t, pool, target)
		t.Fatalf("replay digest %s differs from live %s", replayed, live)
	}
}

// Erasing the agent that said the positive claim removes its links; the rebuild keeps the others.
func TestNegationLinksErased(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	svc, _ := runService(t, pool, b, cfg, "r1")
	srv := serveHTTP(t, svc)
	const ws = "wsne"
	createWorkspace(t, pool, ws)
	f := newNegationFixture(ws, cfg.Partitions)
	for _, c := range f.all() {
		publishClaim(t, b.js, c)
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 30*time.Second)
	if n := len(links(t, pool, ws)); n != 2 {
		t.Fatalf("%d links before the erasure, want 2", n)
	}
	resp, body := postJSON(t, srv.URL+"/v1/workspaces/"+ws+"/erasures", "agent-admin", api.ErasureRequest{Kind: api.EraseAgent, Target: "agent-b"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("erasure: %d %s", resp.StatusCode, body)
	}
	got := links(t, pool, ws)
	want := [][2]string{f.wantLinks()[0], f.wantLinks()[1]}
	want = slices.DeleteFunc(want, func(p [2]string) bool { return p[0] == f.downloaded.ClaimID || p[1] == f.downloaded.ClaimID })
	if !slices.Equal(got, want) {
		t.Fatalf("links after erasing agent-b: %v, want %v", got, want)
	}
	var decisions int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM decisions WHERE workspace_id = $1 AND $2::uuid = ANY(inputs)`, ws, f.downloaded.ClaimID).Scan(&decisions); err != nil {
		t.Fatal(err)
	}
	if decisions != 0 {
		t.Fatalf("%d decisions still name the erased claim", decisions)
	}
}
