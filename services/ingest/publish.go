package ingest

import (
	"context"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
)

// publishWindow bounds the publishes of one batch awaiting their acknowledgement, so one large batch cannot
// exhaust the connection's async-publish budget shared with concurrent requests.
const publishWindow = 256

// publishAll publishes every event and waits until JetStream has acknowledged all of them (they are then
// durable). It returns the report ids whose events were duplicates (same Nats-Msg-Id within the stream's
// duplicate window). On error some events may have been stored: the ids are deterministic, so publishing the
// same batch again has one effect.
func (s *Service) publishAll(ctx context.Context, events []outEvent) (duplicates []string, err error) {
	for start := 0; start < len(events); start += publishWindow {
		end := min(start+publishWindow, len(events))
		futures := make([]jetstream.PubAckFuture, 0, end-start)
		for _, ev := range events[start:end] {
			msg, err := bus.EventMsg(ctx, ev.subject, ev.env)
			if err != nil {
				return nil, err
			}
			f, err := s.js.PublishMsgAsync(msg)
			if err != nil {
				return nil, fmt.Errorf("ingest: publish %s to %s: %w", ev.env.ID, ev.subject, err)
			}
			futures = append(futures, f)
		}
		for i, f := range futures {
			ev := events[start+i]
			select {
			case ack := <-f.Ok():
				if ack.Duplicate {
					duplicates = append(duplicates, ev.reportID)
				}
			case err := <-f.Err():
				return nil, fmt.Errorf("ingest: publish %s to %s: %w", ev.env.ID, ev.subject, err)
			case <-ctx.Done():
				return nil, fmt.Errorf("ingest: publish %s to %s: no acknowledgement: %w", ev.env.ID, ev.subject, context.Cause(ctx))
			}
		}
	}
	return duplicates, nil
}
