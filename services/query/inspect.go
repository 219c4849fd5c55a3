package query

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
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
			return inspectParams{}, api.BadRequest(truncate(name, 64), "unknown query parameter %q (known: %s)", truncate(name, 64), strings.Join(known, ", "))
		}
		if len(q[name]) != 1 {
			return inspectParams{}, api.BadRequest(name, "%s must be given once", name)
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
		return 0, api.OutOfRange(name, limit, "%s must be a whole number from 0 to %d, got %q", name, limit, truncate(v, 32))
	case n > limit:
		return 0, api.OutOfRange(name, limit, "%s %d exceeds the limit %d", name, n, limit)
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
	bad := api.BadRequest(api.ParamDecisionsCursor, "decisions_cursor is not a cursor this server issued: pass decisions_next of the previous page unchanged")
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
		return api.BadRequest(api.ParamSlot, "decisions_cursor continues the decisions of one slot: give slot=<slot_key> of the slot whose decisions_next it is")
	}
	p.page.overall = api.MaxSubjectDecisions
	v := store.View{Workspace: r.ws, Agent: r.agent, AsOf: p.asOf, KnownAt: p.knownAt}
	key := canon.SubjectKey(raw)
	if key == "" {
		return api.BadRequest("subject_key", "subject_key %q has no letters or digits", truncate(raw, 64))
	}
	res, err := s.subject(r.ctx, v, key, p)
	if err != nil {
		return err
	}
	if res == nil {
		// An alias ("Alice" for alice_smith) names the subject when it is unambiguous.
		known, err := store.KnownSubjects(r.ctx, s.db, v, []string{key})
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
		return api.NotFound(api.ParamSlot, "no claim about subject %q in slot %q is visible to agent %q in workspace %q", key, truncate(p.slot, 64), r.agent, r.ws)
	}
	if res == nil {
		return api.NotFound("subject_key", "no claim about subject %q is visible to agent %q in workspace %q", key, r.agent, r.ws)
	}
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

// subject builds the timeline response, or nil when the subject (or the slot p.slot) has no visible claim.
func (s *Service) subject(ctx context.Context, v store.View, key string, p inspectParams) (*api.SubjectResponse, error) {
	target := store.Target{SubjectKey: key, SlotKey: p.slot}
	versions, err := store.Versions(ctx, s.db, v, target, timelineLimit+1, false)
	if err != nil {
		return nil, err
	}
	if len(versions) == 0 {
		return nil, nil
	}
	if c := p.page.after; c != nil && c.Key != slotChainKey(key, p.slot) {
		return nil, api.BadRequest(api.ParamDecisionsCursor, "decisions_cursor continues the decisions of another subject or slot than slot %q of %q", truncate(p.slot, 64), key)
	}
	res := &api.SubjectResponse{Workspace: v.Workspace, SubjectKey: key, AsOf: v.AsOf, KnownAt: v.KnownAt, Current: []api.Claim{}, Slots: []api.Slot{}}
	if len(versions) > timelineLimit {
		versions = versions[:timelineLimit]
		res.Truncated = true
	}
	edges, err := s.edges(ctx, v, target)
	if err != nil {
		return nil, err
	}
	links, err := s.contradictionLinks(ctx, v, target)
	if err != nil {
		return nil, err
	}
	chains, err := s.decisionChains(ctx, v, target, p.page, func(slot string) string { return slotChainKey(key, slot) })
	if err != nil {
		return nil, err
	}

	// Current beliefs, resolved per slot as search and answer resolve them.
	cur, err := store.ClaimsBySubjects(ctx, s.db, v, []string{key}, subjectClaimsLimit)
	if err != nil {
		return nil, err
	}
	slots := map[string]*store.Slot{}
	for _, sl := range store.GroupSlots(cur, v) {
		if p.slot != "" && sl.SlotKey != p.slot {
			continue
		}
		slots[sl.SlotKey] = sl
		for _, w := range sl.Winners {
			res.Current = append(res.Current, item{claim: w, slot: sl}.apiClaim())
		}
	}

	var latest time.Time
	bySlot := map[string]*api.Slot{}
	var order []string
	for _, vr := range versions {
		if !vr.ValidFrom.Before(latest) {
			latest = vr.ValidFrom
			res.Subject = vr.Subject
		}
		sl := bySlot[vr.SlotKey]
		if sl == nil {
			sl = &api.Slot{SlotKey: vr.SlotKey, Predicate: vr.Predicate, Current: []string{}, Timeline: []api.TimelineEntry{}, Decisions: []api.Decision{}}
			bySlot[vr.SlotKey] = sl
			order = append(order, vr.SlotKey)
		}
		sl.Functional = sl.Functional || vr.Functional
		e := timelineEntry(vr)
		e.SupersededBy = edges.by[vr.ClaimID]
		e.Supersedes = edges.of[vr.ClaimID]
		e.Contradicts = links[vr.ClaimID]
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
			sl.Current = idsOf(r.Winners)
			sl.Disputed = r.Disputed
		}
		res.Slots = append(res.Slots, *sl)
	}
	if res.Subject == "" {
		res.Subject = key
	}
	return res, nil
}

// timelineEntry is the wire form of a belief version (without its edges and links).
func timelineEntry(vr store.VersionEntry) api.TimelineEntry {
	return api.TimelineEntry{ClaimID: vr.ClaimID, Version: vr.Version, Text: vr.Text, Object: vr.Object, Scope: vr.Scope,
		Owner: vr.Owner, Sequence: vr.Sequence, Status: vr.Status, ValidFrom: vr.ValidFrom, ValidTo: vr.ValidTo,
		RecordedAt: vr.RecordedAt, RetiredAt: vr.RetiredAt, DecisionID: vr.DecisionID, Negated: vr.Negated,
		Corroborations: vr.Corroborations, Corroborated: vr.Corroborations >= store.CorroboratedAt}
}

// edgeSet indexes supersedes edges: by[x] are the claims that superseded x, of[x] the claims x superseded.
type edgeSet struct {
	by, of map[string][]api.SupersedesEdge
}

// edges loads the supersedes edges of the target that the caller may see (store.SupersedesEdges).
func (s *Service) edges(ctx context.Context, v store.View, t store.Target) (edgeSet, error) {
	es := edgeSet{by: map[string][]api.SupersedesEdge{}, of: map[string][]api.SupersedesEdge{}}
	edges, err := store.SupersedesEdges(ctx, s.db, v, t)
	for _, e := range edges {
		es.by[e.Loser] = append(es.by[e.Loser], api.SupersedesEdge{ClaimID: e.Winner, DecisionID: e.Decision})
		es.of[e.Winner] = append(es.of[e.Winner], api.SupersedesEdge{ClaimID: e.Loser, DecisionID: e.Decision})
	}
	return es, err
}

// contradictionLinks loads the contradiction links of the target that the caller may see
// (store.ContradictionLinks), indexed by each side: out[a] lists b and out[b] lists a.
func (s *Service) contradictionLinks(ctx context.Context, v store.View, t store.Target) (map[string][]api.ContradictionEdge, error) {
	links, err := store.ContradictionLinks(ctx, s.db, v, t)
	out := map[string][]api.ContradictionEdge{}
	for _, l := range links {
		out[l.ClaimA] = append(out[l.ClaimA], api.ContradictionEdge{ClaimID: l.ClaimB, DecisionID: l.Decision})
		out[l.ClaimB] = append(out[l.ClaimB], api.ContradictionEdge{ClaimID: l.ClaimA, DecisionID: l.Decision})
	}
	return out, err
}

// chainPage is one page of one decision chain: its decisions, the size of the whole chain, and the cursor
// of the next page ("" on the last).
type chainPage struct {
	decisions []api.Decision
	total     int
	next      string
}

// decisionChains loads page p of the target's decision chains the caller may see (store.DecisionChains), one
// per slot, with the cursor of each chain's next page; chainKey names a slot's chain in its cursor.
func (s *Service) decisionChains(ctx context.Context, v store.View, t store.Target, p decisionPage, chainKey func(slot string) string) (map[string]*chainPage, error) {
	page := store.DecisionPage{PerChain: p.limit, Overall: p.overall, Inputs: p.inputs}
	if c := p.after; c != nil {
		page.After = &store.DecisionPos{DecidedAt: c.DecidedAt, Partition: c.Partition, StreamSeq: c.StreamSeq, ID: c.ID}
	}
	chains, err := store.DecisionChains(ctx, s.db, v, t, page)
	if err != nil {
		return nil, err
	}
	out := make(map[string]*chainPage, len(chains))
	for slot, c := range chains {
		cp := &chainPage{decisions: make([]api.Decision, len(c.Decisions)), total: c.Total}
		for i, d := range c.Decisions {
			cp.decisions[i] = api.Decision{ID: d.ID, SubjectKey: d.SubjectKey, SlotKey: d.SlotKey, Scope: d.Scope,
				OwnerAgent: d.OwnerAgent, Operator: d.Operator, PolicyVersion: d.PolicyVersion, Inputs: d.Inputs,
				InputsTotal: d.InputsTotal, Winner: d.Winner, Losers: d.Losers, LosersTotal: d.LosersTotal,
				Outcome: d.Outcome, Reason: d.Reason, JudgeKey: d.JudgeKey, DecidedAt: d.Pos.DecidedAt}
		}
		out[slot] = cp
		if len(c.Decisions) >= c.Left {
			continue
		}
		var next decisionCursor
		switch {
		case len(c.Decisions) > 0:
			last := c.Decisions[len(c.Decisions)-1].Pos
			next = decisionCursor{DecidedAt: last.DecidedAt, Partition: last.Partition, StreamSeq: last.StreamSeq, ID: last.ID}
		case p.after != nil:
			next = *p.after // nothing of this slot fit: continue where this page was asked to start
		}
		next.Key = chainKey(slot)
		cp.next = next.encode()
	}
	return out, nil
}

func (s *Service) handleClaim(w http.ResponseWriter, r *request) error {
	raw := r.PathValue("id")
	id, err := uuid.Parse(raw)
	if err != nil || len(raw) != 36 {
		return api.BadRequest("id", "id must be a claim id (a UUID such as 0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11), got %q", truncate(raw, 64))
	}
	if r.URL.Query().Has("as_of") {
		return api.BadRequest("as_of", "as_of does not apply to a single claim; use known_at for what memory believed at a time")
	}
	p, err := inspectQuery(r, "known_at", api.ParamDecisionsLimit, api.ParamDecisionsCursor, api.ParamInputsLimit)
	if err != nil {
		return err
	}
	if c := p.page.after; c != nil && c.Key != id.String() {
		return api.BadRequest(api.ParamDecisionsCursor, "decisions_cursor continues the decisions of another claim than %s", id)
	}
	v := store.View{Workspace: r.ws, Agent: r.agent, KnownAt: p.knownAt}
	res, err := s.claimDetail(r.ctx, v, id.String(), p.page)
	if err != nil {
		return err
	}
	if res == nil {
		return api.NotFound("id", "claim %s is not visible to agent %q in workspace %q", id, r.agent, r.ws)
	}
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

// claimDetail builds the claim response with page p of its decision chain, or nil when the claim does not
// exist for the caller (absent, another agent's private claim, another workspace, or not yet recorded at
// known_at).
func (s *Service) claimDetail(ctx context.Context, v store.View, id string, p decisionPage) (*api.ClaimResponse, error) {
	target := store.Target{ClaimID: id}
	versions, err := store.Versions(ctx, s.db, v, target, api.MaxClaimVersions+1, false)
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
	cur, err := store.ClaimAsBelieved(ctx, s.db, v, id)
	if err != nil {
		return nil, err
	}
	if cur != nil {
		res.Claim = item{claim: cur}.apiClaim()
	} else {
		// Every version was retired by known_at without a successor: show the last one.
		last := versions[len(versions)-1]
		if res.VersionsTruncated {
			lv, err := store.Versions(ctx, s.db, v, target, 1, true)
			if err != nil {
				return nil, err
			}
			if len(lv) > 0 {
				last = lv[0]
			}
		}
		e := timelineEntry(last)
		res.Claim = api.Claim{ID: last.ClaimID, Text: last.Text, Subject: last.Subject, Predicate: last.Predicate,
			Object: last.Object, Functional: last.Functional, Status: e.Status, ValidFrom: e.ValidFrom,
			ValidTo: e.ValidTo, RecordedAt: e.RecordedAt, RetiredAt: e.RetiredAt,
			Sequence: last.Sequence, Scope: last.Scope, Owner: last.Owner}
	}
	origin, ok, err := store.ClaimOrigin(ctx, s.db, id)
	if err != nil || !ok {
		return nil, err
	}
	// Provenance is stored as the event's JSON; a shape this version does not know is shown as far as it decodes.
	_ = json.Unmarshal(origin.Provenance, &res.Provenance)
	if res.Provenance.AgentID == "" {
		res.Provenance.AgentID = res.Claim.Owner
	}
	if res.Claim.SubjectKey == "" {
		res.Claim.SubjectKey = origin.SubjectKey
	}
	edges, err := s.edges(ctx, v, target)
	if err != nil {
		return nil, err
	}
	res.SupersededBy = edges.by[id]
	res.Supersedes = edges.of[id]
	links, err := s.contradictionLinks(ctx, v, target)
	if err != nil {
		return nil, err
	}
	res.Contradicts = links[id]
	for _, vr := range versions {
		e := timelineEntry(vr)
		e.Contradicts = links[id]
		res.Versions = append(res.Versions, e)
	}
	target.SubjectKey, target.SlotKey = origin.SubjectKey, origin.SlotKey
	chains, err := s.decisionChains(ctx, v, target, p, func(string) string { return id })
	if err != nil {
		return nil, err
	}
	if c := chains[origin.SlotKey]; c != nil {
		res.Decisions, res.DecisionsTotal, res.DecisionsNext = c.decisions, c.total, c.next
	}
	corr, err := store.Corroborations(ctx, s.db, v, id, api.MaxCorroborations+1)
	if err != nil {
		return nil, err
	}
	for _, c := range corr {
		res.Corroborations = append(res.Corroborations, api.Corroboration{Source: c.Source, ViaClaimID: c.ViaClaimID, RecordedAt: c.RecordedAt})
	}
	if len(res.Corroborations) > api.MaxCorroborations {
		res.Corroborations = res.Corroborations[:api.MaxCorroborations]
		res.CorroborationsTruncated = true
	}
	return res, nil
}
