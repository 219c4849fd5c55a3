package reconciler

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/priority"
	"github.com/mneme-ai/mneme/pkg/promptguard"
	"github.com/mneme-ai/mneme/pkg/store"
)

// logMsg is one claims-stream message as the engine sees it, whether it came from a live consumer, a replay or
// a subject rebuild.
type logMsg struct {
	Seq     uint64
	Subject string
	// Time is the message's stream time stamp (log time), in UTC truncated to Postgres' microseconds: it is the
	// transaction time of everything the message causes.
	Time   time.Time
	Data   []byte
	Header nats.Header
	// JS is the live message (nil in replays and rebuilds), for dead-lettering with bus.DeadLetter.
	JS jetstream.Msg
}

func logTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

type itemKind int

const (
	kindClaim itemKind = iota + 1
	kindConfirm
	kindErasure
)

// item is a decoded message.
type item struct {
	msg     logMsg
	kind    itemKind
	claim   *event.ClaimEmbeddedV1
	confirm *event.ClaimConfirmedV1
	erasure *event.ErasureRequestedV1
	// dead is the dead-letter reason of a message that cannot be applied (never any claim content).
	dead string
	// Who the message is about, when it could be decoded, for the dead_letters record.
	ws, subject, agent string

	// Derived claim fields.
	objectKey  string
	sourceKey  string
	confidence float32
	validFrom  time.Time
	// screen names the promptguard rule the claim's content matched ("" when none): the claim is quarantined.
	screen string
}

// engine applies claims-stream messages to the projection. It is shared by the live partition workers, Replay
// and the subject rebuild of an erasure; everything it writes is a function of the messages (and the judge log).
type engine struct {
	cfg        Config
	policy     *Policy
	judge      *judge
	js         jetstream.JetStream
	pool       *pgxpool.Pool
	log        *slog.Logger
	partitions int
	instance   string
	// live is false in replays: no dead letters or decisions are published and no stream messages deleted.
	live bool

	// tel reports batch latency, dead letters and decisions (nil-safe).
	tel *telemetry
	// gate runs each batch as an ingest unit behind the process's queries (nil: none; pkg/priority).
	gate *priority.Gate

	// faultHook, set only by tests, fails applying chosen items (to exercise bounded retries).
	faultHook func(*item) error

	pinMu  sync.Mutex
	pinned map[string]error // "model/dim" → PinEmbedding result (nil = pinned)

	// grown holds the workspaces this process has written vectors to since the index check last took them
	// (live engines only): the candidates for an index of their own (Service.indexWorkspaces).
	grownMu sync.Mutex
	grown   map[string]bool
}

// noteGrown records the workspaces of vectors just written.
func (e *engine) noteGrown(vectors []store.VectorRow) {
	if !e.live || len(vectors) == 0 {
		return
	}
	e.grownMu.Lock()
	defer e.grownMu.Unlock()
	if e.grown == nil {
		e.grown = map[string]bool{}
	}
	for _, v := range vectors {
		e.grown[v.Workspace] = true
	}
}

// takeGrown returns the workspaces noted since the last call, sorted, and forgets them.
func (e *engine) takeGrown() []string {
	e.grownMu.Lock()
	defer e.grownMu.Unlock()
	out := make([]string, 0, len(e.grown))
	for ws := range e.grown {
		out = append(out, ws)
	}
	clear(e.grown)
	slices.Sort(out)
	return out
}

// errFenced means another owner advanced the partition: this process no longer owns it.
var errFenced = errors.New("reconciler: partition offset moved: ownership lost")

// decode turns a message into an item; an undecodable or invalid message becomes a dead item.
func (e *engine) decode(m logMsg, partition int) item {
	it := item{msg: m}
	env, err := event.Decode(m.Data)
	if err != nil {
		it.dead = "undecodable envelope: " + err.Error()
		return it
	}
	switch env.Type {
	case event.TypeClaimEmbedded:
		var c event.ClaimEmbeddedV1
		if err := env.Into(event.TypeClaimEmbedded, &c); err != nil {
			it.dead = "undecodable claim: " + err.Error()
			return it
		}
		it.kind, it.claim = kindClaim, &c
		it.ws, it.subject, it.agent = c.Workspace, c.SubjectKey, c.Provenance.AgentID
		if reason := e.validateClaim(&c, partition); reason != "" {
			it.dead = reason
			return it
		}
		it.objectKey = canon.ObjectKey(c.Object)
		if it.objectKey == "" {
			it.objectKey = strings.ToLower(strings.TrimSpace(c.Object))
		}
		it.sourceKey = sourceKey(c.Provenance)
		it.confidence = float32(c.Confidence)
		it.validFrom = logTime(c.ValidFrom)
		// A function of the content alone, so a replay quarantines the same claims.
		it.screen = promptguard.Screen(c.Subject, c.Predicate, c.Object, c.Text)
	case event.TypeClaimConfirmed:
		var c event.ClaimConfirmedV1
		if err := env.Into(event.TypeClaimConfirmed, &c); err != nil {
			it.dead = "undecodable confirmation: " + err.Error()
			return it
		}
		it.kind, it.confirm = kindConfirm, &c
		it.ws, it.subject, it.agent = c.Workspace, c.SubjectKey, c.AgentID
		switch {
		case uuid.Validate(c.ClaimID) != nil:
			it.dead = "confirmation: claim_id is not a UUID"
		case auth.ValidWorkspaceID(c.Workspace) != nil:
			it.dead = "confirmation: invalid workspace id"
		case auth.ValidAgentID(c.AgentID) != nil:
			it.dead = "confirmation: invalid agent id"
		case bus.PartitionOf(c.Workspace, c.SubjectKey, e.partitions) != partition:
			it.dead = fmt.Sprintf("confirmation published to partition %d, but its subject belongs to partition %d", partition, bus.PartitionOf(c.Workspace, c.SubjectKey, e.partitions))
		}
	case event.TypeErasureRequested:
		var c event.ErasureRequestedV1
		if err := env.Into(event.TypeErasureRequested, &c); err != nil {
			it.dead = "undecodable erasure command: " + err.Error()
			return it
		}
		it.kind, it.erasure = kindErasure, &c
		it.ws = c.Workspace
		switch {
		case uuid.Validate(c.ErasureID) != nil:
			it.dead = "erasure: erasure_id is not a UUID"
		case auth.ValidWorkspaceID(c.Workspace) != nil:
			it.dead = "erasure: invalid workspace id"
		case c.Kind != "subject" && c.Kind != "agent" && c.Kind != "workspace":
			it.dead = fmt.Sprintf("erasure: unknown kind %q", c.Kind)
		case c.Kind != "workspace" && c.Target == "":
			it.dead = "erasure: target is required for kind " + c.Kind
		case c.Scope != "" && c.Scope != ScopeAll && c.Scope != ScopePrivate && c.Scope != ScopeShared && c.Scope != ScopeSharedPrivate:
			it.dead = fmt.Sprintf("erasure: unknown scope %q", c.Scope)
		case (c.Scope == ScopePrivate || c.Scope == ScopeSharedPrivate) && auth.ValidAgentID(c.ScopeAgent) != nil:
			it.dead = "erasure: scope " + c.Scope + " needs a valid scope_agent"
		case c.Kind == "workspace" && c.Scope != "" && c.Scope != ScopeAll:
			it.dead = "erasure: a workspace erasure covers every tier"
		}
	default:
		it.dead = fmt.Sprintf("unexpected event type %q on the claims stream", env.Type)
	}
	return it
}

// Field limits mirror the event schemas; anything beyond them is refused rather than stored.
const (
	maxKeyBytes    = 512
	maxObjectBytes = 4096
	maxTextBytes   = 8192
	maxDim         = 16000
)

func (e *engine) validateClaim(c *event.ClaimEmbeddedV1, partition int) string {
	switch {
	case uuid.Validate(c.ClaimID) != nil:
		return "claim_id is not a UUID"
	case auth.ValidWorkspaceID(c.Workspace) != nil:
		return "invalid workspace id"
	case c.SubjectKey == "" || len(c.SubjectKey) > maxKeyBytes:
		return "subject_key is empty or longer than 512 bytes"
	case c.PredicateKey == "" || len(c.PredicateKey) > maxKeyBytes:
		return "predicate_key is empty or longer than 512 bytes"
	case len(c.Subject) > maxKeyBytes || len(c.Predicate) > maxKeyBytes:
		return "subject or predicate longer than 512 bytes"
	case len(c.Object) > maxObjectBytes:
		return "object longer than 4096 bytes"
	case strings.TrimSpace(c.Object) == "":
		return "object is empty"
	case len(c.Text) > maxTextBytes:
		return "text longer than 8192 bytes"
	case !c.Scope.Valid():
		return fmt.Sprintf("scope %q is neither private nor shared", c.Scope)
	case auth.ValidAgentID(c.Provenance.AgentID) != nil:
		return "provenance.agent_id is missing or invalid"
	case c.ValidFrom.IsZero():
		return "valid_from is missing"
	case c.ValidFrom.Year() < 1 || c.ValidFrom.Year() > 9999:
		return "valid_from is out of range"
	case math.IsNaN(c.Confidence) || c.Confidence < 0 || c.Confidence > 1:
		return "confidence is not in [0, 1]"
	case bus.PartitionOf(c.Workspace, c.SubjectKey, e.partitions) != partition:
		return fmt.Sprintf("claim published to partition %d, but its subject belongs to partition %d (is MNEME_PARTITIONS the same in every service?)",
			partition, bus.PartitionOf(c.Workspace, c.SubjectKey, e.partitions))
	}
	if r := checkVector("embedding", c.Embedding, true); r != "" {
		return r
	}
	if r := checkVector("predicate_embedding", c.PredicateEmbedding, false); r != "" {
		return r
	}
	for _, s := range []string{c.ClaimID, c.Subject, c.SubjectKey, c.Predicate, c.PredicateKey, c.Object, c.Text,
		c.Provenance.AgentID, c.Provenance.SessionID, c.Provenance.Extractor, c.Provenance.ExtractorVersion, c.Provenance.SourceRef,
		c.Embedding.Model, c.PredicateEmbedding.Model} {
		if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
			return "a text field contains a NUL byte or invalid UTF-8"
		}
	}
	for _, s := range c.Provenance.TurnIDs {
		if strings.IndexByte(s, 0) >= 0 || !utf8.ValidString(s) {
			return "a turn id contains a NUL byte or invalid UTF-8"
		}
	}
	return ""
}

func checkVector(name string, v event.Vector, required bool) string {
	if !required && v.Dim == 0 && len(v.Values) == 0 {
		return ""
	}
	switch {
	case v.Dim <= 0 || v.Dim > maxDim:
		return fmt.Sprintf("%s dimension %d out of range 1..%d", name, v.Dim, maxDim)
	case len(v.Values) != v.Dim:
		return fmt.Sprintf("%s has %d values but declares dimension %d", name, len(v.Values), v.Dim)
	case strings.TrimSpace(v.Model) == "":
		return name + " has no model id"
	}
	for _, x := range v.Values {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return name + " has a non-finite value"
		}
	}
	return ""
}

// sourceKey is the independent-source key of a claim: the asserting agent. Corroboration, the evidence
// operator and await-confirmation's second source count distinct keys, so an agent that repeats a claim — in
// another turn, under another source reference, in another session — never corroborates itself: only another
// agent's credential makes another source (agents are untrusted, and a source reference is a field the agent
// sets). Two turns of one agent are not independent evidence either: they come from one memory.
func sourceKey(p event.Provenance) string {
	return "agent:" + p.AgentID
}

// pin records the embedding model and dimension of vectors in the store (once per process and model); a
// different dimension than the store's is a permanent error for the message.
func (e *engine) pin(ctx context.Context, model string, dim int) error {
	key := fmt.Sprintf("%s/%d", model, dim)
	e.pinMu.Lock()
	defer e.pinMu.Unlock()
	if err, ok := e.pinned[key]; ok {
		return err
	}
	err := store.PinEmbedding(ctx, e.pool, model, dim)
	if err == nil || errors.Is(err, store.ErrDimensionMismatch) {
		e.pinned[key] = err
	}
	return err
}

// prepare decodes msgs and pins their embedding dimensions. Infrastructure errors are returned; message faults
// become dead items.
func (e *engine) prepare(ctx context.Context, partition int, msgs []logMsg) ([]item, error) {
	items := make([]item, 0, len(msgs))
	for _, m := range msgs {
		it := e.decode(m, partition)
		if it.dead == "" && it.kind == kindClaim {
			if err := e.pin(ctx, it.claim.Embedding.Model, it.claim.Embedding.Dim); err != nil {
				if !errors.Is(err, store.ErrDimensionMismatch) {
					return nil, err
				}
				it.dead = "embedding dimension mismatch: " + err.Error()
			}
		}
		items = append(items, it)
	}
	return items, nil
}

// batchResult is what a committed batch leaves to do: decisions to publish.
type batchResult struct {
	decisions []event.DecisionRecordedV1
	// commands are erasure command messages to delete once the transaction has committed.
	commands []commandRef
}

type commandRef struct {
	erasureID string
	seq       uint64
}

// applyBatch applies items (already decoded, in stream order) in tx: it checks the partition offset is still
// expected (fencing), takes the per-subject guards, applies every item, and advances the offset past the last
// one. Dead items advance the offset and are recorded in dead_letters.
func (e *engine) applyBatch(ctx context.Context, tx pgx.Tx, partition int, expected uint64, items []item) (*batchResult, error) {
	if len(items) == 0 {
		return &batchResult{}, nil
	}
	if err := store.FenceOffset(ctx, tx, partition, e.instance, expected); err != nil {
		if errors.Is(err, store.ErrOffsetMoved) {
			return nil, fmt.Errorf("%w (%w)", errFenced, err)
		}
		return nil, fmt.Errorf("reconciler: %w", err)
	}
	if err := lockSubjects(ctx, tx, items); err != nil {
		return nil, err
	}
	res := &batchResult{}
	seg := 0
	for i := 0; i <= len(items); i++ {
		// Erasure commands run alone, between segments of ordinary messages.
		if i < len(items) && !(items[i].kind == kindErasure && items[i].dead == "") {
			continue
		}
		if i > seg {
			decisions, err := e.applySegment(ctx, tx, partition, items[seg:i], time.Time{})
			if err != nil {
				return nil, err
			}
			for _, d := range decisions {
				res.decisions = append(res.decisions, decisionEvent(d))
			}
		}
		if i < len(items) {
			if err := e.applyErasure(ctx, tx, partition, items[i]); err != nil {
				return nil, err
			}
			res.commands = append(res.commands, commandRef{erasureID: items[i].erasure.ErasureID, seq: items[i].msg.Seq})
		}
		seg = i + 1
	}
	last := items[len(items)-1].msg
	if err := store.AdvanceOffset(ctx, tx, partition, last.Seq, last.Time, e.instance); err != nil {
		return nil, fmt.Errorf("reconciler: %w", err)
	}
	return res, nil
}

// applySegment applies a segment of ordinary messages (no erasure command among them) in tx: load the state
// its decisions need (load.go), decide (decide.go, in memory), write the changes (store.Write). Gates due by
// horizon, when later than the last message, are applied too. It returns the decisions written.
func (e *engine) applySegment(ctx context.Context, tx pgx.Tx, partition int, items []item, horizon time.Time) ([]store.DecisionRow, error) {
	until := horizon
	for _, it := range items {
		if it.msg.Time.After(until) {
			until = it.msg.Time
		}
	}
	st := newState()
	if err := st.loadKnown(ctx, tx, items); err != nil {
		return nil, err
	}
	var judge verdicts
	if e.judge != nil {
		judge = e.judge
	}
	d := newDecider(partition, e.cfg, e.policy, judge, e.log, st)
	d.faultHook = e.faultHook
	slots, need := d.assignSlots(items)
	if err := st.loadTiers(ctx, tx, partition, need, until, e.policy); err != nil {
		return nil, err
	}
	if e.cfg.NegationLinks {
		if err := st.loadPolarity(ctx, tx, items, slots); err != nil {
			return nil, err
		}
	}
	changes, err := d.decide(ctx, items, slots, horizon)
	if err != nil {
		return nil, err
	}
	if err := store.Write(ctx, tx, changes); err != nil {
		return nil, fmt.Errorf("reconciler: %w", err)
	}
	// Noted before the commit: a rolled-back batch costs the index check one needless count.
	e.noteGrown(changes.Vectors)
	return changes.Decisions, nil
}

// lockSubjects takes the per-subject transaction guards in a fixed order (no deadlock between transactions that
// touch several subjects).
func lockSubjects(ctx context.Context, tx pgx.Tx, items []item) error {
	var keys []int64
	for _, it := range items {
		if it.ws == "" {
			continue
		}
		keys = append(keys, subjectLockKey(it.ws, it.subject))
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	if err := store.LockSubjects(ctx, tx, keys); err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	return nil
}

// subjectLockKey is the advisory lock key of (workspace, subject_key).
func subjectLockKey(ws, subject string) int64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(ws))
	_, _ = h.Write([]byte{0})
	_, _ = h.Write([]byte(subject))
	return int64(h.Sum64())
}
