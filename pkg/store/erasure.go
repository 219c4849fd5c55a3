package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mneme-ai/mneme/pkg/api"
)

// Erasures: the record of every erasure (erasures: who asked, when, the kind and a hash of the target — never
// the target in clear; erasure_parts: what each partition's part did), and the reads that find what an erasure
// covers in one partition. services/reconciler/erasure.go says how an erasure runs; Delete (write.go) removes
// the rows.

// DB is what the functions that also write or lock need: a pool, a connection or a transaction.
type DB interface {
	Querier
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Erasure scopes: the tiers an erasure may touch (erasures.scope).
const (
	// EraseScopeAll touches every tier.
	EraseScopeAll = "all"
	// EraseScopePrivate touches the private tier of the scope agent only.
	EraseScopePrivate = "private"
	// EraseScopeShared touches the shared tier only.
	EraseScopeShared = "shared"
	// EraseScopeSharedPrivate touches the shared tier and the scope agent's private tier.
	EraseScopeSharedPrivate = "shared_private"
)

// ErasureRow is an erasures row as recorded when it is requested. Empty TargetHash, ScopeAgent and
// RequestedKey are NULL.
type ErasureRow struct {
	ID, Workspace, Kind, TargetHash, RequestedBy string
	RequestedAt                                  time.Time
	// Partitions is how many partitions' parts complete it.
	Partitions                      int
	Scope, ScopeAgent, RequestedKey string
}

// InsertErasure records an erasure request. With ifAbsent a record already stored is left alone (a partition
// applying its command records the erasure too, for a replay into an empty database); without it a repeated
// id is an error.
func InsertErasure(ctx context.Context, db DB, r ErasureRow, ifAbsent bool) error {
	sql := `INSERT INTO erasures (id, workspace_id, kind, target_hash, requested_by, requested_at, partitions, scope, scope_agent, requested_key)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`
	if ifAbsent {
		sql += ` ON CONFLICT (id) DO NOTHING`
	}
	if _, err := db.Exec(ctx, sql, r.ID, r.Workspace, r.Kind, nullable(r.TargetHash), r.RequestedBy, r.RequestedAt, r.Partitions,
		r.Scope, nullable(r.ScopeAgent), nullable(r.RequestedKey)); err != nil {
		return fmt.Errorf("store: record erasure: %w", err)
	}
	return nil
}

// ErasureStatus returns the record of erasure id in workspace ws; pgx.ErrNoRows when there is none.
func ErasureStatus(ctx context.Context, db DB, ws, id string) (api.Erasure, error) {
	var st api.Erasure
	var hash, scopeAgent *string
	err := db.QueryRow(ctx, `SELECT id::text, workspace_id, kind, scope, scope_agent, target_hash, requested_by, requested_at, status, completed_at,
			claims_erased, messages_purged
		FROM erasures WHERE id = $1 AND workspace_id = $2`, id, ws).Scan(&st.ErasureID, &st.Workspace, &st.Kind, &st.Scope, &scopeAgent, &hash,
		&st.RequestedBy, &st.RequestedAt, &st.Status, &st.CompletedAt, &st.ClaimsErased, &st.MessagesPurged)
	st.TargetHash = deref(hash)
	st.ScopeAgent = deref(scopeAgent)
	return st, err
}

// BeginErasurePart locks erasure id's record (the parts of one erasure serialize on it, so the last one sees
// every other part committed) and reports whether partition's part is already recorded.
func BeginErasurePart(ctx context.Context, tx pgx.Tx, id string, partition int) (done bool, err error) {
	var status string
	if err := tx.QueryRow(ctx, `SELECT status FROM erasures WHERE id = $1 FOR UPDATE`, id).Scan(&status); err != nil {
		return false, fmt.Errorf("store: erasure record: %w", err)
	}
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM erasure_parts WHERE erasure_id = $1 AND partition = $2)`, id, partition).Scan(&done); err != nil {
		return false, fmt.Errorf("store: erasure part: %w", err)
	}
	return done, nil
}

// ErasurePartRow is an erasure_parts row: what one partition's part of an erasure did, at the stream position
// of its command. ErasedClaims and TurnIDs are kept until the erasure completes (the last part purges the
// streams that are not partitioned by them), then cleared.
type ErasurePartRow struct {
	ErasureID                    string
	Partition                    int
	StreamSeq                    int64
	ClaimsErased, MessagesPurged int
	ErasedClaims, TurnIDs        []string
}

// RecordErasurePart records a part and returns how many parts of its erasure are recorded, this one included.
func RecordErasurePart(ctx context.Context, tx pgx.Tx, r ErasurePartRow) (int, error) {
	if _, err := tx.Exec(ctx, `INSERT INTO erasure_parts (erasure_id, partition, stream_seq, claims_erased, messages_purged, erased_claims, turn_ids)
		VALUES ($1, $2, $3, $4, $5, $6::uuid[], $7)`, r.ErasureID, r.Partition, r.StreamSeq, r.ClaimsErased, r.MessagesPurged,
		r.ErasedClaims, r.TurnIDs); err != nil {
		return 0, fmt.Errorf("store: erasure part: %w", err)
	}
	var n int
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM erasure_parts WHERE erasure_id = $1`, r.ErasureID).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: erasure parts: %w", err)
	}
	return n, nil
}

// ErasedByParts returns the distinct claim ids and source turn ids the recorded parts of erasure id erased.
func ErasedByParts(ctx context.Context, tx pgx.Tx, id string) (claims, turns []string, err error) {
	if err := tx.QueryRow(ctx, `SELECT coalesce(array_agg(DISTINCT x) FILTER (WHERE x IS NOT NULL), '{}')::text[]
		FROM erasure_parts p LEFT JOIN LATERAL unnest(p.erased_claims) AS x ON true WHERE p.erasure_id = $1`, id).Scan(&claims); err != nil {
		return nil, nil, fmt.Errorf("store: erased claims: %w", err)
	}
	if err := tx.QueryRow(ctx, `SELECT coalesce(array_agg(DISTINCT x) FILTER (WHERE x IS NOT NULL), '{}')
		FROM erasure_parts p LEFT JOIN LATERAL unnest(p.turn_ids) AS x ON true WHERE p.erasure_id = $1`, id).Scan(&turns); err != nil {
		return nil, nil, fmt.Errorf("store: erased turns: %w", err)
	}
	return claims, turns, nil
}

// CompleteErasure closes erasure id's record with the totals of its parts plus morePurged messages (those of the
// streams that are not partitioned) and returns the totals.
func CompleteErasure(ctx context.Context, tx pgx.Tx, id string, morePurged int) (claimsErased, messagesPurged int, err error) {
	err = tx.QueryRow(ctx, `UPDATE erasures SET status = 'completed', completed_at = now(),
			claims_erased = (SELECT coalesce(sum(claims_erased), 0) FROM erasure_parts WHERE erasure_id = $1),
			messages_purged = $2 + (SELECT coalesce(sum(messages_purged), 0) FROM erasure_parts WHERE erasure_id = $1)
		WHERE id = $1 RETURNING claims_erased, messages_purged`, id, morePurged).Scan(&claimsErased, &messagesPurged)
	if err != nil {
		return 0, 0, fmt.Errorf("store: complete erasure: %w", err)
	}
	return claimsErased, messagesPurged, nil
}

// ForgetErasedIDs clears the claim and turn ids a completed erasure's parts kept: the record keeps counts only.
func ForgetErasedIDs(ctx context.Context, tx pgx.Tx, id string) error {
	if _, err := tx.Exec(ctx, `UPDATE erasure_parts SET erased_claims = NULL, turn_ids = NULL WHERE erasure_id = $1`, id); err != nil {
		return fmt.Errorf("store: clear erased ids: %w", err)
	}
	return nil
}

// ErasureCommand is a recorded part whose command message may still be in the claims stream.
type ErasureCommand struct {
	ErasureID string
	StreamSeq int64
}

// UnpurgedErasureCommands returns the partition's recorded parts whose command message is not yet deleted.
func UnpurgedErasureCommands(ctx context.Context, q Querier, partition int) ([]ErasureCommand, error) {
	return collect(ctx, q, "erasure commands", func(r pgx.CollectableRow) (ErasureCommand, error) {
		var c ErasureCommand
		err := r.Scan(&c.ErasureID, &c.StreamSeq)
		return c, err
	}, `SELECT erasure_id::text, stream_seq FROM erasure_parts WHERE partition = $1 AND NOT command_purged`, partition)
}

// MarkErasureCommandPurged records that the command message of erasure id's part in partition is deleted.
func MarkErasureCommandPurged(ctx context.Context, db DB, id string, partition int) error {
	if _, err := db.Exec(ctx, `UPDATE erasure_parts SET command_purged = true WHERE erasure_id = $1 AND partition = $2`, id, partition); err != nil {
		return fmt.Errorf("store: erasure command purged: %w", err)
	}
	return nil
}

// ErasureTarget is what an erasure covers: in Workspace, the subject (Kind api.EraseSubject, Target its
// key), the agent (api.EraseAgent, Target its id) or everything (api.EraseWorkspace), within the tiers of
// Scope (an EraseScope… value; ScopeAgent names the private tier).
type ErasureTarget struct {
	Workspace, Kind, Target, Scope, ScopeAgent string
}

// tierCond is the SQL condition on claims (alias c) for the erasure's tiers, with the scope agent as
// argument $n; it is empty for EraseScopeAll.
func (t ErasureTarget) tierCond(n int) (string, []any) {
	switch t.Scope {
	case EraseScopeShared:
		return " AND c.scope = 'shared'", nil
	case EraseScopePrivate:
		return fmt.Sprintf(" AND c.scope = 'private' AND c.owner_agent = $%d", n), []any{t.ScopeAgent}
	case EraseScopeSharedPrivate:
		return fmt.Sprintf(" AND (c.scope = 'shared' OR c.owner_agent = $%d)", n), []any{t.ScopeAgent}
	}
	return "", nil
}

// claimCond returns the SQL condition on claims (alias c) selecting the target within the erasure's tiers,
// with its arguments from $2 on ($1 is the partition).
func (t ErasureTarget) claimCond() (string, []any) {
	var cond string
	var args []any
	switch t.Kind {
	case api.EraseSubject:
		cond, args = "c.workspace_id = $2 AND c.subject_key = $3", []any{t.Workspace, t.Target}
	case api.EraseAgent:
		cond, args = "c.workspace_id = $2 AND c.owner_agent = $3", []any{t.Workspace, t.Target}
	default:
		cond, args = "c.workspace_id = $2", []any{t.Workspace}
	}
	tc, targs := t.tierCond(len(args) + 2)
	return cond + tc, append(args, targs...)
}

// messageCond is the SQL condition on confirmations and dead letters (columns subject_key, agent_id) of the
// target's messages that carry no tier, with its arguments ($1 partition, $2 workspace, $3 erased claim ids,
// $4 and on): a subject's or an agent's messages when the erasure covers every tier; for a scoped erasure only
// the scope agent's own (the caller may erase what it wrote), never another agent's.
func (t ErasureTarget) messageCond(partition int, ids []string) (string, []any) {
	args := []any{partition, t.Workspace, ids}
	var cond string
	switch t.Kind {
	case api.EraseSubject:
		cond, args = "subject_key = $4", append(args, t.Target)
	case api.EraseAgent:
		cond, args = "agent_id = $4", append(args, t.Target)
	default:
		cond, args = "$4 = ''", append(args, "")
	}
	if t.Scope != EraseScopeAll && t.Scope != "" {
		owner := ""
		if t.Scope == EraseScopePrivate || t.Scope == EraseScopeSharedPrivate {
			owner = t.ScopeAgent
		}
		cond, args = "("+cond+") AND agent_id = $5", append(args, owner)
	}
	return cond, args
}

// ErasedClaim is a claim an erasure covers, with its stream position and the turns its provenance names.
type ErasedClaim struct {
	ID, SubjectKey string
	StreamSeq      int64
	TurnIDs        []string
}

// ErasureClaims returns the claims of partition the target covers (any order).
func ErasureClaims(ctx context.Context, q Querier, partition int, t ErasureTarget) ([]ErasedClaim, error) {
	cond, args := t.claimCond()
	return collect(ctx, q, "erasure: find claims", func(r pgx.CollectableRow) (ErasedClaim, error) {
		var c ErasedClaim
		err := r.Scan(&c.ID, &c.SubjectKey, &c.StreamSeq, &c.TurnIDs)
		return c, err
	}, `SELECT c.id::text, c.subject_key, c.stream_seq, coalesce(c.provenance->'turn_ids', '[]'::jsonb)
		FROM claims c WHERE c.partition = $1 AND `+cond, append([]any{partition}, args...)...)
}

// ErasureMessages returns the stream positions of the target's other messages in partition — claims repeating
// an erased claim (ids), and confirmations and dead letters, which carry no tier: a scoped erasure takes those
// of erased claims and the scope agent's own — and the subjects those confirmations are about.
func ErasureMessages(ctx context.Context, q DB, partition int, t ErasureTarget, ids []string) (seqs []int64, subjects []string, err error) {
	if ids == nil {
		ids = []string{} // = ANY('{}') is false; = ANY(NULL) would be unknown
	}
	cond, args := t.messageCond(partition, ids)
	if err := q.QueryRow(ctx, `SELECT coalesce(array_agg(s), '{}') FROM (
			SELECT stream_seq AS s FROM duplicate_messages WHERE partition = $1 AND claim_id = ANY($3::uuid[])
			UNION SELECT stream_seq FROM confirmations WHERE partition = $1 AND workspace_id = $2 AND (`+cond+` OR claim_id = ANY($3::uuid[]))
			UNION SELECT stream_seq FROM dead_letters WHERE partition = $1 AND workspace_id = $2 AND (`+cond+`)) x`, args...).Scan(&seqs); err != nil {
		return nil, nil, fmt.Errorf("store: erasure: find messages: %w", err)
	}
	if err := q.QueryRow(ctx, `SELECT coalesce(array_agg(DISTINCT subject_key), '{}') FROM confirmations
			WHERE partition = $1 AND workspace_id = $2 AND (`+cond+` OR claim_id = ANY($3::uuid[]))`, args...).Scan(&subjects); err != nil {
		return nil, nil, fmt.Errorf("store: erasure: find confirmed subjects: %w", err)
	}
	return seqs, subjects, nil
}

// JudgeKeysOf returns the keys of the judge-log verdicts applied to any of the given claims.
func JudgeKeysOf(ctx context.Context, q DB, ids []string) ([]string, error) {
	var keys []string
	if err := q.QueryRow(ctx, `SELECT coalesce(array_agg(DISTINCT judge_key), '{}') FROM judgements
		WHERE claim_a = ANY($1::uuid[]) OR claim_b = ANY($1::uuid[])`, ids).Scan(&keys); err != nil {
		return nil, fmt.Errorf("store: judge keys: %w", err)
	}
	return keys, nil
}

// SurvivingMessages returns, in stream order, the positions in partition of the messages about the given
// subjects of workspace ws that an erasure leaves: their claims other than the erased ones (ids), the
// repetitions of those, and their confirmations other than the erased ones (erasedSeqs).
func SurvivingMessages(ctx context.Context, q DB, partition int, ws string, subjects, ids []string, erasedSeqs []int64) ([]int64, error) {
	if ids == nil {
		ids = []string{}
	}
	var out []int64
	if err := q.QueryRow(ctx, `SELECT coalesce(array_agg(s ORDER BY s), '{}') FROM (
			SELECT c.stream_seq AS s FROM claims c WHERE c.partition = $1 AND c.workspace_id = $2 AND c.subject_key = ANY($3)
			  AND NOT (c.id = ANY($4::uuid[]))
			UNION SELECT d.stream_seq FROM duplicate_messages d JOIN claims c ON c.id = d.claim_id
			  WHERE d.partition = $1 AND c.workspace_id = $2 AND c.subject_key = ANY($3) AND NOT (c.id = ANY($4::uuid[]))
			UNION SELECT f.stream_seq FROM confirmations f WHERE f.partition = $1 AND f.workspace_id = $2 AND f.subject_key = ANY($3)
			  AND NOT (f.stream_seq = ANY($5::bigint[]))) x`,
		partition, ws, subjects, ids, erasedSeqs).Scan(&out); err != nil {
		return nil, fmt.Errorf("store: erasure: find surviving messages: %w", err)
	}
	return out, nil
}
