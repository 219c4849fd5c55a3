package rules

import (
	"regexp"
	"strings"
)

// People state facts inside their questions: "I'm using Flask 2.3 with Python 3.11, how do I add a login
// page?" or "My deadline moved to May 5 — can you re-plan?". The question itself claims nothing, but the
// clauses around it do. statedParts separates the two; a sentence that is only a question still yields
// nothing.

// questionLead is what may precede a question opener inside a sentence ("so can you", "and what").
const questionLead = `(?:(?:and|so|but|or|then|also|plus|please|now|just|anyway|kinda|hmm+)[\s,]+)*`

// reQuestionOpener matches the start of a clause that asks or requests rather than states.
var reQuestionOpener = regexp.MustCompile(`(?i)^` + questionLead + `(?:` +
	`(?:what|why|how|which|who|whom|whose)\b|` +
	`(?:when|where)\s+(?:do|does|did|is|are|was|were|can|could|should|would|will|shall|you|should)\b|` +
	`(?:can|could|would|will|should|shall|do|does|did|is|are|was|were|am|have|has|had|may|might|must|` +
	`cannot|can not|does not|do not|is not|are not|will not|would not)\s+(?:you|I|we|it|this|that|these|those|there|he|she|they|my|our|your|the|a|an|any|anyone|someone|somebody)\b|` +
	`(?:any|got\s+any|have\s+you\s+got\s+any)\s+(?:tips|advice|ideas|suggestions|thoughts|recommendations|pointers|insights?|resources|guidance)\b|` +
	`(?:help\s+me|tell\s+me|show\s+me|let\s+me\s+know|walk\s+me|remind\s+me|give\s+me|explain|suggest|recommend)\b|` +
	`(?:I|we)\s+(?:would\s+like|want|need|am\s+curious|am\s+wondering|was\s+wondering|wonder)\s+(?:to\s+(?:know|understand|find\s+out|learn)\s+)?(?:if|whether|how|what|why|when|where|which|who)\b` +
	`)`)

// reTagQuestion matches a sentence that ends by asking to confirm it ("..., right?", "..., isn't it?"):
// the speaker asks, so the sentence claims nothing.
var reTagQuestion = regexp.MustCompile(`(?i),\s*(?:right|correct|true|yeah|yes|no|ok|okay|huh|eh|isn't it|is not it|aren't they|wasn't it|didn't you|didn't I|don't you think|am I right|you know)\s*\?+["')\s]*$`)

// reQuestionBreak finds where a clause starts inside a sentence: after a comma, dash, semicolon or a
// coordinating word. The question opener itself is checked on what follows.
var reQuestionBreak = regexp.MustCompile(`,\s+|\s+[-–—]+\s+|;\s+|\s+(?:and|so|but)\s+`)

// reRelative matches a relative pronoun: after a comma, "which" and "who" continue a statement
// ("the response time, which has improved to 250ms") rather than ask.
var reRelative = regexp.MustCompile(`(?i)^(?:which|who|whom|whose)\b`)

// reStatedSubordinate finds a subordinate clause that states a fact even inside a question: "..., can you
// help, considering I'm using Python 3.11", "... especially since I've never deployed".
// Plain "since" and "as" are left out: in a question they mostly mark time ("since we last talked").
var reStatedSubordinate = regexp.MustCompile(`(?i)(?:^|[\s,])(?:(?:the\s+fact|considering|given|now\s+that|because|seeing\s+as|especially\s+since|especially\s+as|especially\s+because|taking\s+into\s+account|(?:and\s+)?also\s+considering)\s+(?:the\s+fact\s+)?(?:that\s+)?((?:I|we|my|our)\s)|remind\s+me\s+that\s+(\S))`)

// statedParts returns the clauses of a question sentence that state something: those before and between
// its question clauses, and the subordinate clauses of fact inside them. A sentence that is a question
// and nothing else (or a tag question) returns nil.
func statedParts(sent string) []string {
	s := strings.TrimSpace(sent)
	if reTagQuestion.MatchString(s) {
		return nil
	}
	s = strings.TrimRight(s, "?!. \"')")
	// Pieces start at every clause break whose continuation opens a question; the other breaks stay inside
	// the pieces and are split later by splitClauses.
	var pieces []string
	last := 0
	for _, loc := range reQuestionBreak.FindAllStringIndex(s, -1) {
		if loc[0] <= last {
			continue
		}
		if rest := s[loc[1]:]; reQuestionOpener.MatchString(rest) && !reRelative.MatchString(rest) {
			pieces = append(pieces, s[last:loc[0]])
			last = loc[0]
		}
	}
	pieces = append(pieces, s[last:])
	if len(pieces) == 1 && !reQuestionOpener.MatchString(s) && !isQuestion(s) {
		// One clause ending in a question mark is a question, even without an opener ("You moved?",
		// "Anything new since we talked?").
		return nil
	}
	var out []string
	for _, p := range pieces {
		p = strings.TrimSpace(p[leadingBreak(p):])
		if p == "" {
			continue
		}
		if !reQuestionOpener.MatchString(p) && !isQuestion(p) {
			out = append(out, splitClauses(p)...)
			continue
		}
		// A question clause: keep only the facts it gives as reasons.
		for p != "" {
			loc := reStatedSubordinate.FindStringSubmatchIndex(p)
			if loc == nil {
				break
			}
			at := loc[2]
			if at < 0 {
				// "remind me that X": X is what the speaker already knows.
				at = loc[4]
			}
			rest := p[at:]
			// The fact runs until the next question opener.
			end := len(rest)
			for _, b := range reQuestionBreak.FindAllStringIndex(rest, -1) {
				if reQuestionOpener.MatchString(rest[b[1]:]) && !reRelative.MatchString(rest[b[1]:]) {
					end = b[0]
					break
				}
			}
			out = append(out, splitClauses(rest[:end])...)
			p = rest[end:]
		}
	}
	return out
}

// leadingBreak returns the length of a clause break at the start of p (", ", " - ", " and "), or 0.
func leadingBreak(p string) int {
	if loc := reQuestionBreak.FindStringIndex(p); loc != nil && loc[0] == 0 {
		return loc[1]
	}
	return 0
}

// Complements: "I'm worried that I only got 3 interviews", "I just found out it was moved to May 5",
// "how can I use the fact that I secured 5 offers": the embedded clause is the fact; the frame around it
// (a feeling, a discovery) is not what anyone will ask about. Chat leaves the frame's subject and copula out
// as often as not ("So glad I left Fairfield", "Just found out Tom got the job").
var reComplement = regexp.MustCompile(`(?i)(?:^(?:(?:I|we)\s+(?:(?:am|are|was|were|feel|felt|have\s+been|got)\s+)?)?(?:(?:so|really|very|kinda|kind\s+of|sorta|a\s+bit|a\s+little|pretty|super|quite|just|also|still|now|totally|actually)\s+)*` +
	`(?:told|worried|glad|happy|excited|thrilled|relieved|proud|surprised|amazed|aware|sure|certain|convinced|afraid|concerned|sad|upset|grateful|thankful|confident|curious|nervous|anxious|stoked|pleased|disappointed|frustrated|shocked|noticed|realized|realised|found\s+out|learned|learnt|discovered|heard|read|saw|remembered|recalled|mentioned|said|told\s+you|figured\s+out|understand|know|knew|see|think|believe|guess|suppose|reckon|assume|decided|confirmed|checked)\s+` +
	`(?:(?:about\s+)?(?:how|why)\s+)?(?:that\s+)?|\bthe\s+fact\s+that\s+|\b(?:understand|see|explain|figure\s+out|know)\s+(?:how|why)\s+)` +
	`((?:I|we|my|our|the|this|it|he|she|they|[A-Z][\w'-]*)\s)`)

// complementOf returns the embedded clause of a clause that reports a fact ("I noticed that X", "I'm
// worried that X", "the fact that X", "understand how X"), or "" when it has none or the embedded clause
// is only an infinitive ("understand how to …").
func complementOf(clause string) string {
	loc := reComplement.FindStringSubmatchIndex(clause)
	if loc == nil {
		return ""
	}
	inner := strings.TrimSpace(clause[loc[2]:])
	toks := tokenize(inner, 0)
	if len(toks) < 3 || toks[1].lower == "to" || !hasFiniteVerb(toks[1:]) && !hasOtherVerb(toks[1:]) {
		// "I saw my sister Anna at the mall": an object, not a clause.
		return ""
	}
	return inner
}

// hasOtherVerb reports a past-tense verb, "am" or a modal among toks ("I secured 5 offers"), the verbs
// hasFiniteVerb leaves out.
func hasOtherVerb(toks []token) bool {
	for _, t := range toks {
		if _, ok := irregular[t.lower]; ok {
			return true
		}
		if b, ok := verbBase(t.lower); ok && b != t.lower && strings.HasSuffix(t.lower, "ed") {
			return true
		}
		if t.lower == "am" || t.lower == "will" || t.lower == "would" || t.lower == "can" {
			return true
		}
	}
	return false
}
