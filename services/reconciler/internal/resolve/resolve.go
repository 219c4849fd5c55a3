// Package resolve holds the contradiction-resolution operators (TOKI) as pure, deterministic functions over a
// conflict set: the claims of one slot tier. They know nothing of Postgres or NATS, so they are unit-tested on
// their own, and the reconciler calls them with the whole tier after every change (an n-ary fold over the set),
// which is what makes the LWW outcome independent of arrival order.
//
// The pipeline for one tier is: quarantine (a claim whose content was flagged as instructions takes no part)
// → gates (await-confirmation holds claims out of the candidate set; a gate that timed out with "reject" makes
// its claim rejected) → source trust (claims are ranked level by level, most trusted first: a claim that
// contradicts a current claim of a more trusted source is rejected, one that restates it is represented by it)
// → a ranker over the remaining candidates of each level (LWW by valid time, or evidence-weighted) →
// per-claim states. With one trust level (the default) the trust stage does nothing. Which claims contradict is a relation given by the caller: for a
// functional slot every two different objects contradict unless a judge verdict says they do not; for an
// accumulating slot nothing contradicts unless a judge verdict says so. Two claims with the same object never
// contradict: they corroborate.
package resolve

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/pkg/store"
)

// Status is a claim's belief status in a tier.
type Status string

// Statuses produced by the operators ("retracted" is never produced by resolution).
const (
	Active     Status = "active"
	Superseded Status = "superseded"
	Disputed   Status = "disputed"
	Pending    Status = "pending"
	Rejected   Status = "rejected"
	// Quarantined claims carry content flagged as instructions to a model; they take no part in resolution.
	Quarantined Status = "quarantined"
)

// Ranker names the operator that ranks the admitted claims of a tier.
type Ranker string

// Rankers.
const (
	// LWW is last-writer-wins by valid time: the later valid_from wins, then the higher source sequence; equal
	// valid_from with equal or absent sequences and contradicting objects is a dispute.
	LWW Ranker = "lww"
	// Evidence is evidence-weighted merge: the value with more independent sources wins, then the higher
	// confidence; equal evidence between contradicting values is a dispute. Valid time does not decide.
	Evidence Ranker = "evidence"
)

// Valid reports whether r is a known ranker.
func (r Ranker) Valid() bool { return r == LWW || r == Evidence }

// Claim is what the operators need to know about one claim of the tier.
type Claim struct {
	ID         string
	ObjectKey  string
	ValidFrom  time.Time
	Sequence   *int64
	Confidence float32
	// Source is the independent-source key; corroboration counts distinct sources per object.
	Source string
	// Held is true while an await-confirmation gate keeps the claim out of resolution (status pending).
	Held bool
	// GateRejected is true when the gate's timeout policy rejected the claim (status rejected).
	GateRejected bool
	// Quarantined is true when the claim's content was flagged and not released (status quarantined).
	Quarantined bool
	// Trust is the claim's source trust (policy): a claim never outranks a claim of higher trust. Only the
	// order of the values matters; equal trust everywhere (the default) changes nothing.
	Trust float32
}

// Pair is an unordered pair of claim ids, stored with A < B.
type Pair struct{ A, B string }

// PairOf returns the pair of two ids in canonical order.
func PairOf(x, y string) Pair {
	if x > y {
		x, y = y, x
	}
	return Pair{A: x, B: y}
}

// Input is one tier to resolve.
type Input struct {
	Ranker Ranker
	// Functional says whether different objects contradict by default (single-valued attribute).
	Functional bool
	Claims     []Claim
	// Verdicts are judge verdicts for pairs: true means the two claims contradict. They override the default
	// relation for pairs with different objects.
	Verdicts map[Pair]bool
}

// State is the outcome for one claim.
type State struct {
	Status Status
	// ValidTo ends the claim's valid time when a later contradicting (or restating) claim took over (LWW).
	ValidTo *time.Time
	// SupersededBy is the claim that superseded or outranked this one.
	SupersededBy string
	// Why explains the state in words, without claim content (ids and keys only).
	Why string
}

// Result is the outcome for every claim of the tier.
type Result struct {
	States map[string]State
}

// Values returns the sorted distinct object keys of the active and disputed claims: "what the tier says now".
func (r Result) Values(claims []Claim) []string {
	var out []string
	for _, c := range claims {
		if s := r.States[c.ID].Status; s == Active || s == Disputed {
			out = append(out, c.ObjectKey)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Contradicts reports whether a and b contradict under in's relation.
func (in Input) Contradicts(a, b *Claim) bool {
	if a.ObjectKey == b.ObjectKey {
		return false
	}
	if v, ok := in.Verdicts[PairOf(a.ID, b.ID)]; ok {
		return v
	}
	return in.Functional
}

// CompareTime orders two claims by valid time: valid_from, then sequence when both have one. 0 means the
// claims are simultaneous (equal valid_from and equal or absent sequence). It is the projection's one order of
// belief, store.CompareBelief, which the readers use too.
func CompareTime(a, b *Claim) int {
	return store.CompareBelief(a.ValidFrom, a.Sequence, b.ValidFrom, b.Sequence)
}

// Fold resolves the tier. It is a pure function of in: the order of in.Claims does not matter.
func Fold(in Input) Result {
	claims := slices.Clone(in.Claims)
	// A canonical order makes every tie-break below independent of the caller's order.
	slices.SortFunc(claims, func(a, b Claim) int { return cmp.Compare(a.ID, b.ID) })
	in.Claims = claims
	res := Result{States: make(map[string]State, len(claims))}
	var cands []*Claim
	for i := range claims {
		c := &claims[i]
		switch {
		case c.Quarantined:
			res.States[c.ID] = State{Status: Quarantined, Why: "quarantine: content flagged as instructions to a model; held out of resolution"}
		case c.GateRejected:
			res.States[c.ID] = State{Status: Rejected, Why: "await-confirmation: not confirmed before the timeout"}
		case c.Held:
			res.States[c.ID] = State{Status: Pending, Why: "await-confirmation: held until a second independent source or an explicit confirmation"}
		default:
			cands = append(cands, c)
		}
	}
	levels := trustLevels(cands)
	if len(levels) <= 1 {
		rank(in, cands, res.States)
		return res
	}
	// Most trusted first: each level is ranked on its own, after the claims that contradict or restate a
	// current claim of a more trusted level have been settled by it.
	var above []*Claim // current (active or disputed) claims of the levels done so far
	for _, lv := range levels {
		var level []*Claim
		for _, c := range cands {
			if c.Trust != lv {
				continue
			}
			if y := firstContradicting(in, c, above); y != nil {
				res.States[c.ID] = State{Status: Rejected, SupersededBy: y.ID,
					Why: fmt.Sprintf("trust: contradicts a claim of a more trusted source (trust %g > %g)", y.Trust, c.Trust)}
				continue
			}
			if y := firstSameObject(c, above); y != nil {
				res.States[c.ID] = State{Status: Superseded, SupersededBy: y.ID,
					Why: fmt.Sprintf("trust: restates the value of a more trusted source (trust %g > %g); represented by it", y.Trust, c.Trust)}
				continue
			}
			level = append(level, c)
		}
		rank(in, level, res.States)
		for _, c := range level {
			if s := res.States[c.ID].Status; s == Active || s == Disputed {
				above = append(above, c)
			}
		}
	}
	return res
}

// rank applies the tier's ranker to cands.
func rank(in Input, cands []*Claim, out map[string]State) {
	switch {
	case in.Ranker == Evidence:
		if len(in.Verdicts) > 0 || !foldEvidenceFast(in, cands, out) {
			foldEvidence(in, cands, out)
		}
	case len(in.Verdicts) > 0 || !foldLWWFast(in, cands, out):
		foldLWW(in, cands, out)
	}
}

// trustLevels returns the distinct trust values of cands, highest first.
func trustLevels(cands []*Claim) []float32 {
	var out []float32
	for _, c := range cands {
		if !slices.Contains(out, c.Trust) {
			out = append(out, c.Trust)
		}
	}
	slices.SortFunc(out, func(a, b float32) int { return cmp.Compare(b, a) })
	return out
}

// firstContradicting returns the first claim of cs (in id order) that contradicts c, or nil.
func firstContradicting(in Input, c *Claim, cs []*Claim) *Claim {
	var best *Claim
	for _, y := range cs {
		if in.Contradicts(c, y) && (best == nil || y.ID < best.ID) {
			best = y
		}
	}
	return best
}

// firstSameObject returns the first claim of cs (in id order) with c's object, or nil.
func firstSameObject(c *Claim, cs []*Claim) *Claim {
	var best *Claim
	for _, y := range cs {
		if y.ObjectKey == c.ObjectKey && (best == nil || y.ID < best.ID) {
			best = y
		}
	}
	return best
}

// weakOrder reports whether CompareTime is a strict weak order on cs: within each valid_from either every claim
// has a sequence or none has (one present and one absent compare equal, which is not transitive otherwise).
func weakOrder(cs []*Claim) bool {
	withSeq := map[int64]bool{}
	without := map[int64]bool{}
	for _, c := range cs {
		k := c.ValidFrom.UnixNano()
		if c.Sequence != nil {
			withSeq[k] = true
		} else {
			without[k] = true
		}
		if withSeq[k] && without[k] {
			return false
		}
	}
	return true
}

// foldLWWFast is foldLWW for the common case without judge verdicts, in O(n log n): the claims that compete
// with each other form one component (functional: all of them; accumulating: those of one object), and within a
// component every later claim contradicts or restates an earlier one, so a claim's successor is the first claim of
// the next later time class. It reports false (doing nothing) when it does not apply.
func foldLWWFast(in Input, cands []*Claim, out map[string]State) bool {
	if !weakOrder(cands) {
		return false
	}
	comps := map[string][]*Claim{}
	var keys []string
	for _, c := range cands {
		k := ""
		if !in.Functional {
			k = c.ObjectKey
		}
		if _, ok := comps[k]; !ok {
			keys = append(keys, k)
		}
		comps[k] = append(comps[k], c)
	}
	for _, k := range keys {
		comp := comps[k]
		slices.SortFunc(comp, func(a, b *Claim) int {
			if c := CompareTime(a, b); c != 0 {
				return c
			}
			return cmp.Compare(a.ID, b.ID)
		})
		// Time classes: runs of simultaneous claims.
		var classes [][]*Claim
		for i, c := range comp {
			if i == 0 || CompareTime(comp[i-1], c) != 0 {
				classes = append(classes, nil)
			}
			classes[len(classes)-1] = append(classes[len(classes)-1], c)
		}
		for ci, class := range classes {
			if ci+1 < len(classes) {
				next := classes[ci+1][0] // smallest id of the next class
				for _, x := range class {
					out[x.ID] = lwwSuperseded(x, next)
				}
				continue
			}
			lwwTopClass(class, out)
		}
	}
	return true
}

// lwwSuperseded is the state of x once next (the first claim of the next later time class) took over.
func lwwSuperseded(x, next *Claim) State {
	vt := next.ValidFrom
	why := "lww: later valid_from"
	if next.ValidFrom.Equal(x.ValidFrom) {
		why = fmt.Sprintf("lww: same valid_from, higher sequence (%s > %s)", seqString(next.Sequence), seqString(x.Sequence))
	}
	if next.ObjectKey == x.ObjectKey {
		why += ", same object restated"
	}
	return State{Status: Superseded, ValidTo: &vt, SupersededBy: next.ID, Why: why}
}

// lwwTopClass resolves the latest time class of a component (class ordered by id): contradicting objects
// dispute; restatements collapse to a representative.
func lwwTopClass(class []*Claim, out map[string]State) {
	reps := map[string]*Claim{}
	for _, x := range class {
		if r, ok := reps[x.ObjectKey]; !ok || better(x, r) {
			reps[x.ObjectKey] = x
		}
	}
	for _, x := range class {
		var rivals []string
		if len(reps) > 1 {
			for _, y := range class {
				if y.ObjectKey != x.ObjectKey {
					rivals = append(rivals, y.ID)
				}
			}
		}
		switch {
		case len(rivals) > 0:
			out[x.ID] = State{Status: Disputed, Why: fmt.Sprintf("lww: simultaneous contradicting claims (same valid_from, sequence %s) with %v", seqString(x.Sequence), rivals)}
		case reps[x.ObjectKey] != x:
			out[x.ID] = State{Status: Superseded, SupersededBy: reps[x.ObjectKey].ID, Why: "lww: simultaneous restatement of the same object; represented by another claim"}
		default:
			out[x.ID] = State{Status: Active, Why: "lww: latest valid time"}
		}
	}
}

// PlainLWW reports whether in is resolved by plain LWW — the LWW ranker, no judge verdicts, no gates, no
// quarantined claims, one trust level, and within each valid_from either every claim has a sequence or none
// has — the case FoldLWWAdded handles.
func PlainLWW(in Input) bool {
	if in.Ranker != LWW || len(in.Verdicts) > 0 {
		return false
	}
	ptrs := make([]*Claim, len(in.Claims))
	for i := range in.Claims {
		c := &in.Claims[i]
		if c.Held || c.GateRejected || c.Quarantined || c.Trust != in.Claims[0].Trust {
			return false
		}
		ptrs[i] = c
	}
	return weakOrder(ptrs)
}

// FoldLWWAdded is the incremental form of Fold for plain LWW (see PlainLWW; the caller checks it, and that adding
// the claim did not change in.Functional): given the tier including the newly added claim id, it returns the states
// of exactly the claims whose state can differ from the fold without it — the claim itself, the other claims of
// its time class and the claims of the class just before it, within its component — equal to what Fold gives
// them. Every other claim keeps its previous state. It costs O(n) scans, no sort.
func FoldLWWAdded(in Input, id string) map[string]State {
	var n *Claim
	for i := range in.Claims {
		if in.Claims[i].ID == id {
			n = &in.Claims[i]
			break
		}
	}
	out := map[string]State{}
	if n == nil {
		return out
	}
	var class, prev []*Claim
	var after *Claim // the first claim of the class after n's
	for i := range in.Claims {
		y := &in.Claims[i]
		if !in.Functional && y.ObjectKey != n.ObjectKey {
			continue // another component
		}
		switch c := CompareTime(y, n); {
		case c == 0:
			class = append(class, y)
		case c < 0:
			if len(prev) == 0 || CompareTime(y, prev[0]) > 0 {
				prev = append(prev[:0], y)
			} else if CompareTime(y, prev[0]) == 0 {
				prev = append(prev, y)
			}
		default:
			if after == nil || CompareTime(y, after) < 0 || (CompareTime(y, after) == 0 && y.ID < after.ID) {
				after = y
			}
		}
	}
	byID := func(a, b *Claim) int { return cmp.Compare(a.ID, b.ID) }
	slices.SortFunc(class, byID)
	for _, x := range prev {
		out[x.ID] = lwwSuperseded(x, class[0])
	}
	if after != nil {
		for _, x := range class {
			out[x.ID] = lwwSuperseded(x, after)
		}
	} else {
		lwwTopClass(class, out)
	}
	return out
}

// foldEvidenceFast is foldEvidence without judge verdicts, in O(n log n): per object the evidence and the
// representative are computed once; in a functional slot a value is outranked by the best other value.
func foldEvidenceFast(in Input, cands []*Claim, out map[string]State) bool {
	w := weights(cands)
	reps := map[string]*Claim{}
	for _, c := range cands {
		if r, ok := reps[c.ObjectKey]; !ok || repBefore(c, r) {
			reps[c.ObjectKey] = c
		}
	}
	objs := make([]string, 0, len(w))
	for o := range w {
		objs = append(objs, o)
	}
	// Best first; ties by representative order so "the best contradicting claim" matches foldEvidence.
	slices.SortFunc(objs, func(a, b string) int {
		if c := w[b].compare(w[a]); c != 0 {
			return c
		}
		if repBefore(reps[a], reps[b]) {
			return -1
		}
		if repBefore(reps[b], reps[a]) {
			return 1
		}
		return 0
	})
	for _, x := range cands {
		wx := w[x.ObjectKey]
		if in.Functional {
			// The best value other than x's.
			best := ""
			for _, o := range objs {
				if o != x.ObjectKey {
					best = o
					break
				}
			}
			if best != "" {
				switch c := w[best].compare(wx); {
				case c > 0:
					wb := w[best]
					out[x.ID] = State{Status: Rejected, SupersededBy: reps[best].ID,
						Why: fmt.Sprintf("evidence: contradicting value has more evidence (%d sources, confidence %g vs %d, %g)", wb.sources, wb.confidence, wx.sources, wx.confidence)}
					continue
				case c == 0:
					out[x.ID] = State{Status: Disputed, Why: fmt.Sprintf("evidence: contradicting values with equal evidence (%d sources, confidence %g)", wx.sources, wx.confidence)}
					continue
				}
			}
		}
		if rep := reps[x.ObjectKey]; rep != x {
			out[x.ID] = State{Status: Superseded, SupersededBy: rep.ID, Why: "evidence: same object; represented by a later claim"}
			continue
		}
		out[x.ID] = State{Status: Active, Why: fmt.Sprintf("evidence: best supported value (%d sources, confidence %g)", wx.sources, wx.confidence)}
	}
	return true
}

func seqString(s *int64) string {
	if s == nil {
		return "none"
	}
	return fmt.Sprint(*s)
}

// foldLWW: a claim is superseded by its nearest later claim that contradicts or restates it (its valid time
// ends where that one's begins); a claim nothing later contradicts is disputed when a simultaneous claim
// contradicts it, and otherwise active — except that simultaneous restatements of the same object collapse to
// one representative (highest confidence, then smallest id), the others superseded by it.
func foldLWW(in Input, cands []*Claim, out map[string]State) {
	for _, x := range cands {
		var next *Claim
		for _, y := range cands {
			if y == x || CompareTime(y, x) <= 0 {
				continue
			}
			if y.ObjectKey != x.ObjectKey && !in.Contradicts(x, y) {
				continue
			}
			if next == nil || CompareTime(y, next) < 0 || (CompareTime(y, next) == 0 && y.ID < next.ID) {
				next = y
			}
		}
		if next != nil {
			vt := next.ValidFrom
			why := "lww: later valid_from"
			if next.ValidFrom.Equal(x.ValidFrom) {
				why = fmt.Sprintf("lww: same valid_from, higher sequence (%s > %s)", seqString(next.Sequence), seqString(x.Sequence))
			}
			if next.ObjectKey == x.ObjectKey {
				why += ", same object restated"
			}
			out[x.ID] = State{Status: Superseded, ValidTo: &vt, SupersededBy: next.ID, Why: why}
			continue
		}
		var rivals []string
		rep := x
		for _, y := range cands {
			if y == x || CompareTime(y, x) != 0 {
				continue
			}
			if in.Contradicts(x, y) {
				rivals = append(rivals, y.ID)
			} else if y.ObjectKey == x.ObjectKey && better(y, rep) {
				rep = y
			}
		}
		switch {
		case len(rivals) > 0:
			out[x.ID] = State{Status: Disputed, Why: fmt.Sprintf("lww: simultaneous contradicting claims (same valid_from, sequence %s) with %v", seqString(x.Sequence), rivals)}
		case rep != x:
			out[x.ID] = State{Status: Superseded, SupersededBy: rep.ID, Why: "lww: simultaneous restatement of the same object; represented by another claim"}
		default:
			out[x.ID] = State{Status: Active, Why: "lww: latest valid time"}
		}
	}
}

// better orders representatives of the same object: higher confidence, then smaller id.
func better(a, b *Claim) bool {
	if a.Confidence != b.Confidence {
		return a.Confidence > b.Confidence
	}
	return a.ID < b.ID
}

type weight struct {
	sources    int
	confidence float32
}

func (w weight) compare(v weight) int {
	if c := cmp.Compare(w.sources, v.sources); c != 0 {
		return c
	}
	return cmp.Compare(w.confidence, v.confidence)
}

// weights returns, per object key, the evidence of the candidates: distinct independent sources and the highest
// confidence.
func weights(cands []*Claim) map[string]weight {
	srcs := map[string]map[string]bool{}
	w := map[string]weight{}
	for _, c := range cands {
		if srcs[c.ObjectKey] == nil {
			srcs[c.ObjectKey] = map[string]bool{}
		}
		srcs[c.ObjectKey][c.Source] = true
		cur := w[c.ObjectKey]
		cur.sources = len(srcs[c.ObjectKey])
		cur.confidence = max(cur.confidence, c.Confidence)
		w[c.ObjectKey] = cur
	}
	return w
}

// foldEvidence: a claim is rejected when a contradicting value has more evidence (independent sources, then
// confidence), disputed when a contradicting value has equal evidence and none more, else its value wins; the
// claims of a winning value collapse to one representative (latest valid time, then confidence, then id).
func foldEvidence(in Input, cands []*Claim, out map[string]State) {
	w := weights(cands)
	for _, x := range cands {
		wx := w[x.ObjectKey]
		var best *Claim
		tied := false
		for _, y := range cands {
			if y == x || !in.Contradicts(x, y) {
				continue
			}
			switch c := w[y.ObjectKey].compare(wx); {
			case c > 0:
				if best == nil || w[y.ObjectKey].compare(w[best.ObjectKey]) > 0 ||
					(w[y.ObjectKey].compare(w[best.ObjectKey]) == 0 && repBefore(y, best)) {
					best = y
				}
			case c == 0:
				tied = true
			}
		}
		if best != nil {
			wb := w[best.ObjectKey]
			out[x.ID] = State{Status: Rejected, SupersededBy: best.ID,
				Why: fmt.Sprintf("evidence: contradicting value has more evidence (%d sources, confidence %g vs %d, %g)", wb.sources, wb.confidence, wx.sources, wx.confidence)}
			continue
		}
		if tied {
			out[x.ID] = State{Status: Disputed, Why: fmt.Sprintf("evidence: contradicting values with equal evidence (%d sources, confidence %g)", wx.sources, wx.confidence)}
			continue
		}
		rep := x
		for _, y := range cands {
			if y.ObjectKey == x.ObjectKey && repBefore(y, rep) {
				rep = y
			}
		}
		if rep != x {
			out[x.ID] = State{Status: Superseded, SupersededBy: rep.ID, Why: "evidence: same object; represented by a later claim"}
			continue
		}
		out[x.ID] = State{Status: Active, Why: fmt.Sprintf("evidence: best supported value (%d sources, confidence %g)", wx.sources, wx.confidence)}
	}
}

// repBefore orders claims of one value for representation: later valid time, then higher confidence, then
// smaller id.
func repBefore(a, b *Claim) bool {
	if c := CompareTime(a, b); c != 0 {
		return c > 0
	}
	return better(a, b)
}

// Conflicts reports whether admitting claim id (held in in) would change the belief about a different object:
// some admitted claim that is active or disputed without it would change status, and has another object. It
// is the precondition of await-confirmation: a claim that only restates, or arrives already outranked, is
// admitted at once.
func Conflicts(in Input, id string) bool {
	without := Fold(in)
	with := in
	with.Claims = slices.Clone(in.Claims)
	var obj string
	for i := range with.Claims {
		if with.Claims[i].ID == id {
			with.Claims[i].Held = false
			obj = with.Claims[i].ObjectKey
		}
	}
	after := Fold(with)
	for _, c := range in.Claims {
		if c.ID == id || c.ObjectKey == obj {
			continue
		}
		before := without.States[c.ID].Status
		if (before == Active || before == Disputed) && after.States[c.ID].Status != before {
			return true
		}
	}
	return false
}
