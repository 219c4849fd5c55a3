package reconciler

import (
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/promptguard"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// Decide: every decision of the reconciler is made here, over the in-memory state of one segment (load.go
// filled it), message by message in stream order, and returned as the changes to write — claim, vector and
// version rows, decisions, edges, corroborations, gates, links — each built once. Nothing here reads or writes
// the store; the only outside call is the judge, through the keyed judge log (verdicts), which answers the
// same key the same way on every replay. The operators themselves are internal/resolve's pure folds.

// verdicts is the keyed judge log as the decide step sees it: whether two claims contradict under operator.
// ok is false when there is no verdict (no judge configured and nothing logged, or the judge abstained), and
// the rules decide; key names the log entry consulted ("" when none).
type verdicts interface {
	verdict(ctx context.Context, a, b *tclaim, operator string) (contradicts, ok bool, key string, err error)
	// modelName is recorded with every verdict applied.
	modelName() string
}

// decider makes one segment's decisions. Build it with newDecider, call assignSlots (after loadKnown), then
// decide (after loadTiers and loadPolarity).
type decider struct {
	partition int
	cfg       Config
	policy    *Policy
	judge     verdicts // nil: no judge
	log       *slog.Logger
	// faultHook, set only by tests, fails applying chosen items (to exercise bounded retries).
	faultHook func(*item) error

	st  *state
	out store.Changes
	// gates are the held claims whose gate changed, written once with their final state.
	gates map[string]*gateRow
	// aliases are the subject aliases the segment's shared claims name.
	aliases map[store.AliasRow]bool
}

func newDecider(partition int, cfg Config, policy *Policy, judge verdicts, log *slog.Logger, st *state) *decider {
	return &decider{partition: partition, cfg: cfg, policy: policy, judge: judge, log: log, st: st,
		gates: map[string]*gateRow{}, aliases: map[store.AliasRow]bool{}}
}

// slotted is the slot-assignment outcome for a claim item: its slot, or that it is a duplicate.
type slotted struct {
	duplicate bool
	slot      string
	note      string
}

// assignSlots decides the slot of every new claim of the segment, in stream order (a predicate first seen
// earlier in the segment can absorb a later paraphrase), and marks repeated claims as duplicates. It returns
// the outcome per item and the tiers the segment touches (new claims' and confirmation targets').
func (d *decider) assignSlots(items []item) ([]slotted, map[tierKey]bool) {
	st := d.st
	need := map[tierKey]bool{}
	for _, it := range items {
		if it.dead == "" && it.kind == kindConfirm {
			if k, ok := st.claimTier[it.confirm.ClaimID]; ok {
				need[k] = true
			}
		}
	}
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
		slots[i].slot, slots[i].note = d.slotFor(it)
		k := tierOf(c.Workspace, c.SubjectKey, slots[i].slot, string(c.Scope), c.Provenance.AgentID)
		need[k] = true
		st.claimTier[c.ClaimID] = k
	}
	return slots, need
}

// slotFor decides the slot of a new claim from the predicates its own tier may see — never across tiers: a
// shared claim sees the shared tier's predicates; a private claim sees its owner's private predicates and the
// shared ones (a private claim may join a shared slot, which reveals nothing; the reverse would show the
// private predicate to every agent). The slot is the one its predicate key already has in its own tier, else
// (a private claim) the one the shared tier gives the same key, else the slot of the most similar visible
// predicate of the subject (cosine ≥ the configured threshold, never one of a relation the relation table
// tells apart from its own: distinctRelations; ties to the smallest predicate key, then the shared tier), else
// a new slot named by its own predicate key. Every tier records its own predicates, so the rows do not depend
// on which tier spoke first. A quarantined claim joins an existing slot or its own but
// records no predicate: its wording never becomes a slot other claims merge into.
func (d *decider) slotFor(it item) (slot, note string) {
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
	for _, p := range d.st.preds[k] {
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
			d.addPredicate(it, owner, pk, shared.slotKey, nil)
		}
		return shared.slotKey, ""
	}
	slot = pk
	var best *predRow
	var bestSim float64
	pe := c.PredicateEmbedding
	// A count's phrase is its verb alone ("completed"): counts of different things, and a count beside a
	// statement of that verb, share it; the key says what is counted, so counts merge by key only.
	if d.cfg.PredicateMerge && pe.Dim > 0 && !canon.IsCountKey(c.PredicateKey) {
		for _, p := range d.st.preds[k] {
			if !visible(p) || p.model != pe.Model || len(p.embedding) != len(pe.Values) || negatedKey(p.predicateKey) != c.Negated ||
				canon.IsCountKey(strings.TrimPrefix(p.predicateKey, "not:")) || distinctRelations(p.predicateKey, pk) {
				continue
			}
			sim := embedding.Cosine(p.embedding, pe.Values)
			if sim < d.cfg.PredicateSimilarity {
				continue
			}
			if best == nil || sim > bestSim || (sim == bestSim && (p.predicateKey < best.predicateKey ||
				p.predicateKey == best.predicateKey && p.tierOwner < best.tierOwner)) {
				best, bestSim = p, sim
			}
		}
	}
	if best == nil && d.cfg.PredicateMerge {
		// "my number" after "my phone number": a bare head noun joins the one slot of its compound
		// (canon.SameHead), when exactly one slot of the subject has that head.
		var head *predRow
		for _, p := range d.st.preds[k] {
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
				d.addPredicate(it, owner, pk, head.slotKey, nil)
			}
			return head.slotKey, note
		}
	}
	var sim *float64
	if best != nil {
		slot = best.slotKey
		s := bestSim
		sim = &s
		note = fmt.Sprintf("slot: predicate %q merged into slot %q (cosine %.4f with %q >= %g)", pk, best.slotKey, bestSim, best.predicateKey, d.cfg.PredicateSimilarity)
	}
	if it.screen == "" {
		d.addPredicate(it, owner, pk, slot, sim)
	}
	return slot, note
}

// distinctRelations reports two predicate keys, negated or not, that the relation table tells apart
// (canon.DistinctRelations).
func distinctRelations(a, b string) bool {
	return canon.DistinctRelations(strings.TrimPrefix(a, negatedPrefix), strings.TrimPrefix(b, negatedPrefix))
}

// addPredicate records a predicate of a subject in the tier of owner ("" for shared) and the slot it joined.
func (d *decider) addPredicate(it item, owner, pk, slot string, sim *float64) {
	c := it.claim
	k := subjKey{c.Workspace, c.SubjectKey}
	pe := c.PredicateEmbedding
	d.st.preds[k] = append(d.st.preds[k], &predRow{tierOwner: owner, predicateKey: pk, slotKey: slot, model: pe.Model, embedding: pe.Values})
	row := store.PredicateRow{Workspace: c.Workspace, SubjectKey: c.SubjectKey, TierOwner: owner, PredicateKey: pk,
		SlotKey: slot, Phrase: c.Predicate, Model: pe.Model, Similarity: sim, FirstClaim: c.ClaimID, StreamSeq: int64(it.msg.Seq)}
	if pe.Dim > 0 {
		row.Embedding = pe.Values
	}
	d.out.Predicates = append(d.out.Predicates, row)
}

// decide applies the segment's items in stream order and returns everything to write. Gates due by horizon (if
// later than the last item) are applied too: a subject rebuild uses it to catch up with the partition's log
// time.
func (d *decider) decide(ctx context.Context, items []item, slots []slotted, horizon time.Time) (*store.Changes, error) {
	for i := range items {
		it := &items[i]
		d.sweep(it.msg.Time)
		if it.dead != "" {
			d.out.DeadLetters = append(d.out.DeadLetters, store.DeadLetterRow{Partition: d.partition, StreamSeq: int64(it.msg.Seq),
				Workspace: it.ws, SubjectKey: it.subject, AgentID: it.agent, Reason: it.dead})
			if it.kind == kindErasure && it.erasure != nil {
				d.out.FailedErasures = append(d.out.FailedErasures, it.erasure.ErasureID)
			}
			continue
		}
		switch it.kind {
		case kindClaim:
			if slots[i].duplicate {
				d.out.Duplicates = append(d.out.Duplicates, store.DuplicateRow{Partition: d.partition, StreamSeq: int64(it.msg.Seq), ClaimID: it.claim.ClaimID})
				continue
			}
			if err := d.applyClaim(ctx, it, slots[i]); err != nil {
				return nil, err
			}
		case kindConfirm:
			d.applyConfirm(it)
		}
	}
	d.sweep(horizon)
	ids := make([]string, 0, len(d.gates))
	for id := range d.gates {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		g := d.gates[id]
		d.out.Gates = append(d.out.Gates, store.GateRow{ClaimID: id, Workspace: d.st.claimTier[id].ws, Partition: int32(d.partition),
			State: g.state, Deadline: g.deadline, OnTimeout: g.onTimeout, ResolvedBy: g.resolvedBy})
	}
	for a := range d.aliases {
		d.out.Aliases = append(d.out.Aliases, a)
	}
	slices.SortFunc(d.out.Aliases, func(x, y store.AliasRow) int {
		return cmp.Or(cmp.Compare(x.Workspace, y.Workspace), cmp.Compare(x.Alias, y.Alias), cmp.Compare(x.SubjectKey, y.SubjectKey))
	})
	return &d.out, nil
}

// sweep applies every due gate up to t.
func (d *decider) sweep(t time.Time) {
	for d.st.due.Len() > 0 && !d.st.due[0].deadline.After(t) {
		d.timeout(heap.Pop(&d.st.due).(dueGate))
	}
}

// aliasOf is the surface form of a subject for entity lookup: trimmed, lower case, single spaces.
func aliasOf(subject string) string {
	return strings.Join(strings.Fields(strings.ToLower(subject)), " ")
}

// applyClaim adds a new claim to its tier: its rows, corroborations, alias and predicate, its gate, the judge's
// verdicts on it, the fold of the tier and the decision, and its contradiction links.
func (d *decider) applyClaim(ctx context.Context, it *item, sl slotted) error {
	if d.faultHook != nil {
		if err := d.faultHook(it); err != nil {
			return err
		}
	}
	st := d.st
	c := it.claim
	at := it.msg.Time
	k := st.claimTier[c.ClaimID]
	t := st.tiers[k]
	if t == nil {
		t = newTier(k)
		st.tiers[k] = t
	}
	rules := d.policy.forSlot(k.slot, k.scope)
	// The conflict set: the claims still live in the tier, plus the newcomer.
	inputs := t.liveIDs()
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
	n.trust, trustRule = d.policy.trustFor(n.predicateKey, k.slot, k.scope, n.extractor, n.agent)
	prov, err := json.Marshal(c.Provenance)
	if err != nil {
		return fmt.Errorf("reconciler: provenance: %w", err)
	}
	d.out.Claims = append(d.out.Claims, store.ClaimRow{ID: c.ClaimID, Workspace: c.Workspace, SubjectKey: c.SubjectKey,
		Subject: c.Subject, PredicateKey: c.PredicateKey, Predicate: c.Predicate, SlotKey: k.slot, Object: c.Object,
		ObjectKey: n.objectKey, Text: text, Functional: c.Functional, Scope: string(c.Scope), OwnerAgent: n.agent,
		Confidence: n.confidence, ValidFrom: n.validFrom, Sequence: c.Sequence, Provenance: string(prov),
		Partition: d.partition, StreamSeq: n.streamSeq, RecordedAt: at, SourceKey: n.source, Extractor: n.extractor,
		Negated: c.Negated, Screen: n.screen, Trust: n.trust})
	d.out.Vectors = append(d.out.Vectors, store.VectorRow{ClaimID: c.ClaimID, Workspace: c.Workspace, Model: c.Embedding.Model,
		Dim: c.Embedding.Dim, Embedding: c.Embedding.Values})
	// Aliases are read by every agent of the workspace, so only shared claims name them: a private claim's wording
	// of its subject stays private. A quarantined claim names no alias: its wording of the subject must not
	// become a way to find it.
	if alias := aliasOf(c.Subject); alias != "" && c.Scope == event.ScopeShared && n.screen == "" {
		d.aliases[store.AliasRow{Workspace: c.Workspace, Alias: alias, SubjectKey: c.SubjectKey}] = true
	}
	// Corroboration: every claim of the same object in the tier supports the newcomer and vice versa, counted
	// once per independent source (the primary key is (claim, source)). Flagged content supports nothing and is
	// supported by nothing.
	d.out.Corroborations = append(d.out.Corroborations, store.CorroborationRow{ClaimID: n.id, Source: n.source, ViaClaimID: n.id, RecordedAt: at})
	for _, e := range t.claims {
		if e.objectKey == n.objectKey && n.screen == "" && e.screen == "" {
			d.out.Corroborations = append(d.out.Corroborations,
				store.CorroborationRow{ClaimID: n.id, Source: e.source, ViaClaimID: e.id, RecordedAt: at},
				store.CorroborationRow{ClaimID: e.id, Source: n.source, ViaClaimID: n.id, RecordedAt: at})
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
	if g := d.policy.forClaim(n.predicateKey, k.slot, k.scope, n.extractor, n.agent); g.await {
		gr := &gateRow{state: "pending", onTimeout: g.onTimeout}
		if g.timeout > 0 {
			dl := logTime(at.Add(g.timeout))
			gr.deadline = &dl
		}
		n.gate = gr
		switch {
		case n.confirmed:
			gr.state, gr.resolvedBy = "admitted", "confirmation"
		case secondSource(t, n) != "":
			gr.state, gr.resolvedBy = "admitted", "second-source:"+secondSource(t, n)
		case !resolve.Conflicts(t.input(rules), n.id):
			gr.state, gr.resolvedBy = "admitted", "no-conflict"
		default:
			if gr.deadline != nil {
				heap.Push(&st.due, dueGate{deadline: *gr.deadline, claimID: n.id})
			}
		}
		d.setGate(n)
		notes = append(notes, "await_confirmation: "+gr.state+" ("+orNone(gr.resolvedBy)+")")
	}
	// A new independent source of the same object confirms held claims (flagged content confirms nothing).
	for _, p := range t.claims {
		if p != n && !n.quarantined() && p.gate != nil && p.gate.state == "pending" && p.objectKey == n.objectKey && p.source != n.source {
			p.gate.state, p.gate.resolvedBy = "admitted", "second-source:"+n.id
			d.setGate(p)
			notes = append(notes, fmt.Sprintf("await_confirmation: %s admitted by a second source", p.id))
		}
	}
	// Judge stage: where rules cannot tell whether two claims contradict. Quarantined content is never sent
	// to the judge's model: it takes no part in resolution anyway.
	var judgeKeys []string
	if !n.quarantined() {
		var err error
		if judgeKeys, err = d.judgePairs(ctx, t, n, rules); err != nil {
			return err
		}
	}
	id := event.DeterministicID("decision", fmt.Sprint(d.partition), fmt.Sprint(it.msg.Seq), k.String())
	d.settle(t, rules, settleArgs{at: at, streamSeq: it.msg.Seq, decisionID: id, trigger: n, inputs: append(inputs, n.id),
		judgeKeys: judgeKeys, notes: notes, added: true})
	if n.screen == "" {
		d.linkContradictions(it, k)
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
func secondSource(t *tier, n *tclaim) string {
	for _, e := range t.claims {
		if e != n && e.objectKey == n.objectKey && e.source != n.source && !(e.gate != nil && e.gate.state == "timed_out") && !e.quarantined() {
			return e.id
		}
	}
	return ""
}

// setGate records that c's gate changed (its final state is written) and drops its tier's incremental cache.
func (d *decider) setGate(c *tclaim) {
	d.gates[c.id] = c.gate
	if t := d.st.tiers[d.st.claimTier[c.id]]; t != nil {
		t.rcOK = false
	}
}

// applyConfirm records an explicit confirmation; it admits a held claim, and a release lets a quarantined one
// into resolution.
func (d *decider) applyConfirm(it *item) {
	st := d.st
	c := it.confirm
	at := it.msg.Time
	d.out.Confirmations = append(d.out.Confirmations, store.ConfirmationRow{ClaimID: c.ClaimID, AgentID: c.AgentID,
		Workspace: c.Workspace, SubjectKey: c.SubjectKey, Partition: d.partition, StreamSeq: int64(it.msg.Seq), ConfirmedAt: at, Releases: c.Release})
	st.confirmed[c.ClaimID] = true
	if c.Release {
		st.released[c.ClaimID] = true
	}
	k, ok := st.claimTier[c.ClaimID]
	if !ok {
		return // the claim has not arrived yet; it will find the confirmation
	}
	if k.ws != c.Workspace || k.subject != c.SubjectKey {
		d.log.Warn("reconciler: confirmation names another workspace or subject than its claim; ignored",
			"claim_id", c.ClaimID, "partition", d.partition, "stream_seq", it.msg.Seq)
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
	inputs := t.liveIDs()
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
		d.setGate(n)
		notes = append(notes, "await_confirmation: explicit confirmation by agent "+c.AgentID)
	}
	rules := d.policy.forSlot(k.slot, k.scope)
	id := event.DeterministicID("confirm", fmt.Sprint(d.partition), fmt.Sprint(it.msg.Seq), c.ClaimID)
	d.settle(t, rules, settleArgs{at: at, streamSeq: it.msg.Seq, decisionID: id, trigger: n, inputs: inputs,
		outcome: outcome, notes: notes})
}

// timeout applies a gate's timeout policy at its deadline. The decision is stamped with the deadline (log
// time) and the claim's own stream position, not with whichever later message noticed it, so a rebuild that
// notices it elsewhere records the same thing.
func (d *decider) timeout(g dueGate) {
	k, ok := d.st.claimTier[g.claimID]
	if !ok {
		return
	}
	t := d.st.tiers[k]
	n := t.byID[g.claimID]
	if n == nil || n.gate == nil || n.gate.state != "pending" || n.gate.deadline == nil || !n.gate.deadline.Equal(g.deadline) {
		return
	}
	inputs := t.liveIDs()
	outcome := "timeout_accepted"
	if n.gate.onTimeout == "reject" {
		n.gate.state, n.gate.resolvedBy = "timed_out", "timeout"
		outcome = "timeout_rejected"
	} else {
		n.gate.state, n.gate.resolvedBy = "admitted", "timeout"
	}
	d.setGate(n)
	rules := d.policy.forSlot(k.slot, k.scope)
	id := event.DeterministicID("timeout", g.claimID)
	d.settle(t, rules, settleArgs{at: g.deadline, streamSeq: uint64(n.streamSeq), decisionID: id, trigger: n, inputs: inputs,
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
// one at the same transaction time), and records supersedes edges and the decision.
func (d *decider) settle(t *tier, rules slotRules, a settleArgs) {
	states, changed := fold(t, rules, a)
	var losers, whys []string
	for _, c := range changed {
		ns := states[c.id]
		if c.version > 0 && c.status == ns.Status && eqTime(c.validTo, ns.ValidTo) && c.supersededBy == ns.SupersededBy {
			continue
		}
		d.newVersion(t.key, c, ns, a.at, a.decisionID)
		if (ns.Status == resolve.Superseded || ns.Status == resolve.Rejected) && ns.SupersededBy != "" {
			d.out.Supersedes = append(d.out.Supersedes, store.SupersedesRow{ClaimID: ns.SupersededBy, SupersededID: c.id, DecisionID: a.decisionID})
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
	d.out.Decisions = append(d.out.Decisions, store.DecisionRow{ID: a.decisionID, Workspace: t.key.ws,
		SubjectKey: t.key.subject, SlotKey: t.key.slot, Scope: t.key.scope, OwnerAgent: t.key.owner, Operator: op,
		PolicyVersion: d.policy.Version(), Inputs: a.inputs, Winner: winner, Losers: losers, Outcome: outcome,
		Reason: reason, JudgeKey: strings.Join(a.judgeKeys, ","), DecidedAt: a.at, Partition: d.partition,
		StreamSeq: int64(a.streamSeq)})
}

func eqTime(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// newVersion appends c's next belief version in tier k with state ns at transaction time at, retiring its
// current one.
func (d *decider) newVersion(k tierKey, c *tclaim, ns resolve.State, at time.Time, decisionID string) {
	if c.version > 0 {
		if c.newRow >= 0 {
			t := at
			d.out.Versions[c.newRow].RetiredAt = &t
		} else {
			d.out.Retire = append(d.out.Retire, store.RetireRow{ClaimID: c.id, Version: int32(c.version), At: at})
		}
	}
	c.version++
	c.status, c.validTo, c.supersededBy = ns.Status, ns.ValidTo, ns.SupersededBy
	d.out.Versions = append(d.out.Versions, store.VersionRow{ClaimID: c.id, Version: c.version, Workspace: k.ws,
		SubjectKey: k.subject, SlotKey: k.slot,
		Status: string(ns.Status), ValidFrom: c.validFrom, ValidTo: ns.ValidTo, RecordedAt: at, DecisionID: decisionID,
		SupersededBy: ns.SupersededBy})
	c.newRow = len(d.out.Versions) - 1
}

// fold resolves the tier after the change a describes. It returns the new states and the claims to compare
// (ordered by id): every claim after a full fold; only those FoldLWWAdded returns when a plain-LWW tier just
// gained a claim (the incremental rule gives the full fold's states; the tests hold it to that).
func fold(t *tier, rules slotRules, a settleArgs) (map[string]resolve.State, []*tclaim) {
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

// decisionEvent is the ledger event of a decision row.
func decisionEvent(r store.DecisionRow) event.DecisionRecordedV1 {
	return event.DecisionRecordedV1{DecisionID: r.ID, Workspace: r.Workspace, SubjectKey: r.SubjectKey,
		PredicateKey: r.SlotKey, Scope: event.Scope(r.Scope), OwnerAgent: r.OwnerAgent, Operator: r.Operator,
		PolicyVersion: r.PolicyVersion, Inputs: r.Inputs, Winner: r.Winner, Losers: r.Losers, Outcome: r.Outcome,
		Reason: r.Reason, JudgeKey: r.JudgeKey, DecidedAt: r.DecidedAt, Partition: r.Partition, StreamSeq: uint64(r.StreamSeq)}
}
