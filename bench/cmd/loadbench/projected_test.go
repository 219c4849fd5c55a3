package main

import (
	"context"
	"fmt"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
)

// The tracker counts a turn once any claim of it is projected, in any partition, and each poll reads only the
// claims written since the last one.
func TestProjectedTurnsAreReadOnce(t *testing.T) {
	ctx := context.Background()
	db := pgtest.New(t)
	if _, err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	n := 0
	claim := func(partition int, seq int64, ws string, turns ...string) {
		t.Helper()
		n++
		prov := `{"turn_ids": []}`
		if len(turns) > 0 {
			prov = `{"turn_ids": ["` + turns[0] + `"`
			for _, tr := range turns[1:] {
				prov += `, "` + tr + `"`
			}
			prov += `]}`
		}
		if _, err := db.Exec(ctx, `INSERT INTO partition_offsets (partition, stream_seq, owner) VALUES ($1, $2, 'test')
			ON CONFLICT (partition) DO UPDATE SET stream_seq = excluded.stream_seq`, partition, seq); err != nil {
			t.Fatal(err)
		}
		if _, err := db.Exec(ctx, `INSERT INTO claims (id, workspace_id, subject_key, subject, predicate_key, predicate,
			slot_key, object, object_key, text, functional, scope, owner_agent, confidence, valid_from, provenance,
			partition, stream_seq, recorded_at)
			VALUES (gen_random_uuid(), $1, 'ana', 'Ana', 'lives_in', 'lives in', 'lives_in', $2, $2, $2, true, 'shared',
				'agent', 1, now(), $3::jsonb, $4, $5, now())`, ws, fmt.Sprint("city ", n), prov, partition, seq); err != nil {
			t.Fatal(err)
		}
	}
	var pr projected
	poll := func() {
		t.Helper()
		if err := pr.poll(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	ids := []string{"t1", "t2", "t3", "t4"}

	poll() // nothing projected yet
	if got := pr.count(ids); got != 0 {
		t.Fatalf("empty projection: %d turns counted", got)
	}
	claim(0, 10, workspace, "t1")
	claim(1, 11, workspace, "t2", "t3")
	claim(1, 12, "another-workspace", "t4") // another workspace's claim is not this load's turn
	poll()
	if got := pr.count(ids); got != 3 {
		t.Fatalf("after t1, t2, t3: %d turns counted, want 3", got)
	}
	if pr.last[0] != 10 || pr.last[1] != 11 {
		t.Errorf("positions read: %v, want partition 0 at 10 and 1 at 11", pr.last)
	}
	// A later claim of a counted turn, and the first claim of t4, in a partition not seen before.
	claim(0, 13, workspace, "t1")
	claim(2, 14, workspace, "t4")
	poll()
	if got := pr.count(ids); got != 4 {
		t.Fatalf("after t4: %d turns counted, want 4", got)
	}
	if got := rowsPastLast(t, ctx, db, &pr); got != 0 {
		t.Errorf("a poll with nothing new would read %d claims, want 0", got)
	}
}

// rowsPastLast counts the claims a poll would read now.
func rowsPastLast(t *testing.T, ctx context.Context, db *pgxpool.Pool, pr *projected) int {
	t.Helper()
	var ps []int32
	var ss []int64
	for p, s := range pr.last {
		ps, ss = append(ps, p), append(ss, s)
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM (`+newTurnsQuery+`) AS x`, workspace, ps, ss).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
