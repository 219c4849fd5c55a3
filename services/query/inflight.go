package query

import (
	"context"
	"runtime"
)

// inflight bounds the retrievals that run at once in the process: searches, and the deterministic resolution of
// a question (MNEME_QUERY_MAX_IN_FLIGHT). A retrieval is CPU work in Mneme and in Postgres (embedding the
// question, planning and running a dozen statements, assembling the context), and where both share a few cores
// every retrieval let in at once slows every other: eight at once on two cores answered their slowest
// hundredth in about twice their median time, while the same eight queued, a few running, answered it in about
// one and a half times, at about the same rate (docs/benchmarks.md, "Retrievals take turns"). A waiting retrieval holds
// no connection and keeps its place: a channel's blocked senders are served in order. LLM calls are outside it
// (the reader's own search takes its turn like any other).
type inflight chan struct{}

// newInflight returns the bound for n retrievals at once: n > 0 as given, a negative n for none, and 0 for the
// automatic bound: twice GOMAXPROCS in a process without ingest work (withIngest false), none beside it. Beside
// ingest, queued searches leave the cores to what is not queued — accepting writes is not gated — and in
// loadbench's all-in-one process the bound let in 1.8 times the writes while search p99 under load rose from
// 174 to 181 and 216 ms (docs/benchmarks.md, "Retrievals take turns").
func newInflight(n int, withIngest bool) inflight {
	if n == 0 && withIngest {
		return nil
	}
	if n == 0 {
		n = 2 * runtime.GOMAXPROCS(0)
	}
	if n < 0 {
		return nil
	}
	return make(inflight, n)
}

// enter waits for a turn, or for ctx to end (its error is returned); the function returned ends the turn.
func (f inflight) enter(ctx context.Context) (func(), error) {
	if f == nil {
		return func() {}, nil
	}
	select {
	case f <- struct{}{}:
		return func() { <-f }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
