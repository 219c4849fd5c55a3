package query

import (
	"regexp"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Rescheduled events. A planned event's date is a single-valued slot ("My brother's wedding is on 14 June":
// kim's_brother · wedding), and a later statement of the same slot supersedes it in the reconciler. People name
// the event again in fewer words when they move it, though, and the extractor files what they say under what
// they said:
//
//   - a definite description without its owner ("the wedding has been pushed back to 9 August") is the
//     speaker's as far as the words go (kim · wedding), while the only wedding said before was the brother's;
//   - a shorter name of the same event ("Graduation ceremony is 12 July" … "They've pushed graduation to the
//     19th"): graduation_ceremony and graduation are two slots;
//   - no name at all, when the move is said of the person ("the surgery rang and moved me to March 10th",
//     "they've moved us to 16 October"): the extractor files the new date as rescheduled_to.
//
// At read time, as endings are (endings.go), a later date-valued claim of the event's subject or of its owner
// takes the place of an event's date when it says the event moved: its relation's words are some of the
// event's, in order, and its sentence says a change; said of the owner, it names the event without the owner
// ("the wedding", not "Kim's wedding", which is the owner's own); an unnamed move (rescheduled_to) moves the
// speaker's own event whose date it moves least. A move is of days or months, not of a year (maxReschedule).
// The moved date becomes the slot's current value; the old one is ended, so the search context marks it former
// where a current sentence still names it (formermentions.go).

// rescheduledKey is the relation key the extractor gives a new date said of a person moved ("moved me to …").
const rescheduledKey = "rescheduled_to"

// maxReschedule is the furthest an event is taken to move: a later date further from the first is another
// event of the same name (next year's wedding anniversary), not the same one moved.
const maxReschedule = 180 * 24 * time.Hour

// reEventDate is a date as the extractor writes one: day, month name and year ("14 June 2024", "Friday 15
// March 2024 at 2 pm").
var reEventDate = regexp.MustCompile(`\b(\d{1,2}) (January|February|March|April|May|June|July|August|September|October|November|December) ((?:19|20)\d\d)\b`)

// eventDate returns the date a claim's value names, if its value is a date.
func eventDate(c *store.Belief) (time.Time, bool) {
	m := reEventDate.FindStringSubmatch(c.Object)
	if m == nil {
		return time.Time{}, false
	}
	t, err := time.Parse("2 January 2006", m[1]+" "+m[2]+" "+m[3])
	return t, err == nil
}

// reMoveWord is a word or phrase of English that says a planned event's time changed: the verbs of moving it
// (Oxford's senses of "move", "push", "put back", "bring forward", "postpone", "delay", "bump" for a time) and
// the adverbs of a new value ("now", "instead").
var reMoveWord = regexp.MustCompile(`(?i)\b(?:moved|moving|pushed|pushing|put\s+(?:back|off|forward)|brought\s+forward|bring\s+forward|postponed?|delayed|rescheduled?|rebooked|rearranged|bumped|shifted|changed|switched|now|instead|new\s+date)\b`)

// ownerOf returns the subject key of a thing's owner ("kim" of "kim's_brother"), or "".
func ownerOf(subjectKey string) string {
	owner, _, ok := strings.Cut(subjectKey, "'s_")
	if !ok {
		return ""
	}
	return owner
}

// eventWordsWithin reports whether the words of relation key short are words of long, in order and side by
// side ("graduation" of "graduation_ceremony", "party" of "farewell_party").
func eventWordsWithin(short, long string) bool {
	// An event's date is keyed by the event ("graduation_date" is graduation's, canon.EventDateKey).
	if event, ok := canon.EventOfDateKey(short); ok {
		short = event
	}
	if event, ok := canon.EventOfDateKey(long); ok {
		long = event
	}
	return short != "" && strings.Contains("_"+long+"_", "_"+short+"_")
}

// namesEvent reports whether e, a later date-valued claim, names the event of w by its relation and says it
// moved.
func namesEvent(e, w *store.Belief) bool {
	if !e.Functional || e.PredicateKey == rescheduledKey || !reMoveWord.MatchString(e.Text) {
		return false
	}
	if !eventWordsWithin(e.PredicateKey, w.SlotKey) && !eventWordsWithin(e.PredicateKey, w.PredicateKey) {
		return false
	}
	if e.SubjectKey == w.SubjectKey {
		// The same subject in another slot ("graduation" beside "graduation_ceremony"); the same slot is the
		// reconciler's.
		return e.SlotKey != w.SlotKey
	}
	// Said of the owner: only a definite description that leaves the owner out ("the wedding") may be the
	// other's; "Kim's wedding" is Kim's own.
	return !strings.Contains(strings.ToLower(e.Text), strings.ToLower(e.Subject)+"'s")
}

// reschedules reports whether e moves the event whose date w holds (the unnamed moves' choice of event aside:
// rescheduleEvents).
func reschedules(e, w *store.Belief) bool {
	if e.ID == w.ID || e.Negated || !store.Newer(e, w) ||
		e.SubjectKey != w.SubjectKey && e.SubjectKey != ownerOf(w.SubjectKey) {
		return false
	}
	from, ok1 := eventDate(w)
	to, ok2 := eventDate(e)
	if !ok1 || !ok2 || from.Equal(to) || to.Sub(from) > maxReschedule || from.Sub(to) > maxReschedule {
		return false
	}
	return e.PredicateKey == rescheduledKey || namesEvent(e, w)
}

// rescheduleEvents gives each event date of the slots that a later claim among cands moves (reschedules) the
// moved date as the slot's current value, and returns the dates it replaced by claim id with the claim that
// moved each. An unnamed move (rescheduled_to) moves only an event of its own subject, the one among the slots
// whose date it moves least. Disputed slots, accumulating slots and sentence slots are left as they are.
//
// With keep, the claim whose date moved stays among the slot's values after the move: its sentence may say more
// than the date ("… is on 14 June, in Bath": where), and a search context shows it with the old date marked
// former. An answer takes the slot's values as its answer, so it drops it (keep false).
func rescheduleEvents(slots []*store.Slot, cands []*store.Belief, keep bool) map[string]*store.Belief {
	if len(cands) == 0 {
		return nil
	}
	// Decided on the slots as they were read, then applied: a slot already moved must still count as the event
	// it was for the unnamed moves of the others (nearerEvent).
	moved := map[string]*store.Belief{}
	var apply []func()
	for _, sl := range slots {
		if sl.Disputed || sentenceSlot(sl) || len(sl.Winners) != 1 || !sl.Winners[0].Functional {
			continue
		}
		w := sl.Winners[0]
		if _, ok := eventDate(w); !ok {
			continue
		}
		var by *store.Belief
		for _, e := range cands {
			if !reschedules(e, w) || e.PredicateKey == rescheduledKey && (e.SubjectKey != w.SubjectKey || nearerEvent(slots, w, e)) {
				continue
			}
			if by == nil || store.Newer(e, by) {
				by = e
			}
		}
		if by == nil {
			continue
		}
		moved[w.ID] = by
		apply = append(apply, func() {
			sl.Winners = []*store.Belief{by}
			if keep {
				sl.Winners = append(sl.Winners, w)
			}
		})
	}
	for _, f := range apply {
		f()
	}
	return moved
}

// nearerEvent reports whether the slots hold another current event of e's subject that e, an unnamed move,
// would move too and whose date is nearer e's than w's is (or as near and said later): a move is of the event
// it moves least ("moved me to July 10th" after a dentist appointment on 3 July and a wedding on 5 October is
// the dentist's).
func nearerEvent(slots []*store.Slot, w, e *store.Belief) bool {
	to, _ := eventDate(e)
	from, _ := eventDate(w)
	dw := absDuration(to.Sub(from))
	for _, sl := range slots {
		if sl.Disputed || sentenceSlot(sl) || len(sl.Winners) == 0 {
			continue
		}
		x := sl.Winners[0]
		if x.ID == w.ID || x.SubjectKey != e.SubjectKey || !x.Functional || x.PredicateKey == rescheduledKey || !reschedules(e, x) {
			continue
		}
		at, _ := eventDate(x)
		if dx := absDuration(to.Sub(at)); dx < dw || dx == dw && store.Newer(x, w) {
			return true
		}
	}
	return false
}

func absDuration(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// reschedulable returns what a read of the moves of the slots' events needs: for each subject of a slot
// holding a date (and the subject's owner), the earliest valid time of those dates; the relation keys a
// move may name the events by (each run of adjacent words of an event's key); and the first word of
// rescheduled_to, whose claims are not single-valued (one move of the dentist does not undo another of the
// boiler service).
func reschedulable(slots []*store.Slot) (since map[string]time.Time, keys, heads []string) {
	since = map[string]time.Time{}
	for _, sl := range slots {
		if sl.Disputed || sentenceSlot(sl) || len(sl.Winners) != 1 {
			continue
		}
		w := sl.Winners[0]
		if _, ok := eventDate(w); !ok {
			continue
		}
		for _, k := range []string{sl.SubjectKey, ownerOf(sl.SubjectKey)} {
			if t, ok := since[k]; k != "" && (!ok || w.ValidFrom.Before(t)) {
				since[k] = w.ValidFrom
			}
		}
		for _, key := range []string{sl.SlotKey, w.PredicateKey} {
			ws := strings.Split(key, "_")
			for i := range ws {
				for j := i + 1; j <= len(ws); j++ {
					keys = append(keys, strings.Join(ws[i:j], "_"))
				}
			}
		}
	}
	if len(since) == 0 {
		return nil, nil, nil
	}
	head, _, _ := strings.Cut(rescheduledKey, "_")
	return since, dedupe(keys), []string{head}
}

// movesAmong returns the claims among rows that may move an event: single-valued claims and unnamed moves,
// not quarantined.
func movesAmong(rows []store.Belief) []*store.Belief {
	var out []*store.Belief
	for i := range rows {
		c := &rows[i]
		if (c.Functional || c.PredicateKey == rescheduledKey) && c.Status != store.StatusQuarantined {
			out = append(out, c)
		}
	}
	return out
}
