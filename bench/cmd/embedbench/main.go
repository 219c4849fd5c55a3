// Command embedbench measures the local embedder's throughput on 20-token texts with every kernel
// this CPU can run, each forced in turn, in the same run: one text per call ("single") and batches
// ("batched"), and prints one Markdown row per kernel:
//
//	go run ./cmd/embedbench -json ../bench-results/embeddings.json   (from bench/)
//
// Every configuration is measured -runs times; a round measures each configuration once, so a change
// in machine load affects them alike, and the load average is recorded at the start of every round.
// The table reports the median texts/s, the median latency of one Embed call (p50 over every call of
// every run) and the ratio to the portable kernel (generic) measured in the same run.
//
// -kernels selects the kernels (default: $MNEME_USELITE_KERNEL when set, else all of
// uselite.Kernels()); -naive adds the one-text-at-a-time baseline.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
)

// KernelEnv names the environment variable with the default of -kernels: a comma-separated list of
// kernel names (uselite.Kernel*).
const KernelEnv = "MNEME_USELITE_KERNEL"

// naiveName is the row name of the naive baseline, which has no kernel.
const naiveName = "naive"

// ModeResult is the measurement of one kernel in one mode.
type ModeResult struct {
	Batch          int       `json:"texts_per_call"`
	TextsPerSec    float64   `json:"texts_per_sec_median"`
	Runs           []float64 `json:"texts_per_sec_runs"` // run r was measured in round r
	P50Millis      float64   `json:"p50_ms_per_call"`
	RatioVsGeneric float64   `json:"ratio_vs_generic,omitempty"` // absent when generic was not measured
}

// Result is one row: one kernel (or the naive baseline) in both modes.
type Result struct {
	Kernel         string     `json:"kernel"`
	Implementation string     `json:"implementation"`
	Single         ModeResult `json:"single"`
	Batched        ModeResult `json:"batched"`
}

// Round is one pass over every configuration.
type Round struct {
	Started time.Time `json:"started"`
	LoadAvg string    `json:"loadavg"` // /proc/loadavg's 1, 5 and 15 minute averages at the start
}

// Report is the JSON output.
type Report struct {
	GeneratedAt   time.Time `json:"generated_at"`
	GoVersion     string    `json:"go_version"`
	GOARCH        string    `json:"goarch"`
	CPU           string    `json:"cpu"`
	GOMAXPROCS    int       `json:"gomaxprocs"`
	Threads       int       `json:"threads"`
	TokensPerText int       `json:"tokens_per_text"`
	MinRunTime    string    `json:"min_run_time"`
	LoadAvgBefore string    `json:"loadavg_before"`
	LoadAvgAfter  string    `json:"loadavg_after"`
	Rounds        []Round   `json:"rounds"`
	Results       []Result  `json:"results"`
}

// config is one kernel in one mode.
type config struct {
	row   int
	batch int
	model *uselite.Model
	runs  []float64
	calls []time.Duration // every call of every run
}

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "embedbench:", err)
		os.Exit(1)
	}
}

func run(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("embedbench", flag.ContinueOnError)
	dir := fs.String("model-dir", embedding.DefaultModelDir(), "directory with the USE-lite weights (`make deps` fills it)")
	tokens := fs.Int("tokens", 20, "tokens per benchmark text")
	batch := fs.Int("batch", 32, "texts per Embed call in batched mode")
	runs := fs.Int("runs", 5, "measurements per kernel and mode (the median is reported)")
	minTime := fs.Duration("min-time", time.Second, "minimum duration of one measurement")
	threads := fs.Int("threads", runtime.GOMAXPROCS(0), "goroutines per Embed call")
	defaultKernels := os.Getenv(KernelEnv)
	if defaultKernels == "" {
		defaultKernels = strings.Join(uselite.Kernels(), ",")
	}
	kernels := fs.String("kernels", defaultKernels, "comma-separated kernels to measure, each forced (default $"+KernelEnv+", else every kernel this CPU runs)")
	naive := fs.Bool("naive", false, "also measure the naive one-text-at-a-time baseline")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *runs < 1 || *batch < 1 || *tokens < 1 || *tokens > uselite.MaxTokens {
		return errors.New("-runs and -batch must be positive and -tokens within 1..128")
	}
	names := splitList(*kernels)
	if len(names) == 0 && !*naive {
		return errors.New("nothing to measure: -kernels is empty and -naive is off")
	}

	report := Report{
		GeneratedAt: time.Now().UTC(), GoVersion: runtime.Version(), GOARCH: runtime.GOARCH, CPU: cpuModel(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), Threads: *threads, TokensPerText: *tokens, MinRunTime: minTime.String(),
	}
	var configs []*config
	var texts []string
	add := func(name string, opts ...uselite.Option) error {
		m, err := uselite.Load(*dir, append(opts, uselite.WithThreads(*threads))...)
		if err != nil {
			return err
		}
		if texts == nil {
			texts = embeddingtest.Texts(512, *tokens, func(s string) int { return len(m.Tokenizer().Encode(s)) })
		}
		row := len(report.Results)
		report.Results = append(report.Results, Result{Kernel: name, Implementation: m.Implementation()})
		configs = append(configs, &config{row: row, batch: 1, model: m}, &config{row: row, batch: *batch, model: m})
		return nil
	}
	if *naive {
		if err := add(naiveName, uselite.WithImplementation(uselite.Naive)); err != nil {
			return err
		}
	}
	for _, name := range names {
		if err := add(name, uselite.WithKernel(name)); err != nil {
			return err
		}
	}

	ctx := context.Background()
	report.LoadAvgBefore = loadAvg()
	for _, c := range configs { // warm-up: buffers, caches, CPU frequency
		if _, err := c.model.Embed(ctx, texts[:c.batch]); err != nil {
			return err
		}
	}
	for r := 0; r < *runs; r++ {
		report.Rounds = append(report.Rounds, Round{Started: time.Now().UTC(), LoadAvg: loadAvg()})
		for _, c := range configs {
			if err := measure(ctx, c, texts, *minTime); err != nil {
				return err
			}
		}
	}
	report.LoadAvgAfter = loadAvg()

	for _, c := range configs {
		res := &report.Results[c.row]
		mr := ModeResult{Batch: c.batch, TextsPerSec: median(c.runs), Runs: c.runs, P50Millis: medianDuration(c.calls)}
		if c.batch == 1 {
			res.Single = mr
		} else {
			res.Batched = mr
		}
	}
	if i := slices.IndexFunc(report.Results, func(r Result) bool { return r.Kernel == uselite.KernelGeneric }); i >= 0 {
		g := report.Results[i]
		for j := range report.Results {
			report.Results[j].Single.RatioVsGeneric = report.Results[j].Single.TextsPerSec / g.Single.TextsPerSec
			report.Results[j].Batched.RatioVsGeneric = report.Results[j].Batched.TextsPerSec / g.Batched.TextsPerSec
		}
	}
	printTable(stdout, &report, *batch)
	if *jsonOut != "" {
		data, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(*jsonOut), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// measure embeds texts c.batch at a time until minTime has passed, and records the run's texts per
// second and every call's duration.
func measure(ctx context.Context, c *config, texts []string, minTime time.Duration) error {
	start := time.Now()
	done, next := 0, 0
	for {
		if next+c.batch > len(texts) {
			next = 0
		}
		t0 := time.Now()
		if _, err := c.model.Embed(ctx, texts[next:next+c.batch]); err != nil {
			return err
		}
		c.calls = append(c.calls, time.Since(t0))
		next += c.batch
		done += c.batch
		if elapsed := time.Since(start); elapsed >= minTime {
			c.runs = append(c.runs, float64(done)/elapsed.Seconds())
			return nil
		}
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func medianDuration(ds []time.Duration) float64 {
	ms := make([]float64, len(ds))
	for i, d := range ds {
		ms[i] = float64(d) / float64(time.Millisecond)
	}
	return median(ms)
}

func printTable(w io.Writer, r *Report, batch int) {
	fmt.Fprintf(w, "Local embeddings (USE-lite, 512-d), %d-token texts, %s (%s), %s, GOMAXPROCS=%d, %d threads per call\n",
		r.TokensPerText, r.CPU, r.GOARCH, r.GoVersion, r.GOMAXPROCS, r.Threads)
	loads := make([]string, len(r.Rounds))
	for i, rd := range r.Rounds {
		loads[i], _, _ = strings.Cut(rd.LoadAvg, " ")
	}
	fmt.Fprintf(w, "Median of %d runs of ≥ %s each, kernels interleaved; load average before: %s, after: %s; 1-minute load at each round: %s\n\n",
		len(r.Rounds), r.MinRunTime, r.LoadAvgBefore, r.LoadAvgAfter, strings.Join(loads, ", "))
	fmt.Fprintf(w, "| kernel | single: texts/s | single: p50 ms | batched (%d): texts/s | batched: min – max | batched: p50 ms per call | vs generic (single / batched) |\n", batch)
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|")
	for _, res := range r.Results {
		ratio := "–" // generic not measured in this run
		if res.Batched.RatioVsGeneric > 0 {
			ratio = fmt.Sprintf("%.1f× / %.1f×", res.Single.RatioVsGeneric, res.Batched.RatioVsGeneric)
		}
		fmt.Fprintf(w, "| %s | %.1f | %.2f | %.1f | %.1f – %.1f | %.1f | %s |\n",
			res.Kernel, res.Single.TextsPerSec, res.Single.P50Millis, res.Batched.TextsPerSec,
			slices.Min(res.Batched.Runs), slices.Max(res.Batched.Runs), res.Batched.P50Millis, ratio)
	}
}

func cpuModel() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func loadAvg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}
