package canon

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/nlp"
)

// verbHeads are predicate first words that read as a verb after the subject ("Alice likes jazz").
var verbHeads = map[string]bool{
	"lives": true, "works": true, "studies": true, "plays": true, "likes": true, "loves": true, "hates": true,
	"enjoys": true, "prefers": true, "owns": true, "speaks": true, "teaches": true, "attends": true,
	"visits": true, "moves": true, "wants": true, "needs": true, "uses": true, "writes": true, "reads": true,
	"goes": true, "has": true, "said": true, "mentioned": true, "asked": true, "says": true, "went": true,
	"visited": true, "moved": true, "started": true, "joined": true, "left": true, "bought": true,
	"adopted": true, "met": true, "plans": true, "feels": true, "thinks": true, "believes": true, "knows": true,
	"runs": true, "leads": true, "manages": true, "owned": true, "belongs": true, "depends": true,
	"costs": true, "weighs": true, "measures": true, "contains": true, "includes": true,
}

// stateHeads are past participles naming a state: "Alice is married to Bob", "Tim was born in Berlin".
var stateHeads = map[string]string{
	"born": "was", "died": "", "founded": "was", "created": "was", "developed": "was", "written": "was",
	"performed": "was", "produced": "was", "educated": "was", "raised": "was",
}

// memberNouns head predicates that say what the subject is of the object: "Alice is a citizen of France".
var memberNouns = map[string]bool{
	"citizen": true, "member": true, "resident": true, "native": true, "fan": true, "student": true,
	"employee": true, "friend": true, "part": true, "graduate": true, "supporter": true,
}

// ClaimText returns a self-contained sentence stating subject–predicate–object, for claims that arrive
// without text. Verb predicates read as "Alice lives in Berlin."; participles as "Alice is married to Bob." or
// "Tim Cook was born in Mobile."; noun predicates as "Alice's manager is Bob." or "The capital of France is
// Paris." (for predicates ending in "of"). Underscores in keys are read as spaces.
func ClaimText(subject, predicate, object string) string {
	s := strings.Join(strings.Fields(subject), " ")
	o := strings.Join(strings.Fields(object), " ")
	o = strings.TrimRight(o, ".")
	words := strings.Fields(strings.ReplaceAll(predicate, "_", " "))
	if len(words) == 0 {
		return sentence(s + " " + o)
	}
	head := strings.ToLower(words[0])
	for _, w := range words {
		if auxiliaries[strings.ToLower(w)] && len(words) > 1 {
			// The predicate already carries its auxiliary ("is married to"): say it as given.
			return sentence(s + " " + strings.Join(words, " ") + " " + o)
		}
	}
	phrase := strings.Join(words, " ")
	last := strings.ToLower(words[len(words)-1])
	switch {
	case head == "said" || head == "mentioned" || head == "says" || head == "asked":
		return sentence(s + " " + head + ": " + o)
	case verbHeads[head]:
		return sentence(s + " " + phrase + " " + o)
	case stateHeads[head] != "":
		return sentence(s + " " + stateHeads[head] + " " + phrase + " " + o)
	case len(words) > 1 && particlesOnly(words[1:2]) && words[1] != "in" && words[1] != "on" && inflectedVerb(head):
		// A phrasal verb ("dropped out of", "signed up for") is an action, not a state.
		return sentence(s + " " + phrase + " " + o)
	case strings.HasSuffix(head, "ed") && len(words) > 1:
		return sentence(s + " is " + phrase + " " + o)
	case (len(words) == 1 || particlesOnly(words[1:])) && inflectedVerb(head):
		// "opened", "teaches", "got", "gave up": a verb the lists above do not name.
		return sentence(s + " " + phrase + " " + o)
	case (len(words) == 1 || particlesOnly(words[1:])) && progressive(head):
		// "learning", "seeing": a verb's -ing form said without its auxiliary.
		return sentence(s + " is " + phrase + " " + o)
	case len(words) > 1 && isPreposition(last):
		if last == "of" && memberNouns[head] {
			return sentence(s + " is a " + phrase + " " + o)
		}
		if last == "of" {
			return sentence("The " + phrase + " " + s + " is " + o)
		}
		return sentence(s + " is " + phrase + " " + o)
	}
	return sentence(possessive(s) + " " + phrase + " is " + o)
}

func isPreposition(w string) bool {
	switch w {
	case "of", "in", "at", "to", "for", "with", "by", "from", "on", "as":
		return true
	}
	return false
}

func possessive(s string) string {
	if s == "" {
		return s
	}
	if strings.HasSuffix(s, "s") || strings.HasSuffix(s, "S") {
		return s + "'"
	}
	return s + "'s"
}

// sentence capitalizes the first letter and ends with a period unless the text already ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	switch s[len(s)-1] {
	case '.', '!', '?', '"', '\'':
		return s
	}
	return s + "."
}

// inflectedVerb reports a word that is an inflected form of a verb ("opened", "founded", "teaches"): a
// predicate headed by one reads as a verb after the subject.
func inflectedVerb(w string) bool {
	b := nlp.VerbLemma(w)
	if b == w || !nlp.Known(b) {
		return false
	}
	if strings.HasSuffix(w, "s") || strings.HasSuffix(w, "ed") {
		return true
	}
	// An irregular past ("got", "gave", "left", "sold"): not an -ing form, and not a word the lemmatizer
	// only cut a letter from ("his" → hi).
	return !strings.HasSuffix(w, "ing") && len(w) >= 3 && !strings.HasPrefix(w, b)
}

// progressive reports a verb's -ing form that is no noun: English gives such a noun a plural ("weddings",
// "meetings"), the verb form has none.
func progressive(w string) bool {
	b, ok := strings.CutSuffix(w, "ing")
	if !ok || len(b) < 2 || nlp.VerbLemma(w) == w || nlp.Known(w+"s") {
		return false
	}
	return true
}

// particlesOnly reports words that are all adverb particles of a phrasal verb ("up", "out", "off").
func particlesOnly(ws []string) bool {
	for _, w := range ws {
		switch strings.ToLower(w) {
		case "up", "out", "off", "down", "over", "away", "back", "in", "on":
		default:
			return false
		}
	}
	return len(ws) > 0
}

// Indefinite reports a value that names nobody and nothing in particular ("someone new", "something else",
// "somebody from work"): it starts with one of English's indefinite pronouns. Such a value says that a slot
// has one, not which, so it is no answer and replaces no named value.
func Indefinite(object string) bool {
	f := strings.Fields(strings.ToLower(object))
	if len(f) == 0 {
		return false
	}
	switch f[0] {
	case "someone", "somebody", "something", "anyone", "anybody", "anything", "nobody", "nothing", "no-one":
		return true
	}
	return false
}

// groupNouns name groups people belong to by taking part: bands and other ensembles, choirs, clubs, teams.
var groupNouns = map[string]bool{"band": true, "trio": true, "quartet": true, "quintet": true, "duo": true, "choir": true,
	"orchestra": true, "ensemble": true, "group": true, "club": true, "team": true, "society": true, "league": true, "crew": true}

// GroupNoun reports a noun that names a group people belong to by taking part ("band", "choir", "club"):
// being in one, playing in one or joining one is membership.
func GroupNoun(w string) bool { return groupNouns[strings.ToLower(w)] }
