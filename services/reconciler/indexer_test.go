package reconciler

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/store"
)

// A workspace whose claims reach the threshold gets its own dense index from the running reconciler, without
// any other step; a smaller workspace gets none. The full pass runs only at start, before any claim, so the
// index comes from the check of the workspaces the reconciler has just written vectors to.
func TestReconcilerIndexesLargeWorkspaces(t *testing.T) {
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	cfg.WorkspaceIndexMin = 100
	cfg.WorkspaceIndexInterval = time.Hour
	cfg.WorkspaceIndexCheckInterval = 50 * time.Millisecond
	runService(t, pool, b, cfg, "r1")
	at := time.Date(2025, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 100 {
		publishClaim(t, b.js, mkClaim("big", fmt.Sprintf("Person %d", i), "lives in", "Town", at, cfg.Partitions))
	}
	for i := range 3 {
		publishClaim(t, b.js, mkClaim("small", fmt.Sprintf("Person %d", i), "lives in", "Town", at, cfg.Partitions))
	}
	waitApplied(t, pool, b.js, cfg.Partitions, time.Minute)
	valid := func(ws string) bool {
		var ok bool
		err := pool.QueryRow(context.Background(), `SELECT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)), false)`,
			store.WorkspaceIndexName(ws)).Scan(&ok)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	waitFor(t, time.Minute, func() (bool, string) {
		return valid("big"), "the 100-claim workspace has no valid index of its own"
	})
	if valid("small") {
		t.Error("the 3-claim workspace got an index of its own")
	}
}

// A workspace that grows while another replica holds the index lock keeps its place: once the lock is free, the
// next check builds its index, though no claim was written since and the full pass is an hour away.
func TestGrownWorkspaceWaitsForAnotherReplicasBuild(t *testing.T) {
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	cfg.WorkspaceIndexMin = 100
	cfg.WorkspaceIndexInterval = time.Hour
	cfg.WorkspaceIndexCheckInterval = 50 * time.Millisecond
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
	valid := func() bool {
		var ok bool
		if err := pool.QueryRow(ctx, `SELECT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1)), false)`,
			store.WorkspaceIndexName("big")).Scan(&ok); err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if valid() {
		t.Fatal("the workspace was indexed while another replica held the index lock")
	}
	if _, err := other.Exec(ctx, `SELECT pg_advisory_unlock($1)`, store.IndexLockID); err != nil {
		t.Fatal(err)
	}
	locked = false
	waitFor(t, 30*time.Second, func() (bool, string) {
		return valid(), "the workspace that grew while another replica built got no index once the lock was free"
	})
}
