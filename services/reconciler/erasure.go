package reconciler

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Erasure scopes: the tiers an erasure may touch, which are those its requester may write (see
// erasureScopeFor). A command without a scope (written before scopes existed) is ScopeAll.
const (
	// ScopeAll touches every tier: an admin key or development mode.
	ScopeAll = store.EraseScopeAll
	// ScopePrivate touches the private tier of the scope agent only: an agent key.
	ScopePrivate = store.EraseScopePrivate
	// ScopeShared touches the shared tier only: a curator erasing another agent's shared claims.
	ScopeShared = store.EraseScopeShared
	// ScopeSharedPrivate touches the shared tier and the scope agent's private tier: a curator.
	ScopeSharedPrivate = store.EraseScopeSharedPrivate
)

// How an erasure works. The HTTP handler records the request (erasures: who, when, kind and a hash of the
// target; never the target in clear) and publishes one ErasureRequestedV1 command to every affected claims
// partition (the subject's partition, or all of them). Each partition's owner applies its command in stream
// order, inside the batch transaction that advances the offset, so an erasure is serialized with the claims it
// erases: (1) it finds, in that partition, the claims, duplicate messages, confirmations and dead letters of the
// target; (2) deletes those source messages from MNEME_CLAIMS (secure delete: the stored bytes are overwritten)
// and the judge-log entries that judged erased claims; (3) deletes their projection rows; for an agent erasure the
// subjects the agent spoke about are then rebuilt from their surviving messages, exactly as a replay without the
// agent's messages would build them; (4) records its part. The part that completes the erasure (parts serialize
// on the erasures row) also purges the non-partitioned streams: the source turns (MNEME_TURNS), queued proposed
// claims (MNEME_PROPOSED), ledger decisions (MNEME_LEDGER), dead letters (MNEME_DLQ), and for a workspace its
// inbox. Finally each command message is itself deleted after its transaction commits (a leftover, after a
// crash, is deleted when the partition is next acquired).
//
// Replay after an erasure cannot resurrect anything: the messages are gone from every stream, and a replay that
// meets a leftover command applies the same deletions. Content published after the command (seq > the command's)
// is new knowledge and is kept; turns still inside the pipeline at that moment may produce claims afterwards.

// erasureTarget describes which rows of a partition an erasure covers: what (kind, target) within which tiers
// (scope, scopeAgent).
type erasureTarget struct {
	id, ws, kind, target string
	scope, scopeAgent    string
}

func targetOf(c *event.ErasureRequestedV1) erasureTarget {
	t := erasureTarget{id: c.ErasureID, ws: c.Workspace, kind: c.Kind, target: c.Target, scope: c.Scope, scopeAgent: c.ScopeAgent}
	if t.scope == "" {
		t.scope = ScopeAll
	}
	return t
}

// scoped reports whether the erasure is limited to some tiers.
func (t erasureTarget) scoped() bool { return t.scope != ScopeAll }

// tierAllowed reports whether a claim of the given scope and owner agent lies in the erasure's tiers.
func (t erasureTarget) tierAllowed(scope, owner string) bool {
	switch t.scope {
	case ScopeAll:
		return true
	case ScopeShared:
		return scope == string(event.ScopeShared)
	case ScopePrivate:
		return scope == string(event.ScopePrivate) && owner == t.scopeAgent
	case ScopeSharedPrivate:
		return scope == string(event.ScopeShared) || scope == string(event.ScopePrivate) && owner == t.scopeAgent
	}
	return false
}

// ownsAll reports whether everything an agent wrote is in scope for that agent's own messages that carry no
// tier (turns, dead letters, confirmations): only the agent's own, when the scope includes its private tier.
func (t erasureTarget) ownsAll(agent string) bool {
	if t.scope == ScopeAll {
		return true
	}
	return agent != "" && agent == t.scopeAgent && (t.scope == ScopePrivate || t.scope == ScopeSharedPrivate)
}

func targetHash(ws, target string) string {
	if target == "" {
		return ""
	}
	h := sha256.Sum256([]byte(ws + "\x00" + target))
	return hex.EncodeToString(h[:])
}

// stored is the target as pkg/store's erasure reads take it.
func (t erasureTarget) stored() store.ErasureTarget {
	return store.ErasureTarget{Workspace: t.ws, Kind: t.kind, Target: t.target, Scope: t.scope, ScopeAgent: t.scopeAgent}
}

// erasureOutcome is what a part did.
type erasureOutcome struct {
	claims, messages int
}

// applyErasure carries out this partition's part of an erasure (see the comment above).
func (e *engine) applyErasure(ctx context.Context, tx pgx.Tx, partition int, it item) error {
	c := it.erasure
	t := targetOf(c)
	parts := 1
	if t.kind != api.EraseSubject {
		parts = e.partitions
	}
	if err := store.InsertErasure(ctx, tx, store.ErasureRow{ID: t.id, Workspace: t.ws, Kind: t.kind, TargetHash: targetHash(t.ws, t.target),
		RequestedBy: c.RequestedBy, RequestedAt: c.RequestedAt, Partitions: parts, Scope: t.scope, ScopeAgent: t.scopeAgent}, true); err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	// Parts of one erasure serialize here, so the last one sees every other part committed.
	done, err := store.BeginErasurePart(ctx, tx, t.id, partition)
	if err != nil || done {
		return err
	}
	out, erased, turns, err := e.erasePartition(ctx, tx, partition, t, it.msg.Time)
	if err != nil {
		return err
	}
	partsDone, err := store.RecordErasurePart(ctx, tx, store.ErasurePartRow{ErasureID: t.id, Partition: partition, StreamSeq: int64(it.msg.Seq),
		ClaimsErased: out.claims, MessagesPurged: out.messages, ErasedClaims: erased, TurnIDs: turns})
	if err != nil {
		return err
	}
	if partsDone < parts {
		return nil
	}
	// The last part: purge the streams that are not partitioned, then close the record.
	global := 0
	if e.live {
		allErased, allTurns, err := store.ErasedByParts(ctx, tx, t.id)
		if err != nil {
			return err
		}
		n, err := e.purgeStreams(ctx, t, allErased, allTurns)
		if err != nil {
			return err
		}
		global = n
	}
	claimsErased, messagesPurged, err := store.CompleteErasure(ctx, tx, t.id, global)
	if err != nil {
		return err
	}
	if e.live {
		// The audit log is not projection state: a replay that meets a leftover command records nothing.
		if _, err := audit.Record(ctx, tx, audit.Entry{Workspace: t.ws, Action: event.AuditErasureCompleted, Actor: c.RequestedBy,
			Details: map[string]any{"erasure_id": t.id, "kind": t.kind, "scope": t.scope, "claims_erased": claimsErased,
				"messages_purged": messagesPurged}}); err != nil {
			return err
		}
	}
	return store.ForgetErasedIDs(ctx, tx, t.id)
}

// erasePartition deletes the target's messages and rows in one partition and rebuilds what must be rebuilt. It
// returns the erased claim ids and their source turn ids.
func (e *engine) erasePartition(ctx context.Context, tx pgx.Tx, partition int, t erasureTarget, at time.Time) (erasureOutcome, []string, []string, error) {
	var out erasureOutcome
	target := t.stored()
	claims, err := store.ErasureClaims(ctx, tx, partition, target)
	if err != nil {
		return out, nil, nil, fmt.Errorf("reconciler: %w", err)
	}
	var ids []string
	var seqs []int64
	subjects := map[string]bool{}
	turnSet := map[string]bool{}
	for _, c := range claims {
		ids, seqs = append(ids, c.ID), append(seqs, c.StreamSeq)
		subjects[c.SubjectKey] = true
		for _, tid := range c.TurnIDs {
			turnSet[tid] = true
		}
	}
	if ids == nil {
		ids = []string{} // = ANY('{}') is false; = ANY(NULL) would be unknown
	}
	out.claims = len(ids)
	// Other messages of the target in this partition: repeated claims, confirmations, dead letters. Confirmations
	// and dead letters carry no tier: a scoped erasure takes those of erased claims, and the scope agent's own.
	more, confSubjects, err := store.ErasureMessages(ctx, tx, partition, target, ids)
	if err != nil {
		return out, nil, nil, fmt.Errorf("reconciler: %w", err)
	}
	for _, s := range confSubjects {
		subjects[s] = true
	}
	var judgeKeys []string
	if len(ids) > 0 {
		if judgeKeys, err = store.JudgeKeysOf(ctx, tx, ids); err != nil {
			return out, nil, nil, err
		}
	}
	// Survivors: the other messages of the subjects the erasure touched (another agent's claims of them, another
	// tier's). Those subjects are deleted whole below and rebuilt from their survivors, exactly as a replay
	// without the erased messages would build them. A workspace erasure leaves none.
	var survivors []int64
	subjectList := make([]string, 0, len(subjects))
	for s := range subjects {
		subjectList = append(subjectList, s)
	}
	slices.Sort(subjectList)
	if t.kind != api.EraseWorkspace && len(subjectList) > 0 {
		if survivors, err = store.SurvivingMessages(ctx, tx, partition, t.ws, subjectList, ids, more); err != nil {
			return out, nil, nil, fmt.Errorf("reconciler: %w", err)
		}
	}
	// Delete the source messages first: if the transaction then fails, the retry finds the rows and deletes them.
	if e.live {
		toDelete := append(append([]int64(nil), seqs...), more...)
		n, err := e.deleteMsgs(ctx, bus.StreamClaims, toDelete)
		if err != nil {
			return out, nil, nil, err
		}
		out.messages += n
		e.purgeJudgeKeys(ctx, judgeKeys)
	}
	if err := store.Delete(ctx, tx, store.Deletion{Partition: partition, Workspace: t.ws, Subjects: subjectList, Claims: ids,
		DeadLetters: more, WholeWorkspace: t.kind == api.EraseWorkspace}); err != nil {
		return out, nil, nil, err
	}
	if len(survivors) > 0 {
		if err := e.rebuild(ctx, tx, partition, survivors, at); err != nil {
			return out, nil, nil, err
		}
	}
	turns := make([]string, 0, len(turnSet))
	for tid := range turnSet {
		turns = append(turns, tid)
	}
	slices.Sort(turns)
	return out, ids, turns, nil
}

// rebuild re-applies surviving messages (by stream sequence, in order) to subjects whose rows were just deleted,
// then applies await-confirmation timeouts due by the partition's log time, which is what the live path had done
// for them.
func (e *engine) rebuild(ctx context.Context, tx pgx.Tx, partition int, seqs []int64, at time.Time) error {
	stream, err := e.js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		return fmt.Errorf("reconciler: rebuild: %w", err)
	}
	msgs := make([]logMsg, 0, len(seqs))
	for _, s := range seqs {
		m, err := stream.GetMsg(ctx, uint64(s))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return fmt.Errorf("reconciler: rebuild: read message %d: %w", s, err)
		}
		msgs = append(msgs, logMsg{Seq: m.Sequence, Subject: m.Subject, Time: logTime(m.Time), Data: m.Data, Header: m.Header})
	}
	items, err := e.prepare(ctx, partition, msgs)
	if err != nil {
		return err
	}
	horizon, err := store.OffsetLogTime(ctx, tx, partition)
	if err != nil {
		return err
	}
	if at.After(horizon) {
		horizon = at
	}
	_, err = e.applySegment(ctx, tx, partition, items, horizon.UTC())
	return err
}

// deleteMsgs securely deletes stream messages by sequence; already deleted ones are skipped.
func (e *engine) deleteMsgs(ctx context.Context, streamName string, seqs []int64) (int, error) {
	if len(seqs) == 0 {
		return 0, nil
	}
	st, err := e.js.Stream(ctx, streamName)
	if err != nil {
		return 0, fmt.Errorf("reconciler: erasure: stream %s: %w", streamName, err)
	}
	n := 0
	for _, s := range seqs {
		if err := st.SecureDeleteMsg(ctx, uint64(s)); err != nil {
			if isNotFound(err) {
				continue
			}
			return n, fmt.Errorf("reconciler: erasure: delete %s message %d: %w", streamName, s, err)
		}
		n++
	}
	return n, nil
}

func isNotFound(err error) bool {
	return errors.Is(err, jetstream.ErrMsgNotFound) || strings.Contains(err.Error(), "no message found") ||
		strings.Contains(err.Error(), "message not found")
}

func canonSubject(s string) string { return canon.SubjectKey(s) }

func (e *engine) purgeJudgeKeys(ctx context.Context, keys []string) {
	if e.judge == nil || e.judge.kv == nil {
		return
	}
	for _, k := range keys {
		if err := e.judge.kv.Purge(ctx, k); err != nil {
			e.log.Warn("reconciler: erasure: purge judge log entry", "key", k, "err", err)
		}
	}
}

// scanDelete walks the messages of filter in stream (work queues included) and securely deletes those match
// selects.
func (e *engine) scanDelete(ctx context.Context, streamName, filter string, match func(*jetstream.RawStreamMsg) bool) (int, error) {
	st, err := e.js.Stream(ctx, streamName)
	if err != nil {
		return 0, fmt.Errorf("reconciler: erasure: stream %s: %w", streamName, err)
	}
	n := 0
	for seq := uint64(1); ; {
		m, err := st.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(filter))
		if err != nil {
			if isNotFound(err) {
				return n, nil
			}
			return n, fmt.Errorf("reconciler: erasure: scan %s: %w", filter, err)
		}
		if match(m) {
			if err := st.SecureDeleteMsg(ctx, m.Sequence); err != nil && !isNotFound(err) {
				return n, fmt.Errorf("reconciler: erasure: delete %s message %d: %w", streamName, m.Sequence, err)
			}
			n++
		}
		seq = m.Sequence + 1
	}
}

// looseEvent is the part of any Mneme event or inbox body an erasure matches on.
type looseEvent struct {
	Type      string          `json:"type"`
	Workspace string          `json:"workspace"`
	Data      json.RawMessage `json:"data"`
}

type looseData struct {
	Workspace   string           `json:"workspace"`
	AgentID     string           `json:"agent_id"`
	SubjectKey  string           `json:"subject_key"`
	TurnID      string           `json:"turn_id"`
	Provenance  event.Provenance `json:"provenance"`
	Inputs      []string         `json:"inputs"`
	Winner      string           `json:"winner"`
	Losers      []string         `json:"losers"`
	ClaimID     string           `json:"claim_id"`
	Subject     string           `json:"subject"`
	Claims      []looseData      `json:"claims"`
	Turns       []looseData      `json:"turns"`
	RequestedBy string           `json:"requested_by"`
	// Scope and OwnerAgent are a claim's or decision's tier (decisions name the owner of a private tier).
	Scope      string `json:"scope"`
	OwnerAgent string `json:"owner_agent"`
}

// matches reports whether an event or inbox body (data) falls under the erasure, given the erased claim ids and
// source turn ids.
func (t erasureTarget) matches(data []byte, hdr nats.Header, erased, turns map[string]bool) bool {
	// A dead letter of an inbox message names its workspace (and, in the credential-bound form, its agent) in
	// the original subject, whatever its body holds: it may be cut short (bus.DeadLetterMsg) or not JSON at all.
	var hdrWS, hdrAgent string
	if hdr != nil {
		if in, err := bus.ParseInboxSubject(hdr.Get(bus.HeaderDLQSubject)); err == nil {
			hdrWS, hdrAgent = in.Workspace, in.Agent
		}
		if hdrAgent == "" {
			hdrAgent = hdr.Get(bus.HeaderAgent)
		}
	}
	undecodable := func() bool {
		return hdrWS == t.ws && (t.kind == api.EraseWorkspace || t.kind == api.EraseAgent && hdrAgent == t.target)
	}
	var env looseEvent
	if err := json.Unmarshal(data, &env); err != nil {
		return undecodable()
	}
	if env.Type == event.TypeAuditRecorded {
		return false // the audit trail names no content and outlives what it records
	}
	var d looseData
	if len(env.Data) > 0 {
		if json.Unmarshal(env.Data, &d) != nil {
			return undecodable()
		}
	} else if json.Unmarshal(data, &d) != nil { // an inbox body, not an envelope
		return undecodable()
	}
	ws := d.Workspace
	if ws == "" {
		ws = env.Workspace
	}
	if ws == "" {
		// Inbox bodies name their workspace only in the subject (mneme.inbox.<ws>.*).
		ws = hdrWS
	}
	if ws != t.ws {
		return false
	}
	if t.kind == api.EraseWorkspace {
		return true
	}
	agent := d.AgentID
	if agent == "" {
		agent = d.Provenance.AgentID
	}
	if hdr != nil && agent == "" {
		agent = hdr.Get(bus.HeaderAgent)
	}
	if t.scoped() {
		// A scoped erasure touches a message only if it lies in the erasure's tiers: a claim or decision by its
		// tier; a turn, an inbox body or a dead letter (no tier of its own) only if the scope agent wrote it.
		switch {
		case d.TurnID != "" || d.Scope == "":
			if !t.ownsAll(agent) {
				return false
			}
		default:
			owner := d.OwnerAgent
			if owner == "" {
				owner = d.Provenance.AgentID
			}
			if !t.tierAllowed(d.Scope, owner) {
				return false
			}
		}
	}
	if erased[d.ClaimID] || erased[d.Winner] || turns[d.TurnID] {
		return true
	}
	for _, id := range append(append([]string(nil), d.Inputs...), d.Losers...) {
		if erased[id] {
			return true
		}
	}
	switch t.kind {
	case api.EraseSubject:
		if d.SubjectKey == t.target {
			return true
		}
	case api.EraseAgent:
		if agent == t.target || hdrAgent == t.target {
			return true
		}
	}
	for _, sub := range append(append([]looseData(nil), d.Claims...), d.Turns...) {
		if t.kind == api.EraseAgent && (sub.AgentID == t.target || hdrAgent == t.target && sub.AgentID == "") {
			return true
		}
		if t.kind == api.EraseSubject && sub.Subject != "" && canonSubject(sub.Subject) == t.target {
			return true
		}
	}
	return false
}

// purgeStreams deletes the erasure's messages from the streams that are not partitioned. It returns how many.
func (e *engine) purgeStreams(ctx context.Context, t erasureTarget, erasedIDs, turnIDs []string) (int, error) {
	erased := map[string]bool{}
	for _, id := range erasedIDs {
		erased[id] = true
	}
	turns := map[string]bool{}
	for _, id := range turnIDs {
		turns[id] = true
	}
	match := func(m *jetstream.RawStreamMsg) bool { return t.matches(m.Data, m.Header, erased, turns) }
	total := 0
	for _, s := range []struct{ stream, filter string }{
		{bus.StreamTurns, bus.TurnsSubject(t.ws)},
		{bus.StreamProposed, bus.ProposedSubject(t.ws)},
		{bus.StreamLedger, bus.LedgerSubject(t.ws)},
		{bus.StreamDLQ, "mneme.dlq.>"},
		{bus.StreamInbox, "mneme.inbox." + t.ws + ".>"},
	} {
		f := match
		if s.stream == bus.StreamInbox && t.kind != api.EraseWorkspace {
			continue // unprocessed inbox messages of one subject or agent are not looked into
		}
		if s.stream == bus.StreamInbox {
			f = func(*jetstream.RawStreamMsg) bool { return true }
		}
		n, err := e.scanDelete(ctx, s.stream, s.filter, f)
		if err != nil {
			return total, err
		}
		total += n
	}
	return total, nil
}

// purgeLeftoverCommands deletes erasure command messages of this partition whose part committed but whose
// deletion did not happen (a crash right after the commit).
func (e *engine) purgeLeftoverCommands(ctx context.Context, partition int) error {
	cmds, err := store.UnpurgedErasureCommands(ctx, e.pool, partition)
	if err != nil {
		return err
	}
	for _, c := range cmds {
		if err := e.deleteCommand(ctx, partition, c.ErasureID, c.StreamSeq); err != nil {
			return err
		}
	}
	return nil
}

func (e *engine) deleteCommand(ctx context.Context, partition int, id string, seq int64) error {
	if _, err := e.deleteMsgs(ctx, bus.StreamClaims, []int64{seq}); err != nil {
		return err
	}
	return store.MarkErasureCommandPurged(ctx, e.pool, id, partition)
}
