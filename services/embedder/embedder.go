// Package embedder is the stage between extraction and reconciliation: it takes proposed claims from
// MNEME_PROPOSED (a work queue shared by every embedder replica), embeds each claim's text and predicate
// phrase in batches, and publishes the embedded claim to its partition of MNEME_CLAIMS. The model id and
// dimension travel with every vector.
package embedder

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"golang.org/x/sync/errgroup"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/schemas"
)

// ConsumerName is the durable consumer every embedder replica shares.
const ConsumerName = bus.ConsumerEmbedder

// Config configures the embedder stage.
type Config struct {
	config.Common
	// BatchSize is the most claims embedded in one model call.
	BatchSize int `env:"MNEME_EMBEDDER_BATCH_SIZE" envDefault:"64"`
	// BatchWait is how long a batch waits to fill once its first claim arrived.
	BatchWait time.Duration `env:"MNEME_EMBEDDER_BATCH_WAIT" envDefault:"20ms"`
	// Workers is how many batches are embedded concurrently in this process.
	Workers int `env:"MNEME_EMBEDDER_WORKERS" envDefault:"1"`
	// MaxDeliver bounds redeliveries of a failing message before it is dead-lettered.
	MaxDeliver int `env:"MNEME_EMBEDDER_MAX_DELIVER" envDefault:"6"`
	// AckWait is how long a message may be in flight before JetStream redelivers it.
	AckWait time.Duration `env:"MNEME_EMBEDDER_ACK_WAIT" envDefault:"2m"`
}

// Validate checks the configuration.
func (c Config) Validate() error {
	var errs []error
	if err := c.Common.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.BatchSize < 1 || c.BatchSize > 1024 {
		errs = append(errs, fmt.Errorf("MNEME_EMBEDDER_BATCH_SIZE=%d: use 1..1024", c.BatchSize))
	}
	if c.Workers < 1 || c.Workers > 64 {
		errs = append(errs, fmt.Errorf("MNEME_EMBEDDER_WORKERS=%d: use 1..64", c.Workers))
	}
	if c.MaxDeliver < 1 {
		errs = append(errs, fmt.Errorf("MNEME_EMBEDDER_MAX_DELIVER=%d: must be at least 1", c.MaxDeliver))
	}
	if c.BatchWait < 0 || c.AckWait < time.Second {
		errs = append(errs, fmt.Errorf("MNEME_EMBEDDER_BATCH_WAIT must be ≥ 0 and MNEME_EMBEDDER_ACK_WAIT ≥ 1s"))
	}
	return errors.Join(errs...)
}

// Service is the embedder stage.
type Service struct {
	deps service.Deps
	cfg  Config
	log  *slog.Logger

	// predicateCache maps a predicate phrase to its vector; phrases repeat far more than claim texts.
	mu             sync.Mutex
	predicateCache map[string][]float32
	ready          bool
}

// New builds the embedder stage. deps.Embedder, deps.JS and deps.Partitions are required.
func New(deps service.Deps, cfg Config) (*Service, error) {
	if deps.Embedder == nil {
		return nil, errors.New("embedder: no embedding model configured")
	}
	if deps.JS == nil {
		return nil, errors.New("embedder: no JetStream connection")
	}
	if deps.Partitions < 1 {
		return nil, fmt.Errorf("embedder: partitions = %d", deps.Partitions)
	}
	if deps.Logger == nil {
		deps.Logger = slog.Default()
	}
	return &Service{deps: deps, cfg: cfg, log: deps.Logger.With("service", "embedder"), predicateCache: map[string][]float32{}}, nil
}

// Name implements service.Service.
func (s *Service) Name() string { return "embedder" }

// Ready implements service.Service.
func (s *Service) Ready(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.ready {
		return errors.New("embedder: consumer not started")
	}
	return nil
}

// Run consumes proposed claims until ctx is cancelled, then finishes the batches in flight.
func (s *Service) Run(ctx context.Context) error {
	cons, err := s.deps.JS.CreateOrUpdateConsumer(ctx, bus.StreamProposed, jetstream.ConsumerConfig{
		Durable:       ConsumerName,
		Description:   "embeds proposed claims and publishes them to their partition",
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       s.cfg.AckWait,
		MaxDeliver:    -1, // Settle dead-letters at MaxDeliver and retries a dead letter it could not store: never dropped
		MaxAckPending: s.cfg.BatchSize * s.cfg.Workers * 4,
	})
	if err != nil {
		return fmt.Errorf("embedder: create consumer: %w", err)
	}
	s.mu.Lock()
	s.ready = true
	s.mu.Unlock()
	// Work continues on a context that survives shutdown long enough to finish batches in flight.
	work, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	defer stopWork()
	g := new(errgroup.Group)
	for w := 0; w < s.cfg.Workers; w++ {
		it, err := cons.Messages(jetstream.PullMaxMessages(s.cfg.BatchSize * 2))
		if err != nil {
			return fmt.Errorf("embedder: consume: %w", err)
		}
		go func() { <-ctx.Done(); it.Drain() }()
		g.Go(func() error {
			for {
				batch, err := bus.NextBatch(ctx, it, s.cfg.BatchSize, s.cfg.BatchWait)
				if err != nil {
					if errors.Is(err, jetstream.ErrMsgIteratorClosed) || ctx.Err() != nil {
						return nil
					}
					s.log.Warn("fetch failed", "err", err)
					continue
				}
				s.handle(work, batch)
			}
		})
	}
	return g.Wait()
}

type item struct {
	msg   jetstream.Msg
	claim event.ClaimProposedV1
}

func (s *Service) handle(ctx context.Context, batch []jetstream.Msg) {
	items := make([]item, 0, len(batch))
	for _, m := range batch {
		c, err := decodeProposed(m.Data())
		if err != nil {
			s.settle(ctx, m, bus.Permanent(err))
			continue
		}
		items = append(items, item{msg: m, claim: c})
	}
	if len(items) == 0 {
		return
	}
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.claim.Text
	}
	vecs, err := s.deps.Embedder.Embed(ctx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	var predVecs [][]float32
	if err == nil {
		predVecs, err = s.predicateVectors(ctx, items)
	}
	if err != nil {
		s.log.Warn("embedding failed; batch will be redelivered", "err", err, "claims", len(items))
		for _, it := range items {
			s.settle(ctx, it.msg, err)
		}
		return
	}
	model, dim := s.deps.Embedder.Model(), s.deps.Embedder.Dim()
	type pending struct {
		it  item
		fut jetstream.PubAckFuture
	}
	var inflight []pending
	for i, it := range items {
		c := it.claim
		out := event.ClaimEmbeddedV1{
			ClaimProposedV1:    c,
			Embedding:          event.Vector{Model: model, Dim: dim, Values: vecs[i]},
			PredicateEmbedding: event.Vector{Model: model, Dim: dim, Values: predVecs[i]},
			Partition:          bus.PartitionOf(c.Workspace, c.SubjectKey, s.deps.Partitions),
		}
		env, err := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "mneme/embedder", c.Workspace, c.ProposedAt, out)
		if err != nil {
			s.settle(ctx, it.msg, bus.Permanent(err))
			continue
		}
		msg, err := bus.EventMsg(bus.ExtractTrace(ctx, it.msg.Headers()), bus.ClaimsSubject(out.Partition), env)
		if err != nil {
			s.settle(ctx, it.msg, bus.Permanent(err))
			continue
		}
		fut, err := s.deps.JS.PublishMsgAsync(msg)
		if err != nil {
			s.settle(ctx, it.msg, err)
			continue
		}
		inflight = append(inflight, pending{it: it, fut: fut})
	}
	for _, p := range inflight {
		select {
		case <-p.fut.Ok():
			// Ack only once the embedded claim is durable: a crash before this redelivers, and the
			// claim's deterministic message id makes the republish a no-op.
			if err := p.it.msg.Ack(); err != nil {
				s.log.Warn("ack failed; message will be redelivered (idempotent)", "err", err)
			}
		case err := <-p.fut.Err():
			s.settle(ctx, p.it.msg, fmt.Errorf("publish embedded claim: %w", err))
		case <-ctx.Done():
			return
		}
	}
}

func (s *Service) settle(ctx context.Context, m jetstream.Msg, err error) {
	if serr := bus.Settle(ctx, s.deps.JS, "embedder", m, err, s.cfg.MaxDeliver); serr != nil {
		s.log.Error("could not settle failed message", "err", serr, "cause", err)
	} else if bus.IsPermanent(err) {
		s.log.Warn("dead-lettered message", "reason", err)
	}
}

// predicateVectors returns one predicate-phrase vector per item, embedding only phrases not cached yet.
func (s *Service) predicateVectors(ctx context.Context, items []item) ([][]float32, error) {
	phrases := make([]string, len(items))
	var missing []string
	seen := map[string]bool{}
	s.mu.Lock()
	for i, it := range items {
		p := PredicatePhrase(it.claim)
		phrases[i] = p
		if _, ok := s.predicateCache[p]; !ok && !seen[p] {
			seen[p] = true
			missing = append(missing, p)
		}
	}
	s.mu.Unlock()
	if len(missing) > 0 {
		vecs, err := s.deps.Embedder.Embed(ctx, missing)
		if err != nil {
			return nil, err
		}
		if len(vecs) != len(missing) {
			return nil, fmt.Errorf("embedder returned %d vectors for %d predicate phrases", len(vecs), len(missing))
		}
		s.mu.Lock()
		if len(s.predicateCache) > 50000 {
			s.predicateCache = map[string][]float32{}
		}
		for i, p := range missing {
			s.predicateCache[p] = vecs[i]
		}
		s.mu.Unlock()
	}
	out := make([][]float32, len(items))
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, p := range phrases {
		out[i] = s.predicateCache[p]
	}
	return out, nil
}

// PredicatePhrase is the text embedded for a claim's predicate: its surface form, else its key with spaces.
func PredicatePhrase(c event.ClaimProposedV1) string {
	if p := strings.TrimSpace(c.Predicate); p != "" {
		return strings.ToLower(p)
	}
	return strings.ReplaceAll(c.PredicateKey, "_", " ")
}

// decodeProposed decodes and validates a proposed-claim event from the wire.
func decodeProposed(b []byte) (event.ClaimProposedV1, error) {
	var c event.ClaimProposedV1
	if err := schemas.Validate(event.TypeClaimProposed, b); err != nil {
		return c, fmt.Errorf("invalid %s event: %w", event.TypeClaimProposed, err)
	}
	env, err := event.Decode(b)
	if err != nil {
		return c, err
	}
	if err := env.Into(event.TypeClaimProposed, &c); err != nil {
		return c, err
	}
	return c, nil
}
