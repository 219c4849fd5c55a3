package bench

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
)

// MemoryStressOptions configures RunMemoryStress.
type MemoryStressOptions struct {
	// Systems: SystemMnemeShared and/or SystemMnemeIsolated (default both).
	Systems []string
	// Budgets are the context token budgets (default 200, 500, 2000).
	Budgets []int
	// K is the claim cap of a search (default 100).
	K      int
	Prefix string
	// Settle and Timeout bound the wait after each phase (defaults 3 s and 10 min).
	Settle, Timeout time.Duration
	// BatchTurns is how many turns an agent publishes per NATS message (default 32).
	BatchTurns int
	Logger     *slog.Logger
}

// MemoryStressRow is one question asked under one system.
type MemoryStressRow struct {
	System     string `json:"system"`
	Question   string `json:"question"`
	Type       string `json:"question_type"`
	PhaseAsked int    `json:"phase_asked"`
	// Asker is the agent the question names (agent_scope); ColdStart says it asked from a fresh client.
	Asker     string `json:"asker"`
	ColdStart bool   `json:"cold_start"`
	// Sessions are the evidence sessions; Recall per budget is the share of them the context reaches (a
	// claim extracted from one of their turns), AnswerIn whether the context contains the answer.
	Sessions []string        `json:"evidence_sessions"`
	Recall   map[int]float64 `json:"recall"`
	AnswerIn map[int]bool    `json:"answer_in_context"`
	Leaks    int             `json:"leaks"`
}

// RunMemoryStress runs the longitudinal protocol: phase by phase, every session's turns are published over
// NATS by the agent holding it (its own credential); at each checkpoint the phase's questions are asked over
// HTTP by the agent each names, cold-start ones from a fresh client with a newly issued key.
func RunMemoryStress(ctx context.Context, f *Fleet, d *MemoryStressData, o MemoryStressOptions) ([]MemoryStressRow, error) {
	if len(o.Systems) == 0 {
		o.Systems = CrossAgentSystems
	}
	if len(o.Budgets) == 0 {
		o.Budgets = []int{200, 500, 2000}
	}
	if o.K <= 0 {
		o.K = 100
	}
	if o.Settle <= 0 {
		o.Settle = 3 * time.Second
	}
	if o.Timeout <= 0 {
		o.Timeout = 10 * time.Minute
	}
	if o.BatchTurns <= 0 {
		o.BatchTurns = 32
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	var rows []MemoryStressRow
	prov := &provenanceCache{m: map[string][]string{}}
	for _, system := range o.Systems {
		if system != SystemMnemeShared && system != SystemMnemeIsolated {
			return nil, fmt.Errorf("memorystress: unknown system %q", system)
		}
		ws := Workspace("ms", strings.TrimPrefix(system, "mneme-"), o.Prefix)
		if err := f.CreateWorkspace(ctx, ws); err != nil {
			return nil, err
		}
		agents := map[string]*FleetAgent{}
		for _, id := range d.Agents() {
			a, err := f.Agent(ctx, ws, id)
			if err != nil {
				return nil, err
			}
			agents[id] = a
		}
		for _, phase := range d.Phases() {
			if err := publishPhase(ctx, f, d, agents, system, phase, o); err != nil {
				return nil, err
			}
			for i := range d.Questions {
				q := &d.Questions[i]
				if q.PhaseAsked != phase {
					continue
				}
				api := agents[q.AgentScope].API
				if q.ColdStart {
					fresh, err := f.Reader(ctx, ws, q.AgentScope)
					if err != nil {
						return nil, err
					}
					api = fresh
				}
				row, err := askMemoryStress(ctx, f, api, ws, system, d, q, prov, o)
				if err != nil {
					return nil, err
				}
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// publishPhase publishes the sessions of one phase, each by its agent, in session order, and waits until the
// pipeline has caught up.
func publishPhase(ctx context.Context, f *Fleet, d *MemoryStressData, agents map[string]*FleetAgent, system string, phase int, o MemoryStressOptions) error {
	n := 0
	for si := range d.Sessions {
		s := &d.Sessions[si]
		if s.Phase != phase {
			continue
		}
		var turns []api.TurnInput
		for i, t := range s.Turns {
			at := s.At().Add(time.Duration(i) * time.Second)
			seq := int64(s.Index)*100_000 + int64(i)
			// The user is the person every agent talks to; an assistant turn is the agent's own.
			speaker := "User"
			if t.Role != "user" {
				speaker = s.Agent
			}
			turns = append(turns, api.TurnInput{TurnID: s.TurnID(i), SessionID: s.ID, Role: t.Role, Speaker: speaker,
				Content: t.Content, OccurredAt: &at, Sequence: &seq, Scope: string(scopeOf(system))})
		}
		for i := 0; i < len(turns); i += o.BatchTurns {
			if err := agents[s.Agent].PublishTurns(ctx, turns[i:min(i+o.BatchTurns, len(turns))]); err != nil {
				return err
			}
		}
		n++
	}
	if n == 0 {
		return nil
	}
	ws := agents[d.Sessions[0].Agent].Workspace
	return f.Quiescent(ctx, []string{ws}, o.Settle, o.Timeout)
}

func askMemoryStress(ctx context.Context, f *Fleet, c *client.Client, ws, system string, d *MemoryStressData, q *MemoryStressQuestion,
	prov *provenanceCache, o MemoryStressOptions) (MemoryStressRow, error) {
	row := MemoryStressRow{System: system, Question: q.ID, Type: q.QuestionType, PhaseAsked: q.PhaseAsked, Asker: c.Agent(),
		ColdStart: q.ColdStart, Sessions: d.EvidenceSessions(q), Recall: map[int]float64{}, AnswerIn: map[int]bool{}}
	for _, b := range o.Budgets {
		resp, err := c.Search(ctx, ws, api.SearchRequest{Query: q.Question, K: o.K, TokenBudget: b})
		if err != nil {
			return row, fmt.Errorf("memorystress: %s asks %s: %w", c.Agent(), q.ID, err)
		}
		row.Leaks += Leaks(c.Agent(), resp.Claims)
		shown, _ := claimsInContext(resp.Context, resp.Claims)
		turns, err := prov.turns(ctx, f, ws, shown)
		if err != nil {
			return row, err
		}
		reached := map[string]bool{}
		for t := range turns {
			if i := strings.LastIndexByte(t, ':'); i > 0 {
				reached[t[:i]] = true
			}
		}
		row.Recall[b], _ = Recall(row.Sessions, reached)
		row.AnswerIn[b] = q.Answer != "" && len(ContainsAny(resp.Context, []string{q.Answer})) > 0
	}
	return row, nil
}

// WriteMemoryStressTable prints mean evidence-session recall and answer-in-context per system, question
// type and cold start.
func WriteMemoryStressTable(w io.Writer, rows []MemoryStressRow, budgets []int) {
	type key struct {
		system, typ string
		cold        bool
	}
	var order []key
	sum := map[key]map[int]float64{}
	ans := map[key]map[int]int{}
	n := map[key]int{}
	for _, r := range rows {
		k := key{r.System, r.Type, r.ColdStart}
		if n[k] == 0 {
			order = append(order, k)
			sum[k], ans[k] = map[int]float64{}, map[int]int{}
		}
		n[k]++
		for _, b := range budgets {
			sum[k][b] += r.Recall[b]
			if r.AnswerIn[b] {
				ans[k][b]++
			}
		}
	}
	fmt.Fprint(w, "| system | question type | cold start | n |")
	for _, b := range budgets {
		fmt.Fprintf(w, " recall@%d | answer@%d |", b, b)
	}
	fmt.Fprint(w, "\n|---|---|---|---:|")
	for range budgets {
		fmt.Fprint(w, "---:|---:|")
	}
	fmt.Fprintln(w)
	for _, k := range order {
		fmt.Fprintf(w, "| %s | %s | %v | %d |", k.system, k.typ, k.cold, n[k])
		for _, b := range budgets {
			fmt.Fprintf(w, " %.1f%% | %.1f%% |", 100*sum[k][b]/float64(n[k]), 100*float64(ans[k][b])/float64(n[k]))
		}
		fmt.Fprintln(w)
	}
}
