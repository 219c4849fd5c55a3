package extractor

import (
	"context"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

func otelMeterProvider() metric.MeterProvider { return otel.GetMeterProvider() }

// metrics counts what the extractor does, as OpenTelemetry counters (exported by whatever meter provider the
// composition root installs) and as atomics readable through Service.Stats.
type metrics struct {
	turns, windows, claims, duplicates, deadLetters, retries, fallbacks metric.Int64Counter

	nTurns, nWindows, nClaims, nDuplicates, nDeadLetters, nRetries, nFallbacks atomic.Int64
}

func newMetrics() (*metrics, error) {
	meter := otelMeterProvider().Meter("github.com/mneme-ai/mneme/services/extractor")
	m := &metrics{}
	var err error
	for _, c := range []struct {
		dst        *metric.Int64Counter
		name, desc string
	}{
		{&m.turns, "mneme.extractor.turns", "Turns decoded and put into extraction windows."},
		{&m.windows, "mneme.extractor.windows", "Windows extracted."},
		{&m.claims, "mneme.extractor.claims", "Claims published for the first time, by extractor."},
		{&m.duplicates, "mneme.extractor.duplicates", "Claims JetStream reported as already stored (redelivered turns)."},
		{&m.deadLetters, "mneme.extractor.dead_letters", "Turns moved to the dead-letter stream, by cause."},
		{&m.retries, "mneme.extractor.retries", "Turns handed back for redelivery after a failure."},
		{&m.fallbacks, "mneme.extractor.llm_fallbacks", "Windows extracted by the rules after the LLM failed."},
	} {
		if *c.dst, err = meter.Int64Counter(c.name, metric.WithDescription(c.desc)); err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *metrics) turn(ctx context.Context)   { m.turns.Add(ctx, 1); m.nTurns.Add(1) }
func (m *metrics) window(ctx context.Context) { m.windows.Add(ctx, 1); m.nWindows.Add(1) }
func (m *metrics) retry(ctx context.Context)  { m.retries.Add(ctx, 1); m.nRetries.Add(1) }
func (m *metrics) fellBack(ctx context.Context) {
	m.fallbacks.Add(ctx, 1)
	m.nFallbacks.Add(1)
}

func (m *metrics) claim(ctx context.Context, extractor string, duplicate bool) {
	if duplicate {
		m.duplicates.Add(ctx, 1)
		m.nDuplicates.Add(1)
		return
	}
	m.claims.Add(ctx, 1, metric.WithAttributes(attribute.String("extractor", extractor)))
	m.nClaims.Add(1)
}

func (m *metrics) deadLetter(ctx context.Context, cause string) {
	m.deadLetters.Add(ctx, 1, metric.WithAttributes(attribute.String("cause", cause)))
	m.nDeadLetters.Add(1)
}

func (m *metrics) snapshot() Stats {
	return Stats{
		Turns: m.nTurns.Load(), Windows: m.nWindows.Load(), Claims: m.nClaims.Load(),
		Duplicates: m.nDuplicates.Load(), DeadLetters: m.nDeadLetters.Load(), Retries: m.nRetries.Load(),
		Fallbacks: m.nFallbacks.Load(),
	}
}
