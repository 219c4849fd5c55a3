package ingest

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
)

// maxRetryBackoff caps the redelivery delay after transient failures.
const maxRetryBackoff = 30 * time.Second

// inboxPullBytes bounds the inbox messages delivered to this client and not yet processed: two of the largest
// the stream holds. A count bound would let 8 MiB messages pile up at the NATS server for this connection until
// it passed the server's per-client limit (64 MiB by default) and was cut as a slow consumer; a byte bound below
// the largest message would never deliver that message at all.
var inboxPullBytes = 2 * (int(bus.DefaultTopology().MaxMsgSize) + 64<<10)

// dlqStage names ingest's dead-letter subject (mneme.dlq.ingest).
const dlqStage = "ingest"

// ConsumerConfig is the inbox consumer: one durable pull consumer over the whole work-queue stream, so each
// inbox message is taken by exactly one ingest replica. It has no delivery bound: the service counts
// deliveries itself and dead-letters after InboxMaxDeliver; a server-side bound would leave a message whose
// dead letter could not be stored at the last delivery in the inbox for good, neither processed nor parked.
func (c Config) ConsumerConfig() jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:       ConsumerName,
		Description:   "ingest: validates inbox turns and claims and publishes them as events",
		FilterSubject: "mneme.inbox.>",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       c.InboxAckWait,
		MaxDeliver:    -1,
		MaxAckPending: 8 * c.InboxConcurrency,
		DeliverPolicy: jetstream.DeliverAllPolicy,
	}
}

// Run consumes the NATS inbox until ctx is cancelled, then processes the messages already pulled and returns.
// The HTTP endpoints work independently of Run (they only need Routes).
func (s *Service) Run(ctx context.Context) error {
	cons, err := s.js.CreateOrUpdateConsumer(ctx, bus.StreamInbox, s.cfg.ConsumerConfig())
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("ingest: create inbox consumer: %w (is the topology ensured? stream %s)", err, bus.StreamInbox)
	}
	it, err := cons.Messages(jetstream.PullMaxBytes(inboxPullBytes))
	if err != nil {
		return fmt.Errorf("ingest: consume inbox: %w", err)
	}
	s.consuming.Store(true)
	defer s.consuming.Store(false)

	// Handlers run on a context that outlives ctx: a message being published when shutdown starts finishes
	// (each step is bounded by PublishTimeout) instead of being abandoned half-way.
	work := context.WithoutCancel(ctx)
	msgs := make(chan jetstream.Msg)
	var wg sync.WaitGroup
	for range s.cfg.InboxConcurrency {
		wg.Go(func() {
			for m := range msgs {
				s.handleInbox(work, m)
			}
		})
	}
	stop := context.AfterFunc(ctx, it.Drain)
	defer stop()

	var runErr error
	for {
		m, err := it.Next()
		if err != nil {
			if errors.Is(err, jetstream.ErrMsgIteratorClosed) {
				if ctx.Err() == nil {
					runErr = fmt.Errorf("ingest: inbox iterator closed: %w", err)
				}
				break
			}
			// Missed heartbeats and similar are reported here but the iterator keeps pulling.
			s.log.WarnContext(ctx, "inbox pull", "err", err)
			continue
		}
		msgs <- m
	}
	close(msgs)
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.cfg.ShutdownTimeout):
		s.log.Warn("inbox shutdown timed out; unacknowledged messages will be redelivered", "timeout", s.cfg.ShutdownTimeout)
	}
	return runErr
}

// inboxOutcome classifies the processing of one inbox message.
type inboxOutcome struct {
	// bad is set for invalid input: dead-letter and terminate.
	bad *inputError
	// transient is set for failures worth retrying (NATS, Postgres): negative-acknowledge with backoff.
	transient error
}

// handleInbox processes one inbox message: on success it acks after every event is acknowledged; bad input
// is dead-lettered and terminated; transient failures are retried with backoff until MaxDeliver, and then
// dead-lettered too, so no message is ever silently dropped or blocks what follows.
func (s *Service) handleInbox(ctx context.Context, msg jetstream.Msg) {
	ctx = bus.ExtractTrace(ctx, msg.Headers())
	md, err := msg.Metadata()
	if err != nil {
		// Not a JetStream message: nothing to ack or redeliver.
		s.log.ErrorContext(ctx, "inbox message without metadata", "subject", msg.Subject(), "err", err)
		return
	}
	// Everything for one message must end before NATS would redeliver it to another worker.
	pctx, cancel := context.WithTimeout(ctx, s.cfg.InboxAckWait)
	out := s.processInbox(pctx, msg, md)
	cancel()
	switch {
	case out.bad != nil:
		s.metrics.reject(ctx, transportNATS, out.bad.Code)
		s.deadLetter(ctx, msg, md, "invalid", out.bad.Error())
	case out.transient != nil:
		if md.NumDelivered >= uint64(s.cfg.InboxMaxDeliver) {
			s.deadLetter(ctx, msg, md, "retries_exhausted",
				fmt.Sprintf("gave up after %d deliveries: %v", md.NumDelivered, out.transient))
			return
		}
		delay := s.retryDelay(md.NumDelivered)
		s.log.WarnContext(ctx, "inbox message will be retried", "subject", msg.Subject(), "seq", md.Sequence.Stream,
			"delivery", md.NumDelivered, "delay", delay, "err", out.transient)
		s.metrics.retry(ctx)
		if err := msg.NakWithDelay(delay); err != nil {
			s.log.WarnContext(ctx, "inbox nak", "err", err)
		}
	default:
		if err := msg.Ack(); err != nil {
			// The events are stored; a redelivery republishes the same ids and is deduplicated.
			s.log.WarnContext(ctx, "inbox ack", "seq", md.Sequence.Stream, "err", err)
		}
	}
}

func (s *Service) retryDelay(delivered uint64) time.Duration {
	d := s.cfg.InboxRetryBackoff
	for i := uint64(1); i < delivered && d < maxRetryBackoff; i++ {
		d *= 2
	}
	return min(d, maxRetryBackoff)
}

// deadLetter copies msg to mneme.dlq.ingest with reason and terminates it. When the dead-letter publish fails
// the message is handed back instead, so it is never lost.
func (s *Service) deadLetter(ctx context.Context, msg jetstream.Msg, md *jetstream.MsgMetadata, cause, reason string) {
	pctx, cancel := context.WithTimeout(ctx, s.cfg.PublishTimeout)
	defer cancel()
	if err := bus.DeadLetter(pctx, s.js, dlqStage, msg, reason); err != nil {
		s.log.ErrorContext(ctx, "dead-letter failed; message will be redelivered", "subject", msg.Subject(),
			"seq", md.Sequence.Stream, "reason", reason, "err", err)
		s.metrics.retry(ctx)
		_ = msg.NakWithDelay(s.retryDelay(md.NumDelivered))
		return
	}
	s.metrics.deadLetter(ctx, cause)
	s.log.WarnContext(ctx, "inbox message dead-lettered", "subject", msg.Subject(), "seq", md.Sequence.Stream, "reason", reason)
	if err := msg.Term(); err != nil {
		s.log.WarnContext(ctx, "inbox term", "err", err)
	}
}

// parseInboxSubject parses mneme.inbox.<ws>.<agent>.<kind> (the agent's credential allows it this subject only)
// or mneme.inbox.<ws>.<kind> (development mode only) and validates the workspace and agent ids.
func parseInboxSubject(subject string) (bus.InboxSubject, *inputError) {
	in, err := bus.ParseInboxSubject(subject)
	if err != nil {
		return bus.InboxSubject{}, invalid("subject", "%v", err)
	}
	if err := auth.ValidWorkspaceID(in.Workspace); err != nil {
		return bus.InboxSubject{}, invalid("workspace", "%v", err)
	}
	if in.Bound() {
		if err := auth.ValidAgentID(in.Agent); err != nil {
			return bus.InboxSubject{}, invalid("subject", "%v", err)
		}
	}
	return in, nil
}

func (s *Service) processInbox(ctx context.Context, msg jetstream.Msg, md *jetstream.MsgMetadata) inboxOutcome {
	if err := s.acquireDecode(ctx); err != nil {
		return inboxOutcome{transient: fmt.Errorf("waiting for a decode slot: %w", err)}
	}
	events, ierr := s.inboxBatch(msg.Subject(), msg.Headers().Get(api.HeaderAgent), md, msg.Data())
	s.releaseDecode()
	if ierr != nil {
		return inboxOutcome{bad: ierr}
	}
	ws := events[0].env.Workspace
	if err := s.auth.CheckWorkspace(ctx, ws, events[0].agent, true); err != nil {
		var ae *auth.Error
		if errors.As(err, &ae) && ae.Status < 500 {
			return inboxOutcome{bad: &inputError{Status: ae.Status, Code: ae.Body.Code, Field: ae.Body.Field, Message: ae.Body.Message}}
		}
		return inboxOutcome{transient: err}
	}
	pctx, cancel := context.WithTimeout(ctx, s.cfg.PublishTimeout)
	defer cancel()
	dups, err := s.publishAll(pctx, events)
	if err != nil {
		return inboxOutcome{transient: err}
	}
	s.metrics.published(ctx, transportNATS, events[0].env.Type, len(events), len(dups))
	return inboxOutcome{}
}

// inboxBatch validates one inbox message (subject, X-Mneme-Agent header, body) and builds its events. In the
// credential-bound subject form the subject names the agent: a header or an item naming another agent is
// refused. The form without an agent is accepted in development mode only, where nothing is authenticated.
func (s *Service) inboxBatch(subject, headerAgent string, md *jetstream.MsgMetadata, body []byte) ([]outEvent, *inputError) {
	in, ierr := parseInboxSubject(subject)
	if ierr != nil {
		return nil, ierr
	}
	o := batchOrigin{
		workspace:   in.Workspace,
		headerAgent: headerAgent,
		receivedAt:  md.Timestamp,
		newTurnID:   inboxTurnIDs(in.Workspace, md.Stream, md.Sequence.Stream),
	}
	switch {
	case in.Bound():
		if headerAgent != "" && headerAgent != in.Agent {
			return nil, &inputError{Status: http.StatusForbidden, Code: api.CodeForbidden, Field: api.HeaderAgent,
				Message: fmt.Sprintf("names agent %q, but the message was published as agent %q (the inbox subject, which the publisher's credential allows): an agent may only write as itself", headerAgent, in.Agent)}
		}
		o.headerAgent, o.bound, o.boundBy = in.Agent, true, "the inbox subject"
	case !s.cfg.DevMode:
		return nil, &inputError{Status: http.StatusForbidden, Code: api.CodeForbidden, Field: "subject",
			Message: fmt.Sprintf("%q names no agent: outside development mode agents publish to %s with their own NATS credential", subject,
				bus.InboxAgentSubject(in.Workspace, "<agent>", in.Kind))}
	}
	return s.decodeBatch(in.Kind, o, body)
}
