package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/bench"
)

// The multi-agent benchmarks run Mneme in production mode (NATS with credentials, HTTP with keys) and drive
// every agent through its own credentials:
//
//	mneme-bench -bench crossagent [-per-conversation N]   # LoCoMo, speakers as agents, shared vs isolated
//	mneme-bench -bench writers -duration 60s              # 32 agents publishing at once while queries run
//	mneme-bench -bench memorystress -data <file>          # MemoryStress (no shipped data)
const (
	benchCrossAgent = "crossagent"
	benchWriters    = "writers"
)

// multiAgentBenches are the -bench values handled here.
var multiAgentBenches = []string{benchCrossAgent, benchWriters, bench.MemoryStress}

// startFleet starts the system in production mode in-process (set by inproc_multiagent.go; absent in
// builds tagged benchremote).
var startFleet func(ctx context.Context, name string, keep bool, log *slog.Logger) (*bench.Fleet, func() error, error)

type multiAgentOptions struct {
	agents, queriers, maxBatch, subjects, predicates, values int
	duration, drainTimeout                                   time.Duration
	rate                                                     float64
}

var mao multiAgentOptions

func registerMultiAgentFlags() {
	flag.IntVar(&mao.agents, "agents", 32, "writers: agents publishing at once")
	flag.DurationVar(&mao.duration, "duration", 60*time.Second, "writers: how long the agents publish")
	flag.Float64Var(&mao.rate, "rate", 5, "writers: publishes per second per agent (0: as fast as acknowledgements come)")
	flag.IntVar(&mao.queriers, "queriers", 4, "writers: goroutines querying during the run, each as a random agent")
	flag.IntVar(&mao.maxBatch, "max-batch", 4, "writers: most claims per publish")
	flag.IntVar(&mao.subjects, "subjects", 8, "writers: subjects the agents share")
	flag.IntVar(&mao.predicates, "predicates", 3, "writers: single-valued attributes per subject")
	flag.IntVar(&mao.values, "values", 4, "writers: common values per attribute")
	flag.DurationVar(&mao.drainTimeout, "drain-timeout", 0, "writers: bound on the wait for the pipeline to drain after publishing stops (0: 5m); a loaded machine needs more")
}

func isMultiAgentBench(b string) bool {
	for _, m := range multiAgentBenches {
		if m == b {
			return true
		}
	}
	return false
}

// runMultiAgent runs one multi-agent benchmark, prints its table to stdout (and the load average), and writes
// results into -out.
func runMultiAgent(ctx context.Context, o options, stdout, stderr io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return fmt.Errorf("-log-level %q: %w", o.logLevel, err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(log)
	if o.url != "" {
		return fmt.Errorf("-bench %s issues agents' credentials and runs in-process only (no -url)", o.bench)
	}
	if startFleet == nil {
		return errors.New("this build cannot start Mneme in-process (built with -tags benchremote)")
	}
	budgets, err := parseBudgets(o.budgets)
	if err != nil {
		return err
	}
	if o.out == "" {
		o.out = filepath.Join("bench-results", o.bench)
	}
	if err := os.MkdirAll(o.out, 0o755); err != nil {
		return err
	}
	// Load the data before starting anything, so a bad file costs nothing.
	var ds *bench.Dataset
	var ms *bench.MemoryStressData
	switch o.bench {
	case benchCrossAgent:
		if o.data == "" {
			o.data = bench.DefaultData(bench.LoCoMo, sharedDataDir())
		}
		if ds, err = bench.Load(bench.LoCoMo, o.data); err != nil {
			return err
		}
		if _, err := ds.Validate(); err != nil {
			return err
		}
		ds.LimitPerConversation(o.perConv)
		ds.Limit(o.limit)
	case bench.MemoryStress:
		if o.data == "" {
			return errors.New("-bench memorystress has no shipped data: pass -data <file in the MemoryStress format> (docs/benchmarks.md)")
		}
		if ms, err = bench.LoadMemoryStress(o.data); err != nil {
			return err
		}
	}
	f, stop, err := startFleet(ctx, o.bench, o.keepDB, log)
	if err != nil {
		return err
	}
	defer func() {
		f.Close()
		if err := stop(); err != nil {
			log.Warn("stopping the in-process system", "err", err)
		}
	}()
	load0 := bench.LoadAverage()
	start := time.Now()
	switch o.bench {
	case benchCrossAgent:
		res, err := bench.RunCrossAgent(ctx, f, ds, bench.CrossAgentOptions{Budgets: budgets, K: o.k, Prefix: o.prefix,
			Settle: o.settle, Timeout: o.timeout, Workers: o.workers, Logger: log})
		if err != nil {
			return err
		}
		header := fmt.Sprintf("Cross-agent LoCoMo: %d conversations, %d questions with evidence, asked as each speaker; %s; load %s → %s\n\n",
			len(ds.Conversations), len(ds.Questions), time.Since(start).Round(time.Second), load0, bench.LoadAverage())
		fmt.Fprint(stdout, header)
		res.WriteTable(stdout)
		fmt.Fprintf(stdout, "\nprivate claims returned to another agent: %d\n", res.Leaks)
		if err := res.Write(o.out, header); err != nil {
			return err
		}
		if res.Leaks != 0 {
			return fmt.Errorf("%d private claims were returned to another agent", res.Leaks)
		}
	case bench.MemoryStress:
		rows, err := bench.RunMemoryStress(ctx, f, ms, bench.MemoryStressOptions{Budgets: budgets, K: o.k, Prefix: o.prefix,
			Settle: o.settle, Timeout: o.timeout, Logger: log})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "MemoryStress %s: %d sessions, %d questions; %s; load %s → %s\n\n", o.data, len(ms.Sessions), len(ms.Questions),
			time.Since(start).Round(time.Second), load0, bench.LoadAverage())
		bench.WriteMemoryStressTable(stdout, rows, budgets)
		return writeJSONL(filepath.Join(o.out, "results.jsonl"), rows)
	case benchWriters:
		run, err := bench.RunWriters(ctx, f, bench.WritersOptions{Agents: mao.agents, Duration: mao.duration, Rate: mao.rate,
			MaxBatch: mao.maxBatch, Subjects: mao.subjects, Predicates: mao.predicates, Values: mao.values,
			Queriers: mao.queriers, DrainTimeout: mao.drainTimeout, Seed: 1, Logger: log})
		if err != nil {
			return err
		}
		chk, err := bench.CheckWriters(ctx, f, run)
		if err != nil {
			return err
		}
		rep := run.Report(chk)
		rep.WriteTable(stdout)
		for _, v := range chk.Violations {
			fmt.Fprintln(stdout, "violation:", v)
		}
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(filepath.Join(o.out, "summary.json"), b, 0o644); err != nil {
			return err
		}
		if len(chk.Violations) > 0 {
			return fmt.Errorf("%d violations", len(chk.Violations))
		}
	}
	return nil
}

func writeJSONL[T any](path string, rows []T) error {
	var b strings.Builder
	for _, r := range rows {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
