package query

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
)

// A word of change counts unless a negation just before it takes it back.
func TestSaysChange(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"The airline moved my flight to May 13, ugh.", true},
		{"I'm now flying out on June 15 instead.", true},
		{"We pushed the launch back to May 14.", true},
		{"Sorry, I mean 14 March, not 12.", true},
		{"My new go-to spot is Roast House on 5th.", true},
		{"My email is ines.r@proton.me, it hasn't changed.", false},
		{"She never left Google.", false},
		{"Yep, and the hotel is the same.", false},
		{"Emma is a data scientist.", false},
		{"Newcastle is lovely in May.", false}, // a word that begins with one is not one
		{"Audrey loves checking out new parks with her four pups.", false},
		{"Gina got some new offers going on her online store.", false},
		{"Our new landlord is Ms. Okoye.", true},
		{"Gina has been dreaming of this for a while now.", false},
		{"I'm busy right now.", false},
		{"Now it's just black coffee for me.", true},
		{"We enrolled the team in an online course by the AI Now Institute.", false},
		{"She works at the New York office.", false},
		{"Big news: Emma left Google.", true},
		{"Change of plans: we're doing Iceland.", true},
		{"We ended up booking Porto.", true},
		{"Went with the Kia in the end.", true},
		{"Japan fell through, so it's Korea.", true},
		{"We never ended up going.", false},
		{"The end of the film was sad.", false},
	}
	for _, tt := range tests {
		if got := saysChange(tt.text); got != tt.want {
			t.Errorf("saysChange(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// A question asks about what was said then in the past tense and in the perfect, not in the present.
func TestAskedInThePast(t *testing.T) {
	for q, want := range map[string]bool{
		"When did Caroline go to the support group?": true,
		"What desserts has Maria made?":              true,
		"Which concerts have they attended?":         true,
		"Who painted the mural?":                     true,
		"What does Olaf do now?":                     false,
		"Where is Hannah getting married?":           false,
		"Who has the key to the office?":             false,
	} {
		if got := askedInThePast(analyzeQuestion(q)); got != want {
			t.Errorf("askedInThePast(%q) = %v, want %v", q, got, want)
		}
	}
}

// A later statement of the same subject changes an earlier one when it says so and brings a value the earlier
// one did not name; the same value again, a negated or an earlier statement, or someone else's, does not.
func TestChangesNeedsALaterWordOfChangeAndANewValue(t *testing.T) {
	at := func(day string, n int64, subject, object, text string) *store.Belief {
		d, err := time.Parse(time.DateOnly, day)
		if err != nil {
			t.Fatal(err)
		}
		return &store.Belief{Subject: subject, SubjectKey: canon.SubjectKey(subject), Object: object,
			ObjectKey: canon.ObjectKey(object), Text: text, ValidFrom: d, Sequence: &n}
	}
	flight := at("2024-04-04", 1, "Nina", "12 May 2024", "Nina's flight to Lisbon is on 12 May 2024.")
	moved := at("2024-04-20", 2, "Nina", "13 May 2024", "The airline moved Nina's flight to 13 May 2024.")
	if !changes(flight, moved) {
		t.Error("a moved flight does not change the flight's date")
	}
	if changes(moved, flight) {
		t.Error("an earlier statement changes a later one")
	}
	hotel := at("2024-05-05", 3, "Nadia", "Hotel Artemide near Termini", "Nadia is staying at Hotel Artemide near Termini.")
	same := at("2024-06-01", 4, "Nadia", "Hotel Artemide", "Nadia is now still staying at Hotel Artemide.")
	if changes(hotel, same) {
		t.Error("the same hotel said again changes the hotel")
	}
	job := at("2024-03-20", 5, "Olaf", "a firefighter", "Olaf is a firefighter, so he's away a lot.")
	retired := at("2024-10-10", 6, "Olaf", "first aid courses", "Olaf retired from the fire service and now teaches first aid courses.")
	if !changes(job, retired) {
		t.Error("retiring and teaching now does not change the job")
	}
	denied := at("2024-10-10", 6, "Olaf", "first aid courses", "Olaf retired from the fire service and now teaches first aid courses.")
	denied.Negated = true
	if changes(job, denied) {
		t.Error("a negated statement changes the job")
	}
	other := at("2024-10-10", 6, "Karim", "first aid courses", "Karim now teaches first aid courses.")
	if changes(job, other) {
		t.Error("someone else's statement changes Olaf's job")
	}
	unchanged := at("2024-10-10", 6, "Olaf", "the fire service", "Olaf has not changed jobs, the fire service keeps him busy.")
	if changes(job, unchanged) {
		t.Error("a statement that nothing changed changes the job")
	}
}

// The context of a search shows a later statement that says a value changed in other words in the earlier
// value's place (the two are in different slots, so nothing superseded the first); with history asked for,
// both are shown. A later statement takes the place of the one earlier statement it is most about, not of
// another close one (the hotel booked for the flight's day), and a later statement about something else, even
// with a word of change, takes nothing's place. A question in the past tense sees what was said then.
func TestSearchShowsALaterChangeInTheChangedValuesPlace(t *testing.T) {
	// The test embedder hashes words: the statements of one flight share most of theirs here; the local sentence
	// encoder scores statements about one thing in other words as close.
	h := newHarness(t)
	f := h.workspace("trip")
	f.add(fclaim{Subject: "Nina", Predicate: "flight to Lisbon is on", Object: "12 May 2024",
		Text: "Nina's flight to Lisbon is on 12 May 2024.", ValidFrom: day("2024-04-04"), Seq: seq(1)})
	f.add(fclaim{Subject: "Nina", Predicate: "airline moved flight to", Object: "13 May 2024",
		Text: "The airline moved Nina's flight to Lisbon to 13 May 2024.", ValidFrom: day("2024-04-20"), Seq: seq(2)})
	f.add(fclaim{Subject: "Nina", Predicate: "hotel for flight booked on", Object: "12 May 2024",
		Text: "The hotel for Nina's flight to Lisbon is booked on 12 May 2024.", ValidFrom: day("2024-04-05"), Seq: seq(5)})
	f.add(fclaim{Subject: "Nina", Predicate: "lives in", Object: "Porto",
		Text: "Nina lives in Porto.", ValidFrom: day("2024-01-02"), Seq: seq(3)})
	f.add(fclaim{Subject: "Nina", Predicate: "bought", Accumulating: true, Object: "a new bike",
		Text: "Nina bought a new bike now.", ValidFrom: day("2024-05-02"), Seq: seq(4)})
	search := func(q string) string {
		t.Helper()
		res, err := h.client("agent-a").Search(context.Background(), "trip", api.SearchRequest{Query: q, K: 10, TokenBudget: 500})
		if err != nil {
			t.Fatal(err)
		}
		return res.Context
	}
	ctx := search("When is Nina's flight to Lisbon?")
	if !strings.Contains(ctx, "13 May 2024") || strings.Contains(ctx, "is on 12 May 2024") {
		t.Fatalf("the context does not show the moved flight in place of the first date:\n%s", ctx)
	}
	if ctx := search("When is the hotel for Nina's flight booked?"); !strings.Contains(ctx, "hotel for Nina's flight") {
		t.Fatalf("the moved flight took the place of the hotel, which it is less about:\n%s", ctx)
	}
	if ctx := search("Where does Nina live?"); !strings.Contains(ctx, "Porto") {
		t.Fatalf("a later statement about a bike took the place of where Nina lives:\n%s", ctx)
	}
	if ctx := search("When was Nina's flight to Lisbon originally?"); !strings.Contains(ctx, "12 May 2024") {
		t.Fatalf("history does not show the first date:\n%s", ctx)
	}
	for _, q := range []string{"What did Nina say about her flight to Lisbon?", "Which dates has Nina's flight to Lisbon been given?"} {
		if ctx := search(q); !strings.Contains(ctx, "is on 12 May 2024") {
			t.Fatalf("%q, in the past tense or the perfect, does not see what was said then:\n%s", q, ctx)
		}
	}
}
