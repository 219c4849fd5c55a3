// Package rules is Mneme's deterministic, rule-based claim extractor: the default when no LLM is
// configured. It reads each turn sentence by sentence and clause by clause:
//
//   - numbered fact lines ("12. The capital of X is Y.") carry their number as sequence;
//   - code is not a statement: fenced blocks, lines of source, commands, markup and stack traces are skipped
//     (code.go), and Markdown markup is removed from the rest;
//   - questions, negated clauses and hypotheticals ("if I…", "would", "maybe") state nothing and yield no claim,
//     but the statements around a question do: "I'm using Flask 2.3, how do I add a login?" states the
//     version (questions.go);
//   - an embedded clause that reports a fact is read as that fact ("I noticed that X", "the fact that X");
//   - value updates ("my deadline moved to May 5", "the build time has dropped to 40 seconds", "the new
//     budget of $2,000") make the attribute the predicate (updates.go);
//   - names keep their titles and titles their words ("Anna, Duchess of Arvel"; "The Song of the Tides was
//     written in …" is about the book, not about "Tides") (names.go);
//   - a third-person pronoun subject ("She got promoted") is resolved to the one person named earlier in the
//     turn, or else in the turn before it, that it can refer to; otherwise it is left as said (pronouns.go);
//   - encyclopedic templates ("The capital of X is Y", "X's manager is Y", "Paris is the capital of France")
//     and relation phrases ("X was born in the city of Y", "X is famous for Y", "X works for Y") become
//     subject–predicate–object claims;
//   - first-person statements are attributed to the speaker ("I moved to Berlin" → Alice lives in Berlin;
//     "my X is Y" → Alice's X is Y), as are subjectless diary-style clauses ("Lost my job yesterday");
//   - "my sister Anna" yields a kinship claim;
//   - dates ("yesterday", "last week", "in 2019", "on May 5") are resolved against the turn's occurred_at: the
//     claim text states them absolutely and valid_from starts there;
//   - a sentence no structured claim covers yields a fallback claim (predicate "said"/"mentioned",
//     accumulating) so nothing said becomes unretrievable.
//
// Output is a pure function of the turn and the turn before it in the window (for pronouns): the same input
// always yields the same claims in the same order.
package rules

import (
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/pkg/wordnet"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Name and Version are the provenance of claims this extractor makes. Version changes whenever the
// output for the same input may change.
const (
	Name    = "rules"
	Version = "2.34"
)

// Extractor is the rule-based extractor. It is safe for concurrent use.
type Extractor struct {
	policy *canon.Policy
	// nouns is WordNet's noun hierarchy (kinds.go), nil when it is not installed.
	nouns *wordnet.Nouns
}

// Option configures an Extractor.
type Option func(*Extractor)

// WithPolicy sets the predicate policy that decides the functional flag (default canon.DefaultPolicy()).
func WithPolicy(p *canon.Policy) Option { return func(e *Extractor) { e.policy = p } }

// WithWordNet sets the noun hierarchy the extractor reads kinds of things from (default wordnet.Default();
// nil turns it off).
func WithWordNet(n *wordnet.Nouns) Option { return func(e *Extractor) { e.nouns = n } }

// New returns a rule-based extractor. It loads the tagger and lemmatizer (pkg/nlp) and WordNet now, once per
// process, so the cost (about 0.9 s) is paid at start-up rather than by the first turn.
func New(opts ...Option) *Extractor {
	nlp.Warm()
	nouns, _ := wordnet.Default()
	e := &Extractor{policy: canon.DefaultPolicy(), nouns: nouns}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Name implements extract.Extractor.
func (e *Extractor) Name() string { return Name }

// Version implements extract.Extractor: Version, marked "+wordnet" when WordNet's nouns are read (the claims
// differ without them).
func (e *Extractor) Version() string {
	if e.nouns != nil {
		return Version + "+wordnet"
	}
	return Version
}

// Extract implements extract.Extractor: every turn of the window is extracted in order; a turn's pronoun
// subjects may refer to people named in the turn before it.
func (e *Extractor) Extract(ctx context.Context, w extract.Window) (extract.Result, error) {
	var (
		res      extract.Result
		prev     mentions
		session  string
		from     int // the first claim of the current session in res.Claims
		speakers = map[string]string{}
	)
	for i, t := range w.Turns {
		if err := ctx.Err(); err != nil {
			return extract.Result{}, err
		}
		if i > 0 && t.SessionID != session {
			prev = nil
			from = len(res.Claims)
		}
		speakers[t.TurnID] = speakerKey(t)
		cs, ms := e.extractTurn(t, prev, res.Claims[from:], speakers)
		res.Claims = append(res.Claims, cs...)
		// A turn that names no one (the assistant's "Is she still a data scientist?") leaves the people of the
		// turns before it as what later pronouns refer to.
		if len(ms) > 0 {
			prev = ms
		}
		session = t.SessionID
	}
	return res, nil
}

// SpeakerName is the name first-person statements of a turn are attributed to: the speaker, else the role
// ("user", "assistant"), else "unknown".
func SpeakerName(t event.TurnAcceptedV1) string {
	if s := strings.Join(strings.Fields(t.Speaker), " "); s != "" {
		return s
	}
	if t.Role != "" {
		return t.Role
	}
	return "unknown"
}

// turnCtx carries what every claim of one turn shares.
type turnCtx struct {
	turn     event.TurnAcceptedV1
	speaker  string
	ref      time.Time
	numbered bool
	// people named so far in this turn and in the turn before it, for pronoun subjects.
	named, prevNamed mentions
	// things named so far in this turn, most recent last, for "it" and "they" (resolveThing).
	things []string
	// moneyNoun is the attribute of the last money noun said in this turn ("The rent's gone up again, it's
	// £1,175 now": "it" is the rent).
	moneyNoun string
	// earlier are the claims of the window's turns before this one, in the same session, and
	// earlierSpeaker who said each turn (speakerKey by turn id): what a correction may restate.
	earlier        []extract.Claim
	earlierSpeaker map[string]string
	// sentence is the sentence whose clauses are being read (presentTown reads a visit in any of them).
	sentence string
	// typedLower says the sentence was typed all in lower case, as many people chat: its names have no capitals.
	typedLower bool
	// topic is the relation the sentence names before its clause ("When it comes to sport, …"): the key of
	// a claim whose verb names none (frontedRelation).
	topic string
}

// lowerFirst lower-cases the first letter of s when on is set and the first word is not a name.
func lowerFirst(s string, on bool) string {
	if !on || s == "" || strings.HasPrefix(s, "I ") {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

func seqKey(s *int64) string {
	if s == nil {
		return ""
	}
	return strconv.FormatInt(*s, 10)
}

// ExtractTurn returns the claims of one turn on its own (pronoun subjects resolve only within the turn).
func (e *Extractor) ExtractTurn(t event.TurnAcceptedV1) []extract.Claim {
	cs, _ := e.extractTurn(t, nil, nil, nil)
	return cs
}

// extractTurn returns the claims of one turn and the people it names; prev are the people the turn before
// it named, earlier the claims of the session's turns before it in the window (a correction may restate one
// in place) and speakers who said each of those turns.
func (e *Extractor) extractTurn(t event.TurnAcceptedV1, prev mentions, earlier []extract.Claim, speakers map[string]string) ([]extract.Claim, mentions) {
	tc := &turnCtx{turn: t, speaker: SpeakerName(t), ref: t.OccurredAt, prevNamed: prev, earlier: earlier, earlierSpeaker: speakers}
	if tc.ref.IsZero() {
		tc.ref = t.ReceivedAt
	}
	var out []extract.Claim
	seen := map[string]bool{}
	add := func(c extract.Claim) {
		c = eventSlot(countKeyed(c))
		// The sequence is part of the identity: a fact list may repeat a fact after overriding it, and the
		// repetition is what makes it current again.
		k := c.SubjectKey + "\x00" + c.PredicateKey + "\x00" + canon.ObjectKey(c.Object) + "\x00" + seqKey(c.Sequence)
		if c.SubjectKey == "" || c.PredicateKey == "" || c.Object == "" || seen[k] || c.Functional && canon.Indefinite(c.Object) {
			// (A single value said as "someone new" names none, and must not replace one that was named.)
			return
		}
		seen[k] = true
		out = append(out, c)
	}
	for _, ln := range splitLines(dashApposition(movedThenIt(havePlus(topicThenChange(spanThenDate(weekdayDashDate(t.Content))))))) {
		seq := t.Sequence
		numbered := ln.sequence != nil
		if numbered {
			seq = ln.sequence
		}
		tc.numbered = numbered
		for _, sent := range e.eventDatesApart(subjectAppositions(splitSentences(ln.text)), tc.ref) {
			sent = withoutHeading(sent)
			if strings.HasSuffix(sent, ":") {
				// "Here is a list of facts:", "Here's my current code:": an introduction, not a statement.
				continue
			}
			sent = correctionOf(sent)
			if v, wrong, ok := correction(sent, tc.ref); ok && !numbered {
				if applyCorrection(tc, out, v, wrong) {
					// "My flight is on October 14. Sorry, I mean October 15": the speaker corrects a value said
					// before; the claim states the corrected value, as if said right the first time.
					continue
				}
				if c, ok := e.correctedDate(tc, v, wrong, seq); ok {
					add(c)
					continue
				}
			}
			for _, c := range e.sentenceClaims(tc, sent, seq, numbered) {
				add(c)
			}
			if !numbered {
				tc.things = append(tc.things, namedThings(sent, tc.named)...)
				if thing := e.brokenSubject(sent); thing != "" {
					tc.things = append(tc.things, thing)
				}
			}
			for _, c := range e.negatedClaims(tc, sent, seq) {
				add(c)
			}
		}
	}
	if !tc.numbered {
		for _, s := range e.namedLater(trueCase(t.Content, e.nouns)) {
			s.text = sentence(possessive(tc.speaker) + " " + strings.TrimPrefix(s.predicate, "is ") + " is " + s.object + s.text)
			if s.predicate == "is dating" {
				s.text = sentence(tc.speaker + " is dating " + s.object)
			}
			add(e.claim(*tc, s, s.text, nil, t.Sequence))
		}
	}
	return out, tc.named
}

// reChangeCue finds the words with which English says a value replaced an earlier one ("she now lives",
// "currently works", "these days", "switched to", "moved to"): a relation the policy does not know is
// single-valued when its statement says it changed.
var reChangeCue = regexp.MustCompile(`(?i)\b(?:now\s+\pL+|currently|these\s+days|nowadays|anymore|any\s+more|switched\s+(?:to|from)|changed\s+(?:to|from)|instead)\b`)

// reFinalNow is "now" closing a clause ("I drive a Corolla now", "I'm dating Noor now"), which says the value
// replaced an earlier one as "now" before a verb does — unless a word before it makes it a span or a moment
// of the past ("until now", "by now", "for now", "just now").
var reFinalNow = regexp.MustCompile(`(?i)(?:^|[^\pL])(\pL+)?\s*\bnow\W*$`)

// changeCue reports whether a clause says with its words that its value replaced an earlier one.
func changeCue(clause string) bool {
	// A non-restrictive relative clause is a statement of its own ("the checkout service, which has now
	// reached 900 requests per second"): its cue says nothing of the main clause.
	for _, rel := range []string{", which ", ", who "} {
		if i := strings.Index(clause, rel); i > 0 {
			clause = clause[:i]
		}
	}
	if reChangeCue.MatchString(clause) {
		return true
	}
	m := reFinalNow.FindStringSubmatch(clause)
	if m == nil {
		return false
	}
	switch strings.ToLower(m[1]) {
	case "until", "till", "by", "for", "just", "as", "than":
		return false
	}
	return true
}

// reBareAttribute is a sentence that opens with a money noun as its subject, without a determiner: "Rent's going
// up to 1,020 euros", "Mortgage is £950 a month".
var reBareAttribute = regexp.MustCompile(`^(\p{Lu}\p{Ll}+)(\s+(?:is|was|has|went|goes|will)\b|'s\s)`)

// reCalledAfter is someone or an animal introduced with an indefinite article and named by a pronoun's clause
// after it: "We adopted a kitten last week, she's called Pepper", "I've got a new roommate, he's called Sam"
// (groups: the noun phrase, its noun, what comes between, the name).
var reCalledAfter = regexp.MustCompile(`\b((?i:a|an)\s+(?:(?i:new|little|baby|rescue|young|second|third)\s+)?([a-z-]+))\b([^.!?,;]{0,40}?)\s*,?\s+(?:(?i:and)\s+)?(?i:she|he|it)(?:'s|\s+is)\s+(?i:called|named)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?)`)

// calledAfter names the one a sentence introduces where a pronoun's clause right after gives the name, as
// "a kitten called Pepper" would ("adopted a kitten last week, she's called Pepper"): English often names a
// new pet or person in a clause of its own, and the pronoun's antecedent is the indefinite noun before it.
// Only a kinship noun (people and pets) takes a name this way.
func calledAfter(sent string) string {
	m := reCalledAfter.FindStringSubmatchIndex(sent)
	if m == nil {
		return sent
	}
	if _, ok := kinOf(sent[m[4]:m[5]]); !ok {
		return sent
	}
	return sent[:m[3]] + " called " + sent[m[8]:m[9]] + sent[m[6]:m[7]] + sent[m[9]:]
}

// ownedAttribute gives a sentence that opens with a bare money noun ("Rent's going up …") the speaker's
// possessive: chat drops the determiner of what is the speaker's own, and a noun of what one pays or earns
// (moneyNouns) said that way is the speaker's.
func ownedAttribute(sent string) string {
	m := reBareAttribute.FindStringSubmatch(sent)
	if m == nil {
		return sent
	}
	if _, ok := moneyNouns[strings.ToLower(m[1])]; !ok || !strings.ContainsAny(sent, "0123456789") {
		// (Only with an amount: "Budget is tight" says nothing of its value.)
		return sent
	}
	rest := sent[len(m[1]):]
	if strings.HasPrefix(rest, "'s ") && strings.HasSuffix(firstWords(rest[3:], 1), "ing") {
		// "Rent's going up": the contraction of "is" before a participle.
		rest = " is " + rest[3:]
	}
	return "My " + strings.ToLower(m[1]) + rest
}

// reQuantityFor is a money noun owned by the speaker and the thing it is for, before the verb: "My budget for
// the new laptop is …", "our rent for the flat went up to …".
var reQuantityFor = regexp.MustCompile(`^((?i:my|our|the)\s+)(?:(?i:monthly|weekly|annual|yearly|daily)\s+)?(\p{Ll}+)\s+for\s+(?i:(?:the|my|our|a|an|this|that)\s+)?(?:(?i:new|next|current)\s+)?(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*)?)(\s+(?:is|was|will|has|had|went|goes|'s|just|now|got)\b)`)

// quantityFor says a money noun of a thing as the compound English also uses ("my budget for the new laptop"
// is "my laptop budget"), so the amount is filed under the thing's budget — the attribute a later "the laptop
// budget went up" or "What is my budget for the laptop?" names — and not under the thing itself.
func quantityFor(sent string) string {
	m := reQuantityFor.FindStringSubmatchIndex(sent)
	if m == nil {
		return sent
	}
	if _, ok := moneyNouns[sent[m[4]:m[5]]]; !ok {
		return sent
	}
	// A plural thing is said in the singular, as a noun before a noun is ("the budget for groceries" is
	// "the grocery budget"); how often the amount falls due stays with the amount ("£400 a month").
	thing := strings.Fields(sent[m[6]:m[7]])
	thing[len(thing)-1] = nlp.Lemma(thing[len(thing)-1], "NNS")
	return sent[m[2]:m[3]] + strings.Join(thing, " ") + " " + sent[m[4]:m[5]] + sent[m[8]:]
}

// rePreface is a short heading before a colon that introduces the statement ("Big news: …", "Quick update:
// …", "Update on the food front: …"); a heading with a verb is a clause of its own.
var rePreface = regexp.MustCompile(`^(?:[\p{L}'-]+\s+){0,6}[\p{L}'-]+:\s+\S`)

// Plans called off. English says a planned event is cancelled with the adjective "off" ("The Japan trip is off",
// "the wedding's off": Oxford, "off" adj. 2, "(of a planned event) cancelled or postponed") and a planned
// destination given up with "forget" ("Forget Norway, we're going to Iceland"). The event is a noun of a planned
// event (below) or a place WordNet knows as a location; both are said as what they state, "we called off …",
// which the reader reads as an ending of the plan the thing names.
var (
	// plannedEvents are the nouns of everyday English for things people plan and call off.
	plannedEvents = eventAlternation(canon.PlannedEventNouns())
	reEventOff    = regexp.MustCompile(`^((?i:the|our|my)\s+(?:[\pL\pM'-]+\s+){0,3}?(?i:` + plannedEvents + `))\s+(?i:is|'s|are|'re|was)\s+(?:(?i:now|officially|definitely|completely|totally|all)\s+)?(?i:off)` + offEnd)
	rePlaceOff    = regexp.MustCompile(`^(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})\s+(?i:is|'s)\s+(?:(?i:now|officially|definitely|completely|totally)\s+)?(?i:off)` + offEnd)
	reForgetPlace = regexp.MustCompile(`^(?i:forget(?:\s+about)?|scratch|ditch|scrap|skip)\s+((?:the\s+)?\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})(\s*[,;.!-].*)$`)
	// reEventFell and rePlaceFell are a plan given up in other idioms of English: it "fell through" (Oxford,
	// "fall through": fail to happen), is "not happening" or "on hold", was cancelled, scrapped or shelved —
	// "The Japan trip fell through", "Valencia is on hold". reChangedMind is the speaker's "changed my mind about
	// Naples".
	reEventFell   = regexp.MustCompile(`^((?i:the|our|my)\s+(?:[\pL\pM'-]+\s+){0,3}?(?i:` + plannedEvents + `|` + expectedThings + `))\s+` + fellThrough + offEnd)
	rePlaceFell   = regexp.MustCompile(`^(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})\s+` + fellThrough + offEnd)
	reChangedMind = regexp.MustCompile(`^(?:(?:I|[Ww]e)(?:'ve|\s+have)?\s+|(?i:just|so)\s+)?(?i:changed)\s+(?i:my|our)\s+minds?\s+(?i:about|on)\s+((?:the\s+)?\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2}|(?i:the|our|my)\s+(?:[\pL\pM'-]+\s+){0,3}?(?i:` + plannedEvents + `))(\s*[,;.!-].*|)$`)
)

// expectedThings are the nouns of things one expects to get rather than plans, which English says fall through
// or are cancelled as plans are ("the Amsterdam job fell through", "the contract was cancelled"); "off" says
// other things of them ("my job is off today"), so only fellThrough reads them.
const expectedThings = `job|position|contract|loan|mortgage|transfer|placement|internship|scholarship`

// reLastExpected is an expected thing's noun at the end of a phrase.
var reLastExpected = regexp.MustCompile(`(?i)\b(?:` + expectedThings + `)$`)

// Plans back on. English says a plan called off will happen after all with "back on" ("The wedding is back
// on", "Dublin's back on": Oxford, "on" adv. 3, "(of an event) taking place or going ahead as planned"); the
// statement is said as what it states, "we revived …", which the reader reads as undoing an ending of the plan
// the thing names (services/query resumptionVerbs).
var (
	reEventBackOn = regexp.MustCompile(`^((?i:the|our|my)\s+(?:[\pL\pM'-]+\s+){0,3}?(?i:` + plannedEvents + `))\s+(?i:is|'s|are|'re)\s+` + backOn + offEnd)
	rePlaceBackOn = regexp.MustCompile(`^(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})\s+(?i:is|'s)\s+` + backOn + offEnd)
)

// backOn is "back on" with the adverbs that may come before it.
const backOn = `(?:(?i:now|officially|definitely|all|so)\s+)?(?i:back\s+on)`

// fellThrough is what is said of a plan that will not happen: it fell through, is not happening, is on hold,
// got cancelled.
const fellThrough = `(?:(?i:has|have|had)\s+)?(?:(?i:fell|fallen)\s+(?i:through)|(?i:is|'s|are|'re)\s+(?i:not|n't)\s+(?i:happening)|(?i:isn't|aren't)\s+(?i:happening)|(?:(?i:is|'s|are|'re|was|has\s+been|have\s+been|got)\s+(?:(?i:now|officially|just)\s+)?(?:(?i:on\s+hold)|(?i:cancell?ed|scrapped|shelved))))`

// offEnd is what may follow "off" when it says an event is cancelled: the clause's end, a reason, "the table".
const offEnd = `(?:\s+(?i:the\s+table|for\s+now|now|again|too)){0,2}(\s*(?:[,.!;]|$|\s+(?i:because|since|as|so|and|but)\b).*)$`

// offTail reads the rest of a clause calledOff rewrote: another plan called off or back on after a comma
// ("Dublin's back on, the Amsterdam job fell through") is said so too.
func (e *Extractor) offTail(rest string) string {
	after, ok := strings.CutPrefix(rest, ", ")
	if !ok || after == "" {
		return rest
	}
	if r := e.calledOff(after); r != after {
		return ", " + lowerFirst(r, true)
	}
	return rest
}

// calledOff says a planned event called off in the words the reader reads as an ending ("we called off the
// Japan trip"); other sentences are returned as they are.
func (e *Extractor) calledOff(sent string) string {
	if !strings.Contains(sent, "off") && !strings.Contains(sent, "orget") && !strings.Contains(sent, "back on") && !reCalledOffCue.MatchString(sent) {
		return sent
	}
	if m := reEventBackOn.FindStringSubmatch(sent); m != nil && plannedEvent(m[1]) {
		return "We revived " + lowerFirst(m[1], true) + e.offTail(m[2])
	}
	if m := rePlaceBackOn.FindStringSubmatch(sent); m != nil && e.nouns != nil && e.nouns.Known(m[1]) && e.nouns.Is(m[1], 2, locationKind) {
		return "We revived " + m[1] + e.offTail(m[2])
	}
	for _, re := range []*regexp.Regexp{reEventOff, reEventFell, reChangedMind} {
		if m := re.FindStringSubmatch(sent); m != nil && (plannedEvent(m[1]) || re == reEventFell && reLastExpected.MatchString(m[1])) {
			return "We called off " + lowerFirst(m[1], true) + e.offTail(m[2])
		}
	}
	if m := rePlaceFell.FindStringSubmatch(sent); m != nil && e.nouns != nil && !(e.nouns.Known(m[1]) && e.nouns.Is(m[1], 2, personKind)) {
		// What "fell through" or is "not happening" is a plan, whatever WordNet knows of its name (only no
		// person: "Tom isn't happening" is no English of people).
		return "We called off " + m[1] + e.offTail(m[2])
	}
	var m []string
	for _, re := range []*regexp.Regexp{rePlaceOff, reForgetPlace, reChangedMind} {
		if m = re.FindStringSubmatch(sent); m != nil {
			break
		}
	}
	if m == nil || e.nouns == nil {
		return sent
	}
	place := strings.TrimPrefix(m[1], "the ")
	if !e.nouns.Known(place) || !e.nouns.Is(place, 2, locationKind) {
		return sent
	}
	return "We called off " + m[1] + m[2]
}

// reMovedThenIt is a thing of the speaker's said to have been moved, and "it" after it saying where or when
// it is now: "The conference was moved up a week, it's on May 3rd now", "My appointment got changed. It's at
// 4pm now" (groups: the thing, "it" and its verb).
var reMovedThenIt = regexp.MustCompile(`\b((?i:the|my|our)\s+[\pL' -]{1,40}?)\s+(?i:was|got|has\s+been|have\s+been|had\s+been|is\s+being)\s+(?i:moved|changed|rescheduled|pushed|postponed|brought\s+forward|shifted|bumped|delayed|put\s+back|switched)\b[^,.;!?]{0,40}?(?:[,.;!]\s+|\s+(?i:and|so)\s+)((?i:it)(?:'s|\s+is)\s+(?i:now\s+)?(?i:on|at|in|until|till|the)\b)`)

// reMovedActiveThenIt is reMovedThenIt in the active voice, whoever moved the thing: "They had to postpone my
// knee operation. It's now on the 18th", "We pushed the party back to July, it's on the 12th", "They've
// changed the venue for the party, it's at the Crown now" (the thing is the party). Only a preposition may
// come between the thing and the end of its clause, so the thing is a whole noun phrase.
var reMovedActiveThenIt = regexp.MustCompile(`\b(?i:postponed?|moved?|rescheduled?|rearranged?|push(?:ed)?|brought|bring|put|changed?|delayed?|shift(?:ed)?|bump(?:ed)?)(?:\s+(?i:back|forward|off))?\s+(?:(?i:the)\s+(?i:date|time|day|venue|location|place)\s+(?i:of|for)\s+)?((?i:the|my|our)\s+[\pL\pM'-]+(?:\s+[\pL\pM'-]+){0,3}?)(?:\s+(?i:back|forward|off|again|to|until|till|from|by|because|due|after|for|last|this|next|yesterday|today|tomorrow)\b[^,.;!?]{0,40}?)?(?:[,.;!]\s+|\s+(?i:and|so)\s+)((?i:it)(?:'s|\s+is)\s+(?i:now\s+)?(?i:on|at|in|until|till|the)\b)`)

// movedThenIt names the thing a moved-then-"it" statement's pronoun stands for (reMovedThenIt,
// reMovedActiveThenIt): "…, it's on May 3rd now" is "…, the conference is on May 3rd now", which states the
// thing's new date as its own clause.
func movedThenIt(content string) string {
	if !strings.Contains(content, "t's") && !strings.Contains(content, "t is") {
		// (No "it's" or "it is": the patterns cannot match, and the turn is not scanned.)
		return content
	}
	m := reMovedThenIt.FindStringSubmatchIndex(content)
	if a := reMovedActiveThenIt.FindStringSubmatchIndex(content); a != nil && (m == nil || a[4] < m[4]) {
		m = a
	}
	if m == nil {
		return content
	}
	np := content[m[2]:m[3]]
	before := content[:m[4]]
	if b := strings.TrimRight(before, " "); strings.HasSuffix(b, ",") || strings.HasSuffix(b, ";") {
		// "They've changed the venue for the wedding, it's at the Old Barn now": the new value is a sentence
		// of its own, whatever the first clause's subject ("…, the wedding is at …" is not always split there).
		before = b[:len(b)-1] + ". "
	}
	if before == content[:m[4]] && content[m[4]] != 'I' {
		np = strings.ToLower(np[:1]) + np[1:]
	} else {
		np = strings.ToUpper(np[:1]) + np[1:]
	}
	// What follows "it's" or "it is": " on May 3rd", " now on …".
	rest := strings.TrimPrefix(strings.TrimPrefix(content[m[4]+2:m[5]], "'s"), " is")
	return before + np + " is" + rest + movedThenIt(content[m[5]:])
}

// reHeading is a short heading before a colon and a statement of the speaker's: "New year, new me: I switched
// to green tea", "Note to self: I need to call the bank" (groups: the heading, the statement).
var reHeading = regexp.MustCompile(`^([^:;.!?]{2,40}):\s+((?:I|We|My|Our|I'm|I've|We're|We've)\b.*)$`)

// withoutHeading returns the statement of a sentence that opens with a heading without a verb of its own
// (reHeading); news headings ("Big news:") are discourse markers already.
func withoutHeading(sent string) string {
	if m := reCommaHeading.FindStringSubmatch(sent); m != nil && strings.Contains(m[1], " ") && !hasVerbWord(m[1]) && kinRole(strings.ToLower(m[2])) == "" &&
		!personNoun(strings.ToLower(m[2])) && finiteClause(firstWords(m[3], 8), true) {
		// "Letter from the landlord, rent's going up to £1,410": a noun phrase without a verb before a comma, then
		// a clause of its own, is the clause's topic, said as a heading is.
		return m[3]
	}
	if !strings.Contains(sent, ":") {
		return sent
	}
	if m := reHeading.FindStringSubmatch(sent); m != nil && !hasVerbWord(m[1]) {
		return m[2]
	}
	return sent
}

// reCommaHeading is a short noun phrase, a comma and a clause whose subject is a pronoun, a possessive or
// definite noun phrase or a noun typed without its article: "Letter from the landlord, rent's going up",
// "Big news, we got the flat" (groups: the noun phrase, its first noun, the clause). A phrase that opens with a
// preposition ("In Paris, Anna works") says where or when the clause holds, and a name ("Tom, he moved …") is
// the subject itself; neither is matched (withoutHeading also wants a phrase of two words or more).
var reCommaHeading = regexp.MustCompile(`^((?i:(?:a|an|the|big|bad|good|great|quick|small|sad|happy|more|another|some)\s+)*(\p{L}[\p{Ll}-]*)(?:\s+(?i:from|of|about|on)\s+(?i:the|my|our|a|an)\s+[\p{Ll}-]+)?),\s+((?:I|[Ww]e|[Hh]e|[Ss]he|[Tt]hey|[Mm]y|[Oo]ur|[Tt]he|\p{Ll}[\p{Ll}-]*)\b.*)$`)

// reSubjectApposition is a named subject with an apposition before its verb: "Ólafur, my brother-in-law, lives
// in Reykjavík and runs a fishing tour company", "Tom, a nurse at St Mary's, moved to Leeds" (groups: a lead
// conjunction, the name, the apposition, the rest from the verb on).
var reSubjectApposition = regexp.MustCompile(`^((?:(?i:and|so|but|also)\s+)?)(\p{Lu}[\pL\pM'-]+(?:\s+\p{Lu}[\pL\pM'-]+)?),\s+((?i:my|our)\s+[\pL-]+(?:\s+[\pL-]+)?|(?i:a|an|the)\s+[^,;]{1,50}?),\s+(\p{Ll}[\pL'-]*\s.*)$`)

// reKinThenName is a subject named by kinship and then by name between commas, before its verb: "Our eldest,
// Cerys, is at Cardiff Uni" (groups: a lead conjunction, the kinship phrase, the name, the rest).
var reKinThenName = regexp.MustCompile(`^((?:(?i:and|so|but|also)\s+)?)((?i:my|our)\s+[\pL-]+(?:\s+[\pL-]+)?),\s+(\p{Lu}[\pL\pM'-]+(?:\s+\p{Lu}[\pL\pM'-]+)?),\s+(\p{Ll}[\pL'-]*\s.*)$`)

// subjectAppositions says each sentence whose named subject has an apposition (reSubjectApposition) as two:
// what the apposition says of the name ("Ólafur is my brother-in-law."), and the sentence without it ("Ólafur
// lives in Reykjavík and runs …"), which the clause readers read as they read any sentence of a named subject.
// The rest must open with a verb said of one ("lives", "moved", "is", or an adverb before one): "Thanks, my
// friend, see you" is no statement about "Thanks".
func subjectAppositions(sents []string) []string {
	var out []string
	for _, sent := range sents {
		var m []string
		if strings.Count(sent, ",") >= 2 {
			m = reSubjectApposition.FindStringSubmatch(sent)
			if k := reKinThenName.FindStringSubmatch(sent); m == nil && k != nil {
				// "Our eldest, Cerys, is at Cardiff Uni": the kinship first and the name in apposition.
				m = []string{k[0], k[1], k[3], strings.ToLower(k[2][:1]) + k[2][1:], k[4]}
			}
		}
		if m == nil || notNames[strings.ToLower(strings.Fields(m[2])[0])] || !verbOfASubject(strings.Fields(m[4])[0]) {
			out = append(out, sent)
			continue
		}
		out = append(out, m[2]+" is "+m[3]+".", m[1]+m[2]+" "+m[4])
	}
	return out
}

// verbOfASubject reports a word that may follow a singular subject as its verb: an inflected verb ("lives",
// "moved"), an auxiliary, or an adverb that stands before one ("just", "still").
func verbOfASubject(w string) bool {
	lw := strings.ToLower(w)
	if auxiliaries[lw] || adverbs[lw] {
		return true
	}
	b, ok := verbBase(lw)
	return ok && b != lw
}

// reDashApposition is a place said by its kind and then, after a dash, by its name, at the end of a sentence:
// "I've moved to a bigger firm in Cardiff - Hugh James." (groups: the kind's noun phrase, the name, the end).
var reDashApposition = regexp.MustCompile(`(\b(?i:a|an)\s+(?:[\p{Ll}-]+\s+){0,3}[\p{Ll}-]+(?:\s+(?i:in|near)\s+\p{Lu}[\pL\pM-]*)?)\s+[-–—]\s+(\p{Lu}[\pL\pM&.'’-]*(?:\s+(?:&|of|and|the|\p{Lu}[\pL\pM&.'’-]*))*)(\s*[.!]|\s*$)`)

// dashApposition sets such a name off with a comma, as an apposition is written, so that the sentence splitter
// does not read the dash as the end of a statement and the readers of named places find it.
func dashApposition(content string) string {
	if !strings.Contains(content, " - ") && !strings.Contains(content, " – ") && !strings.Contains(content, " — ") {
		return content
	}
	return reDashApposition.ReplaceAllString(content, "$1, $2$3")
}

// reSubjectlessAt is a sentence of chat that leaves out "I'm" or "I've" before being at or in a named place: "Still
// at Google, still loving it", "Been at Deloitte for ages", "Now in Berlin" (groups: the adverb or "been", the
// rest).
var reSubjectlessAt = regexp.MustCompile(`^((?i:still|now|currently)|(?i:been))\s+((?:at|in)\s+\p{Lu}.*)$`)

// reSubjectlessBeen is a sentence of chat that leaves out "I have" before a perfect progressive: "Been driving
// for Deliveroo most evenings", "just been working from home" (group 1 the sentence).
var reSubjectlessBeen = regexp.MustCompile(`^((?:(?i:just|still|recently|mostly)\s+)?(?i:been)\s+\p{Ll}+ing\b.*)$`)

// reSubjectlessGot is a sentence of chat that leaves out "I" before a get-passive of work or life, or "I have"
// before a perfect passive: "Got promoted to staff engineer last week!", "Finally got hired at Arup", "Just been
// made senior copywriter!".
var reSubjectlessGot = regexp.MustCompile(`^((?:(?i:just|finally|officially)\s+)?(?i:got|been)\s+(?i:promoted|hired|engaged|married|accepted|transferred|laid\s+off|let\s+go|made|bumped|moved|offered|fired|sacked|poached|headhunted|signed|divorced)\b.*)$`)

// reSubjectlessLanded is a sentence of chat that leaves out "I" before a post won and named by its role: "Got
// the head chef job at a new place in Brixton!".
var reSubjectlessLanded = regexp.MustCompile(`^((?:(?i:just|finally|officially)\s+)?(?i:got|landed|accepted|bagged|won)\s+(?i:the|a|an)\s+(?:[\pL-]+\s+){1,3}(?i:job|role|position|post)\b.*)$`)

// reTopicThenChange is a noun asked as a question and answered by a sentence without a subject whose verb
// changes a value ("Budget? Bumped up to 35 grand.", "Rent? Put up to £950."): chat names the topic, then says
// what happened to it (groups: what comes before, the noun, the verb).
var reTopicThenChange = regexp.MustCompile(`(^|[.!?]\s+)((?:(?i:the|my|our)\s+)?\pL[\p{Ll}-]+(?:\s+\p{Ll}[\p{Ll}-]+)?)\?\s+((?:(?i:just|finally|now)\s+)?(?i:bumped|moved|pushed|put|changed|raised|cut|dropped|upped|increased|reduced|lowered|brought|knocked|set)\s)`)

// topicThenChange gives the answer of a topic asked as a question (reTopicThenChange) the topic as its
// subject, as the speaker's: "Budget? Bumped up to 35 grand." → "Budget? My budget was bumped up to 35 grand.".
func topicThenChange(content string) string {
	if !strings.Contains(content, "?") {
		return content
	}
	return reTopicThenChange.ReplaceAllStringFunc(content, func(m string) string {
		g := reTopicThenChange.FindStringSubmatch(m)
		topic := strings.ToLower(g[2])
		for _, det := range []string{"the ", "my ", "our "} {
			topic = strings.TrimPrefix(topic, det)
		}
		if notNames[strings.Fields(topic)[0]] {
			return m
		}
		return g[1] + g[2] + "? My " + topic + " was " + strings.ToLower(g[3][:1]) + g[3][1:]
	})
}

// reSpanThenDate is a time moved by a span and then, after a comma, the day it moved to: "shifted a week
// later, 30 March", "pushed back a fortnight, to the 21st", "moved the party forward two days, to the 12th"
// (groups: the verb with its object, the day).
var reSpanThenDate = regexp.MustCompile(`(?i)\b(` + updateVerb + `(?:\s+(?:the|my|our|his|her|their)\s+[\pL-]+(?:\s+[\pL-]+)?)?)(?:\s+(?:back|forward))?\s+(?:by\s+)?(?:a|an|one|two|three|four|five|six|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|fortnight|months?)(?:\s+(?:later|earlier|back|forward|on))?\s*,\s*(?:to\s+)?((?:the\s+)?\d{1,2}(?:st|nd|rd|th)?\b|` + monthRe + `\.?\s+\d{1,2}\b|(?:on\s+)?(?:the\s+)?` + weekdayRe + `\b)`)

// spanThenDate says a time moved by a span and then to a day as moved to the day ("Concert's been shifted a
// week later, 30 March" → "Concert's been shifted to 30 March"): the day is the new value, the span how far it
// moved.
func spanThenDate(content string) string {
	if !strings.Contains(content, ",") {
		return content
	}
	return reSpanThenDate.ReplaceAllString(content, "$1 to $2")
}

// reWeekdayDashDate is a weekday and then its date after a dash: "moved to the Friday - June 14", "the
// Saturday – 15th of June".
var reWeekdayDashDate = regexp.MustCompile(`(?i)\b(?:the\s+)?` + weekdayRe + `\s+[-–—]\s+(?:(?:the\s+)?\d{1,2}(?:st|nd|rd|th)?(?:\s+of)?\s+` + monthRe + `|` + monthRe + `\.?\s+\d{1,2}(?:st|nd|rd|th)?)\b`)

// weekdayDashDate says a weekday with its date after a dash as one date ("the Friday - June 14" → "Friday, June
// 14"), which the date reader reads whole.
func weekdayDashDate(content string) string {
	if !strings.ContainsAny(content, "-–—") || !strings.Contains(strings.ToLower(content), "day") {
		return content
	}
	return reWeekdayDashDate.ReplaceAllStringFunc(content, func(m string) string {
		if len(m) > 4 && strings.EqualFold(m[:4], "the ") {
			m = m[4:]
		}
		i := strings.IndexAny(m, "-–—")
		return strings.TrimSpace(m[:i]) + ", " + strings.TrimLeft(m[i:], "-–— ")
	})
}

// reTookOverAs is someone named taking over a post from its holder, said with the post after "as": "Kim Seo-yeon
// took over from him as team lead", "Ana has stepped in as my manager", "Tom replaced Priya as our line manager"
// (groups: the name, the post). A promotion or an appointment to a post ("Priya got promoted to team lead") says
// whose post it is no more than the post's name does, and is not read here.
var reTookOverAs = regexp.MustCompile(`^(` + namePart + `(?:\s+` + namePart + `){0,2})\s+(?:(?:has|had|have)\s+|'s\s+)?(?:(?:just|now|officially|finally|since)\s+)?(?:(?:took|taken|takes|taking|is\s+taking|stepped|steps|stepping|is\s+stepping)\s+(?:over|in|up)(?:\s+from\s+[^,;]+?)?|(?:replaced|succeeded|replaces|succeeds)\s+[^,;]+?)\s+(?:as\s+)?(?:(?i:my|our|the)\s+)?(?:(?i:new|interim|acting)\s+)?(\p{Ll}[\pL-]*(?:\s+\p{Ll}[\pL-]*)?)$`)

// newLineManager reads a post of the speaker's line management taken over by someone named (reTookOverAs) as
// the speaker's new holder of it: one's team lead, manager, boss or supervisor is one's own unless the clause
// names another owner (canon's "manager" group); a post of an organization ("took over as CEO") has its own
// owner, which the clause does not name, and is left to the other readers.
func newLineManager(clause string) (spec, bool) {
	m := reTookOverAs.FindStringSubmatch(strings.TrimRight(clause, ".!"))
	if m == nil || notNames[strings.ToLower(strings.Fields(m[1])[0])] {
		return spec{}, false
	}
	post := strings.ToLower(m[2])
	if canon.RelationKey(strings.ReplaceAll(post, " ", "_")) != "manager" {
		return spec{}, false
	}
	return spec{predicate: post, object: m[1], confidence: confFirst, definite: true, change: true}, true
}

// reHavePlus is a statement of what the speaker has that adds one more thing with ", plus": "We've got two
// budgies, Mango and Kiwi, plus a very old tabby called Bánh Bao" (groups: the subject, the first part).
var reHavePlus = regexp.MustCompile(`(\b(?:I|We|we))((?:'ve|\s+have)?\s+(?:got|have|own)\s[^.!?;]*?),\s+(?i:plus)\s+`)

// havePlus says the thing added with ", plus" in its own sentence ("… Mango and Kiwi. We also have a very old
// tabby …"), so that the list before it keeps its names and the added thing is read as the speaker's too.
func havePlus(content string) string {
	if !strings.Contains(content, "plus") && !strings.Contains(content, "Plus") {
		return content
	}
	return reHavePlus.ReplaceAllString(content, "$1$2. $1 also have ")
}

// reNowThat is a clause of "now that" before the main clause: "Now that I'm at CD Projekt, the commute is
// short" (groups: the clause, the main clause). Without a comma, a clause of being at, with or in a place
// named ends at the name: "Now that I'm at CD Projekt the commute is short".
var (
	reNowThat        = regexp.MustCompile(`^(?i:now\s+that)\s+([^,;]+?),\s*(\S.*)$`)
	reNowThatAtPlace = regexp.MustCompile(`^(?i:now\s+that)\s+((?:I|we|he|she|they)(?:'m|'re|'s|\s+am|\s+are|\s+is)\s+(?:(?:now|finally)\s+)?(?:at|with|in)\s+\p{Lu}[\pL\pM'’&.-]*(?:\s+\p{Lu}[\pL\pM'’&.-]*)*)\s+(\p{Ll}.*)$`)
)

// nowThat reads "now that X, Y" as X, said to hold now, and Y: English's "now that" presents its clause as a
// new fact ("now that I'm at CD Projekt" says the speaker is at CD Projekt now).
func nowThat(sent string) string {
	if len(sent) < 9 || !strings.EqualFold(sent[:9], "now that ") {
		return sent
	}
	m := reNowThatAtPlace.FindStringSubmatch(sent)
	if m == nil {
		m = reNowThat.FindStringSubmatch(sent)
	}
	if m == nil {
		return sent
	}
	return titleCase(m[1]) + " now, " + m[2]
}

// reSubjectlessUpdate is a sentence of chat that leaves out "I" before a verb of moving a thing of one's own in
// time, of booking it or of replacing it: "Rescheduled the dentist for June 3", "Pushed the party back to
// July", "Booked the dentist for Thursday", "Replaced it with a secondhand Tesla".
var reSubjectlessUpdate = regexp.MustCompile(`^((?:(?i:just|finally)\s+)?(?:(?i:rescheduled|rebooked|rearranged|moved|pushed|postponed|bumped|changed|booked)\s+(?i:the|my|our)|(?i:replaced|swapped|traded\s+in)\s+(?i:the|my|our|it))\s.*)$`)

// reMovedPlacesNow is the speaker changing one of their places and saying where they are now: "We've moved
// offices, we're in the Landmark building on Princess Street now", "I changed gyms, I'm at PureGym now"
// (groups: the place's noun in the plural, where the speaker is).
var reMovedPlacesNow = regexp.MustCompile(`^(?:I|[Ww]e)(?:'ve|\s+have)?\s+(?:(?i:just|finally|recently)\s+)?(?i:moved|changed|switched)\s+(?i:(offices|flats|houses|gyms|studios|surgeries|schools|clubs|churches))\s*[,;]\s*(?i:we're|we\s+are|I'm|I\s+am|it's|it\s+is)\s+(?i:now\s+)?((?i:in|at|on)\s+\S.*)$`)

// degreeNouns are the English nouns of a course of study named by its degree: "an MA in journalism", "my PhD".
const degreeNouns = `(?:MA|MSc|MPhil|MBA|BA|BSc|BEng|PhD|DPhil|LLB|LLM|(?i:degree|masters|master's|bachelors|bachelor's|doctorate|diploma|major))`

var (
	// reDegreeMovedTo is one's course of study moved to another institution, the subject left out as chat
	// leaves it or said ("Transferred my PhD to Sciences Po", "I've moved my MA to Leeds"; group 1 the
	// subject, group 2 the institution's first letter).
	reDegreeMovedTo = regexp.MustCompile(`^(?:(I|[Ww]e|\p{Lu}\p{Ll}+)(?:'ve|\s+have|\s+has)?\s+)?(?:(?i:just|finally|now|recently)\s+)?(?i:moved|transferred|switched)\s+(?i:my|our|her|his)\s+(?:(?i:part-time|full-time)\s+)?` + degreeNouns + `\s+(?i:to)\s+(\p{Lu})`)
	// reDegreeFromTo is one's degree changed from one subject to another (group 1 what precedes the degree).
	reDegreeFromTo = regexp.MustCompile(`(\b(?i:my|our|her|his)\s+(?:(?i:part-time|full-time)\s+)?)` + degreeNouns + `(\s+(?i:from)\s+[^,.;!?]+?\s+(?i:to)\s)`)
	// reDoingDegreeIn is a degree being done in a subject (group 1 what precedes "doing").
	reDoingDegreeIn = regexp.MustCompile(`(\b(?:I'm|I\s+am|[Ww]e're|[Ww]e\s+are|(?:\p{Lu}\p{Ll}+)\s+is)\s+(?:(?i:now|currently|still)\s+)?)(?i:doing|taking|studying\s+for|working\s+on)\s+(?i:a|an|my|her|his)\s+(?:(?i:part-time|full-time|one-year|two-year)\s+)?` + degreeNouns + `\s+(?i:in)\s+`)
)

// reToldBy is news the speaker got in a message: "Got an email saying the gym is putting prices up to £34",
// "We had a letter from the council to say …" (group 1 the news).
var reToldBy = regexp.MustCompile(`^(?:(?:I|We|we)(?:'ve|\s+have)?\s+)?(?:(?i:just)\s+)?(?i:got|received|had|gotten)\s+(?i:an?\s+|the\s+)?(?i:email|e-mail|letter|text|message|call|notice|notification)(?:\s+(?i:from)\s+[^,]{1,40}?)?\s+(?i:saying|to\s+say|telling\s+(?:me|us))\s+(?i:that\s+)?(.+)$`)

// rePricesUp is a provider raising or cutting its prices to an amount: "the gym is putting prices up to £34 from
// April", "Netflix are putting their prices up to £12.99" (groups: the provider, up or down, what follows).
var rePricesUp = regexp.MustCompile(`^((?:(?i:the|my|our)\s+)?[\pL\pM'-]+(?:\s+[\pL\pM'-]+)?)\s+(?i:is|are|'s|'re)\s+(?i:putting|pushing|bumping)\s+(?i:(?:its|their|the)\s+)?(?i:prices?|fees?|rates?|charges?)\s+(?i:(up|down))(\s+to\s+.+)$`)

// reDietFragment is a diet said alone as one's own now, in a verbless sentence: "So pescatarian, I guess", "Vegan
// now!", "Basically vegetarian these days" (group 1 the diet).
var reDietFragment = regexp.MustCompile(`^(?i:(?:so|now|basically|officially|technically|fully|properly)\s+)?(?i:an?\s+)?(?i:(vegetarian|vegan|pescatarian|pescetarian|flexitarian))(?i:\s+(?:now|these\s+days))?(?i:,?\s+(?:I\s+(?:guess|suppose|think|reckon)|then|now|officially))?\s*[.!]*$`)

// reClippedOwn is a sentence of chat that leaves out "my" before a favourite: "Favourite band at the moment is
// Wet Leg", "Current fave is Big Thief".
var reClippedOwn = regexp.MustCompile(`^(?:(?:Current|New|All-time)\s+(?i:favourite|favorite|fave)|Favourite|Favorite|Fave)\s+\p{Ll}[\pL\s-]{0,40}?\s+(?:is|are|at\s+the\s+moment\s+is|right\s+now\s+is|these\s+days\s+is)\s`)

// reSubjectlessState is a sentence of chat that leaves out "I'm" before a participle of work or study and its
// place, or before an adjective of liking: "Starting at Deloitte's Rotterdam office on Monday", "Working
// nights at the Mater now", "Completely obsessed with Big Thief these days", "Really into bouldering".
var reSubjectlessState = regexp.MustCompile(`^(?:(?:Just|Now|Currently|Still)\s+(?i:starting|working|living|studying|interning|volunteering|training)|Starting|Working|Living|Studying|Interning|Volunteering|Training)\s+(?:at|in|as|for|with|nights|days|part-time|full-time)\s|^(?:(?:Completely|Totally|Absolutely|Really|Properly|Seriously|Kind\s+of|Kinda|So)\s+)?(?i:obsessed\s+with|hooked\s+on|into|addicted\s+to)\s+\S`)

// reNewValueFor is a heading that gives a thing's new date, time or place: "New date for the party: June 22nd",
// "New venue for the wedding is the Old Barn" (groups: the kind of value, the thing, the value).
var reNewValueFor = regexp.MustCompile(`^(?i:the\s+)?(?i:new|updated|revised)\s+(?i:(date|time|day)|(venue|location|place))\s+(?i:for|of)\s+((?i:the|my|our)\s+[\pL\pM' -]{1,40}?)\s*(?::|\s+(?i:is|will\s+be))\s+(\S.*)$`)

// statedInPassing says a statement chat makes in passing as the statement it is: places changed and where one
// is now ("We've moved offices, we're in the Landmark building now"), news a message brought ("Got an email
// saying …"), a provider putting its prices up, a diet said alone ("So pescatarian, I guess"). ok is false for
// other sentences.
func statedInPassing(sent string) (string, bool) {
	if m := reMovedPlacesNow.FindStringSubmatch(sent); m != nil {
		return "Our " + strings.ToLower(strings.TrimSuffix(m[1], "s")) + " is " + m[2], true
	}
	if m := reToldBy.FindStringSubmatch(sent); m != nil {
		// The news the message brought is the statement.
		return withSubject(titleCase(m[1])), true
	}
	if m := rePricesUp.FindStringSubmatch(sent); m != nil {
		// "the gym is putting prices up to £34": what the thing costs goes up.
		return m[1] + " is going " + strings.ToLower(m[2]) + m[3], true
	}
	if m := reDietFragment.FindStringSubmatch(sent); m != nil {
		// Chat's verbless "I'm pescatarian now".
		return "I am " + strings.ToLower(m[1]) + " now.", true
	}
	return "", false
}

// degreeAsStudies says a course named by its degree as what one studies: "I switched my MA from journalism to
// international relations" is a change of one's studies, "I'm doing a part-time MA in journalism at City" is
// studying journalism there, and "Transferred my PhD to Sciences Po" studying there now.
func degreeAsStudies(sent string) string {
	if m := reDegreeMovedTo.FindStringSubmatchIndex(sent); m != nil {
		// "Transferred my PhD to Sciences Po" is where one studies now.
		subj, be := "I", "am"
		if m[2] >= 0 {
			subj = sent[m[2]:m[3]]
			switch strings.ToLower(subj) {
			case "i":
			case "we":
				be = "are"
			default:
				be = "is"
			}
		}
		return subj + " " + be + " now studying at " + sent[m[4]:]
	}
	if !strings.Contains(sent, " from ") && !strings.Contains(sent, " in ") {
		return sent
	}
	sent = reDegreeFromTo.ReplaceAllString(sent, "${1}studies${2}")
	return reDoingDegreeIn.ReplaceAllString(sent, "${1}studying ")
}

// withSubject gives a sentence that leaves out its subject (reSubjectlessAt, reSubjectlessGot,
// reSubjectlessUpdate, reClippedOwn, reSubjectlessState) the speaker, says a new value given as a heading
// (reNewValueFor) as the thing's value now, and what chat states in passing (statedInPassing) or by a degree's
// name (degreeAsStudies) as the statement it is.
func withSubject(sent string) string {
	sent = nowThat(sent)
	if m := reNewValueFor.FindStringSubmatch(sent); m != nil {
		if m[1] != "" {
			return titleCase(m[3]) + " is now on " + m[4]
		}
		return titleCase(m[3]) + " is now at " + m[4]
	}
	for _, re := range []*regexp.Regexp{reSubjectlessGot, reSubjectlessUpdate, reSubjectlessLanded} {
		m := re.FindStringSubmatch(sent)
		if m == nil {
			continue
		}
		said := strings.ToLower(m[1][:1]) + m[1][1:]
		if re == reSubjectlessGot && strings.Contains(strings.ToLower(m[1]), "been ") {
			// "Just been made senior copywriter!": the perfect's "have" is left out with its subject.
			return "I have " + said
		}
		return "I " + said
	}
	if r, ok := statedInPassing(sent); ok {
		return r
	}
	sent = degreeAsStudies(sent)
	if reClippedOwn.MatchString(sent) {
		// "Favourite band at the moment is Wet Leg": chat's clipped "my".
		return "My " + lowerFirst(sent, true)
	}
	if reSubjectlessState.MatchString(sent) {
		// "Starting at Deloitte on Monday", "Completely obsessed with Big Thief these days": chat's clipped "I'm".
		return "I am " + lowerFirst(sent, true)
	}
	if m := reSubjectlessBeen.FindStringSubmatch(sent); m != nil {
		// "Been driving for Deliveroo most evenings": the perfect's "I have" left out.
		return "I have " + lowerFirst(m[1], true)
	}
	if s, ok := subjectlessPast(sent); ok {
		return s
	}
	m := reSubjectlessAt.FindStringSubmatch(sent)
	if m == nil || timeName(strings.TrimRight(strings.Fields(m[2])[1], ".,;:!?")) {
		// "Still in March, it snowed": a time, not where one is.
		return sent
	}
	if strings.EqualFold(m[1], "been") {
		return "I have been " + m[2]
	}
	return "I am " + strings.ToLower(m[1]) + " " + m[2]
}

// subjectlessPast gives "I" to a sentence of chat that opens with a verb of the lexicon in the past tense ("Went
// fully vegan over the summer", "Left Google for Anthropic"): the diary style leaves out the subject, which is
// the speaker (a name spelt like a past tense, "Ahmed", is no verb of the lexicon). The tagger, reading the
// sentence with "I" before it, must take the word for a verb in the past tense, and what follows it must not be
// a common noun ("Married life suits us" is no verb's clause).
func subjectlessPast(sent string) (string, bool) {
	first, rest, ok := strings.Cut(sent, " ")
	if !ok || !nlp.Capitalized(first) || rest == "" || strings.HasSuffix(sent, "?") {
		return "", false
	}
	low := strings.ToLower(first)
	base, ok := verbForms[low]
	if !ok || base == low || strings.HasSuffix(low, "s") || strings.HasSuffix(low, "ing") || auxiliaries[low] || clauseVerbs[base] {
		return "", false
	}
	with := "I " + low + " " + rest
	toks := nlp.Analyze(with)
	if len(toks) < 3 || toks[1].Tag != "VBD" || nlp.IsVerb(toks[2].Tag) || toks[2].Tag == "NN" || toks[2].Tag == "NNS" {
		return "", false
	}
	return with, true
}

// reThereAfterName is a name after a preposition of place and, in a later clause of the same sentence, a
// person's clause that ends in "there": "I need a car to get to Westfield High, I teach chemistry there",
// "We moved to Leeds and I work there now" (groups: the name, what comes between, where "there" stands).
var reThereAfterName = regexp.MustCompile(`\b(?i:to|at|in|near|from)\s+(?:the\s+)?(\p{Lu}[\pL\pM&'.-]*(?:\s+\p{Lu}[\pL\pM&'.-]*){0,3})([^.!?;:]*?(?:,\s+|\s+and\s+)(?:(?i:so|then|now)\s+)?(?:I|we|he|she|they|(?i:my|our|his|her|their)\s+\p{Ll}+)\s+[^,.!?;:]*?)\s+(there)\b`)

// reMotionBefore is a verb of motion, with its particle, right before "there": "moved back there", "we went
// there".
var reMotionBefore = regexp.MustCompile(`(?i)\b(?:move|moves|moved|moving|relocate|relocated|relocating|go|goes|went|gone|going|come|comes|came|coming|return|returned|returning|head|headed|heading|emigrated|travelled|traveled|flew|drove)(?:\s+(?:back|over|out|down|up|away))?$`)

// reLivesBefore is a verb of dwelling, whose place is "in" a town: "my parents still live there".
var reLivesBefore = regexp.MustCompile(`(?i)\b(?:live|lives|lived|living|stay|stays|stayed|staying|settled|based)\b`)

// thereAntecedent names the place a clause's "there" points back to, in the sentence that named it: "I teach
// chemistry there" after "get to Westfield High" is "I teach chemistry at Westfield High" ("in" a place
// WordNet knows as a location: "I work in Leeds"). Deixis across sentences is left alone, and so is a name
// that is a date or a person.
func (e *Extractor) thereAntecedent(sent string, ref time.Time) string {
	if !strings.Contains(sent, " there") {
		return sent
	}
	m := reThereAfterName.FindStringSubmatchIndex(sent)
	if m == nil {
		return sent
	}
	name := sent[m[2]:m[3]]
	if timeName(strings.Fields(name)[0]) || len(findDates(name, ref)) > 0 || strings.Contains(sent[m[4]:m[5]], "there") {
		return sent
	}
	if e.nouns != nil && e.nouns.Known(name) && e.nouns.Is(name, 2, personKind) {
		return sent
	}
	prep := "at"
	switch {
	case reMotionBefore.MatchString(sent[m[4]:m[5]]):
		// "she moved back there": a motion's "there" is its goal.
		prep = "to"
	case reLivesBefore.MatchString(sent[m[4]:m[5]]) || e.nouns != nil && e.nouns.Known(name) && e.nouns.Is(name, 2, locationKind):
		prep = "in"
	}
	return sent[:m[6]] + prep + " " + name + sent[m[7]:]
}

func (e *Extractor) sentenceClaims(tc *turnCtx, raw string, seq *int64, numbered bool) []extract.Claim {
	tc.typedLower = strings.ToLower(raw) == raw
	sent := plainly(stripDiscourse(expand(trueCase(raw, e.nouns))), tc.ref)
	sent, tc.topic = frontedRelation(sent)
	defer func() { tc.topic = "" }()
	if !numbered {
		rewrite := func(s string) string {
			return e.thereAntecedent(insteadLast(quantityFor(ownedAttribute(calledAfter(paidAs(eventPlace(choiceMade(goingTo(e.calledOff(e.gaveMeTheirJob(withSubject(s))))))))))), tc.ref)
		}
		if r := rewrite(sent); r != sent {
			sent = r
		} else if loc := rePreface.FindStringIndex(sent); loc != nil && !hasVerbWord(sent[:loc[1]-2]) {
			// "Bit of a change: the honeymoon's …": the statement after a heading opens its own sentence.
			sent = sent[:loc[1]-1] + rewrite(sent[loc[1]-1:])
		}
	}
	if s, ok := noteSpec(sent); ok {
		// "Apple CEO: Tim Cook", "Phone: +48 601 234 567": a note of an attribute and its value.
		c := e.claim(*tc, s, sent, findDates(sent, tc.ref), seq)
		c.Text = sentence(replaceDates(strings.TrimRight(sent, ". "), findDates(sent, tc.ref)))
		if s.subject == "" {
			c.Text = sentence(possessive(tc.speaker) + " " + s.predicate + " is " + s.object)
		}
		return []extract.Claim{c}
	}
	if loc := rePreface.FindStringIndex(sent); loc != nil && !numbered && !hasVerbWord(sent[:loc[1]-2]) {
		sent = sent[loc[1]-1:]
	}
	if sent == "" {
		return nil
	}
	// Whatever the sentence asserts, the people it names are what later pronouns refer to.
	defer collectMentionsOf(&tc.named, sent, tc.speaker)
	tc.sentence = sent
	if conditional(sent) {
		return nil
	}
	var claims []extract.Claim
	if !numbered {
		claims = e.presupposedValues(tc, sent, seq)
		// Roles named in apposition span the commas that split clauses ("Dr. Alvarez, our vet, …").
		for _, s := range matchRoles(sent, tc.speaker) {
			claims = append(claims, e.claim(*tc, s, sent, nil, seq))
		}
	}
	var parts []string
	if isQuestion(sent) {
		parts = statedParts(sent)
	} else {
		parts = splitClauses(sent)
	}
	var assertive, uncovered []string
	for i, clause := range parts {
		clause = stripDiscourse(clause)
		clause = strings.TrimRight(clause, ".!? ")
		if !numbered {
			// Before the readers reorder it: "It's my new favourite show" names the thing said last, and so
			// does "replaced it with …".
			things := tc.things
			if i > 0 {
				// The clauses before this one in the sentence name things too ("My old Dell died, so I swapped
				// it for a ThinkPad").
				things = append(slices.Clip(things), namedThings(strings.Join(parts[:i], ", "), tc.named)...)
			}
			clause = replacedIt(resolveThing(clause, things), things)
		}
		if i > 0 {
			clause = elidedCopula(clause, parts[0])
		}
		said := clause
		clause = eventPlace(bookedEventAt(e.namedAfterKind(gotBooked(e.nowAtWorkplace(workTookUs(movedByEmployer(futureWorkplace(e.appointment(possessiveFirst(assertedPart(uncleft(e.ownBareNoun(ownParent(clause))))))))))))))
		if clause == "" {
			continue
		}
		if !numbered {
			if r := resolvePronoun(clause, tc.named, tc.prevNamed); r != clause {
				// "…, so she's my manager now": the name the pronoun stands for is read as if said ("Sofia
				// Marsh is my manager now" names whom "my manager" refers to).
				clause = possessiveFirst(r)
			}
		}
		assertive = append(assertive, clause)
		cs := e.clauseClaims(tc, clause, seq, numbered, i == 0)
		// "… the response time, which has improved to 250ms": the relative clause is a fact of its own.
		if rel := relativeUpdate(clause); rel != "" && !numbered {
			cs = append(cs, e.clauseClaims(tc, rel, seq, numbered, false)...)
		}
		if !numbered && !isQuestion(sent) {
			av := e.attributeValues(tc, clause, seq, append(claims, cs...))
			cs = append(withoutLandlordsAsk(cs, av), av...)
		}
		if !numbered {
			listTexts(cs)
			ownTexts(cs)
			if needsFallback(clause, cs) {
				uncovered = append(uncovered, clause)
			}
		}
		claims = append(claims, cs...)
		// The clause as said too: "my flatmate's name is Carly" names her for the "she" of the next clause,
		// though the readers get it as "my flatmate is Carly".
		collectMentionsOf(&tc.named, said, tc.speaker)
		collectMentionsOf(&tc.named, clause, tc.speaker)
	}
	if !numbered {
		claims = namedDiet(ownValues(claims))
	}
	if len(assertive) == 0 {
		return claims
	}
	if !numbered {
		// A fallback states only the clauses no structured claim states. A clause that fills a single-valued
		// slot is said by that claim alone: a sentence claim beside it would keep stating the value after a
		// later statement supersedes it ("Emma just started working at Google" after she joined Anthropic).
		if len(uncovered) == 0 {
			return claims
		}
		assertive = uncovered
	}
	if fb, ok := e.fallback(*tc, assertive, claims, seq); ok {
		claims = append(claims, fb)
	}
	return claims
}

// clauseClaims returns the structured claims of one assertive clause: those of its embedded clause when it
// reports one ("I noticed that X", "I'm worried that X"), else its own.
func (e *Extractor) clauseClaims(tc *turnCtx, clause string, seq *int64, numbered, first bool) []extract.Claim {
	var claims []extract.Claim
	if inner := assertedPart(complementOf(clause)); inner != "" && !numbered {
		inner = resolvePronoun(inner, tc.named, tc.prevNamed)
		dates := findDates(inner, tc.ref)
		for _, s := range e.specs(*tc, inner, dates, numbered, false) {
			claims = append(claims, e.coordinated(*tc, e.claim(*tc, s, inner, dates, seq), inner, dates, seq)...)
		}
		if len(claims) > 0 {
			return claims
		}
	}
	if past, verb, ok := usedToPresent(clause); ok && !numbered {
		return e.pastClaims(tc, clause, past, verb, seq, first)
	}
	if m := reLivesWithIn.FindStringSubmatch(clause); m != nil && !numbered {
		// "My mom lives with us in Phoenix", "Tom lives with his parents in Leeds": where the subject lives, and
		// with whom; living with the speaker ("us", "me") is the speaker's home too.
		claims := e.clauseClaims(tc, m[1]+" in "+m[3]+m[4], seq, numbered, first)
		switch strings.ToLower(m[2]) {
		case "us", "me":
			claims = append(claims, e.clauseClaims(tc, "I live in "+m[3]+m[4], seq, numbered, false)...)
		default:
			claims = append(claims, e.clauseClaims(tc, m[1]+" with "+m[2], seq, numbered, first)...)
		}
		return claims
	}
	if main, old, ok := insteadOf(clause); ok && !numbered {
		// "We're going to Rome instead of Venice": the main clause's claims, and for each value it names the
		// same statement of the value replaced, in the past habitual ("used to"), which retires it. A value of
		// a single-valued slot needs none: it supersedes the old value in its slot ("the honeymoon's going to
		// be in Bali instead of Tokyo"), and "used to be honeymoon Tokyo" would be a slot of its own.
		claims := e.clauseClaims(tc, main, seq, numbered, first)
		for _, c := range claims {
			if c.Fallback || c.Negated || c.Object == "" || c.Functional {
				continue
			}
			if i := strings.Index(main, c.Object); i >= 0 {
				claims = append(claims, e.pastClaims(tc, clause, main[:i]+old+main[i+len(c.Object):], "", seq, first)...)
			}
		}
		return claims
	}
	if from, to, ok := fromToClauses(clause); ok && !numbered {
		// "Ellie switched from violin to cello this fall": what was left and what was taken up, each a statement,
		// both at the time the sentence gives.
		for _, d := range findDates(to, tc.ref) {
			from += " " + to[d.start:d.end]
		}
		return append(e.clauseClaims(tc, from, seq, numbered, first), e.clauseClaims(tc, to, seq, numbered, first)...)
	}
	cue := false
	if !numbered {
		if bare := withoutPresentTime(clause); bare != clause {
			// "These days I mostly drink green tea": the adverbial says the value is the current one (a change
			// cue) and is no part of the relation or its object.
			if reAtName.MatchString(bare) && (reLastingTime.MatchString(clause) || reNarrativeNow.MatchString(clause)) {
				// "She's at KPMG these days": being at a named place for some time (not "right now") is the
				// state placeOfWork reads from "now".
				bare += " now"
			}
			clause, cue = bare, true
		}
	}
	text, said := "", ""
	if !numbered {
		if present, ok := startedState(clause); ok {
			// "I just started working at Google": the state begun holds now. Whether it replaces another is the
			// relation's (where one works, yes; what one learns, no). The claims keep the sentence as said.
			text = thirdPersonText(replaceDates(clause, findDates(clause, tc.ref)), tc.speaker)
			clause = present
		}
	} else if past, _, ok := usedToPresent(clause); ok {
		// A numbered list of facts states each line as a fact of its own (its number orders them), in the
		// past as in the present ("X worked in Y" is where X works, as said in the list): "X used to work in
		// Y" is that fact too, read as the present and stated as said.
		said, clause = clause, past
	}
	dates := findDates(clause, tc.ref)
	for _, s := range e.specs(*tc, clause, dates, numbered, first) {
		s.change = s.change || cue
		if text != "" && s.text == "" {
			s.text = text
		}
		at := clause
		if said != "" {
			at = said
		}
		c := e.claim(*tc, s, at, dates, seq)
		if numbered {
			// A list of facts keeps its objects whole: titles hold "and" and commas.
			claims = append(claims, c)
			continue
		}
		claims = append(claims, e.coordinated(*tc, c, clause, dates, seq)...)
	}
	return claims
}

// rePresentLead is a present-time adverbial opening a clause ("These days, I …", "Nowadays I …", "Lately
// I've …", "At the moment …"; "now that" opens a reason, not a time).
var rePresentLead = regexp.MustCompile(`^(?i:these\s+days|nowadays|lately|currently|at\s+the\s+moment|at\s+present|right\s+now|now)(?:\s*,\s*|\s+)(?i:(?:that|then)\b)?`)

// withoutPresentTime drops a present-time adverbial opening or closing a clause (presentAdverbials, and the
// openers of rePresentLead); the clause is returned unchanged when it has none.
func withoutPresentTime(clause string) string {
	if m := rePresentLead.FindStringSubmatch(clause); m != nil && !strings.HasSuffix(strings.ToLower(m[0]), "that") && !strings.HasSuffix(strings.ToLower(m[0]), "then") && len(clause) > len(m[0]) {
		clause = clause[len(m[0]):]
	}
	return withoutPresentAdverbial(clause)
}

// reLastingTime is an adverbial of the present that lasts: "these days", "nowadays", "currently".
var reLastingTime = regexp.MustCompile(`(?i)\b(?:these\s+days|nowadays|currently|at\s+present)\b`)

// reAtName is a clause ending in a copula and "at" a capitalized name: "she is at KPMG".
var reAtName = regexp.MustCompile(`\b(?:is|am|are|'s|'m|'re)\s+(?:still\s+)?at\s+(?:(?:a|an)\s+[\p{Ll}-]+\s+(?:called|named)\s+)?\p{Lu}[^,;]*$`)

// reNarrativeNow is "now" opening a clause that follows what changed ("Accenture let me go. Now I'm at …"):
// the state from then on, unlike "right now" (a moment).
var reNarrativeNow = regexp.MustCompile(`^(?i:now)\b`)

// reUsedTo is the past habitual "used to" and the verb it makes past ("Oskar used to live in Oslo", "I never
// used to drink coffee"), with the word before it: after a form of "be" or "get" it is the adjective "used
// to" ("I'm used to the noise", "it is used to make paper"), not the habitual.
var reUsedTo = regexp.MustCompile(`(?i)(?:^|(\pL+)\s+)used\s+to\s+(\pL+)\b`)

// reStartedGerund is the speaker starting a state or an activity, said with an aspectual verb and the gerund
// ("I just started working at Google", "we've begun renting in Leeds", "This year I started living alone"):
// the pronoun (group 1) and the gerund (group 2).
var reStartedGerund = regexp.MustCompile(`(?:^|\s)(I|[Ww]e)\s+(?:(?:have|'ve|had|'d)\s+)?(?:(?:just|recently|finally|officially|now|already)\s+)*(?:started|start|began|begun|commenced)\s+(\pL+ing)\b`)

// startedState rewrites a clause in which the speaker starts a state or an activity as the present statement of
// it ("I just started working at Google" → "I work at Google"), which the first-person readings read; the
// open readings already read an aspectual verb of a third person ("Emma started working at Google"). ok is
// false when the clause has none.
func startedState(clause string) (string, bool) {
	m := reStartedGerund.FindStringSubmatchIndex(clause)
	if m == nil {
		return "", false
	}
	gerund := clause[m[4]:m[5]]
	base := nlp.VerbLemma(gerund)
	if base == strings.ToLower(gerund) {
		return "", false // "I started something": no verb's gerund
	}
	return clause[:m[2]] + clause[m[2]:m[3]] + " " + base + clause[m[5]:], true
}

// reLivesWithIn is living with someone in a named place (groups: the clause up to the verb, with whom, the
// place, the rest).
var reLivesWithIn = regexp.MustCompile(`^(.*?\b(?i:live|lives|lived|living))\s+with\s+([^,]+?)\s+(?i:in)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)*)(.*)$`)

// reFromTo is a verb of changing from one thing to another with both ends said: "switched from violin to cello",
// "upgraded from a Fitbit to a Garmin", "moved from Boston to Denver", "changed from part-time to full-time"
// (groups: the clause up to the verb, the verb, the old value, the new one). Quantities are left alone ("went
// from 3 to 5" is a rise, said whole).
var reFromTo = regexp.MustCompile(`^(.*?\b(?i:switch|switches|switched|switching|change|changes|changed|changing|convert|converts|converted|move|moves|moved|moving|transfer|transfers|transferred|upgrade|upgrades|upgraded|upgrading|downgrade|downgrades|downgraded|downgrading))\s+from\s+([^\d$€£,][^,]*?)\s+to\s+([^\d$€£,].*)$`)

// fromToClauses splits a change said with both its ends into the clause of leaving the old value and the clause
// of taking up the new one ("Ellie switched from violin" and "Ellie switched to cello"): the reader retires the
// first (an ending) and files the second where the first was (an acquisition of the same statement).
func fromToClauses(clause string) (from, to string, ok bool) {
	if m := reSwapFor.FindStringSubmatch(clause); m != nil && !reDurationFor.MatchString(m[4]) && !reReplaced.MatchString(clause) {
		// (A thing of one's own swapped for another, "I swapped my Kindle for a Kobo", is matchReplaced's.)
		// "Cerys has swapped history for law" says what "Cerys has switched from history to law" does.
		verb := "switch" + map[string]string{"": "", "s": "es", "ped": "ed", "ping": "ing", "d": "ed", "ed": "ed", "ing": "ing", "es": "es"}[m[2]]
		return m[1] + verb + " from " + m[3], m[1] + verb + " to " + m[4], true
	}
	m := reFromTo.FindStringSubmatch(clause)
	if m == nil {
		return "", "", false
	}
	return m[1] + " from " + m[2], m[1] + " to " + m[3], true
}

// reSwapFor is giving up one thing for another, said with "swap", "trade", "exchange" or "ditch" and "for"
// (Oxford, "swap": "give (something) and receive something else in exchange"; "ditch": "get rid of, give up"):
// "swapped history for law", "ditched Virgin for Community Fibre", "traded my
// car for a bike" (groups: the clause before the verb, the verb's ending, the old value, the new one). An
// amount on either side is a sale, not a change of one's things ("traded it for £200").
var reSwapFor = regexp.MustCompile(`^(.*?\b)(?i:swap|trade|exchange|ditch)(s|ped|ping|d|ed|ing|es)?\s+([^\d$€£,][^,]*?)\s+for\s+([^\d$€£,].*)$`)

// reDurationFor is a span of time after "for" ("swapped shifts for a week"), which says how long, not what
// for.
var reDurationFor = regexp.MustCompile(`^(?i:a|an|one|two|three|four|five|six|a\s+few|several|some|the)\s+(?:[\pL-]+\s+)?(?i:minutes?|hours?|days?|nights?|weeks?|fortnights?|months?|years?|while|bit|time)\b`)

// reInsteadOf is a replacement said with "instead of" or "rather than" and a noun phrase, after the clause or
// before it: "we're going to Rome instead of Venice", "Instead of Venice, we're heading to Rome". A verb
// after it ("instead of driving") replaces an activity, not a value, and is left alone.
var (
	reInsteadOf      = regexp.MustCompile(`^(.*\S)\s*,?\s+(?i:instead\s+of|rather\s+than)\s+([^,;]+?)$`)
	reInsteadOfFirst = regexp.MustCompile(`^((?i:instead\s+of|rather\s+than)\s+[^,;]+?)\s*,\s*([^,;.!?]+)`)
)

// reRatherFragment is a verbless clause that states a choice between two values: "so vegetarian rather than
// vegan these days", "oat milk instead of cow's now" (groups: the value chosen, the rest).
var reRatherFragment = regexp.MustCompile(`(?i)^(?:(?:so|and|now|but)\s+)*(\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?\s+(?:rather\s+than|instead\s+of)\s+\p{L}.*)$`)

// reNowAtFragment is a verbless clause that says where one is now: "but now at Leeds General", "now with a
// bigger team" (group: from "now").
var reNowAtFragment = regexp.MustCompile(`(?i)^(?:(?:so|and|but)\s+)*(now\s+(?:at|with)\s+\S.*)$`)

// reSpeakerFirst is a clause whose subject is the speaker.
var reSpeakerFirst = regexp.MustCompile(`^(?:I|We|we)(?:'m|'re|'ve|'d|\s)`)

// elidedCopula gives back the subject and copula English leaves out of a clause after the first one of the
// sentence that names a choice or a place without a verb: "I've gone back to eating dairy, so vegetarian rather
// than vegan these days" says "I'm vegetarian rather than vegan these days", "I'm still nursing, but now at
// Leeds General" says "I'm now at Leeds General" (the first clause's subject is the speaker).
// Other clauses are returned as they are.
func elidedCopula(clause, first string) string {
	var m []string
	if strings.Contains(clause, " than ") || strings.Contains(clause, " instead ") {
		m = reRatherFragment.FindStringSubmatch(clause)
	} else {
		// "I'm still nursing, but now at Leeds General": where one is now, said as "I'm now at …".
		m = reNowAtFragment.FindStringSubmatch(clause)
	}
	if m == nil || hasVerbWord(m[1]) || !reSpeakerFirst.MatchString(first) {
		return clause
	}
	subject := "I am "
	if first[0] == 'W' || first[0] == 'w' {
		subject = "We are "
	}
	return subject + strings.ToLower(m[1][:1]) + m[1][1:]
}

// insteadLast moves a replacement said first in its sentence after the clause it qualifies ("Instead of
// Venice, we're heading to Rome." → "we're heading to Rome instead of Venice."), where insteadOf reads it.
func insteadLast(sent string) string {
	m := reInsteadOfFirst.FindStringSubmatchIndex(sent)
	if m == nil {
		return sent
	}
	return titleCase(sent[m[4]:m[5]]) + " " + strings.ToLower(sent[m[2]:m[2]+1]) + sent[m[2]+1:m[3]] + sent[m[5]:]
}

// insteadOf splits a replacement said with "instead of" (reInsteadOf) into the clause that holds now and the
// value it replaced; ok is false when the clause has none or the replaced thing is an activity.
func insteadOf(clause string) (main, old string, ok bool) {
	m := reInsteadOf.FindStringSubmatch(clause)
	if m == nil {
		return "", "", false
	}
	main, old = m[1], strings.TrimSpace(m[2])
	ws := strings.Fields(old)
	if len(ws) == 0 || strings.HasSuffix(strings.ToLower(ws[0]), "ing") && !nlp.Capitalized(old) {
		return "", "", false
	}
	return main, old, true
}

// usedToPresent rewrites a clause in the past habitual as the present statement it says no longer holds
// ("Oskar used to live in Oslo" → "Oskar lives in Oslo"), for the clause readers; ok is false when the clause
// has no habitual "used to".
func usedToPresent(clause string) (present, verb string, ok bool) {
	m := reUsedTo.FindStringSubmatchIndex(clause)
	if m == nil {
		return "", "", false
	}
	if m[2] >= 0 {
		switch strings.ToLower(clause[m[2]:m[3]]) {
		case "be", "am", "is", "are", "was", "were", "been", "being", "get", "gets", "got", "gotten", "getting", "become", "became":
			return "", "", false
		}
	}
	verb = strings.ToLower(clause[m[4]:m[5]])
	if nlp.VerbLemma(verb) != verb {
		return "", "", false
	}
	first := firstPersonClause(clause)
	form := verb
	switch {
	case verb == "be" && !first:
		form = "is"
	case verb == "be" && strings.EqualFold(strings.Fields(clause)[0], "we"):
		form = "are"
	case verb == "be":
		form = "am"
	case verb == "have" && !first:
		form = "has"
	case !first:
		form = nlp.ThirdPerson(verb)
	}
	start := m[0] + strings.Index(strings.ToLower(clause[m[0]:m[5]]), "used")
	return clause[:start] + form + clause[m[5]:], verb, true
}

// superlative reports a relation said with a superlative ("most famous work", "best known for", "oldest
// friend", "biggest client"): a superlative picks out one thing of its kind, so the relation has one value at a
// time, as a definite description does.
func superlative(predicate string) bool {
	// Tagging every relation outside the policy's lists cost 8% of the extractor's throughput on LoCoMo: only a
	// phrase with a word spelled like a superlative is tagged.
	maybe := false
	for _, w := range strings.Fields(strings.ToLower(predicate)) {
		maybe = maybe || strings.HasSuffix(w, "est") || w == "most" || w == "least"
	}
	if !maybe {
		return false
	}
	toks := nlp.Analyze(predicate)
	for i, t := range toks {
		switch {
		case t.Tag == "JJS" || t.Tag == "RBS":
			return true
		case (t.Lower == "most" || t.Lower == "least") && i+1 < len(toks) && nlp.IsAdjective(toks[i+1].Tag):
			return true
		}
	}
	return false
}

// pastClaims are the claims of a clause in the past habitual, read from its present form: each says, with
// "used to" before its relation, that the value no longer holds, and never fills a single-valued slot.
func (e *Extractor) pastClaims(tc *turnCtx, clause, present, verb string, seq *int64, first bool) []extract.Claim {
	dates := findDates(present, tc.ref)
	text := thirdPersonText(replaceDates(clause, findDates(clause, tc.ref)), tc.speaker)
	var claims []extract.Claim
	for _, s := range e.specs(*tc, present, dates, false, first) {
		rel := strings.Fields(s.predicate)
		var word, lemma string
		if len(rel) > 0 {
			word = strings.ToLower(rel[0])
			lemma = nlp.VerbLemma(word)
		}
		switch {
		case len(rel) > 0 && lemma == "be":
			rel[0] = "be"
		case len(rel) > 0 && (lemma == verb || verb == "" && lemma != word):
			// (No verb given: the statement's own, as a lemma, when it is an inflected verb.)
			rel[0] = lemma
		default:
			// A relational noun ("the CEO of Norlink" → ceo): what the subject used to be.
			rel = append([]string{"be"}, rel...)
		}
		key := s.key
		if key == "" {
			key = canon.PredicateKey(s.predicate)
		}
		s.predicate = "used to " + strings.Join(rel, " ")
		s.key = "used_to_" + canon.RelationKey(key)
		s.past, s.change, s.definite, s.text = true, false, false, text
		claims = append(claims, e.claim(*tc, s, clause, nil, seq))
	}
	return claims
}

// stateNotPlace reports an object of "is in" that WordNet says is no place: a common noun (a name is taken for a
// place) whose first two senses are neither a location, a structure nor an organization ("a meeting",
// "spring", "trouble", against "the kitchen", "hospital", "town"). Without WordNet, or for a noun it does not
// list, nothing is said.
func (e *Extractor) stateNotPlace(object string) bool {
	ws := strings.Fields(strings.TrimSpace(object))
	if e.nouns == nil || len(ws) == 0 || nlp.Capitalized(ws[len(ws)-1]) {
		return false
	}
	head := strings.ToLower(strings.Trim(ws[len(ws)-1], ".,;:!?"))
	if !e.nouns.Known(head) {
		return false
	}
	for _, k := range []wordnet.Kind{locationKind, structureKind, organizationKind} {
		if e.nouns.Is(head, 2, k) {
			return false
		}
	}
	return true
}

// homeNouns are the nouns of English for the place one lives in, as an attribute ("my flat is in Leith").
var homeNouns = map[string]bool{"flat": true, "apartment": true, "house": true, "home": true, "place": true,
	"new_place": true, "new_flat": true, "new_house": true, "new_home": true}

// claim completes a spec: subject defaults to the speaker, text to the clause in the third person with
// absolute dates; keys, policy and valid time are applied.
func (e *Extractor) claim(tc turnCtx, s spec, clause string, dates []when, seq *int64) extract.Claim {
	subject := withoutDuration(s.subject)
	if subject == "" {
		subject = tc.speaker
	}
	text := s.text
	switch {
	case text != "":
	case tc.numbered:
		// Lists of facts are already in the third person; "I" there is a regnal number ("Ardashir I").
		text = sentence(replaceDates(clause, dates))
	default:
		text = thirdPersonText(s.prefix+lowerFirst(replaceDates(clause, dates), s.prefix != ""), tc.speaker)
	}
	pk := s.key
	if pk == "" {
		pk = canon.PredicateKey(s.predicate)
	}
	said := pk
	object := s.object
	if (said == "turns" || said == "turned") && (reBareAge.MatchString(object) || nlp.IsCardinalWord(object)) {
		// "My daughter turned 7 in May": the number one turns is one's age.
		pk, said, s.change = "age", "age", true
	}
	if m := reModifiedHead.FindStringSubmatch(object); m != nil && switchKeys[said] && !genericModifiers[strings.ToLower(m[1])] {
		// "I switched to a keto diet", "Ana went on a vegan diet": the noun names a single-valued attribute
		// and its modifier is the new value (diet: keto).
		if head := canon.RelationKey(nlp.Lemma(strings.ToLower(m[2]), "NN")); e.policy.Functional(head) {
			pk, said, object = head, head, m[1]
			s.change = true
		}
	}
	if m := reHomeIn.FindStringSubmatch(object); m != nil && homeVerbs[pk] {
		// "Diego is renting a place in Flagstaff", "they bought a house in Denver": the place of one's home is
		// where one lives (the text keeps the home).
		pk, said, object = "lives_in", "lives_in", m[1]
	}
	if homeNouns[pk] && s.definite && nlp.Capitalized(strings.TrimSpace(object)) {
		// "my sister's flat is in Leith", "our new place is in Portobello": where one's home is, named, is where
		// one lives.
		pk, said = "lives_in", "lives_in"
	}
	if pk == "package" && reAmountStart.MatchString(strings.TrimSpace(object)) {
		// "package is 14,20,000": a package that is an amount is one's pay (the pay package, English's
		// "package": the pay and benefits of a job).
		pk, said = "salary", "salary"
	}
	if reSchoolGrade.MatchString(strings.TrimSpace(object)) && gradeVerbs[pk] {
		// "Isha is in fourth grade", "Isha just started fifth grade": the school year a child is in, one at
		// a time.
		pk, said, s.change = "grade", "grade", true
	}
	pk = canon.RelationKey(pk)
	if m := reHomeAtPlace.FindStringSubmatch(object); m != nil && pk == "lives_in" {
		// "We live in a two-bed terrace in Derby": where one lives is the town the home is in.
		object = m[1]
	}
	if contactKeys[pk] && object != "" && reEmail.FindString(object) == object {
		// "Please use my new address: lena@proton.me": an address that is an e-mail address is the e-mail.
		pk, said = "email", "email"
	}
	if associationKeys[pk] || associationKeys[said] {
		// "is involved in baseball", "follows Buddhism": the kind of the object names the attribute.
		if attr, value := e.attributeOf(object); attr != "" {
			pk, said, object = attr, attr, value
		} else if tc.topic != "" {
			// "When it comes to sport, X is all about pesäpallo": the fronted topic names the attribute an
			// object WordNet does not know is of.
			pk, said = tc.topic, tc.topic
		} else if pk == "into" {
			// "Ana is into board games": keen on, as "I'm into …" says of the speaker (reFan).
			pk, said = "likes", "likes"
		}
	} else if tc.topic != "" && (pk == "is_a" || pk == "occupation") {
		// "As for religion, Ana is a devout Buddhist": what the subject is, said of the topic, is its value.
		pk, said = tc.topic, tc.topic
	}
	if e.locatedBy(pk, object) {
		// "Israel belongs to Asia", "X is part of Africa": where the subject is.
		pk, said = "located_in", "located_in"
	}
	if pk == "located_in" && strings.HasSuffix(s.predicate, " at") && nameLike(subject) && nameLike(object) {
		// "Cerys is at Cardiff Uni", "Leo is at Oakfield Primary": someone at a place of learning named is a
		// student there (schools.go), not a visitor.
		switch {
		case higherEdName(object):
			pk, said = "educated_at", "educated_at"
		case schoolName(object):
			pk, said = "school", "school"
		}
	}
	if owner, key, ok := attributiveOwner(subject); ok && pk == "located_in" {
		// "Ilyushin HQ is in Moscow", "Google headquarters are in Mountain View": a name before a relational
		// noun of place is its owner, as "Ilyushin's HQ" is.
		subject, pk, said = owner, key, key
	}
	if m := reMusicOf.FindStringSubmatch(subject); m != nil && pk == "genre" {
		// "The music of John McVie falls under jazz": the genre of someone's music is theirs.
		subject = m[1]
	}
	functional, known := e.policy.Lookup(pk)
	if f, k := e.policy.Lookup(said); k && f {
		// The relation as said may be single-valued where its alias group is not: "X's nationality is Y"
		// names one value, "X holds citizenship of Y" one of several.
		functional, known = true, true
	}
	if !known && (s.definite || s.change || changeCue(clause) || superlative(s.predicate)) {
		functional = true
	}
	if s.past {
		functional = false
	}
	if pk == "located_in" && functional && !tc.numbered && e.stateNotPlace(object) {
		// "Tom is in a meeting", "Paris is lovely in spring": being in a state, an event or a time is no place,
		// and must not replace where the subject is.
		functional = false
	}
	if !s.verbatim {
		object = withoutDuration(object)
	}
	if pk == "citizen_of" {
		// "a Hungarian citizen", "holds Brazilian citizenship": a citizenship is of the country the adjective
		// names (demonyms.go).
		if c := countryOf(object); c != "" {
			object = c
		}
	}
	if m := reKindNamed.FindStringSubmatch(object); m != nil && (pk == "works_at" || pk == "educated_at" || pk == "partner" || pk == "spouse") {
		// "Sam's job is at a startup called Nimbus": where one works or studies is the organization's name;
		// "dating a guy named Andrés", the person's.
		object = m[1]
	}
	if !tc.numbered && !s.verbatim {
		// "Rob invited me to a yoga class": the object names the speaker too.
		object = toThirdPerson(object, tc.speaker)
	}
	return extract.Claim{
		TurnIDs:      []string{tc.turn.TurnID},
		Subject:      subject,
		SubjectKey:   canon.SubjectKey(subject),
		Predicate:    s.predicate,
		PredicateKey: pk,
		Object:       object,
		Text:         text,
		Functional:   functional,
		ValidFrom:    validFrom(dates, tc.ref),
		Sequence:     seq,
		Confidence:   s.confidence,
	}
}

// homeVerbs are the relation keys of renting, leasing, owning, buying or sharing a thing, and reHomeIn such a thing
// that is a home in a named place ("a place in Flagstaff", "a two-bedroom flat in Leeds").
var (
	homeVerbs = map[string]bool{"rents": true, "rented": true, "leases": true, "leased": true, "owns": true,
		"owned": true, "buys": true, "bought": true, "shares": true, "shared": true, "sublets": true}
	reHomeIn = regexp.MustCompile(`^(?i:a|an|the|our|my|his|her|their|this)\s+(?:[\pL-]+\s+){0,3}?(?i:` + homeNounAlts + `)\s+(?i:in|near)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)*)$`)
)

// reSchoolGrade is a school year as English names it: "fourth grade", "the 5th grade", "year 9", "grade 10".
var reSchoolGrade = regexp.MustCompile(`^(?i:(?:the\s+)?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|\d{1,2}(?:st|nd|rd|th))\s+grade|(?:year|grade)\s+\d{1,2})$`)

// gradeVerbs are the relation keys of being in, starting or moving up to a school year.
var gradeVerbs = map[string]bool{"located_in": true, "is_in": true, "in": true, "starts": true, "started": true,
	"enters": true, "entered": true, "moves_up_to": true, "moved_up_to": true, "goes_into": true, "went_into": true}

// reDuration is a duration adverbial closing a phrase ("for years", "for a long time", "for three decades",
// "since 2019"): English puts it at the end of the clause, where it says how long the relation held, and a
// name or a value read up to the end of the clause must not take it in ("married to Ana Ruiz for years").
var reDuration = regexp.MustCompile(`(?i),?\s+(?:for\s+` + approx + `(?:(?:many|several|a\s+few|a\s+couple\s+of|some|\d+|two|three|four|five|six|seven|eight|nine|ten|twenty)\s+)?(?:years|decades|months|weeks|ages|centuries|generations)|for\s+` + approx + `a\s+(?:while|long\s+time|decade|century|year|month|week)|for\s+the\s+(?:past|last)\s+(?:(?:few|couple\s+of|\d+|two|three|four|five|six|seven|eight|nine|ten)\s+)?(?:years?|decades?|months?|weeks?)|since\s+(?:` + monthRe + `\s+)?\d{4}|since\s+` + monthRe + `|since\s+(?:last\s+(?:year|month|spring|summer|autumn|fall|winter)|the\s+(?:spring|summer|autumn|fall|winter)(?:\s+of\s+\d{4})?))$`)

// approx is an optional approximation before a duration's count: "for about a year", "for almost two years".
const approx = `(?:(?:about|around|almost|nearly|over|roughly|just\s+over|just\s+under|more\s+than|less\s+than|close\s+to)\s+)?`

// attributiveOwner splits a subject that is a name followed by a relational noun of where something is ("Ilyushin
// HQ", "Google head office"): the name, and the relation the noun names with "in" (headquartered_in), which the
// relation table must know.
func attributiveOwner(subject string) (owner, key string, ok bool) {
	ws := strings.Fields(subject)
	if len(ws) < 2 || notNames[strings.ToLower(ws[0])] || !nlp.Capitalized(ws[0]) {
		return "", "", false
	}
	for n := min(2, len(ws)-1); n >= 1; n-- {
		noun := strings.ToLower(strings.Join(ws[len(ws)-n:], "_"))
		if key := canon.RelationKey(noun + "_in"); canon.KnownRelation(noun+"_in") && key != "located_in" {
			return strings.Join(ws[:len(ws)-n], " "), key, true
		}
	}
	return "", "", false
}

// reMusicOf is a subject that names someone's music by its owner: "the music of X", "the sound of X".
var reMusicOf = regexp.MustCompile(`^(?i:the\s+)?(?i:music|sound|songs|style)\s+of\s+(.+)$`)

// withoutDuration drops a closing duration adverbial from a subject or an object phrase; a phrase that is
// nothing but one is kept.
func withoutDuration(phrase string) string {
	if loc := reDuration.FindStringIndex(phrase); loc != nil && loc[0] > 0 {
		return phrase[:loc[0]]
	}
	return phrase
}

// fallback returns the sentence-level claim for the assertive clauses of a sentence unless the structured
// claims already say all of it or it has no content.
func (e *Extractor) fallback(tc turnCtx, clauses []string, claims []extract.Claim, seq *int64) (extract.Claim, bool) {
	body := strings.Join(clauses, ", ")
	if !informative(body) {
		return extract.Claim{}, false
	}
	allDates := findDates(body, tc.ref)
	resolved := replaceDates(body, allDates)
	subject, predicate, text := tc.speaker, "said", ""
	switch {
	case tc.numbered:
		subject, predicate, text = tc.speaker, "mentioned", sentence(resolved)
		if ent := mainEntity(body); ent != "" {
			subject = ent
		}
	case mentionsSpeaker(body):
		text = thirdPersonText(resolved, tc.speaker)
	case properNoun(body) && mainEntity(body) != "":
		// A statement about someone or something else: file it under that entity.
		subject, predicate, text = mainEntity(body), "mentioned", sentence(resolved)
	default:
		text = sentence(tc.speaker + " said: " + resolved)
	}
	if covered(strings.TrimPrefix(text, tc.speaker+" said: "), claims) {
		return extract.Claim{}, false
	}
	c := e.claim(tc, spec{subject: subject, predicate: predicate, object: sentence(resolved), text: text, confidence: confFallback, verbatim: true}, body, allDates, seq)
	c.Functional = false
	c.Fallback = true
	return c, true
}

// covered reports whether the structured claims' texts contain every content word of body.
func covered(body string, claims []extract.Claim) bool {
	if len(claims) == 0 {
		return false
	}
	have := map[string]bool{}
	for _, c := range claims {
		for _, w := range words(strings.ToLower(c.Text + " " + c.Object)) {
			have[w] = true
		}
	}
	missing := 0
	for _, w := range words(strings.ToLower(body)) {
		if !filler[w] && !adverbs[w] && !isDateWord(w) && !have[w] {
			missing++
		}
	}
	return missing == 0
}

var reEntity = regexp.MustCompile(`^(?:The\s+)?(\p{Lu}[\p{L}\p{N}'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{N}'.-]*|of|the|de|von|van|du|da|and|on|in|to|by|for))*(?:\s+\p{Lu}[\p{L}\p{N}'.-]*)?)`)

// mainEntity is the proper name a sentence starts with ("Thomas Kyd was born ..." → "Thomas Kyd").
func mainEntity(s string) string {
	if name, _ := appositiveName(s); name != "" {
		return name
	}
	m := reEntity.FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	ent := strings.TrimRight(m[1], " ")
	for _, tail := range []string{" of", " the", " de", " von", " van", " du", " da", " and", " on", " in", " to", " by", " for"} {
		ent = strings.TrimSuffix(ent, tail)
	}
	first := strings.ToLower(strings.Fields(ent)[0])
	if notNames[first] {
		return ""
	}
	if b, ok := verbForms[first]; ok && b == first && !strings.Contains(ent, " ") {
		// "Run npm install in the folder": an instruction, not a statement about "Run".
		return ""
	}
	return ent
}

// reHomeTo is "X is home to Y" and "X is home to the N of Y": a place that is home to something is where it
// is, and to an organization's part ("the headquarters of", "the main campus of") where that part is.
var reHomeTo = regexp.MustCompile(`^(\p{Lu}[\p{L}\p{M}'.-]*(?:\s+(?:of\s+|the\s+)?\p{Lu}[\p{L}\p{M}'.-]*)*)\s+(?:is|was|has\s+been)\s+(?:also\s+)?home\s+to\s+(?:(?i:the)\s+([\p{Ll}-]+(?:\s+[\p{Ll}-]+)?)\s+of\s+)?((?:the\s+)?\p{Lu}.*)$`)

// matchHomeTo reads reHomeTo: (Y, N in, X), or (Y, located in, X) when no part is named.
func matchHomeTo(clause string) (spec, bool) {
	m := reHomeTo.FindStringSubmatch(strings.TrimRight(clause, ". "))
	if m == nil {
		return spec{}, false
	}
	place, part, what := m[1], m[2], cleanNP(m[3])
	if what == "" {
		return spec{}, false
	}
	if part == "" {
		return spec{subject: what, predicate: "located in", object: place, confidence: confRelation}, true
	}
	return spec{subject: what, predicate: part + " in", object: place, definite: true, confidence: confRelation}, true
}

// reEventOn is a possessed noun with the date it falls on, in a phrase that opens a clause: "For my 40th
// birthday on July 18 I'm …", "After our wedding on May 3 we …". The phrase says when the event is, as "my
// birthday is on July 18" does, and the clause after it says something else. A counted ordinal ("40th") says
// which one it is, not what it is; "first" and "last" stay, since "my first marathon" is one event among others.
var reEventOn = regexp.MustCompile(`^(?i:for|after|before|during|since|at)\s+(?i:my|our)\s+(?:(?:\d+(?:st|nd|rd|th)|(?i:next|upcoming))\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(on)\s+`)

// eventDates returns the speaker's event date a clause's opening phrase states (reEventOn): the noun names the
// event (its relation) and the date after "on" is its value. The noun must be a common noun, and the date one
// the date reader found at "on".
func eventDates(clause string, dates []when) []spec {
	var out []spec
	for _, m := range reEventOn.FindAllStringSubmatchIndex(clause, -1) {
		// The date reader's phrase starts at "on" ("on 9 May 2024").
		on := m[4]
		if !dateAt(dates, on) {
			continue
		}
		noun := clause[m[2]:m[3]]
		toks := nlp.Analyze(noun)
		if len(toks) == 0 || !nlp.IsNoun(toks[len(toks)-1].Tag) || nlp.IsProper(toks[len(toks)-1].Tag) {
			continue
		}
		attr := updateAttribute(noun)
		if attr == "" {
			continue
		}
		if v := valuePhrase(clause[on:], dates, on); v != "" {
			out = append(out, spec{predicate: attr, object: v, confidence: confFirst, definite: true})
		}
	}
	return out
}

// reGoingForEvent is the place the speaker travels to for a journey of theirs: "We're flying to Tokyo for our
// honeymoon in October", "I'm heading to Lisbon for my summer holiday" (groups: the place, the journey). The
// place is the journey's, as "the honeymoon's going to be in Bali" says. Only journeys: the place one travels
// to for a wedding or a birthday is not what those nouns' slots hold (a date).
var reGoingForEvent = regexp.MustCompile(`^(?:I|[Ww]e)\s+(?:(?:am|are|'m|'re|will\s+be|were|was|'ll\s+be)\s+)?(?:(?:now|still|actually|finally|probably|definitely|all)\s+)?(?i:going|flying|heading|travell?ing|driving|jetting\s+off|sailing|off)\s+(?:(?i:out|over|down|up)\s+)?(?i:to)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})\s+(?i:for)\s+(?i:our|my)\s+((?:[\pL-]+\s+)?(?i:` + journeyNouns + `))\b`)

// journeyNouns are the nouns of everyday English for a journey one plans, whose place is where one goes.
const journeyNouns = `honeymoon|holiday|holidays|vacation|trip|getaway|cruise|tour|break|hols`

// eventPlaces returns the speaker's claim of where an event of theirs is, said by the journey to it
// (reGoingForEvent).
func eventPlaces(clause string) []spec {
	m := reGoingForEvent.FindStringSubmatch(clause)
	if m == nil {
		return nil
	}
	attr := updateAttribute(m[2])
	if attr == "" {
		return nil
	}
	return []spec{{predicate: attr, object: m[1], confidence: confFirst, definite: true}}
}

// recurringDay is a day that comes back, as English names one: "the first Thursday of every month", "every other
// Tuesday", "every Tuesday evening", "Wednesday evenings", "Mondays and Thursdays".
const recurringDay = `(?i:(?:the\s+)?(?:first|second|third|fourth|last)\s+` + weekdayRe + `\s+of\s+(?:the|every|each)\s+month` +
	`|every\s+(?:other\s+|second\s+)?` + weekdayRe + `(?:\s+(?:morning|afternoon|evening|night))?` +
	`|` + weekdayRe + `\s+(?:morning|afternoon|evening|night)s` +
	`|` + weekdayRe + `s(?:\s+(?:morning|afternoon|evening|night)s)?(?:(?:,\s*|\s+and\s+|,\s+and\s+)` + weekdayRe + `s)*)`

// reRecurring is a thing of the speaker's life with the day it recurs on: "Book club meets on the first
// Thursday of every month", "Our pub quiz is every other Tuesday", "Choir practice is on Wednesday evenings".
// The day is what the thing's date is, as "the dentist appointment is on 4 March" says a date (groups 1 and 2:
// the thing, the day; weekdayRe's own groups follow).
var reRecurring = regexp.MustCompile(`^(?:(?i:my|our|the)\s+)?((?:[\pL-]+\s+){0,2}?[\pL-]+)\s+(?:(?i:now|still|always|usually|normally)\s+)?(?i:meets|meet|is|are|happens|happen|takes\s+place|take\s+place|runs|run|is\s+held|are\s+held)\s+(?:(?i:now|still|always|usually|normally)\s+)?(?:(?i:on)\s+)?(` + recurringDay + `)\b`)

// recurringEvents returns the speaker's claim of the day a clause says a thing of theirs recurs on
// (reRecurring). The thing must be no name and no person ("my sister is every Tuesday" is nothing English says
// of a date).
func recurringEvents(clause string) []spec {
	m := reRecurring.FindStringSubmatchIndex(clause)
	if m == nil {
		return nil
	}
	// The verb after the thing says its last word is a noun (the tagger reads "club" in "Our running club meets"
	// as an adjective); a capital says it is a name, unless it only opens the clause ("Book club meets …").
	thing := strings.Fields(clause[m[2]:m[3]])
	if last := thing[len(thing)-1]; nlp.Capitalized(last) && (len(thing) == 1 || m[2] > 0) {
		return nil
	}
	attr := updateAttribute(clause[m[2]:m[3]])
	if attr == "" {
		return nil
	}
	value := clause[m[4]:m[5]]
	if p := reRecurringPlace.FindString(clause[m[5]:]); p != "" {
		// "My running club is on Thursdays in Phoenix Park": where it meets is said with when.
		value += strings.TrimRight(p, " ")
	}
	return []spec{{predicate: attr, object: value, confidence: confFirst, definite: true}}
}

// reRecurringPlace is the place said after a recurring day: " in Phoenix Park", " at the leisure centre".
var reRecurringPlace = regexp.MustCompile(`^\s+(?i:in|at)\s+[^,.;!?]+`)

// specs returns the claims' specs of one assertive clause: its patterns' (clauseSpecs), with the speaker's
// occupation and employer said together split into their two slots (roleEmployers).
func (e *Extractor) specs(tc turnCtx, clause string, dates []when, numbered, firstClause bool) []spec {
	out := e.clauseSpecs(tc, clause, dates, numbered, firstClause)
	// Relations said by what the object is named as: its kind, a role holder in apposition, a faith, a sport,
	// a playing position, a place something was made in.
	out = kindRelations(clause, out)
	out = possessiveAppositions(clause, out)
	out = faithRelations(out)
	out = sportRelations(out)
	out = positionRelations(numbered, out)
	out = madeInPlaces(out)
	out = e.genresOfMusicMakers(out)
	if numbered {
		// A list of facts says where someone went to school or university as any clause does ("X went to
		// Y University" is where X was educated).
		return schoolSpecs(clause, tc.speaker, out)
	}
	kept := out[:0]
	for _, s := range out {
		if !evaluation(s.object) {
			kept = append(kept, s)
		}
	}
	return groupsOfActivity(placesOfActivity(futureMarriage(clause, dates, e.causativeTransfer(clause, schoolSpecs(clause, tc.speaker, workplaceOf(clause, e.presentTown(tc.sentence, clause, e.homePlaces(clause, e.officeMoves(e.workPlaces(clause, dates, teachers(clause, roleEmployers(clause, kept))))))))))))
}

// reInGroupNamed is "… in a band called The Static" closing an object: group 1 the group noun, 2 its name.
var reInGroupNamed = regexp.MustCompile(`\s+(?i:in|with)\s+(?i:a|an|the|my|our)\s+(?:[\p{Ll}-]+\s+){0,2}?([\p{Ll}]+)\s+(?i:called|named)\s+(\p{Lu}.*)$`)

// groupsOfActivity adds, for a claim of what someone does in a named group ("plays bass in a band called The
// Static") or of joining one ("joined a jazz trio called Blue Hour"), the claim that they are a member of it:
// English names the group by its kind and then its name, and membership is what "Which band is Ola in?"
// asks. The activity keeps its own object ("bass").
func groupsOfActivity(specs []spec) []spec {
	n := len(specs)
	for i := 0; i < n; i++ {
		s := &specs[i]
		if s.verbatim || s.object == "" {
			continue
		}
		if m := reInGroupNamed.FindStringSubmatchIndex(s.object); m != nil && canon.GroupNoun(s.object[m[2]:m[3]]) {
			name := s.object[m[4]:m[5]]
			s.object = strings.TrimSpace(s.object[:m[0]])
			specs = append(specs, spec{subject: s.subject, predicate: "member of", object: name, key: "member_of", confidence: s.confidence, prefix: s.prefix})
			continue
		}
		if verb := firstWords(s.predicate, 1); nlp.VerbLemma(strings.ToLower(verb)) == "join" {
			if m := reKindNamedGroup.FindStringSubmatch(s.object); m != nil && canon.GroupNoun(m[1]) {
				specs = append(specs, spec{subject: s.subject, predicate: "member of", object: m[2], key: "member_of", confidence: s.confidence, change: true, prefix: s.prefix})
			}
		}
	}
	return specs
}

// reKindNamedGroup is "a jazz trio called Blue Hour": group 1 the kind's head noun, 2 the name.
var reKindNamedGroup = regexp.MustCompile(`^(?i:an?|the)\s+(?:[\p{Ll}-]+\s+){0,2}?([\p{Ll}]+)\s+(?i:called|named)\s+(\p{Lu}.*)$`)

// capitalizedName reports a name written with capitals: every word but a leading "the" starts with an
// upper-case letter (the tagger reads unknown words of text typed in lower case as names too).
func capitalizedName(s string) bool {
	ws := strings.Fields(strings.TrimPrefix(s, "the "))
	for _, w := range ws {
		if !nlp.Capitalized(w) {
			return false
		}
	}
	return len(ws) > 0
}

// vagueRelations are the relation keys of English's verbs of mere association ("associated with", "affiliated
// with", "connected with", "linked to", "tied to", "related to"): they say that two things go together, not how.
var vagueRelations = map[string]bool{"associated_with": true, "associates_with": true, "affiliated_with": true,
	"affiliates_with": true, "connected_with": true, "connects_with": true, "connected_to": true, "linked_to": true,
	"links_to": true, "linked_with": true, "tied_to": true, "ties_to": true, "related_to": true, "relates_to": true}

// kindNouns are the classifier nouns (classifierNouns) that name a kind of attribute rather than of place: a
// sport, a faith, a genre, a field of work.
var kindNouns = map[string]bool{"sport": true, "game": true, "religion": true, "faith": true, "language": true,
	"field": true, "discipline": true, "art": true, "genre": true, "position": true, "profession": true, "style": true}

// playKinds are the keys of "play", which says nothing of what is played: "plays the position of goalkeeper"
// is the position, "plays the sport of cricket" the sport (playedKinds), as "X's position is goalkeeper" says.
var (
	playKinds   = map[string]bool{"plays": true, "played": true}
	playedKinds = map[string]bool{"position": true, "sport": true, "game": true, "genre": true, "style": true}
)

// kindRelations keys a vague relation by the kind its object is said to be: "X is associated with the sport of
// football" is X's sport, "affiliated with the religion of Islam" X's religion — the relation "X's sport is
// football" and "X plays football" state, not a second one beside them.
func kindRelations(clause string, specs []spec) []spec {
	for i := range specs {
		s := &specs[i]
		key := s.key
		if key == "" {
			key = canon.PredicateKey(s.predicate)
		}
		if !vagueRelations[key] && !playKinds[key] || s.object == "" {
			continue
		}
		obj := regexp.QuoteMeta(s.object)
		m := regexp.MustCompile(`(?i)\bthe\s+([\p{L}-]+)\s+of\s+` + obj).FindStringSubmatch(clause)
		if m == nil {
			// A cleft or a nominal subject with the kind as its head noun: "Rugby is the sport X is associated
			// with", "The sport X plays is rugby" say the kind of the object as "the sport of rugby" does.
			m = regexp.MustCompile(`(?i)^(?:the\s+)?` + obj + `\s+(?:is|was)\s+the\s+([\p{L}-]+)\s`).FindStringSubmatch(clause)
		}
		if m == nil {
			m = regexp.MustCompile(`(?i)^the\s+([\p{L}-]+)\s.+\s(?:is|was)\s+` + obj + `[.!]?$`).FindStringSubmatch(clause)
		}
		if m == nil || !kindNouns[strings.ToLower(m[1])] || playKinds[key] && !playedKinds[strings.ToLower(m[1])] {
			continue
		}
		s.predicate, s.key = strings.ToLower(m[1]), strings.ToLower(m[1])
	}
	return specs
}

// adherenceVerbs are the verbs, in the third person the clause reader keys them by, with which English says
// someone holds a faith or a worldview ("follows Buddhism", "practises Judaism", "professes Catholicism",
// "embraced Stoicism").
var adherenceVerbs = map[string]bool{"follows": true, "practices": true, "practises": true, "professes": true,
	"embraces": true, "observes": true}

// reFaithName is the name of a faith or a worldview by its shape: a doctrine noun in -ism ("Buddhism",
// "atheism", "Anglicanism"), the two great religions whose English names have no -ism (Christianity, Islam),
// or a church ("the Catholic Church").
var reFaithName = regexp.MustCompile(`(?i)^(?:the\s+)?(?:[\pL-]+\s+){0,3}(?:[\pL-]+ism|christianity|islam|church)$`)

// notDoctrines are the common English -ism nouns that name an activity or a thing, not a doctrine one holds
// ("practises journalism" is a job).
var notDoctrines = map[string]bool{"journalism": true, "tourism": true, "mechanism": true, "organism": true,
	"prism": true, "criticism": true, "activism": true, "volunteerism": true, "athleticism": true, "baptism": true}

// faithRelations keys an adherence verb whose object is named as a faith or a worldview as the subject's
// religion (Wikidata's "religion or worldview"): "X practises Judaism" says what "X's religion is Judaism"
// does; "follows the rules" and "practises law" stay as said.
func faithRelations(specs []spec) []spec {
	for i := range specs {
		s := &specs[i]
		key := specKey(*s)
		obj := strings.TrimRight(s.object, ".!?, ")
		if adherenceVerbs[key] && reFaithName.MatchString(obj) && !notDoctrines[strings.ToLower(lastWords(obj, 1))] {
			s.key = "religion"
		}
	}
	return specs
}

// sportWords are the English names of sports: the sports of the Summer and Winter Olympic programmes and the
// most played team sports of the English-speaking world ("soccer", "netball"), by the word that names the sport
// in a compound ("ice hockey", "rugby league", "beach volleyball"). General English vocabulary, listed from
// those programmes, not from any data set.
var sportWords = map[string]bool{"athletics": true, "archery": true, "badminton": true, "baseball": true,
	"softball": true, "basketball": true, "boxing": true, "canoeing": true, "cycling": true, "diving": true,
	"fencing": true, "football": true, "soccer": true, "golf": true, "gymnastics": true, "handball": true,
	"hockey": true, "judo": true, "karate": true, "lacrosse": true, "rowing": true, "rugby": true, "sailing": true,
	"shooting": true, "skateboarding": true, "surfing": true, "swimming": true, "taekwondo": true, "tennis": true,
	"triathlon": true, "volleyball": true, "polo": true, "weightlifting": true, "wrestling": true, "cricket": true,
	"squash": true, "biathlon": true, "bobsleigh": true, "curling": true, "skating": true, "skiing": true,
	"luge": true, "snowboarding": true, "netball": true}

// sportVerbs are the keys of the verbs English says a sport with: one plays it or competes in it.
var sportVerbs = map[string]bool{"plays": true, "played": true, "competes_in": true, "competed_in": true}

// sportRelations keys "X plays cricket", "X competes in ice hockey" as X's sport, as "X's sport is cricket"
// says: the object is named as a sport (sportWords). What else one plays ("plays the piano", "plays
// goalkeeper") stays as said.
func sportRelations(specs []spec) []spec {
	for i := range specs {
		s := &specs[i]
		key := specKey(*s)
		if !sportVerbs[key] {
			continue
		}
		ws := strings.Fields(strings.ToLower(strings.TrimRight(s.object, ".!?, ")))
		if n := len(ws); n > 0 && n <= 3 && (sportWords[ws[n-1]] || n >= 2 && sportWords[ws[n-2]] && !strings.HasSuffix(ws[n-1], "s")) {
			s.key = "sport"
		}
	}
	return specs
}

// positionWords are the English names of playing positions in the most played team sports (association
// football, American football, basketball, baseball, ice hockey, rugby, cricket), as those sports' rules and
// glossaries name them, by their last word ("wide receiver", "point guard", "fly-half").
var positionWords = map[string]bool{"goalkeeper": true, "goalie": true, "goaltender": true, "keeper": true,
	"defender": true, "back": true, "fullback": true, "full-back": true, "sweeper": true, "midfielder": true, "winger": true,
	"striker": true, "forward": true, "quarterback": true, "halfback": true, "linebacker": true,
	"cornerback": true, "receiver": true, "end": true, "tackle": true, "lineman": true, "kicker": true,
	"placekicker": true, "punter": true, "guard": true, "center": true, "centre": true, "pitcher": true,
	"catcher": true, "shortstop": true, "baseman": true, "outfielder": true, "infielder": true, "fielder": true,
	"defenseman": true, "flanker": true, "hooker": true, "prop": true, "lock": true, "scrum-half": true,
	"fly-half": true, "wicket-keeper": true, "wicketkeeper": true, "batsman": true, "batter": true, "bowler": true}

// rePositionNamed is a playing position named before the noun "position" ("the quarterback position").
var rePositionNamed = regexp.MustCompile(`^(?i:the\s+)?([\pL-]+(?:\s+[\pL-]+)?)\s+(?i:position)$`)

// playsInKeys are the keys of "play" with the prepositions English names a position with ("plays in the
// quarterback position", "played at the centre position").
var playsInKeys = map[string]bool{"plays_in": true, "played_in": true, "plays_at": true, "played_at": true}

// positionRelations keys "X plays wide receiver" and, in a list of facts, "X is a goalkeeper" as X's
// position (as "X's position is goalkeeper" and "plays as a goalkeeper" are): the object is named as a
// playing position (positionWords), with at most one word before it and no "the" ("plays the guard" is no
// position).
func positionRelations(numbered bool, specs []spec) []spec {
	for i := range specs {
		s := &specs[i]
		key := specKey(*s)
		if m := rePositionNamed.FindStringSubmatch(strings.TrimRight(s.object, ".!?, ")); m != nil && playsInKeys[key] && positionWords[strings.ToLower(lastWords(m[1], 1))] {
			// "plays in the quarterback position", "plays at the centre position": the position named before
			// the noun "position" is the one played.
			s.key, s.object = "position", m[1]
			continue
		}
		if !playKinds[key] && !(numbered && key == "is_a") {
			continue
		}
		ws := strings.Fields(strings.ToLower(strings.TrimRight(s.object, ".!?, ")))
		if len(ws) > 0 && (ws[0] == "a" || ws[0] == "an") && key == "is_a" {
			ws = ws[1:]
		}
		if n := len(ws); n > 0 && n <= 2 && ws[0] != "the" && positionWords[ws[n-1]] {
			s.key = "position"
			s.object = strings.TrimRight(s.object, ".!?, ")
			if key == "is_a" {
				s.object = strings.Join(strings.Fields(s.object)[len(strings.Fields(s.object))-n:], " ")
			}
		}
	}
	return specs
}

// madeInPlaces keys "X was made in Germany" as where X comes from (canon's comes_from, as "originated in" and
// "created in" are), the label "Made in …" English puts on things; "made in Japanese" (a film's language)
// stays made_in: English names most languages by the nationality adjective (countryOfDemonym), which names
// no place.
func madeInPlaces(specs []spec) []spec {
	for i := range specs {
		s := &specs[i]
		key := specKey(*s)
		obj := strings.TrimRight(s.object, ".!?, ")
		if key != "made_in" || !nlp.Capitalized(obj) || countryOf(obj) != "" || strings.HasSuffix(strings.ToLower(obj), " language") {
			continue
		}
		s.key = "comes_from"
	}
	return specs
}

// rePossessiveApposition is an object that names the subject's role holder, then the holder in apposition:
// "its CEO, Tim Cook", "her husband, Leo Park".
var reRoleOnly = regexp.MustCompile(`^(?i:its|his|her|their)\s+(?:\pL+[ -]){0,2}\pL+$`)

var rePossessiveApposition = regexp.MustCompile(`^(?i:its|his|her|their)\s+((?:\pL+[ -]){0,2}\pL+),\s+(\p{Lu}.*?)[.,]?$`)

// possessiveAppositions keeps, of an object "its CEO, Tim Cook" ("Acme is led by its CEO, Tim Cook"), the name
// the apposition gives: the words before the comma name the role the name holds (a relation canon knows), which
// the relation already says; the value is the holder.
func possessiveAppositions(clause string, specs []spec) []spec {
	for i := range specs {
		obj := specs[i].object
		if reRoleOnly.MatchString(obj) {
			// The reader ended the object at the apposition's comma: take the name from the clause.
			if m := regexp.MustCompile(regexp.QuoteMeta(obj) + `,\s+(\p{Lu}[\pL.'-]*(?:\s+\p{Lu}[\pL.'-]*)*)[.,]?$`).FindStringSubmatch(clause); m != nil {
				obj += ", " + m[1]
			}
		}
		m := rePossessiveApposition.FindStringSubmatch(obj)
		if m == nil || !canon.KnownRelation(canon.RelationKey(canon.PredicateKey(m[1]))) {
			continue
		}
		specs[i].object = m[2]
	}
	return specs
}

// placesOfActivity adds, for a verb's claim whose object is a common noun phrase followed by "at" and a name
// ("teaches violin at the Juilliard School", "coaches soccer at Lincoln High", "studies physics at MIT"), the
// claim of where the subject does it ("teaches at" the Juilliard School), and leaves the verb's own claim with
// the noun phrase alone. The place is a relation of its own in English ("Where does she teach?" asks for it,
// not for the violin); a place that is no name ("at the conservatory there") stays part of the object, since
// nothing would answer with it.
func placesOfActivity(specs []spec) []spec {
	n := len(specs)
	for i := 0; i < n; i++ {
		s := &specs[i]
		verb := firstWords(s.predicate, 1)
		if s.verbatim || s.past || strings.Contains(s.predicate, " ") || nlp.VerbLemma(verb) == verb {
			// Only a one-word verb relation in its third-person form ("teaches"), not "works at" or a noun.
			continue
		}
		thing, place, ok := strings.Cut(s.object, " at ")
		if !ok || strings.Contains(place, " at ") {
			continue
		}
		tt, pt := nlp.Analyze(thing), nlp.Analyze(place)
		if len(tt) == 0 || len(tt) > 4 || !nlp.IsNoun(tt[len(tt)-1].Tag) || properPhrase(tt) || !properPhrase(pt) || !capitalizedName(place) {
			continue
		}
		s.object = thing
		specs = append(specs, spec{subject: s.subject, predicate: s.predicate + " at", object: place, confidence: s.confidence, prefix: s.prefix})
	}
	return specs
}

// reFutureMarriage is a marriage still to come: "getting married", "going to marry", "will marry".
var reFutureMarriage = regexp.MustCompile(`(?i)\b(?:(?:am|are|is|'m|'re|'s)\s+(?:getting|going\s+to\s+get)\s+married|(?:going\s+to|will|gonna)\s+(?:get\s+married|marry))\b`)

// futureMarriage files a marriage the clause says is still to come ("I'm getting married to Tom on June 8",
// "Ana is going to marry Leo") as an engagement, and a date after it as the wedding's: the spouse is not one
// yet (reMutualUnion reads the same with the partner beside the speaker as subject).
func futureMarriage(clause string, dates []when, specs []spec) []spec {
	loc := reFutureMarriage.FindStringIndex(clause)
	if loc == nil {
		return specs
	}
	wedding := ""
	for _, d := range dates {
		if d.start >= loc[1] {
			wedding = d.value()
			break
		}
	}
	out := specs[:0:0]
	for _, s := range specs {
		if k := canon.RelationKey(specKey(s)); k == "spouse" || k == "married_to" {
			s.predicate, s.key, s.change = "engaged to", "engaged_to", true
			out = append(out, s)
			if wedding != "" {
				out = append(out, spec{subject: s.subject, predicate: "wedding", object: wedding, confidence: s.confidence, definite: true})
				wedding = ""
			}
			continue
		}
		out = append(out, s)
	}
	return out
}

// evaluation reports an object that only judges or describes ("exhausting", "really great", "a bit
// long"): no value of the relation (evaluativeAdjectives). The clause then keeps its words in a sentence
// claim instead.
func evaluation(object string) bool {
	ws := strings.Fields(strings.ToLower(strings.Trim(object, " .!?,")))
	if len(ws) > 1 && ws[0] == "a" && ws[1] == "bit" {
		ws = ws[2:]
	}
	for len(ws) > 1 && intensifiers[ws[0]] {
		ws = ws[1:]
	}
	return len(ws) == 1 && evaluativeAdjectives[ws[0]]
}

// clauseSpecs runs the patterns over one assertive clause.
func (e *Extractor) clauseSpecs(tc turnCtx, clause string, dates []when, numbered, firstClause bool) []spec {
	var out []spec
	if !numbered {
		// Before the title test: "My Pixel finally died" names a possession, not a work, and "Gym sessions
		// are Mondays and Thursdays" is a day of the speaker's week, whatever its capitals.
		out = append(out, lostSpecs(clause, tc.typedLower)...)
		out = append(out, recurringEvents(clause)...)
	}
	if possessiveTitle(clause) {
		// A title ("Our Mutual Friend was written by …") is no statement of the speaker's.
		if ts := openIE(clause, dates, numbered, false); len(ts) > 0 {
			for _, t := range ts {
				out = append(out, t.spec(numbered))
			}
		}
		return out
	}
	out = append(out, matchKinship(clause, tc.speaker)...)
	if s, ok := newLineManager(clause); ok && !numbered {
		out = append(out, s)
	}
	if !numbered {
		ends := matchEnds(clause, dates)
		if len(ends) == 1 && ends[0].predicate == "broke up with" {
			// "Chloe and I went our separate ways in May" says that and nothing else: its verb phrase read as a
			// relation ("went" "our separate ways") would be a motion of the speaker's.
			return append(out, ends...)
		}
		out = append(out, ends...)
		out = append(out, eventDates(clause, dates)...)
		out = append(out, eventPlaces(clause)...)
	}
	// Match on the clause without a leading time phrase ("Yesterday I took ...", "Last week, I ..."); the
	// claim text keeps it, resolved.
	if len(dates) > 0 && dates[0].start == 0 {
		cut := dates[0].end
		for cut < len(clause) && (clause[cut] == ',' || clause[cut] == ' ') {
			cut++
		}
		if cut < len(clause) {
			clause = clause[cut:]
			dates = shiftDates(dates, cut, 0)
		}
	}
	// "Now I'm going to ...", "After my last run, I saw ...": match from the subject.
	m := reLeadIn.FindStringSubmatchIndex(clause)
	if m == nil {
		m = reFrontedPhrase.FindStringSubmatchIndex(clause)
	}
	if m != nil && m[2] > 0 {
		cut := m[2]
		clause = clause[cut:]
		dates = shiftDates(dates, cut, 0)
	}
	if s, ok := matchMyFavourite(clause, dates); ok {
		return append(out, s)
	}
	if s, ok := matchHomeTo(clause); ok {
		return append(out, s)
	}
	if !numbered {
		if m := reDue.FindStringSubmatchIndex(clause); m != nil && dateAt(dates, m[1]-1) {
			// "My thesis is due on April 30": the date the speaker's thing is due.
			if v := valuePhrase(clause[m[1]:], dates, m[1]); v != "" {
				attr := updateAttribute(clause[m[2]:m[3]])
				if attr != "" {
					return append(out, spec{predicate: attr + " due date", object: v, confidence: confFirst, definite: true})
				}
			}
		}
		// ownValue is the speaker's attribute said by the noun phrase m[2]:m[3], its value after m[1].
		ownValue := func(m []int, attr string) (spec, bool) {
			if v := valuePhrase(clause[m[1]:], dates, m[1]); v != "" {
				if attr = updateAttribute(attr); attr != "" {
					return spec{predicate: attr, object: v, confidence: confFirst, definite: true}, true
				}
			}
			return spec{}, false
		}
		if m := atAmount(clause, reTheValue.FindStringSubmatchIndex(clause)); m != nil && (dateAt(dates, m[1]) || reAmountStart.MatchString(clause[m[1]:])) {
			// "The rent is $3,100", "The closing is on June 28": in conversation, a definite noun without an
			// owner whose value is a date or an amount is the speaker's (their rent, their closing date);
			// "the weather is nice" names neither.
			if s, ok := ownValue(m, clause[m[2]:m[3]]); ok {
				return append(out, s)
			}
		}
		if m := reTheValue.FindStringSubmatchIndex(clause); m != nil && reNameStart.MatchString(clause[m[1]:]) && personNoun(strings.ToLower(lastWords(clause[m[2]:m[3]], 1))) {
			// "The contractor is Van Dijk Bouw", "the landlord is Mr Okafor": a definite noun of a person
			// without an owner, whose value is a name, is the speaker's, as "the rent" is.
			if s, ok := ownValue(m, clause[m[2]:m[3]]); ok {
				return append(out, s)
			}
		}
		if m := atAmount(clause, reBareValue.FindStringSubmatchIndex(clause)); m != nil && reMoneyStart.MatchString(clause[m[1]:]) && !notNames[strings.ToLower(strings.Fields(clause[m[2]:m[3]])[0])] {
			// "Broadband is £35 a month now", "Council tax for this year is £1,548": chat leaves the article out,
			// and a noun whose value is an amount of money is the speaker's as "the rent" is. (A number without
			// a currency may be an age: "Rose is 35".)
			if s, ok := ownValue(m, lowerFirst(clause[m[2]:m[3]], true)); ok {
				return append(out, s)
			}
		}
		if rs := matchRent(clause); rs != nil {
			return append(out, rs...)
		}
		if rs := matchReplaced(clause, dates); rs != nil {
			return append(out, rs...)
		}
		if s, ok := matchMovedPerson(clause, dates); ok {
			return append(out, s)
		}
		if s, ok := namedUpdate(clause, tc); ok {
			return append(out, s)
		}
		// Lists of facts are encyclopedic; updates of the speaker's own values come up in conversation.
		if s, ok := matchUpdate(clause, dates); ok {
			out = append(out, s)
			if m := reFromValueTo.FindStringSubmatch(clause); m != nil {
				if single, known := e.policy.Lookup(canon.RelationKey(specKey(s))); known && !single {
					// "I switched my studies from journalism to international relations": in a relation that
					// holds several values the new one does not replace the old, so the update says the old
					// one ended, as "I switched from journalism" does (the reader retires it).
					out = append(out, spec{subject: s.subject, predicate: "switched from", object: m[1], confidence: s.confidence})
				}
			}
			return out
		}
		if s, ok := matchNewValue(clause, dates); ok {
			out = append(out, s)
		}
	}
	if !numbered {
		// Someone the speaker names only by role, after the speaker's own updates ("my landlord raised the
		// rent to $2,000" is the speaker's rent).
		if ss := relativeSubject(tc.speaker, clause, dates); len(ss) > 0 {
			return append(out, ss...)
		}
	}
	if m := reOfferTaken.FindStringSubmatch(clause); m != nil && (m[1] == "I" || !notNames[strings.ToLower(strings.Fields(m[1])[0])]) {
		// Taking a job offer from an organization is going to work there.
		subject, org := m[1], m[2]+m[3]
		if subject == "I" {
			subject = ""
		}
		return append(out, spec{subject: subject, predicate: "works at", object: org, key: "works_at", confidence: confFirst, change: true})
	}
	if m := reJobFor.FindStringSubmatch(clause); m != nil && (m[1] == "I" || !notNames[strings.ToLower(strings.Fields(m[1])[0])]) {
		subject := m[1]
		if subject == "I" {
			subject = ""
		}
		out = append(out, spec{subject: subject, predicate: "works at", object: m[2], key: "works_at", confidence: confFirst, change: true})
	}
	// Open information extraction from the parts of speech: every relation of a statement about someone or
	// something else; the passive and copular relations of the speaker's own ("I was born in Lisbon").
	if ts := openIE(clause, dates, numbered, firstPersonClause(clause)); len(ts) > 0 {
		out = withoutStatedReplacement(out, ts)
		for _, t := range ts {
			out = append(out, t.spec(numbered))
		}
		return out
	}
	if m := reNameAge.FindStringSubmatch(clause); m != nil && !numbered && (m[3] != "" || tc.named.has(m[1]) || tc.prevNamed.has(m[1])) {
		// "Ellie is nine", "Tom is 34 years old": the age of a person named in the conversation (a bare number
		// after another name may be a version or a rank, so "years old" or an earlier mention is needed).
		return append(out, spec{subject: m[1], predicate: "age", object: m[2], confidence: confRelation, change: true})
	}
	if m := reKinLead.FindStringSubmatchIndex(clause); m != nil && !numbered && kinLead(clause, m) {
		if a := reNamedAge.FindStringSubmatch(clause[m[2]:]); a != nil {
			// "My cat Mochi is 3 and very spoiled", "my son Leo is 7 years old": the named one's age.
			if g := reAgeComplement.FindStringSubmatch(a[2]); g != nil {
				out = append(out, spec{subject: a[1], predicate: "age", object: g[1], confidence: confRelation, change: true})
			}
		}
		// "My sister Emma just started working at Google": what follows the name is about Emma.
		if ts := openIE(clause[m[2]:], shiftDates(dates, m[2], 0), false, false); len(ts) > 0 {
			for _, t := range ts {
				s := t.spec(false)
				s.text = thirdPersonText(replaceDates(clause, dates), tc.speaker)
				out = append(out, s)
			}
			return out
		}
	}
	partner := ""
	if m := reCompound.FindStringSubmatchIndex(clause); m != nil {
		// "My GF and I just had ..." / "Samantha and I decided ...": the speaker is the subject.
		left := strings.TrimSuffix(strings.TrimSpace(clause[:m[2]]), " and")
		if n := reTrailingName.FindString(left); n != "" && !notNames[strings.ToLower(strings.Fields(n)[0])] {
			partner = n
		}
		cut := m[2]
		clause = clause[cut:]
		dates = shiftDates(dates, cut, 0)
	}
	if s, ok := kinPossessive(clause, tc); ok {
		out = append(out, s)
	} else if s, ok := matchPossessive(clause, dates); ok {
		out = append(out, s)
	} else if s, ok := matchFirstPerson(clause, dates, firstClause); ok {
		out = append(out, s)
		if k := canon.RelationKey(canon.PredicateKey(s.predicate)); k == "works_at" || k == "works_in" {
			// "I took a job at Paystack as a backend engineer", "I work at a clinic as a nurse": the role
			// after "as" is the speaker's occupation too.
			if m := reAsRole.FindStringSubmatch(clause); m != nil && occupationNoun(m[1]) {
				out = append(out, spec{predicate: "works as", object: m[1], key: "occupation", confidence: confFirst})
			}
		}
	} else if s, ok := matchNamed(clause, dates); ok {
		out = append(out, s)
	} else if m := reKinLead.FindStringSubmatchIndex(clause); m != nil && kinLead(clause, m) {
		// "My sister Anna works at Google": what follows is about Anna.
		if s, ok := matchNamed(clause[m[2]:], shiftDates(dates, m[2], 0)); ok {
			s.text = thirdPersonText(replaceDates(clause, dates), tc.speaker)
			out = append(out, s)
		}
	}
	return withPartner(out, partner, tc.speaker)
}

// withPartner adds, for a subject "X and I" ("My brother Eli and I both work at Shopify"), the speaker's
// shared states (sharedStates) for the named partner too, and that they live together. Each gets a text of
// its own: when one of them moves on, the other's text must not still name them.
func withPartner(out []spec, partner, speaker string) []spec {
	if partner == "" {
		return out
	}
	for i, n := 0, len(out); i < n; i++ {
		s := &out[i]
		key := s.key
		if key == "" {
			key = canon.PredicateKey(s.predicate)
		}
		if s.subject != "" || !sharedStates[canon.RelationKey(key)] {
			continue
		}
		t := *s
		t.subject, t.text = partner, canon.ClaimText(partner, s.predicate, s.object)
		s.text = canon.ClaimText(speaker, s.predicate, s.object)
		out = append(out, t)
		if canon.RelationKey(key) == "lives_in" {
			// "Joaquín and I rent a place in Providencia": they live together.
			out = append(out, spec{predicate: "lives with", object: partner, key: "lives_with", confidence: s.confidence,
				text: canon.ClaimText(speaker, "lives with", partner)})
		}
	}
	return out
}

var (
	rePossessive = regexp.MustCompile(`^(.+?)'s?\s+(\pL[\pL\pM\pN_\s-]{1,40}?)\s+` + cop + `\s+(.+)$`)
	// "my favourite colour has always been blue": the present perfect of "be" says the value holds now.
	reMyIs = regexp.MustCompile(`(?i)^(?:my|our)\s+(\pL[\pL\pM\pN_\s-]{1,40}?)\s+(?:` + cop + `|(?:has|have)\s+(?:always\s+)?been)\s+(.+)$`)
	// reValueAdverb is a time adverb between the copula and the value ("now", "currently", "still").
	// A participle of arranging ("booked for", "scheduled for", "moved to") between the copula and a date says the
	// date is the one now arranged: "our wedding is booked for 12 October".
	reValueAdverb = regexp.MustCompile(`(?i)^(?:(?:now|currently|still|officially|finally)\s+)*(?:(?:booked|scheduled|set|planned|arranged|fixed|slated|pencilled|penciled|postponed|moved|rescheduled|pushed\s+back|brought\s+forward)(?:\s+in)?\s+(?:for|on|to|until)\s+)?`)
	reFavourite   = regexp.MustCompile(`(?i)^(favou?rite|fave)\s+(.+)$`)
	// Go's \b is ASCII-only ("In" would end at "Inès"), hence the explicit boundary.
	reWeakObject = regexp.MustCompile(`(?i)^(?:so|very|really|too|pretty|super|such|a\s+bit|kind\s+of|quite|getting|going|doing|always|still|also|just|the\s+(?:best|most|same)|that|what|how|like|all|both|in|at|on|with|for|to|from)(?:[^\p{L}\p{N}]|$)`)
)

// oneAtATime are the kinship terms (lexicon.go) of people one has one of at a time: a partner, and whoever one
// answers to or learns from. The other kinship terms, relatives, friends and pets, come several at once.
var oneAtATime = map[string]bool{"wife": true, "husband": true, "spouse": true, "partner": true, "girlfriend": true,
	"boyfriend": true, "fiance": true, "boss": true, "manager": true, "mentor": true, "coach": true, "teacher": true}

// severalAtOnce reports an attribute named by a kinship term of people or animals one may have several of.
func severalAtOnce(attr string) bool {
	k, ok := kinOf(attr)
	return ok && !oneAtATime[k]
}

// withoutTimeAdjective drops the adjectives of time that open a lower-case attribute ("new manager", "current
// head of state"): they say when the value holds, not which attribute it is.
func withoutTimeAdjective(attr string) string {
	for _, w := range []string{"new ", "current ", "latest ", "present "} {
		if strings.HasPrefix(attr, w) && len(attr) > len(w) {
			attr = attr[len(w):]
		}
	}
	return attr
}

// reKinPossessive is an attribute of someone the speaker names by kinship, with or without their name: "my
// sister's flat is in Leith", "my brother Lars's wife is Karin", "our kids' school is …", "Erin's mum's doctor
// is …".
var reKinPossessive = regexp.MustCompile(`^(?:(?i:my|our)|(\p{Lu}\p{Ll}+)'s)\s+(\p{Ll}+)(?:\s+(\p{Lu}\p{Ll}+))?(?:'s|s')\s+(\p{Ll}[\pL\pM\pN_\s-]{1,40}?(?:\s+(?:is|was|are|were|has\s+been|will\s+be|has|had|got)|'s\s+\w+ed)\s+.+)$`)

// reNamedUpdate is a change of a named person's attribute: "Ana's yoga class has moved to Fridays", "Tom's rent's
// gone up to £900" (groups: the name, the rest from the attribute on; matchUpdate reads the rest).
var reNamedUpdate = regexp.MustCompile(`^(\p{Lu}\p{Ll}+(?:\s+\p{Lu}\p{Ll}+)?)'s\s+(\p{Ll}[\pL\pM\pN_\s-]{1,40}?(?:\s+(?:has|have|had|got|was|is)|'s)\s+(?:[\pL\pM\pN_]+\s+){0,2}?` + updateVerb + `\b.*)$`)

// namedUpdate reads a change of a named person's attribute (reNamedUpdate) as the speaker's own changes are
// read ("my yoga class has moved to Fridays"), for the person: a value that moved is no home the thing moved to
// ("Ana's yoga class has moved to Fridays" is no place the class lives).
func namedUpdate(clause string, tc turnCtx) (spec, bool) {
	if !strings.Contains(clause, "'s ") {
		return spec{}, false
	}
	m := reNamedUpdate.FindStringSubmatch(clause)
	if m == nil || notNames[strings.ToLower(strings.Fields(m[1])[0])] {
		return spec{}, false
	}
	if _, kin := kinOf(strings.Fields(m[2])[0]); kin {
		// "Ana's brother's wedding …" is the brother's (kinPossessive).
		return spec{}, false
	}
	said := "my " + reHasParticiple.ReplaceAllString(m[2], " has $1")
	s, ok := matchUpdate(said, findDates(said, tc.ref))
	if !ok || s.subject != "" {
		return spec{}, false
	}
	s.subject = m[1]
	s.text = thirdPersonText(replaceDates(clause, findDates(clause, tc.ref)), tc.speaker)
	return s, true
}

// reHasParticiple is "'s" before a participle, which is "has": "his football training's moved to Thursdays".
var reHasParticiple = regexp.MustCompile(`'s\s+(\w+ed)\b`)

// kinPossessive reads an attribute of a relative (or a pet, a colleague: the kinship terms) as the speaker's own
// attributes are read ("my flat is in Leith"), for the relative: named, or the speaker's relative by kinship.
func kinPossessive(clause string, tc turnCtx) (spec, bool) {
	m := reKinPossessive.FindStringSubmatch(clause)
	if m == nil {
		return spec{}, false
	}
	kin := strings.ToLower(m[2])
	if kin == "kids" || kin == "children" {
		kin = "kids"
	} else if _, ok := kinOf(kin); !ok {
		return spec{}, false
	}
	owner := m[3]
	switch {
	case owner != "":
	case m[1] != "":
		// "Freya's sister's new place is …" (a pronoun resolved to the speaker's relative, or said so).
		owner = possessive(m[1]) + " " + kin
	default:
		owner = possessive(tc.speaker) + " " + kin
	}
	attr := reHasParticiple.ReplaceAllString(m[4], " has $1")
	said := "my " + attr
	if !nounAttribute(attr) {
		// "my son's ok and that was a reminder …": "'s" is "is", and nothing of his is named.
		return spec{}, false
	}
	// "My son's football training has moved to Thursdays": the relative's value changed, as the speaker's own
	// do ("my football training has moved to Thursdays"); read before the copula, which would take "has been
	// pushed to 3 August" for a value "pushed".
	s, ok := matchUpdate(said, findDates(said, tc.ref))
	if !ok {
		s, ok = matchPossessive(said, findDates(said, tc.ref))
	}
	if !ok || s.subject != "" {
		return spec{}, false
	}
	s.subject = owner
	s.text = thirdPersonText(replaceDates(clause, findDates(clause, tc.ref)), tc.speaker)
	return s, true
}

// nounAttribute reports whether the words before the copula of an attribute phrase ("new place is in …") are
// a noun phrase: at most three words, the last a noun, no conjunction.
func nounAttribute(phrase string) bool {
	toks := nlp.Analyze(phrase)
	var head []nlp.Token
	for _, t := range toks {
		if t.Lower == "is" || t.Lower == "was" || t.Lower == "are" || t.Lower == "were" || t.Lower == "has" || t.Lower == "will" {
			break
		}
		head = append(head, t)
	}
	if len(head) == 0 || len(head) > 3 {
		return false
	}
	if last := head[len(head)-1]; !nlp.IsNoun(last.Tag) && !homeNouns[last.Lower] {
		// (The tagger reads "flat" as an adjective.)
		return false
	}
	for _, t := range head {
		if t.Tag == "CC" || t.Tag == "IN" || t.Tag == "WDT" || t.Tag == "DT" {
			return false
		}
	}
	return true
}

// matchPossessive handles "Alice's manager is Bob" and the speaker's "my X is Y".
func matchPossessive(clause string, dates []when) (spec, bool) {
	if m := reMyIs.FindStringSubmatchIndex(clause); m != nil && !endsInHolderName(clause[m[2]:m[3]]) {
		// "my new manager is Inès": "new", "current" say when, not which attribute.
		said := strings.ToLower(strings.TrimSpace(clause[m[2]:m[3]]))
		if loc := reHolderAtOrg.FindStringIndex(clause[m[2]:m[3]]); loc != nil && loc[0] > 0 {
			// "my boss at Deloitte is Priya": the organization says where the holder is, not which attribute
			// (workplaceOf reads that the speaker works there).
			said = strings.ToLower(strings.TrimSpace(clause[m[2] : m[2]+loc[0]]))
		} else if loc := reAttrInTown.FindStringIndex(clause[m[2]:m[3]]); loc != nil && loc[0] > 0 {
			// "our rent in Bristol is £1,450": the town says where the attribute is, not which.
			said = strings.ToLower(strings.TrimSpace(clause[m[2] : m[2]+loc[0]]))
		} else if loc := reAttrQualifier.FindStringIndex(clause[m[2]:m[3]]); loc != nil && loc[0] > 0 {
			// "my emergency contact on all the forms is Giorgi": a phrase of where or what for says where the
			// attribute is given, not which attribute.
			said = strings.ToLower(strings.TrimSpace(clause[m[2] : m[2]+loc[0]]))
		}
		attr := withoutTimeAdjective(said)
		// "my new dentist is Dr. Huang", "our new landlord is Ms. Okoye": a new one of what the speaker has
		// one of replaces the old one. Of people and animals one has several of ("my new friend", "my new
		// puppy") it adds one.
		renewed := strings.HasPrefix(said, "new ") && !severalAtOnce(attr)
		// "my favourite band right now is X": a time adverbial after the attribute says when the value holds
		// (now, so an earlier one no longer does), not which attribute it is.
		now := false
		for _, w := range []string{" right now", " at the moment", " these days", " nowadays", " currently", " at present", " now", " lately"} {
			if strings.HasSuffix(attr, w) && len(attr) > len(w) {
				attr, now = attr[:len(attr)-len(w)], true
				break
			}
		}
		// "my manager there is Pieter", "my boss over there", "my GP here", "my manager at work": a place
		// adverb says where, not which attribute.
		attr = rePlaceAdverb.ReplaceAllString(attr, "")
		objStart := m[4]
		// "my appointment is now on March 3", "my boss is still Priya": an adverb after the copula says when the
		// value holds, not what it is.
		if lead := reValueAdverb.FindString(clause[objStart:]); lead != "" && len(clause) > objStart+len(lead) {
			now = now || !strings.HasPrefix(strings.ToLower(lead), "still")
			objStart += len(lead)
		}
		if fm := reFavourite.FindStringSubmatch(attr); fm != nil {
			attr = "favourite " + fm[2]
		}
		if attr == "title" || attr == "official title" {
			// "My new title is talent acquisition lead": a person's title is the one their job gives them.
			attr = "job title"
		}
		rest := clause[objStart:]
		if at := reAtClock.FindString(rest); at != "" && reClockFirst.MatchString(rest[len(at):]) {
			// "My dentist appointment is at 3pm on Tuesday": the time of day, then its day (valuePhrase).
			objStart += len(at)
			rest = clause[objStart:]
		}
		if (dateAt(dates, objStart) || reClockFirst.MatchString(rest)) && len(strings.Fields(attr)) <= 4 {
			// "My flight to Denver is on October 14": the date of the speaker's event.
			if v := valuePhrase(rest, dates, objStart); v != "" {
				return spec{predicate: attr, object: v, confidence: confFirst, definite: true}, true
			}
		}
		if m := reOnWeekdays.FindStringSubmatch(rest); m != nil && len(strings.Fields(attr)) <= 3 {
			// "my piano lessons are on Wednesdays": the days a recurring event is on.
			return spec{predicate: attr, object: m[1], confidence: confFirst, definite: true, change: now}, true
		}
		if m := reAttrAtName.FindStringSubmatch(rest); m != nil && len(strings.Fields(attr)) <= 3 && !kinAttribute(attr) {
			// "my placement is at Kingsway Primary", "my office is in Leeds", "our office is on Oxford Road":
			// where the attribute is, named.
			return spec{predicate: attr, object: nameOnly(m[1] + m[2]), confidence: confFirst, definite: true, change: now || m[3] != ""}, true
		}
		if reWeakObject.MatchString(rest) || len(strings.Fields(attr)) > 3 {
			return spec{}, false
		}
		if attr != "" && roleHead(attr) && (personState(rest) || befallsOrIsSomewhere(rest)) {
			// "my husband was promoted", "my sister is from Porto": what befell the person or where they are,
			// not who they are.
			// "my dad is retired", "my sister is engaged": a state of the person, not who they are.
			return spec{}, false
		}
		obj := objectPhrase(rest, dates, objStart)
		if m := reDescribedThenName.FindStringSubmatch(rest); m != nil {
			// "my new ward manager is a chap from Liverpool, Craig Dolan": a description, then the name in
			// apposition; the name is who the holder is.
			obj = m[1]
		}
		if obj == "" {
			return spec{}, false
		}
		if attr == "name" {
			return spec{predicate: "name", object: obj, confidence: confFirst}, true
		}
		// An amount of money is one value at a time ("Our council tax is £1,548 a year"): a later amount of the
		// same thing replaces it.
		return spec{predicate: attr, object: obj, confidence: confFirst, change: now || renewed, definite: reMoneyStart.MatchString(obj)}, true
	}
	if m := rePossessive.FindStringSubmatchIndex(clause); m != nil {
		owner := cleanNP(clause[m[2]:m[3]])
		// "Velmora's current head of state": an adjective of time says when, not which attribute.
		attr := withoutTimeAdjective(strings.ToLower(strings.TrimSpace(clause[m[4]:m[5]])))
		if !properNoun(owner) || len(strings.Fields(attr)) > 3 || vaguePredicates[attr] {
			return spec{}, false
		}
		rest := clause[m[6]:]
		if reWeakObject.MatchString(rest) {
			return spec{}, false
		}
		obj := objectPhrase(rest, dates, m[6])
		if obj == "" {
			return spec{}, false
		}
		if fm := reFavourite.FindStringSubmatch(attr); fm != nil {
			attr = "favourite " + fm[2]
		}
		return spec{subject: owner, predicate: attr, object: obj, confidence: confRelation}, true
	}
	return spec{}, false
}

// reAtClock is "at" before a time of day ("at 3pm on Tuesday").
var reAtClock = regexp.MustCompile(`^(?i:at)\s+`)

// reAttrQualifier is a prepositional phrase after an attribute's noun with a determiner of its own: "on all the
// forms", "for the flat".
var reAttrQualifier = regexp.MustCompile(`(?i)\s+(?:on|in|at|for|from|with)\s+(?:all\s+)?(?:the|my|our|his|her|their|these|those|this|that)\s+[\pL-]+(?:\s+[\pL-]+)?$`)

// reDescribedThenName is an indefinite description of someone and then their name in apposition, ending the
// clause: "a chap from Liverpool, Craig Dolan" (group: the name).
var reDescribedThenName = regexp.MustCompile(`^(?i:a|an)\s+[^,;]{1,40},\s+(` + namePart + `(?:\s+` + namePart + `){0,2})[\s.!]*$`)

// recurringDays are the days a recurring thing is on, in the plural: "Tuesdays", "weekends".
const recurringDays = `(?i:(?:mon|tues|wednes|thurs|fri|satur|sun)days|weekends|weekdays)`

// reOnWeekdays is the days a recurring event is on: "on Tuesdays", "on Mondays and Thursdays", "on weekends".
var reOnWeekdays = regexp.MustCompile(`^(?i:on)\s+(` + recurringDays + `(?:\s+(?i:and|or)\s+` + recurringDays + `)?)(?:\s+(?i:now|these\s+days|this\s+term|from\s+now\s+on))?[\s,.!]*$`)

// reAttrAtName is a value said as the place it is at or in by its name (group 1), or the street it is on (group
// 2), and a time adverb after it that says the value is new (group 3): "at Kingsway Primary", "in Leeds", "at the
// Crown Hotel", "in the Landmark building", "on Oxford Road", "at the Crown now"; a time, the company or another
// place after it says when, with whom or where exactly ("in Prague at the end of the month with the lads", "in
// the Landmark building on Princess Street", "at the Grand in York"), and a clause after a comma says something
// else.
var reAttrAtName = regexp.MustCompile(`^(?:(?i:at|in)\s+((?:the\s+)?\p{Lu}[\pL\pM'.&-]*(?:\s+(?:of|de|da|do|del|di|la|le|van|von|the|\p{Lu}[\pL\pM'.&-]*))*(?:\s+(?:building|centre|center|tower|house|hall|campus|estate|park|site))?)|(?i:on)\s+(\p{Lu}[\pL\pM'.-]*(?:\s+\p{Lu}[\pL\pM'.-]*)*\s+(?:Road|Street|Avenue|Lane|Way|Drive|Square|Place|Terrace|Crescent|Row|Close|Gardens|Boulevard|Rd|St|Ave)\b))(\s+(?i:now|instead|these\s+days|nowadays))?(?:\s+(?:(?i:with|near|outside|at\s+the\s+(?:end|start|beginning)\s+of|next|this|from|until|till)|(?i:in|on)\s+(?i:` + monthRe + `|the\s+(?:spring|summer|autumn|fall|winter))|(?i:on|in)\s+\p{Lu}[\pL\pM'.-]*)(?:\s[^,;]*)?)?(?:[\s.!]*$|,\s+\S.*$)`)

// personStates are the states of a person's life that reStatus reads of the speaker: said of a relative ("my dad
// is retired") they are that person's state, never who the relative is.
const personStates = `single|divorced|engaged|married|widowed|retired|pregnant|unemployed`

// rePersonState is one of personStates, with nothing after it but an adverb of time.
var rePersonState = regexp.MustCompile(`(?i)^(?:` + personStates + `)(?:\s+(?:now|too|again|already|yet|as\s+well|at\s+last))?[\s.!?,]*$`)

// personState reports a value that is a state of a person's life and nothing more (rePersonState).
func personState(value string) bool { return rePersonState.MatchString(value) }

var (
	reAge    = regexp.MustCompile(`(?i)^I\s+(?:am|was|just\s+turned|turned|will\s+be)\s+(\d{1,3})(?:\s+years?\s+old)?\b`)
	reFan    = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:am|are|have\s+been|have\s+always\s+been|was|were)\s+(?:(?:also|really|always|still|so|mostly|very|totally|super|pretty|quite|now|currently|\w+ly)\s+)*(?:(?:a|an|such\s+a)\s+(?:big|huge|massive|great|true|long-time|longtime|die-hard)?\s*fans?\s+of|into|passionate\s+about|obsessed\s+with|keen\s+on|interested\s+in|crazy\s+about|fond\s+of)\s+`)
	reStatus = regexp.MustCompile(`(?i)^I\s+am\s+(?:now\s+|currently\s+|still\s+)?(` + personStates + `)\b`)
	// reDiet finds the speaker's diet: "I'm pescatarian now", "I went vegan", "I'm back to being fully
	// vegetarian". The adjectives are the names of dietary practices in English (a closed set of everyday
	// words: what a menu or a form asks about), each a value of one attribute.
	reDiet = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:am|are|was|were|have\s+been|went|became|have\s+gone|turned|switched\s+to\s+being|am\s+back\s+to\s+being|are\s+back\s+to\s+being|went\s+back\s+to\s+being)\s+(?:(?:now|currently|fully|strictly|mostly|still|officially|full|completely|a)\s+)*(vegetarian|vegan|pescatarian|pescetarian|flexitarian|keto|paleo|gluten-free|lactose-free|dairy-free|kosher|halal|omnivore|omnivorous|carnivore|plant-based|raw\s+vegan)\b`)
	// reEatsAgain is a diet given up by eating again what it excludes: "I'm eating meat again", "we've started
	// eating fish", "I eat dairy now" (group: the food). The foods are the ones the dietary practices of reDiet
	// are defined by excluding.
	reEatsAgain = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:(?:am|are|have\s+been|have\s+started|started|am\s+back\s+to|are\s+back\s+to|went\s+back\s+to|have\s+gone\s+back\s+to)\s+eating|eat)\s+(meat|fish|seafood|dairy|eggs|animal\s+products)\s+(?:again|now|once\s+more|these\s+days)\b`)
	// reEarn and rePayRent read money said with the verbs English uses for a salary ("I earn €52,000 a year",
	// "I make $80k", "I get paid £30 an hour") and for rent ("I pay R$ 3.200 a month for my flat", "we pay
	// $1,500 in rent").
	reEarn    = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:(?:now|currently|still|only|just)\s+)*(?:earn|make|get\s+paid|am\s+paid|take\s+home|bring\s+in)\s+(` + money + `(?:\s+(?:a|an|per)\s+(?:year|month|hour|week)|\s+(?:annually|yearly|monthly|hourly))?)`)
	rePayRent = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:(?:now|currently|still|only|just)\s+)*pay\s+(` + money + `(?:\s+(?:a|per)\s+(?:month|week)|\s+monthly|\s+weekly)?)\s+(?:in\s+rent|for\s+(?:my|our|the)\s+(?:\w+\s+){0,2}(?:flat|apartment|place|house|room|studio|home|condo|loft|rental))\b`)
	// reSetAside and reSetAsideFor read money kept for a thing, which is its budget: "we've set aside about
	// £15,000 for the wedding", "For the trip I've budgeted $3,000" (the thing first or last; the verbs are
	// English's of reserving money).
	reSetAside    = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:(?:have|'ve|had|just|already|now)\s+)*` + setAsideVerbs + `\s+(?:(?:about|around|roughly|up\s+to)\s+)?(` + money + `)\s+for\s+(?:the|my|our)\s+((?:[\pL-]+\s+){0,2}?[\pL-]+)\s*$`)
	reSetAsideFor = regexp.MustCompile(`(?i)^for\s+(?:the|my|our)\s+((?:[\pL-]+\s+){0,2}?[\pL-]+),?\s+(?:I|we)\s+(?:(?:have|'ve|had|just|already|now)\s+)*` + setAsideVerbs + `\s+(?:(?:about|around|roughly|up\s+to)\s+)?(` + money + `)\s*$`)
	// reHomePlace: "I rent a small place in Providencia", "I'm in a proper studio in Montreuil now", "I'm based
	// in Riga", "we bought a cottage just outside Matlock": where the speaker lives, said with a home noun or a
	// state of being somewhere for good (a home near a town is named by the town).
	reHomePlace = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:(?:rent|own|have|share|bought|found|(?:am|are)\s+(?:now\s+)?in)\s+(?:a|an|the|our|my)\s+(?:[\w-]+\s+){0,3}(?:` + homeNounAlts + `)\s+(?:in|near|(?:just\s+)?outside)|(?:am|are)\s+(?:now\s+|currently\s+)?(?:based|living|settled)\s+in)\s+`)
	// reSpeakerInTown is the speaker being in a town (groups: an adverb before "in", the town, the rest); inPlace
	// reads whether it is where they live.
	reSpeakerInTown = regexp.MustCompile(`^(?:I|[Ww]e)\s+(?:am|are|have\s+been)\s+(?:(now|still|currently)\s+)?in\s+(\p{Lu}[\p{L}\p{M}'-]*(?:\s+\p{Lu}[\p{L}\p{M}'-]*)*)(.*)$`)
	// reFromNowOn is what after a town says being there holds from now on: "we're in Ñuñoa now", "we're in
	// Rotterdam as of this weekend", "here for good".
	reFromNowOn = regexp.MustCompile(`^\s+(?:now|these\s+days|as\s+of|for\s+good)\b`)
	// reStillRest is what may follow a town the speaker is still in when it is their home: nothing, a comma and
	// another clause, or an adverb ("I'm still in Bengaluru only", "still in Leeds, loving it"); "until
	// Friday" or "for the conference" make it a stay.
	reStillRest = regexp.MustCompile(`^(?:\s+(?:only|too|though|now|these\s+days))?\s*(?:[,;.!]|$)`)
	// reDatedEvent: "I have a dentist appointment on Tuesday at 9": an event of the speaker's and its date.
	reDatedEvent = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:have|'ve\s+got|have\s+got|got)\s+(?:a|an|my|our|the)\s+([\w-]+(?:\s+[\w-]+){0,2}?)\s+(?:on|at|this|next|for|in)\s`)
	// reDue: "My thesis is due on April 30", "the report is now due May 31".
	// reTheValue is "the N is VALUE": a definite common noun (lower case: "The Nile" is a name), a copula, then
	// a date ("on June 28") or an amount.
	reTheValue = regexp.MustCompile(`^(?:The|the)\s+(\p{Ll}[\pL\pM\pN_-]*(?:\s+\p{Ll}[\pL\pM\pN_-]*){0,2}?)(?:\s+(?:is|are|was|were|will\s+be)|\s*'s)\s+(?:(?:now|currently|still|officially|finally|actually|really|definitely)\s+)?(?:(?:scheduled|set|planned|booked|fixed|slated|pencilled|penciled)(?:\s+in)?\s+(?:for|on)\s+)?`)
	// reBareValue is reTheValue without its article, a time of the value ("for this year", "for 2024") allowed
	// before the copula: chat's "Broadband is £35 now" (group 1 the noun phrase, capitalized as the sentence's
	// first word).
	reBareValue = regexp.MustCompile(`^(\p{Lu}\p{Ll}[\pL\pM\pN_-]*(?:\s+\p{Ll}[\pL\pM\pN_-]*){0,2}?)(?:\s+for\s+(?:(?:19|20)\d\d|(?:this|next|the)\s+year))?\s+(?:is|are|was|were|will\s+be|'s)\s+(?:(?:now|currently|still|officially|finally)\s+)?`)
	// reMoneyStart is an amount of money first.
	reMoneyStart = regexp.MustCompile(`^(?:(?:about|around|roughly|over|under|almost|nearly)\s+)?` + money)
	// reAmountStart is an amount of money or a number first: "$3,100", "€58,500", "R$ 3.650", "1,200".
	reNameStart   = regexp.MustCompile(`^` + namePart)
	reDateStart   = regexp.MustCompile(`^(?i:` + monthRe + `|` + weekdayRe + `)\b`)
	reAmountStart = regexp.MustCompile(`^(?:(?:[` + currencySigns + `]|` + currencyLetters + `|[A-Z]{3}\s)?\s?\d|R\d{1,3},\d)`)
	reDue         = regexp.MustCompile(`(?i)^(?:my|our|the)\s+([\pL\pM\pN_-]+(?:\s+[\pL\pM\pN_-]+){0,2}?)\s+(?:is|was|are|'s)\s+(?:(?:now|currently|officially)\s+)?due\s+`)
	reMovedInto   = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:have\s+|had\s+)?(?:just\s+|recently\s+|finally\s+|now\s+)?moved\s+into\s+(?:a|an|the|my|our)\s+(?:[\pL-]+\s+){0,3}?(?:` + homeNounAlts + `)\s+(?:in|near)\s+`)
	// reMovedTo: "we moved to Leeds", "I've relocated back to Lyon", "we moved south to Bergen" (a particle or a
	// compass point says which way, not where).
	reMovedTo   = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:have\s+|had\s+)?(?:just\s+|recently\s+|finally\s+|now\s+)?(?:(?:moved|relocated)\s+(?:(?:back|over|down|up|across|out)\s+)?(?:(?:north|south|east|west)\s+)?to|moved\s+in\s+together\s+in)\s+`)
	reMovedFrom = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:just\s+|originally\s+)?(?:moved|came|immigrated|emigrated)\s+(?:here\s+|over\s+)?from\s+`)
	// reOfferTaken is an accepted job offer: "Eli got an offer from Amazon and took it", "I accepted an offer
	// from Stripe", "Mia took the job offer at Figma".
	reOfferTaken = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}[\p{L}\p{M}'-]*(?:\s+\p{Lu}\p{Ll}[\p{L}\p{M}'-]*)?)\s+(?:(?i:just|finally|recently|has|have|had)\s+)*(?:(?:got|received|had)\s+(?:a|an|the)\s+(?:[\w-]+\s+){0,2}offer\s+(?:from|at|with)\s+(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+\p{Lu}[\p{L}\p{M}&'.-]*)*)\s+and\s+(?:(?i:just|finally)\s+)?(?:took|accepted|signed)\s+it|(?:accepted|took|signed)\s+(?:a|an|the|their|its)\s+(?:[\w-]+\s+){0,2}offer\s+(?:from|at|with)\s+(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+\p{Lu}[\p{L}\p{M}&'.-]*)*))`)
	// reJobFor is a move or a departure for a job at an organization: "Luis relocated to Barcelona for a new
	// job at Glovo", "I left Deloitte for a position with PwC" — the job was taken. The organization may be
	// named in apposition to what it is ("for a job at a game studio, Remedy").
	reJobFor = regexp.MustCompile(`^(I|\p{Lu}\p{Ll}[\p{L}\p{M}'-]*(?:\s+\p{Lu}\p{Ll}[\p{L}\p{M}'-]*)?)\s+(?:(?i:just|finally|recently|has|have|had)\s+)*(?i:moved|relocated|left|quit)\s+[^,;]*?\b(?i:for\s+(?:a|an|the|his|her|my|their)\s+(?:new\s+|better\s+)?(?:job|position|role|post)\s+(?:at|with))\s+(?:(?i:a|an|the)\s+(?:[\p{Ll}-]+\s+){0,3}[\p{Ll}-]+,\s+)?(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+\p{Lu}[\p{L}\p{M}&'.-]*)*)`)
	reNewJob = regexp.MustCompile(`(?i)^I\s+(?:just\s+|finally\s+|recently\s+)?(?:got|landed|started|accepted|took|began|have|found)\s+(?:a|my|the|an)\s+(?:[\w-]+\s+){0,2}(?:job|position|role|gig|internship)\s+(?:at|with|in)\s+`)
	// reBackIn is a return said with being back: "I'm back in Chicago", "we're back home in Lyon", "I'm back up
	// north now, in Manchester" (a compass point with "up", "down" or "out" says which way, not where).
	reBackIn = regexp.MustCompile(`^(?:I|[Ww]e)\s+(?:am|are)\s+(?:now\s+)?back\s+(?:(?:up|down|out|over)\s+(?:north|south|east|west)\s+|home\s+)?(?:now\s*)?,?\s*(?:in|to)\s+(\p{Lu}[\p{L}\p{M}'-]*(?:\s+\p{Lu}[\p{L}\p{M}'-]*)*)`)
	reIsThe  = regexp.MustCompile(`(?i)^I\s+(?:am|have\s+been|was)\s+(?:now\s+|currently\s+|also\s+|still\s+)?the\s+(?:new\s+)?`)
	// reRolePronoun is a role's group named by a pronoun ("the DBA on it", "the lead for them").
	reRolePronoun = regexp.MustCompile(`(?i)\s+(?:on|of|for|at|in)\s+(?:it|them|that|this|there)$`)
	reIsA         = regexp.MustCompile(`(?i)^I\s+(?:am|have\s+been|was)\s+(?:now\s+|currently\s+|also\s+)?(?:a|an)\s+`)
	reBadIsA      = regexp.MustCompile(`(?i)^(?:bit|little|lot|huge|big|great|good|bad|real|total|way|fan|part|kind|sort|mess|wreck|fun)\b`)
	reSubjVerb    = regexp.MustCompile(`(?i)^(I|we)\b((?:\s+[a-z]+){1,8})`)
	reNamedVerb   = regexp.MustCompile(`^(\p{Lu}[\p{Ll}\p{M}]+(?:\s+\p{Lu}[\p{Ll}\p{M}]+){0,2})\s+((?:[a-z]+\s+){0,2}[a-z]+)\s+`)
)

// reBarePost is a post said without its article, then the unit it is held in or when it started, and nothing
// else: "charge nurse on the ward now", "Director of Product as of this week", "Head of Engineering since
// March" (groups: the post, the time it started from).
var reBarePost = regexp.MustCompile(`^((?:[\pL-]+\s+){0,3}?[\pL-]+(?:\s+(?i:of)\s+\p{Lu}[\pL-]*(?:\s+\p{Lu}[\pL-]*)?)?)` + workUnit + `(\s+(?i:now|these\s+days|nowadays|as\s+of\s+.+|since\s+.+|from\s+.+))?[\s.!]*$`)

// barePost returns the post said without its article (reBarePost) when it is one — an office, or a title in
// capitals whose words name one ("Director of Product") — or "", and whether a time after it says it started
// ("now", "since March").
func barePost(obj string) (string, bool) {
	// "Director of Product as": a time after "as of" read apart leaves its preposition behind.
	for _, dangling := range []string{" as of", " as", " since", " from"} {
		obj = strings.TrimSuffix(obj, dangling)
	}
	m := reBarePost.FindStringSubmatch(obj)
	if m == nil || strings.HasPrefix(strings.ToLower(m[1]), "the ") || inflectedVerb(strings.ToLower(strings.Fields(m[1])[0])) {
		return "", false
	}
	post := m[1]
	if post != strings.ToLower(post) && !nlp.Capitalized(post) {
		return "", false
	}
	if !postNoun(strings.ToLower(post)) {
		return "", false
	}
	return post, m[2] != ""
}

// reIsBare is "I am" before a post said without its article: "I'm now deputy head at Oakfield School".
var reIsBare = regexp.MustCompile(`(?i)^I\s+(?:am|have\s+been|was)\s+(?:now\s+|currently\s+|also\s+|still\s+)?`)

// inPlace reads the speaker being in a town as where they live when the clause says the state lasts: from now
// on ("we're in Ñuñoa now", a change), still ("I'm still in Bengaluru"), or for months or years ("I've been
// in Lisbon since 2019"). Being somewhere without such a word may be a visit ("I'm in Rome this week").
func inPlace(clause string) (spec, bool) {
	m := reSpeakerInTown.FindStringSubmatch(clause)
	if m == nil {
		return spec{}, false
	}
	adverb, town, rest := m[1], m[2], m[3]
	lives := spec{predicate: "lives in", object: town, confidence: confFirst}
	switch {
	case adverb == "now" || reFromNowOn.MatchString(rest):
		lives.change = true
		return lives, true
	case adverb != "" && reStillRest.MatchString(rest):
		return lives, true
	case durationRest(rest) && !strings.Contains(rest, "week"):
		return lives, true
	}
	return spec{}, false
}

// atAmount moves the end of a copula's match m past an "at" before an amount: "Broadband is at £35 now", "the
// house fund is at RM 58,000" say the value, as "is £35" does (a level reached), not a place.
func atAmount(clause string, m []int) []int {
	if m != nil && strings.HasPrefix(clause[m[1]:], "at ") && reAmountStart.MatchString(clause[m[1]+3:]) {
		m[1] += 3
	}
	return m
}

// namedDiet drops a diet said by a food eaten again ("eats fish") where the sentence names the diet itself: "I
// started eating fish again, so I guess I'm pescatarian now" is pescatarian.
func namedDiet(claims []extract.Claim) []extract.Claim {
	named := false
	for _, c := range claims {
		named = named || c.PredicateKey == "diet" && !strings.HasPrefix(c.Object, "eats ")
	}
	if !named {
		return claims
	}
	return slices.DeleteFunc(claims, func(c extract.Claim) bool { return c.PredicateKey == "diet" && strings.HasPrefix(c.Object, "eats ") })
}

// matchFirstPerson handles statements whose subject is the speaker ("I ...", "we ...", or none: "Lost my
// job yesterday").
func matchFirstPerson(clause string, dates []when, firstClause bool) (spec, bool) {
	objAfter := func(loc []int) string { return objectPhrase(clause[loc[1]:], dates, loc[1]) }
	if m := reAge.FindStringSubmatch(clause); m != nil {
		return spec{predicate: "age", object: m[1], confidence: confFirst}, true
	}
	if loc := reFan.FindStringIndex(clause); loc != nil {
		if obj := objAfter(loc); obj != "" {
			return spec{predicate: "likes", object: obj, confidence: confFirst}, true
		}
	}
	if m := reStatus.FindStringSubmatch(clause); m != nil {
		st := strings.ToLower(m[1])
		switch st {
		case "single", "divorced", "engaged", "married", "widowed":
			return spec{predicate: "relationship status", object: st, confidence: confFirst}, true
		case "retired", "unemployed":
			return spec{predicate: "job status", object: st, confidence: confFirst}, true
		}
		return spec{predicate: "is", object: st, confidence: confFirst}, true
	}
	if m := reDiet.FindStringSubmatch(clause); m != nil {
		return spec{predicate: "diet", object: strings.ToLower(m[1]), confidence: confFirst, definite: true}, true
	}
	if m := reEatsAgain.FindStringSubmatch(clause); m != nil {
		// The diet is now one that includes the food: its value says so ("eats meat").
		return spec{predicate: "diet", object: "eats " + strings.ToLower(m[1]), confidence: confFirst, definite: true}, true
	}
	if m := reEarn.FindStringSubmatch(clause); m != nil {
		return spec{predicate: "salary", object: m[1], confidence: confFirst}, true
	}
	if m := rePayRent.FindStringSubmatch(clause); m != nil {
		return spec{predicate: "rent", object: m[1], confidence: confFirst}, true
	}
	if m := reSetAside.FindStringSubmatch(clause); m != nil {
		// "We've set aside £15,000 for the wedding": the money kept for a thing is its budget.
		return spec{predicate: budgetOf(m[2]), object: m[1], confidence: confFirst, definite: true}, true
	}
	if m := reSetAsideFor.FindStringSubmatch(clause); m != nil {
		return spec{predicate: budgetOf(m[1]), object: m[2], confidence: confFirst, definite: true}, true
	}
	if loc := reHomePlace.FindStringIndex(clause); loc != nil {
		if obj := nameOnly(objAfter(loc)); obj != "" && properNoun(obj) {
			return spec{predicate: "lives in", object: obj, confidence: confFirst}, true
		}
	}
	if m := reBackIn.FindStringSubmatch(clause); m != nil {
		// "I'm back in Chicago": a return is a move.
		return spec{predicate: "lives in", object: m[1], confidence: confFirst, change: true}, true
	}
	if s, ok := inPlace(clause); ok {
		return s, true
	}
	if m := reDatedEvent.FindStringSubmatchIndex(clause); m != nil {
		if v := valuePhrase(clause[m[3]+1:], dates, m[3]+1); v != "" && dateAt(dates, m[3]+1) {
			return spec{predicate: strings.ToLower(clause[m[2]:m[3]]), object: v, confidence: confFirst, definite: true}, true
		}
	}
	if loc := reMovedTo.FindStringIndex(clause); loc != nil {
		if obj := nameOnly(objAfter(loc)); obj != "" {
			if bareCommonNoun(obj) {
				// "I moved to sales": a department, a shift or a kind of work, not a home (openie.go).
				return spec{predicate: "works in", object: obj, confidence: confFirst, change: true}, true
			}
			return spec{predicate: "lives in", object: obj, confidence: confFirst, change: true}, true
		}
	}
	if loc := reMovedInto.FindStringIndex(clause); loc != nil {
		// "We've moved into a flat in Leeds": the town of the new home is where one lives.
		if obj := nameOnly(objAfter(loc)); obj != "" && properNoun(obj) {
			return spec{predicate: "lives in", object: obj, confidence: confFirst, change: true}, true
		}
	}
	if loc := reMovedFrom.FindStringIndex(clause); loc != nil {
		if obj := objAfter(loc); obj != "" {
			return spec{predicate: "moved from", object: obj, confidence: confFirst}, true
		}
	}
	if loc := reNewJob.FindStringIndex(clause); loc != nil {
		if obj := objAfter(loc); obj != "" {
			if i := strings.Index(obj, " as "); i > 0 {
				// "a job at Paystack as a backend engineer": the employer; the role is read below.
				obj = obj[:i]
			}
			return spec{predicate: "works at", object: obj, confidence: confFirst, change: true}, true
		}
	}
	if loc := reIsA.FindStringIndex(clause); loc != nil {
		if rest := clause[loc[1]:]; !reBadIsA.MatchString(rest) {
			if obj := objAfter(loc); obj != "" {
				return isASpec(obj, confFirst), true
			}
		}
	}
	if loc := reIsThe.FindStringIndex(clause); loc != nil {
		// "I'm the treasurer of the chess club", "I'm the DBA on it", "I'm the team lead on billing": the one
		// who holds a role in a group is someone who works as it. Only a role noun qualifies ("I'm the one
		// who …", "I'm the reason …" name none), and a pronoun after its preposition says nothing of where.
		if obj := reRolePronoun.ReplaceAllString(objAfter(loc), ""); obj != "" && definiteRole(obj) {
			return spec{predicate: "works as", object: obj, key: "occupation", confidence: confFirst}, true
		}
	}
	if loc := reIsBare.FindStringIndex(clause); loc != nil {
		// "I'm now deputy head at Oakfield School", "I'm team lead at Monzo": a post and where it is held
		// (roleEmployers splits them), the post's article left out as it often is before a title.
		if obj := objAfter(loc); obj != "" && !reIndefinite.MatchString(obj) && !strings.HasPrefix(strings.ToLower(obj), "the ") {
			if m := reRoleAtLead.FindStringSubmatch(obj); m != nil && postNoun(m[1]) && !reStudentAt.MatchString(obj) {
				return spec{predicate: "works as", object: obj, key: "occupation", confidence: confFirst}, true
			}
			if ws := strings.Fields(obj); len(ws) <= 3 && obj == strings.ToLower(obj) && !inflectedVerb(ws[0]) && (postNoun(obj) || len(ws) == 1 && leaderNoun(obj)) {
				// "I'm chair now", "I'm head chef now": a post said without its article and where it is held.
				return spec{predicate: "works as", object: obj, key: "occupation", confidence: confFirst}, true
			}
			if post, started := barePost(obj); post != "" {
				return spec{predicate: "works as", object: post, key: "occupation", confidence: confFirst, change: started}, true
			}
		}
	}
	if m := reSubjVerb.FindStringSubmatchIndex(clause); m != nil {
		if s, ok := verbPhrase(clause, m[3], dates); ok {
			return s, true
		}
	}
	if firstClause {
		if s, ok := diaryClause(clause, dates); ok {
			return s, true
		}
	}
	return spec{}, false
}

// verbPhrase reads the verb group that starts at byte offset at (after the subject) and the object after it.
// It understands adverbs, "am/is VERB-ing", "have (been) VERB-ed", "will / going to / plan to VERB" (plans),
// "want to VERB", plain present and past tenses, and "have X" possession.
func verbPhrase(clause string, at int, dates []when) (spec, bool) {
	toks := tokenize(clause[at:], at)
	i := 0
	skipAdv := func() {
		for i < len(toks) && adverbs[toks[i].lower] {
			i++
		}
	}
	skipAdv()
	if i >= len(toks) {
		return spec{}, false
	}
	obj := func(from int) string {
		if from >= len(toks) {
			return ""
		}
		start := toks[from].start
		if from > 0 && toks[from].numbered {
			// "completed 40% of it": what stands between the words belongs to the object.
			start = toks[from-1].end
		}
		return objectPhrase(clause[start:], dates, start)
	}
	conf := confFirst
	switch w := toks[i].lower; {
	case w == "will" || (w == "am" || w == "are") && i+2 < len(toks) && (toks[i+1].lower == "going" || toks[i+1].lower == "planning" || toks[i+1].lower == "about") && toks[i+2].lower == "to":
		// Plans: "I will start", "I am going to start", "I am planning to start".
		j := i + 1
		if w != "will" {
			j = i + 3
		}
		for j < len(toks) && adverbs[toks[j].lower] {
			j++
		}
		if j < len(toks) {
			if b, ok := verbForms[toks[j].lower]; ok && b == toks[j].lower {
				if o := obj(j); o != "" {
					return spec{predicate: "plans to", object: o, confidence: conf}, true
				}
			}
		}
		if w == "will" {
			return spec{}, false
		}
		// "I am going to a conference": not a plan to do something but a place to go.
		return verbWithObject(toks, i+1, "go", "is going", obj, conf)
	case (w == "am" || w == "are" || w == "is") && i+2 < len(toks) && (toks[i+1].lower == "excited" || toks[i+1].lower == "stoked" || toks[i+1].lower == "thrilled" || toks[i+1].lower == "eager" || toks[i+1].lower == "ready") && toks[i+2].lower == "to":
		if o := obj(i + 3); o != "" {
			return spec{predicate: "plans to", object: o, confidence: conf}, true
		}
		return spec{}, false
	case (w == "plan" || w == "want" || w == "need" || w == "decided" || w == "intend" || w == "aim") && i+1 < len(toks) && toks[i+1].lower == "to":
		pred := map[string]string{"plan": "plans to", "want": "wants to", "need": "needs to", "decided": "decided to", "intend": "plans to", "aim": "plans to"}[w]
		if o := obj(i + 2); o != "" && !reTellYou.MatchString(o) {
			return spec{predicate: pred, object: o, confidence: conf}, true
		}
		return spec{}, false
	case (w == "was" || w == "were") && i+2 < len(toks) && (toks[i+1].lower == "going" || toks[i+1].lower == "planning" || toks[i+1].lower == "gonna") && (toks[i+2].lower == "to" || toks[i+1].lower == "gonna"):
		// "We were going to get a dog, but …": an intention said in the past is one that did not hold; it
		// is neither a plan now nor a place gone to.
		return spec{}, false
	case w == "am" || w == "are" || w == "was" || w == "were" || w == "is":
		past := w == "was" || w == "were"
		i++
		skipAdv()
		if i >= len(toks) {
			return spec{}, false
		}
		next := toks[i].lower
		switch {
		case strings.HasSuffix(next, "ing") && len(next) > 4:
			// Progressive: known verbs and unknown -ing words alike ("carving out", "teaming up").
			b := verbForms[next]
			if b == "" {
				b = strings.TrimSuffix(next, "ing")
			}
			return verbWithObject(toks, i, b, "is "+next, obj, conf)
		case (next == "a" || next == "an") && !toks[i].numbered:
			// (After an amount, "a" is "per": "Netflix is £10.99 a month" is a rate, not a class.)
			if i+1 < len(toks) && !reBadIsA.MatchString(toks[i+1].lower) {
				if o := obj(i + 1); o != "" {
					return isASpec(o, conf), true
				}
			}
		case next == "from":
			if o := obj(i + 1); o != "" {
				return spec{predicate: "from", object: o, confidence: conf}, true
			}
		case past && (next == "in" || next == "at"):
			if o := obj(i + 1); o != "" && properNoun(o) {
				return spec{predicate: "visited", object: o, confidence: conf}, true
			}
		}
		return spec{}, false
	case w == "have" || w == "has" || w == "had":
		j := i + 1
		for j < len(toks) && adverbs[toks[j].lower] {
			j++
		}
		if j+1 < len(toks) && toks[j].lower == "since" {
			// "I've since relocated to Lisbon": "since" before the participle is the adverb (after that time).
			if b, ok := verbBase(toks[j+1].lower); ok && (toks[j+1].lower != b || nlp.IsIrregularParticiple(b)) {
				j++
			}
		}
		if j < len(toks) && toks[j].lower == "been" {
			k := j + 1
			for k < len(toks) && adverbs[toks[k].lower] {
				k++
			}
			if k < len(toks) && toks[k].lower == "to" {
				if o := obj(k + 1); o != "" {
					return spec{predicate: "visited", object: o, confidence: conf}, true
				}
			}
			if k < len(toks) && strings.HasSuffix(toks[k].lower, "ing") {
				if b, ok := verbForms[toks[k].lower]; ok {
					return verbWithObject(toks, k, b, "has been "+toks[k].lower, obj, conf)
				}
			}
			return spec{}, false
		}
		if j < len(toks) && (toks[j].lower == "got" || toks[j].lower == "gotten") {
			if o := obj(j + 1); o != "" {
				return spec{predicate: "has", object: o, confidence: conf}, true
			}
		}
		if j < len(toks) {
			// A participle after "have" makes a perfect, also one spelt like its base ("I have read 11 books",
			// "I've quit smoking").
			if b, ok := verbBase(toks[j].lower); ok && (toks[j].lower != b || nlp.IsIrregularParticiple(b)) && b != "have" {
				return verbWithObject(toks, j, b, toks[j].lower, obj, conf)
			}
		}
		if w == "had" {
			if o := obj(i + 1); o != "" {
				return spec{predicate: "had", object: o, confidence: conf}, true
			}
			return spec{}, false
		}
		if o := obj(i + 1); o != "" && !reWeakObject.MatchString(o) {
			return spec{predicate: "has", object: o, confidence: conf}, true
		}
		return spec{}, false
	}
	if b, ok := verbBase(toks[i].lower); ok {
		pred := toks[i].lower
		if pred == b {
			// "I drive a Civic" states what "Raj drives a Civic" does: the relation is keyed in the third
			// person whoever says it (a bare "drive" or "run" is also a noun, and would key differently).
			pred = thirdPerson(b)
		}
		return verbWithObject(toks, i, b, pred, obj, conf)
	}
	if b, ok := taggedVerb(clause, toks[i]); ok {
		// "I support Juventus", "we commute by train": a verb the lexicon does not list, which the tagger
		// reads as the finite verb after the subject.
		pred := toks[i].lower
		if pred == b {
			pred = thirdPerson(b)
		}
		if s, ok := verbWithObject(toks, i, b, pred, obj, conf); ok && s.predicate != "did" {
			// (Intransitive, "we rock!", it says how things are going, not a relation: only the listed verbs
			// make a claim of the verb alone.)
			return s, true
		}
	}
	return spec{}, false
}

// inflectedVerb reports a form of a known verb other than its base ("made", "gone"): "I was made redundant"
// is a passive, not a post.
func inflectedVerb(w string) bool {
	b, ok := verbBase(w)
	return ok && b != strings.ToLower(w)
}

// reLetters is a word of letters only (no hyphen, apostrophe or digit).
var reLetters = regexp.MustCompile(`^\pL+$`)

// clauseVerbs are the verbs whose object is a clause or a reply, not a thing: "I reckon it's fine", "I bet
// you're right", "I hope so" say what the speaker thinks, not a relation (the verbs of thinking, saying and
// hoping that take a that-clause in English grammars).
var clauseVerbs = map[string]bool{"reckon": true, "bet": true, "hope": true, "guess": true, "suppose": true,
	"wonder": true, "doubt": true, "mean": true, "think": true, "believe": true, "know": true, "say": true,
	"suspect": true, "imagine": true, "assume": true, "promise": true, "swear": true, "feel": true, "admit": true,
	"agree": true, "expect": true, "gather": true, "hear": true, "notice": true, "realise": true, "realize": true,
	"remember": true, "forget": true, "understand": true, "see": true, "trust": true, "figure": true}

// taggedVerb returns the lemma of the word at tok when the tagger reads it as a finite verb (present or past)
// in the clause and it is not a verb of thinking or saying (clauseVerbs): the lexicon's verbs are common
// ones, and English has many more.
func taggedVerb(clause string, tok token) (string, bool) {
	if !reLetters.MatchString(tok.lower) || auxiliaries[tok.lower] || adverbs[tok.lower] {
		return "", false
	}
	toks := nlp.Analyze(clause)
	for i, t := range toks {
		if t.Lower != tok.lower {
			continue
		}
		if i+1 < len(toks) && toks[i+1].Lower == "forward" {
			// "I look forward to seeing it": a feeling about what is to come, not a relation.
			return "", false
		}
		switch t.Tag {
		case "VBP", "VBZ", "VBD":
			if clauseVerbs[t.Lemma] || t.Lemma == "" {
				return "", false
			}
			return t.Lemma, true
		}
		return "", false
	}
	return "", false
}

// reFromValueTo is the old value of an update said "from X to Y" (group 1 X).
var reFromValueTo = regexp.MustCompile(`\bfrom\s+([^,.;!?]+?)\s+to\s`)

// kinAttribute reports an attribute that is one of the speaker's family or partners: "my sister is in London"
// says where she is, not who she is.
func kinAttribute(attr string) bool {
	ws := strings.Fields(attr)
	if len(ws) == 0 {
		return false
	}
	_, kin := kinOf(ws[len(ws)-1])
	return kin
}

// reAttrInTown is a town named after an attribute: "rent in Bristol", "flat in Leith".
var reAttrInTown = regexp.MustCompile(`\s+(?:in|at)\s+\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)*$`)

// setAsideVerbs are the verbs of reserving an amount of money for a purpose.
const setAsideVerbs = `(?:set\s+aside|put\s+aside|budgeted|earmarked|allocated|saved\s+up)`

// budgetOf names the budget of a thing money was kept for, by the thing's noun without what follows it ("the
// trip to Japan" has the trip's budget).
func budgetOf(thing string) string {
	ws := strings.Fields(strings.ToLower(thing))
	for i, w := range ws {
		if i > 0 && thingWords[w] || w == "to" {
			ws = ws[:i]
			break
		}
	}
	return strings.Join(ws, " ") + " budget"
}

// reHomeAtPlace is a home described and the town it is in or near: "a two-bed terrace in Derby", "a cottage
// just outside Matlock" (group 1 the town).
var reHomeAtPlace = regexp.MustCompile(`^(?i:a|an|the|my|our)\s+(?:[\pL\d-]+\s+){0,3}?(?i:` + homeNounAlts + `)\s+(?i:in|near|(?:just\s+)?outside)\s+(` + placeWords + `)$`)

// contactKeys are the keys of the ways to reach someone that English names without saying which way ("my new
// address", "my contact details"); an e-mail address as the value says which.
var contactKeys = map[string]bool{"address": true, "contact": true, "contact_details": true, "details": true,
	"contact_address": true}

// rePlaceAdverb is a trailing adverb of place: "there", "here", "over there", "out here", and "at work" ("my
// manager at work" is the speaker's manager: work is where the manager is met, not which one).
var rePlaceAdverb = regexp.MustCompile(`(?i)(?:(?:\s+(?:over|out|back|down|up|in))?\s+(?:there|here)|\s+at\s+work)$`)

// reBareAge is a number of years in digits ("7", "30").
var reBareAge = regexp.MustCompile(`^\d{1,3}$`)

// reModifiedHead is an object of one modifier and a head noun: "a keto diet", "the night shift".
var reModifiedHead = regexp.MustCompile(`^(?i:an?|the)\s+([\pL-]+)\s+([\pL-]+)$`)

// switchKeys are the relation keys of taking up a new value of something: switching, changing or going over
// to it, going on it.
var switchKeys = map[string]bool{"switched_to": true, "switches_to": true, "changed_to": true, "changes_to": true,
	"went_on": true, "goes_on": true, "switched_over_to": true, "converted_to": true}

// genericModifiers say how the new value compares with the old, not what it is ("a new diet", "a better
// phone").
var genericModifiers = map[string]bool{"new": true, "different": true, "better": true, "worse": true, "another": true,
	"bigger": true, "smaller": true, "cheaper": true, "other": true, "strict": true, "stricter": true, "healthier": true}

// reKindNamed is an indefinite noun phrase that names its referent: "a startup called Nimbus", "a small firm
// named Orr & Co".
var reKindNamed = regexp.MustCompile(`^(?:(?i:an?)\s+(?:[\pL-]+\s+){1,3}?|(?i:someone|somebody)\s+)(?i:called|named)\s+(\p{Lu}.*)$`)

// reIndefinite is a leading indefinite article.
var reIndefinite = regexp.MustCompile(`^(?i:an?)\s+`)

// pronounObject are objects that only point back at something said before.
var pronounObject = map[string]bool{"it": true, "this": true, "that": true, "them": true, "him": true, "her": true,
	"one": true, "these": true, "those": true, "so": true, "too": true, "you": true, "it all": true, "them all": true,
	"that one": true, "this one": true, "all": true, "everything": true, "something": true,
	// Adverbs that close a clause of chat, where a verb's object would stand: "Same dates though".
	"though": true, "either": true, "anyway": true, "apparently": true}

// reTellYou matches objects that only announce talk ("wanted to tell you about ...").
var reTellYou = regexp.MustCompile(`(?i)^(?:tell|say|let|share|ask|thank|show|update)\b`)

// verbWithObject builds the claim of a verb at toks[i] (base b, surface pred), taking a particle into the
// predicate ("went to", "signed up for") and the object after it.
func verbWithObject(toks []token, i int, b, pred string, obj func(int) string, conf float64) (spec, bool) {
	verb := pred
	j := i + 1
	if b == "get" && j+1 < len(toks) && toks[j].lower == "rid" && toks[j+1].lower == "of" {
		// "got rid of the Skoda": the idiom's adjective belongs to the verb, as a particle does ("gave up").
		pred += " rid"
		j++
	}
	if j+1 < len(toks) && particles[toks[j+1].lower] && !particles[toks[j].lower] && !toks[j].gap && mannerAdverb(toks[j].lower) {
		// "I work remotely for Spotify", "I work part-time at Tesco": an adverb of manner before the
		// particle says how, not what.
		i, j = i+1, j+1
	}
	// A particle follows the verb directly: "completed 40% of it" has none.
	for j < len(toks) && (particles[toks[j].lower] || toks[j].lower == "as" && workVerbs[b]) && !toks[j].gap && j-i <= 2 {
		pred += " " + toks[j].lower
		j++
	}
	switch b {
	case "live":
		if strings.HasSuffix(pred, " in") {
			pred = "lives in"
		}
	case "work":
		switch {
		case strings.HasSuffix(pred, " at"):
			pred = "works at"
		case strings.HasSuffix(pred, " for"):
			pred = "works for"
		}
	case "love", "like", "enjoy", "adore":
		if !strings.HasSuffix(pred, "ing") {
			pred = map[string]string{"love": "loves", "like": "likes", "enjoy": "enjoys", "adore": "loves"}[b]
		}
	}
	o := obj(j)
	switch b {
	case "live", "stay", "move", "relocate", "rent", "settle", "go", "head", "travel", "fly":
		// "I live in Portland with my two cats": the companions are not part of the place; "moved to Kraków
		// for a job", "we're going to Venice for our anniversary": a place named is the name alone.
		if i := strings.Index(o, " with "); i > 0 {
			o = o[:i]
		}
		o = nameOnly(o)
	case "work":
		if pred == "works at" || pred == "works for" {
			// "I work at Deloitte in Chicago": the employer is the name; "at a clinic as a nurse": the role
			// after "as" is the occupation's (roleEmployers).
			if i := strings.Index(o, " as "); i > 0 {
				o = o[:i]
			}
			o = nameOnly(o)
		}
	}
	if (b == "join" && pred == "joined" || b == "sign" && pred == "signed with" || b == "start" && strings.HasSuffix(pred, " at") && nlp.Capitalized(o)) && properNoun(o) {
		// "I joined Spotify in May", "I signed with Deloitte as a consultant", "I start at Lloyds on Monday":
		// joining an organization, signing on or starting with one (a name: "start at 9am" is a time), is where
		// one works from then on, as it is for anyone else ("Emma joined Anthropic", changeVerbs in openie.go).
		// A role after "as" is the occupation's (roleEmployers).
		if i := strings.Index(o, " as "); i > 0 {
			o = strings.TrimSpace(o[:i])
		}
		return spec{predicate: "works at", object: o, confidence: conf, change: true}, true
	}
	if b == "weigh" && reAmountStart.MatchString(o) {
		// "I weigh 82 kg now": the speaker's weight.
		return spec{predicate: "weight", object: o, confidence: conf, change: true}, true
	}
	if b == "become" && pred != "become" && reIndefinite.MatchString(o) && occupationNoun(o) {
		// "I became a paramedic (with Boston EMS)": a copula of change names the occupation from now on, as
		// "I am a nurse" does the current one.
		s := isASpec(reIndefinite.ReplaceAllString(o, ""), conf)
		s.change = true
		return s, true
	}
	if strings.HasSuffix(pred, " to") && reTellYou.MatchString(o) {
		return spec{}, false
	}
	if pronounObject[strings.ToLower(o)] {
		// "I love it": the claim would not say what.
		return spec{}, false
	}
	if strings.HasSuffix(pred, " as") {
		// "I work as an accountant at a shipping company", "I've been freelancing as a web developer": a verb
		// of work with "as" and a person noun of work names the speaker's occupation.
		if m := reAsRole.FindStringSubmatch("as " + o); m != nil && occupationNoun(m[1]) && workVerbs[b] {
			return spec{predicate: "works as", object: m[1], key: "occupation", confidence: conf}, true
		}
	}
	if o == "" {
		// Intransitive: "I retired", "we won". The verb is the claim.
		if j < len(toks) && !particles[toks[j].lower] {
			return spec{}, false
		}
		o = verb
		pred = "did"
	}
	return spec{predicate: pred, object: o, confidence: conf}, true
}

// diaryClause handles first-person clauses without a subject ("Lost my job as a banker yesterday",
// "Going to start a business", "Just finished a painting").
func diaryClause(clause string, dates []when) (spec, bool) {
	toks := tokenize(clause, 0)
	i := 0
	for i < len(toks) && (adverbs[toks[i].lower] || isDateWord(toks[i].lower)) {
		i++
	}
	if i >= len(toks) {
		return spec{}, false
	}
	w := toks[i].lower
	if w == "been" && i+1 < len(toks) && strings.HasSuffix(toks[i+1].lower, "ing") {
		// "Been working on some projects": "I have been working ...".
		s, ok := verbPhrase("I have "+clause[toks[i].start:], 1, shiftDates(dates, toks[i].start, -7))
		s.prefix = "I have "
		return s, ok
	}
	if w == "going" && i+1 < len(toks) && toks[i+1].lower == "to" {
		s, ok := verbPhrase("I am "+clause[toks[i].start:], 1, shiftDates(dates, toks[i].start, -5))
		s.prefix = "I am "
		return s, ok
	}
	if strings.HasSuffix(w, "ing") && len(w) > 4 {
		// "Mostly just chilling at home": an ongoing activity of the speaker. Chat strings such phrases with
		// commas or "and" ("Still living in Bristol, still at the same job, just a new chapter"): the first one
		// is read when the whole is too long to be one.
		end := len(toks)
		if end > 8 {
			for k := i + 1; k < len(toks); k++ {
				if toks[k].lower == "and" || toks[k].lower == "but" || toks[k].gap && strings.TrimSpace(clause[toks[k-1].end:toks[k].start]) == "," {
					end = k
					break
				}
			}
		}
		if end <= 8 && !hasFiniteVerb(toks[i+1:end]) {
			phrase := clause[toks[i].start:]
			if end < len(toks) {
				phrase = clause[toks[i].start:toks[end-1].end]
			}
			s, ok := verbPhrase("I am "+phrase, 1, shiftDates(dates, toks[i].start, -5))
			s.prefix = "I am "
			return s, ok
		}
	}
	if _, past := irregular[w]; past || (strings.HasSuffix(w, "ed") && !nonVerbsEd[w]) {
		if _, ok := verbBase(w); ok && w != "had" && pastVerb(w) {
			s, ok := verbPhrase("I "+clause[toks[i].start:], 1, shiftDates(dates, toks[i].start, -2))
			s.prefix = "I "
			return s, ok
		}
	}
	return spec{}, false
}

// endsInHolderName reports an attribute phrase that ends in the name of its holder ("sister Amelia" in "my sister
// Amelia is a nurse"): the clause is about the person named, not about the speaker's attribute.
func endsInHolderName(attr string) bool {
	ws := strings.Fields(attr)
	return len(ws) >= 2 && nlp.Capitalized(ws[len(ws)-1]) && roleHead(strings.ToLower(strings.Join(ws[:len(ws)-1], " ")))
}

// reMyPerson is a clause whose subject is someone the speaker names only by role: "my sister", "our
// landlord", "my older brother" (a role of one or two words: groups 1 and 2), with what follows (group 3).
var reMyPerson = regexp.MustCompile(`^(?i:my|our)\s+([a-z-]+)\s+(?:([a-z-]+)\s+)?(.+)$`)

// reNamedAge is a name and the copula after it ("Mochi is 3 …"): group 1 the name, group 2 from the copula on.
var reNamedAge = regexp.MustCompile(`^(\p{Lu}[\pL\pM'-]+(?:\s+\p{Lu}[\pL\pM'-]+)?)\s+((?:is|'s)\s.*)$`)

// reAgeComplement is a copula before a number of years: "is 12", "is now 7 years old", "is 3 and very
// spoiled" (a second predicate after "and" says something else of the holder).
var reAgeComplement = regexp.MustCompile(`^(?:is|'s)\s+(?:(?:now|just|only|already)\s+)?(\d{1,3}|` + ageWords + `)(?:\s+(?:years?\s+old|months?\s+old))?(?:\s+and\s+[^,]*)?[.!]?$`)

// reNameAge is a name, a copula and a number of years: "Ellie is nine", "Tom is now 34 years old" (groups: the
// name, the number, "years old" when said).
var reNameAge = regexp.MustCompile(`^(\p{Lu}\p{Ll}+)\s+(?:is|'s)\s+(?:(?:now|just|only|already)\s+)?(\d{1,3}|` + ageWords + `)(\s+years?\s+old)?[.!]?$`)

// ageWords are the English numbers of years written as words, one to ninety-nine ("she's nine").
const ageWords = `(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)`

// participleAfterCopula reports words after a copula that start, perhaps after adverbs, with a verb's past
// participle and a preposition: "promoted to team lead", "now married to Raj", "transferred to Leeds" — a
// passive, not a noun phrase naming who someone is.
func participleAfterCopula(ws []string) bool {
	for i, w := range ws {
		if adverbs[w] {
			continue
		}
		next := i + 1
		for next < len(ws) && movementParticles[ws[next]] {
			// "has moved back home to Cork": a particle between the participle and its preposition.
			next++
		}
		if next >= len(ws) || !speakerPreps[ws[next]] && ws[next] != "with" && ws[next] != "as" {
			return false
		}
		b, ok := verbBase(w)
		return ok && b != w && !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "s") && pastVerb(w)
	}
	return false
}

// movementParticles are the adverbs of direction a verb of motion takes before its preposition: "moved back
// home to Cork", "went over to Dublin".
var movementParticles = map[string]bool{"back": true, "home": true, "over": true, "away": true, "out": true, "up": true, "down": true, "across": true}

// befallsOrIsSomewhere reports what follows a copula said of a person when it is what befell them or where they
// are, not who they are: a passive ("promoted to team lead") or a place (reWhereabouts: "still in Leeds").
func befallsOrIsSomewhere(afterCopula string) bool {
	return participleAfterCopula(strings.Fields(strings.ToLower(afterCopula))) || reWhereabouts.MatchString("is "+afterCopula)
}

// reWhereabouts is a copula before where someone is or comes from: "is in Leeds", "'s still at Deloitte", "is
// now based in Oslo", "is from Porto" (a name after the preposition: "is in a meeting" is no place).
var reWhereabouts = regexp.MustCompile(`^(?:is|was|'s)\s+(?:(?:now|still|currently|also|back|already)\s+)*(?:(?:based|living|settled)\s+)?(?:in|at|from)\s+\p{Lu}`)

// reIndefiniteComplement is a copula before an indefinite noun phrase: "is a nurse", "was an architect".
var reIndefiniteComplement = regexp.MustCompile(`^(?:is|was|'s)\s+(?:(?:now|still|also|currently)\s+)?(?:a|an)\s`)

// relativeSubject reads the clause of someone the speaker names only by their role ("My sister works at
// Google", "Our landlord moved to Spain", "My brother is a nurse") as a statement about the speaker's role
// holder ("Kim's sister"), as if said in the third person: their values are theirs, not the speaker's, and a
// later statement about "my sister" supersedes them. A name after the role ("my sister Emma") is read by
// matchKinship; "my boss is Priya" and "my sister is called Emma" name the holder (matchPossessive).
func relativeSubject(speaker, clause string, dates []when) []spec {
	m := reMyPerson.FindStringSubmatchIndex(clause)
	if m == nil || speaker == "" {
		return nil
	}
	var role, rest string
	switch {
	case m[4] >= 0 && roleHead(strings.ToLower(clause[m[4]:m[5]])) && roleHead(strings.ToLower(clause[m[2]:m[5]])):
		// "my older brother", "my line manager": the head is the second word.
		role, rest = strings.ToLower(clause[m[2]:m[5]]), clause[m[6]:m[7]]
	case roleHead(strings.ToLower(clause[m[2]:m[3]])):
		role, rest = strings.ToLower(clause[m[2]:m[3]]), strings.TrimSpace(clause[m[3]:])
	default:
		return nil
	}
	if nlp.Capitalized(strings.Fields(rest)[0]) || strings.HasPrefix(rest, "'s ") {
		return nil
	}
	prefix := speaker + "'s "
	if m := reAgeComplement.FindStringSubmatch(rest); m != nil {
		// "My son is 12": the holder's age.
		return []spec{{subject: prefix + role, predicate: "age", object: m[1], confidence: confRelation, change: true}}
	}
	if ws := strings.Fields(strings.ToLower(rest)); (ws[0] == "is" || ws[0] == "was" || ws[0] == "'s") && !reIndefiniteComplement.MatchString(rest) &&
		!(len(ws) > 1 && strings.HasSuffix(ws[1], "ing")) && !befallsOrIsSomewhere(strings.TrimSpace(rest[len(ws[0]):])) {
		// (A progressive or a passive is a verb's: "my sister is moving to Oslo", "is getting married to Raj",
		// "my husband was promoted to team lead".)
		return nil
	}
	if loc := reIndefiniteComplement.FindStringIndex(rest); loc != nil {
		// "My brother is a nurse": the holder's occupation (not who the speaker's brother is).
		if obj := objectPhrase(rest[loc[1]:], nil, 0); occupationNoun(obj) {
			return []spec{{subject: prefix + role, predicate: "works as", object: obj, key: "occupation", confidence: confRelation}}
		}
		return nil
	}
	ts := openIE(prefix+clause[m[2]:], shiftDates(dates, m[2], -len(prefix)), false, false)
	var out []spec
	for _, t := range ts {
		if canon.SubjectKey(t.subject) == canon.SubjectKey(prefix+role) {
			out = append(out, t.spec(false))
		}
	}
	return out
}

// pastVerb reports whether w, spelt like a verb's past, is one the lexicon knows: "Ahmed and his wife moved"
// starts with a name, not with a diary clause's verb.
func pastVerb(w string) bool {
	_, listed := verbForms[w]
	return listed || nlp.VerbLemma(w) != w
}

// hasFiniteVerb reports a copula or third-person verb among toks ("Playing games helps me" has one).
func hasFiniteVerb(toks []token) bool {
	for _, t := range toks {
		switch t.lower {
		case "is", "are", "was", "were", "has", "have", "had", "does", "do", "did":
			return true
		}
		if b, ok := verbForms[t.lower]; ok && b != t.lower && strings.HasSuffix(t.lower, "s") {
			return true
		}
	}
	return false
}

// shiftDates re-bases date spans when a clause is re-read with a prefix: newStart = start - from + len(prefix).
func shiftDates(ds []when, from, delta int) []when {
	out := make([]when, 0, len(ds))
	for _, d := range ds {
		if d.start < from {
			continue
		}
		d.start = d.start - from - delta
		d.end = d.end - from - delta
		out = append(out, d)
	}
	return out
}

func isDateWord(w string) bool {
	switch w {
	case "yesterday", "today", "tonight", "last", "this", "past", "week", "weekend", "month", "year", "night",
		"morning", "afternoon", "evening", "recently", "lately":
		return true
	}
	return false
}

// matchNamed handles "Samantha loves theater", "John retired": a named third party and a verb.
func matchNamed(clause string, dates []when) (spec, bool) {
	if name, at := appositiveName(clause); name != "" {
		// "Charles Frederick, Duke of Holstein-Gottorp, married …": the title belongs to the name.
		s, ok := verbPhrase(clause, at, dates)
		if !ok {
			return spec{}, false
		}
		s.subject = name
		s.confidence = confNamed
		return s, true
	}
	m := reNamedVerb.FindStringSubmatchIndex(clause)
	if m == nil {
		return spec{}, false
	}
	name := clause[m[2]:m[3]]
	lead := strings.ToLower(strings.Fields(name)[0])
	if notNames[lead] || filler[lead] || adverbs[lead] && len(strings.Fields(name)) == 1 {
		// "Still living in Bristol and …": an adverb capitalized at the start of a subjectless clause.
		return spec{}, false
	}
	if _, isVerb := verbBase(lead); isVerb || lead == "been" {
		// "Been working on ...", "Loved it": a verb, not a name.
		return spec{}, false
	}
	verbAt := m[4]
	for _, t := range tokenize(clause[m[4]:], m[4]) {
		// "Tom just moved": the verb is the first word that is not an adverb.
		if !adverbs[t.lower] {
			verbAt = t.start
			break
		}
	}
	first := strings.ToLower(strings.Fields(clause[verbAt:])[0])
	b, ok := verbBase(first)
	if !ok || b == first {
		// A base form after a name is an imperative or a greeting ("Thanks Mel", "Mel, look").
		if first != "is" && first != "was" && first != "has" {
			return spec{}, false
		}
	}
	s, ok := verbPhrase(clause, m[4]-1, dates)
	if !ok {
		return spec{}, false
	}
	s.subject = name
	s.confidence = confNamed
	return s, true
}

var (
	reKin = regexp.MustCompile(`\b(?i:my|our)\s+(?i:(?:little|big|older|younger|best|old|new|dear|late|eldest|youngest|oldest)\s+)?(?i:(?:two|three|four|five|six|\d{1,2})\s+)?((?i)[\p{L}-]+?)(?:s|'s)?,?\s+(?i:named\s+|called\s+)?(\p{Lu}[\p{Ll}\p{M}]+(?:\s+\p{Lu}[\p{Ll}\p{M}]+)?)(?:[^\pL\pM\pN]|$)`)
	// reKinMore continues a kinship apposition with more names: "my two cats, Miso and Tofu".
	reKinMore = regexp.MustCompile(`^(?:\s*,\s*|,?\s+and\s+)(\p{Lu}[\p{Ll}\p{M}]+)(?:[^\pL\pM\pN]|$)`)
	reKinLead = regexp.MustCompile(`^(?i:my|our)\s+(?:[\p{L}-]+\s+)?[\p{L}-]+,?\s+(\p{Lu}[\p{Ll}\p{M}]+\s)`)
	// reLeadIn finds the speaker as subject after leading adverbs or a short leading phrase ending in a comma.
	reLeadIn = regexp.MustCompile(`^(?:(?:(?i:now|then|so|lately|recently|also|today|tonight|anyway|luckily|finally|honestly|actually|basically|still|plus|besides)[,\s]+)+|(?i:after|before|since|when|while|during|once|in|on|at|with|for|from|over|as|because of|thanks to)\b[^,]{1,60},\s+|(?i:after|before|since|during)\s+(?i:the|a|an|my|our|this|that|last)\s+[a-z-]+(?:\s+[a-z-]+)?\s+|(?i:for|after|before|during|since)\s+(?i:my|our)\s+[^,]{1,50}?\s)((?:I|we)\s|I'm\s|(?i:we're)\s)`)
	// reFrontedPhrase is a prepositional phrase fronted without a comma before the speaker as subject ("For the
	// school fair I ordered …", "On weekends I work …"): a capital "I" or a "we" after the phrase starts the
	// clause. It is read only in a clause without a later comma, where "In the city I live in, rents are high"
	// would take the phrase's relative clause for the statement.
	reFrontedPhrase = regexp.MustCompile(`^(?i:for|after|before|during|since|on|at|in|over|by|with|from|through)\s+[^,]{1,50}?\s((?:I|we)\s|I'm\s|(?i:we're)\s)[^,]*$`)
	reFave          = regexp.MustCompile(`^(.{1,60}?)\s+(?:is|was|are|'s|(?:has|have)\s+(?:now\s+)?become|became)\s+(?:definitely\s+|totally\s+|really\s+|still\s+|now\s+)?(?i:my|our)\s+(?:all-time\s+|absolute\s+|top\s+)?(?i:fave|favou?rite)(?:\s+([a-z][a-z\s-]{1,25}?))?(?:\s+(?:lately|now|these\s+days|nowadays|recently|this\s+year))?(?:\s*,.*)?$`)
	// reTrailingName is a name at the end of a phrase ("My brother Eli", "Samantha"): capitalized words with
	// lower-case letters ("GF" is no name).
	reTrailingName = regexp.MustCompile(`\p{Lu}\p{Ll}[\p{L}\p{M}'-]*(?:\s+\p{Lu}\p{Ll}[\p{L}\p{M}'-]*)*$`)
	reCompound     = regexp.MustCompile(`^` + compoundPartner + `\s+and\s+(I|we)\b`)
)

// sharedStates are the relations that a subject "X and I" states of both: where one lives, works or studies,
// was born, and one's citizenship and memberships. Relations between the two ("Tom and I got married") and
// what they did together are not listed.
var sharedStates = map[string]bool{"lives_in": true, "works_at": true, "works_in": true, "educated_at": true,
	"school": true, "born_in": true, "citizen_of": true, "member_of": true, "team": true}

// matchMyFavourite handles "Blue's my fave", "Star Wars is my favorite movie".
func matchMyFavourite(clause string, dates []when) (spec, bool) {
	m := reFave.FindStringSubmatch(clause)
	if m == nil {
		return spec{}, false
	}
	obj := cleanNP(m[1])
	if obj == "" || pronounObject[strings.ToLower(obj)] || subjectPronouns[strings.ToLower(obj)] {
		return spec{}, false
	}
	pred := "favourite"
	if what := strings.TrimSpace(m[2]); what != "" {
		pred += " " + what
	}
	return spec{predicate: pred, object: obj, confidence: confFirst}, true
}

// reNameEnds is what may follow a name given as a complement: the clause's end, a punctuation mark or "and".
var reNameEnds = regexp.MustCompile(`^\s*(?:$|[,.!?;:)]|(?i:and|but)\b)`)

// reClauseOpens is what may come before a clause's subject: nothing, a punctuation mark or a conjunction.
var reClauseOpens = regexp.MustCompile(`(?:^|[,;:.!?]|\b(?i:and|but|so|because|oh|well))\s*$`)

// ownedByKin reports a reKin match (loc) whose kinship noun is a possessive and whose "name" is a thing the
// relative owns: "driving my dad's Honda Civic for now", "my sister's Toyota Corolla is red". "My wife's
// Sarah" ("'s" as "is") has the kinship noun as its clause's subject and the name as the complement, which
// nothing but the clause's end, a punctuation mark or a conjunction follows.
func ownedByKin(clause string, loc []int) bool {
	if !strings.HasPrefix(clause[loc[3]:], "'s") {
		return false
	}
	return !reClauseOpens.MatchString(clause[:loc[0]]) || !reNameEnds.MatchString(clause[loc[5]:])
}

// matchKinship finds "my sister Anna" / "my dog named Max" anywhere in a clause.
func matchKinship(clause, speaker string) []spec {
	var out []spec
	for _, loc := range reKin.FindAllStringSubmatchIndex(clause, -1) {
		role, ok := kinOf(strings.ToLower(clause[loc[2]:loc[3]]))
		names := []string{clause[loc[4]:loc[5]]}
		if !ok || notNames[strings.ToLower(strings.Fields(names[0])[0])] || ownedByKin(clause, loc) {
			continue
		}
		// "my two cats, Miso and Tofu": every name of the apposition.
		for rest := clause[loc[5]:]; ; {
			m := reKinMore.FindStringSubmatchIndex(rest)
			if m == nil || notNames[strings.ToLower(rest[m[2]:m[3]])] {
				break
			}
			names = append(names, rest[m[2]:m[3]])
			rest = rest[m[3]:]
		}
		owner := speaker + "'s"
		if strings.HasSuffix(speaker, "s") {
			owner = speaker + "'"
		}
		kind := breedPhrase(strings.ToLower(clause[loc[2]:loc[3]]), role)
		for _, name := range names {
			out = append(out, spec{predicate: role, object: name, text: sentence(owner + " " + role + " is " + name + kind), confidence: confKinship})
		}
	}
	return out
}

type token struct {
	lower      string
	start, end int
	// gap is set when more than spaces separate the token from the one before it (", ", " 40% "); numbered
	// when that includes a number or amount ("completed 40% of it").
	gap, numbered bool
}

// reWord matches a word in any script ("Łódź", "Ñuñoa"), so no letter outside ASCII cuts a name.
var reWord = regexp.MustCompile(`\p{L}[\p{L}\p{M}'-]*`)

// tokenize returns the words of s with their byte offsets shifted by base.
func tokenize(s string, base int) []token {
	locs := reWord.FindAllStringIndex(s, -1)
	out := make([]token, len(locs))
	for i, l := range locs {
		out[i] = token{lower: strings.ToLower(s[l[0]:l[1]]), start: base + l[0], end: base + l[1]}
		if i > 0 {
			between := strings.TrimSpace(s[locs[i-1][1]:l[0]])
			out[i].gap = between != ""
			out[i].numbered = strings.ContainsAny(between, "0123456789$€£")
		}
	}
	return out
}

// isASpec is the claim of "I am a/an N": the speaker's occupation when N is a person noun of work ("a nurse",
// "a senior product designer at Figma"), else class membership ("is a").
func isASpec(object string, conf float64) spec {
	if m := reLanguageSpeaker.FindStringSubmatch(object); m != nil {
		// "an English speaker", "a native Spanish speaker": a speaker of a language speaks it; it is no
		// occupation.
		return spec{predicate: "speaks", object: m[1], key: "speaks", confidence: conf}
	}
	if occupationNoun(object) {
		return spec{predicate: "works as", object: object, key: "occupation", confidence: conf}
	}
	return spec{predicate: "is a", object: object, confidence: conf}
}

// definiteRole reports a role said with "the": an occupation noun ("treasurer", "head nurse"), an initialism
// of one ("DBA", "CTO": two to five capitals), or a noun English uses for who leads a group ("team lead",
// "head of sales", "captain"), before any preposition.
func definiteRole(np string) bool {
	if occupationNoun(np) {
		return true
	}
	head := ""
	for _, w := range strings.Fields(np) {
		if rolePrepositions[strings.ToLower(w)] {
			break
		}
		head = w
	}
	if n := len(head); n >= 2 && n <= 5 && strings.ToUpper(head) == head && strings.IndexFunc(head, unicode.IsLetter) == 0 {
		return true
	}
	switch strings.ToLower(head) {
	case "lead", "head", "captain", "chair", "owner", "boss", "president", "coordinator":
		return true
	}
	return false
}

// rolePrepositions end a role's noun phrase ("lead on billing", "head of sales").
var rolePrepositions = map[string]bool{"at": true, "in": true, "for": true, "with": true, "on": true, "from": true, "of": true}

// reLanguageSpeaker is "(a|an) [adjectives] Language speaker": the language is the capitalized word before
// "speaker".
var reLanguageSpeaker = regexp.MustCompile(`^(?i:an?\s+)?(?:[\p{Ll}-]+\s+)*(\p{Lu}[\p{L}-]*)\s+(?i:speaker)$`)

// occupationNoun reports a noun phrase whose head names a person by the work they do: English forms such nouns
// with the agent suffixes -er, -or, -ist, -ian, -ant, -ent ("designer", "translator", "scientist",
// "librarian", "accountant", "student"); kinship nouns ("mother", "brother") and comparison words are not
// occupations. The head is the last word before a preposition ("a designer at Figma").
func occupationNoun(np string) bool {
	ws := strings.Fields(strings.ToLower(np))
	head, grade := "", ""
	for _, w := range ws {
		w = strings.Trim(w, ".,;:!?\"'()")
		switch w {
		case "at", "in", "for", "with", "on", "from", "of", "who", "that", "and", "but", "so":
			return head != "" && (agentSuffix(head) || gradedPosts[head] && rankModifiers[grade])
		}
		grade, head = head, w
	}
	return head != "" && (agentSuffix(head) || gradedPosts[head] && rankModifiers[grade])
}

// gradedPosts are nouns that name a post only with a grade before them (rankModifiers): "a senior associate", "a
// junior partner", "a research fellow" are posts; "an associate", "my partner", "a fellow" are first a companion,
// a spouse, a man.
var gradedPosts = map[string]bool{"associate": true, "partner": true, "fellow": true, "counsel": true}

// rankModifiers are the words of English job titles that give a post's grade: "senior associate", "junior
// partner", "managing partner", "research fellow", "general counsel".
var rankModifiers = map[string]bool{"senior": true, "junior": true, "principal": true, "managing": true,
	"associate": true, "equity": true, "founding": true, "research": true, "teaching": true, "general": true,
	"legal": true}

func agentSuffix(w string) bool {
	if i := strings.LastIndex(w, "-"); i > 0 && i < len(w)-1 && agentSuffix(w[i+1:]) {
		// "sous-chef", "co-founder": a compound's head.
		return true
	}
	// Common occupations whose names carry no agent suffix (short ones too).
	switch w {
	case "nurse", "doctor", "chef", "cook", "pilot", "judge", "coach", "architect", "nanny", "barista", "clerk", "cashier",
		"engineer", "surgeon", "dentist", "lawyer", "attorney", "firefighter", "paramedic", "analyst", "consultant",
		"freelancer", "midwife", "mechanic", "secretary", "waitress", "actress", "poet", "medic", "intern", "vet",
		"priest", "nun", "monk", "farmer", "chemist", "pharmacist", "lead", "dev":
		return true
	}
	if _, kin := kinOf(w); kin && !paidRoles[w] || len(w) < 5 {
		return false
	}
	switch w {
	case "number", "member", "winner", "loser", "beginner", "believer", "lover", "fighter", "center", "corner",
		"other", "brother", "mother", "father", "daughter", "sister", "monster", "wonder", "order", "matter",
		"paper", "letter", "summer", "winter", "dinner", "weather", "parent", "patient", "resident", "client",
		"guardian", "vegetarian", "comedian", "talent", "event", "moment", "percent":
		return w == "comedian" || w == "guardian"
	}
	for _, suf := range []string{"er", "or", "ist", "ian", "ant", "ent"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	// A post of one who leads others at work ("foreman", "chairman", "superintendent") is a job as well:
	// WordNet files it under leader, not worker.
	return workerNoun(w) || leaderNoun(w)
}

// paidRoles are the person nouns that name both someone in the speaker's life ("my teacher Ana", for the
// kinship readers) and a job ("Emma is a teacher").
var paidRoles = map[string]bool{"teacher": true, "coach": true, "manager": true, "mentor": true, "tutor": true}

// nameOnly cuts a phrase that starts with a name at the first word that cannot continue it ("Kraków for a job
// at a game studio" → "Kraków", "Deloitte in Chicago" → "Deloitte"); names joined by connectors ("Rio de
// Janeiro") stay whole. A phrase that does not start with a capitalized word is returned as it is.
func nameOnly(o string) string {
	ws := strings.Fields(o)
	if len(ws) < 2 || !nlp.Capitalized(ws[0]) {
		return o
	}
	n := 1
	for n < len(ws) {
		w := ws[n]
		if nlp.Capitalized(w) || nameConnectors[strings.ToLower(w)] && n+1 < len(ws) && nlp.Capitalized(ws[n+1]) {
			n++
			continue
		}
		break
	}
	return strings.TrimRight(strings.Join(ws[:n], " "), ",")
}

// currencySigns are the signs written before an amount of the currencies most often named with a sign of their
// own (the Unicode currency symbols block and the Latin signs in everyday use). The rand's "R" is read apart,
// only before digits grouped in thousands ("R68,000"), since a capital R before a digit is also a name ("R2").
const currencySigns = `$€£¥₹₩₺₱₦₪₫฿₴`

// currencyLetters are the currencies written with letters before the number, as their countries write them:
// the real (R$), the ringgit (RM), the rupiah (Rp) and the dollars marked by their country (US$, A$, C$, S$,
// HK$, NZ$).
const currencyLetters = `(?:R\$|RM|Rp|(?:US|A|C|S|HK|NZ)\$)`

// money is an amount of money as people write it: a currency sign or code before the number ("$3,250",
// "R$ 3.650", "€58,500", "USD 80,000", "CHF 15'000") or a currency word, sign or "k" after it ("80k", "52,000
// euros", "1.290 €", "12 500 kr": the sign after the number and the groups of digits apart, as much of Europe
// writes them). The currency words are the English names of the world's common currencies (ISO 4217's), in
// the plural people say them in; "won" and "dong", which English uses otherwise after numbers, are left out.
// "Grand" is the informal thousand of a currency in British, American and Australian English ("28 grand").
const money = `(?:(?:[` + currencySigns + `]|` + currencyLetters + `|[A-Z]{3}\s?|Rs\.?\s?)\s?\d(?:[\d,.']*\d)?(?:\s?[kKmM]\b)?|R\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d(?:[\d,.']*\d)?(?:\s\d{3})*\s?(?:[kK]\b|(?:grand|dollars|euros|pounds|reais|rupees|yen|francs|kroner|kronor|kr|dinars|dirhams|riyals|rials|pesos|rand|zloty|złoty|lira|lire|shekels|baht|ringgit|rubles|roubles|yuan|rupiah|forints|forint|naira|shillings|cedis|hryvnias|lei|leva|koruna|USD|EUR|GBP|CHF|SEK|NOK|DKK)\b|[€£]))`

// dateAt reports a date that starts at byte offset at of the clause, or one space after it.
func dateAt(dates []when, at int) bool {
	for _, d := range dates {
		if d.end > at && d.start >= at-1 && d.start <= at+8 {
			return true
		}
	}
	return false
}

// needsFallback reports whether a clause needs a sentence claim beside its structured claims: when it has
// none, or when none of them is single-valued and their texts leave some of its content words unsaid.
func needsFallback(clause string, cs []extract.Claim) bool {
	if len(cs) == 0 {
		return true
	}
	for _, c := range cs {
		if c.Functional {
			return false
		}
	}
	return !covered(clause, cs)
}

// ownTexts gives a claim of a clause a text of its own when the clause's text also states the value of another
// single-valued slot: "My sister Emma just started working at Google as a data scientist" gives Emma's
// employer and her occupation, and when she changes employer the occupation's text must not still say
// Google. Texts that state only their own claim's value (or the same value for several subjects: "Nina and
// Omar moved to Porto") are kept as said.
func ownTexts(cs []extract.Claim) {
	if len(cs) < 2 {
		return
	}
	rewrite := make([]bool, len(cs))
	for i, c := range cs {
		text := strings.ToLower(c.Text)
		for j, d := range cs {
			if i == j || !d.Functional || d.SubjectKey == c.SubjectKey && d.PredicateKey == c.PredicateKey {
				continue
			}
			if canon.ObjectKey(d.Object) == canon.ObjectKey(c.Object) || d.SubjectKey == canon.SubjectKey(c.Object) && canon.SubjectKey(d.Object) == c.SubjectKey {
				// The same value, or the converse of this claim ("A married B": B's spouse is A).
				continue
			}
			if o := strings.ToLower(d.Object); o != "" && strings.Contains(text, o) {
				rewrite[i] = true
			}
		}
	}
	for i := range cs {
		if !rewrite[i] {
			continue
		}
		c := &cs[i]
		pred := c.Predicate
		if pred == "" || strings.Contains(pred, "'") {
			pred = strings.ReplaceAll(c.PredicateKey, "_", " ")
		}
		if aux, rest, ok := strings.Cut(pred, " "); ok {
			// The speaker's "have been hired by" said of the speaker by name: "Kim has been hired by".
			pred = thirdPersonAux(aux) + " " + rest
		}
		c.Text = canon.ClaimText(c.Subject, pred, c.Object)
	}
}

// reCorrection is a speaker correcting what they just said: "Sorry, I mean October 15", "I meant the 15th",
// "Correction: Tuesday", "No wait, it's Friday", "Sorry, I meant 1,500 dollars, not 1,200".
var reCorrection = regexp.MustCompile(`(?i)^(?:(?:sorry|oops|sorry,\s+no|no\s+wait|wait|actually|correction)[,:!]?\s+)+(?:I\s+mean[t]?\s+|it'?s\s+|it\s+is\s+|make\s+that\s+)?(.+?)[.!]?$|^I\s+mean[t]?\s+(.+?)[.!]?$`)

// reNotButCorrection is a correction that names the wrong value first: "Oops, not Greenway — it's Riverside
// Academy", "No, not Tuesday: Friday".
var reNotButCorrection = regexp.MustCompile(`(?i)^(?:(?:sorry|oops|no|wait|actually|correction)[,:!]?\s+)*not\s+([^,;:—–]+?)\s*(?:[,;:—–]|\s-)\s*(?:I\s+mean[t]?\s+|it'?s\s+|it\s+is\s+|make\s+that\s+)?(.+?)[.!]?$`)

// reNotWrong is the wrong value named after the right one: "…, not 1,200".
var reNotWrong = regexp.MustCompile(`(?i)^(.+?)\s*(?:,|;|—|–|\s-)\s*not\s+(.+)$`)

// reListComma is a comma that separates words, not the digits of a number ("1,500").
var reListComma = regexp.MustCompile(`,(?:\D|$)|;`)

// correction returns the corrected value of a correction sentence and the wrong value it names, if it names
// one ("not 1,200"), or false. The value must be short and have no verb of its own ("I mean October 15", not
// "I mean, we moved"); a date is given as resolved.
func correction(sent string, ref time.Time) (value, wrong string, ok bool) {
	sent = strings.TrimSpace(expand(sent))
	var v string
	if m := reNotButCorrection.FindStringSubmatch(sent); m != nil {
		v, wrong = m[2], strings.TrimSpace(m[1])
	} else if m := reCorrection.FindStringSubmatch(sent); m != nil {
		v = m[1]
		if v == "" {
			v = m[2]
		}
		if n := reNotWrong.FindStringSubmatch(v); n != nil {
			v, wrong = n[1], strings.TrimRight(strings.TrimSpace(n[2]), ".!")
		}
	} else {
		return "", "", false
	}
	if loc := reListComma.FindStringIndex(v); loc != nil && loc[0] > 0 {
		v = v[:loc[0]]
	}
	v = strings.TrimSpace(v)
	if v == "" || len(strings.Fields(v)) > 5 || hasVerbWord(v) || len(strings.Fields(wrong)) > 5 || hasVerbWord(wrong) {
		return "", "", false
	}
	if ds := findDates(v, ref); len(ds) > 0 && ds[0].start == 0 {
		return strings.TrimPrefix(strings.TrimPrefix(ds[0].phrase, "on "), "in "), wrong, true
	}
	if ds := findDates("on "+v, ref); len(ds) > 0 && ds[0].start == 0 {
		return strings.TrimPrefix(ds[0].phrase, "on "), wrong, true
	}
	return v, wrong, true
}

// correctedDate is a correction to a date whose first date was said outside the turns the extractor sees
// ("Sorry, I mean 14 March, not 12", a week after "My appointment with the physio is on 12 March"): the date
// meant, as a move of one of the speaker's events (rescheduled_to, as "they moved me to …"; the reader moves
// the one it moves least: services/query/reschedule.go).
func (e *Extractor) correctedDate(tc *turnCtx, value, wrong string, seq *int64) (extract.Claim, bool) {
	ds := findDates(value, tc.ref)
	if len(ds) != 1 || ds[0].start != 0 || ds[0].end != len(value) {
		return extract.Claim{}, false
	}
	text := tc.speaker + " corrected a date to " + ds[0].value()
	if wrong != "" {
		text += ", not " + wrong
	}
	return e.claim(*tc, spec{predicate: "rescheduled to", object: ds[0].value(), text: text + ".", confidence: confFirst},
		value, ds, seq), true
}

// reCorrectionOn is a correction that names what it corrects: "Sorry, correction on the christening - it's the
// 25th of May, not the 18th", "Quick correction about the venue: it's the Rosewood" (groups: the thing, the
// value, the wrong value if named).
var reCorrectionOn = regexp.MustCompile(`(?i)^(?:(?:sorry|oops|quick|slight|small|one)[,!]?\s+)*correction\s+(?:on|about|re|for|to)\s+(?:the|my|our)\s+([\pL\pM' -]{1,40}?)\s*(?:[-—–:,]\s*)+(?:it'?s|it\s+is|that'?s|that\s+is|make\s+(?:it|that))\s+(?:now\s+)?(.+?)(?:,?\s+not\s+([^,;]+?))?[.!]?$`)

// correctionOf says a correction that names what it corrects as the change it is ("The christening has been
// changed to the 25th of May"), which the update readers read; any other sentence is returned as it is.
func correctionOf(sent string) string {
	if !strings.Contains(strings.ToLower(sent), "correction") {
		return sent
	}
	m := reCorrectionOn.FindStringSubmatch(strings.TrimSpace(sent))
	if m == nil || hasVerbWord(m[2]) {
		return sent
	}
	noun, value := strings.TrimSpace(m[1]), strings.TrimSpace(m[2])
	if reNameStart.MatchString(value) && !reDateStart.MatchString(value) && personNoun(strings.ToLower(lastWords(noun, 1))) {
		// "Correction on the new manager: it's Greg Dolan, not Craig": who holds a post is said as the holder
		// ("My new manager is Greg Dolan"), as the speaker would have said it right the first time.
		return "My " + noun + " is " + value + "."
	}
	return "The " + noun + " has been changed to " + value + "."
}

// corrected returns the object a correction makes of a claim's object: the wrong value's words replaced by
// the right one's ("14 June 2026" corrected from "14 June" to "15 June" is "15 June 2026"), or the right
// value whole when it already holds the rest of the object ("1,200 dollars" corrected to "1,500 dollars",
// "Greenway Academy" to "Riverside Academy"). ok is false when the object does not contain the wrong value.
func corrected(object, wrong, right string) (string, bool) {
	if wrong == "" {
		return right, true
	}
	i := indexWords(object, wrong)
	if i < 0 {
		return "", false
	}
	rest := strings.Fields(object[:i] + " " + object[i+len(wrong):])
	rw := strings.Fields(strings.ToLower(right))
	whole := true
	for _, w := range rest {
		if !slices.Contains(rw, strings.ToLower(strings.Trim(w, ".,"))) {
			whole = false
			break
		}
	}
	if whole {
		return right, true
	}
	return object[:i] + right + object[i+len(wrong):], true
}

// indexWords is the byte offset of phrase in s as whole words, ignoring case, or -1.
func indexWords(s, phrase string) int {
	ls, lp := strings.ToLower(s), strings.ToLower(phrase)
	if lp == "" {
		return -1
	}
	for from := 0; from <= len(ls); {
		i := strings.Index(ls[from:], lp)
		if i < 0 {
			return -1
		}
		if i += from; wordBounded(ls, i, i+len(lp)) {
			return i
		}
		from = i + 1
	}
	return -1
}

// applyCorrection restates, with the corrected value, the claim a correction sentence corrects: the last one
// of this turn that holds the wrong value (the last structured one when no wrong value is named), else the
// last such claim of the speaker's earlier turns in the window. The claim then says what was meant, as if said
// right the first time, and a claim of an earlier turn counts the correcting turn among its sources.
func applyCorrection(tc *turnCtx, out []extract.Claim, value, wrong string) bool {
	try := func(c *extract.Claim) bool {
		if c.Fallback || c.Negated {
			return false
		}
		obj, ok := corrected(c.Object, wrong, value)
		if !ok {
			return false
		}
		c.Text = strings.Replace(c.Text, c.Object, obj, 1)
		c.Object = obj
		return true
	}
	for i := len(out) - 1; i >= 0; i-- {
		if try(&out[i]) {
			return true
		}
		if wrong == "" {
			// Without a wrong value only the value just said can be meant.
			return false
		}
	}
	for i := len(tc.earlier) - 1; i >= 0; i-- {
		c := &tc.earlier[i]
		if len(c.TurnIDs) == 0 || tc.earlierSpeaker[c.TurnIDs[0]] != speakerKey(tc.turn) {
			continue
		}
		if try(c) {
			if !slices.Contains(c.TurnIDs, tc.turn.TurnID) {
				c.TurnIDs = append(c.TurnIDs, tc.turn.TurnID)
			}
			return true
		}
		if wrong == "" {
			return false
		}
	}
	return false
}

// speakerKey identifies who said a turn, for what a later turn of the same speaker may correct.
func speakerKey(t event.TurnAcceptedV1) string {
	return t.Role + "\x00" + t.Speaker + "\x00" + t.AgentID
}

// reAsRole is "as a/an ROLE" in a clause, up to a preposition, a comma or the end.
var reAsRole = regexp.MustCompile(`(?i)\bas\s+(?:(?:a|an)\s+)?([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)(?:\s+(?:at|for|in|with|since|from)\b|[,.;]|$)`)

// kinLead reports whether "my N Name" at the start of a clause names a person by kinship ("my sister Emma"),
// not a thing followed by a name ("my flight to Denver").
func kinLead(clause string, m []int) bool {
	f := strings.Fields(strings.ToLower(clause[:m[2]]))
	if len(f) < 2 {
		return false
	}
	n := strings.Trim(f[len(f)-1], ",")
	_, ok := kinOf(n)
	if !ok {
		_, ok = kinOf(strings.TrimSuffix(n, "s"))
	}
	return ok
}

// workVerbs are verbs of doing a job, whose "as" phrase names the role ("work as", "freelance as", "intern
// as", "volunteer as", "serve as").
var workVerbs = map[string]bool{"work": true, "freelance": true, "serve": true, "start": true, "intern": true,
	"volunteer": true, "moonlight": true, "contract": true, "consult": true, "teach": true}

// ownValues keeps a sentence's single-valued claims the only ones that state their values: a claim of another
// relation whose text repeats such a value gets a text of its own (ownTexts), and an accumulating claim whose
// object holds it ("put in an offer of $615,000 on a townhouse", beside the offer of $615,000) is dropped,
// since it would keep stating the value after a later one supersedes it.
//
// A value that only comes with the object ("planning a trip to Japan with my wife Mei", beside "Kim's wife is
// Mei") is cut off with the "with" that brings it: the company is no part of the thing, and the rest still is.
func ownValues(cs []extract.Claim) []extract.Claim {
	ownTexts(cs)
	out := cs[:0]
	for i, c := range cs {
		drop := false
		if !c.Functional && !c.Fallback {
			for j, d := range cs {
				if i != j && d.Functional && d.SubjectKey == c.SubjectKey && len(d.Object) > 2 && canon.ObjectKey(d.Object) != canon.ObjectKey(c.Object) && strings.Contains(c.Object, d.Object) {
					if at := strings.LastIndex(c.Object, " with "); at > 0 && at < strings.Index(c.Object, d.Object) && len(strings.Fields(c.Object[:at])) >= 2 {
						c.Object = c.Object[:at]
						c.Text = canon.ClaimText(c.Subject, c.Predicate, c.Object)
						continue
					}
					drop = true
				}
			}
		}
		if !drop {
			out = append(out, c)
		}
	}
	return out
}

// reReplaced is "SUBJECT replaced THEIR [old] THING with NEW" and its synonyms, by which English says that a new
// thing took an owned thing's place: "replace X with Y" (or "by Y"), "swap X for Y", "trade X in for Y",
// "exchange X for Y". Group 1 is the subject, 2 the owned thing's noun phrase, 3 its head noun, 4 the new thing.
var reReplaced = regexp.MustCompile(`^(I|we|\p{Lu}[\p{L}\p{M}'-]*(?:\s+\p{Lu}[\p{L}\p{M}'-]*)?)\s+(?:have\s+|has\s+|had\s+|'ve\s+)?(?:(?:just|finally|recently|now|also)\s+)?(?:replaced|swapped|traded|exchanged)\s+((?:my|our|his|her|their|the)\s+(?:[\p{L}-]+\s+){0,3}?([\p{L}-]+))(?:\s+in)?\s+(?:with|for|by)\s+(\S.*)$`)

// matchReplaced reads reReplaced: the owned thing's noun names the attribute, whose value is now the new thing
// (a change: the old value no longer holds), and the old thing, without its determiner, is what was replaced
// (an ending the reader applies to a value that names it: query/endings.go).
func matchReplaced(clause string, dates []when) []spec {
	m := reReplaced.FindStringSubmatchIndex(clause)
	if m == nil {
		return nil
	}
	subject := clause[m[2]:m[3]]
	if strings.EqualFold(subject, "i") || strings.EqualFold(subject, "we") || notNames[strings.ToLower(subject)] {
		subject = ""
	}
	head := clause[m[6]:m[7]]
	obj := objectPhrase(clause[m[8]:], dates, m[8])
	if obj == "" || pronounObject[strings.ToLower(obj)] || reWeakObject.MatchString(obj) {
		return nil
	}
	owned := strings.Fields(clause[m[4]:m[5]])[1:] // without its determiner
	if nlp.Capitalized(head) {
		// "swapped my Kindle for a Kobo": a name says which thing, not which attribute; the new thing is
		// acquired in the statement that ended the old one, and takes its place wherever the old one was
		// (query/endings.go, replaceEnded).
		from := len(owned) - 1
		for from > 0 && nlp.Capitalized(owned[from-1]) {
			from--
		}
		return []spec{
			{subject: subject, predicate: "replaced", object: strings.Join(owned[from:], " "), confidence: confRelation},
			{subject: subject, predicate: "got", object: obj, confidence: confRelation},
		}
	}
	return []spec{
		{subject: subject, predicate: "replaced", object: "the " + strings.Join(owned, " "), confidence: confRelation},
		{subject: subject, predicate: nlp.Lemma(strings.ToLower(head), "NNS"), object: obj, confidence: confRelation, change: true},
	}
}
