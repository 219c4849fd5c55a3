package reconciler

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

func confirmMsg(t testing.TB, c event.ClaimEmbeddedV1, agent string, seq uint64, at time.Time) logMsg {
	t.Helper()
	ev := event.ClaimConfirmedV1{Workspace: c.Workspace, ClaimID: c.ClaimID, SubjectKey: c.SubjectKey, AgentID: agent, ConfirmedAt: at, Partition: c.Partition}
	env, err := event.New(event.TypeClaimConfirmed, "confirm:"+c.ClaimID+agent, "mneme/test", c.Workspace, at, ev)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(env)
	return logMsg{Seq: seq, Time: logTime(at), Data: b}
}

func statusOf(t testing.TB, pool *pgxpool.Pool, id string) string {
	t.Helper()
	var s string
	if err := pool.QueryRow(context.Background(), `SELECT status FROM claim_versions WHERE claim_id = $1 AND retired_at IS NULL`, id).Scan(&s); err != nil {
		t.Fatalf("status of %s: %v", id, err)
	}
	return s
}

func TestAwaitConfirmation(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	cfg := testConfig()
	cfg.PolicyFile = writePolicy(t, `{"version": "await-1", "rules": [
		{"predicate": "*", "source": "llm:*", "await_confirmation": {"timeout": "1h", "on_timeout": "reject"}}]}`)
	e := newTestEngine(t, pool, cfg)
	llm := withExtractor("llm:test")
	a := mkClaim("wsw", "Dora", "lives in", "Paris", baseTime.Add(1*time.Hour), cfg.Partitions)
	b := mkClaim("wsw", "Dora", "lives in", "London", baseTime.Add(2*time.Hour), cfg.Partitions, llm, withAgent("agent-l"))
	old := mkClaim("wsw", "Dora", "lives in", "Rome", baseTime, cfg.Partitions, llm, withAgent("agent-l"))
	p := a.Partition
	clock := baseTime.Add(100 * time.Hour)
	seq := uint64(0)
	next := func(c event.ClaimEmbeddedV1, d time.Duration) logMsg {
		seq++
		clock = clock.Add(d)
		return claimMsg(t, c, seq, clock)
	}
	applyDirect(t, e, p, []logMsg{next(a, time.Minute), next(b, time.Minute), next(old, time.Minute)}, 1)
	if s := statusOf(t, pool, b.ClaimID); s != "pending" {
		t.Fatalf("conflicting llm claim is %s, want pending", s)
	}
	if s := statusOf(t, pool, a.ClaimID); s != "active" {
		t.Fatalf("held claim must not displace the current value: %s", s)
	}
	if s := statusOf(t, pool, old.ClaimID); s != "superseded" {
		t.Fatalf("an outranked llm claim is admitted at once: %s", s)
	}
	// A second independent source of London admits the held claim; the newer restatement wins.
	b2 := mkClaim("wsw", "Dora", "lives in", "London", baseTime.Add(3*time.Hour), cfg.Partitions, withAgent("agent-b"))
	applyDirect(t, e, p, []logMsg{next(b2, time.Minute)}, 1)
	if s := statusOf(t, pool, b.ClaimID); s != "superseded" {
		t.Fatalf("confirmed by a second source: %s", s)
	}
	if s := statusOf(t, pool, a.ClaimID); s != "superseded" {
		t.Fatalf("old value after confirmation: %s", s)
	}
	// An explicit confirmation admits a held claim.
	c := mkClaim("wsw", "Dora", "lives in", "Oslo", baseTime.Add(4*time.Hour), cfg.Partitions, llm, withAgent("agent-l"))
	applyDirect(t, e, p, []logMsg{next(c, time.Minute)}, 1)
	if s := statusOf(t, pool, c.ClaimID); s != "pending" {
		t.Fatalf("held: %s", s)
	}
	seq++
	clock = clock.Add(time.Minute)
	applyDirect(t, e, p, []logMsg{confirmMsg(t, c, "agent-human", seq, clock)}, 1)
	if s := statusOf(t, pool, c.ClaimID); s != "active" {
		t.Fatalf("after explicit confirmation: %s", s)
	}
	// The timeout policy is evaluated against log time of later messages, and stamped with the deadline.
	d := mkClaim("wsw", "Dora", "lives in", "Berlin", baseTime.Add(5*time.Hour), cfg.Partitions, llm, withAgent("agent-l"))
	applyDirect(t, e, p, []logMsg{next(d, time.Minute)}, 1)
	deadline := clock.Add(time.Hour)
	other := mkClaim("wsw", "Dora", "age", "40", baseTime, cfg.Partitions)
	applyDirect(t, e, p, []logMsg{next(other, 30*time.Minute)}, 1)
	if s := statusOf(t, pool, d.ClaimID); s != "pending" {
		t.Fatalf("before the deadline: %s", s)
	}
	applyDirect(t, e, p, []logMsg{next(mkClaim("wsw", "Dora", "age", "41", baseTime.Add(time.Hour), cfg.Partitions), 2*time.Hour)}, 1)
	if s := statusOf(t, pool, d.ClaimID); s != "rejected" {
		t.Fatalf("after the deadline: %s", s)
	}
	var decidedAt time.Time
	var outcome, policy string
	if err := pool.QueryRow(context.Background(), `SELECT decided_at, outcome, policy_version FROM decisions WHERE id = $1`,
		event.DeterministicID("timeout", d.ClaimID)).Scan(&decidedAt, &outcome, &policy); err != nil {
		t.Fatal(err)
	}
	if !decidedAt.Equal(logTime(deadline)) || outcome != "timeout_rejected" || !strings.HasPrefix(policy, "await-1#") {
		t.Fatalf("timeout decision at %s outcome %s policy %s", decidedAt, outcome, policy)
	}
	if s := statusOf(t, pool, c.ClaimID); s != "active" {
		t.Fatalf("a rejected claim must not displace the value: %s", s)
	}
}

func TestEvidenceWeightedMerge(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	cfg := testConfig()
	cfg.PolicyFile = writePolicy(t, `{"version": "ev-1", "rules": [{"predicate": "born_in", "operator": "evidence"}]}`)
	e := newTestEngine(t, pool, cfg)
	a := mkClaim("wsv", "Emil", "born in", "Paris", baseTime, cfg.Partitions, withAgent("agent-a"))
	b := mkClaim("wsv", "Emil", "born in", "London", baseTime.Add(time.Hour), cfg.Partitions, withAgent("agent-b"), withConfidence(0.99))
	c := mkClaim("wsv", "Emil", "born in", "Paris", baseTime, cfg.Partitions, withAgent("agent-c"))
	c2 := mkClaim("wsv", "Emil", "born in", "Paris", baseTime.Add(2*time.Hour), cfg.Partitions, withAgent("agent-a")) // same source as a: no extra weight
	p := a.Partition
	var msgs []logMsg
	for i, cl := range []event.ClaimEmbeddedV1{a, b, c2} {
		msgs = append(msgs, claimMsg(t, cl, uint64(i+1), baseTime.Add(time.Duration(10+i)*time.Hour)))
	}
	applyDirect(t, e, p, msgs, 1)
	// Paris has one source (agent-a twice), London one with higher confidence: London leads.
	if s := statusOf(t, pool, b.ClaimID); s != "active" {
		t.Fatalf("London %s", s)
	}
	applyDirect(t, e, p, []logMsg{claimMsg(t, c, 4, baseTime.Add(20*time.Hour))}, 1)
	if s := statusOf(t, pool, b.ClaimID); s != "rejected" {
		t.Fatalf("London after a second independent source of Paris: %s", s)
	}
	if s := statusOf(t, pool, c2.ClaimID); s != "active" {
		t.Fatalf("Paris representative: %s", s)
	}
	var n int
	_ = pool.QueryRow(context.Background(), `SELECT count(*) FROM corroborations WHERE claim_id = $1`, c2.ClaimID).Scan(&n)
	if n != 2 {
		t.Fatalf("corroboration count %d, want 2 (agent-a once, agent-c)", n)
	}
}

// Private claims never reach another agent through the read helpers or the confirm route; nothing crosses
// workspaces.
func TestPrivateIsolation(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	svc, _ := runService(t, pool, b, cfg, "r1")
	srv := serveHTTP(t, svc)
	createWorkspace(t, pool, "wsi")
	createWorkspace(t, pool, "wsj")
	mine := mkClaim("wsi", "Finn", "favourite food", "ramen", baseTime.Add(2*time.Hour), cfg.Partitions, withScope(event.ScopePrivate), withAgent("agent-x"))
	theirs := mkClaim("wsi", "Finn", "favourite food", "curry", baseTime.Add(3*time.Hour), cfg.Partitions, withScope(event.ScopePrivate), withAgent("agent-y"))
	shared := mkClaim("wsi", "Finn", "favourite food", "pizza", baseTime.Add(time.Hour), cfg.Partitions, withAgent("agent-z"))
	otherWS := mkClaim("wsj", "Finn", "favourite food", "sushi", baseTime.Add(4*time.Hour), cfg.Partitions, withAgent("agent-x"))
	hidden := mkClaim("wsi", "Quillon Ravensworth", "owes", "money", baseTime, cfg.Partitions, withScope(event.ScopePrivate), withAgent("agent-x"))
	for _, c := range []event.ClaimEmbeddedV1{mine, theirs, shared, otherWS, hidden} {
		publishClaim(t, b.js, c)
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)
	ctx := context.Background()
	// Private claims do not compete across agents: each is active in its own tier.
	for _, c := range []event.ClaimEmbeddedV1{mine, theirs, shared, otherWS} {
		if s := statusOf(t, pool, c.ClaimID); s != "active" {
			t.Fatalf("%s is %s", c.Object, s)
		}
	}
	for _, agent := range []string{"agent-x", "agent-y", "agent-q"} {
		seen := map[string]bool{}
		cur, err := store.CurrentBeliefs(ctx, pool, "wsi", agent, "finn", "")
		if err != nil {
			t.Fatal(err)
		}
		hist, err := store.History(ctx, pool, "wsi", agent, "finn", mine.PredicateKey)
		if err != nil {
			t.Fatal(err)
		}
		at, err := store.BeliefsAt(ctx, pool, "wsi", agent, "finn", baseTime.Add(10*time.Hour), time.Now())
		if err != nil {
			t.Fatal(err)
		}
		for _, bl := range append(append(cur, hist...), at...) {
			seen[bl.Object] = true
			if bl.Scope == "private" && bl.Owner != agent {
				t.Fatalf("%s sees %s's private claim", agent, bl.Owner)
			}
		}
		if seen["sushi"] {
			t.Fatalf("%s sees another workspace", agent)
		}
		switch agent {
		case "agent-x":
			if len(cur) != 1 || cur[0].Object != "ramen" {
				t.Fatalf("agent-x current view %+v: its private value should win", cur)
			}
		case "agent-q":
			if len(cur) != 1 || cur[0].Object != "pizza" {
				t.Fatalf("agent-q current view %+v", cur)
			}
		}
	}
	// Shared tables carry nothing of private claims: no alias, and decisions of private tiers name their owner.
	var aliases, unowned int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM subject_aliases WHERE alias LIKE '%quillon%'`).Scan(&aliases)
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM decisions d WHERE d.owner_agent IS NULL AND $1 = ANY(d.inputs)`, hidden.ClaimID).Scan(&unowned)
	if aliases != 0 || unowned != 0 {
		t.Fatalf("a private claim leaks through aliases (%d) or unowned decisions (%d)", aliases, unowned)
	}
	// Confirming someone else's private claim is a 404, as for a missing claim.
	resp, _ := postJSON(t, srv.URL+"/v1/workspaces/wsi/claims/"+mine.ClaimID+"/confirm", "agent-y", nil)
	if resp.StatusCode != 404 {
		t.Fatalf("confirm another agent's private claim: %d", resp.StatusCode)
	}
	resp, _ = postJSON(t, srv.URL+"/v1/workspaces/wsj/claims/"+mine.ClaimID+"/confirm", "agent-x", nil)
	if resp.StatusCode != 404 {
		t.Fatalf("confirm a claim through another workspace: %d", resp.StatusCode)
	}
	resp, body := postJSON(t, srv.URL+"/v1/workspaces/wsi/claims/"+mine.ClaimID+"/confirm", "agent-x", nil)
	if resp.StatusCode != 202 {
		t.Fatalf("confirm own claim: %d %s", resp.StatusCode, body)
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)
	var n int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM confirmations WHERE claim_id = $1 AND agent_id = 'agent-x'`, mine.ClaimID).Scan(&n)
	if n != 1 {
		t.Fatalf("confirmation not applied (%d rows)", n)
	}
}
