// Package priority gives queries priority over ingest work inside one process. When the query service runs in
// the same process as the stages that extract, embed and reconcile (`mneme run -target=all`), those stages can
// use every core for as long as there is a backlog, and a search then waits its turn behind them: on two cores,
// 8 searchers beside 147 turns/s of ingest saw p99 916 ms against ~10 ms idle (issue 15).
//
// A Gate admits units of ingest work (an extraction window, a chunk of texts to embed, a reconciler batch) by
// two rules:
//
//   - with no query in flight for MaxDefer a unit starts at once: ingest has the whole machine when nobody is
//     asking (right after a query the slot bound below still holds, so the instants between one searcher's
//     requests do not let every waiting unit in at once);
//   - while a query is in flight a unit about to start waits until no query is, but never longer than
//     MaxDefer (default 50 ms), and then only if fewer than Slots units are running (default half the
//     process's GOMAXPROCS, at least one). Queries go first, and ingest keeps a bounded share under any query
//     load: with queries always in flight, each slot still runs a unit of duration u at least once every
//     u + MaxDefer, so ingest never starves.
//
// A unit already running is not interrupted, which is why ingest work comes in small units (the embedding
// wrapper, Embedder, cuts batches into chunks). Nothing is dropped or reordered by the gate: a deferred unit
// runs later on the same goroutine, so every accepted input still takes effect and the stages' ordering
// guarantees are untouched. A nil *Gate is valid and never waits: processes without queries beside ingest
// (the split topology) use none.
package priority

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Gate.
type Options struct {
	// Slots bounds the ingest units running at once while queries are in flight. 0 means DefaultSlots().
	Slots int
	// MaxDefer bounds how long one unit waits for in-flight queries before it runs anyway. 0 means 50 ms;
	// negative means ingest never waits for queries (only Slots applies).
	MaxDefer time.Duration
}

// DefaultMaxDefer is MaxDefer's default.
const DefaultMaxDefer = 50 * time.Millisecond

// DefaultSlots is half the process's GOMAXPROCS, at least one: ingest keeps to half the cores it may use.
func DefaultSlots() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// Stats are a Gate's counters since it was made.
type Stats struct {
	// Units is how many ingest units were admitted.
	Units int64
	// Deferred is how many of them waited for queries; Expired how many of those started because MaxDefer
	// passed with queries still in flight.
	Deferred, Expired int64
	// DeferredTime is the total time units waited for queries.
	DeferredTime time.Duration
	// Waiting is how many units are waiting now (for queries or a slot); Running how many are running.
	Waiting, Running int64
	// Queries is how many queries are in flight now.
	Queries int64
}

// Gate admits ingest units behind queries. It is safe for concurrent use; the zero value is not usable
// (use New), a nil *Gate admits everything at once.
type Gate struct {
	slots    int
	maxDefer time.Duration

	mu      sync.Mutex
	queries int64
	// lastQuery is when the last query ended: for a MaxDefer after it the slot bound still holds, so the
	// instants between one searcher's requests do not let every waiting unit in at once.
	lastQuery time.Time
	running   int64
	// changed is closed (and replaced) whenever queries or running drop, waking the units that wait.
	changed chan struct{}

	units, deferred, expired, deferredNanos, waiting atomic.Int64
}

// New makes a Gate.
func New(o Options) *Gate {
	if o.Slots <= 0 {
		o.Slots = DefaultSlots()
	}
	if o.MaxDefer == 0 {
		o.MaxDefer = DefaultMaxDefer
	}
	return &Gate{slots: o.Slots, maxDefer: o.MaxDefer, changed: make(chan struct{})}
}

// Slots is the number of ingest units that may run at once while queries are in flight (0 for a nil Gate: no
// bound).
func (g *Gate) Slots() int {
	if g == nil {
		return 0
	}
	return g.slots
}

// MaxDefer is how long a unit waits for queries at most (negative: never waits for them).
func (g *Gate) MaxDefer() time.Duration {
	if g == nil {
		return -1
	}
	return g.maxDefer
}

// wake tells the waiting units that the state changed. Callers hold mu.
func (g *Gate) wake() {
	close(g.changed)
	g.changed = make(chan struct{})
}

// Query marks a query in flight until done is called (done is idempotent). Ingest units about to start wait
// for it. A query never waits itself.
func (g *Gate) Query() (done func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	g.queries++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			if g.queries--; g.queries == 0 {
				g.lastQuery = time.Now()
				g.wake()
			}
			g.mu.Unlock()
		})
	}
}

// Ingest admits one unit of ingest work (see the package comment) and returns the function that ends it
// (idempotent). It fails only with ctx's error, holding nothing.
func (g *Gate) Ingest(ctx context.Context) (release func(), err error) {
	if g == nil {
		return func() {}, ctx.Err()
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	var (
		start    time.Time
		timer    *time.Timer
		expired  <-chan time.Time
		timedOut bool
	)
	defer func() {
		if timer != nil {
			timer.Stop()
			g.deferredNanos.Add(int64(time.Since(start)))
		}
	}()
	g.mu.Lock()
	for {
		// A unit that has waited MaxDefer only needs a slot; before that it needs the queries to end.
		late := g.maxDefer < 0 || timedOut
		free := g.running < int64(g.slots)
		var quietIn time.Duration // how long until no query has been seen for MaxDefer
		if g.queries == 0 && g.maxDefer > 0 {
			quietIn = g.maxDefer - time.Since(g.lastQuery)
		}
		if (g.queries == 0 && (quietIn <= 0 || free)) || (late && free) {
			if g.queries > 0 && timer != nil {
				g.expired.Add(1)
			}
			g.running++
			g.mu.Unlock()
			g.units.Add(1)
			var once sync.Once
			return func() {
				once.Do(func() {
					g.mu.Lock()
					g.running--
					g.wake()
					g.mu.Unlock()
				})
			}, nil
		}
		if timer == nil && g.maxDefer >= 0 {
			start = time.Now()
			timer = time.NewTimer(g.maxDefer)
			expired = timer.C
			g.deferred.Add(1)
		}
		changed := g.changed
		g.mu.Unlock()
		var quiet *time.Timer
		var quietC <-chan time.Time
		if quietIn > 0 {
			quiet = time.NewTimer(quietIn)
			quietC = quiet.C
		}
		var cancelled bool
		select {
		case <-changed:
		case <-quietC:
		case <-expired:
			// Fired once: from now on the unit waits only for a slot (a nil channel is never ready, so a
			// late unit does not spin while every slot is taken).
			timedOut, expired = true, nil
		case <-ctx.Done():
			cancelled = true
		}
		if quiet != nil {
			quiet.Stop()
		}
		if cancelled {
			return nil, ctx.Err()
		}
		g.mu.Lock()
	}
}

// Stats returns the gate's counters (zero for a nil Gate).
func (g *Gate) Stats() Stats {
	if g == nil {
		return Stats{}
	}
	g.mu.Lock()
	q, r := g.queries, g.running
	g.mu.Unlock()
	return Stats{
		Units: g.units.Load(), Deferred: g.deferred.Load(), Expired: g.expired.Load(),
		DeferredTime: time.Duration(g.deferredNanos.Load()), Waiting: g.waiting.Load(), Running: r, Queries: q,
	}
}
