package query

import (
	"errors"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/llm"
)

// Config is the query service's configuration, read from MNEME_QUERY_* (plus the shared MNEME_* settings) by
// config.Load. Every zero value of a field means its documented default (Defaults fills them), so a Config
// built in code needs only the fields it changes.
type Config struct {
	config.Common

	// DefaultK is how many claims a search returns when the request names no k.
	DefaultK int `env:"MNEME_QUERY_DEFAULT_K" envDefault:"10"`
	// MaxK is the largest k a request may ask for; larger is a 400.
	MaxK int `env:"MNEME_QUERY_MAX_K" envDefault:"100"`
	// DefaultTokenBudget caps the assembled context when the request names no token_budget.
	DefaultTokenBudget int `env:"MNEME_QUERY_DEFAULT_TOKEN_BUDGET" envDefault:"500"`
	// MaxTokenBudget is the largest token_budget a request may ask for; larger is a 400.
	MaxTokenBudget int `env:"MNEME_QUERY_MAX_TOKEN_BUDGET" envDefault:"8000"`
	// MaxQueryBytes bounds the query or question text (bytes of UTF-8).
	MaxQueryBytes int `env:"MNEME_QUERY_MAX_QUERY_BYTES" envDefault:"4096"`
	// MaxBodyBytes bounds a request body.
	MaxBodyBytes int64 `env:"MNEME_QUERY_MAX_BODY_BYTES" envDefault:"65536"`
	// RequestTimeout is the deadline of every request (retrieval, answering and any LLM call included).
	RequestTimeout time.Duration `env:"MNEME_QUERY_REQUEST_TIMEOUT" envDefault:"10s"`
	// Tokenizer names the token counter of context budgets: cl100k_base or o200k_base.
	Tokenizer string `env:"MNEME_QUERY_TOKENIZER" envDefault:"cl100k_base"`
	// EfSearch is the HNSW candidate list size of dense retrieval (hnsw.ef_search); higher is slower and
	// more exact (measured recall@10 against exact search at 64 / 100 / 200: 0.99 / 1.00 / 1.00 with 100k
	// claims, 0.70 / 0.85 / 0.90 with 1M; docs/benchmarks.md).
	EfSearch int `env:"MNEME_QUERY_EF_SEARCH" envDefault:"100"`
	// Candidates is how many candidates each retrieval mode (dense, lexical, subject) contributes to fusion.
	Candidates int `env:"MNEME_QUERY_CANDIDATES" envDefault:"40"`
	// RRFK is the k constant of reciprocal-rank fusion: score = Σ 1/(RRFK + rank).
	RRFK int `env:"MNEME_QUERY_RRF_K" envDefault:"60"`
	// ScoreGap stops the adaptive cut when the next fused score falls below ScoreGap × the previous one
	// (after MinK claims). 0 disables the gap rule (only k and the token budget cut).
	ScoreGap float64 `env:"MNEME_QUERY_SCORE_GAP" envDefault:"0.5"`
	// MinK is how many claims the adaptive cut keeps before the score-gap rule may stop it.
	MinK int `env:"MNEME_QUERY_MIN_K" envDefault:"3"`
	// MaxHops bounds chained (multi-hop) answers.
	MaxHops int `env:"MNEME_QUERY_MAX_HOPS" envDefault:"4"`
	// MaxInFlight bounds the searches and question resolutions that run at once in the process; the others
	// wait their turn, in order, within their request deadline. 0 (the default) is twice GOMAXPROCS in a process
	// that runs no ingest work (a query replica; it suits a Postgres on the same cores: raise it where Postgres
	// has cores of its own) and no bound beside ingest (-target=all). -1: no bound.
	MaxInFlight int `env:"MNEME_QUERY_MAX_IN_FLIGHT" envDefault:"0"`

	// LLM is the chat endpoint of the LLM features (Self-Ask planning, reader mode); without it answers are
	// deterministic only.
	LLM llm.Endpoint `envPrefix:"MNEME_QUERY_LLM_"`
	// LLMTimeout bounds one LLM call (within the request deadline).
	LLMTimeout time.Duration `env:"MNEME_QUERY_LLM_TIMEOUT" envDefault:"30s"`
	// Reader says when the LLM reader answers: "fallback" (only when the deterministic path has no answer),
	// "always" (the reader answers from the assembled context; deterministic hops still fill it) or "off".
	Reader string `env:"MNEME_QUERY_READER" envDefault:"fallback"`
	// Planner says who decomposes chained questions: "rules" (no LLM) or "llm" (Self-Ask planning with the
	// configured LLM; every hop stays deterministic; falls back to rules when the plan does not resolve).
	Planner string `env:"MNEME_QUERY_PLANNER" envDefault:"rules"`
	// ReaderMaxTokens caps the reader's completion.
	ReaderMaxTokens int `env:"MNEME_QUERY_READER_MAX_TOKENS" envDefault:"256"`
	// Statements says whether /answer quotes the closest remembered statement about the entity a question names
	// when no relation of it resolves and no reader answers (mode "statement"): "on" or "off" (mode "none").
	Statements string `env:"MNEME_QUERY_STATEMENTS" envDefault:"on"`
}

// Defaults returns c with every zero-valued field set to its documented default.
func (c Config) Defaults() Config {
	def := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	def(&c.DefaultK, 10)
	def(&c.MaxK, 100)
	def(&c.DefaultTokenBudget, 500)
	def(&c.MaxTokenBudget, 8000)
	def(&c.MaxQueryBytes, 4096)
	def(&c.EfSearch, 100)
	def(&c.Candidates, 40)
	def(&c.RRFK, 60)
	def(&c.MinK, 3)
	def(&c.MaxHops, 4)
	def(&c.ReaderMaxTokens, 256)
	if c.MaxBodyBytes == 0 {
		c.MaxBodyBytes = 64 << 10
	}
	if c.RequestTimeout == 0 {
		c.RequestTimeout = 10 * time.Second
	}
	if c.LLMTimeout == 0 {
		c.LLMTimeout = 30 * time.Second
	}
	if c.Tokenizer == "" {
		c.Tokenizer = "cl100k_base"
	}
	if c.Reader == "" {
		c.Reader = "fallback"
	}
	if c.Planner == "" {
		c.Planner = "rules"
	}
	if c.Statements == "" {
		c.Statements = "on"
	}
	return c
}

// DefaultConfig is the configuration with every MNEME_QUERY_* default applied (the shared settings stay zero;
// they reach a service through service.Deps).
func DefaultConfig() Config { return Config{}.Defaults() }

// Validate checks the shared settings and the query settings (after Defaults) and says what is wrong and how
// to fix it; config.Load calls it.
func (c Config) Validate() error {
	return errors.Join(c.Common.Validate(), c.validateOwn())
}

// validateOwn checks the MNEME_QUERY_* settings only; New uses it because the shared settings reach a service
// through service.Deps.
func (c Config) validateOwn() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.MaxK < 1 || c.MaxK > 1000 {
		bad("MNEME_QUERY_MAX_K=%d is out of range: use 1..1000 (default 100)", c.MaxK)
	}
	if c.DefaultK < 1 || c.DefaultK > c.MaxK {
		bad("MNEME_QUERY_DEFAULT_K=%d must be between 1 and MNEME_QUERY_MAX_K=%d (default 10)", c.DefaultK, c.MaxK)
	}
	if c.MaxTokenBudget < 16 || c.MaxTokenBudget > 200000 {
		bad("MNEME_QUERY_MAX_TOKEN_BUDGET=%d is out of range: use 16..200000 (default 8000)", c.MaxTokenBudget)
	}
	if c.DefaultTokenBudget < 1 || c.DefaultTokenBudget > c.MaxTokenBudget {
		bad("MNEME_QUERY_DEFAULT_TOKEN_BUDGET=%d must be between 1 and MNEME_QUERY_MAX_TOKEN_BUDGET=%d (default 500)", c.DefaultTokenBudget, c.MaxTokenBudget)
	}
	if c.MaxQueryBytes < 16 || c.MaxQueryBytes > 1<<20 {
		bad("MNEME_QUERY_MAX_QUERY_BYTES=%d is out of range: use 16..1048576 (default 4096)", c.MaxQueryBytes)
	}
	if c.MaxBodyBytes < int64(c.MaxQueryBytes)+256 {
		bad("MNEME_QUERY_MAX_BODY_BYTES=%d must exceed MNEME_QUERY_MAX_QUERY_BYTES by at least 256 (default 65536)", c.MaxBodyBytes)
	}
	if c.RequestTimeout < 10*time.Millisecond || c.RequestTimeout > 10*time.Minute {
		bad("MNEME_QUERY_REQUEST_TIMEOUT=%s is out of range: use 10ms..10m (default 10s)", c.RequestTimeout)
	}
	switch c.Tokenizer {
	case "cl100k_base", "o200k_base":
	default:
		bad("MNEME_QUERY_TOKENIZER=%q is unknown: use cl100k_base (default) or o200k_base", c.Tokenizer)
	}
	if c.EfSearch < 1 || c.EfSearch > 1000 {
		bad("MNEME_QUERY_EF_SEARCH=%d is out of range: pgvector accepts 1..1000 (default 100)", c.EfSearch)
	}
	if c.Candidates < 1 || c.Candidates > 1000 {
		bad("MNEME_QUERY_CANDIDATES=%d is out of range: use 1..1000 (default 40)", c.Candidates)
	}
	if c.RRFK < 1 || c.RRFK > 1000 {
		bad("MNEME_QUERY_RRF_K=%d is out of range: use 1..1000 (default 60)", c.RRFK)
	}
	if c.ScoreGap < 0 || c.ScoreGap >= 1 {
		bad("MNEME_QUERY_SCORE_GAP=%g is out of range: use 0 (off) up to but excluding 1 (default 0.5)", c.ScoreGap)
	}
	if c.MinK < 1 {
		bad("MNEME_QUERY_MIN_K=%d must be at least 1 (default 3)", c.MinK)
	}
	if c.MaxInFlight < -1 || c.MaxInFlight > 10000 {
		bad("MNEME_QUERY_MAX_IN_FLIGHT=%d is out of range: use 1..10000, 0 for the automatic bound (default) or -1 for none", c.MaxInFlight)
	}
	if c.MaxHops < 1 || c.MaxHops > 8 {
		bad("MNEME_QUERY_MAX_HOPS=%d is out of range: use 1..8 (default 4)", c.MaxHops)
	}
	switch c.Reader {
	case "off", "fallback", "always":
	default:
		bad("MNEME_QUERY_READER=%q is unknown: use fallback (default), always or off", c.Reader)
	}
	switch c.Statements {
	case "on", "off":
	default:
		bad("MNEME_QUERY_STATEMENTS=%q is unknown: use on (default) or off", c.Statements)
	}
	switch c.Planner {
	case "rules", "llm":
	default:
		bad("MNEME_QUERY_PLANNER=%q is unknown: use rules (default) or llm", c.Planner)
	}
	if c.LLM.Set() {
		for _, m := range c.LLM.Check("MNEME_QUERY_LLM_") {
			bad("%s", m)
		}
		if c.LLMTimeout <= 0 {
			bad("MNEME_QUERY_LLM_TIMEOUT=%s must be positive (default 30s)", c.LLMTimeout)
		}
	} else if c.Planner == "llm" || c.Reader == "always" {
		bad("MNEME_QUERY_PLANNER=%s / MNEME_QUERY_READER=%s need an LLM: set MNEME_QUERY_LLM_BASE_URL and MNEME_QUERY_LLM_MODEL, or use planner rules and reader fallback/off", c.Planner, c.Reader)
	}
	if c.ReaderMaxTokens < 1 || c.ReaderMaxTokens > 8192 {
		bad("MNEME_QUERY_READER_MAX_TOKENS=%d is out of range: use 1..8192 (default 256)", c.ReaderMaxTokens)
	}
	return errors.Join(errs...)
}

// llmEnabled reports whether an LLM is configured.
func (c Config) llmEnabled() bool { return c.LLM.Set() && c.LLM.Model != "" }
