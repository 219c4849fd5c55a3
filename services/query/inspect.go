package query

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sort"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
)

// timelineLimit bounds the versions one subject response carries.
const timelineLimit = 5000

// maxSubjectParamBytes bounds the subject_key path parameter.
const maxSubjectParamBytes = 512

// timesFromQuery reads the optional as_of and known_at query parameters.
func timesFromQuery(r *request) (asOf, knownAt *time.Time, err error) {
	q := r.URL.Query()
	get := func(name string) (*time.Time, error) {
		vals, ok := q[name]
		if !ok {
			return nil, nil
		}
		if len(vals) != 1 {
			return nil, badRequest(name, "%s must be given once", name)
		}
		v := vals[0]
		return parseTime(name, &v)
	}
	if asOf, err = get("as_of"); err != nil {
		return nil, nil, err
	}
	if knownAt, err = get("known_at"); err != nil {
		return nil, nil, err
	}
	for name := range q {
		if name != "as_of" && name != "known_at" {
			return nil, nil, badRequest(name, "unknown query parameter %q (known: as_of, known_at)", name)
		}
	}
	return asOf, knownAt, nil
}

func (s *Service) handleSubject(w http.ResponseWriter, r *request) error {
	raw := r.PathValue("subject_key")
	if err := checkPathText("subject_key", raw, maxSubjectParamBytes); err != nil {
		return err
	}
	asOf, knownAt, err := timesFromQuery(r)
	if err != nil {
		return err
	}
	v := view{ws: r.ws, agent: r.agent, asOf: asOf, knownAt: knownAt}
	key := canon.SubjectKey(raw)
	if key == "" {
		return badRequest("subject_key", "subject_key %q has no letters or digits", truncate(raw, 64))
	}
	res, err := s.subject(r.ctx, v, key)
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
			res, err = s.subject(r.ctx, v, subj[0])
			if err != nil {
				return err
			}
		}
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

// subject builds the timeline response, or nil when the subject has no visible claim.
func (s *Service) subject(ctx context.Context, v view, key string) (*api.SubjectResponse, error) {
	a := v.args()
	a["subj"] = key
	a["lim"] = timelineLimit + 1
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND v.recorded_at <= @known_at`
	}
	rows, err := s.db.Query(ctx, `SELECT c.id::text, c.text, c.subject, c.predicate, c.slot_key, c.object, c.scope,
			c.owner_agent, c.functional, c.sequence, v.version, v.status, v.valid_from, v.valid_to, v.recorded_at,
			v.retired_at, v.decision_id::text
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id
		WHERE c.workspace_id = @ws AND c.subject_key = @subj AND `+v.visible()+knownCut+`
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
	res := &api.SubjectResponse{Workspace: v.ws, SubjectKey: key, AsOf: v.asOf, KnownAt: v.knownAt, Current: []api.Claim{}, Slots: []api.Slot{}}
	if len(versions) > timelineLimit {
		versions = versions[:timelineLimit]
		res.Truncated = true
	}
	edges, err := s.edges(ctx, v, `c.subject_key = @subj`, a)
	if err != nil {
		return nil, err
	}
	decisions, err := s.decisions(ctx, v, `d.subject_key = @subj`, a)
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
		sl.Timeline = append(sl.Timeline, e)
	}
	for _, d := range decisions {
		if sl := bySlot[d.SlotKey]; sl != nil {
			sl.Decisions = append(sl.Decisions, d)
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

func collectVersions(rows pgx.Rows, knownAt *time.Time) ([]versionRow, error) {
	defer rows.Close()
	var out []versionRow
	for rows.Next() {
		var vr versionRow
		var validTo, retiredAt pgtype.Timestamptz
		var decision *string
		if err := rows.Scan(&vr.claimID, &vr.text, &vr.subject, &vr.predicate, &vr.slotKey, &vr.object, &vr.scope,
			&vr.owner, &vr.functional, &vr.sequence, &vr.entry.Version, &vr.entry.Status, &vr.entry.ValidFrom, &validTo,
			&vr.entry.RecordedAt, &retiredAt, &decision); err != nil {
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

// decisions loads the decisions selected by cond (over decisions d) that the caller may see: shared-tier
// decisions and those of its own private tier; with known_at, those made by then.
func (s *Service) decisions(ctx context.Context, v view, cond string, a pgx.NamedArgs) ([]api.Decision, error) {
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND d.decided_at <= @known_at`
	}
	rows, err := s.db.Query(ctx, `SELECT d.id::text, d.subject_key, d.slot_key, d.scope, coalesce(d.owner_agent, ''),
			d.operator, d.policy_version, d.inputs::text[], coalesce(d.winner::text, ''), d.losers::text[], d.outcome,
			d.reason, coalesce(d.judge_key, ''), d.decided_at
		FROM decisions d
		WHERE d.workspace_id = @ws AND `+cond+` AND (d.scope = 'shared' OR d.owner_agent = @agent)`+knownCut+`
		ORDER BY d.decided_at, d.partition, d.stream_seq, d.id
		LIMIT 5000`, a)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []api.Decision
	for rows.Next() {
		var d api.Decision
		if err := rows.Scan(&d.ID, &d.SubjectKey, &d.SlotKey, &d.Scope, &d.OwnerAgent, &d.Operator, &d.PolicyVersion,
			&d.Inputs, &d.Winner, &d.Losers, &d.Outcome, &d.Reason, &d.JudgeKey, &d.DecidedAt); err != nil {
			return nil, err
		}
		d.DecidedAt = d.DecidedAt.UTC()
		out = append(out, d)
	}
	return out, rows.Err()
}

func (s *Service) handleClaim(w http.ResponseWriter, r *request) error {
	raw := r.PathValue("id")
	id, err := uuid.Parse(raw)
	if err != nil || len(raw) != 36 {
		return badRequest("id", "id must be a claim id (a UUID such as 0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11), got %q", truncate(raw, 64))
	}
	asOf, knownAt, err := timesFromQuery(r)
	if err != nil {
		return err
	}
	if asOf != nil {
		return badRequest("as_of", "as_of does not apply to a single claim; use known_at for what memory believed at a time")
	}
	v := view{ws: r.ws, agent: r.agent, knownAt: knownAt}
	res, err := s.claimDetail(r.ctx, v, id.String())
	if err != nil {
		return err
	}
	if res == nil {
		return notFound("id", "claim %s is not visible to agent %q in workspace %q", id, r.agent, r.ws)
	}
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

// claimDetail builds the claim response, or nil when the claim does not exist for the caller (absent,
// another agent's private claim, another workspace, or not yet recorded at known_at).
func (s *Service) claimDetail(ctx context.Context, v view, id string) (*api.ClaimResponse, error) {
	a := v.args()
	a["id"] = id
	knownCut := ""
	if v.knownAt != nil {
		knownCut = ` AND v.recorded_at <= @known_at`
	}
	rows, err := s.db.Query(ctx, `SELECT c.id::text, c.text, c.subject, c.predicate, c.slot_key, c.object, c.scope,
			c.owner_agent, c.functional, c.sequence, v.version, v.status, v.valid_from, v.valid_to, v.recorded_at,
			v.retired_at, v.decision_id::text
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id
		WHERE c.id = @id::uuid AND `+v.visible()+knownCut+`
		ORDER BY v.version`, a)
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
	res := &api.ClaimResponse{Versions: []api.TimelineEntry{}, Decisions: []api.Decision{}}
	if len(cur) > 0 {
		res.Claim = item{claim: &cur[0]}.apiClaim()
	} else {
		// Every version was retired by known_at without a successor: show the last one.
		last := versions[len(versions)-1]
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
	for _, vr := range versions {
		e := vr.entry
		res.Versions = append(res.Versions, e)
	}
	a["subj"] = subjectKey
	a["slot"] = slotKey
	ds, err := s.decisions(ctx, v, `d.subject_key = @subj AND d.slot_key = @slot
		AND (@id::uuid = ANY(d.inputs) OR d.winner = @id::uuid OR @id::uuid = ANY(d.losers)
		     OR d.id IN (SELECT decision_id FROM claim_versions WHERE claim_id = @id::uuid AND decision_id IS NOT NULL))`, a)
	if err != nil {
		return nil, err
	}
	res.Decisions = append(res.Decisions, ds...)
	corr, err := s.db.Query(ctx, `SELECT source, via_claim_id::text, recorded_at FROM corroborations
		WHERE claim_id = @id::uuid ORDER BY recorded_at, source LIMIT 1000`, a)
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
		if v.knownAt == nil || !c.RecordedAt.After(*v.knownAt) {
			res.Corroborations = append(res.Corroborations, c)
		}
	}
	return res, corr.Err()
}
