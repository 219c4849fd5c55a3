// Package extract defines what every claim extractor of the extractor service takes and returns: a window of
// one session's turns in, candidate claims with their source turns out. The rule-based extractor (package
// rules) and the LLM extractor (package llmextract) implement Extractor.
package extract

import (
	"context"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/llm"
)

// Window is a run of consecutive turns of one session, bounded by a token budget.
type Window struct {
	Workspace string
	SessionID string
	Turns     []event.TurnAcceptedV1
}

// Claim is a candidate claim before it becomes a ClaimProposedV1 event.
type Claim struct {
	// TurnIDs are the source turns; the first one owns the claim (its id derives from it).
	TurnIDs      []string
	Subject      string
	SubjectKey   string
	Predicate    string
	PredicateKey string
	Object       string
	// Text is the self-contained claim sentence (speaker named, dates absolute).
	Text       string
	Functional bool
	// ValidFrom is when the claim became true in the world: a resolved date, else the turn's occurred_at.
	ValidFrom time.Time
	// Sequence is an ordinal from the source (a numbered fact line, else the turn's sequence).
	Sequence   *int64
	Confidence float64
	// Fallback marks a sentence-level claim (predicate "said"/"mentioned") that keeps what was said
	// retrievable when no structured claim covered it.
	Fallback bool
	// Negated marks a negative assertion ("I have never used Zotero": predicate "has used", object "Zotero").
	Negated bool
}

// Result is the outcome of extracting one window.
type Result struct {
	Claims []Claim
	// Usage is what LLM calls cost (zero for rule-based extraction).
	Usage llm.Usage
}

// Extractor turns windows into claims. Implementations are safe for concurrent use. An error means the
// window could not be extracted now (the caller may retry it or fall back to another extractor).
type Extractor interface {
	// Name is the provenance name: "rules" or "llm:<model>".
	Name() string
	// Version is the provenance version; it changes when output for the same input may change.
	Version() string
	Extract(ctx context.Context, w Window) (Result, error)
}
