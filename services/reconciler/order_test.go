package reconciler

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// newTestEngine builds an engine that applies messages directly (no consumer, nothing published).
func newTestEngine(t testing.TB, pool *pgxpool.Pool, cfg Config) *engine {
	t.Helper()
	e, err := newEngine(service.Deps{Logger: testLogger(), DB: pool, Partitions: cfg.Partitions, Instance: "test"}, cfg.Defaults(), false)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func claimMsg(t testing.TB, c event.ClaimEmbeddedV1, seq uint64, at time.Time) logMsg {
	t.Helper()
	env, err := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "mneme/test", c.Workspace, c.ProposedAt, c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return logMsg{Seq: seq, Time: logTime(at), Data: b}
}

// applyDirect applies msgs to partition p in batches of size batch (0: all in one).
func applyDirect(t testing.TB, e *engine, p int, msgs []logMsg, batch int) {
	t.Helper()
	ctx := context.Background()
	w := newPartitionWorker(e, p)
	if err := e.pool.QueryRow(ctx, `SELECT coalesce((SELECT stream_seq FROM partition_offsets WHERE partition = $1), 0)`, p).Scan(&w.offset); err != nil {
		t.Fatal(err)
	}
	if batch <= 0 {
		batch = len(msgs)
	}
	for len(msgs) > 0 {
		n := min(batch, len(msgs))
		items, err := e.prepare(ctx, p, msgs[:n])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.commit(ctx, items); err != nil {
			t.Fatal(err)
		}
		msgs = msgs[n:]
	}
}

func truncateProjection(t testing.TB, pool *pgxpool.Pool) {
	t.Helper()
	// DELETE, not TRUNCATE: on tables this small it is far cheaper than new relation files.
	for _, tbl := range []string{"claims", "decisions", "subject_aliases", "subject_predicates", "confirmations",
		"dead_letters", "partition_offsets", "duplicate_messages"} {
		if _, err := pool.Exec(context.Background(), "DELETE FROM "+tbl); err != nil {
			t.Fatal(err)
		}
	}
}

func permute[T any](xs []T, f func([]T)) {
	a := append([]T(nil), xs...)
	var rec func(int)
	rec = func(k int) {
		if k == len(a) {
			f(append([]T(nil), a...))
			return
		}
		for i := k; i < len(a); i++ {
			a[k], a[i] = a[i], a[k]
			rec(k + 1)
			a[k], a[i] = a[i], a[k]
		}
	}
	rec(0)
}

// All arrival-order permutations of a conflict set give the same final state under LWW (belief digest), with
// late older claims inserted already superseded and a truly simultaneous pair disputed; batching does not
// matter either.
func TestLWWArrivalOrderPermutations(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	cfg := testConfig()
	e := newTestEngine(t, pool, cfg)
	claims := []event.ClaimEmbeddedV1{
		mkClaim("wsp", "Carol", "lives in", "Paris", baseTime.Add(1*time.Hour), cfg.Partitions),
		mkClaim("wsp", "Carol", "lives in", "Rome", baseTime.Add(3*time.Hour), cfg.Partitions, withSeq(1), withAgent("agent-b")),
		mkClaim("wsp", "Carol", "lives in", "Berlin", baseTime.Add(3*time.Hour), cfg.Partitions, withSeq(2), withAgent("agent-c")),
		mkClaim("wsp", "Carol", "lives in", "Madrid", baseTime.Add(5*time.Hour), cfg.Partitions, withAgent("agent-d")),
		mkClaim("wsp", "Carol", "lives in", "Oslo", baseTime.Add(5*time.Hour), cfg.Partitions, withAgent("agent-e")),
	}
	p := claims[0].Partition
	var want string
	runs := 0
	permute(claims, func(order []event.ClaimEmbeddedV1) {
		for _, batch := range []int{1, 0} {
			if batch == 0 && runs%10 != 0 {
				continue // whole-batch application for a sample of orders
			}
			truncateProjection(t, pool)
			msgs := make([]logMsg, len(order))
			for i, c := range order {
				msgs[i] = claimMsg(t, c, uint64(i+1), baseTime.Add(time.Duration(100+i)*time.Hour))
			}
			applyDirect(t, e, p, msgs, batch)
			got, err := store.BeliefDigest(context.Background(), pool)
			if err != nil {
				t.Fatal(err)
			}
			if want == "" {
				want = got
				st := currentStatus(t, pool, "wsp")
				exp := map[string]string{claims[0].ClaimID: "superseded", claims[1].ClaimID: "superseded",
					claims[2].ClaimID: "superseded", claims[3].ClaimID: "disputed", claims[4].ClaimID: "disputed"}
				for id, s := range exp {
					if st[id] != s {
						t.Fatalf("claim %s is %s, want %s (all: %v)", id, st[id], s, st)
					}
				}
			} else if got != want {
				t.Fatalf("belief digest of order %d (batch %d) differs", runs, batch)
			}
		}
		runs++
	})
	if runs != 120 {
		t.Fatalf("%d permutations", runs)
	}
}

// The full projection (history and audit rows included) does not depend on how the stream is cut into batches:
// a replay cuts it differently from the live consumer.
func TestBatchBoundariesDoNotMatter(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	mixed := writePolicy(t, `{"version": "mix-1", "rules": [
		{"predicate": "born_in", "operator": "evidence"},
		{"predicate": "*", "source": "llm:*", "await_confirmation": {"timeout": "30m", "on_timeout": "accept"}}]}`)
	// The built-in policy resolves everything by plain LWW, which batches update incrementally.
	for _, policy := range []string{mixed, ""} {
		cfg := testConfig()
		cfg.PolicyFile = policy
		checkBatchBoundaries(t, pool, cfg, policy != "")
	}
}

func checkBatchBoundaries(t *testing.T, pool *pgxpool.Pool, cfg Config, gated bool) {
	e := newTestEngine(t, pool, cfg)
	// One partition's worth of messages: several subjects, evidence and LWW slots, held claims, restatements,
	// a confirmation, duplicates and a poison message.
	var claims []event.ClaimEmbeddedV1
	for i := range 60 {
		subj := fmt.Sprintf("S%d", i%5)
		opts := []claimOpt{withAgent(fmt.Sprintf("agent-%d", i%4)), withTurn(fmt.Sprintf("t%d", i%6))}
		if i%3 == 0 {
			opts = append(opts, withExtractor("llm:x"))
		}
		pred := "lives in"
		if i%4 == 1 {
			pred = "born in"
		}
		claims = append(claims, mkClaim("wsb", subj, pred, fmt.Sprintf("v%d", i%3), baseTime.Add(time.Duration(i%7)*time.Hour), cfg.Partitions, opts...))
	}
	var msgs []logMsg
	clock := baseTime.Add(1000 * time.Hour)
	seq := uint64(0)
	for i, c := range claims {
		// All subjects in one partition keep the test about batching, not partitioning.
		c.Partition = 0
		e.partitions = 1
		seq++
		clock = clock.Add(7 * time.Minute)
		msgs = append(msgs, claimMsg(t, c, seq, clock))
		if i%9 == 0 {
			seq++
			msgs = append(msgs, claimMsg(t, c, seq, clock)) // duplicate
		}
		if i%11 == 5 {
			seq++
			msgs = append(msgs, confirmMsg(t, c, "agent-h", seq, clock))
		}
		if i == 30 {
			seq++
			msgs = append(msgs, logMsg{Seq: seq, Time: logTime(clock), Data: []byte("poison")})
		}
	}
	var want string
	for _, cut := range []int{1, 3, 17, 0} {
		truncateProjection(t, pool)
		applyDirect(t, e, 0, msgs, cut)
		got, err := store.Digest(context.Background(), pool)
		if err != nil {
			t.Fatal(err)
		}
		if want == "" {
			want = got
			var admitted, pending int
			_ = pool.QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE state = 'admitted'), count(*) FILTER (WHERE state = 'pending') FROM claim_gates`).Scan(&admitted, &pending)
			if gated && (admitted == 0 || pending+admitted < 5) {
				t.Fatalf("the workload exercised too few await-confirmation gates (%d admitted, %d pending)", admitted, pending)
			}
		} else if got != want {
			t.Fatalf("batches of %d give another projection", cut)
		}
	}
}
