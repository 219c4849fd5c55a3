package rules

import (
	"strings"
	"testing"
	"time"
)

// TestSeasons checks named seasons against a calendar worked out by hand (meteorological seasons: spring from
// March, summer from June, autumn from September, winter from December).
func TestSeasons(t *testing.T) {
	nov := time.Date(2024, 11, 10, 12, 0, 0, 0, time.UTC)
	jul := time.Date(2024, 7, 10, 12, 0, 0, 0, time.UTC)
	feb := time.Date(2024, 2, 10, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		text   string
		ref    time.Time
		want   time.Time
		future bool
	}{
		{"I took up surfing this summer", nov, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), false},
		{"I took up surfing this summer", jul, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), false},
		{"we go to Spain this summer", feb, time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC), true},
		{"we skied last winter", nov, time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC), false},
		{"we skied last winter", feb, time.Date(2022, 12, 1, 0, 0, 0, 0, time.UTC), false},
		{"it snowed this winter", feb, time.Date(2023, 12, 1, 0, 0, 0, 0, time.UTC), false},
		{"we'll ski this winter", nov, time.Date(2024, 12, 1, 0, 0, 0, 0, time.UTC), true},
		{"she starts college next fall", jul, time.Date(2024, 9, 1, 0, 0, 0, 0, time.UTC), true},
		{"she started college last fall", jul, time.Date(2023, 9, 1, 0, 0, 0, 0, time.UTC), false},
		{"we moved this past spring", jul, time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), false},
		{"the wedding is next summer", jul, time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC), true},
	}
	for _, c := range cases {
		ds := findDates(c.text, c.ref)
		if len(ds) != 1 {
			t.Errorf("%q at %s: want one date, got %+v", c.text, c.ref.Format("2006-01-02"), ds)
			continue
		}
		if !ds[0].at.Equal(c.want) || ds[0].future != c.future {
			t.Errorf("%q at %s: got %s (future %v), want %s (future %v)", c.text, c.ref.Format("2006-01-02"),
				ds[0].at.Format("2006-01-02"), ds[0].future, c.want.Format("2006-01-02"), c.future)
		}
	}
}

// TestDateCues checks the invariant findDates' prefilter relies on: every match of every date pattern, in the
// golden cases and in sentences written to hit each pattern, contains one of the pattern's cues.
func TestDateCues(t *testing.T) {
	texts := []string{
		"the day before yesterday", "last night", "yesterday evening", "Today", "tonight", "this afternoon",
		"TOMORROW", "this past weekend", "last week", "previous month", "past year", "this weekend", "this Month",
		"next week", "next year", "last summer", "this coming fall", "next Friday", "this coming Monday night",
		"this past Sunday", "on Tuesday", "a few days ago", "three weeks ago", "in two months", "in a year",
		"on March 3rd, 2024", "Sept. 14", "the 5th of June", "3 Dec 2023", "since January", "starting in Oct",
		"by mid-May", "2024-05-01", "back in 2019", "around 2031", "on Friday 15 March", "Thursday, the 4th of July",
		"Saturday, June 8", "in the spring", "over the summer of 2019", "on the first of January", "the twenty-third of May 2023",
	}
	for _, gc := range loadCases(t) {
		for _, turn := range gc.Turns {
			texts = append(texts, turn.Content)
		}
	}
	hits := make([]int, len(datePatterns))
	for _, s := range texts {
		for i, p := range datePatterns {
			for _, m := range p.re.FindAllString(s, -1) {
				hits[i]++
				if !cued(strings.ToLower(m), p.cues) {
					t.Errorf("pattern %d (%s) matched %q, which has none of its cues %q", i, p.re, m, p.cues)
				}
			}
		}
	}
	for i, n := range hits {
		if n == 0 {
			t.Errorf("pattern %d (%s) matched nothing: add a sentence for it", i, datePatterns[i].re)
		}
	}
}

// TestWeekdayTense checks that a bare "on" weekday is the one ahead unless the clause is in the past tense
// (the turn is on Saturday 1 June 2024; the Mondays around it are 27 May and 3 June).
func TestWeekdayTense(t *testing.T) {
	sat := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		text   string
		want   time.Time
		future bool
	}{
		{"I start at Lloyds on Monday", time.Date(2024, 6, 3, 0, 0, 0, 0, time.UTC), true},
		{"the party is on Friday", time.Date(2024, 6, 7, 0, 0, 0, 0, time.UTC), true},
		{"I'm moving on Wednesday", time.Date(2024, 6, 5, 0, 0, 0, 0, time.UTC), true},
		{"I started at Lloyds on Monday", time.Date(2024, 5, 27, 0, 0, 0, 0, time.UTC), false},
		{"we were in Leeds on Friday", time.Date(2024, 5, 31, 0, 0, 0, 0, time.UTC), false},
		{"I saw Tom on Tuesday", time.Date(2024, 5, 28, 0, 0, 0, 0, time.UTC), false},
		{"I start work last Monday", time.Date(2024, 5, 27, 0, 0, 0, 0, time.UTC), false},
	}
	for _, c := range cases {
		ds := findDates(c.text, sat)
		if len(ds) != 1 || !ds[0].at.Equal(c.want) || ds[0].future != c.future {
			t.Errorf("%q: got %+v, want %s (future %v)", c.text, ds, c.want.Format("2006-01-02"), c.future)
		}
	}
}

// TestWeekdayWithItsDay checks that a weekday said with its day of the month is that one date, whatever the
// tense: neither the weekday read alone (the next or the last one) nor the day without it.
func TestWeekdayWithItsDay(t *testing.T) {
	checkOneDate(t, time.Date(2024, 3, 8, 12, 0, 0, 0, time.UTC), []dateCase{ // a Friday
		{"my appointment's been moved to Friday 15 March", time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)},
		{"the flight is on Tuesday 12 March", time.Date(2024, 3, 12, 0, 0, 0, 0, time.UTC)},
		{"I saw her on Monday, the 4th of March", time.Date(2024, 3, 4, 0, 0, 0, 0, time.UTC)},
		{"the party is on Saturday, June 8", time.Date(2024, 6, 8, 0, 0, 0, 0, time.UTC)},
		{"we met on Wednesday, March 6, 2024", time.Date(2024, 3, 6, 0, 0, 0, 0, time.UTC)},
	})
}

// TestAMonthInTheFuture checks that a month named without its year is the next one in a clause about the
// future, and the last one otherwise.
func TestAMonthInTheFuture(t *testing.T) {
	checkOneDate(t, time.Date(2024, 2, 10, 12, 0, 0, 0, time.UTC), []dateCase{
		{"we're going to Venice in May", time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC)},
		{"I'll start in January", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"we went to Venice in May", time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)},
		{"I was going to quit in January", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"she joined in January", time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"half the team is away in June", time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC)},
		{"I'm on leave in January", time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)},
		{"she was away in June", time.Date(2023, 6, 1, 0, 0, 0, 0, time.UTC)},
	})
}

// dateCase is a text with the one date it says.
type dateCase struct {
	text string
	want time.Time
}

// checkOneDate checks that findDates finds in each text, said at ref, exactly its one date.
func checkOneDate(t *testing.T, ref time.Time, cases []dateCase) {
	t.Helper()
	for _, c := range cases {
		ds := findDates(c.text, ref)
		if len(ds) != 1 || !ds[0].at.Equal(c.want) {
			var got []time.Time
			for _, d := range ds {
				got = append(got, d.at)
			}
			t.Errorf("%q: dates %v; want the one date %v", c.text, got, c.want)
		}
	}
}

// TestDayOfMonthWithoutMonth checks a day named by its number alone: the next such day from the turn's, the
// last one when the clause says it was, and no date where a noun makes the number a rank. The expected days
// are counted on a calendar from the turns' days (Saturday 1 June and Saturday 15 June 2024).
func TestDayOfMonthWithoutMonth(t *testing.T) {
	jun1 := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	jun15 := time.Date(2024, 6, 15, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		text string
		ref  time.Time
		want string // "" for no date
	}{
		{"The party is on the 12th.", jun1, "2024-06-12"},
		{"The party is on Saturday the 12th, at her favourite place.", jun1, "2024-06-12"},
		{"My appointment is on the 3rd.", jun15, "2024-07-03"},
		{"The party was on the 12th.", jun15, "2024-06-12"},
		{"The party was on the 12th.", jun1, "2024-05-12"},
		{"We had to bump the party to the 19th, sadly.", jun1, "2024-06-19"},
		{"My appointment is on the 31st.", jun1, "2024-07-31"},
		{"I live on the 12th floor.", jun1, ""},
		{"I went vegan on the first of January.", jun1, "2024-01-01"},
		{"We met on the twenty-third of May 2023.", jun1, "2023-05-23"},
		{"It was my first May in London.", jun1, ""},
		{"It was the 3rd time this month I asked.", jun15, ""},
	}
	for _, c := range cases {
		got := ""
		for _, d := range findDates(c.text, c.ref) {
			if reDayOfMonthOnly.MatchString(c.text[d.start:d.end]) || strings.Contains(c.text[d.start:d.end], " of ") {
				got = d.at.Format("2006-01-02")
			}
		}
		if got != c.want {
			t.Errorf("%q at %s: got %q, want %q", c.text, c.ref.Format("2006-01-02"), got, c.want)
		}
	}
}

// TestSeasonWithThe checks "in the spring" and its kin: the season of the turn's year, the coming one in a
// clause about the future, the year's when one is named (turns on 1 June and 12 July 2024; spring starts in March,
// summer in June).
func TestSeasonWithThe(t *testing.T) {
	jun1 := time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC)
	jul12 := time.Date(2024, 7, 12, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		text string
		ref  time.Time
		want string
	}{
		{"Mango passed away in the spring.", jul12, "2024-03-01"},
		{"We broke up over the summer.", jul12, "2024-06-01"},
		{"We're planning a trip to Japan in the spring.", jun1, "2025-03-01"},
		{"We met in the summer of 2019.", jun1, "2019-06-01"},
	}
	// A span that ends now is no date: "the first one in two years".
	for _, text := range []string{"I've got a dentist appointment, first one in two years.", "The hottest summer in ten years."} {
		for _, d := range findDates(text, jun1) {
			if d.at.Year() > 2024 {
				t.Errorf("%q: read a date ahead, %s", text, d.at.Format("2006-01-02"))
			}
		}
	}
	if ds := findDates("I'll move in two years.", jun1); len(ds) != 1 || ds[0].at.Year() != 2026 {
		t.Errorf(`"I'll move in two years." at 2024-06-01: got %v, want a date in 2026`, ds)
	}
	for _, c := range cases {
		ds := findDates(c.text, c.ref)
		if len(ds) != 1 || ds[0].at.Format("2006-01-02") != c.want {
			t.Errorf("%q at %s: got %v, want one date, %s", c.text, c.ref.Format("2006-01-02"), ds, c.want)
		}
	}
}

// TestAPeriodAfterABoundaryTakesNoPreposition checks that a month said after "until", "to" or "from" is written
// after it without an "in" of its own ("until June 2025", not "until in June 2025").
func TestAPeriodAfterABoundaryTakesNoPreposition(t *testing.T) {
	ref := time.Date(2024, 7, 10, 12, 0, 0, 0, time.UTC)
	for text, want := range map[string]string{
		"the wedding has been postponed until next June": "until June 2025",
		"the wedding has been moved to next June":        "June 2025",
		"I'll be in Leeds from next March":               "from March 2025",
		"the wedding is next June":                       "in June 2025",
	} {
		ds := findDates(text, ref)
		if len(ds) != 1 || ds[0].phrase != want {
			t.Errorf("%q: got %+v, want one date phrased %q", text, ds, want)
		}
	}
}
