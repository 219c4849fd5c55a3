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
