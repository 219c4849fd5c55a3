package bench

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot/plotter"
)

// The conversation-updates part of the report: answer accuracy per question kind, stale-as-current rates
// from the answer and the context, and both per attribute.

func kindRows(rows []*Row, kind string) []*Row {
	return filterRows(rows, func(r *Row) bool { return r.Category == kind })
}

// staleContextOf is the stale-as-current verdict of a context; only current questions have stale values.
func staleContextOf(r *Row, br *BudgetResult) (float64, bool) {
	if r.Category != KindCurrent {
		return 0, false
	}
	return b2f(br.StaleAsCurrent), true
}

// staleAnswerOf is the stale-as-current verdict of a system's own answer.
func staleAnswerOf(r *Row) (float64, bool) {
	if r.Category != KindCurrent || r.Answer == nil {
		return 0, false
	}
	return b2f(r.Answer.Stale), true
}

// staleAsCurrentOf is the headline verdict of a current question: the system presented a stale value as
// current in its answer or in its context at the analysis budget (the whole history for full-context).
func staleAsCurrentOf(r *Row) (float64, bool) {
	if r.Category != KindCurrent {
		return 0, false
	}
	br := atBudget(r, analysisBudget)
	if br == nil && r.Answer == nil {
		return 0, false
	}
	return b2f((br != nil && br.StaleAsCurrent) || (r.Answer != nil && r.Answer.Stale)), true
}

// currentUnambiguousOf: the context shows the current value and presents no stale value as current.
func currentUnambiguousOf(r *Row, br *BudgetResult) (float64, bool) {
	if r.Category != KindCurrent {
		return 0, false
	}
	return b2f(br.GoldInContext && !br.StaleAsCurrent), true
}

func (rep *Report) convSummary(put func(sys, key string, st Stat), sys string, rows []*Row) {
	for _, k := range ConvKinds {
		put(sys, k, mean(kindRows(rows, k), answerCorrect))
		put(sys, k+"_gold_in_context@500", budgetStat(kindRows(rows, k), analysisBudget, goldOf))
	}
	put(sys, "stale_as_current", mean(rows, staleAsCurrentOf))
	put(sys, "stale_as_current_answer", mean(rows, staleAnswerOf))
	for _, b := range budgetsOf(rows) {
		put(sys, "stale_as_current_context@"+budgetLabel(b), budgetStat(rows, b, staleContextOf))
	}
	put(sys, "tokens_per_answer", mean(rows, answerTokens))
}

func (rep *Report) convGoals(mneme []*Row) []Goal {
	var goals []Goal
	if st := mean(kindRows(mneme, KindCurrent), answerCorrect); st.N > 0 {
		goals = append(goals, Goal{Name: "conversation updates: current-value accuracy (mneme /answer, no LLM)",
			Target: "≥ 90%", Value: round(st.Mean, 4), Met: st.Mean >= 0.9})
	}
	if st := mean(mneme, staleAsCurrentOf); st.N > 0 {
		goals = append(goals, Goal{Name: fmt.Sprintf("conversation updates: stale value presented as current (mneme /answer or context@%d)", analysisBudget),
			Target: "0%", Value: round(st.Mean, 4), Met: st.Mean == 0})
	}
	return goals
}

func (rep *Report) convMarkdown(b *strings.Builder, names []string, groups map[string][]*Row) {
	b.WriteString("## Answers without an LLM\n\n" +
		"Share of questions whose answer holds the gold and presents no stale value as current.\n\n")
	t := &table{head: []string{"system", "current", "past", "unchanged", "all", "stale as current (answer)", "tokens / answer"}}
	for _, sys := range names {
		rows := groups[sys]
		if mean(rows, answerCorrect).N == 0 {
			continue
		}
		cells := []string{sys}
		for _, k := range ConvKinds {
			cells = append(cells, pct(mean(kindRows(rows, k), answerCorrect)))
		}
		t.add(append(cells, pct(mean(rows, answerCorrect)), pct(mean(rows, staleAnswerOf)), num(mean(rows, answerTokens)))...)
	}
	if len(t.rows) == 0 {
		b.WriteString("No system answered (no deterministic answerer ran).\n\n")
	} else {
		b.WriteString(t.String() + "\n")
	}
	fmt.Fprintf(b, "## Stale value presented as current\n\nCurrent questions; the answer, or the context at %d tokens (full-context: the whole history).\n\n", analysisBudget)
	t = &table{head: []string{"system", "current questions", "stale as current", "in the answer", fmt.Sprintf("in the context@%d", analysisBudget)}}
	for _, sys := range names {
		rows := groups[sys]
		cur := kindRows(rows, KindCurrent)
		t.add(sys, strconv.Itoa(len(cur)), pct(mean(rows, staleAsCurrentOf)), pct(mean(rows, staleAnswerOf)), pct(budgetStat(rows, analysisBudget, staleContextOf)))
	}
	b.WriteString(t.String() + "\n")
	b.WriteString("## Contexts at each token budget\n\n" +
		"Gold in context per question kind; stale as current: a context line presents a replaced value as current; current unambiguous: the current value is shown and no stale value is presented as current.\n\n")
	t = &table{head: []string{"system", "budget", "tokens", "current gold", "past gold", "unchanged gold", "stale as current", "current unambiguous"}}
	for _, sys := range names {
		rows := groups[sys]
		for _, bud := range budgetsOf(rows) {
			cells := []string{sys, budgetLabel(bud), num(budgetStat(rows, bud, tokensOf))}
			for _, k := range ConvKinds {
				cells = append(cells, pct(budgetStat(kindRows(rows, k), bud, goldOf)))
			}
			t.add(append(cells, pct(budgetStat(rows, bud, staleContextOf)), pct(budgetStat(rows, bud, currentUnambiguousOf)))...)
		}
	}
	b.WriteString(t.String() + "\n")
	for _, sys := range names {
		rep.convAttributeMarkdown(b, sys, groups[sys])
	}
	rep.convStaleExamples(b, groups[SystemMneme])
}

// convAttributeMarkdown breaks one system's figures down by attribute kind.
func (rep *Report) convAttributeMarkdown(b *strings.Builder, sys string, rows []*Row) {
	hasAnswers := mean(rows, answerCorrect).N > 0
	var attrs []string
	for _, r := range rows {
		if !slices.Contains(attrs, r.Attribute) {
			attrs = append(attrs, r.Attribute)
		}
	}
	sort.Strings(attrs)
	if len(attrs) == 0 {
		return
	}
	fmt.Fprintf(b, "## Per attribute: %s\n\n", sys)
	head := []string{"attribute", "questions"}
	if hasAnswers {
		head = append(head, "current", "past", "unchanged")
	} else {
		head = append(head, fmt.Sprintf("current gold@%d", analysisBudget), fmt.Sprintf("past gold@%d", analysisBudget), fmt.Sprintf("unchanged gold@%d", analysisBudget))
	}
	t := &table{head: append(head, "stale as current")}
	for _, a := range append(attrs, "all") {
		ar := rows
		if a != "all" {
			ar = filterRows(rows, func(r *Row) bool { return r.Attribute == a })
		}
		cells := []string{a, strconv.Itoa(len(ar))}
		for _, k := range ConvKinds {
			if hasAnswers {
				cells = append(cells, pct(mean(kindRows(ar, k), answerCorrect)))
			} else {
				cells = append(cells, pct(budgetStat(kindRows(ar, k), analysisBudget, goldOf)))
			}
		}
		t.add(append(cells, pct(mean(ar, staleAsCurrentOf)))...)
	}
	b.WriteString(t.String() + "\n")
}

// convStaleExamples lists the current questions where Mneme presented a stale value as current.
func (rep *Report) convStaleExamples(b *strings.Builder, rows []*Row) {
	t := &table{head: []string{"question", "question text", "gold", "answer", fmt.Sprintf("stale line in the context@%d", analysisBudget)}}
	for _, r := range rows {
		if v, ok := staleAsCurrentOf(r); !ok || v == 0 {
			continue
		}
		ans, line := "", ""
		if r.Answer != nil {
			ans = r.Answer.Text
		}
		if br := atBudget(r, analysisBudget); br != nil {
			line = br.StaleLine
		}
		t.add(r.QuestionID, clip(r.Question, 70), clip(first(r.Golds), 30), clip(ans, 50), clip(line, 120))
	}
	if len(t.rows) == 0 {
		return
	}
	if len(t.rows) > maxListed {
		t.rows = t.rows[:maxListed]
	}
	b.WriteString("## Stale values presented as current (mneme)\n\n" + t.String() + "\n")
}

func convDefinitions() []string {
	return []string{
		"**questions**: *current* asks the latest value of something that changed; *past* a value that was replaced; *unchanged* a fact stated once and never changed. Attributes tag what is asked (employer, city, pet, ...).",
		"**answer accuracy** (/answer, or the LLM reader): the SQuAD-normalized gold (or an accepted alternative; for list answers every item) is a substring of the answer, the answer holds none of the question's rejected phrases (\"not vegetarian\"), and it presents no stale value as current.",
		"**stale as current**: a replaced value of a current question, as whole words, without a word next to it in the same clause that marks it as no longer holding (\"left\", \"used to\", \"no longer\", \"previously\", \"sold\", ... or a negation just before it). In a context, a line does not count when it belongs to a claim whose status is not current (superseded, retired), when it also presents the current value as current (it describes the change), or, for a question about someone whose old value another person still holds, when it does not mention them. The headline counts a question when the answer or the context at 500 tokens presents a stale value as current.",
		"**gold in context**: the normalized gold occurs in the context.",
	}
}

// convPlot is the conversation-updates Pareto view: current questions whose context shows the current
// value without a stale one presented as current, against tokens, with each system's own answers.
func (rep *Report) convPlot(names []string, groups map[string][]*Row, curve func(title, ylabel, file string, metric func(*Row, *BudgetResult) (float64, bool), rows func([]*Row) []*Row) PlotSpec) PlotSpec {
	ps := curve("Conversation updates: current value without stale ones vs tokens", "current questions: unambiguous context / correct answer",
		"convupdates-pareto.png", currentUnambiguousOf, func(r []*Row) []*Row { return kindRows(r, KindCurrent) })
	for i := range ps.Series {
		ps.Series[i].Name += " context"
	}
	for _, sys := range names {
		cur := kindRows(groups[sys], KindCurrent)
		a, t := mean(cur, answerCorrect), mean(cur, answerTokens)
		if a.N > 0 {
			ps.Series = append(ps.Series, Series{Name: sys + " /answer", Points: plotter.XYs{{X: max(t.Mean, 1), Y: a.Mean}}, PointsOnly: true})
		}
	}
	return ps
}
