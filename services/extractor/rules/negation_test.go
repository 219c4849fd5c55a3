package rules

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

func negatedOf(cs []extract.Claim) []extract.Claim {
	var out []extract.Claim
	for _, c := range cs {
		if c.Negated {
			out = append(out, c)
		}
	}
	return out
}

// TestNegatedClaims: a plain negative statement in the first person or about a named subject becomes a negated
// claim (subject, positive predicate, object, third-person text); questions, conditions, wishes, modals, mental
// states and empty objects yield none.
func TestNegatedClaims(t *testing.T) {
	e := New()
	cases := []struct {
		in                                   string
		subject, predicate, object, wantText string // empty subject: no negated claim
	}{
		{"I've never written any Flask routes or handled HTTP requests in this project, so I'm starting from scratch.",
			"Alice", "has written", "any Flask routes or handled HTTP requests in this project",
			"Alice has never written any Flask routes or handled HTTP requests in this project."},
		{"I want my site to be accessible, but I've never implemented any Bootstrap components in this project before. Can you help?",
			"Alice", "has implemented", "any Bootstrap components in this project",
			"Alice has never implemented any Bootstrap components in this project."},
		{"I've never used any citation management software, like Zotero, so how do I get started ->-> 1,23",
			"Alice", "has used", "any citation management software, like Zotero",
			"Alice has never used any citation management software, like Zotero."},
		{"I've never read any books by Daniel Dennett, can you tell me a bit about his work?",
			"Alice", "has read", "any books by Daniel Dennett", "Alice has never read any books by Daniel Dennett."},
		{"I've never worked with my child Michael on any projects, but I'm thinking of it.",
			"Alice", "has worked with", "Alice's child Michael on any projects",
			"Alice has never worked with Alice's child Michael on any projects."},
		{"Bob has never been to Paris.", "Bob", "has been to", "Paris", "Bob has never been to Paris."},
		{"I don't use Slack anymore.", "Alice", "uses", "Slack", "Alice does not use Slack."},
		{"I'm not using Redux in this app.", "Alice", "is using", "Redux in this app", "Alice is not using Redux in this app."},
		{"I never drink coffee.", "Alice", "drinks", "coffee", "Alice never drinks coffee."},
		{"I haven't ever visited Japan.", "Alice", "has visited", "Japan", "Alice has never visited Japan."},
		// Not statements, or nothing to state.
		{"Do you think I have never used Python?", "", "", "", ""},
		{"Have I never used Python?", "", "", "", ""},
		{"If I had never moved to Berlin, I would be sad.", "", "", "", ""},
		{"I wish I had never sold my car.", "", "", "", ""},
		{"I would never use Java.", "", "", "", ""},
		{"I will not use Java.", "", "", "", ""},
		{"I don't know how to do this.", "", "", "", ""},
		{"I'm not sure how to proceed.", "", "", "", ""},
		{"I haven't been able to get it working.", "", "", "", ""},
		{"I'm kinda new to this, so I've never done this before.", "", "", "", ""},
		{"I wonder if I have never tried sushi.", "", "", "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.in, func(t *testing.T) {
			turn := event.TurnAcceptedV1{Workspace: "w", TurnID: "t1", Role: "user", Speaker: "Alice", Content: tc.in,
				OccurredAt: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)}
			got := negatedOf(e.ExtractTurn(turn))
			if tc.subject == "" {
				if len(got) != 0 {
					t.Fatalf("want no negated claim, got %+v", got)
				}
				return
			}
			if len(got) != 1 {
				t.Fatalf("want one negated claim, got %+v", got)
			}
			c := got[0]
			if c.Subject != tc.subject || c.Predicate != tc.predicate || c.Object != tc.object || c.Text != tc.wantText {
				t.Fatalf("got [%s | %s | %s] %q\nwant [%s | %s | %s] %q", c.Subject, c.Predicate, c.Object, c.Text,
					tc.subject, tc.predicate, tc.object, tc.wantText)
			}
			if c.Functional || c.SubjectKey == "" || c.PredicateKey == "" || len(c.TurnIDs) != 1 {
				t.Fatalf("claim fields: %+v", c)
			}
		})
	}
}

// FuzzNegatedClaims: any text extracts without panicking, and every negated claim is complete.
func FuzzNegatedClaims(f *testing.F) {
	for _, s := range []string{"I've never used Zotero.", "Bob has not ever been to Rome, so", "I never", "I am not x", "Alice Bob Carol did not go"} {
		f.Add(s)
	}
	e := New()
	f.Fuzz(func(t *testing.T, s string) {
		turn := event.TurnAcceptedV1{Workspace: "w", TurnID: "t1", Role: "user", Content: s}
		for _, c := range negatedOf(e.ExtractTurn(turn)) {
			if c.Subject == "" || c.Predicate == "" || c.Object == "" || c.Text == "" {
				t.Fatalf("incomplete negated claim %+v from %q", c, s)
			}
		}
	})
}

// TestCorrectionOfAnEarlierTurn checks a correction said in a later turn of the same window, after the
// assistant answered: the claim of the earlier turn states the corrected value, counts the correcting turn as
// a source, and no claim keeps the wrong value; another speaker's turn is never corrected.
func TestCorrectionOfAnEarlierTurn(t *testing.T) {
	ref := time.Date(2024, 4, 4, 9, 0, 0, 0, time.UTC)
	turns := []event.TurnAcceptedV1{
		{TurnID: "a", SessionID: "s", Speaker: "Noa", Role: "user", Content: "My budget for the new bike is 800 dollars.", OccurredAt: ref},
		{TurnID: "b", SessionID: "s", Role: "assistant", Content: "My budget advice: stay under 700 dollars.", OccurredAt: ref},
		{TurnID: "c", SessionID: "s", Speaker: "Noa", Role: "user", Content: "Sorry, I meant 1,100 dollars, not 800.", OccurredAt: ref},
	}
	res, err := New().Extract(context.Background(), extract.Window{SessionID: "s", Turns: turns})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range res.Claims {
		if c.SubjectKey == "noa" && strings.Contains(c.Object, "800") {
			t.Errorf("the wrong value is still claimed: %+v", c)
		}
		if c.SubjectKey == "noa" && c.Object == "1,100 dollars" {
			found = true
			if !slices.Equal(c.TurnIDs, []string{"a", "c"}) {
				t.Errorf("the corrected claim's sources are %v, want [a c]", c.TurnIDs)
			}
		}
		if c.TurnIDs[0] == "b" && strings.Contains(c.Object, "1,100") {
			t.Errorf("the assistant's turn was corrected: %+v", c)
		}
	}
	if !found {
		t.Fatalf("no claim of Noa's corrected budget; claims: %+v", res.Claims)
	}
}
