package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"time"
)

// Slot is one attribute of one subject as a reader sees it: the beliefs the view selected, and the
// deterministic resolution of which of them is the current value. The reader never decides which value is
// newer; the slot does, with CompareBelief and the tier rule.
type Slot struct {
	SubjectKey, SlotKey string
	// Claims are the slot's beliefs the view selected, quarantined ones aside.
	Claims []*Belief
	// Winners are the current values, newest first: one claim for a resolved single-valued slot, every side
	// for a disputed one, every value for an accumulating one.
	Winners []*Belief
	// Disputed is true when the current value is contested (both sides are in Winners).
	Disputed bool
	// Overridden are claims of the other tier that lost to the reader's view (private over shared).
	Overridden []*Belief
	// Quarantined are the slot's quarantined claims, when the view asked for them: shown flagged, never a
	// current value, never history.
	Quarantined []*Belief
}

// SlotID is the key of a slot in a map: (subject_key, slot_key).
func SlotID(subjectKey, slotKey string) [2]string { return [2]string{subjectKey, slotKey} }

// GroupSlots groups beliefs by (subject_key, slot_key) and resolves each slot for the view's reader. Slots come
// out in a deterministic order (by newest winner, then key).
func GroupSlots(rows []Belief, v View) []*Slot {
	by := map[[2]string]*Slot{}
	var order [][2]string
	for i := range rows {
		r := &rows[i]
		id := SlotID(r.SubjectKey, r.SlotKey)
		s := by[id]
		if s == nil {
			s = &Slot{SubjectKey: r.SubjectKey, SlotKey: r.SlotKey}
			by[id] = s
			order = append(order, id)
		}
		if r.Status == StatusQuarantined {
			s.Quarantined = append(s.Quarantined, r)
			continue
		}
		s.Claims = append(s.Claims, r)
	}
	out := make([]*Slot, 0, len(order))
	for _, id := range order {
		s := by[id]
		s.resolve(v.Agent, v.Candidate)
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if len(a.Winners) > 0 && len(b.Winners) > 0 && a.Winners[0] != b.Winners[0] {
			return Newer(a.Winners[0], b.Winners[0])
		}
		if a.SubjectKey != b.SubjectKey {
			return a.SubjectKey < b.SubjectKey
		}
		return a.SlotKey < b.SlotKey
	})
	return out
}

// resolve picks the slot's current values among the claims that candidate accepts (true now, or at as_of;
// history rows never win): the design's deterministic assembly. In a single-valued slot each tier's newest
// claim by CompareBelief wins, simultaneous contradicting claims (or claims the reconciler marked disputed)
// keep every side, and the reader's private tier wins over the shared tier unless SharedOverridesPrivate. An
// accumulating slot's current values are every tier's values together.
func (s *Slot) resolve(agent string, candidate func(*Belief) bool) {
	var priv, shared []*Belief
	functional := false
	for _, c := range s.Claims {
		if !candidate(c) {
			continue
		}
		functional = functional || c.Functional
		if c.Scope == ScopePrivate && c.Owner == agent {
			priv = append(priv, c)
		} else {
			shared = append(shared, c)
		}
	}
	byNewest := func(cs []*Belief) {
		sort.SliceStable(cs, func(i, j int) bool { return Newer(cs[i], cs[j]) })
	}
	byNewest(priv)
	byNewest(shared)
	if !functional {
		all := append(append([]*Belief{}, priv...), shared...)
		byNewest(all)
		s.Winners = DedupeObjects(all)
		return
	}
	tierWinners := func(cs []*Belief) ([]*Belief, bool) {
		if len(cs) == 0 {
			return nil, false
		}
		top := cs[0]
		sides := []*Belief{top}
		disputed := top.Status == StatusDisputed
		for _, c := range cs[1:] {
			if c.ObjectKey == top.ObjectKey {
				continue
			}
			if c.Status == StatusDisputed && disputed || Simultaneous(c, top) {
				sides = append(sides, c)
				disputed = true
			}
		}
		return DedupeObjects(sides), disputed
	}
	pw, pd := tierWinners(priv)
	sw, sd := tierWinners(shared)
	switch {
	case len(pw) == 0:
		s.Winners, s.Disputed = sw, sd
	case len(sw) == 0:
		s.Winners, s.Disputed = pw, pd
	case SharedOverridesPrivate(sw[0], pw[0]):
		s.Winners, s.Disputed = sw, sd
		s.Overridden = pw
	default:
		s.Winners, s.Disputed = pw, pd
		s.Overridden = sw
	}
}

// DedupeObjects keeps the first claim of each object value.
func DedupeObjects(cs []*Belief) []*Belief {
	seen := map[string]bool{}
	out := cs[:0:0]
	for _, c := range cs {
		k := c.ObjectKey
		if k == "" {
			k = c.Object
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, c)
	}
	return out
}

// ConflictsOf returns the ids a claim is in conflict with inside its slot: the other sides of a dispute, or
// the claims that superseded it.
func (s *Slot) ConflictsOf(c *Belief) []string {
	var out []string
	if s.Disputed {
		for _, w := range s.Winners {
			if w != c && w.ID != c.ID {
				out = append(out, w.ID)
			}
		}
	}
	out = append(out, c.SupersededBy...)
	return out
}

// currentLimit bounds the beliefs CurrentBeliefs and BeliefsAt read about one subject.
const currentLimit = 5000

// CurrentBeliefs returns what agent reads as true now about subjectKey (every slot, or only slot when it is
// not empty): each slot's current values as GroupSlots resolves them, by slot key, then valid time.
func CurrentBeliefs(ctx context.Context, q Querier, ws, agent, subjectKey, slot string) ([]Belief, error) {
	return winners(ctx, q, View{Workspace: ws, Agent: agent}, subjectKey, slot)
}

// BeliefsAt returns what agent reads about subjectKey as true at valid time validAt, as memory believed it at
// transaction time knownAt: each slot's values at validAt among the belief versions held at knownAt, resolved
// as CurrentBeliefs resolves the current ones.
func BeliefsAt(ctx context.Context, q Querier, ws, agent, subjectKey string, validAt, knownAt time.Time) ([]Belief, error) {
	return winners(ctx, q, View{Workspace: ws, Agent: agent, AsOf: &validAt, KnownAt: &knownAt}, subjectKey, "")
}

func winners(ctx context.Context, q Querier, v View, subjectKey, slot string) ([]Belief, error) {
	rows, err := ClaimsBySubjects(ctx, q, v, []string{subjectKey}, currentLimit)
	if err != nil {
		return nil, fmt.Errorf("store: beliefs about %q: %w", subjectKey, err)
	}
	var out []Belief
	for _, s := range GroupSlots(rows, v) {
		if slot != "" && s.SlotKey != slot {
			continue
		}
		for _, w := range s.Winners {
			out = append(out, *w)
		}
	}
	slices.SortStableFunc(out, func(a, b Belief) int {
		if a.SlotKey != b.SlotKey {
			if a.SlotKey < b.SlotKey {
				return -1
			}
			return 1
		}
		return a.ValidFrom.Compare(b.ValidFrom)
	})
	return out, nil
}

// History returns every claim of a slot that agent may read, each with its current belief version whatever its
// status, oldest first.
func History(ctx context.Context, q Querier, ws, agent, subjectKey, slot string) ([]Belief, error) {
	v := View{Workspace: ws, Agent: agent}
	a := v.Args()
	a["subj"], a["slot"] = subjectKey, slot
	bs, err := queryBeliefs(ctx, q, `SELECT `+BeliefColumns+`
		FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
		WHERE `+v.Visible()+` AND c.subject_key = @subj AND c.slot_key = @slot
		ORDER BY c.valid_from, c.sequence NULLS FIRST, c.id`, a)
	if err != nil {
		return nil, fmt.Errorf("store: history of %q/%q: %w", subjectKey, slot, err)
	}
	return bs, nil
}
