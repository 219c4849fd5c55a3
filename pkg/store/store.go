// Package store owns Mneme's Postgres projection: connecting, the schema and its versioned migrations (embedded
// SQL applied at start-up and by `mneme migrate`), store-wide settings such as the pinned embedding dimension,
// what is written to it and how it is read.
//
//   - Writing (write.go): one typed row per table beside its column list, Changes, Write and Delete. Only the
//     reconciler writes the projection, in the transaction of its partition offset.
//   - Reading (view.go, slots.go, order.go): View (what one reader may see: visibility and bitemporal
//     coordinates), Belief (one claim with the version a view selects), GroupSlots (each slot's current value)
//     and the one definition of belief order (CompareBelief) and of the tier rule (SharedOverridesPrivate).
//     Every reader — the query service, the reconciler's tests, the benchmark harness, the admin commands —
//     reads claims, versions and decisions through them; inspect.go and admin.go hold the inspection and
//     whole-workspace reads, related.go the query service's reads around a search, digest.go the digest.
//   - The reconciler's side (segment.go, offsets.go, erasure.go, members.go): what one segment's decisions are
//     made from (every tier of its subjects), the partition offsets, fence and subject guards, the erasure
//     records and what an erasure covers, and the membership and partition locks of its replicas.
package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// DefaultMaxConns is the pool size when the URL sets no pool_max_conns.
const DefaultMaxConns = 32

// ErrDimensionMismatch is returned when a vector's model or dimension differs from the store's pinned one.
var ErrDimensionMismatch = errors.New("store: embedding dimension does not match the store")

// Option adjusts the pool configuration Connect builds.
type Option func(*pgxpool.Config)

// WithQueryTracer traces every statement of the pool's connections with t (an OpenTelemetry pgx tracer, say).
func WithQueryTracer(t pgx.QueryTracer) Option {
	return func(c *pgxpool.Config) { c.ConnConfig.Tracer = t }
}

// Connect opens a pool to url, registers pgvector types on every connection and checks the server answers
// within timeout, so a wrong URL fails fast with a clear message instead of hanging.
func Connect(ctx context.Context, url string, timeout time.Duration, opts ...Option) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("store: MNEME_DATABASE_URL is not a valid Postgres URL: %w", err)
	}
	cfg.AfterConnect = func(ctx context.Context, c *pgx.Conn) error {
		// The vector type exists only after the first migration; tolerate its absence so migrate can run.
		if err := pgxvec.RegisterTypes(ctx, c); err != nil && !strings.Contains(err.Error(), "vector") {
			return err
		}
		return nil
	}
	// pgx defaults to max(4, CPUs) connections; every reconciler partition holds one for the length of its
	// batch and the query service needs its own, so a larger pool is the better default.
	if !strings.Contains(url, "pool_max_conns") {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > timeout {
		cfg.ConnConfig.ConnectTimeout = timeout
	}
	for _, o := range opts {
		o(cfg)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("store: open pool: %w", err)
	}
	pctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := pool.Ping(pctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("store: cannot reach Postgres at %s within %s: %w (is it running? `make up` starts the local cluster)", redact(cfg), timeout, err)
	}
	return pool, nil
}

func redact(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("%s:%d/%s", c.Host, c.Port, c.Database)
}

type migration struct {
	version int
	name    string
	sql     string
}

func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFS, "migrations")
	if err != nil {
		return nil, err
	}
	var out []migration
	for _, e := range entries {
		num, _, ok := strings.Cut(e.Name(), "_")
		if !ok {
			return nil, fmt.Errorf("store: migration %q lacks a NNNN_ prefix", e.Name())
		}
		v, err := strconv.Atoi(num)
		if err != nil {
			return nil, fmt.Errorf("store: migration %q: %w", e.Name(), err)
		}
		b, err := migrationFS.ReadFile("migrations/" + e.Name())
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// migrateLockID is the advisory lock serializing concurrent migrators (every replica migrates at start-up).
const migrateLockID = 0x6d6e656d65 // "mneme"

// Migrate applies every migration not yet applied, each in its own transaction, under an advisory lock so
// replicas starting together do not race. It returns the versions it applied.
func Migrate(ctx context.Context, pool *pgxpool.Pool) ([]int, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("store: migrate: %w", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrateLockID); err != nil {
		return nil, fmt.Errorf("store: migrate lock: %w", err)
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, migrateLockID) }()
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return nil, fmt.Errorf("store: create schema_migrations: %w", err)
	}
	all, err := migrations()
	if err != nil {
		return nil, err
	}
	var applied []int
	for _, m := range all {
		var done bool
		if err := conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, m.version).Scan(&done); err != nil {
			return applied, fmt.Errorf("store: read schema_migrations: %w", err)
		}
		if done {
			continue
		}
		err := pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name) VALUES ($1, $2)`, m.version, m.name)
			return err
		})
		if err != nil {
			if strings.Contains(err.Error(), `extension "vector" is not available`) {
				return applied, fmt.Errorf("store: migration %s: pgvector is not installed in this Postgres (run `make deps`): %w", m.name, err)
			}
			return applied, fmt.Errorf("store: migration %s: %w", m.name, err)
		}
		applied = append(applied, m.version)
	}
	// Re-register types now that the vector extension exists (new connections pick it up in AfterConnect).
	pool.Reset()
	return applied, nil
}

// Setting keys.
const (
	SettingEmbeddingModel = "embedding_model"
	SettingEmbeddingDim   = "embedding_dim"
)

// PinEmbedding records the store's embedding model and dimension on first use; later calls succeed only for the
// same model and dimension. Safe to call concurrently. It creates no index: dense search is exact within a
// workspace until IndexWorkspaces gives the workspace an HNSW index of its own (dense.go).
func PinEmbedding(ctx context.Context, pool *pgxpool.Pool, model string, dim int) error {
	if dim <= 0 || dim > 16000 {
		return fmt.Errorf("store: embedding dimension %d out of range (1..16000)", dim)
	}
	return pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrateLockID+1); err != nil {
			return err
		}
		var gotModel, gotDim *string
		if err := tx.QueryRow(ctx, `SELECT
			(SELECT value FROM store_settings WHERE key = $1),
			(SELECT value FROM store_settings WHERE key = $2)`,
			SettingEmbeddingModel, SettingEmbeddingDim).Scan(&gotModel, &gotDim); err != nil {
			return fmt.Errorf("store: read settings: %w", err)
		}
		if gotDim != nil {
			if *gotDim != strconv.Itoa(dim) || gotModel == nil || *gotModel != model {
				return fmt.Errorf("%w: store holds %s vectors of dimension %s, got %s of dimension %d (use the same embedding model, or a fresh database)",
					ErrDimensionMismatch, deref(gotModel), *gotDim, model, dim)
			}
			return nil
		}
		_, err := tx.Exec(ctx, `INSERT INTO store_settings (key, value) VALUES ($1, $2), ($3, $4)`,
			SettingEmbeddingModel, model, SettingEmbeddingDim, strconv.Itoa(dim))
		return err
	})
}

// EmbeddingDim returns the pinned embedding model and dimension, or ("", 0) when none is pinned yet.
func EmbeddingDim(ctx context.Context, pool *pgxpool.Pool) (string, int, error) {
	var model, dim *string
	err := pool.QueryRow(ctx, `SELECT
		(SELECT value FROM store_settings WHERE key = $1),
		(SELECT value FROM store_settings WHERE key = $2)`, SettingEmbeddingModel, SettingEmbeddingDim).Scan(&model, &dim)
	if err != nil {
		return "", 0, err
	}
	if model == nil || dim == nil {
		return "", 0, nil
	}
	d, err := strconv.Atoi(*dim)
	return *model, d, err
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
