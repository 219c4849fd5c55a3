package reconciler

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"
)

func TestLWWBasic(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	runService(t, pool, b, cfg, "r1")

	newer := mkClaim("ws1", "Alice", "lives in", "Paris", baseTime.Add(2*time.Hour), cfg.Partitions)
	older := mkClaim("ws1", "Alice", "lives in", "London", baseTime.Add(time.Hour), cfg.Partitions)
	publishClaim(t, b.js, newer)
	publishClaim(t, b.js, older) // arrives late: inserted already superseded
	publishClaim(t, b.js, newer) // duplicate: no effect
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)

	st := currentStatus(t, pool, "ws1")
	if st[newer.ClaimID] != "active" || st[older.ClaimID] != "superseded" || len(st) != 2 {
		t.Fatalf("statuses %v", st)
	}
	var validTo time.Time
	var by string
	if err := pool.QueryRow(context.Background(), `SELECT valid_to, superseded_by::text FROM claim_versions WHERE claim_id = $1 AND retired_at IS NULL`, older.ClaimID).Scan(&validTo, &by); err != nil {
		t.Fatal(err)
	}
	if !validTo.Equal(newer.ValidFrom) || by != newer.ClaimID {
		t.Fatalf("older valid_to %s superseded_by %s", validTo, by)
	}
	var versions, decisions, edges int
	_ = pool.QueryRow(context.Background(), `SELECT (SELECT count(*) FROM claim_versions), (SELECT count(*) FROM decisions), (SELECT count(*) FROM supersedes)`).Scan(&versions, &decisions, &edges)
	if versions != 2 || decisions != 2 || edges != 1 {
		t.Fatalf("versions %d decisions %d edges %d", versions, decisions, edges)
	}
}

// Twelve concurrent writers assert conflicting values of one functional slot: exactly one active claim remains,
// the latest by valid time; every write is recorded; nothing deadlocks (two replicas run).
func TestTwelveConcurrentWriters(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	runService(t, pool, b, cfg, "r1")
	runService(t, pool, b, cfg, "r2")

	const writers, each = 12, 20
	var wg sync.WaitGroup
	ids := make(chan string, writers*each)
	latest := mkClaim("ws12", "Bob", "works at", "w11-v19", baseTime.Add(time.Duration(writers*each)*time.Minute), cfg.Partitions, withAgent("agent-11"))
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				// Valid times interleave across writers; the largest belongs to writer 11's last write.
				vt := baseTime.Add(time.Duration(i*writers+w+1) * time.Minute)
				c := mkClaim("ws12", "Bob", "works at", fmt.Sprintf("w%d-v%d", w, i), vt, cfg.Partitions, withAgent(fmt.Sprintf("agent-%d", w)))
				publishClaim(t, b.js, c)
				ids <- c.ClaimID
			}
		})
	}
	wg.Wait()
	close(ids)
	waitApplied(t, pool, b.js, cfg.Partitions, 60*time.Second)

	st := currentStatus(t, pool, "ws12")
	if len(st) != writers*each {
		t.Fatalf("%d claims recorded, want %d", len(st), writers*each)
	}
	for id := range ids {
		if _, ok := st[id]; !ok {
			t.Fatalf("claim %s not recorded", id)
		}
	}
	active := 0
	for id, s := range st {
		if s == "active" {
			active++
			if id != latest.ClaimID {
				t.Fatalf("active claim %s is not the latest %s", id, latest.ClaimID)
			}
		} else if s != "superseded" {
			t.Fatalf("claim %s status %s", id, s)
		}
	}
	if active != 1 {
		t.Fatalf("%d active claims", active)
	}
}
