package query

import "testing"

// TestAnswerTypePenalty checks the kind of value each question word asks for, as a reader of the question
// expects it (written by hand).
func TestAnswerTypePenalty(t *testing.T) {
	for _, c := range []struct {
		q, object string
		penalized bool
	}{
		{"Where does Emma work now?", "data scientist", true},
		{"Where does Emma work now?", "Anthropic", false},
		{"When is Nadia's dentist appointment?", "15 March 2024", false},
		{"When is Nadia's dentist appointment?", "the dentist", true},
		{"When is the launch?", "next Friday", false},
		{"When is the launch?", "the big room", true},
		{"When is the launch?", "Friday", false},
		{"How much is the rent?", "$1,450 a month", false},
		{"How much is the rent?", "too much", true},
		{"Who is Fatima's manager?", "Inès Moreau", false},
		{"Who is Fatima's manager?", "a nice person", true},
		{"What is Kwame's job?", "backend engineer", false},
		// A date or an amount is neither a place nor a person, though it starts like a name.
		{"Where is Hannah getting married?", "3 May 2025", true},
		{"Who is Hannah marrying?", "3 May 2025", true},
		{"Who paid the deposit?", "$640,000", true},
		{"Where does Sherlock live?", "221B Baker Street", false},
		{"Where is the meeting?", "Room 4", false},
		{"Where does the prime minister live?", "10 Downing Street", false},
		{"Where did Tomás run?", "30 kilometres a week", true},
		{"Who won the race?", "Eliud Kipchoge", false},
		// A season with its year is a date; a season's word in a name is not.
		{"Who was Jake going out with before Priya?", "the summer of 2024", true},
		{"Where does Ana live?", "12 Summer Street", false},
		// A number may be written as a word.
		{"How old is Ellie?", "ten", false},
		{"How many dogs does Marisol have?", "three dogs", false},
		{"How old is Ellie?", "quite old", true},
	} {
		if got := answerTypePenalty(ptr(parseQuestion(c.q, nil)), c.object) > 0; got != c.penalized {
			t.Errorf("answerTypePenalty(%q, %q) > 0 = %v, want %v", c.q, c.object, got, c.penalized)
		}
	}
}

func ptr[T any](v T) *T { return &v }
