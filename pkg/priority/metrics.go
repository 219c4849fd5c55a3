package priority

import (
	"context"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/metric"
)

// Scope is the OpenTelemetry instrumentation scope of the gate's metrics.
const Scope = "github.com/mneme-ai/mneme/pkg/priority"

// Metric names (Prometheus adds _total to counters and the unit's suffix).
const (
	MetricUnits    = "mneme.priority.ingest.units"
	MetricDeferred = "mneme.priority.ingest.deferred"
	MetricExpired  = "mneme.priority.ingest.expired"
	MetricDeferral = "mneme.priority.ingest.deferral"
	MetricWaiting  = "mneme.priority.ingest.waiting"
)

// Observe reports the gate's counters through the global meter provider when metrics are collected: units
// admitted, units that waited for queries and those that ran when their deferral expired, the time spent
// waiting, and the units waiting now. stop unregisters them. A nil gate reports nothing.
func (g *Gate) Observe() (stop func(), err error) {
	if g == nil {
		return func() {}, nil
	}
	meter := otel.GetMeterProvider().Meter(Scope)
	units, err := meter.Int64ObservableCounter(MetricUnits, metric.WithDescription("Ingest units (extraction windows, embedding chunks, reconciler batches) admitted by the query-priority gate."))
	if err != nil {
		return nil, err
	}
	deferred, err := meter.Int64ObservableCounter(MetricDeferred, metric.WithDescription("Ingest units that waited for queries in flight before they started."))
	if err != nil {
		return nil, err
	}
	expired, err := meter.Int64ObservableCounter(MetricExpired, metric.WithDescription("Ingest units that started because their deferral (MNEME_INGEST_MAX_DEFER) expired with queries still in flight."))
	if err != nil {
		return nil, err
	}
	deferral, err := meter.Float64ObservableCounter(MetricDeferral, metric.WithUnit("s"), metric.WithDescription("Time ingest units spent waiting for queries."))
	if err != nil {
		return nil, err
	}
	waiting, err := meter.Int64ObservableGauge(MetricWaiting, metric.WithDescription("Ingest units waiting now for queries or a slot."))
	if err != nil {
		return nil, err
	}
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		st := g.Stats()
		o.ObserveInt64(units, st.Units)
		o.ObserveInt64(deferred, st.Deferred)
		o.ObserveInt64(expired, st.Expired)
		o.ObserveFloat64(deferral, st.DeferredTime.Seconds())
		o.ObserveInt64(waiting, st.Waiting)
		return nil
	}, units, deferred, expired, deferral, waiting)
	if err != nil {
		return nil, err
	}
	return func() { _ = reg.Unregister() }, nil
}
