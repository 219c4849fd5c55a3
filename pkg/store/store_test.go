package store_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
)

const dim = 8

func migrated(t *testing.T) *pgxpool.Pool {
	t.Helper()
	db := pgtest.NewDB(t)
	ctx := context.Background()
	pool, err := store.Connect(ctx, db.URL, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	if _, err := store.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	return pool
}

// indexDefs returns the definitions of claim_vectors' HNSW indexes by name.
func indexDefs(t *testing.T, pool *pgxpool.Pool) map[string]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT indexname, indexdef FROM pg_indexes
		WHERE tablename = 'claim_vectors' AND indexdef LIKE '%USING hnsw%'`)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for rows.Next() {
		var n, d string
		if err := rows.Scan(&n, &d); err != nil {
			t.Fatal(err)
		}
		out[n] = d
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func vec(i int) string {
	parts := make([]string, dim)
	for j := range parts {
		parts[j] = fmt.Sprint(float64((i*7+j*3)%11) - 5)
	}
	return "[" + strings.Join(parts, ",") + "]"
}

// insertVectors adds n claims with vectors to workspace ws.
func insertVectors(t *testing.T, pool *pgxpool.Pool, ws string, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		_, err := pool.Exec(ctx, `WITH c AS (
			INSERT INTO claims (id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key, text,
				functional, scope, owner_agent, confidence, valid_from, provenance, partition, stream_seq, recorded_at)
			VALUES (gen_random_uuid(), $4, 's', 's', 'p', 'p', 'p', 'o', 'o', 's p o', true, 'shared', 'a', 1, now(), '{}', 0, $1, now())
			RETURNING id)
			INSERT INTO claim_vectors (claim_id, workspace_id, model, dim, embedding)
			SELECT id, $4, 'm', $2, $3::vector FROM c`, i, dim, vec(i), ws)
		if err != nil {
			t.Fatal(err)
		}
	}
}

// planOf returns the lines of EXPLAIN sql, planned in a transaction after settings (SET LOCAL statements). The
// simple protocol writes the arguments into the statement as literals, so the plan is made for their values.
func planOf(t *testing.T, pool *pgxpool.Pool, settings, sql string, args ...any) []string {
	t.Helper()
	ctx := context.Background()
	var plan []string
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, settings); err != nil {
			return err
		}
		rows, err := tx.Query(ctx, `EXPLAIN `+sql, append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...)
		if err != nil {
			return err
		}
		plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// denseIndexOf returns the HNSW index a nearest-neighbour query of workspace ws ordered by DenseIndexExpr scans,
// planned for that workspace, or "" when it scans none. Sequential and bitmap scans are off: at a test's few
// rows they would win on cost, and the question is which index can serve the workspace at all.
func denseIndexOf(t *testing.T, pool *pgxpool.Pool, ws string) string {
	t.Helper()
	expr := store.DenseIndexExpr("cv", dim)
	plan := planOf(t, pool, `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off`,
		`SELECT cv.claim_id, `+expr+` <=> $1::vector FROM claim_vectors cv
			WHERE cv.workspace_id = $2 ORDER BY `+expr+` <=> $1::vector LIMIT 5`, vec(3), ws)
	for _, l := range plan {
		if _, rest, ok := strings.Cut(l, "Index Scan using "); ok {
			name, _, _ := strings.Cut(rest, " ")
			if strings.Contains(name, "hnsw") {
				return name
			}
		}
	}
	return ""
}

func TestPinEmbedding(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	// Concurrent first pins: one records the settings, the others see them.
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() { errs[i] = store.PinEmbedding(ctx, pool, "m", dim) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	// Dense search starts exact in every workspace: no HNSW index until a workspace is large.
	if defs := indexDefs(t, pool); len(defs) != 0 {
		t.Fatalf("HNSW indexes after the pin = %v, want none", defs)
	}
	model, d, err := store.EmbeddingDim(ctx, pool)
	if err != nil || model != "m" || d != dim {
		t.Fatalf("EmbeddingDim = %q, %d, %v", model, d, err)
	}
	if err := store.PinEmbedding(ctx, pool, "m", dim+1); !errors.Is(err, store.ErrDimensionMismatch) {
		t.Fatalf("pin of another dimension: err = %v, want ErrDimensionMismatch", err)
	}
	if err := store.PinEmbedding(ctx, pool, "other", dim); !errors.Is(err, store.ErrDimensionMismatch) {
		t.Fatalf("pin of another model: err = %v, want ErrDimensionMismatch", err)
	}
}

// A workspace with at least the threshold's vectors gets a half-precision HNSW index of its own, holding the
// vectors written before it, which its searches use and no other workspace's can; smaller workspaces get none;
// the store-wide index of an earlier version goes once the large workspaces have theirs.
func TestIndexWorkspaces(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	if rep, err := store.IndexWorkspaces(ctx, pool, 20); err != nil || len(rep.Indexed) != 0 {
		t.Fatalf("before any pin: %+v, %v; want nothing indexed", rep, err)
	}
	if err := store.PinEmbedding(ctx, pool, "m", dim); err != nil {
		t.Fatal(err)
	}
	// An id that must be quoted to appear in the index predicate.
	const big, quoted, small = "big", "o'brien; drop", "small"
	covered := func(want map[string]bool) {
		t.Helper()
		d, err := store.ReadDenseIndexes(ctx, pool)
		if err != nil {
			t.Fatal(err)
		}
		for _, ws := range []string{big, quoted, small} {
			if d.Covers(ws) != want[ws] {
				t.Errorf("ReadDenseIndexes: Covers(%q) = %v, want %v", ws, d.Covers(ws), want[ws])
			}
		}
	}
	covered(map[string]bool{})
	// The store-wide index an earlier version created at its pin serves every workspace.
	if _, err := pool.Exec(ctx, fmt.Sprintf(`CREATE INDEX claim_vectors_halfvec_hnsw_idx ON claim_vectors
		USING hnsw ((embedding::halfvec(%d)) halfvec_cosine_ops)`, dim)); err != nil {
		t.Fatal(err)
	}
	covered(map[string]bool{big: true, quoted: true, small: true})
	insertVectors(t, pool, big, 30)
	insertVectors(t, pool, quoted, 25)
	insertVectors(t, pool, small, 19)
	rep, err := store.IndexWorkspaces(ctx, pool, 20)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Indexed, "|") != big+"|"+quoted || !rep.DroppedStoreWide {
		t.Fatalf("IndexWorkspaces = %+v, want %q and %q indexed (largest first) and the store-wide index dropped", rep, big, quoted)
	}
	covered(map[string]bool{big: true, quoted: true})
	defs := indexDefs(t, pool)
	if len(defs) != 2 {
		t.Fatalf("HNSW indexes = %v, want one per large workspace", defs)
	}
	for _, ws := range []string{big, quoted} {
		def := defs[store.WorkspaceIndexName(ws)]
		if !strings.Contains(def, fmt.Sprintf("halfvec(%d)", dim)) || !strings.Contains(def, "halfvec_cosine_ops") {
			t.Errorf("index of %q = %q, want one over halfvec(%d) with cosine ops", ws, def, dim)
		}
		if got := denseIndexOf(t, pool, ws); got != store.WorkspaceIndexName(ws) {
			t.Errorf("a search of %q scans %q, want its own index %s", ws, got, store.WorkspaceIndexName(ws))
		}
	}
	if got := denseIndexOf(t, pool, small); got != "" {
		t.Errorf("a search of the small workspace scans %s, want an exact scan", got)
	}
	// The index holds the vectors written before it: all 30 of the workspace, none of another.
	var n int
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_sort = off`); err != nil {
			return err
		}
		expr := store.DenseIndexExpr("", dim)
		return tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT claim_id FROM claim_vectors WHERE workspace_id = 'big'
			ORDER BY `+expr+` <=> $1::vector LIMIT 100) x`, vec(1)).Scan(&n)
	})
	if err != nil || n != 30 {
		t.Fatalf("index scan of %q returned %d rows (%v), want its 30", big, n, err)
	}
	// Idempotent; a workspace that grows past the threshold gets its index on the next run.
	insertVectors(t, pool, small, 1)
	rep, err = store.IndexWorkspaces(ctx, pool, 20)
	if err != nil || strings.Join(rep.Indexed, "|") != small || rep.DroppedStoreWide {
		t.Fatalf("second IndexWorkspaces = %+v, %v; want only %q indexed", rep, err, small)
	}
	covered(map[string]bool{big: true, quoted: true, small: true})
}

// The check of grown workspaces indexes those of the given workspaces that reached the threshold and have no
// valid index, and leaves the store-wide index to the full pass.
func TestIndexGrownWorkspaces(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	if err := store.PinEmbedding(ctx, pool, "m", dim); err != nil {
		t.Fatal(err)
	}
	if _, err := pool.Exec(ctx, fmt.Sprintf(`CREATE INDEX claim_vectors_halfvec_hnsw_idx ON claim_vectors
		USING hnsw ((embedding::halfvec(%d)) halfvec_cosine_ops)`, dim)); err != nil {
		t.Fatal(err)
	}
	const grown, unnamed, small = "grown", "large but not named", "small"
	insertVectors(t, pool, grown, 20)
	insertVectors(t, pool, unnamed, 25)
	insertVectors(t, pool, small, 19)
	rep, err := store.IndexGrownWorkspaces(ctx, pool, 20, []string{small, grown, "absent"})
	if err != nil || strings.Join(rep.Indexed, "|") != grown || rep.DroppedStoreWide || rep.Busy {
		t.Fatalf("IndexGrownWorkspaces = %+v, %v; want only %q indexed and the store-wide index kept", rep, err, grown)
	}
	defs := indexDefs(t, pool)
	if _, ok := defs["claim_vectors_halfvec_hnsw_idx"]; !ok || len(defs) != 2 {
		t.Fatalf("HNSW indexes = %v, want the store-wide one and %q's", defs, grown)
	}
	// Already indexed: nothing to build; nothing named: nothing to do.
	if rep, err := store.IndexGrownWorkspaces(ctx, pool, 20, []string{grown}); err != nil || len(rep.Indexed) != 0 {
		t.Fatalf("IndexGrownWorkspaces again = %+v, %v; want nothing built", rep, err)
	}
	if rep, err := store.IndexGrownWorkspaces(ctx, pool, 20, nil); err != nil || len(rep.Indexed) != 0 {
		t.Fatalf("IndexGrownWorkspaces(nil) = %+v, %v; want nothing", rep, err)
	}
	// While another replica builds (it holds the lock), the check builds nothing and says so; afterwards it does.
	insertVectors(t, pool, small, 1)
	other, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	if _, err := other.Exec(ctx, `SELECT pg_advisory_lock($1)`, store.IndexLockID); err != nil {
		t.Fatal(err)
	}
	if rep, err := store.IndexGrownWorkspaces(ctx, pool, 20, []string{small}); err != nil || !rep.Busy || len(rep.Indexed) != 0 {
		t.Fatalf("IndexGrownWorkspaces while another builds = %+v, %v; want Busy and nothing built", rep, err)
	}
	if _, err := other.Exec(ctx, `SELECT pg_advisory_unlock($1)`, store.IndexLockID); err != nil {
		t.Fatal(err)
	}
	if rep, err := store.IndexGrownWorkspaces(ctx, pool, 20, []string{small}); err != nil || strings.Join(rep.Indexed, "|") != small {
		t.Fatalf("IndexGrownWorkspaces after the other build = %+v, %v; want %q indexed", rep, err, small)
	}
}

func TestDenseIndexExpr(t *testing.T) {
	for _, c := range []struct {
		alias string
		want  string
	}{{"cv", "(cv.embedding::halfvec(512))"}, {"", "(embedding::halfvec(512))"}} {
		if got := store.DenseIndexExpr(c.alias, 512); got != c.want {
			t.Errorf("DenseIndexExpr(%q, 512) = %q, want %q", c.alias, got, c.want)
		}
	}
}

// Searches read the full-text index while ingest writes it: the migrated index keeps no pending list (a
// search would scan it whole, unsorted, on every query until a vacuum merged it).
func TestFullTextIndexKeepsNoPendingList(t *testing.T) {
	pool := migrated(t)
	var opts []string
	if err := pool.QueryRow(context.Background(), `SELECT coalesce(reloptions, '{}') FROM pg_class WHERE relname = 'claims_tsv_idx'`).Scan(&opts); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(opts, "fastupdate=off") {
		t.Errorf("claims_tsv_idx options %v, want fastupdate=off", opts)
	}
}
