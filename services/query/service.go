// Package query is Mneme's read side: the HTTP API that answers agents from the projection the reconciler
// writes.
//
//   - POST /v1/workspaces/{ws}/search: tri-modal retrieval (dense HNSW, lexical full text, canonical subject
//     lookup) fused by reciprocal rank, cut adaptively (k, score gap, token budget), resolved per slot (the
//     latest by valid time and sequence; private over shared; disputes co-surfaced) and assembled into a
//     compact, token-counted context for a reader.
//   - POST /v1/workspaces/{ws}/answer: deterministic answers. The question's entity is found among known
//     subjects, then each hop picks the entity's attribute whose relation words best match the question and
//     takes its current value by code, never by a model. Chained questions resolve hop by hop outward from the
//     entity. With an LLM configured, a Self-Ask planner may decompose the question (each hop still
//     deterministic) and a reader may answer from the assembled context with disputed facts named first.
//   - GET /v1/workspaces/{ws}/subjects/{subject_key}: current beliefs and the bitemporal timeline of every slot.
//   - GET /v1/workspaces/{ws}/claims/{id}: a claim's provenance and decision chain.
//   - GET /timeline/: a page for people (page.go): search a workspace as an agent and read a subject's slots on
//     valid and transaction time with the decisions behind each change, through the endpoints above.
//
// Every read goes through one view (visibility + valid time + transaction time), so an agent sees its private
// claims and the shared tier of its workspace and nothing else. Every request has a deadline and bounded work;
// bad input is a 4xx naming the field, and no input produces a 500.
package query

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/priority"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// Name is the service's target name.
const Name = "query"

// Service is the query service. It implements service.HTTPService.
type Service struct {
	cfg      Config
	log      *slog.Logger
	db       *pgxpool.Pool
	auth     *auth.Authenticator
	embedder embedding.Embedder
	tok      *tokens.Counter
	llm      *llm.Client
	metrics  *metrics
	// priority is the process's query-over-ingest gate (nil: none); every request is marked in flight on it.
	priority *priority.Gate
	// inflight bounds the retrievals running at once (MNEME_QUERY_MAX_IN_FLIGHT).
	inflight inflight

	// dense caches whether dense retrieval can run: the store's pinned embedding model must be the query
	// embedder's (vectors of different models are not comparable). Re-checked until a dimension is pinned.
	denseMu  sync.Mutex
	denseDim int
	denseErr error

	// denseIndexes says which workspaces have an HNSW index of their own: the dense query orders by what it
	// indexes there, and by the full-precision vector elsewhere.
	denseIndexes denseIndexCache
}

var _ service.HTTPService = (*Service)(nil)

// Option configures a Service beyond its Config.
type Option func(*Service)

// WithLLM sets the LLM client of the planner and reader instead of building one from Config.
func WithLLM(c *llm.Client) Option { return func(s *Service) { s.llm = c } }

// WithAuthenticator shares an Authenticator (and its cache) with other services of the process.
func WithAuthenticator(a *auth.Authenticator) Option { return func(s *Service) { s.auth = a } }

// New builds the query service. deps must carry DB; deps.Embedder enables dense retrieval (without it,
// search is lexical and by subject only). cfg.DevMode (MNEME_DEV_MODE) decides whether bearer keys are
// required, unless WithAuthenticator passes a shared Authenticator.
func New(deps service.Deps, cfg Config, opts ...Option) (*Service, error) {
	if deps.DB == nil {
		return nil, errors.New("query: no database in service.Deps (the query service reads the projection from Postgres)")
	}
	cfg = cfg.Defaults()
	if err := cfg.validateOwn(); err != nil {
		return nil, err
	}
	tok, err := tokens.New(cfg.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("query: MNEME_QUERY_TOKENIZER: %w", err)
	}
	log := deps.Logger
	if log == nil {
		log = slog.Default()
	}
	m, err := newMetrics()
	if err != nil {
		return nil, fmt.Errorf("query: metrics: %w", err)
	}
	s := &Service{cfg: cfg, log: log.With("service", Name), db: deps.DB, embedder: deps.Embedder, tok: tok, metrics: m, priority: deps.Priority,
		inflight: newInflight(cfg.MaxInFlight, deps.WithIngest)}
	for _, o := range opts {
		o(s)
	}
	if s.auth == nil {
		s.auth = deps.Auth
	}
	if s.auth == nil {
		s.auth = auth.New(deps.DB, cfg.DevMode)
	}
	if s.llm == nil && cfg.llmEnabled() {
		c, err := llm.New(llm.Config{BaseURL: cfg.LLM.BaseURL, Model: cfg.LLM.Model, APIKey: cfg.LLM.APIKey,
			Timeout: cfg.LLMTimeout, MaxElapsed: cfg.RequestTimeout, Logger: s.log})
		if err != nil {
			return nil, fmt.Errorf("query: MNEME_QUERY_LLM_*: %w", err)
		}
		s.llm = c
	}
	return s, nil
}

// Name implements service.Service.
func (s *Service) Name() string { return Name }

// Run implements service.Service. The query service does its work in HTTP handlers; Run only waits, so the
// composition root can treat every service alike.
func (s *Service) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}

// Ready implements service.Service: the projection must be reachable.
func (s *Service) Ready(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := s.db.Ping(ctx); err != nil {
		return fmt.Errorf("query: database unreachable: %w", err)
	}
	return nil
}

// Routes implements service.HTTPService: the API, and the timeline page at TimelinePath.
func (s *Service) Routes(mux *http.ServeMux) {
	for _, r := range s.routes() {
		mux.Handle(r.pattern, s.handler(r.name, r.h))
	}
	mux.Handle("GET "+TimelinePath, timelinePage())
	mux.Handle("GET /timeline", http.RedirectHandler(TimelinePath, http.StatusMovedPermanently))
}

type route struct {
	name, pattern string
	h             func(http.ResponseWriter, *request) error
}

// routes lists the endpoints (the OpenAPI document is checked against this list).
func (s *Service) routes() []route {
	return []route{
		{"search", "POST /v1/workspaces/{ws}/search", s.handleSearch},
		{"answer", "POST /v1/workspaces/{ws}/answer", s.handleAnswer},
		{"subject", "GET /v1/workspaces/{ws}/subjects/{subject_key}", s.handleSubject},
		{"claim", "GET /v1/workspaces/{ws}/claims/{id}", s.handleClaim},
	}
}

// denseDimension returns the dimension dense retrieval runs at, or 0 with the reason it cannot run: no
// embedder, no vectors stored yet, or a store pinned to another model.
func (s *Service) denseDimension(ctx context.Context) (int, error) {
	if s.embedder == nil {
		return 0, errors.New("no embedder configured")
	}
	s.denseMu.Lock()
	defer s.denseMu.Unlock()
	if s.denseDim > 0 || s.denseErr != nil {
		return s.denseDim, s.denseErr
	}
	model, dim, err := store.EmbeddingDim(ctx, s.db)
	if err != nil {
		return 0, err
	}
	if dim == 0 {
		return 0, errors.New("no vectors stored yet")
	}
	if model != s.embedder.Model() || dim != s.embedder.Dim() {
		s.denseErr = fmt.Errorf("the store holds %s vectors of dimension %d but the query embedder is %s of dimension %d", model, dim, s.embedder.Model(), s.embedder.Dim())
		s.log.Warn("dense retrieval disabled", "reason", s.denseErr)
		return 0, s.denseErr
	}
	s.denseDim = dim
	return dim, nil
}
