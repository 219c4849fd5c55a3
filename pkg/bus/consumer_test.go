package bus_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
)

// The consumer runtime against a real in-process JetStream server: a work-queue stream "WORK" (subjects
// work.>) beside Mneme's topology, whose dead-letter stream receives mneme.dlq.test.

const testStage = "test"

type rig struct {
	t   *testing.T
	srv *bustest.Server
	// counts per message body
	mu        sync.Mutex
	calls     map[string]int
	attempts  map[string][]int
	retried   atomic.Int32
	deadLet   atomic.Int32
	acked     atomic.Int32
	deadCause []string
}

func newRig(t *testing.T) *rig {
	t.Helper()
	srv := bustest.Start(t)
	ctx := context.Background()
	if _, err := srv.JS.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: "WORK", Subjects: []string{"work.>"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
	}); err != nil {
		t.Fatal(err)
	}
	return &rig{t: t, srv: srv, calls: map[string]int{}, attempts: map[string][]int{}}
}

func (r *rig) options(mod func(*bus.ConsumerOptions)) bus.ConsumerOptions {
	o := bus.ConsumerOptions{
		Stream: "WORK",
		Config: jetstream.ConsumerConfig{
			Durable: "worker", AckPolicy: jetstream.AckExplicitPolicy, AckWait: 5 * time.Second, MaxDeliver: -1,
		},
		Pull:         []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(16)},
		Stage:        testStage,
		Retry:        bus.RetryPolicy{InitialInterval: 10 * time.Millisecond, MaxInterval: 40 * time.Millisecond, MaxAttempts: 4},
		CloseTimeout: 5 * time.Second,
		Logger:       slog.New(slog.NewTextHandler(io.Discard, nil)),
		Hooks: bus.Hooks{
			Acked:   func(context.Context, *bus.Delivery) { r.acked.Add(1) },
			Retried: func(context.Context, *bus.Delivery, error, time.Duration) { r.retried.Add(1) },
			DeadLettered: func(_ context.Context, _ *bus.Delivery, cause, _ string) {
				r.deadLet.Add(1)
				r.mu.Lock()
				r.deadCause = append(r.deadCause, cause)
				r.mu.Unlock()
			},
		},
	}
	if mod != nil {
		mod(&o)
	}
	return o
}

// seen records a delivery of body and returns how many times it was seen so far.
func (r *rig) seen(d *bus.Delivery) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := string(d.Msg.Data())
	r.calls[b]++
	r.attempts[b] = append(r.attempts[b], d.Attempt())
	return r.calls[b]
}

func (r *rig) callsOf(body string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.calls[body]
}

func (r *rig) publish(bodies ...string) {
	r.t.Helper()
	for _, b := range bodies {
		if _, err := r.srv.JS.Publish(context.Background(), "work.items", []byte(b)); err != nil {
			r.t.Fatal(err)
		}
	}
}

// run starts c with dispatch until the test ends (or stop is called); it returns stop, which cancels the
// run and waits for it, returning Run's error.
func (r *rig) run(c *bus.Consumer, dispatch bus.Dispatch) (stop func() error) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Run(ctx, dispatch) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() { cancel(); err = <-done })
		return err
	}
	r.t.Cleanup(func() { _ = stop() })
	return stop
}

func (r *rig) streamMsgs(stream string) uint64 {
	r.t.Helper()
	st, err := r.srv.JS.Stream(context.Background(), stream)
	if err != nil {
		r.t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return info.State.Msgs
}

func (r *rig) deadLetters() []*jetstream.RawStreamMsg {
	r.t.Helper()
	ctx := context.Background()
	st, err := r.srv.JS.Stream(ctx, bus.StreamDLQ)
	if err != nil {
		r.t.Fatal(err)
	}
	var out []*jetstream.RawStreamMsg
	for seq := uint64(1); ; {
		m, err := st.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(bus.DLQSubject(testStage)))
		if err != nil {
			return out
		}
		out = append(out, m)
		seq = m.Sequence + 1
	}
}

func (r *rig) ackPending() int {
	r.t.Helper()
	cons, err := r.srv.JS.Consumer(context.Background(), "WORK", "worker")
	if err != nil {
		r.t.Fatal(err)
	}
	info, err := cons.Info(context.Background())
	if err != nil {
		r.t.Fatal(err)
	}
	return info.NumAckPending
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}

func TestConsumerRetriesThenSucceeds(t *testing.T) {
	r := newRig(t)
	c := bus.NewConsumer(r.srv.JS, r.options(nil))
	r.run(c, bus.Concurrent(2, func(_ context.Context, d *bus.Delivery) error {
		if r.seen(d) < 3 {
			return errors.New("flaky downstream")
		}
		return nil
	}))
	r.publish("a")
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
	r.mu.Lock()
	attempts := fmt.Sprint(r.attempts["a"])
	r.mu.Unlock()
	if attempts != "[1 2 3]" || r.retried.Load() != 2 || r.acked.Load() != 1 || r.deadLet.Load() != 0 || len(r.deadLetters()) != 0 {
		t.Fatalf("attempts %s, retried %d, acked %d, dead-lettered %d", attempts, r.retried.Load(), r.acked.Load(), r.deadLet.Load())
	}
}

func TestConsumerPermanentErrorIsDeadLetteredOnce(t *testing.T) {
	r := newRig(t)
	c := bus.NewConsumer(r.srv.JS, r.options(nil))
	r.run(c, bus.Concurrent(2, func(_ context.Context, d *bus.Delivery) error {
		r.seen(d)
		if string(d.Msg.Data()) == "bad" {
			return bus.Reject("invalid", errors.New("field x: not a number"))
		}
		return nil
	}))
	r.publish("bad", "good")
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
	eventually(t, "no delivery pending", func() bool { return r.ackPending() == 0 })
	dl := r.deadLetters()
	if len(dl) != 1 {
		t.Fatalf("%d dead letters, want 1", len(dl))
	}
	h := dl[0].Header
	if string(dl[0].Data) != "bad" || h.Get(bus.HeaderDLQReason) != "field x: not a number" || h.Get(bus.HeaderDLQStage) != testStage ||
		h.Get(bus.HeaderDLQStream) != "WORK" || h.Get(bus.HeaderDLQSequence) != "1" {
		t.Fatalf("dead letter %q headers %v", dl[0].Data, h)
	}
	if r.callsOf("bad") != 1 || r.retried.Load() != 0 || r.deadLet.Load() != 1 || r.acked.Load() != 1 {
		t.Fatalf("bad handled %d times, retried %d, dead-lettered %d, acked %d", r.callsOf("bad"), r.retried.Load(), r.deadLet.Load(), r.acked.Load())
	}
}

func TestConsumerGivesUpAfterMaxAttempts(t *testing.T) {
	r := newRig(t)
	c := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.Retry.MaxAttempts = 3 }))
	r.run(c, bus.Concurrent(1, func(_ context.Context, d *bus.Delivery) error {
		r.seen(d)
		return bus.Step("publish", errors.New("no responders"))
	}))
	r.publish("doomed")
	eventually(t, "the dead letter", func() bool { return len(r.deadLetters()) == 1 })
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
	if got := r.deadLetters()[0].Header.Get(bus.HeaderDLQReason); got != "publish failed after 3 deliveries: no responders" {
		t.Fatalf("reason %q", got)
	}
	r.mu.Lock()
	cause := fmt.Sprint(r.deadCause)
	r.mu.Unlock()
	if r.callsOf("doomed") != 3 || r.retried.Load() != 2 || cause != "["+bus.CauseRetriesExhausted+"]" {
		t.Fatalf("handled %d times, retried %d, causes %s", r.callsOf("doomed"), r.retried.Load(), cause)
	}
}

// A broker that does not answer (a stream leader being elected) for longer than the attempts allow is an
// outage, not a bad message: the message is retried past MaxAttempts and handled once the broker answers.
func TestConsumerOutlastsBrokerUnavailability(t *testing.T) {
	r := newRig(t)
	c := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.Retry.MaxAttempts = 2 }))
	r.run(c, bus.Concurrent(1, func(_ context.Context, d *bus.Delivery) error {
		r.seen(d)
		if d.Attempt() <= 4 {
			return fmt.Errorf("publish: %w", jetstream.ErrNoStreamResponse)
		}
		return nil
	}))
	r.publish("during-election")
	eventually(t, "the message handled after the outage", func() bool { return r.acked.Load() == 1 })
	if n := len(r.deadLetters()); n != 0 || r.callsOf("during-election") != 5 {
		t.Fatalf("%d dead letters and %d calls; want 0 and 5", n, r.callsOf("during-election"))
	}
}

func TestConsumerPanicIsDeadLettered(t *testing.T) {
	r := newRig(t)
	c := bus.NewConsumer(r.srv.JS, r.options(nil))
	r.run(c, bus.Concurrent(1, func(_ context.Context, d *bus.Delivery) error {
		if r.seen(d); string(d.Msg.Data()) == "boom" {
			panic("index out of range")
		}
		return nil
	}))
	r.publish("boom", "fine")
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
	dl := r.deadLetters()
	if len(dl) != 1 || !strings.Contains(dl[0].Header.Get(bus.HeaderDLQReason), "index out of range") || r.callsOf("boom") != 1 {
		t.Fatalf("%d dead letters, boom handled %d times", len(dl), r.callsOf("boom"))
	}
}

// A handler whose work is cancelled (its context ended) is neither retried nor dead-lettered: the message is
// left, and JetStream redelivers it after AckWait.
func TestConsumerCancelledIsNeverRetried(t *testing.T) {
	r := newRig(t)
	c := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.Config.AckWait = time.Second }))
	r.run(c, bus.Concurrent(1, func(_ context.Context, d *bus.Delivery) error {
		if r.seen(d) == 1 {
			return fmt.Errorf("LLM call: %w", context.Canceled)
		}
		return nil
	}))
	r.publish("once")
	eventually(t, "the redelivery to be acknowledged", func() bool { return r.acked.Load() == 1 })
	r.mu.Lock()
	attempts := fmt.Sprint(r.attempts["once"])
	r.mu.Unlock()
	if attempts != "[1 2]" || r.retried.Load() != 0 || r.deadLet.Load() != 0 || len(r.deadLetters()) != 0 {
		t.Fatalf("attempts %s, retried %d, dead-lettered %d", attempts, r.retried.Load(), r.deadLet.Load())
	}
}

// A consumer process that dies with a message in hand (its connection drops, nothing is settled) loses
// nothing: another replica gets the message after AckWait and acknowledges it.
func TestConsumerRedeliveryAfterCrash(t *testing.T) {
	r := newRig(t)
	nc, err := bus.Connect(r.srv.URL, "doomed-replica")
	if err != nil {
		t.Fatal(err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	inHand := make(chan struct{})
	var once sync.Once
	crashing := bus.NewConsumer(js, r.options(func(o *bus.ConsumerOptions) {
		o.Config.AckWait = time.Second
		o.CloseTimeout = 10 * time.Millisecond
	}))
	crashCtx, endCrashed := context.WithCancel(context.Background())
	crashed := make(chan struct{})
	t.Cleanup(func() { endCrashed(); <-crashed })
	go func() {
		defer close(crashed)
		_ = crashing.Run(crashCtx, bus.Concurrent(1, func(ctx context.Context, d *bus.Delivery) error {
			r.seen(d)
			once.Do(func() { close(inHand) })
			<-ctx.Done() // never settles on its own
			return ctx.Err()
		}))
	}()
	r.publish("precious")
	<-inHand
	nc.Close() // the crash: the connection is gone, the message is neither acked nor handed back

	survivor := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.Config.AckWait = time.Second }))
	r.run(survivor, bus.Concurrent(1, func(_ context.Context, d *bus.Delivery) error { r.seen(d); return nil }))
	eventually(t, "the survivor to acknowledge it", func() bool { return r.acked.Load() == 1 })
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
	r.mu.Lock()
	attempts := r.attempts["precious"]
	r.mu.Unlock()
	if len(attempts) != 2 || attempts[1] != 2 || r.deadLet.Load() != 0 {
		t.Fatalf("attempts %v, dead-lettered %d", attempts, r.deadLet.Load())
	}
}

// Shutdown drains: deliveries in flight and those already fetched are handled and acknowledged before Run
// returns; nothing is left pending.
func TestConsumerDrainsOnShutdown(t *testing.T) {
	r := newRig(t)
	started := make(chan struct{}, 100)
	release := make(chan struct{})
	c := bus.NewConsumer(r.srv.JS, r.options(nil))
	stop := r.run(c, bus.Concurrent(2, func(_ context.Context, d *bus.Delivery) error {
		r.seen(d)
		started <- struct{}{}
		<-release
		return nil
	}))
	r.publish("1", "2", "3", "4", "5", "6")
	<-started
	<-started // both workers busy
	eventually(t, "the rest to be fetched into the client's buffer", func() bool {
		cons, err := r.srv.JS.Consumer(context.Background(), "WORK", "worker")
		if err != nil {
			return false
		}
		info, err := cons.Info(context.Background())
		return err == nil && info.NumPending == 0
	})
	stopped := make(chan error, 1)
	go func() { stopped <- stop() }()
	select {
	case err := <-stopped:
		t.Fatalf("Run returned (%v) with work in flight", err)
	default:
	}
	close(release)
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
	if c.Running() {
		t.Fatal("still running after Run returned")
	}
	if n := r.acked.Load(); n < 2 {
		t.Fatalf("%d acknowledged, want at least the 2 in flight", n)
	}
	// Acknowledgements are fire-and-forget messages that the server applies shortly after Run returns; poll for
	// them, but for less than AckWait (5 s), so a delivery that was never settled is still pending at the end.
	settleBy := time.Now().Add(2 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for p := r.ackPending(); p != 0; p = r.ackPending() {
		if time.Now().After(settleBy) {
			t.Fatalf("%d deliveries left pending after the drain", p)
		}
		<-tick.C
	}
	handled := 0
	for _, b := range []string{"1", "2", "3", "4", "5", "6"} {
		handled += r.callsOf(b)
	}
	if int(r.acked.Load()) != handled {
		t.Fatalf("handled %d, acknowledged %d: every handled delivery must be settled", handled, r.acked.Load())
	}
}

// Work that does not finish within CloseTimeout is cancelled and left for redelivery: not acknowledged,
// not retried, not dead-lettered.
func TestConsumerCloseTimeoutCancelsWork(t *testing.T) {
	r := newRig(t)
	started := make(chan struct{})
	c := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.CloseTimeout = 100 * time.Millisecond }))
	stop := r.run(c, bus.Concurrent(1, func(ctx context.Context, d *bus.Delivery) error {
		r.seen(d)
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}))
	r.publish("stuck")
	<-started
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if r.acked.Load() != 0 || r.retried.Load() != 0 || r.deadLet.Load() != 0 || r.streamMsgs("WORK") != 1 {
		t.Fatalf("acked %d retried %d dead-lettered %d, %d in stream", r.acked.Load(), r.retried.Load(), r.deadLet.Load(), r.streamMsgs("WORK"))
	}
}

// A handler slower than AckWait is kept alive: the message is delivered once, not redelivered to another
// worker while it runs.
func TestConsumerKeepsSlowWorkAlive(t *testing.T) {
	r := newRig(t)
	const ackWait = time.Second
	c := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.Config.AckWait = ackWait }))
	r.run(c, bus.Concurrent(4, func(ctx context.Context, d *bus.Delivery) error {
		r.seen(d)
		// Slow work: an LLM call of two and a half ack waits.
		select {
		case <-time.After(5 * ackWait / 2):
		case <-ctx.Done():
			return ctx.Err()
		}
		return nil
	}))
	r.publish("slow")
	eventually(t, "the slow message to be acknowledged", func() bool { return r.acked.Load() == 1 })
	cons, err := r.srv.JS.Consumer(context.Background(), "WORK", "worker")
	if err != nil {
		t.Fatal(err)
	}
	info, err := cons.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r.callsOf("slow") != 1 || info.NumRedelivered != 0 {
		t.Fatalf("handled %d times, %d redelivered", r.callsOf("slow"), info.NumRedelivered)
	}
}

func TestConsumerBatches(t *testing.T) {
	r := newRig(t)
	var sizes []int
	var mu sync.Mutex
	c := bus.NewConsumer(r.srv.JS, r.options(nil))
	release := make(chan struct{})
	r.run(c, bus.Batches(1, 4, 50*time.Millisecond, func(_ context.Context, ds []*bus.Delivery) []error {
		<-release
		mu.Lock()
		sizes = append(sizes, len(ds))
		mu.Unlock()
		errs := make([]error, len(ds))
		for i, d := range ds {
			if r.seen(d); string(d.Msg.Data()) == "bad" {
				errs[i] = bus.Permanent(errors.New("undecodable"))
			}
		}
		return errs
	}))
	r.publish("a", "b", "bad", "c", "d", "e")
	close(release)
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
	mu.Lock()
	defer mu.Unlock()
	total := 0
	for _, n := range sizes {
		if n > 4 {
			t.Fatalf("a batch of %d, limit 4", n)
		}
		total += n
	}
	if total != 6 || r.acked.Load() != 5 || len(r.deadLetters()) != 1 {
		t.Fatalf("batches %v, acked %d, %d dead letters", sizes, r.acked.Load(), len(r.deadLetters()))
	}
}

// A dead letter that cannot be stored never loses its message: it is handed back and tried again.
func TestConsumerDeadLetterFailureRetries(t *testing.T) {
	r := newRig(t)
	// Without the DLQ stream, the dead-letter publish has no responders.
	if err := r.srv.JS.DeleteStream(context.Background(), bus.StreamDLQ); err != nil {
		t.Fatal(err)
	}
	c := bus.NewConsumer(r.srv.JS, r.options(func(o *bus.ConsumerOptions) { o.DeadLetterTimeout = 200 * time.Millisecond }))
	r.run(c, bus.Concurrent(1, func(_ context.Context, d *bus.Delivery) error {
		r.seen(d)
		return bus.Permanent(errors.New("bad"))
	}))
	r.publish("unparkable")
	eventually(t, "two attempts", func() bool { return r.callsOf("unparkable") >= 2 })
	if r.deadLet.Load() != 0 || r.retried.Load() == 0 {
		t.Fatalf("dead-lettered %d retried %d", r.deadLet.Load(), r.retried.Load())
	}
	// The stream comes back: the next attempt parks it.
	if err := bus.DefaultTopology().Ensure(context.Background(), r.srv.JS); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the dead letter", func() bool { return len(r.deadLetters()) == 1 })
	eventually(t, "the work stream to empty", func() bool { return r.streamMsgs("WORK") == 0 })
}
