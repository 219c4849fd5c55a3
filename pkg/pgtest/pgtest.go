// Package pgtest gives each test its own fresh PostgreSQL database with the pgvector extension, so tests run
// against a real server, in parallel, without seeing each other's rows.
//
// The server is the one named by MNEME_TEST_DATABASE_URL, or else the project-local cluster that
// `scripts/pg.sh start` runs (postgres://mneme@127.0.0.1:54329/mneme, port from MNEME_PG_PORT). The URL's role needs
// the CREATEDB privilege. When the server cannot be reached, or lacks pgvector, the test is skipped with a message
// saying how to start one — unless MNEME_REQUIRE_DB=1 (set by `make test`), in which case it fails.
//
// Each database is dropped (WITH (FORCE)) when its test ends. Application migrations are not applied: the caller
// applies them, exactly as the service does at start-up.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	pgxvec "github.com/pgvector/pgvector-go/pgx"
)

const (
	// EnvURL names the environment variable holding the URL of an admin database on the server to use.
	EnvURL = "MNEME_TEST_DATABASE_URL"
	// EnvRequire names the environment variable that, set to "1", turns "no database" from a skip into a failure.
	EnvRequire = "MNEME_REQUIRE_DB"
	// EnvPort names the environment variable holding the local cluster's port (as scripts/pg.sh reads it).
	EnvPort = "MNEME_PG_PORT"
	// DefaultPort is the local cluster's port when EnvPort is unset.
	DefaultPort = 54329

	// namePrefix starts every database this package creates; the creation time follows it, so stale ones
	// left by killed test processes can be recognised and dropped.
	namePrefix = "mneme_test_"
	// staleAfter is how old a leftover test database must be before another test run drops it. It is far longer
	// than any test binary runs, so a database in use is never dropped.
	staleAfter = 6 * time.Hour

	connectTimeout = 5 * time.Second
	cleanupTimeout = 30 * time.Second
)

// DB is one fresh database created for a test.
type DB struct {
	// Name is the database name, unique per test.
	Name string
	// URL connects to the database with the same role and options as the admin URL.
	URL string
	// Pool is a pgx pool on the database with pgvector's types registered; it is closed when the test ends.
	// It is nil for databases made by URL.
	Pool *pgxpool.Pool
}

// New creates a fresh database with pgvector for the test and returns a pool connected to it.
func New(tb testing.TB) *pgxpool.Pool {
	tb.Helper()
	return create(tb, true).Pool
}

// URL creates a fresh database with pgvector for the test and returns its URL, for tests that start a service
// (or open their own pool) on it.
func URL(tb testing.TB) string {
	tb.Helper()
	return create(tb, false).URL
}

// NewDB creates a fresh database with pgvector for the test and returns its name, URL and a pool.
func NewDB(tb testing.TB) *DB {
	tb.Helper()
	return create(tb, true)
}

// AdminURL returns the URL of the server's admin database that tests create their databases from:
// MNEME_TEST_DATABASE_URL, or else the project-local cluster of scripts/pg.sh.
func AdminURL() string {
	if u := os.Getenv(EnvURL); u != "" {
		return u
	}
	port := strconv.Itoa(DefaultPort)
	if p := os.Getenv(EnvPort); p != "" {
		port = p
	}
	return "postgres://mneme@127.0.0.1:" + port + "/mneme?sslmode=disable"
}

var (
	mu sync.Mutex
	// unreachable remembers, per admin URL, why the server could not be used, so a package with many tests
	// waits for a connection timeout once, not once per test.
	unreachable = map[string]error{}
	// swept records the admin URLs whose stale databases this process has already dropped.
	swept = map[string]bool{}
)

func create(tb testing.TB, withPool bool) *DB {
	tb.Helper()
	admin := AdminURL()

	mu.Lock()
	cached := unreachable[admin]
	mu.Unlock()
	if cached != nil {
		unavailable(tb, admin, cached)
		return nil
	}

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	conn, err := connect(ctx, admin)
	if err != nil {
		mu.Lock()
		unreachable[admin] = err
		mu.Unlock()
		unavailable(tb, admin, err)
		return nil
	}
	defer conn.Close(context.Background())

	mu.Lock()
	sweep := !swept[admin]
	swept[admin] = true
	mu.Unlock()
	if sweep {
		if dropped, err := dropStale(ctx, conn, time.Now()); err != nil {
			tb.Logf("pgtest: dropping stale test databases: %v", err)
		} else if len(dropped) > 0 {
			tb.Logf("pgtest: dropped %d stale test databases", len(dropped))
		}
	}

	name := databaseName(tb.Name(), time.Now())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE template0"); err != nil {
		fail(tb, "pgtest: create database %s on %s: %v (the role needs CREATEDB)", name, Redact(admin), err)
		return nil
	}
	tb.Cleanup(func() { drop(tb, admin, name) })

	dbURL, err := WithDatabase(admin, name)
	if err != nil {
		tb.Fatalf("pgtest: %v", err)
		return nil
	}
	dbConn, err := connect(ctx, dbURL)
	if err != nil {
		fail(tb, "pgtest: connect to new database %s: %v", name, err)
		return nil
	}
	_, err = dbConn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector")
	dbConn.Close(context.Background())
	if err != nil {
		unavailable(tb, admin, fmt.Errorf("pgvector is not installed on this server (run scripts/deps.sh): %w", err))
		return nil
	}

	db := &DB{Name: name, URL: dbURL}
	if withPool {
		db.Pool, err = newPool(ctx, dbURL)
		if err != nil {
			tb.Fatalf("pgtest: pool on %s: %v", name, err)
			return nil
		}
		// Registered after drop, so it runs before it: the pool's connections close before the database goes.
		tb.Cleanup(db.Pool.Close)
	}
	return db
}

func connect(ctx context.Context, connURL string) (*pgx.Conn, error) {
	cfg, err := pgx.ParseConfig(connURL)
	if err != nil {
		return nil, err
	}
	if cfg.ConnectTimeout == 0 || cfg.ConnectTimeout > connectTimeout {
		cfg.ConnectTimeout = connectTimeout
	}
	return pgx.ConnectConfig(ctx, cfg)
}

func newPool(ctx context.Context, dbURL string) (*pgxpool.Pool, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, err
	}
	if cfg.ConnConfig.ConnectTimeout == 0 || cfg.ConnConfig.ConnectTimeout > connectTimeout {
		cfg.ConnConfig.ConnectTimeout = connectTimeout
	}
	cfg.AfterConnect = pgxvec.RegisterTypes
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	return pool, nil
}

// drop removes a test's database, ending any session still connected to it.
func drop(tb testing.TB, admin, name string) {
	// The test's own context is already cancelled when cleanups run.
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	if err := DropDatabase(ctx, admin, name); err != nil {
		tb.Errorf("pgtest: drop database %s: %v", name, err)
	}
}

// dropStale drops databases this package created more than staleAfter before now, left behind by test
// processes that were killed before their cleanups ran. It returns the names it dropped.
func dropStale(ctx context.Context, conn *pgx.Conn, now time.Time) ([]string, error) {
	return dropStaleWith(ctx, conn, namePrefix, staleAfter, now)
}

func dropStaleWith(ctx context.Context, conn *pgx.Conn, prefix string, maxAge time.Duration, now time.Time) ([]string, error) {
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1)", prefix)
	if err != nil {
		return nil, err
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	var dropped []string
	for _, n := range names {
		created, ok := createdAtWith(prefix, n)
		if !ok || now.Sub(created) < maxAge {
			continue
		}
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{n}.Sanitize()+" WITH (FORCE)"); err != nil {
			return dropped, err
		}
		dropped = append(dropped, n)
	}
	return dropped, nil
}

// databaseName builds a unique, valid database name: prefix, creation time, random part, then as much of the
// test's name as fits in Postgres's 63-byte identifier limit (so a leftover database says which test made it).
func databaseName(testName string, now time.Time) string {
	return ScratchName(namePrefix, testName, now)
}

// ScratchName builds a unique, valid database name: prefix, creation time (so DropStale can tell its age), a
// random part, then as much of label (lower-cased, runs of other characters as one "_") as fits in Postgres's
// 63-byte identifier limit.
func ScratchName(prefix, label string, now time.Time) string {
	var rnd [4]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	name := prefix + strconv.FormatInt(now.Unix(), 10) + "_" + hex.EncodeToString(rnd[:])
	var b strings.Builder
	for _, r := range strings.ToLower(label) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else if s := b.String(); s != "" && !strings.HasSuffix(s, "_") {
			b.WriteByte('_')
		}
	}
	if suffix := strings.TrimSuffix(b.String(), "_"); suffix != "" {
		name += "_" + suffix
	}
	if len(name) > 63 {
		name = strings.TrimSuffix(name[:63], "_")
	}
	return name
}

// createdAt reads the creation time databaseName put into a name.
func createdAt(name string) (time.Time, bool) { return createdAtWith(namePrefix, name) }

func createdAtWith(prefix, name string) (time.Time, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok {
		return time.Time{}, false
	}
	ts, _, _ := strings.Cut(rest, "_")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}

// WithDatabase returns connURL pointed at database name. It accepts both URL and keyword/value connection strings.
func WithDatabase(connURL, name string) (string, error) {
	if strings.HasPrefix(connURL, "postgres://") || strings.HasPrefix(connURL, "postgresql://") {
		u, err := url.Parse(connURL)
		if err != nil {
			return "", fmt.Errorf("%s is not a valid URL: %w", Redact(connURL), err)
		}
		u.Path = "/" + name
		u.RawPath = ""
		return u.String(), nil
	}
	// In a keyword/value string the last occurrence of a keyword wins.
	return connURL + " dbname=" + name, nil
}

// Redact returns a connection string without its password, for messages.
func Redact(connURL string) string {
	u, err := url.Parse(connURL)
	if err != nil || u.Scheme == "" {
		return "(keyword/value connection string)"
	}
	return u.Redacted()
}

func required() bool { return os.Getenv(EnvRequire) == "1" }

// unavailable ends the test because the environment has no usable server: a skip, or a failure when required.
func unavailable(tb testing.TB, admin string, err error) {
	tb.Helper()
	how := "start the local cluster with `scripts/pg.sh start` (after `scripts/deps.sh`), or set " + EnvURL
	fail(tb, "pgtest: no usable PostgreSQL at %s: %v; %s", Redact(admin), err, how)
}

func fail(tb testing.TB, format string, args ...any) {
	tb.Helper()
	if required() {
		tb.Fatalf(format, args...)
		return
	}
	tb.Skipf(format+" (skipping; set "+EnvRequire+"=1 to fail instead)", args...)
}
