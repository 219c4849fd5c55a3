package reconciler

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

const testDim = 8

// testBus is an in-process JetStream server with Mneme's topology.
type testBus struct {
	url string
	nc  *nats.Conn
	js  jetstream.JetStream
	dir string
}

func startBus(t testing.TB) *testBus {
	t.Helper()
	srv := bustest.Start(t)
	return &testBus{url: srv.URL, nc: srv.NC, js: srv.JS, dir: srv.StoreDir}
}

// newStore returns a fresh migrated database.
func newStore(t testing.TB) (*pgxpool.Pool, string) {
	t.Helper()
	db := pgtest.NewDB(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pool, err := store.Connect(ctx, db.URL, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(pool.Close)
	return pool, db.URL
}

func testLogger() *slog.Logger {
	if os.Getenv("MNEME_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.NewTextHandler(io.Discard, nil))
}

func testConfig() Config {
	c := DefaultConfig()
	c.Partitions = 4
	c.RebalanceInterval = 50 * time.Millisecond
	c.RetryBackoff = 5 * time.Millisecond
	c.ShutdownTimeout = 5 * time.Second
	c.DevMode = true
	return c
}

// runService starts a reconciler replica and stops it when the test ends (or when stop is called).
func runService(t testing.TB, pool *pgxpool.Pool, b *testBus, cfg Config, instance string, setup ...func(*Service)) (svc *Service, stop func()) {
	t.Helper()
	svc, err := New(service.Deps{Logger: testLogger(), NATS: b.nc, JS: b.js, DB: pool, Partitions: cfg.Partitions, Instance: instance}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range setup {
		f(svc)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("reconciler %s: %v", instance, err)
		}
	}
	t.Cleanup(stop)
	return svc, stop
}

// fakeVector is a deterministic unit vector for a text.
func fakeVector(text string) []float32 {
	v := make([]float32, testDim)
	var n float64
	for i := range v {
		h := sha256.Sum256([]byte(fmt.Sprintf("%d:%s", i, text)))
		x := float64(int32(binary.BigEndian.Uint32(h[:4]))) / math.MaxInt32
		v[i] = float32(x)
		n += x * x
	}
	for i := range v {
		v[i] = float32(float64(v[i]) / math.Sqrt(n))
	}
	return v
}

type claimOpt func(*event.ClaimEmbeddedV1)

func withAgent(a string) claimOpt { return func(c *event.ClaimEmbeddedV1) { c.Provenance.AgentID = a } }
func withScope(s event.Scope) claimOpt {
	return func(c *event.ClaimEmbeddedV1) { c.Scope = s }
}
func withSeq(n int64) claimOpt { return func(c *event.ClaimEmbeddedV1) { c.Sequence = &n } }
func withTurn(id string) claimOpt {
	return func(c *event.ClaimEmbeddedV1) { c.Provenance.TurnIDs = []string{id} }
}
func withFunctional(f bool) claimOpt { return func(c *event.ClaimEmbeddedV1) { c.Functional = f } }
func withKey(k string) claimOpt      { return func(c *event.ClaimEmbeddedV1) { c.PredicateKey = k } }
func withConfidence(x float64) claimOpt {
	return func(c *event.ClaimEmbeddedV1) { c.Confidence = x }
}
func withExtractor(x string) claimOpt {
	return func(c *event.ClaimEmbeddedV1) { c.Provenance.Extractor = x }
}
func withPredicateVector(v []float32) claimOpt {
	return func(c *event.ClaimEmbeddedV1) {
		c.PredicateEmbedding = event.Vector{Model: "fake", Dim: len(v), Values: v}
	}
}

var baseTime = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// mkClaim builds an embedded claim; its id is derived from every distinguishing input.
func mkClaim(ws, subject, predicate, object string, validFrom time.Time, partitions int, opts ...claimOpt) event.ClaimEmbeddedV1 {
	c := event.ClaimEmbeddedV1{
		ClaimProposedV1: event.ClaimProposedV1{
			Workspace: ws, Subject: subject, SubjectKey: canon.SubjectKey(subject),
			Predicate: predicate, PredicateKey: canon.PredicateKey(predicate), Object: object,
			Functional: true, ValidFrom: validFrom, Scope: event.ScopeShared, Confidence: 0.9,
			Provenance: event.Provenance{AgentID: "agent-a", Extractor: "structured", ExtractorVersion: "1"},
			ProposedAt: validFrom,
		},
	}
	for _, o := range opts {
		o(&c)
	}
	c.Text = canon.ClaimText(subject, predicate, object)
	seq := ""
	if c.Sequence != nil {
		seq = fmt.Sprint(*c.Sequence)
	}
	c.ClaimID = event.DeterministicID(ws, c.SubjectKey, c.PredicateKey, object, validFrom.Format(time.RFC3339Nano), seq,
		string(c.Scope), c.Provenance.AgentID, fmt.Sprint(c.Provenance.TurnIDs))
	c.Embedding = event.Vector{Model: "fake", Dim: testDim, Values: fakeVector(c.Text)}
	if c.PredicateEmbedding.Dim == 0 {
		c.PredicateEmbedding = event.Vector{Model: "fake", Dim: testDim, Values: fakeVector("predicate:" + c.PredicateKey)}
	}
	c.Partition = bus.PartitionOf(ws, c.SubjectKey, partitions)
	return c
}

// publishClaim publishes c to its partition and returns the stream sequence.
func publishClaim(t testing.TB, js jetstream.JetStream, c event.ClaimEmbeddedV1) uint64 {
	t.Helper()
	env, err := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "mneme/test", c.Workspace, c.ProposedAt, c)
	if err != nil {
		t.Fatal(err)
	}
	ack, err := bus.PublishEvent(context.Background(), js, bus.ClaimsSubject(c.Partition), env)
	if err != nil {
		t.Fatal(err)
	}
	return ack.Sequence
}

// waitApplied waits until every partition's offset reaches the stream's last sequence on that partition.
func waitApplied(t testing.TB, pool *pgxpool.Pool, js jetstream.JetStream, partitions int, timeout time.Duration) {
	t.Helper()
	ctx := context.Background()
	st, err := js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]uint64{}
	for p := range partitions {
		m, err := st.GetLastMsgForSubject(ctx, bus.ClaimsSubject(p))
		if err == nil {
			want[p] = m.Sequence
		}
	}
	waitFor(t, timeout, func() (bool, string) {
		for p, seq := range want {
			var got int64
			_ = pool.QueryRow(ctx, `SELECT coalesce((SELECT stream_seq FROM partition_offsets WHERE partition = $1), 0)`, p).Scan(&got)
			if uint64(got) < seq {
				return false, fmt.Sprintf("partition %d at %d, want %d", p, got, seq)
			}
		}
		return true, ""
	})
}

// waitFor polls cond until it holds or timeout passes.
func waitFor(t testing.TB, timeout time.Duration, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	var why string
	for {
		var ok bool
		ok, why = cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %s: %s", timeout, why)
		}
		<-tick.C
	}
}

// currentStatus returns claim id → current status for a workspace. It checks first that every belief version of
// the workspace carries its claim's subject and slot keys (the present's index, migration 0056): the reconciler
// writes them from the tier, and a tier's slot is the claim's slot after paraphrase merging.
func currentStatus(t testing.TB, pool *pgxpool.Pool, ws string) map[string]string {
	t.Helper()
	var wrong int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM claim_versions v JOIN claims c ON c.id = v.claim_id
		WHERE v.workspace_id = $1 AND (v.subject_key IS DISTINCT FROM c.subject_key OR v.slot_key IS DISTINCT FROM c.slot_key)`, ws).Scan(&wrong); err != nil {
		t.Fatal(err)
	}
	if wrong > 0 {
		t.Fatalf("%d belief versions of workspace %s without their claim's subject and slot keys", wrong, ws)
	}
	rows, err := pool.Query(context.Background(), `SELECT claim_id::text, status FROM claim_versions WHERE workspace_id = $1 AND retired_at IS NULL`, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, s string
		if err := rows.Scan(&id, &s); err != nil {
			t.Fatal(err)
		}
		out[id] = s
	}
	return out
}

// diffProjections logs the rows that differ between two projections.
func diffProjections(t testing.TB, a, b *pgxpool.Pool) {
	t.Helper()
	ra, rb := map[string][]string{}, map[string][]string{}
	_, pa, err := store.DigestByTable(context.Background(), a, ra)
	if err != nil {
		t.Fatal(err)
	}
	_, pb, _ := store.DigestByTable(context.Background(), b, rb)
	for name, h := range pa {
		if pb[name] == h {
			continue
		}
		inB := map[string]bool{}
		for _, r := range rb[name] {
			inB[r] = true
		}
		inA := map[string]bool{}
		for _, r := range ra[name] {
			inA[r] = true
			if !inB[r] {
				t.Logf("%s only in first: %s", name, r)
			}
		}
		for _, r := range rb[name] {
			if !inA[r] {
				t.Logf("%s only in second: %s", name, r)
			}
		}
	}
}

// slotKeys returns the slot key of every claim of workspace ws, by claim id.
func slotKeys(t testing.TB, pool *pgxpool.Pool, ws string) map[string]string {
	t.Helper()
	rows, err := pool.Query(context.Background(), `SELECT id::text, slot_key FROM claims WHERE workspace_id = $1`, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, slot string
		if err := rows.Scan(&id, &slot); err != nil {
			t.Fatal(err)
		}
		out[id] = slot
	}
	return out
}
