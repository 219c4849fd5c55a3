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

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/event"
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
	// AckWait is how long JetStream waits for a claim's acknowledgement, or a progress signal, before it
	// redelivers the claim; claims being embedded are marked in progress every third of it. It is also how
	// long a killed embedder's claims wait before another replica gets them. Default 5s.
	AckWait time.Duration `env:"MNEME_EMBEDDER_ACK_WAIT" envDefault:"5s"`
	// PublishTimeout bounds the wait for JetStream's acknowledgements of a batch's embedded claims; past it
	// the batch is retried (the same event ids make the retry harmless). Default 10s; 0 means the default.
	PublishTimeout time.Duration `env:"MNEME_EMBEDDER_PUBLISH_TIMEOUT" envDefault:"10s"`
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

// Deps are what the embedder needs from the composition root. It is a stage without a database: its module
// links neither pgx nor a NATS server (see docs/architecture.md, modules).
type Deps struct {
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// JS is the JetStream handle of the embedder's NATS connection. Required.
	JS jetstream.JetStream
	// Embedder is the model. Required.
	Embedder embedding.Embedder
	// Partitions is the deployment's partition count (MNEME_PARTITIONS). Required.
	Partitions int
}

// Service is the embedder stage. It implements the composition root's service contract (pkg/service.Service).
type Service struct {
	deps Deps
	cfg  Config
	log  *slog.Logger

	// proposed is the consumer of the proposed-claims work queue (the shared runtime, pkg/bus).
	proposed *bus.Consumer

	// predicateCache maps a predicate phrase to its vector; phrases repeat far more than claim texts.
	mu             sync.Mutex
	predicateCache map[string][]float32
}

// New builds the embedder stage. deps.Embedder, deps.JS and deps.Partitions are required.
func New(deps Deps, cfg Config) (*Service, error) {
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
	if cfg.PublishTimeout <= 0 {
		cfg.PublishTimeout = 10 * time.Second
	}
	s := &Service{deps: deps, cfg: cfg, log: deps.Logger.With("service", "embedder"), predicateCache: map[string][]float32{}}
	s.proposed = bus.NewConsumer(deps.JS, bus.ConsumerOptions{
		Stream: bus.StreamProposed,
		Config: jetstream.ConsumerConfig{
			Durable:       ConsumerName,
			Description:   "embeds proposed claims and publishes them to their partition",
			AckPolicy:     jetstream.AckExplicitPolicy,
			AckWait:       cfg.AckWait,
			MaxDeliver:    -1, // the runtime dead-letters at MaxDeliver and retries a dead letter it could not store: never dropped
			MaxAckPending: cfg.BatchSize * cfg.Workers * 4,
		},
		Pull:         []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(cfg.BatchSize * 2 * cfg.Workers)},
		Stage:        dlqStage,
		Retry:        cfg.RetryPolicy(),
		CloseTimeout: cfg.ShutdownTimeout,
		Logger:       s.log,
	})
	return s, nil
}

// dlqStage names the embedder's dead-letter subject (mneme.dlq.embedder).
const dlqStage = "embedder"

// RetryPolicy is how claims whose embedding or publishing fails are retried: redelivered after 500ms, doubling
// up to 30s, and dead-lettered after MaxDeliver deliveries.
func (c Config) RetryPolicy() bus.RetryPolicy {
	return bus.RetryPolicy{InitialInterval: 500 * time.Millisecond, MaxInterval: 30 * time.Second, MaxAttempts: c.MaxDeliver}
}

// Name is the target name, "embedder".
func (s *Service) Name() string { return "embedder" }

// Ready reports whether the consumer is running.
func (s *Service) Ready(ctx context.Context) error {
	if !s.proposed.Running() {
		return errors.New("embedder: consumer not started")
	}
	return nil
}

// Run consumes proposed claims until ctx is cancelled, then finishes the batches in flight.
func (s *Service) Run(ctx context.Context) error {
	if err := s.proposed.Run(ctx, bus.Batches(s.cfg.Workers, s.cfg.BatchSize, s.cfg.BatchWait, s.handle)); err != nil {
		return fmt.Errorf("embedder: %w", err)
	}
	return nil
}

type item struct {
	i     int // index in the batch
	d     *bus.Delivery
	claim event.ClaimProposedV1
}

// handle embeds a micro-batch and publishes each embedded claim; a claim's result is nil once its embedded
// claim is durable in JetStream (only then is the source acknowledged: a crash before redelivers it, and the
// claim's deterministic message id makes the republish a no-op).
func (s *Service) handle(ctx context.Context, batch []*bus.Delivery) []error {
	errs := make([]error, len(batch))
	items := make([]item, 0, len(batch))
	for i, d := range batch {
		c, err := decodeProposed(d.Msg.Data())
		if err != nil {
			errs[i] = bus.Permanent(err)
			continue
		}
		items = append(items, item{i: i, d: d, claim: c})
	}
	if len(items) == 0 {
		return errs
	}
	texts := make([]string, len(items))
	for i, it := range items {
		texts[i] = it.claim.Text
	}
	ectx, span := bus.Tracer().Start(ctx, "embedder embed", trace.WithAttributes(attribute.Int("mneme.embed.texts", len(texts))))
	vecs, err := s.deps.Embedder.Embed(ectx, texts)
	if err == nil && len(vecs) != len(texts) {
		err = fmt.Errorf("embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	var predVecs [][]float32
	if err == nil {
		predVecs, err = s.predicateVectors(ectx, items)
	}
	bus.EndSpan(span, err)
	if err != nil {
		for _, it := range items {
			errs[it.i] = fmt.Errorf("embedding: %w", err)
		}
		return errs
	}
	model, dim := s.deps.Embedder.Model(), s.deps.Embedder.Dim()
	var msgs []*nats.Msg
	var sent []item
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
			errs[it.i] = bus.Permanent(err)
			continue
		}
		// Each embedded claim continues its own proposed claim's trace (the delivery's span), not the batch's.
		msg, err := bus.EventMsg(it.d.Context(ctx), bus.ClaimsSubject(out.Partition), env)
		if err != nil {
			errs[it.i] = bus.Permanent(err)
			continue
		}
		msgs, sent = append(msgs, msg), append(sent, it)
	}
	// An acknowledgement lost with a NATS server that died never arrives, and the keep-alive would hold the
	// claims in progress for good: the wait is bounded (claims not acknowledged by then are retried), and
	// within it a claim left unanswered is sent again once the stream has a new leader (bus.PublishBatch).
	wait, cancel := context.WithTimeout(ctx, s.cfg.PublishTimeout)
	defer cancel()
	for i, r := range bus.PublishBatch(wait, s.deps.JS, msgs) {
		if r.Err == nil {
			continue
		}
		if ctx.Err() != nil {
			errs[sent[i].i] = ctx.Err()
		} else {
			errs[sent[i].i] = fmt.Errorf("publish embedded claim: %w", r.Err)
		}
	}
	return errs
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
