package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/mneme-ai/mneme/internal/app"
)

// TestJSONLogsCarryTraceIDs: MNEME_LOG_FORMAT=json writes one JSON object per record; a record logged inside a
// span carries that span's trace_id and span_id, one logged outside carries none.
func TestJSONLogsCarryTraceIDs(t *testing.T) {
	var buf bytes.Buffer
	log := app.NewLogger(&buf, "info", "json").With("service", "test")
	tp := sdktrace.NewTracerProvider()
	defer func() { _ = tp.Shutdown(context.Background()) }()
	ctx, span := tp.Tracer("test").Start(context.Background(), "work")
	log.InfoContext(ctx, "inside")
	span.End()
	log.Info("outside")

	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 JSON lines, got %q", buf.String())
	}
	var inside, outside map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &inside); err != nil {
		t.Fatalf("not JSON: %q: %v", lines[0], err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &outside); err != nil {
		t.Fatalf("not JSON: %q: %v", lines[1], err)
	}
	sc := span.SpanContext()
	if inside["msg"] != "inside" || inside["service"] != "test" || inside["trace_id"] != sc.TraceID().String() || inside["span_id"] != sc.SpanID().String() {
		t.Errorf("record inside the span: %v, want trace_id %s span_id %s", inside, sc.TraceID(), sc.SpanID())
	}
	if _, ok := outside["trace_id"]; ok {
		t.Errorf("record outside any span carries a trace id: %v", outside)
	}
}

// TestTextLogsStayText: the default format is text (key=value), with the trace id when there is one.
func TestTextLogsStayText(t *testing.T) {
	var buf bytes.Buffer
	tp := sdktrace.NewTracerProvider()
	defer func() { _ = tp.Shutdown(context.Background()) }()
	ctx, span := tp.Tracer("test").Start(context.Background(), "work")
	defer span.End()
	app.NewLogger(&buf, "info", "text").InfoContext(ctx, "hello")
	out := buf.String()
	if strings.HasPrefix(out, "{") || !strings.Contains(out, "msg=hello") || !strings.Contains(out, "trace_id="+span.SpanContext().TraceID().String()) {
		t.Errorf("text record: %q", out)
	}
}
