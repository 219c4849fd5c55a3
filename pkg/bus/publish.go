package bus

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/propagation"

	"github.com/mneme-ai/mneme/pkg/event"
)

// headerCarrier adapts nats.Header to the OpenTelemetry propagation carrier.
type headerCarrier nats.Header

func (c headerCarrier) Get(key string) string { return nats.Header(c).Get(key) }
func (c headerCarrier) Set(key, value string) { nats.Header(c).Set(key, value) }
func (c headerCarrier) Keys() []string {
	out := make([]string, 0, len(c))
	for k := range c {
		out = append(out, k)
	}
	return out
}

var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// InjectTrace writes the trace context of ctx into h.
func InjectTrace(ctx context.Context, h nats.Header) {
	propagator.Inject(ctx, headerCarrier(h))
}

// ExtractTrace returns ctx carrying the trace context found in h.
func ExtractTrace(ctx context.Context, h nats.Header) context.Context {
	return propagator.Extract(ctx, headerCarrier(h))
}

// EventMsg builds a message carrying env, with Nats-Msg-Id = the event id and the trace context of ctx.
func EventMsg(ctx context.Context, subject string, env event.Envelope) (*nats.Msg, error) {
	data, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("bus: marshal event %s: %w", env.ID, err)
	}
	msg := nats.NewMsg(subject)
	msg.Data = data
	msg.Header.Set(jetstream.MsgIDHeader, env.ID)
	msg.Header.Set(HeaderEventType, env.Type)
	InjectTrace(ctx, msg.Header)
	return msg, nil
}

// PublishEvent publishes env to subject and waits for the JetStream acknowledgement, so the event is durable
// when it returns. A duplicate (same event id within the duplicate window) is not an error: ack.Duplicate says so.
func PublishEvent(ctx context.Context, js jetstream.JetStream, subject string, env event.Envelope) (*jetstream.PubAck, error) {
	msg, err := EventMsg(ctx, subject, env)
	if err != nil {
		return nil, err
	}
	ack, err := js.PublishMsg(ctx, msg)
	if err != nil {
		return nil, fmt.Errorf("bus: publish %s to %s: %w", env.Type, subject, err)
	}
	return ack, nil
}
