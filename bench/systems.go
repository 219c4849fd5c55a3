package bench

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// System names.
const (
	SystemMneme            = "mneme"
	SystemMnemeAllVersions = "mneme-all-versions"
	SystemChunkRAG         = "chunk-rag"
	SystemFullContext      = "full-context"
)

// AllSystems lists the systems compared by default, in report order.
var AllSystems = []string{SystemMneme, SystemMnemeAllVersions, SystemChunkRAG, SystemFullContext}

// systemOrder is the report order of every system, diagnostic ones included.
var systemOrder = []string{SystemMneme, SystemMnemeAllVersions, SystemClaimsRRF, SystemChunkRAG, SystemFullContext}

// System is one memory system under test. Prepare is called once per conversation before its questions;
// Retrieve assembles the context a reader would see for a question within a token budget.
type System interface {
	Name() string
	Prepare(ctx context.Context, conv *Conversation) (IngestStats, error)
	Retrieve(ctx context.Context, conv *Conversation, q *Question, budget int) (*Retrieval, error)
}

// Answerer is a system that answers without an LLM (Mneme's deterministic /answer).
type Answerer interface {
	Answer(ctx context.Context, conv *Conversation, q *Question) (*Answer, error)
}

// Retrieval is a context assembled for a reader.
type Retrieval struct {
	Context string
	// Tokens is the context's size in cl100k_base tokens.
	Tokens int
	// Items are the units the context shows, in order: claims for Mneme, turns for the raw-history systems.
	Items []Item
	// Note says how the items were found in the context, where that needed a fallback.
	Note string
}

// Item is one unit of a context.
type Item struct {
	ID   string `json:"id"`
	Text string `json:"text,omitempty"`
	// TurnIDs are the source turns (claim provenance, or the raw turn itself).
	TurnIDs []string `json:"turn_ids,omitempty"`
	// Status is a Mneme claim status ("" for raw text, which presents everything alike).
	Status string `json:"status,omitempty"`
	// Conflicts are the claims this one is disputed with or superseded by.
	Conflicts    []string `json:"conflicts,omitempty"`
	SubjectKey   string   `json:"subject_key,omitempty"`
	PredicateKey string   `json:"predicate_key,omitempty"`
	Object       string   `json:"object,omitempty"`
}

// TurnSet returns the turn ids a context reaches.
func (r *Retrieval) TurnSet() map[string]bool {
	out := map[string]bool{}
	for _, it := range r.Items {
		for _, t := range it.TurnIDs {
			out[t] = true
		}
	}
	return out
}

// Answer is a system's own answer to a question.
type Answer struct {
	Text string
	// Mode is how it was produced (Mneme: deterministic, multi-hop, reader, none).
	Mode string
	// Tokens is what answering cost: the context tokens plus any LLM prompt and completion tokens.
	Tokens  int
	Context string
	Items   []Item
	Notes   []string
}

// IngestStats is what preparing one conversation cost.
type IngestStats struct {
	Turns int `json:"turns"`
	// Claims is how many claims the conversation produced (-1: unknown).
	Claims int `json:"claims"`
	// LLMPromptTokens and LLMCompletionTokens are the LLM tokens spent on extraction (0 with the rule extractor).
	LLMPromptTokens     int64 `json:"llm_prompt_tokens"`
	LLMCompletionTokens int64 `json:"llm_completion_tokens"`
	// Seconds is the wall time from the first write until the data was visible to queries.
	Seconds float64 `json:"seconds"`
	// Skipped is set when nothing had to be ingested (every question already done, or nothing to prepare).
	Skipped bool `json:"skipped,omitempty"`
}

// FullContext is the full-context baseline: the whole rendered history, whatever the budget.
type FullContext struct {
	Counter *tokens.Counter

	mu    sync.Mutex
	cache map[string]*Retrieval
}

// Name implements System.
func (f *FullContext) Name() string { return SystemFullContext }

// Prepare implements System: the history is rendered once.
func (f *FullContext) Prepare(_ context.Context, conv *Conversation) (IngestStats, error) {
	start := time.Now()
	f.render(conv)
	return IngestStats{Turns: conv.TurnCount(), Claims: -1, Seconds: time.Since(start).Seconds()}, nil
}

func (f *FullContext) render(conv *Conversation) *Retrieval {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cache == nil {
		f.cache = map[string]*Retrieval{}
	}
	if r, ok := f.cache[conv.ID]; ok {
		return r
	}
	r := &Retrieval{Context: RenderHistory(conv)}
	r.Tokens = f.Counter.Count(r.Context)
	for _, t := range conv.Turns() {
		r.Items = append(r.Items, Item{ID: t.ID, TurnIDs: []string{t.ID}})
	}
	f.cache[conv.ID] = r
	return r
}

// Retrieve implements System; the budget is ignored (the point of the baseline).
func (f *FullContext) Retrieve(_ context.Context, conv *Conversation, _ *Question, _ int) (*Retrieval, error) {
	return f.render(conv), nil
}

// ChunkRAG is the chunk-rag baseline: 512-token chunks of the raw history, BM25 + dense (the same embedder
// Mneme uses), reciprocal-rank fusion.
type ChunkRAG struct {
	Counter  *tokens.Counter
	Embedder embedding.Embedder
	// ChunkTokens is the chunk size (default DefaultChunkTokens).
	ChunkTokens int

	mu      sync.Mutex
	indexes map[string]*ChunkIndex
}

// Name implements System.
func (c *ChunkRAG) Name() string { return SystemChunkRAG }

// Prepare implements System: chunks and indexes the conversation.
func (c *ChunkRAG) Prepare(ctx context.Context, conv *Conversation) (IngestStats, error) {
	start := time.Now()
	x, err := NewChunkIndex(ctx, conv, c.Counter, c.Embedder, c.ChunkTokens)
	if err != nil {
		return IngestStats{}, err
	}
	c.mu.Lock()
	if c.indexes == nil {
		c.indexes = map[string]*ChunkIndex{}
	}
	c.indexes[conv.ID] = x
	c.mu.Unlock()
	return IngestStats{Turns: conv.TurnCount(), Claims: -1, Seconds: time.Since(start).Seconds()}, nil
}

// Retrieve implements System.
func (c *ChunkRAG) Retrieve(ctx context.Context, conv *Conversation, q *Question, budget int) (*Retrieval, error) {
	c.mu.Lock()
	x := c.indexes[conv.ID]
	c.mu.Unlock()
	if x == nil {
		return nil, fmt.Errorf("chunk-rag: conversation %s was not prepared", conv.ID)
	}
	return x.Retrieve(ctx, q.Text, budget)
}

// compactSpace collapses runs of white space, for matching claim texts inside an assembled context.
func compactSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
