package query

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/pkg/store"
)

// facts is what deterministic answering reads: which keys name known subjects, and the claims about
// subjects as the request's view sees them. The service implements it over Postgres; tests over memory.
type facts interface {
	// known maps each candidate key that names a visible subject (directly or as an alias) to its subject keys.
	known(ctx context.Context, keys []string) (map[string][]string, error)
	// about returns the view's claims about the given subject keys.
	about(ctx context.Context, subjectKeys []string) ([]store.Belief, error)
	// byObject returns the view's claims whose object has one of the given object keys (bounded).
	byObject(ctx context.Context, objectKeys []string) ([]store.Belief, error)
	// ownEndings returns the view's claims of the given subject keys that say the subject's own part ended
	// (ownEnding; bounded).
	ownEndings(ctx context.Context, subjectKeys []string) ([]store.Belief, error)
	// moves returns the view's claims that may move an event's date (reschedule.go): of each subject of since,
	// valid from its time on, the single-valued claims of one of keys and the claims whose key starts with one
	// of heads (bounded).
	moves(ctx context.Context, since map[string]time.Time, keys, heads []string) ([]store.Belief, error)
}

// hop is one deterministic step: the slot chosen for an entity and its resolved value.
type hop struct {
	slot  *store.Slot
	claim *store.Belief
	score float64
	// bridge marks a hop taken without a relation of the question, to reach an entity whose slots the
	// question names.
	bridge bool
	// inverse marks a hop read backwards: the entity was the claim's object, the value is its subject.
	inverse bool
}

// chain is one candidate resolution of a question: a start entity and hops outward from it.
type chain struct {
	start mention
	// q is the question read from this chain's mention.
	q *questionParse
	// entity holds the subject keys of the current entity; objKeys the object keys it may be named by.
	entity, objKeys []string
	// units are the relations this reading explains (q's, with compounds split where a reading split them);
	// next is the index of the next one to explain.
	units    []relUnit
	next     int
	hops     []hop
	score    float64
	finalVal float64
	// reverse holds, for a reverse lookup ("Who lives in Berlin?"), the current claims whose object the
	// question names and whose relation it asks about; the answer is their subjects.
	reverse []*store.Belief
}

// resolver answers questions hop by hop over facts, deterministically.
type resolver struct {
	f       facts
	v       store.View
	agent   string
	maxHops int
	// slots caches the resolved slots of subject keys for one question.
	slots map[string][]*store.Slot
	// embed, when set, embeds text with the model of the claims' predicate embeddings (PredVec): the
	// question's relation phrases are then also compared with predicate phrases by meaning.
	embed func(ctx context.Context, text string) ([]float32, error)
	// vecs caches embeddings of relation phrases; rels the relations of claims.
	vecs map[string][]float32
	rels map[*store.Belief]claimRelation
	// before is what a question about the past counts back from ("the Kia" of "What did Kofi drive before
	// the Kia?"), or "".
	before string
}

const (
	beamWidth   = 8
	minHopScore = 0.5
	// minOptionalScore is the score at which a type noun ("the country where …") counts as a hop.
	minOptionalScore = 0.3
	// bridgePenalty is charged for a hop the question does not name ("the country of origin of <a club>"
	// goes through the club's sport); at most one per chain, and never the last hop.
	bridgePenalty = 0.5
	// skipPenalty is charged for a unit of the question no hop explained.
	skipPenalty = 0.6
	// weakHop is the score of a hop taken by meaning alone (weakSteps), before its similarity bonus;
	// weakHopTop how many of an entity's most similar relations it tries.
	weakHop    = 0.1
	weakHopTop = 2
	// maxBridgeSlots bounds the slots a bridge may go through (a busy entity is no bridge).
	maxBridgeSlots = 64
	hopPenalty     = 0.05
	maxMentions    = 4
	// predSimFloor is the cosine similarity below which a predicate phrase says nothing about the question
	// (unrelated phrases score around 0.1–0.2 with the default model); predSimWeight scales what is above it.
	predSimFloor  = 0.3
	predSimWeight = 0.5
	// predSimAlone is the similarity at which a predicate phrase alone answers a one-relation question that
	// no key or lemma matched.
	predSimAlone = 0.55
)

// mentions finds the spans of the question that name known subjects: longest first, non-overlapping.
func (r *resolver) mentions(ctx context.Context, q string) ([]mention, error) {
	keys, spans := ngramKeys(q)
	known, err := r.f.known(ctx, keys)
	if err != nil {
		return nil, err
	}
	fs := fields(q)
	var found []mention
	for _, k := range keys { // keys are longest-first
		subj, ok := known[k]
		if !ok {
			continue
		}
		sp := spans[k]
		overlap := false
		for _, m := range found {
			if sp[0] < m.to && m.from < sp[1] {
				overlap = true
				break
			}
		}
		if overlap {
			continue
		}
		sort.Strings(subj)
		found = append(found, mention{from: sp[0], to: sp[1], text: strings.Join(fs[sp[0]:sp[1]], " "), key: k, subjects: dedupe(subj)})
		if len(found) == maxMentions {
			break
		}
	}
	return found, nil
}

// slotsOf returns the resolved slots of the given subject keys (cached per question).
func (r *resolver) slotsOf(ctx context.Context, keys []string) ([]*store.Slot, error) {
	var missing []string
	for _, k := range keys {
		if _, ok := r.slots[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		rows, err := r.f.about(ctx, missing)
		if err != nil {
			return nil, err
		}
		for _, k := range missing {
			r.slots[k] = nil
		}
		groups := store.GroupSlots(rows, r.v)
		// A value a later statement of its subject ended ("we lost Biscuit") is no longer current, and what was
		// acquired in its place ("traded in the Civic, bought a RAV4") is.
		ends := endingsAmong(rows)
		// A named value may have said its own part ended ("Smudge died"): its claims are another subject's.
		if named := valueSubjectsOf(groups); len(named) > 0 {
			own, err := r.f.ownEndings(ctx, named)
			if err != nil {
				return nil, err
			}
			for i := range own {
				ends = append(ends, &own[i])
			}
		}
		if err := replaceEnded(ctx, groups, endValues(groups, ends), ends, embedAlike(r.phraseVecErr)); err != nil {
			return nil, err
		}
		// An event's date a later statement moved ("the wedding has been pushed back to …") is the moved one.
		if since, keys, heads := reschedulable(groups); len(since) > 0 {
			moves, err := r.f.moves(ctx, since, keys, heads)
			if err != nil {
				return nil, err
			}
			rescheduleEvents(groups, movesAmong(moves), false)
		}
		transferSchools(groups, ends)
		jobTowns(groups)
		// A spouse who has since married someone else is no longer the spouse (converses.go).
		if since, _ := conversesNamed(groups); len(since) > 0 {
			named, err := r.f.about(ctx, slices.Sorted(maps.Keys(since)))
			if err != nil {
				return nil, err
			}
			endConverses(groups, named, r.v)
		}
		for _, s := range groups {
			r.slots[s.SubjectKey] = append(r.slots[s.SubjectKey], s)
		}
	}
	var out []*store.Slot
	for _, k := range keys {
		out = append(out, r.slots[k]...)
	}
	return out, nil
}

// relation returns a claim's relation (cached per question).
func (r *resolver) relation(c *store.Belief) claimRelation {
	if r.rels == nil {
		r.rels = map[*store.Belief]claimRelation{}
	}
	if rel, ok := r.rels[c]; ok {
		return rel
	}
	rel := relationOf(c)
	r.rels[c] = rel
	return rel
}

// readQuestion reads q outward from mention m; a question no rule could read gets one unit of its loose
// content words, so every word still counts.
func readQuestion(toks []qtok, m *mention) *questionParse {
	qp := parseTokens(toks, m)
	required := requiredUnits(qp.units)
	if required == 0 && len(qp.loose) > 0 {
		u := relUnit{words: qp.loose, keys: relKeys(joinWords(qp.loose), ""), said: strings.Join(qp.loose, " ")}
		qp.units = append(qp.units, u)
		qp.loose = nil
	}
	if required == 0 && len(qp.units) == 0 && qp.wh == "how old" {
		// "How old is Mochi?" asks Mochi's age.
		qp.units = append(qp.units, relUnit{words: []string{"age"}, keys: relKeys("age", ""), said: "age"})
	}
	if required == 0 && len(qp.units) == 0 && len(qp.typ) > 0 {
		// "What is X's …" said only by a type noun: "Which city is X?" asks X's city.
		u := relUnit{words: qp.typ, keys: relKeys(joinWords(qp.typ), ""), said: strings.Join(qp.typ, " ")}
		qp.units = append(qp.units, u)
	}
	if n := len(qp.units); n >= 2 && (qp.wh == "where" || qp.wh == "when") && happensVerb(qp.units[n-1]) {
		// "Where is Valeria's quinceañera being held?", "When is the wedding taking place?": an event's being
		// held, taking place or happening is the event itself, whose slot holds where or when it is ("Our
		// wedding is at Hampton Manor", "… is on 15 June").
		qp.units = qp.units[:n-1]
	}
	if n := len(qp.units); n >= 1 && (qp.kind == kindPlace || qp.kind == kindTime) {
		if u, ok := withoutHappening(qp.units[n-1]); ok {
			qp.units[n-1] = u
		}
	}
	if n := len(qp.units); n >= 1 && qp.kind == kindTime {
		// "When is Declan's wedding?": an event's date has a slot of its own (canon.EventDateKey), read
		// before the event's, which holds where it is (or, written before the two were kept apart, either).
		u := &qp.units[n-1]
		var dates []string
		for _, k := range u.keys {
			if d, ok := canon.EventDateKey(k); ok {
				dates = append(dates, d)
			}
		}
		u.keys = prepend(dates, u.keys)
	}
	if n := len(qp.units); n >= 1 && len(qp.typ) == 1 && qp.typ[0] == "year" && contains(qp.units[n-1].keys, "located_in") {
		// "What year is Noor in?": the year someone is in is a school year ("Year 5", as British schools name
		// them), a grade, not a date.
		qp.units[n-1].keys = prepend([]string{"grade"}, qp.units[n-1].keys)
		qp.kind = kindAny
	}
	for i := range qp.units {
		personReadings(&qp.units[i])
	}
	return &qp
}

// withoutHappening returns the event a unit names when the unit is an event noun followed by "happening" or
// "occurring", which the tagger reads as one compound ("Where is Tom's wedding happening?", "What time is the
// recital happening?"): the event itself, as "Where is Tom's wedding?" reads it, whose slot holds where or when
// it is.
func withoutHappening(u relUnit) (relUnit, bool) {
	said := strings.Fields(u.said)
	n := len(said)
	if n < 2 || len(u.words) < 2 {
		return u, false
	}
	switch strings.ToLower(said[n-1]) {
	case "happening", "occurring":
	default:
		return u, false
	}
	event := said[:n-1]
	// Keyed by the noun as said, as the event alone is ("wedding", not the verb's lemma "wed").
	key := strings.ToLower(joinWords(event))
	return relUnit{said: strings.Join(event, " "), words: u.words[:len(u.words)-1], keys: relKeys(key, ""), field: u.field, typ: u.typ}, true
}

// happensVerb reports whether a relation unit says only that something takes place: "held", "taking place",
// "happening", "occurring" (the general English verbs of an event's occurring), as said or as lemmas.
func happensVerb(u relUnit) bool {
	for _, w := range []string{strings.ToLower(strings.TrimSpace(u.said)), strings.Join(u.words, " ")} {
		w = strings.TrimPrefix(w, "being ")
		switch w {
		case "held", "take place", "taking place", "takes place", "took place", "happen", "happening",
			"happens", "occur", "occurring", "occurs":
			return true
		}
	}
	return false
}

// personKeys are the relations a question's relation also names when its subject is a person: where an
// organization is based is its headquarters, where a person is based is where they live or work; a person's
// title is their occupation ("position" is not: it is a player's too); the place one moved from is where one
// lived (readTime asks for the value before the current one).
var personKeys = map[string][]string{"headquartered_in": {"lives_in", "works_in"}, "title": {"occupation"},
	"moves_from": {"lives_in"}, "moved_from": {"lives_in"}, "relocates_from": {"lives_in"}}

// employerKinds are the nouns English names an employer by: "Which company is Emma at?" asks where she
// works; schoolKinds name a place of study ("Which school is Ava at?"); a group one is in is a member's
// (canon.GroupNoun: "Which band is Ola in?"); officeKinds an employer's premises.
var (
	employerKinds = set("company", "firm", "employer", "organization", "organisation", "business", "startup", "agency", "studio", "restaurant", "shop", "store", "hospital", "bank")
	schoolKinds   = set("school", "university", "college", "academy", "conservatory")
	// officeKinds name the premises of an employer where one works ("Which office is Ioana in?").
	officeKinds = set("office", "branch", "site", "campus")
)

// personReadings adds to unit u the keys of its reading about a person (personKeys), after its own: a key of
// the unit's own still ranks first, so an organization's headquarters answer before a person's home. Being
// "at" a kind of employer or school is working or studying there.
func personReadings(u *relUnit) {
	for _, k := range u.keys {
		u.keys = append(u.keys, personKeys[k]...)
	}
	if len(u.typ) > 0 && (contains(u.keys, "located_at") || contains(u.keys, "is_at") || contains(u.keys, "located_with") || contains(u.keys, "located_in")) {
		switch last := u.typ[len(u.typ)-1]; {
		case employerKinds[last]:
			u.keys = append(u.keys, "works_at")
		case schoolKinds[last]:
			u.keys = append(u.keys, "educated_at")
		case canon.GroupNoun(last):
			// "Which band is Ola in?": being in a group is being a member of it.
			u.keys = append(u.keys, "member_of")
		case placeKinds[last]:
			// "Which city is Tomas in?": where a person is based, their home or their work.
			u.keys = append(u.keys, "lives_in", "works_in")
		case officeKinds[last]:
			// "Which office is Ioana in?": an employer's premises one works at.
			u.keys = append(u.keys, "works_in")
		}
	}
	u.keys = dedupe(u.keys)
	asksPlace := slices.ContainsFunc(u.typ, func(w string) bool { return placeKinds[w] })
	if in := slices.Index(u.keys, "works_in"); in >= 0 && contains(u.keys, "works_at") && !asksPlace {
		// "Where does Lukas work?" asks for the workplace ("At Siemens"), not the town a job is in, which a
		// question names ("Which city does he work in?": a kind of place, or "in" said, and then works_at is no
		// key of the unit).
		u.keys = slices.Delete(u.keys, in, in+1)
	}
}

// resolve finds the best chain for question q: from each mentioned entity outward, explaining the question's
// relation units in order — at each one the slot whose relation matches it best, its value taken by code —
// until every unit is explained. It returns nil when no entity or no matching slot is found.
func (r *resolver) resolve(ctx context.Context, q string) (*chain, []mention, error) {
	ms, err := r.mentions(ctx, q)
	if err != nil {
		return nil, ms, err
	}
	toks := analyzeQuestion(q)
	if len(ms) == 0 {
		c, err := r.reverseLookup(ctx, q, toks)
		return c, ms, err
	}
	var beam []*chain
	for _, m := range ms {
		qp := readQuestion(toks, &m)
		if len(qp.units) == 0 {
			continue
		}
		beam = append(beam, &chain{start: m, q: qp, units: qp.units, entity: m.subjects, objKeys: objectKeysOfText(m.text, m.subjects)})
	}
	var finals []*chain
	for depth := 0; depth < r.maxHops+4 && len(beam) > 0; depth++ {
		var next []*chain
		for _, c := range beam {
			if c.next >= len(c.units) {
				continue
			}
			exp, err := r.expand(ctx, c)
			if err != nil {
				return nil, ms, err
			}
			next = append(next, exp...)
		}
		// The subjects the new hops' values name, for every chain of this depth in one round trip.
		if next, err = r.known(ctx, next); err != nil {
			return nil, ms, err
		}
		sort.SliceStable(next, func(i, j int) bool { return next[i].score > next[j].score })
		if len(next) > beamWidth {
			next = next[:beamWidth]
		}
		beam = beam[:0]
		for _, c := range next {
			last := lastHop(c)
			if len(c.hops) >= r.maxHops && c.onlyOptionalLeft() {
				// At the hop limit, units that may name no relation of their own ("… in which city") are
				// skipped as they would be below it.
				c.next = len(c.units)
			}
			if c.next >= len(c.units) {
				if last != nil && !last.bridge && !wrongKind(c.q, last.claim.Object) {
					typePenalty := answerTypePenalty(c.q, last.claim.Object)
					c.finalVal = c.score - hopPenalty*float64(len(c.hops)) - typePenalty - r.skipped(c)
					// A value of another kind than the question word asks for, on a reading no stronger than
					// that penalty, is no evidence for its answer.
					if typePenalty == 0 || c.finalVal > 0 {
						finals = append(finals, c)
					}
				}
				continue
			}
			if len(c.hops) >= r.maxHops {
				continue
			}
			beam = append(beam, c)
		}
	}
	if len(finals) == 0 {
		c, ms, err := r.bySimilarity(ctx, toks, ms)
		if c != nil || err != nil {
			return c, ms, err
		}
		c, err = r.reverseLookup(ctx, q, toks)
		return c, ms, err
	}
	sort.SliceStable(finals, func(i, j int) bool { return finals[i].finalVal > finals[j].finalVal })
	return r.newestOfOneRelation(finals), ms, nil
}

// newestOfOneRelation returns, among the readings that answer from one hop of the same subject with a value
// whose relation the question's words name by key — one relation said two ways and so kept in two slots ("My
// car is a Volvo", later "I'm driving a Skoda now"; "works at", later "employed by") — the one whose value is
// newest by belief (store.CompareBelief: the later valid time, else the later sequence of one source), for a
// view of the present: each slot's current value is only as current as the newest statement of the relation.
// Other readings, and views of the past, keep the best-scored reading.
func (r *resolver) newestOfOneRelation(finals []*chain) *chain {
	best := finals[0]
	if r.v.History || r.v.AsOf != nil || !keyedSingleHop(best) {
		return best
	}
	for _, c := range finals[1:] {
		if finals[0].finalVal-c.finalVal > synonymMargin || !keyedSingleHop(c) || !c.hops[0].claim.Functional || c.hops[0].claim.SubjectKey != best.hops[0].claim.SubjectKey ||
			c.hops[0].claim.ObjectKey == best.hops[0].claim.ObjectKey {
			continue
		}
		if store.CompareBelief(c.hops[0].claim.ValidFrom, c.hops[0].claim.Sequence, best.hops[0].claim.ValidFrom, best.hops[0].claim.Sequence) > 0 {
			best = c
		}
	}
	return best
}

// synonymMargin is how far below the best reading another one may score and still be the same relation said
// another way ("drives" and "car" for "What car does Ilse drive?" differ by a key's rank and the phrases'
// similarity); a reading further below is another relation ("lives in" for "Who does Camila live with?").
const synonymMargin = 0.1

// keyedSingleHop reports a reading of one hop whose relation the question names by key (not by shared words
// or similarity alone) and whose slot holds one value, undisputed. (The newer reading must also be of a
// single-valued relation: a value said once as "my car is …" gives way to a later "I'm driving … now", not to
// a later value of something one has several of.)
func keyedSingleHop(c *chain) bool {
	if len(c.hops) != 1 || len(c.reverse) > 0 {
		return false
	}
	h := c.hops[0]
	return !h.bridge && !h.inverse && h.score >= keyMatch-0.1 && h.slot != nil && !h.slot.Disputed &&
		len(h.slot.Winners) == 1
}

// onlyOptionalLeft reports whether every unit c has not explained yet is optional.
func (c *chain) onlyOptionalLeft() bool {
	for i := c.next; i < len(c.units); i++ {
		if !c.units[i].optional {
			return false
		}
	}
	return true
}

// skipped is zero: skips are charged when they happen (kept for the final score's formula).
func (r *resolver) skipped(*chain) float64 { return 0 }

func lastHop(c *chain) *hop {
	if len(c.hops) == 0 {
		return nil
	}
	return &c.hops[len(c.hops)-1]
}

// expand returns c extended by the ways its next unit can be explained: a slot of its entity whose relation
// matches the unit (and, when the same claim names them, the units after it), the inverse reading (a claim
// whose object is the entity), skipping the unit (free for a type noun, charged otherwise), or one bridge hop.
// The entities the new hops' values name are left for the caller to fill (known), a depth's chains at once.
func (r *resolver) expand(ctx context.Context, c *chain) ([]*chain, error) {
	slots, err := r.slotsOf(ctx, c.entity)
	if err != nil {
		return nil, err
	}
	u := &c.units[c.next]
	var out []*chain
	matched := false
	for _, s := range slots {
		w := r.candidateOf(s, u)
		if w == nil {
			continue
		}
		// The slot's relation is its own claims': a value acquired in place of an ended one (replaceEnded) was
		// said with another verb ("bought"), which is not what the slot is about ("drives").
		rc := w
		if w.SlotKey != s.SlotKey && len(s.Claims) > 0 {
			rc = s.Claims[0]
		}
		rel := r.relation(rc)
		if c.q.kind == kindPlace && roleRelation(rc) {
			// "Where does Goran work?" is not answered by what he works as.
			continue
		}
		if rc.PredicateKey == "works_in" && !contains(u.keys, "works_in") {
			// The town of a job answers only a question that asks for it ("Which city does Lukas work in?",
			// "Where is he based?"), not one of the job or the employer that shares its words.
			continue
		}
		// Two units read as one relation ("head of … government"): the outer unit's joined keys.
		if c.next+1 < len(c.units) {
			if nu := &c.units[c.next+1]; len(nu.joined) > 0 && hasAny(rel.keys, nu.joined) {
				out = append(out, r.step(ctx, c, s, w, keyMatch, 2, false))
				matched = true
				continue
			}
		}
		score, _ := unitScore(u, rel, false, c.q.loose)
		min := minHopScore
		if u.optional {
			min = minOptionalScore
		}
		if score > 0 && !typeConflict(u, rel) {
			if sim, ok := r.predSim(ctx, u, rc); ok {
				score += predSimWeight * max(0, sim-predSimFloor)
			}
		}
		if score > 0 && score < min && !u.optional && !sentenceSlot(s) && kindMatch(c.q, w.Object) {
			// A when-, how-much- or where-question whose words the relation shares in part ("When does Nadia
			// see the dentist?" and her dentist appointment), answered by a value of the kind it asks for: the
			// kind is evidence the words alone are not.
			score = min
		}
		if score < min {
			continue
		}
		matched = true
		// The same claim may also name the units after this one ("the headquarters … located in").
		n := 1
		for c.next+n < len(c.units) && covers(rel, &c.units[c.next+n]) && !sharesWords(u, &c.units[c.next+n]) {
			n++
		}
		out = append(out, r.step(ctx, c, s, w, score, n, false))
	}
	if len(u.inverse) > 0 {
		inv, err := r.inverseSteps(ctx, c, u)
		if err != nil {
			return nil, err
		}
		if len(inv) > 0 {
			matched = true
		}
		out = append(out, inv...)
	}
	if !matched && !u.optional && (c.realHops() > 0 || c.laterRequired()) {
		out = append(out, r.weakSteps(ctx, c, u, slots)...)
	}
	if len(u.parts) > 0 && !matched {
		// A compound read as two relations ("the continent of origin of X": X's origin, then its continent).
		split := *c
		split.units = append(append(append([]relUnit(nil), c.units[:c.next]...), u.parts...), c.units[c.next+1:]...)
		out = append(out, &split)
	}
	// Skipping the unit: free for a type noun, charged for a relation.
	skip := *c
	skip.next++
	if !u.optional {
		skip.score -= skipPenalty
	}
	if u.optional || len(c.hops) > 0 || !matched {
		out = append(out, &skip)
	}
	if !matched && !u.optional && !c.bridged() && len(slots) <= maxBridgeSlots {
		for _, s := range slots {
			if len(s.Winners) == 0 || endingOf(s.Winners[0]) || s.Winners[0].Negated {
				continue
			}
			b := r.step(ctx, c, s, s.Winners[0], -bridgePenalty, 0, false)
			b.hops[len(b.hops)-1].bridge = true
			out = append(out, b)
		}
	}
	return out, nil
}

// candidateOf returns the claim of slot s that stands for it when unit u is matched: its current value. A
// claim that says something ended ("lost Biscuit") answers only a question that asks about the ending ("Who
// did Marcus break up with?") or about the past ("What did Tomás do before bouldering?" — running, which he
// stopped): its object is what no longer holds. A slot whose values all ended stands, for
// a question about the past, for its newest value, which the history reading then gives as former. A slot of
// negative assertions ("Liam does not work at Beanstalk anymore") answers nothing: its object is what does not
// hold, and a question asks what does.
func (r *resolver) candidateOf(s *store.Slot, u *relUnit) *store.Belief {
	if len(s.Winners) > 0 {
		w := s.Winners[0]
		if w.Negated || endingOf(w) && !asksEnding(u) && !r.v.History || canon.Indefinite(w.Object) {
			return nil
		}
		return w
	}
	if !r.v.History || len(s.Claims) == 0 {
		return nil
	}
	newest := s.Claims[0]
	for _, c := range s.Claims[1:] {
		if store.Newer(c, newest) {
			newest = c
		}
	}
	if contains(idsOf(s.Overridden), newest.ID) {
		return nil
	}
	return newest
}

// asksEnding reports a relation unit said with an ending verb ("break up with", "sell", "lose").
func asksEnding(u *relUnit) bool {
	for _, w := range u.words {
		if _, ok := endingVerbs[w]; ok {
			return true
		}
	}
	return false
}

// weakSteps explains a unit no slot's key or lemmas match, inside a chain that has other hops, by the
// entity's relations closest in meaning to it (the embedder's similarity of relation phrases; without it, an
// entity's only relations): "the birthplace of <a sport>" is where the sport "was created", "the job title of
// <someone>" what they "work in". The hop is charged, so any matching reading wins over it.
func (r *resolver) weakSteps(ctx context.Context, c *chain, u *relUnit, slots []*store.Slot) []*chain {
	type cand struct {
		s   *store.Slot
		sim float64
	}
	var cs []cand
	for _, s := range slots {
		if len(s.Winners) == 0 || endingOf(s.Winners[0]) || typeConflict(u, r.relation(s.Winners[0])) {
			continue
		}
		sim, ok := r.predSim(ctx, u, s.Winners[0])
		if !ok {
			sim = predSimFloor
		}
		cs = append(cs, cand{s, sim})
	}
	if len(cs) == 0 || r.embed == nil && len(cs) > weakHopTop {
		return nil
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].sim > cs[j].sim })
	var out []*chain
	for i, x := range cs {
		if i == weakHopTop {
			break
		}
		score := weakHop + predSimWeight*max(0, x.sim-predSimFloor)
		out = append(out, r.step(ctx, c, x.s, x.s.Winners[0], score, 1, false))
	}
	return out
}

// realHops counts the hops that explained a relation of the question (bridges do not).
func (c *chain) realHops() int {
	n := 0
	for _, h := range c.hops {
		if !h.bridge {
			n++
		}
	}
	return n
}

// laterRequired reports a unit after the next one that names a relation (not only a type).
func (c *chain) laterRequired() bool {
	for i := c.next + 1; i < len(c.units); i++ {
		if !c.units[i].optional {
			return true
		}
	}
	return false
}

// step extends c by a hop through slot s to claim w, explaining n units.
func (r *resolver) step(_ context.Context, c *chain, s *store.Slot, w *store.Belief, score float64, n int, inverse bool) *chain {
	next := *c
	next.hops = append(append([]hop(nil), c.hops...), hop{slot: s, claim: w, score: score, inverse: inverse})
	next.score = c.score + score
	next.next = c.next + n
	if inverse {
		next.entity = []string{w.SubjectKey}
		next.objKeys = objectKeysOfText(w.Subject, next.entity)
	} else {
		next.entity = nil // filled by known
		next.objKeys = dedupe([]string{w.ObjectKey, canon.ObjectKey(w.Object)})
	}
	return &next
}

// known fills the entity of each chain whose last hop ended on a value: the subjects that value names. A
// chain whose value is no known subject can still end there.
func (r *resolver) known(ctx context.Context, cs []*chain) ([]*chain, error) {
	var keys []string
	for _, c := range cs {
		if h := lastHop(c); h != nil && c.entity == nil && !h.inverse {
			keys = append(keys, objectKeys(h.claim)...)
		}
	}
	if len(keys) == 0 {
		return cs, nil
	}
	known, err := r.f.known(ctx, dedupe(keys))
	if err != nil {
		return nil, err
	}
	for _, c := range cs {
		if h := lastHop(c); h != nil && c.entity == nil && !h.inverse {
			var subj []string
			for _, k := range objectKeys(h.claim) {
				subj = append(subj, known[k]...)
			}
			c.entity = dedupe(subj)
		}
	}
	return cs, nil
}

// inverseSteps reads unit u backwards from c's entity: current claims whose object names the entity and
// whose relation matches u's inverse keys; the value is their subject.
func (r *resolver) inverseSteps(ctx context.Context, c *chain, u *relUnit) ([]*chain, error) {
	if len(c.objKeys) == 0 {
		return nil, nil
	}
	rows, err := r.f.byObject(ctx, c.objKeys)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var subjects []string
	for _, row := range rows {
		subjects = append(subjects, row.SubjectKey)
	}
	if _, err := r.slotsOf(ctx, dedupe(subjects)); err != nil {
		return nil, err
	}
	var out []*chain
	for i := range rows {
		row := &rows[i]
		sl, w := r.currentOf(row)
		if sl == nil {
			continue
		}
		score, _ := unitScore(u, r.relation(w), true, c.q.loose)
		if score < minHopScore {
			continue
		}
		out = append(out, r.step(ctx, c, sl, w, score, 1, true))
	}
	return out, nil
}

// currentOf returns the resolved slot of a claim row and the row's claim in it when it is a current value.
func (r *resolver) currentOf(row *store.Belief) (*store.Slot, *store.Belief) {
	for _, s := range r.slots[row.SubjectKey] {
		if s.SlotKey != row.SlotKey {
			continue
		}
		for _, w := range s.Winners {
			if w.ID == row.ID {
				return s, w
			}
		}
	}
	return nil, nil
}

// bridged reports whether the chain already took its one bridge hop.
func (c *chain) bridged() bool {
	for _, h := range c.hops {
		if h.bridge {
			return true
		}
	}
	return false
}

// sharesWords reports two units naming a word in common ("the position X plays … play"): then they are two
// relations said alike, not one relation said in two places.
func sharesWords(a, b *relUnit) bool {
	for _, w := range a.words {
		if contains(b.words, w) {
			return true
		}
	}
	return false
}

func hasAny(have, want []string) bool {
	for _, w := range want {
		if w != "" && contains(have, w) {
			return true
		}
	}
	return false
}

// objectKeysOfText returns the object keys a mention may be named by as a value.
func objectKeysOfText(text string, subjects []string) []string {
	out := []string{}
	if k := canon.ObjectKey(trimQuestionPunct(text)); k != "" {
		out = append(out, k)
	}
	out = append(out, subjects...)
	return dedupe(out)
}

// objectKeys returns the subject keys an object could be known under.
func objectKeys(c *store.Belief) []string {
	k := canon.SubjectKey(c.Object)
	if k == "" {
		return nil
	}
	return []string{k}
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// phraseVecErr is phraseVec in the shape embedAlike takes: a nil vector and no error without an embedder.
func (r *resolver) phraseVecErr(ctx context.Context, text string) ([]float32, error) {
	if r.embed == nil {
		return nil, nil
	}
	return r.phraseVec(ctx, text), nil
}

// phraseVec returns the embedding of a relation phrase (cached per question).
func (r *resolver) phraseVec(ctx context.Context, text string) []float32 {
	if r.embed == nil || text == "" {
		return nil
	}
	if r.vecs == nil {
		r.vecs = map[string][]float32{}
	}
	if v, ok := r.vecs[text]; ok {
		return v
	}
	v, _ := r.embed(ctx, text)
	r.vecs[text] = v
	return v
}

// predSim is the cosine similarity between a unit's relation phrase and the claim's predicate phrase.
func (r *resolver) predSim(ctx context.Context, u *relUnit, w *store.Belief) (float64, bool) {
	if len(w.PredVec) == 0 {
		return 0, false
	}
	q := r.phraseVec(ctx, unitPhrase(u))
	if len(q) != len(w.PredVec) {
		return 0, false
	}
	var dot float64
	for i := range q {
		dot += float64(q[i]) * float64(w.PredVec[i])
	}
	return dot, true
}

// unitPhrase is the text of a unit compared by meaning: as said (else its lemmas), with the question's type
// noun ("Which drink does Alice like best?" asks about drinks). With a light verb the type noun alone is the
// relation: "What pets does Tobias have?" asks for Tobias's pets, whatever verb said he has them.
func unitPhrase(u *relUnit) string {
	if len(u.typ) > 0 && len(u.words) == 1 && lightVerbs[u.words[0]] {
		return strings.Join(u.typ, " ")
	}
	s := u.said
	if s == "" {
		s = strings.Join(u.words, " ")
	}
	if len(u.typ) > 0 {
		s += " " + strings.Join(u.typ, " ")
	}
	return s
}

// bySimilarity answers a one-relation question whose relation no key or lemma matched: the mentioned
// entity's slot whose predicate phrase is closest in meaning to the question's relation, when close enough.
func (r *resolver) bySimilarity(ctx context.Context, toks []qtok, ms []mention) (*chain, []mention, error) {
	if r.embed == nil {
		return nil, ms, nil
	}
	// A slot whose value is what the question counts back from ("before Luna": what came after) is taken only
	// when no other slot matches.
	var best, after *chain
	bestSim, afterSim := predSimAlone, predSimAlone
	for _, m := range ms {
		qp := readQuestion(toks, &m)
		if requiredUnits(qp.units) != 1 {
			continue
		}
		var u *relUnit
		for i := range qp.units {
			if !qp.units[i].optional {
				u = &qp.units[i]
			}
		}
		slots, err := r.slotsOf(ctx, m.subjects)
		if err != nil {
			return nil, ms, err
		}
		for _, s := range slots {
			// A slot whose values all ended stands, for a question about the past, for its newest (candidateOf).
			w := r.candidateOf(s, u)
			if w == nil || endingOf(w) || canon.Indefinite(w.Object) || answerTypePenalty(qp, w.Object) > 0 {
				// Meaning alone is weak evidence: a value of another kind than the question word asks for
				// is another relation's ("What is Jonah's job?" is not where he lives).
				continue
			}
			// The slot's relation is its own claims' (a value acquired in place of an ended one was said with
			// another verb: see expand).
			rc := w
			if rc.SlotKey != s.SlotKey && len(s.Claims) > 0 {
				rc = s.Claims[0]
			}
			sim, ok := r.predSim(ctx, u, rc)
			if !ok {
				continue
			}
			c := &chain{start: m, q: qp, units: qp.units, entity: m.subjects, next: len(qp.units),
				hops: []hop{{slot: s, claim: w, score: sim}}, score: sim, finalVal: sim}
			switch {
			case r.before != "" && namesAny(r.before, valueNames(w.Object)):
				if sim > afterSim {
					afterSim, after = sim, c
				}
			case sim > bestSim:
				bestSim, best = sim, c
			}
		}
	}
	if best == nil {
		best = after
	}
	return best, ms, nil
}

// maxReverseRows bounds the claims one reverse lookup reads.
const maxReverseRows = 200

// reverseLookup answers a question that names a value rather than an entity ("Who lives in Berlin?"): the
// current claims whose object is mentioned and whose relation matches the question read from that value
// (the inverse reading of its relation); the answer is their subjects.
func (r *resolver) reverseLookup(ctx context.Context, q string, toks []qtok) (*chain, error) {
	fs := fields(q)
	if len(fs) > maxMentionScan {
		fs = fs[:maxMentionScan]
	}
	spans := map[string][2]int{}
	var keys []string
	for n := min(maxMentionFields, len(fs)); n >= 1; n-- {
		for i := 0; i+n <= len(fs); i++ {
			k := canon.ObjectKey(trimQuestionPunct(strings.Join(fs[i:i+n], " ")))
			if k == "" || stopwords[k] {
				continue
			}
			if _, ok := spans[k]; !ok {
				spans[k] = [2]int{i, i + n}
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil, nil
	}
	rows, err := r.f.byObject(ctx, keys)
	if err != nil || len(rows) == 0 {
		return nil, err
	}
	var subjects []string
	for _, row := range rows {
		subjects = append(subjects, row.SubjectKey)
	}
	// Only current values count: resolve each candidate's slot as the caller sees it.
	if _, err := r.slotsOf(ctx, dedupe(subjects)); err != nil {
		return nil, err
	}
	parses := map[[2]int]*questionParse{}
	best := minHopScore
	var out []*store.Belief
	var bestSlot *store.Slot
	var m mention
	var bestQ *questionParse
	for i := range rows {
		row := &rows[i]
		sp, ok := spans[row.ObjectKey]
		if !ok {
			continue
		}
		sl, w := r.currentOf(row)
		if sl == nil {
			continue
		}
		mm := mention{from: sp[0], to: sp[1], key: row.ObjectKey}
		qp := parses[sp]
		if qp == nil {
			qp = readQuestion(toks, &mm)
			parses[sp] = qp
		}
		if len(qp.units) == 0 {
			continue
		}
		// The relation nearest the value, read backwards (or forwards when the question has no inverse
		// reading of it: "Who is married to Jane?" is symmetric).
		u := &qp.units[0]
		score, _ := unitScore(u, r.relation(w), true, qp.loose)
		if s2, _ := unitScore(u, r.relation(w), false, qp.loose); s2 > score && len(u.inverse) == 0 {
			score = s2
		}
		if score < best-1e-9 {
			continue
		}
		if score > best+1e-9 {
			best, out, bestSlot, m, bestQ = score, nil, sl, mm, qp
		}
		out = append(out, w)
		if bestSlot == nil {
			bestSlot, m, bestQ = sl, mm, qp
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	out = dedupeClaims(out)
	sort.SliceStable(out, func(i, j int) bool { return store.Newer(out[i], out[j]) })
	if len(out) > 10 {
		out = out[:10]
	}
	return &chain{start: m, q: bestQ, units: bestQ.units, next: len(bestQ.units), hops: []hop{{slot: bestSlot, claim: out[0], score: best}}, score: best, finalVal: best, reverse: out}, nil
}

func dedupeClaims(cs []*store.Belief) []*store.Belief {
	seen := map[string]bool{}
	out := cs[:0:0]
	for _, c := range cs {
		if !seen[c.ID] {
			seen[c.ID] = true
			out = append(out, c)
		}
	}
	return out
}

// requiredUnits counts the relations a reading must explain: its units that are not optional type nouns.
func requiredUnits(units []relUnit) int {
	n := 0
	for _, u := range units {
		if !u.optional {
			n++
		}
	}
	return n
}

// answerTypePenalty is charged when the value a chain ends on cannot be what the question asks for: "where"
// asks for a place or an organization (a name), "when" for a date, "how much"/"how many" for an amount,
// "who"/"whom" for someone (a name). English marks the kind of answer in its question word; a value of
// another kind ("Where does Emma work?" → "data scientist") belongs to another relation of the same words.
func answerTypePenalty(q *questionParse, object string) float64 {
	if q == nil || strings.TrimSpace(object) == "" {
		return 0
	}
	hasDigit := strings.IndexFunc(object, unicode.IsDigit) >= 0
	named := false
	for _, f := range strings.Fields(object) {
		if r, _ := utf8.DecodeRuneInString(f); unicode.IsUpper(r) || unicode.IsDigit(r) {
			named = true
			break
		}
	}
	const mismatch = 0.6
	switch q.kind {
	case kindPlace:
		if !named || dateOrAmount(object) {
			return mismatch
		}
	case kindTime:
		if !hasDigit && !mentionsMonthOrDay(object) {
			return mismatch
		}
	case kindPerson:
		if !named || dateOrAmount(object) {
			return mismatch / 2
		}
	case kindAmount:
		if !hasDigit && !hasNumberWord(object) && !strings.HasPrefix(q.wh, "how long") {
			return mismatch
		}
	}
	return 0
}

// hasNumberWord reports whether a value says a number in words ("ten", "twenty-one", "three dogs").
func hasNumberWord(object string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(object), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if nlp.IsCardinalWord(w) {
			return true
		}
	}
	return false
}

// wrongKind reports a value that cannot answer the question's word at all, whatever relation it has: a
// "when" question answered by no date, a "how much" by no number, a "where" or "who" by a date or an amount.
// answerTypePenalty charges the softer mismatches (a place said in lower case: "from home").
func wrongKind(q *questionParse, object string) bool {
	if q == nil || strings.TrimSpace(object) == "" {
		return false
	}
	switch q.kind {
	case kindTime, kindAmount:
		return answerTypePenalty(q, object) > 0
	case kindPlace, kindPerson:
		return dateOrAmount(object)
	}
	return false
}

// answersTheKind reports whether a later statement of change may answer a question in place of the value it
// changes: for "when", not one that says a place and no time ("the offsite is in Madrid now" changed where, not
// when); one that says neither ("the MOT got postponed") still says the time no longer holds.
func answersTheKind(q *questionParse, text string) bool {
	if q == nil || q.kind != kindTime {
		return true
	}
	return saysATime(text) || !saysAPlace(text)
}

// kindMatch reports a value of the kind a question's word asks for when that kind is one few values are: a
// date for "when", an amount for "how much", a named place for "where".
func kindMatch(q *questionParse, object string) bool {
	if q == nil || answerTypePenalty(q, object) > 0 {
		// (A value of the wrong kind, wrongKind, is always charged.)
		return false
	}
	return q.kind == kindTime || q.kind == kindAmount || q.kind == kindPlace
}

// roleRelation reports a claim of what its subject works or serves as ("works as", "serves as"): a role,
// never a place.
func roleRelation(c *store.Belief) bool {
	return c.PredicateKey == "occupation" || strings.HasSuffix(strings.ToLower(strings.TrimSpace(c.Predicate)), " as")
}

// dateOrAmount reports a value that is a date ("3 May 2025", "Friday 15 March 2024 at 2 pm", "the summer of
// 2024") or an amount
// ("$640,000", "30 kilometres a week"): digits with a month or weekday name, a currency sign first, or a
// number first with no name after it. Neither is a place or a person, though both start like a name; an
// address ("221B Baker Street", "10 Downing Street") has digits but is neither.
func dateOrAmount(object string) bool {
	s := strings.TrimSpace(object)
	if strings.IndexFunc(s, unicode.IsDigit) >= 0 && mentionsMonthOrDay(s) || reSeasonOfYear.MatchString(s) {
		return true
	}
	if r, _ := utf8.DecodeRuneInString(s); unicode.Is(unicode.Sc, r) {
		return true
	}
	fields := strings.Fields(s)
	if len(fields) == 0 || strings.Trim(fields[0], "0123456789.,") != "" {
		return false
	}
	for _, f := range fields[1:] {
		if r, _ := utf8.DecodeRuneInString(f); unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// reSeasonOfYear is a season with its year, as the extractor resolves "in the summer" ("the summer of 2024");
// a season's word without a year may be a name ("12 Summer Street").
var reSeasonOfYear = regexp.MustCompile(`(?i)\b(?:spring|summer|autumn|fall|winter)\s+of\s+(?:19|20)\d\d\b`)

// mentionsMonthOrDay reports a month or weekday name, the words of a date without digits.
func mentionsMonthOrDay(s string) bool {
	for _, w := range splitWords(s) {
		switch w {
		case "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
			"november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
			"today", "tomorrow", "yesterday",
			// the days a recurring thing is on ("Tuesdays", "weekends")
			"mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays", "sundays", "weekends", "weekdays":
			return true
		}
	}
	return false
}
