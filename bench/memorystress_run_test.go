package bench_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/bench"
)

// TestMemoryStressRun runs the hand-written MemoryStress file through the real system in production mode:
// each session published over NATS by the agent that holds it, each question asked by the agent it names,
// the cold-start one from a fresh client with a key of its own. Expected, by hand: a fact planted in
// agent_a's session is found by agent_b when claims are shared and never when they are private; the
// contradiction chain's current value (said in agent_b's session) reaches agent_a only through the shared tier.
func TestMemoryStressRun(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the whole system")
	}
	d, err := bench.LoadMemoryStress("testdata/memorystress_tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	f := startFleet(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	rows, err := bench.RunMemoryStress(ctx, f, d, bench.MemoryStressOptions{Budgets: []int{2000}, Prefix: "t", Settle: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		recall   float64
		answerIn bool
	}
	expect := map[string]map[string]want{
		bench.SystemMnemeShared: {
			"Q001": {1, true}, // agent_a, its own session
			"Q002": {1, true}, // agent_b about agent_a's session
			"Q003": {1, true}, // agent_a; the update was said in agent_b's session
			"Q004": {1, true}, // agent_b, cold start, about agent_a's session
		},
		bench.SystemMnemeIsolated: {
			"Q001": {1, true},
			"Q002": {0, false},
			"Q003": {0, false},
			"Q004": {0, false},
		},
	}
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 4 questions x 2 systems", len(rows))
	}
	byID := map[string]bench.MemoryStressQuestion{}
	for _, q := range d.Questions {
		byID[q.ID] = q
	}
	for _, r := range rows {
		q := byID[r.Question]
		if r.Asker != q.AgentScope || r.ColdStart != q.ColdStart {
			t.Errorf("%s %s asked by %s (cold start %v), want %s (%v)", r.System, r.Question, r.Asker, r.ColdStart, q.AgentScope, q.ColdStart)
		}
		if r.Leaks != 0 {
			t.Errorf("%s %s: %d private claims of another agent returned", r.System, r.Question, r.Leaks)
		}
		w := expect[r.System][r.Question]
		if r.Recall[2000] != w.recall || r.AnswerIn[2000] != w.answerIn {
			t.Errorf("%s %s (%s as %s): evidence-session recall %.2f, answer in context %v; want %.2f, %v",
				r.System, r.Question, r.Type, r.Asker, r.Recall[2000], r.AnswerIn[2000], w.recall, w.answerIn)
		}
	}
	// The cold-start question was asked with a key issued for it: agent_b holds two keys in each workspace.
	var keys int
	if err := f.DB.QueryRow(ctx, `SELECT count(*) FROM api_keys WHERE agent_id = 'agent_b'`).Scan(&keys); err != nil {
		t.Fatal(err)
	}
	if keys != 4 {
		t.Errorf("agent_b has %d keys over both workspaces, want 4 (its own and the cold-start client's, twice)", keys)
	}
}
