package query

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
)

// timelineLimit bounds the versions one subject response carries.
const timelineLimit = 5000

// maxSubjectParamBytes bounds the subject_key path parameter and the slot query parameter.
const maxSubjectParamBytes = 512

// maxCursorBytes bounds the decisions_cursor query parameter; the server's cursors are far shorter.
const maxCursorBytes = 2048

// inspectParams are the query parameters of the inspection endpoints.
type inspectParams struct {
	asOf, knownAt *time.Time
	slot          string
	page          decisionPage
}

// decisionPage selects one page of decision chains.
type decisionPage struct {
	limit   int             // decisions per chain (a claim's, or each slot's)
	inputs  int             // input ids, and loser ids, per decision
	overall int             // decisions in the whole response
	after   *decisionCursor // continue after this decision; nil: from the start
}

// inspectQuery reads the query parameters named in known (as_of, known_at and the api.Param* names), each at
// most once; any other parameter is a 400 naming it.
func inspectQuery(r *request, known ...string) (inspectParams, error) {
	q := r.URL.Query()
	names := make([]string, 0, len(q))
	for name := range q {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if !slices.Contains(known, name) {
			return inspectParams{}, badRequest(truncate(name, 64), "unknown query parameter %q (known: %s)", truncate(name, 64), strings.Join(known, ", "))
		}
		if len(q[name]) != 1 {
			return inspectParams{}, badRequest(name, "%s must be given once", name)
		}
	}
	p := inspectParams{page: decisionPage{limit: api.DefaultDecisionsLimit, inputs: api.DefaultInputsLimit}}
	for _, name := range names {
		v := q.Get(name)
		var err error
		switch name {
		case "as_of":
			p.asOf, err = parseTime(name, &v)
		case "known_at":
			p.knownAt, err = parseTime(name, &v)
		case api.ParamDecisionsLimit:
			p.page.limit, err = countParam(name, v, api.MaxDecisionsLimit)
		case api.ParamInputsLimit:
			p.page.inputs, err = countParam(name, v, api.MaxInputsLimit)
		case api.ParamSlot:
			err = checkPathText(name, v, maxSubjectParamBytes)
			p.slot = v
		case api.ParamDecisionsCursor:
			p.page.after, err = decodeCursor(v)
		}
		if err != nil {
			return inspectParams{}, err
		}
	}
	p.page.overall = p.page.limit
	return p, nil
}

// countParam reads a whole number from 0 to limit.
func countParam(name, v string, limit int) (int, error) {
	n, err := strconv.Atoi(v)
	switch {
	case err != nil || n < 0:
		return 0, outOfRange(name, limit, "%s must be a whole number from 0 to %d, got %q", name, limit, truncate(v, 32))
	case n > limit:
		return 0, outOfRange(name, limit, "%s %d exceeds the limit %d", name, n, limit)
	}
	return n, nil
}

// decisionCursor is the position after which a page of one decision chain continues, in the chain's order
// (decided_at, partition, stream_seq, id). Key names the chain (a claim, or a subject's slot) so that a
// cursor cannot continue another one; an empty ID means the start of the chain. It travels as base64url
// JSON: opaque to callers, and keyset-based, so decisions recorded between two pages shift nothing.
type decisionCursor struct {
	Key       string    `json:"k"`
	DecidedAt time.Time `json:"t,omitzero"`
	Partition int32     `json:"p,omitempty"`
	StreamSeq int64     `json:"s,omitempty"`
	ID        string    `json:"i,omitempty"`
}

func (c decisionCursor) encode() string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string) (*decisionCursor, error) {
	bad := badRequest(api.ParamDecisionsCursor, "decisions_cursor is not a cursor this server issued: pass decisions_next of the previous page unchanged")
	if len(s) > maxCursorBytes {
		return nil, bad
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, bad
	}
	var c decisionCursor
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil || c.Key == "" {
		return nil, bad
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad // trailing data
	}
	if c.ID != "" {
		if _, err := uuid.Parse(c.ID); err != nil || len(c.ID) != 36 {
			return nil, bad
		}
	}
	return &c, nil
}

// slotChainKey names a subject's slot as a decision chain in cursors.
func slotChainKey(subjectKey, slotKey string) string { return "slot\n" + subjectKey + "\n" + slotKey }

func (s *Service) handleSubject(w http.ResponseWriter, r *request) error {
	raw := r.PathValue("subject_key")
	if err := checkPathText("subject_key", raw, maxSubjectParamBytes); err != nil {
		return err
	}
	p, err := inspectQuery(r, "as_of", "known_at", api.ParamSlot, api.ParamDecisionsLimit, api.ParamDecisionsCursor, api.ParamInputsLimit)
	if err != nil {
		return err
	}
	if p.page.after != nil && p.slot == "" {
		return badRequest(api.ParamSlot, "decisions_cursor continues the decisions of one slot: give slot=<slot_key> of the slot whose decisions_next it is")
	}
	p.page.overall = api.MaxSubjectDecisions
	v := view{ws: r.ws, agent: r.agent, asOf: p.asOf, knownAt: p.knownAt}
	key := canon.SubjectKey(raw)
	if key == "" {
		return badRequest("subject_key", "subject_key %q has no letters or digits", truncate(raw, 64))
	}
	res, err := s.subject(r.ctx, v, key, p)
	if err != nil {
		return err
	}
	if res == nil {
		// An alias ("Alice" for alice_smith) names the subject when it is unambiguous.
		known, err := knownSubjects(r.ctx, s.db, v, []string{key})
		if err != nil {
			return err
		}
		if subj := dedupe(known[key]); len(subj) == 1 && subj[0] != key {
			res, err = s.subject(r.ctx, v, subj[0], p)
			if err != nil {
				return err
			}
		}
	}
	if res == nil && p.slot != "" {
		return notFound(api.ParamSlot, "no claim about subject %q in slot %q is visible to agent %q in workspace %q", key, truncate(p.slot, 64), r.agent, r.ws)
	}
	if res == nil {
		return notFound("subject_key", "no claim about subject %q is visible to agent %q in workspace %q", key, r.agent, r.ws)
	}
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

// versionRow is one claim version for timelines.
type versionRow struct {
	claimID, text, subject, predicate, slotKey, object, scope, owner string
	functional                                                       bool
	sequence                                                         *int64
	entry                                                            api.TimelineEntry
}

// subject builds the timeline response, or nil when the subject (or the slot p.slot) has no visible claim.
func (s *Service) subject(ctx context.Context, v view, key string, p inspectParams) (*api.SubjectResponse, error) {
	a := v.args()
	a["subj"] = key
	a["lim"] = timelineLimit + 1
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND v.recorded_at <= @known_at`
	}
	inSubject := `c.subject_key = @subj`
	if p.slot != "" {
		inSubject += ` AND c.slot_key = @slot`
		a["slot"] = p.slot
	}
	rows, err := s.db.Query(ctx, `SELECT c.id::text, c.text, c.subject, c.predicate, c.slot_key, c.object, c.scope,
			c.owner_agent, c.functional, c.sequence, v.version, v.status, v.valid_from, v.valid_to, v.recorded_at,
			v.retired_at, v.decision_id::text, c.negated, `+corroborationsKnown(v)+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id
		WHERE c.workspace_id = @ws AND `+inSubject+` AND `+v.visible()+knownCut+`
		ORDER BY c.slot_key, v.valid_from, c.sequence NULLS FIRST, c.id, v.version
		LIMIT @lim`, a)
	if err != nil {
		return nil, err
	}
	versions, err := collectVersions(rows, v.knownAt)
	if err != nil {
		return nil, err
	}
	if len(versions) == 0 {
		return nil, nil
	}
	if c := p.page.after; c != nil && c.Key != slotChainKey(key, p.slot) {
		return nil, badRequest(api.ParamDecisionsCursor, "decisions_cursor continues the decisions of another subject or slot than slot %q of %q", truncate(p.slot, 64), key)
	}
	res := &api.SubjectResponse{Workspace: v.ws, SubjectKey: key, AsOf: v.asOf, KnownAt: v.knownAt, Current: []api.Claim{}, Slots: []api.Slot{}}
	if len(versions) > timelineLimit {
		versions = versions[:timelineLimit]
		res.Truncated = true
	}
	edges, err := s.edges(ctx, v, inSubject, a)
	if err != nil {
		return nil, err
	}
	// Both sides of a link are claims of the subject (the reconciler links within one subject), so the
	// subject's links are all the links its claims take part in.
	links, err := s.contradictionLinks(ctx, v, `x.subject_key = @subj`, a)
	if err != nil {
		return nil, err
	}
	chainCond := `d.subject_key = @subj`
	if p.slot != "" {
		chainCond += ` AND d.slot_key = @slot`
	}
	chains, err := s.decisionChains(ctx, v, chainCond, a, p.page, func(slot string) string { return slotChainKey(key, slot) })
	if err != nil {
		return nil, err
	}

	// Current beliefs, resolved per slot as search and answer resolve them.
	cur, err := claimsBySubjects(ctx, s.db, v, []string{key}, subjectClaimsLimit)
	if err != nil {
		return nil, err
	}
	slots := map[string]*slot{}
	for _, sl := range groupSlots(cur, v.agent, v) {
		if p.slot != "" && sl.slotKey != p.slot {
			continue
		}
		slots[sl.slotKey] = sl
		for _, w := range sl.winners {
			res.Current = append(res.Current, item{claim: w, slot: sl}.apiClaim())
		}
	}

	var latest time.Time
	bySlot := map[string]*api.Slot{}
	var order []string
	for i := range versions {
		vr := &versions[i]
		if !vr.entry.ValidFrom.Before(latest) {
			latest = vr.entry.ValidFrom
			res.Subject = vr.subject
		}
		sl := bySlot[vr.slotKey]
		if sl == nil {
			sl = &api.Slot{SlotKey: vr.slotKey, Predicate: vr.predicate, Current: []string{}, Timeline: []api.TimelineEntry{}, Decisions: []api.Decision{}}
			bySlot[vr.slotKey] = sl
			order = append(order, vr.slotKey)
		}
		sl.Functional = sl.Functional || vr.functional
		e := vr.entry
		e.SupersededBy = edges.by[vr.claimID]
		e.Supersedes = edges.of[vr.claimID]
		e.Contradicts = links[vr.claimID]
		sl.Timeline = append(sl.Timeline, e)
	}
	for slot, c := range chains {
		if sl := bySlot[slot]; sl != nil {
			sl.Decisions, sl.DecisionsTotal, sl.DecisionsNext = c.decisions, c.total, c.next
		}
	}
	sort.Strings(order)
	for _, k := range order {
		sl := bySlot[k]
		if r := slots[k]; r != nil {
			sl.Current = idsOf(r.winners)
			sl.Disputed = r.disputed
		}
		res.Slots = append(res.Slots, *sl)
	}
	if res.Subject == "" {
		res.Subject = key
	}
	return res, nil
}

// corroborationsKnown counts the distinct agents corroborating claim c as memory knew them at the view's
// transaction time (every row without known_at); see corroborationCount.
func corroborationsKnown(v view) string {
	cut := ""
	if v.knownAt != nil {
		cut = ` AND co.recorded_at <= @known_at`
	}
	return `(SELECT count(DISTINCT split_part(co.source, '/', 1)) FROM corroborations co WHERE co.claim_id = c.id` + cut + `)::int`
}

func collectVersions(rows pgx.Rows, knownAt *time.Time) ([]versionRow, error) {
	defer rows.Close()
	var out []versionRow
	for rows.Next() {
		var vr versionRow
		var validTo, retiredAt pgtype.Timestamptz
		var decision *string
		if err := rows.Scan(&vr.claimID, &vr.text, &vr.subject, &vr.predicate, &vr.slotKey, &vr.object, &vr.scope,
			&vr.owner, &vr.functional, &vr.sequence, &vr.entry.Version, &vr.entry.Status, &vr.entry.ValidFrom, &validTo,
			&vr.entry.RecordedAt, &retiredAt, &decision, &vr.entry.Negated, &vr.entry.Corroborations); err != nil {
			return nil, err
		}
		e := &vr.entry
		e.ClaimID, e.Text, e.Object, e.Scope, e.Owner, e.Sequence = vr.claimID, vr.text, vr.object, vr.scope, vr.owner, vr.sequence
		e.ValidFrom = e.ValidFrom.UTC()
		e.RecordedAt = e.RecordedAt.UTC()
		if validTo.Valid {
			t := validTo.Time.UTC()
			e.ValidTo = &t
		}
		// Seen from known_at, a version retired later was not retired yet.
		if retiredAt.Valid && (knownAt == nil || !retiredAt.Time.After(*knownAt)) {
			t := retiredAt.Time.UTC()
			e.RetiredAt = &t
		}
		if decision != nil {
			e.DecisionID = *decision
		}
		e.Corroborated = e.Corroborations >= corroboratedAt
		out = append(out, vr)
	}
	return out, rows.Err()
}

// edgeSet indexes supersedes edges: by[x] are the claims that superseded x, of[x] the claims x superseded.
type edgeSet struct {
	by, of map[string][]api.SupersedesEdge
}

// edges loads the supersedes edges touching claims selected by cond (over claims c), keeping only edges whose
// both ends the caller may see and, with known_at, whose decision was made by then.
func (s *Service) edges(ctx context.Context, v view, cond string, a pgx.NamedArgs) (edgeSet, error) {
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND (d.decided_at IS NULL OR d.decided_at <= @known_at)`
	}
	rows, err := s.db.Query(ctx, `SELECT s.claim_id::text, s.superseded_id::text, s.decision_id::text
		FROM claims c
		JOIN supersedes s ON s.superseded_id = c.id OR s.claim_id = c.id
		JOIN claims w ON w.id = s.claim_id
		JOIN claims l ON l.id = s.superseded_id
		LEFT JOIN decisions d ON d.id = s.decision_id
		WHERE c.workspace_id = @ws AND `+cond+` AND `+v.visible()+`
		  AND (w.scope = 'shared' OR w.owner_agent = @agent) AND (l.scope = 'shared' OR l.owner_agent = @agent)`+knownCut+`
		ORDER BY s.claim_id, s.superseded_id
		LIMIT 20000`, a)
	if err != nil {
		return edgeSet{}, err
	}
	defer rows.Close()
	es := edgeSet{by: map[string][]api.SupersedesEdge{}, of: map[string][]api.SupersedesEdge{}}
	seen := map[[2]string]bool{}
	for rows.Next() {
		var winner, loser, decision string
		if err := rows.Scan(&winner, &loser, &decision); err != nil {
			return edgeSet{}, err
		}
		if seen[[2]string{winner, loser}] {
			continue
		}
		seen[[2]string{winner, loser}] = true
		es.by[loser] = append(es.by[loser], api.SupersedesEdge{ClaimID: winner, DecisionID: decision})
		es.of[winner] = append(es.of[winner], api.SupersedesEdge{ClaimID: loser, DecisionID: decision})
	}
	return es, rows.Err()
}

// contradictionLinks loads the contradiction links selected by cond (over contradictions x) whose both sides
// the caller may see and, with known_at, that were recorded by then, indexed by each side: out[a] lists b and
// out[b] lists a.
func (s *Service) contradictionLinks(ctx context.Context, v view, cond string, a pgx.NamedArgs) (map[string][]api.ContradictionEdge, error) {
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND x.recorded_at <= @known_at`
	}
	rows, err := s.db.Query(ctx, `SELECT x.claim_a::text, x.claim_b::text, x.decision_id::text
		FROM contradictions x
		JOIN claims ca ON ca.id = x.claim_a
		JOIN claims cb ON cb.id = x.claim_b
		WHERE x.workspace_id = @ws AND `+cond+`
		  AND (ca.scope = 'shared' OR ca.owner_agent = @agent) AND (cb.scope = 'shared' OR cb.owner_agent = @agent)`+knownCut+`
		ORDER BY x.claim_a, x.claim_b
		LIMIT 20000`, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]api.ContradictionEdge{}
	for rows.Next() {
		var ca, cb, decision string
		if err := rows.Scan(&ca, &cb, &decision); err != nil {
			return nil, err
		}
		out[ca] = append(out[ca], api.ContradictionEdge{ClaimID: cb, DecisionID: decision})
		out[cb] = append(out[cb], api.ContradictionEdge{ClaimID: ca, DecisionID: decision})
	}
	return out, rows.Err()
}

// chainPage is one page of one decision chain: its decisions, the size of the whole chain, and the cursor
// of the next page ("" on the last).
type chainPage struct {
	decisions []api.Decision
	total     int
	next      string
}

// decisionChains loads a page of the decisions selected by cond (over decisions d) that the caller may see
// (shared-tier decisions and those of its own private tier; with known_at, those made by then), one chain per
// slot: at most p.limit decisions per slot and p.overall in all, slots in key order, each decision with at
// most p.inputs input and loser ids. chainKey names a slot's chain in its cursor. Every slot with a visible
// decision has a page, empty when the limits leave no room.
func (s *Service) decisionChains(ctx context.Context, v view, cond string, a pgx.NamedArgs, p decisionPage, chainKey func(slot string) string) (map[string]*chainPage, error) {
	where := `d.workspace_id = @ws AND ` + cond + ` AND (d.scope = 'shared' OR d.owner_agent = @agent)`
	if v.knownAt != nil {
		where += ` AND d.decided_at <= @known_at`
	}
	after := `true`
	if c := p.after; c != nil && c.ID != "" {
		after = `(d.decided_at, d.partition, d.stream_seq, d.id) > (@after_t::timestamptz, @after_p::int, @after_s::bigint, @after_i::uuid)`
		a["after_t"], a["after_p"], a["after_s"], a["after_i"] = c.DecidedAt, c.Partition, c.StreamSeq, c.ID
	}
	// The sizes first: the whole chain, and what is left of it after the cursor.
	rows, err := s.db.Query(ctx, `SELECT d.slot_key, count(*), count(*) FILTER (WHERE `+after+`)
		FROM decisions d WHERE `+where+` GROUP BY d.slot_key`, a)
	if err != nil {
		return nil, err
	}
	out := map[string]*chainPage{}
	left := map[string]int{}
	for rows.Next() {
		var slot string
		var total, rest int
		if err := rows.Scan(&slot, &total, &rest); err != nil {
			rows.Close()
			return nil, err
		}
		out[slot] = &chainPage{decisions: []api.Decision{}, total: total}
		left[slot] = rest
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	last := map[string]decisionCursor{}
	if len(out) > 0 && p.limit > 0 && p.overall > 0 {
		a["per_chain"], a["overall"], a["inputs"] = p.limit, p.overall, p.inputs
		// Only the ids a page shows leave the database: a decision of a busy accumulating slot names
		// thousands of inputs.
		rows, err := s.db.Query(ctx, `SELECT d.id::text, d.subject_key, d.slot_key, d.scope, coalesce(d.owner_agent, ''),
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
			var d api.Decision
			var pos decisionCursor
			if err := rows.Scan(&d.ID, &d.SubjectKey, &d.SlotKey, &d.Scope, &d.OwnerAgent, &d.Operator, &d.PolicyVersion,
				&d.Inputs, &d.InputsTotal, &d.Winner, &d.Losers, &d.LosersTotal, &d.Outcome, &d.Reason, &d.JudgeKey,
				&d.DecidedAt, &pos.Partition, &pos.StreamSeq); err != nil {
				return nil, err
			}
			d.DecidedAt = d.DecidedAt.UTC()
			if d.Inputs == nil {
				d.Inputs = []string{}
			}
			pos.DecidedAt, pos.ID = d.DecidedAt, d.ID
			last[d.SlotKey] = pos
			if c := out[d.SlotKey]; c != nil {
				c.decisions = append(c.decisions, d)
			}
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	for slot, c := range out {
		if len(c.decisions) >= left[slot] {
			continue
		}
		next, ok := last[slot]
		if !ok && p.after != nil {
			next = *p.after // nothing of this slot fit: continue where this page was asked to start
		}
		next.Key = chainKey(slot)
		c.next = next.encode()
	}
	return out, nil
}

func (s *Service) handleClaim(w http.ResponseWriter, r *request) error {
	raw := r.PathValue("id")
	id, err := uuid.Parse(raw)
	if err != nil || len(raw) != 36 {
		return badRequest("id", "id must be a claim id (a UUID such as 0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11), got %q", truncate(raw, 64))
	}
	if r.URL.Query().Has("as_of") {
		return badRequest("as_of", "as_of does not apply to a single claim; use known_at for what memory believed at a time")
	}
	p, err := inspectQuery(r, "known_at", api.ParamDecisionsLimit, api.ParamDecisionsCursor, api.ParamInputsLimit)
	if err != nil {
		return err
	}
	if c := p.page.after; c != nil && c.Key != id.String() {
		return badRequest(api.ParamDecisionsCursor, "decisions_cursor continues the decisions of another claim than %s", id)
	}
	v := view{ws: r.ws, agent: r.agent, knownAt: p.knownAt}
	res, err := s.claimDetail(r.ctx, v, id.String(), p.page)
	if err != nil {
		return err
	}
	if res == nil {
		return notFound("id", "claim %s is not visible to agent %q in workspace %q", id, r.agent, r.ws)
	}
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

// claimDetail builds the claim response with page p of its decision chain, or nil when the claim does not
// exist for the caller (absent, another agent's private claim, another workspace, or not yet recorded at
// known_at).
func (s *Service) claimDetail(ctx context.Context, v view, id string, p decisionPage) (*api.ClaimResponse, error) {
	a := v.args()
	a["id"] = id
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND v.recorded_at <= @known_at`
	}
	versionsOf := func(order string, limit int) ([]versionRow, error) {
		a["vlim"] = limit
		rows, err := s.db.Query(ctx, `SELECT c.id::text, c.text, c.subject, c.predicate, c.slot_key, c.object, c.scope,
				c.owner_agent, c.functional, c.sequence, v.version, v.status, v.valid_from, v.valid_to, v.recorded_at,
				v.retired_at, v.decision_id::text, c.negated, `+corroborationsKnown(v)+`
			FROM claims c JOIN claim_versions v ON v.claim_id = c.id
			WHERE c.id = @id::uuid AND `+v.visible()+knownCut+`
			ORDER BY v.version `+order+` LIMIT @vlim`, a)
		if err != nil {
			return nil, err
		}
		return collectVersions(rows, v.knownAt)
	}
	versions, err := versionsOf("ASC", api.MaxClaimVersions+1)
	if err != nil {
		return nil, err
	}
	if len(versions) == 0 {
		return nil, nil
	}
	res := &api.ClaimResponse{Versions: []api.TimelineEntry{}, Decisions: []api.Decision{}}
	if len(versions) > api.MaxClaimVersions {
		versions = versions[:api.MaxClaimVersions]
		res.VersionsTruncated = true
	}
	// The claim as believed at known_at (or now): its belief version, whatever its status.
	var cur []claimRow
	crow, err := s.db.Query(ctx, `SELECT `+claimColumns+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND `+v.belief()+`
		WHERE c.id = @id::uuid AND `+v.visible(), a)
	if err != nil {
		return nil, err
	}
	if cur, err = collectClaims(crow); err != nil {
		return nil, err
	}
	if len(cur) > 0 {
		res.Claim = item{claim: &cur[0]}.apiClaim()
	} else {
		// Every version was retired by known_at without a successor: show the last one.
		last := versions[len(versions)-1]
		if res.VersionsTruncated {
			lv, err := versionsOf("DESC", 1)
			if err != nil {
				return nil, err
			}
			if len(lv) > 0 {
				last = lv[0]
			}
		}
		res.Claim = api.Claim{ID: last.claimID, Text: last.text, Subject: last.subject, Predicate: last.predicate,
			Object: last.object, Functional: last.functional, Status: last.entry.Status, ValidFrom: last.entry.ValidFrom,
			ValidTo: last.entry.ValidTo, RecordedAt: last.entry.RecordedAt, RetiredAt: last.entry.RetiredAt,
			Sequence: last.sequence, Scope: last.scope, Owner: last.owner}
	}
	var prov []byte
	var subjectKey, slotKey string
	if err := s.db.QueryRow(ctx, `SELECT provenance, subject_key, slot_key FROM claims WHERE id = @id::uuid`, a).Scan(&prov, &subjectKey, &slotKey); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return nil, nil
		}
		return nil, err
	}
	// Provenance is stored as the event's JSON; a shape this version does not know is shown as far as it decodes.
	_ = json.Unmarshal(prov, &res.Provenance)
	if res.Provenance.AgentID == "" {
		res.Provenance.AgentID = res.Claim.Owner
	}
	if res.Claim.SubjectKey == "" {
		res.Claim.SubjectKey = subjectKey
	}
	edges, err := s.edges(ctx, v, `c.id = @id::uuid`, a)
	if err != nil {
		return nil, err
	}
	res.SupersededBy = edges.by[id]
	res.Supersedes = edges.of[id]
	links, err := s.contradictionLinks(ctx, v, `(x.claim_a = @id::uuid OR x.claim_b = @id::uuid)`, a)
	if err != nil {
		return nil, err
	}
	res.Contradicts = links[id]
	for _, vr := range versions {
		vr.entry.Contradicts = links[id]
		res.Versions = append(res.Versions, vr.entry)
	}
	a["subj"] = subjectKey
	a["slot"] = slotKey
	chains, err := s.decisionChains(ctx, v, `d.subject_key = @subj AND d.slot_key = @slot
		AND (@id::uuid = ANY(d.inputs) OR d.winner = @id::uuid OR @id::uuid = ANY(d.losers)
		     OR d.id IN (SELECT decision_id FROM claim_versions WHERE claim_id = @id::uuid AND decision_id IS NOT NULL))`,
		a, p, func(string) string { return id })
	if err != nil {
		return nil, err
	}
	if c := chains[slotKey]; c != nil {
		res.Decisions, res.DecisionsTotal, res.DecisionsNext = c.decisions, c.total, c.next
	}
	corrCut := ""
	if v.knownAt != nil {
		corrCut = ` AND recorded_at <= @known_at`
	}
	a["clim"] = api.MaxCorroborations + 1
	corr, err := s.db.Query(ctx, `SELECT source, via_claim_id::text, recorded_at FROM corroborations
		WHERE claim_id = @id::uuid`+corrCut+` ORDER BY recorded_at, source LIMIT @clim`, a)
	if err != nil {
		return nil, err
	}
	defer corr.Close()
	for corr.Next() {
		var c api.Corroboration
		if err := corr.Scan(&c.Source, &c.ViaClaimID, &c.RecordedAt); err != nil {
			return nil, err
		}
		c.RecordedAt = c.RecordedAt.UTC()
		res.Corroborations = append(res.Corroborations, c)
	}
	if len(res.Corroborations) > api.MaxCorroborations {
		res.Corroborations = res.Corroborations[:api.MaxCorroborations]
		res.CorroborationsTruncated = true
	}
	return res, corr.Err()
}
