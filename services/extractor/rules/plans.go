package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Plans said as people say them. A planned event's place or date is said with a copula in the future as often
// as in the present ("The wedding will be at Hampton Manor", "the honeymoon's going to be the Maldives now"), in
// chat without its article ("Housewarming is the 15th now"), and with "have" or "hold" of the event itself
// ("we're having the wedding at Weston Hall"), and a place is chosen "for" it ("we've settled on Bali for the
// honeymoon"). A plan given up is said with idioms of English as often as with "off" (calledOff): it "fell
// through", is "not happening" or "on hold", one says "scratch" or "ditch" it, or "changed one's mind about" it.
// A destination is one one is "off to", and a choice made is "X it is!". Each is said here in the words the
// readings already read: "Our wedding is at …", "We called off …", "We are going to …", "We went with …".

// scheduledEvents are the nouns of everyday English for events one plans and gives a place or a date to: the
// planned events of calledOff and the scheduled ones of work, study and health.
var scheduledEvents = eventAlternation(canon.ScheduledEventNouns())

// eventAlternation is a regular expression's alternation of event nouns, a noun of two words matched across
// any space ("away day").
func eventAlternation(nouns []string) string {
	alts := make([]string, len(nouns))
	for i, n := range nouns {
		alts[i] = strings.ReplaceAll(regexp.QuoteMeta(n), " ", `\s+`)
	}
	return strings.Join(alts, "|")
}

var (
	// reEventIs is a planned event and a copula of the present or the future, then its place or date: "The
	// wedding will be at Hampton Manor", "the honeymoon's going to be the Maldives now", "Housewarming is the
	// 15th now", "The reception is being held at Ashdown Park", "the gig takes place in Leeds", "The book club
	// meets on Wednesdays", "The party will be at my aunt's house" (groups: the determiner, the event, what
	// follows the copula).
	reEventIs = regexp.MustCompile(`^((?i:the|my|our)\s+)?((?:[\pL\pM-]+\s+){0,2}?(?i:` + scheduledEvents + `))(?:'s|\s+is|\s+are|\s+will\s+be|'ll\s+be|(?:'s|\s+is)\s+(?:(?i:now)\s+)?(?:going\s+to|gonna)\s+be|(?:'s|\s+is|\s+will\s+be|'ll\s+be)\s+(?:(?i:now)\s+)?(?:being\s+)?held|\s+(?:takes|is\s+taking|will\s+take)\s+place|\s+meets|\s+runs)\s+((?:(?i:now|still|actually)\s+)?(?:(?i:at|in|on)\s+)?(?:(?i:the|my|our|his|her|their)\s+)?(?:\p{Lu}|\d|\p{Ll}+'s\s).*)$`)
	// reHavingEvent is the speaker having or holding a planned event somewhere or some day: "we're having the
	// wedding at Weston Hall", "we're having a housewarming on Saturday the 8th" (groups: the event, the place or
	// date with its preposition).
	reHavingEvent = regexp.MustCompile(`^(?:I|[Ww]e)(?:'re|\s+are|'m|\s+am|'ll\s+be|\s+will\s+be)\s+(?:(?i:now|actually|still)\s+)?(?:having|holding|hosting|throwing|doing)\s+(?:the|our|my|a|an)\s+((?:[\pL\pM'-]+\s+){0,2}?(?i:` + scheduledEvents + `))\s+((?i:at|in|on)\s+(?:the\s+)?(?:\p{Lu}|\d).*)$`)
	// reChosenFor is a place chosen, thought of or done for a planned event: "We've settled on Bali for
	// the honeymoon", "we booked Crete for our holiday", "We're thinking Santorini for our anniversary", "We're
	// doing Sicily in September for our holiday" (groups: the place, a month or season it is in, the event, what
	// follows).
	reChosenFor = regexp.MustCompile(`^(?:I|[Ww]e)(?:'ve|\s+have|'re|\s+are)?\s+(?:(?i:finally|just|now)\s+)?(?:settled\s+on|decided\s+on|chosen|chose|picked|booked|gone\s+with|went\s+with|thinking|considering|leaning\s+towards|doing|(?:gone|going|opted|plumped)\s+for)\s+(?P<place>\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})(?P<time>(?:\s+(?i:in|this|next)\s+(?:(?i:` + monthRe + `)(?:\s+\d{4})?|(?i:the\s+)?(?i:spring|summer|autumn|fall|winter)))?)\s+for\s+(?:the|our|my)\s+(?P<event>(?:[\pL\pM-]+\s+){0,2}?(?i:` + scheduledEvents + `))\b(?P<rest>.*)$`)
	// reOffTo is a person leaving for a named place: "we're off to Cornwall", "I'm off to the Alps in May" —
	// going there ("off to bed", "off to work": a common noun, no destination of a plan).
	reOffTo = regexp.MustCompile(`\b((?:I|[Ww]e)(?:'re|\s+are|'m|\s+am)\s+(?:(?i:now|actually|finally)\s+)?)off\s+to\s+((?:the\s+)?\p{Lu})`)
	// reItIs is a choice made, said as "X it is!" (the name, then the clause's end).
	reItIs = regexp.MustCompile(`^(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})\s+it\s+is\s*[.!]*$`)
)

// eventPlace says a planned event's place or date in the words of a possessed noun's value: "The wedding will be
// at Hampton Manor" is "Our wedding is at Hampton Manor", "we're having the wedding at Weston Hall" is "Our
// wedding is at Weston Hall". In conversation a definite event without an owner is the speaker's, as the
// definite money nouns and dates are (reTheValue). A sentence without an article must open with the event, so
// that it is one of chat's clipped sentences and no clause's object. Other sentences are returned as they are.
func eventPlace(sent string) string {
	if m := reHavingEvent.FindStringSubmatch(sent); m != nil {
		return "Our " + strings.ToLower(m[1]) + " is " + m[2]
	}
	if m := reChosenFor.FindStringSubmatch(sent); m != nil {
		// Said as the event's place, then read as such ("… in May" after the place opens the sentence).
		g := func(name string) string { return m[reChosenFor.SubexpIndex(name)] }
		return eventPlace("Our " + strings.ToLower(g("event")) + " is in " + g("place") + g("time") + g("rest"))
	}
	if m := reVerblessEvent.FindStringSubmatch(sent); m != nil && !reFiniteWord.MatchString(m[3]) {
		// "Long weekend in Prague at the end of the month", "Trip to Lisbon in May": chat's verbless plan.
		return "Our " + strings.ToLower(m[1]) + " is in " + m[2] + m[3]
	}
	m := reEventIs.FindStringSubmatch(sent)
	if m == nil {
		return sent
	}
	det := "Our "
	if strings.EqualFold(strings.TrimSpace(m[1]), "my") {
		det = "My "
	}
	np := m[2]
	if m[1] == "" {
		// Chat's clipped "Housewarming is …": the sentence's first word, capitalized as one; a name before the
		// event ("Glastonbury festival") is no clipped article's.
		for _, w := range strings.Fields(np)[1:] {
			if w != strings.ToLower(w) {
				return sent
			}
		}
		np = lowerFirst(np, true)
	}
	rest := m[3]
	be := " is "
	if strings.HasPrefix(strings.TrimSpace(sent[len(m[1])+len(m[2]):]), "are ") {
		// "My piano lessons are on Wednesdays"
		be = " are "
	}
	if t := reTimeAfterPlace.FindStringSubmatch(rest); t != nil {
		// "at Hampton Manor in September": the time opens the sentence, so that the place is the value and the
		// time says when ("In September, our wedding is at Hampton Manor").
		return t[2] + ", " + strings.ToLower(det) + np + be + t[1] + t[len(t)-1]
	}
	return det + np + be + rest
}

// reVerblessEvent is chat's verbless plan, a planned event and the place it is in or goes to: "Long weekend in
// Prague at the end of the month with the lads", "Trip to Lisbon in May" (groups: the event, the place's name,
// what follows it).
var reVerblessEvent = regexp.MustCompile(`^((?:\p{Lu}[\p{Ll}-]*\s+)?(?:[\p{Ll}-]+\s+)?(?i:` + scheduledEvents + `|weekend|break|getaway))\s+(?i:in|to)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,2})(.*)$`)

// reFiniteWord is a finite verb or an auxiliary, which a verbless sentence lacks.
var reFiniteWord = regexp.MustCompile(`(?i)\b(?:is|was|were|are|am|be|been|has|have|had|will|would|can|could|did|does|do|got|went|goes|go|going|cost|costs)\b|'s\s|'re\b|'ll\b`)

// reTimeAfterPlace is a place and then a month or a season it is in: "at Hampton Manor in September" (groups:
// the place with its preposition, the time, what follows). A day after the place ("in Lisbon on the 20th of
// March") is left in the statement, whose day a when-question reads, as the place's slot would not say it.
var reTimeAfterPlace = regexp.MustCompile(`^((?i:at|in)\s+(?:the\s+)?\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*){0,3})\s+((?i:in|this|next)\s+(?:(?i:` + monthRe + `)(?:\s+\d{4})?|(?i:the\s+)?(?i:spring|summer|autumn|fall|winter)(?:\s+of\s+\d{4})?))\b(\s*[.!]*)$`)

// goingTo says "off to" a named place as going there: "we're off to Cornwall" is "we're going to Cornwall".
func goingTo(sent string) string {
	if !strings.Contains(sent, "off to") {
		return sent
	}
	return reOffTo.ReplaceAllString(sent, "${1}going to $2")
}

// choiceMade says "X it is!" as the choice it states, "We went with X", and so the idioms of a choice made
// "for" a name: "we've gone for Sardinia", "I opted for Leeds".
func choiceMade(sent string) string {
	if strings.Contains(sent, " for ") {
		sent = reWentFor.ReplaceAllStringFunc(sent, func(m string) string {
			g := reWentFor.FindStringSubmatch(m)
			if notNames[strings.ToLower(g[2])] {
				return m
			}
			return g[1] + "went with " + g[2]
		})
	}
	if !strings.Contains(sent, " it is") {
		return sent
	}
	if m := reItIs.FindStringSubmatch(sent); m != nil && !notNames[strings.ToLower(strings.Fields(m[1])[0])] {
		return "We went with " + m[1] + "."
	}
	return sent
}

// reWentFor is a choice of a named thing said with "go for", "opt for" or "plump for": "we've gone for
// Sardinia" (groups: the chooser, the name's first word).
var reWentFor = regexp.MustCompile(`\b((?:I|[Ww]e)\s+)(?:have\s+|'ve\s+|had\s+|'d\s+)?(?:(?i:finally|just|now|eventually)\s+)?(?:gone|went|opted|plumped)\s+for\s+(\p{Lu}[\pL\pM'-]*)`)

// reCalledOffCue is a word of the idioms of a plan given up (calledOff): a sentence without one is not scanned.
var reCalledOffCue = regexp.MustCompile(`(?i)through|hold|cancel|scrap|shelved|scratch|ditch|skip|mind|happening`)

// reLastPlanned is a planned event's noun at the end of a phrase.
var reLastPlanned = regexp.MustCompile(`(?i)\b(?:` + plannedEvents + `)$`)

// reLastScheduled is a scheduled event's noun at the end of a phrase.
var reLastScheduled = regexp.MustCompile(`(?i)\b(?:` + scheduledEvents + `)$`)

// plannedEvent reports whether a phrase ends in a noun of a planned event: "changed my mind about the trip" gives
// up a plan, "changed my mind about the colour" does not.
func plannedEvent(np string) bool { return reLastPlanned.MatchString(np) }

// reGotBooked is a thing of the speaker's said to be booked with "get" or "have": "Got the van's MOT booked for
// Tuesday 4 June", "I've got my dentist appointment booked in for the 12th", "we have the venue booked for May"
// (groups: who, the thing, what follows "booked").
var reGotBooked = regexp.MustCompile(`^(?:(I|[Ww]e)(?:'ve|\s+have|'d|\s+had)?\s+)?(?:(?i:just|finally|now)\s+)?(?i:got|have|has|had)\s+((?i:the|my|our)\s+[\pL\pM' -]{1,40}?)\s+(?i:booked|scheduled|arranged)(?:\s+(?i:in))?(\s+(?i:for|on)\s+\S.*)$`)

// gotBooked says a booking made with "get" or "have" as the booking it states: "Got the van's MOT booked for 4
// June" is "I booked the van's MOT for 4 June", which the update readers file as the thing's date. Other
// clauses are returned as they are.
func gotBooked(clause string) string {
	if !strings.Contains(clause, "booked") && !strings.Contains(clause, "scheduled") && !strings.Contains(clause, "arranged") {
		return clause
	}
	m := reGotBooked.FindStringSubmatch(clause)
	if m == nil {
		return clause
	}
	who := "I"
	if m[1] != "" {
		who = titleCase(m[1])
	}
	return who + " booked " + m[2] + m[3]
}

// reBookedEventAt is a planned event booked at a named place: "We've booked the wedding at Quinta da Pacheca
// near Porto, for 14 September" (groups: the event, the place with its preposition and what follows).
var reBookedEventAt = regexp.MustCompile(`^(?:I|[Ww]e)(?:'ve|\s+have)?\s+(?:(?i:just|finally|now)\s+)?(?i:booked|reserved)\s+(?i:the|our|my)\s+((?:[\pL\pM-]+\s+){0,2}?(?i:` + scheduledEvents + `))\s+((?i:at|in)\s+(?:(?i:the)\s+)?\p{Lu}.*)$`)

// bookedEventAt says a planned event booked at a named place as the event's place: "We've booked the wedding at
// Quinta da Pacheca" is "Our wedding is at Quinta da Pacheca". Other clauses are returned as they are.
func bookedEventAt(clause string) string {
	if m := reBookedEventAt.FindStringSubmatch(clause); m != nil {
		return "Our " + strings.ToLower(m[1]) + " is " + m[2]
	}
	return clause
}

// eventSlot files a statement of an event in the slot of what it says: its date in the event's date slot
// (canon.EventDateKey: "Our wedding is on 14 September" is wedding_date), so that a new venue does not retire
// the date nor a new date the venue, and its place said with a noun of place in the event's own slot ("The
// wedding venue is Aynhoe Park" is the wedding's, as "The wedding is at Aynhoe Park" is).
func eventSlot(c extract.Claim) extract.Claim {
	if c.Fallback {
		return c
	}
	if event, ok := canon.EventOfPlaceKey(c.PredicateKey); ok && !dateValued(c.Object) {
		c.PredicateKey = event
		return c
	}
	if key, ok := canon.EventDateKey(c.PredicateKey); ok && dateValued(c.Object) {
		c.PredicateKey = key
	}
	return c
}

// timeOfDayWords may stand beside a date in a value that says only when ("Friday 15 March 2024 at 2 pm",
// "Tuesday 4 June 2024 in the morning").
var timeOfDayWords = map[string]bool{"on": true, "at": true, "in": true, "the": true, "of": true, "from": true,
	"morning": true, "afternoon": true, "evening": true, "night": true, "noon": true, "midday": true, "am": true,
	"pm": true, "a.m.": true, "p.m.": true, "o'clock": true}

// reClockTime is a time of day as written ("2", "2pm", "14:30", "2.30pm").
var reClockTime = regexp.MustCompile(`^\d{1,2}(?:[:.]\d\d)?(?:am|pm|a\.m\.|p\.m\.)?$`)

// dateValued reports a value that says only when: a date as the extractor writes one ("14 September 2024",
// "Saturday 1 June 2024", "June 2025"), with at most a time of day beside it. A place beside a date ("Madrid
// in October") is no date's value.
func dateValued(object string) bool {
	// A value is said without the preposition its date is found by ("June 2025" of "in June 2025").
	var rest []byte
	for _, prep := range []string{"", "on ", "in "} {
		ds := findDates(prep+object, time.Time{})
		if len(ds) == 0 {
			continue
		}
		rest = []byte(prep + object)
		for _, d := range ds {
			for i := d.start; i < d.end && i < len(rest); i++ {
				rest[i] = ' '
			}
		}
		break
	}
	if rest == nil {
		return false
	}
	for _, w := range strings.Fields(strings.ToLower(string(rest))) {
		w = strings.Trim(w, ",;")
		if w != "" && !timeOfDayWords[w] && !reClockTime.MatchString(w) {
			return false
		}
	}
	return true
}

// reOwnEventIs is a planned event of the speaker's, as eventPlace says it, and what it is (groups: the
// determiner and the event — or, as chat clips its article, the event's noun phrase capitalized alone: "Book
// club is …", checked by eventDateAndPlace —, the copula, the rest): "Our wedding is on 14 September at
// Ballynahinch Castle".
var reOwnEventIs = regexp.MustCompile(`^((?:Our|My|The|our|my|the)\s+(?:[\pL\pM-]+\s+){0,2}?(?i:` + scheduledEvents + `)|\p{Lu}\p{Ll}+(?:\s+\p{Ll}+)?)(\s+is|\s+are|'s|\s+will\s+be|'ll\s+be)\s+(.+)$`)

// reBookedFor is what English puts between an event's copula and its date or place when it was arranged:
// "booked for", "set for", "scheduled for", "planned for", "booked in at".
var reBookedFor = regexp.MustCompile(`^(?i:now\s+)?(?i:(?:booked|set|scheduled|planned|pencilled|penciled|fixed|confirmed)(?:\s+in)?\s+(?:for\s+)?)`)

// rePlaceNamed is a place by its name after "at" or "in", or someone's home: "at Ballynahinch Castle", "in the Old
// Barn", "at my place" (group: the place with its preposition).
var rePlaceNamed = regexp.MustCompile(`\b((?i:at|in)\s+(?:(?:the\s+)?\p{Lu}[\pL\pM'.&-]*(?:\s+(?:(?:of|de|du|la|le|the)\s+)?\p{Lu}[\pL\pM'.&-]*)*|(?i:my|our|his|her|their)\s+(?:[\p{Ll}-]+\s+)?(?:` + homeNounAlts + `)\b))`)

// eventDatesApart says each sentence that gives a planned event both a date and a place by name as two, one
// for each ("The party is on Saturday at the Crown" is "Our party is on Saturday 1 June 2024." and "Our party
// is at the Crown."): the two are kept in two slots (eventSlot), and a clause has one value. What follows the
// place stays with it. Other sentences are returned as they are.
func (e *Extractor) eventDatesApart(sents []string, ref time.Time) []string {
	var out []string
	for _, s := range sents {
		if !saysADay(s) {
			out = append(out, s)
			continue
		}
		if parts := eventDateAndPlace(trueCase(s, e.nouns), ref); len(parts) > 1 {
			// (A sentence typed in lower case is read with the capitals of its names.)
			out = append(out, parts...)
			continue
		}
		out = append(out, s)
	}
	return out
}

// saysADay reports a sentence that may name a day: a digit, or the name of a month or a weekday.
func saysADay(sent string) bool {
	return strings.ContainsAny(sent, "0123456789") || reMonthOrWeekday.MatchString(sent)
}

// eventDateAndPlace returns a sentence that may name a day (saysADay) as its date's and its place's sentences,
// or alone.
func eventDateAndPlace(sent string, ref time.Time) []string {
	// As eventPlace says it, or as said when eventPlace put a month first ("In October, our offsite is in
	// Madrid").
	var m []string
	for _, said := range []string{eventPlace(bookedEventAt(strings.TrimSpace(sent))), strings.TrimSpace(sent)} {
		if m = reOwnEventIs.FindStringSubmatch(said); m != nil {
			break
		}
	}
	if m == nil {
		return []string{sent}
	}
	event, rest := m[1], m[3]
	f := strings.Fields(event)
	clipped := true
	switch strings.ToLower(f[0]) {
	case "our", "my", "the":
		f, clipped = f[1:], false
	}
	if len(f) == 0 || !canon.EventKey(strings.ToLower(strings.Join(f, "_"))) {
		return []string{sent}
	}
	if clipped {
		// Chat's clipped article ("Book club is at my place on Thursday the 14th"): the event's own noun.
		event = "the " + strings.ToLower(event)
	}
	from := len(m[0]) - len(rest)
	if loc := reBookedFor.FindStringIndex(rest); loc != nil {
		rest, from = rest[loc[1]:], from+loc[1]
	}
	// Dates are found in the whole clause, whose verb says whether a month named alone is ahead ("is in
	// October") or behind.
	ds := shiftDates(findDates(m[0], ref), from, 0)
	place := rePlaceNamed.FindStringSubmatchIndex(rest)
	if len(ds) != 1 || place == nil || place[2] < ds[0].end && ds[0].start < place[3] {
		return []string{sent}
	}
	d := ds[0]
	var placed string
	if place[2] > d.start {
		// "on 14 September at Ballynahinch Castle, about 90 guests": the place and what follows it.
		if strings.TrimSpace(strings.Trim(rest[d.end:place[2]], ", ")) != "" {
			return []string{sent}
		}
		placed = rest[place[2]:]
	} else {
		// "at Weston Hall on 8 June": the place, and what follows the date.
		if strings.TrimSpace(strings.Trim(rest[place[3]:d.start], ", ")) != "" && !reDatePrep.MatchString(rest[place[3]:d.start]) {
			return []string{sent}
		}
		placed = rest[place[2]:place[3]] + rest[d.end:]
	}
	owner := event
	if strings.EqualFold(strings.Fields(event)[0], "the") {
		// A definite event without an owner is the speaker's in conversation, as eventPlace says it.
		owner = "Our " + strings.TrimSpace(event[len("the"):])
	}
	return []string{sentence(owner + " is " + d.phrase), sentence(owner + " is " + strings.TrimRight(placed, " "))}
}

// reMonthOrWeekday finds a month's or a weekday's name, without which a sentence with no digit says no date
// eventDateAndPlace reads.
var reMonthOrWeekday = regexp.MustCompile(`(?i)\b(?:` + monthRe + `|` + weekdayRe + `|tomorrow|today|tonight)\b`)

// reDatePrep is the preposition before a date: what may stand between a place and its date ("at the Crown on").
var reDatePrep = regexp.MustCompile(`^\s*,?\s*(?i:on|in|for)?\s*$`)
