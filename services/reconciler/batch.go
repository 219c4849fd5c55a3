package reconciler

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/pgvector/pgvector-go"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/promptguard"
	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// tierKey names a slot tier: the claims that compete with each other. Shared claims compete per slot in the
// workspace; private claims per slot and owner agent.
type tierKey struct{ ws, subject, slot, scope, owner string }

func (k tierKey) String() string {
	return k.ws + "\x00" + k.subject + "\x00" + k.slot + "\x00" + k.scope + "\x00" + k.owner
}

func tierOf(ws, subject, slot, scope, owner string) tierKey {
	if scope == string(event.ScopeShared) {
		owner = ""
	}
	return tierKey{ws: ws, subject: subject, slot: slot, scope: scope, owner: owner}
}

type subjKey struct{ ws, subject string }

// tclaim is one claim of a loaded tier with its current belief version.
type tclaim struct {
	id, objectKey, source, predicateKey, extractor, agent string
	subject, predicate, object, text                      string
	validFrom                                             time.Time
	seq                                                   *int64
	confidence                                            float32
	functional                                            bool
	streamSeq                                             int64

	version      int // 0: no version yet
	status       resolve.Status
	validTo      *time.Time
	supersededBy string
	newRow       int // index of the current version in batchState.versions, or -1 when it is in the database

	gate      *gateRow
	confirmed bool

	// screen is the promptguard rule that flagged the claim's content ("" when none); released says an
	// administrator released it. A flagged claim that is not released is quarantined.
	screen   string
	released bool
	// trust is the claim's source trust from the policy at arrival.
	trust float32
}

// quarantined reports whether the claim is held in quarantine.
func (c *tclaim) quarantined() bool { return c.screen != "" && !c.released }

type gateRow struct {
	state      string // pending, admitted, timed_out
	deadline   *time.Time
	onTimeout  string
	resolvedBy string
}

type tier struct {
	key      tierKey
	claims   []*tclaim
	byID     map[string]*tclaim
	verdicts map[resolve.Pair]bool

	// rc caches the operators' view of claims (same order) after a full fold, so that a hot slot resolved by
	// plain LWW is updated incrementally (resolve.FoldLWWAdded) instead of folded whole for every message. rcOK
	// is cleared by anything the incremental rule does not cover (gates, judge verdicts).
	rc         []resolve.Claim
	rcOK       bool
	plain      bool
	functional bool
}

func toResolve(c *tclaim) resolve.Claim {
	return resolve.Claim{ID: c.id, ObjectKey: c.objectKey, ValidFrom: c.validFrom, Sequence: c.seq,
		Confidence: c.confidence, Source: c.source,
		Held:         c.gate != nil && c.gate.state == "pending",
		GateRejected: c.gate != nil && c.gate.state == "timed_out" && c.gate.onTimeout == "reject",
		Quarantined:  c.quarantined(), Trust: c.trust}
}

// add inserts c keeping t.claims ordered by id: every loop over a tier then runs in the same order however the
// stream was cut into batches, which keeps decision reasons, gate notes and corroboration rows replay-identical.
func (t *tier) add(c *tclaim) {
	i, _ := slices.BinarySearchFunc(t.claims, c.id, func(e *tclaim, id string) int { return cmp.Compare(e.id, id) })
	t.claims = slices.Insert(t.claims, i, c)
	t.byID[c.id] = c
	if t.rcOK {
		t.rc = slices.Insert(t.rc, i, toResolve(c))
	}
}

type predRow struct {
	// tierOwner is "" for a predicate of the shared tier, else the agent whose private tier it belongs to.
	tierOwner                            string
	predicateKey, slotKey, phrase, model string
	embedding                            []float32
	similarity                           *float64
	firstClaim                           string
	streamSeq                            int64
}

type versionRow struct {
	claimID, ws  string
	version      int
	status       resolve.Status
	validFrom    time.Time
	validTo      *time.Time
	recordedAt   time.Time
	retiredAt    *time.Time
	decisionID   string
	supersededBy string
}

// dueGate is a pending await-confirmation gate with a deadline.
type dueGate struct {
	deadline time.Time
	claimID  string
}

type gateHeap []dueGate

func (h gateHeap) Len() int { return len(h) }
func (h gateHeap) Less(i, j int) bool {
	if c := h[i].deadline.Compare(h[j].deadline); c != 0 {
		return c < 0
	}
	return h[i].claimID < h[j].claimID
}
func (h gateHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *gateHeap) Push(x any)   { *h = append(*h, x.(dueGate)) }
func (h *gateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// batchState applies one segment of messages in memory over the tiers they touch (loaded with a few queries up
// front) and writes the outcome with a few bulk statements at the end, so a batch costs a constant number of
// round trips rather than several per message.
type batchState struct {
	e         *engine
	partition int

	tiers     map[tierKey]*tier
	claimTier map[string]tierKey
	preds     map[subjKey][]*predRow
	existing  map[string]bool
	confirmed map[string]bool
	released  map[string]bool
	due       gateHeap

	// Pending writes.
	claimRows    [][]any
	vectorRows   [][]any
	versions     []versionRow
	retireIDs    []string
	retireVers   []int32
	retireAt     []time.Time
	decisionRows [][]any
	edges        [][3]string
	corrob       []corrobRow
	aliases      map[[3]string]bool
	predRows     [][]any
	gates        map[string]*gateRow
	gateParts    map[string]int
	confirmRows  [][]any
	judgeRows    [][]any
	deadRows     [][]any
	dupRows      [][]any
	// failedErasures are erasures whose command was dead-lettered: their record says so.
	failedErasures []string
	// polar holds, per subject, the claims a newcomer of the other polarity may contradict (negation.go), and
	// contradictionRows the links found.
	polar             map[subjKey]*polarSet
	contradictionRows [][]any

	events []event.DecisionRecordedV1
}

type corrobRow struct {
	claimID, source, via string
	at                   time.Time
}

func newBatchState(e *engine, partition int) *batchState {
	return &batchState{
		e: e, partition: partition,
		tiers: map[tierKey]*tier{}, claimTier: map[string]tierKey{}, preds: map[subjKey][]*predRow{},
		existing: map[string]bool{}, confirmed: map[string]bool{}, released: map[string]bool{},
		aliases: map[[3]string]bool{}, gates: map[string]*gateRow{}, gateParts: map[string]int{},
		polar: map[subjKey]*polarSet{},
	}
}

// slotted is the pass-1 outcome for a claim item: its slot, or that it is a duplicate.
type slotted struct {
	duplicate bool
	slot      string
	note      string
}

// run applies items in order and writes the outcome. Gates due by horizon (if later than the last item) are
// also applied: a subject rebuild uses it to catch up with the partition's log time.
func (st *batchState) run(ctx context.Context, tx pgx.Tx, items []item, horizon time.Time) error {
	slots, err := st.prefetch(ctx, tx, items, horizon)
	if err != nil {
		return err
	}
	if err := st.loadPolarity(ctx, tx, items, slots); err != nil {
		return err
	}
	for i := range items {
		it := &items[i]
		if err := st.sweep(ctx, it.msg.Time); err != nil {
			return err
		}
		if it.dead != "" {
			st.deadRows = append(st.deadRows, []any{st.partition, int64(it.msg.Seq), nullable(it.ws), nullable(it.subject), nullable(it.agent), it.dead})
			if it.kind == kindErasure && it.erasure != nil {
				st.failedErasures = append(st.failedErasures, it.erasure.ErasureID)
			}
			continue
		}
		switch it.kind {
		case kindClaim:
			if slots[i].duplicate {
				st.dupRows = append(st.dupRows, []any{st.partition, int64(it.msg.Seq), it.claim.ClaimID})
				continue
			}
			if err := st.applyClaim(ctx, it, slots[i]); err != nil {
				return err
			}
		case kindConfirm:
			st.applyConfirm(it)
		}
	}
	if err := st.sweep(ctx, horizon); err != nil {
		return err
	}
	return st.flush(ctx, tx)
}

// sweepUntil applies every due gate up to t (rebuilds use it to catch up with the partition's log time).
func (st *batchState) sweep(ctx context.Context, t time.Time) error {
	for st.due.Len() > 0 && !st.due[0].deadline.After(t) {
		g := heap.Pop(&st.due).(dueGate)
		st.timeout(g)
	}
	return nil
}

func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// prefetch loads what the segment needs: which claims exist, explicit confirmations, the subjects' predicates,
// due gates and every tier touched. It resolves slots (pass 1) on the way, because tiers are keyed by slot.
func (st *batchState) prefetch(ctx context.Context, tx pgx.Tx, items []item, horizon time.Time) ([]slotted, error) {
	var ids []string
	subjects := map[subjKey]bool{}
	maxTime := horizon
	for _, it := range items {
		if it.msg.Time.After(maxTime) {
			maxTime = it.msg.Time
		}
		if it.dead != "" {
			continue
		}
		switch it.kind {
		case kindClaim:
			ids = append(ids, it.claim.ClaimID)
			subjects[subjKey{it.claim.Workspace, it.claim.SubjectKey}] = true
		case kindConfirm:
			ids = append(ids, it.confirm.ClaimID)
		}
	}
	tierSet := map[tierKey]bool{}
	if len(ids) > 0 {
		rows, err := tx.Query(ctx, `SELECT id::text, workspace_id, subject_key, slot_key, scope, owner_agent FROM claims WHERE id = ANY($1::uuid[])`, ids)
		if err != nil {
			return nil, fmt.Errorf("reconciler: look up claims: %w", err)
		}
		for rows.Next() {
			var id, ws, subject, slot, scope, owner string
			if err := rows.Scan(&id, &ws, &subject, &slot, &scope, &owner); err != nil {
				rows.Close()
				return nil, err
			}
			st.existing[id] = true
			k := tierOf(ws, subject, slot, scope, owner)
			st.claimTier[id] = k
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("reconciler: look up claims: %w", err)
		}
		rows, err = tx.Query(ctx, `SELECT claim_id::text, bool_or(releases) FROM confirmations WHERE claim_id = ANY($1::uuid[]) GROUP BY claim_id`, ids)
		if err != nil {
			return nil, fmt.Errorf("reconciler: look up confirmations: %w", err)
		}
		for rows.Next() {
			var id string
			var releases bool
			if err := rows.Scan(&id, &releases); err != nil {
				rows.Close()
				return nil, err
			}
			st.confirmed[id] = true
			st.released[id] = st.released[id] || releases
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, fmt.Errorf("reconciler: look up confirmations: %w", err)
		}
		// Confirmation targets that exist need their tiers.
		for _, it := range items {
			if it.dead == "" && it.kind == kindConfirm {
				if k, ok := st.claimTier[it.confirm.ClaimID]; ok {
					tierSet[k] = true
				}
			}
		}
	}
	if err := st.loadPredicates(ctx, tx, subjects); err != nil {
		return nil, err
	}
	// Pass 1: slot identity, in stream order (a predicate first seen earlier in the segment can absorb a later
	// paraphrase).
	slots := make([]slotted, len(items))
	for i, it := range items {
		if it.dead != "" || it.kind != kindClaim {
			continue
		}
		c := it.claim
		if st.existing[c.ClaimID] {
			slots[i].duplicate = true
			continue
		}
		st.existing[c.ClaimID] = true
		slots[i].slot, slots[i].note = st.slotFor(it)
		k := tierOf(c.Workspace, c.SubjectKey, slots[i].slot, string(c.Scope), c.Provenance.AgentID)
		tierSet[k] = true
		st.claimTier[c.ClaimID] = k
	}
	// Gates that fall due within this segment's log time.
	rows, err := tx.Query(ctx, `SELECT g.claim_id::text, g.deadline, c.workspace_id, c.subject_key, c.slot_key, c.scope, c.owner_agent
		FROM claim_gates g JOIN claims c ON c.id = g.claim_id
		WHERE g.partition = $1 AND g.state = 'pending' AND g.deadline <= $2`, st.partition, maxTime)
	if err != nil {
		return nil, fmt.Errorf("reconciler: due gates: %w", err)
	}
	for rows.Next() {
		var id, ws, subject, slot, scope, owner string
		var deadline time.Time
		if err := rows.Scan(&id, &deadline, &ws, &subject, &slot, &scope, &owner); err != nil {
			rows.Close()
			return nil, err
		}
		k := tierOf(ws, subject, slot, scope, owner)
		tierSet[k] = true
		st.claimTier[id] = k
		heap.Push(&st.due, dueGate{deadline: deadline.UTC(), claimID: id})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("reconciler: due gates: %w", err)
	}
	if err := st.loadTiers(ctx, tx, tierSet); err != nil {
		return nil, err
	}
	return slots, nil
}

func (st *batchState) loadPredicates(ctx context.Context, tx pgx.Tx, subjects map[subjKey]bool) error {
	if len(subjects) == 0 {
		return nil
	}
	var wss, subs []string
	for k := range subjects {
		wss = append(wss, k.ws)
		subs = append(subs, k.subject)
		st.preds[k] = nil
	}
	rows, err := tx.Query(ctx, `SELECT p.workspace_id, p.subject_key, p.tier_owner, p.predicate_key, p.slot_key, p.model, p.embedding
		FROM subject_predicates p JOIN unnest($1::text[], $2::text[]) AS k(ws, subject)
		  ON p.workspace_id = k.ws AND p.subject_key = k.subject
		ORDER BY p.tier_owner COLLATE "C", p.predicate_key COLLATE "C"`, wss, subs)
	if err != nil {
		return fmt.Errorf("reconciler: load predicates: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var ws, subject string
		p := &predRow{}
		var emb *pgvector.Vector
		if err := rows.Scan(&ws, &subject, &p.tierOwner, &p.predicateKey, &p.slotKey, &p.model, &emb); err != nil {
			return fmt.Errorf("reconciler: load predicates: %w", err)
		}
		if emb != nil {
			p.embedding = emb.Slice()
		}
		k := subjKey{ws, subject}
		st.preds[k] = append(st.preds[k], p)
	}
	return rows.Err()
}

// slotFor decides the slot of a new claim from the predicates its own tier may see — never across tiers: a
// shared claim sees the shared tier's predicates; a private claim sees its owner's private predicates and the
// shared ones (a private claim may join a shared slot, which reveals nothing; the reverse would show the
// private predicate to every agent). The slot is the one its predicate key already has in its own tier, else
// (a private claim) the one the shared tier gives the same key, else the slot of the most similar visible
// predicate of the subject (cosine ≥ the configured threshold; ties to the smallest predicate key, then the
// shared tier), else a new slot named by its own predicate key. Every tier records its own predicates, so the
// rows do not depend on which tier spoke first. A quarantined claim joins an existing slot or its own but
// records no predicate: its wording never becomes a slot other claims merge into.
func (st *batchState) slotFor(it item) (slot, note string) {
	c := it.claim
	k := subjKey{c.Workspace, c.SubjectKey}
	owner := ""
	if c.Scope == event.ScopePrivate {
		owner = c.Provenance.AgentID
	}
	visible := func(p *predRow) bool { return p.tierOwner == "" || p.tierOwner == owner }
	// Polarity is part of a predicate's identity: "has used" and "has never used" are different slots.
	pk := polarKey(c.PredicateKey, c.Negated)
	var shared *predRow
	for _, p := range st.preds[k] {
		if p.predicateKey != pk {
			continue
		}
		if p.tierOwner == owner {
			return p.slotKey, ""
		}
		if p.tierOwner == "" {
			shared = p
		}
	}
	if shared != nil {
		if it.screen == "" {
			st.addPredicate(it, owner, pk, shared.slotKey, nil)
		}
		return shared.slotKey, ""
	}
	slot = pk
	var best *predRow
	var bestSim float64
	pe := c.PredicateEmbedding
	if st.e.cfg.PredicateMerge && pe.Dim > 0 {
		for _, p := range st.preds[k] {
			if !visible(p) || p.model != pe.Model || len(p.embedding) != len(pe.Values) || negatedKey(p.predicateKey) != c.Negated {
				continue
			}
			sim := cosine(p.embedding, pe.Values)
			if sim < st.e.cfg.PredicateSimilarity {
				continue
			}
			if best == nil || sim > bestSim || (sim == bestSim && (p.predicateKey < best.predicateKey ||
				p.predicateKey == best.predicateKey && p.tierOwner < best.tierOwner)) {
				best, bestSim = p, sim
			}
		}
	}
	if best == nil && st.e.cfg.PredicateMerge {
		// "my number" after "my phone number": a bare head noun joins the one slot of its compound
		// (canon.SameHead), when exactly one slot of the subject has that head.
		var head *predRow
		for _, p := range st.preds[k] {
			if !visible(p) || negatedKey(p.predicateKey) != c.Negated || !canon.SameHead(strings.TrimPrefix(p.predicateKey, "not:"), c.PredicateKey) {
				continue
			}
			if head != nil && head.slotKey != p.slotKey {
				head = nil
				break
			}
			if head == nil {
				head = p
			}
		}
		if head != nil {
			note = fmt.Sprintf("slot: predicate %q joined slot %q (the same head noun as %q)", pk, head.slotKey, head.predicateKey)
			if it.screen == "" {
				st.addPredicate(it, owner, pk, head.slotKey, nil)
			}
			return head.slotKey, note
		}
	}
	var sim *float64
	if best != nil {
		slot = best.slotKey
		s := bestSim
		sim = &s
		note = fmt.Sprintf("slot: predicate %q merged into slot %q (cosine %.4f with %q >= %g)", pk, best.slotKey, bestSim, best.predicateKey, st.e.cfg.PredicateSimilarity)
	}
	if it.screen == "" {
		st.addPredicate(it, owner, pk, slot, sim)
	}
	return slot, note
}

// addPredicate records a predicate of a subject in the tier of owner ("" for shared) and the slot it joined.
func (st *batchState) addPredicate(it item, owner, pk, slot string, sim *float64) {
	c := it.claim
	k := subjKey{c.Workspace, c.SubjectKey}
	pe := c.PredicateEmbedding
	row := &predRow{tierOwner: owner, predicateKey: pk, slotKey: slot, phrase: c.Predicate, model: pe.Model,
		embedding: pe.Values, similarity: sim, firstClaim: c.ClaimID, streamSeq: int64(it.msg.Seq)}
	st.preds[k] = append(st.preds[k], row)
	var emb any
	if pe.Dim > 0 {
		emb = pgvector.NewVector(pe.Values)
	}
	st.predRows = append(st.predRows, []any{c.Workspace, c.SubjectKey, owner, row.predicateKey, row.slotKey, row.phrase, row.model,
		emb, row.similarity, c.ClaimID, row.streamSeq})
}

// cosine is computed in float64 with explicit conversions, which forbid fused multiply-add: the same inputs give
// the same bits on every architecture, so a replay elsewhere merges the same predicates.
func cosine(a, b []float32) float64 {
	var dot, na, nb float64
	for i := range a {
		x, y := float64(a[i]), float64(b[i])
		dot += float64(x * y)
		na += float64(x * x)
		nb += float64(y * y)
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / (math.Sqrt(na) * math.Sqrt(nb))
}

func (st *batchState) loadTiers(ctx context.Context, tx pgx.Tx, set map[tierKey]bool) error {
	if len(set) == 0 {
		return nil
	}
	var wss, subs, slots, scopes, owners []string
	keys := make([]tierKey, 0, len(set))
	for k := range set {
		if _, ok := st.tiers[k]; ok {
			continue
		}
		keys = append(keys, k)
		st.tiers[k] = &tier{key: k, byID: map[string]*tclaim{}, verdicts: map[resolve.Pair]bool{}}
		wss, subs, slots = append(wss, k.ws), append(subs, k.subject), append(slots, k.slot)
		scopes, owners = append(scopes, k.scope), append(owners, k.owner)
	}
	if len(keys) == 0 {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT c.workspace_id, c.subject_key, c.slot_key, c.scope, c.owner_agent,
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
	if err != nil {
		return fmt.Errorf("reconciler: load tiers: %w", err)
	}
	var judgeIDs []string
	for rows.Next() {
		var ws, subject, slot, scope, owner, status string
		c := &tclaim{newRow: -1}
		var gState, gOnTimeout, gResolved *string
		var gDeadline *time.Time
		if err := rows.Scan(&ws, &subject, &slot, &scope, &owner,
			&c.id, &c.objectKey, &c.source, &c.predicateKey, &c.extractor, &c.subject, &c.predicate, &c.object, &c.text,
			&c.validFrom, &c.seq, &c.confidence, &c.functional, &c.streamSeq,
			&c.version, &status, &c.validTo, &c.supersededBy,
			&gState, &gDeadline, &gOnTimeout, &gResolved, &c.confirmed, &c.screen, &c.trust, &c.released); err != nil {
			rows.Close()
			return fmt.Errorf("reconciler: load tiers: %w", err)
		}
		c.agent = owner
		c.validFrom = c.validFrom.UTC()
		if c.validTo != nil {
			t := c.validTo.UTC()
			c.validTo = &t
		}
		c.status = resolve.Status(status)
		if gState != nil {
			c.gate = &gateRow{state: *gState, deadline: gDeadline, onTimeout: deref(gOnTimeout), resolvedBy: deref(gResolved)}
			if gDeadline != nil {
				d := gDeadline.UTC()
				c.gate.deadline = &d
			}
		}
		k := tierOf(ws, subject, slot, scope, owner)
		t := st.tiers[k]
		t.claims = append(t.claims, c) // sorted below
		t.byID[c.id] = c
		st.claimTier[c.id] = k
		if st.e.policy.forSlot(slot, scope).judge != judgeNone {
			judgeIDs = append(judgeIDs, c.id)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reconciler: load tiers: %w", err)
	}
	for _, t := range st.tiers {
		slices.SortFunc(t.claims, func(a, b *tclaim) int { return cmp.Compare(a.id, b.id) })
	}
	if len(judgeIDs) == 0 {
		return nil
	}
	jrows, err := tx.Query(ctx, `SELECT claim_a::text, claim_b::text, contradicts FROM judgements WHERE claim_a = ANY($1::uuid[]) OR claim_b = ANY($1::uuid[])`, judgeIDs)
	if err != nil {
		return fmt.Errorf("reconciler: load judgements: %w", err)
	}
	defer jrows.Close()
	for jrows.Next() {
		var a, b string
		var contra bool
		if err := jrows.Scan(&a, &b, &contra); err != nil {
			return err
		}
		if k, ok := st.claimTier[a]; ok {
			st.tiers[k].verdicts[resolve.PairOf(a, b)] = contra
		}
	}
	return jrows.Err()
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// functional reports whether the tier's slot is single-valued: the policy's override, else whether any of its
// claims says so (a set property, so independent of arrival order).
func (t *tier) isFunctional(r slotRules) bool {
	if r.functional != nil {
		return *r.functional
	}
	for _, c := range t.claims {
		if c.functional {
			return true
		}
	}
	return false
}

func (t *tier) input(r slotRules) resolve.Input {
	in := resolve.Input{Ranker: r.ranker, Functional: t.isFunctional(r), Verdicts: t.verdicts}
	in.Claims = make([]resolve.Claim, len(t.claims))
	for i, c := range t.claims {
		in.Claims[i] = toResolve(c)
	}
	return in
}

// operatorName is the pipeline that decided the tier, e.g. "await_confirmation|lww+judge".
func (t *tier) operatorName(r slotRules) string {
	var parts []string
	for _, c := range t.claims {
		if c.gate != nil {
			parts = append(parts, "await_confirmation")
			break
		}
	}
	rank := string(r.ranker)
	if r.ranker == resolve.LWW && !t.isFunctional(r) {
		rank = "accumulate"
	}
	if r.judge != judgeNone {
		rank += "+judge"
	}
	return strings.Join(append(parts, rank), "|")
}

func live(s resolve.Status) bool {
	return s == resolve.Active || s == resolve.Disputed || s == resolve.Pending
}

func (st *batchState) applyClaim(ctx context.Context, it *item, sl slotted) error {
	if st.e.faultHook != nil {
		if err := st.e.faultHook(it); err != nil {
			return err
		}
	}
	c := it.claim
	at := it.msg.Time
	k := st.claimTier[c.ClaimID]
	t := st.tiers[k]
	if t == nil {
		t = &tier{key: k, byID: map[string]*tclaim{}, verdicts: map[resolve.Pair]bool{}}
		st.tiers[k] = t
	}
	rules := st.e.policy.forSlot(k.slot, k.scope)
	// The conflict set: the claims still live in the tier, plus the newcomer.
	var inputs []string
	for _, e := range t.claims {
		if live(e.status) {
			inputs = append(inputs, e.id)
		}
	}
	text := c.Text
	if text == "" {
		text = canon.ClaimText(c.Subject, c.Predicate, c.Object)
	}
	n := &tclaim{id: c.ClaimID, objectKey: it.objectKey, source: it.sourceKey, predicateKey: c.PredicateKey,
		extractor: c.Provenance.Extractor, agent: c.Provenance.AgentID, subject: c.Subject, predicate: c.Predicate,
		object: c.Object, text: text, validFrom: it.validFrom, seq: c.Sequence, confidence: it.confidence,
		functional: c.Functional, streamSeq: int64(it.msg.Seq), newRow: -1, confirmed: st.confirmed[c.ClaimID],
		screen: it.screen, released: st.released[c.ClaimID]}
	trustRule := -1
	n.trust, trustRule = st.e.policy.trustFor(n.predicateKey, k.slot, k.scope, n.extractor, n.agent)
	prov, err := json.Marshal(c.Provenance)
	if err != nil {
		return fmt.Errorf("reconciler: provenance: %w", err)
	}
	var seq any
	if c.Sequence != nil {
		seq = *c.Sequence
	}
	st.claimRows = append(st.claimRows, []any{c.ClaimID, c.Workspace, c.SubjectKey, c.Subject, c.PredicateKey, c.Predicate,
		k.slot, c.Object, n.objectKey, text, c.Functional, string(c.Scope), n.agent, n.confidence, n.validFrom, seq,
		string(prov), st.partition, n.streamSeq, at, n.source, n.extractor, c.Negated, nullable(n.screen), n.trust})
	st.vectorRows = append(st.vectorRows, []any{c.ClaimID, c.Workspace, c.Embedding.Model, c.Embedding.Dim, pgvector.NewVector(c.Embedding.Values)})
	// Aliases are read by every agent of the workspace, so only shared claims name them: a private claim's wording
	// of its subject stays private.
	// A quarantined claim names no alias: its wording of the subject must not become a way to find it.
	if alias := aliasOf(c.Subject); alias != "" && c.Scope == event.ScopeShared && n.screen == "" {
		st.aliases[[3]string{c.Workspace, alias, c.SubjectKey}] = true
	}
	// Corroboration: every claim of the same object in the tier supports the newcomer and vice versa, counted
	// once per independent source (the primary key is (claim, source)). Flagged content supports nothing and is
	// supported by nothing.
	st.corrob = append(st.corrob, corrobRow{n.id, n.source, n.id, at})
	for _, e := range t.claims {
		if e.objectKey == n.objectKey && n.screen == "" && e.screen == "" {
			st.corrob = append(st.corrob, corrobRow{n.id, e.source, e.id, at}, corrobRow{e.id, n.source, n.id, at})
		}
	}
	t.add(n)

	var notes []string
	if sl.note != "" {
		notes = append(notes, sl.note)
	}
	if n.screen != "" {
		notes = append(notes, fmt.Sprintf("quarantine: %s matched rule %s of %s", n.id, n.screen, promptguard.RulesVersion))
		if n.released {
			notes = append(notes, "quarantine: released by an administrator's confirmation")
		}
	}
	if trustRule >= 0 {
		notes = append(notes, fmt.Sprintf("trust: %s has trust %g (policy rule %d)", n.id, n.trust, trustRule))
	}
	// Gate stage: await-confirmation.
	if g := st.e.policy.forClaim(n.predicateKey, k.slot, k.scope, n.extractor, n.agent); g.await {
		gr := &gateRow{state: "pending", onTimeout: g.onTimeout}
		if g.timeout > 0 {
			d := logTime(at.Add(g.timeout))
			gr.deadline = &d
		}
		n.gate = gr
		switch {
		case n.confirmed:
			gr.state, gr.resolvedBy = "admitted", "confirmation"
		case st.secondSource(t, n) != "":
			gr.state, gr.resolvedBy = "admitted", "second-source:"+st.secondSource(t, n)
		case !resolve.Conflicts(t.input(rules), n.id):
			gr.state, gr.resolvedBy = "admitted", "no-conflict"
		default:
			if gr.deadline != nil {
				heap.Push(&st.due, dueGate{deadline: *gr.deadline, claimID: n.id})
			}
		}
		st.setGate(n)
		notes = append(notes, "await_confirmation: "+gr.state+" ("+orNone(gr.resolvedBy)+")")
	}
	// A new independent source of the same object confirms held claims (flagged content confirms nothing).
	for _, p := range t.claims {
		if p != n && !n.quarantined() && p.gate != nil && p.gate.state == "pending" && p.objectKey == n.objectKey && p.source != n.source {
			p.gate.state, p.gate.resolvedBy = "admitted", "second-source:"+n.id
			st.setGate(p)
			notes = append(notes, fmt.Sprintf("await_confirmation: %s admitted by a second source", p.id))
		}
	}
	// Judge stage: where rules cannot tell whether two claims contradict. Quarantined content is never sent
	// to the judge's model: it takes no part in resolution anyway.
	var judgeKeys []string
	if !n.quarantined() {
		var err error
		if judgeKeys, err = st.judgePairs(ctx, t, n, rules); err != nil {
			return err
		}
	}
	id := event.DeterministicID("decision", fmt.Sprint(st.partition), fmt.Sprint(it.msg.Seq), k.String())
	st.settle(t, rules, settleArgs{at: at, streamSeq: it.msg.Seq, decisionID: id, trigger: n, inputs: append(inputs, n.id),
		judgeKeys: judgeKeys, notes: notes, added: true})
	if n.screen == "" {
		st.linkContradictions(it, k)
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "held"
	}
	return s
}

// secondSource returns a claim of the tier with n's object from another independent source, if any.
func (st *batchState) secondSource(t *tier, n *tclaim) string {
	for _, e := range t.claims {
		if e != n && e.objectKey == n.objectKey && e.source != n.source && !(e.gate != nil && e.gate.state == "timed_out") && !e.quarantined() {
			return e.id
		}
	}
	return ""
}

func (st *batchState) setGate(c *tclaim) {
	st.gates[c.id] = c.gate
	st.gateParts[c.id] = st.partition
	if t := st.tiers[st.claimTier[c.id]]; t != nil {
		t.rcOK = false
	}
}

// aliasOf is the surface form of a subject for entity lookup: trimmed, lower case, single spaces.
func aliasOf(subject string) string {
	return strings.Join(strings.Fields(strings.ToLower(subject)), " ")
}

func (st *batchState) applyConfirm(it *item) {
	c := it.confirm
	at := it.msg.Time
	st.confirmRows = append(st.confirmRows, []any{c.ClaimID, c.AgentID, c.Workspace, c.SubjectKey, st.partition, int64(it.msg.Seq), at, c.Release})
	st.confirmed[c.ClaimID] = true
	if c.Release {
		st.released[c.ClaimID] = true
	}
	k, ok := st.claimTier[c.ClaimID]
	if !ok {
		return // the claim has not arrived yet; it will find the confirmation
	}
	if k.ws != c.Workspace || k.subject != c.SubjectKey {
		st.e.log.Warn("reconciler: confirmation names another workspace or subject than its claim; ignored",
			"claim_id", c.ClaimID, "partition", st.partition, "stream_seq", it.msg.Seq)
		return
	}
	t := st.tiers[k]
	n := t.byID[c.ClaimID]
	if n == nil {
		return
	}
	n.confirmed = true
	release := c.Release && n.screen != "" && !n.released
	admit := n.gate != nil && n.gate.state != "admitted"
	if !release && !admit {
		return
	}
	var inputs []string
	for _, e := range t.claims {
		if live(e.status) {
			inputs = append(inputs, e.id)
		}
	}
	var notes []string
	outcome := "confirmed"
	if release {
		// A reviewer decided the flagged content is harmless: the claim joins resolution like any other.
		inputs = append(inputs, n.id)
		n.released = true
		t.rcOK = false
		outcome = "released"
		notes = append(notes, fmt.Sprintf("quarantine: %s (rule %s) released by agent %s", n.id, n.screen, c.AgentID))
	}
	if admit {
		n.gate.state, n.gate.resolvedBy = "admitted", "confirmation:"+c.AgentID
		st.setGate(n)
		notes = append(notes, "await_confirmation: explicit confirmation by agent "+c.AgentID)
	}
	rules := st.e.policy.forSlot(k.slot, k.scope)
	id := event.DeterministicID("confirm", fmt.Sprint(st.partition), fmt.Sprint(it.msg.Seq), c.ClaimID)
	st.settle(t, rules, settleArgs{at: at, streamSeq: it.msg.Seq, decisionID: id, trigger: n, inputs: inputs,
		outcome: outcome, notes: notes})
}

// timeout applies a gate's timeout policy at its deadline. The decision is stamped with the deadline (log
// time) and the claim's own stream position, not with whichever later message noticed it, so a rebuild that
// notices it elsewhere records the same thing.
func (st *batchState) timeout(g dueGate) {
	k, ok := st.claimTier[g.claimID]
	if !ok {
		return
	}
	t := st.tiers[k]
	n := t.byID[g.claimID]
	if n == nil || n.gate == nil || n.gate.state != "pending" || n.gate.deadline == nil || !n.gate.deadline.Equal(g.deadline) {
		return
	}
	var inputs []string
	for _, e := range t.claims {
		if live(e.status) {
			inputs = append(inputs, e.id)
		}
	}
	outcome := "timeout_accepted"
	if n.gate.onTimeout == "reject" {
		n.gate.state, n.gate.resolvedBy = "timed_out", "timeout"
		outcome = "timeout_rejected"
	} else {
		n.gate.state, n.gate.resolvedBy = "admitted", "timeout"
	}
	st.setGate(n)
	rules := st.e.policy.forSlot(k.slot, k.scope)
	id := event.DeterministicID("timeout", g.claimID)
	st.settle(t, rules, settleArgs{at: g.deadline, streamSeq: uint64(n.streamSeq), decisionID: id, trigger: n, inputs: inputs,
		outcome: outcome, notes: []string{"await_confirmation: timeout policy " + n.gate.onTimeout}})
}

type settleArgs struct {
	at         time.Time
	streamSeq  uint64
	decisionID string
	trigger    *tclaim
	inputs     []string
	judgeKeys  []string
	notes      []string
	outcome    string
	// added says the trigger was just added to the tier (the incremental LWW rule may apply).
	added bool
}

// settle folds the tier, appends a belief version for every claim whose state changed (retiring its previous
// one at the same transaction time), records supersedes edges and the decision.
func (st *batchState) settle(t *tier, rules slotRules, a settleArgs) {
	states, changed := st.fold(t, rules, a)
	var losers, whys []string
	for _, c := range changed {
		ns := states[c.id]
		if c.version > 0 && c.status == ns.Status && eqTime(c.validTo, ns.ValidTo) && c.supersededBy == ns.SupersededBy {
			continue
		}
		st.newVersion(t.key.ws, c, ns, a.at, a.decisionID)
		if (ns.Status == resolve.Superseded || ns.Status == resolve.Rejected) && ns.SupersededBy != "" {
			st.edges = append(st.edges, [3]string{ns.SupersededBy, c.id, a.decisionID})
			losers = append(losers, c.id)
		}
		whys = append(whys, c.id+": "+string(ns.Status)+" ("+ns.Why+")")
	}
	trig := states[a.trigger.id]
	outcome := a.outcome
	if outcome == "" {
		outcome = string(trig.Status)
	}
	var winner string
	switch trig.Status {
	case resolve.Active:
		winner = a.trigger.id
	case resolve.Superseded, resolve.Rejected:
		winner = trig.SupersededBy
	}
	slices.Sort(a.inputs)
	a.inputs = slices.Compact(a.inputs)
	slices.Sort(losers)
	op := t.operatorName(rules)
	reason := strings.Join(append(append([]string{fmt.Sprintf("%s over %d claims", op, len(t.claims))}, a.notes...), whys...), "; ")
	var owner any
	if t.key.owner != "" {
		owner = t.key.owner
	}
	judgeKey := strings.Join(a.judgeKeys, ",")
	st.decisionRows = append(st.decisionRows, []any{a.decisionID, t.key.ws, t.key.subject, t.key.slot, t.key.scope, owner,
		op, st.e.policy.Version(), a.inputs, nullable(winner), nonNil(losers), outcome, reason, nullable(judgeKey),
		a.at, st.partition, int64(a.streamSeq)})
	st.events = append(st.events, event.DecisionRecordedV1{DecisionID: a.decisionID, Workspace: t.key.ws,
		SubjectKey: t.key.subject, PredicateKey: t.key.slot, Scope: event.Scope(t.key.scope), OwnerAgent: t.key.owner,
		Operator: op, PolicyVersion: st.e.policy.Version(), Inputs: a.inputs, Winner: winner, Losers: losers,
		Outcome: outcome, Reason: reason, JudgeKey: judgeKey, DecidedAt: a.at, Partition: st.partition, StreamSeq: a.streamSeq})
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func eqTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

func (st *batchState) newVersion(ws string, c *tclaim, ns resolve.State, at time.Time, decisionID string) {
	if c.version > 0 {
		if c.newRow >= 0 {
			t := at
			st.versions[c.newRow].retiredAt = &t
		} else {
			st.retireIDs = append(st.retireIDs, c.id)
			st.retireVers = append(st.retireVers, int32(c.version))
			st.retireAt = append(st.retireAt, at)
		}
	}
	c.version++
	c.status, c.validTo, c.supersededBy = ns.Status, ns.ValidTo, ns.SupersededBy
	st.versions = append(st.versions, versionRow{claimID: c.id, ws: ws, version: c.version, status: ns.Status,
		validFrom: c.validFrom, validTo: ns.ValidTo, recordedAt: at, decisionID: decisionID, supersededBy: ns.SupersededBy})
	c.newRow = len(st.versions) - 1
}

// fold resolves the tier after the change a describes. It returns the new states and the claims to compare
// (ordered by id): every claim after a full fold; only those FoldLWWAdded returns when a plain-LWW tier just
// gained a claim (the incremental rule gives the full fold's states; the tests hold it to that).
func (st *batchState) fold(t *tier, rules slotRules, a settleArgs) (map[string]resolve.State, []*tclaim) {
	n := a.trigger
	if a.added && t.rcOK && t.plain && rules.ranker == resolve.LWW && len(t.verdicts) == 0 && n.gate == nil && !n.quarantined() &&
		(rules.functional != nil || t.functional || !n.functional) {
		compatible := true
		for i := range t.rc {
			r := &t.rc[i]
			if r.ID != n.id && r.ValidFrom.Equal(n.validFrom) && (r.Sequence == nil) != (n.seq == nil) {
				compatible = false // sequences only partly present at this valid time
				break
			}
			if r.Trust != n.trust {
				compatible = false // trust levels: the full fold ranks them
				break
			}
		}
		if compatible {
			states := resolve.FoldLWWAdded(resolve.Input{Ranker: resolve.LWW, Functional: t.functional, Claims: t.rc}, n.id)
			changed := make([]*tclaim, 0, len(states))
			for id := range states {
				changed = append(changed, t.byID[id])
			}
			slices.SortFunc(changed, func(a, b *tclaim) int { return cmp.Compare(a.id, b.id) })
			return states, changed
		}
	}
	in := t.input(rules)
	res := resolve.Fold(in)
	t.rc, t.rcOK, t.plain, t.functional = in.Claims, true, resolve.PlainLWW(in), in.Functional
	return res.States, t.claims
}

// flush writes the segment's outcome: new rows by COPY, changes by set-based statements.
func (st *batchState) flush(ctx context.Context, tx pgx.Tx) error {
	copyRows := func(table string, cols []string, rows [][]any) error {
		if len(rows) == 0 {
			return nil
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, cols, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("reconciler: write %s: %w", table, err)
		}
		return nil
	}
	if err := copyRows("claims", []string{"id", "workspace_id", "subject_key", "subject", "predicate_key", "predicate",
		"slot_key", "object", "object_key", "text", "functional", "scope", "owner_agent", "confidence", "valid_from", "sequence",
		"provenance", "partition", "stream_seq", "recorded_at", "source_key", "extractor", "negated", "screen", "trust"}, st.claimRows); err != nil {
		return err
	}
	if err := copyRows("claim_vectors", []string{"claim_id", "workspace_id", "model", "dim", "embedding"}, st.vectorRows); err != nil {
		return err
	}
	if err := copyRows("contradictions", []string{"claim_a", "claim_b", "workspace_id", "subject_key", "method", "similarity",
		"decision_id", "recorded_at"}, st.contradictionRows); err != nil {
		return err
	}
	if err := copyRows("subject_predicates", []string{"workspace_id", "subject_key", "tier_owner", "predicate_key", "slot_key", "phrase", "model",
		"embedding", "similarity", "first_claim", "stream_seq"}, st.predRows); err != nil {
		return err
	}
	if len(st.retireIDs) > 0 {
		if _, err := tx.Exec(ctx, `UPDATE claim_versions v SET retired_at = u.t
			FROM unnest($1::uuid[], $2::int[], $3::timestamptz[]) AS u(id, ver, t)
			WHERE v.claim_id = u.id AND v.version = u.ver AND v.retired_at IS NULL`, st.retireIDs, st.retireVers, st.retireAt); err != nil {
			return fmt.Errorf("reconciler: retire versions: %w", err)
		}
	}
	vrows := make([][]any, len(st.versions))
	for i, v := range st.versions {
		vrows[i] = []any{v.claimID, v.version, v.ws, string(v.status), v.validFrom, v.validTo, v.recordedAt, v.retiredAt,
			v.decisionID, nullable(v.supersededBy)}
	}
	if err := copyRows("claim_versions", []string{"claim_id", "version", "workspace_id", "status", "valid_from", "valid_to",
		"recorded_at", "retired_at", "decision_id", "superseded_by"}, vrows); err != nil {
		return err
	}
	if err := copyRows("decisions", []string{"id", "workspace_id", "subject_key", "slot_key", "scope", "owner_agent", "operator",
		"policy_version", "inputs", "winner", "losers", "outcome", "reason", "judge_key", "decided_at", "partition", "stream_seq"}, st.decisionRows); err != nil {
		return err
	}
	b := &pgx.Batch{}
	if len(st.edges) > 0 {
		var w, l, d []string
		for _, e := range st.edges {
			w, l, d = append(w, e[0]), append(l, e[1]), append(d, e[2])
		}
		b.Queue(`INSERT INTO supersedes (claim_id, superseded_id, decision_id)
			SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) ON CONFLICT DO NOTHING`, w, l, d)
	}
	if len(st.corrob) > 0 {
		var ids, srcs, vias []string
		var ats []time.Time
		for _, c := range st.corrob {
			ids, srcs, vias, ats = append(ids, c.claimID), append(srcs, c.source), append(vias, c.via), append(ats, c.at)
		}
		b.Queue(`INSERT INTO corroborations (claim_id, source, via_claim_id, recorded_at)
			SELECT * FROM unnest($1::uuid[], $2::text[], $3::uuid[], $4::timestamptz[]) ON CONFLICT DO NOTHING`, ids, srcs, vias, ats)
	}
	if len(st.aliases) > 0 {
		var ws, al, sk []string
		for k := range st.aliases {
			ws, al, sk = append(ws, k[0]), append(al, k[1]), append(sk, k[2])
		}
		b.Queue(`INSERT INTO subject_aliases (workspace_id, alias, subject_key)
			SELECT * FROM unnest($1::text[], $2::text[], $3::text[]) ON CONFLICT DO NOTHING`, ws, al, sk)
	}
	if len(st.gates) > 0 {
		var ids, states, onTO, resolved []string
		var ws []string
		var parts []int32
		var deadlines []*time.Time
		for id, g := range st.gates {
			k := st.claimTier[id]
			ids, ws, parts, states = append(ids, id), append(ws, k.ws), append(parts, int32(st.gateParts[id])), append(states, g.state)
			deadlines, onTO, resolved = append(deadlines, g.deadline), append(onTO, g.onTimeout), append(resolved, g.resolvedBy)
		}
		b.Queue(`INSERT INTO claim_gates (claim_id, workspace_id, partition, state, deadline, on_timeout, resolved_by)
			SELECT id, ws, p, s, d, o, nullif(r, '') FROM unnest($1::uuid[], $2::text[], $3::int[], $4::text[], $5::timestamptz[], $6::text[], $7::text[])
			  AS u(id, ws, p, s, d, o, r)
			ON CONFLICT (claim_id) DO UPDATE SET state = EXCLUDED.state, resolved_by = EXCLUDED.resolved_by`,
			ids, ws, parts, states, deadlines, onTO, resolved)
	}
	for _, r := range st.confirmRows {
		b.Queue(`INSERT INTO confirmations (claim_id, agent_id, workspace_id, subject_key, partition, stream_seq, confirmed_at, releases)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING`, r...)
	}
	for _, r := range st.judgeRows {
		b.Queue(`INSERT INTO judgements (claim_a, claim_b, workspace_id, judge_key, contradicts, model, prompt_version)
			VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`, r...)
	}
	for _, id := range st.failedErasures {
		b.Queue(`UPDATE erasures SET status = 'failed' WHERE id = $1 AND status <> 'completed'`, id)
	}
	for _, r := range st.dupRows {
		b.Queue(`INSERT INTO duplicate_messages (partition, stream_seq, claim_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, r...)
	}
	for _, r := range st.deadRows {
		b.Queue(`INSERT INTO dead_letters (partition, stream_seq, workspace_id, subject_key, agent_id, reason)
			VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`, r...)
	}
	if b.Len() > 0 {
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("reconciler: write batch: %w", err)
		}
	}
	return nil
}
