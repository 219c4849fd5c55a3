package rules

import (
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
