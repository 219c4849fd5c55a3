package query

import (
	"sort"
)

// corroboratedAt is the number of independent sources (corroborations rows) from which a shared claim counts
// as corroborated when it competes with the caller's private claim.
const corroboratedAt = 2

// slot is one attribute of one subject as the caller sees it: the claims the view selected, and the
// deterministic resolution of which of them is the current value.
type slot struct {
	subjectKey, slotKey string
	claims              []*claimRow
	// winners are the current values, newest first: one claim for a resolved functional slot, every side for
	// a disputed one, every value for an accumulating one.
	winners []*claimRow
	// disputed is true when the current value is contested (both sides are in winners).
	disputed bool
	// overridden are claims of the other tier that lost to the caller's view (private over shared).
	overridden []*claimRow
	// quarantined are the slot's quarantined claims, when the view asked for them: shown flagged, never a
	// current value, never history.
	quarantined []*claimRow
}

func slotID(subjectKey, slotKey string) [2]string { return [2]string{subjectKey, slotKey} }

// groupSlots groups rows by (subject_key, slot_key) and resolves each slot for agent as view v sees it.
// Slots come out in a deterministic order (by newest winner, then key).
func groupSlots(rows []claimRow, agent string, v view) []*slot {
	by := map[[2]string]*slot{}
	var order [][2]string
	for i := range rows {
		r := &rows[i]
		id := slotID(r.SubjectKey, r.SlotKey)
		s := by[id]
		if s == nil {
			s = &slot{subjectKey: r.SubjectKey, slotKey: r.SlotKey}
			by[id] = s
			order = append(order, id)
		}
		if r.Status == statusQuarantined {
			s.quarantined = append(s.quarantined, r)
			continue
		}
		s.claims = append(s.claims, r)
	}
	out := make([]*slot, 0, len(order))
	for _, id := range order {
		s := by[id]
		s.resolve(agent, v.candidate)
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if len(a.winners) > 0 && len(b.winners) > 0 && a.winners[0] != b.winners[0] {
			return newer(a.winners[0], b.winners[0])
		}
		if a.subjectKey != b.subjectKey {
			return a.subjectKey < b.subjectKey
		}
		return a.slotKey < b.slotKey
	})
	return out
}

// resolve picks the slot's current values among the claims that candidate accepts (true now, or at as_of;
// history rows never win). The rule is the design's deterministic assembly: the
// latest by (valid time, sequence) wins; the caller's private tier wins over the shared tier unless the
// shared claim is newer and corroborated; a disputed or truly simultaneous conflict keeps every side.
func (s *slot) resolve(agent string, candidate func(*claimRow) bool) {
	var priv, shared []*claimRow
	functional := false
	for _, c := range s.claims {
		if !candidate(c) {
			continue
		}
		functional = functional || c.Functional
		if c.Scope == "private" && c.Owner == agent {
			priv = append(priv, c)
		} else {
			shared = append(shared, c)
		}
	}
	byNewest := func(cs []*claimRow) {
		sort.SliceStable(cs, func(i, j int) bool { return newer(cs[i], cs[j]) })
	}
	byNewest(priv)
	byNewest(shared)
	if !functional {
		all := append(append([]*claimRow{}, priv...), shared...)
		byNewest(all)
		s.winners = dedupeObjects(all)
		return
	}
	tierWinners := func(cs []*claimRow) ([]*claimRow, bool) {
		if len(cs) == 0 {
			return nil, false
		}
		top := cs[0]
		sides := []*claimRow{top}
		disputed := top.Status == "disputed"
		for _, c := range cs[1:] {
			if c.ObjectKey == top.ObjectKey {
				continue
			}
			if c.Status == "disputed" && disputed || simultaneous(c, top) {
				sides = append(sides, c)
				disputed = true
			}
		}
		return dedupeObjects(sides), disputed
	}
	pw, pd := tierWinners(priv)
	sw, sd := tierWinners(shared)
	switch {
	case len(pw) == 0:
		s.winners, s.disputed = sw, sd
	case len(sw) == 0:
		s.winners, s.disputed = pw, pd
	case sharedOverrides(sw[0], pw[0]):
		s.winners, s.disputed = sw, sd
		s.overridden = pw
	default:
		s.winners, s.disputed = pw, pd
		s.overridden = sw
	}
}

// sharedOverrides is the tier rule of the design: the caller's private claim wins a tie with the shared tier
// unless the shared claim is newer and corroborated. Newer is a later valid time, strictly: equal valid times
// are a tie whatever the transaction times, and sequences are ordinals of one source, which say nothing across
// the tiers of different agents. Corroborated is at least corroboratedAt independent agents.
func sharedOverrides(shared, private *claimRow) bool {
	return shared.ValidFrom.After(private.ValidFrom) && shared.Corroborations >= corroboratedAt
}

// dedupeObjects keeps the first claim of each object value.
func dedupeObjects(cs []*claimRow) []*claimRow {
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

// conflictsOf returns the ids a claim is in conflict with inside its slot: the other sides of a dispute, or
// the claims that superseded it.
func (s *slot) conflictsOf(c *claimRow) []string {
	var out []string
	if s.disputed {
		for _, w := range s.winners {
			if w != c && w.ID != c.ID {
				out = append(out, w.ID)
			}
		}
	}
	out = append(out, c.SupersededBy...)
	return out
}
