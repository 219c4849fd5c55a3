package bus

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"

	"github.com/mneme-ai/mneme/pkg/event"
)

// Connect dials NATS with reconnects forever and a name that shows in server monitoring.
func Connect(url, name string) (*nats.Conn, error) {
	nc, err := nats.Connect(url,
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.Timeout(5*time.Second),
	)
	if err != nil {
		return nil, fmt.Errorf("bus: connect to NATS at %s: %w (is it running? set MNEME_NATS_URL, or leave it empty for the embedded server)", url, err)
	}
	return nc, nil
}

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

// Tracer is the tracer of the bus package.
var Tracer = otel.Tracer("github.com/mneme-ai/mneme/pkg/bus")

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

// DeadLetter copies msg to the dead-letter subject of stage with the reason in a header, so a bad message is
// kept for inspection and never blocks what follows. The caller then terminates (Term) the original.
func DeadLetter(ctx context.Context, js jetstream.JetStream, stage string, msg jetstream.Msg, reason string) error {
	dl := nats.NewMsg(DLQSubject(stage))
	dl.Data = msg.Data()
	for k, v := range msg.Headers() {
		dl.Header[k] = v
	}
	dl.Header.Set(HeaderDLQReason, reason)
	dl.Header.Set(HeaderDLQStage, stage)
	dl.Header.Set(HeaderDLQSubject, msg.Subject())
	if md, err := msg.Metadata(); err == nil {
		dl.Header.Set(HeaderDLQStream, md.Stream)
		dl.Header.Set(HeaderDLQSequence, fmt.Sprint(md.Sequence.Stream))
		// One dead letter per source message, even if dead-lettering is retried.
		dl.Header.Set(jetstream.MsgIDHeader, fmt.Sprintf("dlq:%s:%d", md.Stream, md.Sequence.Stream))
	} else {
		dl.Header.Del(jetstream.MsgIDHeader)
	}
	if _, err := js.PublishMsg(ctx, dl); err != nil {
		return fmt.Errorf("bus: dead-letter to %s: %w", dl.Subject, err)
	}
	return nil
}
