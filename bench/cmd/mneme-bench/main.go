// Command mneme-bench runs a memory benchmark through Mneme and the baselines it is compared with, and writes
// resumable JSONL results, a Markdown report and PNG plots. Its last line on stdout is a JSON summary of the
// headline figures.
//
//	mneme-bench -bench factconsolidation                 # shipped data, in-process Mneme on a fresh database
//	mneme-bench -bench locomo -limit 200 -out /tmp/lc     # a subset
//	mneme-bench -bench beam -url http://127.0.0.1:8080     # against a running Mneme
//	mneme-bench -bench factconsolidation -variant both -pool check   # facts and questions reworded
//	mneme-bench -bench convupdates -pool dev               # the conversation-updates dialogs
//
// docs/benchmarks.md describes the protocol, the metrics and the figures.
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
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/bench"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// harnessVersion goes into the configuration fingerprint: rows measured by an older harness whose metrics
// changed are not reused.
const harnessVersion = "bench-v1"

// inProcess starts Mneme in this process; set by inproc.go (absent in builds tagged benchremote).
var inProcess func(ctx context.Context, name string, keep bool, reuse string, log *slog.Logger) (url string, js jetstream.JetStream, db *pgxpool.Pool, stop func() error, err error)

type options struct {
	bench, data, out, systems, url, databaseURL, natsURL, budgets, promptDir, logLevel, prefix, apiKey, reuseDB string
	variant, pool, dump, typing                                                                                 string
	seed                                                                                                        uint64
	limit, perConv, readerBudget, chunkTokens, k, workers                                                       int
	categories                                                                                                  string
	settle, timeout                                                                                             time.Duration
	keepDB, progress                                                                                            bool
}

func main() {
	var o options
	flag.StringVar(&o.bench, "bench", bench.FactConsolidation, "benchmark: "+strings.Join(bench.Benchmarks, ", ")+"; multi-agent, in production mode: "+strings.Join(multiAgentBenches, ", "))
	flag.StringVar(&o.data, "data", "", "data in the benchmark's published format (a file; for BEAM a directory of <id>/chat.json); default: the shipped data under ../shared/data (convupdates: the dialogs of -pool, built in)")
	flag.StringVar(&o.variant, "variant", string(bench.VariantPublished), "factconsolidation: published, or reworded as people write: facts (reworded facts, published questions), questions (published facts, reworded questions), both")
	flag.StringVar(&o.pool, "pool", string(bench.PoolDev), "phrasings of the reworded factconsolidation variants and of convupdates: dev (for development), check (held out from tuning) or, for factconsolidation only, fresh, blind or everyday (blind rewordings, for first contact and development)")
	flag.Uint64Var(&o.seed, "seed", 1, "factconsolidation rewording: the seed that picks each fact's and question's phrasing")
	flag.StringVar(&o.typing, "typing", "", "convupdates: lower types every user turn in lower case, as many people chat (a variant of any pool, to measure what generalizes)")
	flag.StringVar(&o.dump, "dump", "", "factconsolidation rewording: also write the reworded data to this file in the published row format, for reading (keep it out of the repository)")
	flag.StringVar(&o.out, "out", "", "output directory (default bench-results/<bench>); results.jsonl there makes reruns resume")
	flag.StringVar(&o.systems, "systems", strings.Join(bench.AllSystems, ","), "systems to compare (add the diagnostic "+bench.SystemClaimsRRF+": Mneme's stored claims ranked by plain BM25+dense RRF, without the query service)")
	flag.IntVar(&o.limit, "limit", 0, "evaluate only the first N questions (0: all)")
	flag.StringVar(&o.categories, "categories", "", "evaluate only the questions of these comma-separated categories (e.g. knowledge_update,contradiction_resolution); applied before -per-conversation")
	flag.IntVar(&o.perConv, "per-conversation", 0, "evaluate at most N questions per conversation (0: all); applied before -limit")
	flag.StringVar(&o.url, "url", "", "a running Mneme's HTTP root (default: start Mneme in-process on a fresh database)")
	flag.StringVar(&o.apiKey, "api-key", os.Getenv("MNEME_API_KEY"), "bearer key for -url outside local development mode (default $MNEME_API_KEY)")
	flag.StringVar(&o.databaseURL, "database-url", "", "with -url: the system's Postgres, for provenance, the visibility wait and the error analysis (optional)")
	flag.StringVar(&o.natsURL, "nats-url", "", "with -url: the system's NATS, for the visibility wait (optional)")
	flag.StringVar(&o.budgets, "budgets", "100,200,500,1000,2000", "context token budgets")
	flag.IntVar(&o.readerBudget, "reader-budget", 1000, "context budget the LLM reader answers from (with MNEME_LLM_BASE_URL)")
	flag.IntVar(&o.chunkTokens, "chunk-tokens", bench.DefaultChunkTokens, "chunk-rag chunk size in tokens")
	flag.IntVar(&o.k, "k", 100, "claim cap of Mneme searches")
	flag.IntVar(&o.workers, "workers", 2, "questions evaluated at once")
	flag.DurationVar(&o.settle, "settle", 2*time.Second, "how long the pipeline must stay idle before ingested data counts as visible")
	flag.DurationVar(&o.timeout, "ingest-timeout", 0, "bound on the wait for one conversation's data (0: 2m + 200ms per turn)")
	flag.StringVar(&o.prefix, "workspace-prefix", "b", "goes into workspace names (<bench>-<prefix>-<conversation>)")
	flag.StringVar(&o.promptDir, "prompts", "", "directory of reader/judge prompt templates (<bench>.reader.txt, <bench>.judge.txt) overriding the built-in ones")
	flag.BoolVar(&o.keepDB, "keep-db", false, "keep the in-process run's database for inspection")
	flag.StringVar(&o.reuseDB, "reuse-db", "", "run in-process on this database, kept by an earlier complete run (-keep-db), instead of a fresh one: conversations whose workspace already holds claims are not ingested again (to re-measure query changes)")
	flag.BoolVar(&o.progress, "progress", true, "progress bars on stderr")
	flag.StringVar(&o.logLevel, "log-level", "warn", "log level of the harness and the in-process system: debug, info, warn, error")
	registerMultiAgentFlags()
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if isMultiAgentBench(o.bench) {
		if err := runMultiAgent(ctx, o, os.Stdout, os.Stderr); err != nil {
			fmt.Fprintln(os.Stderr, "mneme-bench:", err)
			stop()
			os.Exit(1)
		}
		return
	}
	summary, err := run(ctx, o, os.Stderr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mneme-bench:", err)
		os.Exit(1)
	}
	line, _ := json.Marshal(summary)
	fmt.Println(string(line))
}

func run(ctx context.Context, o options, stderr io.Writer) (*bench.Summary, error) {
	var level slog.Level
	if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
		return nil, fmt.Errorf("-log-level %q: %w", o.logLevel, err)
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	slog.SetDefault(log)

	ds, dataNote, err := loadData(&o)
	if err != nil {
		return nil, err
	}
	warnings, err := ds.Validate()
	if err != nil {
		return nil, err
	}
	for _, w := range warnings {
		log.Warn("data", "warning", w)
	}
	totalQuestions := len(ds.Questions)
	if o.categories != "" {
		ds.KeepCategories(strings.Split(o.categories, ","))
	}
	ds.LimitPerConversation(o.perConv)
	ds.Limit(o.limit)
	budgets, err := parseBudgets(o.budgets)
	if err != nil {
		return nil, err
	}
	systems := strings.Split(o.systems, ",")
	for i, s := range systems {
		systems[i] = strings.TrimSpace(s)
	}

	counter := tokens.Default()
	reader, err := bench.NewReaderFromEnv(o.promptDir)
	if err != nil {
		return nil, err
	}
	readerModel := ""
	if reader != nil {
		readerModel = reader.Model()
	}

	var sys []bench.System
	var mneme *bench.Mneme
	var embedderID string
	needs := func(name string) bool {
		for _, s := range systems {
			if s == name {
				return true
			}
		}
		return false
	}
	for _, s := range systems {
		switch s {
		case bench.SystemMneme, bench.SystemMnemeAllVersions, bench.SystemChunkRAG, bench.SystemFullContext, bench.SystemClaimsRRF:
		default:
			return nil, fmt.Errorf("-systems: unknown system %q (use %s, or the diagnostic %s)", s, strings.Join(bench.AllSystems, ", "), bench.SystemClaimsRRF)
		}
	}
	if needs(bench.SystemMneme) || needs(bench.SystemMnemeAllVersions) || needs(bench.SystemClaimsRRF) {
		m, closeFn, err := startMneme(ctx, o, log)
		if err != nil {
			return nil, err
		}
		defer func() {
			if err := closeFn(); err != nil {
				log.Error("stopping Mneme", "err", err)
			}
		}()
		mneme = m
		on, off := m.Views()
		if needs(bench.SystemMneme) {
			sys = append(sys, on)
		}
		if needs(bench.SystemMnemeAllVersions) {
			sys = append(sys, off)
		}
	}
	if needs(bench.SystemChunkRAG) || needs(bench.SystemClaimsRRF) {
		emb, err := embedderFromEnv(ctx)
		if err != nil {
			return nil, fmt.Errorf("chunk-rag and claims-rrf need the embedder Mneme uses: %w", err)
		}
		embedderID = emb.Model()
		if needs(bench.SystemClaimsRRF) {
			sys = append(sys, &bench.ClaimsRRF{M: mneme, Counter: counter, Embedder: emb})
		}
		if needs(bench.SystemChunkRAG) {
			sys = append(sys, &bench.ChunkRAG{Counter: counter, Embedder: emb, ChunkTokens: o.chunkTokens})
		}
	}
	if needs(bench.SystemFullContext) {
		sys = append(sys, &bench.FullContext{Counter: counter})
	}

	budgetText := strings.Trim(strings.Join(strings.Fields(fmt.Sprint(budgets)), ","), "[]")
	fpParts := []string{harnessVersion, o.bench, budgetText, strconv.Itoa(o.readerBudget), strconv.Itoa(o.chunkTokens), strconv.Itoa(o.k), readerModel}
	if dataNote != "" {
		// Rows of another variant or pool are other measurements; the published data keeps its fingerprint.
		fpParts = append(fpParts, dataNote)
	}
	cfg := bench.Fingerprint(fpParts...)
	settings := []string{
		fmt.Sprintf("budgets %s tokens (cl100k_base); chunk-rag chunks of %d tokens, BM25 + dense (%s) fused by RRF (k=60)", budgetText, o.chunkTokens, orNone(embedderID)),
		fmt.Sprintf("questions: %d of %d (-per-conversation %d, -limit %d)", len(ds.Questions), totalQuestions, o.perConv, o.limit),
	}
	if dataNote != "" {
		settings = append(settings, dataNote)
	}
	if o.url != "" {
		settings = append(settings, "mneme: the running system at "+o.url)
	} else if mneme != nil {
		settings = append(settings, "mneme: in-process on a fresh database, embedded NATS, configuration from the environment (MNEME_*)")
	}
	if reader != nil {
		settings = append(settings, fmt.Sprintf("LLM reader and judge: %s, context budget %d", readerModel, o.readerBudget))
	} else {
		settings = append(settings, "no LLM configured (MNEME_LLM_BASE_URL): deterministic answers and context metrics only")
	}
	eval := bench.Evaluator{Bench: o.bench, Budgets: budgets, Config: cfg, Reader: reader, ReaderBudget: o.readerBudget}
	if mneme != nil {
		if in := mneme.Inspector(); in != nil {
			eval.Inspector = in
		}
	}
	var progress io.Writer
	if o.progress {
		progress = stderr
	}
	rep, err := bench.Run(ctx, ds, bench.RunOptions{OutDir: o.out, Systems: sys, Eval: eval, Settings: settings,
		Progress: progress, Workers: o.workers, Logger: log})
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(stderr, "report: %s\n", filepath.Join(o.out, "report.md"))
	s := rep.Summary()
	return &s, nil
}

// loadData loads the benchmark's data (the shipped data unless -data), applies the FactConsolidation
// rewording, and sets the default output directory. The note describes a variant or pool ("" for published
// data as shipped).
func loadData(o *options) (*bench.Dataset, string, error) {
	variant, err := bench.ParseVariant(o.variant)
	if err != nil {
		return nil, "", fmt.Errorf("-variant: %w", err)
	}
	pool, err := bench.ParsePool(o.pool)
	if err != nil {
		return nil, "", fmt.Errorf("-pool: %w", err)
	}
	if variant != bench.VariantPublished && o.bench != bench.FactConsolidation {
		return nil, "", fmt.Errorf("-variant applies to -bench %s only", bench.FactConsolidation)
	}
	if o.dump != "" && variant == bench.VariantPublished {
		return nil, "", errors.New("-dump writes a reworded variant: pass -variant facts, questions or both")
	}
	outName := o.bench
	var ds *bench.Dataset
	note := ""
	switch {
	case o.bench == bench.ConvUpdates && o.data == "":
		if ds, err = bench.LoadConvUpdatesPool(pool); err != nil {
			return nil, "", err
		}
		note = "conversation updates: " + string(pool) + " pool (shipped)"
		outName += "-" + string(pool)
	default:
		if o.data == "" {
			o.data = bench.DefaultData(o.bench, sharedDataDir())
			if o.data == "" {
				return nil, "", fmt.Errorf("-bench %s has no shipped data: pass -data <file in its published format>", o.bench)
			}
		}
		if ds, err = bench.Load(o.bench, o.data); err != nil {
			return nil, "", err
		}
		if o.bench == bench.ConvUpdates {
			note = "conversation updates: " + o.data
		}
	}
	if variant != bench.VariantPublished {
		st, err := bench.RewordFactConsolidation(ds, bench.RewordOptions{Variant: variant, Pool: pool, Seed: o.seed})
		if err != nil {
			return nil, "", err
		}
		what := map[bench.Variant]string{bench.VariantFacts: "facts reworded, published questions",
			bench.VariantQuestions: "published facts, reworded questions", bench.VariantBoth: "facts and questions reworded"}[variant]
		note = fmt.Sprintf("variant: %s (%s pool, seed %d): %s", what, pool, o.seed, st)
		outName = fmt.Sprintf("%s-%s-%s", o.bench, variant, pool)
		if o.seed != 1 {
			outName += fmt.Sprintf("-s%d", o.seed)
		}
		if o.dump != "" {
			if err := bench.WriteFactConsolidation(ds, o.dump); err != nil {
				return nil, "", fmt.Errorf("-dump: %w", err)
			}
		}
	}
	switch o.typing {
	case "":
	case "lower":
		if o.bench != bench.ConvUpdates {
			return nil, "", fmt.Errorf("-typing applies to -bench %s only", bench.ConvUpdates)
		}
		n := bench.LowerCaseUserTurns(ds)
		note += fmt.Sprintf("; typed in lower case (%d user turns)", n)
		outName += "-lower"
	default:
		return nil, "", fmt.Errorf("-typing %q: want lower (or nothing, as written)", o.typing)
	}
	if o.out == "" {
		o.out = filepath.Join("bench-results", outName)
	}
	return ds, note, nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func parseBudgets(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("-budgets: %q is not a positive number of tokens", f)
		}
		out = append(out, n)
	}
	if len(out) == 0 {
		return nil, errors.New("-budgets: no budget given")
	}
	return out, nil
}

// startMneme connects to the running system given by -url, or starts one in-process.
func startMneme(ctx context.Context, o options, log *slog.Logger) (*bench.Mneme, func() error, error) {
	m := &bench.Mneme{Bench: o.bench, Prefix: o.prefix, Settle: o.settle, Timeout: o.timeout, K: o.k, Logger: log, Reuse: o.reuseDB != ""}
	if o.url == "" {
		if inProcess == nil {
			return nil, nil, errors.New("this build cannot start Mneme in-process (built with -tags benchremote): pass -url")
		}
		url, js, db, stop, err := inProcess(ctx, o.bench, o.keepDB, o.reuseDB, log)
		if err != nil {
			return nil, nil, err
		}
		if m.Client, err = bench.NewClient(url, "mneme-bench", ""); err != nil {
			return nil, nil, errors.Join(err, stop())
		}
		m.JS, m.DB = js, db
		return m, stop, nil
	}
	c, err := bench.NewClient(o.url, "mneme-bench", o.apiKey)
	if err != nil {
		return nil, nil, fmt.Errorf("-url: %w", err)
	}
	m.Client = c
	var closers []func()
	if o.databaseURL != "" {
		db, err := pgxpool.New(ctx, o.databaseURL)
		if err != nil {
			return nil, nil, fmt.Errorf("-database-url: %w", err)
		}
		m.DB = db
		closers = append(closers, db.Close)
	}
	if o.natsURL != "" {
		nc, err := nats.Connect(o.natsURL, nats.Name("mneme-bench"))
		if err != nil {
			return nil, nil, fmt.Errorf("-nats-url: %w", err)
		}
		closers = append(closers, nc.Close)
		if m.JS, err = jetstream.New(nc); err != nil {
			return nil, nil, fmt.Errorf("-nats-url: %w", err)
		}
	}
	rctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := m.Client.Ready(rctx); err != nil {
		return nil, nil, fmt.Errorf("-url %s is not ready: %w", o.url, err)
	}
	return m, func() error {
		for _, c := range closers {
			c()
		}
		return nil
	}, nil
}

// embedderFromEnv builds the embedder Mneme is configured with: the local model by default, an
// OpenAI-compatible endpoint with MNEME_EMBEDDING_PROVIDER=openai.
func embedderFromEnv(ctx context.Context) (embedding.Embedder, error) {
	if os.Getenv("MNEME_EMBEDDING_PROVIDER") == "openai" {
		var opts []embedding.OpenAIOption
		if d, _ := strconv.Atoi(os.Getenv("MNEME_EMBEDDING_DIM")); d > 0 {
			opts = append(opts, embedding.WithDim(d))
		}
		e, err := embedding.NewOpenAI(llm.Config{BaseURL: os.Getenv("MNEME_EMBEDDING_BASE_URL"), Model: os.Getenv("MNEME_EMBEDDING_MODEL"),
			APIKey: os.Getenv("MNEME_EMBEDDING_API_KEY")}, opts...)
		if err != nil {
			return nil, err
		}
		if e.Dim() == 0 {
			if _, err := e.Probe(ctx); err != nil {
				return nil, err
			}
		}
		return e, nil
	}
	return uselite.LoadDefault()
}

// sharedDataDir is ../shared/data relative to the repository root (the directory holding go.work, found
// from the working directory upwards), or $MNEME_SHARED_DATA.
func sharedDataDir() string {
	if d := os.Getenv("MNEME_SHARED_DATA"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return filepath.Join("..", "shared", "data")
	}
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return filepath.Join(dir, "..", "shared", "data")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Join(wd, "..", "shared", "data")
		}
		dir = parent
	}
}
