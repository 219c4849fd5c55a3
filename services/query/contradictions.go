package query

import (
	"cmp"
	"context"
	"slices"

	"github.com/mneme-ai/mneme/pkg/store"
)

// contradictionPartnersMax bounds how many contradicting claims assembly brings in after one claim; every visible
// partner is still listed in the claim's conflicts.
const contradictionPartnersMax = 2

// withContradictions co-surfaces contradiction links (a negated claim and the positive claims it contradicts,
// recorded by the reconciler in the contradictions table): every assembled claim lists its visible partners in
// Contradicts, and its partners follow it right away — pulled forward when they were further down, loaded when
// retrieval did not find them — marked as linked so they travel with it through the budget. Partners that were
// said before the negation they are linked with come first (changedSince), then in the order of what the
// question asked: those retrieval ranked (cands) by their fused score, then the others by their similarity to
// the question, then to the claim, so of a negation's several partners the one the question is about is shown. A partner the view
// cannot see (another agent's private claim, or not believed at the view's times) is never loaded, listed or
// shown.
func (s *Service) withContradictions(ctx context.Context, v store.View, p searchParams, items []item, cands []candidate) ([]item, error) {
	if len(items) == 0 {
		return items, nil
	}
	ids := make([]string, 0, len(items))
	have := map[string]*store.Belief{}
	for _, it := range items {
		ids = append(ids, it.claim.ID)
		have[it.claim.ID] = it.claim
	}
	links, err := store.LinksOf(ctx, s.db, v.Workspace, ids)
	if err != nil {
		return nil, err
	}
	var missing []string
	for _, l := range links {
		for _, id := range []string{l.ClaimA, l.ClaimB} {
			if have[id] == nil && !slices.Contains(missing, id) {
				missing = append(missing, id)
			}
		}
	}
	if len(links) == 0 {
		return items, nil
	}
	if len(missing) > 0 {
		// The partners retrieval did not bring, through the same visibility and belief filters — and with the
		// superseded among them: "User has never used Bootstrap" contradicts "User is setting up a project with
		// Bootstrap" even after a later plan replaced that one in its slot, for what was said was once true.
		// Such a partner is shown as former.
		pv := v
		pv.History = true
		partners, err := store.ClaimsByID(ctx, s.db, pv, missing)
		if err != nil {
			return nil, err
		}
		for i := range partners {
			have[partners[i].ID] = &partners[i]
		}
	}
	sims := map[[2]string]float64{}
	for _, l := range links {
		ca, cb := have[l.ClaimA], have[l.ClaimB]
		if ca == nil || cb == nil {
			continue // one side is not visible in this view
		}
		ca.Contradicts = append(ca.Contradicts, cb.ID)
		cb.Contradicts = append(cb.Contradicts, ca.ID)
		sims[[2]string{ca.ID, cb.ID}], sims[[2]string{cb.ID, ca.ID}] = l.Similarity, l.Similarity
	}
	toQuery, err := s.querySimilarity(ctx, v, p, have)
	if err != nil {
		return nil, err
	}
	retrieved := make(map[string]float64, len(cands))
	for _, c := range cands {
		retrieved[c.id] = c.score
	}
	for _, r := range have {
		if len(r.Contradicts) > 1 {
			id := r.ID
			slices.SortFunc(r.Contradicts, func(x, y string) int {
				if c := cmp.Compare(changedSince(r, have[x]), changedSince(r, have[y])); c != 0 {
					return c
				}
				if c := cmp.Compare(retrieved[y], retrieved[x]); c != 0 {
					return c
				}
				if c := cmp.Compare(toQuery[y], toQuery[x]); c != 0 {
					return c
				}
				if c := cmp.Compare(sims[[2]string{id, y}], sims[[2]string{id, x}]); c != 0 {
					return c
				}
				return cmp.Compare(x, y)
			})
			r.Contradicts = slices.Compact(r.Contradicts)
		}
	}
	// Re-order: each claim, then its partners.
	at := map[string]int{}
	for i, it := range items {
		at[it.claim.ID] = i
	}
	placed := map[string]bool{}
	out := make([]item, 0, len(items))
	for _, it := range items {
		if placed[it.claim.ID] {
			continue
		}
		placed[it.claim.ID] = true
		out = append(out, it)
		for i, pid := range it.claim.Contradicts {
			if i >= contradictionPartnersMax {
				break
			}
			if placed[pid] {
				continue
			}
			placed[pid] = true
			p := item{claim: have[pid], score: it.score, former: have[pid].Status == store.StatusSuperseded}
			if j, ok := at[pid]; ok {
				p = items[j]
			}
			p.linked = true
			out = append(out, p)
		}
	}
	return out, nil
}

// changedSince orders a claim's contradiction partners (0 first): 1 when the pair reads as a change rather than
// a contradiction — the positive statement was made after the negative one ("I have never used Docker", then a
// week later "I'm using Docker for the tests"): someone who had never done a thing may start doing it, while a
// "never" said after a positive statement denies what was said before. Both stay linked and listed; the
// partners shown first are those the two statements cannot both have been true of.
func changedSince(r, partner *store.Belief) int {
	neg, pos := r, partner
	if !neg.Negated {
		neg, pos = partner, r
	}
	if neg.Negated && !pos.Negated && pos.ValidFrom.After(neg.ValidFrom) {
		return 1
	}
	return 0
}

// querySimilarity returns the cosine similarity of the question to each linked claim in have (none without a
// query embedding), read from the stored vectors of the pinned model.
func (s *Service) querySimilarity(ctx context.Context, v store.View, p searchParams, have map[string]*store.Belief) (map[string]float64, error) {
	out := map[string]float64{}
	if p.qvec == nil {
		return out, nil
	}
	var ids []string
	for id, r := range have {
		if len(r.Contradicts) > 0 {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return out, nil
	}
	return store.Similarities(ctx, s.db, v, ids, p.qvec, p.dim)
}
