package bench

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scripted is a System with canned contexts, for testing the harness's own logic.
type scripted struct {
	name    string
	items   []Item
	text    string
	answer  string
	failRet bool
}

func (s *scripted) Name() string { return s.name }
func (s *scripted) Prepare(context.Context, *Conversation) (IngestStats, error) {
	return IngestStats{Turns: 1, Claims: len(s.items), Seconds: 0.5}, nil
}
func (s *scripted) Retrieve(_ context.Context, _ *Conversation, _ *Question, budget int) (*Retrieval, error) {
	if s.failRet {
		return nil, errors.New("boom")
	}
	return &Retrieval{Context: s.text, Tokens: min(budget, 40), Items: s.items}, nil
}

type scriptedAnswerer struct{ scripted }

func (s *scriptedAnswerer) Answer(context.Context, *Conversation, *Question) (*Answer, error) {
	return &Answer{Text: s.answer, Mode: "deterministic", Tokens: 12, Items: s.items}, nil
}

func TestKnowledgeUpdatePass(t *testing.T) {
	q := &Question{Category: AbilityKnowledgeUpdate, EvidenceGroups: map[string][]string{"original_info": {"86"}, "updated_info": {"114"}}}
	claim := func(id, turn, status, pred string) Item {
		return Item{ID: id, TurnIDs: []string{turn}, Status: status, SubjectKey: "dashboard_api", PredicateKey: pred, Text: id}
	}
	cases := []struct {
		name  string
		items []Item
		want  bool
		why   string
	}{
		{"update current, original superseded", []Item{claim("new", "114", "active", "response_time"), claim("old", "86", "superseded", "response_time")}, true, ""},
		{"update only", []Item{claim("new", "114", "active", "response_time")}, true, ""},
		{"other fact of the original message stays current", []Item{claim("new", "114", "active", "response_time"), claim("sprint", "86", "active", "sprint")}, true, ""},
		{"original still current in the same slot", []Item{claim("new", "114", "active", "response_time"), claim("old", "86", "active", "response_time")}, false, "original value presented as current"},
		{"update missing", []Item{claim("old", "86", "superseded", "response_time")}, false, "updated information not in context"},
		{"update not current", []Item{claim("new", "114", "disputed", "response_time")}, false, "not presented as current"},
		{"raw text with both", []Item{{TurnIDs: []string{"114"}}, {TurnIDs: []string{"86"}}}, false, "unmarked"},
		{"raw text with the update only", []Item{{TurnIDs: []string{"114"}}}, true, ""},
	}
	for _, c := range cases {
		got, why := knowledgeUpdatePass(q, &Retrieval{Items: c.items})
		if got != c.want || !strings.Contains(why, c.why) {
			t.Errorf("%s: pass=%v why=%q", c.name, got, why)
		}
	}
}

func TestContradictionPass(t *testing.T) {
	q := &Question{Category: AbilityContradictionResolution, EvidenceGroups: map[string][]string{"first_statement": {"58"}, "second_statement": {"24"}}}
	cases := []struct {
		name  string
		items []Item
		want  bool
	}{
		{"both disputed", []Item{{ID: "a", TurnIDs: []string{"58"}, Status: "disputed"}, {ID: "b", TurnIDs: []string{"24"}, Status: "disputed"}}, true},
		{"linked by conflicts", []Item{{ID: "a", TurnIDs: []string{"58"}, Status: "active", Conflicts: []string{"b"}}, {ID: "b", TurnIDs: []string{"24"}, Status: "superseded"}}, true},
		{"both present, unflagged", []Item{{ID: "a", TurnIDs: []string{"58"}, Status: "active"}, {ID: "b", TurnIDs: []string{"24"}, Status: "active"}}, false},
		{"one side missing", []Item{{ID: "a", TurnIDs: []string{"58"}, Status: "disputed"}}, false},
		{"raw text", []Item{{TurnIDs: []string{"58"}}, {TurnIDs: []string{"24"}}}, false},
	}
	for _, c := range cases {
		if got, why := contradictionPass(q, &Retrieval{Items: c.items}); got != c.want {
			t.Errorf("%s: pass=%v (%s)", c.name, got, why)
		}
	}
	// The same message on both sides needs two distinct conflicting claims from it.
	same := &Question{EvidenceGroups: map[string][]string{"first_statement": {"66"}, "second_statement": {"66"}}}
	if ok, _ := contradictionPass(same, &Retrieval{Items: []Item{{ID: "a", TurnIDs: []string{"66"}, Status: "disputed"}}}); ok {
		t.Error("one claim cannot conflict with itself")
	}
	if ok, _ := contradictionPass(same, &Retrieval{Items: []Item{{ID: "a", TurnIDs: []string{"66"}, Status: "disputed"}, {ID: "b", TurnIDs: []string{"66"}, Status: "disputed"}}}); !ok {
		t.Error("two disputed claims of one message")
	}
}

func TestEvaluateRow(t *testing.T) {
	ctx := context.Background()
	conflicted := true
	q := &Question{ID: "q1", ConversationID: "c", Text: "What is X famous for?", Golds: []string{"The Fairly OddParents"},
		Category: "single-hop", Conflicted: &conflicted, Stale: []string{"Rurouni Kenshin"}, Evidence: []string{"fact-259"},
		StaleTurns: map[string][]string{"fact-259": {"fact-91"}}}
	conv := &Conversation{ID: "c"}
	sys := &scriptedAnswerer{scripted{name: SystemMneme, answer: "Rurouni Kenshin",
		text:  "X is famous for The Fairly OddParents. X was famous for Rurouni Kenshin.",
		items: []Item{{ID: "a", TurnIDs: []string{"fact-259"}, Status: "active"}, {ID: "b", TurnIDs: []string{"fact-91"}, Status: "superseded"}}}}
	e := &Evaluator{Bench: FactConsolidation, Budgets: []int{100, 500}, Config: "cfg"}
	row := e.Evaluate(ctx, sys, conv, q)
	if row.Error != "" || row.Answer == nil || row.Answer.Correct || !row.Answer.Stale || row.Answer.Tokens != 12 {
		t.Fatalf("answer %+v (error %q)", row.Answer, row.Error)
	}
	if len(row.Budgets) != 2 || !row.Budgets[0].GoldInContext || !row.Budgets[0].StaleInContext || *row.Budgets[1].EvidenceRecall != 1 {
		t.Fatalf("budgets %+v", row.Budgets)
	}
	full := e.Evaluate(ctx, &scripted{name: SystemFullContext, text: "…"}, conv, q)
	if len(full.Budgets) != 1 || full.Budgets[0].Budget != 0 || full.Answer != nil {
		t.Fatalf("full-context row %+v", full)
	}
	bad := e.Evaluate(ctx, &scripted{name: SystemChunkRAG, failRet: true}, conv, q)
	if !strings.Contains(bad.Error, "retrieve@100: boom") {
		t.Fatalf("error %q", bad.Error)
	}
}

// inspect is an Inspector with canned claim states.
type inspect map[string][]ClaimState

func (in inspect) TurnClaims(_ context.Context, _ *Conversation, turns []string) (map[string][]ClaimState, error) {
	out := map[string][]ClaimState{}
	for _, t := range turns {
		out[t] = in[t]
	}
	return out, nil
}

func TestAnalyzeFacts(t *testing.T) {
	q := &Question{Golds: []string{"Belgium"}, Category: "multi-hop", Chain: []int64{10, 20},
		StaleTurns: map[string][]string{"fact-20": {"fact-5"}}}
	row := func() *Row {
		return &Row{System: SystemMneme, Answer: &AnswerResult{Text: "France", Turns: []string{"fact-10"}}}
	}
	live := ClaimState{Status: "active", SubjectKey: "s", SlotKey: "citizen"}
	cases := []struct {
		name   string
		states inspect
		class  string
		detail string
	}{
		{"no claim for hop 2", inspect{"fact-10": {live}}, ExtractionMiss, "hop 2 (fact 20)"},
		{"hop 2 superseded", inspect{"fact-10": {live}, "fact-20": {{Status: "superseded"}}}, ResolutionError, "superseded"},
		{"stale fact still active in the slot", inspect{"fact-10": {live}, "fact-20": {live}, "fact-5": {live}}, ResolutionError, "same slot"},
		{"stale fact active in another slot", inspect{"fact-10": {live}, "fact-20": {live}, "fact-5": {{Status: "active", SubjectKey: "s", SlotKey: "nationality"}}}, ResolutionError, "another slot"},
		{"hop 2 not used", inspect{"fact-10": {live}, "fact-20": {live}, "fact-5": {{Status: "superseded"}}}, RetrievalMiss, "hop 2"},
	}
	for _, c := range cases {
		e := &Evaluator{Bench: FactConsolidation, Inspector: c.states}
		r := row()
		e.analyze(context.Background(), &Conversation{}, q, r)
		if r.Analysis != c.class || !strings.Contains(r.Detail, c.detail) {
			t.Errorf("%s: %s / %s", c.name, r.Analysis, r.Detail)
		}
	}
	r := row()
	r.Answer.Turns = []string{"fact-10", "fact-20"}
	(&Evaluator{Bench: FactConsolidation, Inspector: inspect{"fact-10": {live}, "fact-20": {live}}}).analyze(context.Background(), &Conversation{}, q, r)
	if r.Analysis != AssemblyError {
		t.Errorf("all hops used: %s", r.Analysis)
	}
}

func TestAnalyzeEvidence(t *testing.T) {
	rec := 0.0
	q := &Question{Category: "single-hop", Evidence: []string{"D1:1", "D1:2", "D1:3"}}
	r := &Row{System: SystemMneme, Budgets: []BudgetResult{{Budget: 500, EvidenceRecall: &rec}, {Budget: 2000, EvidenceRecall: &rec, EvidenceHit: []string{"D1:3"}}}}
	e := &Evaluator{Bench: LoCoMo, Inspector: inspect{"D1:2": {{Status: "superseded"}}, "D1:3": {{Status: "active"}}}}
	e.analyze(context.Background(), &Conversation{}, q, r)
	if r.Analysis != ExtractionMiss || !strings.Contains(r.Detail, "D1:2: resolution error") || !strings.Contains(r.Detail, "D1:3: retrieval miss (1 claims), reached at 2000 tokens") {
		t.Fatalf("%s / %s", r.Analysis, r.Detail)
	}
	// Only retrieval misses: ranked below the budget when a larger budget reaches them all.
	q2 := &Question{Category: "single-hop", Evidence: []string{"D1:3"}}
	r2 := &Row{System: SystemMneme, Budgets: r.Budgets}
	e.analyze(context.Background(), &Conversation{}, q2, r2)
	if r2.Analysis != RetrievalMiss || r2.Subclass != RankedOut {
		t.Fatalf("%s / %s / %s", r2.Analysis, r2.Subclass, r2.Detail)
	}
}

func TestRunResumesAndReports(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	conv := &Conversation{ID: "c", Sessions: []Session{{ID: "s", Turns: []Turn{{ID: "t1", Content: "hello"}}}}}
	ds := &Dataset{Bench: LoCoMo, Source: "test", Conversations: []*Conversation{conv}}
	for i, cat := range []string{"single-hop", "multi-hop", "temporal"} {
		ds.Questions = append(ds.Questions, &Question{ID: "q" + string(rune('1'+i)), ConversationID: "c", Text: "?", Golds: []string{"hello"}, Category: cat, Evidence: []string{"t1"}})
	}
	mk := func() []System {
		return []System{
			&scriptedAnswerer{scripted{name: SystemMneme, answer: "hello", text: "hello", items: []Item{{ID: "a", TurnIDs: []string{"t1"}, Status: "active"}}}},
			&scripted{name: SystemChunkRAG, text: "nothing"},
		}
	}
	opts := RunOptions{OutDir: dir, Systems: mk(), Eval: Evaluator{Bench: LoCoMo, Budgets: []int{100, 500, 1000}, Config: "cfg1"}}
	rep, err := Run(ctx, ds, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 6 {
		t.Fatalf("%d rows", len(rep.Rows))
	}
	rows, err := ReadJSONL[Row](filepath.Join(dir, "results.jsonl"))
	if err != nil || len(rows) != 6 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	// A rerun skips every finished row and writes nothing new; the torn last line of a killed run is ignored.
	f, _ := os.OpenFile(filepath.Join(dir, "results.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	_, _ = f.WriteString(`{"bench":"locomo","system":"mneme","question_id":"q9"`)
	f.Close()
	if _, err := Run(ctx, ds, opts); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "results.jsonl"))
	if n := strings.Count(string(b), "\n"); n != 6 {
		t.Fatalf("rerun wrote rows again: %d lines", n)
	}
	// Another configuration measures again, on lines of their own.
	opts.Eval.Config = "cfg2"
	if _, err := Run(ctx, ds, opts); err != nil {
		t.Fatal(err)
	}
	if rows, err := ReadJSONL[Row](filepath.Join(dir, "results.jsonl")); err != nil || len(rows) != 12 {
		t.Fatalf("after a second configuration: %d rows, %v", len(rows), err)
	}
	s := rep.Summary()
	if s.Headline[SystemMneme]["evidence_recall@500"] != 1 || s.Headline[SystemChunkRAG]["evidence_recall@1000"] != 0 {
		t.Fatalf("headline %v", s.Headline)
	}
	if len(s.Goals) != 1 || !s.Goals[0].Met {
		t.Fatalf("goals %+v", s.Goals)
	}
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# LoCoMo", "## Goals", "## Evidence recall of the assembled context", "| mneme | 100.0% (40 tok)", "## Metric definitions", "![locomo-pareto](locomo-pareto.png)", "## Ingest cost"} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if st, err := os.Stat(filepath.Join(dir, "locomo-pareto.png")); err != nil || st.Size() < 1000 {
		t.Errorf("plot: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "summary.json")); err != nil {
		t.Error(err)
	}
}

func TestReportsOfEveryBenchmark(t *testing.T) {
	yes, no := true, false
	one, half := 1.0, 0.5
	rows := []*Row{
		{Bench: FactConsolidation, System: SystemMneme, QuestionID: "sh1", Category: "single-hop", Conflicted: &yes, Golds: []string{"a"},
			Answer: &AnswerResult{Text: "a", Correct: true, Tokens: 30}, Budgets: []BudgetResult{{Budget: 500, Tokens: 60, GoldInContext: true}}},
		{Bench: FactConsolidation, System: SystemMneme, QuestionID: "mh1", Category: "multi-hop", Conflicted: &no, Golds: []string{"b"},
			Answer: &AnswerResult{Text: "c", Stale: true, Tokens: 50}, Analysis: ResolutionError, Detail: "hop 1"},
		{Bench: FactConsolidation, System: SystemFullContext, QuestionID: "sh1", Category: "single-hop", Golds: []string{"a"},
			Budgets: []BudgetResult{{Budget: 0, Tokens: 6000, GoldInContext: true, StaleInContext: true}}},
	}
	rep := &Report{Bench: FactConsolidation, Rows: rows, Reader: "m"}
	md := rep.Markdown()
	for _, want := range []string{"| mneme | 100.0% | 100.0% | – | 0.0% | – | 0.0% | 40 | 50.0% |", "| full-context | all | 6000 | 100.0% | 100.0% | 0.0% |", "resolution error", "QA accuracy with an LLM reader"} {
		if !strings.Contains(md, want) {
			t.Errorf("factconsolidation report lacks %q:\n%s", want, md)
		}
	}
	s := rep.Summary()
	if len(s.Goals) != 2 || !s.Goals[0].Met || s.Goals[1].Met || s.Analysis[ResolutionError] != 1 {
		t.Fatalf("%+v", s)
	}
	beam := &Report{Bench: BEAM, Rows: []*Row{
		{Bench: BEAM, System: SystemMneme, QuestionID: "k", Category: AbilityKnowledgeUpdate, Budgets: []BudgetResult{{Budget: 500, Tokens: 300, Pass: &yes, EvidenceRecall: &one}}},
		{Bench: BEAM, System: SystemMneme, QuestionID: "c", Category: AbilityContradictionResolution, Budgets: []BudgetResult{{Budget: 500, Tokens: 300, Pass: &no, EvidenceRecall: &half}}},
	}}
	md = beam.Markdown()
	if !strings.Contains(md, "| mneme | 500 | 300 | 100.0% | 0.0% |") || !strings.Contains(md, "Source-message recall per ability at 500") {
		t.Errorf("beam report:\n%s", md)
	}
	g := beam.Summary().Goals
	if len(g) != 2 || !g[0].Met || g[1].Met {
		t.Fatalf("beam goals %+v", g)
	}
	dir := t.TempDir()
	for _, r := range []*Report{rep, beam} {
		for _, ps := range r.PlotSpecs() {
			if err := RenderPlot(dir, ps); err != nil {
				t.Fatal(err)
			}
		}
	}
}
