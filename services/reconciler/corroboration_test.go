package reconciler

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
)

// An independent source is an agent: one agent restating a claim in another turn, session or under another
// source reference never adds a source. The three places the reconciler counts sources — corroboration rows,
// the evidence-weighted operator and await-confirmation's second source — are each checked with a restatement
// in another turn, which counted as a second source before.
func TestOneAgentNeverCorroboratesItself(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	t.Run("corroboration rows count agents", func(t *testing.T) {
		t.Parallel()
		pool, _ := newStore(t)
		cfg := testConfig()
		e := newTestEngine(t, pool, cfg)
		a1 := mkClaim("wsc", "Ines", "lives in", "Porto", baseTime, cfg.Partitions, withAgent("agent-a"), withTurn("t1"))
		a2 := mkClaim("wsc", "Ines", "lives in", "Porto", baseTime.Add(time.Hour), cfg.Partitions, withAgent("agent-a"), withTurn("t2"))
		a3 := mkClaim("wsc", "Ines", "lives in", "Porto", baseTime.Add(2*time.Hour), cfg.Partitions, withAgent("agent-a"), withTurn("t3"))
		b1 := mkClaim("wsc", "Ines", "lives in", "Porto", baseTime.Add(3*time.Hour), cfg.Partitions, withAgent("agent-b"), withTurn("t9"))
		var msgs []logMsg
		for i, c := range []event.ClaimEmbeddedV1{a1, a2, a3} {
			msgs = append(msgs, claimMsg(t, c, uint64(i+1), baseTime.Add(time.Duration(10+i)*time.Hour)))
		}
		applyDirect(t, e, a1.Partition, msgs, 1)
		count := func(id string) int {
			var n int
			if err := pool.QueryRow(ctx, `SELECT count(*) FROM corroborations WHERE claim_id = $1`, id).Scan(&n); err != nil {
				t.Fatal(err)
			}
			return n
		}
		for _, c := range []event.ClaimEmbeddedV1{a1, a2, a3} {
			if n := count(c.ClaimID); n != 1 {
				t.Fatalf("agent-a said Porto in three turns: %s has %d sources, want 1", c.ClaimID, n)
			}
		}
		applyDirect(t, e, a1.Partition, []logMsg{claimMsg(t, b1, 4, baseTime.Add(20*time.Hour))}, 1)
		for _, c := range []event.ClaimEmbeddedV1{a1, a2, a3, b1} {
			if n := count(c.ClaimID); n != 2 {
				t.Fatalf("after agent-b: %s has %d sources, want 2 (agent-a, agent-b)", c.ClaimID, n)
			}
		}
	})

	t.Run("evidence weighs agents", func(t *testing.T) {
		t.Parallel()
		pool, _ := newStore(t)
		cfg := testConfig()
		cfg.PolicyFile = writePolicy(t, `{"version": "ev-agents", "rules": [{"predicate": "born_in", "operator": "evidence"}]}`)
		e := newTestEngine(t, pool, cfg)
		// Paris from agent-a twice (two turns), London from agent-b with higher confidence: one source each,
		// so confidence decides and London leads. Counting turns, Paris would have had two sources.
		a1 := mkClaim("wsd", "Emil", "born in", "Paris", baseTime, cfg.Partitions, withAgent("agent-a"), withTurn("t1"))
		a2 := mkClaim("wsd", "Emil", "born in", "Paris", baseTime.Add(time.Hour), cfg.Partitions, withAgent("agent-a"), withTurn("t2"))
		b := mkClaim("wsd", "Emil", "born in", "London", baseTime, cfg.Partitions, withAgent("agent-b"), withTurn("t5"), withConfidence(0.99))
		var msgs []logMsg
		for i, c := range []event.ClaimEmbeddedV1{a1, a2, b} {
			msgs = append(msgs, claimMsg(t, c, uint64(i+1), baseTime.Add(time.Duration(10+i)*time.Hour)))
		}
		applyDirect(t, e, a1.Partition, msgs, 1)
		if s := statusOf(t, pool, b.ClaimID); s != "active" {
			t.Fatalf("London (one agent, confidence 0.99) vs Paris (one agent twice, 0.9): London is %s, want active", s)
		}
	})

	t.Run("await-confirmation needs another agent", func(t *testing.T) {
		t.Parallel()
		pool, _ := newStore(t)
		cfg := testConfig()
		cfg.PolicyFile = writePolicy(t, `{"version": "await-agents", "rules": [
			{"predicate": "*", "source": "llm:*", "await_confirmation": {"timeout": "24h", "on_timeout": "reject"}}]}`)
		e := newTestEngine(t, pool, cfg)
		llm := withExtractor("llm:test")
		cur := mkClaim("wse", "Dora", "lives in", "Paris", baseTime, cfg.Partitions, withAgent("agent-a"))
		held := mkClaim("wse", "Dora", "lives in", "London", baseTime.Add(time.Hour), cfg.Partitions, llm, withAgent("agent-l"), withTurn("t1"))
		again := mkClaim("wse", "Dora", "lives in", "London", baseTime.Add(2*time.Hour), cfg.Partitions, llm, withAgent("agent-l"), withTurn("t2"))
		var msgs []logMsg
		for i, c := range []event.ClaimEmbeddedV1{cur, held, again} {
			msgs = append(msgs, claimMsg(t, c, uint64(i+1), baseTime.Add(time.Duration(10+i)*time.Minute)))
		}
		applyDirect(t, e, cur.Partition, msgs, 1)
		for _, c := range []event.ClaimEmbeddedV1{held, again} {
			if s := statusOf(t, pool, c.ClaimID); s != "pending" {
				t.Fatalf("agent-l restating London in another turn: %s is %s, want pending", c.ClaimID, s)
			}
		}
		other := mkClaim("wse", "Dora", "lives in", "London", baseTime.Add(3*time.Hour), cfg.Partitions, withAgent("agent-b"))
		applyDirect(t, e, cur.Partition, []logMsg{claimMsg(t, other, 4, baseTime.Add(20*time.Minute))}, 1)
		if s := statusOf(t, pool, held.ClaimID); s == "pending" {
			t.Fatalf("agent-b's London must admit agent-l's held claim: still %s", s)
		}
		if s := statusOf(t, pool, cur.ClaimID); s != "superseded" {
			t.Fatalf("Paris after London was confirmed by a second agent: %s, want superseded", s)
		}
	})
}
