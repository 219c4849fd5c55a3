package pgtest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// TestScratchDatabases: outside a test's lifetime a tool creates a database with pgvector under its own
// prefix, DropStale drops only that prefix's databases older than the age given, and DropDatabase removes one.
func TestScratchDatabases(t *testing.T) {
	NewDB(t) // skips (or fails under MNEME_REQUIRE_DB) without a server
	ctx := t.Context()
	admin := AdminURL()
	const prefix = "mneme_scratchtest_"
	fresh := ScratchName(prefix, "fresh", time.Now())
	old := ScratchName(prefix, "old", time.Now().Add(-2*time.Hour))
	for _, n := range []string{fresh, old} {
		t.Cleanup(func() { _ = DropDatabase(context.Background(), admin, n) })
		u, err := CreateDatabase(ctx, admin, n)
		if err != nil {
			t.Fatal(err)
		}
		conn, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		var db string
		var vector bool
		err = conn.QueryRow(ctx, `SELECT current_database(), EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector')`).Scan(&db, &vector)
		conn.Close(ctx)
		if err != nil || db != n || !vector {
			t.Fatalf("%s: connected to %q, pgvector %v (%v)", n, db, vector, err)
		}
	}
	dropped, err := DropStale(ctx, admin, prefix, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dropped, []string{old}) {
		t.Fatalf("DropStale dropped %v, want only %s", dropped, old)
	}
	if err := DropDatabase(ctx, admin, fresh); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var left int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_database WHERE starts_with(datname, $1)`, prefix).Scan(&left); err != nil || left != 0 {
		t.Fatalf("%d %s databases left (%v)", left, prefix, err)
	}
}
