package priority_test

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/mneme-ai/mneme/pkg/priority"
)

func TestObserveReportsTheGatesCounters(t *testing.T) {
	reader := sdkmetric.NewManualReader()
	provider := sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))
	prev := otel.GetMeterProvider()
	otel.SetMeterProvider(provider)
	t.Cleanup(func() { otel.SetMeterProvider(prev); _ = provider.Shutdown(context.Background()) })

	g := priority.New(priority.Options{Slots: 1, MaxDefer: 5 * time.Millisecond})
	stop, err := g.Observe()
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	release, _ := g.Ingest(context.Background()) // no query: not deferred
	release()
	done := g.Query()
	release, _ = g.Ingest(context.Background()) // deferred, then expired
	release()
	done()

	var rm metricdata.ResourceMetrics
	if err := reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	ints := map[string]int64{}
	var deferral float64
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				ints[m.Name] = d.DataPoints[0].Value
			case metricdata.Gauge[int64]:
				ints[m.Name] = d.DataPoints[0].Value
			case metricdata.Sum[float64]:
				deferral = d.DataPoints[0].Value
			}
		}
	}
	want := map[string]int64{priority.MetricUnits: 2, priority.MetricDeferred: 1, priority.MetricExpired: 1, priority.MetricWaiting: 0}
	for name, v := range want {
		if got, ok := ints[name]; !ok || got != v {
			t.Errorf("%s = %d (reported %v), want %d", name, got, ok, v)
		}
	}
	if deferral < 0.005 {
		t.Errorf("%s = %gs, want at least the 5ms deferral", priority.MetricDeferral, deferral)
	}
}
