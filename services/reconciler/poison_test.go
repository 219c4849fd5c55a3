package reconciler

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
)

// A message that cannot be applied goes to the dead-letter stream with its reason and the partition moves on:
// undecodable bytes at once, a message whose application keeps failing after the bounded retries.
func TestPoisonMessagesDoNotStall(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	cfg.MaxAttempts = 3
	poison := mkClaim("wsq", "Gus", "lives in", "Nowhere", baseTime, cfg.Partitions)
	var tries atomic.Int32
	runService(t, pool, b, cfg, "r1", func(svc *Service) {
		svc.engine.faultHook = func(it *item) error {
			if it.claim.ClaimID == poison.ClaimID {
				tries.Add(1)
				return errors.New("injected fault")
			}
			return nil
		}
	})
	p := poison.Partition
	msg := nats.NewMsg(bus.ClaimsSubject(p))
	msg.Data = []byte("{not json")
	if _, err := b.js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	publishClaim(t, b.js, poison)
	good := mkClaim("wsq", "Gus", "lives in", "Somewhere", baseTime.Add(time.Hour), cfg.Partitions)
	publishClaim(t, b.js, good)
	waitApplied(t, pool, b.js, cfg.Partitions, 30*time.Second)

	if s := statusOf(t, pool, good.ClaimID); s != "active" {
		t.Fatalf("the claim after the poison is %s", s)
	}
	if n := tries.Load(); n < int32(cfg.MaxAttempts) {
		t.Fatalf("poison tried %d times, want at least %d", n, cfg.MaxAttempts)
	}
	ctx := context.Background()
	dlq, err := b.js.Stream(ctx, bus.StreamDLQ)
	if err != nil {
		t.Fatal(err)
	}
	var reasons []string
	for seq := uint64(1); ; {
		m, err := dlq.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(bus.DLQSubject(DLQStage)))
		if err != nil {
			break
		}
		reasons = append(reasons, m.Header.Get(bus.HeaderDLQReason))
		seq = m.Sequence + 1
	}
	if len(reasons) != 2 {
		t.Fatalf("dead letters: %q", reasons)
	}
	var rows int
	_ = pool.QueryRow(ctx, `SELECT count(*) FROM dead_letters`).Scan(&rows)
	if rows != 2 {
		t.Fatalf("%d dead_letters rows", rows)
	}
}

// TestPoisonAtTheSizeLimitDoesNotStall: an undecodable claims-log message at the 8 MiB limit is dead-lettered
// by reference (a whole copy would not fit; before, the partition retried it forever) and the partition moves on.
func TestPoisonAtTheSizeLimitDoesNotStall(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	runService(t, pool, b, cfg, "r1")
	good := mkClaim("wsq", "Gus", "lives in", "Somewhere", baseTime, cfg.Partitions)
	msg := nats.NewMsg(bus.ClaimsSubject(good.Partition))
	msg.Data = []byte(`{"x":"` + strings.Repeat("z", 8<<20-8) + `"}`)
	if _, err := b.js.PublishMsg(context.Background(), msg); err != nil {
		t.Fatal(err)
	}
	publishClaim(t, b.js, good)
	waitApplied(t, pool, b.js, cfg.Partitions, 60*time.Second)
	if s := statusOf(t, pool, good.ClaimID); s != "active" {
		t.Fatalf("the claim after the poison is %s", s)
	}
	ctx := context.Background()
	dlq, err := b.js.Stream(ctx, bus.StreamDLQ)
	if err != nil {
		t.Fatal(err)
	}
	m, err := dlq.GetLastMsgForSubject(ctx, bus.DLQSubject(DLQStage))
	if err != nil {
		t.Fatal(err)
	}
	if m.Header.Get(bus.HeaderDLQTruncated) != "true" || m.Header.Get(bus.HeaderDLQSize) != "8388608" || m.Header.Get(bus.HeaderDLQStream) != bus.StreamClaims {
		t.Fatalf("dead letter headers %v", m.Header)
	}
	if info, _ := dlq.Info(ctx); info.State.Msgs != 1 {
		t.Fatalf("%d dead letters, want 1", info.State.Msgs)
	}
}
