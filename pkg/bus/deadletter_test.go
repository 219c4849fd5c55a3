package bus_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
)

func TestDeadLetterMsg(t *testing.T) {
	md := &jetstream.MsgMetadata{Stream: "MNEME_INBOX"}
	md.Sequence.Stream = 9
	hdr := nats.Header{}
	hdr.Set("X-Mneme-Agent", "alice")
	hdr.Set(jetstream.MsgIDHeader, "orig-id")
	hdr.Set("Nats-Expected-Stream", "MNEME_INBOX")
	hdr.Set("Nats-Rollup", "all")
	hdr.Set("X-Big", strings.Repeat("v", 5000))

	small := []byte(`{"turns":[]}`)
	dl := bus.DeadLetterMsg("ingest", "mneme.inbox.acme.alice.turns", small, hdr, md, "turns[0].x\r\nMneme-Dlq-Stream: FORGED: unknown field")
	if dl.Subject != "mneme.dlq.ingest" || string(dl.Data) != string(small) || dl.Header.Get(bus.HeaderDLQTruncated) != "" {
		t.Fatalf("small body: %q %q %v", dl.Subject, dl.Data, dl.Header)
	}
	for k := range dl.Header {
		if strings.HasPrefix(k, "Nats-") && k != jetstream.MsgIDHeader {
			t.Errorf("copied %s: JetStream would apply it to the dead-letter publish", k)
		}
	}
	if dl.Header.Get(jetstream.MsgIDHeader) != "dlq:MNEME_INBOX:9" || dl.Header.Get(bus.HeaderDLQMsgID) != "orig-id" || dl.Header.Get("X-Mneme-Agent") != "alice" {
		t.Errorf("ids and agent: %v", dl.Header)
	}
	if got := dl.Header.Get(bus.HeaderDLQStream); got != "MNEME_INBOX" || len(dl.Header.Values(bus.HeaderDLQStream)) != 1 {
		t.Errorf("stream header %v: a reason must not forge headers", dl.Header.Values(bus.HeaderDLQStream))
	}
	if r := dl.Header.Get(bus.HeaderDLQReason); strings.ContainsAny(r, "\r\n") || !strings.Contains(r, "unknown field") {
		t.Errorf("reason %q", r)
	}
	if v := dl.Header.Get("X-Big"); len(v) > 1024 || !utf8.ValidString(v) {
		t.Errorf("copied header value of %d bytes", len(v))
	}
	sum := sha256.Sum256(small)
	if dl.Header.Get(bus.HeaderDLQDigest) != "sha256:"+hex.EncodeToString(sum[:]) || dl.Header.Get(bus.HeaderDLQSize) != "12" {
		t.Errorf("digest and size: %v", dl.Header)
	}

	// A large body is cut on a rune boundary: 'é' is two bytes, so the excerpt ends one byte early.
	big := []byte("x" + strings.Repeat("é", bus.DeadLetterFullBodyBytes))
	dl = bus.DeadLetterMsg("reconciler", "mneme.claims.3", big, nil, nil, strings.Repeat("r", 10000))
	if dl.Header.Get(bus.HeaderDLQTruncated) != "true" || len(dl.Data) != bus.DeadLetterExcerptBytes-1 || !utf8.Valid(dl.Data) {
		t.Fatalf("excerpt of %d bytes, truncated %q", len(dl.Data), dl.Header.Get(bus.HeaderDLQTruncated))
	}
	if r := dl.Header.Get(bus.HeaderDLQReason); len(r) > 4096 || !strings.HasSuffix(r, "…") {
		t.Errorf("reason of %d bytes", len(r))
	}
	if dl.Header.Get(jetstream.MsgIDHeader) != "" {
		t.Error("a dead letter without a stream position has no message id of its own")
	}
}

// TestDeadLetterOfAMessageAtTheLimit: a message of exactly the streams' 8 MiB limit, with headers that would
// make JetStream refuse a copy, is dead-lettered; once, however often dead-lettering is retried.
func TestDeadLetterOfAMessageAtTheLimit(t *testing.T) {
	s := bustest.Start(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hdr := nats.Header{}
	hdr.Set("Nats-Expected-Stream", bus.StreamInbox)
	body := []byte(strings.Repeat("z", 8<<20-len("NATS/1.0\r\nNats-Expected-Stream: MNEME_INBOX\r\n\r\n")))
	msg := &nats.Msg{Subject: "mneme.inbox.acme.alice.turns", Header: hdr, Data: body}
	if _, err := s.JS.PublishMsg(ctx, msg); err != nil {
		t.Fatalf("publish at the limit: %v", err)
	}
	cons, err := s.JS.CreateOrUpdateConsumer(ctx, bus.StreamInbox, jetstream.ConsumerConfig{Durable: "t", AckPolicy: jetstream.AckExplicitPolicy})
	if err != nil {
		t.Fatal(err)
	}
	m, err := cons.Next(jetstream.FetchMaxWait(10 * time.Second))
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := bus.DeadLetter(ctx, s.JS, "ingest", m, "too large"); err != nil {
			t.Fatalf("dead-letter: %v", err)
		}
	}
	if err := m.Term(); err != nil {
		t.Fatal(err)
	}
	st, err := s.JS.Stream(ctx, bus.StreamDLQ)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 1 {
		t.Fatalf("%d dead letters, want 1", info.State.Msgs)
	}
	dl, err := st.GetMsg(ctx, info.State.LastSeq)
	if err != nil {
		t.Fatal(err)
	}
	if dl.Header.Get(bus.HeaderDLQSize) != strconv.Itoa(len(body)) || dl.Header.Get(bus.HeaderDLQTruncated) != "true" || dl.Header.Get(bus.HeaderDLQReason) != "too large" {
		t.Fatalf("dead letter headers %v", dl.Header)
	}
}
