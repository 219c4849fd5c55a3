package rules

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/pkg/wordnet"
)

// typographic maps curly quotes and similar to ASCII so patterns need one spelling.
var typographic = strings.NewReplacer("’", "'", "‘", "'", "“", "\"", "”", "\"", "…", "...", "\u00a0", " ")

var contractions = []struct {
	re   *regexp.Regexp
	repl string
	// needs is a lower-case string every match contains: a sentence without it is not searched.
	needs string
}{
	{regexp.MustCompile(`(?i)\b(?:I\s+)?can(?:no|')?t\s+wait\s+(?:for|to)\b`), "I look forward to", "wait"},
	{regexp.MustCompile(`(?i)\b(I)'m\b`), "$1 am", "'"},
	// A name is capitalized or an acronym ("DHL's my employer now").
	{regexp.MustCompile(`\b(\p{Lu}(?:\p{Ll}+|\p{Lu}+))'s\s+(my|our)\s`), "$1 is $2 ", "'"},
	// "Anna's a doctor", "my physio's called Anders", "his new girlfriend's called Priya", "Tom's been
	// promoted": after a name or a possessive noun phrase, "'s" before a word that cannot follow a possessive
	// (an article, a preposition, an adverb, a participle) is "is", or "has" before "been", "got" and "gone".
	{regexp.MustCompile(`\b(\p{Lu}(?:\p{Ll}+|\p{Lu}+)|(?i:my|our|his|her|their|the)\s+[\p{L}-]+)'s\s+(been|got|gotten|gone)\b`), "$1 has $2", "'"},
	{regexp.MustCompile(`\b(\p{Lu}(?:\p{Ll}+|\p{Lu}+)|(?i:my|our|his|her|their|the)\s+(?:[\p{L}-]+\s+)?[\p{L}-]+)'s\s+(a|an|the|at|in|on|off|from|into|with|back|away|now|still|not|no|also|just|never|always|really|finally|called|named|where)\s`), "$1 is $2 ", "'"},
	// "my salary's 44,500 pounds", "it's £1,175 now", "my salary's 45k": before an amount or a number, "is".
	{regexp.MustCompile(`\b((?i:it|that))'s\s+((?:about|around|only|just|over|under|almost|nearly|now)\s+)?((?:[` + currencySigns + `]|R)?\d(?:[\d,.]*\d)?(?:k|K|m|bn)?)`), "$1 is $2$3", "'"},
	// (Not after a name: "Kelly's 7 PM meeting" is hers.)
	{regexp.MustCompile(`\b((?i:my|our|his|her|their|the)\s+[\p{L}-]+)'s\s+((?:about|around|only|just|over|under|almost|nearly)\s+)?((?:[` + currencySigns + `]|R)?\d(?:[\d,.]*\d)?(?:k|K|m|bn)?)`), "$1 is $2$3", "'"},
	// "she's at Shopify now", "he's been promoted": "'s" after a personal pronoun is "is", or "has" before
	// "been", "got" and "gone".
	{regexp.MustCompile(`(?i)\b(he|she|it)'s\s+(been|got|gotten|gone)\b`), "$1 has $2", "'"},
	{regexp.MustCompile(`(?i)\b(he|she)'s\b`), "$1 is", "'"},
	{regexp.MustCompile(`(?i)\b(I|we|you|they)'ve\b`), "$1 have", "'"},
	{regexp.MustCompile(`(?i)\b(I|we|you|they|he|she|it)'ll\b`), "$1 will", "'"},
	{regexp.MustCompile(`(?i)\b(I|we|you|they|he|she)'d\b`), "$1 would", "'"},
	{regexp.MustCompile(`(?i)\b(we|you|they)'re\b`), "$1 are", "'"},
	{regexp.MustCompile(`(?i)\b(can)'t\b`), "${1}not", "'"},
	{regexp.MustCompile(`(?i)\b(won)'t\b`), "will not", "'"},
	{regexp.MustCompile(`(?i)\b(\w+)n't\b`), "$1 not", "'"},
	{regexp.MustCompile(`(?i)\bgonna\b`), "going to", "gonna"},
	{regexp.MustCompile(`(?i)\bwanna\b`), "want to", "wanna"},
	{regexp.MustCompile(`(?i)\bgotta\b`), "have to", "gotta"},
	{regexp.MustCompile(`(?i)\bIm\b`), "I am", "im"},
	{regexp.MustCompile(`(?i)\bIve\b`), "I have", "ive"},
	// Chat drops the apostrophe of contractions whose bare spelling is no English word: "hes", "shes",
	// "theyre", "dont", "didnt", "doesnt", "isnt", "wasnt", "havent", "hasnt".
	{regexp.MustCompile(`(?i)\b(he|she)s\b`), "$1 is", "hes"},
	{regexp.MustCompile(`(?i)\btheyre\b`), "they are", "theyre"},
	{regexp.MustCompile(`(?i)\b(do|did|does|is|was|have|has)nt\b`), "$1 not", "nt"},
	{regexp.MustCompile(`(?i)\bi\b`), "I", "i"},
}

// reProgressiveS is "'s" before an -ing word and a preposition or particle, after a name or a possessive noun
// phrase: "Nora's transferring to Glasgow", "Tom's living in Oslo" — unless the -ing word is a noun.
var reProgressiveS = regexp.MustCompile(`\b(\p{Lu}\p{Ll}+|(?i:my|our|his|her|their|the)\s+[\p{L}-]+)'s\s+(\p{Ll}+ing)(\s+(?:to|into|back|away|out|off|for|from|at|in|on|with|abroad|home|there|here)\b)`)

// rePerfectS is "'s" before a past participle after a name or a possessive noun phrase ("Kenji's moved over
// to Nintendo", "Emma's left Google", "my sister's married a dentist"), with the word after the participle.
var rePerfectS = regexp.MustCompile(`\b(\p{Lu}\p{Ll}+|(?i:my|our|his|her|their|the)\s+[\p{L}-]+)'s\s+(\p{Ll}+)(\s+[\p{L}'-]+|\s*[.,;:!?—–-]|\s*$)`)

// nameTakingParticiples are the participles of verbs of everyday change that take a name as their object
// right after "'s" ("Kenji's joined Nintendo", "Ana's married Tom"); before a name any other participle is an
// adjective of a possessed name ("Montserrat's updated Employment Act").
var nameTakingParticiples = map[string]bool{"joined": true, "left": true, "moved": true, "quit": true,
	"married": true, "divorced": true, "dumped": true, "met": true, "visited": true, "started": true,
	"founded": true, "sold": true, "bought": true, "hired": true, "fired": true, "signed": true,
	"transferred": true, "relocated": true, "switched": true, "gone": true, "been": true, "got": true,
	"become": true, "taken": true, "retired": true}

// perfectParticiple reports whether w is spelt as a verb's past participle: a regular -ed form or an
// irregular participle ("left", "gone", "taken"; the table of irregular verbs leaves out the auxiliaries'
// "been", "had" and "done"); not a past-only form ("went", "took").
func perfectParticiple(w string) bool {
	if _, ok := irregular[w]; ok {
		return nlp.IsIrregularParticiple(w) || w == "been" || w == "had" || w == "done"
	}
	if _, ok := verbBase(w); !ok || !strings.HasSuffix(w, "ed") || nonVerbsEd[w] {
		return false
	}
	return true
}

// statePassives are participles that, before a preposition, name a state one is in rather than something one
// has done ("married to", "based in", "employed by"): English uses them as adjectives after "be".
var statePassives = map[string]bool{"married": true, "engaged": true, "divorced": true, "separated": true,
	"retired": true, "booked": true, "scheduled": true, "planned": true, "arranged": true, "fixed": true,
	"set": true, "postponed": true, "cancelled": true, "canceled": true,
	"based": true, "located": true, "situated": true, "headquartered": true, "employed": true, "related": true,
	"known": true, "involved": true, "born": true, "named": true, "called": true, "qualified": true}

// takesObject reports whether the words after a participle begin an object (a determiner, a possessive, a
// name): "Ana's married Tom", "Ana's married a dentist" — not "Lars's divorced now".
func takesObject(next string) bool {
	w := strings.TrimSpace(next)
	if w == "" {
		return false
	}
	if nlp.Capitalized(w) {
		return true
	}
	switch strings.ToLower(w) {
	case "a", "an", "the", "my", "our", "his", "her", "their", "him", "them", "me", "us", "someone", "somebody":
		return true
	}
	return false
}

// statePrepositions may follow a state participle.
var statePrepositions = map[string]bool{"to": true, "in": true, "at": true, "by": true, "for": true, "as": true,
	"from": true, "with": true, "on": true, "after": true}

// opensPredicate reports whether the word after a participle begins what a verb takes (a determiner, a
// pronoun, a preposition or particle, a name, an adverb) or the clause ends there, so the participle is a
// verb: "Emma's left Google", "Kenji's moved over to …" — not "Emma's left hand", a noun after an adjective.
func opensPredicate(next string) bool {
	w := strings.TrimSpace(next)
	if w == "" || strings.ContainsAny(w[:1], ".,;:!?—–-") {
		return true
	}
	if nlp.Capitalized(w) {
		return true
	}
	switch strings.ToLower(w) {
	case "a", "an", "the", "my", "our", "his", "her", "their", "its", "your", "this", "that", "some", "to", "from",
		"in", "into", "on", "at", "for", "with", "over", "up", "out", "off", "back", "away", "down", "again",
		"already", "just", "now", "recently", "finally", "since", "him", "them", "me", "us", "there", "here", "house",
		"jobs", "home":
		return true
	}
	return adverbs[strings.ToLower(w)]
}

// expand normalizes typography and expands the contractions the patterns care about.
func expand(s string) string {
	s = typographic.Replace(s)
	lower := strings.ToLower(s)
	for _, c := range contractions {
		if !strings.Contains(lower, c.needs) {
			continue
		}
		// A name's "'s" right after a preposition of place is the place's own (placeAfterPreposition).
		t := replaceWordsWith(c.re, s, func(dst []byte, m []int) []byte {
			if len(m) > 3 && placeAfterPreposition(s, m[2], m[3]) {
				return append(dst, s[m[0]:m[1]]...)
			}
			return c.re.ExpandString(dst, c.repl, s, m)
		})
		if t != s {
			s, lower = t, strings.ToLower(t)
		}
	}
	if !strings.Contains(s, "'s") {
		return strings.Join(strings.Fields(s), " ")
	}
	s = replaceWordsFunc(rePerfectS, s, func(g []string) string {
		// (A pronoun or a demonstrative is no name: "It's helped a lot".)
		if notNames[strings.ToLower(g[1])] || !perfectParticiple(g[2]) || !opensPredicate(g[3]) ||
			nlp.Capitalized(strings.TrimSpace(g[3])) && !nameTakingParticiples[g[2]] {
			// "Emma's married sister", "Tom's broken leg": a participle before a noun is its adjective, and
			// the "'s" a possessive.
			return g[0]
		}
		if statePassives[g[2]] && (statePrepositions[strings.ToLower(strings.TrimSpace(g[3]))] || !takesObject(g[3])) {
			// "Rita's married to Jon", "Kim's based in Oslo": a state, so "is".
			return g[1] + " is " + g[2] + g[3]
		}
		return g[1] + " has " + g[2] + g[3]
	})
	s = reProgressiveS.ReplaceAllStringFunc(s, func(m string) string {
		g := reProgressiveS.FindStringSubmatch(m)
		if nlp.Known(g[2] + "s") {
			// An -ing word with a plural is a noun ("Anna's wedding in May", "Tom's meeting with Ana"): the
			// "'s" is a possessive.
			return m
		}
		return g[1] + " is " + g[2] + g[3]
	})
	return strings.Join(strings.Fields(s), " ")
}

// placePrepositions are the prepositions of everyday English that take a place: after one, a name with "'s" is
// a place named by its owner — a shop, a restaurant, someone's home ("at Nando's on Friday", "works at
// Sainsbury's now", "moved to Tom's in the spring") — and not a contraction of "is" or "has".
var placePrepositions = map[string]bool{
	"at": true, "to": true, "from": true, "in": true, "into": true, "inside": true, "outside": true, "near": true,
	"by": true, "behind": true, "opposite": true, "past": true, "round": true, "around": true, "towards": true,
	"toward": true, "via": true, "beside": true,
}

// placeAfterPreposition reports whether s[i:j], a contraction's subject, is one capitalized word right after a
// preposition of place (placePrepositions).
func placeAfterPreposition(s string, i, j int) bool {
	if i < 0 || strings.ContainsAny(s[i:j], " \t") || !nlp.Capitalized(s[i:j]) {
		return false
	}
	before := strings.Fields(s[:i])
	return len(before) > 0 && placePrepositions[strings.ToLower(before[len(before)-1])]
}

// discourse holds the interjections, discourse markers and comment adverbs ("technically", "luckily") of
// everyday English that open a sentence without being part of what it states, the markers of a correction
// among them ("Oops,", "My mistake,", "Slight correction:", "Scratch that,": what follows is the statement), and
// the news formula of changing the subject ("In other news", "In happier news").
var discourse = regexp.MustCompile(`(?i)^(?:` + newsHeadings + `\s*[,:!.-]+[\s,!.:—–-]*|(?:yeah|yes|yep|yup|wow|oh|ooh|aw+|ah|hey|hi|hello|well|so far|up to now|so|ok|okay|haha+|lol|omg|btw|by the way|anyway|also|plus|actually|honestly|and|but|sure|totally|true|right|thanks|thank you|cool|nice|awesome|great|indeed|exactly|absolutely|definitely|oh man|man|dude|guess what|fun fact|on another note|speaking of which|funny you should ask|good question|ha|hmm+|um+|uh+|ugh|urgh|argh|meh|phew|whew|yikes|welp|sigh|oof|ouch|gosh|jeez|damn|dang|technically|officially|basically|apparently|obviously|clearly|luckily|fortunately|unfortunately|sadly|hopefully|frankly|sorry|oops|whoops|my bad|my mistake|(?:slight |quick |small )?correction|to be clear|to clarify|scratch that|in (?:other|happier|better|sadder|worse|related|unrelated|brighter|more) news)(?:(?-i:\s*,\s*\p{Lu}\p{Ll}+)[!.,:]+[\s,!.:—–-]*|[\s,!.:—–-]+))+`)

// newsHeadings are the verbless phrases of everyday English that announce what follows ("Sad news, Mango passed
// away", "Change of plans, we're …", "Confession: I'm …", "Plot twist, …"; and "Plans have changed, …", which
// announces a change as they do): set off by punctuation they are no part of the statement. General English (the
// news, update and confession formulas of conversation), not any data set's words; without the punctuation after
// them ("Update the app") they stay.
const newsHeadings = `(?:(?:good|bad|sad|big|great|exciting|happy|fun|funny|quick|small|little|some|mixed|weird|amazing|terrible|awful)\s+news|(?:(?:a|an|another|quick|small|little|big|some|life|general)\s+)?update|(?:a\s+)?(?:small\s+|little\s+)?confession|plot\s+twist|change\s+of\s+plans?|(?:the\s+)?plans?\s+(?:have|has|'ve|'s)?\s*changed|heads\s+up|side\s+note|news\s+flash|newsflash|spoiler\s+alert)`

// stripDiscourse drops leading interjections and discourse markers ("Yeah, ", "By the way, ", "Wow, Mel! ") and
// the adverbials of "until now" ("So far I've …", which the perfect already says; "so" alone is a marker). A
// name after the marker is a vocative only when punctuation ends it: "Anyway, my rent …" and "Anyway, Emma moved …"
// keep their subjects.
// reSentenceAdverb is an -ly adverb opening a sentence, with its comma.
var reSentenceAdverb = regexp.MustCompile(`^\p{L}{3,}ly,\s+`)

func stripDiscourse(s string) string {
	if t := reChatTail.ReplaceAllString(s, ""); t != "" {
		// "im not doing keto anymore lol": chat's closing comment is no part of the statement.
		s = t
	}
	for {
		loc := discourse.FindStringIndex(s)
		if loc == nil {
			// "Weirdly, green has become …", "Sadly, …": a sentence adverb set off by its comma comments on
			// the statement, it is no part of it.
			loc = reSentenceAdverb.FindStringIndex(s)
		}
		if loc == nil {
			// "From this term his football training's moved to Thursdays": when a change starts, in a period
			// of the school or sports year that the date reader does not resolve; the clause is the change.
			if loc = reTermStart.FindStringIndex(s); loc != nil && loc[1] == len(s) {
				return ""
			}
		}
		if loc == nil || loc[1] == 0 {
			return s
		}
		rest := strings.TrimSpace(s[loc[1]:])
		if rest == "" {
			return s
		}
		s = rest
	}
}

// reChatTail is the laughter and the abbreviated comments of chat that close a sentence without being part of
// what it states: "lol", "haha", "tbh" (to be honest), "imo" (in my opinion), "ngl" (not gonna lie), "btw" (by
// the way), "fwiw" (for what it's worth) — the common abbreviations of English online chat, with the
// punctuation after them.
var reChatTail = regexp.MustCompile(`(?i)(?:[\s,]+(?:lol|lmao|lmfao|rofl|ha(?:ha)+|he(?:he)+|tbh|tbf|imo|imho|ngl|btw|fwiw))+[\s.!?]*$`)

// reTermStart opens a clause with the start of a term, semester, season or school year ("From this term",
// "Starting next semester,", "As of the new season").
var reTermStart = regexp.MustCompile(`(?i)^(?:from|starting(?:\s+(?:from|in))?|as\s+of|beginning)\s+(?:this|next|the\s+(?:next|new|coming))\s+(?:term|semester|season|school\s+year|academic\s+year)\b\s*,?\s*`)

func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-'
	})
}

var negations = map[string]bool{
	"not": true, "never": true, "no": true, "cannot": true, "nobody": true, "nothing": true, "neither": true,
	"nor": true, "nowhere": true, "none": true, "hardly": true, "barely": true,
}

var hypotheticals = map[string]bool{
	"would": true, "could": true, "might": true, "maybe": true, "perhaps": true, "wish": true, "wishes": true,
	"wonder": true, "wondering": true, "suppose": true, "supposing": true, "imagine": true, "if": true,
	"unless": true, "whether": true, "should": true, "hope": true, "hoping": true, "hopefully": true,
	"possibly": true, "probably": true, "considering": true, "someday": true,
}

var questionWords = map[string]bool{
	"what": true, "why": true, "how": true, "when": true, "where": true, "who": true, "which": true, "whose": true,
	"whom": true, "do": true, "does": true, "did": true, "is": true, "are": true, "was": true, "were": true,
	"can": true, "could": true, "would": true, "should": true, "will": true, "have": true, "has": true,
	"had": true, "shall": true, "may": true, "am": true, "anything": true, "any": true,
}

var subjectPronouns = map[string]bool{"you": true, "i": true, "it": true, "they": true, "he": true,
	"she": true, "we": true, "there": true, "this": true, "that": true, "your": true, "anyone": true}

// isQuestion reports questions: a final "?" or an inverted auxiliary ("Did you go", "What is").
func isQuestion(s string) bool {
	t := strings.TrimRight(s, " \"')")
	if strings.HasSuffix(t, "?") {
		return true
	}
	ws := words(strings.ToLower(s))
	if len(ws) >= 2 && questionWords[ws[0]] {
		switch ws[0] {
		case "what", "why", "how", "who", "which", "whose", "whom":
			return true
		case "when", "where":
			// "When I was a kid, ..." is a statement.
			return !subjectPronouns[ws[1]] || ws[1] == "you" || ws[1] == "do" || ws[1] == "did"
		}
		return subjectPronouns[ws[1]]
	}
	return false
}

// minAssertedWords is the shortest prefix kept before a negation or hedge ("I read it and hoping ..." keeps
// "I read it"); anything shorter ("I would", "I am not") cannot state a fact.
const minAssertedWords = 3

var reTrailingPronoun = regexp.MustCompile(`(?i)(?:\s+(?:I|we|you|he|she|it|they|that|which|who))+$`)

var reCutTail = regexp.MustCompile(`(?i)[\s,]+(?:and|but|or|so|because|which|that)?\s*$`)

// reNameGiven is "called" or "named" right before a word: what follows is the name given.
var reNameGiven = regexp.MustCompile(`(?i)\b(?:called|named)\s+$`)

// assertedPart returns the part of a clause before its first negation or hedge when that part can stand
// alone, the whole clause when it has neither, and "" when nothing in it is asserted.
func assertedPart(clause string) string {
	if isQuestion(clause) {
		return ""
	}
	for _, loc := range reWordLoc.FindAllStringIndex(clause, -1) {
		raw := clause[loc[0]:loc[1]]
		w := strings.ToLower(raw)
		if !negations[w] && !hypotheticals[w] {
			continue
		}
		if raw != w && loc[0] > 0 && !isTitleCase(raw) {
			// "Alta IF", "NO" inside a name: an acronym, not a hedge.
			continue
		}
		if raw != w && loc[0] > 0 && reNameGiven.MatchString(clause[:loc[0]]) {
			// "a charity called Hope Trust": the name given, not a hedge.
			continue
		}
		prefix := reCutTail.ReplaceAllString(strings.TrimSpace(clause[:loc[0]]), "")
		// "I saw the impact I could make": the hedge belongs to a relative clause; keep what precedes it.
		prefix = reTrailingPronoun.ReplaceAllString(prefix, "")
		// A hedge right after a subject pronoun or auxiliary governs the whole clause.
		if len(strings.Fields(prefix)) < minAssertedWords || endsWithAuxiliary(prefix) {
			// A comma splice ("We moved Leo to Lincoln Montessori, Hawthorne was not a good fit"): the hedge
			// governs the clause after the last comma; the one before it is stated.
			if c := strings.LastIndex(prefix, ","); c > 0 && len(strings.Fields(prefix[:c])) >= minAssertedWords && !endsWithAuxiliary(prefix[:c]) {
				return strings.TrimSpace(prefix[:c])
			}
			return ""
		}
		return prefix
	}
	return clause
}

// isTitleCase reports "Maybe" (capital then lower case), as opposed to "IF" or "NOT".
func isTitleCase(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && strings.ToLower(w[n:]) == w[n:]
}

var reWordLoc = regexp.MustCompile(`[\p{L}\p{N}'-]+`)

func endsWithAuxiliary(s string) bool {
	ws := words(strings.ToLower(s))
	if len(ws) == 0 {
		return true
	}
	switch ws[len(ws)-1] {
	case "i", "we", "you", "he", "she", "it", "they", "am", "is", "are", "was", "were", "do", "does", "did",
		"have", "has", "had", "will", "can", "to", "be", "been", "that", "it's", "there", "this":
		return true
	}
	return false
}

// conditional reports sentences whose every clause depends on a condition ("If I get the job, I'll move").
func conditional(sentence string) bool {
	ws := words(strings.ToLower(sentence))
	if len(ws) == 0 {
		return false
	}
	switch ws[0] {
	case "if", "unless", "imagine", "suppose", "supposing", "whether", "maybe", "perhaps":
		return true
	}
	return len(ws) > 1 && ws[0] == "what" && ws[1] == "if"
}

// filler words carry no content; a sentence made only of them is not worth a claim.
var filler = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`i me my mine you your yours we us our it its he him his she her they them their
		a an the this that these those is am are was were be been being have has had do does did will would
		to of in on at for with and or but so too very really just all some any about up out over again
		great good nice cool awesome amazing wow thanks thank glad happy sweet fun love lovely totally
		definitely absolutely sure yeah yes yep oh hey hi hello well sounds looks seems like see talk
		soon care luck what how there here can could should get got going gonna go lot lots much thing things
		such pretty super incredible fantastic wonderful beautiful cute right okay ok haha lol man keep up
		work proud congrats congratulations day today always never one feel feeling felt make makes made
		know think mean means glad stuff kind sort way time hear heard tell say said let let's`) {
		filler[w] = true
	}
}

// informative reports whether a sentence has at least two content words.
func informative(s string) bool {
	n := 0
	for _, w := range words(strings.ToLower(s)) {
		if !filler[strings.Trim(w, "'-")] && utf8.RuneCountInString(w) > 1 {
			n++
			if n >= 2 {
				return true
			}
		}
	}
	return false
}

var firstPerson = regexp.MustCompile(`(?i)\b(?:I|me|my|mine|myself|we|us|our|ours|ourselves)\b`)

// mentionsSpeaker reports whether a clause speaks in the first person.
func mentionsSpeaker(s string) bool { return firstPerson.MatchString(s) }

var (
	reAndIAm = regexp.MustCompile(`\band I am\b`)
	// reNameAndIVerb is a subject of someone named (or "my" someone) and the speaker at the start of a clause,
	// and the verb after it (groups: what precedes, the other one, the verb).
	reNameAndIVerb = regexp.MustCompile(`(^|[,;:.!?]\s+)((?:[Mm]y\s+\pL+|\p{Lu}[\pL\pM'-]*)(?:\s+\p{Lu}[\pL\pM'-]*)?)\s+and\s+I\s+([a-z]+)\b`)
	reAndIHave     = regexp.MustCompile(`\band I have\b`)
	reIAm          = regexp.MustCompile(`\bI am\b`)
	reIHave        = regexp.MustCompile(`\bI have\b`)
	reIWas         = regexp.MustCompile(`\bI was\b`)
	reIDo          = regexp.MustCompile(`\bI do\b`)
	reIVerb        = regexp.MustCompile(`\bI((?:\s+(?:just|really|also|still|usually|always|often|sometimes|now|totally|definitely|actually|mostly|absolutely|truly|even))*)\s+([a-z]+)\b`)
	reI            = regexp.MustCompile(`\bI\b`)
	reMe           = regexp.MustCompile(`(?i)\b(?:me|myself)\b`)
	reMy           = regexp.MustCompile(`(?i)\b(?:my|mine)\b`)
	reWeAre        = regexp.MustCompile(`(?i)\bwe (are|have|were|will)\b`)
	reWe           = regexp.MustCompile(`(?i)\b(?:we|us|ourselves)\b`)
	reOur          = regexp.MustCompile(`(?i)\b(?:our|ours)\b`)
	reSpaces       = regexp.MustCompile(`\s+([,.!?;:])`)
	reMultiSpac    = regexp.MustCompile(`\s{2,}`)
)

// thirdPersonText rewrites a first-person clause about the speaker into a self-contained third-person
// sentence: "I moved to Berlin" → "Alice moved to Berlin.", "my sister" → "Alice's sister".
func thirdPersonText(clause, speaker string) string {
	return sentence(toThirdPerson(clause, speaker))
}

// toThirdPerson replaces first-person pronouns with the speaker's name.
func toThirdPerson(clause, speaker string) string {
	s := clause
	if speaker != "" {
		poss := speaker + "'s"
		if strings.HasSuffix(speaker, "s") {
			poss = speaker + "'"
		}
		// The speaker's name is literal text in a replacement template ("$" in a name is no group).
		name, owner := strings.ReplaceAll(speaker, "$", "$$"), strings.ReplaceAll(poss, "$", "$$")
		s = replaceWords(reAndIAm, s, "and "+name+" are")
		s = replaceWords(reAndIHave, s, "and "+name+" have")
		// "Inès and I split up": the verb of a coordinated subject stays plural.
		s = replaceWords(reNameAndIVerb, s, "${1}${2} and "+name+" ${3}")
		s = replaceWords(reIAm, s, name+" is")
		s = replaceWords(reIHave, s, name+" has")
		s = replaceWords(reIWas, s, name+" was")
		s = replaceWords(reIDo, s, name+" does")
		var tagged []nlp.Token
		s = replaceWordsFunc(reIVerb, s, func(sub []string) string {
			verb := sub[2]
			if b, ok := verbForms[verb]; ok && b == verb {
				verb = thirdPerson(verb)
			} else if verb == "have" {
				verb = "has"
			} else if !ok && !auxiliaries[verb] && !adverbs[verb] {
				// A verb the lexicon does not list ("I support Juventus"): the tagger says whether the word
				// is a present-tense verb, read once for the clause as said.
				if tagged == nil {
					tagged = nlp.Analyze(clause)
				}
				if presentVerb(tagged, verb) {
					verb = thirdPerson(verb)
				}
			}
			return speaker + sub[1] + " " + verb
		})
		s = replaceWords(reI, s, name)
		s = replaceWords(reMy, s, owner)
		s = replaceWords(reMe, s, name)
		s = replaceWords(reWeAre, s, name+" and others $1")
		s = replaceWords(reWe, s, name+" and others")
		s = replaceWords(reOur, s, owner)
	}
	return s
}

// presentVerb reports whether the tagger reads the first token spelt w as a verb in the present tense, not
// in the third person (VBP: "support" in "I support Juventus").
func presentVerb(toks []nlp.Token, w string) bool {
	for _, t := range toks {
		if t.Lower == w {
			return t.Tag == "VBP"
		}
	}
	return false
}

// sentence tidies spacing, capitalizes the first letter and ends the text with a period unless it already
// ends a sentence.
func sentence(s string) string {
	s = strings.TrimSpace(reMultiSpac.ReplaceAllString(reSpaces.ReplaceAllString(s, "$1"), " "))
	s = strings.TrimRight(s, ",;:- ")
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	s = string(unicode.ToUpper(r)) + s[n:]
	if last, _ := utf8.DecodeLastRuneInString(s); !strings.ContainsRune(".!?\"')", last) {
		s += "."
	}
	return s
}

// reCleft finds an it-cleft: "It was in London that X was born", "It is Tim Cook who runs Apple", "It was
// Chanel that Coco Chanel founded".
var reCleft = regexp.MustCompile(`(?i)^it\s+(?:is|was|'s)\s+(.+?)\s+(?:that|who|which|where)\s+(.+)$`)

// cleftPreps are the prepositions a clefted adverbial starts with.
var cleftPreps = map[string]bool{"in": true, "at": true, "on": true, "from": true, "by": true, "to": true,
	"for": true, "with": true, "during": true, "under": true, "through": true}

// uncleft rewrites an it-cleft as the plain clause it focuses (English grammars' it-cleft: "it" + "be" + focus
// + relative clause): a focused adverbial goes back to the end of the clause ("X was born in London"), a
// focused subject before its verb ("Tim Cook runs Apple"), a focused object after it ("Coco Chanel founded
// Chanel"). "It is true that X" (an adjective, not a focus) is read as X. Other clauses are returned as they
// are.
func uncleft(clause string) string {
	m := reCleft.FindStringSubmatch(clause)
	if m == nil {
		return whereCleft(clause)
	}
	focus, rest := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	ft := nlp.Analyze(focus)
	rt := nlp.Analyze(rest)
	if len(ft) == 0 || len(rt) == 0 {
		return clause
	}
	switch {
	case cleftPreps[ft[0].Lower]:
		return rest + " " + focus
	case len(ft) == 1 && nlp.IsAdjective(ft[0].Tag) || ft[0].Tag == "RB":
		return rest
	case nlp.IsVerb(rt[0].Tag) || rt[0].Tag == "MD" || nlp.VerbLemma(rt[0].Lower) != rt[0].Lower:
		return focus + " " + rest
	}
	return rest + " " + focus
}

// reWhereCleft is a wh-cleft of place with a named or definite focus: "Accenture is where I work", "Lisbon is
// where we live now" (English grammars' pseudo-cleft: the focus identifies the place the relative clause
// leaves open).
var reWhereCleft = regexp.MustCompile(`^((?:the\s+)?\p{Lu}[\p{L}'.&-]*(?:\s+\p{Lu}[\p{L}'.&-]*){0,3})\s+(?:is|was)\s+where\s+((?:I|we|you|he|she|they|(?i:my|our|his|her|their)\s+\p{Ll}+)\s+.+)$`)

// withoutArticle is the first word of a phrase after a leading "the" ("The Royal Free" → "Royal").
func withoutArticle(phrase string) string {
	f := strings.Fields(phrase)
	if len(f) > 1 && strings.EqualFold(f[0], "the") {
		return f[1]
	}
	return f[0]
}

// atPlaceVerbs are the verbs whose place is an institution one is at rather than in ("work at Accenture",
// "study at Leeds").
var atPlaceVerbs = map[string]bool{"work": true, "study": true, "teach": true, "volunteer": true, "train": true,
	"intern": true, "shop": true}

// whereCleft rewrites a wh-cleft of place as the plain clause: "Accenture is where I work" is "I work at
// Accenture", "Lisbon is where we live" is "we live in Lisbon". A relative clause that already has a place
// ("where I work on weekends" has none; "where I met Ana in 2019" is a place of an event) keeps it after.
func whereCleft(clause string) string {
	m := reWhereCleft.FindStringSubmatch(clause)
	if m == nil || notNames[strings.ToLower(withoutArticle(m[1]))] {
		// "This is where I practice": a pronoun points at a place it does not name.
		return clause
	}
	rest := strings.Fields(m[2])
	if len(rest) < 2 {
		return clause
	}
	prep := "in"
	for _, w := range rest[1:] {
		if b, ok := verbBase(w); ok && atPlaceVerbs[b] || atPlaceVerbs[strings.ToLower(w)] {
			prep = "at"
			break
		}
	}
	// The place goes right after the verb (and its particle or participle), before any adverbial of time.
	at := 1
	switch strings.ToLower(rest[0]) {
	case "my", "our", "his", "her", "their":
		at = 2
	}
	for at < len(rest) && (auxiliaries[strings.ToLower(rest[at])] || adverbs[strings.ToLower(rest[at])]) {
		at++
	}
	if at < len(rest) {
		at++
	}
	if at < len(rest) && (rest[at] == "up" || rest[at] == "born") {
		at++
	}
	out := strings.Join(rest[:at], " ") + " " + prep + " " + m[1]
	if at < len(rest) {
		out += " " + strings.Join(rest[at:], " ")
	}
	return out
}

// namePart is one word of a person's or an organization's name: a capital and small letters (with their marks,
// and joined by a hyphen or an apostrophe: "Seo-yeon", "O'Brien"), or capitals only (an acronym).
const namePart = `\p{Lu}(?:[\p{Ll}\p{M}]+(?:['’-]\p{L}[\p{Ll}\p{M}]*)*|\p{Lu}+)`

var (
	// reNameIsMy is "Luca is my husband", "Dr. Alvarez is my therapist", "Sally Rooney has become my
	// favourite author", "DHL is my employer": a name (after an honorific of English address; an acronym is a
	// name too) equated with a possessive noun
	// phrase, by "be" or by "become" (which says it is so from then on; a time adverb after it, "this
	// year", says when it became so, not from when it holds).
	reNameIsMy = regexp.MustCompile(`^(?:(?i:now|currently)\s*,?\s+)?((?:(?:Dr|Mr|Mrs|Ms|Mx|Prof|Rev|Fr)\.?\s+)?` + namePart + `(?:\s+` + namePart + `){0,2})\s+(?:(?:is|was)(?:\s+(?:now|currently|officially))?|(?:has\s+(?:now\s+)?)?become|became)\s+((?:my|our)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)(?:\s+(?:now|these\s+days|this\s+year|lately))?((?:\s*,.*)?)$`)
	// reCalled is "my physio is called Anders", "Ben's new girlfriend is called Ruth", "my grandma's cat is
	// called Smudge": the name given by "called" or "named".
	reCalled = regexp.MustCompile(`^((?i:my|our|his|her|their|\p{Lu}\p{Ll}+'s)\s+(?:[\p{L}-]+(?:'s)?\s+){0,2}?[\p{L}-]+)\s+(is|was)\s+(?:called|named)\s+(\p{Lu})`)
	// reNameOf is "my wife's name is Laura", "her dog's name was Rex": the name of what the possessive
	// phrase refers to, said as its "name".
	reNameOf = regexp.MustCompile(`^((?i:my|our|his|her|their|\p{Lu}\p{Ll}+'s)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)'s\s+(?:first\s+|full\s+)?name\s+(is|was)\s+(\p{Lu})`)
)

// reOwnParent is a parent or grandparent named by the word one's own family calls them, without a determiner,
// opening a clause ("mum's doctor is now Dr Hughes", "so Dad is in hospital"): English uses these words as names
// for the speaker's own relatives only.
var reOwnParent = regexp.MustCompile(`^((?i:(?:and|but|so|because|now)\s+)?)((?i:mum|mom|mam|mummy|mommy|dad|daddy|grandma|grandpa|granny|grandad|granddad|nan|nana|gran)(?:'s)?\s)`)

// ownParent makes the speaker's own parent or grandparent that opens a clause by the family's word for them
// (reOwnParent) the speaker's: "mum's doctor" is "my mum's doctor".
func ownParent(clause string) string {
	if m := reOwnParent.FindStringSubmatchIndex(clause); m != nil {
		return clause[:m[4]] + "my " + strings.ToLower(clause[m[4]:m[4]+1]) + clause[m[4]+1:]
	}
	return clause
}

// reBareNoun is a clause that opens with a noun phrase of one or two words and no determiner, then "be" and a
// date, an amount or a thing by its name ("Dentist appointment is Tuesday 12 March", "rent's €1.250 now", "flight
// was moved to 15 March", "Phone's a Pixel 7"): the chat style that drops the possessive of one's own things.
var reBareNoun = regexp.MustCompile(`^((?i:(?:and|but|so|now|ok|okay|update:?)\s+)?)(\p{L}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*)?)(\s+(?:is|was|has\s+been|had\s+been|will\s+be)\s+(?:(?:now|still|only|about|around|due|moved|changed|pushed|back|forward|brought|rescheduled|set|booked|scheduled|planned)\s+){0,3}(?:(?:on|at|for|to|until|from)\s+)?(?:[` + currencySigns + `]\s?\d|(?:the\s+)?\d|(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b|(?i:a|an)\s+\p{Lu}))`)

// notOwnKinds are the kinds of noun a bare noun phrase names without being one's own: a person, a place or a
// group ("Paris is on the 9th", "Google is at $180").
var notOwnKinds = []wordnet.Kind{{Lemma: "person", Sense: 1}, {Lemma: "location", Sense: 1}, {Lemma: "organization", Sense: 1}}

// ownBareNoun makes a bare noun phrase opening a clause before a date or an amount (reBareNoun), or after
// "new" before anything (reNewBare), the speaker's:
// "Dentist appointment is on 12 March" is "my dentist appointment is on 12 March", as "my wedding is on 9
// August". The phrase's words must be common nouns of WordNet, not a name nor a word of time or a pronoun
// (notNames), and its head none of notOwnKinds. Without WordNet the clause is returned as it is.
func (e *Extractor) ownBareNoun(clause string) string {
	if e.nouns == nil {
		return clause
	}
	if m := reNewBare.FindStringSubmatchIndex(clause); m != nil && e.ownNouns(clause[m[4]:m[5]], notOwnKinds[1:]) {
		// "New deadline is June 15th", "New manager is Priya Shah": chat drops "my" before "new" as before a
		// bare noun; what is new is the speaker's ("my new manager"), whatever the value, and a person's role
		// is one of the speaker's people.
		return clause[:m[2]] + "my new " + clause[m[4]:]
	}
	if m := reBareAmountChange.FindStringSubmatch(clause); m != nil && reMoneyStart.MatchString(m[4]) && !hasVerbWord(m[1]) {
		// "budgets down to $1,500 each", "Rent up to £950 from June", "way cheaper, budgets down to $1,500":
		// chat leaves out the possessive and the verb of a sum's change (after a verbless comment, which is
		// none of the statement). A plural that WordNet knows in the singular is the one sum each has.
		np := strings.ToLower(m[2])
		if stem, ok := strings.CutSuffix(np, "s"); ok && !strings.Contains(np, " ") && e.nouns.Known(stem) {
			np = stem
		}
		if e.ownNouns(np, notOwnKinds) {
			return "my " + np + " is " + m[3]
		}
	}
	m := reBareNoun.FindStringSubmatchIndex(clause)
	if m == nil || !e.ownNouns(clause[m[4]:m[5]], notOwnKinds) {
		return clause
	}
	if reNamedValue.MatchString(clause[m[6]:m[7]]) {
		// "Phone's a Pixel 7", "Car's a Golf": a thing named by its kind is an artifact one has, and the value
		// is its name alone ("Anna is an English speaker", "Sable is a Czech Republic citizen" name no such
		// thing).
		ws := strings.Fields(clause[m[4]:m[5]])
		if !e.nouns.Is(strings.ToLower(ws[len(ws)-1]), 1, artifactKind) || !reNameOnlyRest.MatchString(clause[m[7]-1:]) {
			return clause
		}
	}
	r, n := utf8.DecodeRuneInString(clause[m[4]:])
	return clause[:m[4]] + "my " + string(unicode.ToLower(r)) + clause[m[4]+n:]
}

// reBareAmountChange is a bare noun phrase and an amount it went up or down to, without a verb (groups: a lead
// conjunction or a comment before a comma, the noun phrase, the change and what follows, the amount).
var reBareAmountChange = regexp.MustCompile(`^((?i:(?:and|but|so|now|ok|okay)\s+)?|[^,]{1,30},\s+)(\p{L}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*)?)\s+((?i:up|down)\s+(?i:to)\s+(\S.*))$`)

// reNamedValue is the value reBareNoun ends with when it is a thing's name after "a" or "an".
var reNamedValue = regexp.MustCompile(`(?i:\sa|\san)\s+\p{Lu}$`)

// reNameOnlyRest is a name and nothing after it but a model number, a time word or punctuation: "Pixel 7",
// "Vauxhall Astra now", "BYD Atto 3".
var reNameOnlyRest = regexp.MustCompile(`^\p{Lu}[\pL\pM\d'-]*(?:\s+(?:\p{Lu}[\pL\pM\d'-]*|\d[\w.-]*))*(?:\s+(?i:now|these\s+days|too))?[\s.!]*$`)

// artifactKind is WordNet's artifact, under which the things one owns fall (phones, cars, laptops, watches).
var artifactKind = wordnet.Kind{Lemma: "artifact", Sense: 1}

// reNewBare is a clause that opens with "new" and a noun phrase of one or two lower-case words, then "is"
// (groups: "new", the noun phrase). A name of two words is capitalized ("New York is lovely").
var reNewBare = regexp.MustCompile(`^(?i:(?:and|but|so|now|ok|okay|update:?)\s+)?((?:N|n)ew)\s+(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*)?)\s+(?:is|was|has\s+been)\s`)

// ownNouns reports whether a bare noun phrase opening a clause is one of the speaker's things: common nouns of
// WordNet, no name nor word of time or pronoun (notNames), its head of none of the kinds not.
func (e *Extractor) ownNouns(phrase string, not []wordnet.Kind) bool {
	words := strings.Fields(phrase)
	for _, w := range words {
		lw := strings.ToLower(w)
		if notNames[lw] || !e.nouns.Known(lw) {
			return false
		}
	}
	head := strings.ToLower(words[len(words)-1])
	for _, k := range not {
		if e.nouns.Is(head, 2, k) {
			return false
		}
	}
	return true
}

// reWillBeAt is the speaker saying where they will be from a time on: "From March I'll be at Lloyds Pharmacy",
// "I'll be working at Deloitte starting in June" — a lasting start (from, starting, as of) and a name after
// "at", then at most a comma's aside.
var reWillBeAt = regexp.MustCompile(`^((?i:(?:from|starting(?:\s+in)?|as\s+of)\s+[^,]+?,?\s+)?)I\s+will\s+be\s+(?:working\s+)?at\s+(\p{Lu}[^,;]*?)((?:\s+(?i:from|starting(?:\s+in)?|as\s+of)\s+[^,;]+?)?)(?:,.*)?$`)

// futureWorkplace rewrites where the speaker will be from a time on as where they are from then (reWillBeAt),
// the state placeOfWork reads ("I'm at Lloyds Pharmacy now"): being at a named place from a given time on
// is one's place of work or study, as being at it "these days" is. Without the start ("I'll be at Heathrow
// on Monday") it is a visit, and the clause is returned as it is.
func futureWorkplace(clause string) string {
	m := reWillBeAt.FindStringSubmatch(clause)
	if m == nil || m[1] == "" && m[3] == "" {
		return clause
	}
	return m[1] + "I am at " + m[2] + " now" + m[3]
}

// reMadeRole is an appointment said with "make": "my firm's made me an associate director", "they made Tom a
// partner", "the partners made me a senior associate this morning" — who was made what (a role of one to four
// words), and a time that follows it.
var reMadeRole = regexp.MustCompile(`^(.+?)\s+made\s+(me|\p{Lu}\p{Ll}+)\s+(?:(?:an?|the|their|its|our)\s+)?((?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)((?:\s+(?i:from|starting|as\s+of|next|this|in|on|at|after|last)\b.*)?)$`)

// reRaisedRole is a promotion said with a verb of raising: "they promoted me to senior designer", "they're
// bumping me up to team lead from next month", "my boss moved Ana up to senior analyst" (who, the role, and a
// time that follows it). "Bump up" and "move up" need their particle ("moved me to Leeds" is a move, not a
// role); the role is checked by appointedRole.
var reRaisedRole = regexp.MustCompile(`^(.+?)\s+(?:(?:promoted|promoting|promotes|promote)\s+(me|\p{Lu}\p{Ll}+)|(?:bumped|bumping|bumps|bump|moved|moving|moves|move)\s+(me|\p{Lu}\p{Ll}+)\s+up)\s+to\s+(?:(?:an?|the)\s+)?((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)((?:\s+(?i:from|starting|as\s+of|next|this|in|on)\b.*)?)$`)

// reRaisedPassive is the same promotion said of whoever was raised: "I got bumped up to team lead", "Ana was
// moved up to senior analyst".
var reRaisedPassive = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}+)\s+(?:got|was|were|have\s+been|has\s+been|am\s+being|is\s+being|am\s+getting|is\s+getting)\s+(?:bumped|moved)\s+up\s+to\s+(?:(?:an?|the)\s+)?((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+)((?:\s+(?i:from|starting|as\s+of|next|this|in|on)\b.*)?)$`)

// reMadePassive is an appointment said of whoever was made the role: "I've just been made senior copywriter",
// "Ana was made a partner in May" (groups: who, the role, what follows).
var reMadePassive = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}+)\s+(?:(?:have|has|had|just|finally|officially|now)\s+)*(?:been|got|was|were)\s+made\s+(?:(?:an?|the)\s+)?((?:[\p{L}-]+\s+){0,3}?[\p{L}-]+)((?:\s+(?i:from|starting|as\s+of|next|this|in|on|at|after|last)\b.*)?)$`)

// reNowHeadOf is an office over a unit said held now: "Meera is now the head of the maths department", "I'm now
// manager of the Leeds branch" (groups: who, the office and its unit). Without "now" the copula is left to the
// readings of relations ("X is the chief executive officer of Y" is Y's, in a list of facts).
var reNowHeadOf = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}+)\s+(?:am|is|'m|'s)\s+(?i:now)\s+(?:the\s+)?(\p{Ll}+\s+of\s+(?:the\s+)?[\pL\s&-]{1,40})$`)

// reRetrained is a new occupation one trained for: "I've retrained as a software tester", "she qualified as a
// midwife in June" (groups: who, the role, what follows).
var reRetrained = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}+)\s+(?:(?:have|has|had|just|finally|now|officially)\s+)*(?:retrained|re-trained|requalified|qualified|trained)\s+as\s+(?:an?\s+)?((?:\p{Ll}[\p{L}-]*\s+){0,2}?\p{Ll}[\p{L}-]*)((?:\s+(?i:at|in|with|for|from|last|this|and)\b.*)?)$`)

// reLandedRole is a post won and named by its role before "job", "role" or "position": "I got the assistant
// manager job!", "I landed the lead designer role at Monzo", "she accepted the head chef position" (groups: who,
// the role, what follows).
var reLandedRole = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}+)\s+(?:(?:have|has|had|just|finally|officially)\s+)*(?:got|landed|accepted|secured|bagged|won|took)\s+(?:the|a|an)\s+((?:\p{Ll}[\p{L}-]*\s+){0,2}\p{Ll}[\p{L}-]*)\s+(?:job|role|position|post)\b(.*)$`)

// reGaveMeTheirJob is a post holder who left and the speaker given their post: "Head chef left and they gave me
// her job", "Our team lead quit, so they've given me his role" (groups: the post, what follows); a post
// offered is not yet taken.
var reGaveMeTheirJob = regexp.MustCompile(`^(?:(?i:the|our|my)\s+)?((?:[\p{L}-]+\s+){0,2}[\p{L}-]+)\s+(?i:left|quit|retired|resigned|moved\s+on)\b[^.;!?]{0,40}?(?:,\s*|\s+(?i:and|so)\s+)+(?:(?i:they|the\s+\p{L}+|management|my\s+boss)\s+)?(?:(?i:have|has|'ve)\s+)?(?:(?i:just)\s+)?(?i:gave|given)\s+(?i:me)\s+(?i:her|his|their|the)\s+(?:(?i:old)\s+)?(?i:job|role|position|post)\b(.*)$`)

// gaveMeTheirJob says a post taken over from whoever left it as the promotion it is: "Head chef left and they
// gave me her job!" is "I got promoted to head chef!". Other sentences are returned as they are.
func (e *Extractor) gaveMeTheirJob(sent string) string {
	if !strings.Contains(sent, " me ") {
		return sent
	}
	if m := reGaveMeTheirJob.FindStringSubmatch(sent); m != nil && e.appointedRole(m[1]) {
		return "I got promoted to " + strings.ToLower(m[1]) + m[2]
	}
	return sent
}

// reNotAsserted is a word before "made" that keeps an appointment from being stated as done: a negation, a
// condition or a modal ("haven't made me", "if they made me", "they might make me").
var reNotAsserted = regexp.MustCompile(`(?i)\b(?:not|never|if|would|could|might|should|will|may)\b`)

// appointment rewrites an appointment said with "make", or a promotion said with a verb of raising, into the
// promotion it states, which the clause readers know as someone's occupation: "my firm has made me an
// associate director" is "I got promoted to associate director", "they're bumping me up to senior designer from
// next month" is "I got promoted to senior designer from next month". The role must be one a person is
// appointed to (appointedRole), not anything else one is made ("made me a cake", "made me an offer", "made me
// a believer"). Other clauses are returned as they are.
func (e *Extractor) appointment(clause string) string {
	var who, role, rest string
	if m := reMadeRole.FindStringSubmatch(clause); m != nil && !reNotAsserted.MatchString(m[1]) {
		who, role, rest = m[2], m[3], m[4]
	} else if m := reRaisedRole.FindStringSubmatch(clause); m != nil && !reNotAsserted.MatchString(m[1]) {
		who, role, rest = m[2]+m[3], m[4], m[5]
	} else if m := reRaisedPassive.FindStringSubmatch(clause); m != nil {
		who, role, rest = m[1], m[2], m[3]
	} else if m := reMadePassive.FindStringSubmatch(clause); m != nil {
		who, role, rest = m[1], m[2], m[3]
	} else if m := reNowHeadOf.FindStringSubmatch(clause); m != nil && officeHeads[strings.Fields(m[2])[0]] {
		// A post held now is the work one does.
		return worksAs(m[1], m[2])
	} else if m := reRetrained.FindStringSubmatch(clause); m != nil && e.appointedRole(m[2]) {
		// An occupation trained for and taken up is the work one does from then on.
		return worksAs(m[1], m[2]+m[3])
	} else if m := reLandedRole.FindStringSubmatch(clause); m != nil && (e.appointedRole(m[2]) || e.personBeforeJob(m[2])) {
		// A post won is the work one does from then on, where the clause says ("at Monzo").
		return worksAs(m[1], m[2]+m[3])
	}
	if who == "" || !e.appointedRole(role) {
		return clause
	}
	if who == "me" {
		who = "I"
	}
	return who + " got promoted to " + role + rest
}

// worksAs says that who ("I" or a name) works as role, with what follows it.
func worksAs(who, role string) string {
	if who == "I" {
		return "I work as " + role
	}
	return who + " works as " + role
}

// officeHeads are the nouns English names the holder of an office over a unit by, before "of": "head of
// sales", "chief of staff", "director of operations".
var officeHeads = map[string]bool{"head": true, "chief": true, "director": true, "manager": true, "lead": true,
	"leader": true, "chair": true, "captain": true, "president": true, "deputy": true, "editor": true,
	"coordinator": true, "supervisor": true, "principal": true, "dean": true, "vp": true}

// personKind is WordNet's person, under which every noun of a person by occupation falls.
var personKind = wordnet.Kind{Lemma: "person", Sense: 1}

// appointedRole reports a role one can be appointed to: an occupation (occupationNoun) whose head is, in one of
// its first three WordNet senses, a person ("director", "partner" — not "offer" or "order", whose suffix only
// looks like an agent's). Without WordNet the suffix is all there is.
func (e *Extractor) appointedRole(np string) bool {
	ws := strings.Fields(strings.ToLower(np))
	if len(ws) > 1 && (ws[0] == "acting" || ws[0] == "interim") {
		// "acting head of department": a post held for a time is the post.
		ws = ws[1:]
		np = strings.Join(ws, " ")
	}
	if headOfUnit(ws) {
		// "made me head of sales": the head of a unit.
		return true
	}
	if qualifiedOffice(ws) {
		// "bumped me up to team lead" (WordNet's first senses of "lead" are no person).
		return true
	}
	if !occupationNoun(np) {
		return false
	}
	return e.nouns == nil || e.nouns.Is(ws[len(ws)-1], 3, personKind)
}

// headOfUnit reports words that name the head of a unit: an office noun before "of" and the unit ("head of
// sales", "director of operations").
func headOfUnit(ws []string) bool {
	return len(ws) >= 3 && officeHeads[ws[0]] && ws[1] == "of"
}

// qualifiedOffice reports words that end in an office noun after the words that say which office: "team lead",
// "deputy head", "assistant principal" (the unit named before the office noun).
func qualifiedOffice(ws []string) bool {
	return len(ws) >= 2 && officeHeads[ws[len(ws)-1]]
}

// personBeforeJob reports whether a noun phrase said before "job", "role" or "position" names the person who
// holds it ("the ward sister job", "the night porter role"): before those nouns a phrase whose head is a person
// in WordNet's first senses is the post's title, though the head alone may first be a relative or a man.
func (e *Extractor) personBeforeJob(np string) bool {
	ws := strings.Fields(strings.ToLower(np))
	return e.nouns != nil && len(ws) > 1 && e.nouns.Is(ws[len(ws)-1], 3, personKind)
}

// possessiveFirst rewrites the equative clauses that name whom a possessive noun phrase refers to into the
// order the possessive patterns read, "my Y is X": "Luca is my husband" (an equative copula reads both ways)
// and "my physio is called Anders" (naming with "called" or "named"). Other clauses are returned as they are.
func possessiveFirst(clause string) string {
	if m := reNameIsMy.FindStringSubmatch(clause); m != nil && !notNames[strings.ToLower(strings.Fields(m[1])[0])] {
		return m[2] + " is " + m[1] + m[3]
	}
	if m := reNameOf.FindStringSubmatchIndex(clause); m != nil {
		// "my wife's name is Laura" says what "my wife is called Laura" says.
		clause = clause[:m[3]] + " " + clause[m[4]:m[5]] + " called " + clause[m[6]:]
	}
	if m := reCalled.FindStringSubmatchIndex(clause); m != nil {
		return clause[:m[3]] + " " + clause[m[4]:m[5]] + " " + clause[m[6]:]
	}
	return clause
}

// replaceWords is re.ReplaceAllString(s, template) for the matches that are words of their own in Unicode. Go's
// \b knows only ASCII letters, so in "Iași" it finds a word "i" after the "ș", and the pronoun rewrites would
// turn the city into "IașAlice"; a match that starts or ends with a letter or digit counts only where no
// letter, mark or digit is next to it.
func replaceWords(re *regexp.Regexp, s, template string) string {
	return replaceWordsWith(re, s, func(dst []byte, m []int) []byte { return re.ExpandString(dst, template, s, m) })
}

// replaceWordsFunc is replaceWords with the replacement computed from the match's submatches.
func replaceWordsFunc(re *regexp.Regexp, s string, repl func(sub []string) string) string {
	return replaceWordsWith(re, s, func(dst []byte, m []int) []byte {
		sub := make([]string, len(m)/2)
		for i := range sub {
			if m[2*i] >= 0 {
				sub[i] = s[m[2*i]:m[2*i+1]]
			}
		}
		return append(dst, repl(sub)...)
	})
}

func replaceWordsWith(re *regexp.Regexp, s string, expand func(dst []byte, m []int) []byte) string {
	ms := re.FindAllStringSubmatchIndex(s, -1)
	if ms == nil {
		return s
	}
	var b []byte
	last := 0
	for _, m := range ms {
		if !wordBounded(s, m[0], m[1]) {
			continue
		}
		b = append(b, s[last:m[0]]...)
		b = expand(b, m)
		last = m[1]
	}
	if last == 0 && b == nil {
		return s
	}
	return string(append(b, s[last:]...))
}

// wordBounded reports whether s[i:j] has no word character of any script right outside it at an end where
// it has one inside.
func wordBounded(s string, i, j int) bool {
	if i >= j {
		return true
	}
	first, _ := utf8.DecodeRuneInString(s[i:])
	if i > 0 && wordRune(first) {
		if before, _ := utf8.DecodeLastRuneInString(s[:i]); wordRune(before) {
			return false
		}
	}
	lastRune, _ := utf8.DecodeLastRuneInString(s[:j])
	if j < len(s) && wordRune(lastRune) {
		if after, _ := utf8.DecodeRuneInString(s[j:]); wordRune(after) {
			return false
		}
	}
	// A word joined to others by "@", "." or "/" is part of an address, a domain or a path
	// ("ines@proton.me", "me.com/i"), not a word of the sentence.
	if before, n := utf8.DecodeLastRuneInString(s[:i]); i > 0 && strings.ContainsRune("@./", before) {
		if r, _ := utf8.DecodeLastRuneInString(s[:i-n]); wordRune(r) {
			return false
		}
	}
	if after, n := utf8.DecodeRuneInString(s[j:]); j < len(s) && strings.ContainsRune("@./", after) {
		if r, _ := utf8.DecodeRuneInString(s[j+n:]); j+n < len(s) && wordRune(r) {
			return false
		}
	}
	return true
}

// wordRune is a letter, a combining mark or a digit of any script, or the underscore (as in \w).
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) || r == '_'
}

// trueCase gives a sentence typed all in lower case, as people chat, the capitals written English has: its
// first letter, the pronoun "I", and the names the tagger finds (pkg/nlp reads a word English does not have
// as a name in such text, and extends names over the dictionary words that belong to them: "tim cook runs …").
// Every reader then sees the names as it would in written text ("my sister emma just started working at …"
// reads as "My sister Emma just started working at …"). The names of several words WordNet writes with
// capitals (places, people, organizations: "united states of america", "north america") get them too, when
// nouns is loaded. A sentence with any capital letter is returned as it is: its writer chose its capitals.
func trueCase(s string, nouns *wordnet.Nouns) string {
	for _, r := range s {
		if unicode.IsUpper(r) {
			return s
		}
	}
	s = nlp.Normalize(s)
	up := map[int]bool{}
	toks := nlp.Analyze(s)
	for i, t := range toks {
		switch {
		case t.Lower == "i":
			up[t.Start] = true
		case nlp.IsProper(t.Tag) && t.Lower != "'s" && !canon.KnownRelation(canon.RelationKey(t.Lower)) &&
			(i == 0 || toks[i-1].Tag != "PRP$" && toks[i-1].Tag != "DT"):
			// A relational noun the dictionary does not know ("ceo", "hq") is no name, nor is a word after a
			// determiner or a possessive ("my username is …"): that is a noun English has that the dictionary
			// lacks.
			up[t.Start] = true
		case calledName(toks, i),
			t.Lower == "the" && i > 0 && (toks[i-1].Lower == "called" || toks[i-1].Lower == "named") && i+1 < len(toks) && calledName(toks, i+1):
			// "a band called blue hour", "a café called the blue door": the words of a name given with
			// "called" or "named", its article with them ("The Blue Door"), up to what cannot be in one.
			up[t.Start] = true
		case i > 0 && (toks[i-1].Lower == "named" || toks[i-1].Lower == "called") && nlp.IsNoun(t.Tag),
			i > 1 && (toks[i-2].Lower == "named" || toks[i-2].Lower == "called") && toks[i-1].Tag == "PRP" && nlp.IsNoun(t.Tag),
			i > 1 && toks[i-2].Lower == "name" && (toks[i-1].Lower == "is" || toks[i-1].Lower == "'s") && nlp.IsNoun(t.Tag):
			// "a dog named biscuit", "we named her pepper", "her name is leilani": what "named" or "called"
			// introduces, and what a name is said to be, is a name.
			up[t.Start] = true
		case i > 1 && toks[i-1].Lower == "and" && up[toks[i-2].Start] && nlp.IsNoun(t.Tag) && (i+1 == len(toks) || strings.Contains(",.!?;", toks[i+1].Text)):
			// "two cats, miso and tofu": a noun coordinated with a name at the end of a phrase is the second name
			// ("madrid and work for …" coordinates verbs).
			up[t.Start] = true
		case partnerName(toks, i):
			// "engaged to jack", "i'm seeing grace": the one word after a verb of a relationship, with no
			// article, is the partner's name, though the dictionary has it ("jack", "grace", "will").
			up[t.Start] = true
		case (honorifics[titleCase(strings.TrimSuffix(t.Lower, "."))] || strings.TrimSuffix(t.Lower, ".") == "st" && (i == 0 || !unicode.IsDigit(rune(toks[i-1].Text[len(toks[i-1].Text)-1])))) && i+1 < len(toks):
			// "dr. okafor", "mr grant": a title of address and the name after it; "st giles", "st mary's": a
			// saint's, in the names of churches, schools and hospitals ("21 st" is an ordinal).
			up[t.Start] = true
			n := i + 1
			if toks[n].Text == "." {
				n++
			}
			if r, _ := utf8.DecodeRuneInString(toks[min(n, len(toks)-1)].Text); n < len(toks) && unicode.IsLetter(r) {
				up[toks[n].Start] = true
			}
		case i >= 2 && toks[i-2].Tag == "PRP$" && kinRole(toks[i-1].Lower) != "" && nameAfterKin(toks, i):
			// "my son leo starts …", "our dog biscuit turned twelve", "my aunt greta, she …": a word between a
			// possessive kinship noun and the verb or the comma after it is the relative's name.
			up[t.Start] = true
		}
	}
	if nouns != nil {
		knownNames(toks, up, nouns)
	}
	possessiveNames(toks, up)
	for i := 1; i < len(toks); i++ {
		if up[toks[i-1].Start] && toks[i-1].Lower != "i" && institutionHeads[toks[i].Lower] {
			// "hillcrest primary", "bloober team": the noun that says what a named place is ends its name.
			up[toks[i].Start] = true
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	first := true
	for i, r := range s {
		if unicode.IsLetter(r) && (first || up[i]) {
			r = unicode.ToUpper(r)
		}
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			first = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// longestName is the most words a name of several words is looked up with ("united states of america").
const longestName = 5

// knownNames marks the capitals of the names of several words WordNet writes with them, longest first.
func knownNames(toks []nlp.Token, up map[int]bool, nouns *wordnet.Nouns) {
	for i := 0; i < len(toks); i++ {
		for n := min(longestName, len(toks)-i); n >= 2; n-- {
			words := make([]string, n)
			ok := true
			for k := range n {
				t := toks[i+k]
				if r, _ := utf8.DecodeRuneInString(t.Text); !unicode.IsLetter(r) {
					ok = false
					break
				}
				words[k] = t.Lower
			}
			if !ok {
				continue
			}
			name, found := nouns.Name(strings.Join(words, " "))
			if !found {
				continue
			}
			for k, w := range strings.Fields(name) {
				if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) && k < n {
					up[toks[i+k].Start] = true
				}
			}
			i += n - 1
			break
		}
	}
}

// institutionHeads are the nouns English names places and organizations with, after their own name
// ("Hillcrest Primary", "Riverside High", "Leeds Beckett University", "Ichilov Hospital", "Bloober Team",
// "Elm Street"): typed in lower case, such a noun right after a name is the name's last word. The schools'
// and higher education's words (schools.go) and the common heads of the names of hospitals, shops, venues,
// companies and streets in English.
var institutionHeads = func() map[string]bool {
	m := map[string]bool{"hospital": true, "clinic": true, "infirmary": true, "pharmacy": true, "library": true,
		"museum": true, "stadium": true, "theatre": true, "theater": true, "gym": true, "café": true, "cafe": true,
		"restaurant": true, "bakery": true, "team": true, "studios": true, "studio": true, "labs": true,
		"logistics": true, "group": true, "bank": true, "insurance": true, "airlines": true, "motors": true,
		"hotel": true, "street": true, "road": true, "avenue": true, "square": true}
	for w := range schoolWords {
		m[w] = true
	}
	for w := range higherEdWords {
		m[w] = true
	}
	return m
}()

// partnerName reports whether toks[i], in text typed in lower case, is the name of a partner: one noun, verb,
// modal or adjective (the tagger's reading of a name it knows as a word) right after "married to", "engaged to",
// "dating", "seeing", "divorced from" or "broke up with", and ending the clause or followed by "and", a
// comma or a word of time — not a pronoun, an indefinite ("someone"), an adverb or a plural.
func partnerName(toks []nlp.Token, i int) bool {
	if i == 0 {
		return false
	}
	prev := toks[i-1].Lower
	switch {
	case prev == "dating" || prev == "seeing":
	case (prev == "to" || prev == "from" || prev == "with") && i >= 2:
		v := toks[i-2].Lower
		if !(prev == "to" && (v == "married" || v == "engaged") || prev == "from" && v == "divorced" ||
			prev == "with" && i >= 3 && toks[i-2].Lower == "up" && (toks[i-3].Lower == "broke" || toks[i-3].Lower == "split")) {
			return false
		}
	default:
		return false
	}
	t := toks[i]
	switch t.Tag {
	case "NN", "NNP", "JJ", "VB", "VBP", "VBD", "VBN", "MD":
		// Where a name stands, a word the tagger reads as a verb is a name all the same ("rose", "will").
	default:
		return false
	}
	if utf8.RuneCountInString(t.Lower) < 2 || nlp.AdverbNoName(t.Lower) || indefinites[t.Lower] {
		return false
	}
	if i+1 == len(toks) {
		return true
	}
	next := toks[i+1]
	return next.Lower == "and" || next.Text == "," || next.Text == "." || next.Text == "!" || nameTimeWords[next.Lower] ||
		next.Lower == "now" || next.Lower == "since" || next.Lower == "for" || next.Lower == "in"
}

// indefinites are the indefinite pronouns, which name no one ("seeing someone").
var indefinites = map[string]bool{"someone": true, "somebody": true, "anyone": true, "anybody": true,
	"everyone": true, "everybody": true, "nobody": true, "one": true, "it": true, "them": true, "her": true, "him": true}

// calledName reports whether toks[i] is a word of a name that "called" or "named" gives in text typed in lower
// case ("a band called blue hour", "a café called the blue door"): one of at most three nouns or adjectives
// after "called"/"named" and an optional "the", none of them a word of time ("a company called acme last year").
func calledName(toks []nlp.Token, i int) bool {
	for j := i; j >= 0 && j >= i-3; j-- {
		t := toks[j]
		if j < i && (t.Lower == "called" || t.Lower == "named") {
			return true
		}
		if j < i && t.Lower == "the" && j > 0 && (toks[j-1].Lower == "called" || toks[j-1].Lower == "named") {
			continue
		}
		if !nlp.IsNoun(t.Tag) && !nlp.IsAdjective(t.Tag) || nameTimeWords[t.Lower] {
			return false
		}
	}
	return false
}

// nameTimeWords end a name given with "called" in lower-case text: the words of a time said after it.
var nameTimeWords = map[string]bool{"last": true, "next": true, "this": true, "every": true, "each": true,
	"year": true, "week": true, "month": true, "day": true, "weekend": true, "morning": true, "evening": true,
	"night": true, "today": true, "tonight": true, "tomorrow": true, "yesterday": true}

// possessiveNames marks, in text typed in lower case, the words of a name that owns a relation: "soviet union's
// head of state", "charles the bold's spouse". The words before "'s" and a relational noun canon knows, back to
// the start of the clause or a verb or preposition, are a name when there are at least two of them (nouns or
// adjectives, with a name's connectors between: "of", "the", "de"), none of them a kinship noun, and no
// determiner or possessive opens them ("the company's ceo", "my sister's husband" are no names).
func possessiveNames(toks []nlp.Token, up map[int]bool) {
	for i, t := range toks {
		if t.Lower != "'s" || i+1 >= len(toks) || !canon.KnownRelation(canon.RelationKey(toks[i+1].Lower)) {
			continue
		}
		var run []int
		j := i - 1
		for ; j >= 0; j-- {
			w := toks[j]
			if nameConnectors[w.Lower] || w.Lower == "the" {
				if j > 0 && (nlp.IsNoun(toks[j-1].Tag) || nlp.IsAdjective(toks[j-1].Tag) || toks[j-1].Tag == "CD") && len(run) > 0 {
					continue
				}
				break
			}
			// A word of letters the tagger calls a number ("olga/CD") is a word of the name.
			wordy := nlp.IsNoun(w.Tag) || nlp.IsAdjective(w.Tag) || w.Tag == "CD" && strings.IndexFunc(w.Text, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
			if !wordy || kinRole(w.Lower) != "" {
				break
			}
			run = append(run, j)
		}
		if len(run) < 2 || j >= 0 && (toks[j].Tag == "DT" || toks[j].Tag == "PRP$" || toks[j].Tag == "POS" || kinRole(toks[j].Lower) != "") {
			continue
		}
		for _, k := range run {
			up[toks[k].Start] = true
		}
	}
}

// nameAfterKin reports whether token i, after "my <kin noun>", stands where a name does: a noun or adjective
// of one word followed by a verb, a comma, "and", a possessive ("my brother lars's wife") or the end — not a
// verb itself ("my son starts") nor the first word of a compound ("my dog food bill").
func nameAfterKin(toks []nlp.Token, i int) bool {
	t := toks[i]
	if !(nlp.IsNoun(t.Tag) || nlp.IsAdjective(t.Tag)) || len(t.Lower) < 2 || stopwordLike(t.Lower) {
		return false
	}
	if i+1 == len(toks) {
		return true
	}
	next := toks[i+1]
	return next.Text == "," || next.Lower == "and" || next.Text == "." || nlp.IsVerb(next.Tag) || next.Tag == "MD" ||
		next.Lower == "'s" || next.Tag == "POS"
}

// stopwordLike reports words that are never a name after a kinship noun ("my son too", "my dog here").
func stopwordLike(w string) bool {
	switch w {
	case "too", "here", "there", "now", "again", "also", "still", "just", "today", "tomorrow", "yesterday":
		return true
	}
	return false
}

// titleCase gives a word its first capital ("dr" → "Dr"), the form honorifics lists.
func titleCase(w string) string {
	r, n := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[n:]
}
