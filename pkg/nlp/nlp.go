// Package nlp is Mneme's general-linguistics layer for rule-based understanding: it tokenizes a sentence with
// byte offsets, tags each token with its Penn Treebank part of speech and gives its lemma. The extractor reads
// claims from tagged clauses and the query service reads questions with the same tokens, tags and lemmas, so a
// relation said one way and asked another meet on the same analysis.
//
// Part-of-speech tags come from prose (github.com/jdkato/prose/v2: the averaged-perceptron tagger of TextBlob,
// trained on the Penn Treebank, model embedded); lemmas from golem (github.com/aaaton/golem/v4 with its English
// dictionary, from the lemmatization lists of Michal Měchura), chosen by the tag: golem knows no part of
// speech, so an inflected verb's lemma is checked against English inflection rules ("lives" is "live" as a
// verb and "life" as a noun). docs/architecture.md gives the evaluation behind these choices.
//
// Both models load once, on first use, and are then shared read-only: Analyze is safe for concurrent use.
package nlp

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/aaaton/golem/v4"
	"github.com/aaaton/golem/v4/dicts/en"
	"github.com/jdkato/prose/v2"
)

// Token is one word or punctuation mark of an analysed text.
type Token struct {
	// Text is the token as written; Lower its lower-case form.
	Text, Lower string
	// Lemma is the lower-case base form ("went" → "go", "cats" → "cat"); a proper noun keeps its spelling.
	Lemma string
	// Tag is the Penn Treebank part of speech (NN, NNP, VBD, IN, ...).
	Tag string
	// Start and End are the token's byte offsets in the analysed text.
	Start, End int
}

var (
	taggerOnce, lemmaOnce sync.Once
	model                 *prose.Model
	lemmatize             *golem.Lemmatizer
)

// load loads the tagger (about 0.3 s and 38 MB) and the lemmatizer.
func load() {
	loadLemmas()
	taggerOnce.Do(func() { model = prose.ModelFromData("mneme") })
}

// loadLemmas loads the lemmatizer alone (about 40 ms and 6 MB): what services that only key predicates need.
func loadLemmas() {
	lemmaOnce.Do(func() {
		l, err := golem.New(en.New())
		if err != nil {
			// The dictionary is compiled into the binary; failing to read it is a build defect.
			panic("nlp: golem English dictionary: " + err.Error())
		}
		lemmatize = l
	})
}

// lemmasMu serializes golem's Lemmas, which sorts the dictionary's own slice of a word's base forms in place
// on every call: two goroutines asking for one word at once would write and read that slice together.
var lemmasMu sync.Mutex

// baseForms returns the base forms the dictionary knows for w (w itself when it knows none), sorted, as a copy
// the caller owns.
func baseForms(w string) []string {
	lemmasMu.Lock()
	defer lemmasMu.Unlock()
	return slices.Clone(lemmatize.Lemmas(w))
}

// Warm loads the tagger and the lemmatizer now rather than on first use (about 0.4 s), so a service pays the
// cost at start-up instead of on its first request.
func Warm() { load() }

// typographic maps curly quotes to ASCII: the tagger's tokenizer does the same, and offsets must agree.
var typographic = strings.NewReplacer("\u201c", `"`, "\u201d", `"`, "\u2018", "'", "\u2019", "'", "&rsquo;", "'")

// Normalize returns text as Analyze sees it: curly quotes made ASCII. Offsets of Analyze's tokens are
// offsets into Normalize(text).
func Normalize(text string) string { return typographic.Replace(text) }

// Analyze tokenizes and tags one sentence (or clause) and lemmatizes its tokens. Offsets refer to
// Normalize(text).
func Analyze(text string) []Token {
	load()
	text = Normalize(text)
	if strings.TrimSpace(text) == "" {
		return nil
	}
	// A sentence-final period after a short capitalized word ("in May.") would be read as an abbreviation
	// ("Mr."): the tagger sees the terminator as its own token.
	tagText := text
	if n := len(tagText); n > 1 && (tagText[n-1] == '.' || tagText[n-1] == '!' || tagText[n-1] == '?') && tagText[n-2] != ' ' && tagText[n-2] != '.' {
		tagText = tagText[:n-1] + " " + tagText[n-1:]
	}
	doc, err := prose.NewDocument(tagText, prose.UsingModel(model), prose.WithSegmentation(false), prose.WithExtraction(false))
	if err != nil {
		return nil
	}
	raw := doc.Tokens()
	out := make([]Token, 0, len(raw))
	cursor := 0
	for _, rt := range raw {
		if rt.Text == "" {
			continue
		}
		at := strings.Index(text[cursor:], rt.Text)
		if at < 0 {
			// Only the terminator split off above is not found verbatim in order; it is the last rune.
			at = max(0, len(text)-len(rt.Text)-cursor)
		}
		start := cursor + at
		end := min(start+len(rt.Text), len(text))
		cursor = end
		out = append(out, Token{Text: text[start:end], Tag: rt.Tag, Start: start, End: end})
	}
	out = mergeInitials(text, out)
	lowerTyped := !hasUpper(text)
	for i := range out {
		t := &out[i]
		t.Lower = strings.ToLower(t.Text)
		t.Tag = fixTag(out, i)
		if lowerTyped && unknownLowerName(t) {
			t.Tag = "NNP"
		}
		if lowerTyped && IsProper(t.Tag) && AdverbNoName(t.Lower) {
			// With no capital letter to go by, the tagger reads some adverbs at the end of a clause as names
			// ("i'm at pfizer now", "biscuit passed away", "it's so weird").
			t.Tag = "RB"
		}
		t.Lemma = Lemma(t.Text, t.Tag)
	}
	if lowerTyped {
		lowerNameRuns(out)
	}
	contractedBe(out, lowerTyped)
	return out
}

// lowerNameRuns extends names found in text typed in lower case over the dictionary words that belong to them:
// "tim cook runs …", "hines ward plays …", "coco chanel founded …". A word stands in a name when it stands
// between a name and the clause's verb at the start of the clause, or directly before a name at the start of
// the clause or after a determiner; a third-person verb form right after a name is the verb ("ana ruiz speaks
// german").
func lowerNameRuns(ts []Token) {
	for i := range ts {
		t := &ts[i]
		if i > 0 && IsProper(ts[i-1].Tag) && (t.Tag == "JJ" || t.Tag == "NNS" || t.Tag == "NN") && strings.HasSuffix(t.Lower, "s") {
			if b := VerbLemma(t.Lower); b != t.Lower && ThirdPerson(b) == t.Lower {
				t.Tag, t.Lemma = "VBZ", b
			}
		}
	}
	candidate := func(t Token) bool {
		switch t.Tag {
		case "NN", "RB", "VB", "VBP", "JJ":
			return utf8.RuneCountInString(t.Text) > 1 && !AdverbNoName(t.Lower)
		}
		return false
	}
	finite := func(i int) bool {
		return i < len(ts) && (ts[i].Tag == "VBZ" || ts[i].Tag == "VBD" || ts[i].Tag == "MD" || ts[i].Tag == "POS" || ts[i].Lower == "'s")
	}
	for i := range ts {
		t := &ts[i]
		if !candidate(*t) {
			continue
		}
		startish := i == 0 || ts[i-1].Tag == "DT" || isBoundary(ts[i-1].Text) || ts[i-1].Text == ","
		switch {
		case startish && i+1 < len(ts) && IsProper(ts[i+1].Tag):
			t.Tag = "NNP"
		case i > 0 && IsProper(ts[i-1].Tag) && finite(i+1) && (i == 1 || i >= 2 && (ts[i-2].Tag == "DT" || isBoundary(ts[i-2].Text))):
			t.Tag = "NNP"
		}
		if t.Tag == "NNP" {
			t.Lemma = t.Text
		}
	}
}

// closedClass are function words that never stand inside a name.
var closedClass = map[string]bool{"not": true, "never": true, "also": true, "just": true, "now": true,
	"still": true, "really": true, "then": true, "there": true, "here": true, "so": true, "very": true,
	"too": true, "well": true, "only": true, "even": true, "currently": true, "originally": true}

// plainAdverbs are adverbs of time, place and degree that stand alone in everyday English and name nothing:
// general English, the words a person types after a verb ("passed away", "moved back", "not yet"). Not
// commonAdverbs, which also holds words that open a noun phrase a name may follow ("last", "next", "first").
var plainAdverbs = map[string]bool{"away": true, "back": true, "again": true, "anymore": true, "yet": true,
	"already": true, "ago": true, "soon": true, "later": true, "today": true, "tonight": true, "tomorrow": true,
	"yesterday": true, "together": true, "abroad": true, "instead": true, "lately": true, "recently": true,
	"nowadays": true, "anyway": true, "though": true, "altogether": true, "overseas": true, "downstairs": true,
	"upstairs": true, "maybe": true, "perhaps": true, "always": true, "often": true, "sometimes": true}

// AdverbNoName reports a word of text typed in lower case that is an adverb and never a name: a function word
// (closedClass), a plain adverb, or an adverb in -ly made from a word the dictionary knows ("officially",
// "honestly", "happily"; not "emily" or "kelly", whose stems are no words).
func AdverbNoName(w string) bool {
	if closedClass[w] || plainAdverbs[w] {
		return true
	}
	if utf8.RuneCountInString(w) < 6 || !strings.HasSuffix(w, "ly") {
		return false
	}
	stem := strings.TrimSuffix(w, "ly")
	return Known(stem) || strings.HasSuffix(stem, "i") && Known(strings.TrimSuffix(stem, "i")+"y")
}

// hasUpper reports an upper-case letter anywhere in s.
func hasUpper(s string) bool {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return true
		}
	}
	return false
}

// unknownLowerName reports, in a text typed all in lower case (as people chat), a word the tagger read as a
// common noun, adjective or verb that the English dictionary does not know: with no capital letter to tell,
// a word English does not have is most likely a name ("emma", "portland", "anthropic").
func unknownLowerName(t *Token) bool {
	switch t.Tag {
	case "NN", "NNS", "JJ", "FW", "VB", "VBP", "RB", "VBN", "VBD", "VBZ":
	default:
		return false
	}
	for _, r := range t.Text {
		if !unicode.IsLetter(r) && r != '-' && r != '\'' {
			return false
		}
	}
	if utf8.RuneCountInString(t.Text) < 2 {
		return false
	}
	if t.Tag == "NNS" || strings.HasSuffix(t.Lower, "s") {
		// A plural or third-person form the dictionary knows through its base ("cities", "works").
		if Known(strings.TrimSuffix(t.Lower, "s")) || Known(VerbLemma(t.Lower)) {
			return false
		}
	}
	return !Known(t.Lower) && !Known(VerbLemma(t.Lower))
}

// contractedBe retags a clitic "'s" that stands for "is" rather than a possessive: after a name or a noun,
// "'s" followed by a participle, a preposition, a determiner, an adverb or an adjective that modifies no noun
// is the verb ("Tim's married to Ana", "Kyd's from London", "Tim's the CEO", "the CEO's Tim Cook"); followed
// by a noun or an adjective and a noun it is the possessive ("Tim's car", "Tim's new car").
func contractedBe(ts []Token, lowerTyped bool) {
	for i := 1; i+1 < len(ts); i++ {
		t := &ts[i]
		if t.Tag != "POS" || t.Lower != "'s" {
			continue
		}
		prev, next := ts[i-1], ts[i+1]
		be := false
		switch {
		case next.Tag == "VBN" || next.Tag == "VBG" || next.Tag == "DT" || next.Tag == "TO" || IsAdverb(next.Tag):
			be = true
		case next.Tag == "IN" && next.Lower != "of":
			be = true
		case IsAdjective(next.Tag):
			be = i+2 >= len(ts) || !IsNoun(ts[i+2].Tag) && !IsAdjective(ts[i+2].Tag)
		case IsProper(next.Tag) && IsNoun(prev.Tag) && (!IsProper(prev.Tag) || i >= 2 && ts[i-2].Tag == "POS") && !lowerTyped:
			// "the CEO's Tim Cook", "Apple's CEO's Tim Cook": a relational noun, or the possessed noun of a
			// possessive, is not the owner of a name.
			be = true
		}
		if be {
			t.Tag, t.Lemma = "VBZ", "be"
		}
	}
}

// mergeInitials joins a single capital letter and the period after it into one token inside a name
// ("Ursula K. Le Guin"): the tagger's tokenizer only keeps initials of two or more letters ("D.C.") whole.
func mergeInitials(text string, ts []Token) []Token {
	out := ts[:0]
	for i := 0; i < len(ts); i++ {
		t := ts[i]
		if i+2 < len(ts) && ts[i+1].Text == "." && ts[i+1].Start == t.End && utf8.RuneCountInString(t.Text) == 1 && isUpperWord(t.Text) && isUpperWord(ts[i+2].Text) {
			t.Text = text[t.Start:ts[i+1].End]
			t.End = ts[i+1].End
			t.Tag = "NNP"
			i++
		}
		out = append(out, t)
	}
	return out
}

// fixTag corrects what the Treebank-trained tagger gets wrong in conversation and with names outside ASCII: a
// capitalized word inside a sentence is a proper noun whatever suffix it has ("École", "Ceaușescu"), and so is
// a capitalized first word the dictionary does not know.
func fixTag(ts []Token, i int) string {
	t := ts[i]
	tag := t.Tag
	if t.Text == "I" {
		return "PRP"
	}
	if !isUpperWord(t.Text) {
		if (tag == "NN" || tag == "VB" || tag == "VBD" || tag == "JJ") && i+1 < len(ts) && strings.EqualFold(ts[i+1].Text, "by") && afterBe(ts, i) && irregularParticiple[strings.ToLower(t.Text)] {
			// "was first broadcast by", "is set by": a participle spelt like its base, read as the passive
			// it is when a form of "be" comes before it and an agent after it.
			return "VBN"
		}
		if tag == "JJ" && i > 0 && (ts[i-1].Tag == "PRP$" || ts[i-1].Tag == "POS") && i+2 < len(ts) && ts[i+1].Tag == "NNS" && !isUpperWord(ts[i+1].Text) &&
			(ts[i+2].Tag == "IN" || ts[i+2].Tag == "TO" || ts[i+2].Tag == "DT" || ts[i+2].Tag == "PRP$") && !verbAfter(ts, i+1) {
			// "My mum lives in Cluj", "Kim's mum lives …": after a possessive, a word the tagger read as an
			// adjective ("mum", as in "keep mum") before an -s word and a preposition, in a clause with no verb,
			// is the subject's noun and the -s word its verb (retagged below, after a possessed noun). An
			// adjective needs a noun after it, and the -s word is none when it is a verb's third person and
			// nothing else could be the verb.
			if b := VerbLemma(ts[i+1].Text); b != strings.ToLower(ts[i+1].Text) && ThirdPerson(b) == strings.ToLower(ts[i+1].Text) {
				return "NN"
			}
		}
		if tag == "NNS" && i > 0 && (IsProper(ts[i-1].Tag) || ts[i-1].Tag == "PRP" || possessedNoun(ts, i-1)) {
			// "Denis Sassou-Nguesso works in …", "my wife teaches at …": after a name or a possessed noun, an
			// -s word before a preposition, a determiner or a word English has no verb of ("Tom teaches cello",
			// which the tagger reads as a verb) is the verb; so it is at the end of a clause ("the genre Dale
			// Evans performs"), and after a possessed noun before a bare noun when the clause has no verb before
			// it ("my husband coaches soccer", "my son studies physics": a subject needs its verb).
			next := Token{Tag: "."}
			if i+1 < len(ts) {
				next = ts[i+1]
			}
			switch {
			case next.Tag == "IN" || next.Tag == "TO" || next.Tag == "DT" || next.Tag == "PRP$" || next.Tag == "." || next.Tag == "," || isUpperWord(next.Text) || notVerb(next),
				possessedNoun(ts, i-1) && (next.Tag == "NN" || next.Tag == "NNS" || next.Tag == "CD" || next.Tag == "JJ" || notVerb(next)) && !verbBefore(ts, i):
				if b := VerbLemma(t.Text); b != strings.ToLower(t.Text) && ThirdPerson(b) == strings.ToLower(t.Text) {
					return "VBZ"
				}
			}
		}
		if tag == "NNS" && i > 0 && (ts[i-1].Tag == "NN" || ts[i-1].Tag == "NNS") && i+1 < len(ts) && (ts[i+1].Tag == "IN" || ts[i+1].Tag == "TO") &&
			!verbBefore(ts, i) && !verbAfter(ts, i) {
			// "Baseball hails from …", "Rugby union originates in …": after a common noun, an -s word before a
			// preposition in a clause with no verb at all is the verb (a clause needs one), which the tagger read
			// as a plural noun of a compound.
			if b := VerbLemma(t.Text); b != strings.ToLower(t.Text) && ThirdPerson(b) == strings.ToLower(t.Text) && verbBase(b) && plainSubject(ts, i) {
				return "VBZ"
			}
		}
		if tag == "NN" && i > 0 && (IsProper(ts[i-1].Tag) || possessedNoun(ts, i-1)) && i+1 < len(ts) &&
			(IsProper(ts[i+1].Tag) || ts[i+1].Tag == "DT" || ts[i+1].Tag == "PRP$" || (ts[i+1].Tag == "NN" || ts[i+1].Tag == "VBG") && strings.HasSuffix(ts[i+1].Text, "ing")) &&
			irregularVerb[t.Lower] == t.Lower && irregularParticiple[t.Lower] {
			// "Emma quit Google", "Apple cut its prices", "my sister quit Deloitte", "Amelia quit nursing": after
			// a name or a possessed noun and before an object (a gerund too) stands the verb whose past is spelt
			// like its base, which the tagger read as a noun.
			return "VBD"
		}
		if tag == "NN" && i > 0 && IsProper(ts[i-1].Tag) && strings.HasSuffix(ts[i-1].Text, "s") && !verbBefore(ts, i) && !verbAfter(ts, i) &&
			VerbLemma(t.Lower) == t.Lower && Known(Gerund(t.Lower)) && (i+1 == len(ts) || objectStart(ts[i+1])) {
			// "The Lanterns play shoegaze", "the Smiths live in Leeds": after a plural name, a verb's base form
			// with no other verb in the clause is its verb, which the tagger read as a noun of the name.
			return "VBP"
		}
		if (tag == "VBZ" || tag == "VBP") && i > 0 && i+1 < len(ts) && whDeterminers[strings.ToLower(ts[i-1].Text)] &&
			questionAuxiliaries[strings.ToLower(ts[i+1].Text)] && !questionAuxiliaries[t.Lower] {
			// "What pets does Lena have?", "Which languages do they speak?": between a question word and the
			// "do" or modal that is the question's finite verb stands the noun the question asks about, never a
			// verb (the tagger reads "pets" and "languages" there as verbs). Before a form of "be" or "have" the
			// word may be the verb of a free relative ("What matters is family", "What helps has been rest").
			if strings.HasSuffix(t.Lower, "s") && tag == "VBZ" {
				return "NNS"
			}
			return "NN"
		}
		if tag == "NN" && i >= 4 && ts[i-2].Tag == "PRP$" && strings.EqualFold(ts[i-3].Text, "and") && IsProper(ts[i-4].Tag) &&
			i+1 < len(ts) && (ts[i+1].Tag == "IN" || ts[i+1].Tag == "TO") && Known(Gerund(t.Lower)) {
			// "Nora and her husband live in Lyon": after a subject of two coordinated people, a word that has a
			// verb's forms before a preposition is their verb, not a noun of the second one's phrase.
			return "VBP"
		}
		if tag == "VB" && i > 1 && ts[i-1].Tag == "TO" && positionVerbs[VerbLemma(ts[i-2].Lower)] && i+1 < len(ts) && ts[i+1].Tag == "NN" {
			// "was promoted to head chef", "got appointed to team lead": after a verb of a change of position,
			// "to" names the position, and a word before a noun there is the first of a compound, not an
			// infinitive ("was asked to cook dinner" keeps its verb).
			return "NN"
		}
		if tag == "VB" && i > 0 && ts[i-1].Tag == "TO" {
			// "allergic to peanuts", "allergic to penicillin": after "to" the tagger expects an infinitive, but a
			// verb's -s form is never its base, and a word with neither a regular past nor a gerund in the
			// dictionary is no verb: both are the noun a preposition governs.
			if b := VerbLemma(t.Lower); b != t.Lower && ThirdPerson(b) == t.Lower {
				return "NNS"
			}
			if len(t.Lower) > 2 && !Known(PastRegular(t.Lower)) && !Known(Gerund(t.Lower)) && VerbLemma(t.Lower) == t.Lower {
				return "NN"
			}
		}
		if i > 0 && ts[i-1].Tag == "VBZ" && notVerb(t) {
			// "my son studies physics": the object of a verb the tagger first read as a plural noun, which it
			// then took for the verb (the rule above gave the verb back).
			return "NN"
		}
		if (tag == "VBN" || tag == "VBD") && !pastShaped(t.Lower) && VerbLemma(t.Lower) == t.Lower {
			// "X's sport is rugby union": a word with no past-tense shape that is no verb form either is the
			// noun the tagger's context guessed wrong.
			return "NN"
		}
		if i > 0 && mixedCase(t.Text) && IsProper(ts[i-1].Tag) {
			// "Rand al'Thor", "Ludwig van Beethoven" is read by connectors; "al'Thor" carries its capital inside.
			return "NNP"
		}
		return tag
	}
	switch tag {
	case "NNP", "NNPS", "PRP", "PRP$", "WP", "WDT", "WRB", "DT", "CD", "MD", "CC", "POS", "EX":
		return tag
	}
	initial := i == 0 || isBoundary(ts[i-1].Text)
	if initial {
		// The first word of a sentence is capitalized anyway: only a word English does not have is a name.
		if tag == "RB" && !lemmatize.InDict(t.Lower) && !strings.HasSuffix(t.Lower, "ly") && !commonAdverbs[t.Lower] && !strings.Contains(t.Text, "'") {
			// "Emma relocated to Oslo": the tagger read an unfamiliar first name as an adverb. The dictionary
			// lists few adverbs, so the adverbs English forms with -ly and its common other ones stay adverbs.
			return "NNP"
		}
		if (tag == "NN" || tag == "JJ" || tag == "FW" || tag == "NNS") && !lemmatize.InDict(strings.ToLower(t.Text)) {
			return "NNP"
		}
		// "Sable is …" (an adjective cannot be a subject alone), "Church of Scotland was …", "Apple Music is …":
		// a capitalized first word before a verb, a name or "of" + a name is itself a name.
		if i+1 < len(ts) {
			next := ts[i+1]
			switch {
			case tag == "JJ" && (IsVerb(next.Tag) || next.Tag == "MD"):
				return "NNP"
			case (tag == "NN" || tag == "JJ") && isUpperWord(next.Text) && (next.Tag == "NNP" || next.Tag == "NNPS"):
				return "NNP"
			case (tag == "NN" || tag == "JJ") && next.Text == "of" && i+2 < len(ts) && isUpperWord(ts[i+2].Text):
				return "NNP"
			}
		}
		return tag
	}
	switch tag {
	case "NN", "JJ", "FW", "VB", "VBN", "VBD", "VBG", "VBZ", "VBP", "RB", "IN", "UH", "JJS", "JJR", "SYM":
		if tag == "IN" && len(t.Text) <= 4 && lowerKnown(t.Text) {
			// "In", "Of" inside a title are still prepositions.
			return tag
		}
		return "NNP"
	case "NNS":
		return "NNPS"
	}
	return tag
}

// commonAdverbs are the adverbs of everyday English not formed with -ly (time, place, degree, frequency,
// stance), which the lemmatizer's dictionary does not list.
var commonAdverbs = map[string]bool{"now": true, "then": true, "here": true, "there": true, "maybe": true,
	"perhaps": true, "anyway": true, "anyways": true, "instead": true, "again": true, "once": true, "twice": true,
	"already": true, "almost": true, "always": true, "never": true, "quite": true, "too": true, "very": true,
	"yet": true, "together": true, "abroad": true, "away": true, "tonight": true, "meanwhile": true,
	"otherwise": true, "somehow": true, "nowadays": true, "sometimes": true, "anymore": true, "besides": true,
	"thus": true, "hence": true, "indeed": true, "ever": true, "afterwards": true, "overseas": true,
	"downstairs": true, "upstairs": true, "outside": true, "inside": true, "meantime": true, "not": true,
	"so": true, "well": true, "even": true, "only": true, "rather": true, "else": true, "elsewhere": true,
	"anywhere": true, "everywhere": true, "somewhere": true, "nowhere": true, "ago": true, "before": true,
	"after": true, "since": true, "first": true, "last": true, "next": true, "far": true, "back": true}

// whDeterminers are the question words that can stand before a noun ("which city", "what pets").
var whDeterminers = map[string]bool{"what": true, "which": true, "whose": true}

// questionAuxiliaries are the auxiliaries that carry a question's tense after its question phrase and never
// follow a free relative's verb: "do" and the modals ("What pets does …", "Which city can …").
var questionAuxiliaries = map[string]bool{"do": true, "does": true, "did": true, "can": true, "could": true,
	"will": true, "would": true, "shall": true, "should": true, "may": true, "might": true, "must": true}

// positionVerbs move someone to a position named after "to": promotion, demotion, appointment, election.
var positionVerbs = map[string]bool{"promote": true, "demote": true, "appoint": true, "elect": true, "reassign": true}

// notVerb reports a word tagged as a verb's base or present form that English has no verb of: neither a
// regular past nor a gerund of its base is in the dictionary ("violin", "physics").
func notVerb(t Token) bool {
	w := strings.ToLower(t.Text) // a later token's Lower is not set yet
	b := VerbLemma(w)
	return (t.Tag == "VBP" || t.Tag == "VB") && len(w) > 2 && !Known(PastRegular(b)) && !Known(Gerund(b))
}

// verbAfter reports a verb or modal among the tokens after i in the same clause.
func verbAfter(ts []Token, i int) bool {
	for j := i + 1; j < len(ts) && !isBoundary(ts[j].Text) && ts[j].Text != ","; j++ {
		if IsVerb(ts[j].Tag) || ts[j].Tag == "MD" {
			return true
		}
	}
	return false
}

// objectStart reports a token that can open what follows a verb: a noun, a determiner, a possessive, a
// preposition or the end of the sentence.
func objectStart(t Token) bool {
	switch t.Tag {
	case "NN", "NNS", "DT", "PRP$", "IN", "TO", ".":
		return true
	}
	return false
}

// verbBefore reports a verb or modal among the tokens before i in the same clause.
func verbBefore(ts []Token, i int) bool {
	for j := i - 1; j >= 0 && !isBoundary(ts[j].Text) && ts[j].Text != ","; j-- {
		if IsVerb(ts[j].Tag) || ts[j].Tag == "MD" {
			return true
		}
	}
	return false
}

// plainSubject reports that the words before i, back to the clause's start or a determiner, are one or two
// words none of which is a verb's base: a subject ("Baseball", "rugby union"), not an imperative the tagger
// took for nouns ("Use tools like …", "Keep backup copies of …") nor a heading's compound ("Regular security
// audits by …"). Only then is the -s word after them its verb ("hails"; and only a verb's -s form, never
// "improvements").
func plainSubject(ts []Token, i int) bool {
	k := i - 1
	for k > 0 && (IsNoun(ts[k-1].Tag) || IsAdjective(ts[k-1].Tag)) && !isBoundary(ts[k-1].Text) {
		k--
	}
	if i-k > 2 {
		return false
	}
	for j := k; j < i; j++ {
		if verbBase(ts[j].Lower) {
			return false
		}
	}
	return true
}

// verbBase reports a word the dictionary knows as a verb's base form: an irregular verb's, or one whose regular
// past and gerund it lists ("hail": hailed, hailing; not "improvement").
func verbBase(w string) bool {
	if irregularVerb[w] == w {
		return true
	}
	return Known(PastRegular(w)) && Known(Gerund(w))
}

// possessedNoun reports a common noun right after a possessive ("my sister", "Kim's boss"): a whole noun
// phrase, so a word after it starts the predicate.
func possessedNoun(ts []Token, i int) bool {
	return ts[i].Tag == "NN" && i > 0 && (ts[i-1].Tag == "PRP$" || ts[i-1].Tag == "POS")
}

// pastShaped reports a word that could be a past tense or participle by its spelling: the regular -ed, the
// irregular endings of English's strong and mixed verbs (-en, -n, -t, -d, -ne, -ung, -uck, -ook, -ew, -ought),
// or one of the participles spelt like their base ("put", "set", "read").
func pastShaped(w string) bool {
	if irregularParticiple[w] {
		return true
	}
	for _, suf := range []string{"ed", "n", "t", "d", "ng", "ck", "ok", "ew", "ame", "ode", "ove", "ote", "ade", "ave", "ay", "ug", "ore", "ise", "ome"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// afterBe reports a form of "be" before token i, with at most one adverb or degree word between them.
func afterBe(ts []Token, i int) bool {
	for k := i - 1; k >= 0 && k >= i-2; k-- {
		if _, ok := beForms[ts[k].Lower]; ok {
			return true
		}
		if k == i-1 && (IsAdverb(ts[k].Tag) || ts[k].Tag == "JJS" || ts[k].Lower == "first" || ts[k].Lower == "last") {
			continue
		}
		return false
	}
	return false
}

var beForms = map[string]bool{"is": true, "was": true, "are": true, "were": true, "be": true, "been": true, "being": true, "'s": true, "'re": true}

func lowerKnown(w string) bool { return lemmatize.InDict(strings.ToLower(w)) }

// isBoundary reports tokens after which a capital letter starts a sentence or a quotation.
func isBoundary(s string) bool {
	switch s {
	case ".", "!", "?", ":", ";", `"`, "'", "(", "-", "--", "—", "–", "*", "#", ">":
		return true
	}
	return false
}

// isUpperWord reports a word whose first rune is an upper-case letter.
func isUpperWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// IsProper reports a proper-noun tag.
func IsProper(tag string) bool { return tag == "NNP" || tag == "NNPS" }

// IsNoun reports a noun tag (common or proper).
func IsNoun(tag string) bool { return strings.HasPrefix(tag, "NN") }

// IsVerb reports a verb tag.
func IsVerb(tag string) bool { return strings.HasPrefix(tag, "VB") }

// IsAdjective reports an adjective tag.
func IsAdjective(tag string) bool { return strings.HasPrefix(tag, "JJ") }

// IsAdverb reports an adverb tag.
func IsAdverb(tag string) bool { return strings.HasPrefix(tag, "RB") }

// Capitalized reports a word whose first rune is an upper-case letter (any script: "École", "Łódź").
func Capitalized(s string) bool { return isUpperWord(s) }

// Known reports whether the English dictionary knows a lower-case word (in any inflected form).
func Known(lower string) bool {
	loadLemmas()
	return lemmatize.InDict(lower)
}

// mixedCase reports a word with an upper-case letter after its first rune ("al'Thor", "McDonald").
func mixedCase(s string) bool {
	for i, r := range s {
		if i > 0 && unicode.IsUpper(r) {
			return true
		}
	}
	return false
}
