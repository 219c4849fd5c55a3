// Command hostilebench measures how much memory the ingest service takes for hostile request bodies — bodies
// at the 8 MiB size limit shaped to multiply a JSON decoder's memory (empty objects, deep nesting, a huge array,
// a long string, many small items) — against a valid body of the same size, over HTTP and over the NATS inbox,
// one at a time and several at once (-concurrency).
//
// The ingest service runs in this process, as in production: real HTTP server on loopback, real JetStream
// consumer, real Postgres (a scratch database, created beside -db and dropped at the end). The NATS server runs
// in a child process (this binary with -serve-nats), so its buffers are not counted. For each row the process
// is brought to a quiet baseline (GC, memory returned to the OS), its peak RSS counter is reset
// (/proc/self/clear_refs), the bodies are sent (HTTP) or released to the consumer (NATS: published while the
// consumer is stopped, then the consumer runs until the inbox is empty), and the row reports the growth of the
// Go heap (sampled every millisecond from runtime/metrics) and of RSS (the kernel's exact peak, VmHWM) over the
// baseline. Goal: growth ≤ 64 MiB per request.
//
// -compare-unbounded adds one row measuring what the decode path did before the pre-scan (the JSON Schema
// validator's document tree built from an 8 MiB body of empty objects), for scale.
//
// It prints a Markdown table with the machine's load average and writes JSON (-out).
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/schemas"
	"github.com/mneme-ai/mneme/services/ingest"
	"github.com/mneme-ai/mneme/services/ingest/hostile"
)

const workspace = "hostilebench"

type config struct {
	db, dbName, out string
	size            int
	concurrency     []int
	transports      []string
	compare         bool
}

// row is one measurement.
type row struct {
	Transport   string  `json:"transport"`
	Body        string  `json:"body"`
	BodyBytes   int     `json:"body_bytes"`
	Concurrent  int     `json:"concurrent"`
	Outcome     string  `json:"outcome"`
	HeapGrowth  float64 `json:"heap_growth_mib"`
	RSSGrowth   float64 `json:"rss_growth_mib"`
	PerRequest  float64 `json:"rss_growth_per_request_mib"`
	BaselineRSS float64 `json:"baseline_rss_mib"`
	Millis      float64 `json:"elapsed_ms"`
	LoadAvg     string  `json:"loadavg"`
}

type results struct {
	Started        time.Time `json:"started"`
	GoVersion      string    `json:"go_version"`
	CPUs           int       `json:"cpus"`
	MaxBody        int64     `json:"max_body_bytes"`
	MaxDecodes     int       `json:"max_concurrent_decodes"`
	InboxWorkers   int       `json:"inbox_concurrency"`
	LoadAvgBefore  string    `json:"loadavg_before"`
	LoadAvgAfter   string    `json:"loadavg_after"`
	GoalPerRequest float64   `json:"goal_mib_per_request"`
	Rows           []row     `json:"rows"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-serve-nats" {
		if err := serveNATS(); err != nil {
			fmt.Fprintln(os.Stderr, "hostilebench nats:", err)
			os.Exit(1)
		}
		return
	}
	var c config
	var conc, transports string
	flag.StringVar(&c.db, "db", envOr("MNEME_DATABASE_URL", "postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable"), "Postgres URL of a role that may CREATE DATABASE")
	flag.StringVar(&c.dbName, "db-name", "hostilebench", "scratch database created beside -db and dropped at the end")
	flag.IntVar(&c.size, "size", 8<<20, "body size in bytes (the ingest limit is 8 MiB)")
	flag.StringVar(&conc, "concurrency", "1,8", "requests at once, comma-separated")
	flag.StringVar(&transports, "transports", "http,nats", "http, nats or both")
	flag.BoolVar(&c.compare, "compare-unbounded", true, "also measure the decode path without the pre-scan on 8 MiB of empty objects (up to ~2 GB)")
	flag.StringVar(&c.out, "out", "bench-results/hostilebench.json", "JSON results file")
	flag.Parse()
	for _, s := range strings.Split(conc, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "hostilebench: -concurrency %q: want positive integers\n", conc)
			os.Exit(2)
		}
		c.concurrency = append(c.concurrency, n)
	}
	c.transports = strings.Split(transports, ",")
	if err := run(context.Background(), c); err != nil {
		fmt.Fprintln(os.Stderr, "hostilebench:", err)
		os.Exit(1)
	}
}

func envOr(k, def string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return def
}

// serveNATS runs a JetStream server (logging to stderr) until stdin closes, printing its URL.
func serveNATS() error {
	dir, err := os.MkdirTemp("", "hostilebench-nats-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: dir, NoSigs: true, MaxPayload: 8 << 20})
	if err != nil {
		return err
	}
	srv.ConfigureLogger()
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		return errors.New("not ready")
	}
	defer srv.Shutdown()
	fmt.Println(srv.ClientURL())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return nil
}

// bench is the system under measurement.
type bench struct {
	cfg    ingest.Config
	svc    *ingest.Service
	js     jetstream.JetStream
	http   *httptest.Server
	client *http.Client
}

func run(ctx context.Context, c config) (err error) {
	res := results{Started: time.Now().UTC(), GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), LoadAvgBefore: loadavg(), GoalPerRequest: 64}

	// NATS in a child process.
	child := exec.Command(os.Args[0], "-serve-nats")
	child.Stderr = warningsOnly{os.Stderr}
	stdin, err := child.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := child.StdoutPipe()
	if err != nil {
		return err
	}
	if err := child.Start(); err != nil {
		return err
	}
	defer func() { _ = stdin.Close(); _ = child.Wait() }()
	natsURL, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		return fmt.Errorf("NATS child: %w", err)
	}
	nc, err := bus.Connect(strings.TrimSpace(natsURL), "hostilebench")
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	if err := bus.DefaultTopology().Ensure(ctx, js); err != nil {
		return err
	}

	// A scratch database.
	dbURL, drop, err := scratchDB(ctx, c.db, c.dbName)
	if err != nil {
		return err
	}
	defer drop()
	pool, err := pgxpool.New(ctx, dbURL)
	if err != nil {
		return err
	}
	defer pool.Close()
	if _, err := store.Migrate(ctx, pool); err != nil {
		return err
	}

	cfg := ingest.DefaultConfig()
	cfg.DevMode = true // workspaces are created by their first write; nothing here is about keys
	res.MaxBody, res.MaxDecodes, res.InboxWorkers = cfg.MaxBodyBytes, cfg.MaxConcurrentDecodes, cfg.InboxConcurrency
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := ingest.New(service.Deps{Logger: log, NATS: nc, JS: js, DB: pool, Partitions: 16, Instance: "hostilebench"}, cfg)
	if err != nil {
		return err
	}
	mux := http.NewServeMux()
	svc.Routes(mux)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	b := &bench{cfg: cfg, svc: svc, js: js, http: srv, client: &http.Client{Timeout: 5 * time.Minute}}

	bodies := hostile.Bodies(c.size)
	fmt.Printf("hostilebench: %d-byte bodies, concurrency %v, transports %v, load average %s\n", c.size, c.concurrency, c.transports, res.LoadAvgBefore)
	for _, transport := range c.transports {
		for _, n := range c.concurrency {
			for _, body := range bodies {
				var r row
				var err error
				switch transport {
				case "http":
					r, err = b.measure(func() (string, error) { return b.sendHTTP(ctx, body, n) })
				case "nats":
					r, err = b.measureNATS(ctx, body, n)
				default:
					return fmt.Errorf("unknown transport %q", transport)
				}
				if err != nil {
					return fmt.Errorf("%s %s ×%d: %w", transport, body.Name, n, err)
				}
				r.Transport, r.Body, r.BodyBytes, r.Concurrent = transport, body.Name, len(body.Data), n
				r.PerRequest = r.RSSGrowth / float64(n)
				res.Rows = append(res.Rows, r)
				fmt.Fprintf(os.Stderr, "  %-4s %-16s ×%d  heap +%6.1f MiB  RSS +%6.1f MiB  %s\n", transport, body.Name, n, r.HeapGrowth, r.RSSGrowth, r.Outcome)
			}
		}
	}
	if c.compare {
		body := hostile.EmptyObjects(c.size)
		schema, err := ingestSchema()
		if err != nil {
			return err
		}
		r, err := b.measure(func() (string, error) {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(body.Data))
			if err != nil {
				return "", err
			}
			verr := schema.Validate(doc)
			runtime.KeepAlive(doc)
			return fmt.Sprintf("tree built, then refused: %v", firstLine(verr)), nil
		})
		if err != nil {
			return err
		}
		r.Transport, r.Body, r.BodyBytes, r.Concurrent, r.PerRequest = "decode without pre-scan", body.Name, len(body.Data), 1, r.RSSGrowth
		res.Rows = append(res.Rows, r)
	}
	res.LoadAvgAfter = loadavg()
	printTable(os.Stdout, res)
	if err := os.MkdirAll(filepath.Dir(c.out), 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	fmt.Printf("\nwrote %s\n", c.out)
	return os.WriteFile(c.out, append(data, '\n'), 0o644)
}

// ingestSchema is the turns request schema the service validates with.
func ingestSchema() (*jsonschema.Schema, error) {
	return schemas.Schema("io.mneme.api.v1.turns_request")
}

func firstLine(err error) string {
	if err == nil {
		return "accepted"
	}
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// measure runs f from a quiet baseline and reports the peak growth of the Go heap and of RSS.
func (b *bench) measure(f func() (string, error)) (row, error) {
	runtime.GC()
	debug.FreeOSMemory()
	baseHeap := heapBytes()
	baseRSS, err := procStatus("VmRSS")
	if err != nil {
		return row{}, err
	}
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		return row{}, fmt.Errorf("reset the peak RSS counter: %w", err)
	}
	var peak atomic.Uint64
	peak.Store(baseHeap)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			if h := heapBytes(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	})
	start := time.Now()
	outcome, err := f()
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()
	if h := heapBytes(); h > peak.Load() {
		peak.Store(h)
	}
	if err != nil {
		return row{}, err
	}
	hwm, err := procStatus("VmHWM")
	if err != nil {
		return row{}, err
	}
	return row{
		Outcome: outcome, HeapGrowth: mib(peak.Load() - baseHeap), RSSGrowth: mib(max(hwm, baseRSS) - baseRSS),
		BaselineRSS: mib(baseRSS), Millis: float64(elapsed.Microseconds()) / 1000, LoadAvg: loadavg(),
	}, nil
}

// sendHTTP posts body n times at once and summarizes the answers.
func (b *bench) sendHTTP(ctx context.Context, body hostile.Body, n int) (string, error) {
	type answer struct {
		status int
		err    api.Error
	}
	answers := make([]answer, n)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.http.URL+"/v1/workspaces/"+workspace+"/"+body.Kind, bytes.NewReader(body.Data))
			if err != nil {
				errs[i] = err
				return
			}
			req.Header.Set(api.HeaderAgent, "bot")
			req.Header.Set("Content-Type", "application/json")
			resp, err := b.client.Do(req)
			if err != nil {
				errs[i] = err
				return
			}
			defer resp.Body.Close()
			answers[i].status = resp.StatusCode
			raw, _ := io.ReadAll(resp.Body)
			_ = json.Unmarshal(raw, &answers[i].err)
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	counts := map[string]int{}
	for _, a := range answers {
		s := strconv.Itoa(a.status)
		if a.err.Error.Field != "" || a.err.Error.Limit != "" {
			s += " " + a.err.Error.Field + " (" + a.err.Error.Limit + ")"
		}
		counts[s]++
	}
	return summarize(counts), nil
}

// measureNATS publishes body n times to the inbox with the consumer stopped, then measures the consumer
// working through them until the inbox is empty.
func (b *bench) measureNATS(ctx context.Context, body hostile.Body, n int) (row, error) {
	subject := bus.InboxAgentSubject(workspace, "bot", body.Kind)
	for range n {
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		_, err := b.js.Publish(pctx, subject, body.Data)
		cancel()
		if err != nil {
			return row{}, fmt.Errorf("publish: %w", err)
		}
	}
	before := b.svc.Stats()
	return b.measure(func() (string, error) {
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- b.svc.Run(rctx) }()
		defer func() { cancel(); <-done }()
		deadline := time.Now().Add(5 * time.Minute)
		for {
			st, err := b.js.Stream(ctx, bus.StreamInbox)
			if err != nil {
				return "", err
			}
			info, err := st.Info(ctx)
			if err != nil {
				return "", err
			}
			if info.State.Msgs == 0 {
				break
			}
			if time.Now().After(deadline) {
				return "", fmt.Errorf("%d inbox messages left after 5 minutes", info.State.Msgs)
			}
			time.Sleep(5 * time.Millisecond)
		}
		after := b.svc.Stats()
		dead := after.DeadLettered - before.DeadLettered
		outcome := fmt.Sprintf("%d dead-lettered", dead)
		if dead == 0 {
			outcome = fmt.Sprintf("%d accepted (%d events)", n, after.Accepted+after.Duplicates-before.Accepted-before.Duplicates)
		} else if reason := lastDeadLetterReason(ctx, b.js); reason != "" {
			outcome += ": " + reason
		}
		return outcome, nil
	})
}

func lastDeadLetterReason(ctx context.Context, js jetstream.JetStream) string {
	st, err := js.Stream(ctx, bus.StreamDLQ)
	if err != nil {
		return ""
	}
	m, err := st.GetLastMsgForSubject(ctx, bus.DLQSubject("ingest"))
	if err != nil {
		return ""
	}
	return m.Header.Get(bus.HeaderDLQReason)
}

func summarize(counts map[string]int) string {
	var parts []string
	for k, v := range counts {
		parts = append(parts, fmt.Sprintf("%d× %s", v, k))
	}
	return strings.Join(parts, ", ")
}

func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// procStatus reads a kB field of /proc/self/status in bytes.
func procStatus(field string) (uint64, error) {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/self/status", field)
}

func mib(b uint64) float64 { return float64(b) / (1 << 20) }

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// scratchDB creates database name beside admin and returns its URL and a function dropping it.
func scratchDB(ctx context.Context, admin, name string) (string, func(), error) {
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		return "", nil, fmt.Errorf("postgres at %s: %w", admin, err)
	}
	defer conn.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	if _, err := conn.Exec(ctx, `DROP DATABASE IF EXISTS `+ident+` WITH (FORCE)`); err != nil {
		return "", nil, err
	}
	if _, err := conn.Exec(ctx, `CREATE DATABASE `+ident); err != nil {
		return "", nil, err
	}
	parsed, err := url.Parse(admin)
	if err != nil {
		return "", nil, err
	}
	parsed.Path = "/" + name
	u := parsed.String()
	drop := func() {
		c, err := pgx.Connect(context.Background(), admin)
		if err != nil {
			fmt.Fprintln(os.Stderr, "hostilebench: drop scratch database:", err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), `DROP DATABASE IF EXISTS `+ident+` WITH (FORCE)`); err != nil {
			fmt.Fprintln(os.Stderr, "hostilebench: drop scratch database:", err)
		}
	}
	return u, drop, nil
}

func printTable(w io.Writer, res results) {
	fmt.Fprintf(w, "\n### Ingest memory for hostile bodies (%s, %d CPUs; max %d concurrent decodes, %d inbox workers)\n\n",
		res.GoVersion, res.CPUs, res.MaxDecodes, res.InboxWorkers)
	fmt.Fprintln(w, "Growth over a quiet baseline: Go heap (peak, sampled every ms) and process RSS (kernel peak, VmHWM). Goal: RSS growth ≤ 64 MiB per request.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| transport | body | bytes | at once | outcome | heap growth | RSS growth | RSS growth per request | time | load average |")
	fmt.Fprintln(w, "|---|---|---:|---:|---|---:|---:|---:|---:|---|")
	for _, r := range res.Rows {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %.1f MiB | %.1f MiB | %.1f MiB | %.0f ms | %s |\n", r.Transport, r.Body, r.BodyBytes, r.Concurrent,
			strings.ReplaceAll(r.Outcome, "|", "/"), r.HeapGrowth, r.RSSGrowth, r.PerRequest, r.Millis, r.LoadAvg)
	}
	fmt.Fprintf(w, "\nLoad average before %s, after %s.\n", res.LoadAvgBefore, res.LoadAvgAfter)
}

// warningsOnly passes on the NATS server's warnings, errors and slow-consumer notices, not its start-up
// information.
type warningsOnly struct{ w io.Writer }

func (f warningsOnly) Write(p []byte) (int, error) {
	for _, line := range bytes.SplitAfter(p, []byte("\n")) {
		if bytes.Contains(line, []byte("[WRN]")) || bytes.Contains(line, []byte("[ERR]")) || bytes.Contains(line, []byte("[FTL]")) ||
			bytes.Contains(line, []byte("Slow Consumer")) {
			_, _ = f.w.Write(line)
		}
	}
	return len(p), nil
}
