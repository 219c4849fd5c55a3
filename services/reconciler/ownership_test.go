package reconciler

import (
	"fmt"
	"testing"
	"time"
)

// A replica that joins gets its share: the first one releases partitions down to ceil(P/live); when a replica
// leaves, the other takes its partitions back. Claims keep flowing throughout.
func TestPartitionsRebalance(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	cfg.Partitions = 6
	r1, _ := runService(t, pool, b, cfg, "r1")
	waitFor(t, 20*time.Second, func() (bool, string) {
		return len(r1.Owned()) == 6, fmt.Sprintf("r1 owns %v", r1.Owned())
	})
	r2, stop2 := runService(t, pool, b, cfg, "r2")
	waitFor(t, 20*time.Second, func() (bool, string) {
		o1, o2 := r1.Owned(), r2.Owned()
		return len(o1) == 3 && len(o2) == 3, fmt.Sprintf("r1 %v, r2 %v", o1, o2)
	})
	for i := range 30 {
		publishClaim(t, b.js, mkClaim("wso", fmt.Sprintf("P%d", i), "lives in", "X", baseTime, cfg.Partitions))
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)
	stop2()
	waitFor(t, 20*time.Second, func() (bool, string) {
		return len(r1.Owned()) == 6, fmt.Sprintf("r1 owns %v after r2 left", r1.Owned())
	})
	for i := range 30 {
		publishClaim(t, b.js, mkClaim("wso", fmt.Sprintf("Q%d", i), "lives in", "Y", baseTime, cfg.Partitions))
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)
	if got := len(currentStatus(t, pool, "wso")); got != 60 {
		t.Fatalf("%d claims applied, want 60", got)
	}
}
