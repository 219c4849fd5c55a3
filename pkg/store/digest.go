package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The digest is the admin read of the projection: `mneme digest` prints it, `mneme replay` and the replay,
// permutation and crash tests compare it.

// digestTable is one table's contribution to a digest: its columns in a fixed order and its canonical row order.
type digestTable struct {
	name, cols, from, order string
}

// fullDigest covers the whole projection in primary-key order with the "C" collation, so every server sorts the
// same way. Left out: wall-clock bookkeeping (erasures, members) and partition_offsets, which are positions, not
// content (an erasure deletes its own command message, so a replay legitimately stops at an earlier position).
var fullDigest = []digestTable{
	{"claims", `id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key, text,
		functional, scope, owner_agent, confidence, valid_from, sequence, provenance, partition, stream_seq, recorded_at,
		source_key, extractor, negated, screen, trust`, "claims", "id"},
	{"claim_vectors", "claim_id, workspace_id, model, dim, embedding", "claim_vectors", "claim_id"},
	{"claim_vector_signs", "claim_id, workspace_id, signs", "claim_vector_signs", "claim_id"},
	{"claim_versions", `claim_id, version, workspace_id, status, valid_from, valid_to, recorded_at, retired_at,
		decision_id, superseded_by`, "claim_versions", "claim_id, version"},
	{"decisions", `id, workspace_id, subject_key, slot_key, scope, owner_agent, operator, policy_version, inputs, winner,
		losers, outcome, reason, judge_key, decided_at, partition, stream_seq`, "decisions", "id"},
	{"supersedes", "claim_id, superseded_id, decision_id", "supersedes", "claim_id, superseded_id"},
	{"corroborations", "claim_id, source, via_claim_id, recorded_at", "corroborations", `claim_id, source COLLATE "C"`},
	{"subject_aliases", "workspace_id, alias, subject_key", "subject_aliases",
		`workspace_id COLLATE "C", alias COLLATE "C", subject_key COLLATE "C"`},
	{"subject_predicates", `workspace_id, subject_key, tier_owner, predicate_key, slot_key, phrase, model, embedding, similarity,
		first_claim, stream_seq`, "subject_predicates", `workspace_id COLLATE "C", subject_key COLLATE "C", tier_owner COLLATE "C", predicate_key COLLATE "C"`},
	{"claim_gates", "claim_id, workspace_id, partition, state, deadline, on_timeout, resolved_by", "claim_gates", "claim_id"},
	{"confirmations", "claim_id, agent_id, workspace_id, subject_key, partition, stream_seq, confirmed_at, releases", "confirmations",
		`claim_id, agent_id COLLATE "C", releases`},
	{"judgements", "claim_a, claim_b, workspace_id, judge_key, contradicts, model, prompt_version", "judgements", "claim_a, claim_b"},
	{"contradictions", "claim_a, claim_b, workspace_id, subject_key, method, similarity, decision_id, recorded_at",
		"contradictions", "claim_a, claim_b"},
	{"dead_letters", "partition, stream_seq", "dead_letters", "partition, stream_seq"},
	{"duplicate_messages", "partition, stream_seq, claim_id", "duplicate_messages", "partition, stream_seq"},
}

// beliefDigest covers what memory believes now, leaving out transaction-time history and audit rows (which
// legitimately depend on arrival order): claim content, vectors, current versions, corroborating sources,
// aliases and slot assignments.
var beliefDigest = []digestTable{
	{"claims", `id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key, text,
		functional, scope, owner_agent, confidence, valid_from, sequence, provenance, source_key, extractor, negated, screen, trust`, "claims", "id"},
	{"claim_vectors", "claim_id, workspace_id, model, dim, embedding", "claim_vectors", "claim_id"},
	{"claim_versions", "claim_id, workspace_id, status, valid_from, valid_to, superseded_by",
		"claim_versions WHERE retired_at IS NULL", "claim_id"},
	{"corroborations", "claim_id, source", "corroborations", `claim_id, source COLLATE "C"`},
	{"subject_aliases", "workspace_id, alias, subject_key", "subject_aliases",
		`workspace_id COLLATE "C", alias COLLATE "C", subject_key COLLATE "C"`},
	{"subject_predicates", "workspace_id, subject_key, tier_owner, predicate_key, slot_key", "subject_predicates",
		`workspace_id COLLATE "C", subject_key COLLATE "C", tier_owner COLLATE "C", predicate_key COLLATE "C"`},
	// Which claims contradict which is a function of the claims, not of their arrival order.
	{"contradictions", "claim_a, claim_b, workspace_id, subject_key, method, similarity", "contradictions", "claim_a, claim_b"},
}

// Digest returns a canonical SHA-256 (hex) over the whole projection in a canonical order, excluding wall-clock
// columns. Two databases with the same digest hold the same projection; `mneme digest` prints it and
// `mneme replay` compares it.
func Digest(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	return digest(ctx, pool, fullDigest)
}

// BeliefDigest returns a canonical SHA-256 (hex) over the current belief only (claims, vectors, current
// versions, corroborations, aliases, slots): equal for every arrival order of the same claims where the
// operator promises order independence (LWW), even though their histories differ.
func BeliefDigest(ctx context.Context, pool *pgxpool.Pool) (string, error) {
	return digest(ctx, pool, beliefDigest)
}

func digest(ctx context.Context, pool *pgxpool.Pool, tables []digestTable) (string, error) {
	d, _, err := digestTables(ctx, pool, tables, nil)
	return d, err
}

// DigestByTable returns Digest, each table's own digest and, when rowsOut is not nil, every row's text by
// table: for showing where two projections differ.
func DigestByTable(ctx context.Context, pool *pgxpool.Pool, rowsOut map[string][]string) (string, map[string]string, error) {
	return digestTables(ctx, pool, fullDigest, rowsOut)
}

func digestTables(ctx context.Context, pool *pgxpool.Pool, tables []digestTable, rowsOut map[string][]string) (string, map[string]string, error) {
	h := sha256.New()
	per := map[string]string{}
	err := pgx.BeginTxFunc(ctx, pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
		// Text output of time stamps and numbers depends on these settings; fix them.
		if _, err := tx.Exec(ctx, `SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO, YMD'; SET LOCAL extra_float_digits = 1; SET LOCAL IntervalStyle = 'iso_8601'`, pgx.QueryExecModeSimpleProtocol); err != nil {
			return err
		}
		for _, t := range tables {
			fmt.Fprintf(h, "table %s\n", t.name)
			th := sha256.New()
			rows, err := tx.Query(ctx, fmt.Sprintf(`SELECT row(%s)::text FROM %s ORDER BY %s`, t.cols, t.from, t.order))
			if err != nil {
				return fmt.Errorf("digest %s: %w", t.name, err)
			}
			for rows.Next() {
				var s string
				if err := rows.Scan(&s); err != nil {
					rows.Close()
					return err
				}
				h.Write([]byte(s))
				h.Write([]byte{'\n'})
				th.Write([]byte(s))
				th.Write([]byte{'\n'})
				if rowsOut != nil {
					rowsOut[t.name] = append(rowsOut[t.name], s)
				}
			}
			per[t.name] = hex.EncodeToString(th.Sum(nil))
			rows.Close()
			if err := rows.Err(); err != nil {
				return fmt.Errorf("digest %s: %w", t.name, err)
			}
		}
		return nil
	})
	if err != nil {
		return "", nil, fmt.Errorf("store: digest: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), per, nil
}
