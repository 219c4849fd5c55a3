package pgtest

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

func TestNewDBIsFreshAndHasVector(t *testing.T) {
	db := NewDB(t)
	ctx := t.Context()

	var current string
	if err := db.Pool.QueryRow(ctx, "SELECT current_database()").Scan(&current); err != nil {
		t.Fatal(err)
	}
	if current != db.Name {
		t.Fatalf("pool is on %q, want %q", current, db.Name)
	}

	var tables int
	if err := db.Pool.QueryRow(ctx, "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Fatalf("fresh database has %d tables in public", tables)
	}

	// The pool has pgvector's types registered, so vectors go in and come out as pgvector.Vector.
	if _, err := db.Pool.Exec(ctx, "CREATE TABLE v (id int PRIMARY KEY, e vector(3))"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Pool.Exec(ctx, "INSERT INTO v VALUES (1, $1)", pgvector.NewVector([]float32{1, 2, 3})); err != nil {
		t.Fatal(err)
	}
	var got pgvector.Vector
	var dist float64
	err := db.Pool.QueryRow(ctx, "SELECT e, e <=> '[1,2,4]' FROM v WHERE id = 1").Scan(&got, &dist)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Slice()) != "[1 2 3]" {
		t.Fatalf("vector round trip: got %v", got.Slice())
	}
	if dist < 0.0085 || dist > 0.0086 {
		t.Fatalf("cosine distance [1,2,3] to [1,2,4] = %v, want about 0.00854", dist)
	}
}

func TestDatabasesAreDistinctAndDroppedAfterTheTest(t *testing.T) {
	var names []string
	t.Run("inner", func(t *testing.T) {
		a := NewDB(t)
		b := URL(t)
		conn, err := pgx.Connect(t.Context(), b)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(context.Background())
		var bName string
		if err := conn.QueryRow(t.Context(), "SELECT current_database()").Scan(&bName); err != nil {
			t.Fatal(err)
		}
		if a.Name == bName {
			t.Fatalf("two databases share the name %q", a.Name)
		}
		names = append(names, a.Name, bName)
	})
	if len(names) != 2 {
		t.Skip("inner test did not create databases")
	}

	conn, err := pgx.Connect(t.Context(), AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var left int
	if err := conn.QueryRow(t.Context(), "SELECT count(*) FROM pg_database WHERE datname = ANY($1)", names).Scan(&left); err != nil {
		t.Fatal(err)
	}
	if left != 0 {
		t.Fatalf("%d of %v still exist after their test ended", left, names)
	}
}

func TestURLServesAService(t *testing.T) {
	t.Parallel()
	u := URL(t)
	if !strings.Contains(u, "/mneme_test_") {
		t.Fatalf("URL %q does not name a test database", u)
	}
	conn, err := pgx.Connect(t.Context(), u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var ext string
	if err := conn.QueryRow(t.Context(), "SELECT extversion FROM pg_extension WHERE extname = 'vector'").Scan(&ext); err != nil {
		t.Fatalf("vector extension missing: %v", err)
	}
}

func TestParallelTestsGetTheirOwnDatabases(t *testing.T) {
	for i := range 4 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			pool := New(t)
			if _, err := pool.Exec(t.Context(), "CREATE TABLE only_mine (id int)"); err != nil {
				t.Fatalf("each test has its own database, so this table cannot exist yet: %v", err)
			}
		})
	}
}

func TestDropStaleDropsOnlyOldTestDatabases(t *testing.T) {
	db := NewDB(t) // also proves a server is there
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, AdminURL())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())

	old := databaseName("stale", time.Now().Add(-staleAfter-time.Minute))
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{old}.Sanitize()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_, _ = conn.Exec(context.Background(), "DROP DATABASE IF EXISTS "+pgx.Identifier{old}.Sanitize())
	})

	dropped, err := dropStale(ctx, conn, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var sawOld bool
	for _, n := range dropped {
		if n == db.Name {
			t.Fatalf("dropped the live database %s", n)
		}
		sawOld = sawOld || n == old
	}
	if !sawOld {
		t.Fatalf("did not drop %s; dropped %v", old, dropped)
	}
}

func TestDatabaseName(t *testing.T) {
	valid := regexp.MustCompile(`^mneme_test_[0-9]+_[0-9a-f]{8}(_[a-z0-9_]*[a-z0-9])?$`)
	now := time.Unix(1_800_000_000, 0)
	tests := []struct {
		test string
		want string // expected suffix after the random part
	}{
		{"TestX", "_testx"},
		{"TestStore/Put_and_Get#01", "_teststore_put_and_get_01"},
		{"", ""},
		{"///", ""},
		{strings.Repeat("Abc/", 40), "_abc_abc_abc_abc_abc_abc_abc_abc_abc_abc"},
	}
	for _, tt := range tests {
		got := databaseName(tt.test, now)
		if len(got) > 63 {
			t.Errorf("databaseName(%q) = %q: %d bytes, over 63", tt.test, got, len(got))
		}
		if !valid.MatchString(got) {
			t.Errorf("databaseName(%q) = %q: not a plain lower-case identifier", tt.test, got)
		}
		if rest := got[len("mneme_test_1800000000_")+8:]; !strings.HasPrefix(tt.want, rest) || (len(tt.want) < 20 && rest != tt.want) {
			t.Errorf("databaseName(%q) = %q: suffix %q, want %q", tt.test, got, rest, tt.want)
		}
		ts, ok := createdAt(got)
		if !ok || !ts.Equal(now) {
			t.Errorf("createdAt(%q) = %v, %v; want %v", got, ts, ok, now)
		}
	}
	if a, b := databaseName("T", now), databaseName("T", now); a == b {
		t.Errorf("two names for the same test at the same second are equal: %s", a)
	}
	if _, ok := createdAt("mneme"); ok {
		t.Error("createdAt accepted a name this package did not make")
	}
}

func TestWithDatabase(t *testing.T) {
	tests := []struct{ in, want string }{
		{"postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable", "postgres://mneme@127.0.0.1:54329/db1?sslmode=disable"},
		{"postgresql://u:p%40ss@h/x", "postgresql://u:p%40ss@h/db1"},
		{"postgres://u@h:1", "postgres://u@h:1/db1"},
		{"host=h user=u dbname=x", "host=h user=u dbname=x dbname=db1"},
	}
	for _, tt := range tests {
		got, err := WithDatabase(tt.in, "db1")
		if err != nil || got != tt.want {
			t.Errorf("WithDatabase(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if got := Redact("postgres://u:secret@h/x"); strings.Contains(got, "secret") {
		t.Errorf("redact leaked the password: %s", got)
	}
}

// recordingTB stands in for a test so the skip and failure paths can be observed without ending this test.
type recordingTB struct {
	testing.TB
	mu      sync.Mutex
	skipped string
	fatal   string
}

func (r *recordingTB) Helper()               {}
func (r *recordingTB) Name() string          { return "TestFake" }
func (r *recordingTB) Logf(string, ...any)   {}
func (r *recordingTB) Cleanup(func())        {}
func (r *recordingTB) Errorf(string, ...any) {}
func (r *recordingTB) Skipf(format string, args ...any) {
	r.mu.Lock()
	r.skipped = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}
func (r *recordingTB) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.fatal = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}

func runFake(t *testing.T) *recordingTB {
	t.Helper()
	r := &recordingTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		New(r)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("New did not return within 30s for an unreachable server")
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r
}

func TestUnreachableServer(t *testing.T) {
	// Port 1 on loopback refuses connections at once.
	t.Setenv(EnvURL, "postgres://mneme:hunter2@127.0.0.1:1/mneme?sslmode=disable")

	t.Run("skips by default", func(t *testing.T) {
		t.Setenv(EnvRequire, "")
		r := runFake(t)
		if r.skipped == "" || r.fatal != "" {
			t.Fatalf("want a skip, got skip %q fatal %q", r.skipped, r.fatal)
		}
		for _, want := range []string{"scripts/pg.sh start", EnvURL, EnvRequire, "127.0.0.1:1"} {
			if !strings.Contains(r.skipped, want) {
				t.Errorf("skip message lacks %q: %s", want, r.skipped)
			}
		}
		if strings.Contains(r.skipped, "hunter2") {
			t.Errorf("skip message shows the password: %s", r.skipped)
		}
	})
	t.Run("fails when required", func(t *testing.T) {
		t.Setenv(EnvRequire, "1")
		r := runFake(t)
		if r.fatal == "" || r.skipped != "" {
			t.Fatalf("want a failure, got skip %q fatal %q", r.skipped, r.fatal)
		}
		if !strings.Contains(r.fatal, "scripts/pg.sh start") {
			t.Errorf("failure message does not say how to start a server: %s", r.fatal)
		}
	})
}
