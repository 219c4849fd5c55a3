package reconciler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Service is the reconciler: it owns a share of the claims partitions and applies them to the projection.
// It implements service.HTTPService (confirmation and erasure routes).
type Service struct {
	deps   service.Deps
	cfg    Config
	log    *slog.Logger
	engine *engine
	auth   *auth.Authenticator

	ready   atomic.Bool
	mu      sync.Mutex
	owned   []int
	running atomic.Bool
}

var _ service.HTTPService = (*Service)(nil)

// New builds the reconciler. deps must have DB, JS and Partitions; cfg is applied over its defaults.
func New(deps service.Deps, cfg Config) (*Service, error) {
	if deps.DB == nil || deps.JS == nil {
		return nil, errors.New("reconciler: service.Deps needs DB and JS")
	}
	if deps.Partitions <= 0 {
		deps.Partitions = cfg.Partitions
	}
	cfg.Partitions = deps.Partitions
	cfg = cfg.Defaults()
	if err := cfg.validateOwn(); err != nil {
		return nil, err
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	if deps.Instance == "" {
		host, _ := os.Hostname()
		deps.Instance = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	e, err := newEngine(deps, cfg, true)
	if err != nil {
		return nil, err
	}
	a := deps.Auth
	if a == nil {
		a = auth.New(deps.DB, cfg.DevMode)
	}
	return &Service{deps: deps, cfg: cfg, log: deps.Logger, engine: e, auth: a}, nil
}

func newEngine(deps service.Deps, cfg Config, live bool) (*engine, error) {
	pol, err := LoadPolicy(cfg.PolicyFile)
	if err != nil {
		return nil, err
	}
	e := &engine{cfg: cfg, policy: pol, js: deps.JS, pool: deps.DB, log: deps.Logger, partitions: deps.Partitions,
		instance: deps.Instance, live: live, pinned: map[string]error{}, tel: newTelemetry()}
	if live {
		e.gate = deps.Priority
	}
	e.judge = &judge{model: judgeModelLabel(cfg), timeout: cfg.JudgeTimeout, log: deps.Logger}
	if live && cfg.judgeEnabled() {
		c, err := llm.New(llm.Config{BaseURL: cfg.Judge.BaseURL, Model: cfg.Judge.Model, APIKey: cfg.Judge.APIKey,
			MaxElapsed: cfg.JudgeTimeout, Logger: deps.Logger})
		if err != nil {
			return nil, fmt.Errorf("reconciler: judge: %w", err)
		}
		e.judge.client = c
	}
	return e, nil
}

// bindJudgeLog opens the judge-log bucket; without it the judge is off (and said so when the policy wants it).
func (e *engine) bindJudgeLog(ctx context.Context) {
	kv, err := e.js.KeyValue(ctx, bus.BucketJudge)
	if err != nil {
		if !errors.Is(err, jetstream.ErrBucketNotFound) {
			e.log.Warn("reconciler: judge log bucket unavailable; judge off", "bucket", bus.BucketJudge, "err", err)
		}
		return
	}
	e.judge.kv = kv
}

// Name is "reconciler".
func (s *Service) Name() string { return "reconciler" }

// Run takes part in partition ownership and applies owned partitions until ctx is done, then finishes the
// batches in flight (bounded by ShutdownTimeout) and releases its partitions.
func (s *Service) Run(ctx context.Context) error {
	if !s.running.CompareAndSwap(false, true) {
		return errors.New("reconciler: Run called twice")
	}
	defer s.running.Store(false)
	s.engine.bindJudgeLog(ctx)
	if err := s.recordPolicy(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped before it started
		}
		return err
	}
	relayDone := make(chan struct{})
	go func() {
		defer close(relayDone)
		audit.Relay(ctx, s.deps.DB, s.deps.JS, s.cfg.AuditRelayInterval, s.log)
	}()
	defer func() { <-relayDone }()
	indexDone := make(chan struct{})
	go func() {
		defer close(indexDone)
		s.indexWorkspaces(ctx)
	}()
	defer func() { <-indexDone }()
	o := newOwner(s.engine)
	err := o.run(ctx, func(ok bool) {
		s.ready.Store(ok)
		s.mu.Lock()
		s.owned = o.owned()
		s.mu.Unlock()
	})
	s.ready.Store(false)
	return err
}

// indexWorkspaces gives workspaces that crossed WorkspaceIndexMin vectors their own HNSW index: every
// workspace at start and every WorkspaceIndexInterval (store.IndexWorkspaces), and the workspaces this process
// wrote vectors to every WorkspaceIndexCheckInterval (store.IndexGrownWorkspaces), until ctx is done. One
// replica builds at a time; a check that finds another building keeps its workspaces for the next one. The
// reconciler runs it because it writes the vectors: it is the one service every deployment runs beside the
// store. A build cancelled by shutdown leaves an invalid index that the next run rebuilds.
func (s *Service) indexWorkspaces(ctx context.Context) {
	full := time.NewTicker(s.cfg.WorkspaceIndexInterval)
	defer full.Stop()
	check := time.NewTicker(s.cfg.WorkspaceIndexCheckInterval)
	defer check.Stop()
	report := func(rep store.IndexReport, err error) {
		switch {
		case ctx.Err() != nil:
		case err != nil:
			s.log.WarnContext(ctx, "reconciler: indexing large workspaces failed; their dense search stays exact until the next run", "err", err)
		case len(rep.Indexed) > 0 || rep.DroppedStoreWide:
			s.log.InfoContext(ctx, "reconciler: workspaces got their own dense index", "workspaces", rep.Indexed,
				"min_vectors", s.cfg.WorkspaceIndexMin, "dropped_store_wide_index", rep.DroppedStoreWide)
		}
	}
	var pending []string
	report(store.IndexWorkspaces(ctx, s.deps.DB, s.cfg.WorkspaceIndexMin))
	for {
		select {
		case <-ctx.Done():
			return
		case <-full.C:
			report(store.IndexWorkspaces(ctx, s.deps.DB, s.cfg.WorkspaceIndexMin))
		case <-check.C:
			// Workspaces stay pending while another replica builds (Busy) or the check fails: the writes
			// that made them grow are over, and nothing else would name them before the next full pass.
			pending = mergeSorted(pending, s.engine.takeGrown())
			rep, err := store.IndexGrownWorkspaces(ctx, s.deps.DB, s.cfg.WorkspaceIndexMin, pending)
			report(rep, err)
			if err == nil && !rep.Busy {
				pending = pending[:0]
			}
		}
	}
}

// mergeSorted returns the sorted union of two sorted lists.
func mergeSorted(a, b []string) []string {
	out := append(a, b...)
	slices.Sort(out)
	return slices.Compact(out)
}

// settingPolicyVersion is the store setting holding the version of the resolution policy last in force.
const settingPolicyVersion = "reconciler_policy_version"

// recordPolicy records a change of the resolution policy (its version differs from the one last in force) in
// the audit log. Replicas starting together record it once: the setting row is locked while compared.
func (s *Service) recordPolicy(ctx context.Context) error {
	version := s.engine.policy.Version()
	err := pgx.BeginFunc(ctx, s.deps.DB, func(tx pgx.Tx) error {
		last, changed, err := store.SwapSetting(ctx, tx, settingPolicyVersion, version)
		if err != nil || !changed {
			return err
		}
		details := map[string]any{"to": version}
		if last != "" {
			details["from"] = last
		}
		_, err = audit.Record(ctx, tx, audit.Entry{Action: event.AuditPolicyChanged, Actor: "reconciler", Details: details})
		return err
	})
	if err != nil {
		return fmt.Errorf("reconciler: record the resolution policy version: %w", err)
	}
	return nil
}

// Ready reports whether the replica takes part in ownership and its store answers.
func (s *Service) Ready(ctx context.Context) error {
	if !s.ready.Load() {
		return errors.New("reconciler: not registered for partition ownership yet")
	}
	if err := s.deps.DB.Ping(ctx); err != nil {
		return fmt.Errorf("reconciler: postgres: %w", err)
	}
	return nil
}

// Owned returns the partitions this replica applied at its last rebalance (for status and tests).
func (s *Service) Owned() []int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]int(nil), s.owned...)
}

// Routes registers the reconciler's HTTP routes.
func (s *Service) Routes(mux *http.ServeMux) {
	mux.HandleFunc("POST /v1/workspaces/{ws}/claims/{id}/confirm", s.handleConfirm)
	mux.HandleFunc("POST /v1/workspaces/{ws}/claims/{id}/release", s.handleRelease)
	mux.HandleFunc("POST /v1/workspaces/{ws}/erasures", s.handleErasure)
	mux.HandleFunc("GET /v1/workspaces/{ws}/erasures/{id}", s.handleErasureStatus)
}
