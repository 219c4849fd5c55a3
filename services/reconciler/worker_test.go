package reconciler

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/service"
)

// silentIter is a partition consumer that delivers nothing until it is stopped, as an ordered consumer stuck
// in its own reset after its NATS node died does.
type silentIter struct {
	once    sync.Once
	stopped chan struct{}
}

func (it *silentIter) Next(...jetstream.NextOpt) (jetstream.Msg, error) {
	<-it.stopped
	return nil, jetstream.ErrMsgIteratorClosed
}
func (it *silentIter) Stop()  { it.once.Do(func() { close(it.stopped) }) }
func (it *silentIter) Drain() { it.Stop() }

// A partition whose consumer stalls and cannot be re-created (its NATS node has just died) ends its worker with
// the error, which gives the partition back to the next rebalance; it used to crash the reconciler process on
// the consumer it had lost, and every replica hit by the same node's death crashed with it (internal/scaleout
// saw both reconcilers die at once and every partition left without an owner).
func TestWorkerWithoutAConsumerReturnsItsError(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	cfg.Partitions = 1
	e, err := newEngine(service.Deps{Logger: testLogger(), NATS: b.nc, JS: b.js, DB: pool, Partitions: cfg.Partitions, Instance: "t"}, cfg.Defaults(), false)
	if err != nil {
		t.Fatal(err)
	}
	w := newPartitionWorker(e, 0)
	lost := errors.New("nats: no responders available for request")
	calls := 0
	w.newConsumer = func(context.Context) (jetstream.MessagesContext, error) {
		calls++
		if calls == 1 {
			return &silentIter{stopped: make(chan struct{})}, nil
		}
		return nil, lost
	}
	// The partition's log moves on while its consumer delivers nothing: the stall watch re-creates it.
	publishClaim(t, b.js, mkClaim("wsw", "Ana", "lives in", "Oslo", baseTime, cfg.Partitions))

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- w.run(ctx) }()
	select {
	case err := <-done:
		if !errors.Is(err, lost) {
			t.Fatalf("run returned %v, want the consumer's error %v", err, lost)
		}
		if calls != 2 {
			t.Errorf("%d consumer creations, want 2 (the first, and the re-creation after the stall)", calls)
		}
	case <-ctx.Done():
		t.Fatal("the worker did not return after its consumer could not be re-created")
	}
}
