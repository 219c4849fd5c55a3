package query

import (
	"testing"
	"time"
)

// A context shows one statement once: a turn's sentence and the claim read from the same turn in nearly the
// same words are one line, while the same words said in another turn, by another writer, or a claim of the same
// turn that says something else, stay.
func TestDropRestatementsShowsAStatementOnce(t *testing.T) {
	day := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)
	seq := func(n int64) *int64 { return &n }
	claim := func(id, owner string, sequence int64, at time.Time, text string) *claimRow {
		return &claimRow{ID: id, Owner: owner, Scope: "shared", Status: "active", Sequence: seq(sequence), ValidFrom: at, Text: text}
	}
	sentence := claim("sentence", "bench", 7, day, "User is kinda worried that user only secured 3 interviews for producer roles.")
	tests := []struct {
		name  string
		items []item
		want  []string
	}{
		{
			name: "the claim read from the sentence of the same turn",
			items: []item{{claim: sentence},
				{claim: claim("read", "bench", 7, day, "User only secured 3 interviews for producer roles.")}},
			want: []string{"sentence"},
		},
		{
			name: "the same words in a later turn",
			items: []item{{claim: sentence},
				{claim: claim("later", "bench", 9, day.Add(24*time.Hour), "User only secured 3 interviews for producer roles.")}},
			want: []string{"sentence", "later"},
		},
		{
			name: "the same words by another writer",
			items: []item{{claim: sentence},
				{claim: claim("other", "planner", 7, day, "User only secured 3 interviews for producer roles.")}},
			want: []string{"sentence", "other"},
		},
		{
			name: "another fact of the same turn",
			items: []item{{claim: sentence},
				{claim: claim("deadline", "bench", 7, day, "User's application deadline is 1 April 2024.")}},
			want: []string{"sentence", "deadline"},
		},
		{
			name: "a former value is history, not a restatement",
			items: []item{{claim: sentence},
				{claim: claim("old", "bench", 7, day, "User only secured 3 interviews for producer roles."), former: true}},
			want: []string{"sentence", "old"},
		},
		{
			name: "a claim in a contradiction is shown with its counterpart",
			items: []item{{claim: sentence},
				{claim: &claimRow{ID: "flagged", Owner: "bench", Status: "active", Sequence: seq(7), ValidFrom: day,
					Text: "User only secured 3 interviews for producer roles.", Contradicts: []string{"never"}}}},
			want: []string{"sentence", "flagged"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, it := range dropRestatements(tt.items) {
				got = append(got, it.claim.ID)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("kept %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("kept %v, want %v", got, tt.want)
				}
			}
		})
	}
}
