package bus

import (
	"fmt"
	"sync"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// LeaderElectedSubject is the subject of JetStream's advisory that stream's replicas elected a new leader.
func LeaderElectedSubject(stream string) string {
	return "$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED." + stream
}

// PublishedStreams lists, per service, the streams its process publishes to: the streams whose new leaders it
// watches for (WatchLeaders), and whose leader advisories its NATS user may therefore read (natsauth).
var PublishedStreams = map[string][]string{
	"ingest":     {StreamTurns, StreamProposed, StreamDLQ},
	"extractor":  {StreamProposed, StreamDLQ},
	"embedder":   {StreamClaims, StreamDLQ},
	"reconciler": {StreamLedger, StreamClaims, StreamDLQ},
}

// leaderWatch tells publishes on one connection that a stream it watches has a new leader: changed is closed
// and replaced on every election.
type leaderWatch struct {
	mu      sync.Mutex
	changed chan struct{}
}

func (w *leaderWatch) current() <-chan struct{} {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.changed
}

func (w *leaderWatch) elected() {
	w.mu.Lock()
	defer w.mu.Unlock()
	close(w.changed)
	w.changed = make(chan struct{})
}

// leaderWatches holds the watch of each connection WatchLeaders was called for.
var leaderWatches sync.Map // *nats.Conn → *leaderWatch

// WatchLeaders makes PublishEvent and PublishBatch on nc send again at once what is still unacknowledged when
// one of streams elects a new leader, instead of waiting out PublishAttemptTimeout. A message sent to a leader
// that died is never answered; its stream's remaining replicas elect a new leader within nats-server's
// election timeout (4–9 s), and what is sent after that is stored at once. Without the advisory the sender
// only learns of it when its wait ends — 10 s, long enough not to send a slow but live server's backlog again
// (PublishAttemptTimeout) — so a NATS node's loss took up to 13 s to recover from where the election took 6–11
// (docs/benchmarks.md, scale-out). Sending again is safe: the message keeps its Nats-Msg-Id and is stored once.
//
// The advisories need no JetStream API access, only a subscription to LeaderElectedSubject of each stream (the
// services' NATS users may make it: natsauth). It lasts until nc closes or stop is called. A later call for nc
// takes over from an earlier one, whose subscriptions last until its own stop.
func WatchLeaders(nc *nats.Conn, streams ...string) (stop func(), err error) {
	w := &leaderWatch{changed: make(chan struct{})}
	var subs []*nats.Subscription
	stop = func() {
		leaderWatches.CompareAndDelete(nc, w)
		for _, s := range subs {
			_ = s.Unsubscribe()
		}
	}
	for _, s := range streams {
		sub, err := nc.Subscribe(LeaderElectedSubject(s), func(*nats.Msg) { w.elected() })
		if err != nil {
			stop()
			return func() {}, fmt.Errorf("bus: watch the leaders of %s: %w", s, err)
		}
		subs = append(subs, sub)
	}
	leaderWatches.Store(nc, w)
	return stop, nil
}

// leaderElected returns a channel closed when a stream js's connection watches elects a new leader after this
// call, or nil (never ready) when its connection watches none.
func leaderElected(js jetstream.JetStream) <-chan struct{} {
	if js == nil || js.Conn() == nil {
		return nil
	}
	w, ok := leaderWatches.Load(js.Conn())
	if !ok {
		return nil
	}
	return w.(*leaderWatch).current()
}
