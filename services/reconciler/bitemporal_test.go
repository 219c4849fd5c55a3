package reconciler

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/schemas"
)

// "True now", "true at valid time T" and "believed at transaction time T'" are deterministic reads of the
// versions; the transaction times are the log times of the messages.
func TestBitemporalReads(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	cfg := testConfig()
	e := newTestEngine(t, pool, cfg)
	a := mkClaim("wst", "Ines", "works at", "Acme", baseTime.Add(1*time.Hour), cfg.Partitions)
	b := mkClaim("wst", "Ines", "works at", "Globex", baseTime.Add(3*time.Hour), cfg.Partitions)
	c := mkClaim("wst", "Ines", "works at", "Initech", baseTime, cfg.Partitions) // older, arrives last
	l1, l2, l3 := baseTime.Add(100*time.Hour), baseTime.Add(101*time.Hour), baseTime.Add(102*time.Hour)
	applyDirect(t, e, a.Partition, []logMsg{claimMsg(t, a, 1, l1), claimMsg(t, b, 2, l2), claimMsg(t, c, 3, l3)}, 1)
	ctx := context.Background()
	objects := func(validAt, knownAt time.Time) string {
		bs, err := store.BeliefsAt(ctx, pool, "wst", "agent-a", "ines", validAt, knownAt)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, b := range bs {
			out = append(out, b.Object)
		}
		return strings.Join(out, ",")
	}
	now := baseTime.Add(1000 * time.Hour)
	for _, tc := range []struct {
		validAt, knownAt time.Time
		want             string
	}{
		{now, l1, "Acme"},
		{now, l2, "Globex"},
		{baseTime.Add(2 * time.Hour), l2, "Acme"},
		{baseTime.Add(30 * time.Minute), l2, ""},
		{baseTime.Add(30 * time.Minute), l3, "Initech"},
		{now, l1.Add(-time.Second), ""},
	} {
		if got := objects(tc.validAt, tc.knownAt); got != tc.want {
			t.Errorf("valid at %s, known at %s: %q, want %q", tc.validAt, tc.knownAt, got, tc.want)
		}
	}
	cur, err := store.CurrentBeliefs(ctx, pool, "wst", "agent-a", "ines", "")
	if err != nil || len(cur) != 1 || cur[0].Object != "Globex" {
		t.Fatalf("current: %+v %v", cur, err)
	}
	// Versions are appended, never overwritten: Acme was active, then superseded at l2.
	var versions int
	var retired time.Time
	if err := pool.QueryRow(ctx, `SELECT count(*), max(retired_at) FROM claim_versions WHERE claim_id = $1`, a.ClaimID).Scan(&versions, &retired); err != nil {
		t.Fatal(err)
	}
	if versions != 2 || !retired.Equal(l2) {
		t.Fatalf("Acme has %d versions, retired at %s", versions, retired)
	}
}

// A claim whose embedding dimension differs from the store's pinned one is dead-lettered with the reason.
func TestDimensionMismatchIsDeadLettered(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	cfg := testConfig()
	e := newTestEngine(t, pool, cfg)
	ok := mkClaim("wsd", "Jon", "age", "30", baseTime, cfg.Partitions)
	wide := mkClaim("wsd", "Jon", "height", "180", baseTime, cfg.Partitions)
	wide.Embedding.Dim, wide.Embedding.Values = 16, append(wide.Embedding.Values, wide.Embedding.Values...)
	applyDirect(t, e, ok.Partition, []logMsg{claimMsg(t, ok, 1, baseTime), claimMsg(t, wide, 2, baseTime)}, 0)
	var reason string
	if err := pool.QueryRow(context.Background(), `SELECT reason FROM dead_letters WHERE stream_seq = 2`).Scan(&reason); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(reason, "dimension") {
		t.Fatalf("reason %q", reason)
	}
	if s := statusOf(t, pool, ok.ClaimID); s != "active" {
		t.Fatalf("the valid claim is %s", s)
	}
}

// Every decision is published to its workspace's ledger after commit, with the decision id as message id.
func TestDecisionsPublishedToLedger(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	runService(t, pool, b, cfg, "r1")
	c1 := mkClaim("wsl", "Kim", "lives in", "Seoul", baseTime, cfg.Partitions)
	c2 := mkClaim("wsl", "Kim", "lives in", "Busan", baseTime.Add(time.Hour), cfg.Partitions)
	// An accumulating slot's decisions carry another operator name ("accumulate").
	c3 := mkClaim("wsl", "Kim", "likes", "tea", baseTime, cfg.Partitions)
	c3.Functional = false
	publishClaim(t, b.js, c1)
	publishClaim(t, b.js, c2)
	publishClaim(t, b.js, c3)
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)
	ctx := context.Background()
	st, err := b.js.Stream(ctx, bus.StreamLedger)
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, func() (bool, string) {
		info, err := st.Info(ctx, jetstream.WithSubjectFilter(bus.LedgerSubject("wsl")))
		if err != nil {
			return false, err.Error()
		}
		// The ledger also carries audit events on other subjects (the policy in force, on the system ledger).
		n := info.State.Subjects[bus.LedgerSubject("wsl")]
		return n == 3, fmt.Sprintf("the workspace's ledger has %d messages", n)
	})
	rows, err := pool.Query(ctx, `SELECT id::text FROM decisions WHERE workspace_id = 'wsl'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		_ = rows.Scan(&id)
		found := false
		for seq := uint64(1); ; {
			m, err := st.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(bus.LedgerSubject("wsl")))
			if err != nil {
				break
			}
			if m.Header.Get(jetstream.MsgIDHeader) == id {
				found = true
				// Ledger consumers validate what they read against the published schema.
				if err := schemas.Validate(event.TypeDecisionRecorded, m.Data); err != nil {
					t.Errorf("ledger event does not match its schema: %v\n%s", err, m.Data)
				}
			}
			seq = m.Sequence + 1
		}
		if !found {
			t.Fatalf("decision %s not in the ledger", id)
		}
	}
}
