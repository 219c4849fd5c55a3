package ingest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
)

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

// RetryPolicy is how inbox messages that fail for a transient reason are retried: redelivered after
// InboxRetryBackoff, doubling up to 30s, and dead-lettered after InboxMaxDeliver deliveries.
func (c Config) RetryPolicy() bus.RetryPolicy {
	return bus.RetryPolicy{InitialInterval: c.InboxRetryBackoff, MaxInterval: 30 * time.Second, MaxAttempts: c.InboxMaxDeliver}
}

// newInbox builds the inbox consumer on the shared runtime (pkg/bus): bad input is dead-lettered at once,
// transient failures are retried with backoff and dead-lettered after the bound, so no message is ever silently
// dropped or blocks what follows.
func (s *Service) newInbox() *bus.Consumer {
	return bus.NewConsumer(s.js, bus.ConsumerOptions{
		Stream:            bus.StreamInbox,
		Config:            s.cfg.ConsumerConfig(),
		Pull:              []jetstream.PullMessagesOpt{jetstream.PullMaxBytes(inboxPullBytes)},
		Stage:             dlqStage,
		Retry:             s.cfg.RetryPolicy(),
		CloseTimeout:      s.cfg.ShutdownTimeout,
		DeadLetterTimeout: s.cfg.PublishTimeout,
		Logger:            s.log,
		Hooks: bus.Hooks{
			Retried:      func(ctx context.Context, _ *bus.Delivery, _ error, _ time.Duration) { s.metrics.retry(ctx) },
			DeadLettered: func(ctx context.Context, _ *bus.Delivery, cause, _ string) { s.metrics.deadLetter(ctx, cause) },
		},
	})
}

// Run consumes the NATS inbox until ctx is cancelled, then processes the messages already pulled and returns.
// The HTTP endpoints work independently of Run (they only need Routes).
func (s *Service) Run(ctx context.Context) error {
	if err := s.inbox.Run(ctx, bus.Concurrent(s.cfg.InboxConcurrency, s.handleInbox)); err != nil {
		return fmt.Errorf("ingest: inbox: %w", err)
	}
	return nil
}

// handleInbox processes one inbox message: nil once every event is acknowledged by JetStream; bad input is
// rejected (dead-lettered with the reason); any other failure is transient (retried).
func (s *Service) handleInbox(ctx context.Context, d *bus.Delivery) error {
	// ctx carries the delivery's span (the consumer runtime continues the publisher's trace from the headers).
	// The consumer keeps the message in progress while this runs; the bound keeps a stuck dependency (a decode
	// slot, the key lookup) from holding it for good: the wait and the checks get one PublishTimeout, the
	// publish its own.
	pctx, cancel := context.WithTimeout(ctx, 2*s.cfg.PublishTimeout)
	defer cancel()
	if err := s.acquireDecode(pctx); err != nil {
		return fmt.Errorf("waiting for a decode slot: %w", err)
	}
	events, ierr := s.inboxBatch(d.Msg.Subject(), d.Msg.Headers().Get(api.HeaderAgent), d.Metadata, d.Msg.Data())
	s.releaseDecode()
	if ierr != nil {
		s.metrics.reject(ctx, transportNATS, ierr.Code)
		return bus.Reject(bus.CauseInvalid, ierr)
	}
	ws := events[0].env.Workspace
	if err := s.auth.CheckWorkspace(pctx, ws, events[0].agent, true); err != nil {
		var ae *auth.Error
		if errors.As(err, &ae) && ae.Status < 500 {
			s.metrics.reject(ctx, transportNATS, ae.Body.Code)
			return bus.Reject(bus.CauseInvalid, &api.HTTPError{Status: ae.Status, ErrorBody: ae.Body})
		}
		return err
	}
	pubctx, cancelPub := context.WithTimeout(pctx, s.cfg.PublishTimeout)
	defer cancelPub()
	dups, err := s.publishAll(pubctx, events)
	if err != nil {
		return err
	}
	s.metrics.published(ctx, transportNATS, events[0].env.Type, len(events), len(dups))
	return nil
}

// parseInboxSubject parses mneme.inbox.<ws>.<agent>.<kind> (the agent's credential allows it this subject only)
// or mneme.inbox.<ws>.<kind> (development mode only) and validates the workspace and agent ids.
func parseInboxSubject(subject string) (bus.InboxSubject, *api.HTTPError) {
	in, err := bus.ParseInboxSubject(subject)
	if err != nil {
		return bus.InboxSubject{}, api.BadRequest("subject", "%v", err)
	}
	if err := auth.ValidWorkspaceID(in.Workspace); err != nil {
		return bus.InboxSubject{}, api.BadRequest("workspace", "%v", err)
	}
	if in.Bound() {
		if err := auth.ValidAgentID(in.Agent); err != nil {
			return bus.InboxSubject{}, api.BadRequest("subject", "%v", err)
		}
	}
	return in, nil
}

// inboxBatch validates one inbox message (subject, X-Mneme-Agent header, body) and builds its events. In the
// credential-bound subject form the subject names the agent: a header or an item naming another agent is
// refused. The form without an agent is accepted in development mode only, where nothing is authenticated.
func (s *Service) inboxBatch(subject, headerAgent string, md *jetstream.MsgMetadata, body []byte) ([]outEvent, *api.HTTPError) {
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
			return nil, api.Forbidden(api.HeaderAgent, "names agent %q, but the message was published as agent %q (the inbox subject, which the publisher's credential allows): an agent may only write as itself", headerAgent, in.Agent)
		}
		o.headerAgent, o.bound, o.boundBy = in.Agent, true, "the inbox subject"
	case !s.cfg.DevMode:
		return nil, api.Forbidden("subject", "%q names no agent: outside development mode agents publish to %s with their own NATS credential", subject,
			bus.InboxAgentSubject(in.Workspace, "<agent>", in.Kind))
	}
	return s.decodeBatch(in.Kind, o, body)
}
