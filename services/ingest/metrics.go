package ingest

import (
	"context"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Transport attribute values.
const (
	transportHTTP = "http"
	transportNATS = "nats"
)

// metrics counts what ingest does, both as OpenTelemetry counters (exported by whatever meter provider the
// composition root installs, e.g. for /metrics) and as plain atomics readable through Service.Stats.
type metrics struct {
	accepted, duplicates, rejected, deadLettered, retried metric.Int64Counter

	nAccepted, nDuplicates, nRejected, nDeadLettered, nRetried atomic.Int64
}

func newMetrics() (*metrics, error) {
	meter := otel.Meter("github.com/mneme-ai/mneme/services/ingest")
	m := &metrics{}
	var err error
	for _, c := range []struct {
		dst        *metric.Int64Counter
		name, desc string
	}{
		{&m.accepted, "mneme.ingest.accepted", "Events (turns and structured claims) published for the first time."},
		{&m.duplicates, "mneme.ingest.duplicates", "Events JetStream reported as duplicates of ones already stored."},
		{&m.rejected, "mneme.ingest.rejected", "Batches refused for invalid input."},
		{&m.deadLettered, "mneme.ingest.dead_letters", "Inbox messages moved to the dead-letter stream."},
		{&m.retried, "mneme.ingest.retries", "Inbox messages handed back for redelivery after a transient failure."},
	} {
		if *c.dst, err = meter.Int64Counter(c.name, metric.WithDescription(c.desc)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func attrs(kv ...attribute.KeyValue) metric.AddOption { return metric.WithAttributes(kv...) }

func (m *metrics) published(ctx context.Context, transport, eventType string, total, dups int) {
	a := attrs(attribute.String("transport", transport), attribute.String("type", eventType))
	m.accepted.Add(ctx, int64(total-dups), a)
	m.nAccepted.Add(int64(total - dups))
	if dups > 0 {
		m.duplicates.Add(ctx, int64(dups), a)
		m.nDuplicates.Add(int64(dups))
	}
}

func (m *metrics) reject(ctx context.Context, transport, code string) {
	m.rejected.Add(ctx, 1, attrs(attribute.String("transport", transport), attribute.String("code", code)))
	m.nRejected.Add(1)
}

func (m *metrics) deadLetter(ctx context.Context, cause string) {
	m.deadLettered.Add(ctx, 1, attrs(attribute.String("cause", cause)))
	m.nDeadLettered.Add(1)
}

func (m *metrics) retry(ctx context.Context) {
	m.retried.Add(ctx, 1)
	m.nRetried.Add(1)
}

func (m *metrics) snapshot() Stats {
	return Stats{
		Accepted:     m.nAccepted.Load(),
		Duplicates:   m.nDuplicates.Load(),
		Rejected:     m.nRejected.Load(),
		DeadLettered: m.nDeadLettered.Load(),
		Retried:      m.nRetried.Load(),
	}
}
