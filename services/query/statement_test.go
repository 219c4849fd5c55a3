package query

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/store"
)

// TestClosestStatementAnswersWhatNoRelationReaches: a question that names a remembered person but no relation
// memory holds of them is answered with the closest statement about that person, quoted, in mode "statement";
// of two statements on the topic the newer answers the present and the older a former value; a superseded
// statement never answers the present; a question about someone memory holds nothing of, one asking for a date
// or a number no statement holds, or whether something changed stays unanswered.
func TestClosestStatementAnswersWhatNoRelationReaches(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("hobbies")
	// Retrieval ranks the two statements alike for both questions (the dense and the lexical mode put them in
	// opposite orders): their order in time decides, as TestPickStatementByTimeAmongTheClosest checks alone.
	f.add(fclaim{Subject: "Maya", Predicate: "said", Object: "pottery every weekend",
		Text: "Maya said: pottery every weekend.", ValidFrom: day("2024-01-10"), Accumulating: true})
	f.add(fclaim{Subject: "Maya", Predicate: "said", Object: "every weekend I am into bouldering",
		Text: "Maya said: every weekend I am into bouldering now.", ValidFrom: day("2024-06-02"), Accumulating: true})
	chess := f.add(fclaim{Subject: "Jon", Predicate: "said", Object: "chess club on Fridays",
		Text: "Jon said: chess club on Fridays.", ValidFrom: day("2024-01-10")})
	goClub := f.add(fclaim{Subject: "Jon", Predicate: "said", Object: "go club on Fridays",
		Text: "Jon said: go club on Fridays.", ValidFrom: day("2023-01-10")})
	// Jon's go-club statement was superseded: a retired statement never answers the present.
	f.supersede(chess, goClub, day("2024-01-11"))
	c := h.client("agent-a")
	ctx := context.Background()
	for _, tc := range []struct {
		q, want, not string
	}{
		{"What does Maya do every weekend?", "bouldering", "pottery"},
		{"What was Maya into before?", "pottery", "bouldering"},
		{"What club does Jon go to on Fridays?", "chess", "go club"},
	} {
		res, err := c.Answer(ctx, "hobbies", api.AnswerRequest{Question: tc.q})
		if err != nil {
			t.Fatal(err)
		}
		if res.Mode != ModeStatement || !strings.Contains(res.Answer, tc.want) || strings.Contains(res.Answer, tc.not) {
			t.Errorf("%q: mode %s, answer %q, notes %q; want a quoted statement with %q, without %q", tc.q, res.Mode, res.Answer, res.Notes, tc.want, tc.not)
		}
		if len(res.ClaimsUsed) != 1 || res.ClaimsUsed[0].Text != res.Answer {
			t.Errorf("%q: claims used %+v; want the one statement quoted", tc.q, res.ClaimsUsed)
		}
	}
	for _, q := range []string{
		"What does Priya do every weekend?", // no one memory knows
		"When did Maya start bouldering?",   // a date, and no statement about Maya holds one
		"How many cats does Maya have?",     // a number, and no statement about Maya holds one
		"Has Maya changed her weekends?",    // a yes or no, which no quoted statement gives
	} {
		res, err := c.Answer(ctx, "hobbies", api.AnswerRequest{Question: q})
		if err != nil {
			t.Fatal(err)
		}
		if res.Mode != ModeNone || res.Answer != "" {
			t.Errorf("%q: mode %s, answer %q; want none", q, res.Mode, res.Answer)
		}
	}
}

// TestPickStatementByTimeAmongTheClosest: among statements ranked alike (within 0.85 of the best score) the
// newest answers the present and the oldest — a former value first — the past; one ranked far below never
// answers, however new; at the same valid time the later place in the conversation is the newer.
func TestPickStatementByTimeAmongTheClosest(t *testing.T) {
	st := func(text, from string, seq int64, score float64, former bool) item {
		return item{claim: &store.Belief{Text: text, ValidFrom: day(from), Sequence: &seq}, score: score, former: former}
	}
	pottery := st("pottery", "2024-01-10", 1, 1.0, false)
	bouldering := st("bouldering", "2024-06-02", 2, 0.9, false)
	chess := st("chess", "2024-09-01", 3, 0.5, false)
	now, before := timeAsk{}, timeAsk{mode: askFormer}
	for _, tc := range []struct {
		name string
		pool []item
		t    timeAsk
		want string
	}{
		{"present: the newer of the two ranked alike, not the newest ranked far below", []item{pottery, bouldering, chess}, now, "bouldering"},
		{"past: the older of the two ranked alike", []item{bouldering, pottery, chess}, before, "pottery"},
		{"past: a former value before an older current one", []item{pottery, st("running", "2024-03-01", 5, 0.95, true)}, before, "running"},
		{"present: at one valid time, the later turn", []item{st("tea", "2024-05-05", 9, 1, false), st("coffee", "2024-05-05", 10, 0.9, false)}, now, "coffee"},
		{"one candidate", []item{chess}, before, "chess"},
	} {
		if got := pickStatement(tc.pool, tc.t).claim.Text; got != tc.want {
			t.Errorf("%s: picked %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestSaysATime: a statement answers "when" only if it names a time, not merely a number.
func TestSaysATime(t *testing.T) {
	for text, want := range map[string]bool{
		"Linh's price is $640,000.":                false,
		"Only 22 kids in Leila's homeroom now.":    false,
		"The closing is on June 28.":               true,
		"We close in 2025, all being well.":        true,
		"The call moved to 9:30.":                  true,
		"Dentist at 3 pm on the dot.":              true,
		"She starts tomorrow.":                     true,
		"The flight is on the 15th of the month.":  true,
		"Pavel has 2 kids and 3 cats.":             false,
		"Nadia is flying to Rome on 14 June 2024.": true,
	} {
		if got := saysATime(text); got != want {
			t.Errorf("saysATime(%q) = %v, want %v", text, got, want)
		}
	}
}

// A statement answers "where" or "who" only when it names something or someone besides the people asked about.
func TestNamesAnother(t *testing.T) {
	for text, want := range map[string]bool{
		"Emma is still a data scientist.":                           false,
		"Emma lives in Oakland.":                                    true,
		"The landlord put the rent up to €1.380 from August.":       false,
		"Kim said: The sellers said, they accepted.":                false,
		"Emma's new manager is Priya.":                              true,
		"Rafael and others have bumped the kitchen budget to $42k.": false,
		"I met Jonas at the Tate.":                                  true,
	} {
		if got := namesAnother(text, []string{"Emma", "Kim", "Rafael"}); got != want {
			t.Errorf("namesAnother(%q) = %v, want %v", text, got, want)
		}
	}
}

// A place said in lower case after its preposition is one; a time after "in" or "at" is not.
func TestSaysAPlace(t *testing.T) {
	for text, want := range map[string]bool{
		"Olivia's partner's job at the bank is pretty stressful.": true,
		"Priya's brother's wedding is on 14 June 2024, in bath.":  true,
		"Emma is still a data scientist.":                         false,
		"The rent went up in June.":                               false,
		"Blair's position on the field is placekicker.":           true,
		"The party is on Monday.":                                 false,
		"Yousef's salary is 70k.":                                 false,
	} {
		if got := saysAPlace(text); got != want {
			t.Errorf("saysAPlace(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestStatementsOff: with MNEME_QUERY_STATEMENTS=off a question no relation answers gets none, as before.
func TestStatementsOff(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.Statements = "off" })
	h.workspace("hobbies").add(fclaim{Subject: "Maya", Predicate: "said", Object: "bouldering every weekend",
		Text: "Maya said: bouldering every weekend.", Accumulating: true})
	res, err := h.client("agent-a").Answer(context.Background(), "hobbies", api.AnswerRequest{Question: "What does Maya do every weekend?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != ModeNone || res.Answer != "" {
		t.Errorf("statements off: mode %s, answer %q; want none", res.Mode, res.Answer)
	}
}

// TestChainedQuestionsQuoteNothing: a statement about the entity a chain of relations starts from says one
// relation of it, not where the chain ends, so a question that asks two relations or more from every entity it
// names is no question for a quoted statement.
func TestChainedQuestionsQuoteNothing(t *testing.T) {
	for _, tc := range []struct {
		q     string
		names []string
		chain bool
	}{
		{"Who is the spouse of the CEO of Acme?", []string{"Acme"}, true},
		{"Which city is the capital of the country Malaysia lies in?", []string{"Malaysia"}, true},
		{"Who runs Acme?", []string{"Acme"}, false},
		{"Where does Robert Parish line up on the field?", []string{"Robert Parish"}, false},
		{"Where did Olivia's partner work before?", []string{"Olivia's partner", "Olivia"}, false},
	} {
		var ms []mention
		for _, n := range tc.names {
			ms = append(ms, mentionOf(t, tc.q, n))
		}
		if got := chained(tc.q, ms); got != tc.chain {
			t.Errorf("chained(%q, %v) = %v, want %v", tc.q, tc.names, got, tc.chain)
		}
	}
}

// A later statement of change takes a when-answer's place unless it changed another side of the thing: a place
// with no time said is where the thing is, not when.
func TestAChangeOfPlaceDoesNotAnswerWhen(t *testing.T) {
	when, where := &questionParse{kind: kindTime}, &questionParse{kind: kindPlace}
	for _, c := range []struct {
		q    *questionParse
		text string
		want bool
	}{
		{when, "Oskar's offsite is in Madrid now.", false},
		{when, "The MOT got postponed.", true},
		{when, "The offsite is in Madrid on 3 April now.", true},
		{where, "Oskar's offsite is in Madrid now.", true},
		{nil, "Oskar's offsite is in Madrid now.", true},
	} {
		if got := answersTheKind(c.q, c.text); got != c.want {
			t.Errorf("answersTheKind(%v, %q) = %v, want %v", c.q != nil && c.q.kind == kindTime, c.text, got, c.want)
		}
	}
}
