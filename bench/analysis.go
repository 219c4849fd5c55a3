package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Error classes of the per-question analysis of Mneme's misses.
const (
	ExtractionMiss  = "extraction miss"
	ResolutionError = "resolution error"
	RetrievalMiss   = "retrieval miss"
	AssemblyError   = "assembly error"
	// GoldInconsistent marks a miss on a question whose published gold contradicts the benchmark's own rule.
	GoldInconsistent = "gold inconsistent"
)

// analysisBudget is the budget whose context the analysis explains for context goals (LoCoMo's goal is
// stated at 500 tokens).
const analysisBudget = 500

// analyze classifies a missed goal of a Mneme row, from the claims each source turn produced.
func (e *Evaluator) analyze(ctx context.Context, conv *Conversation, q *Question, row *Row) {
	switch {
	case e.Bench == FactConsolidation:
		if row.Answer == nil || row.Answer.Correct {
			return
		}
		if len(q.Chain) == 0 {
			if q.GoldNote != "" {
				row.Analysis, row.Detail = GoldInconsistent, q.GoldNote
			}
			return
		}
		e.analyzeFacts(ctx, conv, q, row)
	case q.Category == AbilityKnowledgeUpdate || q.Category == AbilityContradictionResolution:
		br := budgetAt(row, analysisBudget)
		if br == nil || br.Pass == nil || *br.Pass {
			return
		}
		e.analyzeEvidence(ctx, conv, q, row, br)
		if row.Analysis == "" {
			// Every source message reached the context: what failed is how it was presented.
			row.Analysis, row.Detail = ResolutionError, br.Why
		}
	default:
		br := budgetAt(row, analysisBudget)
		if br == nil || br.EvidenceRecall == nil || *br.EvidenceRecall >= 1 {
			return
		}
		e.analyzeEvidence(ctx, conv, q, row, br)
	}
}

// budgetAt returns the row's measurement at budget b, or nil.
func budgetAt(row *Row, b int) *BudgetResult {
	for i := range row.Budgets {
		if row.Budgets[i].Budget == b {
			return &row.Budgets[i]
		}
	}
	return nil
}

// live reports whether a claim status presents the claim (active, or disputed and co-surfaced).
func live(status string) bool { return status == "active" || status == "disputed" }

// analyzeEvidence explains evidence turns the context missed: no claim from the turn (extraction miss), only
// retired claims (resolution error), or live claims that retrieval did not bring (retrieval miss).
func (e *Evaluator) analyzeEvidence(ctx context.Context, conv *Conversation, q *Question, row *Row, br *BudgetResult) {
	var missed []string
	for _, t := range q.Evidence {
		if !slices.Contains(br.EvidenceHit, t) {
			missed = append(missed, t)
		}
	}
	if len(missed) == 0 {
		return
	}
	states, err := e.Inspector.TurnClaims(ctx, conv, missed)
	if err != nil {
		row.Detail = "analysis failed: " + err.Error()
		return
	}
	var details []string
	class := ""
	rank := map[string]int{ExtractionMiss: 3, ResolutionError: 2, RetrievalMiss: 1}
	rankedOut := true
	for _, t := range missed {
		cs := states[t]
		c := RetrievalMiss
		switch {
		case len(cs) == 0:
			c = ExtractionMiss
		case !slices.ContainsFunc(cs, func(s ClaimState) bool { return live(s.Status) }):
			c = ResolutionError
		}
		if rank[c] > rank[class] {
			class = c
		}
		d := fmt.Sprintf("%s: %s (%d claims)", t, c, len(cs))
		if c == RetrievalMiss {
			// The larger budgets of the same row tell a claim ranked below the budget from one never found.
			if at := reachedAt(row, t, br.Budget); at > 0 {
				d += fmt.Sprintf(", reached at %d tokens", at)
			} else {
				d += ", not reached at any budget"
				rankedOut = false
			}
		}
		details = append(details, d)
	}
	row.Analysis = class
	if class == RetrievalMiss {
		row.Subclass = map[bool]string{true: RankedOut, false: NotRetrieved}[rankedOut]
	}
	row.Detail = strings.Join(details, "; ")
}

// Retrieval-miss subclasses.
const (
	// RankedOut: every missed evidence turn is reached at a larger budget: retrieved, but ranked below the cut.
	RankedOut = "ranked below the budget"
	// NotRetrieved: some missed evidence turn is reached at no budget.
	NotRetrieved = "not retrieved at any budget"
)

// reachedAt returns the smallest budget above after at which the row's context reaches turn, or 0.
func reachedAt(row *Row, turn string, after int) int {
	best := 0
	for _, b := range row.Budgets {
		if b.Budget > after && slices.Contains(b.EvidenceHit, turn) && (best == 0 || b.Budget < best) {
			best = b.Budget
		}
	}
	return best
}

// analyzeFacts explains a wrong FactConsolidation answer hop by hop along the reconstructed chain: the first
// hop whose fact produced no claim (extraction miss), whose claim is not live or competes with a stale fact
// still live (resolution error), or that the answer did not use (retrieval miss); with every hop in place,
// the answer was put together wrongly (assembly error).
func (e *Evaluator) analyzeFacts(ctx context.Context, conv *Conversation, q *Question, row *Row) {
	var turns []string
	for _, n := range q.Chain {
		t := factTurnID(n)
		turns = append(turns, t)
		turns = append(turns, q.StaleTurns[t]...)
	}
	states, err := e.Inspector.TurnClaims(ctx, conv, turns)
	if err != nil {
		row.Detail = "analysis failed: " + err.Error()
		return
	}
	used := map[string]bool{}
	for _, t := range row.Answer.Turns {
		used[t] = true
	}
	for hop, n := range q.Chain {
		t := factTurnID(n)
		cs := states[t]
		where := fmt.Sprintf("hop %d (fact %d)", hop+1, n)
		if len(cs) == 0 {
			row.Analysis, row.Detail = ExtractionMiss, where+": no claim extracted"
			return
		}
		if !slices.ContainsFunc(cs, func(s ClaimState) bool { return live(s.Status) }) {
			row.Analysis, row.Detail = ResolutionError, fmt.Sprintf("%s: its claim is %s", where, cs[0].Status)
			return
		}
		for _, st := range q.StaleTurns[t] {
			for _, s := range states[st] {
				if s.Status != "active" {
					continue
				}
				if slices.ContainsFunc(cs, func(c ClaimState) bool { return c.SubjectKey == s.SubjectKey && c.SlotKey == s.SlotKey }) {
					row.Analysis, row.Detail = ResolutionError, fmt.Sprintf("%s: older %s still active in the same slot", where, st)
				} else {
					row.Analysis, row.Detail = ResolutionError, fmt.Sprintf("%s: older %s still active in another slot (%s/%s vs %s/%s): the update did not supersede it",
						where, st, s.SubjectKey, s.SlotKey, cs[0].SubjectKey, cs[0].SlotKey)
				}
				return
			}
		}
	}
	for hop, n := range q.Chain {
		if t := factTurnID(n); !used[t] {
			row.Analysis, row.Detail = RetrievalMiss, fmt.Sprintf("hop %d (fact %d): its claim was not among the claims the answer used", hop+1, n)
			return
		}
	}
	row.Analysis, row.Detail = AssemblyError, "every hop's claim was used, the answer is still wrong"
}
