package store

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
)

// Whole-workspace reads for operators and the benchmark harness: they see every tier of a workspace, so they
// are never served to an agent (agents read through a View).

// WorkspaceSize returns how many claims and belief versions a workspace holds.
func WorkspaceSize(ctx context.Context, q Querier, ws string) (claims, versions int64, err error) {
	rows, err := q.Query(ctx, `SELECT (SELECT count(*) FROM claims WHERE workspace_id = $1),
		(SELECT count(*) FROM claim_versions WHERE workspace_id = $1)`, ws)
	if err != nil {
		return 0, 0, fmt.Errorf("store: size of workspace %s: %w", ws, err)
	}
	defer rows.Close()
	if rows.Next() {
		err = rows.Scan(&claims, &versions)
	}
	if err == nil {
		err = rows.Err()
	}
	return claims, versions, err
}

// SourceTurns returns, per claim id, the turn ids its provenance names and those of the claims corroborating
// it (corroborations.via_claim_id): the turns the claim's value was said in. Lists are sorted and distinct.
func SourceTurns(ctx context.Context, q Querier, ids []string) (map[string][]string, error) {
	rows, err := q.Query(ctx, `
		SELECT c.id::text, coalesce(c.provenance->'turn_ids', '[]'::jsonb) FROM claims c WHERE c.id::text = ANY($1)
		UNION ALL
		SELECT co.claim_id::text, coalesce(v.provenance->'turn_ids', '[]'::jsonb)
		FROM corroborations co JOIN claims v ON v.id = co.via_claim_id WHERE co.claim_id::text = ANY($1)`, ids)
	if err != nil {
		return nil, fmt.Errorf("store: source turns: %w", err)
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var id string
		var t []string
		if err := rows.Scan(&id, &t); err != nil {
			return nil, err
		}
		out[id] = append(out[id], t...)
	}
	for id, ts := range out {
		ts = slices.DeleteFunc(ts, func(s string) bool { return s == "" })
		slices.Sort(ts)
		out[id] = slices.Compact(ts)
	}
	return out, rows.Err()
}

// TurnClaim is a claim said in a turn, with its current belief.
type TurnClaim struct {
	ID, Object, Status, SubjectKey, SlotKey string
}

// ClaimsOfTurns returns the current belief about every claim of ws whose provenance names one of turnIDs, by
// turn id, each list ordered by claim id. When partMark is not empty, a provenance turn id counts up to its first
// partMark (a long turn published in parts, "<turn><partMark><n>", counts as its turn).
func ClaimsOfTurns(ctx context.Context, q Querier, ws string, turnIDs []string, partMark string) (map[string][]TurnClaim, error) {
	turn, args := `t.turn`, []any{ws, turnIDs}
	if partMark != "" {
		turn, args = `split_part(t.turn, $3, 1)`, append(args, partMark)
	}
	rows, err := q.Query(ctx, `
		SELECT DISTINCT `+turn+`, c.id::text, c.object, v.status, c.subject_key, c.slot_key
		FROM claims c
		JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		CROSS JOIN LATERAL jsonb_array_elements_text(coalesce(c.provenance->'turn_ids', '[]'::jsonb)) AS t(turn)
		WHERE c.workspace_id = $1 AND `+turn+` = ANY($2)
		ORDER BY 1, 2`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: claims of turns: %w", err)
	}
	defer rows.Close()
	out := map[string][]TurnClaim{}
	for rows.Next() {
		var turn string
		var c TurnClaim
		if err := rows.Scan(&turn, &c.ID, &c.Object, &c.Status, &c.SubjectKey, &c.SlotKey); err != nil {
			return nil, err
		}
		out[turn] = append(out[turn], c)
	}
	return out, rows.Err()
}

// CurrentClaim is a claim of a workspace that is true now (status active or disputed), with its source turns and
// its stored embedding.
type CurrentClaim struct {
	ID, Text, Status string
	// Turns are the turn ids its provenance names, as stored.
	Turns []string
	// Embedding is the claim's stored vector (nil when it has none).
	Embedding []float32
}

// CurrentClaims returns every claim of ws, all tiers, that is true now, ordered by id.
func CurrentClaims(ctx context.Context, q Querier, ws string) ([]CurrentClaim, error) {
	rows, err := q.Query(ctx, `
		SELECT c.id::text, c.text, v.status, coalesce(c.provenance->'turn_ids', '[]'::jsonb), cv.embedding::real[]
		FROM claims c
		JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		LEFT JOIN claim_vectors cv ON cv.claim_id = c.id
		WHERE c.workspace_id = $1 AND v.status IN ('active', 'disputed')
		ORDER BY c.id`, ws)
	if err != nil {
		return nil, fmt.Errorf("store: current claims of %s: %w", ws, err)
	}
	defer rows.Close()
	var out []CurrentClaim
	for rows.Next() {
		var c CurrentClaim
		if err := rows.Scan(&c.ID, &c.Text, &c.Status, &c.Turns, &c.Embedding); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// WorkspacesSize returns how many claims and belief versions the given workspaces hold together.
func WorkspacesSize(ctx context.Context, q Querier, wss []string) (claims, versions int64, err error) {
	sizes, err := collect(ctx, q, "size of workspaces", func(r pgx.CollectableRow) ([2]int64, error) {
		var s [2]int64
		err := r.Scan(&s[0], &s[1])
		return s, err
	}, `SELECT (SELECT count(*) FROM claims WHERE workspace_id = ANY($1)),
		(SELECT count(*) FROM claim_versions WHERE workspace_id = ANY($1))`, wss)
	if err != nil || len(sizes) == 0 {
		return 0, 0, err
	}
	return sizes[0][0], sizes[0][1], nil
}

// SourcedClaim is a claim of a workspace with its current belief version, the source reference its provenance
// names (empty when none) and how many corroboration rows it has.
type SourcedClaim struct {
	ID, SourceRef, SubjectKey, SlotKey, Object, ObjectKey, Scope, OwnerAgent, Status string
	ValidFrom                                                                        time.Time
	Corroborations                                                                   int
}

// SourcedClaims returns every claim of ws, all tiers, with its current belief version (any order).
func SourcedClaims(ctx context.Context, q Querier, ws string) ([]SourcedClaim, error) {
	return collect(ctx, q, "claims by source reference", func(r pgx.CollectableRow) (SourcedClaim, error) {
		var c SourcedClaim
		var ref *string
		err := r.Scan(&c.ID, &ref, &c.SubjectKey, &c.SlotKey, &c.Object, &c.ObjectKey, &c.Scope, &c.OwnerAgent, &c.Status, &c.ValidFrom,
			&c.Corroborations)
		c.SourceRef = deref(ref)
		return c, err
	}, `SELECT c.id::text, provenance->>'source_ref', c.subject_key, c.slot_key, c.object, c.object_key,
			c.scope, c.owner_agent, v.status, c.valid_from,
			(SELECT count(*) FROM corroborations co WHERE co.claim_id = c.id)::int
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		WHERE c.workspace_id = $1`, ws)
}

// Totals counts the whole store: claims, current belief versions that are superseded, and decisions.
type Totals struct {
	Claims, Superseded, Decisions int
}

// StoreTotals returns the store's Totals.
func StoreTotals(ctx context.Context, q Querier) (Totals, error) {
	t, err := collect(ctx, q, "totals", func(r pgx.CollectableRow) (Totals, error) {
		var t Totals
		err := r.Scan(&t.Claims, &t.Superseded, &t.Decisions)
		return t, err
	}, `SELECT (SELECT count(*) FROM claims),
		(SELECT count(*) FROM claim_versions WHERE retired_at IS NULL AND status = 'superseded'), (SELECT count(*) FROM decisions)`)
	if err != nil || len(t) == 0 {
		return Totals{}, err
	}
	return t[0], nil
}
