package rules

import (
	"github.com/mneme-ai/mneme/pkg/nlp"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// spec is what one pattern found in a clause, before dates, canonical keys and the policy are applied.
type spec struct {
	subject   string // display subject; "" means the speaker
	predicate string
	object    string
	text      string // claim sentence; "" means the clause rewritten in the third person
	verbatim  bool   // keep the object as said (fallback claims quote the speaker)
	key       string // relation key read with parts of speech (openie.go); "" means canon.PredicateKey(predicate)
	// definite marks a definite description of a relational noun ("the capital of X", "X's wife") and
	// change a change cue ("moved to", "joined"): both say the relation has one value at a time, for
	// relations the predicate policy does not know.
	definite, change bool
	// past marks a state or habit the clause says no longer holds ("Oskar used to live in Oslo"): the claim
	// is never single-valued, and its relation starts with "used to" so the reader retires the value it names.
	past       bool
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

// cop is a form of "be".
const cop = `(?:is|was|are|were|am)`

// vaguePredicates are nouns that make "The X of Y is Z" a comment rather than a fact.
var vaguePredicates = map[string]bool{
	"rest": true, "most": true, "some": true, "all": true, "one": true, "part": true, "end": true, "start": true,
	"beginning": true, "middle": true, "top": true, "bottom": true, "kind": true, "sort": true, "type": true,
	"lot": true, "idea": true, "point": true, "thought": true, "feeling": true, "best": true, "worst": true,
	"best part": true, "highlight": true, "thing": true, "fact": true, "whole": true, "sound": true, "smell": true,
	"look": true, "view": true, "size": true, "color": true, "colour": true,
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

var (
	reObjectStop = regexp.MustCompile(`(?i)\s*(?:[;!?]|[,:](?:\s|$))|\s+[-=]+>|\.(?:\s|$)|\s+[-–—]\s+|\s+(?:and\s+(?:it|that|this|he|she|they|we|I|you|then|so|now|also|am|have|was|is|had|got|the|my|our|his|her|their|its)|but|because|since|which|who|whom|whose|where|so\s+that|so\s+(?:I|we|you|he|she|they|it)|while|when|whenever|as\s+well\s+as|although|though|until|after|before|if|unless|instead\s+of|rather\s+than|on\s+(?:[$€£¥₹]\s?\d[\d,.]*\s?[kK]?|\d[\d,.]*\s?[kK])|like\s+I|for\s+(?:a|the|some|about)\s+(?:while|bit|time|long|hours?|days?|weeks?|months?|years?)|(?:most|every|each)\s+(?:days?|nights?|evenings?|mornings?|afternoons?|weekends?|weeks?|months?|summers?|winters?))\b`)
	// reSomeoneNamed is an indefinite person introduced by name ("someone called Leo", "a guy named Sam").
	reSomeoneNamed = regexp.MustCompile(`^(?i:someone|somebody|a\s+(?:guy|girl|man|woman|person|lady|bloke))\s+(?i:called|named)\s+(\p{Lu}[\p{L}\p{M}'-]*(?:\s+\p{Lu}[\p{L}\p{M}'-]*)?)$`)
	reTrailing     = regexp.MustCompile(`(?i)(?:\s+(?:again|too|now|lately|recently|already|together|today|tonight|as\s+well|instead|anymore|any\s+more|these\s+days|this\s+(?:term|semester)|(?:up|over|down|out|back)\s+there|there|and|or|with|by|to|for|at|in|on|of|the|a|an|so|really|very|starting|beginning|effective|from|between|since|until|till|during))+$`)
	reLeadAdv      = regexp.MustCompile(`(?i)^(?:(?:just|really|also|finally|recently|now|still|actually|totally|definitely|officially)\s+)+`)
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
	rest = withInitialismDot(strings.Trim(rest, ` "'.,`))
	if m := reSomeoneNamed.FindStringSubmatch(rest); m != nil {
		// "dating someone called Leo": the person is the name.
		rest = m[1]
	}
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
			if b, ok := verbBase(w); ok && (b != w || nlp.IsIrregularPast(w)) && !strings.HasSuffix(w, "ing") {
				// ("switched to green tea and cut coffee out": a past the same as its base is a past here,
				// after the first predicate's.)
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

// reEndsInInitialism matches a dotted initialism at the end of a phrase whose last period was trimmed with the
// sentence's ("Washington, D.C", "the U.S").
var reEndsInInitialism = regexp.MustCompile(`(?:^|[\s,])(?:\p{Lu}\.)+\p{Lu}$`)

// withInitialismDot gives back the period a trimmed initialism ends with ("Washington, D.C." keeps its
// abbreviation dot once).
func withInitialismDot(s string) string {
	if reEndsInInitialism.MatchString(s) {
		return s + "."
	}
	return s
}

// cleanNP trims a captured noun phrase.
func cleanNP(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, ` "',;:`)
	s = strings.TrimRight(s, ".")
	return strings.Join(strings.Fields(withInitialismDot(s)), " ")
}
