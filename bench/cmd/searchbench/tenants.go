package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/pgvector/pgvector-go"
	pgxvec "github.com/pgvector/pgvector-go/pgx"

	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/query"
)

// The -tenants mode: many workspaces of mixed sizes in one database, the way a multi-tenant deployment shares
// its tables. It loads every workspace once, computes each query's exact top 10 (full precision, no index),
// then measures the service's dense query under each layout on the same data:
//
//   - store-wide: one HNSW index over every workspace's vectors and no workspace B-tree on claim_vectors — the
//     layout before issue 15 — with the search settings of that version (cached plans left to Postgres), and
//     again with custom plans forced, which separates the plan trap from the layout;
//   - per-workspace: the current layout (pkg/store/dense.go: exact below -index-min vectors, a workspace's own
//     HNSW index above) with the service's settings.
//
// Each layout runs on a fresh connection, as a pool's connection serves many workspaces: the queries of all
// classes interleaved, the dense statement prepared once and cached (pgx's default), so Postgres may switch it
// to a generic plan after five executions. A second pass over the same queries on the same connection gives
// the p99 after a long sequence of searches; the connection's plan counts for the statement are reported.

// tenantClass is Count workspaces of Claims claims each.
type tenantClass struct {
	Count  int `json:"workspaces"`
	Claims int `json:"claims_per_workspace"`
}

func parseTenants(s string) ([]tenantClass, error) {
	var out []tenantClass
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		a, b, ok := strings.Cut(f, "x")
		n, err1 := strconv.Atoi(a)
		m, err2 := strconv.Atoi(b)
		if !ok || err1 != nil || err2 != nil || n <= 0 || m <= 0 {
			return nil, fmt.Errorf("%q is not <workspaces>x<claims>", f)
		}
		out = append(out, tenantClass{Count: n, Claims: m})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no size classes")
	}
	return out, nil
}

type tenantQuery struct {
	class int
	ws    string
	vec   []float32
	truth []string
}

type classResult struct {
	tenantClass
	RecallAt10 float64  `json:"recall_at_10"`
	First      *latency `json:"dense_query"`
	Later      *latency `json:"dense_query_after_long_sequence"`
}

type layoutResult struct {
	Layout string `json:"layout"`
	// SetupSeconds is the time the layout's indexes took to build.
	SetupSeconds float64       `json:"index_build_seconds"`
	DenseMB      float64       `json:"dense_indexes_mb"`
	Indexes      int           `json:"hnsw_indexes"`
	Searches     int           `json:"searches_before_second_pass"`
	GenericPlans int64         `json:"generic_plans"`
	CustomPlans  int64         `json:"custom_plans"`
	Classes      []classResult `json:"classes"`
	LoadBefore   string        `json:"loadavg_before"`
	LoadAfter    string        `json:"loadavg_after"`
}

type tenantsReport struct {
	Machine     string        `json:"machine"`
	Date        string        `json:"date"`
	Classes     []tenantClass `json:"classes"`
	Claims      int           `json:"claims"`
	Workspaces  int           `json:"workspaces"`
	IndexMin    int           `json:"index_min"`
	EfSearch    int           `json:"ef_search"`
	Queries     int           `json:"queries_per_class"`
	LoadSeconds float64       `json:"load_seconds"`
	// WorkspaceIndexSeconds is how long the per-workspace layout took to set up before the ground truth: on a
	// fresh database, building every large workspace's own HNSW index (the layouts' own setup then finds them).
	WorkspaceIndexSeconds float64        `json:"workspace_index_build_seconds"`
	DatabaseMB            float64        `json:"database_mb"`
	Layouts               []layoutResult `json:"layouts"`
}

// Search settings per layout. storeWideSettings is what services/query/search.go set before issue 15;
// customPlanSettings adds its plan_cache_mode; searchSettings is what it sets now for the dense query
// (searchSettingsSQL, then denseEnterSQL: sorts off, so a workspace's own index is scanned).
const (
	storeWideSettings  = `SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`
	customPlanSettings = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
	set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`
	searchSettings = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
	set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true), set_config('jit', 'off', true),
	set_config('enable_sort', 'off', true)`
)

func benchTenants(ctx context.Context, c config, classes []tenantClass, log *slog.Logger) error {
	const dbName = "mneme_searchbench_tenants"
	dbURL, err := pgtest.WithDatabase(c.db, dbName)
	if err != nil {
		return err
	}
	rep := tenantsReport{Machine: machine(), Date: time.Now().UTC().Format(time.RFC3339), Classes: classes, IndexMin: c.indexMin, Queries: c.queries}
	rep.EfSearch = query.DefaultConfig().EfSearch
	if c.searchEf > 0 {
		rep.EfSearch = c.searchEf
	}
	fresh := !c.reuse || !databaseExists(ctx, c.db, dbName)
	if fresh {
		if err := recreateDatabase(ctx, c.db, dbName); err != nil {
			return err
		}
	}
	pool, err := store.Connect(ctx, dbURL, 30*time.Second)
	if err != nil {
		return err
	}
	defer pool.Close()
	if !c.keep {
		defer func() {
			pool.Close()
			_ = pgtest.DropDatabase(context.WithoutCancel(ctx), c.db, dbName)
		}()
	}
	if _, err := store.Migrate(ctx, pool); err != nil {
		return err
	}
	if err := store.PinEmbedding(ctx, pool, model, dim); err != nil {
		return err
	}
	gens := map[string]*gen{}
	var names [][]string
	ns := uint32(0)
	for _, cl := range classes {
		var ws []string
		for i := range cl.Count {
			ns++
			name := fmt.Sprintf("t%d-%05d", cl.Claims, i)
			g := newGen(c.seed+uint64(ns)*0x100000001b3, max(10, cl.Claims/(claimsPerSubject*20)))
			g.ns = ns
			gens[name] = g
			ws = append(ws, name)
			rep.Claims += cl.Claims
			rep.Workspaces++
		}
		names = append(names, ws)
	}
	if fresh {
		log.Info("loading tenants", "workspaces", rep.Workspaces, "claims", rep.Claims)
		t0 := time.Now()
		defs, err := dropIndexes(ctx, pool)
		if err != nil {
			return err
		}
		l := &loader{pool: pool, aliases: map[[2]string]string{}}
		for ci, cl := range classes {
			for _, ws := range names[ci] {
				if _, err := l.workspace(ctx, ws, gens[ws], cl.Claims); err != nil {
					return err
				}
			}
		}
		if err := l.finish(ctx); err != nil {
			return err
		}
		if _, err := createIndexes(ctx, dbURL, defs, c.maxWorkMB, c.workers); err != nil {
			return err
		}
		if _, err := pool.Exec(ctx, `ANALYZE`); err != nil {
			return err
		}
		rep.LoadSeconds = time.Since(t0).Seconds()
		log.Info("loaded", "seconds", rep.LoadSeconds)
	}
	if err := pool.QueryRow(ctx, `SELECT pg_database_size(current_database()) / 1048576.0`).Scan(&rep.DatabaseMB); err != nil {
		return err
	}

	// Queries: per class, questions about random subjects of its workspaces in turn; the classes interleaved.
	rng := rand.New(rand.NewPCG(c.seed, 42))
	var qs []*tenantQuery
	for i := range c.queries {
		for ci, cl := range classes {
			ws := names[ci][i%len(names[ci])]
			g := gens[ws]
			_, subjects := countOnly(cl.Claims)
			s, j := rng.IntN(max(1, subjects-1)), rng.IntN(claimsPerSubject)
			qs = append(qs, &tenantQuery{class: ci, ws: ws, vec: g.vec(4, uint64(i), uint64(ci), g.claimVec(s, j, 0, nil), questionNoise)})
		}
	}
	// Ground truth with the workspace B-tree of the current layout in place (an exact scan of one workspace,
	// full precision: no index serves that order).
	t0 := time.Now()
	if err := setLayout(ctx, pool, "per-workspace", c.indexMin); err != nil {
		return err
	}
	rep.WorkspaceIndexSeconds = time.Since(t0).Seconds()
	log.Info("exact top 10 of every query", "queries", len(qs))
	if err := withConn(ctx, dbURL, func(conn *pgx.Conn) error {
		for _, q := range qs {
			rows, err := conn.Query(ctx, recallSQL("cv.embedding"), q.ws, agent, pgvector.NewVector(q.vec))
			if err != nil {
				return err
			}
			if q.truth, err = pgx.CollectRows(rows, pgx.RowTo[string]); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return err
	}

	for _, l := range []struct{ key, layout, name, settings string }{
		{"before", "store-wide", "store-wide HNSW index, plans cached as before", storeWideSettings},
		{"custom", "store-wide", "store-wide HNSW index, custom plans", customPlanSettings},
		{"per-workspace", "per-workspace", fmt.Sprintf("per workspace: exact below %s vectors, own HNSW index above, custom plans", human(c.indexMin)), searchSettings},
	} {
		if !c.layouts[l.key] {
			continue
		}
		log.Info("layout", "name", l.name)
		lr := layoutResult{Layout: l.name}
		t0 := time.Now()
		if err := setLayout(ctx, pool, l.layout, c.indexMin); err != nil {
			return err
		}
		lr.SetupSeconds = time.Since(t0).Seconds()
		if err := pool.QueryRow(ctx, `SELECT `+denseIndexMBSQL+`, (SELECT count(*) FROM pg_indexes WHERE tablename = 'claim_vectors' AND indexdef LIKE '%USING hnsw%')`).Scan(&lr.DenseMB, &lr.Indexes); err != nil {
			return err
		}
		lr.LoadBefore = loadavg()
		if err := withConn(ctx, dbURL, func(conn *pgx.Conn) error {
			return measureTenants(ctx, conn, l.settings, rep.EfSearch, classes, qs, &lr)
		}); err != nil {
			return err
		}
		lr.LoadAfter = loadavg()
		rep.Layouts = append(rep.Layouts, lr)
	}
	printTenants(os.Stdout, rep)
	if c.out != "" {
		if err := os.MkdirAll(dirOf(c.out), 0o755); err != nil {
			return err
		}
		b, _ := json.MarshalIndent(rep, "", "  ")
		if err := os.WriteFile(c.out, append(b, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Printf("\nJSON: %s\n", c.out)
	}
	return nil
}

// setLayout makes the dense indexes those of layout: "store-wide" (one HNSW index over all vectors, as created
// before issue 15, and no workspace B-tree on claim_vectors) or "per-workspace" (store.IndexWorkspaces).
func setLayout(ctx context.Context, pool *pgxpool.Pool, layout string, indexMin int) error {
	var stmts []string
	switch layout {
	case "store-wide":
		rows, err := pool.Query(ctx, `SELECT indexname FROM pg_indexes WHERE tablename = 'claim_vectors' AND indexname LIKE 'claim\_vectors\_ws\_%'`)
		if err != nil {
			return err
		}
		own, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return err
		}
		for _, n := range own {
			stmts = append(stmts, `DROP INDEX IF EXISTS `+pgx.Identifier{n}.Sanitize())
		}
		stmts = append(stmts, `DROP INDEX IF EXISTS claim_vectors_workspace_idx`,
			fmt.Sprintf(`CREATE INDEX IF NOT EXISTS claim_vectors_halfvec_hnsw_idx ON claim_vectors
				USING hnsw (%s halfvec_cosine_ops) WITH (m = 16, ef_construction = 64)`, store.DenseIndexExpr("", dim)))
	case "per-workspace":
		stmts = append(stmts, `CREATE INDEX IF NOT EXISTS claim_vectors_workspace_idx ON claim_vectors (workspace_id)`)
	}
	for _, s := range stmts {
		if _, err := pool.Exec(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", truncate(s, 80), err)
		}
	}
	if layout == "per-workspace" {
		if _, err := store.IndexWorkspaces(ctx, pool, indexMin); err != nil {
			return err
		}
	}
	_, err := pool.Exec(ctx, `ANALYZE claim_vectors`)
	return err
}

func withConn(ctx context.Context, dbURL string, f func(*pgx.Conn) error) error {
	conn, err := pgx.Connect(ctx, dbURL)
	if err != nil {
		return err
	}
	defer conn.Close(context.WithoutCancel(ctx))
	if err := pgxvec.RegisterTypes(ctx, conn); err != nil {
		return err
	}
	return f(conn)
}

// measureTenants runs every query twice on conn, as the service runs its dense query: in a read-only
// transaction after the settings, the statement prepared once and cached.
func measureTenants(ctx context.Context, conn *pgx.Conn, settings string, ef int, classes []tenantClass, qs []*tenantQuery, lr *layoutResult) error {
	// As the service does: a workspace with an HNSW index the statement can use is ordered by the indexed
	// expression, any other searched by its vectors' signs first (store.DenseBySignsSQL, 40 candidates, top 10).
	indexes, err := store.ReadDenseIndexes(ctx, conn)
	if err != nil {
		return err
	}
	indexedSQL := recallSQL(store.DenseIndexExpr("cv", dim))
	bySignsSQL := `WITH cand AS MATERIALIZED (` + store.DenseBySignsSQL(store.View{}) + `)
		SELECT id FROM cand ORDER BY dist, id LIMIT 10`
	first := make([][]time.Duration, len(classes))
	later := make([][]time.Duration, len(classes))
	hits := make([]int, len(classes))
	totals := make([]int, len(classes))
	for pass := range 2 {
		if pass == 1 {
			lr.Searches = len(qs)
		}
		for _, q := range qs {
			var ids []string
			var d time.Duration
			err := pgx.BeginTxFunc(ctx, conn, pgx.TxOptions{AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
				if _, err := tx.Exec(ctx, settings, strconv.Itoa(ef)); err != nil {
					return err
				}
				sql, args := bySignsSQL, []any{pgx.NamedArgs{"ws": q.ws, "agent": agent, "qvec": pgvector.NewVector(q.vec),
					"n": 40, "cut": store.SignsCutFactor * 40}}
				if indexes.Covers(q.ws) {
					sql, args = indexedSQL, []any{q.ws, agent, pgvector.NewVector(q.vec)}
				}
				t0 := time.Now()
				rows, err := tx.Query(ctx, sql, args...)
				if err != nil {
					return err
				}
				ids, err = pgx.CollectRows(rows, pgx.RowTo[string])
				d = time.Since(t0)
				return err
			})
			if err != nil {
				return err
			}
			if pass == 0 {
				first[q.class] = append(first[q.class], d)
				set := map[string]bool{}
				for _, id := range ids {
					set[id] = true
				}
				for _, id := range q.truth {
					totals[q.class]++
					if set[id] {
						hits[q.class]++
					}
				}
			} else {
				later[q.class] = append(later[q.class], d)
			}
		}
	}
	if err := conn.QueryRow(ctx, `SELECT coalesce(sum(generic_plans), 0), coalesce(sum(custom_plans), 0) FROM pg_prepared_statements
		WHERE statement LIKE '%FROM claim_vectors cv%' AND statement NOT LIKE '%pg_prepared_statements%'`).Scan(&lr.GenericPlans, &lr.CustomPlans); err != nil {
		return err
	}
	for ci, cl := range classes {
		lr.Classes = append(lr.Classes, classResult{tenantClass: cl,
			RecallAt10: math.Round(1000*float64(hits[ci])/float64(max(totals[ci], 1))) / 1000,
			First:      summarize(first[ci]), Later: summarize(later[ci])})
	}
	return nil
}

func printTenants(w io.Writer, r tenantsReport) {
	fmt.Fprintf(w, "\n### Many tenants: %s workspaces, %s claims (", human(r.Workspaces), human(r.Claims))
	for i, c := range r.Classes {
		if i > 0 {
			fmt.Fprint(w, ", ")
		}
		fmt.Fprintf(w, "%s × %s", human(c.Count), human(c.Claims))
	}
	fmt.Fprintf(w, "), database %s, loaded in %.0f s, per-workspace layout set up in %.0f s\n\n", mb(r.DatabaseMB), r.LoadSeconds, r.WorkspaceIndexSeconds)
	fmt.Fprintf(w, "Dense query of the service (40 candidates, top 10, ef_search %d, visibility and belief filters), one connection, %d queries per class interleaved; "+
		"recall@10 against an exact full-precision scan; \"after N\": the same queries again once the connection has run N searches.\n\n", r.EfSearch, r.Queries)
	fmt.Fprintln(w, "| layout | claims per workspace | workspaces | recall@10 | p50 | p99 | p50 / p99 after N | generic plans | HNSW indexes (MB, build) | load average before → after |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
	for _, l := range r.Layouts {
		for i, c := range l.Classes {
			name, gen, idx, load := "", "", "", ""
			if i == 0 {
				name = l.Layout
				gen = fmt.Sprintf("%d of %d", l.GenericPlans, l.GenericPlans+l.CustomPlans)
				idx = fmt.Sprintf("%d (%s, %.0f s)", l.Indexes, mb(l.DenseMB), l.SetupSeconds)
				load = l.LoadBefore + " → " + l.LoadAfter
			}
			fmt.Fprintf(w, "| %s | %s | %d | %.3f | %.2f ms | %.2f ms | %.2f / %.2f ms (N=%d) | %s | %s | %s |\n", name, human(c.Claims), c.Count,
				c.RecallAt10, c.First.P50, c.First.P99, c.Later.P50, c.Later.P99, l.Searches, gen, idx, load)
		}
	}
}
