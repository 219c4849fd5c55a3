package reconciler

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

// DLQStage is the dead-letter stage name of the reconciler (subject mneme.dlq.reconciler).
const DLQStage = "reconciler"

// partitionWorker applies one owned partition: it reads the partition's subject of MNEME_CLAIMS with an ordered
// consumer starting after the offset stored in Postgres (the offset is the truth; JetStream acks play no part in
// correctness), cuts batches, and applies each batch in one transaction that also advances the offset.
type partitionWorker struct {
	e         *engine
	partition int
	offset    uint64

	stop chan struct{} // closed to ask for a graceful stop after the batch in flight
	done chan struct{} // closed when run returns
	err  error         // why run returned (nil after a requested stop)
	// hard cancels in-flight work when a graceful stop takes too long.
	hard context.CancelFunc
	// stopLag ends the consumer-lag gauge of the partition's current consumer (live engines only).
	stopLag func()
	// newConsumer creates the partition's consumer: consume, or a test's stand-in that fails the way a
	// consumer create does when its NATS node has just died.
	newConsumer func(context.Context) (jetstream.MessagesContext, error)
}

func newPartitionWorker(e *engine, partition int) *partitionWorker {
	w := &partitionWorker{e: e, partition: partition, stop: make(chan struct{}), done: make(chan struct{})}
	w.newConsumer = w.consume
	return w
}

// start runs the worker in a goroutine; parent bounds all of its work.
func (w *partitionWorker) start(parent context.Context) {
	work, hard := context.WithCancel(parent)
	w.hard = hard
	go func() {
		defer close(w.done)
		defer hard()
		w.err = w.run(work)
	}()
}

// halt asks the worker to stop after its batch in flight and waits up to grace before cancelling that batch.
func (w *partitionWorker) halt(grace time.Duration) {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-w.done:
	case <-t.C:
		w.hard()
		<-w.done
	}
}

func (w *partitionWorker) stopping() bool {
	select {
	case <-w.stop:
		return true
	default:
		return false
	}
}

func (w *partitionWorker) run(ctx context.Context) error {
	log := w.e.log.With("partition", w.partition)
	off, err := store.Offset(ctx, w.e.pool, w.partition)
	if err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	w.offset = off
	stream, err := w.e.js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		return fmt.Errorf("reconciler: claims stream: %w", err)
	}
	iter, err := w.newConsumer(ctx)
	defer func() {
		if w.stopLag != nil {
			w.stopLag()
		}
	}()
	if err != nil {
		return err
	}
	defer func() {
		// iter is the partition's current consumer; a failed re-creation below leaves it nil, and the worker
		// returns with the error (its partition is given back and acquired again at the next rebalance).
		if iter != nil {
			iter.Stop()
		}
	}()
	log.Info("reconciler: partition acquired", "offset", w.offset)
	if w.e.live {
		if err := w.e.purgeLeftoverCommands(ctx, w.partition); err != nil {
			log.Warn("reconciler: leftover erasure commands", "err", err)
		}
	}

	waitCtx, cancelWait := context.WithCancel(ctx)
	defer cancelWait()
	go func() {
		select {
		case <-w.stop:
			cancelWait()
		case <-waitCtx.Done():
		}
	}()
	for {
		if w.stopping() {
			return nil
		}
		batchCtx, cancelBatch := context.WithCancelCause(waitCtx)
		stopWatch := w.watchStall(batchCtx, stream, iter, w.offset, cancelBatch)
		batch, err := nextBatch(batchCtx, iter, w.e.cfg.BatchSize, w.e.cfg.BatchWait)
		stopWatch()
		stalled := errors.Is(context.Cause(batchCtx), errStalled)
		cancelBatch(nil)
		if err != nil {
			if waitCtx.Err() != nil {
				return nil
			}
			if stalled {
				log.Warn("reconciler: the partition's consumer delivers nothing although its log has more; re-creating it", "offset", w.offset)
				if iter, err = w.newConsumer(ctx); err != nil {
					return err
				}
				continue
			}
			return fmt.Errorf("reconciler: read partition %d: %w", w.partition, err)
		}
		if err := w.process(ctx, batch); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if stalled { // the watch fired as the batch arrived: the iterator is being stopped
			if iter, err = w.newConsumer(ctx); err != nil {
				return err
			}
		}
	}
}

// nextBatch is bus.NextBatch that returns as soon as ctx ends, even while the read is stuck inside the ordered
// consumer's own reset, which sees no context and waits up to 10s for a consumer-create answer that may have
// died with a NATS server (the scale-out test saw partitions resume only then, whatever the stall watch said).
// A batch the abandoned read returns later is dropped: nothing of it was applied, and the partition's next
// consumer starts again after the stored offset.
func nextBatch(ctx context.Context, iter jetstream.MessagesContext, max int, wait time.Duration) ([]jetstream.Msg, error) {
	type result struct {
		batch []jetstream.Msg
		err   error
	}
	out := make(chan result, 1)
	go func() {
		b, err := bus.NextBatch(ctx, iter, max, wait)
		out <- result{b, err}
	}()
	select {
	case r := <-out:
		return r.batch, r.err
	case <-ctx.Done():
		select {
		case r := <-out: // a batch that arrived as ctx ended is still handed on
			return r.batch, r.err
		default:
			return nil, context.Cause(ctx)
		}
	}
}

// consume opens an ordered consumer of the partition's subject from the message after the stored offset.
func (w *partitionWorker) consume(ctx context.Context) (jetstream.MessagesContext, error) {
	cons, err := w.e.js.OrderedConsumer(ctx, bus.StreamClaims, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{bus.ClaimsSubject(w.partition)},
		DeliverPolicy:  jetstream.DeliverByStartSequencePolicy,
		OptStartSeq:    w.offset + 1,
	})
	if err != nil {
		return nil, fmt.Errorf("reconciler: consumer of partition %d: %w", w.partition, err)
	}
	if w.e.live {
		// The lag gauge follows the partition's current consumer: a re-created one replaces it.
		if w.stopLag != nil {
			w.stopLag()
		}
		w.stopLag = bus.ObserveLag(cons, bus.StreamClaims, "reconciler", w.partition)
	}
	iter, err := cons.Messages(bus.PullOptions(jetstream.PullMaxMessages(2 * w.e.cfg.BatchSize))...)
	if err != nil {
		return nil, fmt.Errorf("reconciler: consume partition %d: %w", w.partition, err)
	}
	return iter, nil
}

// errStalled is the cause of a wait cut short because the partition's consumer delivered nothing while its log
// had more.
var errStalled = errors.New("partition consumer stalled")

// stallCheck is how often a waiting partition compares its offset with the end of its log. After a NATS server
// fails, an ordered consumer can be left waiting on a pull request that died with the server while its
// heartbeat check was paused for the reconnect (nats.go 1.55), so it would wait for good; the scale-out test
// (internal/scaleout) saw it — and the consumer's own re-creation waits up to 10s for a consumer-create answer
// lost with the server. A check that finds the log ahead of the offset while nothing arrives is confirmed
// stallConfirm later (a healthy consumer delivers a stored message within milliseconds), and a confirmed
// stall re-creates the consumer: a partition resumes within about a second of its log moving on after its
// stream has a leader again. A check is one direct get of the subject's last message; a false alarm (a
// delivery slower than stallConfirm) costs one consumer re-creation from the stored offset, nothing else.
const (
	stallCheck   = time.Second
	stallConfirm = 250 * time.Millisecond
)

// watchStall cancels ctx with errStalled when a check and its confirmation find the partition's log holding
// a message beyond offset, and stops iter: a wait can be stuck inside the ordered consumer's own reset, which
// retries creating its consumer without end and sees no context, only the iterator being stopped. It stops
// watching when ctx ends or the returned function is called.
func (w *partitionWorker) watchStall(ctx context.Context, stream jetstream.Stream, iter jetstream.MessagesContext, offset uint64, cancel context.CancelCauseFunc) func() {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTimer(stallCheck)
		defer t.Stop()
		behind := false
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
			}
			qctx, qcancel := context.WithTimeout(ctx, stallCheck)
			last, err := stream.GetLastMsgForSubject(qctx, bus.ClaimsSubject(w.partition))
			qcancel()
			switch {
			case err != nil || last.Sequence <= offset:
				behind = false
				t.Reset(stallCheck)
			case !behind:
				behind = true
				t.Reset(stallConfirm)
			default:
				cancel(errStalled)
				go iter.Stop() // may wait for the reset in progress to notice
				return
			}
		}
	}()
	return func() {
		close(done)
		<-stopped
	}
}

func toLogMsgs(batch []jetstream.Msg, after uint64) []logMsg {
	out := make([]logMsg, 0, len(batch))
	for _, m := range batch {
		md, err := m.Metadata()
		if err != nil {
			continue
		}
		if md.Sequence.Stream <= after {
			continue // already applied (a consumer reset replays a little)
		}
		out = append(out, logMsg{Seq: md.Sequence.Stream, Subject: m.Subject(), Time: logTime(md.Timestamp),
			Data: m.Data(), Header: m.Headers(), JS: m})
		after = md.Sequence.Stream
	}
	return out
}

// process applies one batch: decode, dead-letter what cannot be applied (before the commit that moves past it),
// apply the rest in one transaction with bounded retries, then publish the decisions.
func (w *partitionWorker) process(ctx context.Context, batch []jetstream.Msg) (err error) {
	msgs := toLogMsgs(batch, w.offset)
	if len(msgs) == 0 {
		return nil
	}
	// A batch is ingest work: it starts behind the queries in flight in this process (bounded deferral).
	release, err := w.e.gate.Ingest(ctx)
	if err != nil {
		return err
	}
	defer release()
	start := time.Now()
	ctx, endSpans := batchSpans(ctx, w.partition, msgs)
	defer func() {
		w.e.tel.observe(ctx, start, err)
		endSpans(err)
	}()
	var items []item
	if err := w.retryTransient(ctx, func() (err error) {
		items, err = w.e.prepare(ctx, w.partition, msgs)
		return err
	}); err != nil {
		return err
	}
	for i := range items {
		if items[i].dead != "" {
			if err := w.deadLetter(ctx, &items[i]); err != nil {
				return err
			}
		}
	}
	res, err := w.commit(ctx, items)
	if err == nil {
		w.publish(ctx, res)
		return nil
	}
	if errors.Is(err, errFenced) || ctx.Err() != nil || transient(err) {
		return err
	}
	// A message-level failure somewhere in the batch: apply one message at a time to find it.
	w.e.log.Warn("reconciler: batch failed; applying its messages one by one", "partition", w.partition, "err", err)
	for i := range items {
		if err := w.applyOne(ctx, &items[i]); err != nil {
			return err
		}
	}
	return nil
}

// applyOne applies a single item with the settling policy every Mneme consumer shares (bus.RetryPolicy):
// transient failures (the store or the bus is down: not the message's fault) are retried without bound, others
// up to MaxAttempts, after which the message is dead-lettered and recorded as dead in the partition's order.
// Lost ownership and a cancelled context stop at once.
func (w *partitionWorker) applyOne(ctx context.Context, it *item) error {
	for {
		err := w.e.applyPolicy().Retry(ctx, func(ctx context.Context) error {
			res, err := w.commit(ctx, []item{*it})
			if err == nil {
				w.publish(ctx, res)
			}
			return err
		}, func(err error, attempt int, _ time.Duration) {
			w.e.log.Warn("reconciler: apply failed; retrying", "partition", w.partition, "stream_seq", it.msg.Seq, "attempt", attempt, "err", err)
		})
		var ex *bus.ExhaustedError
		if !errors.As(err, &ex) {
			return err // nil, ownership lost, or cancelled
		}
		it.dead = fmt.Sprintf("apply failed %d times: %s", ex.Attempts, errReason(ex.Err))
		w.e.log.Error("reconciler: dead-lettering a message that keeps failing", "partition", w.partition,
			"stream_seq", it.msg.Seq, "reason", it.dead)
		if err := w.deadLetter(ctx, it); err != nil {
			return err
		}
	}
}

// commit runs applyBatch in a transaction, turning a panic into an ordinary (message-level) error.
func (w *partitionWorker) commit(ctx context.Context, items []item) (res *batchResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reconciler: panic while applying: %v", r)
		}
	}()
	tx, err := w.e.pool.Begin(ctx)
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()
	res, err = w.e.applyBatch(ctx, tx, w.partition, w.offset, items)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, err
	}
	w.offset = items[len(items)-1].msg.Seq
	w.e.tel.decided(ctx, res.decisions)
	return res, nil
}

// retryTransient calls f until it succeeds or ctx ends, with the policy's delays and no bound: f fails only
// for reasons outside any one message (decoding never fails; the store or the bus is down).
func (w *partitionWorker) retryTransient(ctx context.Context, f func() error) error {
	return w.e.retryPolicy().Retry(ctx, func(context.Context) error { return f() }, func(err error, _ int, _ time.Duration) {
		w.e.log.Warn("reconciler: transient failure; retrying", "partition", w.partition, "err", err)
	})
}

// deadLetter parks the message of a dead item on mneme.dlq.reconciler (bus.DeadLetter, the dead-letter helper
// every consumer shares), retrying until it is stored: the partition's offset moves past the message only after.
func (w *partitionWorker) deadLetter(ctx context.Context, it *item) error {
	if !w.e.live || it.msg.JS == nil {
		return nil
	}
	err := w.retryTransient(ctx, func() error {
		return bus.DeadLetter(ctx, w.e.js, DLQStage, it.msg.JS, it.dead)
	})
	if err == nil {
		w.e.tel.deadLettered(ctx, it.dead)
	}
	return err
}

// publish sends the batch's decisions to the workspace ledgers, best effort: the decisions rows are the record;
// the ledger is a feed. The message id is the decision id, so a republish after a retry is dropped by JetStream.
func (w *partitionWorker) publish(ctx context.Context, res *batchResult) {
	if res == nil || !w.e.live {
		return
	}
	for _, c := range res.commands {
		// The command names its target in clear: it goes once its part has committed.
		if err := w.e.deleteCommand(ctx, w.partition, c.erasureID, int64(c.seq)); err != nil {
			w.e.log.Warn("reconciler: delete erasure command (retried when the partition is next acquired)", "partition", w.partition, "err", err)
		}
	}
	if !w.e.cfg.PublishDecisions || len(res.decisions) == 0 {
		return
	}
	var msgs []*nats.Msg
	for _, d := range res.decisions {
		env, err := event.New(event.TypeDecisionRecorded, d.DecisionID, "mneme/reconciler", d.Workspace, d.DecidedAt, d)
		if err != nil {
			continue
		}
		env.Subject = d.SubjectKey
		msg, err := bus.EventMsg(ctx, bus.LedgerSubject(d.Workspace), env)
		if err != nil {
			continue
		}
		msgs = append(msgs, msg)
	}
	// The partition does not wait for the ledger, but the wait is bounded: an acknowledgement lost with a NATS
	// server that died never arrives, and an unbounded wait would keep a goroutine (and its decisions) for
	// good. Within the bound a decision left unanswered is sent again once the ledger has a new leader.
	go func() {
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), ledgerPublishTimeout)
		defer cancel()
		for i, r := range bus.PublishBatch(pctx, w.e.js, msgs) {
			if r.Err != nil {
				w.e.log.Warn("reconciler: decision not published to the ledger", "subject", msgs[i].Subject,
					"decision_id", msgs[i].Header.Get(jetstream.MsgIDHeader), "err", r.Err)
			}
		}
	}()
}

// ledgerPublishTimeout bounds how long a batch's decisions are offered to the ledger feed.
const ledgerPublishTimeout = 30 * time.Second

// retryPolicy is the reconciler's in-process retry: RetryBackoff doubling up to 5s, without bound.
func (e *engine) retryPolicy() bus.RetryPolicy {
	return bus.RetryPolicy{InitialInterval: e.cfg.RetryBackoff, MaxInterval: 5 * time.Second}
}

// applyPolicy is how applying one message is retried: transient failures without bound, others MaxAttempts
// times; lost ownership is never retried.
func (e *engine) applyPolicy() bus.RetryPolicy {
	p := e.retryPolicy()
	p.MaxAttempts = e.cfg.MaxAttempts
	p.ShouldRetry = func(err error) bool { return !errors.Is(err, errFenced) }
	p.Transient = transient
	return p
}

// transient reports whether err is an infrastructure failure worth retrying without bound (connection loss,
// serialization failure, resource exhaustion, a bus timeout) rather than a fault of the message.
func transient(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code[:2] {
		case "08", "40", "53", "55", "57", "58":
			return true
		}
		return false
	}
	var netErr net.Error
	var connErr *pgconn.ConnectError
	switch {
	case errors.As(err, &netErr), errors.As(err, &connErr), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF),
		pgconn.SafeToRetry(err), pgconn.Timeout(err),
		errors.Is(err, nats.ErrTimeout), errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, nats.ErrNoResponders),
		errors.Is(err, jetstream.ErrNoHeartbeat):
		return true
	}
	s := err.Error()
	return strings.Contains(s, "conn closed") || strings.Contains(s, "closed pool") || strings.Contains(s, "connection reset")
}

// errReason describes an apply failure for a dead letter: the SQLSTATE and message of a database error (which
// name types and constraints, not claim content), else the error text, bounded.
func errReason(err error) string {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return truncateString(fmt.Sprintf("postgres %s: %s", pgErr.Code, pgErr.Message), 300)
	}
	return truncateString(err.Error(), 300)
}
