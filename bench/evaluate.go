package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/bench/factcons"
)

// Evaluator measures one question on one system: the system's own answer (if it has one), the context at
// every token budget, and, with an LLM configured, the reader's answer and the judge's verdict.
type Evaluator struct {
	Bench   string
	Budgets []int
	Config  string
	// Reader, when set, answers from each system's context at ReaderBudget and judges the answer.
	Reader       *Reader
	ReaderBudget int
	// Inspector, when set, classifies Mneme's misses (extraction, retrieval, resolution, assembly).
	Inspector Inspector
}

// Inspector looks into a system's store to explain a miss: the claims each source turn produced.
type Inspector interface {
	TurnClaims(ctx context.Context, conv *Conversation, turnIDs []string) (map[string][]ClaimState, error)
}

// ClaimState is a claim as the projection holds it now.
type ClaimState struct {
	ID, Object, Status, SubjectKey, SlotKey string
}

// Evaluate measures one question on one system.
func (e *Evaluator) Evaluate(ctx context.Context, sys System, conv *Conversation, q *Question) *Row {
	start := time.Now()
	row := &Row{
		Bench: e.Bench, System: sys.Name(), QuestionID: q.ID, Conversation: conv.ID, Category: q.Category,
		Config: e.Config, Conflicted: q.Conflicted, Abstention: q.Abstention, Question: q.Text, Golds: q.Golds,
		Attribute: q.Attribute,
	}
	var errs []string
	fail := func(what string, err error) { errs = append(errs, what+": "+err.Error()) }

	if a, ok := sys.(Answerer); ok {
		ans, err := a.Answer(ctx, conv, q)
		if err != nil {
			fail("answer", err)
		} else {
			row.Answer = e.scoreAnswer(q, ans)
		}
	}
	budgets := e.Budgets
	if sys.Name() == SystemFullContext {
		budgets = []int{0} // the whole history, whatever the budget
	}
	// The reader sees the context at ReaderBudget, else at the nearest budget above it, else the largest.
	var readerCtx *Retrieval
	readerAt := -1
	for _, b := range budgets {
		r, err := sys.Retrieve(ctx, conv, q, b)
		if err != nil {
			fail(fmt.Sprintf("retrieve@%d", b), err)
			continue
		}
		row.Budgets = append(row.Budgets, e.scoreContext(q, b, r))
		better := readerCtx == nil ||
			(b >= e.ReaderBudget && (readerAt < e.ReaderBudget || b < readerAt)) ||
			(b < e.ReaderBudget && readerAt < e.ReaderBudget && b > readerAt)
		if b == 0 || better {
			readerCtx, readerAt = r, b
		}
	}
	if e.Reader != nil && readerCtx != nil {
		res, err := e.Reader.AnswerAndJudge(ctx, e.Bench, q, readerCtx)
		if err != nil {
			fail("llm", err)
		} else {
			res.Budget = e.ReaderBudget
			if sys.Name() == SystemFullContext {
				res.Budget = 0
			}
			row.LLM = res
		}
	}
	if e.Inspector != nil && sys.Name() == SystemMneme {
		e.analyze(ctx, conv, q, row)
	}
	row.Error = strings.Join(errs, "; ")
	row.Seconds = time.Since(start).Seconds()
	return row
}

func (e *Evaluator) scoreAnswer(q *Question, a *Answer) *AnswerResult {
	res := &AnswerResult{Text: a.Text, Mode: a.Mode, Tokens: a.Tokens}
	switch e.Bench {
	case ConvUpdates:
		res.Correct = ConvCorrect(q, a.Text)
		res.Stale = StaleInAnswer(q, a.Text) != ""
	default:
		res.Correct = factcons.SubstringExactMatch(a.Text, q.Golds)
		if !res.Correct && len(ContainsAny(a.Text, q.Stale)) > 0 {
			res.Stale = true
		}
	}
	if e.Bench == LoCoMo {
		f := LoCoMoF1(q.Category, a.Text, q.Golds)
		res.F1 = &f
	}
	var turns []string
	for _, it := range a.Items {
		turns = append(turns, it.TurnIDs...)
	}
	res.Turns = sortedUnique(turns)
	return res
}

func (e *Evaluator) scoreContext(q *Question, budget int, r *Retrieval) BudgetResult {
	br := BudgetResult{Budget: budget, Tokens: r.Tokens, Items: len(r.Items), Note: r.Note}
	br.GoldInContext = len(ContainsAny(r.Context, q.Golds)) > 0
	if len(q.AllOf) > 0 {
		br.GoldInContext = len(ContainsAny(r.Context, q.AllOf)) == len(q.AllOf)
	}
	if e.Bench == ConvUpdates {
		// Days of a month compare in any English order (convdates.go).
		ctx := canonDates(r.Context)
		br.GoldInContext = len(ContainsAny(ctx, canonDatesAll(q.Golds))) > 0
		if len(q.AllOf) > 0 {
			br.GoldInContext = len(ContainsAny(ctx, canonDatesAll(q.AllOf))) == len(q.AllOf)
		}
		br.StaleLine = StaleInContext(q, r)
		br.StaleAsCurrent = br.StaleLine != ""
	}
	reached := r.TurnSet()
	for _, olds := range q.StaleTurns {
		for _, t := range olds {
			if reached[t] {
				br.StaleInContext = true
			}
		}
	}
	if len(q.Evidence) > 0 {
		rec, hit := Recall(q.Evidence, reached)
		br.EvidenceRecall, br.EvidenceHit = &rec, hit
	}
	if len(q.EvidenceGroups) > 0 {
		br.GroupRecall = map[string]float64{}
		for k, g := range q.EvidenceGroups {
			br.GroupRecall[k], _ = Recall(g, reached)
		}
	}
	switch q.Category {
	case AbilityKnowledgeUpdate:
		pass, why := knowledgeUpdatePass(q, r)
		br.Pass, br.Why = &pass, why
	case AbilityContradictionResolution:
		pass, why := contradictionPass(q, r)
		br.Pass, br.Why = &pass, why
	}
	return br
}

// itemsFrom returns the context items that come from any of the turns.
func itemsFrom(r *Retrieval, turns []string) []Item {
	var out []Item
	for _, it := range r.Items {
		if slices.ContainsFunc(it.TurnIDs, func(t string) bool { return slices.Contains(turns, t) }) {
			out = append(out, it)
		}
	}
	return out
}

// rawText reports whether the context is raw history (no claim statuses): it presents everything as current
// and flags nothing.
func rawText(r *Retrieval) bool {
	for _, it := range r.Items {
		if it.Status != "" {
			return false
		}
	}
	return true
}

// knowledgeUpdatePass is BEAM knowledge_update co-surfacing: the updated information is in the context and
// presented as current, and the original is not presented as current. For claims, "presented as current"
// is status active; the original counts as presented as current when an active claim from the original
// messages shares its slot (subject and predicate) with a claim from the updated messages. Raw history
// presents every line as current.
func knowledgeUpdatePass(q *Question, r *Retrieval) (bool, string) {
	orig, upd := q.EvidenceGroups["original_info"], q.EvidenceGroups["updated_info"]
	fromU, fromO := itemsFrom(r, upd), itemsFrom(r, orig)
	if rawText(r) {
		switch {
		case len(fromU) == 0:
			return false, "updated information not in context"
		case len(fromO) > 0:
			// Also when both are one message: raw text shows the old and the new value alike.
			return false, "original information also shown, unmarked"
		}
		return true, ""
	}
	slots := map[string]bool{}
	current := false
	for _, it := range fromU {
		slots[it.SubjectKey+"\x00"+it.PredicateKey] = true
		if it.Status == "active" {
			current = true
		}
	}
	if len(fromU) == 0 {
		return false, "updated information not in context"
	}
	if !current {
		return false, "updated information in context but not presented as current"
	}
	for _, it := range fromO {
		if it.Status == "active" && slots[it.SubjectKey+"\x00"+it.PredicateKey] && !slices.ContainsFunc(it.TurnIDs, func(t string) bool { return slices.Contains(upd, t) }) {
			return false, "original value presented as current: " + it.Text
		}
	}
	return true, ""
}

// contradictionPass is BEAM contradiction_resolution co-surfacing: both conflicting source messages are in
// the context and flagged as conflicting (claims disputed, or one naming the other among its conflicts).
// Raw history flags nothing.
func contradictionPass(q *Question, r *Retrieval) (bool, string) {
	first, second := q.EvidenceGroups["first_statement"], q.EvidenceGroups["second_statement"]
	fromF, fromS := itemsFrom(r, first), itemsFrom(r, second)
	switch {
	case len(fromF) == 0 && len(fromS) == 0:
		return false, "neither statement in context"
	case len(fromF) == 0:
		return false, "first statement not in context"
	case len(fromS) == 0:
		return false, "second statement not in context"
	}
	if rawText(r) {
		return false, "both statements in context but not flagged as conflicting"
	}
	for _, a := range fromF {
		for _, b := range fromS {
			if a.ID == b.ID {
				continue
			}
			if (a.Status == "disputed" && b.Status == "disputed") || slices.Contains(a.Conflicts, b.ID) || slices.Contains(b.Conflicts, a.ID) {
				return true, ""
			}
		}
	}
	return false, "both statements in context but not flagged as conflicting"
}
