package reconciler

import (
	"context"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
)

// telemetry is what the reconciler reports: batch latency and dead letters (the stage instruments every stage
// shares, pkg/bus) and decisions by operator and outcome.
type telemetry struct {
	stage     *bus.StageRecorder
	decisions metric.Int64Counter
}

func newTelemetry() *telemetry {
	t := &telemetry{stage: bus.NewStageRecorder(DLQStage)}
	c, err := otel.GetMeterProvider().Meter("github.com/mneme-ai/mneme/services/reconciler").Int64Counter("mneme.reconciler.decisions",
		metric.WithDescription("Decisions committed to the projection, by operator (the policy's rule: lww, confirm, negate, erase, ...) and outcome."))
	if err == nil {
		t.decisions = c
	}
	return t
}

func (t *telemetry) observe(ctx context.Context, start time.Time, err error) {
	if t != nil {
		t.stage.Observe(ctx, start, err)
	}
}

func (t *telemetry) deadLettered(ctx context.Context, reason string) {
	if t != nil {
		t.stage.DeadLettered(ctx, deadCause(reason))
	}
}

func (t *telemetry) decided(ctx context.Context, ds []event.DecisionRecordedV1) {
	if t == nil || t.decisions == nil {
		return
	}
	for _, d := range ds {
		t.decisions.Add(ctx, 1, metric.WithAttributes(attribute.String("operator", d.Operator), attribute.String("outcome", d.Outcome)))
	}
}

// deadCause maps a dead item's reason (free text that may quote input) to a cause of few values for the
// dead-letter counter.
func deadCause(reason string) string {
	switch {
	case strings.HasPrefix(reason, "apply failed"):
		return bus.CauseRetriesExhausted
	case strings.HasPrefix(reason, "embedding dimension mismatch"):
		return "dimension_mismatch"
	case strings.HasPrefix(reason, "unexpected event type"):
		return "unexpected_type"
	}
	return bus.CauseInvalid
}

// batchSpans starts the spans of one batch: a "reconciler process" span per message, continuing the trace its
// publisher put in the headers (so a turn's trace ends at the transaction that wrote its claim), and the
// "reconciler batch" span — a child of the first message's span, linking the others both ways — under which
// the transaction's statements run. end finishes them all with the batch's outcome.
func batchSpans(ctx context.Context, partition int, msgs []logMsg) (bctx context.Context, end func(error)) {
	tracer := bus.Tracer()
	part := attribute.Int("mneme.partition", partition)
	spans := make([]trace.Span, len(msgs))
	links := make([]trace.Link, 0, len(msgs))
	for i, m := range msgs {
		mctx := bus.ExtractTrace(ctx, m.Header)
		mctx, spans[i] = tracer.Start(mctx, "reconciler process", trace.WithSpanKind(trace.SpanKindConsumer),
			trace.WithAttributes(attribute.String("messaging.system", "nats"), attribute.String("messaging.destination.name", m.Subject),
				attribute.Int64("mneme.stream_seq", int64(m.Seq)), part))
		if i > 0 {
			links = append(links, bus.LinkTo(mctx))
		}
	}
	bctx, batch := tracer.Start(trace.ContextWithSpan(ctx, spans[0]), "reconciler batch", trace.WithLinks(links...),
		trace.WithAttributes(part, attribute.Int("messaging.batch.message_count", len(msgs)),
			attribute.String("mneme.stream_seq.range", strconv.FormatUint(msgs[0].Seq, 10)+"-"+strconv.FormatUint(msgs[len(msgs)-1].Seq, 10))))
	for _, s := range spans[1:] {
		s.AddLink(trace.Link{SpanContext: batch.SpanContext()})
	}
	return bctx, func(err error) {
		bus.EndSpan(batch, err)
		for _, s := range spans {
			bus.EndSpan(s, err)
		}
	}
}
