package rules

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// spec is what one pattern found in a clause, before dates, canonical keys and the policy are applied.
type spec struct {
	subject    string // display subject; "" means the speaker
	predicate  string
	object     string
	text       string // claim sentence; "" means the clause rewritten in the third person
	verbatim   bool   // keep the object as said (fallback claims quote the speaker)
	prefix     string // implied subject of a subjectless clause ("I ", "I am "), prepended to the text
	confidence float64
}

const (
	confTemplate  = 0.9
	confRelation  = 0.8
	confFirst     = 0.7
	confNamed     = 0.6
	confKinship   = 0.7
	confFallback  = 0.4
	maxObjectWord = 12
)

// relation is a verb phrase linking a subject noun phrase to an object ("X was born in the city of Y").
type relation struct {
	re        *regexp.Regexp
	predicate string // may use $1 for a captured verb
}

const cop = `(?:is|was|are|were|am)`

var relations = func() []relation {
	r := func(phrase, pred string) relation {
		return relation{re: regexp.MustCompile(`(?i)^(.+?)\s+` + phrase + `\s+(.+)$`), predicate: pred}
	}
	place := `(?:\s+the\s+(?:city|town|village|country|state|continent|region)\s+of)?`
	return []relation{
		r(cop+`\s+(?:a\s+)?citizens?\s+of`, "citizen of"),
		r(`(?:`+cop+`|got)\s+(?:now\s+)?married\s+to`, "married to"),
		r(cop+`\s+engaged\s+to`, "engaged to"),
		r(cop+`\s+born\s+(?:in|at)`+place, "born in"),
		r(cop+`\s+born\s+on`, "born on"),
		r(`died\s+(?:in|at)`+place, "died in"),
		r(cop+`\s+located\s+in`+place, "located in"),
		r(cop+`\s+headquartered\s+in`+place, "headquartered in"),
		r(cop+`\s+founded\s+by`, "founded by"),
		r(cop+`\s+founded\s+in`+place, "founded in"),
		r(cop+`\s+created\s+in`+place, "created in"),
		r(cop+`\s+written\s+in\s+the\s+language\s+of`, "written in language of"),
		r(cop+`\s+written\s+in`, "written in"),
		r(cop+`\s+(performed|created|developed|written|produced|directed|designed|invented|composed|painted|built|owned|published|discovered|acquired|founded|played|voiced|sung|recorded|manufactured)\s+by`, "$1 by"),
		r(cop+`\s+(?:famous|best\s+known|known|renowned)\s+for`, "famous for"),
		r(cop+`\s+employed\s+(?:by|at)`, "employed by"),
		r(`(?:works|worked|`+cop+`\s+working)\s+in\s+the\s+field\s+of`, "works in field of"),
		r(`(?:works|worked|`+cop+`\s+working)\s+for`, "works for"),
		r(`(?:works|worked|`+cop+`\s+working)\s+at`, "works at"),
		r(`(?:works|worked)\s+in`+place, "works in"),
		r(`(?:lives|lived|`+cop+`\s+living|resides|resided|`+cop+`\s+based)\s+in`+place, "lives in"),
		r(`(?:plays|played)\s+the\s+position\s+of`, "plays position of"),
		r(`(?:speaks|spoke)\s+the\s+language\s+of`, "speaks language of"),
		r(cop+`\s+associated\s+with\s+the\s+sport\s+of`, "associated with sport of"),
		r(cop+`\s+affiliated\s+with\s+the\s+religion\s+of`, "affiliated with religion of"),
		r(cop+`\s+(?:a\s+)?members?\s+of`, "member of"),
		r(cop+`\s+(?:originally\s+)?from`, "from"),
	}
}()

// templates are whole-clause patterns of encyclopedic facts; the captured groups are subject, predicate
// (or a fixed predicate) and object.
type template struct {
	re                *regexp.Regexp
	subj, pred, obj   int
	fixedPredicate    string
	predicateSuffix   string
	requireProperSubj bool
}

var templates = []template{
	{re: regexp.MustCompile(`(?i)^the\s+name\s+of\s+the\s+current\s+head\s+of\s+state\s+(?:in|of)\s+(.+?)\s+` + cop + `\s+(.+)$`), subj: 1, obj: 2, fixedPredicate: "head of state"},
	{re: regexp.MustCompile(`(?i)^the\s+name\s+of\s+the\s+current\s+head\s+of\s+the\s+(.+?)\s+government\s+` + cop + `\s+(.+)$`), subj: 1, obj: 2, fixedPredicate: "head of government"},
	{re: regexp.MustCompile(`(?i)^the\s+(?:univeristy|university|school|college)\s+where\s+(.+?)\s+(?:was|were)\s+educated\s+` + cop + `\s+(.+)$`), subj: 1, obj: 2, fixedPredicate: "educated at"},
	{re: regexp.MustCompile(`(?i)^the\s+type\s+of\s+music\s+that\s+(.+?)\s+plays\s+` + cop + `\s+(.+)$`), subj: 1, obj: 2, fixedPredicate: "genre"},
	{re: regexp.MustCompile(`(?i)^the\s+company\s+that\s+produced\s+(.+?)\s+` + cop + `\s+(.+)$`), subj: 1, obj: 2, fixedPredicate: "produced by"},
	{re: regexp.MustCompile(`(?i)^the\s+([\w\s'-]{2,40}?)\s+of\s+(.+?)\s+` + cop + `\s+located\s+in\s+(?:the\s+(?:city|town|country|continent|state)\s+of\s+)?(.+)$`), subj: 2, pred: 1, obj: 3, predicateSuffix: " located in", requireProperSubj: true},
	{re: regexp.MustCompile(`(?i)^the\s+([\w\s'-]{2,40}?)\s+of\s+(.+?)\s+` + cop + `\s+(.+)$`), subj: 2, pred: 1, obj: 3, requireProperSubj: true},
	// "Paris is the capital of France": subject France, predicate capital, object Paris.
	{re: regexp.MustCompile(`^([A-Z][\w.'-]*(?:\s+(?:[A-Z][\w.'-]*|of|the|de|von|van|du|da|and))*)\s+` + cop + `\s+the\s+([a-z][\w\s-]{1,30}?)\s+of\s+([A-Z].+)$`), subj: 3, pred: 2, obj: 1},
}

// vaguePredicates are nouns that make "The X of Y is Z" a comment rather than a fact.
var vaguePredicates = map[string]bool{
	"rest": true, "most": true, "some": true, "all": true, "one": true, "part": true, "end": true, "start": true,
	"beginning": true, "middle": true, "top": true, "bottom": true, "kind": true, "sort": true, "type": true,
	"lot": true, "idea": true, "point": true, "thought": true, "feeling": true, "best": true, "worst": true,
	"best part": true, "highlight": true, "thing": true, "fact": true, "whole": true, "sound": true, "smell": true,
	"look": true, "view": true, "size": true, "color": true, "colour": true,
}

// capitalized reports a noun phrase whose first word starts with a capital letter or a digit, whatever the
// word: inside a sentence ("The capital of Great Britain", "The author of Our Mutual Friend") capitals mark
// names even when the word is also an ordinary one.
func capitalized(np string) bool {
	np = strings.TrimSpace(strings.Trim(np, `"'(`))
	if np == "" || len(strings.Fields(np)) > 10 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(np)
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// properNoun reports a noun phrase that names something: its first word starts with a capital letter or a
// digit, and it is not a pronoun or sentence adverb.
func properNoun(np string) bool {
	np = strings.TrimSpace(np)
	if np == "" || utf8.RuneCountInString(np) > 80 {
		return false
	}
	ws := strings.Fields(np)
	if len(ws) > 8 {
		return false
	}
	first := strings.ToLower(strings.Trim(ws[0], `"'(`))
	if notNames[first] && first != "the" && !((first == "a" || first == "an") && len(ws) > 1) {
		return false
	}
	if (first == "the" || first == "a" || first == "an") && len(ws) > 1 {
		ws = ws[1:]
	}
	r, _ := utf8.DecodeRuneInString(strings.Trim(ws[0], `"'(`))
	return unicode.IsUpper(r) || unicode.IsDigit(r)
}

// plainNoun reports a short lower-case noun phrase usable as a subject in a list of facts ("quarterback",
// "rugby union"): no pronouns, no verbs of its own.
func plainNoun(np string) bool {
	ws := strings.Fields(np)
	if len(ws) == 0 || len(ws) > 6 {
		return false
	}
	for _, w := range ws {
		lw := strings.ToLower(w)
		if subjectPronouns[lw] || lw == "my" || lw == "our" || lw == "his" || lw == "her" || lw == "their" {
			return false
		}
	}
	return !notNames[strings.ToLower(ws[0])] || strings.EqualFold(ws[0], "the")
}

var (
	reObjectStop = regexp.MustCompile(`(?i)\s*(?:[;!?]|[,:](?:\s|$))|\s+[-=]+>|\.(?:\s|$)|\s+[-–—]\s+|\s+(?:and\s+(?:it|that|this|he|she|they|we|I|you|then|so|now|also|am|have|was|is|had|got|the|my|our|his|her|their|its)|but|because|since|which|who|whom|whose|where|so\s+that|while|when|whenever|as\s+well\s+as|although|though|until|after|before|if|unless|like\s+I|for\s+(?:a|the|some|about)\s+(?:while|bit|time|long|hours?|days?|weeks?|months?|years?))\b`)
	reTrailing   = regexp.MustCompile(`(?i)(?:\s+(?:again|too|now|lately|recently|already|together|today|tonight|as\s+well|and|or|with|by|to|for|at|in|on|of|the|a|an|so|really|very))+$`)
	reLeadAdv    = regexp.MustCompile(`(?i)^(?:(?:just|really|also|finally|recently|now|still|actually|totally|definitely|officially)\s+)+`)
)

// objectPhrase trims the text after a predicate down to its object: up to the end of the clause or the
// start of a subordinate one, without dates (they become valid time) and at most maxObjectWord words.
func objectPhrase(rest string, dates []when, offset int) string {
	// Blank out temporal expressions inside rest.
	b := []byte(rest)
	for _, w := range dates {
		s, e := w.start-offset, w.end-offset
		if e <= 0 || s >= len(b) {
			continue
		}
		s, e = max(s, 0), min(e, len(b))
		for i := s; i < e; i++ {
			b[i] = ' '
		}
	}
	rest = string(b)
	if at := objectStop(rest); at >= 0 {
		rest = rest[:at]
	}
	if i := purposeInfinitive(rest); i > 0 {
		rest = rest[:i]
	}
	if i := andVerb(rest); i > 0 {
		rest = rest[:i]
	}
	rest = strings.Join(strings.Fields(rest), " ")
	rest = reLeadAdv.ReplaceAllString(rest, "")
	for {
		t := reTrailing.ReplaceAllString(rest, "")
		if t == rest {
			break
		}
		rest = t
	}
	rest = strings.Trim(rest, ` "'.,`)
	if ws := strings.Fields(rest); len(ws) > maxObjectWord {
		rest = strings.Join(ws[:maxObjectWord], " ")
	}
	return rest
}

// andVerb finds " and <past-tense verb>" (a second predicate: "talked about X and encouraged Y") and
// returns its byte offset, or -1.
func andVerb(s string) int {
	idx := 0
	for {
		i := strings.Index(s[idx:], " and ")
		if i < 0 {
			return -1
		}
		i += idx
		if rest := strings.Fields(s[i+5:]); len(rest) > 0 {
			w := strings.ToLower(rest[0])
			if b, ok := verbBase(w); ok && b != w && !strings.HasSuffix(w, "ing") {
				return i
			}
		}
		idx = i + 5
	}
}

// noPurpose are words after which "to <verb>" belongs to the object ("how to play", "want to go").
var noPurpose = map[string]bool{"how": true, "what": true, "where": true, "when": true, "who": true,
	"whether": true, "want": true, "wants": true, "wanted": true, "need": true, "needs": true, "like": true,
	"love": true, "decided": true, "plan": true, "planning": true, "going": true, "trying": true, "tried": true,
	"learn": true, "learning": true, "started": true, "began": true, "able": true, "have": true, "has": true,
	"had": true, "used": true, "ready": true, "chance": true, "opportunity": true, "way": true, "keen": true,
	"try": true, "started,": true, "continue": true, "continued": true, "hoping": true, "time": true}

// purposeInfinitive finds " to <verb>" after at least one word ("my dogs to the beach to have fun" → cut
// before " to have") and returns its byte offset, or -1.
func purposeInfinitive(s string) int {
	idx := 0
	for {
		i := strings.Index(s[idx:], " to ")
		if i < 0 {
			return -1
		}
		i += idx
		rest := strings.Fields(s[i+4:])
		before := strings.Fields(s[:i])
		if len(before) >= 2 && !noPurpose[strings.ToLower(before[len(before)-1])] && len(rest) > 0 {
			if b, ok := verbForms[strings.ToLower(rest[0])]; ok && b == strings.ToLower(rest[0]) {
				return i
			}
		}
		idx = i + 4
	}
}

// cleanNP trims a captured noun phrase.
func cleanNP(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, ` "',;:`)
	s = strings.TrimRight(s, ".")
	// "Washington, D.C.." keeps its abbreviation dot once.
	if strings.HasSuffix(s, ".C") || strings.HasSuffix(s, ".S") {
		s += "."
	}
	return strings.Join(strings.Fields(s), " ")
}
