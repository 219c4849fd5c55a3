package canon

import "testing"

// TestEventKeys checks which relation keys name an event (by the key's head noun) and the keys of an event's
// date and place, worked out from the words.
func TestEventKeys(t *testing.T) {
	for key, want := range map[string]bool{"wedding": true, "dentist_appointment": true, "team_away_day": true,
		"baby_shower": true, "book_club": true, "shower": false, "wedding_date": false, "lives_in": false,
		"birthday": false, "": false, "flight": true, "partner": false} {
		if got := EventKey(key); got != want {
			t.Errorf("EventKey(%q) = %v, want %v", key, got, want)
		}
	}
	if k, ok := EventDateKey("dentist_appointment"); !ok || k != "dentist_appointment_date" {
		t.Errorf("EventDateKey(dentist_appointment) = %q, %v", k, ok)
	}
	if _, ok := EventDateKey("wedding_date"); ok {
		t.Error("a date's key has no date of its own")
	}
	if e, ok := EventOfDateKey("graduation_ceremony_date"); !ok || e != "graduation_ceremony" {
		t.Errorf("EventOfDateKey(graduation_ceremony_date) = %q, %v", e, ok)
	}
	if _, ok := EventOfDateKey("expiry_date"); ok {
		t.Error("an expiry date is no event's")
	}
	for _, k := range []string{"wedding_venue", "party_location", "offsite_place"} {
		if _, ok := EventOfPlaceKey(k); !ok {
			t.Errorf("EventOfPlaceKey(%q) names no event", k)
		}
	}
	if _, ok := EventOfPlaceKey("birth_place"); ok {
		t.Error("a birthplace is no event's place")
	}
}
