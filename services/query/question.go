package query

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
)

// Question reading: a question is mapped to an entity and a chain of relations from it, with the same
// machinery the extractor reads facts with — pkg/nlp's tokens, parts of speech and lemmas, and pkg/canon's
// relation keys — so that "Where was X born?" asks for the relation the extractor filed "X was born in Y"
// and "Y is X's birthplace" under (born_in).
//
// The entity is found by the caller (a span of the question that names a known subject, see mentions);
// parseQuestion reads the rest of the question outward from it, the way English attaches relations to a
// noun phrase:
//
//   - possessives: "X's employer's founder" → employer, then founder;
//   - "of"-genitives and other prepositions after a relational noun: "the capital of the country of X" → country,
//     capital; a compound without a determiner inside ("head of state", "country of citizenship") is one relation;
//   - relative clauses, with or without a relative word: "the country where X was born", "the university X
//     attended", "the religion to which X belongs", "the company that produced X" (the answer does it: its
//     agent noun, producer), participles "the sport played by X";
//   - the main clause around that noun phrase: "Where was NP born?", "Which country is NP a citizen of?", "Who
//     founded NP?", "NP is led by whom?", copular "What is NP?".
//
// Every relation becomes a relUnit: its content lemmas and the canonical relation keys it may be filed
// under — a verb with the preposition said or implied by the question word ("where" → in, at), a passive
// participle as it is, a doer as its agent noun, a noun phrase as its lemmas — each through canon.RelationKey,
// so alias groups ("birthplace", "born in") meet. Temporal phrases ("before Seattle", "in 2022", "used to",
// "originally", "still") are read apart and say which value of the last relation is asked for.

// qtok is one token of a question.
type qtok struct {
	nlp.Token
	// field is the whitespace field of the question the token is in (mentions are spans of fields).
	field int
	// ent marks tokens of the anchor mention.
	ent bool
	// used marks tokens a reading consumed (temporal phrase, question word, relation).
	used bool
}

// answerKind is the kind of value a question word asks for.
type answerKind int

const (
	kindAny answerKind = iota
	kindPerson
	kindPlace
	kindTime
	kindAmount
)

// timeAsk is what a question asks of time.
type timeAsk struct {
	mode temporal
	// asOf is the end of a period the question names ("in 2022", "in March 2023"): the value then.
	asOf *time.Time
	// before is the text after "before"/"until"/"prior to" ("moving to Seattle"): the answer is the value the
	// slot held before the value this text names (or before the current one when it names none).
	before string
	// after is the text after "after" ("after Portland"): the value that followed the one it names.
	after string
}

// relUnit is one relation of a question's chain, as said and as the keys it may be filed under.
type relUnit struct {
	// said is the relation phrase as written ("was born", "employer", "works for"): embedded for similarity.
	said string
	// words are its content lemmas ("bear"; "capital"; "head", "state").
	words []string
	// keys are the canonical relation keys of the direct reading (the anchor side is the subject), best first.
	keys []string
	// inverse are the keys of the inverse reading: the anchor side is the object and the answer is the
	// subject ("Who founded X?" also as "<someone> founds X"; "What is X the capital of?").
	inverse []string
	// inverseOnly is set when the direct reading is not English for the phrase.
	inverseOnly bool
	// optional marks a type noun that may name no relation of its own ("the country where X was born").
	optional bool
	// field is where the relation was said (its first token's field), for ordering and notes.
	field int
	// joined are the keys of this unit and the one before it read as one relation ("head of government").
	joined []string
	// typ holds the question's type noun lemmas when this is its outermost relation ("Which continent …").
	typ []string
	// parts are the relations of an "of"-compound read as two ("continent of origin": origin, then continent),
	// inner first: tried when the compound as one relation explains nothing.
	parts []relUnit
	// object marks a verb read with an object of its own ("received education"), which a relative clause
	// without a relative word cannot have (its object is the gap).
	object bool
}

// questionParse is a question read outward from an anchor mention.
type questionParse struct {
	// wh is the question word ("who", "where", "how much"), "" for a yes/no question.
	wh   string
	kind answerKind
	// typ holds the lemmas of the noun that names the answer's kind ("city", "company"): "Which city …".
	typ []string
	// units are the relations from the anchor outward.
	units []relUnit
	time  timeAsk
	// loose are content lemmas no reading explained (they still count as relation words, weakly).
	loose []string
}

// Closed classes of English grammar (general English, not any data set's words).
var (
	whWords    = set("who", "whom", "whose", "what", "which", "where", "when", "why", "how")
	beWords    = set("be", "am", "is", "are", "was", "were", "been", "being", "'s", "'re", "'m")
	auxWords   = set("do", "does", "did", "have", "has", "had", "having", "'ve", "'d", "will", "would", "shall", "should", "can", "could", "may", "might", "must", "'ll", "ca", "wo")
	negWords   = set("not", "n't", "never", "no")
	detWords   = set("the", "a", "an", "this", "that", "these", "those", "my", "your", "his", "her", "its", "our", "their", "some", "any", "each", "every")
	prepWords  = set("of", "in", "at", "on", "to", "for", "from", "by", "with", "about", "into", "onto", "over", "under", "near", "as", "within", "inside", "through", "during", "since", "across", "behind", "between", "among", "against", "toward", "towards", "upon", "via")
	relativize = set("that", "which", "who", "whom", "where", "when", "whose")
	// embedVerbs introduce an embedded question ("Do you know where X lives?", "Tell me who …").
	embedVerbs = set("know", "tell", "remember", "recall", "wonder", "say", "remind", "guess", "think", "mind", "show", "explain", "name", "list", "give", "find")
	// lightVerbs carry little meaning with a noun object: the noun is the relation ("holds citizenship", "has
	// its origin", "received education", "do a sport").
	lightVerbs = set("have", "hold", "get", "take", "do", "receive", "possess", "carry", "make", "follow", "keep")
	// typeNouns name kinds of things; as the head of a description ("the country where …", "which city") they
	// say what the answer is rather than which relation leads to it. General English nouns of kinds of places,
	// organizations, people, works and activities.
	typeNouns = set("city", "town", "village", "country", "state", "province", "region", "county", "island", "continent",
		"place", "location", "area", "district", "neighbourhood", "neighborhood", "company", "organization", "organisation",
		"institution", "university", "college", "school", "team", "club", "band", "group", "firm", "business", "network",
		"person", "man", "woman", "people", "artist", "individual", "one", "thing", "album", "book", "film",
		"movie", "show", "song", "language", "sport", "religion", "genre", "label", "date", "day", "year", "month", "time",
		"entity", "body", "party", "agency", "studio", "brand")
	// lightNouns only introduce the noun after them: "the name of the CEO" is the CEO.
	// So do nouns of office before "of": "the position of director" is the director.
	lightNouns = set("name", "type", "kind", "sort", "variety", "form", "position", "role", "post", "office", "title")
	// fillerAdjectives say when or how surely a relation holds, not which: "the current CEO".
	fillerAdjectives = set("current", "present", "new", "latest", "actual", "real", "exact", "main", "usual")
)

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// reWhS is a question word with a bare "s" for "is" ("whats", "Whos", "wheres").
var reWhS = regexp.MustCompile(`\b((?i:what|who|where|when|how))((?i:s))\b`)

// analyzeQuestion tags a question and notes each token's whitespace field.
func analyzeQuestion(q string) []qtok {
	// "whats", "whos", "wheres": chat drops the apostrophe of a question word's "'s" (is), which the tagger then
	// reads as a noun; the apostrophe goes back (no whitespace changes, so fields still match q's).
	norm := reWhS.ReplaceAllString(nlp.Normalize(q), "$1'$2")
	toks := nlp.Analyze(norm)
	// Field boundaries of the normalized text (Normalize changes no whitespace, so fields match q's).
	var starts []int
	in := false
	for i, r := range norm {
		sp := unicode.IsSpace(r)
		if !sp && !in {
			starts = append(starts, i)
		}
		in = !sp
	}
	out := make([]qtok, 0, len(toks))
	f := 0
	for _, t := range toks {
		for f+1 < len(starts) && starts[f+1] <= t.Start {
			f++
		}
		out = append(out, qtok{Token: t, field: f})
	}
	return out
}

// isPunct reports a token of punctuation only.
func isPunct(t qtok) bool {
	for _, r := range t.Text {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// parseQuestion reads q outward from mention m (nil: no anchor; only the question word, time and loose
// relation words are read).
func parseQuestion(q string, m *mention) questionParse {
	return parseTokens(analyzeQuestion(q), m)
}

// parseTokens is parseQuestion over analysed tokens (shared by the readings of one question).
func parseTokens(all []qtok, m *mention) questionParse {
	toks := make([]qtok, 0, len(all))
	for _, t := range all {
		// Quotes and final punctuation carry nothing; commas and the possessive stay.
		if isPunct(t) && t.Text != "," && t.Tag != "POS" && t.Text != "'" {
			continue
		}
		if m != nil && t.field >= m.from && t.field < m.to && t.Tag != "POS" && !isPunct(t) {
			t.ent = true
		}
		toks = append(toks, t)
	}
	toks = dropPositionParticiples(toks)
	toks = nounIdioms(toks)
	toks = freeRelatives(toks)
	toks = whoseClauses(toks)
	toks = inSituAfterVerb(toks)
	toks = whPhraseFirst(toks)
	toks = whereFrom(toks)
	toks = frontStrandedPreposition(toks)
	if i, ref := followUpAt(toks); i > 0 {
		// A second question about the first one's answer ("In which country was X's sport developed, and who
		// is the head of government in that nation?"): the second clause, read with its back reference ("that
		// nation") as its anchor, is one more hop outward from the first clause's answer, and says what is asked.
		first := parseClause(toks[:i])
		rest := slices.Clone(toks[i+2:])
		for j := ref[0]; j < ref[1]; j++ {
			rest[j-i-2].ent = true
		}
		second := parseClause(rest)
		if len(first.units) > 0 && len(second.units) > 0 {
			first.units = append(first.units, second.units...)
			first.wh, first.kind, first.typ = second.wh, second.kind, second.typ
			first.loose = append(first.loose, second.loose...)
			return first
		}
	}
	return parseClause(toks)
}

// parseClause reads one question clause.
func parseClause(toks []qtok) questionParse {
	p := &qparser{t: toks}
	p.readTime()
	p.readWh()
	if a, b, ok := p.anchorSpan(); ok {
		p.readChain(a, b)
	}
	p.readLoose()
	return p.q
}

// positionParticiples say where something is without naming a relation of their own ("located", "situated"):
// closed-class English verbs of position.
var positionParticiples = set("located", "situated")

// dropPositionParticiples drops a position participle between a noun and "of" ("the capital located of the
// country" reads as "the capital of the country"): with "of" after it the participle does not take a place
// ("located in" does, and stays).
func dropPositionParticiples(toks []qtok) []qtok {
	out := toks[:0:0]
	for i, t := range toks {
		if i > 0 && i+1 < len(toks) && positionParticiples[strings.ToLower(t.Text)] && !t.ent &&
			strings.HasPrefix(toks[i-1].Tag, "NN") && strings.EqualFold(toks[i+1].Text, "of") {
			continue
		}
		out = append(out, t)
	}
	return out
}

// frontStrandedPreposition moves to the front the preposition a question about the place of a description
// strands at its end, when the description ends in a clause of its own: "What continent is the city where X
// was born in?", "Which continent is the sport X is associated with on?" ask "In what continent is the city
// where X was born?" — the last "in"/"on" belongs to the main clause's "be" (as in "Which continent is Lund
// on?"), since the relative clause's own place is already said ("where", or a preposition of its own just
// before). Only a question that opens with a question word, a noun and a form of "be" is rewritten.
func frontStrandedPreposition(toks []qtok) []qtok {
	n := len(toks)
	if n < 6 || toks[n-1].ent {
		return toks
	}
	last := strings.ToLower(toks[n-1].Text)
	if last != "in" && last != "on" {
		return toks
	}
	low := func(i int) string { return strings.ToLower(toks[i].Text) }
	if !whWords[low(0)] || !strings.HasPrefix(toks[1].Tag, "NN") || !beWords[low(2)] {
		return toks
	}
	stacked := toks[n-2].Tag == "IN" || toks[n-2].Tag == "RP" || toks[n-2].Tag == "TO"
	where := false
	for i := 3; i < n-1; i++ {
		if low(i) == "where" && !toks[i].ent {
			where = true
		}
	}
	if !stacked && !where || toks[n-2].ent {
		return toks
	}
	out := make([]qtok, 0, n)
	out = append(out, toks[n-1])
	return append(out, toks[:n-1]...)
}

// nounIdiomPhrases are phrases that name a relation by a noun with words after it, each with that noun: a
// "partner in marriage" is a spouse (WordNet's gloss of "spouse"), and whoever is "in charge of" something is its
// head (rules/idioms.go reads statements so).
var nounIdiomPhrases = []struct {
	words []string
	noun  string
}{{[]string{"partner", "in", "marriage"}, "spouse"}, {[]string{"in", "charge"}, "head"}}

// nounIdioms says each phrase of nounIdiomPhrases as its one noun, so that "the partner in marriage of X" reads
// as "the spouse of X".
func nounIdioms(toks []qtok) []qtok {
	out := toks[:0:0]
	for i := 0; i < len(toks); i++ {
		replaced := false
		for _, id := range nounIdiomPhrases {
			if i+len(id.words) > len(toks) {
				continue
			}
			match := true
			for k, w := range id.words {
				if toks[i+k].ent || strings.ToLower(toks[i+k].Text) != w {
					match = false
					break
				}
			}
			if match {
				t := toks[i]
				t.Text, t.Lower, t.Lemma, t.Tag = id.noun, id.noun, id.noun, "NN"
				out = append(out, t)
				i += len(id.words) - 1
				replaced = true
				break
			}
		}
		if !replaced {
			out = append(out, toks[i])
		}
	}
	return out
}

// whPhraseFirst moves to the front a question phrase that chat leaves where its answer would stand, at the end
// of a statement ("germany is on which continent", "the city where X was born is in which country"): the
// question asks what "Which continent is Germany on?" asks. The question phrase is "which" or "what" and the
// nouns after it, ending the question; the verb is the last form of "be" before it, with its subject before it
// (the relative clause of a description keeps its own verb).
func whPhraseFirst(toks []qtok) []qtok {
	n := len(toks)
	low := func(i int) string { return strings.ToLower(toks[i].Text) }
	if n < 4 || whWords[low(0)] || toks[n-1].ent {
		return toks
	}
	w := -1
	for i := n - 2; i >= 2; i-- {
		if (low(i) == "which" || low(i) == "what") && !toks[i].ent {
			w = i
			break
		}
		if !strings.HasPrefix(toks[i+1].Tag, "NN") || toks[i+1].ent {
			return toks
		}
	}
	if w < 0 || !strings.HasPrefix(toks[w+1].Tag, "NN") {
		return toks
	}
	b := -1
	for i := w - 1; i >= 1; i-- {
		if beWords[low(i)] && !toks[i].ent {
			b = i
			break
		}
	}
	if b < 0 {
		return toks
	}
	out := make([]qtok, 0, n)
	out = append(out, toks[w:]...)
	out = append(out, toks[b])
	out = append(out, toks[:b]...)
	return append(out, toks[b+1:w]...)
}

// whereFrom reads "Where is X from?" as "Where does X come from?": being from a place is where one comes from,
// as the relation table keys both (canon: "from" is comes_from). The verb "come" is supplied in place of "be";
// "originally" and the like stay where they were.
func whereFrom(toks []qtok) []qtok {
	n := len(toks)
	low := func(i int) string { return strings.ToLower(toks[i].Text) }
	if n < 4 || low(0) != "where" || !beWords[low(1)] || low(n-1) != "from" || toks[n-1].ent {
		return toks
	}
	aux, tag := "does", "VBZ"
	switch low(1) {
	case "was", "were":
		aux, tag = "did", "VBD"
	case "are", "'re":
		aux, tag = "do", "VBP"
	}
	out := make([]qtok, 0, n+1)
	out = append(out, toks[0], retoken(aux, tag, "do", toks[1]))
	out = append(out, toks[2:n-1]...)
	return append(out, retoken("come", "VB", "come", toks[n-1]), toks[n-1])
}

// backReference are the determiners that point back to something the question already named ("that country",
// "this person", "the same city"): closed-class English.
var backReference = set("that", "this", "same")

// followUpAt finds a follow-up question joined to the first by ", and" and a question word whose clause refers
// back to the first answer with a demonstrative noun phrase: the index of the comma and the token span of the
// reference. It returns 0 when there is none.
func followUpAt(toks []qtok) (int, [2]int) {
	low := func(i int) string { return strings.ToLower(toks[i].Text) }
	for i := 1; i+2 < len(toks); i++ {
		if toks[i].Text != "," || low(i+1) != "and" || !whWords[low(i+2)] || toks[i].ent {
			continue
		}
		for j := i + 3; j+1 < len(toks); j++ {
			if !backReference[low(j)] || toks[j].ent {
				continue
			}
			k := j + 1
			for k < len(toks) && strings.HasPrefix(toks[k].Tag, "NN") {
				k++
			}
			if k > j+1 {
				return i, [2]int{j, k}
			}
		}
		return 0, [2]int{}
	}
	return 0, [2]int{}
}

type qparser struct {
	t []qtok
	q questionParse
	// fronted is a preposition before the question word ("In which city …").
	fronted string
	// whEnd is the index after the question-word phrase (0 when there is none).
	whEnd int
	// whAt is the index of the question word (-1 when there is none).
	whAt int
}

func (p *qparser) low(i int) string {
	if i < 0 || i >= len(p.t) {
		return ""
	}
	return p.t[i].Lower
}

func (p *qparser) isAux(i int) bool {
	w := p.low(i)
	return beWords[w] || auxWords[w]
}

func (p *qparser) isBe(i int) bool { return beWords[p.low(i)] }

func (p *qparser) isPrep(i int) bool {
	if i < 0 || i >= len(p.t) || p.t[i].ent {
		return false
	}
	return prepWords[p.low(i)] || p.t[i].Tag == "IN" && !relativize[p.low(i)] && !whWords[p.low(i)] || p.t[i].Tag == "TO" || p.t[i].Tag == "RP"
}

func (p *qparser) isDet(i int) bool {
	if i < 0 || i >= len(p.t) || p.t[i].ent {
		return false
	}
	return detWords[p.low(i)] && !(p.low(i) == "that" && p.t[i].Tag == "WDT") || p.t[i].Tag == "PRP$"
}

// isNoun reports a token that can be part of a relational noun phrase: common nouns, and capitalized words
// outside the anchor ("CEO"), but no question word, auxiliary or preposition.
func (p *qparser) isNoun(i int) bool {
	if i < 0 || i >= len(p.t) || p.t[i].ent || p.t[i].used {
		return false
	}
	w := p.low(i)
	if whWords[w] || beWords[w] || auxWords[w] || prepWords[w] || detWords[w] || negWords[w] || w == "," || w == "and" || w == "or" {
		return false
	}
	if p.t[i].Tag == "NNS" && i > 0 && nlp.IsNoun(p.t[i-1].Tag) && i+1 < len(p.t) && (prepWords[p.low(i+1)] || detWords[p.low(i+1)]) {
		// "Which city serves as …": after a noun, an -s word before a preposition is the verb.
		if b := nlp.VerbLemma(w); b != w && nlp.ThirdPerson(b) == w {
			return false
		}
	}
	if nlp.IsAdjective(p.t[i].Tag) && i > 0 && (p.low(i-1) == "a" || p.low(i-1) == "an") && (i+1 == len(p.t) || prepWords[p.low(i+1)] || isPunct(p.t[i+1])) {
		// "a national of", "a native of": after "a", an adjective with no noun to modify is itself the noun (a
		// nominalized adjective), as the extractor reads it.
		return true
	}
	return nlp.IsNoun(p.t[i].Tag) || p.t[i].Tag == "VBG" && i > 0 && (p.isDet(i-1) || nlp.IsAdjective(p.t[i-1].Tag))
}

// isAdj reports an adjective (or superlative adverb, "most famous") inside a noun phrase.
func (p *qparser) isAdj(i int) bool {
	if i < 0 || i >= len(p.t) || p.t[i].ent || p.t[i].used {
		return false
	}
	tag := p.t[i].Tag
	return nlp.IsAdjective(tag) || tag == "RBS" || tag == "CD" && !isYear(p.t[i].Text) || p.low(i) == "most" || p.low(i) == "best"
}

// readTime reads and consumes the question's temporal phrases.
func (p *qparser) readTime() {
	t := p.t
	tm := &p.q.time
	clauseEnd := func(from int) int {
		for j := from; j < len(t); j++ {
			if t[j].Text == "," {
				return j
			}
		}
		return len(t)
	}
	text := func(from, to int) string {
		var ws []string
		for j := from; j < to; j++ {
			ws = append(ws, t[j].Text)
		}
		return strings.Join(ws, " ")
	}
	for i := 0; i < len(t); i++ {
		w := t[i].Lower
		switch {
		case w == "before" || w == "until" || w == "till" || w == "prior" && p.low(i+1) == "to":
			from := i + 1
			if w == "prior" {
				from++
			}
			end := clauseEnd(from)
			tm.mode = askFormer
			tm.before = text(from, end)
			for j := i; j < end; j++ {
				t[j].used = true
			}
			i = end
		case (w == "previous" || w == "former" || w == "old" || w == "earlier" || w == "prior" && p.low(i+1) != "to") &&
			i > 0 && i+1 < len(t) && nlp.IsNoun(t[i+1].Tag) && (t[i-1].Lower == "'s" || t[i-1].Lower == "'" || t[i-1].Tag == "PRP$" || t[i-1].Lower == "the"):
			// "What was Pedro's old number?", "his previous employer": the value before the current one.
			if tm.mode == askCurrent && tm.before == "" {
				tm.mode = askFormer
			}
			t[i].used = true
		case w == "after" && i > 0:
			end := clauseEnd(i + 1)
			tm.after = text(i+1, end)
			for j := i; j < end; j++ {
				t[j].used = true
			}
			i = end
		case isYear(t[i].Text):
			// "in 2022", "in March 2022", "back in 2021", "as of 2023", "during 2020".
			year, _ := strconv.Atoi(t[i].Text)
			month := 0
			j := i - 1
			if j >= 0 {
				if mo := monthNumber(t[j].Lower); mo > 0 {
					month = mo
					j--
				}
			}
			for j >= 0 && (prepWords[t[j].Lower] || t[j].Lower == "back" || t[j].Lower == "early" || t[j].Lower == "late" || t[j].Lower == "mid") {
				j--
			}
			for k := j + 1; k <= i; k++ {
				t[k].used = true
			}
			end := time.Date(year+1, 1, 1, 0, 0, 0, 0, time.UTC)
			if month > 0 {
				end = time.Date(year, time.Month(month)+1, 1, 0, 0, 0, 0, time.UTC)
			}
			end = end.Add(-time.Second)
			tm.asOf = &end
		case (w == "used" || w == "use") && p.low(i+1) == "to" && i > 0 && i+2 < len(t) && !t[i+2].ent:
			tm.mode = askFormer
			t[i].used, t[i+1].used = true, true
		case w == "for" && i > 0 && p.pastTense() && p.spanOfTime(i+1):
			// "Where did Kofi work for six years?": a past state that lasted a span is one that has ended, a
			// value before the current one ("Where has Kofi worked for six years?" is in the present perfect).
			if tm.mode == askCurrent && tm.before == "" {
				tm.mode = askFormer
			}
			t[i].used = true
		case w == "going" && p.low(i+1) == "to" && i+2 < len(t) && t[i+2].Tag == "VB" && p.pastTense() && tm.mode == askCurrent && tm.before == "":
			// "Where was Callum's reception going to be held?": a plan in the past tense ("was going to", the
			// future in the past) is one made before, which a later one may have replaced — the former value.
			tm.mode = askFormer
		case w == "previously" || w == "formerly" || w == "earlier" || w == "once" && i > 0:
			tm.mode = askFormer
			t[i].used = true
		case w == "originally" || w == "initially" || w == "at" && p.low(i+1) == "first" || w == "first" && i > 0 && p.low(i-1) == "very":
			if p.originVerbAfter(i) || i > 0 && relativize[p.low(i-1)] {
				// "originally made in", "originally aired by": where a work comes from, not an earlier value; and
				// right after a relative word the adverb is the relative clause's ("the network that originally
				// aired X"), not the question's. Either way it stays in its verb group, unread here.
				continue
			}
			t[i].used = true
			switch {
			case w == "at":
				t[i+1].used = true
			case w == "first":
				t[i-1].used = true
			}
			tm.mode = askEarliest
		case (w == "first" || w == "original") && i > 0 && p.pastTense():
			// "What was Owen's first order?", "What was Hannah's original wedding date?": the earliest value.
			// In the present tense "the original broadcaster of X" names a relation.
			if p.originVerbAfter(i) {
				continue
			}
			tm.mode = askEarliest
			t[i].used = true
		case w == "still" || w == "anymore" || w == "no" && p.low(i+1) == "longer" || w == "any" && p.low(i+1) == "more":
			if tm.mode == askCurrent {
				tm.mode = askChange
			}
			t[i].used = true
			if w == "no" || w == "any" {
				t[i+1].used = true
			}
		case t[i].Lemma == "change" && nlp.IsVerb(t[i].Tag) || w == "changed":
			// "Has Emma's job changed?", "Did Raj change cars?": whether, and how, the value changed.
			if tm.mode == askCurrent {
				tm.mode = askChange
			}
			t[i].used = true
		case w == "now" || w == "currently" || w == "presently" || w == "nowadays" || w == "today" && i > 0 ||
			w == "these" && p.low(i+1) == "days" || w == "right" && p.low(i+1) == "now" ||
			w == "at" && p.low(i+1) == "the" && p.low(i+2) == "moment":
			t[i].used = true
			switch w {
			case "these", "right":
				t[i+1].used = true
			case "at":
				t[i+1].used, t[i+2].used = true, true
			}
		case w == "ever" || w == "actually" || w == "exactly" || w == "again" || w == "please" || w == "also":
			t[i].used = true
		case (w == "move" || w == "moved" || w == "relocate" || w == "relocated") && p.fromAfter(i) && tm.mode == askCurrent && tm.before == "":
			// "Which city did Jonah move from?": the place one moved from is where one lived before.
			tm.mode = askFormer
		}
	}
}

// fromAfter reports "from" after token i, in its clause.
func (p *qparser) fromAfter(i int) bool {
	for j := i + 1; j < len(p.t) && p.t[j].Text != ","; j++ {
		if p.low(j) == "from" {
			return true
		}
	}
	return false
}

// pastTense reports a question asked in the past tense ("What was …", "Who did …").
func (p *qparser) pastTense() bool {
	return slices.ContainsFunc(p.t, pastAuxiliary)
}

// spanUnits are English's units of a span of time, as "for" measures a state's length with them.
var spanUnits = set("year", "years", "month", "months", "week", "weeks", "decade", "decades", "ages", "while", "day", "days")

// spanOfTime reports whether the words from i are a span of time: a count or an article and a unit ("six
// years", "a decade", "a long time", "ages").
func (p *qparser) spanOfTime(i int) bool {
	for j := i; j < len(p.t) && j < i+4; j++ {
		w := p.low(j)
		switch {
		case spanUnits[w] || w == "time" && j > i:
			return true
		case w == "a" || w == "an" || w == "long" || w == "few" || w == "several" || w == "many" || w == "over" ||
			w == "almost" || w == "nearly" || w == "about" || p.t[j].Tag == "CD" || nlp.IsCardinalWord(w):
		default:
			return false
		}
	}
	return false
}

// pastAuxiliary reports an auxiliary of the past tense: "was", "were", "did", "had".
func pastAuxiliary(t qtok) bool {
	switch t.Lower {
	case "was", "were", "did", "had":
		return true
	}
	return false
}

// originVerbs say where a thing comes from: its original maker, language or place is a relation of the
// thing, not an earlier value.
var originVerbs = set("make", "create", "produce", "air", "broadcast", "write", "publish", "come", "found", "establish",
	"develop", "build", "invent", "originate", "form", "release", "record", "compose", "design", "start", "begin")

func (p *qparser) originVerbAfter(i int) bool {
	for j := i + 1; j < len(p.t) && j <= i+3; j++ {
		l := nlp.VerbLemma(p.t[j].Lower)
		if originVerbs[l] || originVerbs[p.t[j].Lemma] || p.t[j].Lower == "language" || p.t[j].Lower == "broadcaster" || p.t[j].Lower == "network" {
			return true
		}
	}
	return false
}

func isYear(s string) bool {
	if len(s) != 4 {
		return false
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 1000 && n <= 2999
}

func monthNumber(w string) int {
	for i, m := range []string{"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"} {
		if w == m || len(w) == 3 && strings.HasPrefix(m, w) && w != "may" && w != "mar" {
			return i + 1
		}
	}
	if w == "may" {
		return 5
	}
	return 0
}

// readWh reads the question word with a fronted preposition, an embedding prefix ("Do you know where …"), a
// quantity ("how much") and a type noun ("which city").
func (p *qparser) readWh() {
	t := p.t
	p.whAt = -1
	at := -1
	for i := range t {
		if t[i].ent || t[i].used {
			continue
		}
		if whWords[t[i].Lower] && !(t[i].Lower == "that") {
			at = i
			break
		}
	}
	if at < 0 {
		// No question word: an imperative ("Tell me X's job", "Name the capital of Y") asks for a value; a
		// yes/no question ("Is Emma still at Google?") for whether it holds.
		if len(t) > 0 && embedVerbs[t[0].Lower] {
			t[0].used = true
			if p.low(1) == "me" || p.low(1) == "us" {
				t[1].used = true
			}
			p.q.wh = "what"
		}
		return
	}
	if at > 0 {
		prefix := false
		for j := 0; j < at; j++ {
			if embedVerbs[t[j].Lower] || t[j].Lower == "you" || t[j].Lower == "me" {
				prefix = true
			}
		}
		start := at
		if at > 0 && p.isPrep(at-1) {
			start = at - 1
		}
		if prefix {
			for j := 0; j < start; j++ {
				t[j].used = true
			}
		}
		if start == at-1 && (prefix || start == 0) {
			p.fronted = t[start].Lower
			t[start].used = true
		}
		if !prefix && start > 0 {
			// Statement order: "X's head of state is who?", "The government of Y is led by whom?".
			p.q.wh = t[at].Lower
			p.whAt = at
			t[at].used = true
			p.q.kind = kindOf(p.q.wh, nil)
			p.whEnd = 0
			return
		}
	}
	p.whAt = at
	t[at].used = true
	wh := t[at].Lower
	j := at + 1
	if wh == "how" && j < len(t) {
		switch t[j].Lower {
		case "much", "many", "old", "long", "far", "often", "tall", "big":
			wh += " " + t[j].Lower
			t[j].used = true
			j++
		}
	}
	if wh == "what" || wh == "which" || wh == "whose" || wh == "how much" || wh == "how many" {
		// The type noun phrase: "which city", "what kind of music", "what type of car".
		k := j
		var typ []string
		for k < len(t) && (p.isNoun(k) || (p.isAdj(k) || t[k].Tag == "VBG") && k+1 < len(t) && p.isNoun(k+1)) && !p.t[k].ent {
			if lightNouns[t[k].Lower] && p.low(k+1) == "of" {
				t[k].used, t[k+1].used = true, true
				k += 2
				continue
			}
			if t[k].Tag == "VBG" {
				// "What running watch …", "Which swimming club …": a gerund before the noun is part of the
				// compound that names the kind, as said.
				typ = append(typ, t[k].Lower)
				t[k].used = true
				k++
				continue
			}
			typ = append(typ, lemmaOf(t[k]))
			t[k].used = true
			k++
			if p.low(k) == "or" && p.isNoun(k+1) {
				// "What city or town …": either names the kind.
				t[k].used = true
				k++
			}
		}
		p.q.typ = typ
		j = k
	}
	p.q.wh = wh
	p.q.kind = kindOf(wh, p.q.typ)
	p.whEnd = j
}

// kindOf is the kind of answer a question word (and its type noun) asks for.
func kindOf(wh string, typ []string) answerKind {
	switch wh {
	case "who", "whom", "whose":
		return kindPerson
	case "where":
		return kindPlace
	case "when":
		return kindTime
	case "how much", "how many", "how old", "how long", "how far", "how often":
		return kindAmount
	}
	for _, w := range typ {
		switch w {
		case "city", "town", "country", "place", "location", "continent", "state", "region", "village", "neighbourhood", "neighborhood":
			return kindPlace
		case "date", "day", "year", "month", "time":
			return kindTime
		case "person", "man", "woman":
			return kindPerson
		}
	}
	return kindAny
}

// anchorSpan returns the token span of the anchor mention.
func (p *qparser) anchorSpan() (int, int, bool) {
	a, b := -1, -1
	for i, t := range p.t {
		if t.ent {
			if a < 0 {
				a = i
			}
			b = i + 1
		}
	}
	return a, b, a >= 0
}

// lemmaOf is a token's lemma for relation matching (see relLemma).
func lemmaOf(t qtok) string {
	if nlp.IsVerb(t.Tag) {
		return relLemma(t.Lemma)
	}
	return relLemma(t.Lower)
}

// readChain reads the relations attached to the anchor span [a, b), outward, then the main clause.
func (p *qparser) readChain(a, b int) {
	s, e := a, b
	for {
		if ns, ne, ok := p.expand(s, e); ok {
			s, e = ns, ne
			continue
		}
		break
	}
	p.mainClause(s, e)
}

// expand applies the first attachment rule that fits the noun phrase [s, e) and returns the larger phrase.
func (p *qparser) expand(s, e int) (int, int, bool) {
	t := p.t
	// Quotes or a comma right around a title are not part of the structure.
	// (1) Possessive: "X's employer", "X's most famous work".
	if e < len(t) && t[e].Tag == "POS" && !t[e].used {
		j := e + 1
		for j < len(t) && t[j].used && !t[j].ent {
			// "Hannah's original wedding date": a time word read already.
			j++
		}
		from := j
		for j < len(t) && (p.isNoun(j) || p.isAdj(j) && p.nounAhead(j)) {
			j++
		}
		if j-from >= 2 && p.verbExpected() && p.restIsEmpty(j) && p.canBeVerb(j-1) {
			// "What religion does Laura Bush's spouse follow?": after "does", the last word is the verb (the
			// tagger read "follow" as a noun).
			j--
		} else if j-from >= 3 && p.verbExpected() && p.restIsEmpty(j) {
			// "Where does X's writer hold citizenship?": the verb after the noun, and its object after it.
			for k := from + 1; k < j-1; k++ {
				if p.t[k].Lower == nlp.VerbLemma(p.t[k].Lower) && p.canBeVerb(k) && (p.t[k].Tag == "VB" || p.t[k].Tag == "VBP" || p.t[k].Tag == "NN") {
					j = k
					break
				}
			}
		}
		// "X's place of birth", "X's country of citizenship": an "of"-compound without a determiner inside
		// is one relational noun, as after "the" (nounPhraseBefore).
		for j > from && j+1 < len(t) && p.low(j) == "of" && !t[j].used && p.isNoun(j+1) && !t[j+1].ent {
			j += 2
			for j < len(t) && p.isNoun(j) && !t[j].ent {
				j++
			}
		}
		if j > from {
			t[e].used = true
			p.addNounUnit(from, j, false)
			return s, j, true
		}
	}
	// (1b) A noun right after a name inside a determiner's phrase: "the Tucson government" is Tucson's
	// government.
	if e < len(t) && s > 0 && p.isDet(s-1) && p.t[s-1].Lower == "the" && p.isNoun(e) && t[s].ent {
		j := e
		for j < len(t) && p.isNoun(j) {
			j++
		}
		p.addNounUnit(e, j, false)
		return s, j, true
	}
	// (2) A relational noun before a preposition: "the capital of X", "the head of state in X", "the CEO at X".
	if s > 0 && p.isPrep(s-1) && !t[s-1].used {
		prep := p.low(s - 1)
		if prep == "of" || prep == "in" || prep == "at" || prep == "for" || prep == "on" {
			if ns, ok := p.nounPhraseBefore(s - 1); ok {
				t[s-1].used = true
				inner := len(p.q.units) - 1
				p.addNounUnitAt(ns, s-1, p.onlyAnchor(s, e))
				if inner >= 0 && len(p.q.units)-1 == inner+1 {
					// "the head of the X government": head and government may be one relation (head_of_government).
					o, in := &p.q.units[inner+1], p.q.units[inner]
					o.joined = dedupe(append(relKeys(joinWords(o.words)+"_of_"+joinWords(in.words), ""), relKeys(joinWords(o.words)+"_"+joinWords(in.words), "")...))
				}
				return p.determinersBefore(ns), e, true
			}
		}
	}
	// (3) A relative clause whose subject is the phrase: "the country where X was born", "the university X
	// attended", "the religion to which X belongs", "the company X works for".
	if s > 0 {
		j := s - 1
		var rel, pied string
		if relativize[p.low(j)] && !t[j].used {
			rel = p.low(j)
			j--
			if j >= 0 && p.isPrep(j) && (rel == "which" || rel == "whom") && !t[j].used {
				pied = p.low(j)
				j--
			}
		}
		if j >= 0 && t[j].Text == "," {
			j--
		}
		if j >= 0 && p.isNoun(j) && (rel != "" || !p.isAuxOrWh(j)) {
			saved := p.snapshot()
			if u, end, ok := p.verbGroup(e, gapFor(rel, pied), false, false, true); ok && (rel != "" || !u.object) {
				hs := p.nounStart(j)
				p.markUsed(j+1, s)
				p.q.units = append(p.q.units, u)
				p.addTypeUnit(hs, j+1)
				return p.determinersBefore(hs), end, true
			}
			p.restore(saved)
		}
	}
	// (4c) "the country whose citizenship is held by [X]": a relation noun after "whose", held (or had, taken)
	// by the phrase — the phrase's own relation (X's citizenship).
	if s > 3 && p.low(s-1) == "by" && !t[s-1].used {
		j := s - 2
		if j >= 0 && nlp.IsVerb(t[j].Tag) && lightVerbs[nlp.VerbLemma(t[j].Lower)] {
			j--
			for j >= 0 && p.isAux(j) {
				j--
			}
			ne := j + 1
			if j >= 0 && p.isNoun(j) {
				ns := p.nounStart(j)
				if ns > 0 && p.low(ns-1) == "whose" && ns > 1 && p.isNoun(ns-2) {
					u := p.nounUnit(ns, ne)
					p.q.units = append(p.q.units, u)
					p.markUsed(ns-1, s)
					hs := p.nounStart(ns - 2)
					p.addTypeUnit(hs, ns-1)
					return p.determinersBefore(hs), e, true
				}
			}
		}
	}
	// (4) A relative clause whose gap is the subject: "the company that produced X", "the person who founded
	// X", "the performer who is the spouse of X" (read by (2) first), "the sport played by X".
	if s > 0 {
		if u, vs, ok := p.verbGroupBefore(s); ok {
			j := vs - 1
			rel := ""
			if j >= 0 && relativize[p.low(j)] && !t[j].used {
				rel = p.low(j)
				j--
			}
			if j >= 0 && t[j].Text == "," {
				j--
			}
			if j >= 0 && p.isNoun(j) && (rel != "" || u.participle) {
				hs := p.nounStart(j)
				if hs >= 2 && p.low(hs-1) == "of" && !t[hs-1].used && p.isNoun(hs-2) && !t[hs-2].ent && !t[hs-2].used {
					// "the style of music performed by X": an "of"-compound without a determiner inside is one
					// noun, the head of the relative clause (as nounPhraseBefore reads "country of origin").
					hs = p.nounStart(hs - 2)
				}
				p.markUsed(j+1, s)
				e = p.roleAfter(&u.unit, e)
				p.q.units = append(p.q.units, u.unit)
				p.addTypeUnit(hs, j+1)
				return p.determinersBefore(hs), e, true
			}
		}
	}
	// (4b) A copular relative clause: "the performer who is [the spouse of X]" — the head noun describes the
	// phrase (a type, or a relation the phrase's value has: optional).
	if s > 1 && p.isBe(s-1) && !t[s-1].used && relativize[p.low(s-2)] && !t[s-2].used {
		j := s - 3
		if j >= 0 && t[j].Text == "," {
			j--
		}
		if j >= 0 && p.isNoun(j) {
			hs := p.nounStart(j)
			p.markUsed(j+1, s)
			p.addTypeUnit(hs, j+1)
			return p.determinersBefore(hs), e, true
		}
	}
	// (5) A noun in apposition before a name: "the album Blood on the Tracks", "the political organization
	// Fatah", "the song collection Back to Black", "the sport of rugby union" (a type noun before "of").
	if s > 0 {
		j := s - 1
		if p.low(j) == "of" && j > 0 && p.isNoun(j-1) && typeNouns[p.t[j-1].Lower] {
			t[j].used = true
			j--
		}
		if j >= 0 && p.isNoun(j) && (j < s-1 || t[s].ent) {
			hs := p.nounStart(j)
			if hs > 0 && p.isDet(hs-1) || hs > 0 && p.isPrep(hs-1) {
				p.addTypeUnit(hs, j+1)
				return p.determinersBefore(hs), e, true
			}
		}
	}
	// Determiners and quotes before the phrase.
	if s > 0 && p.isDet(s-1) && !t[s-1].used {
		t[s-1].used = true
		return s - 1, e, true
	}
	return s, e, false
}

// roleAfter reads a role said with "as" after a relative clause's object ("the person who leads X as CEO"): the
// role's noun is one more key the clause's relation may be filed under, and the phrase ends after it. It returns
// where the phrase ends.
func (p *qparser) roleAfter(u *relUnit, e int) int {
	if e+1 >= len(p.t) || p.low(e) != "as" || p.t[e].used || p.t[e+1].ent || !p.isNoun(e+1) {
		return e
	}
	k := e + 1
	for k < len(p.t) && p.isNoun(k) && !p.t[k].ent {
		k++
	}
	role := p.nounUnit(e+1, k)
	u.keys = dedupe(append(role.keys, u.keys...))
	u.said += " as " + role.said
	p.markUsed(e, k)
	return k
}

// verbExpected reports a question whose auxiliary "do" (or a modal) stands before the anchor: its main verb
// comes after the subject ("What does X's wife do", "Where did the founder of X work").
func (p *qparser) verbExpected() bool {
	for _, t := range p.t {
		if t.ent {
			return false
		}
		if t.Tag == "MD" || nlp.VerbLemma(t.Lower) == "do" && auxWords[t.Lower] {
			return true
		}
	}
	return false
}

// restIsEmpty reports whether nothing but read tokens, prepositions and punctuation follows index j.
func (p *qparser) restIsEmpty(j int) bool {
	for k := j; k < len(p.t); k++ {
		if !p.t[k].used && !p.isPrep(k) && !isPunct(p.t[k]) {
			return false
		}
	}
	return true
}

// canBeVerb reports a word English also uses as a verb: its regular or irregular verb forms are words.
func (p *qparser) canBeVerb(j int) bool {
	w := p.low(j)
	if w == "" || !nlp.Known(w) {
		return false
	}
	return nlp.Known(nlp.PastRegular(w)) || nlp.Known(nlp.ThirdPerson(w)) && nlp.VerbLemma(nlp.ThirdPerson(w)) == w && nlp.Known(nlp.Gerund(w))
}

// onlyUsedBetween reports whether every token of [from, to) was read already (or is a determiner).
func (p *qparser) onlyUsedBetween(from, to int) bool {
	for k := from; k < to; k++ {
		if !p.t[k].used && !p.isDet(k) {
			return false
		}
	}
	return true
}

// onlyAnchor reports whether [s, e) holds nothing but the anchor (and determiners).
func (p *qparser) onlyAnchor(s, e int) bool {
	for k := s; k < e; k++ {
		if !p.t[k].ent && !p.isDet(k) && !isPunct(p.t[k]) {
			return false
		}
	}
	return true
}

func (p *qparser) isAuxOrWh(i int) bool { return p.isAux(i) || whWords[p.low(i)] }

// nounAhead reports a noun after adjectives from i.
func (p *qparser) nounAhead(i int) bool {
	for j := i; j < len(p.t); j++ {
		if p.isNoun(j) {
			return true
		}
		if !p.isAdj(j) {
			return false
		}
	}
	return false
}

// nounStart returns where the noun phrase ending at noun j starts (adjectives and nouns before it).
func (p *qparser) nounStart(j int) int {
	for j > 0 && (p.isNoun(j-1) || p.isAdj(j-1)) {
		j--
	}
	return j
}

// determinersBefore extends a phrase start over determiners before it.
func (p *qparser) determinersBefore(s int) int {
	for s > 0 && p.isDet(s-1) && !p.t[s-1].used {
		p.t[s-1].used = true
		s--
	}
	return s
}

// nounPhraseBefore returns the start of a relational noun phrase ending just before index end: nouns and
// adjectives, and inner "of"-compounds without a determiner ("head of state", "country of origin").
func (p *qparser) nounPhraseBefore(end int) (int, bool) {
	j := end - 1
	if !p.isNoun(j) {
		return 0, false
	}
	j = p.nounStart(j)
	for j >= 2 && p.low(j-1) == "of" && !p.t[j-1].used && p.isNoun(j-2) && !lightNouns[p.low(j-2)] {
		j = p.nounStart(j - 2)
	}
	// "the name of the CEO of X": a light noun before "of" adds nothing.
	return j, true
}

// snapshot and restore save and put back which tokens are used, for a reading tried and given up.
func (p *qparser) snapshot() []bool {
	out := make([]bool, len(p.t))
	for i, t := range p.t {
		out[i] = t.used
	}
	return out
}

func (p *qparser) restore(used []bool) {
	for i := range p.t {
		p.t[i].used = used[i]
	}
}

// markUsed marks tokens [from, to) used.
func (p *qparser) markUsed(from, to int) {
	for k := max(from, 0); k < to && k < len(p.t); k++ {
		p.t[k].used = true
	}
}

// gapFor says which preposition the gap of a relative clause stands for: "where" a place (in, at), "when" a
// time (on, in), a preposition before "which" itself; "" for an object or a stranded preposition.
func gapFor(rel, pied string) []string {
	switch {
	case pied != "":
		return []string{pied}
	case rel == "where":
		return []string{"in", "at"}
	case rel == "when":
		return []string{"on", "in"}
	}
	return nil
}

// vgUnit is a verb group read as a relation.
type vgUnit struct {
	unit relUnit
	// participle marks a participle phrase ("played by X", "associated with X").
	participle bool
}

// verbGroup reads a relation phrase starting at i — auxiliaries, then a verb with its particle or
// preposition, a participle or adjective with its preposition, a light verb with its noun, or a predicate
// noun ("a citizen of") — with gap the prepositions a question word implies. subjectIsAnswer says the answer
// is the subject of this phrase.
func (p *qparser) verbGroup(i int, gap []string, subjectIsAnswer, beAux, inClause bool) (relUnit, int, bool) {
	t := p.t
	j := i
	copula := beAux
	for j < len(t) && !t[j].ent && (p.isAux(j) && !p.mainVerbAt(j) || negWords[p.low(j)] || t[j].used && !t[j].ent || nlp.IsAdverb(t[j].Tag) && !p.isPrep(j) && p.low(j) != "most" && p.low(j) != "best") {
		if p.isBe(j) || p.low(j) == "become" {
			copula = true
		}
		j++
	}
	if j >= len(t) || t[j].ent {
		return relUnit{}, i, false
	}
	start := j
	// Idioms first: "pass away", "do for a living", "tie the knot".
	if id, n := matchIdiom(t[j:]); n > 0 && (!id.untyped || len(p.q.typ) == 0 || workTypes[p.q.typ[len(p.q.typ)-1]]) {
		u := p.unitFromIdiom(id, j, j+n, gap, subjectIsAnswer)
		p.markUsed(i, j+n)
		return u, j + n, true
	}
	// A predicate noun: "a citizen of", "the parent of", "the capital of".
	if copula && (p.isDet(j) || (p.isNoun(j) || p.isAdj(j) && p.nounAhead(j)) && nlp.VerbLemma(t[j].Lower) == t[j].Lower) && !nlp.IsVerb(t[j].Tag) {
		// (A noun that is a verb form — "born" tagged NN after a subject — is the participle.)
		definite := p.low(j) == "the" || t[j].Tag == "PRP$"
		k := j
		for k < len(t) && p.isDet(k) {
			k++
		}
		ns := k
		for k < len(t) && (p.isNoun(k) || p.isAdj(k) && p.nounAhead(k)) {
			k++
		}
		if k > ns {
			prep := ""
			if k < len(t) && p.isPrep(k) && !t[k].ent {
				prep = p.low(k)
				k++
			}
			u := p.nounUnit(ns, nounEnd(p, ns, k, prep))
			if prep != "" && prep != "of" || prep == "of" && !definite {
				// "a citizen of", "a member of", "based in": the relation with its preposition.
				u.keys = prepend(relKeys(joinWords(u.words)+"_"+prep, u.said+" "+prep), u.keys)
			}
			if definite && prep == "of" {
				// "X is the capital of Y": filed under Y (the extractor reads it so); asked "What is X the capital
				// of?" the answer is the subject of Y's capital, which is X's inverse.
				u.inverse, u.keys, u.inverseOnly = u.keys, nil, true
			}
			p.markUsed(i, k)
			return u, k, true
		}
	}
	if !p.contentAt(j) {
		return relUnit{}, i, false
	}
	// A verb, participle or adjective: the tagger confuses verbs after a subject with nouns ("play/NN"), so any
	// content word here is read as the relation's head.
	head := t[j]
	k := j + 1
	lemma := nlp.VerbLemma(head.Lower)
	if nlp.IsVerb(head.Tag) && head.Lemma != "" {
		lemma = head.Lemma
	}
	participle := copula && (head.Tag == "VBN" || head.Tag == "VBD" || nlp.IsAdjective(head.Tag) || strings.HasSuffix(head.Lower, "ed") || head.Lower != lemma && !strings.HasSuffix(head.Lower, "ing")) ||
		!copula && head.Tag == "VBN" && j == i && i > 0 && p.isNoun(i-1)
	if copula && strings.HasSuffix(head.Lower, "ing") && nlp.IsVerb(head.Tag) {
		// Progressive: "is dating", "is living in".
		participle = false
	}
	// A light verb's noun: "holds (a) citizenship", "has its origin", "received education".
	if lightVerbs[lemma] && !participle {
		n := k
		for n < len(t) && p.isDet(n) {
			n++
		}
		ns := n
		for n < len(t) && (p.isNoun(n) || p.isAdj(n) && p.nounAhead(n)) {
			n++
		}
		if n > ns {
			prep := ""
			if n < len(t) && p.isPrep(n) && !t[n].ent {
				prep = p.low(n)
				n++
			}
			u := p.nounUnit(ns, nounEnd(p, ns, n, prep))
			if prep != "" {
				u.keys = append(u.keys, relKeys(joinWords(u.words)+"_"+prep, "")...)
			}
			if prep == "" || prep == "as" {
				// "Where does X have a job (as director)?": the preposition the question word stands for ("at",
				// "in") is the noun's ("a job at": where one works), after the noun's own relation.
				for _, g := range gap {
					u.keys = append(u.keys, relKeys(joinWords(u.words)+"_"+g, "")...)
				}
			}
			u.said = strings.TrimSpace(head.Text + " " + u.said)
			u.field = head.field
			u.object = true
			p.markUsed(i, n)
			return u, n, true
		}
	}
	// Particles and prepositions after the verb: "works for", "come from", "signed to", "pass away".
	var preps []string
	for k < len(t) && (p.isPrep(k) || t[k].Tag == "RP") && !t[k].ent && !t[k].used {
		preps = append(preps, p.low(k))
		k++
	}
	// An object noun the relation names ("What sport does X play" has none here; "Which school does Leo go
	// to" neither; "Who does X work for" neither). "Where does X spend the summer" has one: summer.
	var obj []string
	if len(preps) == 0 && (!inClause || p.isDet(k)) {
		// In a relative clause the object is usually the gap: a noun right after the verb is the next clause's
		// ("the country where the sport originated come from" — a tagger's "come"/NN), unless a determiner
		// introduces it.
		n := k
		for n < len(t) && p.isDet(n) {
			n++
		}
		for n < len(t) && (p.isNoun(n) || p.isAdj(n) && p.nounAhead(n)) {
			obj = append(obj, lemmaOf(t[n]))
			n++
		}
		if len(obj) > 0 {
			k = n
			for k < len(t) && p.isPrep(k) && !t[k].ent && !t[k].used {
				preps = append(preps, p.low(k))
				k++
			}
		}
	}
	said := make([]string, 0, k-start)
	for x := start; x < k; x++ {
		if !t[x].used || x == start {
			said = append(said, t[x].Text)
		}
	}
	if copula && participle && len(preps) == 0 && (lemma == "call" || lemma == "name") {
		// "What are X's cats called?": naming asks for the thing itself, not a relation.
		p.markUsed(i, k)
		return relUnit{}, k, false
	}
	u := verbUnit(lemma, head.Lower, participle, preps, gap, obj, subjectIsAnswer)
	u.object = len(obj) > 0
	u.said = strings.Join(said, " ")
	u.field = head.field
	p.markUsed(i, k)
	return u, k, true
}

// mainVerbAt reports a form of "do" or "have" that is the clause's own verb, not an auxiliary: nothing
// verbal follows it ("What does X do for a living", "has its origin").
func (p *qparser) mainVerbAt(j int) bool {
	if !auxWords[p.low(j)] || p.t[j].Tag == "MD" {
		return false
	}
	switch nlp.VerbLemma(p.low(j)) {
	case "do", "have":
	default:
		return false
	}
	for k := j + 1; k < len(p.t); k++ {
		if p.t[k].used && !p.t[k].ent || negWords[p.low(k)] || nlp.IsAdverb(p.t[k].Tag) && !p.isPrep(k) {
			continue
		}
		if p.t[k].ent {
			return false
		}
		return !(nlp.IsVerb(p.t[k].Tag) || p.isAux(k) || nlp.IsProper(p.t[k].Tag) || p.low(k) == "i" || p.low(k) == "you" || p.low(k) == "he" || p.low(k) == "she" || p.low(k) == "they" || p.low(k) == "we" || p.low(k) == "it")
	}
	return true
}

// contentAt reports a word that can head a relation phrase.
func (p *qparser) contentAt(j int) bool {
	if j >= len(p.t) || p.t[j].ent {
		return false
	}
	w := p.low(j)
	if whWords[w] || detWords[w] || w == "," || w == "and" || w == "or" || isPunct(p.t[j]) {
		return false
	}
	if prepWords[w] && !nlp.IsVerb(p.t[j].Tag) {
		return false
	}
	return true
}

// nounEnd drops a trailing preposition from a noun phrase's end.
func nounEnd(_ *qparser, _, k int, prep string) int {
	if prep != "" {
		return k - 1
	}
	return k
}

// verbGroupBefore reads a subject-gap relation ending just before s: "produced X" (active: the answer is the
// doer), "played by X", "associated with X" (participles: the noun before it is their subject).
func (p *qparser) verbGroupBefore(s int) (vgUnit, int, bool) {
	t := p.t
	j := s - 1
	var preps []string
	for j >= 0 && p.isPrep(j) && !t[j].used {
		preps = append([]string{p.low(j)}, preps...)
		j--
	}
	// Optional object-less adverb ("originally aired").
	if j < 0 || t[j].ent || t[j].used {
		return vgUnit{}, 0, false
	}
	head := t[j]
	// "the country that gave rise to X": X originated there (a converse idiom of English).
	if j >= 1 && len(preps) == 1 && preps[0] == "to" && p.low(j) == "rise" && nlp.VerbLemma(p.low(j-1)) == "give" {
		u := verbUnit("originate", "originated", true, nil, []string{"in", "from"}, nil, false)
		u.said = p.t[j-1].Text + " rise to"
		u.field = p.t[j-1].field
		return vgUnit{unit: u, participle: true}, j - 1, true
	}
	if !nlp.IsVerb(head.Tag) || p.isAux(j) {
		return vgUnit{}, 0, false
	}
	vs := j
	for vs > 0 && (nlp.IsAdverb(t[vs-1].Tag) || p.isAux(vs-1) || negWords[p.low(vs-1)]) && !t[vs-1].used && !relativize[p.low(vs-1)] {
		vs--
	}
	lemma := head.Lemma
	if lemma == "" {
		lemma = nlp.VerbLemma(head.Lower)
	}
	// A past form right after a noun and before its preposition, with no subject between, is a participle the
	// tagger read as a past tense: "the sport tied to X", "the person married to X" (a reduced relative clause).
	reduced := head.Tag == "VBD" && vs == j && j > 0 && p.isNoun(j-1) && !t[j-1].ent && len(preps) > 0
	participle := head.Tag == "VBN" && (vs == j || p.isBe(vs)) || head.Tag == "VBD" && vs < j && p.isBe(vs) || reduced
	var u relUnit
	if participle && len(preps) > 0 && preps[len(preps)-1] == "by" {
		// "the sport played by X": X plays it — the anchor's own relation.
		u = verbUnit(lemma, head.Lower, false, preps[:len(preps)-1], nil, nil, false)
	} else if participle {
		// "the sport associated with X", "the city located in X": the noun is the participle's subject; the
		// relation may be filed either way.
		u = verbUnit(lemma, head.Lower, true, preps, nil, nil, false)
		u.inverse = append(u.inverse, u.keys...)
	} else {
		u = verbUnit(lemma, head.Lower, false, preps, nil, nil, true)
	}
	var said []string
	for x := vs; x < s; x++ {
		said = append(said, t[x].Text)
	}
	u.said = strings.Join(said, " ")
	u.field = head.field
	return vgUnit{unit: u, participle: participle}, vs, true
}

// mainClause reads the relation the question's main clause puts on the noun phrase [s, e).
func (p *qparser) mainClause(s, e int) {
	t := p.t
	gap := gapFor(p.q.wh, "")
	if p.fronted != "" {
		gap = []string{p.fronted}
	}
	// Between the question word and the phrase: auxiliaries (the phrase is the subject: "Where was X born?"),
	// or a verb whose subject is the answer ("Who founded X?", "Which company made X?", "Which sport is
	// associated with X?").
	beAux := false
	from := p.whEnd
	if p.whAt < 0 || p.whAt > e {
		from = 0
	}
	for j := from; j < s; j++ {
		if t[j].used || isPunct(t[j]) || negWords[p.low(j)] {
			continue
		}
		if p.isAux(j) {
			beAux = beAux || p.isBe(j)
			t[j].used = true
			continue
		}
		if u, ok := p.subjectVerb(j, s, e, beAux); ok {
			p.q.units = append(p.q.units, u)
		}
		break
	}
	// After the phrase (and an apposition: ", a sports competition,"): the verb group whose subject the
	// phrase is.
	k := e
	for k < len(t) && (t[k].used || isPunct(t[k]) && t[k].Text != ",") {
		k++
	}
	if k < len(t) && t[k].Text == "," {
		n := k + 1
		for n < len(t) && (p.isDet(n) || p.isNoun(n) || p.isAdj(n)) {
			n++
		}
		if n < len(t) && t[n].Text == "," {
			p.markUsed(k, n+1)
			k = n + 1
		} else {
			t[k].used = true
			k++
		}
	}
	for k < len(t) && (t[k].used || isPunct(t[k])) {
		k++
	}
	if k >= len(t) {
		p.copularPlace(k, beAux)
		return
	}
	subjGap := false
	if p.whAt > e {
		// Statement order ending in the question word: "… is led by whom", "… is who".
		gap = nil
		subjGap = p.low(p.whAt-1) == "by"
	}
	u, _, ok := p.verbGroup(k, gap, false, beAux, false)
	if !ok {
		p.copularPlace(k, beAux)
		return
	}
	if subjGap {
		u = passiveAgent(u)
	}
	if len(p.q.typ) > 0 && !u.inverseOnly {
		// "What sport does X play?", "How much rent does X pay?": the type noun may be the relation itself
		// ("X's sport is …") or the verb's object ("plays_sport").
		typKey := strings.Join(p.q.typ, "_")
		u.keys = append(u.keys, relKeys(typKey, strings.Join(p.q.typ, " "))...)
		if len(u.words) > 0 {
			u.keys = append(u.keys, relKeys(nlp.ThirdPerson(u.words[0])+"_"+typKey, "")...)
		}
		u.keys = dedupe(u.keys)
	}
	if len(p.q.typ) == 0 && len(u.words) == 1 && u.words[0] == "play" && !u.inverseOnly {
		// "What does X play?": a statement of what one plays is filed by the kind of thing played — a sport,
		// a playing position, a genre (rules/kinds.go) — each a relation of its own.
		u.keys = dedupe(append(u.keys, "position", "sport", "genre"))
	}
	u.typ = p.q.typ
	p.q.units = append(p.q.units, u)
}

// kindAttributes are the attributes English names by the kind of thing their value is — one's sport, one's
// religion, one's genre of music (the extractor keys "is part of the sport of cricket" so, rules/kinds.go) —
// which "What sport is …?" asks of a description.
var kindAttributes = set("sport", "religion", "genre")

// copularPlace reads "What continent is X on?", "On which continent is X?", "Which country is X in?": a
// copula with nothing after the subject but a preposition (stranded, or before the question word) asks where
// X is — the type noun's relation, or "located in".
func (p *qparser) copularPlace(k int, beAux bool) {
	if beAux && len(p.q.typ) == 0 && len(p.q.units) == 0 && p.q.wh == "where" && p.fronted == "" && p.restIsEmpty(k) {
		// "Where is Ana?", "Where's Bogdan's mum these days?" (when "Bogdan's mum" is a subject of its own):
		// "where" and a copula before a subject alone ask where it is — where a person lives, where a thing
		// is. A relational noun before it ("Where is Tom's wedding?", "Bogdan's office") names the place
		// itself, its slot's value.
		u := relUnit{said: "where", words: []string{"where"}, optional: true}
		for _, k := range []string{"located_in", "lives_in", "located_at", "is_in"} {
			u.keys = append(u.keys, relKeys(k, "")...)
		}
		u.keys = dedupe(u.keys)
		u.field = p.t[min(k, len(p.t)-1)].field
		p.q.units = append(p.q.units, u)
		return
	}
	if !beAux || len(p.q.typ) == 0 {
		return
	}
	prep := p.fronted
	if k < len(p.t) && p.isPrep(k) && !p.t[k].used {
		prep = p.low(k)
		p.t[k].used = true
		if !p.restIsEmpty(k + 1) {
			return
		}
	}
	if prep == "" {
		if len(p.q.typ) == 1 && kindAttributes[p.q.typ[0]] && len(p.q.units) > 0 && p.restIsEmpty(k) &&
			p.isBe(p.whEnd) && p.whEnd+1 < len(p.t) && (p.isDet(p.whEnd+1) || p.t[p.whEnd+1].ent) {
			// "What sport is the position X plays?": the kind asked of a description is its attribute of
			// that name (optional: the description may already be of that kind).
			u := relUnit{said: p.q.typ[0], words: []string{p.q.typ[0]}, keys: relKeys(p.q.typ[0], ""), typ: p.q.typ, optional: true}
			u.field = p.t[min(k, len(p.t)-1)].field
			p.q.units = append(p.q.units, u)
		}
		return
	}
	typ := joinWords(p.q.typ)
	// Optional: when the description already names a thing of that kind ("In which city is the capital of
	// X?"), there is nothing more to look up.
	u := relUnit{said: prep + " " + strings.Join(p.q.typ, " "), words: append([]string(nil), p.q.typ...), typ: p.q.typ, optional: true}
	u.keys = dedupe(append(append(relKeys("located_"+prep, ""), relKeys("is_"+prep, "")...), relKeys(typ, "")...))
	if k < len(p.t) {
		u.field = p.t[min(k, len(p.t)-1)].field
	}
	p.q.units = append(p.q.units, u)
}

// subjectVerb reads the verb group from j up to the phrase at s when the answer is its subject: "Who founded
// X" → X's founder (or the inverse of "founds"), "Which sport is associated with X" (a participle after "is":
// filed either way), "Which city serves as the capital of X" (the capital was read by the phrase; "serves
// as" adds nothing).
func (p *qparser) subjectVerb(j, s, e int, beAux bool) (relUnit, bool) {
	t := p.t
	for j < s && (t[j].used || nlp.IsAdverb(t[j].Tag) && !p.isPrep(j)) {
		j++
	}
	if j >= s || !p.contentAt(j) {
		return relUnit{}, false
	}
	if id, n := matchIdiom(t[j:s]); n > 0 && id.verb != "" && !id.passive {
		// "Who set up X" is who founded it.
		u := p.unitFromIdiom(id, j, j+n, nil, true)
		p.markUsed(j, j+n)
		return u, true
	}
	lemma := t[j].Lemma
	if !nlp.IsVerb(t[j].Tag) || lemma == "" {
		lemma = nlp.VerbLemma(t[j].Lower)
	}
	if copularVerbs[lemma] || lightVerbs[lemma] && p.onlyUsedBetween(j+1, s) && !p.onlyAnchor(s, e) {
		// "Which city serves as the capital of X", "Who holds the position of director at X": the phrase
		// names the relation; the verb adds nothing.
		p.markUsed(j, s)
		return relUnit{}, false
	}
	k := j + 1
	var preps []string
	for k < s && p.isPrep(k) && !t[k].used {
		preps = append(preps, p.low(k))
		k++
	}
	var said []string
	for x := j; x < k; x++ {
		said = append(said, t[x].Text)
	}
	participle := beAux && (t[j].Tag == "VBN" || t[j].Tag == "VBD" || nlp.IsAdjective(t[j].Tag))
	u := verbUnit(lemma, t[j].Lower, participle, preps, nil, nil, !participle)
	if participle {
		u.inverse = append(u.inverse, u.keys...)
	}
	u.said = strings.Join(said, " ")
	u.field = t[j].field
	p.markUsed(j, k)
	return u, true
}

// copularVerbs link a subject to a description without naming a relation ("serves as the capital of").
var copularVerbs = set("be", "serve", "act", "function", "remain", "become", "count", "stand")

// passiveAgent turns "is led by whom" into the doer's relation: the agent noun (leader) and "led_by".
func passiveAgent(u relUnit) relUnit {
	if len(u.words) == 0 {
		return u
	}
	v := u.words[0]
	keys := relKeys(nlp.AgentNoun(v), "")
	u.keys = dedupe(append(keys, u.keys...))
	return u
}

// addNounUnit adds a relational noun phrase [from, to) as a unit (light nouns and fillers dropped).
func (p *qparser) addNounUnit(from, to int, optional bool) {
	u := p.nounUnit(from, to)
	if len(u.words) == 0 {
		return
	}
	u.optional = optional || len(u.words) > 0 && typeNouns[u.words[len(u.words)-1]] && !strings.Contains(u.said, " of ") && p.adjectivesOnly(from, to)
	p.q.units = append(p.q.units, u)
	p.markUsed(from, to)
}

// addNounUnitAt adds the noun phrase from ns up to the preposition at end.
func (p *qparser) addNounUnitAt(ns, end int, anchorOnly bool) {
	if lightNouns[p.low(ns)] && ns+1 == end {
		p.markUsed(ns, end)
		return
	}
	n := len(p.q.units)
	p.addNounUnit(ns, end, false)
	if len(p.q.units) > n && !anchorOnly {
		// "the language of the work …", "the capital of the country …": a type noun with "of" after a
		// description is that description's relation, not a kind; only "the city of London" is apposition.
		p.q.units[n].optional = false
	}
}

// addTypeUnit adds the head noun of a description as an optional unit ("the country where …").
func (p *qparser) addTypeUnit(from, to int) {
	u := p.nounUnit(from, to)
	p.markUsed(from, to)
	if len(u.words) == 0 {
		return
	}
	u.optional = true
	p.q.units = append(p.q.units, u)
}

// adjectivesOnly reports a phrase whose words before its last are adjectives ("political organization").
func (p *qparser) adjectivesOnly(from, to int) bool {
	for k := from; k < to-1; k++ {
		if !p.isDet(k) && !p.isAdj(k) {
			return false
		}
	}
	return true
}

// nounUnit builds the unit of a relational noun phrase [from, to): its lemmas, and keys from the whole
// phrase, the phrase without filler adjectives, and its head.
func (p *qparser) nounUnit(from, to int) relUnit {
	var words, said, lower []string
	for k := from; k < to && k < len(p.t); k++ {
		t := p.t[k]
		if p.isDet(k) || t.Tag == "POS" {
			continue
		}
		said = append(said, t.Text)
		if t.Lower == "of" {
			lower = append(lower, "of")
			continue
		}
		if lightNouns[t.Lower] && k+1 < to && p.low(k+1) == "of" {
			continue
		}
		if alts := strings.Split(t.Lower, "/"); len(alts) > 1 {
			// "director/manager": either.
			for _, a := range alts {
				if a != "" {
					words = append(words, relLemma(a))
					lower = append(lower, a)
				}
			}
			continue
		}
		l := lemmaOf(t)
		lower = append(lower, strings.ToLower(t.Text))
		if fillerAdjectives[t.Lower] {
			continue
		}
		words = append(words, l)
	}
	u := relUnit{said: strings.Join(said, " "), words: dropOf(words)}
	if from < len(p.t) {
		u.field = p.t[from].field
	}
	// Keys: the phrase as said ("most famous work", "head of state"), its lemmas ("children" → child), without
	// fillers, then its head: the last noun after a type or light noun before "of" ("country of citizenship" →
	// citizenship), else the first ("head of state" → head).
	u.keys = relKeys(strings.Join(lower, "_"), u.said)
	u.keys = append(u.keys, relKeys(strings.Join(lemmasWithOf(p, from, to), "_"), "")...)
	for _, w := range lower {
		if w != "of" && strings.Contains(u.said, "/") {
			u.keys = append(u.keys, relKeys(w, "")...)
		}
	}
	if len(u.words) > 1 {
		// The head of an English compound is its last noun ("head coach", "record label"), of an
		// "of"-compound its first ("head of state") unless that is a type noun ("country of citizenship"). A
		// type noun as head leaves the relation to its modifier ("capital city", "wedding date").
		first, last := u.words[0], u.words[len(u.words)-1]
		head := last
		if indexOf(lower, "of") > 0 && !typeNouns[first] && !lightNouns[first] {
			head = first
		}
		u.keys = append(u.keys, relKeys(head, "")...)
		if typeNouns[head] || head == "title" || head == "name" {
			for _, w := range u.words[:len(u.words)-1] {
				u.keys = append(u.keys, relKeys(w, "")...)
			}
		}
	}
	u.keys = dedupe(u.keys)
	if of := p.innerOf(from, to); of > from && of+1 < to {
		inner, outer := p.nounUnit(of+1, to), p.nounUnit(from, of)
		// "country of origin" as two: the origin, then its country — a kind, which may name no relation.
		outer.optional = len(outer.words) == 1 && typeNouns[outer.words[0]]
		if len(inner.words) > 0 && len(outer.words) > 0 {
			u.parts = []relUnit{inner, outer}
		}
	}
	return u
}

// innerOf returns the index of the last "of" inside [from, to), or -1.
func (p *qparser) innerOf(from, to int) int {
	for k := to - 1; k > from; k-- {
		if p.low(k) == "of" {
			return k
		}
	}
	return -1
}

// lemmasWithOf returns the lemmas of [from, to) without determiners and fillers, "of" kept.
func lemmasWithOf(p *qparser, from, to int) []string {
	var out []string
	for k := from; k < to && k < len(p.t); k++ {
		t := p.t[k]
		if p.isDet(k) || t.Tag == "POS" || fillerAdjectives[t.Lower] {
			continue
		}
		if t.Lower == "of" {
			out = append(out, "of")
			continue
		}
		l := t.Lower
		if t.Tag == "NNS" || t.Tag == "NNPS" {
			l = nlp.Lemma(t.Text, "NNS")
		}
		out = append(out, l)
	}
	return out
}

func dropOf(ws []string) []string {
	out := ws[:0]
	for _, w := range ws {
		if w != "of" && w != "" {
			out = append(out, w)
		}
	}
	return out
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// verbUnit builds the unit of a verb (lemma; form as written): a participle keeps its form ("born_in"), an
// active verb takes the third person ("lives_in"), the preposition said or else those the question word
// implies. subjectIsAnswer reads "Who founded X": X's agent-noun relation (founder), "founded_by", or the
// inverse of "founds".
func verbUnit(lemma, form string, participle bool, preps, gap, obj []string, subjectIsAnswer bool) relUnit {
	u := relUnit{words: []string{relLemma(lemma)}}
	if len(obj) > 0 {
		u.words = append(u.words, obj...)
	}
	base := nlp.ThirdPerson(lemma)
	if participle {
		base = form
	}
	explicit := strings.Join(preps, "_")
	var keys []string
	addWith := func(b string) {
		switch {
		case explicit != "":
			keys = append(keys, relKeys(b+"_"+explicit, "")...)
			if len(preps) > 1 {
				keys = append(keys, relKeys(b+"_"+preps[len(preps)-1], "")...)
			}
		default:
			for _, g := range gap {
				keys = append(keys, relKeys(b+"_"+g, "")...)
			}
		}
		keys = append(keys, relKeys(b, "")...)
	}
	if subjectIsAnswer {
		// The answer does it: "Who wrote X" → X's writer (author). A verb with a preposition ("Who lives in
		// X") has no doer noun; only its inverse reading.
		if a := nlp.AgentNoun(lemma); a != "" && explicit == "" {
			keys = append(keys, relKeys(a, "")...)
		}
		if pr := nlp.PastRegular(lemma); nlp.Known(pr) && explicit == "" {
			keys = append(keys, relKeys(pr+"_by", "")...)
		}
		if form != lemma && form != base && explicit == "" {
			keys = append(keys, relKeys(form+"_by", "")...)
		}
		var inv []string
		if explicit != "" {
			inv = append(inv, relKeys(base+"_"+explicit, "")...)
		}
		inv = append(inv, relKeys(base, "")...)
		for _, o := range obj {
			inv = append(inv, relKeys(base+"_"+o, "")...)
		}
		u.keys, u.inverse = dedupe(keys), dedupe(inv)
		return u
	}
	if explicit == "by" && participle {
		// "was founded by", "is led by": the doer's agent noun.
		if a := nlp.AgentNoun(lemma); a != "" {
			keys = append(keys, relKeys(a, "")...)
		}
	}
	addWith(base)
	if participle && base != lemma {
		// "located in" and "lies in" alike: also the active form.
		addWith(nlp.ThirdPerson(lemma))
	}
	for _, o := range obj {
		keys = append(keys, relKeys(o, "")...)
		keys = append(keys, relKeys(base+"_"+o, "")...)
	}
	u.keys = dedupe(keys)
	return u
}

// relKeys returns the canonical relation keys of a key and of a phrase as said (canon.PredicateKey), through
// the alias groups (canon.RelationKey). Empty inputs give none.
func relKeys(key, said string) []string {
	var out []string
	if key = strings.Trim(key, "_"); key != "" {
		out = append(out, canon.RelationKey(canon.PredicateKey(strings.ReplaceAll(key, "_", " "))))
		out = append(out, canon.RelationKey(key))
	}
	if said != "" {
		if k := canon.PredicateKey(said); k != "" {
			out = append(out, canon.RelationKey(k))
		}
	}
	return dedupe(out)
}

func prepend(front, rest []string) []string {
	return dedupe(append(append([]string{}, front...), rest...))
}

func joinWords(ws []string) string { return strings.Join(ws, "_") }

// readLoose collects the content lemmas no reading explained.
func (p *qparser) readLoose() {
	for i, t := range p.t {
		if t.used || t.ent || isPunct(t) {
			continue
		}
		w := t.Lower
		if whWords[w] || beWords[w] || auxWords[w] || prepWords[w] || detWords[w] || negWords[w] || stopwords[w] {
			continue
		}
		if nlp.IsProper(t.Tag) && i > 0 {
			continue
		}
		p.q.loose = append(p.q.loose, lemmaOf(t))
	}
}

// idiom is a multi-word way of naming a relation, matched on lemmas ("*" matches one word), read as a verb
// (with its participle when passive) or as a relational noun.
type idiom struct {
	pattern []string
	verb    string
	passive bool
	noun    string
	// untyped idioms hold only in a question that names no kind of answer ("What does X do?").
	untyped bool
}

// workTypes are the type nouns that name what one does for a living ("What kind of work does X do?", "What
// job does X do?", "What profession does X do?"): with them "do" still asks the occupation.
var workTypes = set("work", "job", "profession", "occupation", "trade", "career")

// idioms are common English idioms for the relations people ask about: dying, making a living, marrying,
// founding, studying. General English, not any data set's wording.
var idioms = []idiom{
	{pattern: []string{"pass", "away"}, verb: "die"},
	{pattern: []string{"breathe", "*", "last"}, verb: "die"},
	{pattern: []string{"breathe", "*", "last", "breath"}, verb: "die"},
	{pattern: []string{"do", "for", "a", "living"}, noun: "occupation"},
	{pattern: []string{"do", "for", "work"}, noun: "occupation"},
	{pattern: []string{"do", "for", "money"}, noun: "occupation"},
	{pattern: []string{"work", "as"}, noun: "occupation"},
	// "What does Emma do?" with nothing after the verb asks what she does for a living ("What sport does
	// she do?" names its own kind).
	{pattern: []string{"do", "$"}, noun: "occupation", untyped: true},
	// "Who is Nadia seeing?", "Who is she going out with?": to be seeing someone, to go out with them, is to date
	// them (Oxford, "see": "be having a romantic relationship with"; rules/idioms.go reads statements so);
	// "Which doctor is she seeing?" names its own kind
	{pattern: []string{"see", "$"}, noun: "partner", untyped: true},
	{pattern: []string{"go", "out", "with", "$"}, noun: "partner", untyped: true},
	{pattern: []string{"tie", "the", "knot"}, verb: "marry"},
	// the sports idiom "line up" at a position (rules/idioms.go reads it as playing the position)
	{pattern: []string{"line", "up"}, noun: "position"},
	{pattern: []string{"get", "married"}, verb: "marry"},
	{pattern: []string{"set", "up"}, verb: "found"},
	// the idioms the extractor reads in statements (rules/idioms.go), asked about: to come into the world is
	// to be born, to pen is to write, to dream or think up is to create
	{pattern: []string{"come", "into", "the", "world"}, noun: "birthplace"},
	{pattern: []string{"come", "into", "this", "world"}, noun: "birthplace"},
	{pattern: []string{"pen"}, verb: "write"},
	{pattern: []string{"dream", "up"}, verb: "create"},
	{pattern: []string{"think", "up"}, verb: "create"},
	{pattern: []string{"come", "into", "existence"}, verb: "found", passive: true},
	{pattern: []string{"come", "into", "being"}, verb: "found", passive: true},
	{pattern: []string{"go", "to", "school"}, verb: "study"},
	{pattern: []string{"go", "to", "college"}, verb: "study"},
	{pattern: []string{"go", "to", "university"}, verb: "study"},
	{pattern: []string{"go", "to", "uni"}, verb: "study"},
	{pattern: []string{"grow", "up"}, verb: "live"},
	// Verbs whose event English names with another word, the noun a statement of it uses: one pays a price,
	// earns a salary, closes on a house at its closing, flies on a flight ("How much is Linh paying for the
	// house?" asks the price she stated; "When is Ingrid flying to Denver?" the date of her flight).
	{pattern: []string{"pay", "for"}, noun: "price"},
	{pattern: []string{"cost"}, noun: "price"},
	{pattern: []string{"earn"}, noun: "salary"},
	{pattern: []string{"close", "on"}, noun: "closing"},
	{pattern: []string{"fly", "to"}, noun: "flight"},
	{pattern: []string{"fly", "out", "to"}, noun: "flight"},
}

// matchIdiom returns the idiom at the start of ts and how many tokens it spans.
func matchIdiom(ts []qtok) (idiom, int) {
	for _, id := range idioms {
		pattern := id.pattern
		atEnd := pattern[len(pattern)-1] == "$"
		if atEnd {
			// "$": the idiom ends the question, or only words another reading took follow it ("What did
			// Kwame do before joining Paystack?": the temporal phrase).
			pattern = pattern[:len(pattern)-1]
			if len(ts) < len(pattern) || !restUsed(ts[len(pattern):]) {
				continue
			}
		}
		if len(ts) < len(pattern) {
			continue
		}
		ok := true
		for j, w := range pattern {
			if ts[j].ent {
				ok = false
				break
			}
			if w == "*" {
				continue
			}
			l := ts[j].Lemma
			if l == "" || !nlp.IsVerb(ts[j].Tag) {
				l = nlp.VerbLemma(ts[j].Lower)
			}
			if ts[j].Lower != w && l != w {
				ok = false
				break
			}
		}
		if ok {
			return id, len(pattern)
		}
	}
	return idiom{}, 0
}

// restUsed reports tokens all consumed by another reading or punctuation.
func restUsed(ts []qtok) bool {
	for _, t := range ts {
		if !t.used && !isPunct(t) {
			return false
		}
	}
	return true
}

// unitFromIdiom builds the unit of an idiom spanning [from, to), with the prepositions after it;
// subjectIsAnswer as for verbGroup.
func (p *qparser) unitFromIdiom(id idiom, from, to int, gap []string, subjectIsAnswer bool) relUnit {
	var said []string
	for k := from; k < to; k++ {
		said = append(said, p.t[k].Text)
	}
	var u relUnit
	if id.noun != "" {
		u = relUnit{words: []string{id.noun}, keys: relKeys(id.noun, "")}
		if id.noun == "occupation" {
			// What one does for a living is one's work: "works as", "works in" the field.
			u.words = append(u.words, "work")
		}
	} else {
		var preps []string
		for k := to; k < len(p.t) && p.isPrep(k) && !p.t[k].ent; k++ {
			preps = append(preps, p.low(k))
			p.t[k].used = true
		}
		form := id.verb
		if id.passive {
			form = nlp.PastRegular(id.verb)
		}
		u = verbUnit(id.verb, form, id.passive, preps, gap, nil, subjectIsAnswer)
	}
	u.said = strings.Join(said, " ")
	u.field = p.t[from].field
	return u
}

// unitOfPhrase reads a relation phrase on its own ("place of birth", "was born in", "employer") as a unit:
// an LLM planner's hop, for one.
func unitOfPhrase(rel string) relUnit {
	toks := analyzeQuestion(rel)
	var words []string
	for _, t := range toks {
		w := t.Lower
		if isPunct(t) || whWords[w] || beWords[w] || auxWords[w] || prepWords[w] || detWords[w] || stopwords[w] {
			continue
		}
		words = append(words, lemmaOf(t))
	}
	return relUnit{said: rel, words: words, keys: dedupe(append(relKeys("", rel), relKeys(joinWords(words), "")...))}
}

// rePreface is a short heading before a colon that introduces a question ("Quick question: where …", "Also,
// one more thing: who …", "Random one: …"), and reInterjection a word of address or hesitation with its
// comma ("Hey, who …", "So, where …"): neither is part of what is asked.
var (
	rePreface      = regexp.MustCompile(`^((?:[\p{L}'’-]+[\s,]+){0,3}?[\p{L}'’-]+):\s+(\S.*)$`)
	reInterjection = regexp.MustCompile(`^(?i:hey|hi|hello|so|ok|okay|um|uh|well|btw|also|and|oh|anyway|right)\s*[,!.]\s*(\S.*)$`)
)

// prefaceHeads are the first words of such a heading (general English of chat: "quick question", "one more
// thing", "follow-up", "random question"); a heading that starts with anything else — a name above all
// ("Emma: where does she work?") — is kept.
var prefaceHeads = set("quick", "question", "also", "and", "ok", "okay", "so", "hey", "hi", "btw", "one", "another",
	"random", "follow-up", "followup", "last", "small", "silly", "simple", "side", "unrelated", "next", "new")

// withoutPreface removes a heading and an interjection before a question.
func withoutPreface(q string) string {
	for {
		if m := reInterjection.FindStringSubmatch(q); m != nil {
			q = m[1]
			continue
		}
		m := rePreface.FindStringSubmatch(q)
		if m == nil || !prefaceHeads[strings.ToLower(strings.Fields(m[1])[0])] {
			return q
		}
		q = m[2]
	}
}
