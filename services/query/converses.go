package query

import (
	"context"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Converse claims of a symmetric relation. "Ana is married to Ben" files Ben's spouse as Ana as well as Ana's as
// Ben (the extractor's converses, canon.ConverseRelation). When Ana later marries Carl, Ana's slot changes and
// Ben's does not: the reconciler resolves one subject's slot at a time, and nothing in Ben's slot is newer than
// "Ben's spouse is Ana". A symmetric relation that holds one value at a time says more than either slot: if
// Ana's spouse is now Carl, Ben's is no longer Ana. So the current value of a symmetric single-valued relation is
// no longer current when the subject it names holds, in the same relation and newer than it, another value — read
// here, as endings are (endings.go), since the two claims are in two subjects' slots.

// symmetricRelation returns the canonical relation of a single-valued slot whose relation is its own converse
// (spouse), and whether it is one. A relation with many values at once (siblings) ends nothing this way.
func symmetricRelation(sl *store.Slot) (string, bool) {
	if sl.Disputed || len(sl.Winners) == 0 || !sl.Winners[0].Functional {
		return "", false
	}
	for _, key := range []string{sl.SlotKey, sl.Winners[0].PredicateKey} {
		rel := canon.RelationKey(key)
		if c, ok := canon.ConverseRelation(rel); ok && c == rel {
			return rel, true
		}
	}
	return "", false
}

// conversesNamed returns, for the subjects the current values of the slots' symmetric relations name, the
// earliest valid time of those values (a claim of the named subject ends one only from there on: store.Newer),
// and the predicate keys of those relations (each canonical key and its aliases, canon.RelationAliases).
func conversesNamed(slots []*store.Slot) (since map[string]time.Time, keys []string) {
	since = map[string]time.Time{}
	rels := map[string]bool{}
	for _, sl := range slots {
		rel, ok := symmetricRelation(sl)
		if !ok {
			continue
		}
		rels[rel] = true
		for _, w := range sl.Winners {
			named := canon.SubjectKey(w.Object)
			if named == "" || named == sl.SubjectKey {
				continue
			}
			if t, ok := since[named]; !ok || w.ValidFrom.Before(t) {
				since[named] = w.ValidFrom
			}
		}
	}
	aliases := canon.RelationAliases()
	for rel := range rels {
		keys = append(keys, rel)
		keys = append(keys, aliases[rel]...)
	}
	return since, keys
}

// endConverses removes from the slots' symmetric relations each current value whose named subject's own slot of
// that relation (among named, that subject's beliefs; their slots are resolved for the view v) holds, newer than
// the value, a value that is not the slot's subject.
func endConverses(slots []*store.Slot, named []store.Belief, v store.View) {
	if len(named) == 0 {
		return
	}
	// The named subjects' current values of each symmetric relation.
	current := map[[2]string][]*store.Belief{}
	for _, sl := range store.GroupSlots(named, v) {
		if rel, ok := symmetricRelation(sl); ok {
			id := [2]string{sl.SubjectKey, rel}
			current[id] = append(current[id], sl.Winners...)
		}
	}
	for _, sl := range slots {
		rel, ok := symmetricRelation(sl)
		if !ok {
			continue
		}
		sl.Winners = slices.DeleteFunc(slices.Clone(sl.Winners), func(w *store.Belief) bool {
			return slices.ContainsFunc(current[[2]string{canon.SubjectKey(w.Object), rel}], func(z *store.Belief) bool {
				return canon.SubjectKey(z.Object) != sl.SubjectKey && store.Newer(z, w)
			})
		})
	}
}

// conversesOf loads, for the slots' symmetric relations, the beliefs of the subjects their current values name
// that may end those values (conversesNamed), and ends them (endConverses).
func (s *Service) conversesOf(ctx context.Context, v store.View, slots []*store.Slot) error {
	since, keys := conversesNamed(slots)
	if len(since) == 0 {
		return nil
	}
	named, err := store.ClaimsByPredicateHead(ctx, s.db, v, since, nil, keys, maxEndingRows)
	if err != nil {
		return err
	}
	endConverses(slots, named, v)
	return nil
}
