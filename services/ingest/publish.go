package ingest

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go"

	"github.com/mneme-ai/mneme/pkg/bus"
)

// publishWindow bounds the publishes of one batch awaiting their acknowledgement, so one large batch cannot
// exhaust the connection's async-publish budget shared with concurrent requests.
const publishWindow = 256

// publishAll publishes every event and waits until JetStream has acknowledged all of them (they are then
// durable). It returns the report ids whose events were duplicates (same Nats-Msg-Id within the stream's
// duplicate window). On error some events may have been stored: the ids are deterministic, so publishing the
// same batch again has one effect. An event NATS leaves unanswered (its stream's leader died) is sent again
// until ctx ends (bus.PublishBatch).
func (s *Service) publishAll(ctx context.Context, events []outEvent) (duplicates []string, err error) {
	for start := 0; start < len(events); start += publishWindow {
		end := min(start+publishWindow, len(events))
		msgs := make([]*nats.Msg, 0, end-start)
		for _, ev := range events[start:end] {
			msg, err := bus.EventMsg(ctx, ev.subject, ev.env)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, msg)
		}
		for i, r := range bus.PublishBatch(ctx, s.js, msgs) {
			ev := events[start+i]
			if r.Err != nil {
				return nil, fmt.Errorf("ingest: publish %s to %s: %w", ev.env.ID, ev.subject, r.Err)
			}
			// A message sent more than once may be acknowledged as a duplicate of its own first send: only a
			// first send's answer says the caller repeated itself.
			if r.Ack.Duplicate && r.Sends == 1 {
				duplicates = append(duplicates, ev.reportID)
			}
		}
	}
	return duplicates, nil
}
