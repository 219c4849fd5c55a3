package reconciler

import (
	"context"
	"testing"
	"time"
)

// A bare head noun ("number") joins the one slot of its compound ("phone number") and supersedes it; with two
// compounds of that head ("phone number", "house number") it is ambiguous and opens its own slot.
func TestHeadNounJoinsItsCompound(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	runService(t, pool, b, cfg, "r1")

	phone := mkClaim("ws1", "Zoe", "phone number", "+48 601 234 567", baseTime, cfg.Partitions)
	number := mkClaim("ws1", "Zoe", "number", "+48 733 912 045", baseTime.Add(24*time.Hour), cfg.Partitions)
	publishClaim(t, b.js, phone)
	publishClaim(t, b.js, number)

	phone2 := mkClaim("ws2", "Zoe", "phone number", "+48 601 234 567", baseTime, cfg.Partitions)
	house := mkClaim("ws2", "Zoe", "house number", "12", baseTime, cfg.Partitions)
	number2 := mkClaim("ws2", "Zoe", "number", "+48 733 912 045", baseTime.Add(24*time.Hour), cfg.Partitions)
	publishClaim(t, b.js, phone2)
	publishClaim(t, b.js, house)
	publishClaim(t, b.js, number2)
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)

	st := currentStatus(t, pool, "ws1")
	if st[number.ClaimID] != "active" || st[phone.ClaimID] != "superseded" {
		t.Fatalf("ws1 statuses %v: the new number should supersede the phone number", st)
	}
	var slot string
	if err := pool.QueryRow(context.Background(), `SELECT slot_key FROM claims WHERE id = $1`, number.ClaimID).Scan(&slot); err != nil {
		t.Fatal(err)
	}
	if slot != "phone_number" {
		t.Fatalf("slot of %q = %q, want phone_number", number.PredicateKey, slot)
	}
	st2 := currentStatus(t, pool, "ws2")
	if st2[number2.ClaimID] != "active" || st2[phone2.ClaimID] != "active" || st2[house.ClaimID] != "active" {
		t.Fatalf("ws2 statuses %v: an ambiguous head noun must not supersede either compound", st2)
	}
}
