// Command factcons measures FactConsolidation accuracy (MemoryAgentBench, Conflict_Resolution split) of a
// running Mneme through its public HTTP API: it ingests the benchmark's numbered facts, waits until they are
// reconciled, asks every question with POST /answer (no LLM needed) and scores the answers with the
// benchmark's official metric (substring exact match after SQuAD normalization), single-hop and multi-hop.
//
//	factcons -url http://127.0.0.1:8080 -data ../shared/data/memoryagentbench/factconsolidation_6k.json
//
// Ingestion paths (-ingest):
//
//   - turns (default): the context as user turns of numbered lines, as an agent would hand a document to its
//     memory; the extractor turns each "N. <fact>." line into a claim with sequence N.
//   - claims: structured claims, one per fact (subject, relation, object split by the benchmark's sentence
//     templates; sequence N; functional) — the LLM-free path for callers who already know their facts.
//
// Every fact has the same valid time; the line number is the source sequence, so "a newer fact overrides an
// older one" is the reconciler's last-writer-wins by (valid time, sequence). The rows of one size share their
// context, so it is ingested once per workspace.
//
// The rows, questions, question ids and conflicted marks come from the harness's loader
// (bench.LoadFactConsolidation), the score from its metric (factcons.SubstringExactMatch), so this command and
// mneme-bench -bench factconsolidation measure the same questions the same way; what this command adds is the
// two ingestion paths above and a per-row table.
//
// It prints a Markdown table and writes JSON with every question (-out).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mneme-ai/mneme/bench"
	"github.com/mneme-ai/mneme/bench/factcons"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "factcons:", err)
		os.Exit(1)
	}
}

type options struct {
	url, data, ingest, workspace, agent, key, out string
	linesPerTurn, parallel                        int
	wait, timeout                                 time.Duration
	skipIngest                                    bool
}

// question is one scored question.
type question struct {
	Source     string   `json:"source"`
	ID         string   `json:"id"`
	Question   string   `json:"question"`
	Gold       []string `json:"gold"`
	Answer     string   `json:"answer"`
	Correct    bool     `json:"correct"`
	Mode       string   `json:"mode"`
	Hops       int      `json:"hops"`
	Tokens     int      `json:"context_tokens"`
	Conflicted *bool    `json:"conflicted,omitempty"`
	Millis     float64  `json:"latency_ms"`
	Error      string   `json:"error,omitempty"`
}

type rowResult struct {
	Source     string  `json:"source"`
	Questions  int     `json:"questions"`
	Correct    int     `json:"correct"`
	Accuracy   float64 `json:"accuracy"`
	MeanTokens float64 `json:"mean_context_tokens"`
	P50Millis  float64 `json:"p50_latency_ms"`
	Modes      map[string]int
	// Conflicted/unconflicted split: whether a fact the answer depends on, on any hop, was overridden by a newer
	// one (the harness's definition, docs/benchmarks.md).
	ConflictedAcc   *float64 `json:"conflicted_accuracy,omitempty"`
	UnconflictedAcc *float64 `json:"unconflicted_accuracy,omitempty"`
}

func run() error {
	var o options
	flag.StringVar(&o.url, "url", "http://127.0.0.1:8080", "base URL of a running Mneme")
	flag.StringVar(&o.data, "data", "../shared/data/memoryagentbench/factconsolidation_6k.json", "FactConsolidation rows (JSON list)")
	flag.StringVar(&o.ingest, "ingest", "turns", "ingestion path: turns (extractor) or claims (structured)")
	flag.StringVar(&o.workspace, "workspace", "", "workspace (default factcons-<ingest>-<unix time>; reuse one with -skip-ingest)")
	flag.StringVar(&o.agent, "agent", "factcons", "agent id")
	flag.StringVar(&o.key, "key", os.Getenv("MNEME_KEY"), "workspace key (outside development mode)")
	flag.StringVar(&o.out, "out", "bench-results/factcons.json", "JSON results")
	flag.IntVar(&o.linesPerTurn, "lines-per-turn", 40, "fact lines per turn (turns ingestion)")
	flag.IntVar(&o.parallel, "parallel", 4, "questions in flight")
	flag.DurationVar(&o.wait, "wait", 5*time.Minute, "how long to wait for the facts to be reconciled")
	flag.DurationVar(&o.timeout, "timeout", 30*time.Minute, "overall time limit")
	flag.BoolVar(&o.skipIngest, "skip-ingest", false, "ask only (the workspace already holds the facts)")
	flag.Parse()
	if o.ingest != "turns" && o.ingest != "claims" {
		return fmt.Errorf("-ingest must be turns or claims, got %q", o.ingest)
	}
	if o.workspace == "" {
		if o.skipIngest {
			return errors.New("-skip-ingest needs -workspace")
		}
		o.workspace = fmt.Sprintf("factcons-%s-%d", o.ingest, time.Now().Unix())
	}
	ctx, cancel := context.WithTimeout(context.Background(), o.timeout)
	defer cancel()
	// The harness's loader: the same rows, question ids, categories and conflicted marks as mneme-bench.
	ds, err := bench.LoadFactConsolidation(o.data)
	if err != nil {
		return err
	}
	var opts []client.Option
	if o.key != "" {
		opts = append(opts, client.WithKey(o.key))
	}
	c, err := client.New(o.url, o.agent, opts...)
	if err != nil {
		return err
	}

	// Rows sharing a context share a conversation and a workspace: each is ingested once, before the first
	// row that asks about it.
	workspaces := map[string]string{} // conversation id → workspace
	convs := map[string]*bench.Conversation{}
	for _, cv := range ds.Conversations {
		convs[cv.ID] = cv
	}
	var results []rowResult
	var all []question
	for _, row := range rowsOf(ds) {
		ws, ok := workspaces[row.conv]
		if !ok {
			ws = o.workspace
			if len(workspaces) > 0 {
				ws = fmt.Sprintf("%s-%d", o.workspace, len(workspaces))
			}
			workspaces[row.conv] = ws
			if !o.skipIngest {
				facts := conversationFacts(convs[row.conv])
				t0 := time.Now()
				if err := ingest(ctx, c, ws, o, facts); err != nil {
					return fmt.Errorf("row %s: ingest: %w", row.source, err)
				}
				fmt.Fprintf(os.Stderr, "ingested %d facts into %s via %s in %s; waiting for reconciliation\n", len(facts), ws, o.ingest, time.Since(t0).Round(time.Millisecond))
				if err := waitReconciled(ctx, c, ws, facts, o.wait); err != nil {
					return fmt.Errorf("row %s: %w", row.source, err)
				}
				fmt.Fprintf(os.Stderr, "reconciled after %s\n", time.Since(t0).Round(time.Millisecond))
			}
		}
		qs := ask(ctx, c, ws, row.questions, o.parallel)
		all = append(all, qs...)
		results = append(results, summarize(row.source, qs))
	}
	printTable(results, o)
	if o.out != "" {
		if err := os.MkdirAll(dirOf(o.out), 0o755); err != nil {
			return err
		}
		b, _ := json.MarshalIndent(struct {
			URL       string      `json:"url"`
			Ingest    string      `json:"ingest"`
			Workspace string      `json:"workspace"`
			Date      string      `json:"date"`
			Rows      []rowResult `json:"rows"`
			Questions []question  `json:"questions"`
		}{o.url, o.ingest, o.workspace, time.Now().UTC().Format(time.RFC3339), results, all}, "", "  ")
		if err := os.WriteFile(o.out, append(b, '\n'), 0o644); err != nil {
			return err
		}
		fmt.Printf("\nJSON: %s\n", o.out)
	}
	return nil
}

// benchRow is one published row: its questions, in order, and the conversation (context) they ask about.
type benchRow struct {
	source, conv string
	questions    []*bench.Question
}

// rowsOf groups the dataset's questions by their row, in the order of the file.
func rowsOf(ds *bench.Dataset) []benchRow {
	var out []benchRow
	at := map[string]int{}
	for _, q := range ds.Questions {
		i, ok := at[q.Row]
		if !ok {
			i = len(out)
			at[q.Row] = i
			out = append(out, benchRow{source: q.Row, conv: q.ConversationID})
		}
		out[i].questions = append(out[i].questions, q)
	}
	return out
}

// conversationFacts returns the numbered facts of a FactConsolidation conversation (one per turn).
func conversationFacts(cv *bench.Conversation) []factcons.Fact {
	var out []factcons.Fact
	for _, s := range cv.Sessions {
		for _, t := range s.Turns {
			out = append(out, factcons.Facts(t.Content)...)
		}
	}
	return out
}

// validTime is the one valid time of every fact: the benchmark orders facts by line number only.
var validTime = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

func ingest(ctx context.Context, c *client.Client, ws string, o options, facts []factcons.Fact) error {
	switch o.ingest {
	case "claims":
		var batch []api.ClaimInput
		functional := true
		for _, f := range facts {
			tr, ok := factcons.Split(f.Text)
			if !ok {
				return fmt.Errorf("fact %d has no known sentence shape: %q", f.N, f.Text)
			}
			n := f.N
			batch = append(batch, api.ClaimInput{ClaimID: fmt.Sprintf("fact-%d", f.N), Subject: tr.Subject, Predicate: tr.Predicate,
				Object: tr.Object, Text: strings.TrimSuffix(f.Text, ".") + ".", Functional: &functional, ValidFrom: &validTime,
				Sequence: &n, Source: fmt.Sprintf("factconsolidation:%d", f.N)})
		}
		for i := 0; i < len(batch); i += 200 {
			if _, err := c.Claims(ctx, ws, api.ClaimsRequest{Claims: batch[i:min(i+200, len(batch))]}); err != nil {
				return err
			}
		}
	default:
		var turns []api.TurnInput
		for i := 0; i < len(facts); i += o.linesPerTurn {
			var b strings.Builder
			for _, f := range facts[i:min(i+o.linesPerTurn, len(facts))] {
				fmt.Fprintf(&b, "%d. %s\n", f.N, f.Text)
			}
			turns = append(turns, api.TurnInput{TurnID: fmt.Sprintf("facts-%d", i), SessionID: "factconsolidation", Role: "user",
				Content: b.String(), OccurredAt: &validTime})
		}
		if _, err := c.Turns(ctx, ws, api.TurnsRequest{Turns: turns}); err != nil {
			return err
		}
	}
	return nil
}

// waitReconciled polls subject timelines until every fact's subject holds a claim for that fact's sequence
// (the facts are reconciled). When some never appear under the subject the benchmark names (an extraction
// that split the sentence differently), it stops once the count has not changed for stableFor and warns.
func waitReconciled(ctx context.Context, c *client.Client, ws string, facts []factcons.Fact, limit time.Duration) error {
	const stableFor = 15 * time.Second
	lastMissing, lastChange := -1, time.Now()
	want := map[string]map[int64]bool{} // subject key → sequences
	for _, f := range facts {
		tr, ok := factcons.Split(f.Text)
		if !ok {
			continue
		}
		k := canon.SubjectKey(tr.Subject)
		if want[k] == nil {
			want[k] = map[int64]bool{}
		}
		want[k][f.N] = true
	}
	deadline := time.Now().Add(limit)
	missing := 0
	var examples []string
	for time.Now().Before(deadline) {
		missing = 0
		examples = examples[:0]
		for k, seqs := range want {
			s, err := c.Subject(ctx, ws, k, client.ReadOptions{})
			var ce *client.Error
			if errors.As(err, &ce) && ce.Status == 404 {
				missing += len(seqs)
				examples = append(examples, k+" (no subject)")
				continue
			}
			if err != nil {
				return err
			}
			have := map[int64]bool{}
			for _, sl := range s.Slots {
				for _, e := range sl.Timeline {
					if e.Sequence != nil {
						have[*e.Sequence] = true
					}
				}
			}
			for n := range seqs {
				if !have[n] {
					missing++
					examples = append(examples, fmt.Sprintf("%s #%d", k, n))
				}
			}
		}
		if missing == 0 {
			return nil
		}
		if missing != lastMissing {
			lastMissing, lastChange = missing, time.Now()
		} else if time.Since(lastChange) > stableFor {
			sort.Strings(examples)
			fmt.Fprintf(os.Stderr, "warning: %d facts are not visible under the subject the benchmark names (unchanged for %s), e.g. %s\n",
				missing, stableFor, strings.Join(examples[:min(10, len(examples))], "; "))
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	sort.Strings(examples)
	return fmt.Errorf("%d facts still not visible after %s (is the whole pipeline running?), e.g. %s", missing, limit,
		strings.Join(examples[:min(10, len(examples))], "; "))
}

func ask(ctx context.Context, c *client.Client, ws string, qs []*bench.Question, parallel int) []question {
	out := make([]question, len(qs))
	sem := make(chan struct{}, max(1, parallel))
	var wg sync.WaitGroup
	for i, q := range qs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			r := question{Source: q.Row, ID: q.ID, Question: q.Text, Gold: q.Golds, Conflicted: q.Conflicted}
			t0 := time.Now()
			res, err := c.Answer(ctx, ws, api.AnswerRequest{Question: q.Text})
			r.Millis = float64(time.Since(t0).Microseconds()) / 1000
			if err != nil {
				r.Error = err.Error()
			} else {
				r.Answer, r.Mode, r.Hops, r.Tokens = res.Answer, res.Mode, len(res.Hops), res.TokensSpent.Context
			}
			r.Correct = factcons.SubstringExactMatch(r.Answer, r.Gold)
			out[i] = r
		}()
	}
	wg.Wait()
	return out
}

func summarize(source string, qs []question) rowResult {
	r := rowResult{Source: source, Questions: len(qs), Modes: map[string]int{}}
	var tokens int
	var ms []float64
	var cN, cOK, uN, uOK int
	for _, q := range qs {
		if q.Correct {
			r.Correct++
		}
		tokens += q.Tokens
		ms = append(ms, q.Millis)
		mode := q.Mode
		if q.Error != "" {
			mode = "error"
		}
		r.Modes[mode]++
		if q.Conflicted != nil {
			if *q.Conflicted {
				cN++
				if q.Correct {
					cOK++
				}
			} else {
				uN++
				if q.Correct {
					uOK++
				}
			}
		}
	}
	if len(qs) > 0 {
		r.Accuracy = float64(r.Correct) / float64(len(qs))
		r.MeanTokens = float64(tokens) / float64(len(qs))
		sort.Float64s(ms)
		r.P50Millis = ms[int(math.Ceil(0.5*float64(len(ms))))-1]
	}
	if cN > 0 {
		v := float64(cOK) / float64(cN)
		r.ConflictedAcc = &v
	}
	if uN > 0 {
		v := float64(uOK) / float64(uN)
		r.UnconflictedAcc = &v
	}
	return r
}

func printTable(rs []rowResult, o options) {
	fmt.Printf("\n### FactConsolidation through the HTTP API (ingest: %s, answers: POST /answer, no LLM)\n\n", o.ingest)
	fmt.Println("| row | questions | substring EM | conflicted / unconflicted | mean context tokens | p50 latency | modes |")
	fmt.Println("|---|---:|---:|---:|---:|---:|---|")
	for _, r := range rs {
		split := "–"
		if r.ConflictedAcc != nil && r.UnconflictedAcc != nil {
			split = fmt.Sprintf("%.1f%% / %.1f%%", 100**r.ConflictedAcc, 100**r.UnconflictedAcc)
		}
		var modes []string
		for m, n := range r.Modes {
			modes = append(modes, fmt.Sprintf("%s %d", m, n))
		}
		sort.Strings(modes)
		fmt.Printf("| %s | %d | **%.1f%%** | %s | %.1f | %.1f ms | %s |\n", r.Source, r.Questions, 100*r.Accuracy, split, r.MeanTokens, r.P50Millis, strings.Join(modes, ", "))
	}
}

func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i > 0 {
		return p[:i]
	}
	return "."
}
