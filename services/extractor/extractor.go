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
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/service"
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
	// maxRetryBackoff caps the redelivery delay after failures.
	maxRetryBackoff = time.Minute
)

// Service is the extractor stage. Build it with New; it implements service.Service.
type Service struct {
	cfg      Config
	log      *slog.Logger
	js       jetstream.JetStream
	counter  *tokens.Counter
	primary  extract.Extractor
	fallback extract.Extractor // rules when the primary is the LLM and fallback is enabled; else nil
	acct     *llm.Accountant
	metrics  *metrics

	consuming atomic.Bool
}

var _ service.Service = (*Service)(nil)

// New builds the extractor from the shared dependencies (it needs Logger and JS) and its configuration.
func New(deps service.Deps, cfg Config) (*Service, error) {
	if deps.JS == nil {
		return nil, errors.New("extractor: service.Deps.JS is required (a JetStream context)")
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
	s := &Service{cfg: cfg, log: log, js: deps.JS, counter: counter, metrics: m}
	ruleEx := rules.New(rules.WithPolicy(policy))
	s.primary = ruleEx
	if cfg.LLMEnabled() {
		rec, err := llm.OTelRecorder(otelMeterProvider())
		if err != nil {
			return nil, err
		}
		s.acct = llm.NewAccountant(llm.WithRecorder(rec))
		client, err := llm.New(llm.Config{
			BaseURL:    cfg.LLMBaseURL,
			APIKey:     cfg.LLMAPIKey,
			Model:      cfg.LLMModel,
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

// Name implements service.Service.
func (s *Service) Name() string { return "extractor" }

// Ready reports whether the service is consuming turns.
func (s *Service) Ready(ctx context.Context) error {
	if !s.consuming.Load() {
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
	cons, err := s.js.CreateOrUpdateConsumer(ctx, bus.StreamTurns, s.cfg.ConsumerConfig())
	if err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("extractor: create consumer %s on %s: %w (is the topology ensured?)", ConsumerName, bus.StreamTurns, err)
	}
	it, err := cons.Messages(jetstream.PullMaxMessages(s.cfg.FetchBatch))
	if err != nil {
		return fmt.Errorf("extractor: consume %s: %w", bus.StreamTurns, err)
	}
	s.consuming.Store(true)
	defer s.consuming.Store(false)

	msgs := make(chan jetstream.Msg, s.cfg.FetchBatch)
	pullErr := make(chan error, 1)
	go func() {
		defer close(msgs)
		for {
			m, err := it.Next()
			if err != nil {
				if errors.Is(err, jetstream.ErrMsgIteratorClosed) {
					if ctx.Err() == nil {
						pullErr <- err
					}
					return
				}
				s.log.Warn("turns pull", "err", err)
				continue
			}
			msgs <- m
		}
	}()
	stop := context.AfterFunc(ctx, it.Stop)
	defer stop()

	// Windows are extracted and published on a context that outlives ctx: a window in flight when shutdown
	// starts finishes (each step is bounded) rather than being abandoned half-published.
	work := context.WithoutCancel(ctx)
	sem := make(chan struct{}, s.cfg.Concurrency)
	var wg sync.WaitGroup
	dispatch := func(bs []batch) {
		for _, b := range bs {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				s.processBatch(work, b)
			})
		}
	}

	win := newWindower(s.cfg.WindowTokens, s.counter)
	tick := max(s.cfg.IdleFlush/4, 10*time.Millisecond)
	ticker := time.NewTicker(tick)
	defer ticker.Stop()
	lastProgress := time.Now()
	var runErr error
loop:
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				break loop
			}
			s.accept(work, win, m, dispatch)
			if s.cfg.IdleFlush == 0 && len(msgs) == 0 {
				dispatch(win.all())
			}
		case <-ticker.C:
			now := time.Now()
			dispatch(win.idle(now, s.cfg.IdleFlush))
			// Keep held turns from being redelivered while their window is still open.
			if now.Sub(lastProgress) >= s.cfg.AckWait/3 {
				win.each(func(h held) { _ = h.msg.InProgress() })
				lastProgress = now
			}
		case err := <-pullErr:
			runErr = fmt.Errorf("extractor: turns iterator closed: %w", err)
			break loop
		}
	}
	// Drain what was pulled but not yet seen, then extract every open window.
	for m := range msgs {
		s.accept(work, win, m, dispatch)
	}
	dispatch(win.all())
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(s.cfg.ShutdownTimeout):
		s.log.Warn("shutdown timed out; unacknowledged turns will be redelivered", "timeout", s.cfg.ShutdownTimeout)
	}
	return runErr
}

// accept decodes one turn message into its session's window; a message that cannot be decoded is
// dead-lettered at once.
func (s *Service) accept(ctx context.Context, win *windower, m jetstream.Msg, dispatch func([]batch)) {
	t, err := decodeTurn(m.Subject(), m.Data())
	if err != nil {
		s.deadLetter(ctx, m, "invalid", err.Error())
		return
	}
	s.metrics.turn(ctx)
	dispatch(win.add(m, t, time.Now()))
}

// processBatch extracts one window, publishes its claims and acknowledges its turns.
func (s *Service) processBatch(ctx context.Context, b batch) {
	s.metrics.window(ctx)
	// A slow LLM must not let the turns' ack wait run out mid-window: signal progress meanwhile.
	stopKeepalive := s.keepalive(b.items)
	defer stopKeepalive()
	res, name, version, err := s.extract(ctx, b)
	if err != nil {
		var perr *panicError
		if errors.As(err, &perr) && len(b.items) > 1 {
			// Find the turn that breaks the extractor: retry each turn on its own.
			for _, h := range b.items {
				s.processBatch(ctx, batch{window: extract.Window{Workspace: b.window.Workspace, SessionID: b.window.SessionID, Turns: []event.TurnAcceptedV1{h.turn}}, items: []held{h}})
			}
			return
		}
		if errors.As(err, &perr) {
			s.deadLetter(ctx, b.items[0].msg, "extraction_panic", err.Error())
			return
		}
		s.retryOrDeadLetter(ctx, b.items, "extraction", err)
		return
	}
	envs, err := s.events(b, res.Claims, name, version)
	if err != nil {
		s.retryOrDeadLetter(ctx, b.items, "build", err)
		return
	}
	for _, e := range envs {
		pctx, cancel := context.WithTimeout(ctx, s.cfg.PublishTimeout)
		ack, err := bus.PublishEvent(pctx, s.js, bus.ProposedSubject(e.Workspace), e)
		cancel()
		if err != nil {
			s.retryOrDeadLetter(ctx, b.items, "publish", err)
			return
		}
		s.metrics.claim(ctx, name, ack.Duplicate)
	}
	for _, h := range b.items {
		if err := h.msg.Ack(); err != nil {
			// The claims are stored; a redelivery republishes the same ids and is deduplicated.
			s.log.Warn("ack turn", "turn_id", h.turn.TurnID, "err", err)
		}
	}
}

// keepalive sends progress signals for the items every third of AckWait until the returned func is called.
func (s *Service) keepalive(items []held) func() {
	done := make(chan struct{})
	go func() {
		t := time.NewTicker(s.cfg.AckWait / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				for _, h := range items {
					_ = h.msg.InProgress()
				}
			}
		}
	}()
	return func() { close(done) }
}

type panicError struct{ v any }

func (p *panicError) Error() string { return fmt.Sprintf("extractor panicked: %v", p.v) }

// extract runs the primary extractor, falling back to the rules when the LLM fails for good.
func (s *Service) extract(ctx context.Context, b batch) (res extract.Result, name, version string, err error) {
	run := func(ex extract.Extractor) (r extract.Result, err error) {
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
		if md, err := h.msg.Metadata(); err == nil && md.NumDelivered >= uint64(s.cfg.MaxDeliver) {
			return true
		}
	}
	return false
}

// events turns a window's claims into ClaimProposedV1 envelopes. A claim's id derives from the workspace,
// its first source turn, the extractor and its index among that turn's claims, so re-extracting the same
// turn yields the same ids.
func (s *Service) events(b batch, claims []extract.Claim, name, version string) ([]event.Envelope, error) {
	turns := make(map[string]event.TurnAcceptedV1, len(b.window.Turns))
	for _, t := range b.window.Turns {
		turns[t.TurnID] = t
	}
	index := map[string]int{}
	out := make([]event.Envelope, 0, len(claims))
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
			return nil, err
		}
		env.Subject = p.SubjectKey
		out = append(out, env)
	}
	return out, nil
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

// retryOrDeadLetter hands the window's turns back for redelivery with backoff, or dead-letters the ones that
// reached MaxDeliver.
func (s *Service) retryOrDeadLetter(ctx context.Context, items []held, step string, cause error) {
	for _, h := range items {
		md, err := h.msg.Metadata()
		if err != nil {
			continue
		}
		if md.NumDelivered >= uint64(s.cfg.MaxDeliver) {
			s.deadLetter(ctx, h.msg, "retries_exhausted",
				fmt.Sprintf("%s failed after %d deliveries: %v", step, md.NumDelivered, cause))
			continue
		}
		delay := s.retryDelay(md.NumDelivered)
		s.log.Warn("turn will be retried", "step", step, "turn_id", h.turn.TurnID, "delivery", md.NumDelivered, "delay", delay, "err", cause)
		s.metrics.retry(ctx)
		if err := h.msg.NakWithDelay(delay); err != nil {
			s.log.Warn("nak turn", "turn_id", h.turn.TurnID, "err", err)
		}
	}
}

func (s *Service) retryDelay(delivered uint64) time.Duration {
	d := s.cfg.RetryBackoff
	for i := uint64(1); i < delivered && d < maxRetryBackoff; i++ {
		d *= 2
	}
	return min(d, maxRetryBackoff)
}

// deadLetter copies a turn message to mneme.dlq.extractor with the reason and terminates it. When the
// dead-letter publish fails the message is handed back instead, so it is never lost.
func (s *Service) deadLetter(ctx context.Context, msg jetstream.Msg, cause, reason string) {
	pctx, cancel := context.WithTimeout(ctx, s.cfg.PublishTimeout)
	defer cancel()
	if err := bus.DeadLetter(pctx, s.js, dlqStage, msg, reason); err != nil {
		s.log.Error("dead-letter failed; turn will be redelivered", "subject", msg.Subject(), "reason", reason, "err", err)
		var delivered uint64 = 1
		if md, err := msg.Metadata(); err == nil {
			delivered = md.NumDelivered
		}
		_ = msg.NakWithDelay(s.retryDelay(delivered))
		return
	}
	s.metrics.deadLetter(ctx, cause)
	s.log.Warn("turn dead-lettered", "subject", msg.Subject(), "cause", cause, "reason", reason)
	if err := msg.Term(); err != nil {
		s.log.Warn("term turn", "err", err)
	}
}
