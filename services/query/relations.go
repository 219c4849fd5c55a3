package query

import (
	"github.com/mneme-ai/mneme/pkg/store"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
)

// Relation matching decides whether a claim's relation is the one a question's relation unit (question.go)
// asks about, with the machinery the extractor filed the claim with: the claim's predicate key is a
// canonical relation key (pkg/canon: structure plus alias groups), so a unit whose keys hold it matches
// outright; else the content lemmas of the claim's predicate phrase and key are compared with the unit's
// (pkg/nlp lemmas on both sides, agent nouns read as their verbs: "founder" and "founded" meet), and, weakly,
// the lemmas of the claim's sentence outside its subject and object (a sentence may name the relation its
// predicate does not: "X is associated with the sport of Y").

// lemmaCache memoizes relLemma: the same few thousand words recur in every question and claim.
var lemmaCache sync.Map

// relLemma normalizes a word for relation matching: lower case, a verb form to its infinitive ("lived",
// "lives" → live), a plural to its singular, an agent noun to its verb ("founder" → found, "writer" →
// write: English derives them by rule, checked against the dictionary by nlp.AgentNoun).
func relLemma(w string) string {
	w = strings.ToLower(w)
	if v, ok := lemmaCache.Load(w); ok {
		return v.(string)
	}
	out := relLemmaOnce(w)
	lemmaCache.Store(w, out)
	return out
}

func relLemmaOnce(w string) string {
	if len(w) < 3 {
		return w
	}
	if nlp.Known(w) {
		if b := nlp.VerbLemma(w); b != w {
			return b
		}
		if n := nlp.Lemma(w, "NNS"); n != w && nlp.Known(n) {
			w = n
		}
	}
	for range 3 {
		d := derive(w)
		if d == w {
			break
		}
		w = d
	}
	// An agent noun: "founder" → found, "creator" → create, "producer" → produce, "director" → direct.
	for _, suf := range []string{"er", "or", "r"} {
		if base, ok := strings.CutSuffix(w, suf); ok && len(base) >= 3 {
			for _, b := range []string{base, base + "e", strings.TrimSuffix(base, base[len(base)-1:])} {
				// The base must be a verb: its regular forms are words too ("founded", not "authed").
				if len(b) >= 3 && nlp.Known(b) && nlp.AgentNoun(b) == w && (nlp.Known(nlp.PastRegular(b)) || nlp.Known(nlp.Gerund(b))) {
					return b
				}
			}
		}
	}
	return w
}

// derive undoes one step of English derivational morphology that turns a relation's verb into a noun or an
// adjective ("affiliation" → affiliate, "employment" → employ, "residence" → reside, "citizenship" →
// citizen, "religious" → religion, "educational" → education, "origin" → originate), when the result is a
// word of the dictionary (and, for a verb, has regular verb forms): the suffixes are English's productive
// ones, so no list of words is needed.
func derive(w string) string {
	isVerb := func(b string) bool {
		return len(b) >= 3 && nlp.Known(b) && (nlp.Known(nlp.PastRegular(b)) || nlp.Known(nlp.Gerund(b)))
	}
	known := func(b string) bool { return len(b) >= 3 && nlp.Known(b) }
	try := func(suffix string, cands ...func(stem string) (string, bool)) (string, bool) {
		stem, ok := strings.CutSuffix(w, suffix)
		if !ok || len(stem) < 3 {
			return "", false
		}
		for _, c := range cands {
			if b, ok := c(stem); ok {
				return b, true
			}
		}
		return "", false
	}
	verb := func(add string) func(string) (string, bool) {
		return func(stem string) (string, bool) { return stem + add, isVerb(stem + add) }
	}
	word := func(add string) func(string) (string, bool) {
		return func(stem string) (string, bool) { return stem + add, known(stem + add) }
	}
	for _, r := range []struct {
		suffix string
		cands  []func(string) (string, bool)
	}{
		{"ation", []func(string) (string, bool){verb("ate"), verb(""), verb("e")}},
		{"ion", []func(string) (string, bool){verb("e"), verb("")}},
		{"ment", []func(string) (string, bool){verb(""), verb("e")}},
		{"ence", []func(string) (string, bool){verb("e"), verb("")}},
		{"ance", []func(string) (string, bool){verb(""), verb("e")}},
		{"ship", []func(string) (string, bool){word("")}},
		{"ious", []func(string) (string, bool){word("ion")}},
		{"ional", []func(string) (string, bool){word("ion")}},
		{"al", []func(string) (string, bool){word(""), word("e")}},
	} {
		if b, ok := try(r.suffix, r.cands...); ok {
			return b
		}
	}
	if isVerb(w+"ate") && !isVerb(w) {
		// "origin" → originate.
		return w + "ate"
	}
	return w
}

// claimRelation is what a claim says its relation is.
type claimRelation struct {
	// keys are its canonical relation keys: the predicate key's and the slot key's.
	keys []string
	// words are the content lemmas of its predicate phrase and key.
	words []string
	// residual are the content lemmas of its sentence outside the subject and the object, without names.
	residual []string
}

// relationOf reads a claim's relation.
func relationOf(c *store.Belief) claimRelation {
	var r claimRelation
	r.keys = dedupe([]string{canon.RelationKey(c.PredicateKey), canon.RelationKey(c.SlotKey), c.PredicateKey})
	seen := map[string]bool{}
	add := func(dst *[]string, w string) {
		l := relLemma(w)
		if l == "" || stopwords[l] || stopwords[w] || prepWords[w] || seen[l] {
			return
		}
		seen[l] = true
		*dst = append(*dst, l)
	}
	for _, w := range splitWords(c.Predicate) {
		add(&r.words, w)
	}
	keyWords := &r.words
	if canon.IsCountKey(c.PredicateKey) {
		// A count's key ("number_of_cupcake_ordered", the extractor's counts) names the things counted beside
		// its verb; the things are what a question about it names as the kind of answer ("How many cupcakes
		// did …"), not its relation, so they weigh as the sentence's words do.
		keyWords = &r.residual
	}
	for _, w := range strings.Split(c.PredicateKey, "_") {
		add(keyWords, w)
	}
	// The slot's key is weaker evidence, like the sentence: the slot a claim was filed in may name more of the
	// relation than its predicate ("dentist" in the slot dentist_appointment of an "appointment").
	for _, w := range strings.Split(c.SlotKey, "_") {
		add(&r.residual, w)
	}
	for _, w := range sentenceResidual(c.Text, c.Subject, c.Object) {
		add(&r.residual, w)
	}
	return r
}

// Weights of the ways a claim's relation can match a unit.
const (
	// keyMatch is a unit key equal to the claim's relation key (less a little per rank of the key).
	keyMatch = 1.0
	// lemmaMatch scales the F1 of the unit's and the predicate's content lemmas.
	lemmaMatch = 0.85
	// residualMatch scales the share of the unit's lemmas found in the sentence outside subject and object.
	residualMatch = 0.4
	// typeNounMatch is a claim whose sentence names the kind of answer the question asks for;
	// typeConflictScore the most a claim may score that names another kind of place.
	typeNounMatch     = 0.55
	typeConflictScore = 0.2
	// looseBonus is added per loose question lemma (one no reading explained) the predicate holds.
	looseBonus = 0.1
)

// unitScore is how well a claim's relation answers unit u, in [0, 1]; inverse scores the inverse reading
// (the claim's object is the anchor side). pred is the part of the score from keys and the predicate alone.
func unitScore(u *relUnit, r claimRelation, inverse bool, loose []string) (score, pred float64) {
	keys := u.keys
	if inverse {
		keys = u.inverse
	} else if u.inverseOnly {
		return 0, 0
	}
	for i, k := range keys {
		if k != "" && contains(r.keys, k) {
			s := keyMatch - 0.02*float64(min(i, 5))
			if typeConflict(u, r) {
				s = typeConflictScore
			}
			return s, s
		}
	}
	if inverse && len(u.inverse) == 0 {
		return 0, 0
	}
	if len(u.words) == 0 {
		return 0, 0
	}
	m := 0
	for _, w := range u.words {
		if contains(r.words, w) {
			m++
		}
	}
	if m > 0 && len(r.words) > 0 {
		prec, rec := float64(m)/float64(len(r.words)), float64(m)/float64(len(u.words))
		pred = lemmaMatch * 2 * prec * rec / (prec + rec)
	}
	score = pred
	res := 0
	for _, w := range u.words {
		if contains(r.residual, w) || contains(r.words, w) {
			res++
		}
	}
	score = max(score, residualMatch*float64(res)/float64(len(u.words)))
	for _, w := range u.typ {
		// "Which continent does X come from?" and "X is located in the continent of Y": the kind of answer
		// the question names is named by the claim.
		if contains(r.residual, w) || contains(r.words, w) {
			score = max(score, typeNounMatch)
		}
	}
	if typeConflict(u, r) {
		// "In which city is …" and "… is located in the continent of Y": the claim names another kind.
		score = min(score, typeConflictScore)
	}
	bonus := 0.0
	for _, w := range loose {
		if contains(r.words, w) {
			bonus += looseBonus
		}
	}
	bonus = min(bonus, 2*looseBonus)
	if score > 0 {
		score += bonus
	}
	return min(score, 1), pred
}

// typeConflict reports a claim whose sentence names a kind of thing ("the continent of", "the city of")
// none of which is the kind the question asks for.
func typeConflict(u *relUnit, r claimRelation) bool {
	if len(u.typ) == 0 {
		return false
	}
	named := false
	for _, w := range append(append([]string(nil), r.residual...), r.words...) {
		if !placeKinds[w] {
			continue
		}
		if contains(u.typ, w) {
			return false
		}
		named = true
	}
	return named && placeKinds[u.typ[len(u.typ)-1]]
}

// placeKinds are the nouns English classifies places by, from the smallest to the largest: a claim that
// names one answers a question about that kind, not another ("which city" is not "which continent").
var placeKinds = set("city", "town", "village", "country", "state", "province", "region", "county", "continent", "island", "district", "neighbourhood", "neighborhood")

// covers reports whether every lemma of u is among the claim's relation words: one claim that names two
// units of the question ("the headquarters … located in" is one relation).
func covers(r claimRelation, u *relUnit) bool {
	if len(u.words) == 0 {
		return false
	}
	for _, w := range u.words {
		if !contains(r.words, w) && !contains(r.residual, w) {
			return false
		}
	}
	return true
}

// sentenceResidual returns the content words of text outside the first occurrences of subject and object,
// without capitalized words after the first (names), lower-cased.
func sentenceResidual(text, subject, object string) []string {
	low := strings.ToLower(text)
	orig := text
	cut := func(part string) {
		p := strings.ToLower(strings.TrimSpace(part))
		if p == "" {
			return
		}
		if i := strings.Index(low, p); i >= 0 && len(low) == len(orig) {
			low = low[:i] + " " + low[i+len(p):]
			orig = orig[:i] + " " + orig[i+len(p):]
		}
	}
	// The longer of the two first, so an object inside the subject's name (or the reverse) is not cut twice.
	if len(object) > len(subject) {
		cut(object)
		cut(subject)
	} else {
		cut(subject)
		cut(object)
	}
	var out []string
	for i, f := range strings.Fields(orig) {
		r, _ := utf8.DecodeRuneInString(f)
		if i > 0 && unicode.IsUpper(r) {
			continue
		}
		for _, w := range splitWords(f) {
			if !stopwords[w] {
				out = append(out, w)
			}
		}
	}
	return out
}
