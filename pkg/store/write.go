package store

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// The write side of the projection: one typed row per table the reconciler writes, each beside its column list,
// and Write, which writes a batch's Changes in one transaction. services/reconciler/doc.go says what every
// column means to readers.

// Changes is what one reconciler batch (or erasure rebuild) writes, in the order it decided it.
type Changes struct {
	Claims         []ClaimRow
	Vectors        []VectorRow
	Contradictions []ContradictionRow
	Predicates     []PredicateRow
	// Retire ends belief versions already in the store; versions appended in the same batch carry their
	// RetiredAt instead.
	Retire         []RetireRow
	Versions       []VersionRow
	Decisions      []DecisionRow
	Supersedes     []SupersedesRow
	Corroborations []CorroborationRow
	Aliases        []AliasRow
	Gates          []GateRow
	Confirmations  []ConfirmationRow
	Judgements     []JudgementRow
	// FailedErasures are erasure ids whose command was dead-lettered: their record says so.
	FailedErasures []string
	Duplicates     []DuplicateRow
	DeadLetters    []DeadLetterRow
}

// ClaimRow is a claims row: one claim, immutable (content and provenance). Empty OwnerAgent is stored as is (the
// asserting agent is always known); empty Screen is NULL.
type ClaimRow struct {
	ID, Workspace, SubjectKey, Subject, PredicateKey, Predicate, SlotKey, Object, ObjectKey, Text string
	Functional                                                                                    bool
	Scope, OwnerAgent                                                                             string
	Confidence                                                                                    float32
	ValidFrom                                                                                     time.Time
	Sequence                                                                                      *int64
	// Provenance is the event's provenance as JSON.
	Provenance           string
	Partition            int
	StreamSeq            int64
	RecordedAt           time.Time
	SourceKey, Extractor string
	Negated              bool
	Screen               string
	Trust                float32
}

var claimColumns = []string{"id", "workspace_id", "subject_key", "subject", "predicate_key", "predicate", "slot_key",
	"object", "object_key", "text", "functional", "scope", "owner_agent", "confidence", "valid_from", "sequence",
	"provenance", "partition", "stream_seq", "recorded_at", "source_key", "extractor", "negated", "screen", "trust"}

func (r ClaimRow) values() []any {
	var seq any
	if r.Sequence != nil {
		seq = *r.Sequence
	}
	return []any{r.ID, r.Workspace, r.SubjectKey, r.Subject, r.PredicateKey, r.Predicate, r.SlotKey,
		r.Object, r.ObjectKey, r.Text, r.Functional, r.Scope, r.OwnerAgent, r.Confidence, r.ValidFrom, seq,
		r.Provenance, r.Partition, r.StreamSeq, r.RecordedAt, r.SourceKey, r.Extractor, r.Negated, nullable(r.Screen), r.Trust}
}

// VectorRow is a claim_vectors row: the claim's embedding (append-only, never updated).
type VectorRow struct {
	ClaimID, Workspace, Model string
	Dim                       int
	Embedding                 []float32
}

var vectorColumns = []string{"claim_id", "workspace_id", "model", "dim", "embedding"}

func (r VectorRow) values() []any {
	return []any{r.ClaimID, r.Workspace, r.Model, r.Dim, pgvector.NewVector(r.Embedding)}
}

// ContradictionRow is a contradictions row: a link between a negated and a positive claim (ClaimA < ClaimB).
type ContradictionRow struct {
	ClaimA, ClaimB, Workspace, SubjectKey, Method string
	Similarity                                    float64
	DecisionID                                    string
	RecordedAt                                    time.Time
}

var contradictionColumns = []string{"claim_a", "claim_b", "workspace_id", "subject_key", "method", "similarity",
	"decision_id", "recorded_at"}

func (r ContradictionRow) values() []any {
	return []any{r.ClaimA, r.ClaimB, r.Workspace, r.SubjectKey, r.Method, r.Similarity, r.DecisionID, r.RecordedAt}
}

// PredicateRow is a subject_predicates row: a predicate of a subject in one tier (TierOwner "" for the shared
// tier) and the slot it joined. A nil Embedding (no predicate vector) and a nil Similarity are NULL.
type PredicateRow struct {
	Workspace, SubjectKey, TierOwner, PredicateKey, SlotKey, Phrase, Model string
	Embedding                                                              []float32
	Similarity                                                             *float64
	FirstClaim                                                             string
	StreamSeq                                                              int64
}

var predicateColumns = []string{"workspace_id", "subject_key", "tier_owner", "predicate_key", "slot_key", "phrase",
	"model", "embedding", "similarity", "first_claim", "stream_seq"}

func (r PredicateRow) values() []any {
	var emb any
	if r.Embedding != nil {
		emb = pgvector.NewVector(r.Embedding)
	}
	return []any{r.Workspace, r.SubjectKey, r.TierOwner, r.PredicateKey, r.SlotKey, r.Phrase, r.Model,
		emb, r.Similarity, r.FirstClaim, r.StreamSeq}
}

// RetireRow ends the current version Version of a claim at At (transaction time).
type RetireRow struct {
	ClaimID string
	Version int32
	At      time.Time
}

// VersionRow is a claim_versions row: one belief version. Empty DecisionID and SupersededBy are NULL (the
// reconciler always names the decision; a bulk load for a benchmark may have none).
type VersionRow struct {
	ClaimID           string
	Version           int
	Workspace, Status string
	// SubjectKey and SlotKey are the claim's (claims.subject_key, slot_key), for the present's index of belief
	// versions (migration 0056). Left empty, a trigger copies them from the claim row, which costs a lookup a row.
	SubjectKey, SlotKey string
	ValidFrom           time.Time
	ValidTo             *time.Time
	RecordedAt          time.Time
	RetiredAt           *time.Time
	DecisionID          string
	SupersededBy        string
}

var versionColumns = []string{"claim_id", "version", "workspace_id", "status", "valid_from", "valid_to",
	"recorded_at", "retired_at", "decision_id", "superseded_by", "subject_key", "slot_key"}

func (r VersionRow) values() []any {
	return []any{r.ClaimID, r.Version, r.Workspace, r.Status, r.ValidFrom, r.ValidTo, r.RecordedAt, r.RetiredAt,
		nullable(r.DecisionID), nullable(r.SupersededBy), nullable(r.SubjectKey), nullable(r.SlotKey)}
}

// DecisionRow is a decisions row: one resolution decision, and what the reconciler publishes to the ledger
// (DecisionEvent in services/reconciler converts it). Empty OwnerAgent, Winner and JudgeKey are NULL; nil
// Losers is an empty array.
type DecisionRow struct {
	ID, Workspace, SubjectKey, SlotKey, Scope, OwnerAgent, Operator, PolicyVersion string
	Inputs                                                                         []string
	Winner                                                                         string
	Losers                                                                         []string
	Outcome, Reason, JudgeKey                                                      string
	DecidedAt                                                                      time.Time
	Partition                                                                      int
	StreamSeq                                                                      int64
}

var decisionColumns = []string{"id", "workspace_id", "subject_key", "slot_key", "scope", "owner_agent", "operator",
	"policy_version", "inputs", "winner", "losers", "outcome", "reason", "judge_key", "decided_at", "partition", "stream_seq"}

func (r DecisionRow) values() []any {
	losers := r.Losers
	if losers == nil {
		losers = []string{}
	}
	return []any{r.ID, r.Workspace, r.SubjectKey, r.SlotKey, r.Scope, nullable(r.OwnerAgent), r.Operator,
		r.PolicyVersion, r.Inputs, nullable(r.Winner), losers, r.Outcome, r.Reason, nullable(r.JudgeKey),
		r.DecidedAt, r.Partition, r.StreamSeq}
}

// SupersedesRow is a supersedes edge: ClaimID superseded (or outranked) SupersededID by DecisionID. An edge
// already drawn is kept with its first decision.
type SupersedesRow struct{ ClaimID, SupersededID, DecisionID string }

func (r SupersedesRow) values() []any { return []any{r.ClaimID, r.SupersededID, r.DecisionID} }

const supersedesSQL = `INSERT INTO supersedes (claim_id, superseded_id, decision_id)
	SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) ON CONFLICT DO NOTHING`

// CorroborationRow is a corroborations row: Source asserts ClaimID's object (through claim ViaClaimID).
type CorroborationRow struct {
	ClaimID, Source, ViaClaimID string
	RecordedAt                  time.Time
}

func (r CorroborationRow) values() []any {
	return []any{r.ClaimID, r.Source, r.ViaClaimID, r.RecordedAt}
}

const corroborationSQL = `INSERT INTO corroborations (claim_id, source, via_claim_id, recorded_at)
	SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[]) ON CONFLICT DO NOTHING`

// AliasRow is a subject_aliases row: Alias (lower case, single spaces) names SubjectKey.
type AliasRow struct{ Workspace, Alias, SubjectKey string }

func (r AliasRow) values() []any { return []any{r.Workspace, r.Alias, r.SubjectKey} }

const aliasSQL = `INSERT INTO subject_aliases (workspace_id, alias, subject_key)
	SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`

// GateRow is a claim_gates row: the await-confirmation state of a held claim. A gate already stored takes
// State and ResolvedBy (its deadline and timeout policy are fixed at arrival). An empty ResolvedBy is NULL.
type GateRow struct {
	ClaimID, Workspace string
	Partition          int32
	State              string
	Deadline           *time.Time
	OnTimeout          string
	ResolvedBy         string
}

func (r GateRow) values() []any {
	return []any{r.ClaimID, r.Workspace, r.Partition, r.State, r.Deadline, r.OnTimeout, r.ResolvedBy}
}

const gateSQL = `INSERT INTO claim_gates (claim_id, workspace_id, partition, state, deadline, on_timeout, resolved_by)
	SELECT id, ws, p, s, d, o, nullif(r, '') FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::text[], $7::text[])
	  AS u(id, ws, p, s, d, o, r)
	ON CONFLICT (claim_id) DO UPDATE SET state = EXCLUDED.state, resolved_by = EXCLUDED.resolved_by`

// ConfirmationRow is a confirmations row: an explicit confirmation of a claim (Releases: a release from
// quarantine by an administrator).
type ConfirmationRow struct {
	ClaimID, AgentID, Workspace, SubjectKey string
	Partition                               int
	StreamSeq                               int64
	ConfirmedAt                             time.Time
	Releases                                bool
}

var confirmationColumns = []string{"claim_id", "agent_id", "workspace_id", "subject_key", "partition", "stream_seq",
	"confirmed_at", "releases"}

func (r ConfirmationRow) values() []any {
	return []any{r.ClaimID, r.AgentID, r.Workspace, r.SubjectKey, r.Partition, r.StreamSeq, r.ConfirmedAt, r.Releases}
}

// JudgementRow is a judgements row: a keyed judge-log verdict the projection applied (ClaimA < ClaimB).
type JudgementRow struct {
	ClaimA, ClaimB, Workspace, JudgeKey string
	Contradicts                         bool
	Model, PromptVersion                string
}

var judgementColumns = []string{"claim_a", "claim_b", "workspace_id", "judge_key", "contradicts", "model", "prompt_version"}

func (r JudgementRow) values() []any {
	return []any{r.ClaimA, r.ClaimB, r.Workspace, r.JudgeKey, r.Contradicts, r.Model, r.PromptVersion}
}

// DuplicateRow is a duplicate_messages row: a claims-stream message that repeated a claim already stored.
type DuplicateRow struct {
	Partition int
	StreamSeq int64
	ClaimID   string
}

var duplicateColumns = []string{"partition", "stream_seq", "claim_id"}

func (r DuplicateRow) values() []any { return []any{r.Partition, r.StreamSeq, r.ClaimID} }

// DeadLetterRow is a dead_letters row: a claims-stream message that was dead-lettered, with who it was about
// when that could be decoded (empty: NULL).
type DeadLetterRow struct {
	Partition                      int
	StreamSeq                      int64
	Workspace, SubjectKey, AgentID string
	Reason                         string
}

var deadLetterColumns = []string{"partition", "stream_seq", "workspace_id", "subject_key", "agent_id", "reason"}

func (r DeadLetterRow) values() []any {
	return []any{r.Partition, r.StreamSeq, nullable(r.Workspace), nullable(r.SubjectKey), nullable(r.AgentID), r.Reason}
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

type row interface{ values() []any }

func valuesOf[R row](rows []R) [][]any {
	out := make([][]any, len(rows))
	for i, r := range rows {
		out[i] = r.values()
	}
	return out
}

// arraysOf turns rows into one array per column, the parameters of an INSERT … SELECT FROM unnest(…); nil
// when there are no rows.
func arraysOf[R row](rows []R) []any {
	if len(rows) == 0 {
		return nil
	}
	var cols [][]any
	for _, r := range rows {
		v := r.values()
		if cols == nil {
			cols = make([][]any, len(v))
		}
		for i, x := range v {
			cols[i] = append(cols[i], x)
		}
	}
	out := make([]any, len(cols))
	for i, c := range cols {
		out[i] = c
	}
	return out
}

// insertSQL is a one-row INSERT into table of cols that leaves a row already stored alone.
func insertSQL(table string, cols []string) string {
	ph := make([]string, len(cols))
	for i := range cols {
		ph[i] = fmt.Sprintf("$%d", i+1)
	}
	return "INSERT INTO " + table + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(ph, ", ") + ") ON CONFLICT DO NOTHING"
}

var (
	confirmationSQL = insertSQL("confirmations", confirmationColumns)
	judgementSQL    = insertSQL("judgements", judgementColumns)
	duplicateSQL    = insertSQL("duplicate_messages", duplicateColumns)
	deadLetterSQL   = insertSQL("dead_letters", deadLetterColumns)
)

// Write writes ch in tx: new rows by COPY, the rest with set-based statements in one round trip, in an order
// the foreign keys accept (claims before what refers to them, retirements before the versions that follow).
func Write(ctx context.Context, tx pgx.Tx, ch *Changes) error {
	copyRows := func(table string, cols []string, rows [][]any) error {
		if len(rows) == 0 {
			return nil
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("store: write %s: %w", table, err)
		}
		return nil
	}
	if err := copyRows("claims", claimColumns, valuesOf(ch.Claims)); err != nil {
		return err
	}
	if err := copyRows("claim_vectors", vectorColumns, valuesOf(ch.Vectors)); err != nil {
		return err
	}
	if err := copyRows("contradictions", contradictionColumns, valuesOf(ch.Contradictions)); err != nil {
		return err
	}
	if err := copyRows("subject_predicates", predicateColumns, valuesOf(ch.Predicates)); err != nil {
		return err
	}
	if len(ch.Retire) > 0 {
		ids, vers, ats := make([]string, len(ch.Retire)), make([]int32, len(ch.Retire)), make([]time.Time, len(ch.Retire))
		for i, r := range ch.Retire {
			ids[i], vers[i], ats[i] = r.ClaimID, r.Version, r.At
		}
		if _, err := tx.Exec(ctx, `UPDATE claim_versions v SET retired_at = u.t
			FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS u(id, ver, t)
			WHERE v.claim_id = u.id AND v.version = u.ver AND v.retired_at IS NULL`, ids, vers, ats); err != nil {
			return fmt.Errorf("store: retire versions: %w", err)
		}
	}
	if err := copyRows("claim_versions", versionColumns, valuesOf(ch.Versions)); err != nil {
		return err
	}
	if err := copyRows("decisions", decisionColumns, valuesOf(ch.Decisions)); err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, set := range []struct {
		sql  string
		cols []any
	}{
		{supersedesSQL, arraysOf(ch.Supersedes)},
		{corroborationSQL, arraysOf(ch.Corroborations)},
		{aliasSQL, arraysOf(ch.Aliases)},
		{gateSQL, arraysOf(ch.Gates)},
	} {
		if set.cols != nil {
			b.Queue(set.sql, set.cols...)
		}
	}
	for _, r := range ch.Confirmations {
		b.Queue(confirmationSQL, r.values()...)
	}
	for _, r := range ch.Judgements {
		b.Queue(judgementSQL, r.values()...)
	}
	for _, id := range ch.FailedErasures {
		b.Queue(`UPDATE erasures SET status = 'failed' WHERE id = $1 AND status <> 'completed'`, id)
	}
	for _, r := range ch.Duplicates {
		b.Queue(duplicateSQL, r.values()...)
	}
	for _, r := range ch.DeadLetters {
		b.Queue(deadLetterSQL, r.values()...)
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("store: write batch: %w", err)
		}
	}
	return nil
}

// Deletion is what an erasure removes from one partition's projection: whole subjects (an agent erasure
// rebuilds them right after from the surviving messages), or a whole workspace.
type Deletion struct {
	Partition int
	Workspace string
	// Subjects lose every row: claims (their vectors, versions, edges, corroborations, gates, judgements and
	// links cascade), decisions, predicates, aliases, confirmations and duplicate records.
	Subjects []string
	// Claims are the erased claim ids: their duplicate records go wherever their subject was.
	Claims []string
	// DeadLetters are the stream positions of dead letters whose messages were deleted.
	DeadLetters []int64
	// WholeWorkspace also removes every dead letter, confirmation and decision of the workspace in the
	// partition (DeadLetters is then unused).
	WholeWorkspace bool
}

// Delete removes d's rows in tx. Resolution never calls it: only an erasure deletes.
func Delete(ctx context.Context, tx pgx.Tx, d Deletion) error {
	type stmt struct {
		sql  string
		args []any
	}
	bySubject := []any{d.Partition, d.Workspace, d.Subjects}
	stmts := []stmt{
		{`DELETE FROM duplicate_messages x USING claims c WHERE x.claim_id = c.id AND c.partition = $1 AND c.workspace_id = $2 AND c.subject_key = ANY($3)`, bySubject},
		{`DELETE FROM duplicate_messages WHERE partition = $1 AND claim_id = ANY($2::uuid[])`, []any{d.Partition, d.Claims}},
		{`DELETE FROM claims WHERE partition = $1 AND workspace_id = $2 AND subject_key = ANY($3)`, bySubject},
		{`DELETE FROM decisions WHERE partition = $1 AND workspace_id = $2 AND subject_key = ANY($3)`, bySubject},
		{`DELETE FROM subject_predicates WHERE workspace_id = $1 AND subject_key = ANY($2)`, []any{d.Workspace, d.Subjects}},
		{`DELETE FROM subject_aliases WHERE workspace_id = $1 AND subject_key = ANY($2)`, []any{d.Workspace, d.Subjects}},
		{`DELETE FROM confirmations WHERE partition = $1 AND workspace_id = $2 AND subject_key = ANY($3)`, bySubject},
	}
	if d.WholeWorkspace {
		wsOnly := []any{d.Partition, d.Workspace}
		stmts = append(stmts,
			stmt{`DELETE FROM dead_letters WHERE partition = $1 AND workspace_id = $2`, wsOnly},
			stmt{`DELETE FROM confirmations WHERE partition = $1 AND workspace_id = $2`, wsOnly},
			stmt{`DELETE FROM decisions WHERE partition = $1 AND workspace_id = $2`, wsOnly})
	} else {
		stmts = append(stmts, stmt{`DELETE FROM dead_letters WHERE partition = $1 AND stream_seq = ANY($2::bigint[])`, []any{d.Partition, d.DeadLetters}})
	}
	for _, s := range stmts {
		if _, err := tx.Exec(ctx, s.sql, s.args...); err != nil {
			return fmt.Errorf("store: erase: %w", err)
		}
	}
	return nil
}
