package rules

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/nlp"
)

// when is a temporal expression found in a clause, resolved against the turn's time.
type when struct {
	start, end int // byte span in the clause
	// at is the start of the period the expression names.
	at time.Time
	// phrase is the absolute replacement for the expression ("on 7 May 2023", "in April 2023").
	phrase string
	future bool
}

// value is the date as a value: the phrase without its preposition ("on 7 May 2023" → "7 May 2023").
func (d when) value() string {
	return strings.TrimPrefix(strings.TrimPrefix(d.phrase, "on "), "in ")
}

var months = map[string]time.Month{
	"january": time.January, "jan": time.January, "february": time.February, "feb": time.February,
	"march": time.March, "mar": time.March, "april": time.April, "apr": time.April, "may": time.May,
	"june": time.June, "jun": time.June, "july": time.July, "jul": time.July, "august": time.August,
	"aug": time.August, "september": time.September, "sep": time.September, "sept": time.September,
	"october": time.October, "oct": time.October, "november": time.November, "nov": time.November,
	"december": time.December, "dec": time.December,
}

var weekdays = map[string]time.Weekday{
	"sunday": time.Sunday, "monday": time.Monday, "tuesday": time.Tuesday, "wednesday": time.Wednesday,
	"thursday": time.Thursday, "friday": time.Friday, "saturday": time.Saturday,
}

var numberWords = map[string]int{
	"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
	"nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "fifteen": 15, "twenty": 20, "a few": 3, "few": 3,
	"a couple of": 2, "a couple": 2, "couple of": 2, "several": 3,
}

const (
	monthRe   = `(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)`
	weekdayRe = `(monday|tuesday|wednesday|thursday|friday|saturday|sunday)`
	countRe   = `(\d{1,3}|a few|a couple(?: of)?|couple of|several|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty)`
	unitRe    = `(day|week|weekend|month|year)s?`
)

type datePattern struct {
	// cues are lower-case strings one of which every match contains: a sentence with none is not searched
	// (most sentences name no time, and the patterns are a fifth of the extractor's time without this).
	cues    []string
	re      *regexp.Regexp
	resolve func(m []string, ref time.Time) (time.Time, string, bool, bool) // at, phrase, future, ok
}

func day(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, t.Location())
}

func fmtDay(t time.Time) string   { return fmt.Sprintf("%d %s %d", t.Day(), t.Month(), t.Year()) }
func fmtMonth(t time.Time) string { return fmt.Sprintf("%s %d", t.Month(), t.Year()) }

func count(s string) int {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, ok := numberWords[s]; ok {
		return n
	}
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// shift moves ref by n units (negative: back) and phrases the period it lands in.
func shift(ref time.Time, n int, unit string) (time.Time, string) {
	d := day(ref)
	switch unit {
	case "day":
		t := d.AddDate(0, 0, n)
		return t, "on " + fmtDay(t)
	case "week", "weekend":
		t := d.AddDate(0, 0, 7*n)
		return t, "in the " + unit + " of " + fmtDay(t)
	case "month":
		t := time.Date(d.Year(), d.Month()+time.Month(n), 1, 0, 0, 0, 0, d.Location())
		return t, "in " + fmtMonth(t)
	default:
		t := time.Date(d.Year()+n, 1, 1, 0, 0, 0, 0, d.Location())
		return t, "in " + strconv.Itoa(t.Year())
	}
}

// lastWeekday is the most recent given weekday strictly before ref's day (or ref's day when sameDay).
func lastWeekday(ref time.Time, wd time.Weekday, sameDay bool) time.Time {
	d := day(ref)
	back := (int(d.Weekday()) - int(wd) + 7) % 7
	if back == 0 && !sameDay {
		back = 7
	}
	return d.AddDate(0, 0, -back)
}

func nextWeekday(ref time.Time, wd time.Weekday) time.Time {
	d := day(ref)
	fwd := (int(wd) - int(d.Weekday()) + 7) % 7
	if fwd == 0 {
		fwd = 7
	}
	return d.AddDate(0, 0, fwd)
}

func weekdayPhrase(t time.Time) string { return "on " + t.Weekday().String() + " " + fmtDay(t) }

var datePatterns = []datePattern{
	// A day of a month with its weekday ("Friday 15 March", "on Tuesday, the 12th of March", "Friday, March
	// 15") is one date: first, so that neither the weekday nor the day is read alone.
	{cueWords("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"), regexp.MustCompile(`(?i)\b(?:on\s+)?` + weekdayRe + `,?\s+(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\b(?:,?\s+(\d{4})\b)?`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return dayOfMonth(ref, m[3], m[2], m[4])
	}},
	{cueWords("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"), regexp.MustCompile(`(?i)\b(?:on\s+)?` + weekdayRe + `,?\s+` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return dayOfMonth(ref, m[2], m[3], m[4])
	}},
	{cueWords("yesterday"), regexp.MustCompile(`(?i)\b(?:the\s+)?day\s+before\s+yesterday\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t := day(ref).AddDate(0, 0, -2)
		return t, "on " + fmtDay(t), false, true
	}},
	{cueWords("yesterday|night"), regexp.MustCompile(`(?i)\b(?:yesterday|last\s+night)(?:\s+(?:morning|afternoon|evening))?\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t := day(ref).AddDate(0, 0, -1)
		return t, "on " + fmtDay(t), false, true
	}},
	{cueWords("today|tonight|morning|afternoon|evening"), regexp.MustCompile(`(?i)\b(?:today|tonight|this\s+(?:morning|afternoon|evening))\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return ref, "on " + fmtDay(ref), false, true
	}},
	{cueWords("tomorrow"), regexp.MustCompile(`(?i)\btomorrow\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t := day(ref).AddDate(0, 0, 1)
		return t, "on " + fmtDay(t), true, true
	}},
	{cueWords("week"), regexp.MustCompile(`(?i)\b(?:last|this\s+past|past)\s+(week|weekend)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return day(ref).AddDate(0, 0, -7), "in the " + strings.ToLower(m[1]) + " before " + fmtDay(ref), false, true
	}},
	{cueWords("month"), regexp.MustCompile(`(?i)\b(?:last|past|previous)\s+month\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t, p := shift(ref, -1, "month")
		return t, p, false, true
	}},
	{cueWords("year"), regexp.MustCompile(`(?i)\b(?:last|past|previous)\s+year\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t, p := shift(ref, -1, "year")
		return t, p, false, true
	}},
	{cueWords("week"), regexp.MustCompile(`(?i)\bthis\s+(week|weekend)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return day(ref), "in the " + strings.ToLower(m[1]) + " of " + fmtDay(ref), false, true
	}},
	{cueWords("month|year"), regexp.MustCompile(`(?i)\bthis\s+(month|year)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		// The period the turn is in: what it says holds by the turn's day, as "this week" does. Its start would
		// date "I've gone vegan this year" before a statement made earlier in the year.
		_, p := shift(ref, 0, strings.ToLower(m[1]))
		return day(ref), p, false, true
	}},
	{cueWords("week"), regexp.MustCompile(`(?i)\bnext\s+(week|weekend)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return day(ref).AddDate(0, 0, 7), "in the " + strings.ToLower(m[1]) + " after " + fmtDay(ref), true, true
	}},
	{cueWords("month|year"), regexp.MustCompile(`(?i)\bnext\s+(month|year)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t, p := shift(ref, 1, strings.ToLower(m[1]))
		return t, p, true, true
	}},
	{cueWords("spring|summer|autumn|fall|winter"), regexp.MustCompile(`(?i)\b(last|this\s+past|this\s+coming|this|next)\s+(spring|summer|autumn|fall|winter)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t := season(ref, strings.ToLower(m[2]), strings.Fields(strings.ToLower(m[1])))
		return t, "in the " + strings.ToLower(m[2]) + " of " + strconv.Itoa(t.Year()), t.After(ref), true
	}},
	// "in the spring", "over the summer": the season of the turn's year (its own when the turn is in it), as
	// "this spring" is; with a year, that year's.
	{cueWords("spring|summer|autumn|fall|winter"), reInTheSeason, func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		name := strings.ToLower(m[1])
		t := season(ref, name, []string{"this"})
		if m[2] != "" {
			y, _ := strconv.Atoi(m[2])
			t = time.Date(y, seasonStart[name], 1, 0, 0, 0, 0, ref.Location())
		}
		return t, "in the " + name + " of " + strconv.Itoa(t.Year()), t.After(ref), true
	}},
	{cueWords("day"), regexp.MustCompile(`(?i)\bnext\s+` + weekdayRe + `\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t := nextWeekday(ref, weekdays[strings.ToLower(m[1])])
		return t, weekdayPhrase(t), true, true
	}},
	{cueWords("day"), regexp.MustCompile(`(?i)\bthis\s+(?:coming\s+)?` + weekdayRe + `(?:\s+(?:morning|afternoon|evening|night))?\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		// "this Friday" is the one of the days ahead (today's when it is Friday); the past one is "this past
		// Friday" or "last Friday".
		wd := weekdays[strings.ToLower(m[1])]
		if day(ref).Weekday() == wd {
			return day(ref), weekdayPhrase(day(ref)), false, true
		}
		t := nextWeekday(ref, wd)
		return t, weekdayPhrase(t), true, true
	}},
	{cueWords("day"), regexp.MustCompile(`(?i)\b(last|this\s+past|on)\s+` + weekdayRe + `(?:\s+(?:morning|afternoon|evening|night))?\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		wd := weekdays[strings.ToLower(m[2])]
		lead := strings.ToLower(strings.Fields(m[1])[0])
		t := lastWeekday(ref, wd, lead == "on")
		return t, weekdayPhrase(t), false, true
	}},
	{cueWords("ago"), regexp.MustCompile(`(?i)\b` + countRe + `\s+` + unitRe + `\s+ago\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		n := count(m[1])
		if n <= 0 {
			return time.Time{}, "", false, false
		}
		t, p := shift(ref, -n, strings.ToLower(m[2]))
		return t, p, false, true
	}},
	{cueWords("day|week|month|year"), regexp.MustCompile(`(?i)\bin\s+` + countRe + `\s+` + unitRe + `\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		n := count(m[1])
		if n <= 0 {
			return time.Time{}, "", false, false
		}
		t, p := shift(ref, n, strings.ToLower(m[2]))
		return t, p, true, true
	}},
	{cueWords("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"), regexp.MustCompile(`(?i)\b(?:on\s+)?` + monthRe + `\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return dayOfMonth(ref, m[1], m[2], m[3])
	}},
	{cueWords("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"), regexp.MustCompile(`(?i)\b(?:on\s+)?(?:the\s+)?(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?` + monthRe + `\b(?:,?\s+(\d{4})\b)?`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return dayOfMonth(ref, m[2], m[1], m[3])
	}},
	// "the first of January", "the twenty-third of May": a day in words is said with "the" and "of".
	{cueWords("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"), regexp.MustCompile(`(?i)\b(?:on\s+)?the\s+` + ordinalDayRe + `\s+of\s+` + monthRe + `\b(?:,?\s+(\d{4})\b)?`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		return dayOfMonth(ref, m[2], strconv.Itoa(ordinalDay(m[1])), m[3])
	}},
	// A bare month is the last one before the turn, unless the words before it look forward ("next May",
	// "starting in March", "from June", "until April"): then it is the next one.
	{cueWords("jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec"), regexp.MustCompile(`(?i)\b(?:(starting|beginning|effective|from|until|till|as\s+of)\s+)?(in|since|during|last|this\s+past|next|early|late|mid|by)\s+(?:-\s*)?` + monthRe + `\b(?:,?\s+(\d{4})\b)?`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		cue := strings.ToLower(m[1])
		forward := cue != ""
		m = append(m[:1], m[2:]...)
		mo := months[strings.ToLower(m[2])]
		lead := strings.ToLower(strings.Fields(m[1])[0])
		year := ref.Year()
		if m[3] != "" {
			year, _ = strconv.Atoi(m[3])
		} else if lead == "next" || forward || lead == "by" {
			if mo < ref.Month() || mo == ref.Month() && lead == "next" {
				year++
			}
		} else if mo > ref.Month() || (lead == "last" && mo == ref.Month()) {
			year--
		}
		t := time.Date(year, mo, 1, 0, 0, 0, 0, ref.Location())
		phrase := "in " + fmtMonth(t)
		if lead == "since" {
			phrase = "since " + fmtMonth(t)
		}
		if forward {
			// "until next June": the boundary's preposition, and the period without one of its own.
			phrase = cue + " " + strings.TrimPrefix(phrase, "in ")
		}
		return t, phrase, t.After(ref), true
	}},
	{cueWords("-"), regexp.MustCompile(`\b(\d{4})-(\d{2})-(\d{2})\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		t, err := time.ParseInLocation("2006-01-02", m[0], ref.Location())
		if err != nil {
			return time.Time{}, "", false, false
		}
		return t, "on " + fmtDay(t), t.After(ref), true
	}},
	{cueWords("19|20"), regexp.MustCompile(`(?i)\b(in|since|during|from|back\s+in|around)\s+((?:19|20)\d\d)\b`), func(m []string, ref time.Time) (time.Time, string, bool, bool) {
		y, _ := strconv.Atoi(m[2])
		t := time.Date(y, 1, 1, 0, 0, 0, 0, ref.Location())
		return t, strings.ToLower(strings.Fields(m[1])[0]) + " " + m[2], y > ref.Year(), true
	}},
}

// seasonStart is the month each season starts in, by the meteorological reckoning of the northern hemisphere
// (where most English speakers live): spring in March, summer in June, autumn in September, winter in December.
var seasonStart = map[string]time.Month{"spring": time.March, "summer": time.June, "autumn": time.September,
	"fall": time.September, "winter": time.December}

// season is the start of the season named with lead ("last", "this", "this past", "this coming", "next") as
// seen at ref: "this" is the season ref is in, else this calendar year's when it has passed and the coming one
// when it has not ("this summer" said in November is the summer gone, said in February the one ahead); "last"
// the latest one that has ended; "next" the first one that has not begun.
func season(ref time.Time, name string, lead []string) time.Time {
	mo := seasonStart[name]
	y := ref.Year()
	if mo > ref.Month() {
		y--
	}
	latest := time.Date(y, mo, 1, 0, 0, 0, 0, ref.Location()) // the latest start at or before ref
	in := ref.Before(latest.AddDate(0, 3, 0))
	switch {
	case lead[0] == "last" || lead[0] == "this" && len(lead) > 1 && lead[1] == "past":
		if in {
			return latest.AddDate(-1, 0, 0)
		}
		return latest
	case lead[0] == "next" || len(lead) > 1 && lead[1] == "coming":
		return latest.AddDate(1, 0, 0)
	case in || latest.Year() == ref.Year():
		return latest
	}
	return latest.AddDate(1, 0, 0)
}

func dayOfMonth(ref time.Time, month, dom, year string) (time.Time, string, bool, bool) {
	mo, ok := months[strings.ToLower(month)]
	d, err := strconv.Atoi(dom)
	if !ok || err != nil || d < 1 || d > 31 {
		return time.Time{}, "", false, false
	}
	y := ref.Year()
	if year != "" {
		y, _ = strconv.Atoi(year)
	}
	t := time.Date(y, mo, d, 0, 0, 0, 0, ref.Location())
	if t.Day() != d {
		return time.Time{}, "", false, false
	}
	return t, "on " + fmtDay(t), t.After(day(ref)), true
}

// ordinalDayRe is a day of the month as an English ordinal word, "first" to "thirty-first" (group 1).
const ordinalDayRe = `((?:twenty|thirty)[\s-]first|(?:twenty)[\s-](?:second|third|fourth|fifth|sixth|seventh|eighth|ninth)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth)`

// ordinalDay is the number of an ordinal word of ordinalDayRe, 0 for none.
func ordinalDay(w string) int {
	units := map[string]int{"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
		"eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
		"fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19, "twentieth": 20,
		"thirtieth": 30}
	f := strings.FieldsFunc(strings.ToLower(w), func(r rune) bool { return r == ' ' || r == '-' })
	switch {
	case len(f) == 1:
		return units[f[0]]
	case len(f) == 2 && f[0] == "twenty" && units[f[1]] < 10:
		return 20 + units[f[1]]
	case len(f) == 2 && f[0] == "thirty" && f[1] == "first":
		return 31
	}
	return 0
}

func cueWords(s string) []string { return strings.Split(s, "|") }

// cued reports whether lower contains one of cues.
func cued(lower string, cues []string) bool {
	for _, c := range cues {
		if strings.Contains(lower, c) {
			return true
		}
	}
	return false
}

// findDates returns the temporal expressions of s, resolved against ref, in order of position. Earlier
// patterns win overlaps (they are the more specific ones).
func findDates(s string, ref time.Time) []when {
	var out []when
	taken := func(a, b int) bool {
		for _, w := range out {
			if a < w.end && w.start < b {
				return true
			}
		}
		return false
	}
	lower := strings.ToLower(s)
	// First, so that a weekday before the day ("on Saturday the 12th") is not read alone.
	if strings.ContainsAny(s, "0123456789") {
		for _, loc := range reDayOfMonthOnly.FindAllStringSubmatchIndex(s, -1) {
			if !reAfterDayOfMonth.MatchString(s[loc[1]:]) {
				continue
			}
			at, ok := nextDayOfMonth(ref, s[loc[6]:loc[7]])
			if !ok {
				continue
			}
			if at.After(day(ref)) && reWasBefore.MatchString(s[:loc[0]]) {
				// "The party was on the 12th", said on the 5th: last month's ("we had to bump the party to the
				// 19th" is a past change to a day ahead).
				at = at.AddDate(0, -1, 0)
			}
			out = append(out, when{start: loc[0], end: loc[1], at: at, phrase: "on " + fmtDay(at), future: at.After(day(ref))})
		}
	}
	for _, p := range datePatterns {
		if !cued(lower, p.cues) {
			continue
		}
		for _, loc := range p.re.FindAllStringSubmatchIndex(s, -1) {
			if taken(loc[0], loc[1]) {
				continue
			}
			m := make([]string, len(loc)/2)
			for i := range m {
				if loc[2*i] >= 0 {
					m[i] = s[loc[2*i]:loc[2*i+1]]
				}
			}
			if reRecursAfter.MatchString(s[loc[1]:]) {
				// "the last Sunday of the month", "Wednesday evenings": a day that recurs, not the Sunday
				// before the day it is said.
				continue
			}
			if reInSpan.MatchString(m[0]) && reSuperlativeBefore.MatchString(s[:loc[0]]) {
				// "my first dentist appointment in two years", "the best day in months": a span counted back
				// from now, not a time ahead.
				continue
			}
			at, phrase, future, ok := p.resolve(m, ref)
			if !ok {
				continue
			}
			if reOnWeekday.MatchString(m[0]) && !strings.ContainsAny(m[0], "0123456789") && !future && !day(at).Equal(day(ref)) && !pastTense(s[:loc[0]]) {
				// "I start at Lloyds on Monday", "the party is on Saturday": a bare "on" weekday in a clause
				// not in the past tense is the one ahead ("I saw her on Monday" keeps the one before). A
				// weekday with its day of the month ("on Friday 15 March") is that day.
				at = at.AddDate(0, 0, 7)
				phrase, future = weekdayPhrase(at), true
			}
			// The clause a time is said in: the words before it, or after it when it opens the sentence ("In
			// September, our wedding is at Hampton Manor").
			clause := s[:loc[0]]
			if strings.TrimSpace(clause) == "" {
				clause = s[loc[1]:]
			}
			if !future && reInTheSeason.MatchString(m[0]) && reFutureClause.MatchString(clause) && !pastTense(clause) {
				// "We're planning a trip to Japan in the spring", said in June: the spring ahead.
				at = at.AddDate(1, 0, 0)
				phrase, future = "in the "+strings.ToLower(strings.Fields(m[0])[2])+" of "+strconv.Itoa(at.Year()), true
			}
			if !future && reBareMonthIn.MatchString(m[0]) && reFutureClause.MatchString(clause) && !pastTense(clause) {
				// "We're going to Venice in May", "I'll start in March" said in February of a year whose May is
				// ahead: a month in a clause about the future is the next one, not the last.
				at = at.AddDate(1, 0, 0)
				phrase, future = "in "+fmtMonth(at), true
			}
			if rest, ok := strings.CutPrefix(phrase, "in "); ok && reBoundaryBefore.MatchString(s[:loc[0]]) {
				// "postponed until next June", "moved to next March": after a preposition of a boundary the
				// period needs none of its own ("until June 2025", not "until in June 2025").
				phrase = rest
			}
			out = append(out, when{start: loc[0], end: loc[1], at: at, phrase: phrase, future: future})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// reBoundaryBefore is a preposition of a time's boundary or goal right before a date: "until", "till", "to", "by",
// "before", "after", "from".
var reBoundaryBefore = regexp.MustCompile(`(?i)\b(?:until|till|to|by|before|after|from)\s+$`)

// reRecursAfter follows a weekday that recurs ("the last Sunday of the month", "the first Thursday of every
// month", "on Wednesday evenings").
var reRecursAfter = regexp.MustCompile(`(?i)^\s+(?:of\s+(?:the|every|each)\s+month|(?:morning|afternoon|evening|night)s)\b`)

// reDayOfMonthOnly is a day of the month named without its month, after "the" or a weekday ("on the 12th", "Saturday
// the 12th", "Friday 3rd", "on the Friday, the 7th"); group 3 is the day. With a month after it ("the 12th of March")
// it is no match here (reAfterDayOfMonth), and the patterns with months read it.
var reDayOfMonthOnly = regexp.MustCompile(`(?i)\b(?:on\s+)?(?:(?:the\s+)?` + weekdayRe + `,?\s+the\s+|the\s+|(?:the\s+)?` + weekdayRe + `,?\s+)(\d{1,2})(?:st|nd|rd|th)\b`)

// reWasBefore is a clause whose state or event was in the past, right before its time: "was (on)", "were",
// "happened", "took place".
var reWasBefore = regexp.MustCompile(`(?i)\b(?:was|were|happened|took\s+place|had\s+been)\s*$`)

// reAfterDayOfMonth is what may follow such a day: the clause's end or punctuation, or a word that begins
// another phrase (a preposition, a conjunction, a time adverb, a pronoun). A noun after it makes the ordinal a
// rank ("the 12th floor", "the 3rd time").
var reAfterDayOfMonth = regexp.MustCompile(`(?i)^(?:\s*$|\s*[,.!?;:)\-]|\s+(?:at|in|and|but|because|so|instead|now|then|as|when|for|or|with|to|until|till|since|after|before|this|next|which|if|though|although|anyway|too|again|i|we|he|she|they|it|lol|haha)\b)`)

// nextDayOfMonth is the first day numbered dom on or after ref's day: this month's, else next month's (a day
// the next month lacks, the 31st, is the month after's).
func nextDayOfMonth(ref time.Time, dom string) (time.Time, bool) {
	d, err := strconv.Atoi(dom)
	if err != nil || d < 1 || d > 31 {
		return time.Time{}, false
	}
	for k := 0; k < 3; k++ {
		first := time.Date(ref.Year(), ref.Month(), 1, 0, 0, 0, 0, ref.Location()).AddDate(0, k, 0)
		t := first.AddDate(0, 0, d-1)
		if t.Month() == first.Month() && !t.Before(day(ref)) {
			return t, true
		}
	}
	return time.Time{}, false
}

// reInSpan is "in" and a number of units ("in two years"); reSuperlativeBefore a first, last or only thing,
// or one of the superlatives said of spans, a few words before it, which makes the span one that ends now
// ("the first one in two years", "for the first time in months", "the hottest summer in ten years").
var (
	reInSpan            = regexp.MustCompile(`(?i)^in\s+` + countRe + `\s+` + unitRe + `$`)
	reSuperlativeBefore = regexp.MustCompile(`(?i)\b(?:first|last|only|best|worst|most|least|biggest|hottest|coldest|warmest|wettest|longest|shortest|happiest|busiest|highest|lowest|largest|fastest|slowest)\b(?:\s+[\pL'-]+){0,4}[\s,]*$`)
)

// reInTheSeason is a season with "the" and no other word for which one: "in the spring", "over the summer of
// 2019" (groups: the season, the year).
var reInTheSeason = regexp.MustCompile(`(?i)\b(?:in|over|during)\s+the\s+(spring|summer|autumn|fall|winter)\b(?:\s+of\s+((?:19|20)\d\d)\b)?`)

// reBareMonthIn is a month named without its year after "in" or "during" (what the bare-month pattern reads as the last
// such month); reFutureClause the words of English that put a clause in the future: a modal of the future, "going to",
// a plan, a booking or a schedule ("rent goes up in July": a change in the simple present is one scheduled), a present
// progressive (an arrangement: "we're doing Sicily in September", said in May), or a planned event in the present
// ("the wedding is in September": what is planned is ahead), or an absence said in the present ("half the team is
// away in June", "I'm on leave in August", said in April: an absence one announces is ahead).
var (
	reBareMonthIn  = regexp.MustCompile(`(?i)^(?:in|during)\s+` + monthRe + `$`)
	reFutureClause = regexp.MustCompile(`(?i)\b(?:will|shall|going|gonna|planning|plan\s+to|plans\s+to|booked|scheduled|due|hoping\s+to|hope\s+to|about\s+to|moving|starting|go(?:es)?\s+(?:up|down)|rises|increases|decreases|kicks\s+in)\b|'ll\b|\b(?:am|is|are|'m|'re)\s+(?:(?:also|still|probably|definitely|actually|now)\s+)?\pL+ing\b|\b(?:am|is|are|'m|'re)\s+(?:(?:also|all|probably|definitely)\s+)?(?:away|off|abroad|on\s+(?:holiday|leave|vacation|annual\s+leave))\b|\b(?:` + scheduledEvents + `)(?:'s|\s+is|\s+are)\b`)
)

// reOnWeekday is a weekday after a bare "on".
var reOnWeekday = regexp.MustCompile(`(?i)^on\s+` + weekdayRe)

// pastTense reports whether the words before a date say the past: a form of "be", "do" or "have" in the past,
// or a verb's past form ("moved", "took").
func pastTense(before string) bool {
	for _, w := range strings.Fields(strings.ToLower(before)) {
		w = strings.Trim(w, ".,;:!?\"'()")
		switch w {
		case "was", "were", "did", "had", "didn't", "wasn't", "weren't", "hadn't":
			return true
		}
		if base, ok := verbForms[w]; ok && base != w && !strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ing") && !strings.HasSuffix(w, "en") {
			return true
		}
		if strings.HasSuffix(w, "ed") && len(w) > 4 && !nonVerbsEd[w] && nlp.VerbLemma(w) != w {
			return true
		}
	}
	return false
}

var reEndsWithPrep = regexp.MustCompile(`(?i)\b(?:for|by|until|till|from|of|since|before|after|through)\s+$`)

// reEndsWithTo matches text before a date phrase after which "on" is redundant or wrong ("moved to on 5
// May", "my on 20 April deadline").
var reEndsWithTo = regexp.MustCompile(`(?i)\b(?:to|than|my|our|your|his|her|their|the|new)\s+$`)

// replaceDates returns s with each temporal expression replaced by its absolute phrase.
func replaceDates(s string, ws []when) string {
	if len(ws) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, w := range ws {
		before := s[last:w.start]
		phrase := w.phrase
		// "for tonight" → "for 22 May 2023", not "for on 22 May 2023".
		switch {
		case reEndsWithPrep.MatchString(before):
			phrase = strings.TrimPrefix(strings.TrimPrefix(phrase, "on "), "in ")
		case reEndsWithTo.MatchString(before):
			phrase = strings.TrimPrefix(phrase, "on ")
		}
		b.WriteString(before)
		b.WriteString(phrase)
		last = w.end
	}
	b.WriteString(s[last:])
	return b.String()
}

// validFrom is the start of the first past expression, else ref.
func validFrom(ws []when, ref time.Time) time.Time {
	for _, w := range ws {
		if !w.future {
			if w.at.After(ref) {
				return ref
			}
			return w.at
		}
	}
	return ref
}
