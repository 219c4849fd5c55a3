// Package priority gives queries priority over ingest work inside one process. When the query service runs in
// the same process as the stages that extract, embed and reconcile (`mneme run -target=all`), those stages can
// use every core for as long as there is a backlog, and a search then waits its turn behind them: on two cores,
// 8 searchers beside 147 turns/s of ingest saw p99 916 ms against ~10 ms idle (issue 15).
//
// A Gate fixes that with two rules, applied to units of ingest work (an extraction window, a chunk of texts
// to embed, a reconciler batch):
//
//   - at most Slots units run at once (default half the process's GOMAXPROCS, at least one), so ingest never
//     holds every core;
//   - a unit about to start while a query is in flight waits until no query is, but never longer than
//     MaxDefer (default 50 ms): queries go first, and ingest keeps a share under any query load — with
//     queries always in flight a slot runs a unit of duration u at least once every u + MaxDefer.
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
	// Slots bounds the ingest units running at once. 0 means DefaultSlots().
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
	// Deferred is how many of them waited for queries; Expired how many of those ran because MaxDefer passed
	// with queries still in flight.
	Deferred, Expired int64
	// DeferredTime is the total time units waited for queries.
	DeferredTime time.Duration
	// Waiting is how many units are waiting now (for a slot or for queries); Running how many hold a slot.
	Waiting, Running int64
	// Queries is how many queries are in flight now.
	Queries int64
}

// Gate admits ingest units behind queries. It is safe for concurrent use; the zero value is not usable
// (use New), a nil *Gate admits everything at once.
type Gate struct {
	slots    chan struct{}
	maxDefer time.Duration

	mu      sync.Mutex
	queries int64
	// idle is closed when the last in-flight query ends; a new one is made when a query starts from none.
	idle chan struct{}

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
	idle := make(chan struct{})
	close(idle)
	return &Gate{slots: make(chan struct{}, o.Slots), maxDefer: o.MaxDefer, idle: idle}
}

// Slots is the number of ingest units that may run at once (0 for a nil Gate: no bound).
func (g *Gate) Slots() int {
	if g == nil {
		return 0
	}
	return cap(g.slots)
}

// MaxDefer is how long a unit waits for queries at most (negative: never waits).
func (g *Gate) MaxDefer() time.Duration {
	if g == nil {
		return -1
	}
	return g.maxDefer
}

// Query marks a query in flight until done is called (done is idempotent). Ingest units about to start wait
// for it. A query never waits itself.
func (g *Gate) Query() (done func()) {
	if g == nil {
		return func() {}
	}
	g.mu.Lock()
	if g.queries == 0 {
		g.idle = make(chan struct{})
	}
	g.queries++
	g.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			if g.queries--; g.queries == 0 {
				close(g.idle)
			}
			g.mu.Unlock()
		})
	}
}

// Ingest waits for a slot and then, while queries are in flight, for them to end (at most MaxDefer), and
// returns the function that gives the slot back (idempotent). It fails only with ctx's error, holding nothing.
func (g *Gate) Ingest(ctx context.Context) (release func(), err error) {
	if g == nil {
		return func() {}, ctx.Err()
	}
	g.waiting.Add(1)
	defer g.waiting.Add(-1)
	select {
	case g.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	var once sync.Once
	release = func() { once.Do(func() { <-g.slots }) }
	if err := g.yield(ctx); err != nil {
		release()
		return nil, err
	}
	g.units.Add(1)
	return release, nil
}

// yield waits while queries are in flight, at most MaxDefer.
func (g *Gate) yield(ctx context.Context) error {
	if g.maxDefer < 0 {
		return ctx.Err()
	}
	g.mu.Lock()
	busy, idle := g.queries > 0, g.idle
	g.mu.Unlock()
	if !busy {
		return ctx.Err()
	}
	g.deferred.Add(1)
	start := time.Now()
	defer func() { g.deferredNanos.Add(int64(time.Since(start))) }()
	t := time.NewTimer(g.maxDefer)
	defer t.Stop()
	select {
	case <-idle:
		return nil
	case <-t.C:
		g.expired.Add(1)
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stats returns the gate's counters (zero for a nil Gate).
func (g *Gate) Stats() Stats {
	if g == nil {
		return Stats{}
	}
	g.mu.Lock()
	q := g.queries
	g.mu.Unlock()
	return Stats{
		Units: g.units.Load(), Deferred: g.deferred.Load(), Expired: g.expired.Load(),
		DeferredTime: time.Duration(g.deferredNanos.Load()), Waiting: g.waiting.Load(), Running: int64(len(g.slots)), Queries: q,
	}
}
