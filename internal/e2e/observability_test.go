package e2e

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
)

// W3C trace contexts of three callers (trace id, then the caller's own span id), written by hand.
const (
	httpTraceID  = "4bf92f3577b34da6a3ce929e0e4736f1"
	natsTraceID  = "5c0a8e2f7d1b4c3a9e6f0b1d2c3e4f5a"
	queryTraceID = "6d1b9f3e8c2a4d5b0f7e1c2d3e4f5a6b"
)

func traceparent(traceID string) string { return "00-" + traceID + "-00f067aa0ba902b7-01" }

// postJSON sends body as JSON with extra headers and returns the status.
func postJSON(t *testing.T, url string, headers map[string]string, body any) int {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

// claimsIn counts the claims of workspace ws in the projection.
func claimsIn(t *testing.T, dbURL, ws string) int {
	t.Helper()
	return countRows(t, dbURL, `SELECT count(*) FROM claims WHERE workspace_id = $1`, ws)
}

// countRows runs a count query against the projection on a connection of its own.
func countRows(t *testing.T, dbURL, query string, args ...any) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, query, args...).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// spanNames returns the names of the ended spans of one trace, and whether one of them is a SQL statement
// (the pgx tracer's instrumentation scope).
func spanNames(exp *tracetest.InMemoryExporter, traceID string) (names []string, sql bool) {
	for _, s := range exp.GetSpans() {
		if s.SpanContext.TraceID().String() != traceID {
			continue
		}
		names = append(names, s.Name)
		if s.InstrumentationScope.Name == "github.com/exaring/otelpgx" {
			sql = true
		}
	}
	return names, sql
}

// waitForTrace polls until the trace holds a span of every wanted name and a SQL statement.
func waitForTrace(t *testing.T, exp *tracetest.InMemoryExporter, traceID string, want ...string) {
	t.Helper()
	var names []string
	var sql bool
	timeout := time.After(60 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		names, sql = spanNames(exp, traceID)
		missing := slices.DeleteFunc(slices.Clone(want), func(w string) bool { return slices.Contains(names, w) })
		if len(missing) == 0 && sql {
			return
		}
		select {
		case <-timeout:
			t.Fatalf("trace %s: missing spans %q (SQL statement seen: %v); its spans: %q", traceID, missing, sql, names)
		case <-tick.C:
		}
	}
}

// TestOneTraceFollowsATurnAndAQuery: a turn written over HTTP with a traceparent, and one published to the NATS
// inbox with a traceparent header, each leave spans of every stage — the HTTP request or ingest's handling,
// extraction, embedding, the reconciler's apply and its SQL — under the caller's trace id; a search request
// leaves its HTTP span and its SQL under its own.
func TestOneTraceFollowsATurnAndAQuery(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	sys := apptest.Start(t, nil, app.WithTracerProvider(tp))

	turn := func(id string) api.TurnsRequest {
		return api.TurnsRequest{Turns: []api.TurnInput{{TurnID: id, SessionID: "s1", Role: "user", Speaker: "Alice",
			Content: "I moved to Berlin last week."}}}
	}
	if code := postJSON(t, sys.BaseURL+"/v1/workspaces/obs-http/turns",
		map[string]string{api.HeaderAgent: "planner", "traceparent": traceparent(httpTraceID)}, turn("turn-http")); code != http.StatusAccepted {
		t.Fatalf("POST turns: %d", code)
	}
	// One turn at a time, so the two claims never share a reconciler batch (whose span and SQL belong to the
	// trace of its first message only; the others are linked).
	eventually(t, 90*time.Second, "a claim of obs-http in the projection", func() bool { return claimsIn(t, sys.DBURL, "obs-http") > 0 })
	nc, err := nats.Connect(sys.NATSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	msg := nats.NewMsg(bus.InboxAgentSubject("obs-nats", "planner", bus.InboxKindTurns))
	msg.Header.Set("traceparent", traceparent(natsTraceID))
	if msg.Data, err = json.Marshal(turn("turn-nats")); err != nil {
		t.Fatal(err)
	}
	if err := nc.PublishMsg(msg); err != nil {
		t.Fatal(err)
	}
	eventually(t, 90*time.Second, "a claim of obs-nats in the projection", func() bool { return claimsIn(t, sys.DBURL, "obs-nats") > 0 })
	pipeline := []string{"extractor process", "extractor window", "embedder process", "reconciler process", "reconciler batch"}
	waitForTrace(t, exp, httpTraceID, append([]string{"POST /v1/workspaces/{ws}/turns"}, pipeline...)...)
	waitForTrace(t, exp, natsTraceID, append([]string{"ingest process"}, pipeline...)...)

	if code := postJSON(t, sys.BaseURL+"/v1/workspaces/obs-http/search",
		map[string]string{api.HeaderAgent: "planner", "traceparent": traceparent(queryTraceID)}, api.SearchRequest{Query: "Where does Alice live?"}); code != http.StatusOK {
		t.Fatalf("POST search: %d", code)
	}
	waitForTrace(t, exp, queryTraceID, "POST /v1/workspaces/{ws}/search")
}

// scrape returns the Prometheus text exposition of /metrics.
func scrape(t *testing.T, baseURL string) string {
	t.Helper()
	resp, err := http.Get(baseURL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// sample reports whether the exposition has a sample of family whose labels include every pair of labels.
func sample(exposition, family string, labels map[string]string) bool {
	for _, line := range strings.Split(exposition, "\n") {
		if !strings.HasPrefix(line, family+"{") {
			continue
		}
		ok := true
		for k, v := range labels {
			if !strings.Contains(line, k+`="`+v+`"`) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestMetricsAfterATurn: after a turn, a malformed inbox message and a search, /metrics has consumer lag per
// stream and consumer (and per reconciler partition), stage latencies of all four stages, the dead letter by
// stage and cause, the reconciler's decisions by operator and outcome, and HTTP latency by route and status.
func TestMetricsAfterATurn(t *testing.T) {
	sys := apptest.Start(t, nil)
	if code := postJSON(t, sys.BaseURL+"/v1/workspaces/metrics/turns", map[string]string{api.HeaderAgent: "planner"},
		api.TurnsRequest{Turns: []api.TurnInput{{TurnID: "t1", SessionID: "s1", Role: "user", Speaker: "Alice", Content: "I moved to Berlin last week."}}}); code != http.StatusAccepted {
		t.Fatalf("POST turns: %d", code)
	}
	nc, err := nats.Connect(sys.NATSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	if err := nc.Publish(bus.InboxAgentSubject("metrics", "planner", bus.InboxKindTurns), []byte(`{"turns": "not a list"}`)); err != nil {
		t.Fatal(err)
	}
	eventually(t, 90*time.Second, "the turn's claim in the projection", func() bool { return claimsIn(t, sys.DBURL, "metrics") > 0 })
	if code := postJSON(t, sys.BaseURL+"/v1/workspaces/metrics/search", map[string]string{api.HeaderAgent: "planner"}, api.SearchRequest{Query: "Where does Alice live?"}); code != http.StatusOK {
		t.Fatalf("POST search: %d", code)
	}
	want := []struct {
		family string
		labels map[string]string
	}{
		{"mneme_consumer_pending", map[string]string{"stream": bus.StreamInbox, "consumer": bus.ConsumerIngest}},
		{"mneme_consumer_pending", map[string]string{"stream": bus.StreamTurns, "consumer": bus.ConsumerExtractor}},
		{"mneme_consumer_pending", map[string]string{"stream": bus.StreamProposed, "consumer": bus.ConsumerEmbedder}},
		{"mneme_consumer_pending", map[string]string{"stream": bus.StreamClaims, "consumer": "reconciler", "partition": "0"}},
		{"mneme_consumer_ack_pending", map[string]string{"stream": bus.StreamTurns, "consumer": bus.ConsumerExtractor}},
		{"mneme_stage_duration_seconds_bucket", map[string]string{"stage": "ingest", "outcome": "ok"}},
		{"mneme_stage_duration_seconds_bucket", map[string]string{"stage": "extractor", "outcome": "ok"}},
		{"mneme_stage_duration_seconds_bucket", map[string]string{"stage": "embedder", "outcome": "ok"}},
		{"mneme_stage_duration_seconds_bucket", map[string]string{"stage": "reconciler", "outcome": "ok"}},
		{"mneme_dead_letters_total", map[string]string{"stage": "ingest", "cause": "invalid"}},
		{"mneme_reconciler_decisions_total", map[string]string{}},
		{"http_server_request_duration_seconds_bucket", map[string]string{"http_route": "/v1/workspaces/{ws}/turns", "http_response_status_code": "202"}},
		{"http_server_request_duration_seconds_bucket", map[string]string{"http_route": "/v1/workspaces/{ws}/search", "http_response_status_code": "200"}},
	}
	var exposition string
	timeout := time.After(30 * time.Second)
	for {
		exposition = scrape(t, sys.BaseURL)
		var missing []string
		for _, w := range want {
			if !sample(exposition, w.family, w.labels) {
				missing = append(missing, fmt.Sprintf("%s%v", w.family, w.labels))
			}
		}
		if len(missing) == 0 {
			break
		}
		select {
		case <-timeout:
			t.Fatalf("/metrics lacks %q; it has:\n%s", missing, grepLines(exposition, "mneme_")+"\n"+grepLines(exposition, "http_server"))
		case <-time.After(200 * time.Millisecond):
		}
	}
	decision := regexp.MustCompile(`(?m)^mneme_reconciler_decisions_total\{[^}]*operator="[^"]+"[^}]*outcome="[^"]+"`)
	if !decision.MatchString(exposition) {
		t.Errorf("decisions carry no operator and outcome:\n%s", grepLines(exposition, "mneme_reconciler_decisions_total"))
	}
}

func grepLines(s, prefix string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// TestTracesExportedOverOTLPAndFlushedAtShutdown: with MNEME_TRACING=true the process sends its spans to the
// OTLP/HTTP endpoint named by the standard OTEL_EXPORTER_OTLP_ENDPOINT; spans still buffered when the process
// stops (the batch delay here is a minute) reach the collector during shutdown.
func TestTracesExportedOverOTLPAndFlushedAtShutdown(t *testing.T) {
	type received struct{ service, traceID, name string }
	var mu sync.Mutex
	var spans []received
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/traces" || r.Header.Get("Content-Type") != "application/x-protobuf" {
			http.Error(w, "not an OTLP/HTTP trace export", http.StatusNotFound)
			return
		}
		body, err := io.ReadAll(r.Body)
		var req coltracepb.ExportTraceServiceRequest
		if err == nil {
			err = proto.Unmarshal(body, &req)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		for _, rs := range req.ResourceSpans {
			service := ""
			for _, kv := range rs.GetResource().GetAttributes() {
				if kv.Key == "service.name" {
					service = kv.GetValue().GetStringValue()
				}
			}
			for _, ss := range rs.ScopeSpans {
				for _, s := range ss.Spans {
					spans = append(spans, received{service, hex.EncodeToString(s.TraceId), s.Name})
				}
			}
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
		_, _ = w.Write(out)
	}))
	defer collector.Close()

	t.Run("running system", func(t *testing.T) {
		sys := apptest.Start(t, map[string]string{
			"MNEME_TRACING":               "true",
			"OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL,
			"OTEL_BSP_SCHEDULE_DELAY":     "60000",
		})
		if code := postJSON(t, sys.BaseURL+"/v1/workspaces/otlp/turns",
			map[string]string{api.HeaderAgent: "planner", "traceparent": traceparent(httpTraceID)},
			api.TurnsRequest{Turns: []api.TurnInput{{TurnID: "t1", SessionID: "s1", Role: "user", Speaker: "Alice", Content: "I moved to Berlin last week."}}}); code != http.StatusAccepted {
			t.Fatalf("POST turns: %d", code)
		}
	}) // the system has stopped here
	mu.Lock()
	defer mu.Unlock()
	want := received{"mneme", httpTraceID, "POST /v1/workspaces/{ws}/turns"}
	if !slices.Contains(spans, want) {
		t.Fatalf("the collector did not receive %+v by the end of shutdown; it received %d spans: %+v", want, len(spans), spans)
	}
}

// TestRuntimeProfilesOnTheirOwnLoopbackListener: with MNEME_PPROF_ADDR set, a CPU profile of the running
// process is served there (a gzipped protobuf, as `go tool pprof` reads), and the API's listener serves no
// profile at all.
func TestRuntimeProfilesOnTheirOwnLoopbackListener(t *testing.T) {
	sys := apptest.Start(t, map[string]string{"MNEME_PPROF_ADDR": "127.0.0.1:0"})
	addr := sys.App.ProfileAddr()
	if addr == "" || addr == sys.App.HTTPAddr() {
		t.Fatalf("profile address %q (API on %s)", addr, sys.App.HTTPAddr())
	}
	resp, err := http.Get("http://" + addr + "/debug/pprof/profile?seconds=1")
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		t.Fatalf("CPU profile: status %d, %d bytes starting %q", resp.StatusCode, len(body), body[:min(len(body), 16)])
	}
	resp, err = http.Get(sys.BaseURL + "/debug/pprof/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("the API's listener answered /debug/pprof/ with %d, want 404", resp.StatusCode)
	}
}
