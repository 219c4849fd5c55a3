package rules

import (
	"slices"
	"testing"
)

func TestStatedParts(t *testing.T) {
	tests := []struct {
		sentence string
		want     []string
	}{
		{"I am using Flask 2.3 with Python 3.11, how do I add a login page?", []string{"I am using Flask 2.3 with Python 3.11"}},
		{"My deadline moved to May 5 - can you re-plan?", []string{"My deadline moved to May 5"}},
		{"Can you help me plan, considering I am using Python 3.11?", []string{"I am using Python 3.11"}},
		{"The response time, which has improved to 250ms, is fine, so what should I do next?", []string{"The response time, which has improved to 250ms, is fine"}},
		{"How can I use the fact that I secured 5 interviews?", []string{"I secured 5 interviews"}},
		{"Could you remind me that the call is at 4 PM?", []string{"the call is at 4 PM"}},
		// Questions and nothing else.
		{"Which laptop should I buy?", nil},
		{"You moved to Lisbon, right?", nil},
		{"Anything new since we last spoke?", nil},
		{"Did you go to the concert?", nil},
		{"Have you ever been to Japan, or is it on your list?", nil},
	}
	for _, tt := range tests {
		if got := statedParts(tt.sentence); !slices.Equal(got, tt.want) {
			t.Errorf("statedParts(%q) = %q, want %q", tt.sentence, got, tt.want)
		}
	}
}

func TestComplementOf(t *testing.T) {
	tests := []struct{ clause, want string }{
		{"I am kinda worried that I only saved $400", "I only saved $400"},
		{"I just found out it was moved to May 5", "it was moved to May 5"},
		{"I noticed the number of users has increased to 7", "the number of users has increased to 7"},
		{"I saw my sister Anna at the mall", ""},
		{"I want to understand how to use it", ""},
	}
	for _, tt := range tests {
		if got := complementOf(tt.clause); got != tt.want {
			t.Errorf("complementOf(%q) = %q, want %q", tt.clause, got, tt.want)
		}
	}
}
