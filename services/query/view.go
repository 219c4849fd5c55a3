package query

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/mneme-ai/mneme/pkg/api"
)

// view is what one request may see: the caller's workspace and agent (visibility), and which beliefs count
// (bitemporal coordinates). Every read of the projection goes through the SQL fragments built here, so no read
// path can forget a visibility or time filter.
type view struct {
	ws    string
	agent string
	// asOf selects valid time: claims true in the world at that instant (nil: what is true now).
	asOf *time.Time
	// knownAt selects transaction time: the belief versions memory held at that instant (nil: current beliefs).
	knownAt *time.Time
	// history co-surfaces superseded versions next to current ones.
	history bool
	// quarantined also selects quarantined claims (content flagged as instructions to a model; see
	// pkg/promptguard). They are shown flagged and never become a slot's current value.
	quarantined bool
}

// candidate reports whether a claim the view selected can be a current value: true now (not superseded), or,
// for an as-of read, valid at as_of. Other rows are history.
func (v view) candidate(c *claimRow) bool {
	if c.Status == statusQuarantined {
		return false
	}
	if v.asOf == nil {
		return c.Status != "superseded"
	}
	return !c.ValidFrom.After(*v.asOf) && (c.ValidTo == nil || c.ValidTo.After(*v.asOf))
}

// args returns the named arguments the fragments refer to.
func (v view) args() pgx.NamedArgs {
	a := pgx.NamedArgs{"ws": v.ws, "agent": v.agent}
	if v.asOf != nil {
		a["as_of"] = *v.asOf
	}
	if v.knownAt != nil {
		a["known_at"] = *v.knownAt
	}
	return a
}

// visible restricts claims c to the workspace and to what the agent may read: its own private claims and the
// shared tier, never another agent's private claims.
func (v view) visible() string {
	return `c.workspace_id = @ws AND (c.scope = 'shared' OR c.owner_agent = @agent)`
}

// belief selects, for claim versions v, the one version memory held at the transaction time of the view: the
// unretired version now, or the version whose [recorded_at, retired_at) contains known_at.
func (v view) belief() string {
	if v.knownAt == nil {
		return `v.retired_at IS NULL`
	}
	return `v.recorded_at <= @known_at AND (v.retired_at IS NULL OR v.retired_at > @known_at)`
}

// statusQuarantined is the status of a claim whose content was flagged as instructions to a model.
const statusQuarantined = "quarantined"

// status keeps the beliefs the view counts as true. Pending (awaiting confirmation), rejected and retracted
// claims are never presented as facts. With as_of, a claim counts when its valid interval contains as_of;
// superseded claims count then too (they were true until their successor took over). Quarantined claims are
// selected only when the view asks for them.
func (v view) status() string {
	s := v.trueStatus()
	if v.quarantined {
		return `(` + s + ` OR v.status = 'quarantined')`
	}
	return s
}

func (v view) trueStatus() string {
	switch {
	case v.asOf != nil && v.history:
		return `v.status IN ('active', 'disputed', 'superseded') AND v.valid_from <= @as_of`
	case v.asOf != nil:
		return `v.status IN ('active', 'disputed', 'superseded') AND v.valid_from <= @as_of AND (v.valid_to IS NULL OR v.valid_to > @as_of)`
	case v.history:
		return `v.status IN ('active', 'disputed', 'superseded')`
	default:
		return `v.status IN ('active', 'disputed')`
	}
}

// where is the full filter over claims c joined with their versions v.
func (v view) where() string {
	return v.visible() + " AND " + v.status()
}

// claimColumns are the columns of a claimRow, over claims c and claim_versions v.
const claimColumns = `c.id::text, c.text, c.subject, c.subject_key, c.predicate, c.predicate_key, c.slot_key,
	c.object, c.object_key, c.functional, c.scope, c.owner_agent, c.confidence::float8, c.sequence,
	v.status, v.valid_from, v.valid_to, v.recorded_at, v.retired_at, v.version, v.decision_id::text,
	` + corroborationCount + `,
	ARRAY(SELECT s.claim_id::text FROM supersedes s WHERE s.superseded_id = c.id ORDER BY s.claim_id), c.negated,
	` + supportConfidence

// corroborationCount counts the distinct agents among the corroborating sources of claim c. The reconciler
// keys a source by its agent ("agent:<id>"); projections written before that rule keyed it by agent and turn
// or source reference ("agent:<id>/turn:<t>"), which are counted by their agent here, so one agent repeating
// itself never counts twice whatever wrote the rows.
const corroborationCount = `(SELECT count(DISTINCT split_part(co.source, '/', 1)) FROM corroborations co WHERE co.claim_id = c.id)::int`

// supportConfidence combines the confidence of each corroborating agent (its highest among the claims through
// which it corroborates c) as independent evidence, noisy-OR: 1 − Π(1 − cᵢ). A claim only its owner asserted
// keeps its own confidence.
const supportConfidence = `coalesce((SELECT CASE WHEN max(s.m) >= 1 THEN 1 ELSE 1 - exp(sum(ln(1 - s.m)) FILTER (WHERE s.m < 1)) END
	FROM (SELECT max(cc.confidence)::float8 AS m FROM corroborations co JOIN claims cc ON cc.id = co.via_claim_id
	      WHERE co.claim_id = c.id GROUP BY split_part(co.source, '/', 1)) s), c.confidence::float8)`

// claimRow is one claim with the belief version the view selected.
type claimRow struct {
	ID, Text, Subject, SubjectKey, Predicate, PredicateKey, SlotKey, Object, ObjectKey string
	Functional                                                                         bool
	Scope, Owner                                                                       string
	Confidence                                                                         float64
	Sequence                                                                           *int64
	Status                                                                             string
	ValidFrom                                                                          time.Time
	ValidTo                                                                            *time.Time
	RecordedAt                                                                         time.Time
	RetiredAt                                                                          *time.Time
	Version                                                                            int
	DecisionID                                                                         *string
	Corroborations                                                                     int
	SupportConfidence                                                                  float64
	SupersededBy                                                                       []string
	// Negated marks a negative assertion ("Alice has never used Zotero").
	Negated bool
	// Contradicts are the visible claims linked to this one as contradicting it (contradictions table), most
	// similar first; filled by assembly.
	Contradicts []string
	// PredVec is the embedding of the predicate phrase (from subject_predicates), when loaded and comparable
	// with the query embedder; nil otherwise.
	PredVec []float32
}

func scanClaim(rows pgx.Rows) (claimRow, error) {
	var r claimRow
	var validTo, retiredAt pgtype.Timestamptz
	dest := []any{&r.ID, &r.Text, &r.Subject, &r.SubjectKey, &r.Predicate, &r.PredicateKey, &r.SlotKey,
		&r.Object, &r.ObjectKey, &r.Functional, &r.Scope, &r.Owner, &r.Confidence, &r.Sequence,
		&r.Status, &r.ValidFrom, &validTo, &r.RecordedAt, &retiredAt, &r.Version, &r.DecisionID,
		&r.Corroborations, &r.SupersededBy, &r.Negated, &r.SupportConfidence}
	if len(rows.FieldDescriptions()) > len(dest) {
		dest = append(dest, &r.PredVec)
	}
	err := rows.Scan(dest...)
	if validTo.Valid {
		t := validTo.Time
		r.ValidTo = &t
	}
	if retiredAt.Valid {
		t := retiredAt.Time
		r.RetiredAt = &t
	}
	return r, err
}

func collectClaims(rows pgx.Rows) ([]claimRow, error) {
	defer rows.Close()
	var out []claimRow
	for rows.Next() {
		r, err := scanClaim(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// apiClaim converts a row to its wire form.
func (r claimRow) apiClaim() api.Claim {
	c := api.Claim{
		ID: r.ID, Text: r.Text, Subject: r.Subject, SubjectKey: r.SubjectKey, Predicate: r.Predicate,
		PredicateKey: r.PredicateKey, Object: r.Object, Functional: r.Functional, Status: r.Status,
		ValidFrom: r.ValidFrom.UTC(), RecordedAt: r.RecordedAt.UTC(), Sequence: r.Sequence, Scope: r.Scope,
		Owner: r.Owner, Confidence: r.Confidence, Negated: r.Negated,
		Corroborations: r.Corroborations, Corroborated: r.Corroborations >= corroboratedAt,
		SupportConfidence: r.SupportConfidence,
	}
	if r.ValidTo != nil {
		t := r.ValidTo.UTC()
		c.ValidTo = &t
	}
	if r.RetiredAt != nil {
		t := r.RetiredAt.UTC()
		c.RetiredAt = &t
	}
	return c
}

// newer reports whether a comes after b in the deterministic order of belief: valid time, then the source
// sequence (absent sorts first), then transaction time, then id. The reader never decides this order.
func newer(a, b *claimRow) bool {
	if !a.ValidFrom.Equal(b.ValidFrom) {
		return a.ValidFrom.After(b.ValidFrom)
	}
	as, bs := int64(-1<<63), int64(-1<<63)
	if a.Sequence != nil {
		as = *a.Sequence
	}
	if b.Sequence != nil {
		bs = *b.Sequence
	}
	if as != bs {
		return as > bs
	}
	if !a.RecordedAt.Equal(b.RecordedAt) {
		return a.RecordedAt.After(b.RecordedAt)
	}
	return a.ID > b.ID
}

// simultaneous reports whether neither a nor b is newer by valid time and sequence: a true tie.
func simultaneous(a, b *claimRow) bool {
	if !a.ValidFrom.Equal(b.ValidFrom) {
		return false
	}
	return (a.Sequence == nil) == (b.Sequence == nil) && (a.Sequence == nil || *a.Sequence == *b.Sequence)
}

// querier is what the read functions need of a pool or transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// subjectClaimsLimit bounds how many claims one subject contributes to a lookup; popular subjects are cut
// newest-first so a query stays bounded.
const subjectClaimsLimit = 500

// claimsBySubjects loads the view's claims about the given subject keys (newest first, bounded per call).
func claimsBySubjects(ctx context.Context, q querier, v view, keys []string, limit int) ([]claimRow, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	sql, a := claimsBySubjectsSQL(v, keys, limit)
	rows, err := q.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	return collectClaims(rows)
}

func claimsBySubjectsSQL(v view, keys []string, limit int) (string, pgx.NamedArgs) {
	return claimsBySubjectsPredSQL(v, keys, limit, "")
}

// claimsBySubjectsPredSQL is claimsBySubjectsSQL with, when model is not empty, the predicate phrase
// embedding of each claim (subject_predicates, same model only) as an extra column.
func claimsBySubjectsPredSQL(v view, keys []string, limit int, model string) (string, pgx.NamedArgs) {
	a := v.args()
	a["keys"] = keys
	a["lim"] = limit
	cols, join := claimColumns, ""
	if model != "" {
		a["model"] = model
		cols += `, sp.embedding::real[]`
		// The claim's own tier's predicate row (every tier records its own predicates).
		join = ` LEFT JOIN subject_predicates sp ON sp.workspace_id = c.workspace_id AND sp.subject_key = c.subject_key
			AND sp.tier_owner = CASE WHEN c.scope = 'shared' THEN '' ELSE c.owner_agent END
			AND sp.predicate_key = c.predicate_key AND sp.model = @model`
	}
	return `SELECT ` + cols + `
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND ` + v.belief() + join + `
		WHERE c.workspace_id = @ws AND c.subject_key = ANY(@keys::text[]) AND ` + v.where() + `
		ORDER BY v.valid_from DESC, c.sequence DESC NULLS LAST, c.id
		LIMIT @lim`, a
}

// slotClaimsOf loads every claim the view may see of the slots of the given claims (the claims themselves
// included when the view sees them), bounded.
func slotClaimsOf(ctx context.Context, q querier, v view, ids []string) ([]claimRow, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	a := v.args()
	a["ids"] = ids
	sql := `SELECT ` + claimColumns + `
		FROM (SELECT DISTINCT x.subject_key, x.slot_key FROM claims x WHERE x.id = ANY(@ids::uuid[]) AND x.workspace_id = @ws) k
		JOIN claims c ON c.workspace_id = @ws AND c.subject_key = k.subject_key AND c.slot_key = k.slot_key
		JOIN claim_versions v ON v.claim_id = c.id AND ` + v.belief() + `
		WHERE ` + v.where() + `
		ORDER BY v.valid_from, c.sequence NULLS FIRST, c.id
		LIMIT 2000`
	rows, err := q.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	return collectClaims(rows)
}

// knownSubjects returns which of the candidate keys name subjects of the workspace the agent can see, mapped
// to the canonical subject keys they denote (a key maps to itself, an alias to its subjects).
func knownSubjects(ctx context.Context, q querier, v view, keys []string) (map[string][]string, error) {
	if len(keys) == 0 {
		return map[string][]string{}, nil
	}
	sql, a := knownSubjectsSQL(v, keys)
	rows, err := q.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	return scanKnown(rows)
}

// knownSubjectsSQL checks existence only: a subject whose claims the caller cannot see must not be revealed,
// so the check joins the visibility filter. Aliases are matched by their lower-cased surface form.
func knownSubjectsSQL(v view, keys []string) (string, pgx.NamedArgs) {
	a := v.args()
	a["keys"] = keys
	return `SELECT k, c.subject_key FROM unnest(@keys::text[]) AS k
		CROSS JOIN LATERAL (
			SELECT c.subject_key FROM claims c
			WHERE c.workspace_id = @ws AND c.subject_key = k AND (c.scope = 'shared' OR c.owner_agent = @agent)
			LIMIT 1) c
		UNION
		SELECT a.alias, a.subject_key FROM subject_aliases a
		WHERE a.workspace_id = @ws AND a.alias = ANY(@keys::text[])
		  AND EXISTS (SELECT 1 FROM claims c WHERE c.workspace_id = @ws AND c.subject_key = a.subject_key
		              AND (c.scope = 'shared' OR c.owner_agent = @agent))`, a
}

func scanKnown(rows pgx.Rows) (map[string][]string, error) {
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var k, s string
		if err := rows.Scan(&k, &s); err != nil {
			return nil, err
		}
		out[k] = append(out[k], s)
	}
	return out, rows.Err()
}

// vectorLiteral formats a query vector for a ::vector cast without depending on a registered vector type.
func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.Grow(len(v) * 10)
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%g", x)
	}
	b.WriteByte(']')
	return b.String()
}
