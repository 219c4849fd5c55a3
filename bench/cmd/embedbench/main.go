// Command embedbench measures the local embedder's throughput on 20-token texts for every
// implementation (naive baseline, pure-Go blocked kernel, optimised kernel) in one text per call
// ("single") and batched modes, in the same run, and prints a Markdown table:
//
//	go run ./bench/cmd/embedbench -json bench-results/embeddings.json
//
// Each configuration is measured -runs times, the runs of all configurations interleaved so that a
// change in machine load affects them alike; the table reports the median and the ratio to the naive
// implementation in the same mode.
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

type config struct {
	impl  uselite.Implementation
	mode  string
	batch int
	model *uselite.Model
	runs  []float64
}

// Result is one row of the JSON output.
type Result struct {
	Implementation string    `json:"implementation"`
	Kernel         string    `json:"kernel"`
	Mode           string    `json:"mode"`
	Batch          int       `json:"batch"`
	TextsPerSec    float64   `json:"texts_per_sec_median"`
	Runs           []float64 `json:"texts_per_sec_runs"`
	RatioVsNaive   float64   `json:"ratio_vs_naive,omitempty"` // absent when naive was not measured
}

// Report is the JSON output.
type Report struct {
	GeneratedAt   time.Time `json:"generated_at"`
	GoVersion     string    `json:"go_version"`
	CPU           string    `json:"cpu"`
	GOMAXPROCS    int       `json:"gomaxprocs"`
	Threads       int       `json:"threads"`
	TokensPerText int       `json:"tokens_per_text"`
	Runs          int       `json:"runs"`
	MinRunTime    string    `json:"min_run_time"`
	LoadAvgBefore string    `json:"loadavg_before"`
	LoadAvgAfter  string    `json:"loadavg_after"`
	Results       []Result  `json:"results"`
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
	runs := fs.Int("runs", 5, "measurements per configuration (the median is reported)")
	minTime := fs.Duration("min-time", time.Second, "minimum duration of one measurement")
	threads := fs.Int("threads", runtime.GOMAXPROCS(0), "goroutines per Embed call for the blocked and optimised implementations")
	impls := fs.String("impls", "naive,blocked,optimized", "comma-separated implementations to measure")
	jsonOut := fs.String("json", "", "write the results as JSON to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *runs < 1 || *batch < 1 || *tokens < 1 || *tokens > uselite.MaxTokens {
		return errors.New("-runs and -batch must be positive and -tokens within 1..128")
	}

	var configs []*config
	var texts []string
	for _, name := range strings.Split(*impls, ",") {
		impl, err := parseImpl(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		m, err := uselite.Load(*dir, uselite.WithImplementation(impl), uselite.WithThreads(*threads))
		if err != nil {
			return err
		}
		if texts == nil {
			texts = embeddingtest.Texts(512, *tokens, func(s string) int { return len(m.Tokenizer().Encode(s)) })
		}
		configs = append(configs,
			&config{impl: impl, mode: "single", batch: 1, model: m},
			&config{impl: impl, mode: "batched", batch: *batch, model: m})
	}

	ctx := context.Background()
	report := Report{
		GeneratedAt: time.Now().UTC(), GoVersion: runtime.Version(), CPU: cpuModel(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), Threads: *threads, TokensPerText: *tokens, Runs: *runs,
		MinRunTime: minTime.String(), LoadAvgBefore: loadAvg(),
	}
	for _, c := range configs { // warm-up: buffers, caches, CPU frequency
		if _, err := c.model.Embed(ctx, texts[:c.batch]); err != nil {
			return err
		}
	}
	for r := 0; r < *runs; r++ {
		for _, c := range configs {
			rate, err := measure(ctx, c, texts, *minTime)
			if err != nil {
				return err
			}
			c.runs = append(c.runs, rate)
		}
	}
	report.LoadAvgAfter = loadAvg()

	naive := map[string]float64{}
	for _, c := range configs {
		if c.impl == uselite.Naive {
			naive[c.mode] = median(c.runs)
		}
	}
	for _, c := range configs {
		res := Result{
			Implementation: c.impl.String(), Kernel: c.model.Implementation(), Mode: c.mode, Batch: c.batch,
			TextsPerSec: median(c.runs), Runs: c.runs,
		}
		if n := naive[c.mode]; n > 0 {
			res.RatioVsNaive = res.TextsPerSec / n
		}
		report.Results = append(report.Results, res)
	}
	printTable(stdout, &report)
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

func parseImpl(name string) (uselite.Implementation, error) {
	for _, impl := range []uselite.Implementation{uselite.Naive, uselite.Blocked, uselite.Optimized} {
		if impl.String() == name {
			return impl, nil
		}
	}
	return 0, fmt.Errorf("unknown implementation %q (want naive, blocked or optimized)", name)
}

// measure embeds texts c.batch at a time until minTime has passed and returns texts per second.
func measure(ctx context.Context, c *config, texts []string, minTime time.Duration) (float64, error) {
	start := time.Now()
	done, next := 0, 0
	for {
		if next+c.batch > len(texts) {
			next = 0
		}
		if _, err := c.model.Embed(ctx, texts[next:next+c.batch]); err != nil {
			return 0, err
		}
		next += c.batch
		done += c.batch
		if elapsed := time.Since(start); elapsed >= minTime {
			return float64(done) / elapsed.Seconds(), nil
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

func printTable(w io.Writer, r *Report) {
	fmt.Fprintf(w, "Local embeddings (USE-lite, 512-d), %d-token texts, %s, %s, GOMAXPROCS=%d, %d threads per call\n",
		r.TokensPerText, r.CPU, r.GoVersion, r.GOMAXPROCS, r.Threads)
	fmt.Fprintf(w, "Median of %d runs of ≥ %s each, runs interleaved; load average before: %s, after: %s\n\n",
		r.Runs, r.MinRunTime, r.LoadAvgBefore, r.LoadAvgAfter)
	fmt.Fprintln(w, "| implementation | kernel | mode | texts per call | texts/s (median) | min – max | vs naive |")
	fmt.Fprintln(w, "|---|---|---|---:|---:|---:|---:|")
	for _, res := range r.Results {
		ratio := "–" // naive not measured in this run
		if res.RatioVsNaive > 0 {
			ratio = fmt.Sprintf("%.1f×", res.RatioVsNaive)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %d | %.1f | %.1f – %.1f | %s |\n",
			res.Implementation, res.Kernel, res.Mode, res.Batch, res.TextsPerSec,
			slices.Min(res.Runs), slices.Max(res.Runs), ratio)
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
