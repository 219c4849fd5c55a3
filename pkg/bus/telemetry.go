package bus

import (
	"context"
	"strconv"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
)

// Scope is the OpenTelemetry instrumentation scope of the bus package's spans and instruments.
const Scope = "github.com/mneme-ai/mneme/pkg/bus"

// Tracer returns the tracer of the pipeline's messaging spans. It is looked up on each call rather than held
// in a package variable: a tracer taken before the composition root installs its provider would keep
// delegating to the first provider ever installed, and tests install one per system.
func Tracer() trace.Tracer { return otel.GetTracerProvider().Tracer(Scope) }

// Metric names shared by every stage (Prometheus adds the unit and _total suffixes: mneme_stage_duration_seconds,
// mneme_dead_letters_total, mneme_consumer_pending).
const (
	// MetricStageDuration is the histogram of one unit of a stage's work, by stage and outcome.
	MetricStageDuration = "mneme.stage.duration"
	// MetricDeadLetters counts messages parked on a dead-letter subject, by stage and cause.
	MetricDeadLetters = "mneme.dead_letters"
	// MetricConsumerPending is the consumer lag: messages of the stream not yet delivered to the consumer.
	MetricConsumerPending = "mneme.consumer.pending"
	// MetricConsumerAckPending is what a consumer holds: delivered, not yet acknowledged.
	MetricConsumerAckPending = "mneme.consumer.ack_pending"
)

// stageBuckets span a cheap decode (sub-millisecond) to a slow LLM window (tens of seconds), in seconds.
var stageBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// StageRecorder records the latency of one pipeline stage's units of work (an ingest request or inbox
// message, an extraction window, an embedding batch, a reconciler batch) and the stage's dead letters.
type StageRecorder struct {
	stage       attribute.KeyValue
	duration    metric.Float64Histogram
	deadLetters metric.Int64Counter
}

// NewStageRecorder builds the recorder of stage ("ingest", "extractor", "embedder", "reconciler") on the
// process's meter provider. Instruments that cannot be created record nothing (the no-op instruments).
func NewStageRecorder(stage string) *StageRecorder {
	meter := otel.GetMeterProvider().Meter(Scope)
	r := &StageRecorder{stage: attribute.String("stage", stage)}
	var err error
	if r.duration, err = meter.Float64Histogram(MetricStageDuration, metric.WithUnit("s"),
		metric.WithDescription("Time one unit of a pipeline stage's work took (ingest request or inbox message, extraction window, embedding batch, reconciler batch), by stage and outcome."),
		metric.WithExplicitBucketBoundaries(stageBuckets...)); err != nil {
		r.duration = nil
	}
	if r.deadLetters, err = meter.Int64Counter(MetricDeadLetters,
		metric.WithDescription("Messages moved to a dead-letter subject (mneme.dlq.<stage>), by stage and cause.")); err != nil {
		r.deadLetters = nil
	}
	return r
}

// Observe records one unit of work that started at start and ended now with err (outcome "ok" or "error").
func (r *StageRecorder) Observe(ctx context.Context, start time.Time, err error) {
	if r == nil || r.duration == nil {
		return
	}
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	r.duration.Record(ctx, time.Since(start).Seconds(), metric.WithAttributes(r.stage, attribute.String("outcome", outcome)))
}

// DeadLettered counts one dead letter with its cause (CauseInvalid, CauseRetriesExhausted, ...).
func (r *StageRecorder) DeadLettered(ctx context.Context, cause string) {
	if r == nil || r.deadLetters == nil {
		return
	}
	r.deadLetters.Add(ctx, 1, metric.WithAttributes(r.stage, attribute.String("cause", cause)))
}

// ObserveLag reports the lag of cons — mneme.consumer.pending (not yet delivered) and
// mneme.consumer.ack_pending (delivered, not acknowledged) — with the attributes stream, consumer and, when
// partition ≥ 0, partition, each time the metrics are collected (a scrape of /metrics asks the server for the
// consumer's state, with a short timeout). The returned function stops reporting.
func ObserveLag(cons jetstream.Consumer, stream, consumer string, partition int) (stop func()) {
	meter := otel.GetMeterProvider().Meter(Scope)
	pending, err1 := meter.Int64ObservableGauge(MetricConsumerPending,
		metric.WithDescription("Consumer lag: messages of the stream not yet delivered to the consumer, by stream, consumer and partition."))
	ackPending, err2 := meter.Int64ObservableGauge(MetricConsumerAckPending,
		metric.WithDescription("Messages delivered to the consumer and not yet acknowledged, by stream, consumer and partition."))
	if err1 != nil || err2 != nil {
		return func() {}
	}
	kv := []attribute.KeyValue{attribute.String("stream", stream), attribute.String("consumer", consumer)}
	if partition >= 0 {
		kv = append(kv, attribute.String("partition", strconv.Itoa(partition)))
	}
	attrs := metric.WithAttributes(kv...)
	reg, err := meter.RegisterCallback(func(ctx context.Context, o metric.Observer) error {
		ictx, cancel := context.WithTimeout(ctx, 2*time.Second)
		defer cancel()
		info, err := cons.Info(ictx)
		if err != nil {
			return nil // not reported this time (the server is away, or an ordered consumer is being reset)
		}
		o.ObserveInt64(pending, int64(info.NumPending), attrs)
		o.ObserveInt64(ackPending, int64(info.NumAckPending), attrs)
		return nil
	}, pending, ackPending)
	if err != nil {
		return func() {}
	}
	return func() { _ = reg.Unregister() }
}

// StartConsumerSpan starts the span of handling one message received on subject with headers h: a consumer
// span whose parent is the trace context the publisher put in the headers, so the trace of a turn continues
// through every stage. name is "<stage> process" by convention.
func StartConsumerSpan(ctx context.Context, name string, m jetstream.Msg, opts ...trace.SpanStartOption) (context.Context, trace.Span) {
	ctx = ExtractTrace(ctx, m.Headers())
	attrs := []attribute.KeyValue{
		attribute.String("messaging.system", "nats"),
		attribute.String("messaging.operation.type", "process"),
		attribute.String("messaging.destination.name", m.Subject()),
	}
	if id := m.Headers().Get(jetstream.MsgIDHeader); id != "" {
		attrs = append(attrs, attribute.String("messaging.message.id", id))
	}
	if md, err := m.Metadata(); err == nil {
		attrs = append(attrs, attribute.Int64("mneme.stream_seq", int64(md.Sequence.Stream)),
			attribute.Int64("messaging.message.delivery_count", int64(md.NumDelivered)))
	}
	opts = append([]trace.SpanStartOption{trace.WithSpanKind(trace.SpanKindConsumer), trace.WithAttributes(attrs...)}, opts...)
	return Tracer().Start(ctx, name, opts...)
}

// EndSpan ends span with err as its status (nil: unset, which trace back ends show as success).
func EndSpan(span trace.Span, err error) {
	if err != nil {
		span.RecordError(err)
		span.SetStatus(codes.Error, err.Error())
	}
	span.End()
}

// LinkTo is the link of a span to the span in ctx (for a batch span: one link per message in the batch).
func LinkTo(ctx context.Context) trace.Link {
	return trace.Link{SpanContext: trace.SpanContextFromContext(ctx)}
}
