package rules

import (
	"regexp"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Value updates: "My deadline moved to May 5", "I've adjusted the snack budget to $75", "the response time
// has improved to 250ms", "the new daily quota of 1,200 calls". Each states the current value of an
// attribute of the speaker's world; the attribute is the predicate, so a later update of the same attribute
// supersedes it when the predicate is functional.

const (
	// updateVerb is a verb of change whose "to" phrase is the new value ("until" for a time put off), in the
	// progressive too ("the wedding is moving to the Yeatman").
	updateVerb = `(?:moved|moving|relocated|relocating|changed|changing|shifted|shifting|pushed(?:\s+back)?|rescheduled|rebooked|rearranged|postponed|delayed|brought\s+forward|slipped|updated|adjusted|increased|decreased|raised|lowered|reduced|extended|bumped(?:\s+up)?|grown|grew|dropped|fallen|fell|improved|climbed|risen|rose|go(?:es|ing)?\s+(?:up|down)|gone\s+up|went\s+up|gone\s+down|went\s+down|jumped|expanded|cut|set|revised|upgraded|downgraded|put(?:\s+(?:back|forward|off|up|down))?|hiked|upped|slashed|trimmed|doubled|halved|knocked(?:\s+down)?|switched)`
	// updateDone is a verb of change in its base form after a verb saying it was done ("had to push the
	// wedding back", "decided to move the party"): the change happened.
	updateDone = `(?:had|needed|decided|chose|managed)\s+to\s+(?:move|change|shift|push|bring|pull|knock|reschedule|update|adjust|increase|decrease|raise|lower|reduce|extend|bump|cut|set|revise|put|hike|up|slash|trim|double|halve)`
	// updateParticle is the adverbial particle of a phrasal verb of change after its object ("pushed the
	// wedding back to", "moved the party up to").
	updateParticle = `(?:\s+(?:back|forward|up|out|down))?`
	// updateAttr is the attribute's noun phrase (without its determiner).
	updateAttr = `(\pL[\pL\pM\pN_\s'/-]{1,60}?)`
	// updateFrom is an optional "from X" before "to Y", or the span a time moved by ("slipped a week to").
	updateFrom = `(?:\s+from\s+\S+(?:\s+\S+){0,3}?|\s+(?:by\s+)?(?:a|an|one|two|three|four|a\s+few|a\s+couple\s+of)\s+(?:days?|weeks?|months?|hours?))?`
	// updateAux is the auxiliary of a passive or perfect update ("has been", "was", "is now").
	updateAux = `(?:(?:has|have|had)\s+(?:(?:now|recently|just|finally|since|already|officially)\s+)*(?:been\s+)?|(?:is|was|are|were|got)\s+(?:(?:now|recently|just|finally|officially)\s+)*(?:being\s+)?)?(?:(?:now|recently|just|finally|officially|also|already|again)\s+)*`
)

var (
	// "my deadline moved to May 5", "the response time has recently improved to 250ms"
	reUpdateOwn = regexp.MustCompile(`(?i)^(?:my|our|the)\s+` + updateAttr + `\s+` + updateAux + updateVerb + updateFrom + `\s+(?:to|at|until|till)\s+(\S.*)$`)
	// "we've rebooked the flights for the 3rd", "they rescheduled my test for May 2nd": a new booking of the
	// attribute "for" a date (the date reader checks that a date follows)
	reUpdateForDate = regexp.MustCompile(`(?i)^(?:I|we|they|he|she|\p{Lu}[\p{L}\p{M}-]*)\s+` + updateAux + `(?:rescheduled|rebooked|rearranged|moved|changed|booked|set)\s+(?:my|our|the)\s+` + updateAttr + `\s+for\s+(\S.*)$`)
	// "the number of commits has now reached 165"
	reUpdateReach = regexp.MustCompile(`(?i)^(?:my|our|the)\s+` + updateAttr + `\s+` + updateAux + `(?:reached|hit|totals?|totalled|stands\s+at|is\s+up\s+to|is\s+down\s+to|averag(?:es|ing)|rated(?:\s+at)?|measured\s+at|estimated\s+at|came\s+(?:back|in)\s+at)\s+(?:around\s+|about\s+|roughly\s+|over\s+|under\s+)?([$€£]?\d.*)$`)
	// "I've adjusted the snack budget to $75"
	// (the agent may be someone else: "My landlord raised the rent to R$ 3.650", "My cello teacher moved my
	// lesson to Thursdays", and may have done something first: "The dentist rang and pushed my appointment back
	// to 11 March")
	reUpdateBy = regexp.MustCompile(`(?i)^(?:I|we|they|he|she|(?:my|our|the)\s+(?:[\w-]+\s+)?[\w-]+|\p{Lu}[\p{L}\p{M}-]*)(?:\s+[a-z]+(?:\s+[a-z]+)?\s+and)?\s+` + updateAux + `(?:` + updateVerb + `|` + updateDone + `)\s+(?:(?:my|our|the)\s+)?` + updateAttr + updateParticle + updateFrom + `\s+(?:to|until|till)\s+(\S.*)$`)
	// "the new sprint deadline of April 5", "my increased book budget of $50" anywhere in a clause
	// (the value is a number, an amount or a date: "the new team's style of play" is not an update).
	reNewValue = regexp.MustCompile(`(?i)\b(?:the|my|our)\s+(?:new|increased|updated|revised|adjusted|current|latest|reduced|extended|higher|lower|raised|final)\s+([a-zA-Z][\w\s'/-]{1,40}?)\s+(?:of|is|was|at)\s+((?:around\s+|about\s+)?(?:[$€£]?\d|(?:January|February|March|April|May|June|July|August|September|October|November|December)\s+\d).*)$`)
	// reUpdateBare is chat's update without the attribute's determiner, whose value must be an amount, days or
	// a planned event's date or place (matchUpdate): "Broadband went from £30 to £35 a month", "Surgery's been
	// moved to the 9th", a clause of a comma splice "…, rent goes up to 1.290 € from August" — not "Tom moved
	// to Leeds" (groups: the attribute, the value).
	reUpdateBare = regexp.MustCompile(`^(\p{L}\p{Ll}+(?:\s+\p{Ll}+){0,2}?)(?:'s(?:\s+been)?)?\s+` + updateAux + `(?:` + updateVerb + `|went|gone)` + updateFrom + `\s+(?:to|until|till)\s+(\S.*)$`)
	// reRelativeUpdate finds ", which has improved to X" after a noun phrase.
	reRelativeUpdate = regexp.MustCompile(`(?i),?\s+(?:which|that)\s+((?:has|have|had|is|was|are|were)\s+.*?(?:` + updateVerb + `|reached|hit)\b.*)$`)
	// reClockFirst is a time of day said before its day: "6am on Friday", "9:30 on the 14th" (group 1 the time).
	reClockFirst = regexp.MustCompile(`(?i)^(\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d)\s*,?\s+(?:on\s+)?`)
	reTimeOfDay  = regexp.MustCompile(`(?i)^,?\s+at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?(?:[\s,;.]|$)`)
	reDeterminer = regexp.MustCompile(`(?i)\b(?:the|my|our)\s`)
	// reDeterminerBefore is a determiner just before the attribute.
	reDeterminerBefore = regexp.MustCompile(`(?i)\b(?:the|my|our)\s+$`)
)

// reMotionVerb is a verb of a person's moving somewhere.
var reMotionVerb = regexp.MustCompile(`(?i)\b(?:moved|relocated|transferred|emigrated)\s+(?:back\s+|over\s+|away\s+)?to\b`)

// reMovedPerson is a planned event's move said of the person it is for, the event left unsaid: "the surgery
// rang and moved me to March 10th", "they had to rebook me for Tuesday 12 March", "they've moved us to 16
// October" (group 1 the value; matchMovedPerson checks that it is a date). The reader moves the speaker's own
// event it moves least with it (services/query/reschedule.go).
var reMovedPerson = regexp.MustCompile(`(?i)\b(?:` + updateVerb + `|` + updateDone + `|(?:had|needed)\s+to\s+(?:rebook|reschedule|rearrange))\s+(?:me|us)` + updateParticle + `\s+(?:to|for|until|till)\s+(\S.*)$`)

// matchMovedPerson reads reMovedPerson when its value is a date ("moved us to Leeds" is a move of home).
func matchMovedPerson(clause string, dates []when) (spec, bool) {
	if !strings.Contains(clause, " me ") && !strings.Contains(clause, " us ") {
		// (Most clauses move no one: the test is cheaper than the pattern.)
		return spec{}, false
	}
	m := reMovedPerson.FindStringSubmatchIndex(clause)
	if m == nil || !slices.ContainsFunc(dates, func(d when) bool { return d.start-m[2] >= 0 && d.start-m[2] <= 1 }) {
		// The value must be the date itself, as valuePhrase reads it: "moved us to Leeds last year" is not.
		return spec{}, false
	}
	obj := valuePhrase(clause[m[2]:], dates, m[2])
	if obj == "" {
		return spec{}, false
	}
	// Not single-valued: a move of the dentist does not undo an earlier move of the boiler service.
	return spec{predicate: "rescheduled to", object: obj, confidence: confFirst}, true
}

// homeNounAlts are the nouns of English for a home one rents, owns or lives in, the size said as the noun too ("a
// two-bedroom in Kumasi", "a one-bed near the station"): what a place named after one is where someone lives.
const homeNounAlts = `flat|apartment|house|home|condo|studio|room|bedroom|loft|place|cottage|townhouse|bungalow|bedsit|maisonette|unit|terrace|semi|villa|farmhouse|duplex|penthouse|houseboat|(?:one|two|three|four|five|\d)-bed(?:room)?`

// reRentFor is "(I|we) (are) renting/leasing a HOME (in PLACE) for AMOUNT": what the speaker pays for where
// they live is their rent, and the place named is where they live.
var reRentFor = regexp.MustCompile(`(?i)^(?:I|we)\s+(?:am\s+|are\s+|'m\s+|'re\s+)?(?:(?:now|currently|still|just)\s+)*(?:rent|renting|rented|lease|leasing|leased|sublet|subletting)\s+(?:a|an|the|this|our|my)\s+(?:[\pL-]+\s+){0,2}?(?:` + homeNounAlts + `)(?:\s+(?:in|near)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)*))?\s+for\s+([$€£]\s?\d[\d,.]*k?|\d[\d,.]*\s?(?:dollars|euros|pounds|bucks))`)

// matchRent reads the rent (and the place, as where the speaker lives) of reRentFor.
func matchRent(clause string) []spec {
	m := reRentFor.FindStringSubmatch(clause)
	if m == nil {
		return nil
	}
	out := []spec{{predicate: "rent", object: m[2], confidence: confFirst}}
	if m[1] != "" {
		out = append(out, spec{predicate: "lives in", object: m[1], confidence: confFirst})
	}
	return out
}

// updateSubjects are attributes that name people, who move without being "updated".
var updateSubjects = map[string]bool{"family": true, "parents": true, "kids": true, "children": true,
	"friends": true, "folks": true, "team": true, "roommates": true, "neighbors": true, "people": true}

// matchUpdate handles a clause that reports the new value of one of the speaker's attributes.
func matchUpdate(clause string, dates []when) (spec, bool) {
	var attr, rest string
	var restAt int
	switch {
	case reUpdateOwn.MatchString(clause):
		m := reUpdateOwn.FindStringSubmatchIndex(clause)
		attr, rest, restAt = clause[m[2]:m[3]], clause[m[4]:], m[4]
	case reUpdateReach.MatchString(clause):
		m := reUpdateReach.FindStringSubmatchIndex(clause)
		attr, rest, restAt = clause[m[2]:m[3]], clause[m[4]:], m[4]
	case reUpdateBy.MatchString(clause):
		m := reUpdateBy.FindStringSubmatchIndex(clause)
		if !reDeterminerBefore.MatchString(clause[:m[2]]) && !reLastScheduled.MatchString(clause[m[2]:m[3]]) {
			// Without its determiner the thing changed must be a planned event ("They've pushed graduation to
			// the 19th"): "I moved house to Leeds" is no update of a "house".
			return spec{}, false
		}
		attr, rest, restAt = clause[m[2]:m[3]], clause[m[4]:], m[4]
	case reUpdateBare.MatchString(clause):
		m := reUpdateBare.FindStringSubmatchIndex(clause)
		// An amount is a value of a thing ("Broadband went from £30 to £35"), and so are the days of something
		// recurring ("Choir has moved to Mondays"); a date or a place only of a planned event's ("Surgery's been
		// moved to the 9th", "Reception's been switched to a barn"), since a name may open the clause too ("Tom
		// moved to the 9th", "Tom moved to Leeds").
		ofAnything := reAmountStart.MatchString(clause[m[4]:]) || reWeekdaysStart.MatchString(clause[m[4]:])
		if !ofAnything && !reLastScheduled.MatchString(clause[m[2]:m[3]]) ||
			subjectPronouns[strings.ToLower(clause[m[2]:m[3]])] || notNames[strings.ToLower(clause[m[2]:m[3]])] {
			return spec{}, false
		}
		// (The attribute's first word is capitalized as the sentence's, not as a name's.)
		attr, rest, restAt = lowerFirst(clause[m[2]:m[3]], true), clause[m[4]:], m[4]
	case reUpdateForDate.MatchString(clause):
		m := reUpdateForDate.FindStringSubmatchIndex(clause)
		if !dateAt(dates, m[4]) {
			// "booked the table for four": only a date is the booking's new value.
			return spec{}, false
		}
		attr, rest, restAt = clause[m[2]:m[3]], clause[m[4]:], m[4]
	default:
		return spec{}, false
	}
	if ws := strings.Fields(attr); len(ws) > 1 && nlp.Capitalized(ws[0]) && !nlp.Capitalized(ws[len(ws)-1]) {
		// "switched the Lisbon trip to Porto": a name before the attribute's noun is its old value.
		attr = strings.Join(ws[1:], " ")
	}
	attr = updateAttribute(attr)
	if attr == "" {
		return spec{}, false
	}
	if ws := strings.Fields(attr); (kinRole(ws[len(ws)-1]) != "" || personNoun(ws[len(ws)-1])) && reMotionVerb.MatchString(clause) && !dateAt(dates, restAt) {
		// "My supervisor moved to Sciences Po": a person who moves goes somewhere (openie reads where); only a
		// thing's value is moved to another ("my appointment moved to Friday", "my manager changed to Sneha").
		return spec{}, false
	}
	obj := valuePhrase(rest, dates, restAt)
	if obj == "" {
		return spec{}, false
	}
	// A value that was moved, raised or cut to something new has one value at a time.
	s := spec{predicate: attr, object: obj, confidence: confFirst, change: true}
	if key, ok := countAttributeKey(attr); ok {
		// "the number of cupcakes ordered went up to 30": the count a statement of the things gave (counts.go).
		s.key = key
	}
	return s, true
}

// matchNewValue finds "the new X of Y" inside a clause.
func matchNewValue(clause string, dates []when) (spec, bool) {
	m := reNewValue.FindStringSubmatchIndex(clause)
	if m == nil {
		return spec{}, false
	}
	attr := updateAttribute(clause[m[2]:m[3]])
	if attr == "" {
		return spec{}, false
	}
	obj := valuePhrase(clause[m[4]:], dates, m[4])
	if obj == "" {
		return spec{}, false
	}
	return spec{predicate: attr, object: obj, confidence: confFirst}, true
}

// updateAttribute normalizes an attribute phrase ("recent daily quota" → "daily quota") and refuses people
// and pronoun-like phrases.
func updateAttribute(attr string) string {
	ws := strings.Fields(strings.ToLower(attr))
	for len(ws) > 1 && (ws[0] == "recent" || ws[0] == "new" || ws[0] == "current" || ws[0] == "latest") {
		ws = ws[1:]
	}
	if len(ws) == 0 || len(ws) > 10 {
		return ""
	}
	if len(ws) > 3 && (ws[0] == "rent" || ws[0] == "mortgage") && (ws[1] == "on" || ws[1] == "for") && (ws[2] == "my" || ws[2] == "our") {
		// "The rent on our place in Leeds": one's own home's rent is one's rent.
		return ws[0]
	}
	for i, w := range ws {
		// ("my son's football training has moved …" is the son's: kinPossessive. A noun of people before
		// another noun only says which thing: "the team offsite", "the family holiday".)
		owner := strings.HasSuffix(w, "'s") || strings.HasSuffix(w, "s'")
		if !owner && i < len(ws)-1 {
			continue
		}
		if _, isKin := kinOf(strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "s'")); isKin || updateSubjects[w] {
			return ""
		}
	}
	if subjectPronouns[ws[0]] || filler[ws[0]] && len(ws) == 1 || len(ws) == 1 && ws[0] == "mind" {
		// ("I changed my mind to stay" is no attribute changed.)
		return ""
	}
	if n := len(ws); n > 1 && (ws[n-1] == "price" || ws[n-1] == "cost") {
		// "Gym membership price has been raised to 399 kr": a thing's price is the amount the thing is said to
		// be ("The gym membership is 349 kr a month"), one attribute.
		ws = ws[:n-1]
	}
	return strings.Join(ws, " ")
}

// valuePhrase is the value after "to": a date when the value is one ("moved to May 5" → "5 May 2024"),
// else the object phrase.
func valuePhrase(rest string, dates []when, offset int) string {
	for _, d := range dates {
		if cue, period, ok := strings.Cut(d.phrase, " "); ok && (cue == "until" || cue == "till") && d.start < offset && d.end > offset {
			// "postponed until next June": the date reader read the boundary's preposition with the period
			// ("until June 2025"); the value is the period.
			return period
		}
		if d.start-offset >= 0 && d.start-offset <= 1 {
			v := d.value()
			if end := d.end - offset; end <= len(rest) {
				// "April 22 at 11 AM": the time of day is part of the value.
				if t := reTimeOfDay.FindString(rest[end:]); t != "" {
					v += " " + strings.TrimRight(strings.TrimSpace(t), ",;.")
				}
			}
			return v
		}
	}
	if t := reClockFirst.FindStringSubmatch(rest); t != nil {
		// "changed to 6am on Friday": a time of day, then the day it is on.
		for _, d := range dates {
			if d.start > offset+len(t[1]) && d.start <= offset+len(t[0]) {
				return d.value() + " at " + t[1]
			}
		}
	}
	obj := objectPhrase(rest, dates, offset)
	if pronounObject[strings.ToLower(obj)] || reWeakObject.MatchString(obj) {
		return ""
	}
	if reAmountStart.MatchString(obj) || reWeekdaysStart.MatchString(obj) {
		// "going up to £1,650 from March", "moved to Tuesdays from September": when the value starts to hold
		// is no part of it.
		obj = reAmountSince.ReplaceAllString(obj, "")
	}
	return obj
}

// reWeekdaysStart is the days a recurring event is on, first: "Tuesdays", "weekends".
var reWeekdaysStart = regexp.MustCompile(`^` + recurringDays + `\b`)

// reAmountSince is the time an amount holds from, after it: "from March", "starting in May", "as of January".
var reAmountSince = regexp.MustCompile(`(?i)\s+(?:from|starting(?:\s+(?:in|on|from))?|as\s+of|effective(?:\s+from)?)\s+\S.*$`)

// relativeUpdate turns "… the response time, which has improved to 250ms" into the clause "the response
// time has improved to 250ms", or returns "".
func relativeUpdate(clause string) string {
	m := reRelativeUpdate.FindStringSubmatchIndex(clause)
	if m == nil {
		return ""
	}
	before := clause[:m[0]]
	from := strings.LastIndexByte(before, ',') + 1
	dets := reDeterminer.FindAllStringIndex(before[from:], -1)
	if len(dets) == 0 {
		return ""
	}
	k := len(dets) - 1
	// "the growth of commits merged into the main branch": the head is the first noun phrase of the chain.
	for k > 0 {
		prefix := strings.TrimRight(before[:from+dets[k][0]], " ")
		prep := strings.ToLower(prefix[strings.LastIndexByte(prefix, ' ')+1:])
		if prep != "of" && prep != "into" && prep != "in" && prep != "for" && prep != "on" && prep != "to" && prep != "with" {
			break
		}
		if len(strings.Fields(before[from+dets[k-1][0]:])) > 12 {
			break
		}
		k--
	}
	return strings.TrimSpace(before[from+dets[k][0]:]) + " " + clause[m[2]:]
}

// reDatedNoun matches a date used to name an event of the speaker's ("my April 20 deadline", "the new April
// 25 deadline"): the date is the event's, whatever the sentence goes on to ask or deny.
var reDatedNoun = regexp.MustCompile(`(?i)\b(?:(?:the|my|our)\s+(?:new|updated|revised|extended|rescheduled|moved|final)|my|our)\s+` +
	`((?:january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)\.?\s+\d{1,2}(?:st|nd|rd|th)?(?:,?\s+\d{4})?)\s+` +
	`(deadline|due\s+date|appointment|meeting|call|interview|exam|launch|release|submission|presentation|session|webinar|flight|start\s+date|event)\b`)

// presupposedValues returns the values a sentence takes for granted in its noun phrases ("the new daily
// quota of 1,200 calls", "my April 20 deadline"), even when the sentence itself asks or denies something
// ("I'm worried I won't meet the new April 25 deadline"): they become claims of the speaker's attribute.
func (e *Extractor) presupposedValues(tc *turnCtx, sent string, seq *int64) []extract.Claim {
	var out []extract.Claim
	owner := possessive(tc.speaker)
	add := func(attr, value, clause string) {
		if attr == "" || value == "" {
			return
		}
		s := spec{predicate: attr, object: value, text: sentence(owner + " " + attr + " is " + value), confidence: confFirst, definite: true}
		out = append(out, e.claim(*tc, s, clause, nil, seq))
	}
	for _, m := range reDatedNoun.FindAllStringSubmatchIndex(sent, -1) {
		ds := findDates(sent[m[2]:m[3]], tc.ref)
		if len(ds) == 0 {
			continue
		}
		value := strings.TrimPrefix(strings.TrimPrefix(ds[0].phrase, "on "), "in ")
		add(updateAttribute(sent[m[4]:m[5]]), value, sent)
	}
	for _, m := range reAmountOf.FindAllStringSubmatch(sent, -1) {
		// "We put in an offer of $615,000": the amount of the speaker's offer.
		if attr := updateAttribute(m[1]); attr != "" {
			add(attr, m[2], sent)
		}
	}
	if m := reNewValue.FindStringSubmatchIndex(sent); m != nil {
		dates := findDates(sent, tc.ref)
		add(updateAttribute(sent[m[2]:m[3]]), valuePhrase(sent[m[4]:], dates, m[4]), sent)
	}
	return out
}

// reAmountOf is "a/an N of <money>" after a verb of making or getting ("put in an offer of $615,000", "got a
// raise of €3,000", "took a loan of $20,000"): the amount is the value of the speaker's N.
var reAmountOf = regexp.MustCompile(`(?i)\b(?:put\s+in|made|make|submitted|got|received|took|accepted|offered|have|had)\s+(?:a|an)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+of\s+(` + money + `)`)

// possessive is "Alice's" or "James'".
func possessive(name string) string {
	if strings.HasSuffix(name, "s") {
		return name + "'"
	}
	return name + "'s"
}
