package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// TelemetryConfig selects what the process reports besides /metrics: traces and the log format.
type TelemetryConfig struct {
	// Tracing exports OpenTelemetry traces over OTLP/HTTP (protobuf): one trace follows a turn from the HTTP
	// call or NATS publish through every stage to the transaction that writes its claim, and a query to its
	// SQL statements. Off by default. The exporter reads the standard variables: OTEL_EXPORTER_OTLP_ENDPOINT
	// (default http://localhost:4318) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_HEADERS,
	// OTEL_EXPORTER_OTLP_INSECURE, OTEL_EXPORTER_OTLP_CERTIFICATE, OTEL_EXPORTER_OTLP_COMPRESSION,
	// OTEL_EXPORTER_OTLP_TIMEOUT; sampling OTEL_TRACES_SAMPLER and OTEL_TRACES_SAMPLER_ARG (default
	// parentbased_always_on); OTEL_SERVICE_NAME (default mneme) and OTEL_RESOURCE_ATTRIBUTES. Spans still
	// buffered at shutdown are flushed within MNEME_SHUTDOWN_TIMEOUT.
	Tracing bool `env:"MNEME_TRACING" envDefault:"false"`
	// LogFormat is text (for people) or json (one object per line, for log collectors). Both carry trace_id
	// and span_id when a record is logged inside a span.
	LogFormat string `env:"MNEME_LOG_FORMAT" envDefault:"text"`
}

func (c TelemetryConfig) validate() []error {
	switch c.LogFormat {
	case "text", "json":
		return nil
	}
	return []error{fmt.Errorf("MNEME_LOG_FORMAT=%q: use text or json", c.LogFormat)}
}

// Option changes how Build assembles the process.
type Option func(*buildOptions)

type buildOptions struct {
	tracerProvider trace.TracerProvider
}

// WithTracerProvider makes the process trace with tp (tests pass one with an in-memory exporter) whatever
// MNEME_TRACING says. The caller owns tp: the process neither flushes nor shuts it down.
func WithTracerProvider(tp trace.TracerProvider) Option {
	return func(o *buildOptions) { o.tracerProvider = tp }
}

// startTracing installs the process's tracer provider: the caller's, the OTLP exporter's when MNEME_TRACING
// is on, else a no-op one (spans cost nothing). It reports whether spans are recorded.
func (a *App) startTracing(ctx context.Context, o buildOptions) (bool, error) {
	switch {
	case o.tracerProvider != nil:
		otel.SetTracerProvider(o.tracerProvider)
		return true, nil
	case !a.cfg.Tracing:
		otel.SetTracerProvider(noop.NewTracerProvider())
		return false, nil
	}
	exp, err := otlptracehttp.New(ctx) // endpoint, headers, TLS and timeout from OTEL_EXPORTER_OTLP_*
	if err != nil {
		return false, fmt.Errorf("MNEME_TRACING: OTLP trace exporter: %w", err)
	}
	host, _ := os.Hostname()
	// The environment (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) overrides Mneme's defaults.
	res, err := resource.Merge(resource.NewSchemaless(
		attribute.String("service.name", "mneme"),
		attribute.String("service.version", Version()),
		attribute.String("service.instance.id", fmt.Sprintf("%s-%d", host, os.Getpid())),
		attribute.String("mneme.targets", strings.Join(a.cfg.TargetList(), ",")),
	), resource.Environment())
	if err != nil {
		return false, fmt.Errorf("MNEME_TRACING: resource: %w", err)
	}
	// The sampler comes from OTEL_TRACES_SAMPLER; the batcher exports in the background and drops spans
	// rather than block the pipeline when the collector is slow or away.
	a.tracer = sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(a.tracer)
	return true, nil
}

// queryTracer is the pgx tracer of the process's pool: a span per statement, batch and COPY under the span
// of the work that issued it (a query request, a reconciler batch). Statements without a span around them
// (housekeeping, ownership heartbeats) start no trace of their own.
func queryTracer() pgx.QueryTracer {
	return otelpgx.NewTracer(otelpgx.WithDisableConnectionDetailsInAttributes())
}

// instrumentHTTP wraps the process's handler: a server span per request, continuing the caller's traceparent,
// and the histogram http.server.request.duration by method, route (the mux pattern) and status. Probes and
// scrapes are left out: they would be most of the traffic and none of the interest.
func instrumentHTTP(h http.Handler) http.Handler {
	return otelhttp.NewHandler(h, "mneme", otelhttp.WithFilter(func(r *http.Request) bool {
		switch r.URL.Path {
		case "/healthz", "/readyz", "/metrics":
			return false
		}
		return true
	}))
}

// NewLogger returns the process logger at the given level: text (for people) or json (for log collectors)
// to w. Records logged with a context inside a span carry its trace_id and span_id.
func NewLogger(w io.Writer, level, format string) *slog.Logger {
	var l slog.Level
	_ = l.UnmarshalText([]byte(level))
	opts := &slog.HandlerOptions{Level: l}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if format == "json" {
		h = slog.NewJSONHandler(w, opts)
	}
	return slog.New(TraceHandler(h))
}

// TraceHandler wraps h so that records logged with a context inside a valid span carry the span's trace_id and
// span_id (the ids a trace back end shows, in lower-case hex).
func TraceHandler(h slog.Handler) slog.Handler { return traceHandler{h} }

type traceHandler struct{ slog.Handler }

func (t traceHandler) Handle(ctx context.Context, r slog.Record) error {
	if sc := trace.SpanContextFromContext(ctx); sc.IsValid() {
		r = r.Clone()
		r.AddAttrs(slog.String("trace_id", sc.TraceID().String()), slog.String("span_id", sc.SpanID().String()))
	}
	return t.Handler.Handle(ctx, r)
}

func (t traceHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return traceHandler{t.Handler.WithAttrs(as)}
}

func (t traceHandler) WithGroup(name string) slog.Handler {
	return traceHandler{t.Handler.WithGroup(name)}
}
