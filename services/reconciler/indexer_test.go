package reconciler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/store"
)

// A workspace whose claims reach the threshold gets its own dense index from the running reconciler, without
// any other step; a smaller workspace gets none. The full pass runs only at start, before any claim, so the
// index comes from the check of the workspaces the reconciler has just written vectors to.
func TestReconcilerIndexesLargeWorkspaces(t *testing.T) {
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := indexCheckConfig()
	runService(t, pool, b, cfg, "r1")
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 100 {
		publishClaim(t, b.js, mkClaim("big", fmt.Sprintf("Person %d", i), "lives in", "Town", at, cfg.Partitions))
	}
	for i := range 3 {
		publishClaim(t, b.js, mkClaim("small", fmt.Sprintf("Person %d", i), "lives in", "Town", at, cfg.Partitions))
	}
	waitApplied(t, pool, b.js, cfg.Partitions, time.Minute)
	waitFor(t, time.Minute, func() (bool, string) {
		return indexValid(t, pool, "big"), "the 100-claim workspace has no valid index of its own"
	})
	if indexValid(t, pool, "small") {
		t.Error("the 3-claim workspace got an index of its own")
	}
}

// A workspace that grows while another replica holds the index lock keeps its place: once the lock is free, the
// next check builds its index, though no claim was written since and the full pass is an hour away.
func TestGrownWorkspaceWaitsForAnotherReplicasBuild(t *testing.T) {
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := indexCheckConfig()
	ctx := context.Background()
	other, err := pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Release()
	if _, err := other.Exec(ctx, `SELECT pg_advisory_lock($1)`, store.IndexLockID); err != nil {
		t.Fatal(err)
	}
	locked := true
	defer func() {
		if locked {
			_, _ = other.Exec(ctx, `SELECT pg_advisory_unlock($1)`, store.IndexLockID)
		}
	}()
	svc, _ := runService(t, pool, b, cfg, "r1")
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 100 {
		publishClaim(t, b.js, mkClaim("big", fmt.Sprintf("Person %d", i), "lives in", "Town", at, cfg.Partitions))
	}
	waitApplied(t, pool, b.js, cfg.Partitions, time.Minute)
	// The check has taken the grown workspaces (and, the lock being held, kept them pending).
	waitFor(t, time.Minute, func() (bool, string) {
		svc.engine.grownMu.Lock()
		defer svc.engine.grownMu.Unlock()
		return len(svc.engine.grown) == 0, "the index check has not taken the grown workspaces"
	})
	if indexValid(t, pool, "big") {
		t.Fatal("the workspace was indexed while another replica held the index lock")
	}
	if _, err := other.Exec(ctx, `SELECT pg_advisory_unlock($1)`, store.IndexLockID); err != nil {
		t.Fatal(err)
	}
	locked = false
	waitFor(t, 30*time.Second, func() (bool, string) {
		return indexValid(t, pool, "big"), "the workspace that grew while another replica built got no index once the lock was free"
	})
}

// indexCheckConfig is the test configuration with a 100-vector index threshold, the full pass an hour away and
// the check of grown workspaces every 50 ms.
func indexCheckConfig() Config {
	cfg := testConfig()
	cfg.WorkspaceIndexMin = 100
	cfg.WorkspaceIndexInterval = time.Hour
	cfg.WorkspaceIndexCheckInterval = 50 * time.Millisecond
	return cfg
}

// indexValid reports whether workspace ws has a valid dense index of its own.
func indexValid(t *testing.T, pool *pgxpool.Pool, ws string) bool {
	t.Helper()
	var ok bool
	if err := pool.QueryRow(context.Background(), `SELECT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)), false)`,
		store.WorkspaceIndexName(ws)).Scan(&ok); err != nil {
		t.Fatal(err)
	}
	return ok
}
