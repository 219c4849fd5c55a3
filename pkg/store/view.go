package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// The read model. A View says what one reader may see — its workspace and agent (visibility) and which
// beliefs count (bitemporal coordinates) — and every read of claims and their versions goes through the SQL
// fragments it builds, so no read path can forget a visibility or time filter. Belief is one claim with the
// version a view selected; Slot (slots.go) resolves a slot's current value from beliefs.

// Querier is what the read functions need: a pool, a connection or a transaction.
type Querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// Statuses of a belief version (claim_versions.status), as the reconciler writes them (see
// services/reconciler/doc.go for their meaning).
const (
	StatusActive      = "active"
	StatusSuperseded  = "superseded"
	StatusDisputed    = "disputed"
	StatusPending     = "pending"
	StatusRejected    = "rejected"
	StatusQuarantined = "quarantined"
)

// ScopeShared and ScopePrivate are the values of claims.scope.
const (
	ScopeShared  = "shared"
	ScopePrivate = "private"
)

// View is what one read may see.
type View struct {
	// Workspace and Agent: the reader. It sees the workspace's shared claims and its own private claims, never
	// another agent's private claims or another workspace.
	Workspace, Agent string
	// AsOf selects valid time: claims true in the world at that instant (nil: what is true now).
	AsOf *time.Time
	// KnownAt selects transaction time: the belief versions memory held at that instant (nil: current beliefs).
	KnownAt *time.Time
	// History also selects superseded versions, to co-surface them next to current ones.
	History bool
	// Quarantined also selects quarantined claims (content flagged as instructions to a model; see
	// pkg/promptguard). They are shown flagged and never become a slot's current value.
	Quarantined bool
}

// Present reports whether the view selects the beliefs of now and nothing else: no valid or transaction time,
// no history, no quarantined claims. Such a read can go from a slot or a subject straight to its current belief
// versions (presentVersions) instead of probing the version of every claim the slot or subject ever had.
func (v View) Present() bool {
	return v.AsOf == nil && v.KnownAt == nil && !v.History && !v.Quarantined
}

// presentVersions is the FROM clause of a present view's read of the current beliefs of the slots or subjects
// named by keys (a relation k with columns subject_key and slot_key, or subject_key alone when bySlot is
// false): the current versions come first, from claim_versions_present_slot_idx (migration 0056), and each
// one's claim after. The index's condition is the present's Belief and Status; the planner uses it only for a
// statement that states the same. The caller adds Visible.
func (v View) presentVersions(keys string, bySlot bool) string {
	slot := ""
	if bySlot {
		slot = ` AND v.slot_key = k.slot_key`
	}
	// Each key's versions and each version's claim are looked up in a LATERAL subquery that OFFSET 0 keeps
	// whole, so the only plans are the ones above, whatever the statistics estimate: a workspace grown since
	// the tables were analyzed is estimated at a row, and a join the planner was free to order then scanned
	// the workspace's claims once per claim (TestSubjectReadsOfAWorkspaceGrownSinceAnalyzeStayLinear).
	return keys + ` CROSS JOIN LATERAL (SELECT * FROM claim_versions v WHERE v.workspace_id = @ws AND v.subject_key = k.subject_key` + slot + `
			AND ` + v.Belief() + ` AND ` + v.Status() + ` OFFSET 0) v
		CROSS JOIN LATERAL (SELECT * FROM claims c WHERE c.id = v.claim_id OFFSET 0) c`
}

// keyedClaims is the FROM clause of any other view's read of the slots or subjects named by keys (as
// presentVersions): each key's claims by claims_subject_predicate_idx or claims_slot_idx, then each claim's
// versions the view believes, in LATERAL subqueries for the reason presentVersions gives. The caller adds
// Where.
func (v View) keyedClaims(keys string, bySlot bool) string {
	slot := ""
	if bySlot {
		slot = ` AND c.slot_key = k.slot_key`
	}
	return keys + `
		CROSS JOIN LATERAL (SELECT * FROM claims c WHERE c.workspace_id = @ws AND c.subject_key = k.subject_key` + slot + ` OFFSET 0) c
		CROSS JOIN LATERAL (SELECT * FROM claim_versions v WHERE v.claim_id = c.id AND ` + v.Belief() + ` OFFSET 0) v`
}

// Candidate reports whether a belief the view selected can be a current value: true now (not superseded), or,
// for an as-of read, valid at AsOf — a superseded restatement without a valid_to is represented by the claim
// that superseded it, so it is history there too. Quarantined claims never are.
func (v View) Candidate(b *Belief) bool {
	if b.Status == StatusQuarantined {
		return false
	}
	if v.AsOf == nil {
		return b.Status != StatusSuperseded
	}
	if b.Status == StatusSuperseded && b.ValidTo == nil {
		return false
	}
	return !b.ValidFrom.After(*v.AsOf) && (b.ValidTo == nil || b.ValidTo.After(*v.AsOf))
}

// Args returns the named arguments the fragments refer to (@ws, @agent, @as_of, @known_at); a caller adds its
// own.
func (v View) Args() pgx.NamedArgs {
	a := pgx.NamedArgs{"ws": v.Workspace, "agent": v.Agent}
	if v.AsOf != nil {
		a["as_of"] = *v.AsOf
	}
	if v.KnownAt != nil {
		a["known_at"] = *v.KnownAt
	}
	return a
}

// Visible restricts claims c to the workspace and to what the agent may read: its own private claims and the
// shared tier, never another agent's private claims.
func (v View) Visible() string {
	return `c.workspace_id = @ws AND ` + VisibleTo("c")
}

// VisibleTo is the tier filter for claims under alias: shared, or private to @agent. Use it for the other claims
// a read joins (both ends of an edge, both sides of a link), with Visible for the claim read.
func VisibleTo(alias string) string {
	return `(` + alias + `.scope = 'shared' OR ` + alias + `.owner_agent = @agent)`
}

// DecisionVisible restricts decisions d to the workspace and to the tiers the agent may read: the shared
// tier's decisions and those of its own private tier (a private tier's decisions name its claims), made by
// KnownAt when the view is set in transaction time.
func (v View) DecisionVisible() string {
	s := `d.workspace_id = @ws AND (d.scope = 'shared' OR d.owner_agent = @agent)`
	if v.KnownAt != nil {
		s += ` AND d.decided_at <= @known_at`
	}
	return s
}

// Belief selects, for claim versions v, the one version memory held at the transaction time of the view: the
// unretired version now, or the version whose [recorded_at, retired_at) contains known_at.
func (v View) Belief() string {
	if v.KnownAt == nil {
		return `v.retired_at IS NULL`
	}
	return `v.recorded_at <= @known_at AND (v.retired_at IS NULL OR v.retired_at > @known_at)`
}

// Status keeps the beliefs the view counts as true. Pending (awaiting confirmation), rejected and retracted
// claims are never presented as facts. With AsOf, a claim counts when its valid interval contains as_of;
// superseded claims count then too (they were true until their successor took over). Quarantined claims are
// selected only when the view asks for them.
func (v View) Status() string {
	s := v.trueStatus()
	if v.Quarantined {
		return `(` + s + ` OR v.status = 'quarantined')`
	}
	return s
}

func (v View) trueStatus() string {
	switch {
	case v.AsOf != nil && v.History:
		return `v.status IN ('active', 'disputed', 'superseded') AND v.valid_from <= @as_of`
	case v.AsOf != nil:
		return `v.status IN ('active', 'disputed', 'superseded') AND v.valid_from <= @as_of AND (v.valid_to IS NULL OR v.valid_to > @as_of)`
	case v.History:
		return `v.status IN ('active', 'disputed', 'superseded')`
	default:
		return `v.status IN ('active', 'disputed')`
	}
}

// Where is the full filter over claims c joined with their versions v.
func (v View) Where() string {
	return v.Visible() + " AND " + v.Status()
}

// BeliefColumns are the columns of a Belief, over claims c and claim_versions v, in ScanBelief's order.
const BeliefColumns = beliefOwnColumns + `,
	` + CorroborationCount + `,
	ARRAY(SELECT s.claim_id::text FROM supersedes s WHERE s.superseded_id = c.id ORDER BY s.claim_id), c.negated,
	` + supportConfidence

// BareBeliefColumns are BeliefColumns without what supports a claim, which costs three subqueries a row:
// Corroborations is 0, SupersededBy empty and SupportConfidence the claim's own confidence. For a read that only
// ranks or picks claims, and reads those it keeps again in full.
const BareBeliefColumns = beliefOwnColumns + `, 0, '{}'::text[], c.negated, c.confidence::float8`

// beliefOwnColumns are the columns of a Belief read from its claim and belief version rows alone.
const beliefOwnColumns = `c.id::text, c.text, c.subject, c.subject_key, c.predicate, c.predicate_key, c.slot_key,
	c.object, c.object_key, c.functional, c.scope, c.owner_agent, c.confidence::float8, c.sequence,
	v.status, v.valid_from, v.valid_to, v.recorded_at, v.retired_at, v.version, v.decision_id::text`

// CorroborationCount counts the distinct agents among the corroborating sources of claim c. The reconciler
// keys a source by its agent ("agent:<id>"); projections written before that rule keyed it by agent and turn
// or source reference ("agent:<id>/turn:<t>"), which are counted by their agent here, so one agent repeating
// itself never counts twice whatever wrote the rows.
const CorroborationCount = `(SELECT count(DISTINCT split_part(co.source, '/', 1)) FROM corroborations co WHERE co.claim_id = c.id)::int`

// supportConfidence combines the confidence of each corroborating agent (its highest among the claims through
// which it corroborates c) as independent evidence, noisy-OR: 1 − Π(1 − cᵢ). A claim only its owner asserted
// keeps its own confidence.
const supportConfidence = `coalesce((SELECT CASE WHEN max(s.m) >= 1 THEN 1 ELSE 1 - exp(sum(ln(1 - s.m)) FILTER (WHERE s.m < 1)) END
	FROM (SELECT max(cc.confidence)::float8 AS m FROM corroborations co JOIN claims cc ON cc.id = co.via_claim_id
	      WHERE co.claim_id = c.id GROUP BY split_part(co.source, '/', 1)) s), c.confidence::float8)`

// Belief is one claim with the belief version a view selected.
type Belief struct {
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
	// Corroborations counts the independent sources — distinct agents — asserting the claim's object in its
	// tier, its own included.
	Corroborations int
	// SupportConfidence is the corroborating agents' confidences combined as independent evidence (noisy-OR).
	SupportConfidence float64
	// SupersededBy are the claims drawn as superseding this one (supersedes edges).
	SupersededBy []string
	// Negated marks a negative assertion ("Alice has never used Zotero").
	Negated bool
	// Contradicts are the visible claims linked to this one as contradicting it (ContradictionLinks), in the
	// order the reader put them; filled by readers that load links.
	Contradicts []string
	// PredVec is the embedding of the predicate phrase in the claim's own tier (subject_predicates), when the
	// read asked for it and the model matched; nil otherwise.
	PredVec []float32
}

// ScanBelief scans one row of BeliefColumns (and, when the row has one more column, the predicate vector).
func ScanBelief(rows pgx.Rows) (Belief, error) {
	var r Belief
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

// CollectBeliefs scans every row of BeliefColumns and closes rows.
func CollectBeliefs(rows pgx.Rows) ([]Belief, error) {
	defer rows.Close()
	var out []Belief
	for rows.Next() {
		r, err := ScanBelief(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

func queryBeliefs(ctx context.Context, q Querier, sql string, a pgx.NamedArgs) ([]Belief, error) {
	rows, err := q.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	return CollectBeliefs(rows)
}

// ClaimsBySubjects returns the view's beliefs about the given subject keys, newest first, at most limit.
func ClaimsBySubjects(ctx context.Context, q Querier, v View, keys []string, limit int) ([]Belief, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	sql, a := ClaimsBySubjectsSQL(v, keys, limit, "")
	return queryBeliefs(ctx, q, sql, a)
}

// ClaimsBySubjectsSQL is ClaimsBySubjects' statement, for a caller that batches it. With model not empty each
// belief also carries the predicate phrase embedding of its own tier of that model (Belief.PredVec).
func ClaimsBySubjectsSQL(v View, keys []string, limit int, model string) (string, pgx.NamedArgs) {
	return claimsBySubjectsSQL(v, keys, limit, model, BeliefColumns)
}

// BareClaimsBySubjectsSQL is ClaimsBySubjectsSQL without the model's predicate embeddings and with
// BareBeliefColumns: for ranking a subject's claims, not for presenting them.
func BareClaimsBySubjectsSQL(v View, keys []string, limit int) (string, pgx.NamedArgs) {
	return claimsBySubjectsSQL(v, keys, limit, "", BareBeliefColumns)
}

func claimsBySubjectsSQL(v View, keys []string, limit int, model, cols string) (string, pgx.NamedArgs) {
	a := v.Args()
	a["keys"] = keys
	a["lim"] = limit
	join := ""
	if model != "" {
		a["model"] = model
		cols += `, sp.embedding::real[]`
		// The claim's own tier's predicate row (every tier records its own predicates), by its key: a join the
		// planner may order scans the table once per claim when the statistics are stale (presentVersions).
		join = ` LEFT JOIN LATERAL (SELECT sp.embedding FROM subject_predicates sp WHERE sp.workspace_id = c.workspace_id
			AND sp.subject_key = c.subject_key AND sp.tier_owner = CASE WHEN c.scope = 'shared' THEN '' ELSE c.owner_agent END
			AND sp.predicate_key = c.predicate_key AND sp.model = @model OFFSET 0) sp ON true`
	}
	keyList := `(SELECT DISTINCT unnest(@keys::text[]) AS subject_key) k`
	from, where := v.keyedClaims(keyList, false), v.Where()
	if v.Present() {
		from = v.presentVersions(keyList, false)
		where = v.Visible()
	}
	return `SELECT ` + cols + `
		FROM ` + from + join + `
		WHERE ` + where + `
		ORDER BY v.valid_from DESC, c.sequence DESC NULLS LAST, c.id
		LIMIT @lim`, a
}

// ClaimsByObject returns the view's beliefs whose object has one of the given object keys, newest first, at
// most limit.
func ClaimsByObject(ctx context.Context, q Querier, v View, objectKeys []string, limit int) ([]Belief, error) {
	a := v.Args()
	a["keys"] = objectKeys
	a["lim"] = limit
	return queryBeliefs(ctx, q, `SELECT `+BeliefColumns+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
		WHERE c.workspace_id = @ws AND c.object_key = ANY(@keys::text[]) AND `+v.Where()+`
		ORDER BY v.valid_from DESC, c.id
		LIMIT @lim`, a)
}

// ClaimsByID returns the view's beliefs of the given claim ids (those it selects; any order).
func ClaimsByID(ctx context.Context, q Querier, v View, ids []string) ([]Belief, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	a := v.Args()
	a["ids"] = ids
	return queryBeliefs(ctx, q, `SELECT `+BeliefColumns+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
		WHERE c.id = ANY(@ids::uuid[]) AND `+v.Where(), a)
}

// ClaimAsBelieved returns claim id as the view believed it — its version at KnownAt (or now), whatever its
// status — or nil when the claim is not visible or had no version then.
func ClaimAsBelieved(ctx context.Context, q Querier, v View, id string) (*Belief, error) {
	a := v.Args()
	a["id"] = id
	bs, err := queryBeliefs(ctx, q, `SELECT `+BeliefColumns+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
		WHERE c.id = @id::uuid AND `+v.Visible(), a)
	if err != nil || len(bs) == 0 {
		return nil, err
	}
	return &bs[0], nil
}

// slotClaimsLimit bounds the beliefs SlotClaimsOf returns.
const slotClaimsLimit = 2000

// SlotClaimsOf returns the beliefs the view selects of the slots of the given claims (the claims themselves
// included when the view selects them), oldest first, bounded: every belief of a slot that holds a single-valued
// claim, whose current value only the whole slot resolves; of an accumulating slot, whose current values are all
// of its values, the beliefs of the values the given claims name (a claim and its restatements).
func SlotClaimsOf(ctx context.Context, q Querier, v View, ids []string) ([]Belief, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	sql, a := SlotClaimsSQL(v, ids)
	return queryBeliefs(ctx, q, sql, a)
}

// SlotClaimsSQL is SlotClaimsOf's statement. A slot counts as single-valued when it holds a single-valued claim
// anyone wrote (claims_functional_slot_idx): the reader resolves a slot as single-valued when one of the claims
// it may see is, so a slot read whole for a claim it may not see is read as before, only at more cost.
func SlotClaimsSQL(v View, ids []string) (string, pgx.NamedArgs) {
	a := v.Args()
	a["ids"] = ids
	given := `WITH given AS MATERIALIZED (
			SELECT DISTINCT x.subject_key, x.slot_key, x.object_key, EXISTS (SELECT 1 FROM claims f
				WHERE f.workspace_id = @ws AND f.subject_key = x.subject_key AND f.slot_key = x.slot_key AND f.functional) AS whole
			FROM unnest(@ids::uuid[]) AS i(id) CROSS JOIN LATERAL (SELECT * FROM claims x
				WHERE x.id = i.id AND x.workspace_id = @ws OFFSET 0) x)`
	keys := `(SELECT DISTINCT g.subject_key, g.slot_key FROM given g WHERE g.whole) k`
	from, where := v.keyedClaims(keys, true), v.Where()
	if v.Present() {
		from, where = v.presentVersions(keys, true), v.Visible()
	}
	// An accumulating slot's values are found by object, subject and slot (claims_object_idx; a sentence
	// claim's object is its sentence). OFFSET 0 keeps the planner from looking them up by slot alone: it takes a
	// slot for a handful of claims, and a speaker's sentences are thousands (0.8 ms a value).
	values := `(SELECT DISTINCT g.subject_key, g.slot_key, g.object_key FROM given g WHERE NOT g.whole) o
		CROSS JOIN LATERAL (SELECT * FROM claims x WHERE x.workspace_id = @ws AND x.object_key = o.object_key
			AND x.subject_key = o.subject_key AND x.slot_key = o.slot_key OFFSET 0) c
		JOIN claim_versions v ON v.claim_id = c.id AND ` + v.Belief()
	return given + `
		SELECT r.* FROM (
			SELECT ` + BeliefColumns + ` FROM ` + from + ` WHERE ` + where + `
			UNION ALL
			SELECT ` + BeliefColumns + ` FROM ` + values + ` WHERE ` + v.Where() + `
		) r
		ORDER BY r.valid_from, r.sequence NULLS FIRST, r.id::uuid
		LIMIT ` + fmt.Sprint(slotClaimsLimit), a
}

// KnownSubjects returns which of the candidate keys name subjects of the workspace the agent can see, mapped
// to the canonical subject keys they denote (a key maps to itself, an alias to its subjects).
func KnownSubjects(ctx context.Context, q Querier, v View, keys []string) (map[string][]string, error) {
	if len(keys) == 0 {
		return map[string][]string{}, nil
	}
	sql, a := KnownSubjectsSQL(v, keys)
	rows, err := q.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	return ScanKnownSubjects(rows)
}

// KnownSubjectsSQL is KnownSubjects' statement, for a caller that batches it. It checks existence only: a
// subject whose claims the caller cannot see must not be revealed, so the check joins the visibility filter.
// Aliases are matched by their lower-cased surface form. Both halves look a subject up by its key, one row at
// most: with an EXISTS for the aliases the planner chose to scan the workspace's claims (hashed, or once per
// alias), and in one loadbench run that statement took 57 ms of every search (2,400 buffers a call) where
// another run of the same load took 1.9 ms.
func KnownSubjectsSQL(v View, keys []string) (string, pgx.NamedArgs) {
	a := v.Args()
	a["keys"] = keys
	return `SELECT k, c.subject_key FROM unnest(@keys::text[]) AS k
		CROSS JOIN LATERAL (
			SELECT c.subject_key FROM claims c
			WHERE c.workspace_id = @ws AND c.subject_key = k AND ` + VisibleTo("c") + `
			LIMIT 1) c
		UNION
		SELECT a.alias, a.subject_key FROM subject_aliases a
		CROSS JOIN LATERAL (
			SELECT 1 FROM claims c
			WHERE c.workspace_id = @ws AND c.subject_key = a.subject_key AND ` + VisibleTo("c") + `
			LIMIT 1) c
		WHERE a.workspace_id = @ws AND a.alias = ANY(@keys::text[])`, a
}

// ScanKnownSubjects scans the rows of KnownSubjectsSQL and closes them.
func ScanKnownSubjects(rows pgx.Rows) (map[string][]string, error) {
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
