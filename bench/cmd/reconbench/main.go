// Command reconbench measures the reconciler's end-to-end throughput: claims with precomputed embeddings are
// published to NATS and timed until every one is applied in Postgres, with 1, 2 and 4 reconciler processes, and
// compared with a raw batched insert (COPY) of the same rows and vectors into the same tables measured in the
// same run. It prints a Markdown table and writes the results as JSON.
//
//	go run ./bench/cmd/reconbench -n 5000 -dim 512 -procs 1,2,4 -json reconbench.json
//
// It needs a Postgres with pgvector (default: the local cluster of scripts/pg.sh) where the role may create
// databases; it runs an embedded NATS server and re-executes itself as the reconciler processes.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/reconciler"
)

const envChild = "RECONBENCH_CHILD"

type result struct {
	Processes    int     `json:"processes"`
	Claims       int     `json:"claims"`
	Dim          int     `json:"dim"`
	Partitions   int     `json:"partitions"`
	Seconds      float64 `json:"seconds"`
	ClaimsPerSec float64 `json:"claims_per_sec"`
	RawSeconds   float64 `json:"raw_seconds"`
	RawPerSec    float64 `json:"raw_claims_per_sec"`
	RatioToRaw   float64 `json:"ratio_to_raw"`
	// RawParallelPerSec is the raw COPY with as many concurrent clients as CPUs (the reconciler writes from
	// several partition transactions at once, so this is the stricter baseline).
	RawParallelClients int     `json:"raw_parallel_clients"`
	RawParallelPerSec  float64 `json:"raw_parallel_claims_per_sec"`
	RatioToParallelRaw float64 `json:"ratio_to_parallel_raw"`
	Superseded         int     `json:"superseded"`
	DecisionsTotal     int     `json:"decisions"`
}

func main() {
	if os.Getenv(envChild) == "1" {
		os.Exit(child())
	}
	n := flag.Int("n", 5000, "claims per run")
	dim := flag.Int("dim", 512, "embedding dimension")
	partitions := flag.Int("partitions", 16, "claims partitions")
	procs := flag.String("procs", "1,2,4", "reconciler process counts to measure, comma-separated")
	perSlot := flag.Int("per-slot", 4, "claims per slot (values of one subject attribute over time; >1 exercises supersession)")
	admin := flag.String("db", "postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable", "admin database URL (the role needs CREATEDB)")
	jsonOut := flag.String("json", "reconbench.json", "write results as JSON to this file (empty: don't)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var counts []int
	for f := range strings.SplitSeq(*procs, ",") {
		k, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || k < 1 {
			fatal(fmt.Errorf("-procs: %q is not a positive count", f))
		}
		counts = append(counts, k)
	}
	claims := workload(*n, *dim, *partitions, *perSlot)
	var results []result
	for _, k := range counts {
		r, err := runOnce(ctx, log, *admin, claims, *dim, *partitions, k)
		if err != nil {
			fatal(err)
		}
		results = append(results, r)
		fmt.Fprintf(os.Stderr, "%d process(es): %.0f claims/s (raw %.0f/s)\n", k, r.ClaimsPerSec, r.RawPerSec)
	}
	fmt.Printf("| reconciler processes | claims | dim | partitions | seconds | reconciled claims/s | raw COPY claims/s (1 client) | ratio | raw COPY claims/s (%d clients) | ratio |\n", runtime.NumCPU())
	fmt.Printf("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range results {
		fmt.Printf("| %d | %d | %d | %d | %.1f | %.0f | %.0f | %.0f%% | %.0f | %.0f%% |\n", r.Processes, r.Claims, r.Dim, r.Partitions, r.Seconds,
			r.ClaimsPerSec, r.RawPerSec, 100*r.RatioToRaw, r.RawParallelPerSec, 100*r.RatioToParallelRaw)
	}
	if *jsonOut != "" {
		b, _ := json.MarshalIndent(results, "", "  ")
		if err := os.WriteFile(*jsonOut, append(b, '\n'), 0o644); err != nil {
			fatal(err)
		}
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "reconbench:", err)
	os.Exit(1)
}

// workload builds n claims with precomputed unit vectors: n/perSlot subjects, perSlot values each at increasing
// valid times, published in an order that sends some older values late (so they arrive already superseded).
func workload(n, dim, partitions, perSlot int) []event.ClaimEmbeddedV1 {
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	vec := func() []float32 {
		v := make([]float32, dim)
		var s float64
		for i := range v {
			x := rng.NormFloat64()
			v[i] = float32(x)
			s += x * x
		}
		for i := range v {
			v[i] = float32(float64(v[i]) / math.Sqrt(s))
		}
		return v
	}
	predVec := vec()
	out := make([]event.ClaimEmbeddedV1, 0, n)
	for i := range n {
		subject := fmt.Sprintf("Person %d", i/perSlot)
		k := i % perSlot
		if k%2 == 1 && k > 0 {
			k = perSlot - k // interleave: some later values arrive before earlier ones
		}
		object := fmt.Sprintf("City %d", rng.IntN(1000))
		vf := base.Add(time.Duration(k) * time.Hour)
		c := event.ClaimEmbeddedV1{ClaimProposedV1: event.ClaimProposedV1{
			ClaimID: event.DeterministicID("reconbench", strconv.Itoa(i)), Workspace: "bench", Subject: subject,
			SubjectKey: canon.SubjectKey(subject), Predicate: "lives in", PredicateKey: "lives_in", Object: object,
			Text: canon.ClaimText(subject, "lives in", object), Functional: true, ValidFrom: vf, Scope: event.ScopeShared,
			Confidence: 0.9, ProposedAt: vf,
			Provenance: event.Provenance{AgentID: fmt.Sprintf("agent-%d", i%7), Extractor: "structured", ExtractorVersion: "1"},
		}}
		c.Embedding = event.Vector{Model: "bench", Dim: dim, Values: vec()}
		c.PredicateEmbedding = event.Vector{Model: "bench", Dim: dim, Values: predVec}
		c.Partition = bus.PartitionOf(c.Workspace, c.SubjectKey, partitions)
		out = append(out, c)
	}
	return out
}

func runOnce(ctx context.Context, log *slog.Logger, admin string, claims []event.ClaimEmbeddedV1, dim, partitions, procs int) (result, error) {
	r := result{Processes: procs, Claims: len(claims), Dim: dim, Partitions: partitions}
	// The raw baselines first, each in its own fresh database with the same schema and index.
	r.RawParallelClients = runtime.NumCPU()
	for _, clients := range []int{1, r.RawParallelClients} {
		rawDB, dropRaw, err := freshDB(ctx, admin, fmt.Sprintf("reconbench_raw_%d_%d_%d", os.Getpid(), procs, clients))
		if err != nil {
			return r, err
		}
		if err := prepare(ctx, rawDB, dim); err != nil {
			dropRaw()
			return r, err
		}
		start := time.Now()
		err = rawCopy(ctx, rawDB, claims, clients)
		secs := time.Since(start).Seconds()
		dropRaw()
		if err != nil {
			return r, fmt.Errorf("raw copy: %w", err)
		}
		if clients == 1 {
			r.RawSeconds, r.RawPerSec = secs, float64(len(claims))/secs
		} else {
			r.RawParallelPerSec = float64(len(claims)) / secs
		}
	}
	if r.RawParallelClients == 1 {
		r.RawParallelPerSec = r.RawPerSec
	}

	db, drop, err := freshDB(ctx, admin, fmt.Sprintf("reconbench_%d_%d", os.Getpid(), procs))
	if err != nil {
		return r, err
	}
	defer drop()
	if err := prepare(ctx, db, dim); err != nil {
		return r, err
	}
	dir, err := os.MkdirTemp("", "reconbench-nats-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(dir)
	srv, err := embedded.Start(embedded.Options{Listen: "127.0.0.1:-1", StoreDir: dir})
	if err != nil {
		return r, err
	}
	defer srv.Shutdown()
	nc, err := bus.Connect(srv.ClientURL(), "reconbench")
	if err != nil {
		return r, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc, jetstream.WithPublishAsyncMaxPending(4096))
	if err != nil {
		return r, err
	}
	if err := bus.DefaultTopology().Ensure(ctx, js); err != nil {
		return r, err
	}
	exe, err := os.Executable()
	if err != nil {
		return r, err
	}
	var children []*exec.Cmd
	defer func() {
		for _, c := range children {
			_ = c.Process.Signal(syscall.SIGTERM)
			_ = c.Wait()
		}
	}()
	dbURL := db.Config().ConnString()
	for i := range procs {
		c := exec.Command(exe)
		c.Env = append(os.Environ(), envChild+"=1", "MNEME_NATS_URL="+srv.ClientURL(), "MNEME_DATABASE_URL="+dbURL,
			"MNEME_PARTITIONS="+strconv.Itoa(partitions), "MNEME_INSTANCE=bench-"+strconv.Itoa(i))
		c.Stderr = os.Stderr
		if err := c.Start(); err != nil {
			return r, err
		}
		children = append(children, c)
	}
	// Wait until every process is a member and the partitions are spread over all of them (each holds its
	// partitions as session advisory locks, visible in pg_locks).
	share := (partitions + procs - 1) / procs
	if err := waitUntil(ctx, 60*time.Second, func() (bool, error) {
		var members, locked, holders, most int
		err := db.QueryRow(ctx, `SELECT (SELECT count(*) FROM reconciler_members), count(*), count(DISTINCT pid),
				coalesce(max(n), 0)
			FROM (SELECT pid, count(*) OVER (PARTITION BY pid) AS n FROM pg_locks
			      WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid = $1::int::oid
			        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) l`,
			reconciler.PartitionLockClass).Scan(&members, &locked, &holders, &most)
		return members == procs && locked == partitions && holders == procs && most <= share, err
	}); err != nil {
		return r, fmt.Errorf("reconciler processes did not spread the partitions: %w", err)
	}
	start := time.Now()
	last := map[int]uint64{}
	var futures []jetstream.PubAckFuture
	for _, c := range claims {
		env, err := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "reconbench", c.Workspace, c.ProposedAt, c)
		if err != nil {
			return r, err
		}
		msg, err := bus.EventMsg(ctx, bus.ClaimsSubject(c.Partition), env)
		if err != nil {
			return r, err
		}
		f, err := js.PublishMsgAsync(msg)
		if err != nil {
			return r, err
		}
		futures = append(futures, f)
	}
	for i, f := range futures {
		select {
		case ack := <-f.Ok():
			p := claims[i].Partition
			last[p] = max(last[p], ack.Sequence)
		case err := <-f.Err():
			return r, err
		}
	}
	if err := waitUntil(ctx, 30*time.Minute, func() (bool, error) {
		got, err := store.Offsets(ctx, db)
		if err != nil {
			return false, err
		}
		for p, s := range last {
			if got[p] < s {
				return false, nil
			}
		}
		return true, nil
	}); err != nil {
		return r, err
	}
	r.Seconds = time.Since(start).Seconds()
	r.ClaimsPerSec = float64(len(claims)) / r.Seconds
	r.RatioToRaw = r.ClaimsPerSec / r.RawPerSec
	r.RatioToParallelRaw = r.ClaimsPerSec / r.RawParallelPerSec
	totals, _ := store.StoreTotals(ctx, db)
	r.Superseded, r.DecisionsTotal = totals.Superseded, totals.Decisions
	if totals.Claims != len(claims) {
		return r, fmt.Errorf("%d claims stored, %d published", totals.Claims, len(claims))
	}
	log.Debug("run done", "procs", procs)
	return r, nil
}

func waitUntil(ctx context.Context, timeout time.Duration, cond func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		ok, err := cond()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			return errors.New("timed out")
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// freshDB creates database name (dropping a leftover of the same name) and returns a pool on it and a drop func.
func freshDB(ctx context.Context, admin, name string) (*pgxpool.Pool, func(), error) {
	if err := pgtest.DropDatabase(ctx, admin, name); err != nil {
		return nil, nil, fmt.Errorf("connect to %s: %w (start the local cluster with scripts/pg.sh start)", pgtest.Redact(admin), err)
	}
	dbURL, err := pgtest.CreateDatabase(ctx, admin, name)
	if err != nil {
		return nil, nil, err
	}
	pool, err := store.Connect(ctx, dbURL, 10*time.Second)
	if err != nil {
		return nil, nil, err
	}
	drop := func() {
		pool.Close()
		_ = pgtest.DropDatabase(context.Background(), admin, name)
	}
	return pool, drop, nil
}

func prepare(ctx context.Context, pool *pgxpool.Pool, dim int) error {
	if _, err := store.Migrate(ctx, pool); err != nil {
		return err
	}
	return store.PinEmbedding(ctx, pool, "bench", dim)
}

// rawCopy writes the same claims, vectors and one belief version per claim with COPY (store.Write of those rows
// alone) in batches of 1000 from clients concurrent connections: the least work that makes the claims visible in
// the same tables, with the same indexes.
func rawCopy(ctx context.Context, pool *pgxpool.Pool, claims []event.ClaimEmbeddedV1, clients int) error {
	const batch = 1000
	g, ctx := errgroup.WithContext(ctx)
	for c := range clients {
		g.Go(func() error {
			for i := c * batch; i < len(claims); i += clients * batch {
				if err := copyBatch(ctx, pool, claims, i, min(i+batch, len(claims))); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return g.Wait()
}

func copyBatch(ctx context.Context, pool *pgxpool.Pool, claims []event.ClaimEmbeddedV1, from, to int) error {
	var ch store.Changes
	for j, c := range claims[from:to] {
		prov, _ := json.Marshal(c.Provenance)
		ch.Claims = append(ch.Claims, store.ClaimRow{ID: c.ClaimID, Workspace: c.Workspace, SubjectKey: c.SubjectKey, Subject: c.Subject,
			PredicateKey: c.PredicateKey, Predicate: c.Predicate, SlotKey: c.PredicateKey, Object: c.Object, ObjectKey: canon.ObjectKey(c.Object),
			Text: c.Text, Functional: c.Functional, Scope: string(c.Scope), OwnerAgent: c.Provenance.AgentID, Confidence: float32(c.Confidence),
			ValidFrom: c.ValidFrom, Provenance: string(prov), Partition: c.Partition, StreamSeq: int64(from + j + 1), RecordedAt: c.ValidFrom,
			Trust: 1})
		ch.Vectors = append(ch.Vectors, store.VectorRow{ClaimID: c.ClaimID, Workspace: c.Workspace, Model: c.Embedding.Model,
			Dim: c.Embedding.Dim, Embedding: c.Embedding.Values})
		ch.Versions = append(ch.Versions, store.VersionRow{ClaimID: c.ClaimID, Version: 1, Workspace: c.Workspace, Status: store.StatusActive,
			ValidFrom: c.ValidFrom, RecordedAt: c.ValidFrom})
	}
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, &ch) })
}

// child runs one reconciler replica until SIGTERM.
func child() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	pool, err := store.Connect(ctx, os.Getenv("MNEME_DATABASE_URL"), 10*time.Second)
	if err != nil {
		log.Error("connect", "err", err)
		return 1
	}
	defer pool.Close()
	nc, err := nats.Connect(os.Getenv("MNEME_NATS_URL"))
	if err != nil {
		log.Error("connect", "err", err)
		return 1
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		log.Error("jetstream", "err", err)
		return 1
	}
	partitions, _ := strconv.Atoi(os.Getenv("MNEME_PARTITIONS"))
	cfg := reconciler.DefaultConfig()
	cfg.Partitions = partitions
	cfg.RebalanceInterval = 200 * time.Millisecond
	svc, err := reconciler.New(service.Deps{Logger: log, NATS: nc, JS: js, DB: pool, Partitions: partitions, Instance: os.Getenv("MNEME_INSTANCE")}, cfg)
	if err != nil {
		log.Error("new", "err", err)
		return 1
	}
	if err := svc.Run(ctx); err != nil {
		log.Error("run", "err", err)
		return 1
	}
	return 0
}
