package embedder_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/embedder"
)

func start(t *testing.T, srv *bustest.Server) {
	t.Helper()
	cfg := embedder.Config{Common: config.Common{Partitions: 16}, BatchSize: 8, BatchWait: 5 * time.Millisecond, Workers: 2, MaxDeliver: 3, AckWait: 5 * time.Second}
	svc, err := embedder.New(embedder.Deps{Logger: slog.New(slog.DiscardHandler), JS: srv.JS, Embedder: embeddingtest.New(32), Partitions: 16}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("embedder Run: %v", err)
		}
	})
}

func proposed(t *testing.T, ws, subject, object string) event.Envelope {
	t.Helper()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	id := event.DeterministicID(ws, subject, object)
	c := event.ClaimProposedV1{
		ClaimID: id, Workspace: ws, Subject: subject, SubjectKey: subject, Predicate: "lives in", PredicateKey: "lives_in",
		Object: object, Text: subject + " lives in " + object + ".", Functional: true, ValidFrom: at, Scope: event.ScopeShared,
		Confidence: 1, Provenance: event.Provenance{AgentID: "a1", Extractor: "structured", ExtractorVersion: "1"}, ProposedAt: at,
	}
	env, err := event.New(event.TypeClaimProposed, id, "test", ws, at, c)
	if err != nil {
		t.Fatal(err)
	}
	return env
}

func TestEmbedsAndPartitions(t *testing.T) {
	srv := bustest.Start(t)
	start(t, srv)
	ctx := context.Background()
	want := map[string]int{}
	for i := range 20 {
		env := proposed(t, "acme", fmt.Sprintf("person%d", i), "Berlin")
		if _, err := bus.PublishEvent(ctx, srv.JS, bus.ProposedSubject("acme"), env); err != nil {
			t.Fatal(err)
		}
		want[env.ID] = bus.PartitionOf("acme", fmt.Sprintf("person%d", i), 16)
	}
	// Publishing the same claim again is deduplicated by the broker and must not produce a second claim.
	dup := proposed(t, "acme", "person0", "Berlin")
	if ack, err := bus.PublishEvent(ctx, srv.JS, bus.ProposedSubject("acme"), dup); err != nil || !ack.Duplicate {
		t.Fatalf("duplicate publish: ack=%+v err=%v", ack, err)
	}
	msgs := srv.Collect(t, bus.StreamClaims, "mneme.claims.>", 21, 30*time.Second)
	if len(msgs) != 20 {
		t.Fatalf("got %d embedded claims, want 20", len(msgs))
	}
	for _, m := range msgs {
		env, err := event.Decode(m.Data())
		if err != nil {
			t.Fatal(err)
		}
		var c event.ClaimEmbeddedV1
		if err := env.Into(event.TypeClaimEmbedded, &c); err != nil {
			t.Fatal(err)
		}
		if c.Embedding.Dim != 32 || len(c.Embedding.Values) != 32 || c.Embedding.Model != "test-hash-v1" || len(c.PredicateEmbedding.Values) != 32 {
			t.Fatalf("vector metadata: %+v / %d", c.Embedding.Model, len(c.PredicateEmbedding.Values))
		}
		if p := want[c.ClaimID]; p != c.Partition || m.Subject() != bus.ClaimsSubject(p) {
			t.Fatalf("claim %s on %s partition %d, want %d", c.ClaimID, m.Subject(), c.Partition, p)
		}
	}
}

func TestMalformedGoesToDeadLetterAndDoesNotBlock(t *testing.T) {
	srv := bustest.Start(t)
	start(t, srv)
	ctx := context.Background()
	bad := nats.NewMsg(bus.ProposedSubject("acme"))
	bad.Data = []byte(`{"specversion":"1.0","id":"x","source":"s","type":"io.mneme.claim.v1.proposed","time":"2026-01-01T00:00:00Z","data":{"claim_id":"nope"}}`)
	if _, err := srv.JS.PublishMsg(ctx, bad); err != nil {
		t.Fatal(err)
	}
	good := proposed(t, "acme", "alice", "Paris")
	if _, err := bus.PublishEvent(ctx, srv.JS, bus.ProposedSubject("acme"), good); err != nil {
		t.Fatal(err)
	}
	dl := srv.Collect(t, bus.StreamDLQ, bus.DLQSubject("embedder"), 1, 30*time.Second)
	if len(dl) != 1 {
		t.Fatalf("got %d dead letters, want 1", len(dl))
	}
	if reason := dl[0].Headers().Get(bus.HeaderDLQReason); reason == "" {
		t.Fatal("dead letter has no reason header")
	} else {
		t.Logf("reason: %s", reason)
	}
	if got := srv.Collect(t, bus.StreamClaims, "mneme.claims.>", 1, 30*time.Second); len(got) != 1 {
		t.Fatalf("good claim after a bad one: got %d", len(got))
	}
	var raw map[string]any
	_ = json.Unmarshal(dl[0].Data(), &raw)
	if raw["id"] != "x" {
		t.Fatalf("dead letter does not carry the original message: %v", raw)
	}
}

// TestMalformedAtTheSizeLimitIsDeadLettered: a proposed-claims message at the 8 MiB limit is dead-lettered by
// reference (a whole copy would not fit), once, and the claim after it is embedded.
func TestMalformedAtTheSizeLimitIsDeadLettered(t *testing.T) {
	srv := bustest.Start(t)
	start(t, srv)
	ctx := context.Background()
	if _, err := srv.JS.Publish(ctx, bus.ProposedSubject("acme"), []byte(`{"x":"`+strings.Repeat("z", 8<<20-8)+`"}`)); err != nil {
		t.Fatal(err)
	}
	if _, err := bus.PublishEvent(ctx, srv.JS, bus.ProposedSubject("acme"), proposed(t, "acme", "alice", "Paris")); err != nil {
		t.Fatal(err)
	}
	// The first dead letter may take a while on a loaded machine (an 8 MiB message under -race); once it is
	// there, a second one within a few seconds would be a duplicate.
	if first := srv.Collect(t, bus.StreamDLQ, bus.DLQSubject("embedder"), 1, 60*time.Second); len(first) != 1 {
		t.Fatal("no dead letter within 60s")
	}
	dl := srv.Collect(t, bus.StreamDLQ, bus.DLQSubject("embedder"), 2, 3*time.Second)
	if len(dl) != 1 {
		t.Fatalf("got %d dead letters, want 1", len(dl))
	}
	if h := dl[0].Headers(); h.Get(bus.HeaderDLQTruncated) != "true" || h.Get(bus.HeaderDLQSize) != "8388608" || h.Get(bus.HeaderDLQReason) == "" {
		t.Fatalf("dead letter headers %v", h)
	}
	if got := srv.Collect(t, bus.StreamClaims, "mneme.claims.>", 1, 30*time.Second); len(got) != 1 {
		t.Fatalf("good claim after a bad one: got %d", len(got))
	}
}
