package priority_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/priority"
)

// eventually polls cond until it holds or the deadline passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 10s: %s", what)
		}
		<-tick.C
	}
}

// ingestAsync asks for a unit on its own goroutine; the channel yields the release function once admitted.
func ingestAsync(ctx context.Context, g *priority.Gate) <-chan func() {
	ch := make(chan func(), 1)
	go func() {
		release, err := g.Ingest(ctx)
		if err != nil {
			close(ch)
			return
		}
		ch <- release
	}()
	return ch
}

func admitted(ch <-chan func()) bool {
	select {
	case r, ok := <-ch:
		if ok {
			r()
		}
		return true
	default:
		return false
	}
}

func TestIngestWaitsForQueriesInFlight(t *testing.T) {
	g := priority.New(priority.Options{Slots: 2, MaxDefer: time.Hour})
	done := g.Query()
	ch := ingestAsync(context.Background(), g)
	eventually(t, "the unit waits", func() bool { return g.Stats().Waiting == 1 })
	if admitted(ch) {
		t.Fatal("an ingest unit started while a query was in flight")
	}
	done()
	done() // idempotent: must not drive the count below zero
	select {
	case release := <-ch:
		release()
	case <-time.After(10 * time.Second):
		t.Fatal("the unit did not start after the query ended")
	}
	st := g.Stats()
	if st.Units != 1 || st.Deferred != 1 || st.Expired != 0 || st.Queries != 0 {
		t.Errorf("stats %+v: want 1 unit, deferred once, not expired, no query in flight", st)
	}
	// With no query in flight a unit starts at once, without being deferred.
	release, err := g.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	release()
	if st := g.Stats(); st.Deferred != 1 {
		t.Errorf("a unit with no query in flight was deferred: %+v", st)
	}
}

func TestIngestIsNotStarvedByQueries(t *testing.T) {
	// Queries never stop (one is always in flight): each unit still runs after MaxDefer.
	g := priority.New(priority.Options{Slots: 1, MaxDefer: 20 * time.Millisecond})
	done := g.Query()
	defer done()
	for range 3 {
		release, err := g.Ingest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		release()
	}
	st := g.Stats()
	if st.Units != 3 || st.Expired != 3 {
		t.Errorf("stats %+v: want 3 units admitted, each after its deferral expired", st)
	}
	if st.DeferredTime < 3*20*time.Millisecond {
		t.Errorf("deferred %s in all, want at least 3×20ms", st.DeferredTime)
	}
}

func TestSlotsBoundUnitsWhileQueriesAreInFlight(t *testing.T) {
	g := priority.New(priority.Options{Slots: 2, MaxDefer: time.Millisecond})
	// With no query in flight the bound does not apply: ingest has the machine.
	var idle []func()
	for range 3 {
		r, err := g.Ingest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		idle = append(idle, r)
	}
	if st := g.Stats(); st.Running != 3 || st.Deferred != 0 {
		t.Fatalf("with no query in flight: %+v, want 3 running, none deferred", st)
	}
	done := g.Query()
	defer done()
	// A query is in flight and 3 units run: past its deferral a new unit still needs one of the 2 slots.
	ch := ingestAsync(context.Background(), g)
	eventually(t, "the unit waits past its deferral", func() bool { return g.Stats().Waiting == 1 && g.Stats().Deferred == 1 })
	idle[0]()
	idle[0]() // idempotent: must not free a second slot
	if admitted(ch) {
		t.Fatal("a unit started with 2 running, 2 slots and a query in flight")
	}
	idle[1]()
	select {
	case r := <-ch:
		if st := g.Stats(); st.Running != 2 || st.Expired != 1 {
			t.Errorf("stats %+v: want 2 running, admitted after its deferral expired", st)
		}
		r()
	case <-time.After(10 * time.Second):
		t.Fatal("the unit did not start once a slot was free")
	}
	idle[2]()
	if st := g.Stats(); st.Running != 0 {
		t.Errorf("running %d after every release, want 0", st.Running)
	}
}

// A query goes before ingest units that ask to start while it is in flight, even when a slot is free and
// when the unit that was running ends: they start after it.
func TestQueryGoesBeforeNewUnits(t *testing.T) {
	g := priority.New(priority.Options{Slots: 2, MaxDefer: time.Hour})
	running, err := g.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []string
	note := func(s string) { mu.Lock(); order = append(order, s); mu.Unlock() }

	queryDone := g.Query()
	queued := ingestAsync(context.Background(), g)
	eventually(t, "the new unit waits for the query", func() bool {
		st := g.Stats()
		return st.Waiting == 1 && st.Deferred == 1
	})
	if admitted(queued) {
		t.Fatal("a unit started while a query was in flight, with a slot free")
	}
	running() // the unit in flight ends while the query runs: the waiting unit stays behind the query
	eventually(t, "the waiting unit is still waiting", func() bool {
		st := g.Stats()
		return st.Running == 0 && st.Waiting == 1
	})
	if admitted(queued) {
		t.Fatal("the waiting unit started when the running one ended, with the query still in flight")
	}
	note("query")
	queryDone()
	select {
	case release := <-queued:
		note("ingest")
		release()
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting unit never started")
	}
	if len(order) != 2 || order[0] != "query" || order[1] != "ingest" {
		t.Errorf("order %v, want the query before the waiting unit", order)
	}
}

func TestIngestCancelledHoldsNothing(t *testing.T) {
	g := priority.New(priority.Options{Slots: 1, MaxDefer: time.Hour})
	done := g.Query()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := g.Ingest(ctx)
		errc <- err
	}()
	eventually(t, "the unit waits for the query", func() bool { return g.Stats().Waiting == 1 })
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("Ingest after cancel: %v, want context.Canceled", err)
	}
	if st := g.Stats(); st.Running != 0 || st.Waiting != 0 || st.Units != 0 {
		t.Errorf("a cancelled unit left state behind: %+v", st)
	}
	done()
}

func TestNegativeMaxDeferNeverWaitsForQueries(t *testing.T) {
	g := priority.New(priority.Options{Slots: 1, MaxDefer: -1})
	done := g.Query()
	defer done()
	release, err := g.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	release()
	if st := g.Stats(); st.Deferred != 0 {
		t.Errorf("deferred with MaxDefer < 0: %+v", st)
	}
}

func TestNilGateAdmitsEverything(t *testing.T) {
	var g *priority.Gate
	done := g.Query()
	done()
	for range 100 {
		release, err := g.Ingest(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		defer release()
	}
	if g.Slots() != 0 || g.Stats() != (priority.Stats{}) {
		t.Errorf("nil gate: slots %d stats %+v", g.Slots(), g.Stats())
	}
}

func TestDefaults(t *testing.T) {
	g := priority.New(priority.Options{})
	if g.Slots() != priority.DefaultSlots() || g.Slots() < 1 {
		t.Errorf("slots %d, want DefaultSlots() = %d (≥ 1)", g.Slots(), priority.DefaultSlots())
	}
	if g.MaxDefer() != priority.DefaultMaxDefer {
		t.Errorf("max defer %s, want %s", g.MaxDefer(), priority.DefaultMaxDefer)
	}
}

// Right after a query ends the slot bound still holds for MaxDefer, so the gaps between a searcher's requests
// do not let every waiting unit in at once; once no query has been seen for MaxDefer, ingest is unbounded.
func TestSlotBoundOutlastsAQueryByMaxDefer(t *testing.T) {
	g := priority.New(priority.Options{Slots: 1, MaxDefer: time.Hour})
	g.Query()()
	r1, err := g.Ingest(context.Background()) // a slot is free: admitted
	if err != nil {
		t.Fatal(err)
	}
	ch := ingestAsync(context.Background(), g)
	eventually(t, "the second unit waits for the slot", func() bool { return g.Stats().Waiting == 1 })
	if admitted(ch) {
		t.Fatal("a second unit started just after a query, beyond the one slot")
	}
	r1()
	select {
	case r := <-ch:
		r()
	case <-time.After(10 * time.Second):
		t.Fatal("the second unit did not get the freed slot")
	}

	quick := priority.New(priority.Options{Slots: 1, MaxDefer: 10 * time.Millisecond})
	quick.Query()()
	held, err := quick.Ingest(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer held()
	select {
	case r := <-ingestAsync(context.Background(), quick):
		if st := quick.Stats(); st.Running != 2 {
			t.Errorf("running %d once the quiet period passed, want 2 (unbounded)", st.Running)
		}
		r()
	case <-time.After(10 * time.Second):
		t.Fatal("ingest stayed bounded after no query for MaxDefer")
	}
}

// TestLateUnitWaitsWithoutSpinning: a unit whose MaxDefer has passed while a query is in flight and every slot
// is taken waits for a slot asleep. The bug this guards against spun on the fired deferral timer, burning a
// core for as long as the slot stayed taken; the process's CPU time over a quarter-second wait shows it.
func TestLateUnitWaitsWithoutSpinning(t *testing.T) {
	g := priority.New(priority.Options{Slots: 1, MaxDefer: 5 * time.Millisecond})
	ctx := context.Background()
	done := g.Query()
	defer done()
	first := <-ingestAsync(ctx, g) // admitted after MaxDefer: the one slot is free
	second := ingestAsync(ctx, g)
	eventually(t, "the second unit is deferred past MaxDefer", func() bool { return g.Stats().Expired >= 1 && g.Stats().Waiting == 1 })
	before := cpuTime(t)
	wait := time.NewTimer(250 * time.Millisecond)
	select {
	case <-second:
		t.Fatal("the second unit ran while the only slot was taken")
	case <-wait.C:
	}
	if used := cpuTime(t) - before; used > 100*time.Millisecond {
		t.Fatalf("the process used %v of CPU while one unit waited 250ms for a slot: the wait spins", used)
	}
	first()
	release, ok := <-second
	if !ok {
		t.Fatal("the second unit was not admitted once the slot was free")
	}
	release()
}
