package query

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// metrics records what the query service does as OpenTelemetry instruments (exported by whatever meter
// provider the composition root installs, e.g. for /metrics).
type metrics struct {
	requests metric.Int64Counter
	duration metric.Float64Histogram
	answers  metric.Int64Counter
}

func newMetrics() (*metrics, error) {
	meter := otel.Meter("github.com/mneme-ai/mneme/services/query")
	m := &metrics{}
	var err error
	if m.requests, err = meter.Int64Counter("mneme.query.requests",
		metric.WithDescription("HTTP requests of the query API by endpoint and status.")); err != nil {
		return nil, err
	}
	if m.duration, err = meter.Float64Histogram("mneme.query.duration", metric.WithUnit("ms"),
		metric.WithDescription("Time to answer a query API request (query embedding included)."),
		metric.WithExplicitBucketBoundaries(1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000)); err != nil {
		return nil, err
	}
	if m.answers, err = meter.Int64Counter("mneme.query.answers",
		metric.WithDescription("Answers by mode (deterministic, multi-hop, reader, statement, none) and whether a disputed fact was involved.")); err != nil {
		return nil, err
	}
	return m, nil
}

func (m *metrics) request(ctx context.Context, endpoint string, status int, d time.Duration) {
	a := metric.WithAttributes(attribute.String("endpoint", endpoint), attribute.String("status", strconv.Itoa(status)))
	m.requests.Add(ctx, 1, a)
	m.duration.Record(ctx, float64(d.Microseconds())/1000, metric.WithAttributes(attribute.String("endpoint", endpoint)))
}

func (m *metrics) answer(ctx context.Context, mode string, disputed bool) {
	m.answers.Add(ctx, 1, metric.WithAttributes(attribute.String("mode", mode), attribute.Bool("disputed", disputed)))
}

// statusWriter remembers the status a handler wrote.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}
