package store_test

import (
	"context"
	"errors"
	"fmt"
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
func insertVectors(t *testing.T, pool *pgxpool.Pool, n int) {
	t.Helper()
	ctx := context.Background()
	for i := range n {
		_, err := pool.Exec(ctx, `WITH c AS (
			INSERT INTO claims (id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key, text,
				functional, scope, owner_agent, confidence, valid_from, provenance, partition, stream_seq, recorded_at)
			VALUES (gen_random_uuid(), 'ws', 's', 's', 'p', 'p', 'p', 'o', 'o', 's p o', true, 'shared', 'a', 1, now(), '{}', 0, $1, now())
			RETURNING id)
			INSERT INTO claim_vectors (claim_id, workspace_id, model, dim, embedding)
			SELECT id, 'ws', 'm', $2, $3::vector FROM c`, i, dim, vec(i))
		if err != nil {
			t.Fatal(err)
		}
	}
}

// usesIndex reports whether a nearest-neighbour query ordered by DenseIndexExpr scans the dense index.
func usesIndex(t *testing.T, pool *pgxpool.Pool) bool {
	t.Helper()
	ctx := context.Background()
	var plan []string
	err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
			return err
		}
		expr := store.DenseIndexExpr("cv", dim)
		rows, err := tx.Query(ctx, `EXPLAIN SELECT cv.claim_id, `+expr+` <=> $1::vector FROM claim_vectors cv
			ORDER BY `+expr+` <=> $1::vector LIMIT 5`, vec(3))
		if err != nil {
			return err
		}
		plan, err = pgx.CollectRows(rows, pgx.RowTo[string])
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Contains(strings.Join(plan, "\n"), store.DenseIndexName)
}

func TestPinEmbeddingCreatesHalfPrecisionIndex(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	// Concurrent first pins: one creates the settings and the index, the others see them.
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
	defs := indexDefs(t, pool)
	if len(defs) != 1 || !strings.Contains(defs[store.DenseIndexName], fmt.Sprintf("halfvec(%d)", dim)) ||
		!strings.Contains(defs[store.DenseIndexName], "halfvec_cosine_ops") {
		t.Fatalf("HNSW indexes = %v, want only %s over halfvec(%d) with cosine ops", defs, store.DenseIndexName, dim)
	}
	insertVectors(t, pool, 50)
	if !usesIndex(t, pool) {
		t.Fatal("a query ordered by DenseIndexExpr does not use the dense index")
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

// A store pinned by an earlier version (single-precision index) gets the current index on the next pin, with
// its vectors, and loses the old one.
func TestPinEmbeddingReplacesSinglePrecisionIndex(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	_, err := pool.Exec(ctx, fmt.Sprintf(`INSERT INTO store_settings (key, value) VALUES ('%s', 'm'), ('%s', '%d');
		CREATE INDEX claim_vectors_hnsw_idx ON claim_vectors
		USING hnsw ((embedding::vector(%d)) vector_cosine_ops) WITH (m = 16, ef_construction = 64)`,
		store.SettingEmbeddingModel, store.SettingEmbeddingDim, dim, dim))
	if err != nil {
		t.Fatal(err)
	}
	insertVectors(t, pool, 50)
	if err := store.PinEmbedding(ctx, pool, "m", dim); err != nil {
		t.Fatal(err)
	}
	defs := indexDefs(t, pool)
	if _, ok := defs[store.DenseIndexName]; !ok || len(defs) != 1 {
		t.Fatalf("HNSW indexes after the pin = %v, want only %s", defs, store.DenseIndexName)
	}
	if !usesIndex(t, pool) {
		t.Fatal("a query ordered by DenseIndexExpr does not use the rebuilt index")
	}
	// The rebuilt index holds the vectors inserted before it.
	var n int
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SET LOCAL enable_seqscan = off`); err != nil {
			return err
		}
		expr := store.DenseIndexExpr("", dim)
		return tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT claim_id FROM claim_vectors ORDER BY `+expr+` <=> $1::vector LIMIT 20) x`,
			vec(1)).Scan(&n)
	})
	if err != nil || n != 20 {
		t.Fatalf("index scan returned %d rows (%v), want 20", n, err)
	}
	// Idempotent.
	if err := store.PinEmbedding(ctx, pool, "m", dim); err != nil {
		t.Fatal(err)
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
