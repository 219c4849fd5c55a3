package reconciler

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// Load: the reads a segment's decisions need, done up front with a few set-based queries (pkg/store/segment.go)
// so that a segment costs a constant number of round trips rather than several per message. Slots are decided
// between the two phases (decide.go, assignSlots), because tiers are keyed by slot.

// loadKnown reads what slot assignment needs: which of the segment's claims (and confirmation targets) are
// already stored and in which tier, their explicit confirmations, and every tier's predicates of the segment's
// subjects.
func (st *state) loadKnown(ctx context.Context, tx pgx.Tx, items []item) error {
	var ids []string
	subjects := map[subjKey]bool{}
	for _, it := range items {
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
	if len(ids) > 0 {
		places, err := store.ClaimPlaces(ctx, tx, ids)
		if err != nil {
			return fmt.Errorf("reconciler: %w", err)
		}
		for _, c := range places {
			st.existing[c.ID] = true
			st.claimTier[c.ID] = tierOf(c.Workspace, c.SubjectKey, c.SlotKey, c.Scope, c.OwnerAgent)
		}
		confirmed, err := store.ConfirmedClaims(ctx, tx, ids)
		if err != nil {
			return fmt.Errorf("reconciler: %w", err)
		}
		for _, c := range confirmed {
			st.confirmed[c.ID] = true
			st.released[c.ID] = st.released[c.ID] || c.Released
		}
	}
	return st.loadPredicates(ctx, tx, subjects)
}

func (st *state) loadPredicates(ctx context.Context, tx pgx.Tx, subjects map[subjKey]bool) error {
	if len(subjects) == 0 {
		return nil
	}
	refs := make([]store.SubjectRef, 0, len(subjects))
	for k := range subjects {
		refs = append(refs, store.SubjectRef{Workspace: k.ws, SubjectKey: k.subject})
		st.preds[k] = nil
	}
	preds, err := store.PredicatesOf(ctx, tx, refs)
	if err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	for _, p := range preds {
		k := subjKey{p.Workspace, p.SubjectKey}
		st.preds[k] = append(st.preds[k], &predRow{tierOwner: p.TierOwner, predicateKey: p.PredicateKey, slotKey: p.SlotKey,
			model: p.Model, embedding: p.Embedding})
	}
	return nil
}

// loadTiers reads the partition's pending gates that fall due by until, then every tier in need (and the tiers
// of those gates): each claim with its current belief version, gate, confirmations and trust, and the judge
// verdicts of tiers whose policy consults the judge.
func (st *state) loadTiers(ctx context.Context, tx pgx.Tx, partition int, need map[tierKey]bool, until time.Time, policy *Policy) error {
	due, err := store.DueGates(ctx, tx, partition, until)
	if err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	for _, g := range due {
		k := tierOf(g.Workspace, g.SubjectKey, g.SlotKey, g.Scope, g.OwnerAgent)
		need[k] = true
		st.claimTier[g.ID] = k
		heap.Push(&st.due, dueGate{deadline: g.Deadline.UTC(), claimID: g.ID})
	}
	var refs []store.TierRef
	for k := range need {
		if _, ok := st.tiers[k]; ok {
			continue
		}
		st.tiers[k] = newTier(k)
		refs = append(refs, store.TierRef{Workspace: k.ws, SubjectKey: k.subject, SlotKey: k.slot, Scope: k.scope, OwnerAgent: k.owner})
	}
	if len(refs) == 0 {
		return nil
	}
	rows, err := store.TierClaims(ctx, tx, refs)
	if err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	var judgeIDs []string
	for _, r := range rows {
		c := &tclaim{newRow: -1, id: r.ID, objectKey: r.ObjectKey, source: r.SourceKey, predicateKey: r.PredicateKey,
			extractor: r.Extractor, agent: r.OwnerAgent, subject: r.Subject, predicate: r.Predicate, object: r.Object, text: r.Text,
			validFrom: r.ValidFrom.UTC(), seq: r.Sequence, confidence: r.Confidence, functional: r.Functional, streamSeq: r.StreamSeq,
			version: r.Version, status: resolve.Status(r.Status), supersededBy: r.SupersededBy,
			confirmed: r.Confirmed, screen: r.Screen, trust: r.Trust, released: r.Released}
		if r.ValidTo != nil {
			t := r.ValidTo.UTC()
			c.validTo = &t
		}
		if g := r.Gate; g != nil {
			c.gate = &gateRow{state: g.State, onTimeout: g.OnTimeout, resolvedBy: g.ResolvedBy}
			if g.Deadline != nil {
				d := g.Deadline.UTC()
				c.gate.deadline = &d
			}
		}
		k := tierOf(r.Workspace, r.SubjectKey, r.SlotKey, r.Scope, r.OwnerAgent)
		t := st.tiers[k]
		t.claims = append(t.claims, c) // sorted below
		t.byID[c.id] = c
		st.claimTier[c.id] = k
		if policy.forSlot(r.SlotKey, r.Scope).judge != judgeNone {
			judgeIDs = append(judgeIDs, c.id)
		}
	}
	for _, t := range st.tiers {
		slices.SortFunc(t.claims, func(a, b *tclaim) int { return cmp.Compare(a.id, b.id) })
	}
	if len(judgeIDs) == 0 {
		return nil
	}
	verdicts, err := store.VerdictsOf(ctx, tx, judgeIDs)
	if err != nil {
		return fmt.Errorf("reconciler: %w", err)
	}
	for _, v := range verdicts {
		if k, ok := st.claimTier[v.ClaimA]; ok {
			st.tiers[k].verdicts[resolve.PairOf(v.ClaimA, v.ClaimB)] = v.Contradicts
		}
	}
	return nil
}

// loadPolarity reads, for the subjects the segment's new claims are about, the claims a newcomer of the other
// polarity may contradict: every negated claim of the subject, and its positive claims when the segment brings
// a negated claim of it.
func (st *state) loadPolarity(ctx context.Context, tx pgx.Tx, items []item, slots []slotted) error {
	subjects := map[subjKey]bool{}
	for i, it := range items {
		if it.dead != "" || it.kind != kindClaim || slots[i].duplicate {
			continue
		}
		k := subjKey{it.claim.Workspace, it.claim.SubjectKey}
		if _, ok := st.polar[k]; !ok {
			st.polar[k] = &polarSet{}
		}
		subjects[k] = subjects[k] || it.claim.Negated
	}
	if len(subjects) == 0 {
		return nil
	}
	var all, withNegated []store.SubjectRef
	for k, neg := range subjects {
		ref := store.SubjectRef{Workspace: k.ws, SubjectKey: k.subject}
		all = append(all, ref)
		if neg {
			withNegated = append(withNegated, ref)
			st.polar[k].positives = true
		}
	}
	load := func(subjects []store.SubjectRef, negated bool) error {
		claims, err := store.PolarClaims(ctx, tx, subjects, negated)
		if err != nil {
			return fmt.Errorf("reconciler: %w", err)
		}
		for _, c := range claims {
			p := newPolarClaim(c.ID, c.Scope, c.OwnerAgent, c.Model, c.Negated, c.Embedding, c.Text, c.Subject)
			ps := st.polar[subjKey{c.Workspace, c.SubjectKey}]
			ps.claims = append(ps.claims, p)
		}
		return nil
	}
	if err := load(all, true); err != nil {
		return err
	}
	if len(withNegated) > 0 {
		return load(withNegated, false)
	}
	return nil
}
