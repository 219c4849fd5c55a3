package rules

import "testing"

// TestCountAttributeKey checks the key of a count said as an attribute ("the number of X went up to N"): it must
// be the key a statement of the things themselves gets ("I ordered 24 cupcakes" → number_of_cupcake_ordered), so
// the two fill one slot. Expected keys are written from the phrase.
func TestCountAttributeKey(t *testing.T) {
	for attr, want := range map[string]string{
		"number of cupcakes ordered":                    "number_of_cupcake_ordered",
		"number of cupcakes i ordered":                  "number_of_cupcake_ordered",
		"number of books we have read":                  "number_of_book_read",
		"number of mentees highlighted in my portfolio": "number_of_mentee_highlighted",
		"total number of commits":                       "number_of_commit",
		"number of classification problems completed":   "number_of_classification_problem_completed",
		// What follows the kind without a verb may tell two counts apart: left as said.
		"number of students in my class": "",
		"response time":                  "",
	} {
		got, ok := countAttributeKey(attr)
		if want == "" {
			if ok {
				t.Errorf("countAttributeKey(%q) = %q, want none", attr, got)
			}
			continue
		}
		if got != want {
			t.Errorf("countAttributeKey(%q) = %q, want %q", attr, got, want)
		}
	}
}
