// Command loadbench measures whether queries stay fast while Mneme ingests: a bounded mixed load of writers
// posting conversational turns over HTTP (POST /v1/workspaces/{ws}/turns, one turn per request, each writer
// sending its next turn when the previous one is answered) and searchers querying
// POST /v1/workspaces/{ws}/search at the same time, against
//
//   - all: the all-in-one process (`mneme run -target=all`, embedded NATS), and
//   - split: the services as separate processes on the same machine, one per service kind, with a NATS server
//     process of their own.
//
// Each topology runs on a fresh scratch database (created beside -db and dropped at the end) and a fresh
// NATS store. The processes are this binary re-executed as `mneme run` (the same app.Build and App.Run as
// cmd/mneme) or as a NATS server; they listen on loopback only and are stopped by pid. Per topology:
//
//  1. seed: -seed turns are posted and the bench waits until every one has claims in the projection;
//  2. idle: the searchers alone for -idle (the baseline, measured in the same run);
//  3. load: writers and searchers together for -duration;
//  4. lag: the time from the last accepted turn until its claims are in the projection, and until every
//     accepted turn's are (bounded by -lag-timeout).
//
// It prints a Markdown table — accepted turns/s, errors, search p50/p95/p99 idle and under load (with their
// ratio), RSS of Mneme's processes before and after the load (Postgres not counted), ingest lag — with the load
// average, and writes the same as JSON (-out). The sentences are generated here from small lists of names,
// jobs, cities and the like, not taken from any benchmark data.
//
//	go run ./bench/cmd/loadbench -duration 60s
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/bench"
	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/pgtest"
)

// The binary doubles as the processes it measures: with envRole=mneme it is `mneme run` configured by MNEME_*
// as cmd/mneme is, with envRole=nats a NATS JetStream server.
const (
	envRole      = "MNEME_LOADBENCH_ROLE"
	envNATSAddr  = "MNEME_LOADBENCH_NATS_LISTEN"
	envNATSStore = "MNEME_LOADBENCH_NATS_STORE"
)

const (
	workspace      = "loadbench"
	agent          = "loadgen"
	databasePrefix = "mneme_loadbench_"
)

type config struct {
	db         string
	topologies []string
	duration   time.Duration
	idle       time.Duration
	lagTimeout time.Duration
	writers    int
	searchers  int
	seed       int
	k          int
	out        string
	logDir     string
	extraEnv   []string
	label      string
	keep       bool
}

// phase is what the clients saw during one phase.
type phase struct {
	Seconds        float64 `json:"seconds"`
	Accepted       int     `json:"accepted_turns"`
	TurnsPerSec    float64 `json:"accepted_turns_per_sec"`
	WriteErrors    int     `json:"write_errors"`
	WriteP50Ms     float64 `json:"write_p50_ms"`
	WriteP99Ms     float64 `json:"write_p99_ms"`
	Searches       int     `json:"searches"`
	SearchErrors   int     `json:"search_errors"`
	SearchesPerSec float64 `json:"searches_per_sec"`
	SearchP50Ms    float64 `json:"search_p50_ms"`
	SearchP95Ms    float64 `json:"search_p95_ms"`
	SearchP99Ms    float64 `json:"search_p99_ms"`
	SearchMaxMs    float64 `json:"search_max_ms"`
	LoadAvg        string  `json:"loadavg_after"`
	// MnemeCores and PostgresCores are the CPU the phase used, in cores: Mneme's processes, and the Postgres
	// backends connected to the scratch database (the system's own connections and the bench's).
	MnemeCores    float64 `json:"mneme_cores"`
	PostgresCores float64 `json:"postgres_cores"`
	// Statements are the scratch database's statements that took the most Postgres time during the phase
	// (pg_stat_statements, when the server loads it): where a search's database time goes.
	Statements []statementCost `json:"top_statements,omitempty"`
	FirstError string          `json:"first_error,omitempty"`
}

// statementCost is one normalized statement's share of a phase: its calls and its planning plus execution time.
type statementCost struct {
	Query  string  `json:"query"`
	Calls  int64   `json:"calls"`
	TimeMs float64 `json:"time_ms"`
	// PerSearchMs is TimeMs divided by the phase's searches.
	PerSearchMs float64 `json:"ms_per_search"`
}

// topologyResult is one topology's measurements.
type topologyResult struct {
	Topology string   `json:"topology"`
	Procs    []string `json:"processes"`
	Seeded   int      `json:"seed_turns"`
	SeedSecs float64  `json:"seed_seconds"`
	Idle     phase    `json:"idle"`
	Load     phase    `json:"load"`
	// RSS of Mneme's processes (all of them summed), MiB: before the load, the peak sampled every second
	// during it, and right after it.
	RSSBeforeMiB float64            `json:"rss_before_mib"`
	RSSPeakMiB   float64            `json:"rss_peak_mib"`
	RSSAfterMiB  float64            `json:"rss_after_mib"`
	RSSAfterBy   map[string]float64 `json:"rss_after_by_process_mib"`
	// LastTurnLagSecs is the time from the last accepted turn's acceptance until its claims were in the
	// projection; AllTurnsLagSecs until every accepted turn (seed and load) had claims there. -1: not within
	// the lag timeout.
	LastTurnLagSecs float64  `json:"last_turn_lag_s"`
	AllTurnsLagSecs float64  `json:"all_turns_lag_s"`
	TurnsInStore    int      `json:"turns_with_claims"`
	TurnsAccepted   int      `json:"turns_accepted"`
	Env             []string `json:"extra_env,omitempty"`
	// Gate is the query-priority gate's counters (mneme_priority_* of /metrics) after the load, when the
	// query process has one.
	Gate map[string]float64 `json:"priority_gate,omitempty"`
}

type results struct {
	Started       time.Time        `json:"started"`
	GoVersion     string           `json:"go_version"`
	CPUs          int              `json:"cpus"`
	Commit        string           `json:"commit,omitempty"`
	Label         string           `json:"label,omitempty"`
	Writers       int              `json:"writers"`
	Searchers     int              `json:"searchers"`
	Duration      string           `json:"duration"`
	Idle          string           `json:"idle"`
	LoadAvgBefore string           `json:"loadavg_before"`
	LoadAvgAfter  string           `json:"loadavg_after"`
	Topologies    []topologyResult `json:"topologies"`
}

func main() {
	switch os.Getenv(envRole) {
	case "mneme":
		os.Exit(mnemeMain())
	case "nats":
		os.Exit(natsMain())
	}
	var c config
	var topologies, env string
	flag.StringVar(&c.db, "db", pgtest.AdminURL(), "Postgres URL of a role that may CREATE DATABASE (scratch databases are made beside it)")
	flag.StringVar(&topologies, "topologies", "all,split", "all (one process), split (one process per service), or both")
	flag.DurationVar(&c.duration, "duration", 60*time.Second, "length of the mixed load")
	flag.DurationVar(&c.idle, "idle", 15*time.Second, "length of the idle search baseline before the load")
	flag.DurationVar(&c.lagTimeout, "lag-timeout", 10*time.Minute, "how long to wait for the projection to catch up after the load")
	flag.IntVar(&c.writers, "writers", 8, "concurrent writers")
	flag.IntVar(&c.searchers, "searchers", 8, "concurrent searchers")
	flag.IntVar(&c.seed, "seed", 400, "turns written (and waited for) before the idle baseline")
	flag.IntVar(&c.k, "k", 10, "search k")
	flag.StringVar(&c.out, "out", "bench-results/loadbench.json", "JSON results file")
	flag.StringVar(&c.logDir, "logs", "", "directory for the processes' logs (default: a temporary directory, removed)")
	flag.StringVar(&c.label, "label", "", "names the run in the table (e.g. the build measured)")
	flag.BoolVar(&c.keep, "keep", false, "keep each topology's scratch database after the run (its name is printed), to study its statements")
	flag.StringVar(&env, "env", "", "extra MNEME_* settings for every Mneme process, comma-separated KEY=VALUE")
	flag.Parse()
	for _, t := range strings.Split(topologies, ",") {
		t = strings.TrimSpace(t)
		if t != "all" && t != "split" {
			fmt.Fprintf(os.Stderr, "loadbench: -topologies %q: use all, split or all,split\n", topologies)
			os.Exit(2)
		}
		c.topologies = append(c.topologies, t)
	}
	if env != "" {
		for _, kv := range strings.Split(env, ",") {
			if !strings.HasPrefix(kv, "MNEME_") || !strings.Contains(kv, "=") {
				fmt.Fprintf(os.Stderr, "loadbench: -env %q: want MNEME_KEY=VALUE pairs\n", kv)
				os.Exit(2)
			}
			c.extraEnv = append(c.extraEnv, kv)
		}
	}
	if c.writers < 1 || c.searchers < 1 || c.duration <= 0 || c.idle <= 0 || c.seed < 1 {
		fmt.Fprintln(os.Stderr, "loadbench: -writers, -searchers, -seed, -duration and -idle must be positive")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, c); err != nil {
		fmt.Fprintln(os.Stderr, "loadbench:", err)
		os.Exit(1)
	}
}

// mnemeMain is cmd/mneme's `run`: configuration from the environment, app.Build, App.Run until SIGTERM.
func mnemeMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := app.RunFromEnvironment(ctx, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// natsMain is the NATS server of the split topology, with Mneme's own embedded-server settings.
func natsMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	s, err := embedded.Start(embedded.Options{Listen: os.Getenv(envNATSAddr), StoreDir: os.Getenv(envNATSStore)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	<-ctx.Done()
	s.Shutdown()
	return 0
}

func run(ctx context.Context, c config) error {
	if _, err := os.Stat(embedding.DefaultModelDir()); err != nil {
		return fmt.Errorf("embedding model weights missing at %s: run make deps (or set MNEME_MODEL_DIR)", embedding.DefaultModelDir())
	}
	res := results{
		Started: time.Now().UTC(), GoVersion: runtime.Version(), CPUs: runtime.NumCPU(), Commit: gitCommit(), Label: c.label,
		Writers: c.writers, Searchers: c.searchers, Duration: c.duration.String(), Idle: c.idle.String(), LoadAvgBefore: bench.LoadAverage(),
	}
	fmt.Printf("loadbench: %d writers, %d searchers, %s load after %s idle, topologies %v, load average %s\n",
		c.writers, c.searchers, c.duration, c.idle, c.topologies, res.LoadAvgBefore)
	for _, t := range c.topologies {
		r, err := runTopology(ctx, c, t)
		if err != nil {
			return fmt.Errorf("%s: %w", t, err)
		}
		res.Topologies = append(res.Topologies, r)
	}
	res.LoadAvgAfter = bench.LoadAverage()
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

// proc is a child process of the bench.
type proc struct {
	name string
	url  string // HTTP root of a Mneme process
	cmd  *exec.Cmd
	done chan struct{}
}

func startProc(name, logDir string, env []string) (*proc, error) {
	f, err := os.Create(filepath.Join(logDir, name+".log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdout, cmd.Stderr = f, f
	// A child must not outlive a bench that dies before its cleanup runs.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	p := &proc{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(p.done)
	}()
	return p, nil
}

// stop sends SIGTERM to the process (by its pid) and SIGKILL after a grace period.
func (p *proc) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(30 * time.Second):
		_ = p.cmd.Process.Signal(syscall.SIGKILL)
		<-p.done
	}
}

func (p *proc) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// rssMiB is the process's resident set size.
func (p *proc) rssMiB() float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}

// system is one running topology.
type system struct {
	procs     []*proc
	ingestURL string
	queryURL  string
	db        *pgxpool.Pool
}

func (s *system) rss() (total float64, by map[string]float64) {
	by = map[string]float64{}
	for _, p := range s.procs {
		v := p.rssMiB()
		by[p.name] = round1(v)
		total += v
	}
	return total, by
}

// cpuTicks is the user and system CPU time of process pid, in clock ticks (0 when it is gone).
func cpuTicks(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The command name (field 2) may hold spaces; the fields after its closing parenthesis are fixed.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return utime + stime
}

// clockTicks is the kernel's USER_HZ, 100 on Linux for every architecture Go supports.
const clockTicks = 100

// measureCPU runs f and adds to its phase the CPU that Mneme's processes and the scratch database's Postgres
// backends used meanwhile. Backends that come and go during the phase are not counted.
func (s *system) measureCPU(ctx context.Context, dbName string, f func() phase) phase {
	pgPids := func() []int {
		rows, err := s.db.Query(ctx, `SELECT pid FROM pg_stat_activity WHERE datname = $1`, dbName)
		if err != nil {
			return nil
		}
		defer rows.Close()
		var out []int
		for rows.Next() {
			var pid int
			if rows.Scan(&pid) == nil {
				out = append(out, pid)
			}
		}
		return out
	}
	sum := func(pids []int) map[int]int64 {
		m := map[int]int64{}
		for _, p := range pids {
			m[p] = cpuTicks(p)
		}
		return m
	}
	var mnemePids []int
	for _, p := range s.procs {
		mnemePids = append(mnemePids, p.cmd.Process.Pid)
	}
	stmtsBefore := s.statementTimes(ctx, dbName)
	pgBefore, mnBefore := sum(pgPids()), sum(mnemePids)
	began := time.Now()
	ph := f()
	secs := time.Since(began).Seconds()
	pgAfter, mnAfter := sum(pgPids()), sum(mnemePids)
	ph.Statements = topStatements(stmtsBefore, s.statementTimes(ctx, dbName), ph.Searches, 8)
	delta := func(before, after map[int]int64) float64 {
		var d int64
		for pid, a := range after {
			if b, ok := before[pid]; ok && a >= b {
				d += a - b
			}
		}
		return round2(float64(d) / clockTicks / secs)
	}
	ph.MnemeCores, ph.PostgresCores = delta(mnBefore, mnAfter), delta(pgBefore, pgAfter)
	return ph
}

// statementTimes reads pg_stat_statements for the scratch database: per statement, its calls and planning plus
// execution time so far. It returns nil when the server does not load the module or the extension cannot be
// created (then the phase reports no statements).
func (s *system) statementTimes(ctx context.Context, dbName string) map[int64]statementCost {
	if _, err := s.db.Exec(ctx, `CREATE EXTENSION IF NOT EXISTS pg_stat_statements`); err != nil {
		return nil
	}
	rows, err := s.db.Query(ctx, `SELECT s.queryid, s.query, s.calls, s.total_exec_time + s.total_plan_time
		FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = $1`, dbName)
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := map[int64]statementCost{}
	for rows.Next() {
		var id int64
		var c statementCost
		if rows.Scan(&id, &c.Query, &c.Calls, &c.TimeMs) == nil {
			out[id] = c
		}
	}
	if rows.Err() != nil {
		return nil
	}
	return out
}

// printStatements prints a phase's top statements: Postgres milliseconds per search, calls, the statement.
func printStatements(w io.Writer, sts []statementCost) {
	for _, st := range sts {
		fmt.Fprintf(w, "    %7.2f ms/search %7d calls  %s\n", st.PerSearchMs, st.Calls, firstLine(st.Query))
	}
}

// topStatements is the n statements whose time grew most from before to after, with their growth.
func topStatements(before, after map[int64]statementCost, searches, n int) []statementCost {
	if before == nil || after == nil {
		return nil
	}
	var out []statementCost
	for id, a := range after {
		b := before[id]
		d := statementCost{Query: strings.Join(strings.Fields(a.Query), " "), Calls: a.Calls - b.Calls, TimeMs: a.TimeMs - b.TimeMs}
		if d.Calls <= 0 || d.TimeMs <= 0 {
			continue
		}
		d.TimeMs = round2(d.TimeMs)
		if searches > 0 {
			d.PerSearchMs = round2(d.TimeMs / float64(searches))
		}
		out = append(out, d)
	}
	slices.SortFunc(out, func(x, y statementCost) int { return cmp.Compare(y.TimeMs, x.TimeMs) })
	return out[:min(n, len(out))]
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

func runTopology(ctx context.Context, c config, topology string) (_ topologyResult, err error) {
	res := topologyResult{Topology: topology, Env: c.extraEnv}
	logDir := c.logDir
	if logDir == "" {
		dir, err := os.MkdirTemp("", "loadbench-logs-")
		if err != nil {
			return res, err
		}
		defer os.RemoveAll(dir)
		logDir = dir
	} else if err := os.MkdirAll(logDir, 0o755); err != nil {
		return res, err
	}
	store, err := os.MkdirTemp("", "loadbench-nats-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(store)
	if _, err := pgtest.DropStale(ctx, c.db, databasePrefix, 24*time.Hour); err != nil {
		return res, fmt.Errorf("postgres at %s: %w", pgtest.Redact(c.db), err)
	}
	dbName := pgtest.ScratchName(databasePrefix, topology, time.Now())
	dbURL, err := pgtest.CreateDatabase(ctx, c.db, dbName)
	if err != nil {
		return res, err
	}
	defer func() {
		if c.keep {
			fmt.Fprintf(os.Stderr, "  %s: kept the scratch database %s\n", topology, dbName)
			return
		}
		dctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if derr := pgtest.DropDatabase(dctx, c.db, dbName); derr != nil {
			err = errors.Join(err, derr)
		}
	}()

	sys := &system{}
	defer func() {
		// Stop in reverse order of start, so the NATS server outlives the services that drain into it.
		for i := len(sys.procs) - 1; i >= 0; i-- {
			sys.procs[i].stop()
		}
	}()
	ports, err := embedded.FreePorts(3)
	if err != nil {
		return res, err
	}
	common := []string{
		envRole + "=mneme",
		"MNEME_DATABASE_URL=" + dbURL,
		"MNEME_DEV_MODE=true",
		"MNEME_NATS_CREDS=",
		"MNEME_HTTP_RATE_LIMIT=0",
		"MNEME_LOG_LEVEL=warn",
		"MNEME_CONNECT_TIMEOUT=60s",
		"MNEME_MODEL_DIR=" + embedding.DefaultModelDir(),
		"MNEME_TRACING=false",
	}
	common = append(common, c.extraEnv...)
	switch topology {
	case "all":
		addr := "127.0.0.1:" + strconv.Itoa(ports[0])
		p, err := startProc("all", logDir, append(slices.Clone(common),
			"MNEME_TARGET=all", "MNEME_NATS_URL=", "MNEME_NATS_LISTEN=127.0.0.1:"+strconv.Itoa(ports[1]),
			"MNEME_NATS_STORE_DIR="+filepath.Join(store, "nats"), "MNEME_HTTP_ADDR="+addr))
		if err != nil {
			return res, err
		}
		p.url = "http://" + addr
		sys.procs = append(sys.procs, p)
		sys.ingestURL, sys.queryURL = p.url, p.url
	case "split":
		natsAddr := "127.0.0.1:" + strconv.Itoa(ports[0])
		np, err := startProc("nats", logDir, []string{envRole + "=nats", envNATSAddr + "=" + natsAddr, envNATSStore + "=" + filepath.Join(store, "nats")})
		if err != nil {
			return res, err
		}
		sys.procs = append(sys.procs, np)
		// The services connect once at start-up: the server must accept connections first.
		if err := waitTCP(ctx, np, natsAddr, time.Minute); err != nil {
			return res, err
		}
		more, err := embedded.FreePorts(len(app.Targets))
		if err != nil {
			return res, err
		}
		for i, target := range app.Targets {
			addr := "127.0.0.1:" + strconv.Itoa(more[i])
			p, err := startProc(target, logDir, append(slices.Clone(common),
				"MNEME_TARGET="+target, "MNEME_NATS_URL=nats://"+natsAddr, "MNEME_HTTP_ADDR="+addr,
				// Only the reconciler (which creates the streams) migrates: the others would wait on its lock.
				"MNEME_MIGRATE_ON_START="+strconv.FormatBool(target == "reconciler")))
			if err != nil {
				return res, err
			}
			p.url = "http://" + addr
			sys.procs = append(sys.procs, p)
			switch target {
			case "ingest":
				sys.ingestURL = p.url
			case "query":
				sys.queryURL = p.url
			}
		}
	}
	for _, p := range sys.procs {
		res.Procs = append(res.Procs, p.name)
		if p.url == "" {
			continue
		}
		if err := waitReady(ctx, p, 3*time.Minute); err != nil {
			return res, fmt.Errorf("%w; log in %s", err, filepath.Join(logDir, p.name+".log"))
		}
	}
	if sys.db, err = pgxpool.New(ctx, dbURL); err != nil {
		return res, err
	}
	defer sys.db.Close()

	gen := newGenerator(1)
	// Each writer and searcher keeps its own connection, as an agent platform's workers do: Go's default
	// transport keeps two idle connections per host, and the others dialled again for most requests (a TCP
	// handshake and a new server connection each, on the machine being measured).
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = c.writers + c.searchers
	ld := &loader{sys: sys, gen: gen, k: c.k, client: &http.Client{Timeout: 2 * time.Minute, Transport: tr}}

	// 1. Seed, and wait for it, so the idle searches have something to find.
	began := time.Now()
	seedPhase := ld.writeN(ctx, c.writers, c.seed)
	if seedPhase.Accepted < c.seed {
		return res, fmt.Errorf("seed: %d of %d turns accepted (%d errors, first: %s)", seedPhase.Accepted, c.seed, seedPhase.WriteErrors, seedPhase.FirstError)
	}
	if n, err := ld.waitTurns(ctx, ld.acceptedIDs(), c.lagTimeout); err != nil || n < c.seed {
		return res, fmt.Errorf("seed: %d of %d turns in the projection within %s: %v", n, c.seed, c.lagTimeout, err)
	}
	res.Seeded, res.SeedSecs = c.seed, round1(time.Since(began).Seconds())
	// Statistics as a running deployment has them. The scratch database is minutes old, and autovacuum visits it
	// once a minute: searches planned before its first ANALYZE took the workspace for a handful of rows and
	// scanned all of it (a third of the runs, at random, had some statements several times slower).
	if _, err := sys.db.Exec(ctx, `ANALYZE`); err != nil {
		return res, fmt.Errorf("analyze after the seed: %w", err)
	}
	fmt.Fprintf(os.Stderr, "  %s: %d seed turns in the projection after %.1f s\n", topology, c.seed, res.SeedSecs)

	// 2. Idle baseline: searchers alone.
	res.Idle = sys.measureCPU(ctx, dbName, func() phase { return ld.mixed(ctx, 0, c.searchers, c.idle) })
	fmt.Fprintf(os.Stderr, "  %s idle: %d searches, p50/p95/p99 %.1f/%.1f/%.1f ms\n", topology, res.Idle.Searches, res.Idle.SearchP50Ms, res.Idle.SearchP95Ms, res.Idle.SearchP99Ms)
	printStatements(os.Stderr, res.Idle.Statements)

	// 3. The mixed load, sampling RSS every second.
	rssBefore, _ := sys.rss()
	res.RSSBeforeMiB = round1(rssBefore)
	peak := rssBefore
	sampling := make(chan struct{})
	var sampler sync.WaitGroup
	sampler.Go(func() {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			select {
			case <-sampling:
				return
			case <-tick.C:
				if v, _ := sys.rss(); v > peak {
					peak = v
				}
			}
		}
	})
	res.Load = sys.measureCPU(ctx, dbName, func() phase { return ld.mixed(ctx, c.writers, c.searchers, c.duration) })
	close(sampling)
	sampler.Wait()
	lastAccepted := ld.lastAcceptedAt()
	res.Gate = gateMetrics(sys.queryURL)
	rssAfter, by := sys.rss()
	res.RSSPeakMiB, res.RSSAfterMiB, res.RSSAfterBy = round1(max(peak, rssAfter)), round1(rssAfter), by
	fmt.Fprintf(os.Stderr, "  %s load: %.1f turns/s (%d errors), %d searches (%d errors), p50/p95/p99 %.1f/%.1f/%.1f ms\n", topology,
		res.Load.TurnsPerSec, res.Load.WriteErrors, res.Load.Searches, res.Load.SearchErrors, res.Load.SearchP50Ms, res.Load.SearchP95Ms, res.Load.SearchP99Ms)
	printStatements(os.Stderr, res.Load.Statements)

	// 4. Ingest lag.
	res.LastTurnLagSecs, res.AllTurnsLagSecs = -1, -1
	last := ld.lastAcceptedID()
	ids := ld.acceptedIDs()
	res.TurnsAccepted = len(ids)
	deadline := time.Now().Add(c.lagTimeout)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		if err := ld.projected.poll(ctx, ld.sys.db); err == nil {
			if res.LastTurnLagSecs < 0 && ld.projected.count([]string{last}) == 1 {
				res.LastTurnLagSecs = round1(time.Since(lastAccepted).Seconds())
			}
			n := ld.projected.count(ids)
			res.TurnsInStore = n
			if n == len(ids) {
				res.AllTurnsLagSecs = round1(time.Since(lastAccepted).Seconds())
				if res.LastTurnLagSecs < 0 {
					res.LastTurnLagSecs = res.AllTurnsLagSecs
				}
				break
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
	fmt.Fprintf(os.Stderr, "  %s lag: last turn %.1f s, all %d/%d turns %.1f s\n", topology, res.LastTurnLagSecs, res.TurnsInStore, res.TurnsAccepted, res.AllTurnsLagSecs)
	for _, p := range sys.procs {
		if !p.alive() {
			return res, fmt.Errorf("%s exited during the run; log in %s", p.name, filepath.Join(logDir, p.name+".log"))
		}
	}
	return res, ctx.Err()
}

// gateMetrics reads the query-priority gate's series from a process's /metrics (nil when it has none).
func gateMetrics(base string) map[string]float64 {
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil
	}
	var out map[string]float64
	for _, line := range strings.Split(string(b), "\n") {
		if !strings.HasPrefix(line, "mneme_priority_") {
			continue
		}
		name, value, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		if i := strings.IndexByte(name, '{'); i >= 0 {
			name = name[:i]
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[name] = v
	}
	return out
}

// waitTCP waits until addr accepts TCP connections.
func waitTCP(ctx context.Context, p *proc, addr string, within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		if !p.alive() {
			return fmt.Errorf("%s exited during start-up", p.name)
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not listening on %s within %s", p.name, addr, within)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func waitReady(ctx context.Context, p *proc, within time.Duration) error {
	deadline := time.Now().Add(within)
	c := &http.Client{Timeout: 5 * time.Second}
	for {
		if !p.alive() {
			return fmt.Errorf("%s exited during start-up", p.name)
		}
		if resp, err := c.Get(p.url + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s not ready within %s", p.name, within)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// loader is the clients' side: it writes turns and searches, and remembers what was accepted.
type loader struct {
	sys    *system
	gen    *generator
	k      int
	client *http.Client

	projected projected

	mu           sync.Mutex
	accepted     []string // turn ids
	lastAccepted time.Time
	next         atomic.Int64
}

func (l *loader) acceptedIDs() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.accepted)
}

func (l *loader) lastAcceptedID() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.accepted) == 0 {
		return ""
	}
	return l.accepted[len(l.accepted)-1]
}

func (l *loader) lastAcceptedAt() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.lastAccepted
}

// tally collects one phase's observations.
type tally struct {
	mu           sync.Mutex
	writeLat     []time.Duration
	searchLat    []time.Duration
	writeErrors  int
	searchErrors int
	firstError   string
}

func (t *tally) fail(what string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if what == "write" {
		t.writeErrors++
	} else {
		t.searchErrors++
	}
	if t.firstError == "" {
		t.firstError = what + ": " + err.Error()
	}
}

func (t *tally) phase(elapsed time.Duration) phase {
	t.mu.Lock()
	defer t.mu.Unlock()
	slices.Sort(t.writeLat)
	slices.Sort(t.searchLat)
	secs := elapsed.Seconds()
	p := phase{
		Seconds: round1(secs), Accepted: len(t.writeLat), TurnsPerSec: round1(float64(len(t.writeLat)) / secs), WriteErrors: t.writeErrors,
		WriteP50Ms: pct(t.writeLat, 50), WriteP99Ms: pct(t.writeLat, 99),
		Searches: len(t.searchLat), SearchErrors: t.searchErrors, SearchesPerSec: round1(float64(len(t.searchLat)) / secs),
		SearchP50Ms: pct(t.searchLat, 50), SearchP95Ms: pct(t.searchLat, 95), SearchP99Ms: pct(t.searchLat, 99), SearchMaxMs: pct(t.searchLat, 100),
		LoadAvg: bench.LoadAverage(), FirstError: t.firstError,
	}
	return p
}

// writeN posts n turns with the given number of writers, as fast as they are accepted.
func (l *loader) writeN(ctx context.Context, writers, n int) phase {
	var t tally
	var left atomic.Int64
	left.Store(int64(n))
	began := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for left.Add(-1) >= 0 && ctx.Err() == nil {
				l.writeOne(ctx, w, &t)
			}
		})
	}
	wg.Wait()
	return t.phase(time.Since(began))
}

// mixed runs writers and searchers together for d (writers may be 0: the idle baseline). Requests still in
// flight at the end are waited for and counted.
func (l *loader) mixed(ctx context.Context, writers, searchers int, d time.Duration) phase {
	var t tally
	rctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	began := time.Now()
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for rctx.Err() == nil {
				l.writeOne(ctx, w, &t)
			}
		})
	}
	for s := range searchers {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(s), 7))
			for rctx.Err() == nil {
				l.searchOne(ctx, rng, &t)
			}
		})
	}
	wg.Wait()
	return t.phase(time.Since(began))
}

func (l *loader) writeOne(ctx context.Context, writer int, t *tally) {
	i := l.next.Add(1)
	turn := l.gen.turn(i)
	id := fmt.Sprintf("lb-%d", i)
	body, _ := json.Marshal(map[string]any{"turns": []map[string]any{{
		"turn_id": id, "session_id": fmt.Sprintf("writer-%d", writer), "role": "user", "speaker": turn.speaker,
		"content": turn.content, "occurred_at": time.Now().UTC().Format(time.RFC3339Nano),
	}}})
	start := time.Now()
	err := l.post(ctx, l.sys.ingestURL+"/v1/workspaces/"+workspace+"/turns", body, http.StatusAccepted)
	lat := time.Since(start)
	if err != nil {
		t.fail("write", err)
		return
	}
	now := time.Now()
	l.mu.Lock()
	l.accepted = append(l.accepted, id)
	l.lastAccepted = now
	l.mu.Unlock()
	t.mu.Lock()
	t.writeLat = append(t.writeLat, lat)
	t.mu.Unlock()
}

func (l *loader) searchOne(ctx context.Context, rng *rand.Rand, t *tally) {
	body, _ := json.Marshal(map[string]any{"query": l.gen.question(rng), "k": l.k})
	start := time.Now()
	err := l.post(ctx, l.sys.queryURL+"/v1/workspaces/"+workspace+"/search", body, http.StatusOK)
	lat := time.Since(start)
	if err != nil {
		t.fail("search", err)
		return
	}
	t.mu.Lock()
	t.searchLat = append(t.searchLat, lat)
	t.mu.Unlock()
}

func (l *loader) post(ctx context.Context, url string, body []byte, want int) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.HeaderAgent, agent)
	resp, err := l.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != want {
		return fmt.Errorf("HTTP %d: %s", resp.StatusCode, firstLine(string(data)))
	}
	return nil
}

// projected follows which turns have claims in the projection, reading each claim once. Claims are never
// updated, and each partition's are written in the order of their position in the claims log (one owner per
// partition, its batches in order), so each poll reads only the claims past the highest position already read
// in each partition (claims_partition_seq_idx). Counting every claim's turns on every poll, as the bench did
// first, took 0.3 s and more of Postgres every half second once the workspace held a few thousand turns: a
// third of a core taken from the ingest whose lag it measures.
type projected struct {
	mu   sync.Mutex
	seen map[string]bool
	last map[int32]int64 // partition → highest stream_seq read
}

const newTurnsQuery = `
	SELECT u.p, c.stream_seq, t.turn
	FROM unnest($2::int[], $3::bigint[]) AS u(p, s)
	JOIN claims c ON c.partition = u.p AND c.stream_seq > u.s
	CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(c.provenance->'turn_ids', '[]'::jsonb)) AS t(turn)
	WHERE c.workspace_id = $1`

// poll reads the claims written since the last poll.
func (pr *projected) poll(ctx context.Context, db *pgxpool.Pool) error {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.seen == nil {
		pr.seen, pr.last = map[string]bool{}, map[int32]int64{}
	}
	parts, err := db.Query(ctx, `SELECT partition FROM partition_offsets`)
	if err != nil {
		return err
	}
	var ps []int32
	var ss []int64
	for parts.Next() {
		var p int32
		if err := parts.Scan(&p); err != nil {
			parts.Close()
			return err
		}
		last, ok := pr.last[p]
		if !ok {
			last = -1
		}
		ps, ss = append(ps, p), append(ss, last)
	}
	parts.Close()
	if err := parts.Err(); err != nil {
		return err
	}
	rows, err := db.Query(ctx, newTurnsQuery, workspace, ps, ss)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var p int32
		var seq int64
		var turn string
		if err := rows.Scan(&p, &seq, &turn); err != nil {
			return err
		}
		pr.seen[turn] = true
		pr.last[p] = max(pr.last[p], seq)
	}
	return rows.Err()
}

// count is how many of ids have claims in the projection, as of the last poll.
func (pr *projected) count(ids []string) int {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	n := 0
	for _, id := range ids {
		if pr.seen[id] {
			n++
		}
	}
	return n
}

func (l *loader) turnsInStore(ctx context.Context, ids []string) (int, error) {
	if err := l.projected.poll(ctx, l.sys.db); err != nil {
		return 0, err
	}
	return l.projected.count(ids), nil
}

// waitTurns polls until every turn of ids has claims in the projection, or within has passed.
func (l *loader) waitTurns(ctx context.Context, ids []string, within time.Duration) (int, error) {
	deadline := time.Now().Add(within)
	for {
		n, err := l.turnsInStore(ctx, ids)
		if err == nil && n == len(ids) {
			return n, nil
		}
		if time.Now().After(deadline) {
			return n, err
		}
		select {
		case <-ctx.Done():
			return n, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
}

// pct is the p-th percentile of sorted durations, in milliseconds (nearest rank).
func pct(sorted []time.Duration, p int) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := (len(sorted)*p + 99) / 100
	i = min(max(i-1, 0), len(sorted)-1)
	return round1(float64(sorted[i].Microseconds()) / 1000)
}

func round1(x float64) float64 {
	return float64(int64(x*10+0.5)) / 10
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200]
	}
	return s
}

// gitCommit is the commit the binary was built from (Go's VCS stamp; "-dirty" with uncommitted changes), or ""
// when it was built outside a repository. Not the working directory's: a bench binary of an older build can
// run anywhere.
func gitCommit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	var dirty bool
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if rev != "" && dirty {
		rev += "-dirty"
	}
	return rev
}

func printTable(w io.Writer, res results) {
	name := "commit " + res.Commit
	if res.Label != "" {
		name = res.Label
	}
	fmt.Fprintf(w, "\n### Searches while ingesting (%s; %s, %d CPUs; %d writers, %d searchers, %s load after %s idle)\n\n",
		name, res.GoVersion, res.CPUs, res.Writers, res.Searchers, res.Duration, res.Idle)
	fmt.Fprintln(w, "| topology | accepted turns/s | write errors | searches/s idle → load | search errors | search p50 idle → load | p95 idle → load | p99 idle → load | p99 load / idle | CPU cores Mneme + Postgres, idle → load | RSS before → peak → after | lag: last turn / all turns | load average after |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	for _, t := range res.Topologies {
		ratio := "—"
		if t.Idle.SearchP99Ms > 0 {
			ratio = fmt.Sprintf("%.1f×", t.Load.SearchP99Ms/t.Idle.SearchP99Ms)
		}
		fmt.Fprintf(w, "| %s | %.1f | %d | %.1f → %.1f | %d | %.1f → %.1f ms | %.1f → %.1f ms | %.1f → %.1f ms | %s | %.2f + %.2f → %.2f + %.2f | %.0f → %.0f → %.0f MiB | %s / %s | %s |\n",
			t.Topology, t.Load.TurnsPerSec, t.Load.WriteErrors, t.Idle.SearchesPerSec, t.Load.SearchesPerSec, t.Idle.SearchErrors+t.Load.SearchErrors,
			t.Idle.SearchP50Ms, t.Load.SearchP50Ms, t.Idle.SearchP95Ms, t.Load.SearchP95Ms, t.Idle.SearchP99Ms, t.Load.SearchP99Ms, ratio,
			t.Idle.MnemeCores, t.Idle.PostgresCores, t.Load.MnemeCores, t.Load.PostgresCores,
			t.RSSBeforeMiB, t.RSSPeakMiB, t.RSSAfterMiB, lagText(t.LastTurnLagSecs), lagText(t.AllTurnsLagSecs), t.Load.LoadAvg)
	}
	fmt.Fprintln(w)
	for _, t := range res.Topologies {
		fmt.Fprintf(w, "%s: %d seed turns in the projection after %.1f s; %d of %d accepted turns with claims in the projection at the end; write p50/p99 %.1f/%.1f ms; RSS after by process %v",
			t.Topology, t.Seeded, t.SeedSecs, t.TurnsInStore, t.TurnsAccepted, t.Load.WriteP50Ms, t.Load.WriteP99Ms, t.RSSAfterBy)
		if len(t.Env) > 0 {
			fmt.Fprintf(w, "; settings %s", strings.Join(t.Env, " "))
		}
		if len(t.Gate) > 0 {
			fmt.Fprintf(w, "; query-priority gate after the load: %v", t.Gate)
		}
		if t.Load.FirstError != "" || t.Idle.FirstError != "" {
			fmt.Fprintf(w, "; first error: %s%s", t.Idle.FirstError, t.Load.FirstError)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "\nLoad average before %s, after %s. RSS is Mneme's processes (the NATS server's included), not Postgres.\n", res.LoadAvgBefore, res.LoadAvgAfter)
}

func lagText(s float64) string {
	if s < 0 {
		return "not caught up"
	}
	return fmt.Sprintf("%.1f s", s)
}
