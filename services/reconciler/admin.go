package reconciler

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

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

// digestTables computes the digest and, per table, its own hash; rowsOut, when non-nil, receives every row text
// (tests use it to show where two projections differ).
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
		return "", nil, fmt.Errorf("reconciler: digest: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), per, nil
}

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// Config must equal the live reconciler's configuration in what shapes the projection: Partitions,
	// PolicyFile, PredicateMerge, PredicateSimilarity, JudgeModel, JudgeMaxPairs. Zero fields take defaults.
	Config Config
	// Logger receives progress; default slog.Default().
	Logger *slog.Logger
}

// ReplayStats summarizes a replay.
type ReplayStats struct {
	Messages   int
	Partitions int
	Elapsed    time.Duration
}

// Replay rebuilds the projection into target (a fresh, empty database; it is migrated first) from the claims
// stream up to its last message at the start of the call, reading judge verdicts from the keyed judge log and
// never asking a judge. Nothing is published and nothing is deleted from the streams. Compare Digest of the live
// database with Digest of target afterwards: they are equal when the live reconciler had applied the same
// messages.
func Replay(ctx context.Context, js jetstream.JetStream, target *pgxpool.Pool, opts ReplayOptions) (ReplayStats, error) {
	start := time.Now()
	cfg := opts.Config.Defaults()
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if _, err := store.Migrate(ctx, target); err != nil {
		return ReplayStats{}, err
	}
	var n int64
	if err := target.QueryRow(ctx, `SELECT count(*) FROM partition_offsets`).Scan(&n); err != nil {
		return ReplayStats{}, err
	}
	if n > 0 {
		return ReplayStats{}, errors.New("reconciler: replay needs an empty database (partition_offsets has rows)")
	}
	e, err := newEngine(service.Deps{Logger: log, JS: js, DB: target, Partitions: cfg.Partitions, Instance: "replay"}, cfg, false)
	if err != nil {
		return ReplayStats{}, err
	}
	e.bindJudgeLog(ctx)
	stream, err := js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		return ReplayStats{}, fmt.Errorf("reconciler: replay: %w", err)
	}
	stats := ReplayStats{Partitions: cfg.Partitions}
	for p := range cfg.Partitions {
		last, err := stream.GetLastMsgForSubject(ctx, bus.ClaimsSubject(p))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return stats, fmt.Errorf("reconciler: replay partition %d: %w", p, err)
		}
		count, err := e.replayPartition(ctx, p, last.Sequence)
		stats.Messages += count
		if err != nil {
			return stats, err
		}
		log.Info("reconciler: replayed partition", "partition", p, "messages", count)
	}
	stats.Elapsed = time.Since(start)
	return stats, nil
}

// replayPartition applies partition p's messages up to sequence last with the live worker's batch logic.
func (e *engine) replayPartition(ctx context.Context, p int, last uint64) (int, error) {
	cons, err := e.js.OrderedConsumer(ctx, bus.StreamClaims, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{bus.ClaimsSubject(p)},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return 0, fmt.Errorf("reconciler: replay partition %d: %w", p, err)
	}
	iter, err := cons.Messages(jetstream.PullMaxMessages(2 * e.cfg.BatchSize))
	if err != nil {
		return 0, err
	}
	defer iter.Stop()
	w := newPartitionWorker(e, p)
	total := 0
	batch := make([]jetstream.Msg, 0, e.cfg.BatchSize)
	for w.offset < last {
		batch = batch[:0]
		for len(batch) < e.cfg.BatchSize {
			m, err := iter.Next(jetstream.NextContext(ctx))
			if err != nil {
				return total, fmt.Errorf("reconciler: replay partition %d: %w", p, err)
			}
			batch = append(batch, m)
			md, err := m.Metadata()
			if err == nil && md.Sequence.Stream >= last {
				break
			}
		}
		total += len(batch)
		if err := w.process(ctx, batch); err != nil {
			return total, err
		}
	}
	return total, nil
}
