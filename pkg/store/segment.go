package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"
)

// The reconciler's reads: what one segment of a partition's messages needs before it is decided, read in a
// few set-based statements (services/reconciler/load.go turns the rows into the decider's state). They read
// every tier of the subjects concerned, which only the reconciler may do: agents read through a View.

// collect runs sql and scans every row with scan, naming what in its errors.
func collect[T any](ctx context.Context, q Querier, what string, scan func(pgx.CollectableRow) (T, error), sql string, args ...any) ([]T, error) {
	rows, err := q.Query(ctx, sql, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	out, err := pgx.CollectRows(rows, scan)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}

// SubjectRef names a subject of a workspace.
type SubjectRef struct{ Workspace, SubjectKey string }

func splitSubjects(subjects []SubjectRef) (wss, keys []string) {
	wss, keys = make([]string, len(subjects)), make([]string, len(subjects))
	for i, s := range subjects {
		wss[i], keys[i] = s.Workspace, s.SubjectKey
	}
	return wss, keys
}

// ClaimPlace is where a stored claim belongs: its workspace, subject, slot and tier (scope and owner agent).
type ClaimPlace struct {
	ID, Workspace, SubjectKey, SlotKey, Scope, OwnerAgent string
}

// ClaimPlaces returns the places of those of the given claim ids that are stored (any order).
func ClaimPlaces(ctx context.Context, q Querier, ids []string) ([]ClaimPlace, error) {
	return collect(ctx, q, "look up claims", func(r pgx.CollectableRow) (ClaimPlace, error) {
		var c ClaimPlace
		err := r.Scan(&c.ID, &c.Workspace, &c.SubjectKey, &c.SlotKey, &c.Scope, &c.OwnerAgent)
		return c, err
	}, `SELECT id::text, workspace_id, subject_key, slot_key, scope, owner_agent FROM claims WHERE id = ANY($1::uuid[])`, ids)
}

// ConfirmedClaim is a claim with at least one explicit confirmation; Released says one of them released it from
// quarantine.
type ConfirmedClaim struct {
	ID       string
	Released bool
}

// ConfirmedClaims returns which of the given claim ids have an explicit confirmation (any order).
func ConfirmedClaims(ctx context.Context, q Querier, ids []string) ([]ConfirmedClaim, error) {
	return collect(ctx, q, "look up confirmations", func(r pgx.CollectableRow) (ConfirmedClaim, error) {
		var c ConfirmedClaim
		err := r.Scan(&c.ID, &c.Released)
		return c, err
	}, `SELECT claim_id::text, bool_or(releases) FROM confirmations WHERE claim_id = ANY($1::uuid[]) GROUP BY claim_id`, ids)
}

// StoredPredicate is a subject_predicates row as slot assignment reads it: a predicate of a subject in one tier
// (TierOwner "" for the shared tier), the slot it joined and its phrase vector (nil when it has none).
type StoredPredicate struct {
	Workspace, SubjectKey, TierOwner, PredicateKey, SlotKey, Model string
	Embedding                                                      []float32
}

// PredicatesOf returns every tier's predicates of the given subjects, ordered by tier owner and predicate key
// (byte order, so that slot assignment is the same whatever the database's collation).
func PredicatesOf(ctx context.Context, q Querier, subjects []SubjectRef) ([]StoredPredicate, error) {
	wss, keys := splitSubjects(subjects)
	return collect(ctx, q, "load predicates", func(r pgx.CollectableRow) (StoredPredicate, error) {
		var p StoredPredicate
		var emb *pgvector.Vector
		err := r.Scan(&p.Workspace, &p.SubjectKey, &p.TierOwner, &p.PredicateKey, &p.SlotKey, &p.Model, &emb)
		if emb != nil {
			p.Embedding = emb.Slice()
		}
		return p, err
	}, `SELECT p.workspace_id, p.subject_key, p.tier_owner, p.predicate_key, p.slot_key, p.model, p.embedding
		FROM subject_predicates p JOIN unnest($1::text[], $2::text[]) AS k(ws, subject)
		  ON p.workspace_id = k.ws AND p.subject_key = k.subject
		ORDER BY p.tier_owner COLLATE "C", p.predicate_key COLLATE "C"`, wss, keys)
}

// DueGate is a pending await-confirmation gate whose deadline has come, with its claim's place.
type DueGate struct {
	ClaimPlace
	Deadline time.Time
}

// DueGates returns the partition's pending gates whose deadline is at or before until (any order).
func DueGates(ctx context.Context, q Querier, partition int, until time.Time) ([]DueGate, error) {
	return collect(ctx, q, "due gates", func(r pgx.CollectableRow) (DueGate, error) {
		var g DueGate
		err := r.Scan(&g.ID, &g.Deadline, &g.Workspace, &g.SubjectKey, &g.SlotKey, &g.Scope, &g.OwnerAgent)
		return g, err
	}, `SELECT g.claim_id::text, g.deadline, c.workspace_id, c.subject_key, c.slot_key, c.scope, c.owner_agent
		FROM claim_gates g JOIN claims c ON c.id = g.claim_id
		WHERE g.partition = $1 AND g.state = 'pending' AND g.deadline <= $2`, partition, until)
}

// TierRef names a slot tier: the claims of one slot that compete with each other — the shared tier (Scope
// shared; OwnerAgent unused) or one agent's private tier.
type TierRef struct{ Workspace, SubjectKey, SlotKey, Scope, OwnerAgent string }

// StoredGate is a claim's await-confirmation gate (claim_gates).
type StoredGate struct {
	State      string // pending, admitted, timed_out
	Deadline   *time.Time
	OnTimeout  string
	ResolvedBy string
}

// TierClaim is one claim of a tier with its current belief version, its gate (nil when it has none), whether it
// has an explicit confirmation and whether one released it from quarantine.
type TierClaim struct {
	ClaimPlace
	ObjectKey, SourceKey, PredicateKey, Extractor string
	Subject, Predicate, Object, Text              string
	ValidFrom                                     time.Time
	Sequence                                      *int64
	Confidence                                    float32
	Functional                                    bool
	StreamSeq                                     int64
	Version                                       int
	Status                                        string
	ValidTo                                       *time.Time
	SupersededBy                                  string
	Gate                                          *StoredGate
	Confirmed                                     bool
	Screen                                        string
	Trust                                         float32
	Released                                      bool
}

// TierClaims returns every claim of the given tiers with its current (not retired) belief version (any order).
func TierClaims(ctx context.Context, q Querier, tiers []TierRef) ([]TierClaim, error) {
	wss, subs, slots, scopes, owners := make([]string, len(tiers)), make([]string, len(tiers)), make([]string, len(tiers)),
		make([]string, len(tiers)), make([]string, len(tiers))
	for i, t := range tiers {
		wss[i], subs[i], slots[i], scopes[i], owners[i] = t.Workspace, t.SubjectKey, t.SlotKey, t.Scope, t.OwnerAgent
	}
	return collect(ctx, q, "load tiers", func(r pgx.CollectableRow) (TierClaim, error) {
		var c TierClaim
		var gState, gOnTimeout, gResolved *string
		var gDeadline *time.Time
		err := r.Scan(&c.Workspace, &c.SubjectKey, &c.SlotKey, &c.Scope, &c.OwnerAgent,
			&c.ID, &c.ObjectKey, &c.SourceKey, &c.PredicateKey, &c.Extractor, &c.Subject, &c.Predicate, &c.Object, &c.Text,
			&c.ValidFrom, &c.Sequence, &c.Confidence, &c.Functional, &c.StreamSeq,
			&c.Version, &c.Status, &c.ValidTo, &c.SupersededBy,
			&gState, &gDeadline, &gOnTimeout, &gResolved, &c.Confirmed, &c.Screen, &c.Trust, &c.Released)
		if gState != nil {
			c.Gate = &StoredGate{State: *gState, Deadline: gDeadline, OnTimeout: deref(gOnTimeout), ResolvedBy: deref(gResolved)}
		}
		return c, err
	}, `SELECT c.workspace_id, c.subject_key, c.slot_key, c.scope, c.owner_agent,
			c.id::text, c.object_key, c.source_key, c.predicate_key, c.extractor, c.subject, c.predicate, c.object, c.text,
			c.valid_from, c.sequence, c.confidence, c.functional, c.stream_seq,
			v.version, v.status, v.valid_to, coalesce(v.superseded_by::text, ''),
			g.state, g.deadline, g.on_timeout, g.resolved_by,
			EXISTS (SELECT 1 FROM confirmations f WHERE f.claim_id = c.id),
			coalesce(c.screen, ''), c.trust, EXISTS (SELECT 1 FROM confirmations f WHERE f.claim_id = c.id AND f.releases)
		FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) AS k(ws, subject, slot, scope, owner)
		JOIN claims c ON c.workspace_id = k.ws AND c.subject_key = k.subject AND c.slot_key = k.slot AND c.scope = k.scope
		     AND (k.scope = 'shared' OR c.owner_agent = k.owner)
		JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		LEFT JOIN claim_gates g ON g.claim_id = c.id`, wss, subs, slots, scopes, owners)
}

// Verdict is a judge-log verdict the projection applied to a pair of claims.
type Verdict struct {
	ClaimA, ClaimB string
	Contradicts    bool
}

// VerdictsOf returns the applied verdicts that judged any of the given claims (any order).
func VerdictsOf(ctx context.Context, q Querier, ids []string) ([]Verdict, error) {
	return collect(ctx, q, "load judgements", func(r pgx.CollectableRow) (Verdict, error) {
		var v Verdict
		err := r.Scan(&v.ClaimA, &v.ClaimB, &v.Contradicts)
		return v, err
	}, `SELECT claim_a::text, claim_b::text, contradicts FROM judgements WHERE claim_a = ANY($1::uuid[]) OR claim_b = ANY($1::uuid[])`, ids)
}

// PolarClaim is a claim with its polarity and vector, as the negation links compare it with a newcomer of the
// other polarity.
type PolarClaim struct {
	ID, Workspace, SubjectKey, Scope, OwnerAgent string
	Negated                                      bool
	Text, Subject, Model                         string
	Embedding                                    []float32
}

// PolarClaims returns the claims of the given subjects whose polarity is negated (true: the negated ones),
// ordered by id.
func PolarClaims(ctx context.Context, q Querier, subjects []SubjectRef, negated bool) ([]PolarClaim, error) {
	wss, keys := splitSubjects(subjects)
	cond := `c.negated`
	if !negated {
		cond = `NOT c.negated`
	}
	return collect(ctx, q, "load claims for negation links", func(r pgx.CollectableRow) (PolarClaim, error) {
		var p PolarClaim
		var vec pgvector.Vector
		err := r.Scan(&p.ID, &p.Workspace, &p.SubjectKey, &p.Scope, &p.OwnerAgent, &p.Negated, &p.Text, &p.Subject, &p.Model, &vec)
		p.Embedding = vec.Slice()
		return p, err
	}, `SELECT c.id::text, c.workspace_id, c.subject_key, c.scope, c.owner_agent, c.negated, c.text, c.subject,
		v.model, v.embedding FROM claims c JOIN claim_vectors v ON v.claim_id = c.id
		JOIN unnest($1::text[], $2::text[]) AS k(ws, subject) ON c.workspace_id = k.ws AND c.subject_key = k.subject
		WHERE `+cond+` ORDER BY c.id`, wss, keys)
}

// ClaimPlaceIn returns the place of claim id in workspace ws and the content-screen rule that flagged it ("" when
// none; a flagged claim is held in quarantine until released); pgx.ErrNoRows when the workspace has no such
// claim.
func ClaimPlaceIn(ctx context.Context, db DB, ws, id string) (ClaimPlace, string, error) {
	c := ClaimPlace{ID: id, Workspace: ws}
	var screen *string
	err := db.QueryRow(ctx, `SELECT subject_key, slot_key, scope, owner_agent, screen FROM claims WHERE workspace_id = $1 AND id = $2`, ws, id).
		Scan(&c.SubjectKey, &c.SlotKey, &c.Scope, &c.OwnerAgent, &screen)
	return c, deref(screen), err
}
