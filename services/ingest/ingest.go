// Package ingest is Mneme's front door for writes. Agents send turns (utterances) and structured claims over
// HTTP (POST /v1/workspaces/{ws}/turns, POST /v1/workspaces/{ws}/claims) or by publishing the same JSON bodies
// to the NATS inbox (mneme.inbox.<ws>.turns, mneme.inbox.<ws>.claims). Ingest validates them against the
// request schemas and configured limits, then publishes TurnAcceptedV1 events to the turns stream (extraction
// reads them) and structured claims, canonicalized, as ClaimProposedV1 to the proposed stream (embedding reads
// them). A write is acknowledged (HTTP 202, inbox ack) only once every event is durably in JetStream.
//
// Invalid input never reaches the streams: over HTTP it is a 4xx naming the field and the limit; on the inbox
// it goes to the dead-letter stream (mneme.dlq.ingest) with the reason in a header, and what follows flows on.
// Every event carries a deterministic id as its Nats-Msg-Id, so the same turn or claim published twice has one
// effect within the duplicate window, and downstream stores keyed by the same ids are idempotent beyond it.
package ingest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/schemas"
)

// Name is the service's target name.
const Name = "ingest"

// ConsumerName is the durable pull consumer of the inbox stream.
const ConsumerName = bus.ConsumerIngest

// Service is the ingest service. It implements service.HTTPService.
type Service struct {
	cfg    Config
	log    *slog.Logger
	nc     *nats.Conn
	js     jetstream.JetStream
	db     *pgxpool.Pool
	auth   *auth.Authenticator
	policy *canon.Policy

	turnsSchema  *jsonschema.Schema
	claimsSchema *jsonschema.Schema

	// decodeSlots bounds the bodies decoded at once (HTTP and inbox together): one slot per body in decoding.
	decodeSlots chan struct{}
	// decoding counts the bodies inside decodeBatch now and decodePeak the most there ever were at once;
	// decodeWaits counts the bodies that had to wait for a slot. They observe the bound from where the memory
	// is spent, not from the slots: a decode path that skipped the slots would show up in the peak.
	decoding, decodePeak, decodeWaits atomic.Int64

	// inbox is the NATS inbox consumer (nil in a core built without connections).
	inbox   *bus.Consumer
	metrics *metrics
	// stage records the latency of HTTP writes (the inbox's are recorded by the consumer runtime).
	stage *bus.StageRecorder
}

// acquireDecode waits for a decode slot; release it with releaseDecode.
func (s *Service) acquireDecode(ctx context.Context) error {
	select {
	case s.decodeSlots <- struct{}{}:
		return nil
	default:
	}
	s.decodeWaits.Add(1)
	select {
	case s.decodeSlots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}

// enterDecode records a body entering decoding; call the function it returns when the body leaves.
func (s *Service) enterDecode() func() {
	n := s.decoding.Add(1)
	for {
		peak := s.decodePeak.Load()
		if n <= peak || s.decodePeak.CompareAndSwap(peak, n) {
			break
		}
	}
	return func() { s.decoding.Add(-1) }
}

func (s *Service) releaseDecode() { <-s.decodeSlots }

var _ service.HTTPService = (*Service)(nil)

// New builds the ingest service. deps must carry JS and DB (workspaces and keys live in Postgres).
func New(deps service.Deps, cfg Config) (*Service, error) {
	if deps.JS == nil {
		return nil, errors.New("ingest: no JetStream connection in service.Deps")
	}
	if deps.DB == nil {
		return nil, errors.New("ingest: no database pool in service.Deps (workspaces and keys are checked in Postgres)")
	}
	s, err := newCore(cfg)
	if err != nil {
		return nil, err
	}
	if deps.Logger != nil {
		s.log = deps.Logger.With("service", Name)
	}
	s.nc = deps.NATS
	if s.nc == nil {
		s.nc = deps.JS.Conn()
	}
	s.js = deps.JS
	s.db = deps.DB
	if s.auth = deps.Auth; s.auth == nil {
		s.auth = auth.New(deps.DB, cfg.DevMode)
	}
	s.inbox = s.newInbox()
	return s, nil
}

// newCore builds the validation and event-building part of the service, which needs no connections.
func newCore(cfg Config) (*Service, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("ingest: configuration: %w", err)
	}
	policy, err := cfg.PolicyConfig.Policy()
	if err != nil {
		return nil, fmt.Errorf("ingest: predicate policy: %w", err)
	}
	turns, err := schemas.Schema(schemaTurnsRequest)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	claims, err := schemas.Schema(schemaClaimsRequest)
	if err != nil {
		return nil, fmt.Errorf("ingest: %w", err)
	}
	m, err := newMetrics()
	if err != nil {
		return nil, fmt.Errorf("ingest: metrics: %w", err)
	}
	return &Service{
		cfg:          cfg,
		log:          slog.Default().With("service", Name),
		policy:       policy,
		turnsSchema:  turns,
		claimsSchema: claims,
		decodeSlots:  make(chan struct{}, cfg.MaxConcurrentDecodes),
		metrics:      m,
		stage:        bus.NewStageRecorder(dlqStage),
	}, nil
}

// Name returns "ingest".
func (s *Service) Name() string { return Name }

// Ready reports whether ingest can accept writes: Postgres answers, NATS is connected and the inbox consumer
// is running.
func (s *Service) Ready(ctx context.Context) error {
	if err := s.db.Ping(ctx); err != nil {
		return fmt.Errorf("ingest: postgres: %w", err)
	}
	if st := s.nc.Status(); st != nats.CONNECTED {
		return fmt.Errorf("ingest: nats connection is %s", st)
	}
	if s.inbox == nil || !s.inbox.Running() {
		return errors.New("ingest: inbox consumer not running")
	}
	return nil
}

// Stats are counts since start, for tests and diagnostics; the same numbers are exported as OpenTelemetry
// metrics (mneme.ingest.*).
type Stats struct {
	// Accepted counts events published for the first time (turns and claims).
	Accepted int64
	// Duplicates counts events JetStream reported as already stored.
	Duplicates int64
	// Rejected counts batches refused for bad input (HTTP 4xx and dead-lettered inbox messages).
	Rejected int64
	// DeadLettered counts inbox messages moved to the dead-letter stream.
	DeadLettered int64
	// Retried counts inbox messages handed back for redelivery after a transient failure.
	Retried int64
}

// Stats returns the counts since start.
func (s *Service) Stats() Stats { return s.metrics.snapshot() }
