package query

import (
	"context"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/canon"
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
}

// hop is one deterministic step: the slot chosen for an entity and its resolved value.
type hop struct {
	slot  *store.Slot
	claim *store.Belief
	score float64
	// bridge marks a hop taken without a cue word, to reach an entity whose slots the question names.
	bridge bool
}

// chain is one candidate resolution of a question: a start entity and hops outward from it.
type chain struct {
	start    mention
	entity   []string // subject keys of the current entity
	cues     []cue
	used     []bool
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
	// question's relation words are then also compared with predicate phrases by meaning.
	embed func(ctx context.Context, text string) ([]float32, error)
	// qvecs caches the embedding of the question's relation words per mention.
	qvecs map[int][]float32
}

const (
	beamWidth   = 8
	minHopScore = 0.5
	// bridgePenalty is charged for a hop the question does not name ("the country of origin of <a club>"
	// goes through the club's sport); at most one per chain, and never the last hop.
	bridgePenalty = 0.5
	hopPenalty    = 0.05
	maxMentions   = 4
	proximityBon  = 0.15
	// predSimFloor is the cosine similarity below which a predicate phrase says nothing about the question
	// (unrelated phrases score around 0.1–0.2 with the default model); predSimWeight scales what is above it.
	predSimFloor  = 0.3
	predSimWeight = 0.5
	// predSimAlone is the similarity at which a predicate phrase alone answers a one-hop question that no
	// relation word of the lexicon matched.
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
		for _, s := range store.GroupSlots(rows, r.v) {
			r.slots[s.SubjectKey] = append(r.slots[s.SubjectKey], s)
		}
	}
	var out []*store.Slot
	for _, k := range keys {
		out = append(out, r.slots[k]...)
	}
	return out, nil
}

// cuesFor returns the question's content words outside the mention, with their field positions. Idioms are
// replaced by the plain word they mean ("breathe his last" → die).
func cuesFor(q string, m mention) []cue {
	all := words(q)
	var out []cue
	for i := 0; i < len(all); i++ {
		w := all[i]
		if w.field >= m.from && w.field < m.to {
			continue
		}
		if n, meaning := matchIdiom(all[i:]); n > 0 {
			out = append(out, cue{stem: stem(meaning), field: w.field, text: meaning})
			i += n - 1
			continue
		}
		if stopwords[w.low] {
			continue
		}
		out = append(out, cue{stem: w.stem, field: w.field, text: w.low})
	}
	return out
}

// resolve finds the best chain for question q: from each mentioned entity outward, choosing at each hop the
// slot whose relation best matches the question's unconsumed cue words, until the cues are spent. It returns
// nil when no entity or no matching slot is found.
func (r *resolver) resolve(ctx context.Context, q string) (*chain, []mention, error) {
	ms, err := r.mentions(ctx, q)
	if err != nil {
		return nil, ms, err
	}
	if len(ms) == 0 {
		c, err := r.reverseLookup(ctx, q)
		return c, ms, err
	}
	var beam []*chain
	for _, m := range ms {
		cs := cuesFor(q, m)
		beam = append(beam, &chain{start: m, entity: m.subjects, cues: cs, used: make([]bool, len(cs))})
	}
	var finals []*chain
	for depth := 0; depth < r.maxHops && len(beam) > 0; depth++ {
		var next []*chain
		for _, c := range beam {
			exp, err := r.expand(ctx, c)
			if err != nil {
				return nil, ms, err
			}
			next = append(next, exp...)
		}
		sort.SliceStable(next, func(i, j int) bool { return next[i].score > next[j].score })
		if len(next) > beamWidth {
			next = next[:beamWidth]
		}
		// Hop to the objects: an object that is itself a known subject can be expanded further.
		var objKeys []string
		for _, c := range next {
			objKeys = append(objKeys, objectKeys(c.hops[len(c.hops)-1].claim)...)
		}
		known, err := r.f.known(ctx, dedupe(objKeys))
		if err != nil {
			return nil, ms, err
		}
		beam = beam[:0]
		for _, c := range next {
			c.finalVal = c.score - remainingPenalty(c) - hopPenalty*float64(len(c.hops)) - answerTypePenalty(q, c.hops[len(c.hops)-1].claim.Object)
			if !c.hops[len(c.hops)-1].bridge {
				finals = append(finals, c)
			}
			var subj []string
			for _, k := range objectKeys(c.hops[len(c.hops)-1].claim) {
				subj = append(subj, known[k]...)
			}
			if len(subj) > 0 && remainingCues(c) > 0 {
				c2 := *c
				c2.entity = dedupe(subj)
				beam = append(beam, &c2)
			}
		}
	}
	if len(finals) == 0 {
		c, ms, err := r.bySimilarity(ctx, q, ms)
		if c != nil || err != nil {
			return c, ms, err
		}
		c, err = r.reverseLookup(ctx, q)
		return c, ms, err
	}
	sort.SliceStable(finals, func(i, j int) bool { return finals[i].finalVal > finals[j].finalVal })
	return finals[0], ms, nil
}

// expand returns c extended by each slot of its entity that matches the remaining cues well enough.
func (r *resolver) expand(ctx context.Context, c *chain) ([]*chain, error) {
	slots, err := r.slotsOf(ctx, c.entity)
	if err != nil {
		return nil, err
	}
	// Anchor fields: the mention for the first hop, else the cues the previous hop consumed.
	anchor := []int{c.start.from, c.start.to - 1}
	if len(c.hops) > 0 {
		anchor = anchor[:0]
		for i, u := range c.used {
			if u {
				anchor = append(anchor, c.cues[i].field)
			}
		}
	}
	var out []*chain
	for _, s := range slots {
		if len(s.Winners) == 0 {
			continue
		}
		w := s.Winners[0]
		score, consumed := relationMatch(relationWords(w), c.cues, c.used)
		if score < minHopScore || len(consumed) == 0 {
			continue
		}
		if sim, ok := r.predSim(ctx, c, w); ok {
			score += predSimWeight * max(0, sim-predSimFloor)
		}
		// Closer cue words are likelier to name this hop: "the capital of the country of X" reads outward.
		dist := 1 << 30
		for _, i := range consumed {
			for _, a := range anchor {
				if d := abs(c.cues[i].field - a); d < dist {
					dist = d
				}
			}
		}
		score += proximityBon / float64(1+dist)
		used := append([]bool(nil), c.used...)
		for _, i := range consumed {
			used[i] = true
		}
		n := &chain{start: c.start, entity: c.entity, cues: c.cues, used: used,
			hops: append(append([]hop(nil), c.hops...), hop{slot: s, claim: w, score: score}), score: c.score + score}
		out = append(out, n)
	}
	if len(out) == 0 && !c.bridged() {
		for _, s := range slots {
			if len(s.Winners) == 0 {
				continue
			}
			w := s.Winners[0]
			out = append(out, &chain{start: c.start, entity: c.entity, cues: c.cues, used: c.used,
				hops:  append(append([]hop(nil), c.hops...), hop{slot: s, claim: w, score: -bridgePenalty, bridge: true}),
				score: c.score - bridgePenalty})
		}
	}
	return out, nil
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

// remainingPenalty charges for cue words no hop explained: relation words of the lexicon cost more than
// other words, which are often filler ("serves", "name").
func remainingPenalty(c *chain) float64 {
	p := 0.0
	for i, u := range c.used {
		if u {
			continue
		}
		p += cueWeight(c.cues[i].stem)
	}
	return p
}

func remainingCues(c *chain) int {
	n := 0
	for i, u := range c.used {
		if !u && cueWeight(c.cues[i].stem) >= 0.2 {
			n++
		}
	}
	return n
}

// cueWeight is how much an unexplained question word counts against a chain.
func cueWeight(s string) float64 {
	best := 0.0
	for _, wt := range membership[s] {
		best = max(best, wt)
	}
	switch {
	case best >= strongMember:
		return 0.6
	case best > 0:
		return 0.2
	}
	return 0.1
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

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// questionVec returns the embedding of the question's relation words for a chain's mention (cached).
func (r *resolver) questionVec(ctx context.Context, c *chain) []float32 {
	if r.embed == nil {
		return nil
	}
	if r.qvecs == nil {
		r.qvecs = map[int][]float32{}
	}
	key := c.start.from<<16 | c.start.to
	if v, ok := r.qvecs[key]; ok {
		return v
	}
	var words []string
	for _, cu := range c.cues {
		words = append(words, cu.text)
	}
	var v []float32
	if len(words) > 0 {
		v, _ = r.embed(ctx, strings.Join(words, " "))
	}
	r.qvecs[key] = v
	return v
}

// predSim is the cosine similarity between the question's relation words and the claim's predicate phrase.
func (r *resolver) predSim(ctx context.Context, c *chain, w *store.Belief) (float64, bool) {
	if len(w.PredVec) == 0 {
		return 0, false
	}
	q := r.questionVec(ctx, c)
	if len(q) != len(w.PredVec) {
		return 0, false
	}
	var dot float64
	for i := range q {
		dot += float64(q[i]) * float64(w.PredVec[i])
	}
	return dot, true
}

// bySimilarity answers a one-hop question whose relation words no lexicon entry matched: the mentioned
// entity's slot whose predicate phrase is closest in meaning to the question, when close enough.
func (r *resolver) bySimilarity(ctx context.Context, q string, ms []mention) (*chain, []mention, error) {
	if r.embed == nil {
		return nil, ms, nil
	}
	var best *chain
	bestSim := predSimAlone
	for _, m := range ms {
		slots, err := r.slotsOf(ctx, m.subjects)
		if err != nil {
			return nil, ms, err
		}
		c := &chain{start: m, entity: m.subjects, cues: cuesFor(q, m)}
		for _, s := range slots {
			if len(s.Winners) == 0 {
				continue
			}
			if sim, ok := r.predSim(ctx, c, s.Winners[0]); ok && sim > bestSim {
				bestSim = sim
				best = &chain{start: m, entity: m.subjects, cues: c.cues, used: make([]bool, len(c.cues)),
					hops: []hop{{slot: s, claim: s.Winners[0], score: sim}}, score: sim, finalVal: sim}
			}
		}
	}
	return best, ms, nil
}

// maxReverseRows bounds the claims one reverse lookup reads.
const maxReverseRows = 200

// reverseLookup answers a question that names a value rather than an entity ("Who lives in Berlin?"): the
// current claims whose object is mentioned and whose relation matches the rest of the question; the answer is
// their subjects.
func (r *resolver) reverseLookup(ctx context.Context, q string) (*chain, error) {
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
	best := minHopScore
	var out []*store.Belief
	var bestSlot *store.Slot
	var m mention
	for i := range rows {
		row := &rows[i]
		sp, ok := spans[row.ObjectKey]
		if !ok {
			continue
		}
		var sl *store.Slot
		for _, s := range r.slots[row.SubjectKey] {
			if s.SlotKey == row.SlotKey && contains(idsOf(s.Winners), row.ID) {
				sl = s
			}
		}
		if sl == nil {
			continue
		}
		mm := mention{from: sp[0], to: sp[1], key: row.ObjectKey}
		cs := cuesFor(q, mm)
		score, consumed := relationMatch(relationWords(row), cs, make([]bool, len(cs)))
		if len(consumed) == 0 || score < best-1e-9 {
			continue
		}
		if score > best+1e-9 {
			best, out, bestSlot, m = score, nil, sl, mm
		}
		out = append(out, row)
		if bestSlot == nil {
			bestSlot, m = sl, mm
		}
	}
	if len(out) == 0 {
		return nil, nil
	}
	sort.SliceStable(out, func(i, j int) bool { return store.Newer(out[i], out[j]) })
	if len(out) > 10 {
		out = out[:10]
	}
	return &chain{start: m, hops: []hop{{slot: bestSlot, claim: out[0], score: best}}, score: best, finalVal: best, reverse: out}, nil
}

// answerTypePenalty is charged when the value a chain ends on cannot be what the question's wh-word asks for:
// "where" asks for a place or an organization (a name), "when" for a date, "how much"/"how many" for an
// amount, "who"/"whom" for someone (a name). English marks the kind of answer in its question word; a value
// of another kind ("Where does Emma work?" → "data scientist") belongs to another relation of the same words.
func answerTypePenalty(q, object string) float64 {
	ws := splitWords(q)
	if len(ws) == 0 || strings.TrimSpace(object) == "" {
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
	switch ws[0] {
	case "where":
		if !named {
			return mismatch
		}
	case "when":
		if !hasDigit && !mentionsMonthOrDay(object) {
			return mismatch
		}
	case "who", "whom":
		if !named {
			return mismatch / 2
		}
	case "how":
		if len(ws) > 1 && (ws[1] == "much" || ws[1] == "many" || ws[1] == "old" || ws[1] == "long") && !hasDigit {
			return mismatch
		}
	}
	return 0
}

// mentionsMonthOrDay reports a month or weekday name, the words of a date without digits.
func mentionsMonthOrDay(s string) bool {
	for _, w := range splitWords(s) {
		switch w {
		case "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
			"november", "december", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
			"today", "tomorrow", "yesterday":
			return true
		}
	}
	return false
}
