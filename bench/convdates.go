package bench

import (
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Dates in the conversation-updates metric. A gold written "May 13" and an answer or a context that says "13 May
// 2024" name one day: English writes a day of the month before or after the month's name, with or without an
// ordinal suffix and the year. The substring metric alone counted such an answer wrong (and missed a stale
// date written the other way), so golds, stale values and the texts they are looked for in have their days
// written one way first (canonDates); a gold that names a year still needs that year. Nothing else about the
// metric changes.

// reDayOfMonth is a day of a named month in either order, with an optional year: "May 13", "13th May",
// "May 13th, 2024", "13 May 2024" (groups: day, month or month, day; then the year).
var reDayOfMonth = regexp.MustCompile(`(?i)\b(?:(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?|(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?\s+(\d{1,2})(?:st|nd|rd|th)?)\b(?:,?\s+(\d{4})\b)?`)

// dayOfMonth is one day a text names: month, day and, when said, the year (0 when not).
type dayOfMonth struct {
	month time.Month
	day   int
	year  int
}

// daysOfMonth returns the days of named months a text states.
func daysOfMonth(text string) []dayOfMonth {
	var out []dayOfMonth
	for _, m := range reDayOfMonth.FindAllStringSubmatch(text, -1) {
		day, month := m[1], m[2]
		if day == "" {
			month, day = m[3], m[4]
		}
		d, err := strconv.Atoi(day)
		if err != nil || d < 1 || d > 31 {
			continue
		}
		mo := monthOf(month)
		if mo == 0 {
			continue
		}
		y, _ := strconv.Atoi(m[5])
		out = append(out, dayOfMonth{month: mo, day: d, year: y})
	}
	return out
}

// monthOf is the month a name or its abbreviation names (0: none).
func monthOf(name string) time.Month {
	name = strings.ToLower(name)
	for m := time.January; m <= time.December; m++ {
		full := strings.ToLower(m.String())
		if name == full || len(name) >= 3 && strings.HasPrefix(full, name) {
			return m
		}
	}
	return 0
}

// canonDates writes every day of a named month in text one way, "13 may" or "13 may 2024", so that a gold, a
// stale value and a system's text compare whatever order each wrote the day in.
func canonDates(text string) string {
	return reDayOfMonth.ReplaceAllStringFunc(text, func(m string) string {
		ds := daysOfMonth(m)
		if len(ds) != 1 {
			return m
		}
		d := ds[0]
		out := strconv.Itoa(d.day) + " " + strings.ToLower(d.month.String())
		if d.year != 0 {
			out += " " + strconv.Itoa(d.year)
		}
		return out
	})
}

// canonDatesAll applies canonDates to each value.
func canonDatesAll(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = canonDates(v)
	}
	return out
}
