package rules

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/nlp"
)

// line is one line of a turn: a numbered fact line carries its number as sequence.
type line struct {
	text     string
	sequence *int64
}

var numberedLine = regexp.MustCompile(`^\s*(\d{1,7})[.)]\s+(\S.*)$`)

// splitLines splits content into lines and recognizes numbered fact lines ("12. The capital of X is Y.").
// Code is dropped: fenced Markdown
// blocks and lines that look like source, commands, markup or stack traces (looksLikeCode; indented lines
// need less evidence). Markdown markup (headings, bullets, emphasis, inline code quotes) is removed.
func splitLines(content string) []line {
	var out []line
	fenced := false
	for _, raw := range strings.Split(content, "\n") {
		if reFence.MatchString(raw) {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		indented := strings.HasPrefix(raw, "    ") || strings.HasPrefix(raw, "\t")
		raw = strings.TrimSpace(raw)
		if raw == "" {
			continue
		}
		if m := numberedLine.FindStringSubmatch(raw); m != nil {
			if n, err := strconv.ParseInt(m[1], 10, 64); err == nil {
				if text := stripMarkdown(m[2]); text != "" && !looksLikeCode(text, false) {
					out = append(out, line{text: text, sequence: &n})
				}
				continue
			}
		}
		raw = stripMarkdown(raw)
		if raw == "" || looksLikeCode(raw, indented) {
			continue
		}
		out = append(out, line{text: raw})
	}
	return out
}

var (
	reMarkdownLead = regexp.MustCompile(`^(?:#{1,6}\s+|>\s*|[-*+]\s+)+`)
	reEmphasis     = regexp.MustCompile(`\*\*|__`)
	reInlineCode   = regexp.MustCompile("`([^`\\s][^`]*)`")
	reBacktickApos = regexp.MustCompile("(\\pL)`(\\pL)")
)

// stripMarkdown removes a line's heading, quote and bullet markers, bold markers and inline code quotes. A
// backtick between letters is an apostrophe ("Let`s").
func stripMarkdown(s string) string {
	s = reMarkdownLead.ReplaceAllString(s, "")
	s = reBacktickApos.ReplaceAllString(s, "$1'$2")
	s = reInlineCode.ReplaceAllString(s, "$1")
	return strings.TrimSpace(reEmphasis.ReplaceAllString(s, ""))
}

// abbreviations are words whose trailing period does not end a sentence.
var abbreviations = map[string]bool{
	"mr": true, "mrs": true, "ms": true, "dr": true, "st": true, "jr": true, "sr": true, "vs": true, "etc": true,
	"e.g": true, "i.e": true, "u.s": true, "d.c": true, "inc": true, "ltd": true, "co": true, "mt": true,
	"no": true, "prof": true, "gen": true, "sgt": true, "capt": true, "lt": true, "col": true, "ft": true,
	"approx": true, "dept": true, "est": true, "u.k": true, "a.m": true, "p.m": true, "ave": true,
}

// splitSentences splits one line into sentences at ., ! or ? (and runs of them) followed by space, except
// after abbreviations and single initials ("Ursula K. Le Guin").
func splitSentences(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r != '.' && r != '!' && r != '?' && r != '…' {
			i += size
			continue
		}
		end := i + size
		for end < len(s) && strings.ContainsRune(".!?…\"'”’)", rune(s[end])) {
			end++
		}
		// Emoji and similar right after the terminator belong to the sentence.
		if end < len(s) && !unicode.IsSpace(rune(s[end])) {
			i = end
			continue
		}
		if r == '.' && isAbbreviation(s[start:i]) {
			i = end
			continue
		}
		if sent := strings.TrimSpace(s[start:end]); sent != "" {
			out = append(out, sent)
		}
		start = end
		i = end
	}
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// isAbbreviation reports whether the text before a period ends with an abbreviation or an initial.
func isAbbreviation(before string) bool {
	j := strings.LastIndexFunc(before, unicode.IsSpace)
	w := before[j+1:]
	if w == "" {
		return false
	}
	if utf8.RuneCountInString(w) == 1 {
		r, _ := utf8.DecodeRuneInString(w)
		return unicode.IsUpper(r)
	}
	w = strings.Trim(w, "(\"'")
	return abbreviations[strings.ToLower(w)] || reInitialism.MatchString(w)
}

// reInitialism matches dotted initialisms before their final period ("U.S.A", "D.C", "e.g").
var reInitialism = regexp.MustCompile(`^(?:\p{L}\.)+\p{L}$`)

// clauseBreak matches where a new clause starts; group 1, when it matched, is the new clause's subject,
// which stays in the clause. A subordinator that gives a reason (", considering I'm using X", ", especially
// since I've …") starts a clause of its own: what follows it is stated, not hedged; so is what "since" in time
// introduces ("He's been my dentist since I moved to Denver": the move happened).
var clauseBreak = regexp.MustCompile(`,\s+(?:(?:and\s+)?(?:also\s+)?considering|given\s+that|especially\s+(?:since|as|because)|seeing\s+as|now\s+that|taking\s+into\s+account)\s+(?:the\s+fact\s+)?(?:that\s+)?|\s+[-–—]+\s+|;\s+|\s*\(\s*|\s*\)\s*|,\s+(?:but|so|because)\s+|\s+(?:but|because|although|though|whereas)\s+|(?:,\s+(?:and\s+)?(?:then\s+)?|,?\s+since\s+)((?:I|we|my|I'm|I've|we're|we've|I'll|[A-Z][a-z]+\s+and\s+I)\s)`)

// splitClauses splits a sentence into clauses at dashes, semicolons, parentheses and conjunctions that start
// a new clause. The subject of a clause started by ", and I ..." stays in the clause.
func splitClauses(s string) []string {
	var out []string
	last := 0
	for _, loc := range clauseBreak.FindAllStringSubmatchIndex(s, -1) {
		piece := s[last:loc[0]]
		next := loc[1]
		if loc[2] >= 0 {
			next = loc[2]
		}
		if p := strings.TrimSpace(piece); p != "" {
			out = append(out, p)
		}
		last = next
	}
	if p := strings.TrimSpace(s[last:]); p != "" {
		out = append(out, p)
	}
	return splitAndI(splitCommaSplices(out))
}

// reSpliceSubject finds, after a comma and an optional coordinator, the start of what may be a clause of its
// own (after a time adverb too: "… and now I'm a developer"): a personal pronoun (not "it", which points back
// into the clause before it: "went camping and it was great" stays one statement), a possessive or definite
// noun phrase ("my husband", "the team"), a capitalized name or, after a comma, a bare noun typed without its
// article ("landlord sent the letter, rent goes up in August"; group 1 is where that clause starts). "and",
// "but" and "so" join clauses without a comma as well.
var reSpliceSubject = regexp.MustCompile(`(?:,\s+(?:(?:and|so|but|then|now|plus|though)\s+)?|\s+(?:and|but|so)\s+(?:(?:now|then)\s+)?)((?:he|she|they|we|I|He|She|They|We)(?:'s|'re|'ve|'d|'ll)?\s|(?:[Mm]y|[Oo]ur|[Hh]is|[Hh]er|[Tt]heir|[Tt]he)\s+\p{L}|\p{Lu}\p{Ll}+\s|\p{Ll}+\s)`)

// splitCommaSplices splits a clause where two independent clauses meet ("Mateo jumped ship, he's at Stripe
// now", "I'm in Riga and flights are complicated"): English joins clauses with a comma alone in speech and
// chat (the comma splice) as well as with "and", "but" or "so". Both sides
// must be clauses — the left with a finite verb, the right a subject followed by its finite verb, as the
// part-of-speech tagger reads it — so lists ("Paris, London and Rome"), appositions ("my vet, Dr. Alvarez,")
// and fronted phrases ("In Paris, Anna works") stay whole.
func splitCommaSplices(clauses []string) []string {
	var out []string
	for _, c := range clauses {
		for {
			end, next := spliceAt(c)
			if next < 0 {
				break
			}
			out = append(out, strings.TrimSpace(c[:end]))
			c = c[next:]
		}
		out = append(out, c)
	}
	return out
}

// spliceAt returns where the first clause of a splice in c ends and where the second starts, or -1, -1.
func spliceAt(c string) (end, next int) {
	if !strings.Contains(c, ", ") && !strings.Contains(c, " and ") && !strings.Contains(c, " but ") && !strings.Contains(c, " so ") {
		return -1, -1
	}
	for _, m := range reSpliceSubject.FindAllStringSubmatchIndex(c, -1) {
		left := c[:m[0]]
		if bare, noun := bareStart(c[m[2]:m[3]]); bare && (c[m[0]] != ',' || !noun) {
			// A bare noun opens a clause only after a comma.
			continue
		}
		// The subject and its verb come within the first words of the right clause, and tagging a few
		// words of each side is what the decision needs: the extractor tags every candidate comma.
		if len(strings.Fields(left)) < 3 || !finiteClause(lastWords(left, 12), false) || !finiteClause(firstWords(c[m[2]:], 8), true) {
			continue
		}
		return m[0], m[2]
	}
	return -1, -1
}

// bareStart reports whether a reSpliceSubject match is its last alternative, a lower-case word that is no
// pronoun or determiner of the others (bare), and whether that word may be a noun opening a clause: "it",
// "this" or "that" point back into the clause before ("… every day, it's about 9 km") and open none.
func bareStart(w string) (bare, noun bool) {
	f := strings.Fields(w)
	if len(f) == 0 || !unicode.IsLower([]rune(f[0])[0]) {
		return false, false
	}
	switch f[0] {
	case "he", "she", "they", "we", "my", "our", "his", "her", "their", "the":
		return false, false
	}
	return true, !notNames[f[0]] && !strings.ContainsRune(f[0], '\'')
}

// firstWords returns the first n words of s; lastWords the last n.
func firstWords(s string, n int) string {
	ws := strings.Fields(s)
	return strings.Join(ws[:min(n, len(ws))], " ")
}

func lastWords(s string, n int) string {
	ws := strings.Fields(s)
	return strings.Join(ws[max(0, len(ws)-n):], " ")
}

// finiteClause reports whether s has a finite verb (a present or past tense, or a modal) by its parts of
// speech; with subjectFirst, that verb must follow the clause's opening noun phrase, at most a few words in,
// with nothing but nouns, determiners, possessives and adverbs before it.
func finiteClause(s string, subjectFirst bool) bool {
	toks := nlp.Analyze(s)
	for i, t := range toks {
		switch {
		case t.Tag == "VBZ" || t.Tag == "VBD" || t.Tag == "VBP" || t.Tag == "MD":
			return i > 0
		case !subjectFirst && i > 0 && t.Tag == "NN" && nlp.IsIrregularPast(t.Text) && (nlp.IsNoun(toks[i-1].Tag) || toks[i-1].Tag == "PRP"):
			// An irregular past the tagger took for a noun, after its subject ("the estate agent rang").
			return true
		case !subjectFirst:
			continue
		case i > 4 || t.Text == "," || !(nlp.IsNoun(t.Tag) || t.Tag == "PRP" || t.Tag == "PRP$" || t.Tag == "DT" || t.Tag == "RB" || nlp.IsAdjective(t.Tag) || t.Tag == "POS"):
			return false
		}
	}
	return false
}

var reAndI = regexp.MustCompile(`\s+and\s+(?:then\s+)?((?:I|we)\s)`)

// reAndVerb finds a second verb phrase of a first-person clause: "We talked it over and raised our budget",
// "I quit and joined a startup", or after a comma without "and" ("We're in Leeds now, just bought a flat",
// "Finished up in October, got a job at the port"), as chat strings verb phrases.
var reAndVerb = regexp.MustCompile(`(?:,?\s+and\s+(?:then\s+)?(?:(?:also|finally|just|eventually|now)\s+)?|,\s+(?:(?:just|also|finally|recently|then)\s+)?)(\p{Ll}+)\s`)

// reToValue is a verb and "to", perhaps with a particle between them: "bumped up to", "went to", "cut back to".
var reToValue = regexp.MustCompile(`^\p{L}+\s+(?:(?:up|down|back)\s+)?to\s+`)

// adjectivalParticiples are past participles English uses as adjectives of a noun's state or name ("a firm
// based in Leeds", "a dog called Rex", "a town known for its cheese"), beside personStates.
var adjectivalParticiples = map[string]bool{"based": true, "located": true, "known": true, "called": true, "named": true, "born": true, "related": true, "situated": true}

// commaVerbPhrase reports whether the verb at c[at:] after a bare comma starts a verb phrase of its own: a past
// tense with its object or particle after it ("…, got a job at the port", "…, moved to Leeds"). A participle
// before "by", "in" or "on" is a reduced relative clause of the noun before the comma ("the house, built in
// 1920"), and a base form a list's item.
func commaVerbPhrase(c string, at int) bool {
	if m := reToValue.FindStringIndex(c[at:]); m != nil && reAmountStart.MatchString(c[at+m[1]:]) {
		// "Got my appraisal, bumped up to £50k": an amount's change, said of the thing, not of the speaker.
		return false
	}
	toks := nlp.Analyze(firstWords(c[at:], 3))
	if len(toks) < 2 || !pastVerb(toks[0].Lower) {
		return false
	}
	if b, ok := verbBase(toks[0].Lower); !ok || b == toks[0].Lower || personState(toks[0].Lower) || adjectivalParticiples[toks[0].Lower] {
		// "We met Tom, married to Ana now": a participle of a state describes the noun before the comma.
		return false
	}
	switch next := toks[1]; {
	case next.Tag == "DT" || next.Tag == "PRP$" || next.Tag == "PRP" || next.Tag == "CD" || next.Tag == "RP" || next.Tag == "VBN" || nlp.IsProper(next.Tag):
		return true
	case next.Tag == "IN" || next.Tag == "TO":
		return next.Lower != "by" && next.Lower != "in" && next.Lower != "on" && next.Lower != "from" && next.Lower != "of"
	}
	return false
}

// reColonClause is a colon between two clauses ("The raise came through: my salary is now €58,500").
var reColonClause = regexp.MustCompile(`:\s+((?:my|our|the|I|we|[A-Z]\w*)\s)`)

// splitAndI splits "I live in Toronto and I work for Shopify" into two clauses; a short left part without a
// verb stays whole ("My GF and I went ...").
func splitAndI(clauses []string) []string {
	var out []string
	var split []string
	for _, c := range clauses {
		// A colon between two clauses that each have a verb: two statements.
		for {
			loc := reColonClause.FindStringSubmatchIndex(c)
			if loc == nil || !hasVerbWord(c[:loc[0]]) || !hasVerbWord(c[loc[2]:]) {
				break
			}
			split = append(split, strings.TrimSpace(c[:loc[0]]))
			c = c[loc[2]:]
		}
		split = append(split, c)
	}
	clauses = nil
	for _, c := range split {
		// "We talked it over and raised our budget to $3,250": the second verb phrase keeps the subject.
		if m := reAndVerb.FindStringSubmatchIndex(c); m != nil && (reFirstSubject.MatchString(c) || reFirstContracted.MatchString(c) || diaryStart(c)) {
			w := c[m[2]:m[3]]
			// After "now" a first-person verb in its base form is the present ("… and now drive a Tesla").
			now := strings.Contains(strings.ToLower(c[m[0]:m[2]]), "now")
			bareComma := strings.TrimSpace(c[m[0]:m[2]]) == ","
			if b, ok := verbBase(w); ok && (b != w || now || presentVerbAt(c, m[2])) && !strings.HasSuffix(w, "ing") && (!bareComma || commaVerbPhrase(c, m[2])) {
				// A diary clause ("Sold the Focus and bought a Niro") leaves out its subject, the speaker.
				subj := reFirstSubject.FindString(c)
				if m := reFirstContracted.FindStringSubmatch(c); m != nil {
					subj = m[1] + " "
				}
				if subj == "" {
					subj = "I "
				}
				clauses = append(clauses, strings.TrimSpace(c[:m[0]]), subj+c[m[2]:])
				continue
			}
		}
		clauses = append(clauses, c)
	}
	for _, c := range clauses {
		for {
			loc := reAndI.FindStringSubmatchIndex(c)
			// "I retrained and I'm now …": a left part with a verb of its own is a clause however short; "My
			// brother Eli and I …" is a subject.
			if loc == nil {
				break
			}
			if left := c[:loc[0]]; len(strings.Fields(left)) < 3 && !hasVerbWord(left) || reCompoundWhole.MatchString(strings.TrimSpace(left)) {
				break
			}
			out = append(out, strings.TrimSpace(c[:loc[0]]))
			c = c[loc[2]:]
		}
		out = append(out, c)
	}
	return out
}

// diaryStart reports a clause that starts with a verb in the past tense, its subject (the speaker) left out
// as in a diary or a chat ("Sold the Focus last week", "Finally quit my job").
func diaryStart(c string) bool {
	for _, w := range strings.Fields(c) {
		w = strings.ToLower(strings.Trim(w, ",.;!?\"'"))
		if adverbs[w] {
			continue
		}
		b, ok := verbBase(w)
		return ok && b != w && !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "s") && pastVerb(w)
	}
	return false
}

// reCompoundWhole is a whole phrase that can stand beside "I" in a subject: "My brother Eli", "our neighbour",
// "Samantha".
var reCompoundWhole = regexp.MustCompile(`^` + compoundPartner + `$`)

// compoundPartner is who stands beside "I" or "we" in a subject: a possessive and a noun, perhaps a name
// after it, or a name alone.
const compoundPartner = `(?:(?i:my|our)\s+[\w-]+(?:\s+\p{Lu}\p{Ll}[\p{L}\p{M}]*)?|\p{Lu}\p{Ll}[\p{L}\p{M}]*)`

// reFirstSubject is a first-person subject at the start of a clause; reFirstContracted one with its verb
// contracted ("I'm", "we've": group 1 the pronoun).
var (
	reFirstSubject    = regexp.MustCompile(`^(?:I|We|we)\s`)
	reFirstContracted = regexp.MustCompile(`^(I|We|we)'(?:m|re|ve)\s`)
)

// governsBase reports a token that takes a bare verb after it: "to" before a verb, a modal ("will", "'ll",
// "can"), or its spoken forms ("wanna", "gonna", "gotta").
func governsBase(toks []nlp.Token, i int) bool {
	switch {
	case toks[i].Tag == "MD":
		return true
	case toks[i].Tag == "TO":
		// An infinitive, though the tagger may read its verb as a noun ("hoping to share my love").
		if i+1 >= len(toks) {
			return false
		}
		b, ok := verbBase(toks[i+1].Lower)
		return toks[i+1].Tag == "VB" || toks[i+1].Tag == "VBP" || ok && b == toks[i+1].Lower && nlp.IsNoun(toks[i+1].Tag)
	}
	switch toks[i].Lower {
	case "wanna", "gonna", "gotta", "'ll", "let's":
		return true
	}
	return false
}

// nounPhraseBefore reports a common noun right before toks[and] in a prepositional phrase — a preposition,
// then a determiner or a possessive at most three words before the noun: "with the support and …", where the
// noun after "and" continues the phrase. After a verb's object ("bought a metal detector and walk …") a verb
// may follow.
func nounPhraseBefore(toks []nlp.Token, and int) bool {
	if and < 1 || toks[and-1].Tag != "NN" && toks[and-1].Tag != "NNS" {
		return false
	}
	for j := and - 2; j >= max(1, and-4); j-- {
		if toks[j].Tag == "DT" || toks[j].Tag == "PRP$" {
			return toks[j-1].Tag == "IN"
		}
	}
	return false
}

// presentVerbAt reports a verb in its base form at byte offset at of a first-person clause that the tagger
// reads as a verb of the present, with a complement after it: "I live in Leeds and work at the Royal
// Infirmary", "I'm based in Madrid and work for a fintech". A noun joined by "and" ("I like cats and dogs",
// "I love music and work") has no complement of a verb after it, and a tagged noun only a preposition; after
// an infinitive or a modal the bare verb is theirs (governsBase).
func presentVerbAt(c string, at int) bool {
	toks := nlp.Analyze(c)
	for i, t := range toks {
		if t.Start < at && governsBase(toks, i) {
			// "I'm planning to check out this cafe and hang out there", "I'll do some research and see": the
			// second bare verb is the infinitive's or the modal's, not a statement of the present.
			return false
		}
		if t.Start != at {
			continue
		}
		if i+1 >= len(toks) {
			return false
		}
		switch next := toks[i+1].Tag; {
		case t.Tag == "VBP" || t.Tag == "VB":
			return next == "IN" || next == "DT" || next == "TO" || next == "PRP$" || next == "RP"
		case t.Tag == "NN":
			// The tagger reads a bare verb after "and" as a noun ("and work at …"); a preposition right
			// after it is a verb's complement — unless "and" joins it to the noun of a prepositional phrase
			// ("with the support and cheer from my friends").
			return (next == "IN" || next == "TO") && !nounPhraseBefore(toks, i-1)
		}
		return false
	}
	return false
}

// hasVerbWord reports a word in s that is a finite verb form ("is", "came", "raised").
func hasVerbWord(s string) bool {
	for _, w := range strings.Fields(strings.ToLower(s)) {
		w = strings.Trim(w, ",.;!?\"'")
		switch w {
		case "is", "are", "was", "were", "am", "has", "have", "had", "will", "'s":
			return true
		}
		if b, ok := verbBase(w); ok && b != w && !strings.HasSuffix(w, "ing") {
			return true
		}
	}
	return false
}
