package store

import (
	"context"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"
)

// Inspection reads: a subject's or a claim's belief versions, supersedes edges, contradiction links, decision
// chains, corroborations and provenance, as one reader (View) may see them. Everything a version, edge, link or
// decision names passes the view's visibility filter; with View.KnownAt, only what memory held by then.

// Target is what an inspection read covers: a subject (SlotKey, when set, narrows it to one slot), or one claim
// (ClaimID; decision chains also need the claim's SubjectKey and SlotKey).
type Target struct {
	SubjectKey, SlotKey, ClaimID string
}

func (t Target) args(v View) pgx.NamedArgs {
	a := v.Args()
	a["subj"], a["slot"], a["id"] = t.SubjectKey, t.SlotKey, t.ClaimID
	return a
}

// claims selects the target's claims c.
func (t Target) claims() string {
	if t.ClaimID != "" {
		return `c.id = @id::uuid`
	}
	s := `c.subject_key = @subj`
	if t.SlotKey != "" {
		s += ` AND c.slot_key = @slot`
	}
	return s
}

// decisions selects the target's decisions d: those of the subject (or slot), and for a claim those of its slot
// that name it (as an input, the winner or a loser) or produced one of its versions.
func (t Target) decisions() string {
	s := `d.subject_key = @subj`
	if t.SlotKey != "" {
		s += ` AND d.slot_key = @slot`
	}
	if t.ClaimID != "" {
		s += ` AND (@id::uuid = ANY(d.inputs) OR d.winner = @id::uuid OR @id::uuid = ANY(d.losers)
		     OR d.id IN (SELECT decision_id FROM claim_versions WHERE claim_id = @id::uuid AND decision_id IS NOT NULL))`
	}
	return s
}

// links selects the target's contradiction links x: the subject's (a link never leaves its subject, so these are
// all the links its claims take part in), or the claim's.
func (t Target) links() string {
	if t.ClaimID != "" {
		return `(x.claim_a = @id::uuid OR x.claim_b = @id::uuid)`
	}
	return `x.subject_key = @subj`
}

// VersionEntry is one belief version of a claim, with the claim.
type VersionEntry struct {
	ClaimID, Text, Subject, Predicate, SlotKey, Object, Scope, Owner string
	Functional                                                       bool
	Sequence                                                         *int64
	Negated                                                          bool
	Version                                                          int
	Status                                                           string
	ValidFrom                                                        time.Time
	ValidTo                                                          *time.Time
	RecordedAt                                                       time.Time
	// RetiredAt is the end of the version's transaction time as seen from the view: nil when it was not
	// retired by KnownAt.
	RetiredAt  *time.Time
	DecisionID string
	// Corroborations counts the distinct agents corroborating the claim as memory knew them at the view's
	// KnownAt (all of them without it), the claim's own agent included.
	Corroborations int
}

// corroborationsKnown is CorroborationCount cut at the view's transaction time.
func corroborationsKnown(v View) string {
	cut := ""
	if v.KnownAt != nil {
		cut = ` AND co.recorded_at <= @known_at`
	}
	return `(SELECT count(DISTINCT split_part(co.source, '/', 1)) FROM corroborations co WHERE co.claim_id = c.id` + cut + `)::int`
}

// Versions returns the belief versions of the target's claims recorded by the view's KnownAt (all when it is
// not set), at most limit: a subject's by slot, valid time, sequence, claim and version; a claim's by version,
// newest first when newestFirst. Times are UTC.
func Versions(ctx context.Context, q Querier, v View, t Target, limit int, newestFirst bool) ([]VersionEntry, error) {
	a := t.args(v)
	a["lim"] = limit
	knownCut := ""
	if v.KnownAt != nil {
		knownCut = ` AND v.recorded_at <= @known_at`
	}
	order := `c.slot_key, v.valid_from, c.sequence NULLS FIRST, c.id, v.version`
	if t.ClaimID != "" {
		order = `v.version`
		if newestFirst {
			order += ` DESC`
		}
	}
	rows, err := q.Query(ctx, `SELECT c.id::text, c.text, c.subject, c.predicate, c.slot_key, c.object, c.scope,
			c.owner_agent, c.functional, c.sequence, v.version, v.status, v.valid_from, v.valid_to, v.recorded_at,
			v.retired_at, v.decision_id::text, c.negated, `+corroborationsKnown(v)+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id
		WHERE `+v.Visible()+` AND `+t.claims()+knownCut+`
		ORDER BY `+order+`
		LIMIT @lim`, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []VersionEntry
	for rows.Next() {
		var e VersionEntry
		var validTo, retiredAt pgtype.Timestamptz
		var decision *string
		if err := rows.Scan(&e.ClaimID, &e.Text, &e.Subject, &e.Predicate, &e.SlotKey, &e.Object, &e.Scope,
			&e.Owner, &e.Functional, &e.Sequence, &e.Version, &e.Status, &e.ValidFrom, &validTo,
			&e.RecordedAt, &retiredAt, &decision, &e.Negated, &e.Corroborations); err != nil {
			return nil, err
		}
		e.ValidFrom, e.RecordedAt = e.ValidFrom.UTC(), e.RecordedAt.UTC()
		if validTo.Valid {
			t := validTo.Time.UTC()
			e.ValidTo = &t
		}
		// Seen from known_at, a version retired later was not retired yet.
		if retiredAt.Valid && (v.KnownAt == nil || !retiredAt.Time.After(*v.KnownAt)) {
			t := retiredAt.Time.UTC()
			e.RetiredAt = &t
		}
		if decision != nil {
			e.DecisionID = *decision
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Edge is a supersedes edge: Winner superseded (or outranked) Loser by Decision.
type Edge struct{ Winner, Loser, Decision string }

// edgeLimit and linkLimit bound the edges and links one inspection read returns.
const (
	edgeLimit = 20000
	linkLimit = 20000
)

// SupersedesEdges returns the supersedes edges touching the target's claims whose both ends the view may see
// and, with KnownAt, whose decision was made by then; each edge once, by winner and loser.
func SupersedesEdges(ctx context.Context, q Querier, v View, t Target) ([]Edge, error) {
	knownCut := ""
	if v.KnownAt != nil {
		knownCut = ` AND (d.decided_at IS NULL OR d.decided_at <= @known_at)`
	}
	rows, err := q.Query(ctx, `SELECT s.claim_id::text, s.superseded_id::text, s.decision_id::text
		FROM claims c
		JOIN supersedes s ON s.superseded_id = c.id OR s.claim_id = c.id
		JOIN claims w ON w.id = s.claim_id
		JOIN claims l ON l.id = s.superseded_id
		LEFT JOIN decisions d ON d.id = s.decision_id
		WHERE `+v.Visible()+` AND `+t.claims()+`
		  AND `+VisibleTo("w")+` AND `+VisibleTo("l")+knownCut+`
		ORDER BY s.claim_id, s.superseded_id
		LIMIT `+strconv.Itoa(edgeLimit), t.args(v))
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Edge
	for rows.Next() {
		var e Edge
		if err := rows.Scan(&e.Winner, &e.Loser, &e.Decision); err != nil {
			return nil, err
		}
		if n := len(out); n > 0 && out[n-1].Winner == e.Winner && out[n-1].Loser == e.Loser {
			continue // both ends in the target: the join found the edge twice
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// Link is a contradiction link between ClaimA and ClaimB (ClaimA < ClaimB), recorded by Decision.
type Link struct {
	ClaimA, ClaimB, Decision string
	// Similarity is the cosine similarity of the two claims' embeddings.
	Similarity float64
}

// ContradictionLinks returns the target's contradiction links whose both sides the view may see and, with
// KnownAt, that were recorded by then, by their sides.
func ContradictionLinks(ctx context.Context, q Querier, v View, t Target) ([]Link, error) {
	knownCut := ""
	if v.KnownAt != nil {
		knownCut = ` AND x.recorded_at <= @known_at`
	}
	return queryLinks(ctx, q, `SELECT x.claim_a::text, x.claim_b::text, x.decision_id::text, x.similarity
		FROM contradictions x
		JOIN claims ca ON ca.id = x.claim_a
		JOIN claims cb ON cb.id = x.claim_b
		WHERE x.workspace_id = @ws AND `+t.links()+`
		  AND `+VisibleTo("ca")+` AND `+VisibleTo("cb")+knownCut+`
		ORDER BY x.claim_a, x.claim_b
		LIMIT `+strconv.Itoa(linkLimit), t.args(v))
}

// LinksOf returns every contradiction link of workspace ws that one of the given claims takes part in,
// whatever the other side: a caller that holds the claims it may show checks the other side itself.
func LinksOf(ctx context.Context, q Querier, ws string, ids []string) ([]Link, error) {
	return queryLinks(ctx, q, `SELECT claim_a::text, claim_b::text, decision_id::text, similarity FROM contradictions
		WHERE workspace_id = @ws AND (claim_a = ANY(@ids::uuid[]) OR claim_b = ANY(@ids::uuid[]))
		ORDER BY claim_a, claim_b`, pgx.NamedArgs{"ws": ws, "ids": ids})
}

func queryLinks(ctx context.Context, q Querier, sql string, a pgx.NamedArgs) ([]Link, error) {
	rows, err := q.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Link
	for rows.Next() {
		var l Link
		if err := rows.Scan(&l.ClaimA, &l.ClaimB, &l.Decision, &l.Similarity); err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}

// DecisionPos is a decision's place in the order of its chain: decided_at, partition, stream_seq, id.
type DecisionPos struct {
	DecidedAt time.Time
	Partition int32
	StreamSeq int64
	ID        string
}

// DecisionPage selects one page of decision chains (one chain per slot).
type DecisionPage struct {
	// PerChain and Overall cap the decisions of each chain and of the page; Inputs caps the input and loser
	// ids each decision carries.
	PerChain, Overall, Inputs int
	// After continues after this decision (nil, or an empty ID: from the start).
	After *DecisionPos
}

// DecisionEntry is one decision of a chain, its input and loser lists cut to the page's Inputs.
type DecisionEntry struct {
	ID, SubjectKey, SlotKey, Scope, OwnerAgent, Operator, PolicyVersion string
	Inputs                                                              []string
	InputsTotal                                                         int
	Winner                                                              string
	Losers                                                              []string
	LosersTotal                                                         int
	Outcome, Reason, JudgeKey                                           string
	Pos                                                                 DecisionPos
}

// Chain is one slot's page of decisions: the decisions on the page, in chain order, the size of the whole chain,
// and how many of its decisions come after the page's start.
type Chain struct {
	Decisions []DecisionEntry
	Total     int
	Left      int
}

// DecisionChains returns a page of the target's decisions the view may see (the shared tier's and the
// reader's own private tier's; with KnownAt, those made by then), one chain per slot: at most p.PerChain per
// slot and p.Overall in all, slots in key order ("C" collation). Every slot with a visible decision has a chain,
// empty when the limits leave no room. Only the ids a page shows leave the database: a decision of a busy
// accumulating slot names thousands of inputs.
func DecisionChains(ctx context.Context, q Querier, v View, t Target, p DecisionPage) (map[string]*Chain, error) {
	a := t.args(v)
	where := v.DecisionVisible() + ` AND ` + t.decisions()
	after := `true`
	if c := p.After; c != nil && c.ID != "" {
		after = `(d.decided_at, d.partition, d.stream_seq, d.id) > (@after_t::timestamptz, @after_p::int, @after_s::bigint, @after_i::uuid)`
		a["after_t"], a["after_p"], a["after_s"], a["after_i"] = c.DecidedAt, c.Partition, c.StreamSeq, c.ID
	}
	// The sizes first: the whole chain, and what is left of it after the cursor.
	rows, err := q.Query(ctx, `SELECT d.slot_key, count(*), count(*) FILTER (WHERE `+after+`)
		FROM decisions d WHERE `+where+` GROUP BY d.slot_key`, a)
	if err != nil {
		return nil, err
	}
	out := map[string]*Chain{}
	for rows.Next() {
		var slot string
		c := &Chain{Decisions: []DecisionEntry{}}
		if err := rows.Scan(&slot, &c.Total, &c.Left); err != nil {
			rows.Close()
			return nil, err
		}
		out[slot] = c
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 || p.PerChain <= 0 || p.Overall <= 0 {
		return out, nil
	}
	a["per_chain"], a["overall"], a["inputs"] = p.PerChain, p.Overall, p.Inputs
	rows, err = q.Query(ctx, `SELECT d.id::text, d.subject_key, d.slot_key, d.scope, coalesce(d.owner_agent, ''),
			d.operator, d.policy_version, d.inputs[1:@inputs::int]::text[], cardinality(d.inputs),
			coalesce(d.winner::text, ''), d.losers[1:@inputs::int]::text[], cardinality(d.losers), d.outcome,
			d.reason, coalesce(d.judge_key, ''), d.decided_at, d.partition, d.stream_seq
		FROM (SELECT d.*, row_number() OVER (PARTITION BY d.slot_key
				ORDER BY d.decided_at, d.partition, d.stream_seq, d.id) AS rn
			FROM decisions d WHERE `+where+` AND `+after+`) d
		WHERE d.rn <= @per_chain
		ORDER BY d.slot_key COLLATE "C", d.decided_at, d.partition, d.stream_seq, d.id
		LIMIT @overall`, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var d DecisionEntry
		if err := rows.Scan(&d.ID, &d.SubjectKey, &d.SlotKey, &d.Scope, &d.OwnerAgent, &d.Operator, &d.PolicyVersion,
			&d.Inputs, &d.InputsTotal, &d.Winner, &d.Losers, &d.LosersTotal, &d.Outcome, &d.Reason, &d.JudgeKey,
			&d.Pos.DecidedAt, &d.Pos.Partition, &d.Pos.StreamSeq); err != nil {
			return nil, err
		}
		d.Pos.DecidedAt = d.Pos.DecidedAt.UTC()
		d.Pos.ID = d.ID
		if d.Inputs == nil {
			d.Inputs = []string{}
		}
		if c := out[d.SlotKey]; c != nil {
			c.Decisions = append(c.Decisions, d)
		}
	}
	return out, rows.Err()
}

// Corroboration is one independent source of a claim's value.
type Corroboration struct {
	Source, ViaClaimID string
	RecordedAt         time.Time
}

// Corroborations returns the sources of claim id recorded by the view's KnownAt, oldest first, at most limit.
// The caller has checked that the view may see the claim.
func Corroborations(ctx context.Context, q Querier, v View, id string, limit int) ([]Corroboration, error) {
	a := v.Args()
	a["id"], a["lim"] = id, limit
	cut := ""
	if v.KnownAt != nil {
		cut = ` AND recorded_at <= @known_at`
	}
	rows, err := q.Query(ctx, `SELECT source, via_claim_id::text, recorded_at FROM corroborations
		WHERE claim_id = @id::uuid`+cut+` ORDER BY recorded_at, source LIMIT @lim`, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Corroboration
	for rows.Next() {
		var c Corroboration
		if err := rows.Scan(&c.Source, &c.ViaClaimID, &c.RecordedAt); err != nil {
			return nil, err
		}
		c.RecordedAt = c.RecordedAt.UTC()
		out = append(out, c)
	}
	return out, rows.Err()
}

// Origin is where a claim came from and where it lives.
type Origin struct {
	// Provenance is the event's provenance JSON as stored.
	Provenance          []byte
	SubjectKey, SlotKey string
}

// ClaimOrigin returns claim id's provenance, subject and slot; ok is false when there is no such claim. The
// caller has checked that the reader may see the claim.
func ClaimOrigin(ctx context.Context, q Querier, id string) (o Origin, ok bool, err error) {
	rows, err := q.Query(ctx, `SELECT provenance, subject_key, slot_key FROM claims WHERE id = $1::uuid`, id)
	if err != nil {
		return o, false, err
	}
	defer rows.Close()
	if !rows.Next() {
		return o, false, rows.Err()
	}
	if err := rows.Scan(&o.Provenance, &o.SubjectKey, &o.SlotKey); err != nil {
		return o, false, err
	}
	return o, true, nil
}
