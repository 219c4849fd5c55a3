package query

import (
	"context"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/store"
)

// Changes said in other words. People rarely repeat a fact's words when it changes: "My flight to Lisbon is on
// May 12" becomes "The airline moved my flight to May 13", "Olaf is a firefighter" becomes "Olaf retired from
// the fire service and now teaches first aid courses", "I'm training for the Berlin marathon" becomes "I've
// switched to swimming for now". The two land in different slots (another verb, another noun), so the
// reconciler supersedes nothing and both are current; a context that shows the first beside or instead of the
// second presents a stale value as current. Assembly therefore treats a current claim as changed when a later
// claim of the same subject
//   - is about the same thing: the stored vectors at least changeSimilarity close;
//   - says so in a word of change ("moved", "now", "instead", "my new", "switched", "rescheduled", "actually"),
//     not negated ("hasn't changed" is no change) and not part of a name ("the AI Now Institute");
//   - brings a value the earlier statement did not name (a restatement is no change: "the hotel is the same");
//   - is, of everything its subject said before it (superseded claims included), nearest to this claim: "Nadia
//     is now flying out on June 15 instead" is about her flight, not the hotel booked for the trip, though the
//     statement is close to both;
//   - superseded nothing in its own slot: the reconciler connected its change already ("Camila is in Ñuñoa
//     now" replaced where she lives, not whom she lives with, which the local embedder puts nearer).
// The later statement takes the earlier one's place in the context; the earlier one is history, shown only when
// history is asked for, as an ended value is (endings.go). Nothing is retired in the store: deciding is the
// reconciler's, and a claim it did not connect stays as it was. (Assembly does this before the quantity updates
// of updates.go: a number said again with a word of change takes the old number's place; without one it follows
// it.)

// changeSimilarity is how close a later claim's vector must be to an earlier one's to be read as a change of it:
// the closeness of two statements about one thing the quantity updates use. On the development conversations
// 0.5 reached three more changes and took two unchanged values for changed ones (an email changed in place of
// where a club meets); 0.55 one more and none.
const changeSimilarity = updateSimilarity

// reChangeCue is a word or phrase of English that says a value changed: every word of change of laterChange,
// the verbs of moving a date ("pushed back", "postponed", "rescheduled", "brought forward", "delayed"), of
// correcting oneself ("actually", "I mean", "correction"), and of a plan changed or settled anew ("change of
// plans", "ended up", "in the end", "swapped", "fell through", "rather than"). General English, not any
// dataset's wording. "Decided" and "after all" were measured and left out: in advice-seeking chat "I've decided
// to …" opens many statements about other things, and one took an unchanged value's place (BEAM).
var reChangeCue = regexp.MustCompile(`(?i)\b(?:` + changeWords +
	`|pushed|postponed|rescheduled|brought\s+forward|delayed|actually|i\s+mean|correction` +
	`|change\s+of\s+plans?|ended\s+up|in\s+the\s+end|swapped|swapping|fell\s+through|rather\s+than)\b`)

// reNewOfSomething is "new" after a possessive or "the": a new value of something had before ("my new dentist",
// "Jun's new go-to spot", "the new office"). After anything else "new" is a new thing ("loves checking out new
// parks", "got some new offers"), which changes nothing said before.
var reNewOfSomething = regexp.MustCompile(`(?i)\b(?:my|your|his|her|its|our|their|the|\w+['’]s?)\s+new$`)

// reNowOfTime is "now" in an expression of time, which says nothing changed: "for a while now", "until now",
// "by now", "right now", "just now".
var reNowOfTime = regexp.MustCompile(`(?i)\b(?:a\s+while|until|till|by|right|just|even|up\s+to)\s+now$`)

// reNegatedCue is a negation in the few words before a word of change: "hasn't changed", "did not move",
// "never left", "no new".
var reNegatedCue = regexp.MustCompile(`(?i)\b(?:not|never|no|n't|hasn't|haven't|hadn't|didn't|doesn't|don't|isn't|aren't|wasn't|won't)\W+(?:\w+\W+){0,2}$`)

// saysChange reports whether text holds a word of change that no negation just before it takes back, outside a
// name: "new" of something had before, "now" other than of time.
func saysChange(text string) bool {
	for _, m := range reChangeCue.FindAllStringIndex(text, -1) {
		switch upTo := text[:m[1]]; {
		case reNegatedCue.MatchString(text[:m[0]]), inName(text, m[0]):
		case strings.EqualFold(text[m[0]:m[1]], "new") && !reNewOfSomething.MatchString(upTo):
		case strings.EqualFold(text[m[0]:m[1]], "now") && reNowOfTime.MatchString(upTo):
		default:
			return true
		}
	}
	return false
}

// inName reports whether the word at text[at:] is capitalized inside a sentence, so part of a name ("the AI Now
// Institute", "the New York office", "the Left Bank"), not a word of change.
func inName(text string, at int) bool {
	r, _ := utf8.DecodeRuneInString(text[at:])
	before := strings.TrimRight(text[:at], " \t")
	if strings.HasPrefix(text[at:], "I ") {
		// The pronoun is capitalized anywhere ("Sorry, I mean the 14th").
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsUpper(r) && before != "" && !strings.ContainsRune(".!?:;\"“(-—", last)
}

// changes reports whether later says that earlier's value changed: a later statement of the same subject (the
// caller found it among earlier's nearest by vector), not negated, with a word of change, whose value the
// earlier statement does not already name.
func changes(earlier, later *store.Belief) bool {
	if later.Negated || later.SubjectKey != earlier.SubjectKey || later.ObjectKey == earlier.ObjectKey ||
		store.CompareBelief(later.ValidFrom, later.Sequence, earlier.ValidFrom, earlier.Sequence) <= 0 || !saysChange(later.Text) {
		return false
	}
	var names []string
	for _, n := range valueNames(later.Object) {
		if !namesAny(later.Subject, []string{n}) && !namesAny(earlier.Subject, []string{n}) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		// Nothing but the subject to name the new value by: the different object keys are all there is.
		return true
	}
	for _, n := range names {
		if !namesAny(earlier.Text, []string{n}) && !strings.EqualFold(n, earlier.Object) {
			return true
		}
	}
	return false
}

// withChanges puts in the place of each of the first updateSources current items the newest later claim among
// the search's own claims (pool: the claims read for its candidates' slots, store.SlotClaimsOf; and the items) that says the item's value
// changed (see above). The later statement is looked for among what the search found for the question, not
// among everything the subject said: comparing each item with every later claim of its subject read a dozen
// subjects' worth of vectors a search (0.3–0.5 s for a speaker with 700 claims). Without dense vectors, when
// history or a past time is asked for, or for a question in the past tense ("When did Caroline go to the support
// group?": what was said then is what is asked for, whatever was said after), it does nothing.
func (s *Service) withChanges(ctx context.Context, v store.View, p searchParams, items []item, pool map[string]*store.Belief) ([]item, error) {
	if p.dim == 0 || p.history || v.AsOf != nil || askedInThePast(p.toks) {
		return items, nil
	}
	candidates := make(map[string]*store.Belief, len(pool)+len(items))
	for id, c := range pool {
		candidates[id] = c
	}
	var sources []*store.Belief
	for _, it := range items {
		candidates[it.claim.ID] = it.claim
		if len(sources) < updateSources && changeable(it) {
			sources = append(sources, it.claim)
		}
	}
	// Only a statement of a source's subject can change it; whether one says a change is read once.
	subjects := map[string]bool{}
	for _, src := range sources {
		subjects[src.SubjectKey] = true
	}
	var saying, revivals []*store.Belief
	for _, c := range candidates {
		if subjects[c.SubjectKey] && c.Status == "active" && !c.Negated && saysChange(c.Text) {
			saying = append(saying, c)
		}
		if subjects[c.SubjectKey] && resumptionOf(c) {
			revivals = append(revivals, c)
		}
	}
	var earlier, later []string
	for _, src := range sources {
		for _, c := range saying {
			// (A change said before the value was said to hold again — "Dublin's back on" — changes nothing.)
			if changes(src, c) && !resumed(c, src, revivals) {
				earlier, later = append(earlier, src.ID), append(later, c.ID)
			}
		}
	}
	if len(earlier) == 0 {
		return items, nil
	}
	changedBy, err := s.changesAmong(ctx, v, p.dim, earlier, later, candidates)
	if err != nil || len(changedBy) == 0 {
		return items, err
	}
	at := map[string]int{}
	for i, it := range items {
		at[it.claim.ID] = i
	}
	placed := map[string]bool{}
	out := make([]item, 0, len(items))
	for i, it := range items {
		if placed[it.claim.ID] {
			continue
		}
		c := changedBy[it.claim.ID]
		if c == nil {
			out = append(out, it)
			continue
		}
		// The later statement stands in the earlier one's place, unless it is shown already.
		switch j, ok := at[c.ID]; {
		case placed[c.ID] || ok && j < i:
		case ok:
			placed[c.ID] = true
			out = append(out, items[j])
		default:
			placed[c.ID] = true
			out = append(out, item{claim: c, score: it.score})
		}
	}
	return out, nil
}

// askedInThePast reports whether a question asks about what was said then: in the past tense (a past auxiliary,
// "did", "was", "were", "had", or a verb the tagger reads as past: "Who painted …?") or in the present perfect,
// which asks for every experience up to now ("What desserts has Maria made?", "Which events have they
// attended?").
func askedInThePast(toks []qtok) bool {
	perfect := false
	for _, t := range toks {
		switch {
		case pastAuxiliary(t), t.Tag == "VBD":
			return true
		case t.Lower == "has" || t.Lower == "have" || t.Lower == "'ve":
			perfect = true
		case perfect && t.Tag == "VBN":
			return true
		}
	}
	return false
}

// changeable reports whether an item is a current value a later statement may have changed: not history, not a
// line linked to another, not a side of a conflict, which is shown for the user to settle.
func changeable(it item) bool {
	return !it.former && !it.linked && it.claim.Status == "active" && len(it.claim.Contradicts) == 0 &&
		(it.slot == nil || !it.slot.Disputed)
}

// changesAmong returns, for the earlier claims of the pairs (earlier[i], later[i]) — each later one a change of
// the earlier by its words (changes), both in claims — the newest later claim that is about the same thing by
// the stored vectors (at least changeSimilarity close), is nearest to it of all its subject said before, and
// superseded nothing in its own slot.
func (s *Service) changesAmong(ctx context.Context, v store.View, dim int, earlier, later []string,
	claims map[string]*store.Belief) (map[string]*store.Belief, error) {
	sims, err := store.PairSimilarities(ctx, s.db, v, earlier, later, dim)
	if err != nil {
		return nil, err
	}
	var kept []int
	var laters []string
	for i := range earlier {
		if sims[[2]string{earlier[i], later[i]}] >= changeSimilarity {
			kept = append(kept, i)
			laters = append(laters, later[i])
		}
	}
	if len(kept) == 0 {
		return nil, nil
	}
	about, err := store.EarlierOf(ctx, s.db, v, dedupe(laters), dim)
	if err != nil {
		return nil, err
	}
	out := map[string]*store.Belief{}
	for _, i := range kept {
		e, c := about[later[i]], claims[later[i]]
		if e.Nearest != earlier[i] || e.Replaced {
			continue
		}
		if prev := out[earlier[i]]; prev == nil || store.Newer(c, prev) {
			out[earlier[i]] = c
		}
	}
	return out, nil
}

// changedInOtherWords returns the later claim that says an answer's value changed in other words (see above),
// or nil; without dense vectors, nil. /answer has no search's claims to look among: the answer's own nearest
// later claims (one subject's, once) are the candidates.
func (s *Service) changedInOtherWords(ctx context.Context, v store.View, answer *store.Belief) (*store.Belief, error) {
	dim, err := s.denseDimension(ctx)
	if err != nil || !changeable(item{claim: answer}) {
		return nil, nil
	}
	near, claims, err := s.laterRestatements(ctx, v, []store.RestatementSource{{ID: answer.ID}}, dim, changeSimilarity)
	if err != nil || len(near) == 0 {
		return nil, err
	}
	claims[answer.ID] = answer
	var earlier, later []string
	for _, id := range near[answer.ID] {
		if c := claims[id]; c != nil && changes(answer, c) {
			earlier, later = append(earlier, answer.ID), append(later, c.ID)
		}
	}
	if len(later) == 0 {
		return nil, nil
	}
	changed, err := s.changesAmong(ctx, v, dim, earlier, later, claims)
	return changed[answer.ID], err
}
