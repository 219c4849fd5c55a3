package bench

import (
	"math"
	"slices"
	"sort"
)

// Stat is a mean over the questions it counts.
type Stat struct {
	Mean float64 `json:"mean"`
	N    int     `json:"n"`
}

// mean averages v over the rows that filter keeps (nil filter: all); v returns ok=false to skip a row.
func mean(rows []*Row, v func(*Row) (float64, bool)) Stat {
	var s Stat
	sum := 0.0
	for _, r := range rows {
		x, ok := v(r)
		if !ok {
			continue
		}
		sum += x
		s.N++
	}
	if s.N > 0 {
		s.Mean = sum / float64(s.N)
	}
	return s
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// bySystem groups rows by system, in report order.
func bySystem(rows []*Row) ([]string, map[string][]*Row) {
	groups := map[string][]*Row{}
	for _, r := range rows {
		groups[r.System] = append(groups[r.System], r)
	}
	var names []string
	for _, s := range systemOrder {
		if _, ok := groups[s]; ok {
			names = append(names, s)
		}
	}
	var other []string
	for s := range groups {
		if !slices.Contains(systemOrder, s) {
			other = append(other, s)
		}
	}
	sort.Strings(other)
	return append(names, other...), groups
}

// categories returns the distinct categories of the rows, in first-seen order of a sorted walk.
func categories(rows []*Row) []string {
	var out []string
	for _, r := range rows {
		if !slices.Contains(out, r.Category) {
			out = append(out, r.Category)
		}
	}
	sort.Strings(out)
	return out
}

// budgetsOf returns the budgets measured in the rows, ascending.
func budgetsOf(rows []*Row) []int {
	var out []int
	for _, r := range rows {
		for _, b := range r.Budgets {
			if !slices.Contains(out, b.Budget) {
				out = append(out, b.Budget)
			}
		}
	}
	slices.Sort(out)
	return out
}

// atBudget returns a row's measurement at budget b (full-context rows answer every budget with their only
// measurement), or nil.
func atBudget(r *Row, b int) *BudgetResult {
	if r.System == SystemFullContext && len(r.Budgets) == 1 {
		return &r.Budgets[0]
	}
	return budgetAt(r, b)
}

// budgetStat averages v over the rows' measurements at budget b.
func budgetStat(rows []*Row, b int, v func(*Row, *BudgetResult) (float64, bool)) Stat {
	return mean(rows, func(r *Row) (float64, bool) {
		br := atBudget(r, b)
		if br == nil {
			return 0, false
		}
		return v(r, br)
	})
}

func recallOf(_ *Row, br *BudgetResult) (float64, bool) {
	if br.EvidenceRecall == nil {
		return 0, false
	}
	return *br.EvidenceRecall, true
}

func tokensOf(_ *Row, br *BudgetResult) (float64, bool) { return float64(br.Tokens), true }

func filterRows(rows []*Row, keep func(*Row) bool) []*Row {
	var out []*Row
	for _, r := range rows {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

// median of xs (0 for none).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// tokensToEvidence is, per row, the context tokens at the smallest budget whose context reaches all of the
// question's evidence; ok is false when no budget does.
func tokensToEvidence(r *Row) (float64, bool) {
	bs := slices.Clone(r.Budgets)
	slices.SortFunc(bs, func(a, b BudgetResult) int { return a.Budget - b.Budget })
	for _, b := range bs {
		if b.EvidenceRecall != nil && *b.EvidenceRecall >= 1 {
			return float64(b.Tokens), true
		}
	}
	return 0, false
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}
