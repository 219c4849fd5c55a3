package app

import (
	"fmt"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/priority"
)

// PriorityConfig gives queries priority over ingest work in a process that runs both (pkg/priority,
// docs/architecture.md "Queries before ingest").
type PriorityConfig struct {
	// QueryPriority makes ingest work — rule-based extraction windows, local-model embedding chunks,
	// reconciler batches — wait for the queries in flight in the same process (at most
	// MNEME_INGEST_MAX_DEFER each), and bounds it to MNEME_INGEST_SLOTS units while queries are in flight. It
	// applies only to a process that runs the query service beside the extractor, embedder or reconciler
	// (the all-in-one process); with no query in flight ingest runs unbounded. Accepting writes (ingest's
	// HTTP and inbox) is never delayed. On by default: in two back-to-back pairs on 2 cores it cut search p99
	// under ingest by a quarter while the process accepted 1.5–1.7× the turns (docs/benchmarks.md, "Searches
	// while ingesting"); the projection then lags further behind the accepted writes.
	QueryPriority bool `env:"MNEME_QUERY_PRIORITY" envDefault:"true"`
	// IngestSlots bounds the ingest units running at once while queries are in flight. 0 means half the
	// process's GOMAXPROCS, at least 1.
	IngestSlots int `env:"MNEME_INGEST_SLOTS" envDefault:"0"`
	// IngestMaxDefer is the longest one ingest unit waits for in-flight queries before it runs anyway, so
	// ingest never starves: with queries always in flight each slot still runs a unit at least every unit's
	// duration plus this. 0 means units never wait for queries (only MNEME_INGEST_SLOTS applies).
	IngestMaxDefer time.Duration `env:"MNEME_INGEST_MAX_DEFER" envDefault:"50ms"`
	// IngestEmbedChunk is how many texts one ingest embedding unit holds with the local model: a query waits
	// at most for the chunk in flight, not a whole batch.
	IngestEmbedChunk int `env:"MNEME_INGEST_EMBED_CHUNK" envDefault:"16"`
	// IngestEmbedThreads bounds the goroutines one ingest embedding uses with the local model (queries keep
	// GOMAXPROCS). 0 means the number of ingest slots.
	IngestEmbedThreads int `env:"MNEME_INGEST_EMBED_THREADS" envDefault:"0"`
}

func (c PriorityConfig) validate() []error {
	var errs []error
	if c.IngestSlots < 0 || c.IngestSlots > 1024 {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_SLOTS=%d: use 0 (half of GOMAXPROCS) or 1..1024", c.IngestSlots))
	}
	if c.IngestMaxDefer < 0 || c.IngestMaxDefer > time.Minute {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_MAX_DEFER=%s: use 0 (never wait for queries) up to 1m; default 50ms", c.IngestMaxDefer))
	}
	if c.IngestEmbedChunk < 1 || c.IngestEmbedChunk > 1024 {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_EMBED_CHUNK=%d: use 1..1024", c.IngestEmbedChunk))
	}
	if c.IngestEmbedThreads < 0 || c.IngestEmbedThreads > 1024 {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_EMBED_THREADS=%d: use 0 (the slot count) or 1..1024", c.IngestEmbedThreads))
	}
	return errs
}

// priorityApplies reports whether this process serves queries beside ingest work the gate can order.
func (c Config) priorityApplies() bool {
	targets := c.TargetList()
	return c.QueryPriority && slices.Contains(targets, "query") &&
		slices.ContainsFunc(targets, func(t string) bool { return t == "extractor" || t == "embedder" || t == "reconciler" })
}

// newGate builds the process's query-over-ingest gate, or nil when it does not apply.
func (c Config) newGate() *priority.Gate {
	if !c.priorityApplies() {
		return nil
	}
	maxDefer := c.IngestMaxDefer
	if maxDefer == 0 {
		maxDefer = -1 // the gate's "never wait for queries"
	}
	return priority.New(priority.Options{Slots: c.IngestSlots, MaxDefer: maxDefer})
}

// ingestEmbedder is what the embedder stage embeds with: with a gate and the local model, a copy of the model
// sharing its weights but limited to fewer goroutines, cut into gated chunks; otherwise the model itself (an
// embeddings API waits on the network, not this process's cores).
func (c Config) ingestEmbedder(emb embedding.Embedder, gate *priority.Gate) embedding.Embedder {
	m, ok := emb.(*uselite.Model)
	if gate == nil || !ok {
		return emb
	}
	threads := c.IngestEmbedThreads
	if threads == 0 {
		threads = gate.Slots()
	}
	return priority.NewEmbedder(m.ThreadLimited(threads), gate, c.IngestEmbedChunk)
}
