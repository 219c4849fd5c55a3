package query

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Ended values. People say that something stopped holding without saying what holds instead: "we lost
// Biscuit last week", "finally traded in the Civic", "I finished Gilmore Girls", "I've stopped running",
// "Hannah and I broke up". The statement is a claim of its own relation ("lost", "traded in"), so the
// reconciler, which resolves one slot at a time, cannot retire the value it ends: "Hiroshi's dog is Biscuit"
// stays the current value of the dog slot. The reader does it, deterministically, as it resolves slots: a
// current value of a subject is ended when a later claim of the same subject with an ending verb names it —
// its object names the value ("the Civic" in "a 2012 Honda Civic"), or, for an activity, its gerund is the
// value's verb ("stopped running" ends "runs 30 km a week"). Likewise a new value of an attribute named by one
// noun replaces an older statement about a thing of that kind ("my hotel is now the Maven" after "booked the
// Crawford Hotel"; replacesByKind). An ended value is no longer current: /answer does
// not give it, /search shows it as history only, and the ending claim itself, which says what happened, stays
// current.

// endingVerbs are the English verbs that end a possession, a relationship, an activity or a plan, by lemma;
// the value is particles the verb needs to mean that ("give up", "trade in", "break up"), empty when none.
// They are everyday English (how people report that something is over), not any dataset's wording.
var endingVerbs = map[string][]string{
	"sell": nil, "lose": nil, "rehome": nil, "quit": nil, "leave": nil, "stop": nil, "finish": nil, "end": nil,
	"cancel": nil, "divorce": nil, "retire": nil, "replace": nil, "dump": nil, "scrap": nil, "abandon": nil,
	"give": {"up", "away", "back"}, "trade": {"in", "away"}, "break": {"up"}, "get": {"rid"}, "move": {"out", "away"},
	"drop": {"out"}, "sign": {"off"}, "switch": {"from"}, "call": {"off"}, "upgrade": {"from"}, "downgrade": {"from"},
}

// acquisitionVerbs are the English verbs, by lemma, with which someone says they came to have a thing or took
// up an activity: what they got in the same statement in which they gave up another ("traded in the Civic,
// bought a RAV4"; "gave up violin and is learning the drums") takes the ended thing's place. Everyday English of
// possessions and pastimes, not any dataset's wording.
var acquisitionVerbs = map[string]bool{"buy": true, "purchase": true, "get": true, "adopt": true, "lease": true, "order": true,
	"learn": true, "start": true, "take": true, "pick": true, "switch": true, "join": true, "choose": true,
	"go": true, "opt": true, "settle": true, "upgrade": true, "downgrade": true}

// acquisitionParticles are the particles some acquisition verbs need to mean choosing ("went with Tele2", "opted
// for a Kia", "settled on the blue one"); without them they say something else ("went to Paris").
var acquisitionParticles = map[string][]string{"go": {"with"}, "opt": {"for"}, "settle": {"on"}}

// resumptionVerbs are the English verbs, by lemma, with which someone says a thing they had called off or
// given up holds again ("we revived the Dublin move", "resumed the lessons"; the extractor says "the Dublin move
// is back on" so): an ending older than the resumption no longer ends the value it names.
var resumptionVerbs = map[string]bool{"revive": true, "resume": true, "reinstate": true}

// namedEndingVerbs end a value only when they name it ("I dropped Telia", "we ditched Netflix"): with a common
// noun they say something else ("dropped the kids at school").
var namedEndingVerbs = map[string]bool{"drop": true, "ditch": true}

// ownEndingVerbs are the English verbs, by lemma, with which a named value says its own part is over, as the
// subject of the statement: a pet or a person who died ("Smudge died in the spring", "Grandpa passed away"),
// a doctor or a captain who retired, resigned or stepped down, a flatmate who moved out, an employer or a shop
// that went bust, went under or closed down ("Tilt went bust in July"). The value is the particles the verb
// needs to mean that, empty when none. "Leave" is not among them: "Tom left early" ends nothing.
var ownEndingVerbs = map[string][]string{
	"die": nil, "pass": {"away", "on"}, "retire": nil, "resign": nil, "step": {"down"}, "move": {"out", "away"},
	"quit": nil, "go": {"bust", "under"}, "close": {"down"}, "shut": {"down"},
}

// ownEnding reports whether a claim says its subject's own part ended (ownEndingVerbs); negated, it does not,
// nor does one that names a place ("died in Princeton", "retired to Spain"): that is a fact of a life as a
// record states it, whose time is not the time of the values it would end ("the author of the novel is Mann").
func ownEnding(c *store.Belief) bool {
	ws := splitWords(c.Predicate)
	if c.Negated || len(ws) == 0 || namesAPlace(c.Object) {
		return false
	}
	parts, ok := ownEndingVerbs[relLemma(ws[0])]
	if !ok || len(parts) == 0 {
		return ok
	}
	// The particle is the predicate's second word, or, where the extractor left it out, the object's first
	// ("passed" "away").
	if len(ws) > 1 {
		return contains(parts, ws[1])
	}
	ow := splitWords(c.Object)
	return len(ow) > 0 && contains(parts, ow[0])
}

// namesAPlace reports an object that is a name other than a time's: capitalized, and naming no month, day or
// year ("Princeton", "Spain" — not "March 2024", "Monday").
func namesAPlace(object string) bool {
	ws := splitWords(object)
	return nlp.Capitalized(object) && !mentionsMonthOrDay(object) && !(len(ws) > 0 && isYear(ws[0]))
}

// lastingRelations are the relations to a person that outlast the person's own endings: a grandmother who died
// is still one's grandmother, a friend who moved away still a friend. English kinship and marriage terms, and
// friendship, by canonical key.
var lastingRelations = map[string]bool{
	"parent": true, "father": true, "mother": true, "child": true, "son": true, "daughter": true, "sibling": true,
	"brother": true, "sister": true, "grandparent": true, "grandmother": true, "grandfather": true,
	"grandchild": true, "grandson": true, "granddaughter": true, "cousin": true, "aunt": true, "uncle": true,
	"niece": true, "nephew": true, "twin": true, "spouse": true, "wife": true, "husband": true, "friend": true,
}

// ownEndingHeads are the first words an own ending's predicate key may start with (endingHeads' forms of
// ownEndingVerbs).
var ownEndingHeads = func() []string {
	var out []string
	for _, h := range endingHeads {
		if _, ok := ownEndingVerbs[relLemma(h)]; ok {
			out = append(out, h)
		}
	}
	return out
}()

// ownEndingsAmong returns the claims among rows that say their subject's own part ended (ownEnding), not
// quarantined.
func ownEndingsAmong(rows []store.Belief) []store.Belief {
	var out []store.Belief
	for _, c := range rows {
		if ownEnding(&c) && c.Status != store.StatusQuarantined {
			out = append(out, c)
		}
	}
	return out
}

// valueSubject is the subject key of a value that is someone or something named — a pet, a person ("Smudge",
// "Dr Patel") — other than its own slot's subject, whose own ending would end the value (not a relative's or a
// friend's: lastingRelations), or "".
func valueSubject(w *store.Belief) string {
	if lastingRelations[canon.RelationKey(w.SlotKey)] || lastingRelations[canon.RelationKey(w.PredicateKey)] {
		return ""
	}
	name := w.Object
	if m := reCalledName.FindStringSubmatch(name); m != nil {
		// "has a hamster called Noodle": the value is Noodle, named after its kind.
		name = m[1]
	}
	if !nlp.Capitalized(name) {
		return ""
	}
	if k := canon.SubjectKey(name); k != w.SubjectKey {
		return k
	}
	return ""
}

// reCalledName is an indefinite noun phrase that names what it introduces: "a hamster called Noodle", "an old
// tabby named Smudge" (group 1 the name).
var reCalledName = regexp.MustCompile(`^(?i:a|an)\s+(?:[\pL-]+\s+){1,3}(?i:called|named)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?)$`)

// endingHeads are the first words an ending or an acquisition claim's predicate key may start with: each verb's
// base, third person and past forms as the extractor keys them.
var endingHeads = func() []string {
	irregular := map[string][]string{"sell": {"sold"}, "die": {"died"}, "lose": {"lost"}, "leave": {"left"}, "quit": {"quit"},
		"give": {"gave", "given"}, "break": {"broke", "broken"}, "get": {"got", "gotten"}, "buy": {"bought"},
		"learn": {"learnt"}, "take": {"took", "taken"}, "go": {"went", "gone"}, "choose": {"chose", "chosen"}}
	var out []string
	add := func(v string) {
		out = append(out, v, nlp.ThirdPerson(v), nlp.PastRegular(v))
		out = append(out, irregular[v]...)
	}
	for v := range endingVerbs {
		add(v)
	}
	for v := range acquisitionVerbs {
		add(v)
	}
	for v := range namedEndingVerbs {
		add(v)
	}
	for v := range ownEndingVerbs {
		add(v)
	}
	for v := range resumptionVerbs {
		add(v)
	}
	// The past habitual's key ("used_to_lives_in", endingOf): the extractor files "used to", "no longer" and a
	// value replaced ("instead of") so.
	out = append(out, "used")
	return dedupe(out)
}()

// acquisitionOf reports whether a claim says its subject came to have its object ("bought a used Toyota RAV4",
// "adopted a puppy"); "got rid of" is an ending, and a negated claim acquires nothing.
func acquisitionOf(c *store.Belief) bool {
	ws := splitWords(c.Predicate)
	if c.Negated || len(ws) == 0 || endingOf(c) {
		return false
	}
	l := relLemma(ws[0])
	if parts, ok := acquisitionParticles[l]; ok {
		return len(ws) > 1 && contains(parts, ws[1])
	}
	return acquisitionVerbs[l]
}

// resumptionOf reports whether a claim says its object holds again after it was called off (resumptionVerbs).
func resumptionOf(c *store.Belief) bool {
	ws := splitWords(c.Predicate)
	return !c.Negated && len(ws) > 0 && resumptionVerbs[relLemma(ws[0])]
}

// resumed reports whether a claim among cands, newer than ending e, says the value w that e ended holds again.
func resumed(e, w *store.Belief, cands []*store.Belief) bool {
	return slices.ContainsFunc(cands, func(r *store.Belief) bool { return revives(r, w, e) })
}

// endingOf reports whether a claim says that something ended: its predicate is an ending verb with the
// particle it needs. A negated claim ends nothing ("I haven't sold the car").
func endingOf(c *store.Belief) bool {
	if c.Negated {
		return false
	}
	ws := splitWords(c.Predicate)
	if len(ws) == 0 {
		return false
	}
	if namedEndingVerbs[relLemma(ws[0])] && len(ws) == 1 && nlp.Capitalized(c.Object) {
		return true
	}
	if len(ws) > 2 && ws[0] == "used" && ws[1] == "to" {
		// The past habitual ("Oskar used to live in Oslo"): English says with it that the state or habit no
		// longer holds; the extractor files it so (predicate "used to live in").
		return true
	}
	var parts []string
	ok := false
	// The dictionary lemma, else English's regular inflections undone (a verb it does not know: "rehomed").
	for _, l := range []string{relLemma(ws[0]), strings.TrimSuffix(ws[0], "d"), strings.TrimSuffix(ws[0], "ed"), strings.TrimSuffix(ws[0], "s")} {
		if parts, ok = endingVerbs[l]; ok {
			break
		}
	}
	if !ok {
		return false
	}
	if len(parts) == 0 {
		return true
	}
	return len(ws) > 1 && contains(parts, ws[1])
}

// endingNames reports whether ending claim e names the value of claim c: every content word of e's object
// (up to a preposition: "Kiwi with my aunt" names Kiwi) is a word of c's object, or every one of c's is one of
// e's; or e's object is a name that c's object holds anywhere ("Valencia" in "move to Valencia"); or e's object
// is the gerund of c's verb ("stopped running" and "runs 30 km a week").
func endingNames(e, c *store.Belief) bool {
	ew := valueWords(e.Object)
	cw := valueWords(c.Object)
	if len(ew) == 0 || len(cw) == 0 {
		return false
	}
	if subset(ew, cw) || subset(cw, ew) {
		return true
	}
	if nlp.Capitalized(e.Object) && subset(ew, allValueWords(c.Object)) {
		// A name ended anywhere in the value: "called off Valencia" ends "move to Valencia", whose words up
		// to its preposition are only the verb.
		return true
	}
	if len(ew) == 1 && strings.HasSuffix(ew[0], "ing") {
		if ps := splitWords(c.Predicate); len(ps) > 0 && relLemma(ps[0]) == relLemma(ew[0]) {
			return true
		}
	}
	return false
}

// replacesByKind reports whether single-valued claim e, whose relation is one noun ("hotel", "car"), gives a
// new value of the kind claim c's object names as its head ("booked the Crawford Hotel" is about Ingrid's
// hotel): "my hotel is now the Maven" replaces it, though the two were said with different relations.
func replacesByKind(e, c *store.Belief) bool {
	if !e.Functional || e.SlotKey == c.SlotKey || endingOf(e) || canon.IsCountKey(c.PredicateKey) {
		// A count of things of the kind ("secured 5 interviews") is no one thing of it: "my interview is on
		// 25 November" replaces no count.
		return false
	}
	pw := splitWords(e.Predicate)
	if len(pw) != 1 || stopwords[pw[0]] {
		return false
	}
	cw, ew := valueWords(c.Object), valueWords(e.Object)
	if len(cw) < 2 || len(ew) == 0 || subset(ew, cw) {
		// A bare noun names no value of its own ("a hotel"); the same value said again replaces nothing.
		return false
	}
	return relLemma(cw[len(cw)-1]) == relLemma(pw[0])
}

// valueWords are the content words of a value up to its first preposition, lower-cased.
func valueWords(s string) []string {
	var out []string
	for _, w := range splitWords(s) {
		if prepWords[w] {
			break
		}
		if stopwords[w] || detWords[w] {
			continue
		}
		out = append(out, strings.TrimSuffix(w, "'s"))
	}
	return out
}

// allValueWords are the content words of a whole value, past its prepositions, lower-cased.
func allValueWords(s string) []string {
	var out []string
	for _, w := range splitWords(s) {
		if !stopwords[w] && !detWords[w] && !prepWords[w] {
			out = append(out, strings.TrimSuffix(w, "'s"))
		}
	}
	return out
}

func subset(a, b []string) bool {
	for _, w := range a {
		if !contains(b, w) {
			return false
		}
	}
	return true
}

// endValues removes from the slots' current values those a later ending claim of the same subject names, or
// whose named value later said its own part ended ("Smudge died": ownEnding), and
// returns them by claim id with the claim that ended each. Sentence slots (what was said, not an attribute) and
// disputed slots are left as they are, and an ending claim never ends another.
func endValues(slots []*store.Slot, endings []*store.Belief) map[string]*store.Belief {
	if len(endings) == 0 {
		return nil
	}
	ended := map[string]*store.Belief{}
	for _, sl := range slots {
		if sl.Disputed || sentenceSlot(sl) {
			continue
		}
		kept := sl.Winners[:0:0]
		for _, w := range sl.Winners {
			var by *store.Belief
			if !endingOf(w) {
				named := valueSubject(w)
				for _, e := range endings {
					if e.ID == w.ID || !store.Newer(e, w) {
						continue
					}
					if (e.SubjectKey == w.SubjectKey && (endingOf(e) && endingNames(e, w) || replacesByKind(e, w)) ||
						named != "" && e.SubjectKey == named && ownEnding(e)) && !resumed(e, w, endings) {
						by = e
						break
					}
				}
			}
			if by != nil {
				ended[w.ID] = by
				continue
			}
			kept = append(kept, w)
		}
		sl.Winners = kept
	}
	return ended
}

// minReplacementSimilarity is how close (cosine of the embedder's vectors) a thing acquired must be to the
// thing that ended for the one to take the other's place: on the local model, cars, phones, bikes and boats
// are 0.50–0.74 apart from one another, a car and a laptop, a couch or a tablet 0.23–0.36.
const minReplacementSimilarity = 0.45

// sameStatement reports whether two claims come from one statement: the same turn's sequence, and valid times
// that a turn's own dates (said of one event) keep within a month of each other. A source that numbers no turns
// (the sequence is optional: a person's client over HTTP rarely sends one) leaves the valid time: claims valid
// from the same instant were said together, or on the same day by a client that dates turns by the day.
func sameStatement(a, b *store.Belief) bool {
	if a.Sequence == nil && b.Sequence == nil {
		return a.ValidFrom.Equal(b.ValidFrom)
	}
	if a.Sequence == nil || b.Sequence == nil || *a.Sequence != *b.Sequence {
		return false
	}
	d := a.ValidFrom.Sub(b.ValidFrom)
	return d < 31*24*time.Hour && d > -31*24*time.Hour
}

// fromAndTo reports an ending said with "from" and an acquisition said with the same verb and "to", as one
// statement's two halves ("Cerys switched from history to law" is "switched from history" and "switched to
// law", rules.fromToClauses): the speaker paired the two values, so no likeness of the things is needed.
func fromAndTo(ending, acquired *store.Belief) bool {
	ew, aw := splitWords(ending.Predicate), splitWords(acquired.Predicate)
	return len(ew) == 2 && len(aw) == 2 && ew[1] == "from" && aw[1] == "to" && relLemma(ew[0]) == relLemma(aw[0])
}

// replaceEnded gives a slot whose value ended the thing its subject acquired in the same statement as the one
// that ended it, when the two are things of one kind: "Finally traded in the Civic. I bought a used Toyota RAV4
// hybrid" makes the RAV4 what Raj drives, though the statement never says "drive". Whether the two are alike
// is the embedder's similarity (alike; nil: no replacement is made). The acquisition claim becomes the slot's
// current value as it is; it keeps its own slot too.
func replaceEnded(ctx context.Context, slots []*store.Slot, ended map[string]*store.Belief, cands []*store.Belief,
	alike func(ctx context.Context, a, b string) (bool, error)) error {
	if len(ended) == 0 || alike == nil {
		return nil
	}
	for _, sl := range slots {
		for _, w := range sl.Claims {
			by := ended[w.ID]
			if by == nil || !endingOf(by) {
				continue
			}
			for _, a := range cands {
				if a.SubjectKey != w.SubjectKey || !acquisitionOf(a) || !sameStatement(a, by) || !store.Newer(a, w) ||
					endingNames(by, a) || contains(idsOf(sl.Winners), a.ID) {
					continue
				}
				ok := fromAndTo(by, a)
				if !ok {
					var err error
					if ok, err = alike(ctx, a.Object, w.Object); err != nil {
						return err
					}
				}
				if ok {
					// Newest first: it came after every value the slot still holds.
					sl.Winners = append([]*store.Belief{a}, sl.Winners...)
					break
				}
			}
		}
	}
	return nil
}

// Transfers. English says "transferred to X" of a move between schools as of one between offices or teams,
// and the extractor files it where one works (canon's alias of "transferred to"). For someone memory knows
// only as a student — a school, and no employer — the transfer is a new school: "I'm taking classes at
// Sacramento City College" … "I transferred to UC Davis" leaves Darnell at UC Davis, not at both.

// schoolSlots and workSlots are the relation keys of where someone studies and where they work.
var (
	schoolSlots = map[string]bool{"educated_at": true, "school": true}
	workSlots   = map[string]bool{"works_at": true, "works_in": true}
)

// transferOf reports a claim that its subject transferred to its object.
func transferOf(c *store.Belief) bool {
	ws := splitWords(c.Predicate)
	return !c.Negated && len(ws) >= 2 && relLemma(ws[0]) == "transfer" && ws[1] == "to"
}

// transferSchools gives a school slot, whose subject has no employer in memory, the subject's newest transfer
// after its current value as its current value (the transfer claim keeps its own slot too).
func transferSchools(slots []*store.Slot, cands []*store.Belief) {
	employed := map[string]bool{}
	for _, sl := range slots {
		if workSlots[sl.SlotKey] {
			for _, w := range sl.Winners {
				employed[sl.SubjectKey] = employed[sl.SubjectKey] || !transferOf(w)
			}
		}
	}
	for _, sl := range slots {
		if !schoolSlots[sl.SlotKey] || employed[sl.SubjectKey] || len(sl.Winners) == 0 || sl.Disputed {
			continue
		}
		var to *store.Belief
		for _, c := range cands {
			if c.SubjectKey != sl.SubjectKey || !transferOf(c) || contains(idsOf(sl.Winners), c.ID) {
				continue
			}
			later := true
			for _, w := range sl.Winners {
				later = later && store.Newer(c, w)
			}
			if later && (to == nil || store.Newer(c, to)) {
				to = c
			}
		}
		if to != nil {
			sl.Winners = []*store.Belief{to}
		}
	}
}

// jobTowns retires the town of a job when a later job is said: "Dana works as a nurse in Haifa", months later
// "Dana … now works at Ichilov hospital". The town one works in (works_in) was said of the job held then; a
// newer employer (works_at) starts another job, and the old town is no longer known to be where the subject
// works, so the slot keeps no current value (its values are history) unless a claim of the town is as new as
// the employer (said with it: "I joined Wipro, still in Bangalore") or newer (a transfer after the new job).
func jobTowns(slots []*store.Slot) {
	newestJob := map[string]*store.Belief{}
	for _, sl := range slots {
		if sl.SlotKey != "works_at" {
			continue
		}
		for _, w := range sl.Winners {
			if j := newestJob[sl.SubjectKey]; !w.Negated && !transferOf(w) && (j == nil || store.Newer(w, j)) {
				newestJob[sl.SubjectKey] = w
			}
		}
	}
	for _, sl := range slots {
		job := newestJob[sl.SubjectKey]
		if sl.SlotKey != "works_in" || job == nil || len(sl.Winners) == 0 || sl.Disputed {
			continue
		}
		older := true
		for _, w := range sl.Winners {
			older = older && w.ValidFrom.Before(job.ValidFrom)
		}
		if older {
			sl.Winners = nil
		}
	}
}

// movedWithinJob returns, for a chain answering where someone works now with their employer (works_at), the place they work
// in that was said after the employer: a transfer to another office of the same employer ("transferred to the
// Hyderabad office" after "an auditor with Deloitte in Gurgaon"). Where one works is then both, and "Where does
// Shruti work now?" is answered "Deloitte, the Hyderabad office". Nil when the chain answers anything else or the
// town is as old as the employer (said with it, or before it).
func (r *resolver) movedWithinJob(ctx context.Context, c *chain) (*store.Belief, error) {
	h := c.hops[len(c.hops)-1]
	if c.q == nil || c.q.kind != kindPlace || h.inverse || h.slot == nil || h.slot.SlotKey != "works_at" || h.slot.Disputed {
		return nil, nil
	}
	slots, err := r.slotsOf(ctx, []string{h.claim.SubjectKey})
	if err != nil {
		return nil, err
	}
	for _, sl := range slots {
		if sl.SlotKey != "works_in" || sl.Disputed || len(sl.Winners) != 1 {
			continue
		}
		if w := sl.Winners[0]; !w.Negated && w.ValidFrom.After(h.claim.ValidFrom) {
			return w, nil
		}
	}
	return nil, nil
}

// embedAlike returns the similarity test of replaceEnded over embed, which embeds one text (nil when embed is).
func embedAlike(embed func(ctx context.Context, text string) ([]float32, error)) func(ctx context.Context, a, b string) (bool, error) {
	if embed == nil {
		return nil
	}
	return func(ctx context.Context, a, b string) (bool, error) {
		va, err := embed(ctx, a)
		if err != nil {
			return false, err
		}
		vb, err := embed(ctx, b)
		if err != nil || len(va) == 0 || len(va) != len(vb) {
			return false, err
		}
		return embedding.Cosine(va, vb) >= minReplacementSimilarity, nil
	}
}

// embedOne embeds one text with the query embedder (nil, and no error, when none is configured).
func (s *Service) embedOne(ctx context.Context, text string) ([]float32, error) {
	if s.embedder == nil {
		return nil, nil
	}
	vs, err := s.embedder.Embed(ctx, []string{text})
	if err != nil || len(vs) != 1 {
		return nil, err
	}
	return vs[0], nil
}

// endingsAmong returns the claims among rows that may end another's value or take an ended one's place: ending
// claims (a value's own ending too), acquisitions (replaceEnded) and single-valued claims of a one-noun
// relation (replacesByKind).
func endingsAmong(rows []store.Belief) []*store.Belief {
	var out []*store.Belief
	for i := range rows {
		c := &rows[i]
		if (endingOf(c) || ownEnding(c) || acquisitionOf(c) || transferOf(c) || resumptionOf(c) || c.Functional && !strings.Contains(c.PredicateKey, "_")) && c.Status != store.StatusQuarantined {
			out = append(out, &rows[i])
		}
	}
	return out
}

// maxEndingRows bounds the claims one search reads for endings.
const maxEndingRows = 200

// endingsOf loads the view's claims that may end a current value of the slots (endingsAmong; bounded, newest
// first): of the subjects whose slots endValues examines, the claims with an ending verb, and the single-valued
// claims of a one-noun relation that names the kind of one of their values (replacesByKind).
func (s *Service) endingsOf(ctx context.Context, v store.View, slots []*store.Slot) ([]*store.Belief, error) {
	since, kinds := endable(slots)
	if len(since) == 0 {
		return nil, nil
	}
	all, err := store.ClaimsByPredicateHead(ctx, s.db, v, since, endingHeads, kinds, maxEndingRows)
	if err != nil {
		return nil, err
	}
	return endingsAmong(all), nil
}

// endable returns, for each subject of the slots whose current values an ending may end (those endValues
// examines) and each named value among them (valueSubject), the earliest valid time of those values — a claim can end
// or take the place of a value only from there on (store.Newer in endValues, replaceEnded and transferSchools) — and
// the predicate keys of the one-noun relations that would replace one of those values by its kind: the value's head
// noun ("hotel" of "the Crawford Hotel"), its lemma and the lemma's regular plural, each as it is written and as canon
// keys it (replacesByKind compares lemmas; these are the keys a relation of that lemma has).
func endable(slots []*store.Slot) (since map[string]time.Time, kinds []string) {
	since = map[string]time.Time{}
	for _, sl := range slots {
		if sl.Disputed || sentenceSlot(sl) || len(sl.Winners) == 0 {
			continue
		}
		for _, w := range sl.Winners {
			for _, k := range []string{sl.SubjectKey, valueSubject(w)} {
				if t, ok := since[k]; k != "" && (!ok || w.ValidFrom.Before(t)) {
					since[k] = w.ValidFrom
				}
			}
			cw := valueWords(w.Object)
			if len(cw) < 2 {
				continue
			}
			head := cw[len(cw)-1]
			lemma := relLemma(head)
			for _, k := range []string{head, lemma, lemma + "s"} {
				kinds = append(kinds, k, canon.PredicateKey(k))
			}
		}
		if schoolSlots[sl.SlotKey] {
			// A transfer is filed where one works (transferSchools).
			kinds = append(kinds, "works_in")
		}
	}
	return since, dedupe(kinds)
}

// Later changes said in words the reader could not file. "Tom's boss is Aisha" is a slot's value until a
// later claim ends it; but people also say the change in ways no rule turns into that slot's claim ("Aisha's
// left Tom's company, and his new boss is Gareth", "The Peugeot's been sold - we've got a Tesla now"). Such a
// statement is still a claim — of another relation, of another subject (Aisha), or a sentence claim — and it
// names the old value beside a word of change. /answer then does not present the value as current: it answers
// with the later statement, which says what changed as far as memory understood it.

// reChangeWord is a word or phrase of English that says something changed, ended or was replaced.
var reChangeWord = regexp.MustCompile(`(?i)\b(?:` + changeWords + `)\b`)

// changeWords are reChangeWord's alternatives.
const changeWords = `left|leaves|quit|quits|moved|moves|moving|no\s+longer|anymore|any\s+more|new|now|instead|changed|switched|replaced|retired|split|broke\s+up|divorced|stepped\s+down|sold|ended|cancell?ed|took\s+over|taken\s+over|gone|former|ex|used\s+to|passed\s+away|died`

// laterChange returns the newest claim, later than answer by belief, of the answer's subject or of its value
// as a subject, whose text names the value beside a word of change ("Aisha's left Tom's company"), or nil.
// The claim that ends or replaces the value in its own slot is no such claim: the slot already says so.
func (r *resolver) laterChange(ctx context.Context, answer *store.Belief) (*store.Belief, error) {
	var names []string
	for _, n := range valueNames(answer.Object) {
		// (The subject's own name is in every statement about it: "María's club" is named by "the club".)
		if !namesAny(answer.Subject, []string{n}) {
			names = append(names, n)
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	keys := []string{answer.SubjectKey}
	if k := canon.SubjectKey(answer.Object); k != "" && k != answer.SubjectKey {
		keys = append(keys, k)
	}
	slots, err := r.slotsOf(ctx, keys)
	if err != nil {
		return nil, err
	}
	var best *store.Belief
	for _, sl := range slots {
		if sl.SlotKey == answer.SlotKey && sl.SubjectKey == answer.SubjectKey {
			continue
		}
		for _, c := range sl.Winners {
			if c.Negated || c.ID == answer.ID || store.CompareBelief(c.ValidFrom, c.Sequence, answer.ValidFrom, answer.Sequence) <= 0 ||
				c.ObjectKey == answer.ObjectKey && c.SubjectKey == answer.SubjectKey {
				continue
			}
			if !namesAny(c.Text, names) || !reChangeWord.MatchString(c.Text) {
				continue
			}
			if best == nil || store.Newer(c, best) {
				best = c
			}
		}
	}
	return best, nil
}

// revivedSince reports whether a claim of the answer's subject newer than change says the answer's value holds
// again ("Dublin's back on" after "I'm going to Amsterdam instead"): the change no longer tells what holds.
func (r *resolver) revivedSince(ctx context.Context, answer, change *store.Belief) (bool, error) {
	slots, err := r.slotsOf(ctx, []string{answer.SubjectKey})
	if err != nil {
		return false, err
	}
	for _, sl := range slots {
		for _, c := range sl.Winners {
			if revives(c, answer, change) {
				return true, nil
			}
		}
	}
	return false, nil
}

// revives reports whether claim r, newer than change, says value w of its subject holds again.
func revives(r, w, change *store.Belief) bool {
	return r.SubjectKey == w.SubjectKey && resumptionOf(r) && store.Newer(r, change) && endingNames(r, w)
}

// valueNames are the words a later statement would name a value by: its capitalized words ("a red Peugeot
// 208" → Peugeot; "Greg Holt" → Greg, Holt), else the value itself when it is one or two words ("vegan").
func valueNames(object string) []string {
	var out []string
	for _, w := range strings.Fields(object) {
		w = strings.Trim(w, ".,;:!?\"'()")
		if len(w) > 1 && nlp.Capitalized(w) && !stopwords[strings.ToLower(w)] {
			out = append(out, w)
		}
	}
	if len(out) == 0 && len(strings.Fields(object)) <= 2 && len(object) > 2 {
		out = append(out, object)
	}
	return out
}

// namesAny reports whether text names one of names as whole words (splitWords: case and a possessive "'s"
// aside).
func namesAny(text string, names []string) bool {
	words := " " + strings.Join(splitWords(text), " ") + " "
	for _, n := range names {
		if nw := strings.Join(splitWords(n), " "); nw != "" && strings.Contains(words, " "+nw+" ") {
			return true
		}
	}
	return false
}

// valueSubjectsOf returns the subject keys of the named current values of the slots endValues examines.
func valueSubjectsOf(slots []*store.Slot) []string {
	var out []string
	for _, sl := range slots {
		if sl.Disputed || sentenceSlot(sl) {
			continue
		}
		for _, w := range sl.Winners {
			if k := valueSubject(w); k != "" {
				out = append(out, k)
			}
		}
	}
	return dedupe(out)
}
