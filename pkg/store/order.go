package store

import (
	"cmp"
	"time"
)

// The order of belief and the tier rule: the one definition every writer and reader of the projection uses.
// The reconciler's LWW operator ranks with CompareBelief, and the read model (Slot, GroupSlots) picks current
// values with it and with SharedOverridesPrivate; nothing else decides which of two claims is newer.

// CompareBelief orders two claims of one slot by belief (the design's last-writer-wins): the later valid time is
// newer; at the same valid time the higher source sequence is newer when both claims have one. 0 means the two
// are truly simultaneous — the same valid time and equal sequences, or a sequence missing on either side: a
// sequence orders the claims of one numbered source, and a claim without one has no place in that order, so it
// cannot be said to come before or after. Simultaneous claims with different objects are a dispute.
func CompareBelief(aValidFrom time.Time, aSeq *int64, bValidFrom time.Time, bSeq *int64) int {
	if c := aValidFrom.Compare(bValidFrom); c != 0 {
		return c
	}
	if aSeq != nil && bSeq != nil {
		return cmp.Compare(*aSeq, *bSeq)
	}
	return 0
}

// compareBeliefs is CompareBelief over two beliefs.
func compareBeliefs(a, b *Belief) int {
	return CompareBelief(a.ValidFrom, a.Sequence, b.ValidFrom, b.Sequence)
}

// Simultaneous reports whether neither belief is newer than the other (CompareBelief is 0).
func Simultaneous(a, b *Belief) bool { return compareBeliefs(a, b) == 0 }

// Newer reports whether a is listed before b, newest first. It is CompareBelief refined into a total order
// for listing, so that every reader lists the claims of a slot the same way: among simultaneous claims, one
// with a sequence before one without, then the later transaction time, then the larger id. The refinement
// only orders a listing; which claims are current, disputed or override another tier is decided by
// CompareBelief alone.
func Newer(a, b *Belief) bool {
	if c := compareBeliefs(a, b); c != 0 {
		return c > 0
	}
	if (a.Sequence == nil) != (b.Sequence == nil) {
		return a.Sequence != nil
	}
	if !a.RecordedAt.Equal(b.RecordedAt) {
		return a.RecordedAt.After(b.RecordedAt)
	}
	return a.ID > b.ID
}

// CorroboratedAt is the number of independent sources — distinct agents (CorroborationCount), the claim's own
// included — from which a claim counts as corroborated: readers mark it, and a shared claim needs it to win
// over a reader's private claim.
const CorroboratedAt = 2

// SharedOverridesPrivate is the tier rule of a single-valued slot: a reader's private claim wins over the
// shared tier's claim unless the shared claim is newer by belief (CompareBelief > 0) and corroborated by at
// least CorroboratedAt independent sources. A tie — simultaneous by CompareBelief — goes to the private claim.
// (Accumulating slots have no winner to pick: a reader sees its private values and the shared ones together.)
func SharedOverridesPrivate(shared, private *Belief) bool {
	return compareBeliefs(shared, private) > 0 && shared.Corroborations >= CorroboratedAt
}
