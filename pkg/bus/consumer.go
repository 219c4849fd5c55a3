package bus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// Pull requests of Mneme's consumers expire after PullExpiry and carry idle heartbeats every PullHeartbeat.
// A pull request lives on the server that leads the consumer; when that server dies, the request dies with it
// and the client only learns of it from missing heartbeats (two in a row) or the request's expiry, and then
// pulls again — every two heartbeats while the consumer has no leader. The client library's defaults (30s
// expiry, 15s heartbeat) would leave a consumer idle for up to 30s after a NATS node failure; these make it
// pull again within a second of the consumer's new leader being elected, at the price of two small messages a
// second per idle consumer.
const (
	PullExpiry    = 5 * time.Second
	PullHeartbeat = 500 * time.Millisecond
)

// PullOptions returns the pull options every consumer of Mneme uses (PullExpiry and PullHeartbeat) followed by
// more.
func PullOptions(more ...jetstream.PullMessagesOpt) []jetstream.PullMessagesOpt {
	return append([]jetstream.PullMessagesOpt{jetstream.PullExpiry(PullExpiry), jetstream.PullHeartbeat(PullHeartbeat)}, more...)
}

// ConsumerOptions configure a Consumer.
type ConsumerOptions struct {
	// Stream is the stream consumed.
	Stream string
	// Config is the durable pull consumer, created or updated at start-up (idempotent across replicas). Its
	// AckWait sets the keep-alive period: every delivery not yet settled is marked in progress every third
	// of it, so slow work (an LLM call, a held extraction window) is never redelivered while it runs. Its
	// MaxDeliver should be -1: the consumer counts deliveries itself (RetryPolicy.MaxAttempts) and a
	// server-side bound would leave a message whose dead letter could not be stored in the stream for good.
	Config jetstream.ConsumerConfig
	// Pull bounds what the client buffers (jetstream.PullMaxMessages or PullMaxBytes); PullOptions adds the
	// expiry and heartbeat. What sits in the client's buffer is not yet kept alive, so the buffer should take
	// well under AckWait to work through.
	Pull []jetstream.PullMessagesOpt
	// Stage names the dead-letter subject, mneme.dlq.<Stage>.
	Stage string
	// Retry is how failures are retried and when they are given up (see RetryPolicy).
	Retry RetryPolicy
	// CloseTimeout bounds shutdown: once the Run context ends, fetching stops, the deliveries already
	// buffered are still handled, and in-flight work gets this long to finish before its context is
	// cancelled (cancelled work is left for redelivery). Default 15s.
	CloseTimeout time.Duration
	// DeadLetterTimeout bounds one dead-letter publish. Default 10s.
	DeadLetterTimeout time.Duration
	// Logger receives retries, dead letters and pull errors. Default slog.Default().
	Logger *slog.Logger
	// Hooks are called as deliveries are settled (metrics).
	Hooks Hooks
}

// Hooks observe a Consumer; every field may be nil. They run on the goroutine that settles the delivery.
type Hooks struct {
	// Acked follows a successful handling's acknowledgement.
	Acked func(ctx context.Context, d *Delivery)
	// Retried follows a failed attempt handed back for redelivery after delay.
	Retried func(ctx context.Context, d *Delivery, err error, delay time.Duration)
	// DeadLettered follows a dead letter stored and its message terminated.
	DeadLettered func(ctx context.Context, d *Delivery, cause, reason string)
}

// Consumer is Mneme's one runtime for JetStream work-queue consumers (in the spirit of Watermill's router):
// it sets up the durable consumer, fetches, hands deliveries to the service's dispatch function, keeps slow
// deliveries alive, settles each one (ack; retry with backoff; dead-letter with the reason — Delivery.Settle),
// and drains on shutdown within CloseTimeout. Services supply the handling; invariant 3 (no loss) is
// implemented here once.
type Consumer struct {
	js   jetstream.JetStream
	opts ConsumerOptions
	log  *slog.Logger
	// stage records the stage's latencies and dead letters (mneme.stage.duration, mneme.dead_letters).
	stage *StageRecorder

	running atomic.Bool

	mu          sync.Mutex
	outstanding map[*Delivery]struct{}
	idle        chan struct{} // closed when outstanding becomes empty (nil while nobody waits)
}

// NewConsumer builds a consumer; Run starts it.
func NewConsumer(js jetstream.JetStream, opts ConsumerOptions) *Consumer {
	if opts.CloseTimeout <= 0 {
		opts.CloseTimeout = 15 * time.Second
	}
	if opts.DeadLetterTimeout <= 0 {
		opts.DeadLetterTimeout = 10 * time.Second
	}
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	opts.Retry = opts.Retry.withDefaults()
	return &Consumer{js: js, opts: opts, log: log.With("stage", opts.Stage), stage: NewStageRecorder(opts.Stage), outstanding: map[*Delivery]struct{}{}}
}

// Running reports whether the consumer exists and is fetching (for readiness checks).
func (c *Consumer) Running() bool { return c.running.Load() }

// Dispatch receives a running consumer's deliveries, in stream order, on one goroutine. It must see every
// delivery settled (Delivery.Settle), now or later, and return once deliveries is closed and it has handed
// every delivery on. ctx is the work context: it outlives the Run context by up to CloseTimeout, so work in
// flight at shutdown can finish. Concurrent and Batches are the usual dispatchers; a service with its own
// grouping (the extractor's session windows) writes its own.
type Dispatch func(ctx context.Context, deliveries <-chan *Delivery) error

// Run creates or updates the consumer, fetches until ctx ends, then drains: fetching stops, buffered
// deliveries are still dispatched, and Run waits for every delivery to be settled — at most CloseTimeout after
// ctx ended, when the work context is cancelled and what remains is left for redelivery. It returns an error
// when the consumer cannot be set up or the message iterator closes on its own; nil after ctx ends.
func (c *Consumer) Run(ctx context.Context, dispatch Dispatch) error {
	cons, err := c.js.CreateOrUpdateConsumer(ctx, c.opts.Stream, c.opts.Config)
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("bus: create consumer %s on %s: %w (is the topology ensured?)", c.opts.Config.Durable, c.opts.Stream, err)
	}
	it, err := cons.Messages(PullOptions(c.opts.Pull...)...)
	if err != nil {
		return fmt.Errorf("bus: consume %s: %w", c.opts.Stream, err)
	}
	defer it.Stop()
	defer ObserveLag(cons, c.opts.Stream, c.opts.Config.Durable, -1)()
	c.running.Store(true)
	defer c.running.Store(false)

	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	// Shutdown bound: CloseTimeout after ctx ends, in-flight work is cancelled.
	stopTimer := context.AfterFunc(ctx, func() {
		t := time.NewTimer(c.opts.CloseTimeout)
		defer t.Stop()
		select {
		case <-t.C:
			c.log.Warn("bus: close timeout: in-flight deliveries are cancelled and will be redelivered", "timeout", c.opts.CloseTimeout)
			cancelWork()
		case <-work.Done():
		}
	})
	defer stopTimer()
	go c.keepAlive(work)

	deliveries := make(chan *Delivery)
	dispatched := make(chan struct{}) // closed when dispatch has returned
	fetchErr := make(chan error, 1)
	go func() {
		defer close(deliveries)
		var held []*Delivery // fetched before shutdown, not yet handed on
	fetch:
		for {
			m, err := it.Next(jetstream.NextContext(ctx))
			if err != nil {
				switch {
				case ctx.Err() != nil:
					break fetch
				case errors.Is(err, jetstream.ErrMsgIteratorClosed):
					fetchErr <- err
					return
				}
				// Missed heartbeats and similar are reported here; the iterator keeps pulling.
				c.log.Warn("bus: pull", "stream", c.opts.Stream, "err", err)
				continue
			}
			d, err := c.track(m)
			if err != nil {
				c.log.Error("bus: message without JetStream metadata", "subject", m.Subject(), "err", err)
				continue
			}
			select {
			case deliveries <- d:
			case <-ctx.Done():
				held = append(held, d)
				break fetch
			case <-dispatched:
				c.untrack(d) // nobody handles it: left for redelivery
				return
			}
		}
		// Drain: what the client already holds is handled too (the iterator's own Drain can drop its buffer
		// when its subscription closes first), then fetching stops.
		for {
			m, err := it.Next(jetstream.NextMaxWait(20 * time.Millisecond))
			if err != nil {
				break
			}
			if d, err := c.track(m); err == nil {
				held = append(held, d)
			}
		}
		it.Stop()
		for _, d := range held {
			select {
			case deliveries <- d:
			case <-dispatched:
				c.untrack(d)
			case <-work.Done():
				c.untrack(d) // past the close timeout: left for redelivery
			}
		}
	}()

	dispatchErr := dispatch(work, deliveries)
	close(dispatched)
	if ctx.Err() == nil {
		// The dispatcher returned on its own (an error): stop fetching; what is buffered is redelivered.
		it.Stop()
	}
	c.waitSettled(ctx, work)
	cancelWork()
	for range deliveries {
		// Nothing is handed on after the dispatcher returned; the fetcher leaves it for redelivery.
	}
	if dispatchErr != nil && !errors.Is(dispatchErr, context.Canceled) {
		return dispatchErr
	}
	select {
	case err := <-fetchErr:
		return fmt.Errorf("bus: %s iterator closed: %w", c.opts.Stream, err)
	default:
	}
	return nil
}

// track registers a fetched message as outstanding until it is settled, and starts the span of its handling
// (ended when it is settled or left for redelivery).
func (c *Consumer) track(m jetstream.Msg) (*Delivery, error) {
	md, err := m.Metadata()
	if err != nil {
		return nil, err
	}
	d := &Delivery{Msg: m, Metadata: md, c: c}
	_, d.span = StartConsumerSpan(context.Background(), c.opts.Stage+" process", m)
	c.mu.Lock()
	c.outstanding[d] = struct{}{}
	c.mu.Unlock()
	return d, nil
}

func (c *Consumer) untrack(d *Delivery) {
	if d.span != nil {
		d.span.End() // a no-op once Settle has ended it
	}
	c.mu.Lock()
	delete(c.outstanding, d)
	if len(c.outstanding) == 0 && c.idle != nil {
		close(c.idle)
		c.idle = nil
	}
	c.mu.Unlock()
}

// waitSettled waits until no delivery is outstanding, or the work context ends (CloseTimeout after the Run
// context ended), or — when the Run context has not ended (the dispatcher returned early) — CloseTimeout.
func (c *Consumer) waitSettled(ctx, work context.Context) {
	var timeout <-chan time.Time
	if ctx.Err() == nil {
		t := time.NewTimer(c.opts.CloseTimeout)
		defer t.Stop()
		timeout = t.C
	}
	c.mu.Lock()
	if len(c.outstanding) == 0 {
		c.mu.Unlock()
		return
	}
	if c.idle == nil {
		c.idle = make(chan struct{})
	}
	idle := c.idle
	c.mu.Unlock()
	select {
	case <-idle:
	case <-work.Done():
	case <-timeout:
	}
}

// keepAlive marks every outstanding delivery in progress every third of AckWait until ctx ends.
func (c *Consumer) keepAlive(ctx context.Context) {
	ackWait := c.opts.Config.AckWait
	if ackWait <= 0 {
		ackWait = 30 * time.Second // JetStream's default
	}
	t := time.NewTicker(max(ackWait/3, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		c.mu.Lock()
		ds := make([]*Delivery, 0, len(c.outstanding))
		for d := range c.outstanding {
			ds = append(ds, d)
		}
		c.mu.Unlock()
		for _, d := range ds {
			if !d.settled.Load() {
				_ = d.Msg.InProgress()
			}
		}
	}
}

// Outcome is what Settle did with a delivery.
type Outcome int

// Settle outcomes.
const (
	// Acked: handled; acknowledged.
	Acked Outcome = iota + 1
	// Retrying: handed back for redelivery after a delay.
	Retrying
	// DeadLettered: parked on the dead-letter subject with its reason and terminated.
	DeadLettered
	// Left: cancelled work, neither acknowledged nor handed back: JetStream redelivers it after AckWait.
	Left
	// AlreadySettled: a second Settle of the same delivery does nothing.
	AlreadySettled
)

func (o Outcome) String() string {
	switch o {
	case Acked:
		return "acked"
	case Retrying:
		return "retrying"
	case DeadLettered:
		return "dead-lettered"
	case Left:
		return "left"
	case AlreadySettled:
		return "already settled"
	}
	return "unknown"
}

// Delivery is one delivery of a message by a Consumer. It is kept alive until it is settled.
type Delivery struct {
	Msg      jetstream.Msg
	Metadata *jetstream.MsgMetadata

	c       *Consumer
	settled atomic.Bool
	// span is the span of the message's handling, a child of the publisher's trace context.
	span trace.Span
}

// Context returns ctx carrying the span of this delivery's handling: work done and messages published under
// it continue the trace of the message (its publisher's trace context travels in the headers).
func (d *Delivery) Context(ctx context.Context) context.Context {
	if d == nil || d.span == nil {
		return ctx
	}
	return trace.ContextWithSpan(ctx, d.span)
}

// endSpan records the delivery's outcome on its span and ends it.
func (d *Delivery) endSpan(o Outcome, err error) {
	if d.span == nil {
		return
	}
	d.span.SetAttributes(attribute.String("mneme.outcome", o.String()))
	if err != nil && o != Acked {
		d.span.RecordError(err)
		d.span.SetStatus(codes.Error, err.Error())
	}
	d.span.End()
}

// Attempt is the delivery count of the message (1 on its first delivery).
func (d *Delivery) Attempt() int { return int(d.Metadata.NumDelivered) }

// LastAttempt reports whether a retryable failure of this delivery will be dead-lettered rather than retried.
func (d *Delivery) LastAttempt() bool {
	max := d.c.opts.Retry.MaxAttempts
	return max > 0 && d.Attempt() >= max
}

// Settle finishes the delivery after its handling returned err (see the kinds of failure above): nil acks;
// a cancelled context (ctx ended, or err is context.Canceled) leaves it for redelivery; a permanent error
// dead-letters it at once; another error hands it back with the policy's delay, or dead-letters it on its last
// allowed attempt. A dead letter that cannot be stored hands the message back instead. Only the first Settle
// of a delivery counts.
func (d *Delivery) Settle(ctx context.Context, err error) (o Outcome) {
	if !d.settled.CompareAndSwap(false, true) {
		return AlreadySettled
	}
	defer d.c.untrack(d)
	defer func() { d.endSpan(o, err) }()
	ctx = d.Context(ctx)
	c, log := d.c, d.c.log.With("subject", d.Msg.Subject(), "stream_seq", d.Metadata.Sequence.Stream, "delivery", d.Attempt())
	p := c.opts.Retry
	switch {
	case err == nil:
		if aerr := d.Msg.Ack(); aerr != nil {
			// Whatever the handler published is stored; a redelivery repeats it under the same ids.
			log.Warn("bus: ack", "err", aerr)
		}
		if c.opts.Hooks.Acked != nil {
			c.opts.Hooks.Acked(ctx, d)
		}
		return Acked
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return Left
	case p.permanent(err):
		return d.deadLetter(ctx, log, causeOf(err), err.Error())
	case !p.transient(err) && d.LastAttempt():
		return d.deadLetter(ctx, log, CauseRetriesExhausted, exhaustedReason(err, d.Attempt(), "deliveries"))
	}
	return d.retry(ctx, log, err)
}

func (d *Delivery) retry(ctx context.Context, log *slog.Logger, err error) Outcome {
	delay := d.c.opts.Retry.Delay(d.Attempt())
	log.WarnContext(ctx, "bus: handling failed; the message will be redelivered", "delay", delay, "err", err)
	if nerr := d.Msg.NakWithDelay(delay); nerr != nil {
		log.Warn("bus: nak", "err", nerr)
	}
	if d.c.opts.Hooks.Retried != nil {
		d.c.opts.Hooks.Retried(ctx, d, err, delay)
	}
	return Retrying
}

func (d *Delivery) deadLetter(ctx context.Context, log *slog.Logger, cause, reason string) Outcome {
	c := d.c
	dctx, cancel := context.WithTimeout(ctx, c.opts.DeadLetterTimeout)
	defer cancel()
	if err := DeadLetter(dctx, c.js, c.opts.Stage, d.Msg, reason); err != nil {
		log.ErrorContext(ctx, "bus: dead letter not stored; the message will be redelivered", "reason", reason, "err", err)
		return d.retry(ctx, log, err)
	}
	log.WarnContext(ctx, "bus: message dead-lettered", "cause", cause, "reason", reason)
	c.stage.DeadLettered(ctx, cause)
	if err := d.Msg.Term(); err != nil {
		log.Warn("bus: term", "err", err)
	}
	if c.opts.Hooks.DeadLettered != nil {
		c.opts.Hooks.DeadLettered(ctx, d, cause, reason)
	}
	return DeadLettered
}

// Handler handles one delivery; its error decides the delivery's fate (Delivery.Settle).
type Handler func(ctx context.Context, d *Delivery) error

// Concurrent dispatches each delivery to h on one of workers goroutines and settles it with h's error. A
// panicking handler's message is dead-lettered (cause "panic") instead of crashing the process.
func Concurrent(workers int, h Handler) Dispatch {
	return func(ctx context.Context, deliveries <-chan *Delivery) error {
		var wg sync.WaitGroup
		for range max(workers, 1) {
			wg.Go(func() {
				for d := range deliveries {
					start := time.Now()
					err := recovered(func() error { return h(d.Context(ctx), d) })
					d.c.stage.Observe(ctx, start, err)
					d.Settle(ctx, err)
				}
			})
		}
		wg.Wait()
		return nil
	}
}

// BatchHandler handles a batch of deliveries and returns one error per delivery, in order.
type BatchHandler func(ctx context.Context, ds []*Delivery) []error

// Batches dispatches micro-batches to h on one of workers goroutines: a batch starts with the first delivery
// available and takes more for at most wait, up to size. Each delivery is settled with its error; a panicking
// handler's batch is dead-lettered (cause "panic").
func Batches(workers, size int, wait time.Duration, h BatchHandler) Dispatch {
	return func(ctx context.Context, deliveries <-chan *Delivery) error {
		var wg sync.WaitGroup
		for range max(workers, 1) {
			wg.Go(func() {
				for {
					batch := nextBatch(deliveries, max(size, 1), wait)
					if len(batch) == 0 {
						return
					}
					var errs []error
					start := time.Now()
					// The batch's span links every message's span; each message keeps its own trace
					// (Delivery.Context), which is what the handler publishes under.
					links := make([]trace.Link, len(batch))
					for i, d := range batch {
						links[i] = LinkTo(d.Context(ctx))
					}
					bctx, span := Tracer().Start(ctx, batch[0].c.opts.Stage+" batch", trace.WithLinks(links...),
						trace.WithAttributes(attribute.Int("messaging.batch.message_count", len(batch))))
					perr := recovered(func() error { errs = h(bctx, batch); return nil })
					if perr != nil {
						errs = nil
						for range batch {
							errs = append(errs, perr)
						}
					}
					for i, d := range batch {
						var err error
						if i < len(errs) {
							err = errs[i]
						} else {
							err = errors.New("bus: the batch handler returned no result for this message")
						}
						d.Settle(ctx, err)
					}
					batch[0].c.stage.Observe(ctx, start, errors.Join(errs...))
					EndSpan(span, perr)
				}
			})
		}
		wg.Wait()
		return nil
	}
}

// nextBatch blocks for one delivery, then takes more for at most wait, up to size; empty when closed.
func nextBatch(deliveries <-chan *Delivery, size int, wait time.Duration) []*Delivery {
	first, ok := <-deliveries
	if !ok {
		return nil
	}
	batch := []*Delivery{first}
	t := time.NewTimer(wait)
	defer t.Stop()
	for len(batch) < size {
		select {
		case d, ok := <-deliveries:
			if !ok {
				return batch
			}
			batch = append(batch, d)
		case <-t.C:
			return batch
		}
	}
	return batch
}

// recovered runs f and turns a panic into a permanent error with cause CausePanic.
func recovered(f func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = Reject(CausePanic, fmt.Errorf("handler panicked: %v", v))
		}
	}()
	return f()
}
