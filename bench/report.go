package bench

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Report turns the rows of one benchmark run into the Markdown report, the headline summary and the plots.
type Report struct {
	Bench  string
	Data   string
	Config string
	// Settings describes the run's configuration, one line each (shown in the report).
	Settings []string
	Rows     []*Row
	Ingest   []*IngestRow
	// Reader names the LLM reader/judge ("" when none is configured).
	Reader string
	// Plots lists the PNG files written next to the report (relative names), shown in the report.
	Plots []string
}

// Goal is one of the targets and how the run did against it.
type Goal struct {
	Name   string  `json:"name"`
	Target string  `json:"target"`
	Value  float64 `json:"value"`
	Met    bool    `json:"met"`
	Note   string  `json:"note,omitempty"`
}

// Summary is the machine-readable headline of a run; its JSON is the last line the command prints.
type Summary struct {
	Bench     string                        `json:"bench"`
	Questions int                           `json:"questions"`
	Rows      int                           `json:"rows"`
	Errors    int                           `json:"errors"`
	Headline  map[string]map[string]float64 `json:"headline"`
	Goals     []Goal                        `json:"goals,omitempty"`
	Analysis  map[string]int                `json:"analysis,omitempty"`
}

func pct(s Stat) string {
	if s.N == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*s.Mean)
}

func num(s Stat) string {
	if s.N == 0 {
		return "–"
	}
	return strconv.FormatFloat(round(s.Mean, 0), 'f', 0, 64)
}

type table struct {
	head []string
	rows [][]string
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

func (t *table) String() string {
	var b strings.Builder
	b.WriteString("| " + strings.Join(t.head, " | ") + " |\n|")
	for range t.head {
		b.WriteString("---|")
	}
	b.WriteByte('\n')
	for _, r := range t.rows {
		for i := range r {
			r[i] = strings.ReplaceAll(r[i], "|", "\\|")
		}
		b.WriteString("| " + strings.Join(r, " | ") + " |\n")
	}
	return b.String()
}

func questionCount(rows []*Row) int {
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.QuestionID] = true
	}
	return len(seen)
}

// Summary computes the headline figures and the goals.
func (rep *Report) Summary() Summary {
	s := Summary{Bench: rep.Bench, Questions: questionCount(rep.Rows), Rows: len(rep.Rows), Headline: map[string]map[string]float64{}}
	names, groups := bySystem(rep.Rows)
	for _, r := range rep.Rows {
		if r.Error != "" {
			s.Errors++
		}
		if r.Analysis != "" {
			if s.Analysis == nil {
				s.Analysis = map[string]int{}
			}
			s.Analysis[r.Analysis]++
		}
	}
	put := func(sys, key string, st Stat) {
		if st.N == 0 {
			return
		}
		if s.Headline[sys] == nil {
			s.Headline[sys] = map[string]float64{}
		}
		s.Headline[sys][key] = round(st.Mean, 4)
	}
	for _, sys := range names {
		rows := groups[sys]
		if rep.Reader != "" {
			put(sys, "llm_accuracy", mean(rows, llmScore))
			put(sys, "llm_tokens_per_answer", mean(rows, llmTokens))
		}
		switch rep.Bench {
		case FactConsolidation:
			for _, cat := range []string{"single-hop", "multi-hop"} {
				cr := filterRows(rows, func(r *Row) bool { return r.Category == cat })
				put(sys, cat, mean(cr, answerCorrect))
				put(sys, cat+"_gold_in_context@500", budgetStat(cr, 500, goldOf))
			}
			put(sys, "tokens_per_answer", mean(rows, answerTokens))
		case ConvUpdates:
			rep.convSummary(put, sys, rows)
		case BEAM:
			for _, b := range budgetsOf(rows) {
				for _, ab := range []string{AbilityKnowledgeUpdate, AbilityContradictionResolution} {
					cr := filterRows(rows, func(r *Row) bool { return r.Category == ab })
					put(sys, fmt.Sprintf("%s@%d", ab, b), budgetStat(cr, b, passOf))
				}
				put(sys, fmt.Sprintf("source_recall@%d", b), budgetStat(rows, b, recallOf))
			}
		default:
			for _, b := range budgetsOf(rows) {
				put(sys, fmt.Sprintf("evidence_recall@%d", b), budgetStat(rows, b, recallOf))
				put(sys, fmt.Sprintf("tokens@%d", b), budgetStat(rows, b, tokensOf))
			}
			if rep.Bench == LoCoMo {
				put(sys, "answer_f1", mean(rows, answerF1))
			}
		}
	}
	s.Goals = rep.goals(groups)
	return s
}

func answerCorrect(r *Row) (float64, bool) {
	if r.Answer == nil {
		return 0, false
	}
	return b2f(r.Answer.Correct), true
}

func answerTokens(r *Row) (float64, bool) {
	if r.Answer == nil {
		return 0, false
	}
	return float64(r.Answer.Tokens), true
}

func answerF1(r *Row) (float64, bool) {
	if r.Answer == nil || r.Answer.F1 == nil {
		return 0, false
	}
	return *r.Answer.F1, true
}

func llmScore(r *Row) (float64, bool) {
	if r.LLM == nil {
		return 0, false
	}
	return r.LLM.Score, true
}

func llmTokens(r *Row) (float64, bool) {
	if r.LLM == nil {
		return 0, false
	}
	return float64(r.LLM.Tokens), true
}

func goldOf(r *Row, br *BudgetResult) (float64, bool) {
	if len(r.Golds) == 0 {
		return 0, false
	}
	return b2f(br.GoldInContext), true
}

func staleOf(r *Row, br *BudgetResult) (float64, bool) {
	if len(r.Golds) == 0 {
		return 0, false
	}
	return b2f(br.StaleInContext), true
}

// unambiguousOf: the gold is in the context and no superseded value is — what a reader that does not track
// freshness gets right for sure.
func unambiguousOf(r *Row, br *BudgetResult) (float64, bool) {
	if len(r.Golds) == 0 {
		return 0, false
	}
	return b2f(br.GoldInContext && !br.StaleInContext), true
}

func passOf(_ *Row, br *BudgetResult) (float64, bool) {
	if br.Pass == nil {
		return 0, false
	}
	return b2f(*br.Pass), true
}

func (rep *Report) goals(groups map[string][]*Row) []Goal {
	var goals []Goal
	mneme := groups[SystemMneme]
	if len(mneme) == 0 {
		return nil
	}
	switch rep.Bench {
	case FactConsolidation:
		for _, g := range []struct {
			cat    string
			target float64
		}{{"single-hop", 0.95}, {"multi-hop", 0.60}} {
			st := mean(filterRows(mneme, func(r *Row) bool { return r.Category == g.cat }), answerCorrect)
			if st.N > 0 {
				goals = append(goals, Goal{Name: "FactConsolidation " + g.cat + " accuracy (mneme /answer, no LLM)",
					Target: fmt.Sprintf("≥ %.0f%%", 100*g.target), Value: round(st.Mean, 4), Met: st.Mean >= g.target})
			}
		}
	case ConvUpdates:
		goals = rep.convGoals(mneme)
	case LoCoMo:
		m := budgetStat(mneme, 500, recallOf)
		c := budgetStat(groups[SystemChunkRAG], 1000, recallOf)
		if m.N > 0 && c.N > 0 {
			goals = append(goals, Goal{Name: "LoCoMo evidence recall: mneme@500 ≥ chunk-rag@1000",
				Target: fmt.Sprintf("≥ %.1f%%", 100*c.Mean), Value: round(m.Mean, 4), Met: m.Mean >= c.Mean})
		}
	case BEAM:
		for _, ab := range []string{AbilityKnowledgeUpdate, AbilityContradictionResolution} {
			st := budgetStat(filterRows(mneme, func(r *Row) bool { return r.Category == ab }), analysisBudget, passOf)
			if st.N > 0 {
				goals = append(goals, Goal{Name: fmt.Sprintf("BEAM %s co-surfacing (mneme@%d)", ab, analysisBudget),
					Target: "≥ 90%", Value: round(st.Mean, 4), Met: st.Mean >= 0.9})
			}
		}
	}
	return goals
}

// Markdown renders the report.
func (rep *Report) Markdown() string {
	var b strings.Builder
	names, groups := bySystem(rep.Rows)
	fmt.Fprintf(&b, "# %s — Mneme benchmark report\n\n", benchTitle(rep.Bench))
	fmt.Fprintf(&b, "Data: `%s` · %d questions · systems: %s · configuration `%s`\n\n", rep.Data, questionCount(rep.Rows), strings.Join(names, ", "), rep.Config)
	for _, s := range rep.Settings {
		fmt.Fprintf(&b, "- %s\n", s)
	}
	if len(rep.Settings) > 0 {
		b.WriteByte('\n')
	}
	if goals := rep.goals(groups); len(goals) > 0 {
		b.WriteString("## Goals\n\n")
		t := &table{head: []string{"goal", "target", "value", "met"}}
		for _, g := range goals {
			t.add(g.Name, g.Target, fmt.Sprintf("%.1f%%", 100*g.Value), map[bool]string{true: "yes", false: "**no**"}[g.Met])
		}
		b.WriteString(t.String() + "\n")
	}
	for _, p := range rep.Plots {
		fmt.Fprintf(&b, "![%s](%s)\n\n", strings.TrimSuffix(p, ".png"), p)
	}
	switch rep.Bench {
	case FactConsolidation:
		rep.factConsMarkdown(&b, names, groups)
	case BEAM:
		rep.beamMarkdown(&b, names, groups)
	case ConvUpdates:
		rep.convMarkdown(&b, names, groups)
	default:
		rep.recallMarkdown(&b, names, groups)
	}
	if rep.Reader != "" {
		rep.llmMarkdown(&b, names, groups)
	}
	rep.ingestMarkdown(&b)
	rep.analysisMarkdown(&b)
	rep.definitions(&b)
	return b.String()
}

func benchTitle(bench string) string {
	switch bench {
	case FactConsolidation:
		return "MemoryAgentBench FactConsolidation"
	case LoCoMo:
		return "LoCoMo"
	case BEAM:
		return "BEAM"
	case LongMemEval:
		return "LongMemEval"
	case ConvUpdates:
		return "Conversation updates"
	}
	return bench
}

func (rep *Report) factConsMarkdown(b *strings.Builder, names []string, groups map[string][]*Row) {
	b.WriteString("## Answers without an LLM (official metric: substring exact match)\n\n")
	t := &table{head: []string{"system", "single-hop", "SH conflicted", "SH unconflicted", "multi-hop", "MH conflicted", "MH unconflicted", "tokens / answer", "stale answers"}}
	for _, sys := range names {
		rows := groups[sys]
		if mean(rows, answerCorrect).N == 0 {
			continue
		}
		cells := []string{sys}
		for _, cat := range []string{"single-hop", "multi-hop"} {
			cr := filterRows(rows, func(r *Row) bool { return r.Category == cat })
			cells = append(cells, pct(mean(cr, answerCorrect)),
				pct(mean(filterRows(cr, func(r *Row) bool { return r.Conflicted != nil && *r.Conflicted }), answerCorrect)),
				pct(mean(filterRows(cr, func(r *Row) bool { return r.Conflicted != nil && !*r.Conflicted }), answerCorrect)))
		}
		cells = append(cells, num(mean(rows, answerTokens)), pct(mean(rows, func(r *Row) (float64, bool) {
			if r.Answer == nil {
				return 0, false
			}
			return b2f(r.Answer.Stale), true
		})))
		t.add(cells...)
	}
	if len(t.rows) == 0 {
		b.WriteString("No system answered (no deterministic answerer ran).\n\n")
	} else {
		b.WriteString(t.String() + "\n")
	}
	b.WriteString("## Contexts at each token budget\n\n" +
		"Gold in context: the normalized gold occurs in the context. Stale in context: the context also shows an overridden fact of a slot the answer depends on (through claim provenance; for raw history, the fact's line). Unambiguous: gold in context and no stale value — what a reader that does not track freshness is sure to get right.\n\n")
	t = &table{head: []string{"system", "budget", "tokens", "SH gold", "SH stale", "SH unambiguous", "MH gold", "MH stale", "MH unambiguous"}}
	for _, sys := range names {
		rows := groups[sys]
		for _, bud := range budgetsOf(rows) {
			cells := []string{sys, budgetLabel(bud), num(budgetStat(rows, bud, tokensOf))}
			for _, cat := range []string{"single-hop", "multi-hop"} {
				cr := filterRows(rows, func(r *Row) bool { return r.Category == cat })
				cells = append(cells, pct(budgetStat(cr, bud, goldOf)), pct(budgetStat(cr, bud, staleOf)), pct(budgetStat(cr, bud, unambiguousOf)))
			}
			t.add(cells...)
		}
	}
	b.WriteString(t.String() + "\n")
}

func budgetLabel(b int) string {
	if b == 0 {
		return "all"
	}
	return strconv.Itoa(b)
}

func (rep *Report) recallMarkdown(b *strings.Builder, names []string, groups map[string][]*Row) {
	budgets := budgetsOf(rep.Rows)
	budgets = slices.DeleteFunc(budgets, func(x int) bool { return x == 0 })
	b.WriteString("## Evidence recall of the assembled context\n\n" +
		"Share of the question's evidence turns reached by the context (for Mneme, through the provenance of the claims the context shows), with the mean context size in tokens.\n\n")
	head := []string{"system"}
	for _, bud := range budgets {
		head = append(head, fmt.Sprintf("@%d", bud))
	}
	t := &table{head: append(head, "tokens to full evidence (median)", "full evidence reached")}
	for _, sys := range names {
		rows := filterRows(groups[sys], func(r *Row) bool { return len(r.Budgets) > 0 && r.Budgets[0].EvidenceRecall != nil })
		cells := []string{sys}
		for _, bud := range budgets {
			cells = append(cells, fmt.Sprintf("%s (%s tok)", pct(budgetStat(rows, bud, recallOf)), num(budgetStat(rows, bud, tokensOf))))
		}
		var tte []float64
		for _, r := range rows {
			if x, ok := tokensToEvidence(r); ok {
				tte = append(tte, x)
			}
		}
		reached := Stat{Mean: float64(len(tte)) / float64(max(len(rows), 1)), N: len(rows)}
		cells = append(cells, strconv.FormatFloat(round(median(tte), 0), 'f', 0, 64), pct(reached))
		t.add(cells...)
	}
	b.WriteString(t.String() + "\n")
	cats := categories(rep.Rows)
	b.WriteString(fmt.Sprintf("## Evidence recall per category at %d tokens\n\n", analysisBudget))
	t = &table{head: append([]string{"system"}, cats...)}
	for _, sys := range names {
		cells := []string{sys}
		for _, c := range cats {
			cells = append(cells, pct(budgetStat(filterRows(groups[sys], func(r *Row) bool { return r.Category == c }), analysisBudget, recallOf)))
		}
		t.add(cells...)
	}
	b.WriteString(t.String() + "\n")
	if rep.Bench == LoCoMo {
		t = &table{head: append([]string{"system", "all (token F1)"}, cats...)}
		for _, sys := range names {
			if mean(groups[sys], answerF1).N == 0 {
				continue
			}
			cells := []string{sys, pct(mean(groups[sys], answerF1))}
			for _, c := range cats {
				cells = append(cells, pct(mean(filterRows(groups[sys], func(r *Row) bool { return r.Category == c }), answerF1)))
			}
			t.add(cells...)
		}
		if len(t.rows) > 0 {
			b.WriteString("## Deterministic answers (no LLM), LoCoMo token F1\n\n" + t.String() + "\n")
		}
	}
}

func (rep *Report) beamMarkdown(b *strings.Builder, names []string, groups map[string][]*Row) {
	b.WriteString("## Knowledge update and contradiction co-surfacing\n\n")
	t := &table{head: []string{"system", "budget", "tokens", "knowledge_update", "contradiction_resolution"}}
	for _, sys := range names {
		rows := groups[sys]
		ku := filterRows(rows, func(r *Row) bool { return r.Category == AbilityKnowledgeUpdate })
		cr := filterRows(rows, func(r *Row) bool { return r.Category == AbilityContradictionResolution })
		for _, bud := range budgetsOf(rows) {
			t.add(sys, budgetLabel(bud), num(budgetStat(rows, bud, tokensOf)), pct(budgetStat(ku, bud, passOf)), pct(budgetStat(cr, bud, passOf)))
		}
	}
	b.WriteString(t.String() + "\n")
	cats := slices.DeleteFunc(categories(rep.Rows), func(c string) bool { return c == AbilityAbstention })
	fmt.Fprintf(b, "## Source-message recall per ability at %d tokens\n\n", analysisBudget)
	t = &table{head: append([]string{"system", "all"}, cats...)}
	for _, sys := range names {
		cells := []string{sys, pct(budgetStat(groups[sys], analysisBudget, recallOf))}
		for _, c := range cats {
			cells = append(cells, pct(budgetStat(filterRows(groups[sys], func(r *Row) bool { return r.Category == c }), analysisBudget, recallOf)))
		}
		t.add(cells...)
	}
	b.WriteString(t.String() + "\nfull-context shows the whole history at every budget.\n\n")
}

func (rep *Report) llmMarkdown(b *strings.Builder, names []string, groups map[string][]*Row) {
	fmt.Fprintf(b, "## QA accuracy with an LLM reader (%s)\n\n", rep.Reader)
	cats := categories(rep.Rows)
	t := &table{head: append([]string{"system", "all", "tokens / answer"}, cats...)}
	for _, sys := range names {
		cells := []string{sys, pct(mean(groups[sys], llmScore)), num(mean(groups[sys], llmTokens))}
		for _, c := range cats {
			cells = append(cells, pct(mean(filterRows(groups[sys], func(r *Row) bool { return r.Category == c }), llmScore)))
		}
		t.add(cells...)
	}
	b.WriteString(t.String() + "\n")
}

func (rep *Report) ingestMarkdown(b *strings.Builder) {
	if len(rep.Ingest) == 0 {
		return
	}
	b.WriteString("## Ingest cost\n\n")
	t := &table{head: []string{"system", "conversations", "turns", "claims", "LLM tokens / conversation", "seconds / conversation", "turns / s"}}
	type agg struct {
		n, turns, claims int
		known            bool
		llm, secs        float64
	}
	acc := map[string]*agg{}
	var order []string
	for _, r := range rep.Ingest {
		if r.Skipped || r.Error != "" {
			continue
		}
		a := acc[r.System]
		if a == nil {
			a = &agg{}
			acc[r.System] = a
			order = append(order, r.System)
		}
		a.n++
		a.turns += r.Turns
		if r.Claims >= 0 {
			a.claims += r.Claims
			a.known = true
		}
		a.llm += float64(r.LLMPromptTokens + r.LLMCompletionTokens)
		a.secs += r.Seconds
	}
	sort.SliceStable(order, func(i, j int) bool {
		return slices.Index(systemOrder, order[i]) < slices.Index(systemOrder, order[j])
	})
	for _, s := range order {
		a := acc[s]
		claims := "–"
		if a.known {
			claims = strconv.Itoa(a.claims)
		}
		rate := "–"
		if a.secs > 0 {
			rate = fmt.Sprintf("%.0f", float64(a.turns)/a.secs)
		}
		t.add(s, strconv.Itoa(a.n), strconv.Itoa(a.turns), claims, fmt.Sprintf("%.0f", a.llm/float64(a.n)), fmt.Sprintf("%.1f", a.secs/float64(a.n)), rate)
	}
	b.WriteString(t.String() + "\nmneme's ingest serves mneme-all-versions too. Seconds run from the first write until the data is visible to queries (pipeline idle, projection unchanged); for chunk-rag, chunking and embedding; for full-context, rendering.\n\n")
}

// maxListed bounds the per-question error list of the report (every row is in results.jsonl).
const maxListed = 60

func (rep *Report) analysisMarkdown(b *strings.Builder) {
	var missed []*Row
	counts := map[string]int{}
	for _, r := range rep.Rows {
		if r.Analysis != "" {
			missed = append(missed, r)
			counts[r.Analysis]++
		}
	}
	if len(missed) == 0 {
		return
	}
	b.WriteString("## Error analysis (mneme)\n\n")
	subs := map[string]int{}
	for _, r := range missed {
		if r.Subclass != "" {
			subs[r.Subclass]++
		}
	}
	t := &table{head: []string{"class", "questions"}}
	for _, c := range []string{ExtractionMiss, ResolutionError, RetrievalMiss, AssemblyError, GoldInconsistent} {
		if counts[c] > 0 {
			t.add(c, strconv.Itoa(counts[c]))
		}
		if c == RetrievalMiss {
			for _, sc := range []string{RankedOut, NotRetrieved} {
				if subs[sc] > 0 {
					t.add("— "+sc, strconv.Itoa(subs[sc]))
				}
			}
		}
	}
	b.WriteString(t.String() + "\n")
	t = &table{head: []string{"question", "category", "question text", "gold", "answer", "class", "detail"}}
	for i, r := range missed {
		if i == maxListed {
			break
		}
		ans := ""
		if r.Answer != nil {
			ans = r.Answer.Text
		}
		t.add(r.QuestionID, r.Category, clip(r.Question, 90), clip(first(r.Golds), 50), clip(ans, 50), r.Analysis, clip(r.Detail, 160))
	}
	b.WriteString(t.String() + "\n")
	if len(missed) > maxListed {
		fmt.Fprintf(b, "The first %d of %d analysed questions are listed; results.jsonl has every row with its analysis.\n\n", maxListed, len(missed))
	}
}

func clip(s string, n int) string {
	s = compactSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func (rep *Report) definitions(b *strings.Builder) {
	b.WriteString("## Metric definitions\n\n")
	defs := []string{
		"**tokens** are cl100k_base tokens (pkg/tokens) of the context a reader would be given; for an answer, the context tokens plus any LLM prompt and completion tokens.",
		"**budget** is the token budget asked of the system (Mneme: search `token_budget`; chunk-rag: ranked chunks cut at the budget; full-context ignores it and shows the whole history, row \"all\").",
	}
	switch rep.Bench {
	case FactConsolidation:
		defs = append(defs,
			"**accuracy** is MemoryAgentBench's official `substring_exact_match`: the SQuAD-normalized gold (lower case, punctuation and articles removed) is a substring of the normalized answer.",
			"**conflicted** questions depend on a fact (on any hop of a multi-hop chain) that a newer fact with the same subject and relation overrides; the chain is reconstructed from the gold backwards through the newest facts to an entity named in the question.",
			"**stale answer**: a wrong answer that contains an overridden value.")
	case LoCoMo:
		defs = append(defs,
			"**evidence recall** at a budget: the share of a question's evidence `dia_id`s reached by the context (Mneme: the turn ids in the provenance of the claims the context shows, corroborating claims included; turns are ingested with turn_id = dia_id). Questions without evidence are left out.",
			"**tokens to full evidence**: the context size at the smallest budget whose context reaches all the evidence; questions that never get there are counted in \"full evidence reached\" only.",
			"**token F1** (Mneme's deterministic answers): LoCoMo's official answer F1 (normalized, stemmed token overlap; multi-hop answers split on commas; adversarial questions score 1 when the answer says the information is not mentioned).")
	case BEAM:
		defs = append(defs,
			"**knowledge_update pass**: the context shows a claim from the updated message (`source_chat_ids.updated_info`) as current (status active), and no active claim from the original message in the same slot (subject and predicate); raw history passes only when it shows the update without the original message.",
			"**contradiction_resolution pass**: the context shows claims from both statements (`first_statement`, `second_statement`) and flags them as conflicting (both disputed, or one listing the other among its conflicts); raw history flags nothing and never passes.",
			"**source recall**: the share of a question's `source_chat_ids` reached by the context (abstention questions have none).")
	case ConvUpdates:
		defs = append(defs, convDefinitions()...)
	case LongMemEval:
		defs = append(defs, "**evidence recall**: the share of the question's evidence turns (turns marked `has_answer`; the user turns of an answer session that marks none) reached by the context.")
	}
	if rep.Reader != "" {
		defs = append(defs, "**LLM accuracy**: the reader answers from each system's context at the reader budget and the benchmark's judging protocol scores it (FactConsolidation substring exact match; LoCoMo CORRECT/WRONG judge, adversarial by the official rule; BEAM mean of 0/0.5/1 per rubric item; LongMemEval yes/no judge with per-type criteria; conversation updates the answer accuracy above).")
	}
	defs = append(defs, "**error classes** (mneme misses): *extraction miss* — the source turn produced no claim; *resolution error* — its claims are retired, an overridden value stayed active, or conflicting statements were not flagged; *retrieval miss* — live claims exist but the context or the answer did not use them; *assembly error* — every needed claim was used and the answer is still wrong; *gold inconsistent* — the published gold follows only from overridden facts (the benchmark's own newest-wins rule gives another answer), so the miss is the label's.")
	for _, d := range defs {
		b.WriteString("- " + d + "\n")
	}
}
