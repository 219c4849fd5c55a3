package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/nlp"
)

// Ends said without an object after the verb. English reports the end of a relationship with the partner
// beside the speaker as the subject ("Hannah and I broke up", "my boyfriend and I split up") and the end of a
// favourite by what replaced it ("Wet Leg replaced Arctic Monkeys as my favourite band"). Both are turned into
// a claim of the speaker whose relation starts with the ending verb and whose object is the value that ended,
// so the reader can retire the value it names (services/query/endings.go).

var (
	// reMutualEnd is "Name and I broke up / split up / separated / divorced / got divorced / went our separate
	// ways / parted ways / called off the engagement".
	reMutualEnd = regexp.MustCompile(`^(?:(?i:my|our)\s+[\p{L}-]+\s+)?(\p{Lu}[\p{L}\p{M}'-]+(?:\s+\p{Lu}[\p{L}\p{M}'-]+)?)\s+and\s+(?:I|we)\s+(?:(?i:have|had|just|finally|officially|recently)\s+)*(?i:(broke\s+up|split\s+up|separated|divorced|got\s+divorced|called\s+it\s+off|called\s+it\s+quits|ended\s+things|went\s+(?:our\s+|their\s+)?separate\s+ways|parted\s+(?:ways|company)|called\s+off\s+(?:the|our)\s+(?:engagement|wedding|relationship)))\b`)
	// reThingsEnded is the end of a relationship said of the things one shared: "Things with Marcus fizzled
	// out", "It didn't work out with Sam", "Everything with Lou is over".
	reThingsEnded = regexp.MustCompile(`^(?i:things|it|everything|stuff)\s+(?:(?i:with)\s+(\p{Lu}[\p{L}\p{M}'-]+)\s+)?(?:(?i:have|has|had|just|finally|kind\s+of|sort\s+of)\s+)*(?i:fizzled\s+out|petered\s+out|ended|fell\s+apart|came\s+to\s+an\s+end|(?:is|are|was|were)\s+over|did\s*n[o']t\s+work\s+out|didn't\s+work\s+out)(?:\s+(?i:with)\s+(\p{Lu}[\p{L}\p{M}'-]+))?\b`)
	// reReplacedAs is "X replaced Y as my/our N": Y is no longer the speaker's N.
	reReplacedAs = regexp.MustCompile(`\b(?i:replaced|displaced|dethroned|overtaken|overtook|supplanted|ousted|usurped)\s+(.+?)\s+as\s+(?i:my|our)\s+((?i:[a-z-]+\s+){0,2}[a-z-]+)$`)
)

// reMutualUnion is "Name and I got married / got engaged / are getting married": the reciprocal start of a
// union, said as the end of one is, with the partner beside the speaker as the subject. A marriage still to
// come is an engagement, and its date, when the clause says one, is the wedding's.
var reMutualUnion = regexp.MustCompile(`^(?:(?i:my|our)\s+[\p{L}-]+\s+)?(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+)?)\s+and\s+I\s+(?:(?i:have|had|just|finally|officially|recently)\s+)*(?i:(got\s+married|married|got\s+hitched|got\s+engaged|are\s+engaged|are\s+married|are\s+getting\s+married|are\s+going\s+to\s+get\s+married|will\s+get\s+married|are\s+tying\s+the\s+knot))\b`)

// Possessions lost to an event. English often says that a thing stopped being someone's by what happened to
// it — it was stolen, it died, it broke down, it was written off — with the thing as the subject, or, for a
// theft, as the object of someone else's verb: "Someone stole my Specialized", "The Fiesta finally died", "My
// car was totaled". Each becomes the speaker's claim that they lost the thing, so the reader retires the value
// it names (services/query/endings.go), as it does for "we lost Biscuit". The verbs are everyday English of
// theft and breakdown, not any dataset's wording. A thing said with "the" must be a name ("The Fiesta"): "the
// printer died" may be anyone's. People and pets are no possessions here (kinship nouns: "my grandmother
// died" keeps its own claim).
// thingGoneVerb is the verb by which a thing died, broke down or was stolen, with an adverb before it.
const thingGoneVerb = `(?:(?i:finally|just|completely|totally|suddenly|recently|officially)\s+)?(?i:died|broke\s+down|gave\s+out|gave\s+up\s+the\s+ghost|conked\s+out|packed\s+(?:up|in)|(?:was|got|has\s+been)\s+(?:stolen|totall?ed|written\s+off|wrecked|nicked))\b`

var (
	reTheft     = regexp.MustCompile(`^(?i:someone|somebody|a\s+thief|thieves|they)\s+(?:(?i:just|finally|actually)\s+)?(?i:stole|nicked|pinched|swiped)\s+(?i:my|our)\s+(.+)$`)
	reThingGone = regexp.MustCompile(`^(?:(?i:my|our)\s+(.+?)|(?i:the)\s+(\p{Lu}.*?))\s+` + thingGoneVerb)
	// reDefiniteThingGone is a thing said with "the" and a word in lower case that died or was stolen: "the
	// printer died" (anyone's in written text; in text typed all in lower case, where a name has no capital,
	// "the fiesta finally died" is as likely the speaker's car).
	reDefiniteThingGone = regexp.MustCompile(`^(?i:the)\s+(\p{Ll}.*?)\s+` + thingGoneVerb)
)

// reGivenAway is a thing of the speaker's given to someone else, gone from them as surely as a stolen one: "The
// Pixel has gone to my nephew", "my old bike went to a neighbour", "I gave my Kindle to my sister", "We've
// handed the Golf down to our son" (groups: the thing after "my", or its name after "the", and whom it went to;
// the thing in the second form). It went to a person ("my bike went to the menders" is a repair).
var reGivenAway = regexp.MustCompile(`^(?:(?:(?i:my|our)\s+(.+?)|(?i:the)\s+(\p{Lu}.*?))\s+(?:(?i:has|have)\s+)?(?i:gone|went)\s+to\s+(?:(?i:my|our|a|the|his|her)\s+)?([\pL-]+)|(?:I|We)\s+(?:(?i:have|'ve|just|finally)\s+)*(?i:gave|given|handed\s+down|handed\s+on|passed\s+on)\s+(?:(?i:my|our)\s+(.+?)|(?i:the)\s+(\p{Lu}.*?))\s+(?:(?i:down|on|over)\s+)?to\s+)`)

// toPerson reports a word that names whom a thing was given to: a relative, a person by their role, or a name.
func toPerson(w string) bool {
	return kinRole(strings.ToLower(w)) != "" || personNoun(strings.ToLower(w)) || nlp.Capitalized(w) && !notNames[strings.ToLower(w)]
}

// reLostInWater is a thing of the speaker's dropped or lost in water, where it is gone for good: "Dropped the
// iPhone in the sea", "I dropped my phone down the toilet" (groups: the thing after "my", or its name after
// "the").
var reLostInWater = regexp.MustCompile(`^(?:(?:I|We)\s+)?(?:(?i:just|accidentally|finally)\s+)?(?i:dropped|lost|knocked)\s+(?:(?i:my|our)\s+(.+?)|(?i:the)\s+(\p{Ll}?\p{Lu}[\pL\pM\d-]*(?:\s+\d+)?))\s+(?i:in|into|down)\s+(?i:the\s+)?(?i:sea|ocean|river|lake|canal|toilet|loo|water|bath|pool|drain|harbour|harbor)\b`)

// thingWords ends a thing's phrase: a preposition, a time word or a conjunction starts what follows it ("my
// Specialized last week", "my car outside the gym").
var thingWords = map[string]bool{"last": true, "yesterday": true, "today": true, "this": true, "on": true, "in": true,
	"at": true, "from": true, "outside": true, "while": true, "during": true, "and": true, "so": true, "but": true,
	"when": true, "after": true, "before": true, "again": true}

// lostThing returns the thing a clause says its speaker lost to theft or breakdown, or "". A clause of text
// typed all in lower case (typedLower) may name its thing with "the" and no capital (reDefiniteThingGone).
func lostThing(clause string, typedLower bool) string {
	var phrase string
	if m := reTheft.FindStringSubmatch(clause); m != nil {
		phrase = m[1]
	} else if m := reThingGone.FindStringSubmatch(clause); m != nil {
		phrase = m[1] + m[2]
	} else if m := reDefiniteThingGone.FindStringSubmatch(clause); m != nil && typedLower {
		phrase = m[1]
	} else if m := reGivenAway.FindStringSubmatch(clause); m != nil && (m[3] == "" || toPerson(m[3])) {
		phrase = m[1] + m[2] + m[4] + m[5]
	} else if m := reLostInWater.FindStringSubmatch(clause); m != nil {
		phrase = m[1] + m[2]
	} else {
		return ""
	}
	var ws []string
	for _, w := range strings.Fields(phrase) {
		bare := strings.TrimRight(w, ".,;:!?")
		if thingWords[strings.ToLower(bare)] || len(ws) == 4 {
			break
		}
		ws = append(ws, bare)
		if bare != w {
			break
		}
	}
	if len(ws) == 0 || strings.ContainsAny(strings.Join(ws[:len(ws)-1], " "), "'’") {
		// "My brother's car got stolen": the thing is the brother's.
		return ""
	}
	if _, person := kinOf(strings.ToLower(ws[len(ws)-1])); person {
		return ""
	}
	return strings.Join(ws, " ")
}

// matchEnds returns the speaker's ending claims of a clause, and the start of a union said the same way.
func matchEnds(clause string, dates []when) []spec {
	if m := reMutualUnion.FindStringSubmatchIndex(clause); m != nil && !notNames[strings.ToLower(strings.Fields(clause[m[2]:m[3]])[0])] {
		partner, how := clause[m[2]:m[3]], strings.ToLower(clause[m[4]:m[5]])
		if strings.Contains(how, "engaged") {
			return []spec{{predicate: "engaged to", object: partner, confidence: confFirst, change: true}}
		}
		if !strings.Contains(how, "married") || strings.Contains(how, "get") {
			// Still to come ("are getting married", "will get married", "are tying the knot"): engaged.
			out := []spec{{predicate: "engaged to", object: partner, confidence: confFirst, change: true}}
			for _, d := range dates {
				if d.start >= m[1] {
					// "… are getting married on September 14, 2025": the wedding's date.
					out = append(out, spec{predicate: "wedding", object: d.value(), confidence: confFirst, definite: true})
					break
				}
			}
			return out
		}
		return []spec{{predicate: "married to", object: partner, confidence: confFirst, change: true}}
	}
	if m := reMutualEnd.FindStringSubmatch(clause); m != nil && !notNames[strings.ToLower(strings.Fields(m[1])[0])] {
		return []spec{{predicate: "broke up with", object: m[1], confidence: confFirst}}
	}
	if m := reThingsEnded.FindStringSubmatch(clause); m != nil && m[1]+m[2] != "" && (m[1] == "" || m[2] == "") && !notNames[strings.ToLower(m[1]+m[2])] {
		return []spec{{predicate: "broke up with", object: m[1] + m[2], confidence: confFirst}}
	}
	if m := reReplacedAs.FindStringSubmatch(clause); m != nil {
		return []spec{{predicate: "replaced as " + strings.ToLower(m[2]), object: m[1], confidence: confFirst}}
	}
	return nil
}

// lostSpecs returns the speaker's claim that they lost the thing a clause says was stolen or broke down.
func lostSpecs(clause string, typedLower bool) []spec {
	if thing := lostThing(clause, typedLower); thing != "" {
		return []spec{{predicate: "lost", object: thing, confidence: confFirst}}
	}
	return nil
}

// withoutStatedReplacement drops the ending claim of "X replaced Y as my N" when the clause's triples give N its
// new value X: that claim supersedes Y in N's slot, and the ending claim (whose predicate names N) would only
// stand beside it in the slot as a second value of the same moment.
func withoutStatedReplacement(specs []spec, ts []triple) []spec {
	out := specs[:0]
	for _, s := range specs {
		role, ok := strings.CutPrefix(s.predicate, "replaced as ")
		stated := false
		for _, t := range ts {
			stated = stated || ok && t.change && t.subject == "" && strings.EqualFold(t.relation, role)
		}
		if !stated {
			out = append(out, s)
		}
	}
	return out
}
