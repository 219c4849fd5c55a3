package bench

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestLoadConvUpdatesShipped(t *testing.T) {
	speakers := map[Pool]map[string]bool{}
	turnTexts := map[Pool]map[string]bool{}
	for _, pool := range Pools {
		d, err := LoadConvUpdatesPool(pool)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(d.Conversations) < 30 {
			t.Errorf("%s: %d dialogs, want at least 30 per pool", pool, len(d.Conversations))
		}
		speakers[pool], turnTexts[pool] = map[string]bool{}, map[string]bool{}
		kinds := map[string]int{}
		attrs := map[string]bool{}
		for _, c := range d.Conversations {
			if n := len(c.Sessions); n < 2 || n > 5 {
				t.Errorf("%s %s: %d sessions, want 2 to 5", pool, c.ID, n)
			}
			speakers[pool][c.Speakers[0]] = true
			var prev Turn
			for i, tr := range c.Turns() {
				turnTexts[pool][tr.Content] = true
				if i > 0 && (!tr.Time.After(prev.Time) || tr.Seq <= prev.Seq) {
					t.Errorf("%s %s: turn %s is not after %s", pool, c.ID, tr.ID, prev.ID)
				}
				prev = tr
			}
		}
		perConv := map[string]map[string]int{}
		for _, q := range d.Questions {
			kinds[q.Category]++
			attrs[q.Attribute] = true
			if perConv[q.ConversationID] == nil {
				perConv[q.ConversationID] = map[string]int{}
			}
			perConv[q.ConversationID][q.Category]++
			if len(q.Golds) == 0 || q.Golds[0] == "" {
				t.Errorf("%s %s: no gold", pool, q.ID)
			}
			if q.Category == KindCurrent && len(q.Stale) == 0 {
				t.Errorf("%s %s: current question without stale values", pool, q.ID)
			}
			// The gold itself passes the metric, and no stale value does.
			if !ConvCorrect(q, strings.Join(append(q.AllOf, q.Golds[0]), ", ")) {
				t.Errorf("%s %s: the gold %q is not counted correct", pool, q.ID, q.Golds[0])
			}
			for _, s := range q.Stale {
				if ConvCorrect(q, s) || StaleInAnswer(q, s) == "" {
					t.Errorf("%s %s: stale value %q is not caught", pool, q.ID, s)
				}
			}
		}
		for c, k := range perConv {
			if k[KindCurrent] == 0 || k[KindUnchanged]+k[KindPast] == 0 {
				t.Errorf("%s %s: questions %v, want a current one and a past or unchanged one", pool, c, k)
			}
		}
		for _, k := range ConvKinds {
			if kinds[k] < 25 {
				t.Errorf("%s: %d %s questions, want at least 25", pool, kinds[k], k)
			}
		}
		if len(attrs) < 15 {
			t.Errorf("%s: only %d attribute kinds", pool, len(attrs))
		}
	}
	// The pools are different people saying different things.
	for s := range speakers[PoolDev] {
		if speakers[PoolCheck][s] {
			t.Errorf("user %q appears in both pools", s)
		}
	}
	for s := range turnTexts[PoolDev] {
		if turnTexts[PoolCheck][s] {
			t.Errorf("turn %q appears in both pools", s)
		}
	}
}

func TestConvUpdatesTurns(t *testing.T) {
	d, err := LoadConvUpdatesPool(PoolDev)
	if err != nil {
		t.Fatal(err)
	}
	c := d.Conversation("dev-02")
	if c == nil || len(c.Sessions) != 2 || c.Speakers[0] != "Jonah" {
		t.Fatalf("dev-02: %+v", c)
	}
	first, second := c.Sessions[0].Turns[0], c.Sessions[1].Turns[0]
	if first.ID != "S1:1" || first.Role != "user" || first.Speaker != "Jonah" || first.Time.Format("2006-01-02 15:04") != "2023-09-10 10:00" ||
		!strings.Contains(first.Content, "Miso and Tofu") {
		t.Errorf("first turn %+v", first)
	}
	if a := c.Sessions[0].Turns[1]; a.Role != "assistant" || a.Speaker != "Assistant" || a.Time.Sub(first.Time).Minutes() != 1 {
		t.Errorf("assistant turn %+v", a)
	}
	if second.ID != "S2:1" || second.Time.Format("2006-01-02") != "2024-05-26" || c.Sessions[1].DateText != "Sun 26 May 2024" {
		t.Errorf("second session %+v, %q", second, c.Sessions[1].DateText)
	}
	var q *Question
	for _, x := range d.Questions {
		if x.ID == "dev-02/q1" {
			q = x
		}
	}
	if q == nil || q.Category != KindCurrent || q.Attribute != "city" || !slices.Equal(q.Golds, []string{"Seattle"}) || !slices.Equal(q.Stale, []string{"Portland"}) {
		t.Fatalf("dev-02/q1: %+v", q)
	}
}

// Bad input gets an error naming the dialog and the field.
func TestConvUpdatesErrors(t *testing.T) {
	good := `{"id":"d1","user":"Ann","sessions":[{"date":"2024-01-01","turns":[{"user":"I live in Oslo."}]},{"date":"2024-02-01","turns":[{"user":"I moved to Bergen."}]}],
		"questions":[{"id":"q1","kind":"current","attribute":"city","question":"Where does Ann live?","answer":"Bergen","stale":["Oslo"]}]}`
	for _, c := range []struct{ name, dialog, want string }{
		{"good", good, ""},
		{"unknown kind", strings.Replace(good, `"kind":"current"`, `"kind":"latest"`, 1), `questions[0] ("q1"): kind "latest"`},
		{"unknown attribute", strings.Replace(good, `"attribute":"city"`, `"attribute":"town"`, 1), `attribute "town"`},
		{"no stale", strings.Replace(good, `,"stale":["Oslo"]`, ``, 1), "needs the stale values"},
		{"stale never said", strings.Replace(good, `"stale":["Oslo"]`, `"stale":["Paris"]`, 1), `stale value "Paris" is never said`},
		{"gold never said", strings.Replace(good, `"answer":"Bergen"`, `"answer":"Tromsø"`, 1), "no note explains it"},
		{"stale in gold", strings.Replace(good, `"stale":["Oslo"]`, `"stale":["Bergen"]`, 1), "contain one another"},
		{"both roles", strings.Replace(good, `{"user":"I live in Oslo."}`, `{"user":"I live in Oslo.","assistant":"ok"}`, 1), "sessions[0].turns[0]: exactly one of user and assistant"},
		{"bad date", strings.Replace(good, `"2024-01-01"`, `"1 Jan 2024"`, 1), `sessions[0].date "1 Jan 2024"`},
		{"dates out of order", strings.Replace(good, `"2024-02-01"`, `"2023-12-01"`, 1), "in time order"},
		{"no user", strings.Replace(good, `"user":"Ann",`, ``, 1), "user is empty"},
		{"unknown field", strings.Replace(good, `"id":"q1",`, `"id":"q1","gold":"x",`, 1), `unknown field "gold"`},
	} {
		p := filepath.Join(t.TempDir(), "d.json")
		if err := os.WriteFile(p, []byte(`{"pool":"dev","dialogs":[`+c.dialog+`]}`), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := LoadConvUpdates(p)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

func TestConvCorrect(t *testing.T) {
	emma := &Question{Category: KindCurrent, Golds: []string{"Anthropic"}, Stale: []string{"Google"}}
	cats := &Question{Category: KindUnchanged, Golds: []string{"Miso and Tofu"}, AllOf: []string{"Miso", "Tofu"}}
	veg := &Question{Category: KindCurrent, Golds: []string{"vegetarian"}, Stale: []string{"pescatarian"}, Reject: []string{"not vegetarian", "no longer vegetarian"}}
	rent := &Question{Category: KindCurrent, Golds: []string{"$3,250", "3250"}, Stale: []string{"$2,800"}}
	flight := &Question{Category: KindCurrent, Golds: []string{"May 13"}, Stale: []string{"12 March"}}
	launch := &Question{Category: KindCurrent, Golds: []string{"May 13, 2025"}}
	for _, c := range []struct {
		q      *Question
		answer string
		want   bool
	}{
		{emma, "Anthropic", true},
		{emma, "Emma works at Anthropic.", true},
		{emma, "anthropic", true},
		{emma, "Anthropic (previously Google)", true},
		{emma, "Anthropic; she left Google in May", true},
		{emma, "Google", false},
		{emma, "Google, Anthropic", false},
		{emma, "Emma works at Google and at Anthropic", false},
		{emma, "", false},
		{cats, "Tofu and Miso", true},
		{cats, "Miso", false},
		{veg, "vegetarian", true},
		{veg, "She is vegetarian again, not pescatarian", true},
		{veg, "Sofía is no longer vegetarian", false},
		{veg, "pescatarian", false},
		{rent, "$3,250 a month", true},
		{rent, "3250 dollars", true},
		{rent, "$2,800", false},
		// A day of a month is the same day in either English order, with or without its ordinal and year.
		{flight, "13 May 2024", true},
		{flight, "on the 13th of May", true},
		{flight, "May 13th", true},
		{flight, "13 June 2024", false},
		{flight, "13 May 2024, not March 12th", true},
		{flight, "March 12th, and 13 May", false},
		{launch, "13 May 2025", true},
		{launch, "13 May 2024", false},
	} {
		if got := ConvCorrect(c.q, c.answer); got != c.want {
			t.Errorf("ConvCorrect(%v, %q) = %v, want %v", c.q.Golds, c.answer, got, c.want)
		}
	}
}

// TestLowerCaseUserTurns: the variant lower-cases what the user typed and nothing else.
func TestLowerCaseUserTurns(t *testing.T) {
	d, err := LoadConvUpdatesPool(PoolDev)
	if err != nil {
		t.Fatal(err)
	}
	turns := func() (user, other []string) {
		for _, c := range d.Conversations {
			for _, s := range c.Sessions {
				for _, tn := range s.Turns {
					if tn.Role == "user" {
						user = append(user, tn.Content)
					} else {
						other = append(other, tn.Content)
					}
				}
			}
		}
		return user, other
	}
	userBefore, otherBefore := turns()
	question := d.Questions[0].Text
	changed := 0
	for _, u := range userBefore {
		if u != strings.ToLower(u) {
			changed++
		}
	}
	if n := LowerCaseUserTurns(d); n != changed || n == 0 {
		t.Errorf("LowerCaseUserTurns changed %d turns, want %d (every user turn with a capital)", n, changed)
	}
	userAfter, otherAfter := turns()
	for i := range userBefore {
		if userAfter[i] != strings.ToLower(userBefore[i]) {
			t.Errorf("user turn %q, want %q", userAfter[i], strings.ToLower(userBefore[i]))
		}
	}
	if !slices.Equal(otherAfter, otherBefore) {
		t.Error("the assistant's turns changed")
	}
	if d.Questions[0].Text != question {
		t.Errorf("question changed: %q, want %q", d.Questions[0].Text, question)
	}
}

func TestStaleInContext(t *testing.T) {
	emma := &Question{Category: KindCurrent, Golds: []string{"Anthropic"}, Stale: []string{"Google"}}
	leo := &Question{Category: KindCurrent, Golds: []string{"Lincoln Montessori"}, Stale: []string{"Hawthorne"}, About: []string{"Leo", "son"}}
	veg := &Question{Category: KindCurrent, Golds: []string{"vegetarian"}, Stale: []string{"pescatarian"}}
	rent := &Question{Category: KindCurrent, Golds: []string{"R$ 3.650", "3650"}, Stale: []string{"3.200"}}
	car := &Question{Category: KindCurrent, Golds: []string{"Subaru Outback"}, Stale: []string{"Jetta"}}
	flight := &Question{Category: KindCurrent, Golds: []string{"October 15"}, Stale: []string{"October 14"}}
	yusuf := &Question{Category: KindCurrent, Golds: []string{"Chicago"}, Stale: []string{"Austin"}, About: []string{"Yusuf"}}
	dentist := &Question{Category: KindCurrent, Golds: []string{"Dr. Okafor"}, Stale: []string{"Dr. Patel"}}
	telia := &Question{Category: KindCurrent, Golds: []string{"Tele2"}, Stale: []string{"Telia"}}
	book := &Question{Category: KindCurrent, Golds: []string{"Piranesi"}, Stale: []string{"Middlemarch"}}
	gym := &Question{Category: KindCurrent, Golds: []string{"yoga"}, Stale: []string{"gym on Elm Street"}}
	raw := func(lines ...string) *Retrieval { return &Retrieval{Context: strings.Join(lines, "\n")} }
	for _, c := range []struct {
		name string
		q    *Question
		r    *Retrieval
		want string // the offending line, "" for none
	}{
		{"the original statement, unmarked", emma, raw("Priya: My sister Emma just started working at Google as a data scientist.", "Priya: Big news: Emma left Google last month and joined Anthropic."),
			"Priya: My sister Emma just started working at Google as a data scientist."},
		{"the update alone", emma, raw("Priya: Big news: Emma left Google last month and joined Anthropic."), ""},
		{"both values, the change said", emma, raw("Emma jumped ship, she's at Anthropic now. Said Google was too slow."), ""},
		{"both values as one compound statement", car, raw("We have two cars, a VW Jetta for my commute and a Subaru Outback for weekends."),
			"We have two cars, a VW Jetta for my commute and a Subaru Outback for weekends."},
		{"a correction in the same turn", flight, raw("My flight is on October 14. Sorry, I mean October 15."), ""},
		{"a claim stating the old value as current", emma, raw("- Emma works at Anthropic", "- Emma works at Google"), "- Emma works at Google"},
		{"a former cue next to the value", emma, raw("- Emma works at Anthropic", "- Emma used to work at Google"), ""},
		{"a cue in another clause does not count", emma, raw("Emma quit smoking. She works at Google."), "Emma quit smoking. She works at Google."},
		{"a cue that starts in the window and ends past it", emma, raw("Google and Emma have called off the contract."), ""},
		{"a cue that starts past the window", emma, raw("Google and Emma have been talking and called off the contract."),
			"Google and Emma have been talking and called off the contract."},
		{"a cue far from the value does not count", emma, raw("Emma left her flat in the city center to be closer to Google"), "Emma left her flat in the city center to be closer to Google"},
		{"negated", emma, raw("Emma does not work at Google"), ""},
		{"notice handed in", emma, raw("- Emma handed in her notice at Google."), ""},
		{"a superseded claim in the all-versions view", emma, &Retrieval{Context: "Emma works at Google (2024-01-14)\nEmma works at Anthropic (2024-06-03)",
			Items: []Item{{Text: "Emma works at Google", Status: "superseded"}, {Text: "Emma works at Anthropic", Status: "active"}}}, ""},
		{"the same claim shown as active", emma, &Retrieval{Context: "Emma works at Google (2024-01-14)",
			Items: []Item{{Text: "Emma works at Google", Status: "active"}}}, "Emma works at Google (2024-01-14)"},
		{"another subject keeps the value", leo, raw("Grace: He is. Ava is staying at Hawthorne, she loves her teacher."), ""},
		{"the subject with the old value", leo, raw("Grace: My son Leo starts kindergarten at Hawthorne Elementary next week."),
			"Grace: My son Leo starts kindergarten at Hawthorne Elementary next week."},
		{"the gold negated does not excuse the line", veg, raw("Sofía: Small confession: I'm not vegetarian anymore. I started eating fish again, so I guess I'm pescatarian now."),
			"Sofía: Small confession: I'm not vegetarian anymore. I started eating fish again, so I guess I'm pescatarian now."},
		{"the revert", veg, raw("Sofía: I'm back to being fully vegetarian. The fish thing didn't stick."), ""},
		{"decimal separators stay whole", rent, raw("Beatriz: I pay R$ 3.200 a month for my flat in Pinheiros."), "Beatriz: I pay R$ 3.200 a month for my flat in Pinheiros."},
		{"not a substring of a longer number", rent, raw("Beatriz: the deposit was R$ 13.200"), ""},
		{"a line about something else", yusuf, raw("Assistant: Austin is definitely warmer."), ""},
		{"the user's own statement, by the speaker label", yusuf, raw("Yusuf: I moved to Austin last week."), "Yusuf: I moved to Austin last week."},
		{"a claim naming the user", yusuf, raw("- Yusuf's home is Austin (since 2023-06-19)"), "- Yusuf's home is Austin (since 2023-06-19)"},
		{"a title's period inside the value", dentist, raw("Nadia: My dentist is Dr. Patel, on Elm Street."), "Nadia: My dentist is Dr. Patel, on Elm Street."},
		{"a title's period, the value marked former", dentist, raw("Nadia: I left Dr. Patel, my dentist is Dr. Okafor now."), ""},
		{"a provider dropped", telia, raw("- Ingrid dropped Telia."), ""},
		{"a thing got rid of", car, raw("- Omar and others got rid of the Jetta."), ""},
		{"a book finished", book, raw("- Zoe finished Middlemarch."), ""},
		{"a book still being read", book, raw("- Zoe is halfway through Middlemarch."), "- Zoe is halfway through Middlemarch."},
		{"a gym shut down", gym, raw("- Chen's gym on Elm Street shut down."), ""},
	} {
		if got := StaleInContext(c.q, c.r); got != c.want {
			t.Errorf("%s: StaleInContext = %q, want %q", c.name, got, c.want)
		}
	}
	if got := StaleInContext(&Question{Category: KindPast, Golds: []string{"Google"}}, raw("Emma works at Google")); got != "" {
		t.Errorf("a past question has no stale values, got %q", got)
	}
}

// The report's figures from hand-made rows: two current questions (one answered right with a clean
// context, one answered with the stale value), a past and an unchanged one.
func TestConvSummary(t *testing.T) {
	ctx := func(gold, stale bool) []BudgetResult {
		return []BudgetResult{{Budget: 500, Tokens: 100, GoldInContext: gold, StaleAsCurrent: stale}}
	}
	rows := []*Row{
		{Bench: ConvUpdates, System: SystemMneme, QuestionID: "a/q1", Category: KindCurrent, Attribute: "city", Golds: []string{"Seattle"},
			Answer: &AnswerResult{Text: "Seattle", Correct: true, Tokens: 10}, Budgets: ctx(true, false)},
		{Bench: ConvUpdates, System: SystemMneme, QuestionID: "b/q1", Category: KindCurrent, Attribute: "employer", Golds: []string{"Anthropic"},
			Answer: &AnswerResult{Text: "Google", Stale: true, Tokens: 30}, Budgets: ctx(true, true)},
		{Bench: ConvUpdates, System: SystemMneme, QuestionID: "a/q2", Category: KindPast, Attribute: "city", Golds: []string{"Portland"},
			Answer: &AnswerResult{Text: "Portland", Correct: true, Tokens: 20}, Budgets: ctx(true, false)},
		{Bench: ConvUpdates, System: SystemMneme, QuestionID: "a/q3", Category: KindUnchanged, Attribute: "pet", Golds: []string{"Kaja"},
			Answer: &AnswerResult{Text: "", Tokens: 0}, Budgets: ctx(false, false)},
		{Bench: ConvUpdates, System: SystemFullContext, QuestionID: "a/q1", Category: KindCurrent, Attribute: "city", Golds: []string{"Seattle"},
			Budgets: []BudgetResult{{Budget: 0, Tokens: 900, GoldInContext: true, StaleAsCurrent: true}}},
	}
	rep := &Report{Bench: ConvUpdates, Rows: rows}
	s := rep.Summary()
	m := s.Headline[SystemMneme]
	for k, want := range map[string]float64{"current": 0.5, "past": 1, "unchanged": 0, "stale_as_current": 0.5,
		"stale_as_current_answer": 0.5, "stale_as_current_context@500": 0.5, "current_gold_in_context@500": 1, "unchanged_gold_in_context@500": 0, "tokens_per_answer": 15} {
		if m[k] != want {
			t.Errorf("mneme %s = %v, want %v", k, m[k], want)
		}
	}
	if f := s.Headline[SystemFullContext]; f["stale_as_current"] != 1 || f["current_gold_in_context@500"] != 1 {
		t.Errorf("full-context %v", f)
	}
	if len(s.Goals) != 2 || s.Goals[0].Met || s.Goals[0].Value != 0.5 || s.Goals[1].Met || s.Goals[1].Value != 0.5 {
		t.Errorf("goals %+v", s.Goals)
	}
	md := rep.Markdown()
	for _, want := range []string{
		"| mneme | 50.0% | 100.0% | 0.0% | 50.0% | 50.0% | 15 |", // answers per kind, all, stale in answers, tokens
		"| employer | 1 | 0.0% | – | – | 100.0% |",               // per attribute
		"| city | 2 | 100.0% | 100.0% | – | 0.0% |",
		"| b/q1 |", // listed among the stale answers
	} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
}

// TestDevPoolsValidate checks the development pools read with -data (convupdates/dev2.json to dev25.json, the
// second to twenty-fifth): each decodes strictly, every question has a gold the metric counts
// correct, and every stale value is caught.
func TestDevPoolsValidate(t *testing.T) {
	for file, least := range map[string]int{"convupdates/dev2.json": 60, "convupdates/dev3.json": 40, "convupdates/dev4.json": 30, "convupdates/dev5.json": 6, "convupdates/dev6.json": 5, "convupdates/dev7.json": 15, "convupdates/dev8.json": 16, "convupdates/dev9.json": 17, "convupdates/dev10.json": 10, "convupdates/dev11.json": 22, "convupdates/dev12.json": 10, "convupdates/dev13.json": 22, "convupdates/dev14.json": 10, "convupdates/dev15.json": 20, "convupdates/dev16.json": 10, "convupdates/dev17.json": 23, "convupdates/dev18.json": 16, "convupdates/dev19.json": 15, "convupdates/dev20.json": 22, "convupdates/dev21.json": 22, "convupdates/dev22.json": 24, "convupdates/dev23.json": 20, "convupdates/dev24.json": 22, "convupdates/dev25.json": 20, "convupdates/dev26.json": 20} {
		b, err := convUpdatesData.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		d, err := parseConvUpdates(b, file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := d.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(d.Conversations) < least {
			t.Errorf("%s: %d dialogs, want at least %d", file, len(d.Conversations), least)
		}
		for _, q := range d.Questions {
			if !ConvCorrect(q, strings.Join(append(q.AllOf, q.Golds[0]), ", ")) {
				t.Errorf("%s: %s: the gold %q is not counted correct", file, q.ID, q.Golds[0])
			}
			for _, s := range q.Stale {
				if ConvCorrect(q, s) || StaleInAnswer(q, s) == "" {
					t.Errorf("%s: %s: stale value %q is not caught", file, q.ID, s)
				}
			}
		}
	}
}
