package canon

import (
	"strings"
	"unicode"

	"github.com/mneme-ai/mneme/pkg/nlp"
)

// auxiliaries are dropped from predicate phrases: "is married to" and "was married to" are one slot.
var auxiliaries = map[string]bool{
	"is": true, "was": true, "are": true, "were": true, "am": true, "be": true, "been": true, "being": true,
	"does": true, "do": true, "did": true, "will": true, "shall": true, "s": true, "m": true, "re": true,
}

// fillers are adverbs and determiners that do not change which attribute a predicate names.
var fillers = map[string]bool{
	"the": true, "a": true, "an": true, "currently": true, "now": true, "still": true, "also": true,
	"just": true, "recently": true, "already": true, "really": true, "actually": true, "presently": true,
}

// beForms are the forms of "be" after which an -ing word is a verb.
var beForms = map[string]bool{"is": true, "was": true, "are": true, "were": true, "am": true, "be": true, "been": true, "being": true}

// haveForms are dropped when they are auxiliaries ("has been", "has moved") and become "has" otherwise.
var haveForms = map[string]bool{"has": true, "have": true, "had": true, "having": true}

// participles lists irregular past participles that follow an auxiliary "have".
var participles = map[string]bool{
	"been": true, "born": true, "known": true, "gone": true, "done": true, "seen": true, "taken": true,
	"given": true, "written": true, "made": true, "become": true, "begun": true, "run": true, "won": true,
	"held": true, "led": true, "left": true, "met": true, "taught": true, "bought": true, "brought": true,
	"built": true, "found": true, "got": true, "gotten": true, "grown": true, "had": true, "heard": true,
	"kept": true, "lost": true, "read": true, "said": true, "sold": true, "sent": true, "spent": true,
	"told": true, "thought": true, "worn": true, "driven": true, "eaten": true, "chosen": true, "spoken": true,
}

// lemmas maps verb forms to the third-person present form Mneme uses in predicate keys, so "lived in",
// "living in" and "lives in" are one slot. Past participles used adjectivally ("married to", "born in",
// "located in", "employed by") are left alone: they already name a state.
var lemmas = func() map[string]string {
	m := map[string]string{}
	add := func(canonical string, forms ...string) {
		m[canonical] = canonical
		for _, f := range forms {
			m[f] = canonical
		}
	}
	add("lives", "live", "lived", "living", "reside", "resides", "resided", "residing")
	add("works", "work", "worked", "working")
	add("studies", "study", "studied", "studying")
	add("plays", "play", "played", "playing")
	add("likes", "like", "liked", "liking")
	add("loves", "love", "loved", "loving")
	add("hates", "hate", "hated", "hating")
	add("enjoys", "enjoy", "enjoyed", "enjoying")
	add("prefers", "prefer", "preferred", "preferring")
	add("owns", "own", "owned", "owning")
	add("speaks", "speak", "spoke", "speaking")
	add("teaches", "teach", "taught", "teaching")
	add("attends", "attend", "attended", "attending")
	add("visits", "visit", "visited", "visiting")
	add("moves", "move", "moved", "moving")
	add("wants", "want", "wanted", "wanting")
	add("needs", "need", "needed", "needing")
	add("uses", "use", "used", "using")
	add("writes", "write", "wrote", "writing")
	add("reads", "reading")
	add("goes", "go", "went", "going")
	add("has", "have", "had", "having")
	for form, canonical := range spellings {
		m[form] = canonical
	}
	return m
}()

// spellings are spelling variants of the same word (British and American, clipped forms), normalized wherever
// they stand in a phrase.
var spellings = map[string]string{"favourite": "favourite", "favorite": "favourite", "fave": "favourite",
	"favourites": "favourite", "favorites": "favourite", "colour": "colour", "color": "colour"}

// fillerOf drops "the city of", "the country of" ... after a preposition: "born in the city of London" and
// "born in London" name one slot.
var fillerOf = map[string]bool{
	"city": true, "town": true, "country": true, "continent": true, "state": true, "region": true,
	"province": true, "village": true,
}

// PredicateKey returns the normalized key of a predicate phrase: NFKC, lower case, auxiliaries (is, was, are,
// has been, ...), articles and filler adverbs dropped, common verb forms lemmatized, words joined by "_".
// "Lives in" → "lives_in", "is married to" → "married_to", "has been living in" → "lives_in",
// "was born in the city of" → "born_in", "is the capital of" → "capital_of". A phrase made only of
// auxiliaries keeps them ("is" → "is").
func PredicateKey(p string) string {
	prev := p
	for range maxFixpoint {
		next := predicateKeyOnce(prev)
		if next == prev {
			return next
		}
		prev = next
	}
	return prev
}

func predicateKeyOnce(p string) string {
	words := predicateWords(fold(p))
	if len(words) == 0 {
		return ""
	}
	kept := make([]string, 0, len(words))
	afterBe := false
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		if len(kept) == 0 && afterBe && len(w) > 4 && strings.HasSuffix(w, "ing") {
			// After "is"/"has been", an -ing word is a progressive verb: "is teaching at" is "teaches at".
			if b := nlp.VerbLemma(w); b != w {
				w = nlp.ThirdPerson(b)
			}
		}
		switch {
		case auxiliaries[w]:
			afterBe = afterBe || beForms[w]
			continue
		case fillers[w]:
			continue
		case haveForms[w] && next != "" && isParticiple(next):
			continue
		case getForms[w] && next != "" && isPastParticiple(next):
			// The get-passive: "got hired by" is "hired by", "got married to" is "married to".
			continue
		case w == "of" && len(kept) >= 2 && fillerOf[kept[len(kept)-1]] && isLocativePrep(kept[len(kept)-2]):
			// "in city of" → "in": drop the filler noun and this "of".
			kept = kept[:len(kept)-1]
			continue
		}
		if len(kept) == 0 && next == "by" && isPastParticiple(w) && spellings[w] == "" {
			// A passive keeps its participle, as "founded by" does: "is owned by" is owned_by, not owns_by (and
			// stays so on the next pass, where its auxiliary is gone).
			kept = append(kept, w)
			continue
		}
		if l, ok := lemmas[w]; ok && (len(kept) == 0 || spellings[w] != "") {
			// Verb forms are lemmatized in the verb's place, the head of the phrase ("lived in", "has been
			// working at"); later in the phrase the same word is a noun: "place of work", "most famous work".
			w = l
		}
		kept = append(kept, w)
	}
	if len(kept) == 0 {
		// Only auxiliaries: keep the phrase rather than return an empty key.
		return strings.Join(words, "_")
	}
	return strings.Join(kept, "_")
}

func isLocativePrep(w string) bool {
	switch w {
	case "in", "from", "of", "at", "to", "near":
		return true
	}
	return false
}

// getForms are the forms of "get" that make a passive before a past participle ("got hired", "gets paid").
var getForms = map[string]bool{"get": true, "gets": true, "got": true, "gotten": true, "getting": true}

// isPastParticiple reports a past participle: irregular, or a regular "-ed" form.
func isPastParticiple(w string) bool {
	return participles[w] || (len(w) > 3 && strings.HasSuffix(w, "ed"))
}

func isParticiple(w string) bool {
	return participles[w] || (len(w) > 3 && strings.HasSuffix(w, "ed")) || (len(w) > 4 && strings.HasSuffix(w, "ing"))
}

// predicateWords splits a predicate phrase into words of letters and digits; everything else separates.
// Apostrophes split too, so "Alice's" style fragments never glue words together.
func predicateWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}
