package rules

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

func TestResolvePronoun(t *testing.T) {
	clara := mentions{{name: "Clara", gender: genderFemale}}
	tests := []struct {
		clause     string
		turn, prev mentions
		want       string
	}{
		{"She loves the work", clara, nil, "Clara loves the work"},
		{"She's been great", clara, nil, "Clara has been great"},
		{"He loves the work", clara, nil, "He loves the work"},
		{"She got promoted", nil, clara, "Clara got promoted"},
		{"He said yes", mentions{{name: "Tom"}, {name: "Jake"}}, nil, "He said yes"},
		// A candidate in this turn blocks looking further back, even when it is ambiguous.
		{"He said yes", mentions{{name: "Tom"}, {name: "Jake"}}, mentions{{name: "Sam"}}, "He said yes"},
		{"They opened a bakery", mentions{{name: "Nina and Omar", plural: true}}, nil, "Nina and Omar opened a bakery"},
		{"They opened a bakery", clara, nil, "They opened a bakery"},
		{"Then she moved to Oslo", clara, nil, "Then Clara moved to Oslo"},
	}
	for _, tt := range tests {
		if got := resolvePronoun(tt.clause, tt.turn, tt.prev); got != tt.want {
			t.Errorf("resolvePronoun(%q) = %q, want %q", tt.clause, got, tt.want)
		}
	}
}

func TestCollectMentions(t *testing.T) {
	var ms mentions
	collectMentions(&ms, "My brother Sam met Dr. Lee and my aunt Rosa at the station")
	want := []mention{{name: "Sam", gender: genderMale}, {name: "Lee"}, {name: "Rosa", gender: genderFemale}}
	if len(ms) != len(want) {
		t.Fatalf("mentions %+v, want %+v", ms, want)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("mention %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
}

// TestPronounAcrossATurnThatNamesNoOne checks that a question in between ("Is she still a data scientist?",
// naming no one) does not hide the person a later "she" refers to.
func TestPronounAcrossATurnThatNamesNoOne(t *testing.T) {
	ref := time.Date(2024, 3, 15, 9, 0, 0, 0, time.UTC)
	turns := []event.TurnAcceptedV1{
		{TurnID: "a", SessionID: "s", Speaker: "Kim", Role: "user", Content: "My sister Emma left Google and joined Anthropic.", OccurredAt: ref},
		{TurnID: "b", SessionID: "s", Role: "assistant", Content: "Congratulations to her! What does she do there?", OccurredAt: ref},
		{TurnID: "c", SessionID: "s", Speaker: "Kim", Role: "user", Content: "She's still a data scientist.", OccurredAt: ref},
	}
	res, err := New().Extract(context.Background(), extract.Window{SessionID: "s", Turns: turns})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Claims {
		if c.TurnIDs[0] == "c" && c.SubjectKey == "emma" && c.PredicateKey == "occupation" && c.Object == "data scientist" {
			return
		}
	}
	t.Fatalf("no claim that Emma is a data scientist; claims: %+v", res.Claims)
}

// TestPossessiveOpeningResolves checks a clause that opens with "her" or "his": the owner is the person named
// before (here in the turn before), so the claim is theirs, not the speaker's.
func TestPossessiveOpeningResolves(t *testing.T) {
	ref := time.Date(2024, 11, 2, 9, 0, 0, 0, time.UTC)
	turns := []event.TurnAcceptedV1{
		{TurnID: "a", SessionID: "s", Speaker: "Grace", Role: "user", Content: "My daughter Ellie switched from violin to cello this fall.", OccurredAt: ref},
		{TurnID: "b", SessionID: "s", Role: "assistant", Content: "Big switch!", OccurredAt: ref},
		{TurnID: "c", SessionID: "s", Speaker: "Grace", Role: "user", Content: "Her new teacher is Mr. Novak.", OccurredAt: ref},
	}
	res, err := New().Extract(context.Background(), extract.Window{SessionID: "s", Turns: turns})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range res.Claims {
		if c.TurnIDs[0] == "c" && c.SubjectKey == "ellie" && c.PredicateKey == "teacher" && strings.Contains(c.Object, "Novak") {
			return
		}
	}
	t.Fatalf("no claim that Ellie's teacher is Mr. Novak; claims: %+v", res.Claims)
}

// FuzzExtractWindow extracts two turns of one session (the second may resolve pronouns to the first): claims
// are complete and never dated after their turn.
func FuzzExtractWindow(f *testing.F) {
	seeds := [][2]string{
		{"My sister Clara moved to Boston.", "She loves it there, how do I visit?"},
		{"I'm using Flask 2.3, how do I add login?\n```\nx = 1\n```", "They said it's fine."},
		{"Henrik Alvar, Duke of Varenmark, married Ilse.", "He was born in 1702, which has grown to 3."},
		{"the fact that", ", considering I , remind me that ?"},
		{"My deadline moved to on May 32 — can you?", "She's, he's, they're"},
	}
	for _, s := range seeds {
		f.Add(s[0], s[1])
	}
	e := New()
	ref := time.Date(2024, 3, 15, 9, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, a, b string) {
		turns := []event.TurnAcceptedV1{
			{TurnID: "a", SessionID: "s", Speaker: "Alice", Content: a, OccurredAt: ref},
			{TurnID: "b", SessionID: "s", Speaker: "Bob", Content: b, OccurredAt: ref},
		}
		res, err := e.Extract(context.Background(), extract.Window{SessionID: "s", Turns: turns})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range res.Claims {
			if c.SubjectKey == "" || c.PredicateKey == "" || c.Object == "" || c.Text == "" {
				t.Fatalf("incomplete claim %+v from %q / %q", c, a, b)
			}
			if c.ValidFrom.After(ref) {
				t.Fatalf("valid_from %s after the turn from %q / %q", c.ValidFrom, a, b)
			}
		}
	})
}
