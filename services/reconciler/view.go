package reconciler

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Querier is what the read helpers need: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Belief is one claim as a reader sees it, with its belief version at the time asked about.
type Belief struct {
	ClaimID        string     `json:"claim_id"`
	SubjectKey     string     `json:"subject_key"`
	Subject        string     `json:"subject"`
	Slot           string     `json:"slot"`
	Predicate      string     `json:"predicate"`
	Object         string     `json:"object"`
	Text           string     `json:"text"`
	Scope          string     `json:"scope"`
	OwnerAgent     string     `json:"owner_agent"`
	Status         string     `json:"status"`
	ValidFrom      time.Time  `json:"valid_from"`
	ValidTo        *time.Time `json:"valid_to,omitempty"`
	RecordedAt     time.Time  `json:"recorded_at"`
	Confidence     float32    `json:"confidence"`
	Corroborations int        `json:"corroborations"`
}

// visibleClaims is the one place the read helpers select claims: the workspace's shared claims plus the calling
// agent's own private claims. Every read helper goes through it, so no path can show a private claim to another
// agent or a claim of another workspace.
const visibleClaims = `c.workspace_id = $1 AND (c.scope = 'shared' OR c.owner_agent = $2)`

// beliefCols are a Belief's columns. Its corroboration count is of distinct agents: sources are keyed
// "agent:<id>", and projections written before that rule keyed them "agent:<id>/turn:…" or "agent:<id>/ref:…",
// counted here by their agent as the query service counts them.
const beliefCols = `c.id::text, c.subject_key, c.subject, c.slot_key, c.predicate, c.object, c.text, c.scope, c.owner_agent,
	v.status, v.valid_from, v.valid_to, v.recorded_at, c.confidence,
	(SELECT count(DISTINCT split_part(k.source, '/', 1)) FROM corroborations k WHERE k.claim_id = c.id)`

func scanBeliefs(rows pgx.Rows) ([]Belief, error) {
	defer rows.Close()
	var out []Belief
	for rows.Next() {
		var b Belief
		if err := rows.Scan(&b.ClaimID, &b.SubjectKey, &b.Subject, &b.Slot, &b.Predicate, &b.Object, &b.Text, &b.Scope, &b.OwnerAgent,
			&b.Status, &b.ValidFrom, &b.ValidTo, &b.RecordedAt, &b.Confidence, &b.Corroborations); err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, rows.Err()
}

// CurrentBeliefs returns what agent may read as true now about subjectKey (all slots, or one when slot is not
// empty): per slot, the agent's private tier over the shared tier (OverlayTiers), statuses active and disputed.
func CurrentBeliefs(ctx context.Context, db Querier, ws, agent, subjectKey, slot string) ([]Belief, error) {
	rows, err := db.Query(ctx, `SELECT `+beliefCols+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		WHERE `+visibleClaims+` AND c.subject_key = $3 AND ($4 = '' OR c.slot_key = $4) AND v.status IN ('active', 'disputed')
		ORDER BY c.slot_key, c.valid_from, c.id`, ws, agent, subjectKey, slot)
	if err != nil {
		return nil, fmt.Errorf("reconciler: current beliefs: %w", err)
	}
	bs, err := scanBeliefs(rows)
	if err != nil {
		return nil, err
	}
	return OverlayTiers(bs), nil
}

// BeliefsAt returns what agent may read about subjectKey as true at valid time validAt, as memory believed it at
// transaction time knownAt: the belief versions recorded by knownAt and not retired by then, of claims valid at
// validAt (valid_from <= validAt < valid_to), excluding pending and rejected ones, per slot with the private tier
// over the shared tier.
func BeliefsAt(ctx context.Context, db Querier, ws, agent, subjectKey string, validAt, knownAt time.Time) ([]Belief, error) {
	rows, err := db.Query(ctx, `SELECT `+beliefCols+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id
		WHERE `+visibleClaims+` AND c.subject_key = $3
		  AND v.recorded_at <= $5 AND (v.retired_at IS NULL OR v.retired_at > $5)
		  AND v.status IN ('active', 'disputed', 'superseded')
		  AND v.valid_from <= $4 AND (v.valid_to IS NULL OR v.valid_to > $4)
		ORDER BY c.slot_key, c.valid_from, c.id`, ws, agent, subjectKey, validAt, knownAt)
	if err != nil {
		return nil, fmt.Errorf("reconciler: beliefs at: %w", err)
	}
	bs, err := scanBeliefs(rows)
	if err != nil {
		return nil, err
	}
	// A superseded claim is valid at validAt only within its interval; restatements without a valid_to
	// (duplicates) are represented by their representative.
	var kept []Belief
	for _, b := range bs {
		if b.Status == "superseded" && b.ValidTo == nil {
			continue
		}
		kept = append(kept, b)
	}
	return OverlayTiers(kept), nil
}

// History returns every claim of a slot the agent may read, each with its current belief version, oldest valid
// time first.
func History(ctx context.Context, db Querier, ws, agent, subjectKey, slot string) ([]Belief, error) {
	rows, err := db.Query(ctx, `SELECT `+beliefCols+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		WHERE `+visibleClaims+` AND c.subject_key = $3 AND c.slot_key = $4
		ORDER BY c.valid_from, c.sequence NULLS FIRST, c.id`, ws, agent, subjectKey, slot)
	if err != nil {
		return nil, fmt.Errorf("reconciler: history: %w", err)
	}
	return scanBeliefs(rows)
}

// OverlayTiers applies the tier rule per slot to beliefs of one reader: when both the reader's private tier and
// the shared tier say something about a slot, the private claims win, unless a shared claim is newer by valid
// time than every private one and corroborated by at least two independent sources.
func OverlayTiers(bs []Belief) []Belief {
	bySlot := map[string][]Belief{}
	var slots []string
	for _, b := range bs {
		k := b.SubjectKey + "\x00" + b.Slot
		if _, ok := bySlot[k]; !ok {
			slots = append(slots, k)
		}
		bySlot[k] = append(bySlot[k], b)
	}
	var out []Belief
	for _, k := range slots {
		var private, shared []Belief
		for _, b := range bySlot[k] {
			if b.Scope == "private" {
				private = append(private, b)
			} else {
				shared = append(shared, b)
			}
		}
		switch {
		case len(private) == 0:
			out = append(out, shared...)
		case len(shared) == 0:
			out = append(out, private...)
		default:
			var newestPrivate time.Time
			for _, b := range private {
				if b.ValidFrom.After(newestPrivate) {
					newestPrivate = b.ValidFrom
				}
			}
			var override []Belief
			for _, b := range shared {
				if b.ValidFrom.After(newestPrivate) && b.Corroborations >= 2 {
					override = append(override, b)
				}
			}
			if len(override) > 0 {
				out = append(out, override...)
			} else {
				out = append(out, private...)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Belief) int {
		if a.Slot != b.Slot {
			if a.Slot < b.Slot {
				return -1
			}
			return 1
		}
		return a.ValidFrom.Compare(b.ValidFrom)
	})
	return out
}
