package ingest

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/bus"
)

// TestConcurrentDecodesBounded: with MNEME_INGEST_MAX_CONCURRENT_DECODES=1, bodies arriving together over HTTP
// and the NATS inbox (four inbox workers) are decoded one at a time — the peak of bodies inside decoding is 1
// — and every one of them is still accepted: the others wait for the slot, they are not refused.
func TestConcurrentDecodesBounded(t *testing.T) {
	// Publishing 400 events with an fsync each can pass the default 10 s on a loaded machine; the bound under
	// test is decoding, so the publish wait is generous.
	e := newEnv(t, func(c *Config) { c.MaxConcurrentDecodes = 1; c.InboxConcurrency = 4; c.PublishTimeout = time.Minute })
	e.runInbox()
	// 400 claims of ~1 KiB each: a body that takes a noticeable time to decode and validate.
	batch := func(tag string) string {
		items := make([]string, 400)
		for i := range items {
			items[i] = fmt.Sprintf(`{"subject":"Person %s %d","predicate":"note","object":"%s"}`, tag, i, strings.Repeat("x", 1000))
		}
		return claims(items...)
	}
	const perTransport = 6
	for i := range perTransport {
		e.publishInbox(bus.InboxAgentSubject("acme", "bot", bus.InboxKindClaims), "", []byte(batch(fmt.Sprintf("nats%d", i))))
	}
	var wg sync.WaitGroup
	codes := make([]int, perTransport)
	for i := range perTransport {
		wg.Go(func() { codes[i] = e.post("/v1/workspaces/acme/claims", "alice", batch(fmt.Sprintf("http%d", i)), nil) })
	}
	wg.Wait()
	for i, c := range codes {
		if c != http.StatusAccepted {
			t.Errorf("HTTP batch %d: status %d, want 202", i, c)
		}
	}
	// 4,800 events to store under a shared machine's load: a longer deadline than eventually's.
	deadline := time.Now().Add(3 * time.Minute)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for e.streamCount(bus.StreamInbox) != 0 || e.streamCount(bus.StreamProposed) != 2*perTransport*400 {
		if time.Now().After(deadline) {
			t.Fatalf("after 3 minutes: %d inbox messages left, %d claims proposed (want %d), %d dead letters",
				e.streamCount(bus.StreamInbox), e.streamCount(bus.StreamProposed), 2*perTransport*400, e.streamCount(bus.StreamDLQ))
		}
		<-tick.C
	}
	if n := e.streamCount(bus.StreamDLQ); n != 0 {
		t.Errorf("%d dead letters, want none", n)
	}
	if peak := e.svc.decodePeak.Load(); peak != 1 {
		t.Errorf("peak of bodies decoded at once: %d, want 1", peak)
	}
	// The bound was put to the test: bodies did arrive while another was being decoded.
	if waits := e.svc.decodeWaits.Load(); waits == 0 {
		t.Error("no body waited for the decode slot: the test sent nothing concurrently")
	}
}
