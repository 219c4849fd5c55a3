package reconciler

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkHotSlot applies b.N claims to one functional slot in batches of 256: the cost per claim must stay
// flat as the slot's history grows (the tier is loaded once per batch and folded in O(n log n)).
func BenchmarkHotSlot(b *testing.B) {
	pool, _ := newStore(b)
	cfg := testConfig()
	e := newTestEngine(b, pool, cfg)
	msgs := make([]logMsg, b.N)
	for i := range b.N {
		c := mkClaim("wsh", "Hot", "status", fmt.Sprintf("v%d", i), baseTime.Add(time.Duration((i*7919)%b.N)*time.Second), cfg.Partitions)
		msgs[i] = claimMsg(b, c, uint64(i+1), baseTime.Add(time.Duration(i)*time.Millisecond))
	}
	b.ResetTimer()
	applyDirect(b, e, msgs[0].partitionOf(b, cfg), msgs, 256)
}

func (m logMsg) partitionOf(tb testing.TB, cfg Config) int {
	it := (&engine{partitions: cfg.Partitions}).decode(m, -1)
	if it.claim == nil {
		tb.Fatal("not a claim")
	}
	return it.claim.Partition
}
