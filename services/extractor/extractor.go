// Package extractor is Mneme's extraction stage: it consumes accepted turns (stream MNEME_TURNS, durable
// consumer "extractor"), groups each session's turns into token-budgeted windows, extracts claims — with an
// OpenAI-compatible LLM when one is configured, else with the deterministic rule-based extractor — and
// publishes each claim as a ClaimProposedV1 event to mneme.proposed.<workspace>.
//
// Delivery guarantees: a turn is acknowledged only after every claim extracted from it is durably in
// JetStream. Claim ids are deterministic (workspace, turn id, extractor, index), and publishes carry them as
// Nats-Msg-Id, so a redelivered turn has one effect. A turn that cannot be decoded is dead-lettered at once
// (mneme.dlq.extractor, with the reason in a header); a turn whose extraction or publishing keeps failing is
// dead-lettered after MaxDeliver attempts. Neither blocks the turns that follow.
package extractor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/priority"
	"github.com/mneme-ai/mneme/pkg/tokens"
	"github.com/mneme-ai/mneme/services/extractor/extract"
	"github.com/mneme-ai/mneme/services/extractor/llmextract"
	"github.com/mneme-ai/mneme/services/extractor/rules"
)

const (
	// dlqStage names the extractor's dead-letter subject (mneme.dlq.extractor).
	dlqStage = "extractor"
	// eventSource is the CloudEvents source of the claims the extractor publishes.
	eventSource = "mneme/extractor"
	// causeExtractionPanic is the dead-letter cause of a turn that makes the extractor panic.
	causeExtractionPanic = "extraction_panic"
)

// Service is the extractor stage. Build it with New.
type Service struct {
	cfg      Config
	log      *slog.Logger
	js       jetstream.JetStream
	counter  *tokens.Counter
	primary  extract.Extractor
	fallback extract.Extractor // rules when the primary is the LLM and fallback is enabled; else nil
	acct     *llm.Accountant
	metrics  *metrics
	// stage records the latency of extraction windows (mneme.stage.duration).
	stage *bus.StageRecorder
	// turns is the consumer of the turns stream (the shared runtime, pkg/bus).
	turns *bus.Consumer
	// rules is the rule-based extractor (primary or fallback), whose windows run as units of gate.
	rules extract.Extractor
	gate  *priority.Gate
}

// Deps are what the extractor needs from the composition root. It is a stage without a database: its module
// links neither pgx nor a NATS server (see docs/architecture.md, modules).
type Deps struct {
	// Logger defaults to slog.Default().
	Logger *slog.Logger
	// JS is the JetStream handle of the extractor's NATS connection. Required.
	JS jetstream.JetStream
	// Gate, when set, runs each window's rule-based extraction (CPU work in this process) as an ingest unit
	// behind the process's queries (pkg/priority). An LLM call is not gated: it waits on the network.
	Gate *priority.Gate
}

// New builds the extractor from its dependencies and its configuration. The result implements the
// composition root's service contract (pkg/service.Service).
func New(deps Deps, cfg Config) (*Service, error) {
	if deps.JS == nil {
		return nil, errors.New("extractor: Deps.JS is required (a JetStream context)")
	}
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	log := deps.Logger
	if log == nil {
		log = slog.Default()
	}
	log = log.With("service", "extractor")
	policy, err := cfg.PolicyConfig.Policy()
	if err != nil {
		return nil, err
	}
	counter, err := tokens.New(cfg.Tokenizer)
	if err != nil {
		return nil, fmt.Errorf("extractor: MNEME_EXTRACTOR_TOKENIZER: %w", err)
	}
	m, err := newMetrics()
	if err != nil {
		return nil, fmt.Errorf("extractor: metrics: %w", err)
	}
	s := &Service{cfg: cfg, log: log, js: deps.JS, counter: counter, metrics: m, stage: bus.NewStageRecorder(dlqStage)}
	ruleEx := rules.New(rules.WithPolicy(policy))
	s.primary, s.rules, s.gate = ruleEx, ruleEx, deps.Gate
	if cfg.LLMEnabled() {
		rec, err := llm.OTelRecorder(otelMeterProvider())
		if err != nil {
			return nil, err
		}
		s.acct = llm.NewAccountant(llm.WithRecorder(rec))
		client, err := llm.New(llm.Config{
			BaseURL:    cfg.LLM.BaseURL,
			APIKey:     cfg.LLM.APIKey,
			Model:      cfg.LLM.Model,
			Timeout:    cfg.LLMTimeout,
			MaxRetries: retriesSetting(cfg.LLMMaxRetries),
			Accountant: s.acct,
			Logger:     log,
		})
		if err != nil {
			return nil, fmt.Errorf("extractor: LLM client: %w", err)
		}
		s.primary = llmextract.New(client, llmextract.WithPolicy(policy), llmextract.WithTokenizer(counter))
		if cfg.LLMFallbackRules {
			s.fallback = ruleEx
		}
	}
	s.turns = bus.NewConsumer(deps.JS, bus.ConsumerOptions{
		Stream:            bus.StreamTurns,
		Config:            cfg.ConsumerConfig(),
		Pull:              []jetstream.PullMessagesOpt{jetstream.PullMaxMessages(cfg.FetchBatch)},
		Stage:             dlqStage,
		Retry:             cfg.RetryPolicy(),
		CloseTimeout:      cfg.ShutdownTimeout,
		DeadLetterTimeout: cfg.PublishTimeout,
		Logger:            log,
		Hooks: bus.Hooks{
			Retried:      func(ctx context.Context, _ *bus.Delivery, _ error, _ time.Duration) { s.metrics.retry(ctx) },
			DeadLettered: func(ctx context.Context, _ *bus.Delivery, cause, _ string) { s.metrics.deadLetter(ctx, cause) },
		},
	})
	log.Info("extractor configured", "extractor", s.primary.Name(), "version", s.primary.Version(),
		"window_tokens", cfg.WindowTokens, "policy", policy.Version())
	return s, nil
}

// retriesSetting maps "0 retries" to the llm package's "negative disables retries".
func retriesSetting(n int) int {
	if n == 0 {
		return -1
	}
	return n
}

// Name is the target name, "extractor".
func (s *Service) Name() string { return "extractor" }

// Ready reports whether the service is consuming turns.
func (s *Service) Ready(ctx context.Context) error {
	if !s.turns.Running() {
		return errors.New("extractor: not consuming turns yet")
	}
	return nil
}

// Usage returns the LLM usage per stage so far (empty without an LLM).
func (s *Service) Usage() map[string]llm.Usage { return s.acct.Snapshot() }

// Stats are counters of what the service did since it started.
type Stats struct {
	Turns, Windows, Claims, Duplicates, DeadLetters, Retries, Fallbacks int64
}

// Stats returns the service's counters.
func (s *Service) Stats() Stats { return s.metrics.snapshot() }

// Run consumes turns until ctx is cancelled, then extracts the windows still open, waits for in-flight
// windows (bounded by ShutdownTimeout) and returns. Turns not acknowledged by then are redelivered later.
func (s *Service) Run(ctx context.Context) error {
	if err := s.turns.Run(ctx, s.dispatch); err != nil {
		return fmt.Errorf("extractor: %w", err)
	}
	return nil
}

// dispatch groups the delivered turns into session windows and extracts each closed window on its own
// goroutine (at most Concurrency at once). Held turns are kept alive by the consumer runtime until their window
// settles them. When deliveries closes (shutdown), every open window is extracted.
func (s *Service) dispatch(ctx context.Context, deliveries <-chan *bus.Delivery) error {
	sem := make(chan struct{}, s.cfg.Concurrency)
	var wg sync.WaitGroup
	launch := func(bs []batch) {
		for _, b := range bs {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				s.processBatch(ctx, b)
			})
		}
	}
	win := newWindower(s.cfg.WindowTokens, s.counter)
	ticker := time.NewTicker(max(s.cfg.IdleFlush/4, 10*time.Millisecond))
	defer ticker.Stop()
loop:
	for {
		select {
		case d, ok := <-deliveries:
			if !ok {
				break loop
			}
			s.accept(ctx, win, d, launch)
			if s.cfg.IdleFlush == 0 {
				// Extract at once what has arrived together.
				for more := true; more; {
					select {
					case d, ok := <-deliveries:
						if !ok {
							break loop
						}
						s.accept(ctx, win, d, launch)
					default:
						more = false
					}
				}
				launch(win.all())
			}
		case <-ticker.C:
			launch(win.idle(time.Now(), s.cfg.IdleFlush))
		}
	}
	launch(win.all())
	wg.Wait()
	return nil
}

// accept decodes one turn into its session's window; a turn that cannot be decoded is dead-lettered at once.
func (s *Service) accept(ctx context.Context, win *windower, d *bus.Delivery, launch func([]batch)) {
	t, err := decodeTurn(d.Msg.Subject(), d.Msg.Data())
	if err != nil {
		d.Settle(ctx, bus.Reject(bus.CauseInvalid, err))
		return
	}
	s.metrics.turn(ctx)
	launch(win.add(d, t, time.Now()))
}

// processBatch extracts one window, publishes its claims and settles its turns: acknowledged once every claim
// is stored; on failure each turn is retried (or dead-lettered after MaxDeliver) by the consumer runtime.
func (s *Service) processBatch(ctx context.Context, b batch) {
	s.metrics.window(ctx)
	// The window's span continues the trace of its first turn and links the others; each claim is published
	// under the span of the turn it came from, so every turn's trace reaches its claims.
	links := make([]trace.Link, 0, len(b.items))
	for _, h := range b.items[1:] {
		links = append(links, bus.LinkTo(h.d.Context(ctx)))
	}
	ctx, span := bus.Tracer().Start(b.items[0].d.Context(ctx), "extractor window", trace.WithLinks(links...),
		trace.WithAttributes(attribute.Int("mneme.window.turns", len(b.items))))
	start := time.Now()
	var outcome error
	defer func() {
		s.stage.Observe(ctx, start, outcome)
		bus.EndSpan(span, outcome)
	}()
	res, name, version, err := s.extract(ctx, b)
	if err != nil {
		var perr *panicError
		if errors.As(err, &perr) && len(b.items) > 1 {
			// Find the turn that breaks the extractor: retry each turn on its own.
			outcome = err
			for _, h := range b.items {
				s.processBatch(ctx, batch{window: extract.Window{Workspace: b.window.Workspace, SessionID: b.window.SessionID, Turns: []event.TurnAcceptedV1{h.turn}}, items: []held{h}})
			}
			return
		}
		outcome = err
		if errors.As(err, &perr) {
			settle(ctx, b.items, bus.Reject(causeExtractionPanic, err))
			return
		}
		settle(ctx, b.items, bus.Step("extraction", err))
		return
	}
	envs, sources, err := s.events(b, res.Claims, name, version)
	if err != nil {
		outcome = err
		settle(ctx, b.items, bus.Step("build", err))
		return
	}
	turnSpan := make(map[string]*bus.Delivery, len(b.items))
	for _, h := range b.items {
		if _, ok := turnSpan[h.turn.TurnID]; !ok {
			turnSpan[h.turn.TurnID] = h.d
		}
	}
	for i, e := range envs {
		pctx := ctx
		if d := turnSpan[sources[i]]; d != nil && d != b.items[0].d {
			pctx = d.Context(ctx)
		}
		pctx, cancel := context.WithTimeout(pctx, s.cfg.PublishTimeout)
		ack, err := bus.PublishEvent(pctx, s.js, bus.ProposedSubject(e.Workspace), e)
		cancel()
		if err != nil {
			outcome = err
			settle(ctx, b.items, bus.Step("publish", err))
			return
		}
		s.metrics.claim(ctx, name, ack.Duplicate)
	}
	// The claims are stored: acknowledge the turns (a redelivery republishes the same ids, deduplicated).
	settle(ctx, b.items, nil)
}

// settle settles every turn of a window with the window's outcome.
func settle(ctx context.Context, items []held, err error) {
	for _, h := range items {
		h.d.Settle(ctx, err)
	}
}

type panicError struct{ v any }

func (p *panicError) Error() string { return fmt.Sprintf("extractor panicked: %v", p.v) }

// extract runs the primary extractor, falling back to the rules when the LLM fails for good.
func (s *Service) extract(ctx context.Context, b batch) (res extract.Result, name, version string, err error) {
	run := func(ex extract.Extractor) (r extract.Result, err error) {
		if ex == s.rules {
			release, err := s.gate.Ingest(ctx)
			if err != nil {
				return extract.Result{}, err
			}
			defer release()
		}
		defer func() {
			if v := recover(); v != nil {
				err = &panicError{v: v}
			}
		}()
		return ex.Extract(llm.WithStage(ctx, llmextract.Stage), b.window)
	}
	res, err = run(s.primary)
	if err == nil {
		return res, s.primary.Name(), s.primary.Version(), nil
	}
	if s.fallback != nil && (llmextract.Permanent(err) || s.lastDelivery(b.items)) {
		s.log.Warn("LLM extraction failed; using the rule-based extractor for this window",
			"session", b.window.SessionID, "turns", len(b.items), "err", err)
		s.metrics.fellBack(ctx)
		res, err = run(s.fallback)
		if err == nil {
			return res, s.fallback.Name(), s.fallback.Version(), nil
		}
	}
	return extract.Result{}, "", "", err
}

// lastDelivery reports whether any turn of the window is on its last allowed delivery.
func (s *Service) lastDelivery(items []held) bool {
	for _, h := range items {
		if h.d != nil && h.d.LastAttempt() {
			return true
		}
	}
	return false
}

// events turns a window's claims into ClaimProposedV1 envelopes. A claim's id derives from the workspace,
// its first source turn, the extractor and its index among that turn's claims, so re-extracting the same
// turn yields the same ids. sources[i] is the id of envelope i's first source turn.
func (s *Service) events(b batch, claims []extract.Claim, name, version string) (out []event.Envelope, sources []string, err error) {
	turns := make(map[string]event.TurnAcceptedV1, len(b.window.Turns))
	for _, t := range b.window.Turns {
		turns[t.TurnID] = t
	}
	index := map[string]int{}
	out = make([]event.Envelope, 0, len(claims))
	for _, c := range claims {
		if len(c.TurnIDs) == 0 {
			continue
		}
		t, ok := turns[c.TurnIDs[0]]
		if !ok {
			continue
		}
		i := index[t.TurnID]
		index[t.TurnID]++
		id := event.DeterministicID(t.Workspace, t.TurnID, name, strconv.Itoa(i))
		p := proposed(t, c, id, name, version)
		if p.Subject == "" || p.SubjectKey == "" || p.Predicate == "" || p.PredicateKey == "" || p.Object == "" || p.Text == "" {
			continue
		}
		env, err := event.New(event.TypeClaimProposed, id, eventSource, t.Workspace, p.ProposedAt, p)
		if err != nil {
			return nil, nil, err
		}
		env.Subject = p.SubjectKey
		out = append(out, env)
		sources = append(sources, t.TurnID)
	}
	return out, sources, nil
}

// proposed builds the event payload of one claim. ProposedAt is the source turn's received time rather than
// the wall clock, so re-extraction reproduces the event exactly.
func proposed(t event.TurnAcceptedV1, c extract.Claim, id, name, version string) event.ClaimProposedV1 {
	validFrom := c.ValidFrom
	if validFrom.IsZero() {
		validFrom = t.OccurredAt
	}
	seq := c.Sequence
	if seq == nil {
		seq = t.Sequence
	}
	conf := c.Confidence
	if conf <= 0 || conf > 1 {
		conf = 0.5
	}
	turnIDs := make([]string, 0, len(c.TurnIDs))
	for _, id := range c.TurnIDs {
		turnIDs = append(turnIDs, clip(id, 256))
	}
	subjectKey := clip(c.SubjectKey, 512)
	if subjectKey == "" {
		subjectKey = clip(canon.SubjectKey(c.Subject), 512)
	}
	predicateKey := clip(c.PredicateKey, 256)
	if predicateKey == "" {
		predicateKey = clip(canon.PredicateKey(c.Predicate), 256)
	}
	return event.ClaimProposedV1{
		ClaimID:      id,
		Workspace:    t.Workspace,
		Subject:      clip(c.Subject, 512),
		SubjectKey:   subjectKey,
		Predicate:    clip(c.Predicate, 256),
		PredicateKey: predicateKey,
		Object:       clip(c.Object, 4096),
		Text:         clip(c.Text, 8192),
		Functional:   c.Functional,
		ValidFrom:    validFrom.UTC(),
		Sequence:     seq,
		Scope:        t.Scope,
		Confidence:   conf,
		Provenance: event.Provenance{
			AgentID:          t.AgentID,
			SessionID:        clip(t.SessionID, 256),
			TurnIDs:          turnIDs,
			Extractor:        clip(name, 128),
			ExtractorVersion: clip(version, 64),
		},
		ProposedAt: t.ReceivedAt.UTC(),
		Negated:    c.Negated,
	}
}

// clip cuts s to at most n bytes at a rune boundary (the event schemas bound these fields).
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
