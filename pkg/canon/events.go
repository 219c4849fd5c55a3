package canon

import "strings"

// Events. A planned event has two values people give and change apart: when it is and where it is ("The
// wedding is on 14 September at Ballynahinch Castle", and later "we've had to move the wedding to Cliff at
// Lyons. Same date"). One slot for both would let a new venue retire the date and a new date the venue, so an
// event's date has a slot of its own: EventDateKey names it, the extractor files a date-valued statement of an
// event there, and the reader asks it for "when".

// plannedEventNouns are the nouns of everyday English for things people plan and call off.
var plannedEventNouns = []string{"trip", "holiday", "holidays", "vacation", "wedding", "party", "plan", "plans", "move",
	"visit", "dinner", "concert", "match", "game", "meeting", "booking", "reservation", "flight", "tour", "festival",
	"celebration", "reunion", "barbecue", "bbq", "picnic", "getaway", "cruise", "interview", "appointment",
	"engagement", "sale", "deal", "purchase", "offer", "renovation", "extension", "honeymoon"}

// scheduledEventNouns are the nouns of everyday English for events one plans and gives a place or a date to:
// the planned events, and the scheduled ones of work, study and health. Nouns of two words name events whose
// head alone names something else ("a shower").
var scheduledEventNouns = append(append([]string(nil), plannedEventNouns...), "conference", "offsite", "retreat",
	"course", "class", "ceremony", "reception", "housewarming", "launch", "exam", "operation", "surgery",
	"graduation", "gig", "race", "marathon", "christening", "funeral", "anniversary", "meetup", "workshop",
	"recital", "premiere", "training", "practice", "lesson", "lessons", "rehearsal", "rehearsals", "club",
	"away day", "awayday", "baby shower", "bridal shower")

var scheduledEventSet = func() map[string]bool {
	m := make(map[string]bool, len(scheduledEventNouns))
	for _, n := range scheduledEventNouns {
		m[strings.ReplaceAll(n, " ", "_")] = true
	}
	return m
}()

// PlannedEventNouns returns the nouns of things people plan and call off ("trip", "wedding", "appointment").
func PlannedEventNouns() []string { return append([]string(nil), plannedEventNouns...) }

// ScheduledEventNouns returns the nouns of events given a place or a date: the planned events and the
// scheduled ones of work, study and health ("offsite", "exam", "surgery"). A noun of two words is written
// with a space ("away day").
func ScheduledEventNouns() []string { return append([]string(nil), scheduledEventNouns...) }

// eventDateSuffix ends the key of an event's date.
const eventDateSuffix = "_date"

// EventKey reports whether a relation key names a scheduled event, by its head, the key's last word
// ("wedding", "dentist_appointment", "team_away_day").
func EventKey(key string) bool {
	if key == "" {
		return false
	}
	// The nouns are of one word or two ("away day").
	ws := strings.Split(key, "_")
	n := len(ws)
	return scheduledEventSet[ws[n-1]] || n >= 2 && scheduledEventSet[ws[n-2]+"_"+ws[n-1]]
}

// EventDateKey returns the key of the date of the event key names ("wedding" → "wedding_date"), and
// ok=false when key names no event or is already a date's.
func EventDateKey(key string) (string, bool) {
	if !EventKey(key) {
		return "", false
	}
	return key + eventDateSuffix, true
}

// EventOfDateKey returns the event whose date key names ("wedding_date" → "wedding"), and ok=false when key
// is no event's date.
func EventOfDateKey(key string) (string, bool) {
	event, ok := strings.CutSuffix(key, eventDateSuffix)
	if !ok || !EventKey(event) {
		return "", false
	}
	return event, true
}

// EventOfPlaceKey returns the event whose place key names, said with a noun of place ("wedding_venue",
// "party_location", "offsite_place" → the event's own key, which holds where it is), and ok=false otherwise.
func EventOfPlaceKey(key string) (string, bool) {
	for _, s := range []string{"_venue", "_location", "_place"} {
		if event, ok := strings.CutSuffix(key, s); ok && EventKey(event) {
			return event, true
		}
	}
	return "", false
}
