package query

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
)

// dated is a current claim as the extractor files an event's date (in the event's date slot,
// canon.EventDateKey: "wedding date"), said at sequence seq.
func dated(id, subject, predicate, object, text string, seq int64, functional bool) *store.Belief {
	s := seq
	key := canon.RelationKey(canon.PredicateKey(predicate))
	return &store.Belief{ID: id, Subject: subject, SubjectKey: canon.SubjectKey(subject), Predicate: predicate,
		PredicateKey: key, SlotKey: key, Object: object, ObjectKey: canon.ObjectKey(object), Text: text,
		Functional: functional, Sequence: &s, Status: "active"}
}

// slotOf is the resolved slot of one current claim.
func slotOf(c *store.Belief) *store.Slot {
	return &store.Slot{SubjectKey: c.SubjectKey, SlotKey: c.SlotKey, Claims: []*store.Belief{c}, Winners: []*store.Belief{c}}
}

// Each case: the event's date said first, a later statement, and whether the later one moves the event (the
// answers worked out from the sentences: "the wedding has been pushed back" after "my brother's wedding is on
// 14 June" can only be the brother's wedding moved).
func TestALaterStatementMovesAnEventsDate(t *testing.T) {
	cases := []struct {
		name       string
		event, by  *store.Belief
		wantsMoved bool
	}{
		{"the wedding, its owner left out, is the brother's",
			dated("w", "Kim's brother", "wedding date", "14 June 2024", "Kim's brother's wedding is on 14 June 2024.", 1, true),
			dated("m", "Kim", "wedding date", "9 August 2024", "The wedding has been pushed back to 9 August 2024.", 2, true), true},
		{"the speaker's own wedding is not the brother's",
			dated("w", "Kim's brother", "wedding date", "14 June 2024", "Kim's brother's wedding is on 14 June 2024.", 1, true),
			dated("m", "Kim", "wedding date", "9 August 2024", "Kim's wedding has been moved to 9 August 2024.", 2, true), false},
		{"a shorter name of the same event",
			dated("w", "Kim", "graduation ceremony date", "12 July 2024", "Kim's graduation ceremony is on 12 July 2024.", 1, true),
			dated("m", "Kim", "graduation date", "19 July 2024", "They have pushed graduation to 19 July 2024.", 2, true), true},
		{"a longer name is another event",
			dated("w", "Kim", "birthday", "5 May 2024", "Kim's birthday is on 5 May 2024.", 1, true),
			dated("m", "Kim", "birthday party date", "7 May 2024", "Kim's birthday party has been moved to 7 May 2024.", 2, true), false},
		{"a date said without a change moves nothing",
			dated("w", "Kim", "graduation ceremony date", "12 July 2024", "Kim's graduation ceremony is on 12 July 2024.", 1, true),
			dated("m", "Kim", "graduation date", "20 July 2024", "Kim's graduation is on 20 July 2024.", 2, true), false},
		{"an earlier statement moves nothing",
			dated("w", "Kim's brother", "wedding date", "14 June 2024", "Kim's brother's wedding is on 14 June 2024.", 2, true),
			dated("m", "Kim", "wedding date", "9 August 2024", "The wedding has been pushed back to 9 August 2024.", 1, true), false},
		{"another person's event is not moved",
			dated("w", "Ana's brother", "wedding date", "14 June 2024", "Ana's brother's wedding is on 14 June 2024.", 1, true),
			dated("m", "Kim", "wedding date", "9 August 2024", "The wedding has been pushed back to 9 August 2024.", 2, true), false},
		{"a year on is another event of the name",
			dated("w", "Kim", "graduation ceremony date", "12 July 2024", "Kim's graduation ceremony is on 12 July 2024.", 1, true),
			dated("m", "Kim", "graduation date", "11 July 2025", "Graduation has moved to 11 July 2025.", 2, true), false},
		{"an unnamed move of the speaker",
			dated("w", "Kim", "dentist appointment date", "3 March 2024", "Kim has a dentist appointment on 3 March 2024.", 1, true),
			dated("m", "Kim", "rescheduled to", "10 March 2024", "The surgery rang and moved Kim to 10 March 2024.", 2, false), true},
		{"a value that is no date is moved by nothing",
			dated("w", "Kim", "dentist", "Dr Patel", "Kim's dentist is Dr Patel.", 1, true),
			dated("m", "Kim", "rescheduled to", "10 March 2024", "The surgery rang and moved Kim to 10 March 2024.", 2, false), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sl := slotOf(c.event)
			moved := rescheduleEvents([]*store.Slot{sl}, []*store.Belief{c.by}, false)
			if got := moved[c.event.ID] != nil; got != c.wantsMoved {
				t.Fatalf("moved = %v, want %v", got, c.wantsMoved)
			}
			want := c.event
			if c.wantsMoved {
				want = c.by
			}
			if len(sl.Winners) != 1 || sl.Winners[0] != want {
				t.Errorf("current value %v, want %q", sl.Winners, want.Object)
			}
		})
	}
}

// An unnamed move is of the speaker's event it moves least: "they've moved us to 16 October" after a dentist
// appointment on 3 October and a boiler service on 9 October is the boiler service; "moved me to July 10th" after
// a dentist appointment on 3 July and, said later, a wedding on 5 October is the dentist; and a relative's
// event is not the speaker's to move unnamed.
func TestAnUnnamedMoveIsOfTheEventItMovesLeast(t *testing.T) {
	dentist := dated("d", "Kim", "dentist appointment date", "3 October 2024", "Kim has a dentist appointment on 3 October 2024.", 1, true)
	boiler := dated("b", "Kim", "boiler service", "9 October 2024", "The boiler service is booked for 9 October 2024.", 2, true)
	move := dated("m", "Kim", "rescheduled to", "16 October 2024", "They have moved Kim and others to 16 October 2024.", 3, false)
	slots := []*store.Slot{slotOf(dentist), slotOf(boiler)}
	moved := rescheduleEvents(slots, []*store.Belief{move}, false)
	if moved["b"] != move || moved["d"] != nil {
		t.Fatalf("moved %v, want the boiler service only", moved)
	}
	if slots[0].Winners[0] != dentist || slots[1].Winners[0] != move {
		t.Errorf("current values %q and %q, want 3 October 2024 and 16 October 2024", slots[0].Winners[0].Object, slots[1].Winners[0].Object)
	}

	dentist = dated("d", "Kim", "dentist appointment date", "3 July 2024", "Kim has a dentist appointment on 3 July 2024.", 1, true)
	wedding := dated("w", "Kim", "wedding date", "5 October 2024", "Kim's wedding is on 5 October 2024.", 2, true)
	brother := dated("x", "Kim's brother", "wedding date", "14 July 2024", "Kim's brother's wedding is on 14 July 2024.", 3, true)
	move = dated("m", "Kim", "rescheduled to", "10 July 2024", "The surgery rang and moved Kim to 10 July 2024.", 4, false)
	slots = []*store.Slot{slotOf(dentist), slotOf(wedding), slotOf(brother)}
	moved = rescheduleEvents(slots, []*store.Belief{move}, false)
	if len(moved) != 1 || moved["d"] != move {
		t.Errorf("moved %v, want the dentist appointment only", moved)
	}
}

// A search keeps the claim whose date moved after the moved one: its sentence may say more than the date.
func TestASearchKeepsTheMovedClaimsSentence(t *testing.T) {
	w := dated("w", "Kim's brother", "wedding date", "14 June 2024", "Kim's brother's wedding is on 14 June 2024, in Bath.", 1, true)
	m := dated("m", "Kim", "wedding date", "9 August 2024", "The wedding has been pushed back to 9 August 2024.", 2, true)
	sl := slotOf(w)
	if moved := rescheduleEvents([]*store.Slot{sl}, []*store.Belief{m}, true); moved["w"] != m {
		t.Fatalf("moved %v, want the wedding moved by m", moved)
	}
	if len(sl.Winners) != 2 || sl.Winners[0] != m || sl.Winners[1] != w {
		t.Errorf("values %v, want the move, then the sentence it moved", sl.Winners)
	}
}

// The reader answers with the moved date (the question's subject is the brother; the move is the speaker's
// statement about "the wedding").
func TestQuestionOfAMovedEventAnswersTheNewDate(t *testing.T) {
	f := newMemFacts()
	f.add("Kim's brother", "wedding date", "14 June 2024", "Kim's brother's wedding is on 14 June 2024, in Bath.", 1)
	f.add("Kim", "wedding date", "9 August 2024", "The wedding has been pushed back to 9 August 2024.", 2)
	f.add("Rohan", "dentist appointment date", "3 March 2024", "Rohan has got a dentist appointment on 3 March 2024.", 3)
	f.add("Rohan", "rescheduled to", "10 March 2024", "The dental surgery rang and moved Rohan to 10 March 2024.", 4)
	rows := f.bySubject["rohan"]
	rows[len(rows)-1].Functional = false
	checkResolved(t, f, map[string]string{
		"When is Kim's brother's wedding?":     "9 August 2024",
		"When is Rohan's dentist appointment?": "10 March 2024",
	})
}

// An event's date and place are kept in two slots, so a question of either reads its own: a new venue said
// after the date ("we've had to move the wedding to Cliff at Lyons. Same date") leaves the date as it was. A
// date filed in the event's own slot, as it was before the two were kept apart, still answers "when".
func TestAnEventsDateAndPlaceAreAskedApart(t *testing.T) {
	f := newMemFacts()
	f.add("Declan", "wedding date", "14 September 2024", "Declan's wedding is on 14 September 2024.", 1)
	f.add("Declan", "wedding", "Cliff at Lyons", "Declan's wedding is at Cliff at Lyons.", 2)
	f.add("Ana", "wedding", "3 May 2024", "Ana's wedding is on 3 May 2024.", 3)
	checkResolved(t, f, map[string]string{
		"When is Declan's wedding?":  "14 September 2024",
		"Where is Declan's wedding?": "Cliff at Lyons",
		"When is Ana's wedding?":     "3 May 2024",
	})
}
