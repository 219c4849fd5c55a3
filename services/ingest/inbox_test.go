package ingest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/ingest/hostile"
)

func TestInboxGoodMessagesBecomeEvents(t *testing.T) {
	e := newEnv(t, nil)
	e.runInbox()
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", []byte(turns(
		`{"turn_id":"t1","session_id":"s","role":"user","content":"I moved to Berlin."}`,
		`{"agent_id":"bob","session_id":"s","role":"assistant","content":"Nice."}`,
	)))
	e.publishInbox(bus.InboxClaimsSubject("acme"), "alice", []byte(claims(goodClaim)))

	eventually(t, "2 turns and 1 claim", func() bool {
		return e.streamCount(bus.StreamTurns) == 2 && e.streamCount(bus.StreamProposed) == 1
	})
	eventually(t, "the inbox to drain (work queue: acked messages are removed)", func() bool {
		return e.streamCount(bus.StreamInbox) == 0
	})
	envs := e.envelopes(bus.StreamTurns)
	var a, b event.TurnAcceptedV1
	_ = envs[0].Into(event.TypeTurnAccepted, &a)
	_ = envs[1].Into(event.TypeTurnAccepted, &b)
	if a.AgentID != "alice" || b.AgentID != "bob" || a.TurnID != "t1" || b.TurnID == "" {
		t.Fatalf("turns %+v %+v", a, b)
	}
	var c event.ClaimProposedV1
	_ = e.envelopes(bus.StreamProposed)[0].Into(event.TypeClaimProposed, &c)
	if c.SubjectKey != "alice" || c.Provenance.AgentID != "alice" {
		t.Fatalf("claim %+v", c)
	}
	if st := e.svc.Stats(); st.Accepted != 3 || st.DeadLettered != 0 {
		t.Fatalf("stats %+v", st)
	}
}

func TestInboxBadMessageIsDeadLetteredAndTheNextFlows(t *testing.T) {
	e := newEnv(t, nil)
	e.runInbox()
	bad := []byte(turns(goodTurn, `{"session_id":"s","role":"user","content":"`+strings.Repeat("x", 70000)+`"}`))
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", bad)
	e.publishInbox(bus.InboxTurnsSubject("acme"), "", []byte(turns(goodTurn)))   // no agent anywhere
	e.publishInbox("mneme.inbox.acme.gossip", "alice", []byte(turns(goodTurn)))  // unknown kind
	e.publishInbox(bus.InboxClaimsSubject("acme"), "alice", []byte("{not json")) // not JSON
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", []byte(turns(`{"turn_id":"good","session_id":"s","role":"user","content":"ok"}`)))

	eventually(t, "the good message's event", func() bool { return e.streamCount(bus.StreamTurns) == 1 })
	eventually(t, "4 dead letters", func() bool { return e.streamCount(bus.StreamDLQ) == 4 })
	eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })

	// Messages are processed concurrently, so dead letters are matched to inbox messages by stream sequence.
	wantReasons := map[string]string{"1": "turns[1].content", "2": "turns[0].agent_id", "3": "subject", "4": "not valid JSON"}
	for _, m := range e.streamMsgs(bus.StreamDLQ) {
		seq := m.Header.Get(bus.HeaderDLQSequence)
		reason := m.Header.Get(bus.HeaderDLQReason)
		if want, ok := wantReasons[seq]; !ok || !strings.Contains(reason, want) {
			t.Errorf("dead letter of inbox message %s: reason %q does not name %q", seq, reason, want)
		}
		delete(wantReasons, seq)
		if m.Subject != bus.DLQSubject("ingest") || m.Header.Get(bus.HeaderDLQStage) != "ingest" || m.Header.Get(bus.HeaderDLQSubject) == "" {
			t.Errorf("dead letter %s: subject %q headers %v", seq, m.Subject, m.Header)
		}
		if seq == "1" {
			if string(m.Data) != string(bad) {
				t.Error("the dead letter does not keep the original body")
			}
			if !strings.Contains(reason, "65536") {
				t.Errorf("reason %q does not name the limit", reason)
			}
		}
	}
	if st := e.svc.Stats(); st.DeadLettered != 4 || st.Rejected != 4 || st.Accepted != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestInboxDuplicatesHaveOneEffect(t *testing.T) {
	e := newEnv(t, nil)
	e.runInbox()
	body := []byte(turns(`{"turn_id":"same","session_id":"s","role":"user","content":"hello"}`))
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", body)
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", body)
	e.publishInbox(bus.InboxClaimsSubject("acme"), "alice", []byte(claims(goodClaim)))
	e.publishInbox(bus.InboxClaimsSubject("acme"), "alice", []byte(claims(`{"subject":"Alice","predicate":"lives in","object":"Berlin","valid_from":"2026-01-01T00:00:00Z"}`)))
	e.publishInbox(bus.InboxClaimsSubject("acme"), "alice", []byte(claims(`{"subject":"Alice","predicate":"lives in","object":"Berlin","valid_from":"2026-01-01T00:00:00Z"}`)))
	eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })
	eventually(t, "all processed", func() bool { st := e.svc.Stats(); return st.Accepted+st.Duplicates == 5 })
	if n := e.streamCount(bus.StreamTurns); n != 1 {
		t.Fatalf("%d turn events, want 1", n)
	}
	// goodClaim (valid_from defaults to its message's time) is one claim; the explicit-time claim sent twice is
	// another, once.
	if n := e.streamCount(bus.StreamProposed); n != 2 {
		t.Fatalf("%d claim events, want 2", n)
	}
	if st := e.svc.Stats(); st.Duplicates != 2 {
		t.Fatalf("stats %+v", st)
	}
}

func TestInboxTransientFailureIsRetried(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.InboxRetryBackoff = 20 * time.Millisecond })
	ctx := context.Background()
	if err := e.js.DeleteStream(ctx, bus.StreamProposed); err != nil {
		t.Fatal(err)
	}
	e.runInbox()
	e.publishInbox(bus.InboxClaimsSubject("acme"), "alice", []byte(claims(goodClaim)))
	eventually(t, "a retry", func() bool { return e.svc.Stats().Retried >= 1 })
	// The broker recovers: the same message now goes through; nothing was dead-lettered.
	if err := bus.DefaultTopology().Ensure(ctx, e.js); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the claim event", func() bool { return e.streamCount(bus.StreamProposed) == 1 })
	eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })
	if n := e.streamCount(bus.StreamDLQ); n != 0 {
		t.Fatalf("%d dead letters for a transient failure", n)
	}
}

func TestInboxRetriesAreBounded(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.InboxRetryBackoff = 10 * time.Millisecond; c.InboxMaxDeliver = 3 })
	e.runInbox()
	// The turns stream refuses this message's event (larger than the stream allows): a failure of the message,
	// not of the broker. A missing stream or a leader election is an outage, retried without using up the
	// attempts (bus.Unavailable; TestInboxTransientFailureIsRetried).
	refuseLargerThan(t, e.js, bus.StreamTurns, 16)
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", []byte(turns(goodTurn)))
	eventually(t, "a dead letter after retries", func() bool { return e.streamCount(bus.StreamDLQ) == 1 })
	reason := e.streamMsgs(bus.StreamDLQ)[0].Header.Get(bus.HeaderDLQReason)
	if !strings.Contains(reason, "gave up after 3 deliveries") {
		t.Fatalf("reason %q", reason)
	}
	eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })
	if st := e.svc.Stats(); st.Retried != 2 || st.DeadLettered != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestInboxUnknownWorkspaceOutsideDevMode(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.DevMode = false })
	if _, err := auth.CreateWorkspace(context.Background(), e.db, "acme", "admin"); err != nil {
		t.Fatal(err)
	}
	e.runInbox()
	e.publishInbox(bus.InboxAgentSubject("ghost", "alice", bus.InboxKindTurns), "", []byte(turns(goodTurn)))
	e.publishInbox(bus.InboxAgentSubject("acme", "alice", bus.InboxKindTurns), "", []byte(turns(goodTurn)))
	eventually(t, "a dead letter and an event", func() bool {
		return e.streamCount(bus.StreamDLQ) == 1 && e.streamCount(bus.StreamTurns) == 1
	})
	if reason := e.streamMsgs(bus.StreamDLQ)[0].Header.Get(bus.HeaderDLQReason); !strings.Contains(reason, "workspace") {
		t.Fatalf("reason %q", reason)
	}
}

func TestRunStopsOnCancel(t *testing.T) {
	e := newEnv(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.svc.Run(ctx) }()
	eventually(t, "ready", func() bool { return e.svc.Ready(context.Background()) == nil })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Run did not return after cancel")
	}
	if e.svc.Ready(context.Background()) == nil {
		t.Fatal("ready after Run returned")
	}
}

// TestInboxDeadLettersAtTheSizeLimit: invalid messages exactly at the 8 MiB message limit (one with a string
// too long, one with too many items) are each dead-lettered once, with their reason, a digest and an excerpt
// (a whole copy plus the dead-letter headers would not fit in a message), and the message after them is
// processed. Before, such a message could not be dead-lettered and was redelivered until NATS gave up on it,
// leaving it in the inbox for good.
func TestInboxDeadLettersAtTheSizeLimit(t *testing.T) {
	e := newEnv(t, nil)
	e.runInbox()
	const limit = 8 << 20
	pad := func(b []byte) []byte { return append(b, bytes.Repeat([]byte(" "), limit-len(b))...) }
	long := pad(hostile.LongString(limit).Data)
	many := pad(hostile.EmptyObjects(limit).Data)
	subject := bus.InboxAgentSubject("acme", "alice", bus.InboxKindTurns)
	for _, b := range [][]byte{long, many} {
		if len(b) != limit {
			t.Fatalf("body of %d bytes", len(b))
		}
		e.publishInbox(subject, "", b)
	}
	e.publishInbox(subject, "", []byte(turns(`{"turn_id":"after","session_id":"s","role":"user","content":"still flowing"}`)))

	eventually(t, "the message after them is processed", func() bool { return e.streamCount(bus.StreamTurns) == 1 })
	eventually(t, "two dead letters", func() bool { return e.streamCount(bus.StreamDLQ) == 2 })
	eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })
	want := map[string]struct {
		body   []byte
		reason string
	}{
		// 8 MiB less the 53 bytes before the content and the 4 after it.
		"1": {long, "turns[0].content: is 8388551 bytes (limit 65536 bytes)"},
		"2": {many, "turns: has more than 256 turns (limit 256 items)"},
	}
	for _, m := range e.streamMsgs(bus.StreamDLQ) {
		seq := m.Header.Get(bus.HeaderDLQSequence)
		w, ok := want[seq]
		if !ok {
			t.Fatalf("unexpected dead letter of inbox message %q", seq)
		}
		delete(want, seq)
		sum := sha256.Sum256(w.body)
		if got := m.Header.Get(bus.HeaderDLQReason); got != w.reason {
			t.Errorf("message %s: reason %q, want %q", seq, got, w.reason)
		}
		if m.Header.Get(bus.HeaderDLQDigest) != "sha256:"+hex.EncodeToString(sum[:]) || m.Header.Get(bus.HeaderDLQSize) != "8388608" ||
			m.Header.Get(bus.HeaderDLQTruncated) != "true" || m.Header.Get(bus.HeaderDLQStream) != bus.StreamInbox {
			t.Errorf("message %s: headers %v", seq, m.Header)
		}
		if len(m.Data) != bus.DeadLetterExcerptBytes || !bytes.HasPrefix(w.body, m.Data) {
			t.Errorf("message %s: excerpt of %d bytes is not the body's start", seq, len(m.Data))
		}
	}
	if st := e.svc.Stats(); st.DeadLettered != 2 || st.Retried != 0 || st.Accepted != 1 {
		t.Fatalf("stats %+v: each message must be dead-lettered once, never retried", st)
	}
}

// refuseLargerThan makes stream refuse every message above limit bytes, so publishing to it fails with an error
// that names the message (JetStream's "message size exceeds maximum allowed"), not an unavailable broker.
func refuseLargerThan(t *testing.T, js jetstream.JetStream, stream string, limit int32) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	cfg := st.CachedInfo().Config
	cfg.MaxMsgSize = limit
	if _, err := js.UpdateStream(ctx, cfg); err != nil {
		t.Fatal(err)
	}
}
