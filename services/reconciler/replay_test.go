package reconciler

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/openaitest"
	"github.com/mneme-ai/mneme/pkg/store"
)

// near returns a unit vector close to v (cosine well above the default merge threshold).
func near(v []float32, salt string) []float32 {
	noise := fakeVector(salt)
	out := make([]float32, len(v))
	var n float64
	for i := range v {
		out[i] = v[i] + 0.15*noise[i]
		n += float64(out[i]) * float64(out[i])
	}
	for i := range out {
		out[i] = float32(float64(out[i]) / math.Sqrt(n))
	}
	return out
}

func writePolicy(t testing.TB, doc string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "policy.json")
	if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// mixedWorkload publishes claims exercising every path of the write side: LWW with late arrivals and disputes,
// paraphrase merging, accumulating slots, private tiers, corroboration and duplicates.
func mixedWorkload(t testing.TB, b *testBus, partitions int, ws string) int {
	t.Helper()
	n := 0
	pub := func(c event.ClaimEmbeddedV1) {
		publishClaim(t, b.js, c)
		n++
	}
	livesIn := fakeVector("predicate:lives_in")
	for s := range 6 {
		subj := fmt.Sprintf("Person %d", s)
		for i := range 5 {
			vt := baseTime.Add(time.Duration((i*7)%5) * time.Hour)
			pub(mkClaim(ws, subj, "lives in", fmt.Sprintf("City %d", (i+s)%4), vt, partitions, withAgent(fmt.Sprintf("agent-%d", i%3)), withPredicateVector(livesIn)))
		}
		// A paraphrase merged into lives_in by similarity, with another value: the judge is asked.
		pub(mkClaim(ws, subj, "has home town", "Town X", baseTime.Add(9*time.Hour), partitions, withPredicateVector(near(livesIn, subj))))
		// Accumulating slot with an exclusivity hint: the judge is asked about pairs.
		for i := range 3 {
			pub(mkClaim(ws, subj, "has pet", fmt.Sprintf("pet %d", i), baseTime.Add(time.Duration(i)*time.Hour), partitions, withFunctional(false), withAgent("agent-p")))
		}
		// Private claims of two agents; a corroboration of the shared value by another agent.
		pub(mkClaim(ws, subj, "favourite color", "blue", baseTime, partitions, withScope(event.ScopePrivate), withAgent("agent-x")))
		pub(mkClaim(ws, subj, "favourite color", "red", baseTime, partitions, withScope(event.ScopePrivate), withAgent("agent-y")))
		c := mkClaim(ws, subj, "lives in", "City 0", baseTime.Add(10*time.Hour), partitions, withAgent("agent-z"), withTurn("t1"), withPredicateVector(livesIn))
		pub(c)
		pub(mkClaim(ws, subj, "lives in", "City 0", baseTime.Add(10*time.Hour), partitions, withAgent("agent-w"), withTurn("t2"), withPredicateVector(livesIn)))
		pub(c) // duplicate
	}
	return n
}

const judgePolicy = `{"version": "test-judge",
 "rules": [
   {"predicate": "has_pet", "judge": "exclusive"},
   {"predicate": "lives_in", "judge": "merged"}
 ]}`

// Replay from an empty database gives the live digest, also with a judge answering at random on the write path:
// replay reads the keyed judge log instead of asking again.
func TestReplayDigestWithRandomJudge(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReplyJSON(map[string]any{"contradicts": rand.IntN(2) == 0, "reason": "coin flip"})
	}))
	cfg := testConfig()
	cfg.PolicyFile = writePolicy(t, judgePolicy)
	cfg.Judge.BaseURL, cfg.Judge.Model = srv.URL(), "random-judge"
	runService(t, pool, b, cfg, "r1")
	mixedWorkload(t, b, cfg.Partitions, "wsr")
	waitApplied(t, pool, b.js, cfg.Partitions, 60*time.Second)

	ctx := context.Background()
	var judged int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM judgements`).Scan(&judged); err != nil {
		t.Fatal(err)
	}
	if judged == 0 || len(srv.ChatRequests()) == 0 {
		t.Fatalf("the judge was not consulted (%d judgements, %d requests)", judged, len(srv.ChatRequests()))
	}
	live, err := store.Digest(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	asked := len(srv.ChatRequests())

	target, _ := newStore(t)
	replayCfg := cfg
	stats, err := Replay(ctx, b.js, target, ReplayOptions{Config: replayCfg, Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Messages == 0 {
		t.Fatal("nothing replayed")
	}
	replayed, err := store.Digest(ctx, target)
	if err != nil {
		t.Fatal(err)
	}
	if replayed != live {
		t.Fatalf("replay digest %s differs from live %s", replayed, live)
	}
	if got := len(srv.ChatRequests()); got != asked {
		t.Fatalf("replay asked the judge %d times", got-asked)
	}
}
