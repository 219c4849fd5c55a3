package app

import (
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
	"github.com/mneme-ai/mneme/pkg/priority"
)

func TestPriorityGateOnlyWhereQueriesMeetIngest(t *testing.T) {
	cases := []struct {
		target   string
		priority bool
		want     bool
	}{
		{"all", true, true},
		{"query,embedder", true, true},
		{"query,reconciler", true, true},
		{"ingest,query", true, false}, // accepting writes is never gated: nothing to order
		{"query", true, false},
		{"embedder", true, false},
		{"extractor,embedder,reconciler", true, false},
		{"all", false, false},
	}
	for _, c := range cases {
		cfg := Config{Target: c.target}
		cfg.QueryPriority = c.priority
		cfg.IngestMaxDefer = 50 * time.Millisecond
		gate := cfg.newGate()
		if (gate != nil) != c.want {
			t.Errorf("target %q, priority %v: gate %v, want %v", c.target, c.priority, gate != nil, c.want)
		}
	}
}

func TestPriorityGateSettings(t *testing.T) {
	cfg := Config{Target: "all"}
	cfg.QueryPriority, cfg.IngestSlots, cfg.IngestMaxDefer = true, 3, 20*time.Millisecond
	g := cfg.newGate()
	if g.Slots() != 3 || g.MaxDefer() != 20*time.Millisecond {
		t.Errorf("slots %d, max defer %s; want 3, 20ms", g.Slots(), g.MaxDefer())
	}
	cfg.IngestSlots, cfg.IngestMaxDefer = 0, 0
	g = cfg.newGate()
	if g.Slots() != priority.DefaultSlots() || g.MaxDefer() >= 0 {
		t.Errorf("slots %d, max defer %s; want DefaultSlots() and no wait for queries (negative)", g.Slots(), g.MaxDefer())
	}
	// An embeddings API is not wrapped: it waits on the network, not on this process's cores.
	api := embeddingtest.New(8)
	if got := cfg.ingestEmbedder(api, g); got != api {
		t.Errorf("a non-local embedder was wrapped: %T", got)
	}
	if got := cfg.ingestEmbedder(api, nil); got != api {
		t.Errorf("wrapped without a gate: %T", got)
	}
}

func TestPriorityConfigValidation(t *testing.T) {
	bad := []struct {
		set  func(*PriorityConfig)
		want string
	}{
		{func(c *PriorityConfig) { c.IngestSlots = -1 }, "MNEME_INGEST_SLOTS=-1"},
		{func(c *PriorityConfig) { c.IngestMaxDefer = -time.Millisecond }, "MNEME_INGEST_MAX_DEFER=-1ms"},
		{func(c *PriorityConfig) { c.IngestMaxDefer = 2 * time.Minute }, "MNEME_INGEST_MAX_DEFER=2m0s"},
		{func(c *PriorityConfig) { c.IngestEmbedChunk = 0 }, "MNEME_INGEST_EMBED_CHUNK=0"},
		{func(c *PriorityConfig) { c.IngestEmbedThreads = -2 }, "MNEME_INGEST_EMBED_THREADS=-2"},
	}
	for _, b := range bad {
		c := PriorityConfig{QueryPriority: true, IngestMaxDefer: 50 * time.Millisecond, IngestEmbedChunk: 16}
		if errs := c.validate(); len(errs) != 0 {
			t.Fatalf("defaults refused: %v", errs)
		}
		b.set(&c)
		errs := c.validate()
		if len(errs) != 1 || !strings.Contains(errs[0].Error(), b.want) {
			t.Errorf("want one error naming %s, got %v", b.want, errs)
		}
	}
}
