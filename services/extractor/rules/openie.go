package rules

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
)

// Open information extraction in the ReVerb / ClausIE tradition: a clause is tagged (pkg/nlp), its subject
// noun phrase, verb group and complements are found from the parts of speech, and the clause type decides
// the triple:
//
//   - copular: "X is the capital of Y" → (Y, capital, X); "X is a citizen of Y" → (X, citizen of, Y);
//     "Y is X's birthplace" → (X, birthplace, Y); "Y is where X was born" → (X, born in, Y);
//     "X is famous for Y" → (X, famous for, Y);
//   - nominal subjects: "The capital of Y is X", "Y's capital is X", "The university where Y studied is X",
//     "The music that Y plays is X" → (Y, plays music, X), "The company that produced Y is X" →
//     (Y, produced by, X);
//   - passive: "X was born in the city of Y" → (X, born in, Y) (a classifier noun in "the city of Y" names
//     the kind of Y, not a relation);
//   - active: "X works at Y", "X runs Y as CEO" → (X, runs, Y) and (Y, CEO, X); light verbs with a noun
//     ("X holds French citizenship" → (X, citizenship, French)); aspectual verbs ("started working at Y" →
//     works at Y);
//   - coordination and apposition split into atomic claims: "A and B were born in Y", "X speaks A and B",
//     "X left Y and joined Z" (the second verb keeps the subject).
//
// The relation phrase is kept as said (display) and keyed by relationKey: auxiliaries, adverbs and
// determiners dropped, active verbs lemmatized to the third person ("lived in" → lives_in), passive and
// stative participles kept ("was born in" → born_in).

// classifierNouns name a kind in the appositive genitive: "the city of London" is London, "the sport of
// cricket" is cricket. English uses this construction with nouns of kinds of places, of organized
// activities and of belief or speech; the list is those kinds (general English, not any data set's), so
// "the capital of France" — a relational noun — is not read this way.
var classifierNouns = map[string]bool{
	"city": true, "town": true, "village": true, "country": true, "state": true, "province": true,
	"region": true, "county": true, "island": true, "continent": true, "district": true, "borough": true,
	"municipality": true, "kingdom": true, "republic": true, "commune": true, "parish": true, "territory": true,
	"sport": true, "game": true, "religion": true, "faith": true, "language": true, "field": true,
	"discipline": true, "art": true, "genre": true, "position": true, "role": true, "profession": true,
	"subject": true, "style": true, "port": true, "university": false,
}

// lightNouns are heads that only introduce the noun after them: "the name of the CEO" is the CEO, "the type
// of music" is music.
var lightNouns = map[string]bool{"name": true, "type": true, "kind": true, "sort": true, "form": true, "variety": true}

// lightVerbs carry little meaning of their own with a noun object: "holds French citizenship" says
// citizenship, "has a job at" says job.
var lightVerbs = map[string]bool{"have": true, "hold": true, "get": true, "take": true, "possess": true, "carry": true}

// obtainVerbs say the subject came to have what their indefinite object names: "found a job at Y" is having
// one there from then on, as "got a job at Y" is.
var obtainVerbs = map[string]bool{"find": true, "land": true, "secure": true, "accept": true, "score": true}

// aspectualVerbs take a gerund whose verb is the relation: "started working at" works at.
var aspectualVerbs = map[string]bool{"start": true, "begin": true, "continue": true, "keep": true, "resume": true}

// copula and auxiliary lemmas.
func isBe(t nlp.Token) bool { return nlp.IsVerb(t.Tag) && t.Lemma == "be" }

func isAux(t nlp.Token) bool {
	if t.Tag == "MD" {
		return true
	}
	if !nlp.IsVerb(t.Tag) {
		return false
	}
	switch t.Lemma {
	case "be", "have", "do", "get":
		return true
	}
	return false
}

// phrase is a noun phrase: tokens [from, to) of the clause.
type phrase struct {
	from, to int
	head     int // index of the head noun (or pronoun)
	proper   bool
	pronoun  bool
	definite bool // "the N", "X's N", "my N"
	indef    bool // "a N", "an N"
	// possessor is the noun phrase before "'s" ("Victor Hugo's birthplace"), when there is one.
	possessor *phrase
	// pronounPossessor is "my", "her", ... when the phrase starts with one.
	pronounPossessor string
	// nominal is set when the phrase names a relation of another entity ("the capital of France").
	nominal *nominal
}

// nominal is a relation named by a noun phrase: owner, relation as said, key.
type nominal struct{ owner, rel, key string }

// ie is one clause being read.
type ie struct {
	text     string
	toks     []nlp.Token
	dates    []when
	numbered bool
	// firstPerson: the subject "I" or "we" is the speaker.
	firstPerson bool
}

func (p *ie) span(from, to int) string {
	if from >= to || from >= len(p.toks) {
		return ""
	}
	to = min(to, len(p.toks))
	return strings.TrimSpace(p.text[p.toks[from].Start:p.toks[to-1].End])
}

func (p *ie) tag(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].Tag
}

func (p *ie) low(i int) string {
	if i < 0 || i >= len(p.toks) {
		return ""
	}
	return p.toks[i].Lower
}

// nameConnectors join the words of a name: "University of California", "Charles de Gaulle". "in" is none:
// after a name it says where ("Deloitte in Chicago"), and the few names with "in" inside are read whole as
// subjects (mainEntity).
var nameConnectors = map[string]bool{"of": true, "de": true, "du": true, "da": true, "von": true, "van": true,
	"der": true, "den": true, "la": true, "le": true, "del": true, "di": true, "y": true, "&": true, "al": true,
	"bin": true, "ibn": true, "the": true, "on": true, "upon": true}

// properRun returns the end of a proper name starting at i (NNP words joined by connectors), or i.
func (p *ie) properRun(i int) int {
	j := i
	for j < len(p.toks) {
		t := p.toks[j]
		switch {
		case nlp.IsProper(t.Tag) || (j > i && t.Tag == "CD" && isRoman(t.Text)) || (j > i && t.Text == "I" && nlp.IsProper(p.tag(j-1))):
			j++
		case j > i && p.numberInName(j):
			j++
		case j > i && nameConnectors[t.Lower] && j+1 < len(p.toks) && (nlp.IsProper(p.tag(j+1)) || (t.Lower == "of" && p.low(j+1) == "the" && nlp.IsProper(p.tag(j+2)))):
			j++
		case j > i && t.Text == "-" && j+1 < len(p.toks) && nlp.IsProper(p.tag(j+1)):
			j++
		default:
			return p.commaContinuation(i, j)
		}
	}
	return j
}

// numberInName reports a short number right after a name's word that is part of the name: "Year 5", "Tesla
// Model 3", "Terminal 5", "Polestar 2". A number before a noun counts it ("met Tom 2 days ago"), a month's
// number is a date's ("June 3"), and four digits are a year's ("Paris 2024").
func (p *ie) numberInName(j int) bool {
	t := p.toks[j]
	if t.Tag != "CD" || len(t.Text) > 3 || strings.TrimFunc(t.Text, unicode.IsDigit) != "" || !nlp.IsProper(p.tag(j-1)) || timeName(p.toks[j-1].Text) {
		return false
	}
	return j+1 == len(p.toks) || !nlp.IsNoun(p.tag(j+1)) && p.tag(j+1) != "CD"
}

// numberedPart reports a one-word name with a number, after it or read into it (numberInName): one of a series
// of parts or stages ("Grade 8", "Year 7", "Season 4").
func (p *ie) numberedPart(np phrase) bool {
	return np.to == np.from+1 && p.tag(np.to) == "CD" || np.to == np.from+2 && p.tag(np.to-1) == "CD"
}

// commaContinuation reads past ", Name" when it completes the name rather than starting a list: "Washington,
// D.C.", "University of California, Berkeley", "Tony Hall, Baron Hall of Birkenhead". A list ("Paris, Rome
// and Berlin") continues with another comma or a conjunction, and is not joined.
func (p *ie) commaContinuation(i, j int) int {
	if j <= i || j+1 >= len(p.toks) || p.toks[j].Text != "," || !nlp.IsProper(p.tag(j+1)) {
		return j
	}
	k := j + 1
	for k < len(p.toks) && (nlp.IsProper(p.tag(k)) || (nameConnectors[p.low(k)] && k+1 < len(p.toks) && nlp.IsProper(p.tag(k+1)))) {
		k++
	}
	if k < len(p.toks) {
		switch p.low(k) {
		case "and", "or", "&":
			return j
		case ",":
			// "Paris, France, Italy and Spain" is a list, and "Rita Moen, CEO of Norlink, opened the fair" an
			// apposition before the verb; "Paris, France, last year" and "Washington, D.C., near the Mall"
			// close the qualified name with a comma before an adverbial.
			if k+1 < len(p.toks) && (nlp.IsProper(p.tag(k+1)) || nlp.IsVerb(p.tag(k+1)) || p.low(k+1) == "and" || p.low(k+1) == "or") {
				return j
			}
		}
		if p.toks[k].Tag == "POS" {
			return j
		}
	}
	if k-(j+1) > 6 {
		return j
	}
	return k
}

func isRoman(s string) bool {
	if s == "" || len(s) > 6 {
		return false
	}
	for _, r := range s {
		if !strings.ContainsRune("IVXLC", r) {
			return false
		}
	}
	return true
}

// childSubject reports a subject that is someone's child by a kinship term ("my daughter", "our kid").
func (p *ie) childSubject(s phrase) bool {
	switch kinRole(p.low(s.head)) {
	case "son", "daughter", "child":
		return !s.proper
	}
	return false
}

// bareCommonNoun reports a phrase that is a noun phrase of dictionary words without a determiner, a
// possessive, a number or a name: "sales", "night shifts", "part-time work".
func bareCommonNoun(phrase string) bool {
	p := &ie{text: nlp.Normalize(phrase), toks: nlp.Analyze(phrase)}
	return len(p.toks) > 0 && p.bareCommonNoun(0)
}

// bareCommonNoun reports a noun phrase at token i without a determiner, a possessive, a number or a name.
func (p *ie) bareCommonNoun(i int) bool {
	np, ok := p.nounPhrase(i)
	if !ok || np.proper || np.pronoun || np.possessor != nil || nlp.IsProper(p.tag(np.head)) || nlp.Capitalized(p.toks[np.from].Text) ||
		!nlp.Known(p.low(np.head)) {
		// (A place typed in lower case, "moved to porto", is no word of the dictionary.)
		return false
	}
	switch p.tag(np.from) {
	case "DT", "PRP$", "CD", "PDT":
		return false
	}
	return true
}

// nounPhrase reads a noun phrase at token i.
func (p *ie) nounPhrase(i int) (phrase, bool) {
	if i >= len(p.toks) {
		return phrase{}, false
	}
	t := p.toks[i]
	if t.Tag == "PRP" || t.Tag == "EX" {
		return phrase{from: i, to: i + 1, head: i, pronoun: true}, true
	}
	np := phrase{from: i}
	j := i
	switch {
	case t.Tag == "PRP$":
		np.definite, np.pronounPossessor = true, t.Lower
		j++
	case t.Tag == "DT" || t.Tag == "PDT":
		switch t.Lower {
		case "the", "this", "that", "these", "those":
			np.definite = true
		case "a", "an", "another":
			np.indef = true
		case "every", "each", "all", "some", "any", "no", "both":
		default:
			return phrase{}, false
		}
		j++
	}
	if j < len(p.toks) && nlp.IsProper(p.tag(j)) {
		e := p.properRun(j)
		// "Victor Hugo's birthplace": a possessor, then the possessed noun.
		// "Lady Windermere's Fan", "People's Republic": a capitalized possessed word makes one name.
		for e+1 < len(p.toks) && p.toks[e].Tag == "POS" && nlp.IsProper(p.tag(e+1)) && !canon.KnownRelation(canon.RelationKey(p.low(e+1))) {
			e = p.properRun(e + 1)
		}
		// "at Sainsbury's in Leeds", "at McDonald's now": after a preposition of place, a name's "'s" before
		// anything but a verb's complement is the place's possessive, whatever the tagger read ("is").
		ownersPlace := e < len(p.toks) && p.toks[e].Tag != "POS" && p.toks[e].Lower == "'s" && i > 0 && placePrepositions[p.low(i-1)]
		if e < len(p.toks) && (p.toks[e].Tag == "POS" || ownersPlace) {
			owner := phrase{from: i, to: e, head: e - 1, proper: true, definite: np.definite}
			if rest, ok := p.commonNoun(e+1, phrase{from: i, definite: true}); ok {
				rest.possessor = &owner
				return rest, true
			}
			// Nothing possessed follows: the possessive names a thing of its own, a shop or someone's home
			// ("works at Sainsbury's", "moved to Tom's"), and keeps its "'s".
			owner.to = e + 1
			return owner, true
		}
		// "the Ghana government": a name modifying a common noun.
		if e < len(p.toks) && nlp.IsNoun(p.tag(e)) && !nlp.IsProper(p.tag(e)) {
			if rest, ok := p.commonNoun(e, np); ok && np.definite {
				owner := phrase{from: j, to: e, head: e - 1, proper: true}
				rest.possessor = &owner
				return rest, true
			}
		}
		// "Tunisia national football team": a name heading a common noun phrase is one name.
		if !np.definite && e < len(p.toks) && (nlp.IsAdjective(p.tag(e)) || nlp.IsNoun(p.tag(e))) {
			if rest, ok := p.commonNoun(e, phrase{}); ok && rest.to < len(p.toks) && (nlp.IsVerb(p.tag(rest.to)) || p.tag(rest.to) == "MD") {
				np.to, np.head, np.proper = rest.to, rest.head, true
				return np, true
			}
		}
		// "plays American football", "sings Australian hip hop": a nationality adjective (capitalized, so
		// tagged as a name) before a common noun modifies it, as any adjective would; the noun is the head.
		if j == i && e < len(p.toks) && countryOf(p.span(j, e)) != "" && (nlp.IsAdjective(p.tag(e)) || nlp.IsNoun(p.tag(e))) {
			if rest, ok := p.commonNoun(e, phrase{}); ok {
				np.to, np.head = rest.to, rest.head
				return np, true
			}
		}
		np.to, np.head, np.proper = e, e-1, true
		return np, true
	}
	cn, ok := p.commonNoun(j, np)
	if ok && cn.to+1 < len(p.toks) && p.toks[cn.to].Tag == "POS" && (nlp.IsNoun(p.tag(cn.to+1)) || nlp.IsAdjective(p.tag(cn.to+1))) {
		// "the company's CEO", "apple's ceo" (typed in lower case): a common noun phrase as possessor.
		owner := cn
		if rest, ok := p.commonNoun(cn.to+1, phrase{from: i, definite: true}); ok {
			rest.possessor = &owner
			return rest, true
		}
	}
	return cn, ok
}

// commonNoun reads modifiers and a common noun head from j into np.
func (p *ie) commonNoun(j int, np phrase) (phrase, bool) {
	k := j
	for k < len(p.toks) {
		tg := p.tag(k)
		if nlp.IsAdjective(tg) || tg == "CD" || nlp.IsNoun(tg) || tg == "VBN" && k+1 < len(p.toks) && nlp.IsNoun(p.tag(k+1)) ||
			tg == "VBG" && k+1 < len(p.toks) && nlp.IsNoun(p.tag(k+1)) || tg == "HYPH" || p.low(k) == "-" ||
			((tg == "RB" || tg == "RBS" || tg == "RBR") && k+1 < len(p.toks) && nlp.IsAdjective(p.tag(k+1))) {
			k++
			continue
		}
		break
	}
	// The head is the last noun (a number stands for itself: "31", "$2,000").
	h := -1
	for x := k - 1; x >= j; x-- {
		if nlp.IsNoun(p.tag(x)) || p.tag(x) == "CD" {
			h = x
			break
		}
	}
	if h < 0 && k > j && nlp.IsAdjective(p.tag(k-1)) && !nlp.Known(p.low(k-1)) {
		// A word English does not have (a misspelling, a new word) after a determiner is a noun.
		h = k - 1
	}
	if h < 0 && k > j && np.indef && p.tag(k-1) == "JJ" && (k == len(p.toks) || p.tag(k) == "IN") {
		// "a national of Peru", "a nurse by profession": after "a", an adjective with no noun to modify is
		// itself the noun (a nominalized adjective, or a noun the tagger read as one).
		h = k - 1
	}
	if h < 0 {
		return phrase{}, false
	}
	np.to, np.head = h+1, h
	return np, true
}

// ofObject reads "of NP" (and "in NP" for offices: "head of state in Ghana") after a relational noun.
func (p *ie) ofObject(i int) (phrase, int, bool) {
	if i >= len(p.toks) || (p.low(i) != "of" && p.low(i) != "in" && p.low(i) != "for" && !p.behindAt(i) && !p.roleAt(i)) {
		return phrase{}, i, false
	}
	np, ok := p.nounPhrase(i + 1)
	if !ok {
		return phrase{}, i, false
	}
	return np, np.to, true
}

// behindAt reports "behind" after a relational noun that names whoever made something: "the writer behind
// X", "the company behind X" say X's writer, X's company, as "of" does ("the man behind the counter" names no
// relation, and is not read so).
func (p *ie) behindAt(i int) bool {
	return p.low(i) == "behind" && p.afterRoleNoun(i)
}

// afterRoleNoun reports a noun naming a relation right before token i.
func (p *ie) afterRoleNoun(i int) bool {
	return i > 0 && nlp.IsNoun(p.tag(i-1)) && namedRole(canon.RelationKey(p.toks[i-1].Lemma))
}

// settingAt reads a setting before a copula — "on the field", "in the band", "at work": a locative
// preposition and a definite common noun phrase, or a bare common noun — and returns where it ends.
func (p *ie) settingAt(i int) (int, bool) {
	switch p.low(i) {
	case "on", "in", "at", "within":
	default:
		return i, false
	}
	np, ok := p.nounPhrase(i + 1)
	if !ok || np.proper || np.possessor != nil || np.indef || np.to >= len(p.toks) || !isBe(p.toks[np.to]) {
		return i, false
	}
	return np.to, true
}

// zeroRelativeAfter reports a relative clause without its pronoun from token i: a verb other than "be", and a
// form of "be" after it ("the music Ana plays is jazz"), so the name before i is the clause's subject.
func (p *ie) zeroRelativeAfter(i int) bool {
	if i >= len(p.toks) || !nlp.IsVerb(p.tag(i)) || isBe(p.toks[i]) {
		return false
	}
	for k := i + 1; k < len(p.toks); k++ {
		if isBe(p.toks[k]) {
			return true
		}
	}
	return false
}

// reciprocalStates are the participles and adjectives English uses for a state two hold with each other
// ("Ana and Ben are married", "… are engaged", "… were divorced"), as grammars list reciprocal predicates;
// any other state of two coordinated subjects is each one's ("Tom and Lisa are tired").
var reciprocalStates = map[string]bool{"married": true, "wed": true, "wedded": true, "engaged": true,
	"betrothed": true, "divorced": true, "separated": true, "estranged": true, "reconciled": true,
	"related": true, "acquainted": true, "twinned": true, "partnered": true, "connected": true, "linked": true,
	"allied": true, "affiliated": true, "unrelated": true}

// roleAt reports "at" after a noun of a relation, which names the organization the role is held in as "of"
// does: "the head coach at Ajax", "the CEO at Norlink" ("the party at Google" names no relation, and is not
// read so).
func (p *ie) roleAt(i int) bool {
	return p.low(i) == "at" && p.afterRoleNoun(i)
}

// triple is one extracted claim before it becomes a spec.
type triple struct {
	subject, relation, object string
	key                       string
	definite                  bool // a definite description of a relational noun: one value at a time
	change                    bool // a change cue says the value replaces the one before
	text                      string
	objectIsDate              bool
}

// openIE reads the triples of one clause. With firstPerson, the clause is the speaker's ("I was born in
// Lisbon"): only its passive and copular relations are read (the first-person patterns read the rest), and
// the subject "I"/"we" is left empty (the speaker).
func openIE(clause string, dates []when, numbered, firstPerson bool) []triple {
	clause = withoutPresentAdverbial(clause)
	toks := nlp.Analyze(clause)
	if len(toks) < 2 {
		return nil
	}
	for i := range toks {
		// Typed in lower case, a relational noun the dictionary does not know ("ceo", "hq") looks like a
		// name to the tagger; it names a relation.
		if nlp.IsProper(toks[i].Tag) && !nlp.Capitalized(toks[i].Text) && canon.KnownRelation(canon.RelationKey(toks[i].Lower)) {
			toks[i].Tag, toks[i].Lemma = "NN", toks[i].Lower
		}
	}
	p := &ie{text: nlp.Normalize(clause), toks: toks, dates: dates, numbered: numbered, firstPerson: firstPerson}
	// Drop the terminator.
	for len(p.toks) > 0 && (p.toks[len(p.toks)-1].Tag == "." || p.toks[len(p.toks)-1].Text == ".") {
		p.toks = p.toks[:len(p.toks)-1]
	}
	start := p.skipLeadIn(0)
	return withConverses(p.clause(start, nil))
}

// presentAdverbials are the multi-word adverbials of English that say "at the time of speaking" ("right
// now", "these days", "at the moment"): they add nothing to which relation a clause states, and the tagger
// reads their words as nouns that then join the relation's noun phrase ("head of state right"). Single words
// ("now", "currently") are tagged as the adverbs they are.
var presentAdverbials = []string{"right now", "these days", "at the moment", "at present", "for now", "as of now", "as we speak", "nowadays"}

// withoutPresentAdverbial drops a present-time adverbial at the end of a clause (where dropping it keeps the
// byte offsets of the dates found on the clause as said).
func withoutPresentAdverbial(clause string) string {
	c := strings.TrimRight(clause, " .!")
	l := strings.ToLower(c)
	for _, a := range presentAdverbials {
		if strings.HasSuffix(l, " "+a) {
			return strings.TrimRight(strings.TrimRight(c[:len(c)-len(a)], " "), ",")
		}
	}
	return clause
}

// withConverses adds, for each relation between two names that has a converse ("X is the parent of Y"), the
// converse claim filed under the other name (Y's parent is X, and so X's child is Y).
func withConverses(ts []triple) []triple {
	n := len(ts)
	for _, t := range ts[:n] {
		conv, ok := canon.ConverseRelation(t.key)
		if !ok || t.objectIsDate || !nameLike(t.subject) || !nameLike(t.object) || t.subject == "" {
			continue
		}
		dup := false
		for _, u := range ts {
			if canon.SubjectKey(u.subject) == canon.SubjectKey(t.object) && canon.RelationKey(u.key) == conv && canon.ObjectKey(u.object) == canon.ObjectKey(t.subject) {
				dup = true
			}
		}
		if !dup {
			ts = append(ts, triple{subject: t.object, relation: strings.ReplaceAll(conv, "_", " "), object: strings.TrimRight(t.subject, ",;: "), key: conv, text: t.text})
		}
	}
	return ts
}

// nameLike reports a phrase that starts with a capital letter (a name, in any script).
func nameLike(s string) bool { return s != "" && nlp.Capitalized(s) }

// skipLeadIn skips leading adverbs, interjections, a short preface ending in a colon ("Big news:") and
// leading time phrases.
func (p *ie) skipLeadIn(i int) int {
	for i < len(p.toks) {
		t := p.toks[i]
		switch {
		case nlp.IsAdverb(t.Tag) && i+1 < len(p.toks) && (p.toks[i+1].Text == "," || !nlp.IsVerb(p.tag(i+1)) && !p.numbered):
			i++
			if p.low(i) == "," {
				i++
			}
		case t.Tag == "UH" || t.Tag == "CC" && i == 0:
			i++
			if p.low(i) == "," {
				i++
			}
		default:
			// "As far as I know, X …", "According to my notes, X …", "If I remember right, X …": a leading
			// adverbial clause or phrase says how the speaker knows, not what; the statement follows its comma.
			if t.Tag == "IN" || t.Lower == "as" || t.Lower == "according" {
				for k := i + 1; k < min(len(p.toks), i+9); k++ {
					if p.toks[k].Text != "," {
						continue
					}
					if np, ok := p.nounPhrase(k + 1); ok && !np.pronoun && p.verbAt(p.readSubject(np).to) {
						return k + 1
					}
					break
				}
			}
			// "Big news: Emma left …": a verbless preface before a colon.
			for k := i; k < min(len(p.toks), i+5); k++ {
				if p.toks[k].Text == ":" {
					verb := false
					for x := i; x < k; x++ {
						if nlp.IsVerb(p.tag(x)) {
							verb = true
						}
					}
					if !verb {
						return k + 1
					}
				}
			}
			// A date at the start ("Last month, Emma moved …").
			for _, d := range p.dates {
				if d.start == p.toks[i].Start {
					for j := i; j < len(p.toks); j++ {
						if p.toks[j].Start >= d.end {
							if p.low(j) == "," {
								j++
							}
							return j
						}
					}
				}
			}
			return i
		}
	}
	return i
}

// clause reads a clause starting at token i; subj, when set, is a subject carried over from a coordinated
// clause ("Emma left Google and joined Anthropic").
func (p *ie) clause(i int, subj []phrase) []triple {
	var subjects []phrase
	if subj != nil {
		subjects = subj
	} else {
		np, ok := p.nounPhrase(i)
		if ok && np.pronounPossessor != "" && i == 0 && possessiveTitle(p.text) {
			// "Our Mutual Friend was written by …": the title is a name.
			np = phrase{from: np.from, to: np.to, head: np.head, proper: true}
		}
		if ok {
			np = p.readSubject(np)
		}
		coordinated := ok && np.proper && p.low(np.to) == "and" && nlp.IsProper(p.tag(np.to+1))
		if t := p.titleSubject(i); t.to > 0 && (!ok || np.nominal == nil && !p.verbAt(np.to) && !coordinated && p.low(np.to) != ",") {
			// "Free as a Bird was performed by …": a title, read up to the verb.
			np, ok = t, true
		}
		if !ok {
			return nil
		}
		subjects = []phrase{np}
		i = np.to
		// Apposition after a name: "Tim Cook, the CEO of Apple, …" / "Anna, a nurse, …".
		var appos []triple
		if i+2 < len(p.toks) && p.low(i) == "," && np.proper && np.nominal == nil && p.tag(i+1) == "VBN" && (p.tag(i+2) == "IN" || p.tag(i+2) == "TO") {
			// "Thomas Kyd, born in London, wrote …", "thomas kyd, born in london": a participle in apposition
			// is a reduced relative clause ("who was born in London").
			end := i + 2
			for end < len(p.toks) && p.low(end) != "," {
				end++
			}
			sub := *p
			sub.toks = p.toks[:end]
			appos = sub.complements(np, verbGroup{from: i + 1, main: i + 1, to: i + 2, passive: true})
			if end == len(p.toks) {
				return appos
			}
			i = end + 1
			if out := p.predicate(i, subjects); len(out) > 0 {
				return append(appos, out...)
			}
			return appos
		}
		if i+1 < len(p.toks) && p.low(i) == "," && np.proper {
			if app, ok := p.nounPhrase(i + 1); ok && app.proper && (app.definite || p.officeOf(app) > 0) {
				// "Tim Cook, the CEO of Apple, …", "Tim Cook, CEO of Apple, …": an office in capitals, read at
				// its "of".
				first := app.from
				if app.definite {
					first++
				}
				for k := first + 1; k < app.to; k++ {
					if p.low(k) == "of" && app.to < len(p.toks) && p.low(app.to) == "," {
						rel := phrase{from: app.from, to: k, head: k - 1, definite: true}
						appos = append(appos, triple{subject: p.span(k+1, app.to), relation: p.span(first, k), object: p.span(np.from, np.to), key: relKeyNoun(p, rel), definite: true})
						i = app.to + 1
						break
					}
				}
			} else if ok && !app.proper && !app.pronoun {
				end := app.to
				if rel, e, ok := p.ofObject(end); ok && app.definite {
					appos = append(appos, triple{subject: p.span(rel.from, rel.to), relation: p.nounText(app), object: p.span(np.from, np.to), key: relKeyNoun(p, app), definite: true})
					end = e
				} else if app.indef {
					appos = append(appos, triple{subject: p.span(np.from, np.to), relation: "is a", object: p.span(app.from+1, app.to), key: "is_a"})
				}
				if end < len(p.toks) && p.low(end) == "," {
					i = end + 1
				} else {
					appos = nil
				}
			}
		}
		// Coordinated subjects: "Anna and Tom were born in Oslo".
		for i+1 < len(p.toks) && (p.low(i) == "and" || p.low(i) == ",") && np.proper {
			next, ok := p.nounPhrase(i + 1)
			if ok && !next.proper && next.pronounPossessor != "" && roleHead(strings.ToLower(p.span(next.head, next.head+1))) {
				// "Nora and her husband live in Lyon", "Ahmed and his wife moved to Toronto": the one named beside
				// someone named only by their role to them holds the relation too.
				i = next.to
				continue
			}
			if !ok || !next.proper {
				break
			}
			subjects = append(subjects, next)
			i = next.to
		}
		out := p.predicate(i, subjects)
		if len(out) > 0 || len(appos) > 0 {
			return append(appos, out...)
		}
		return nil
	}
	return p.predicate(i, subjects)
}

// verbGroup is the verbs of a clause: auxiliaries, adverbs and the main verb.
type verbGroup struct {
	from, to int // tokens [from, to)
	main     int
	passive  bool
	copular  bool
	negated  bool
	modal    bool
	// gerund is the main verb of an aspectual construction ("started working"), or -1.
	aspect bool
}

// verbs reads the verb group at i.
func (p *ie) verbs(i int) (verbGroup, bool) {
	vg := verbGroup{from: i, main: -1}
	j := i
	sawBe := false
	for j < len(p.toks) {
		t := p.toks[j]
		switch {
		case t.Tag == "MD":
			vg.modal = true
		case t.Lower == "not" || t.Lower == "never" || t.Lower == "n't":
			vg.negated = true
		case nlp.IsAdverb(t.Tag) && vg.main < 0 || t.Tag == "RB" && j+1 < len(p.toks) && nlp.IsVerb(p.tag(j+1)):
		case nlp.IsAdverb(t.Tag) && vg.main >= 0 && isBe(p.toks[vg.main]) && (nounPhraseStart(p.tag(j+1)) || adverbs[t.Lower] && nlp.IsAdjective(p.tag(j+1))):
			// "is currently Acme", "is still Paris", "is mostly jazz" (the tagger reads a noun after an adverb
			// as an adjective): an adverb between the copula and its noun phrase qualifies the link, it is not
			// part of the value. A degree adverb before an adjective ("is very tall") stays with it.
		case t.Lower == "since" && vg.main >= 0 && p.toks[vg.main].Lemma == "have" && j+1 < len(p.toks) && (p.tag(j+1) == "VBN" || p.tag(j+1) == "VBD"):
			// "I've since relocated to Lisbon": "since" between a perfect's auxiliary and its participle is the
			// adverb (after that time), not a preposition; the clause is the participle's.
		case degreeBeforeParticiple(t) && vg.main >= 0 && isBe(p.toks[vg.main]) && j+1 < len(p.toks) && p.tag(j+1) == "VBN":
			// "is best known for", "was first broadcast by": a degree or order word the tagger reads as an
			// adjective modifies the participle like an adverb.
		case nlp.IsVerb(t.Tag):
			if vg.main >= 0 && !isAux(p.toks[vg.main]) {
				// A second verb after a full verb: an aspectual gerund ("started working"), else the end.
				if t.Tag == "VBG" && aspectualVerbs[p.toks[vg.main].Lemma] {
					vg.main, vg.aspect = j, true
					j++
					continue
				}
				vg.to = j
				p.classify(&vg, sawBe)
				return vg, true
			}
			if isBe(t) {
				sawBe = true
			}
			vg.main = j
		default:
			if vg.main < 0 {
				return vg, false
			}
			vg.to = j
			p.classify(&vg, sawBe)
			return vg, true
		}
		j++
	}
	if vg.main < 0 {
		return vg, false
	}
	vg.to = j
	p.classify(&vg, sawBe)
	return vg, true
}

// degreeBeforeParticiple reports the superlatives and ordinals English puts before a participle as adverbs
// ("best known", "most famous", "first broadcast", "last seen").
func degreeBeforeParticiple(t nlp.Token) bool {
	switch t.Lower {
	case "best", "most", "least", "first", "last", "better", "well", "widely", "mainly":
		return true
	}
	return false
}

func (p *ie) classify(vg *verbGroup, sawBe bool) {
	m := p.toks[vg.main]
	switch {
	case isBe(m):
		vg.copular = true
	case (m.Tag == "VBN" || m.Tag == "VBD") && sawBe:
		vg.passive = true
	case (m.Tag == "VBN" || m.Tag == "VBD") && vg.main > vg.from && p.toks[vg.main-1].Lemma == "get":
		// The get-passive: "got hired at Spotify", "got promoted to lead" are passives of "hire", "promote".
		vg.passive = true
	}
}

// predicate reads the verb group and complements after the subjects.
func (p *ie) predicate(i int, subjects []phrase) []triple {
	for i < len(p.toks) && nlp.IsAdverb(p.tag(i)) && !(i+1 < len(p.toks) && !nlp.IsVerb(p.tag(i+1)) && !nlp.IsAdverb(p.tag(i+1))) {
		i++
	}
	vg, ok := p.verbs(i)
	if ok && vg.modal && !vg.negated && p.abilityModal(vg) {
		// "X can speak Polish": "can" of ability before a verb of a skill states the skill, as "X speaks
		// Polish" does; other modals (would, might, should) and other verbs state no fact.
		vg.modal = false
	}
	if !ok || vg.negated || vg.modal {
		return nil
	}
	if copularAs[p.toks[vg.main].Lemma] && p.low(vg.to) == "as" && vg.to+1 < len(p.toks) {
		// "X serves as CEO of Y", "X acts as Y's spokesperson": a verb of function with "as" links its subject
		// to a role as a copula does.
		vg.copular, vg.passive, vg.to = true, false, vg.to+1
	}
	becomes := false
	switch lemma := p.toks[vg.main].Lemma; {
	case changeCopulas[lemma] && !vg.passive:
		// "Maria became a citizen of Chile", "Ines became the CEO of Norlink": a copula of change says what
		// the subject is from now on, so the value replaces the one before.
		vg.copular, becomes = true, true
	case copularRaising[lemma] && !vg.passive:
		// "X's employer happens to be Y", "X turned out to be the author of Y": the verb says how the
		// speaker knows; what follows "to be" is a copula's complement.
		k := vg.to
		if p.low(k) == "out" {
			k++
		}
		if p.low(k) == "to" && k+1 < len(p.toks) && p.toks[k+1].Lemma == "be" && k+2 < len(p.toks) {
			vg.copular, vg.to = true, k+2
		}
	}
	var out []triple
	// "Victoria and David Beckham are married": a reciprocal state of two coordinated subjects.
	// Only a state that holds between the two is; "Tom and Lisa are tired" says each is.
	reciprocal := vg.copular && vg.to < len(p.toks) && (p.tag(vg.to) == "VBN" || nlp.IsAdjective(p.tag(vg.to))) && vg.to+1 >= len(p.toks) &&
		reciprocalStates[p.low(vg.to)]
	if len(subjects) == 2 && (reciprocal || vg.passive && vg.to >= len(p.toks) && reciprocalStates[p.low(vg.main)]) {
		a, b := p.span(subjects[0].from, subjects[0].to), p.span(subjects[1].from, subjects[1].to)
		state := p.low(vg.to)
		if vg.passive {
			state = p.low(vg.main)
		}
		key := joinKey(state, "to")
		return []triple{{subject: a, relation: "is " + state + " to", object: b, key: key}, {subject: b, relation: "is " + state + " to", object: a, key: key}}
	}
	for _, s := range subjects {
		speaker := s.pronoun && p.firstPerson && (p.low(s.from) == "i" || p.low(s.from) == "we")
		if s.pronoun && !speaker {
			return nil
		}
		if p.firstPerson && !speaker {
			return nil
		}
		if speaker {
			// The speaker's states the first-person patterns do not read: "I was born in Lisbon", "I am
			// married to Carlos", "I am a citizen of Peru", "I'm allergic to peanuts" — not feelings ("I am
			// swamped with work", "I'm excited about the trip").
			if vg.copular {
				if t, ok := p.placeOfWork(s, "", p.skipAdverbs(vg.to)); ok {
					s.pronoun = false
					out = append(out, t)
					continue
				}
			}
			if vg.passive && !nonVerbsEd[p.low(vg.main)] && speakerPreps[p.low(vg.to)] || vg.copular && p.low(vg.to) == "a" && p.low(vg.to+2) == "of" ||
				vg.copular && p.lastingState(vg.to) {
				s.pronoun = false
				for _, t := range p.complements(s, vg) {
					t.subject = ""
					if canon.RelationKey(t.key) == "headquartered_in" {
						// "I'm based in Riga": a person's base is where they live.
						t.key, t.relation = "lives_in", "lives in"
					}
					out = append(out, t)
				}
			}
			continue
		}
		if vg.copular && s.to == s.from+1 && nlp.IsNoun(p.tag(s.from)) && (s.from == 0 || !nlp.Capitalized(p.toks[s.from].Text)) &&
			nlp.Known(p.low(s.from)) && evaluativeAdjectives[p.low(p.skipAdverbs(vg.to))] {
			// "Work's been hectic at Fairfield", "Life is crazy at the moment": a judgement of a bare common
			// noun is how things are going, no relation of anything.
			continue
		}
		for _, t := range p.complements(s, vg) {
			t.change = t.change || becomes
			out = append(out, t)
		}
	}
	// "… and joined Anthropic": a coordinated verb phrase keeps the subject.
	if c := p.nextCoordinatedVerb(vg.to); c > 0 {
		more := p.clause(c, subjects)
		switch p.toks[vg.main].Lemma {
		case "leave", "quit":
			// "left Google and joined Anthropic": the old value is what changed, the new one is the claim.
			for _, t := range more {
				if t.change {
					out = nil
					break
				}
			}
		}
		out = append(out, more...)
	}
	return out
}

// nextCoordinatedVerb finds "and [adverb] VERB" after the complements of a verb group and returns the
// verb's index, or 0.
func (p *ie) nextCoordinatedVerb(from int) int {
	for k := from; k+1 < len(p.toks); k++ {
		if p.low(k) != "and" && p.low(k) != "but" && p.low(k) != "then" {
			continue
		}
		j := k + 1
		for j < len(p.toks) && (nlp.IsAdverb(p.tag(j)) || p.low(j) == "then") {
			j++
		}
		if j < len(p.toks) && (p.tag(j) == "VBD" || p.tag(j) == "VBZ") {
			return j
		}
	}
	return 0
}

// complements reads the triples of subject s with verb group vg.
func (p *ie) complements(s phrase, vg verbGroup) []triple {
	j := vg.to
	if !vg.copular && p.mannerBeforePrep(j) {
		// "works remotely for Spotify", "works part-time at Tesco": an adverb of manner between a verb and its
		// preposition says how, not what; the relation is the verb's with the preposition.
		j++
	}
	subjText := p.span(s.from, s.to)
	// The subject "the N of X", "X's N", "the N where X VP", "the N that X V": a nominal relation.
	var owner, rel, relKey string
	ok := s.nominal != nil
	if ok {
		owner, rel, relKey = s.nominal.owner, s.nominal.rel, s.nominal.key
	}
	if main := p.toks[vg.main]; main.Lemma == "get" && p.low(j) == "rid" && p.low(j+1) == "of" && !ok && p.subjectOK(s) {
		// "got rid of the Skoda": the idiom's adjective and preposition belong to the verb, as a particle does
		// ("gave up the violin"); the thing is its object.
		return p.objects(j+2, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: main.Lower + " rid of", object: obj, key: joinKey(nlp.ThirdPerson("get"), "rid of")}
		})
	}
	if vg.copular {
		if k := p.skipAdverbs(j); ok && p.personHead(s) && k < len(p.toks) && (p.tag(k) == "IN" || p.tag(k) == "VBN") {
			// "Priya's sister is in Leeds", "Tom's boss is from Porto", "my brother is now based in Oslo": a
			// relational noun that names a person is someone of their own, who is somewhere, as "Tom is in
			// Leeds" is; a thing's place ("X's headquarters are in Y") is its owner's attribute, and a noun
			// phrase after the copula names the person ("Google's CEO is Sundar Pichai").
			return p.copularComplement(s, subjText, j)
		}
		if ok && j+1 < len(p.toks) && p.tag(j) == "IN" && p.low(j) != "of" {
			// "X's headquarters are in Y".
			prep := p.low(j)
			return p.objects(j+1, func(obj string, isDate bool) triple {
				return triple{subject: owner, relation: rel + " " + prep, object: obj, key: joinKey(relKey, prep), definite: s.definite}
			})
		}
		if ok {
			return p.objects(j, func(obj string, isDate bool) triple {
				return triple{subject: owner, relation: rel, object: obj, key: relKey, definite: s.definite}
			})
		}
		return p.copularComplement(s, subjText, j)
	}
	if vg.passive {
		verb := p.toks[vg.main]
		prep := ""
		personal := ok && s.possessor != nil && p.personHead(s)
		if personal {
			// "Priya's brother is based in Oslo", "Tom's wife was promoted": a person named by their role to
			// another is the subject of their own passive, not an attribute of the other.
			ok = false
		}
		if !ok && p.low(j) == "and" && p.tag(j+1) == "VBN" && (p.tag(j+2) == "IN" || p.tag(j+2) == "TO") {
			// "was born and raised in London": coordinated participles share the subject and the complement;
			// each is a claim of its own.
			first, second := vg, vg
			first.to, second.main, second.to = j+2, j+1, j+2
			return append(p.complements(s, first), p.complements(s, second)...)
		}
		if j < len(p.toks) && (p.tag(j) == "IN" || p.tag(j) == "TO" || p.tag(j) == "RP") {
			prep = p.low(j)
			j++
			if prep != "by" && particleAdverbs[prep] && p.low(j) == "by" && j+1 < len(p.toks) {
				// "was set up by", "was dreamed up by": a phrasal verb's passive keeps its particle before the
				// agent.
				prep += " by"
				j++
			}
		}
		relation := strings.TrimSpace(p.span(vg.from, vg.main+1) + " " + prep)
		key := joinKey(verb.Lower, prep)
		if personal && key == "based_in" {
			// A person's base is where they live, as the speaker's is ("I'm based in Riga"); an
			// organization's is its headquarters.
			key = "lives_in"
		}
		agentive := false
		if prep == "by" {
			// "was founded by" names the founder: the agent noun is the relation ("founder"), as in "the
			// founder of X is Y".
			if n := roleNoun(verb.Lemma); n != "" {
				if !canon.KnownRelation(canon.RelationKey(n)) && canon.KnownRelation(key) {
					// "was recorded by": the relation table lists the passive (performer) where it does not
					// list the agent noun ("recorder"), which would be a relation of its own.
					n = key
				}
				key, agentive = n, true
			}
		}
		if ok && agentive {
			// "The government of X is headed by Y" → X's head of government is Y, as "Y heads the government
			// of X" says.
			return p.objects(j, func(obj string, isDate bool) triple {
				return triple{subject: owner, relation: key + " of " + rel, object: obj, key: joinKey(key, "of", relKey), definite: true}
			})
		}
		if ok {
			// "The headquarters of X is located in Y" → (X, headquarters located in, Y).
			return p.objects(j, func(obj string, isDate bool) triple {
				return triple{subject: owner, relation: rel + " " + strings.TrimSpace(verb.Lower+" "+prep), object: obj, key: joinKey(relKey, key)}
			})
		}
		if !p.subjectOK(s) {
			return nil
		}
		return p.objects(j, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: relation, object: obj, key: key, definite: agentive}
		})
	}
	// Active verb.
	verb := p.toks[vg.main]
	if !p.subjectOK(s) && !ok {
		return nil
	}
	lemma := verb.Lemma
	if substitutionVerbs[lemma] && !s.pronoun && !ok {
		// "Oat milk replaced cow milk as my default", "Tim Cook succeeded Steve Jobs as CEO of Apple": the
		// subject takes the role the object held, so the role's value is now the subject (a change: the
		// object's tenure ends), and the object is not the role's value at all.
		if obj, found := p.nounPhrase(j); found && !obj.pronoun && p.low(obj.to) == "as" {
			if t, found := p.roleAfterAs(obj.to+1, subjText); found {
				return []triple{t}
			}
			return nil
		}
	}
	// "X has Y as its Z", "X uses Y as its official language", "X named Y as its CEO" → (X, Z, Y): the
	// possessive pronoun points back at the subject, whose Z is Y, whatever the verb (English grammars'
	// complex-transitive "as" complement).
	if obj, ok := p.nounPhrase(j); ok && !obj.pronoun && p.low(obj.to) == "as" && p.tag(obj.to+1) == "PRP$" {
		if role, ok := p.nounPhrase(obj.to + 1); ok && role.pronounPossessor != "" {
			relation, key, end := p.nounText(role), relKeyNoun(p, role), role.to
			if of, _, ok := p.ofObject(end); ok && p.low(end) == "of" && !of.proper && !of.definite && !of.indef {
				// "as its head of state": a compound relational noun.
				relation, key, end = relation+" of "+p.nounText(of), joinKey(key, "of", relKeyNoun(p, of)), of.to
			}
			if end == len(p.toks) || p.low(end) == "," {
				return []triple{{subject: subjText, relation: relation, object: p.objectText(obj.from, obj.to), key: key, definite: true}}
			}
		}
	}
	if movingVerbs[lemma] && (p.tag(j) == "PRP$" || p.tag(j) == "NNS" && (lemma == "switch" || lemma == "change")) {
		// (A bare plural after "switch" or "change" is the attribute too: "switched schools to Riverside
		// Academy" is the school now.)
		// "Velmora moved its capital to Tarsk", "Acme changed its name to Beta": what the subject moves or
		// changes is one of its own attributes (a relational noun after a possessive), and "to" names the value
		// it has now.
		// The noun must name an attribute (a relation English names, as namedRole) or an event given a new
		// date ("moved our wedding to May 3"): "moved her car to the garage" gives the car no value.
		if rel, ok := p.nounPhrase(j); ok && rel.to+1 < len(p.toks) && p.low(rel.to) == "to" {
			key := relKeyNoun(p, rel)
			moved := p.objects(rel.to+1, func(obj string, isDate bool) triple {
				return triple{subject: subjText, relation: p.nounText(rel), object: obj, key: key, definite: true, change: true}
			})
			if len(moved) > 0 && (namedRole(key) || moved[0].objectIsDate) {
				return moved
			}
		}
	}
	if lightVerbs[lemma] || obtainVerbs[lemma] {
		// "X has its headquarters in Y" → (X, headquarters in, Y), as "X's headquarters are in Y"; "X has a
		// job at Y" → (X, job at, Y), and so does finding or landing one.
		if p.tag(j) == "PRP$" && lightVerbs[lemma] || p.low(j) == "a" || p.low(j) == "an" {
			if rel, ok := p.nounPhrase(j); ok && rel.to < len(p.toks) && (p.tag(rel.to) == "IN" || p.tag(rel.to) == "TO") && p.low(rel.to) != "of" &&
				(!rel.indef || canon.KnownRelation(canon.RelationKey(joinKey(relKeyNoun(p, rel), p.low(rel.to))))) {
				// With "a", only a relation English names so ("a job at"): "has a house in Y" is not one.
				prep := p.low(rel.to)
				return p.objects(rel.to+1, func(obj string, isDate bool) triple {
					return triple{subject: subjText, relation: p.nounText(rel) + " " + prep, object: obj, key: joinKey(relKeyNoun(p, rel), prep), definite: !rel.indef}
				})
			}
		}
	}
	// Light verb + noun: "holds French citizenship" → (X, citizenship, French).
	if lightVerbs[lemma] && j < len(p.toks) {
		k := j
		if p.tag(k) == "DT" {
			k++
		}
		if k+1 < len(p.toks) && (nlp.IsProper(p.tag(k)) || nlp.IsAdjective(p.tag(k)) && nlp.Capitalized(p.toks[k].Text)) {
			e := p.properRun(k)
			if e == k {
				e = k + 1
			}
			if e < len(p.toks) && nlp.IsNoun(p.tag(e)) && !nlp.IsProper(p.tag(e)) && (e+1 == len(p.toks) || !nlp.IsNoun(p.tag(e+1))) {
				return []triple{{subject: subjText, relation: p.toks[e].Lower, object: p.span(k, e), key: p.toks[e].Lemma}}
			}
		}
		// Typed in lower case ("has norwegian citizenship"), the value is an adjective before a noun that
		// names a relation; "has red hair" names none.
		if k+1 < len(p.toks) && nlp.IsAdjective(p.tag(k)) && !nlp.Capitalized(p.toks[k].Text) && nlp.IsNoun(p.tag(k+1)) &&
			k+2 == len(p.toks) && canon.KnownRelation(canon.RelationKey(p.toks[k+1].Lemma)) {
			return []triple{{subject: subjText, relation: p.toks[k+1].Lower, object: p.toks[k].Text, key: p.toks[k+1].Lemma}}
		}
	}
	// Light verb + relational noun + "of": "holds citizenship of Peru" → (X, citizenship of, Peru).
	if lightVerbs[lemma] && j+1 < len(p.toks) && nlp.IsNoun(p.tag(j)) && !nlp.IsProper(p.tag(j)) && p.low(j+1) == "of" {
		noun := p.toks[j]
		return p.objects(j+2, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: noun.Lower + " of", object: obj, key: joinKey(noun.Lemma, "of")}
		})
	}
	// Light verb + a noun of a relation + another preposition: "has citizenship in Peru", "has membership in
	// NATO", "got an education at Yale" say the noun's relation with what the preposition names.
	if lightVerbs[lemma] && j < len(p.toks) {
		k := j
		if p.tag(k) == "DT" || p.tag(k) == "PRP$" {
			k++
		}
		if k+2 < len(p.toks) && nlp.IsNoun(p.tag(k)) && !nlp.IsProper(p.tag(k)) && (p.tag(k+1) == "IN" || p.tag(k+1) == "TO") && p.low(k+1) != "of" && p.low(k+1) != "as" {
			noun, prepWord := p.toks[k], p.low(k+1)
			for _, key := range []string{joinKey(noun.Lemma, prepWord), joinKey(noun.Lemma, "of"), noun.Lemma} {
				if canon.KnownRelation(canon.RelationKey(key)) {
					return p.objects(k+2, func(obj string, isDate bool) triple {
						return triple{subject: subjText, relation: noun.Lower + " " + prepWord, object: obj, key: key}
					})
				}
			}
		}
	}
	prep := ""
	k := j
	for k < len(p.toks) && (p.tag(k) == "RP" || (p.tag(k) == "IN" || p.tag(k) == "TO") && (k == j || particleAdverbs[p.low(k-1)] || p.homeBeforePrep(k-1, j)) ||
		particleAdverbs[p.low(k)] && nlp.IsAdverb(p.tag(k)) && k == j && k+1 < len(p.toks) && (p.tag(k+1) == "IN" || p.tag(k+1) == "TO" || p.homeBeforePrep(k+1, j)) ||
		p.homeBeforePrep(k, j)) {
		// "passed away in": the tagger reads an adverbial particle as an adverb; with a preposition after it,
		// it belongs to the phrasal verb.
		if p.low(k) != "home" {
			prep = strings.TrimSpace(prep + " " + p.low(k))
		}
		k++
	}
	relation := strings.TrimSpace(verb.Lower + " " + prep)
	key := joinKey(nlp.ThirdPerson(lemma), prep)
	if vg.aspect {
		relation = strings.TrimSpace(nlp.ThirdPerson(lemma) + " " + prep)
	}
	if s.proper && !vg.negated && !vg.aspect && endsOwnPart(lemma, prep) && p.onlyAdverbs(k) {
		// "Dr Fontaine retired", "Smudge died", "Tom stepped down": an intransitive verb of one's own part
		// ending says nothing of an object; the claim's value is the state it leaves ("retired"), so that a
		// value naming the subject ("my GP is Dr Fontaine") is seen to have ended (services/query/endings.go).
		return []triple{{subject: subjText, relation: relation, object: relation, key: key}}
	}
	if prep == "" && !vg.aspect {
		// "X plays country music", "X plays the wide receiver position": an object headed by a relational
		// noun, its value in the modifiers before it, says the noun's relation, as "the music X plays" does.
		if obj, ok := p.nounPhrase(k); ok && !obj.proper && obj.possessor == nil && p.modifiedHead(obj) && !nlp.IsProper(p.tag(obj.head)) &&
			(obj.to == len(p.toks) || p.low(obj.to) == ",") {
			if vn := joinKey(nlp.ThirdPerson(lemma), p.toks[obj.head].Lemma); canon.RelationKey(vn) != vn {
				key = vn
			}
		}
	}
	change, changes := changeVerbs[lemma+"|"+prep]
	if back, found := strings.CutPrefix(prep, "back "); found && !changes {
		// "moved back to Cork": a return is a move there.
		change, changes = changeVerbs[lemma+"|"+back]
	}
	if changes {
		// "moved to Seattle", "joined Anthropic": the value of a slot of everyday life changes.
		if change == "lives_in" && p.bareCommonNoun(k) {
			// "Tom moved to sales": a bare common noun names no home but a department, a shift, a kind of
			// work — where one works, as a transfer is.
			change = "works_in"
		}
		if change == "works_at" && lemma == "start" && p.childSubject(s) {
			// "My daughter started at Lincoln Middle School": a child starting at a school starts school
			// there, not a job; the verb is left as said for the school reading (schools.go).
			said := p.objects(k, func(obj string, isDate bool) triple {
				return triple{subject: subjText, relation: relation, object: obj, key: key}
			})
			if len(said) > 0 && schoolName(nameOnly(said[0].object)) {
				return said
			}
		}
		key, relation = change, strings.ReplaceAll(change, "_", " ")
		moved := p.objects(k, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: relation, object: obj, key: key, change: true}
		})
		if len(moved) == 0 || !moved[0].objectIsDate && !weekdayFirst(moved[0].object) {
			// "Emma joined Google as a data scientist": the role taken is her occupation from now on.
			if at := p.asAt(k); at > 0 && len(moved) > 0 {
				if role, ok := p.nounPhrase(at + 1); ok && role.indef && occupationNoun(p.span(role.from+1, role.to)) {
					moved = append(moved, triple{subject: subjText, relation: "works as", object: p.span(role.from+1, role.to), key: "occupation", change: true})
				}
			}
			return moved
		}
		// "Emma's party moved to Saturday": a date (or a bare weekday, which the date reader leaves to its
		// context) is no place; an owner's event got a new date.
		if s.possessor != nil && !s.proper {
			return []triple{{subject: p.span(s.possessor.from, s.possessor.to), relation: p.nounText(s), object: moved[0].object,
				key: relKeyNoun(p, s), definite: true, change: true, objectIsDate: true}}
		}
		return nil
	}
	var out []triple
	roleAt := -1
	out = append(out, p.objects(k, func(obj string, isDate bool) triple {
		return triple{subject: subjText, relation: relation, object: obj, key: key}
	})...)
	// "Coco Chanel founded Chanel", "Bob directs the BBC": the object's agent-noun relation holds the
	// subject ("Chanel's founder is Coco Chanel"), which is how the relation is asked about and restated.
	//
	// The role claim replaces the verb's own: both state one fact, and only the role is single-valued, so a
	// later "Boeing developed the F-22" supersedes "Lockheed developed the F-22" in the F-22's developer slot —
	// a "Lockheed develops F-22" claim beside it would go on stating the old value as current. Only a role
	// English names as a relation (an alias group or a single-valued relation of the policy: founder,
	// author, developer, chair, head of government) is made; "follows" or "uses" name no role of the object
	// ("Judaism's follower", "Russian's user").
	roleLemma := lemma
	if prep != "" {
		roleLemma = phrasalEquivalents[lemma+" "+prep]
	} else if eq, ok := roleVerbEquivalents[lemma]; ok {
		roleLemma = eq
	}
	// (A one-word name with a number after it names one of a series of parts or stages — "Grade 8", "Year 7",
	// "Season 4" — not something made or led: starting Grade 8 founds nothing.)
	if roleLemma != "" && s.proper && !vg.aspect {
		if obj, ok := p.nounPhrase(k); ok && obj.proper && !p.numberedPart(obj) {
			if agent := roleNoun(roleLemma); agent != "" && namedRole(agent) {
				name := p.objectText(obj.from, obj.to)
				if p.numbered && len(out) == 1 && strings.HasPrefix(out[0].object, name) {
					// A list of facts: the object is the rest of the line, as the verb's own reading took it (a
					// title holds words of any kind: "performed Born in the U.S.A.").
					name = out[0].object
				}
				out = append(out[:0], triple{subject: name, relation: agent, object: subjText, key: agent, definite: true})
			}
		} else if ok && obj.definite && !obj.proper && obj.possessor == nil {
			// "Bob heads the government of Japan" → Japan's head of government is Bob: the role the verb names,
			// of the relational noun its object heads. A government "in" a country is its government as well
			// ("leads the government in Japan"); the role must be one English names (namedRole), so "leads the
			// team in Leeds" stays as said.
			if in, _, isOf := p.ofObject(obj.to); isOf && (p.low(obj.to) == "of" || p.low(obj.to) == "in") && in.proper {
				if agent := roleNoun(roleLemma); agent != "" && namedRole(joinKey(agent, "of", relKeyNoun(p, obj))) {
					rel := agent + " of " + p.nounText(obj)
					out = append(out[:0], triple{subject: p.span(in.from, in.to), relation: rel, object: subjText, key: joinKey(agent, "of", relKeyNoun(p, obj)), definite: true})
				}
			}
		}
	}
	// "coaches soccer at Lincoln High": the place after the object, which the object reader leaves, is where
	// the subject does it (see placesOfActivity, which splits it where a reader kept it in the object).
	if at, ok := p.namedPlaceAfterObject(k); ok && prep == "" && !vg.aspect && len(out) == 1 {
		out = append(out, triple{subject: subjText, relation: relation + " at", object: at, key: joinKey(nlp.ThirdPerson(lemma), "at")})
	}
	// "Y runs X as CEO": the role is X's attribute too.
	if roleAt = p.asAt(k); roleAt > 0 && len(out) > 0 {
		if role, ok := p.nounPhrase(roleAt + 1); ok && !role.pronoun {
			roleText := p.span(role.from, role.to)
			if role.indef {
				roleText = p.span(role.from+1, role.to)
			}
			obj, objOK := p.nounPhrase(k)
			// ("took over from Ji-hoon as team lead": the object of "from" held the role before; it owns none.)
			if !role.indef && objOK && obj.proper && prep != "from" && !strings.HasSuffix(prep, " from") {
				out = append(out, triple{subject: p.span(obj.from, obj.to), relation: roleText, object: subjText, key: relKeyNoun(p, role), definite: true})
			} else {
				out = append(out, triple{subject: subjText, relation: "works as", object: roleText, key: "works_as"})
			}
		}
	}
	return out
}

// namedPlaceAfterObject returns the name after "at" that follows the common-noun object at k ("violin at the
// Juilliard School"): the object a common noun phrase, the place a name written with capitals that ends the
// clause or is followed by a comma.
func (p *ie) namedPlaceAfterObject(k int) (string, bool) {
	obj, ok := p.nounPhrase(k)
	if !ok || obj.proper || obj.pronoun || obj.to+1 >= len(p.toks) || p.low(obj.to) != "at" {
		return "", false
	}
	place, ok := p.nounPhrase(obj.to + 1)
	if !ok || !place.proper || place.possessor != nil || place.to < len(p.toks) && p.low(place.to) != "," {
		return "", false
	}
	name := p.objectText(place.from, place.to)
	return name, capitalizedName(name)
}

// stateAdverbs say that what a copula states holds for some time from now on, not at this moment only.
var stateAdverbs = map[string]bool{"now": true, "currently": true, "still": true, "nowadays": true}

// placeOfWork reads "X is at Org now", "I'm still at McKinsey", "she's at KPMG these days" (clauseClaims says
// "now" for the adverbial it drops): a person at a named
// organization with an adverb of a lasting state is where they work (or study, when the name is a
// university's); "at" a place for the moment ("I'm at the airport") names no organization, and without the
// adverb a visit is as likely as a job, so neither is read.
func (p *ie) placeOfWork(s phrase, subjText string, k int) (triple, bool) {
	// Someone named by a role they hold to another ("Priya's sister") works somewhere as a name does.
	personal := s.nominal != nil && s.possessor != nil && p.personHead(s)
	if p.low(k) != "at" || !(s.proper && !s.definite || s.pronoun || personal) || s.nominal != nil && !personal {
		return triple{}, false
	}
	org, ok := p.nounPhrase(k + 1)
	if ok && !org.proper && org.indef {
		// "I'm now at a startup called Tidewater": the organization is named after its kind.
		for x := org.from; x+1 < org.to; x++ {
			if (p.low(x) == "called" || p.low(x) == "named") && nlp.Capitalized(p.toks[x+1].Text) {
				org = phrase{from: x + 1, to: org.to, head: org.head, proper: true}
				break
			}
		}
	}
	if !ok || !org.proper || org.possessor != nil {
		return triple{}, false
	}
	lasting := false
	for x := 0; x < len(p.toks); x++ {
		lasting = lasting || stateAdverbs[p.low(x)]
	}
	// "I've been at Siemens for five years (now)", "she's been at KPMG since 2019": a duration after the
	// organization says the state lasts as well.
	during := org.to < len(p.toks) && p.low(org.to) != "," && durationRest(p.text[p.toks[org.to-1].End:])
	if !lasting && !during || org.to < len(p.toks) && !during && !stateAdverbs[p.low(org.to)] && p.tag(org.to) != "," {
		return triple{}, false
	}
	name := p.span(org.from, org.to)
	if higherEdName(name) {
		return triple{subject: subjText, relation: "studies at", object: name, key: "educated_at", change: true}, true
	}
	return triple{subject: subjText, relation: "works at", object: name, key: "works_at", change: true}, true
}

// durationRest reports a rest of a clause that is a duration adverbial alone, perhaps with "now" after it
// (reDuration: " for five years now", " since 2019").
func durationRest(rest string) bool {
	rest = strings.TrimSuffix(strings.TrimRight(rest, " .!"), " now")
	loc := reDuration.FindStringIndex(rest)
	return loc != nil && loc[0] == 0
}

// asAt returns the index of the "as" that introduces a role after the object at k ("runs X as CEO", "joined
// Google as a data scientist") within the same coordinate, or -1.
func (p *ie) asAt(k int) int {
	for x := k; x < len(p.toks); x++ {
		if p.low(x) == "as" {
			return x
		}
		if p.low(x) == "and" || p.low(x) == "," {
			break
		}
	}
	return -1
}

// changeVerbs are verbs of everyday life whose object is the new value of one of the subject's single-valued
// attributes, keyed by lemma and particle: moving changes where someone lives, joining or being hired by an
// organization where they work, marrying whom they are married to.
var changeVerbs = map[string]string{
	"move|to": "lives_in", "relocate|to": "lives_in", "move|into": "lives_in",
	"join|": "works_at", "start|at": "works_at", "sign|with": "works_at", "marry|": "married_to",
	// Transferring (intransitive) is moving to another post of the same employer: where one works changes.
	"transfer|to": "works_in",
}

// lastingStates are the adjectives of English that, with a preposition, state a lasting condition of a
// person rather than a passing feeling: health ("allergic to", "intolerant of"), ability ("fluent in",
// "proficient in", "good at"), fear ("afraid of"), dependence ("addicted to"), interest ("interested in") and
// kinship or union ("related to", "engaged to", "married to").
var lastingStates = map[string]bool{"allergic": true, "intolerant": true, "fluent": true, "proficient": true,
	"skilled": true, "good": true, "afraid": true, "scared": true, "terrified": true, "addicted": true,
	"interested": true, "related": true, "engaged": true, "married": true}

// lastingState reports a lasting state with its preposition at i, after adverbs ("allergic to", "now fluent in").
func (p *ie) lastingState(i int) bool {
	k := p.skipAdverbs(i)
	return lastingStates[p.low(k)] && (p.tag(k+1) == "IN" || p.tag(k+1) == "TO")
}

// skipAdverbs returns the first index from i that is not an adverb.
func (p *ie) skipAdverbs(i int) int {
	for i < len(p.toks) && nlp.IsAdverb(p.tag(i)) {
		i++
	}
	return i
}

// weekdayFirst reports a phrase that starts with the name of a weekday ("Saturday", "Friday at 2 pm").
func weekdayFirst(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	_, ok := weekdays[strings.ToLower(strings.Trim(f[0], ",."))]
	return ok
}

// movingVerbs are the verbs of English that move or change a thing from one place or value to another
// ("move", "relocate", "shift", "transfer", "change", "switch"): with the subject's own attribute as object and
// "to" after it, the attribute takes the value after "to".
var movingVerbs = map[string]bool{"move": true, "relocate": true, "shift": true, "transfer": true, "change": true, "switch": true}

// phrasalEquivalents are phrasal verbs of making and leading with the one-word verb the dictionary defines
// them by in that sense (WordNet 3.0 puts each in one synset with it: "set up" with "found" and "establish",
// "dream up" and "think up" with "invent" and "concoct", "head up" with "head"), so that their doer is named
// as the one-word verb's is ("Ana set up Velto": Velto's founder).
var phrasalEquivalents = map[string]string{"set up": "found", "start up": "found", "dream up": "create",
	"think up": "create", "head up": "head"}

// roleVerbEquivalents are verbs of leading with the verb English names the role of by its noun: to run a
// government or an organization is to head it (Oxford, "run": "be in charge of; manage"), so that "runs the
// government of Japan" names Japan's head of government as "heads the government of Japan" does.
var roleVerbEquivalents = map[string]string{"run": "head"}

// roleNoun is the noun naming whoever does what verb lemma says, as the relation of the thing it is done to:
// a role noun English uses as a verb unchanged ("chairs" → chair, "heads" → head, "coaches" → coach), else
// the verb's agent noun ("founded" → founder, "directs" → director).
func roleNoun(lemma string) string {
	if zeroRoleNouns[lemma] || canon.KnownRelation(lemma) {
		return lemma
	}
	return nlp.AgentNoun(lemma)
}

// namedRole reports a role key English names as a relation: one of the alias groups (founder, author,
// developer, chair) or a single-valued relation of the built-in policy (head of government, leader).
func namedRole(key string) bool {
	return canon.KnownRelation(canon.RelationKey(key)) || rolePolicy.Functional(key)
}

var rolePolicy = canon.DefaultPolicy()

// zeroRoleNouns are nouns of a role in an organization or a group that English converts to verbs meaning "to
// be the N of" ("she chairs the board", "he heads the government", "they captain the team") — conversion
// without a suffix, as English grammars list it for role nouns; with them the agent-noun derivation would
// give another word ("header", "captainer").
var zeroRoleNouns = map[string]bool{"chair": true, "head": true, "captain": true, "coach": true, "host": true,
	"helm": true, "skipper": true, "anchor": true, "referee": true, "umpire": true, "judge": true, "mentor": true,
	"tutor": true, "pilot": true, "star": true, "front": true, "parent": true, "father": true, "mother": true}

// workMaker maps the nouns of English for kinds of works to the relation "by" names after them ("a novel by
// X" is its author, "a film by X" its director, "a song by X" its performer, "a game by X" its developer):
// the maker each kind of work is credited to in English, as Wikidata's properties for works name them
// (author, director, performer, developer, creator). General English vocabulary, not any data set's.
var workMaker = map[string]string{
	"book": "author", "novel": "author", "novella": "author", "poem": "author", "play": "author", "essay": "author",
	"story": "author", "memoir": "author", "biography": "author", "article": "author", "textbook": "author",
	"film": "director", "movie": "director", "documentary": "director",
	"song": "performer", "album": "performer", "single": "performer",
	"game": "developer", "app": "developer", "software": "developer", "program": "developer",
	"painting": "creator", "sculpture": "creator", "artwork": "creator", "opera": "creator", "symphony": "creator",
}

// changeCopulas are the copular verbs of change of state ("become", and "grow"/"turn" only with adjectives,
// which name no relation, so only "become" is listed): English grammars' resulting copulas. What the subject
// became replaces what it was.
var changeCopulas = map[string]bool{"become": true}

// copularRaising are the verbs English uses with "to be" as a hedged copula ("seems to be", "happens to be",
// "appears to be", "turned out to be", "proved to be"): the raising verbs of English grammars, which add the
// speaker's stance and leave the relation to the complement of "be".
var copularRaising = map[string]bool{"seem": true, "happen": true, "appear": true, "turn": true, "prove": true}

// copularAs are verbs of function that, with "as", link a subject to a role like a copula: "serves as",
// "acts as", "functions as" (English grammars' complex-transitive and copular uses of these verbs).
var copularAs = map[string]bool{"serve": true, "act": true, "function": true}

// particleAdverbs are the adverbial particles of English phrasal verbs ("pass away", "grow up", "set out",
// "move back"): the closed class of Quirk et al.'s Comprehensive Grammar (§16.3), which the tagger may read as
// plain adverbs.
var particleAdverbs = map[string]bool{"aback": true, "about": true, "across": true, "along": true, "around": true,
	"away": true, "back": true, "by": true, "down": true, "forth": true, "in": true, "off": true, "on": true,
	"out": true, "over": true, "past": true, "round": true, "through": true, "under": true, "up": true}

// mannerBeforePrep reports an adverb of manner at i with a preposition after it: a word in -ly or one of
// the adverbs of working time and place (workAdverbs), which the tagger may read as adjectives.
func (p *ie) mannerBeforePrep(i int) bool {
	if i+1 >= len(p.toks) || p.tag(i+1) != "IN" && p.tag(i+1) != "TO" || p.low(i+1) == "of" || particleAdverbs[p.low(i)] {
		return false
	}
	return nlp.IsAdverb(p.tag(i)) && mannerAdverb(p.low(i)) || workAdverbs[p.low(i)]
}

// mannerAdverb reports an adverb of manner: one of workAdverbs, or a word in -ly (the English suffix of
// adverbs of manner; "only", "early" and "daily", short words of which or when, are left out).
func mannerAdverb(w string) bool {
	return workAdverbs[w] || len(w) > 5 && strings.HasSuffix(w, "ly")
}

// workAdverbs are the adverbs English says of how or where one works ("works part-time at", "works remotely
// for", "works freelance for").
var workAdverbs = map[string]bool{"part-time": true, "full-time": true, "remotely": true, "freelance": true, "parttime": true, "fulltime": true}

// locativePreps are the prepositions of place a copula takes to say where something is (the spatial
// prepositions of English grammars, without those of direction or of relative position such as "near").
var locativePreps = map[string]bool{"in": true, "on": true, "at": true, "within": true, "inside": true}

// speakerPreps are the prepositions of the speaker's passive states ("born in", "married to", "hired by").
var speakerPreps = map[string]bool{"in": true, "at": true, "to": true, "by": true, "from": true, "on": true}

// subjectOK reports whether a third-person subject is something claims can be filed under: a name, or a
// noun phrase without a possessive pronoun (the speaker's "my …" is read by the first-person patterns).
func (p *ie) subjectOK(s phrase) bool {
	if p.firstPerson && s.to-s.from == 1 && (p.low(s.from) == "i" || p.low(s.from) == "we") {
		return true
	}
	if s.pronoun || s.pronounPossessor != "" {
		return false
	}
	if s.proper || s.possessor != nil {
		return true
	}
	// A common noun subject: only in a list of facts, or without a determiner ("cricket was invented in …").
	return p.numbered || (!s.definite && !s.indef && s.to-s.from <= 3)
}

// nominalSubject reads a subject that names a relation of another entity: "the capital of France",
// "France's capital", "the university where Ana studied", "the music that Ana plays", "the company that
// produced X". It returns the owner, the relation as said, its key and ok.
func (p *ie) nominalSubject(s phrase) (owner, rel, key string, end int, ok bool) {
	if s.pronoun {
		return "", "", "", 0, false
	}
	if s.possessor != nil && !s.proper {
		end := s.to
		if e, ok := p.settingAt(end); ok {
			// "Messi's position on the field is …": a setting between the noun and its copula qualifies the
			// relation without naming another one.
			end = e
		}
		return p.span(s.possessor.from, s.possessor.to), p.nounText(s), relKeyNoun(p, s), end, true
	}
	if s.proper || !s.definite {
		return "", "", "", 0, false
	}
	after := s.to
	// "the name of the current head of state in X": "name of" only introduces the noun after it.
	if lightNouns[p.toks[s.head].Lower] && p.low(after) == "of" {
		if inner, ok := p.nounPhrase(after + 1); ok && !inner.proper {
			inner.definite = true
			return p.nominalSubject(inner)
		}
	}
	if ob, e, ok := p.ofObject(after); ok && !ob.proper && !ob.definite && !ob.indef && (p.low(e) == "in" || p.low(e) == "of") {
		// "the head of state in Ghana": a compound relational noun, then its owner.
		if in, e2, ok2 := p.ofObject(e); ok2 && in.proper {
			return p.span(in.from, in.to), p.nounText(s) + " of " + p.nounText(ob), joinKey(relKeyNoun(p, s), "of", relKeyNoun(p, ob)), e2, true
		}
	}
	if ob, e, ok := p.ofObject(after); ok && (ob.proper || p.numbered && !ob.definite && !ob.indef && !p.relativeAt(e)) {
		if p.numbered && ob.proper && !p.verbAt(e) {
			// A title runs to the verb in a list of facts: "The author of Sketches by Boz is …".
			k := e
			for k < len(p.toks) && !isBe(p.toks[k]) && k-e < 6 {
				k++
			}
			if k < len(p.toks) && isBe(p.toks[k]) {
				return p.span(ob.from, k), p.nounText(s), relKeyNoun(p, s), k, true
			}
		}
		return p.span(ob.from, ob.to), p.nounText(s), relKeyNoun(p, s), e, true
	} else if ok && !ob.proper && ob.definite {
		// "the head of the Ghana government", "the head of state in Ghana".
		if ob.possessor != nil {
			return p.span(ob.possessor.from, ob.possessor.to), p.nounText(s) + " of " + p.nounText(ob), joinKey(relKeyNoun(p, s), "of", relKeyNoun(p, ob)), ob.to, true
		}
		if in, e2, ok := p.ofObject(ob.to); ok && in.proper {
			return p.span(in.from, in.to), p.nounText(s) + " of " + p.nounText(ob), joinKey(relKeyNoun(p, s), "of", relKeyNoun(p, ob)), e2, true
		}
	} else if ok && !ob.proper && !ob.definite && !ob.indef {
		// "the head of state in Ghana": a compound relational noun, then its owner.
		if in, e2, ok2 := p.ofObject(ob.to); ok2 && in.proper {
			return p.span(in.from, in.to), p.nounText(s) + " of " + p.nounText(ob), joinKey(relKeyNoun(p, s), "of", relKeyNoun(p, ob)), e2, true
		}
		if p.relativeAt(ob.to) {
			// "the type of music that X plays": the light noun's complement heads the relative clause.
			ob.definite = true
			return p.nominalSubject(ob)
		}
	}
	// "the university where X was educated", "the music that X plays", "the company that produced X".
	if after < len(p.toks) {
		if p.relativeAt(after) {
			return p.relativeSubject(s, after)
		}
		if nlp.IsProper(p.tag(after)) {
			// "the music X plays" (no relative pronoun).
			return p.relativeSubject(s, after-1)
		}
		if p.tag(after) == "PRP" && (p.low(after) == "i" || p.low(after) == "we") {
			// "the car I drive": the speaker's (a third-person pronoun there was resolved before, or the
			// clause says nothing of anyone known).
			_, rel, key, end, ok = p.relativeSubject(s, after-1)
			return "", rel, key, end, ok
		}
	}
	return p.zeroRelativeInside(s)
}

// zeroRelativeInside reads a relative clause without its pronoun that the noun phrase s swallowed, because a
// name is a noun to the phrase reader: "the music Michael Mantler plays is …" was read as one noun phrase
// headed by "Mantler", and in "the company Ana works for is …" the tagger read "works" as a noun. The reading
// holds only where the main clause's "be" follows the relative clause (after a stranded preposition), so "the
// band Queen plays rock" — a name in apposition, then the verb — stays as it was.
func (p *ie) zeroRelativeInside(s phrase) (owner, rel, key string, end int, ok bool) {
	m := s.from + 1
	for m < s.to && !nlp.IsProper(p.tag(m)) && (nlp.IsNoun(p.tag(m)) || nlp.IsAdjective(p.tag(m))) {
		m++
	}
	if m == s.from+1 || m >= s.to || !nlp.IsProper(p.tag(m)) || !nlp.IsNoun(p.tag(m-1)) {
		return "", "", "", 0, false
	}
	e := p.properRun(m)
	var restore func()
	if e == s.to-1 && (p.tag(e) == "NN" || p.tag(e) == "NNS") {
		// "Ana works for": a third-person verb form the tagger took for a plural noun.
		t := &p.toks[e]
		b := nlp.VerbLemma(t.Lower)
		if b == t.Lower || nlp.ThirdPerson(b) != t.Lower {
			return "", "", "", 0, false
		}
		old := *t
		t.Tag, t.Lemma = "VBZ", b
		restore = func() { p.toks[e] = old }
	} else if e != s.to {
		return "", "", "", 0, false
	}
	head := phrase{from: s.from, to: m, head: m - 1, definite: true}
	owner, rel, key, end, ok = p.relativeSubject(head, m-1)
	for ok && end < len(p.toks) && nlp.IsAdverb(p.tag(end)) {
		end++
	}
	if !ok || end >= len(p.toks) || !isBe(p.toks[end]) {
		if restore != nil {
			restore()
		}
		return "", "", "", 0, false
	}
	return owner, rel, key, end, true
}

// readSubject extends a subject noun phrase over a title in apposition and reads a nominal relation in it.
func (p *ie) readSubject(np phrase) phrase {
	// "Henrik Alvar, Duke of Varenmark, was born …": a title in apposition is part of the name.
	if np.proper && p.low(np.to) == "," {
		if app, ok := p.nounPhrase(np.to + 1); ok && app.proper && !app.definite && p.officeOf(app) < 0 && p.low(app.to) == "," && app.to+1 < len(p.toks) && nlp.IsVerb(p.tag(app.to+1)) {
			np.to = app.to + 1
		}
	}
	// "The Prime Minister of Elbonia is Marta Voss": an office named in capitals, when its value is a
	// name ("The Wheel of Time is a novel" stays a title).
	if office, ok := p.office(np); ok {
		np = office
	}
	// "The band Nightglow", "the film Silent Harbor": a common noun before a name in apposition says what
	// kind of thing the name is; the subject is the name.
	if np.possessor == nil && np.nominal == nil && p.low(np.from) == "the" && np.from+2 < np.to {
		k := np.from + 1
		for k < np.to && k-np.from <= 2 && nlp.IsNoun(p.tag(k)) && !nlp.IsProper(p.tag(k)) && !nlp.Capitalized(p.toks[k].Text) {
			k++
		}
		if k > np.from+1 && k < np.to && nlp.IsProper(p.tag(k)) && nlp.Capitalized(p.toks[k].Text) && p.properRun(k) >= np.to && !p.zeroRelativeAfter(np.to) {
			np.from, np.head, np.definite, np.proper = k, np.to-1, false, true
		}
	}
	if np.nominal == nil {
		if owner, rel, key, end, ok := p.nominalSubject(np); ok {
			np.nominal = &nominal{owner: owner, rel: rel, key: key}
			np.to = max(np.to, end)
		}
	}
	return np
}

// officeOf returns the index of "of" in a bare capitalized apposition that names a relation of whatever
// follows it ("CEO of Apple Inc.", "Chair of the Board"), or -1: its words before "of" are a known relation.
// A title of nobility ("Duke of Varenmark") is part of the name instead.
func (p *ie) officeOf(app phrase) int {
	for k := app.from + 1; k < app.to; k++ {
		if p.low(k) == "of" {
			rel := phrase{from: app.from, to: k, head: k - 1}
			if canon.KnownRelation(canon.RelationKey(relKeyNoun(p, rel))) {
				return k
			}
			return -1
		}
	}
	return -1
}

// verbAt reports a verb (or an adverb before one) at token i.
func (p *ie) verbAt(i int) bool {
	for i < len(p.toks) && nlp.IsAdverb(p.tag(i)) {
		i++
	}
	return i < len(p.toks) && (nlp.IsVerb(p.tag(i)) || p.tag(i) == "MD")
}

// titleSubject reads a capitalized title as a subject up to the first form of "be" ("Born in the U.S.A. was
// performed by …", "Free as a Bird was …"): titles hold words of any part of speech. Only for a capitalized
// start, at most eight words, and not across a comma.
func (p *ie) titleSubject(i int) phrase {
	if i >= len(p.toks) || !nlp.Capitalized(p.toks[i].Text) || p.tag(i) == "PRP" {
		return phrase{}
	}
	for k := i + 1; k < len(p.toks) && k-i <= 8; k++ {
		if p.low(k) == "," || p.low(k) == ":" {
			return phrase{}
		}
		if isBe(p.toks[k]) && (p.tag(k+1) == "VBN" || p.tag(k+1) == "DT" || nlp.IsAdjective(p.tag(k+1))) {
			return phrase{from: i, to: k, head: k - 1, proper: true}
		}
	}
	return phrase{}
}

// office reads "The Prime Minister of Elbonia" (a capitalized relational noun, "of", a name) as the office
// of the name when a copula and a name follow.
func (p *ie) office(np phrase) (phrase, bool) {
	if !np.proper || p.low(np.from) != "the" {
		return np, false
	}
	of := -1
	for k := np.from + 1; k < np.to; k++ {
		if p.low(k) == "of" {
			of = k
			break
		}
	}
	if of < 0 || of == np.from+1 || np.to >= len(p.toks) || !isBe(p.toks[np.to]) || !nlp.IsProper(p.tag(np.to+1)) {
		return np, false
	}
	for k := np.from + 1; k < of; k++ {
		if !nlp.Known(p.low(k)) {
			return np, false
		}
	}
	owner := phrase{from: of + 1, to: np.to, head: np.to - 1, proper: true}
	rel := phrase{from: np.from, to: of, head: of - 1, definite: true}
	rel.nominal = &nominal{owner: p.span(owner.from, owner.to), rel: p.span(np.from+1, of), key: relKeyNoun(p, rel)}
	rel.to = np.to
	return rel, true
}

// relativeAt reports a relative pronoun at token i.
func (p *ie) relativeAt(i int) bool {
	switch p.low(i) {
	case "where", "that", "which", "who", "whom":
		return true
	}
	return false
}

// relativeSubject reads "the N where/that …" at the relative pronoun rel.
func (p *ie) relativeSubject(s phrase, rel int) (owner, relation, key string, end int, ok bool) {
	pron := p.low(rel)
	head := p.nounText(s)
	// The relative clause ends at the copula of the main clause: find the inner subject and verb.
	inner, ok := p.nounPhrase(rel + 1)
	if ok && !inner.pronoun || ok && inner.pronoun && inner.to < len(p.toks) {
		vg, vok := p.verbs(inner.to)
		if vok && vg.copular && pron == "where" && !vg.negated && (vg.to == len(p.toks) || isBe(p.toks[vg.to]) || p.low(vg.to) == ",") {
			// "the continent where X is": "be" with no complement but the place says where X is.
			return p.span(inner.from, inner.to), "is in (" + head + ")", "located_in", vg.to, true
		}
		if vok && vg.copular && pron != "where" && !vg.negated {
			// A stranded preposition after an adjective: "the work X is famous for", "the town X is proud of".
			if a := p.skipAdverbs(vg.to); a+1 < len(p.toks) && nlp.IsAdjective(p.tag(a)) && (p.tag(a+1) == "IN" || p.tag(a+1) == "TO") &&
				(a+2 == len(p.toks) || isBe(p.toks[a+2]) || p.low(a+2) == ",") {
				return p.span(inner.from, inner.to), p.span(vg.from, a+2), joinKey(p.low(a), p.low(a+1)), a + 2, true
			}
		}
		if vok && !vg.copular {
			v := p.toks[vg.main]
			if pron == "where" {
				// "the university where X was educated" → (X, educated at university).
				r, k := p.whereRelation(vg)
				return p.span(inner.from, inner.to), r + " (" + head + ")", k, vg.to, true
			}
			if (p.tag(vg.to) == "IN" || p.tag(vg.to) == "TO") && (vg.to+1 == len(p.toks) || isBe(p.toks[vg.to+1]) || p.low(vg.to+1) == ",") {
				// A stranded preposition: "the language X was written in", "the city X lives in".
				k := joinKey(participleOrThird(v, vg.passive), p.low(vg.to))
				return p.span(inner.from, inner.to), p.span(vg.from, vg.to+1), k, vg.to + 1, true
			}
			// Object gap: "the music that X plays" → (X, plays music).
			k := joinKey(participleOrThird(v, vg.passive), relKeyNoun(p, s))
			if canon.RelationKey(k) == k && classifierNouns[p.toks[s.head].Lemma] {
				// "the language X speaks": a noun naming the kind of the object adds nothing to the verb.
				k = participleOrThird(v, vg.passive)
			}
			return p.span(inner.from, inner.to), p.span(vg.from, vg.main+1) + " " + head, k, vg.to, true
		}
	}
	if pron != "where" {
		// Subject gap: "the company that produced X" → (X, produced by, company).
		vg, vok := p.verbs(rel + 1)
		if vok && !vg.copular && !vg.passive {
			obj, ok := p.nounPhrase(vg.to)
			if ok && (obj.proper || p.numbered) {
				v := p.toks[vg.main]
				part := v.Lower
				if v.Tag != "VBN" && v.Tag != "VBD" {
					part = nlp.PastRegular(v.Lemma)
				}
				end := obj.to
				relation, key := part+" by", joinKey(part, "by")
				if role := roleNoun(v.Lemma); namedRole(role) {
					// "the one who wrote X": the agent noun names the relation, as for the passive with "by"
					// ("written by" → writer), which the past tense alone would not give for an irregular verb.
					relation, key = role, role
				}
				if p.numbered {
					// A title runs to the main verb: "The company that produced The Lord of the Rings is …".
					for end < len(p.toks) && !isBe(p.toks[end]) {
						end++
					}
					return p.span(obj.from, end), relation, key, end, true
				}
				return p.span(obj.from, obj.to), relation, key, end, true
			}
		}
	}
	return "", "", "", 0, false
}

// zeroRelativeAt reports a relative clause without its pronoun at token i: a noun phrase, then its verb
// ("the genre [Ana plays]", "the language [The Salt Road was written in]").
func (p *ie) zeroRelativeAt(i int) bool {
	if i >= len(p.toks) || p.tag(i) != "DT" && !nlp.IsProper(p.tag(i)) {
		return false
	}
	inner, ok := p.nounPhrase(i)
	if !ok || inner.pronoun {
		return false
	}
	if t := p.titleSubject(i); t.to > inner.to {
		inner = t
	}
	return p.verbAt(inner.to)
}

// whereRelation is the relation of a "where" clause's verb group vg — the place is its object, so the
// relation takes "in": "where X was born" → born in. A light verb with a noun names the noun's relation:
// "where X has its headquarters" → headquarters in, "where X holds citizenship" → citizenship in.
func (p *ie) whereRelation(vg verbGroup) (relation, key string) {
	v := p.toks[vg.main]
	if lightVerbs[v.Lemma] && !vg.passive {
		k := vg.to
		if p.tag(k) == "PRP$" || p.tag(k) == "DT" {
			k++
		}
		if n, ok := p.commonNoun(k, phrase{from: k}); ok && (n.to == len(p.toks) || p.tag(n.to) == "," || p.tag(n.to) == ".") {
			return p.span(n.from, n.to) + " in", joinKey(relKeyNoun(p, n), "in")
		}
	}
	return strings.TrimSpace(p.span(vg.from, vg.main+1)) + " in", joinKey(participleOrThird(v, vg.passive), "in")
}

func participleOrThird(v nlp.Token, passive bool) string {
	if passive {
		return v.Lower
	}
	return nlp.ThirdPerson(v.Lemma)
}

// copularComplement reads "X is …" when X is the subject itself.
func (p *ie) copularComplement(s phrase, subjText string, j int) []triple {
	if j >= len(p.toks) {
		return nil
	}
	// "Paris is where Victor Hugo was born" → (Victor Hugo, born in, Paris).
	if p.low(j) == "where" {
		inner, ok := p.nounPhrase(j + 1)
		if ok && (inner.proper || !inner.pronoun && p.numbered) {
			if vg, ok := p.verbs(inner.to); ok && !vg.copular {
				rel, key := p.whereRelation(vg)
				return []triple{{subject: p.span(inner.from, inner.to), relation: rel, object: subjText, key: key}}
			} else if ok && !vg.negated && vg.to == len(p.toks) {
				// "Asia is where Bengaluru is": "be" with no complement but the place says where X is.
				return []triple{{subject: p.span(inner.from, inner.to), relation: "is in", object: subjText, key: "located_in"}}
			}
		}
		return nil
	}
	// A cleft with a relative clause: "Asia is the continent where Bengaluru is located", "Jazz is the genre
	// Ana plays", "ABC is the network that first aired Lost" — the complement is a relational description
	// of the subject, read as the nominal subjects "the continent where X is located" are.
	if np, ok := p.nounPhrase(j); ok && !np.proper && !np.pronoun && np.possessor == nil && (np.definite || np.indef) {
		for x := np.from + 1; x < np.to; x++ {
			// "a language Kūkai speaks": the name starts the relative clause, it does not modify "language".
			modifier := nlp.IsNoun(p.tag(x-1)) && !nlp.IsProper(p.tag(x-1)) || nlp.IsAdjective(p.tag(x-1)) && x-1 == np.from+1
			if modifier && nlp.IsProper(p.tag(x)) && p.verbAt(p.properRun(x)) {
				np.to, np.head = x, x-1
				break
			}
		}
		rel := -1
		switch {
		case p.relativeAt(np.to):
			rel = np.to
		case p.zeroRelativeAt(np.to):
			// "the genre Ana plays": a relative clause without its pronoun.
			rel = np.to - 1
		}
		if rel > 0 {
			if owner, relation, key, _, ok := p.relativeSubject(np, rel); ok && owner != "" {
				return []triple{{subject: owner, relation: relation, object: subjText, key: key, definite: np.definite}}
			}
		}
	}
	if !p.subjectOK(s) {
		return nil
	}
	// "X is famous for Y", "X is from Y", "X is now in Y".
	k := p.skipAdverbs(j)
	if k < len(p.toks) && nlp.IsAdjective(p.tag(k)) && k+1 < len(p.toks) && (p.tag(k+1) == "IN" || p.tag(k+1) == "TO") {
		adj, prep := p.low(k), p.low(k+1)
		return p.objects(k+2, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: "is " + adj + " " + prep, object: obj, key: joinKey(adj, prep)}
		})
	}
	if k+1 < len(p.toks) && (p.low(k) == "into" || p.low(k) == "all" && p.low(k+1) == "about" && k+2 < len(p.toks)) {
		// "X is into jazz", "X is all about cricket": the informal copulas of keenness and devotion (English
		// dictionaries' "into": keen on; "all about": devoted to). They name no attribute; the object's kind
		// may (claim).
		key, start := "into", k+1
		if p.low(k) == "all" {
			key, start = "all_about", k+2
		}
		return p.objects(start, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: "is " + strings.ReplaceAll(key, "_", " "), object: obj, key: key}
		})
	}
	if k < len(p.toks) && p.low(k) == "from" && k+1 < len(p.toks) {
		return p.objects(k+1, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: "is from", object: obj, key: "from"}
		})
	}
	if t, ok := p.placeOfWork(s, subjText, k); ok {
		return []triple{t}
	}
	if k < len(p.toks) && locativePreps[p.low(k)] && k+1 < len(p.toks) && !(p.low(k+1) == "the" && p.low(k+3) == "of" && !classifierNouns[p.low(k+2)]) {
		// "X is in Y", "X is on the continent of Y", "X is within Y": a copula with a locative phrase says
		// where X is, whichever preposition the ground takes ("in Asia", "on the continent").
		prep := p.low(k)
		return p.objects(k+1, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: "is " + prep, object: obj, key: "located_in"}
		})
	}
	np, ok := p.nounPhrase(k)
	if !ok || np.pronoun {
		return nil
	}
	// "Ida Berg is a Lund University graduate", "X is a Velto employee": a name before a converse noun of a
	// relation is the noun's "of" object, as in "a graduate of Lund University".
	if np.indef && np.proper && np.to < len(p.toks) && nlp.IsNoun(p.tag(np.to)) && !nlp.IsProper(p.tag(np.to)) && (np.to+1 == len(p.toks) || p.low(np.to+1) == ",") {
		if key := joinKey(p.toks[np.to].Lemma, "of"); canon.KnownRelation(canon.RelationKey(key)) {
			art := "a "
			if strings.ContainsRune("aeiou", rune(p.low(np.to)[0])) {
				art = "an "
			}
			return []triple{{subject: subjText, relation: "is " + art + p.toks[np.to].Lower + " of", object: p.span(np.from+1, np.to), key: key}}
		}
	}
	bare := np.from == k && !np.indef && !np.definite && np.possessor == nil
	if bare && !p.numbered && !np.proper && np.to < len(p.toks) && rolePrepositions[p.low(np.to)] {
		// "Emma is now deputy head at Oakfield School", "Ravi is shift lead at Costa": a post said without its
		// article and where it is held.
		if m := reRoleAtLead.FindStringSubmatch(p.span(np.from, len(p.toks))); m != nil && postNoun(m[1]) && !reStudentAt.MatchString(m[0]) {
			return []triple{{subject: subjText, relation: "works as", object: m[1], key: "occupation"},
				{subject: subjText, relation: "works at", object: nameOnly(m[2]), key: "works_at"}}
		}
	}
	if !np.proper && !np.indef && np.possessor == nil && officeNouns[p.toks[np.head].Lemma] && p.low(np.to) == "of" {
		// "Emma is (now) head of design", "Ana is the director of research": an office over a field or a
		// department — no organization named — is the subject's job title.
		if field, ok := p.nounPhrase(np.to + 1); ok && !field.proper && !field.definite && !field.indef && !field.pronoun && field.possessor == nil && field.pronounPossessor == "" && (field.to == len(p.toks) || p.low(field.to) == ",") {
			first := np.from
			if np.definite {
				first++
			}
			return []triple{{subject: subjText, relation: "works as", object: p.span(first, field.to), key: "occupation"}}
		}
	}
	if bare && !np.proper && np.head == np.from && p.toks[np.head].Lemma == "part" && p.low(np.to) == "of" {
		// "Tarvia is part of Oceania": the subject is the part, not the whole's "part".
		return p.objects(np.to+1, func(obj string, isDate bool) triple {
			return triple{subject: subjText, relation: "is part of", object: obj, key: "part_of"}
		})
	}
	if (np.definite || bare) && np.proper {
		// "Emmanuel Macron is the President of France", "X is CEO of Y": an office in capitals, read at its "of".
		first := np.from + 1
		if np.definite {
			first = np.from + 2
		}
		for k := first; k < np.to; k++ {
			if p.low(k) == "of" && nlp.IsProper(p.tag(k+1)) {
				rel := phrase{from: np.from, to: k, head: k - 1, definite: true}
				return []triple{{subject: p.span(k+1, np.to), relation: p.span(first-1, k), object: subjText, key: relKeyNoun(p, rel), definite: true}}
			}
		}
	}
	switch {
	case np.possessor != nil:
		// "Besançon is Victor Hugo's birthplace" → (Victor Hugo, birthplace, Besançon); "X is Y's head of
		// state" with a compound relational noun.
		relation, key := p.nounText(np), relKeyNoun(p, np)
		if of, _, ok := p.ofObject(np.to); ok && p.low(np.to) == "of" && !of.proper && !of.definite && !of.indef && !of.pronoun {
			relation, key = relation+" of "+p.nounText(of), joinKey(key, "of", relKeyNoun(p, of))
		}
		return []triple{{subject: p.span(np.possessor.from, np.possessor.to), relation: relation, object: subjText, key: key, definite: true}}
	case (np.definite || bare) && !np.proper:
		// "Bob is the head of state of Ghana": a compound relational noun ("head of state"), then its owner.
		if ob, e, ok := p.ofObject(np.to); ok && p.low(np.to) == "of" && !ob.proper && !ob.definite && !ob.indef && (p.low(e) == "of" || p.low(e) == "in") {
			if in, _, ok := p.ofObject(e); ok && (in.proper || p.numbered) {
				return []triple{{subject: p.span(in.from, in.to), relation: p.nounText(np) + " of " + p.nounText(ob), object: subjText, key: joinKey(relKeyNoun(p, np), "of", relKeyNoun(p, ob)), definite: true}}
			}
		}
		// "Paris is the capital of France" → (France, capital, Paris).
		if ob, _, ok := p.ofObject(np.to); ok && (ob.proper || p.numbered) {
			if madeNouns[p.toks[np.head].Lemma] && np.head == np.to-1 {
				// "Vito is the creation of Mario Puzo": what someone made, whose "of" names its maker, is said of
				// the thing made, as "created by" is.
				return []triple{{subject: subjText, relation: "is the " + p.toks[np.head].Lower + " of", object: p.span(ob.from, ob.to), key: "creation_of", definite: true}}
			}
			return []triple{{subject: p.span(ob.from, ob.to), relation: p.nounText(np), object: subjText, key: relKeyNoun(p, np), definite: true}}
		}
	case np.indef:
		// "X is a citizen of Y" → (X, citizen of, Y); "X is a nurse" → (X, is a, nurse).
		if ob, _, ok := p.ofObject(np.to); ok && p.low(np.to) == "of" {
			rel := p.low(np.from) + " " + p.nounText(np) + " of"
			if nk := relKeyNoun(p, np); !canon.KnownRelation(canon.RelationKey(joinKey(nk, "of"))) && canon.KnownRelation(canon.RelationKey(nk)) && (ob.proper || p.numbered) {
				// "Finnish is an official language of Estonia", "Ana is a founder of Velto": a noun of the
				// owner's relation (the definite "the official language of Estonia" is Estonia's), one of
				// possibly several values, so not a definite description.
				return []triple{{subject: p.span(ob.from, ob.to), relation: p.nounText(np), object: subjText, key: nk}}
			}
			return p.objects(ob.from, func(obj string, isDate bool) triple {
				return triple{subject: subjText, relation: "is " + rel, object: obj, key: joinKey(relKeyNoun(p, np), "of")}
			})
		}
		// "Tarvia is a country in Oceania", "Velmora is a city in Tarvia": a noun that only names the kind of
		// the subject, then where it is; "a place in Oceania" too ("place" is no classifier of the genitive:
		// "the place of birth" is a relation).
		if (classifierNouns[p.toks[np.head].Lemma] || p.toks[np.head].Lemma == "place") && np.head == np.to-1 && np.to+1 < len(p.toks) && locativePreps[p.low(np.to)] {
			if where, ok := p.nounPhrase(np.to + 1); ok && (where.proper || p.numbered) && !where.pronoun {
				prep := p.low(np.to)
				return p.objects(np.to+1, func(obj string, isDate bool) triple {
					return triple{subject: subjText, relation: "is " + p.low(np.from) + " " + p.toks[np.head].Lower + " " + prep, object: obj, key: "located_in"}
				})
			}
		}
		// "The Watsons is a novel by Jane Austen": "by" after a noun naming a work names who made it.
		if role := workMaker[p.toks[np.head].Lemma]; role != "" && p.low(np.to) == "by" && np.to+1 < len(p.toks) {
			if maker, ok := p.nounPhrase(np.to + 1); ok && (maker.proper || p.numbered) && !maker.pronoun {
				return []triple{{subject: subjText, relation: p.nounText(np) + " by", object: p.span(maker.from, maker.to), key: role, definite: true}}
			}
		}
		// "X is a nurse by profession", "X is a Catholic by faith": "by" and a relational noun name the
		// attribute the noun is the value of.
		if p.low(np.to) == "by" && np.to+1 < len(p.toks) && nlp.IsNoun(p.tag(np.to+1)) && (np.to+2 == len(p.toks) || p.low(np.to+2) == ",") {
			if attr := canon.RelationKey(p.toks[np.to+1].Lemma); canon.KnownRelation(attr) {
				return []triple{{subject: subjText, relation: "is by " + p.toks[np.to+1].Lower, object: p.span(np.from+1, np.to), key: attr}}
			}
		}
		if p.toks[np.head].Lemma == "speaker" && np.head > np.from+1 && nlp.Capitalized(p.toks[np.head-1].Text) && np.to == len(p.toks) {
			// "X is an English speaker", "X is a native Spanish speaker": a speaker of a language is someone
			// who speaks it, not an occupation.
			return []triple{{subject: subjText, relation: "speaks", object: p.toks[np.head-1].Text, key: "speaks"}}
		}
		if p.toks[np.head].Lemma == "speaker" && p.low(np.to) == "of" {
			// "X is a fluent speaker of French".
			return p.objects(np.to+1, func(obj string, isDate bool) triple {
				return triple{subject: subjText, relation: "speaks", object: obj, key: "speaks"}
			})
		}
		if np.to == len(p.toks) || p.low(np.to) == "," || p.low(np.to) == "and" {
			obj := p.span(np.from+1, np.to)
			if !p.numbered && postNoun(obj) {
				// "Emma is still a data scientist": a person noun of work names the subject's occupation, as
				// "I am a nurse" does the speaker's; "a paramedic with Boston EMS" names the employer too, and so
				// does "deputy head at Oakfield School".
				if m := reRoleAtLead.FindStringSubmatch(obj); m != nil && postNoun(m[1]) && !reStudentAt.MatchString(obj) {
					return []triple{{subject: subjText, relation: "works as", object: m[1], key: "occupation"},
						{subject: subjText, relation: "works at", object: nameOnly(m[2]), key: "works_at"}}
				}
				return []triple{{subject: subjText, relation: "works as", object: obj, key: "occupation"}}
			}
			if reBadIsA.MatchString(obj) {
				// "he's away a lot", "she's a bit tired": a degree or a quantity, not a class.
				return nil
			}
			return []triple{{subject: subjText, relation: "is a", object: obj, key: "is_a"}}
		}
	}
	return nil
}

// nounText is a relational noun as said, without determiners, possessors or light adjectives ("the current
// head" → "head").
func (p *ie) nounText(np phrase) string {
	from := np.from
	if np.possessor != nil {
		from = np.possessor.to
		if from < len(p.toks) && p.toks[from].Tag == "POS" {
			from++
		}
	}
	var ws []string
	for k := from; k < np.to; k++ {
		t := p.toks[k]
		if t.Tag == "DT" || t.Tag == "PRP$" || t.Tag == "POS" || transientAdjectives[t.Lower] {
			continue
		}
		ws = append(ws, t.Text)
	}
	return strings.Join(ws, " ")
}

// transientAdjectives say when a relation holds, not which relation: "the current CEO" is the CEO.
var transientAdjectives = map[string]bool{"current": true, "present": true, "new": true, "latest": true,
	"former": false, "original": false}

// relKeyNoun is the key of a relational noun phrase: its words' lemmas without determiners.
func relKeyNoun(p *ie, np phrase) string {
	from := np.from
	if np.possessor != nil {
		from = np.possessor.to
	}
	var ws []string
	for k := from; k < np.to; k++ {
		t := p.toks[k]
		if t.Tag == "DT" || t.Tag == "PRP$" || t.Tag == "POS" || transientAdjectives[t.Lower] {
			continue
		}
		w := t.Lemma
		if nlp.IsProper(t.Tag) {
			w = strings.ToLower(t.Text)
		}
		ws = append(ws, w)
	}
	return strings.Join(ws, "_")
}

// joinKey joins key parts with "_", skipping empty ones.
func joinKey(parts ...string) string {
	var out []string
	for _, s := range parts {
		if s = strings.Trim(strings.ReplaceAll(strings.TrimSpace(s), " ", "_"), "_"); s != "" {
			out = append(out, strings.ToLower(s))
		}
	}
	return strings.Join(out, "_")
}

// objects reads the object(s) at token j: a date ("born on 5 May 1990"), a classifier genitive ("the city of
// Y" → Y), a list ("A, B and C", outside lists of facts), or the noun phrase up to the end of the clause or
// the next clause.
func (p *ie) objects(j int, mk func(obj string, isDate bool) triple) []triple {
	if j >= len(p.toks) {
		return nil
	}
	// A date object.
	for _, d := range p.dates {
		if d.start == p.toks[j].Start || (d.start <= p.toks[j].Start && p.toks[j].Start < d.end) {
			v := d.value()
			t := mk(v, true)
			t.objectIsDate = true
			return []triple{t}
		}
	}
	// "the city of London": the classifier names the kind of the object.
	if p.low(j) == "the" && j+2 < len(p.toks) && classifierNouns[p.low(j+1)] && p.low(j+2) == "of" {
		j += 3
	}
	if p.numbered {
		// A list of facts: the object is the rest of the line (titles hold "and", commas and verbs).
		obj := cleanNP(p.text[p.toks[j].Start:])
		if obj == "" {
			return nil
		}
		return []triple{mk(obj, false)}
	}
	var out []triple
	for j < len(p.toks) {
		np, ok := p.nounPhrase(j)
		if !ok && nlp.IsAdjective(p.tag(j)) && (j+1 == len(p.toks) || p.low(j+1) == "," || p.low(j+1) == "and" || p.low(j+1) == "or") {
			// "speaks norwegian": an adjective alone where a noun phrase must stand is a noun (the tagger's
			// reading of a language or nationality word typed in lower case).
			np, ok = phrase{from: j, to: j + 1, head: j}, true
		}
		if !ok || np.pronoun {
			break
		}
		end := np.to
		// Keep "of"-phrases and "in"-places that belong to a common noun ("a law firm in Boston").
		for end+1 < len(p.toks) && (p.low(end) == "of" || p.low(end) == "in" && !np.proper) {
			more, ok := p.nounPhrase(end + 1)
			if !ok || more.pronoun {
				break
			}
			end = more.to
		}
		text := p.objectText(np.from, end)
		if text == "" {
			break
		}
		out = append(out, mk(text, false))
		// A list: ", B", "and B", ", and B".
		k := end
		if k < len(p.toks) && p.low(k) == "," {
			k++
		}
		if k < len(p.toks) && (p.low(k) == "and" || p.low(k) == "or") {
			k++
		}
		if k == end || k >= len(p.toks) {
			break
		}
		next, ok := p.nounPhrase(k)
		if !ok || next.pronoun || next.proper != np.proper {
			break
		}
		if k+1 < len(p.toks) && nlp.IsVerb(p.tag(next.to)) {
			// "…, and Tom moved": a new clause, not a list.
			break
		}
		if !next.proper && next.to == next.from+1 && (p.low(next.to) == "to" || p.low(next.to) == "than") {
			// "a care home in Wrocław, closer to my brother": a bare word before "to" or "than" after the
			// comma is a comparison (the tagger reads "closer" as a noun), not another object.
			break
		}
		if next.to == next.from+1 && next.to < len(p.toks) && !next.proper && p.tag(next.from) == "NNS" &&
			nlp.VerbLemma(p.low(next.from)) != p.low(next.from) && (p.tag(next.to) == "IN" && p.low(next.to) != "of" || p.tag(next.to) == "TO" || p.tag(next.to) == "DT" || p.tag(next.to) == "PRP$") {
			// "arrives on the 20th and stays for two weeks": a bare word that is a verb's third person, with a
			// complement after it, is a second predicate of the subject, not a second object ("lots of time"
			// is a noun's "of").
			break
		}
		j = k
	}
	return out
}

// objectText is the object span without the clause's dates and trailing filler.
func (p *ie) objectText(from, to int) string {
	start := p.toks[from].Start
	if nlp.IsProper(p.tag(from)) && p.properRun(from) >= to && !p.dateWithin(start, p.toks[to-1].End) {
		// A name is kept whole, commas included ("Washington, D.C."); a date in it is no part of the name
		// ("joined Accenture in March").
		return cleanNP(p.text[start:p.toks[to-1].End])
	}
	return objectPhrase(p.text[start:p.toks[to-1].End], p.dates, start)
}

// dateWithin reports whether one of the clause's dates lies within [start, end).
func (p *ie) dateWithin(start, end int) bool {
	for _, d := range p.dates {
		if d.start >= start && d.start < end {
			return true
		}
	}
	return false
}

// spec turns a triple into the extractor's spec.
func (t triple) spec(numbered bool) spec {
	conf := confRelation
	if numbered {
		conf = confTemplate
	}
	return spec{subject: t.subject, predicate: t.relation, object: t.object, key: t.key, definite: t.definite,
		change: t.change, confidence: conf, text: t.text}
}

// firstPersonClause reports a clause whose subject is the speaker ("I …", "we …", "my sister and I …").
func firstPersonClause(clause string) bool {
	f := strings.Fields(clause)
	if len(f) == 0 {
		return false
	}
	switch strings.ToLower(strings.Trim(f[0], ",")) {
	case "i", "we", "i'm", "i've", "we're", "we've", "me", "us":
		return true
	case "my", "our":
		// "My sister Emma works …" is about Emma; "my budget is …" is the speaker's. "Our Mutual Friend was
		// written by …", "My Fair Lady opened …": a capitalized word after it makes a title, not the speaker's.
		return !possessiveTitle(clause)
	}
	return reCompound.MatchString(clause)
}

// possessiveTitle reports a clause that starts with a title made with "My" or "Our" ("Our Mutual Friend was
// written by …", "My Fair Lady opened …"): the word after it is capitalized too, and is no relation noun
// ("My Sister Emma" typed with capitals is still the speaker's sister).
func possessiveTitle(clause string) bool {
	f := strings.Fields(clause)
	if len(f) < 2 || f[0] != "My" && f[0] != "Our" {
		return false
	}
	w := strings.ToLower(strings.Trim(f[1], ",.:;"))
	return f[1] != "I" && nlp.Capitalized(f[1]) && !acronym(strings.Trim(f[1], ",.:;")) && !canon.KnownRelation(canon.RelationKey(w)) && kinRole(w) == ""
}

// acronym reports a word of two to four capitals ("GP", "CEO", "PT"): after "my" an abbreviated noun ("my GP
// is …"), not the first word of a title.
func acronym(w string) bool {
	if n := utf8.RuneCountInString(w); n < 2 || n > 4 {
		return false
	}
	for _, r := range w {
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// noteSpec reads a note of an attribute and its value, the form of lists, forms and quick messages: "Apple
// CEO: Tim Cook", "Thomas Kyd's birthplace: London", "X HQ: Y" (a name, then a relational noun, a colon and
// a value) or the speaker's own "Phone: +48 601 234 567", "New address: 12 Elm Street". The value after the
// colon has no verb (else the words before the colon are a heading: "Big news: Emma left Google"), and the
// words before it end in a noun that names the attribute.
// reNewThingHead is a clause that ends with the speaker's new attribute: "… a new phone number", "… my new
// manager".
var reNewThingHead = regexp.MustCompile(`(?i)(?:^(?:I|we)\b.*\b(?:a|my|our)|(?:^|\s)(?:my|our))\s+new\s+([\p{L}-]+(?:\s+[\p{L}-]+){0,2})$`)

// clauseOpener reports whether s starts as a clause of its own does, with a determiner or a pronoun ("the old
// one's gone", "it changed"), not as more of a list ("focused and resilient").
func clauseOpener(s string) bool {
	switch strings.ToLower(firstWords(s, 1)) {
	case "the", "my", "our", "this", "that", "it", "i", "we", "he", "she", "they", "his", "her", "their":
		return true
	}
	return false
}

func noteSpec(sent string) (spec, bool) {
	colon := strings.Index(sent, ": ")
	if colon <= 0 || strings.Count(sent, ":") > 1 {
		return spec{}, false
	}
	head, value := strings.TrimSpace(sent[:colon]), strings.TrimRight(strings.TrimSpace(sent[colon+2:]), ". ")
	// "New number since I switched carriers: …": a subordinate clause in the heading says why, not what.
	for _, sub := range []string{" since ", " because ", " after ", " now that ", " as of ", " from "} {
		if i := strings.Index(strings.ToLower(head), sub); i > 0 {
			head = head[:i]
		}
	}
	if i := strings.Index(value, ", "); i > 0 && clauseOpener(value[i+2:]) && hasVerbWord(value[i+2:]) && strings.TrimSpace(stripDiscourse(value[:i]+" ")) != "" {
		// "New email: sven@berg.dev, the old one's gone": a clause after the value's comma is a statement of
		// its own, not part of the value.
		value = strings.TrimSpace(value[:i])
	}
	if m := reNewThingHead.FindStringSubmatch(head); m != nil {
		// "I've got a new phone number: 555-0142", "Meet my new manager: Priya": the clause before the colon
		// announces the speaker's new value of the attribute it ends with.
		head = "New " + m[1]
	}
	// The heading is short: an attribute and its owner's name. A name may be long ("Head of state of United
	// States of America" is seven words), so the bound is looser for the form with "of" below.
	if value == "" || len(strings.Fields(head)) > 12 || len(strings.Fields(value)) > 8 {
		return spec{}, false
	}
	vt := nlp.Analyze(value)
	for _, t := range vt {
		// A capitalized word the dictionary does not know is a name, whatever the tagger reads it as when it
		// stands first ("Capital of Tarvia: Rajanpur").
		name := nlp.Capitalized(t.Text) && !nlp.Known(t.Lower)
		if (nlp.IsVerb(t.Tag) || t.Tag == "MD") && !name {
			return spec{}, false
		}
	}
	ht := nlp.Analyze(head)
	for len(ht) > 0 && (ht[len(ht)-1].Tag == "." || ht[len(ht)-1].Text == "-" || ht[len(ht)-1].Text == "—") {
		ht = ht[:len(ht)-1]
	}
	if len(ht) == 0 {
		return spec{}, false
	}
	for _, t := range ht {
		if nlp.IsVerb(t.Tag) && t.Tag != "VBN" || t.Tag == "MD" || t.Tag == "PRP" {
			return spec{}, false
		}
	}
	// "Capital city of Tarvia: Port Elen": the attribute, "of" and its owner's name.
	for q := 1; q+1 < len(ht); q++ {
		if ht[q].Lower != "of" {
			continue
		}
		attr, owner := ht[:q], ht[q+1:]
		ok := nlp.IsNoun(attr[len(attr)-1].Tag) || nlp.IsProper(attr[len(attr)-1].Tag)
		for _, t := range attr {
			if t.Lower == "of" {
				continue // "Head of state of …"
			}
			if !(nlp.IsNoun(t.Tag) || nlp.IsAdjective(t.Tag)) || nlp.IsProper(t.Tag) && !canon.KnownRelation(canon.RelationKey(t.Lower)) && !nlp.Known(t.Lower) {
				ok = false
			}
		}
		for i, t := range owner {
			// "University of California, Berkeley": a comma between two names completes a name.
			nameComma := t.Text == "," && i > 0 && i+1 < len(owner) && nlp.IsProper(owner[i-1].Tag) && nlp.IsProper(owner[i+1].Tag)
			if !nlp.IsProper(t.Tag) && !nameConnectors[t.Lower] && !nameComma {
				ok = false
			}
		}
		if !ok || len(attr) > 4 {
			continue
		}
		var keys, words []string
		for _, t := range attr {
			if transientAdjectives[t.Lower] {
				continue
			}
			words = append(words, t.Lower)
			keys = append(keys, nlp.Lemma(t.Lower, "NN"))
		}
		return spec{subject: head[owner[0].Start:owner[len(owner)-1].End], predicate: strings.Join(words, " "), object: value,
			key: canon.PredicateKey(joinKey(keys...)), definite: true, confidence: confRelation}, true
	}
	if len(strings.Fields(head)) > 6 {
		return spec{}, false
	}
	// The attribute: the trailing nouns (and their adjectives) that are not part of the name before them, or a
	// relation named by a compound with "of" ("Japan head of government", "X place of birth"), known as one
	// relation (canon), whose "of" joins the relation's own words, not an owner.
	a, compound := len(ht), false
	if n := len(ht); n >= 4 && ht[n-2].Lower == "of" && nlp.IsNoun(ht[n-1].Tag) && nlp.IsNoun(ht[n-3].Tag) &&
		canon.KnownRelation(canon.RelationKey(joinKey(ht[n-3].Lower, "of", ht[n-1].Lower))) {
		a, compound = n-3, true
	}
	for a > 0 && !compound {
		t := ht[a-1]
		relational := !nlp.IsProper(t.Tag) || canon.KnownRelation(canon.RelationKey(strings.ToLower(t.Text))) || transientAdjectives[t.Lower]
		if (nlp.IsNoun(t.Tag) || nlp.IsAdjective(t.Tag) || t.Tag == "VBN") && relational {
			a--
			continue
		}
		break
	}
	if a == len(ht) || !nlp.IsNoun(ht[len(ht)-1].Tag) && ht[len(ht)-1].Tag != "VBN" {
		return spec{}, false
	}
	owner := ""
	if a > 0 {
		e := a
		if ht[e-1].Tag == "POS" {
			e--
		}
		for e > 0 && (ht[e-1].Text == "-" || ht[e-1].Text == "—" || ht[e-1].Text == ",") {
			e--
		}
		ownerToks := ht[:e]
		if len(ownerToks) == 0 {
			return spec{}, false
		}
		for _, t := range ownerToks {
			if !nlp.IsProper(t.Tag) && !nameConnectors[t.Lower] && t.Tag != "POS" && t.Tag != "PRP$" {
				return spec{}, false
			}
		}
		if ownerToks[0].Tag == "PRP$" {
			if ownerToks[0].Lower != "my" && ownerToks[0].Lower != "our" || len(ownerToks) > 1 {
				return spec{}, false
			}
		} else {
			owner = head[ownerToks[0].Start:ownerToks[len(ownerToks)-1].End]
		}
	}
	var words, keys []string
	for _, t := range ht[a:] {
		if transientAdjectives[t.Lower] {
			continue
		}
		words = append(words, t.Text)
		k := t.Lemma
		if nlp.IsProper(t.Tag) {
			k = strings.ToLower(t.Text)
		}
		keys = append(keys, k)
	}
	f := a
	for f < len(ht)-1 && transientAdjectives[ht[f].Lower] {
		f++
	}
	if len(words) == 0 || owner == "" && nlp.IsProper(ht[f].Tag) && !canon.KnownRelation(canon.RelationKey(strings.ToLower(ht[f].Text))) {
		return spec{}, false
	}
	if owner == "" && joinKey(keys...) == "title" {
		// "New title as of this week: talent acquisition lead": the speaker's title is the one their job gives
		// them, as "my title is" says (matchPossessive).
		words, keys = []string{"job", "title"}, []string{"job", "title"}
	}
	return spec{subject: owner, predicate: strings.ToLower(strings.Join(words, " ")), object: value, key: joinKey(keys...), definite: true, confidence: confRelation}, true
}

// nounPhraseStart reports a tag that opens a noun phrase: a determiner, a possessive pronoun, a noun or a
// number.
func nounPhraseStart(tag string) bool {
	switch tag {
	case "DT", "PDT", "PRP$", "CD":
		return true
	}
	return nlp.IsNoun(tag)
}

// substitutionVerbs are the English verbs of taking over another's role, with the role in an "as" phrase
// ("A replaced B as C", "A succeeded B as C", "Idles have overtaken Radiohead as my favourite band").
var substitutionVerbs = map[string]bool{"replace": true, "succeed": true, "supersede": true, "displace": true,
	"overtake": true, "supplant": true, "oust": true, "dethrone": true, "usurp": true}

// roleAfterAs reads the role of an "as" phrase at k whose holder it names, as a triple giving it the value
// holder: "as my favourite band" (the speaker's), "as Apple's CEO", "as (the) CEO of Apple". A role whose
// owner the phrase does not name ("as CEO") gives nothing.
func (p *ie) roleAfterAs(k int, holder string) (triple, bool) {
	role, ok := p.nounPhrase(k)
	if !ok || role.pronoun {
		return triple{}, false
	}
	owner, end := "", role.to
	relation, key := p.nounText(role), relKeyNoun(p, role)
	switch {
	case role.proper && role.possessor == nil:
		// "as CEO of Apple" in capitals reads as one name: an office of what follows its "of".
		of := p.officeOf(role)
		if of < 0 {
			return triple{}, false
		}
		first := role.from
		if p.low(first) == "the" {
			first++
		}
		owner, relation, key = p.span(of+1, role.to), p.span(first, of), relKeyNoun(p, phrase{from: first, to: of, head: of - 1})
	case role.pronounPossessor == "my" || role.pronounPossessor == "our":
		// The speaker's role: the empty subject is the speaker.
	case role.possessor != nil:
		owner = p.span(role.possessor.from, role.possessor.to)
	default:
		of, e, found := p.ofObject(role.to)
		if !found || p.low(role.to) != "of" || !of.proper {
			return triple{}, false
		}
		owner, end = p.span(of.from, of.to), e
	}
	if end != len(p.toks) && p.low(end) != "," {
		return triple{}, false
	}
	return triple{subject: owner, relation: relation, object: holder, key: key, definite: true, change: true}, true
}

// officeNouns head a job title when their "of" names a field or department rather than an organization ("head
// of design", "director of research", "vice president of sales").
var officeNouns = map[string]bool{"head": true, "director": true, "chief": true, "president": true,
	"manager": true, "lead": true, "dean": true, "chair": true, "professor": true, "editor": true}

// skillVerbs are the verbs of a language skill, which "can" states as a lasting ability ("can speak Polish",
// "can sign BSL"), in the dictionary sense of "can" (be able to, know how to). "write" is left out: its object
// is also a work ("can write Japanese" is no authorship).
var skillVerbs = map[string]bool{"speak": true, "sign": true}

// abilityModal reports a verb group whose only modal is "can" before a verb of a skill.
func (p *ie) abilityModal(vg verbGroup) bool {
	if vg.main < 0 || !skillVerbs[p.toks[vg.main].Lemma] {
		return false
	}
	for k := vg.from; k < vg.main; k++ {
		if p.tag(k) == "MD" && p.low(k) != "can" {
			return false
		}
	}
	return true
}

// personHead reports a noun phrase whose head names a person by a kinship or a role ("sister", "boss",
// "landlord", "CEO"): its possessor is whose they are, and what it is said to be or do is that person's.
func (p *ie) personHead(s phrase) bool {
	head := p.low(s.head)
	return kinRole(head) != "" || personNoun(head)
}

// endsOwnPart reports a verb, with its particle, by which English says that someone's own part ended: dying,
// retiring, resigning, quitting, stepping down, passing away (the own endings the reader reads,
// services/query/endings.go).
func endsOwnPart(lemma, particle string) bool {
	switch lemma {
	case "die", "retire", "resign", "quit":
		return particle == ""
	case "pass":
		return particle == "away" || particle == "on"
	case "step":
		return particle == "down"
	}
	return false
}

// onlyAdverbs reports that the clause from token i on holds nothing but adverbs and punctuation.
func (p *ie) onlyAdverbs(i int) bool {
	for ; i < len(p.toks); i++ {
		if !nlp.IsAdverb(p.tag(i)) && p.tag(i) != "." && p.tag(i) != "," && p.tag(i) != ":" {
			return false
		}
	}
	return true
}

// modifiedHead reports a noun phrase with a modifier before its head other than a determiner or a possessive
// pronoun: "country music", "the wide receiver position" (the value of the head's relation), not "his job".
func (p *ie) modifiedHead(np phrase) bool {
	for i := np.from; i < np.head; i++ {
		if t := p.tag(i); t != "DT" && t != "PRP$" && t != "POS" {
			return true
		}
	}
	return false
}

// homeBeforePrep reports "home" between a verb's particle and its preposition ("moved back home to Cork", "went
// back home to Lagos"): the adverb says where to in general, the preposition's object where.
func (p *ie) homeBeforePrep(k, j int) bool {
	return p.low(k) == "home" && k > j && particleAdverbs[p.low(k-1)] && k+1 < len(p.toks) && (p.tag(k+1) == "IN" || p.tag(k+1) == "TO")
}
