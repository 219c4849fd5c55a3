package llm

import (
	"context"
	"sort"
	"sync"
)

// Usage is what one or more calls cost.
type Usage struct {
	// PromptTokens, CompletionTokens and TotalTokens are summed from the usage objects the server
	// returned, including attempts whose content was later rejected as malformed (they were billed).
	// Servers that return no usage contribute zero.
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
	// Calls counts HTTP requests sent, including retries and format fallbacks.
	Calls int64 `json:"calls"`
	// Retries counts the requests among Calls that repeated an earlier one (after a retryable
	// failure or a structured-output fallback).
	Retries int64 `json:"retries"`
}

// Add returns the field-wise sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		PromptTokens:     u.PromptTokens + v.PromptTokens,
		CompletionTokens: u.CompletionTokens + v.CompletionTokens,
		TotalTokens:      u.TotalTokens + v.TotalTokens,
		Calls:            u.Calls + v.Calls,
		Retries:          u.Retries + v.Retries,
	}
}

// DefaultChatStage and DefaultEmbedStage name the accounting stage of calls that name none.
const (
	DefaultChatStage  = "chat"
	DefaultEmbedStage = "embed"
)

type stageKey struct{}

// WithStage returns a context whose LLM calls are accounted under stage (e.g. "extract", "judge",
// "reader"). ChatRequest.Stage, when set, takes precedence.
func WithStage(ctx context.Context, stage string) context.Context {
	return context.WithValue(ctx, stageKey{}, stage)
}

// StageFrom returns the stage set by WithStage, or "".
func StageFrom(ctx context.Context) string {
	s, _ := ctx.Value(stageKey{}).(string)
	return s
}

// UsageRecorder receives every Usage an Accountant records; use it to export metrics to a system
// other than OpenTelemetry. It must be safe for concurrent use.
type UsageRecorder func(ctx context.Context, stage string, u Usage)

// Accountant accumulates Usage per stage name. It is safe for concurrent use; the zero value is
// ready to use (without metrics export).
type Accountant struct {
	mu       sync.Mutex
	stages   map[string]Usage
	recorder []UsageRecorder
}

// AccountantOption configures an Accountant.
type AccountantOption func(*Accountant)

// WithRecorder adds a hook called with every recorded Usage (after it is accumulated).
func WithRecorder(r UsageRecorder) AccountantOption {
	return func(a *Accountant) { a.recorder = append(a.recorder, r) }
}

// NewAccountant returns an empty Accountant.
func NewAccountant(opts ...AccountantOption) *Accountant {
	a := &Accountant{}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Add accumulates u under stage. A nil Accountant ignores the call.
func (a *Accountant) Add(ctx context.Context, stage string, u Usage) {
	if a == nil {
		return
	}
	a.mu.Lock()
	if a.stages == nil {
		a.stages = make(map[string]Usage)
	}
	a.stages[stage] = a.stages[stage].Add(u)
	recs := a.recorder
	a.mu.Unlock()
	for _, r := range recs {
		r(ctx, stage, u)
	}
}

// Snapshot returns a copy of the accumulated usage per stage.
func (a *Accountant) Snapshot() map[string]Usage {
	if a == nil {
		return map[string]Usage{}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	out := make(map[string]Usage, len(a.stages))
	for k, v := range a.stages {
		out[k] = v
	}
	return out
}

// Stage returns the usage accumulated under one stage.
func (a *Accountant) Stage(stage string) Usage {
	if a == nil {
		return Usage{}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stages[stage]
}

// Total returns the usage summed over all stages.
func (a *Accountant) Total() Usage {
	var t Usage
	for _, u := range a.Snapshot() {
		t = t.Add(u)
	}
	return t
}

// Stages returns the stage names seen so far, sorted.
func (a *Accountant) Stages() []string {
	snap := a.Snapshot()
	names := make([]string, 0, len(snap))
	for k := range snap {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}
