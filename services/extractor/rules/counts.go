package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Counts. "I ordered 24 cupcakes", "I've completed 10 classification problems", "we have two cats": how many
// things of a kind a subject ordered, completed or has is one number at a time, and English restates it
// either way — "I've now completed 15 problems", "the number of cupcakes ordered went up to 30". A claim whose
// object counts things of a kind is therefore keyed by the count, not by its verb alone: its relation key
// is "number_of_<the kind>_<the verb's participle>" ("number_of_cupcake_ordered"; "number_of_cat" for what one
// has or owns), and it is single-valued, so a later count of the same things supersedes it while counts of
// other things, or the same things with another verb, keep their own slots. The claim keeps its relation
// phrase and its text as said. A change said of the count itself ("the number of cupcakes ordered increased
// to 30", updates.go) gets the same key from its attribute (countAttributeKey).
//
// What is not a count of things: a measure (hours, dollars, kilometres, percent — what is measured is
// elsewhere in the clause, and "spent 3 hours on X" and "spent 2 hours on Y" are two facts), an increment
// ("another 5 problems", "3 more"), a year, and anything negated or said of no verb.

// reCountNumber is a count in digits: "24", "1,200" (a decimal is a measure, not a count of things).
var reCountNumber = regexp.MustCompile(`^\d{1,3}(?:,\d{3})*$|^\d+$`)

// countHedges are the words English puts before a number to say it is approximate or exact; they do not change
// what is counted.
var countHedges = map[string]bool{"about": true, "around": true, "roughly": true, "nearly": true, "almost": true,
	"over": true, "exactly": true, "only": true, "just": true, "some": true, "approximately": true}

// countIncrements are the words that make a number an addition to an earlier count rather than the count
// itself ("another 5 problems", "5 more problems", "3 extra shifts").
var countIncrements = map[string]bool{"another": true, "more": true, "extra": true, "additional": true,
	"further": true, "other": true, "fewer": true, "less": true}

// measureNouns are English units of time, money, distance, weight, volume and proportion (by singular lemma):
// a number of them measures something the clause names elsewhere ("spent 3 hours on the report") rather than
// counting things of a kind, and "times" counts occasions.
var measureNouns = map[string]bool{
	"second": true, "minute": true, "hour": true, "day": true, "week": true, "month": true, "year": true,
	"decade": true, "night": true, "weekend": true, "time": true, "percent": true, "per": true,
	"dollar": true, "euro": true, "pound": true, "buck": true, "cent": true, "penny": true, "yen": true,
	"rupee": true, "franc": true, "quid": true, "grand": true, "k": true,
	"kilometre": true, "kilometer": true, "km": true, "mile": true, "metre": true, "meter": true, "foot": true,
	"feet": true, "inch": true, "yard": true, "kilogram": true, "kilo": true, "kg": true, "gram": true, "lb": true,
	"ounce": true, "ton": true, "tonne": true, "litre": true, "liter": true, "gallon": true, "calorie": true,
	"mg": true, "ml": true, "gb": true, "mb": true, "tb": true, "degree": true,
}

// genericKinds are English nouns of units of work and of parts (by singular lemma): "completed 15 problems",
// "did 3 exercises", "read 20 pages" count whatever activity the clause or the conversation names, and the next
// "12 problems" is as likely another set as the same one grown. Named alone they make no count; a modifier
// that says of what ("15 classification problems", "3 breathing exercises") does.
var genericKinds = map[string]bool{"problem": true, "question": true, "exercise": true, "task": true, "item": true,
	"thing": true, "step": true, "page": true, "chapter": true, "lesson": true, "session": true, "round": true,
	"set": true, "rep": true, "piece": true, "part": true, "unit": true, "module": true, "assignment": true,
	"example": true, "test": true, "quiz": true, "one": true, "other": true}

// countStops end the words that name what is counted: prepositions, conjunctions, determiners and relative
// words start what is said about the things, not their kind.
var countStops = map[string]bool{"from": true, "for": true, "to": true, "in": true, "on": true, "at": true,
	"with": true, "by": true, "of": true, "about": true, "between": true, "during": true, "since": true,
	"over": true, "and": true, "or": true, "but": true, "that": true, "which": true, "who": true, "the": true,
	"a": true, "an": true, "this": true, "last": true, "so": true, "as": true, "than": true, "into": true,
	"per": true, "each": true, "every": true, "before": true, "after": true, "until": true, "like": true}

// possessionCountVerbs are the verbs (by lemma) whose count is simply how many of the things there are
// ("I have two cats" is the number of cats, as "the number of cats" says it).
var possessionCountVerbs = map[string]bool{"have": true, "own": true}

// uncountedVerbs are verbs (by lemma) whose object is no count of things done to: the copula, and verbs of
// saying.
var uncountedVerbs = map[string]bool{"be": true, "say": true, "mention": true, "tell": true, "ask": true}

// countedKind returns the words that name the kind of things an object counts ("24 cupcakes from The Sweet
// Spot" → "cupcakes"; "10 classification problems" → "classification problems"), as lemmas, and ok=false
// when the object opens with no count of things.
func countedKind(object string) ([]string, bool) {
	ws := strings.Fields(object)
	i := 0
	for i < len(ws) && countHedges[strings.ToLower(ws[i])] {
		i++
	}
	if i >= len(ws) {
		return nil, false
	}
	num := strings.ToLower(strings.TrimRight(ws[i], ",;:"))
	one := num == "1" || num == "one"
	switch {
	case reCountNumber.MatchString(num):
		if len(num) == 4 && (num[:2] == "18" || num[:2] == "19" || num[:2] == "20" || num[:2] == "21") {
			return nil, false // a year
		}
	case nlp.IsCardinalWord(num):
	default:
		return nil, false
	}
	if num != ws[i] {
		return nil, false // "24, …": the number ends the phrase
	}
	// The kind's words run to its head noun: the first plural for several things ("10 classification
	// problems"), the words before what is said about the thing for one.
	var kind []string
	head := ""
	for _, w := range ws[i+1:] {
		word := strings.TrimRight(w, ",;:.!?")
		lw := strings.ToLower(word)
		if lw == "" || countStops[lw] || countIncrements[lw] || nlp.IsCardinalWord(lw) || reCountNumber.MatchString(lw) ||
			word != lw || strings.HasSuffix(lw, "ing") || strings.ContainsAny(lw, "0123456789'’/%$€£") {
			// What is said about the things, an increment, a second number, a name, an -ing word or a symbol.
			if countIncrements[lw] {
				return nil, false
			}
			break
		}
		kind = append(kind, lw)
		if l := nlp.Lemma(lw, "NNS"); !one && l != lw {
			head = l
			break
		}
		if word != w || len(kind) == 3 {
			break // punctuation closes the phrase; a kind is named in a few words
		}
	}
	if one && len(kind) > 0 && len(kind) <= 2 {
		head = kind[len(kind)-1]
	}
	if head == "" || measureNouns[head] || measureNouns[kind[len(kind)-1]] || nlp.Lemma(head, "NNS") != head ||
		genericKinds[head] && len(kind) == 1 {
		// No plain noun of things (several are named in the plural, one in the singular), a unit, or a unit of
		// work that does not say of what.
		return nil, false
	}
	kind[len(kind)-1] = head
	return kind, true
}

// countKey returns the relation key of a count: "number_of_" and the kind's words, then the verb's participle
// unless the verb only says the things are the subject's.
func countKey(kind []string, verbLemma string) string {
	key := canon.CountKeyPrefix + strings.Join(kind, "_")
	if verbLemma != "" && !possessionCountVerbs[verbLemma] {
		key += "_" + nlp.PastParticiple(verbLemma)
	}
	return key
}

// countKeyed keys a claim that counts things of a kind by the count (see above); other claims are returned as
// they are.
func countKeyed(c extract.Claim) extract.Claim {
	if c.Fallback || c.Negated || strings.ContainsAny(c.PredicateKey, "_ ") {
		return c
	}
	verb := strings.ToLower(c.PredicateKey)
	lemma := nlp.VerbLemma(verb)
	if lemma == verb && !possessionCountVerbs[verb] && !nlp.IsIrregularParticiple(verb) || uncountedVerbs[lemma] {
		// Not an inflected verb (a relational noun, "age", "rent"), or a verb whose object counts nothing.
		return c
	}
	kind, ok := countedKind(c.Object)
	if !ok {
		return c
	}
	c.PredicateKey = countKey(kind, lemma)
	c.Functional = true
	return c
}

// countAttributeKey returns the count key of an attribute phrase that says what it counts ("number of cupcakes
// ordered", "number of mentees highlighted in my portfolio", "number of commits"): the kind's words up to the
// participle that names what was done to them, the participle, and nothing after it (where or for whom it
// was done); ok=false when the phrase is no count or names no kind plainly.
func countAttributeKey(attr string) (string, bool) {
	ws := strings.Fields(strings.ToLower(attr))
	for len(ws) > 0 && (ws[0] == "total" || ws[0] == "the") {
		ws = ws[1:]
	}
	if len(ws) < 3 || ws[0] != "number" || ws[1] != "of" {
		return "", false
	}
	var kind []string
	verb := ""
	// After a subject ("the number of cupcakes I ordered") the next word past the auxiliaries is the verb.
	subject := false
	for _, w := range ws[2:] {
		switch {
		case subjectPronouns[w] || w == "i" || w == "we" || w == "i've" || w == "we've":
			subject = true
			continue
		case w == "have" || w == "has" || w == "had" || w == "been" || w == "were" || w == "was":
			continue
		}
		if l := nlp.VerbLemma(w); len(kind) > 0 && (subject || l != w && (strings.HasSuffix(w, "ed") || nlp.PastParticiple(l) == w)) {
			verb = l
			break
		}
		if countStops[w] || len(kind) == 3 {
			if verb == "" && len(ws) > len(kind)+2 {
				return "", false // "number of students in my class": what follows the kind may tell it apart
			}
			break
		}
		kind = append(kind, w)
	}
	if len(kind) == 0 {
		return "", false
	}
	kind[len(kind)-1] = nlp.Lemma(kind[len(kind)-1], "NNS")
	return countKey(kind, verb), true
}
