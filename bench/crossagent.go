package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

// The two systems of the cross-agent benchmark: the same pipeline, the same agents and the same turns; only
// the scope the agents give their turns differs.
const (
	// SystemMnemeShared: claims derived from an agent's turns go to the workspace's shared tier.
	SystemMnemeShared = "mneme-shared"
	// SystemMnemeIsolated: claims stay in the private tier of the agent that said them.
	SystemMnemeIsolated = "mneme-isolated"
)

// CrossAgentSystems lists the cross-agent systems in report order.
var CrossAgentSystems = []string{SystemMnemeShared, SystemMnemeIsolated}

// How a question relates to the agent asking it, by who said its evidence turns.
const (
	// AskSameAgent: every evidence turn was said by the asking agent.
	AskSameAgent = "same-agent"
	// AskCrossAgent: every evidence turn was said by another agent — genuinely cross-agent: the asker said
	// none of it, so only another agent's memory can answer.
	AskCrossAgent = "cross-agent"
	// AskMixed: some evidence turns are the asker's, some another agent's.
	AskMixed = "mixed"
)

// crossAgentKinds is the report order of the question kinds.
var crossAgentKinds = []string{AskSameAgent, AskCrossAgent, AskMixed}

// scopeOf is the default scope a system's agents give their turns.
func scopeOf(system string) event.Scope {
	if system == SystemMnemeIsolated {
		return event.ScopePrivate
	}
	return event.ScopeShared
}

// CrossAgentOptions configures RunCrossAgent.
type CrossAgentOptions struct {
	// Systems to run (default CrossAgentSystems).
	Systems []string
	// Budgets are the context token budgets (default 100, 200, 500, 1000, 2000: the harness's).
	Budgets []int
	// K is the claim cap of a search (default 100).
	K int
	// Prefix goes into workspace names.
	Prefix string
	// Settle and Timeout bound the wait for one conversation's data (defaults 3 s and 2 min + 200 ms a turn).
	Settle, Timeout time.Duration
	// Workers is how many (question, agent) pairs are asked at once (default 2).
	Workers int
	// BatchTurns is how many turns an agent publishes per NATS message (default 32).
	BatchTurns int
	Logger     *slog.Logger
}

func (o *CrossAgentOptions) defaults() {
	if len(o.Systems) == 0 {
		o.Systems = CrossAgentSystems
	}
	if len(o.Budgets) == 0 {
		o.Budgets = []int{100, 200, 500, 1000, 2000}
	}
	if o.K <= 0 {
		o.K = 100
	}
	if o.Settle <= 0 {
		o.Settle = 3 * time.Second
	}
	if o.Workers <= 0 {
		o.Workers = 2
	}
	if o.BatchTurns <= 0 {
		o.BatchTurns = 32
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// CrossAgentRow is one question asked by one agent under one system.
type CrossAgentRow struct {
	System       string `json:"system"`
	Conversation string `json:"conversation"`
	Question     string `json:"question"`
	Category     string `json:"category"`
	Asker        string `json:"asker"`
	// Kind is AskSameAgent, AskCrossAgent or AskMixed.
	Kind     string   `json:"kind"`
	Evidence []string `json:"evidence"`
	// Recall and Tokens per budget (JSON keys are the budgets).
	Recall map[int]float64 `json:"recall"`
	Tokens map[int]int     `json:"tokens"`
	// Leaks counts claims returned to the asker that it may not read (another agent's private claim); it
	// must be zero.
	Leaks int `json:"leaks"`
}

// CrossAgentIngest is what ingesting one conversation under one system cost.
type CrossAgentIngest struct {
	System       string  `json:"system"`
	Conversation string  `json:"conversation"`
	Workspace    string  `json:"workspace"`
	Agents       int     `json:"agents"`
	Turns        int     `json:"turns"`
	Claims       int     `json:"claims"`
	Seconds      float64 `json:"seconds"`
}

// CrossAgentResult is a whole run.
type CrossAgentResult struct {
	Budgets []int              `json:"budgets"`
	Rows    []CrossAgentRow    `json:"-"`
	Ingest  []CrossAgentIngest `json:"ingest"`
	// Summary is mean recall per system, kind and budget, with the question count.
	Summary []CrossAgentCell `json:"summary"`
	// Leaks sums CrossAgentRow.Leaks.
	Leaks int `json:"leaks"`
}

// CrossAgentCell is one line of the summary: a system and a question kind.
type CrossAgentCell struct {
	System string          `json:"system"`
	Kind   string          `json:"kind"`
	N      int             `json:"n"`
	Recall map[int]float64 `json:"recall"`
}

// crossAgentWorkspace names a system's workspace for a conversation.
func crossAgentWorkspace(system, prefix, conv string) string {
	return Workspace("xa", strings.TrimPrefix(system, "mneme-")+"-"+prefix, conv)
}

// RunCrossAgent runs the cross-agent benchmark: each conversation's speakers become agents of one workspace
// per system, each publishing only its own turns over NATS with its own credential; then every question with
// evidence is asked by every agent, over HTTP with that agent's key, at every budget, and evidence recall is
// split by whether the asker said the evidence.
func RunCrossAgent(ctx context.Context, f *Fleet, d *Dataset, o CrossAgentOptions) (*CrossAgentResult, error) {
	o.defaults()
	res := &CrossAgentResult{Budgets: o.Budgets}
	for _, system := range o.Systems {
		if system != SystemMnemeShared && system != SystemMnemeIsolated {
			return nil, fmt.Errorf("cross-agent: unknown system %q (one of %s)", system, strings.Join(CrossAgentSystems, ", "))
		}
	}
	prov := &provenanceCache{m: map[string][]string{}}
	for _, conv := range d.Conversations {
		var questions []*Question
		for _, q := range d.Questions {
			if q.ConversationID == conv.ID && len(q.Evidence) > 0 {
				questions = append(questions, q)
			}
		}
		speakerOf := map[string]string{}
		for _, t := range conv.Turns() {
			speakerOf[t.ID] = AgentID(t.Speaker)
		}
		for _, system := range o.Systems {
			agents, st, err := ingestAsAgents(ctx, f, conv, system, o)
			if err != nil {
				return nil, err
			}
			res.Ingest = append(res.Ingest, st)
			o.Logger.Info("cross-agent: ingested", "system", system, "conversation", conv.ID, "claims", st.Claims, "seconds", st.Seconds)
			rows, err := askAsAgents(ctx, f, conv, system, questions, agents, speakerOf, prov, o)
			if err != nil {
				return nil, err
			}
			res.Rows = append(res.Rows, rows...)
		}
	}
	res.summarize(o.Systems)
	return res, nil
}

// ingestAsAgents creates the system's workspace for conv, gives every speaker an agent with its own
// credentials, publishes each agent's own turns (in dialogue order, concurrently across agents) and waits
// until the pipeline has caught up.
func ingestAsAgents(ctx context.Context, f *Fleet, conv *Conversation, system string, o CrossAgentOptions) (map[string]*FleetAgent, CrossAgentIngest, error) {
	ws := crossAgentWorkspace(system, o.Prefix, conv.ID)
	st := CrossAgentIngest{System: system, Conversation: conv.ID, Workspace: ws, Claims: -1}
	if err := f.CreateWorkspace(ctx, ws); err != nil {
		return nil, st, err
	}
	byAgent := map[string][]api.TurnInput{}
	var order []string
	for _, t := range TurnInputs(conv) {
		id := AgentID(t.Speaker)
		if _, ok := byAgent[id]; !ok {
			order = append(order, id)
		}
		t.Scope = string(scopeOf(system))
		byAgent[id] = append(byAgent[id], t)
		st.Turns++
	}
	agents := map[string]*FleetAgent{}
	for _, id := range order {
		a, err := f.Agent(ctx, ws, id)
		if err != nil {
			return nil, st, err
		}
		agents[id] = a
	}
	st.Agents = len(agents)
	start := time.Now()
	errs := make(chan error, len(order))
	for _, id := range order {
		go func(a *FleetAgent, turns []api.TurnInput) {
			for i := 0; i < len(turns); i += o.BatchTurns {
				if err := a.PublishTurns(ctx, turns[i:min(i+o.BatchTurns, len(turns))]); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}(agents[id], byAgent[id])
	}
	for range order {
		if err := <-errs; err != nil {
			return nil, st, err
		}
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 2*time.Minute + time.Duration(st.Turns)*200*time.Millisecond
	}
	if err := f.Quiescent(ctx, []string{ws}, o.Settle, timeout); err != nil {
		return nil, st, fmt.Errorf("cross-agent: %s: %w", ws, err)
	}
	st.Seconds = time.Since(start).Seconds()
	if n, _, err := store.WorkspaceSize(ctx, f.DB, ws); err == nil {
		st.Claims = int(n)
	}
	return agents, st, nil
}

// AskKind classifies a question for an asking agent by the speakers of its evidence turns (unknown turns are
// ignored; "" when no evidence turn is known).
func AskKind(asker string, evidence []string, speakerOf map[string]string) string {
	own, other := 0, 0
	for _, e := range evidence {
		s, ok := speakerOf[e]
		switch {
		case !ok:
		case s == asker:
			own++
		default:
			other++
		}
	}
	switch {
	case own > 0 && other == 0:
		return AskSameAgent
	case other > 0 && own == 0:
		return AskCrossAgent
	case own > 0:
		return AskMixed
	}
	return ""
}

// askAsAgents asks every question as every agent of the conversation.
func askAsAgents(ctx context.Context, f *Fleet, conv *Conversation, system string, questions []*Question,
	agents map[string]*FleetAgent, speakerOf map[string]string, prov *provenanceCache, o CrossAgentOptions) ([]CrossAgentRow, error) {
	type task struct {
		q     *Question
		asker *FleetAgent
		kind  string
	}
	var tasks []task
	ids := make([]string, 0, len(agents))
	for id := range agents {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, q := range questions {
		for _, id := range ids {
			if kind := AskKind(id, q.Evidence, speakerOf); kind != "" {
				tasks = append(tasks, task{q: q, asker: agents[id], kind: kind})
			}
		}
	}
	rows := make([]CrossAgentRow, len(tasks))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t := tasks[i]
				row, err := askOne(ctx, f, system, conv, t.q, t.asker, t.kind, prov, o)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					continue
				}
				rows[i] = row
			}
		}()
	}
	for i := range tasks {
		mu.Lock()
		stop := firstErr != nil
		mu.Unlock()
		if stop || ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return rows, ctx.Err()
}

// askOne searches as the asker at every budget and measures evidence recall from the provenance of the claims
// the context shows; it counts every returned claim the asker may not read.
func askOne(ctx context.Context, f *Fleet, system string, conv *Conversation, q *Question, asker *FleetAgent, kind string,
	prov *provenanceCache, o CrossAgentOptions) (CrossAgentRow, error) {
	row := CrossAgentRow{System: system, Conversation: conv.ID, Question: q.ID, Category: q.Category, Asker: asker.ID,
		Kind: kind, Evidence: q.Evidence, Recall: map[int]float64{}, Tokens: map[int]int{}}
	for _, b := range o.Budgets {
		resp, err := asker.API.Search(ctx, asker.Workspace, api.SearchRequest{Query: q.Text, K: o.K, TokenBudget: b})
		if err != nil {
			return row, fmt.Errorf("cross-agent: %s asks %s in %s: %w", asker.ID, q.ID, asker.Workspace, err)
		}
		row.Leaks += Leaks(asker.ID, resp.Claims)
		shown, _ := claimsInContext(resp.Context, resp.Claims)
		turns, err := prov.turns(ctx, f, asker.Workspace, shown)
		if err != nil {
			return row, err
		}
		row.Recall[b], _ = Recall(q.Evidence, turns)
		row.Tokens[b] = resp.ContextTokens
	}
	return row, nil
}

// Leaks counts the claims of a response that agent may not read: another agent's private claims.
func Leaks(agent string, claims []api.Claim) int {
	n := 0
	for _, c := range claims {
		if c.Scope != string(event.ScopeShared) && c.Owner != agent {
			n++
		}
	}
	return n
}

// provenanceCache keeps the source turns of claims (their own and their corroborating claims', which are
// in the same tier, so never beyond what the asker may read).
type provenanceCache struct {
	mu sync.Mutex
	m  map[string][]string
}

func (p *provenanceCache) turns(ctx context.Context, f *Fleet, ws string, claims []api.Claim) (map[string]bool, error) {
	out := map[string]bool{}
	var missing []string
	p.mu.Lock()
	for _, c := range claims {
		if t, ok := p.m[c.ID]; ok {
			for _, id := range t {
				out[id] = true
			}
		} else {
			missing = append(missing, c.ID)
		}
	}
	p.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	got, err := dbTurnIDs(ctx, f.DB, missing)
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, id := range missing {
		var ts []string
		for _, t := range got[id] {
			ts = append(ts, SourceTurn(t))
		}
		p.m[id] = ts
		for _, t := range ts {
			out[t] = true
		}
	}
	return out, nil
}

func (r *CrossAgentResult) summarize(systems []string) {
	type key struct{ system, kind string }
	sums := map[key]map[int]float64{}
	counts := map[key]int{}
	r.Leaks = 0
	for _, row := range r.Rows {
		k := key{row.System, row.Kind}
		if sums[k] == nil {
			sums[k] = map[int]float64{}
		}
		for b, v := range row.Recall {
			sums[k][b] += v
		}
		counts[k]++
		r.Leaks += row.Leaks
	}
	r.Summary = nil
	for _, s := range systems {
		for _, kind := range crossAgentKinds {
			k := key{s, kind}
			cell := CrossAgentCell{System: s, Kind: kind, N: counts[k], Recall: map[int]float64{}}
			for _, b := range r.Budgets {
				if counts[k] > 0 {
					cell.Recall[b] = sums[k][b] / float64(counts[k])
				}
			}
			r.Summary = append(r.Summary, cell)
		}
	}
}

// Cell returns the summary cell of a system and kind (zero when absent).
func (r *CrossAgentResult) Cell(system, kind string) CrossAgentCell {
	for _, c := range r.Summary {
		if c.System == system && c.Kind == kind {
			return c
		}
	}
	return CrossAgentCell{System: system, Kind: kind}
}

// WriteTable writes the summary as a Markdown table: one line per system and question kind, mean evidence
// recall at each budget.
func (r *CrossAgentResult) WriteTable(w io.Writer) {
	fmt.Fprint(w, "| system | questions asked as | n |")
	for _, b := range r.Budgets {
		fmt.Fprintf(w, " recall@%d |", b)
	}
	fmt.Fprint(w, "\n|---|---|---:|")
	for range r.Budgets {
		fmt.Fprint(w, "---:|")
	}
	fmt.Fprintln(w)
	for _, c := range r.Summary {
		fmt.Fprintf(w, "| %s | %s | %d |", c.System, c.Kind, c.N)
		for _, b := range r.Budgets {
			if c.N == 0 {
				fmt.Fprint(w, " – |")
				continue
			}
			fmt.Fprintf(w, " %.1f%% |", 100*c.Recall[b])
		}
		fmt.Fprintln(w)
	}
}

// Write stores the run in dir: results.jsonl (one row per question, agent and system), summary.json and
// report.md (the table).
func (r *CrossAgentResult) Write(dir, header string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	rows := slices.Clone(r.Rows)
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		return a.System+a.Question+a.Asker < b.System+b.Question+b.Asker
	})
	var lines strings.Builder
	for _, row := range rows {
		b, err := json.Marshal(row)
		if err != nil {
			return err
		}
		lines.Write(b)
		lines.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "results.jsonl"), []byte(lines.String()), 0o644); err != nil {
		return err
	}
	sum, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "summary.json"), sum, 0o644); err != nil {
		return err
	}
	var md strings.Builder
	md.WriteString(header)
	r.WriteTable(&md)
	fmt.Fprintf(&md, "\nprivate claims returned to another agent: %d\n", r.Leaks)
	return os.WriteFile(filepath.Join(dir, "report.md"), []byte(md.String()), 0o644)
}
