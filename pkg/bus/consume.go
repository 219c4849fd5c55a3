package bus

import (
	"context"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// NextBatch blocks until one message is available (or ctx ends), then gathers more for at most wait, up to
// max messages. Batching this way keeps latency low when idle and amortises work under load. The reconciler's
// ordered partition consumers cut their batches with it; work-queue consumers use Consumer with Batches.
func NextBatch(ctx context.Context, it jetstream.MessagesContext, max int, wait time.Duration) ([]jetstream.Msg, error) {
	first, err := it.Next(jetstream.NextContext(ctx))
	if err != nil {
		return nil, err
	}
	batch := []jetstream.Msg{first}
	deadline := time.Now().Add(wait)
	for len(batch) < max {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		m, err := it.Next(jetstream.NextMaxWait(left))
		if err != nil {
			break
		}
		batch = append(batch, m)
	}
	return batch, nil
}
