package bench_test

import (
	"context"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/bench"
)

// TestManyWriters: 32 agents publish structured claims at once through NATS, each with its own credential,
// on overlapping subjects and attributes with a few common values (so they conflict and corroborate) and
// some private values, while queries run as random agents. Afterwards, with expectations computed from the
// publish log alone (bench.CheckWriters): nothing accepted was lost, every single-valued slot tier has
// exactly one active claim — the latest by valid time — or is disputed between the values of its latest valid
// time, every claim's corroboration count is the number of distinct agents that published its value in its
// tier, and no query response ever showed an agent another agent's private claim. Bounded: a few seconds of
// publishing at a paced rate, then the drain.
func TestManyWriters(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the whole system")
	}
	f := startFleet(t)
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()
	run, err := bench.RunWriters(ctx, f, bench.WritersOptions{Agents: 32, Duration: 3 * time.Second, Rate: 2, MaxBatch: 2,
		Subjects: 4, Predicates: 2, Values: 3, ValidSpread: 20, Queriers: 3, Baseline: 2 * time.Second, Seed: 7, DrainTimeout: 6 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	chk, err := bench.CheckWriters(ctx, f, run)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range chk.Violations {
		t.Error(v)
	}
	if run.FailedPublishes != 0 {
		t.Errorf("%d publishes were not acknowledged", run.FailedPublishes)
	}
	if run.Queries == 0 || run.QueryErrors != 0 {
		t.Errorf("%d queries during the run, %d failed; want some, none failing", run.Queries, run.QueryErrors)
	}
	if run.BaselineQueries == 0 || run.BaselineErrors != 0 {
		t.Errorf("%d baseline queries after the drain, %d failed; want some, none failing", run.BaselineQueries, run.BaselineErrors)
	}
	agents := map[string]bool{}
	for _, c := range run.Published {
		agents[c.Agent] = true
	}
	if len(agents) != 32 {
		t.Errorf("%d agents published, want 32", len(agents))
	}
	if chk.Corroborated == 0 || chk.Conflicting == 0 {
		t.Errorf("the run exercised %d corroborated claims and %d conflicting slots; want both", chk.Corroborated, chk.Conflicting)
	}
	if chk.DeadLetters != 0 {
		t.Errorf("%d valid claims were dead-lettered", chk.DeadLetters)
	}
	t.Logf("%+v", run.Report(chk))
}
