package bench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
)

// Row is the result of one question for one system: one line of results.jsonl.
type Row struct {
	Bench        string `json:"bench"`
	System       string `json:"system"`
	QuestionID   string `json:"question_id"`
	Conversation string `json:"conversation"`
	Category     string `json:"category"`
	// Config fingerprints the settings the row was measured with; rows of another configuration are not
	// reused by a rerun.
	Config     string   `json:"config"`
	Conflicted *bool    `json:"conflicted,omitempty"`
	Abstention bool     `json:"abstention,omitempty"`
	Question   string   `json:"question"`
	Golds      []string `json:"golds,omitempty"`
	// Attribute is what a conversation-updates question asks about (employer, city, ...).
	Attribute string `json:"attribute,omitempty"`

	// Answer is the system's own answer (Mneme's deterministic /answer), when it has one.
	Answer *AnswerResult `json:"answer,omitempty"`
	// Budgets holds the context measurements at each token budget.
	Budgets []BudgetResult `json:"budgets,omitempty"`
	// LLM holds the reader's answer and the judge's verdict, when an LLM is configured.
	LLM *LLMResult `json:"llm,omitempty"`

	// Analysis classifies a missed goal: extraction miss, retrieval miss, resolution error, assembly error.
	Analysis string `json:"analysis,omitempty"`
	// Subclass refines a retrieval miss: ranked below the budget, or not retrieved at any budget.
	Subclass string `json:"subclass,omitempty"`
	Detail   string `json:"detail,omitempty"`
	// Error is set when the system failed on the question; the row still counts (as a miss).
	Error   string  `json:"error,omitempty"`
	Seconds float64 `json:"seconds"`
}

// AnswerResult is a system's own answer and its score.
type AnswerResult struct {
	Text string `json:"text"`
	Mode string `json:"mode,omitempty"`
	// Correct is the benchmark's answer metric (FactConsolidation: substring exact match).
	Correct bool `json:"correct"`
	// F1 is LoCoMo's token F1 of the answer.
	F1 *float64 `json:"f1,omitempty"`
	// Stale is set when the answer is a superseded value (FactConsolidation), or presents a stale value as
	// current (conversation updates: StaleInAnswer).
	Stale bool `json:"stale,omitempty"`
	// Tokens is what answering cost: context plus LLM tokens.
	Tokens int `json:"tokens"`
	// Turns are the source turns of the claims the answer used.
	Turns []string `json:"turns,omitempty"`
}

// BudgetResult is one context measurement at one token budget.
type BudgetResult struct {
	Budget int `json:"budget"`
	// Tokens is the size of the context actually assembled.
	Tokens int `json:"tokens"`
	Items  int `json:"items"`
	// GoldInContext: a gold answer occurs in the context (official normalization).
	GoldInContext bool `json:"gold_in_context"`
	// StaleInContext: the context shows an overridden fact of a slot the answer depends on (FactConsolidation;
	// by provenance for claims, by the line itself for raw history).
	StaleInContext bool `json:"stale_in_context,omitempty"`
	// EvidenceRecall is the share of the question's evidence turns the context reaches; EvidenceHit lists them.
	EvidenceRecall *float64 `json:"evidence_recall,omitempty"`
	EvidenceHit    []string `json:"evidence_hit,omitempty"`
	// GroupRecall is the evidence recall per evidence group (BEAM).
	GroupRecall map[string]float64 `json:"group_recall,omitempty"`
	// StaleAsCurrent: the context presents a replaced value of a conversation-updates question as current on
	// StaleLine (StaleInContext).
	StaleAsCurrent bool   `json:"stale_as_current,omitempty"`
	StaleLine      string `json:"stale_line,omitempty"`
	// Pass is the benchmark's co-surfacing verdict (BEAM knowledge_update / contradiction_resolution).
	Pass *bool `json:"pass,omitempty"`
	// Why explains a failed Pass.
	Why  string `json:"why,omitempty"`
	Note string `json:"note,omitempty"`
}

// LLMResult is an LLM reader's answer over the system's context and the judge's verdict.
type LLMResult struct {
	Model  string  `json:"model"`
	Budget int     `json:"budget"`
	Answer string  `json:"answer"`
	Score  float64 `json:"score"`
	Judge  string  `json:"judge,omitempty"`
	// Tokens is the context tokens plus the reader's prompt and completion tokens.
	Tokens           int   `json:"tokens"`
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	JudgeTokens      int64 `json:"judge_tokens"`
}

// Key identifies a row for resumption.
func (r *Row) Key() string { return r.System + "\x00" + r.QuestionID + "\x00" + r.Config }

// IngestRow records what preparing one conversation cost one system: a line of ingest.jsonl.
type IngestRow struct {
	Bench        string `json:"bench"`
	System       string `json:"system"`
	Conversation string `json:"conversation"`
	Config       string `json:"config"`
	IngestStats
	Error string `json:"error,omitempty"`
}

// Store is an append-only JSONL file of rows. Opening it reads what earlier runs wrote, so a rerun skips
// finished rows; a torn last line (a killed run) is ignored.
type Store struct {
	mu   sync.Mutex
	f    *os.File
	done map[string]*Row
	rows []*Row
}

// OpenStore opens (creating) a results file.
func OpenStore(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	s := &Store{done: map[string]*Row{}}
	rows, err := ReadJSONL[Row](path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	for _, r := range rows {
		s.add(r)
	}
	if err := dropTornLine(path); err != nil {
		return nil, err
	}
	s.f, err = os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// dropTornLine truncates a file after its last newline, removing the partial line a killed run may have
// left, so the next append starts a line of its own.
func dropTornLine(path string) error {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) || len(b) == 0 || b[len(b)-1] == '\n' {
		return nil
	}
	if err != nil {
		return err
	}
	return os.Truncate(path, int64(bytes.LastIndexByte(b, '\n')+1))
}

func (s *Store) add(r *Row) {
	if old, ok := s.done[r.Key()]; ok {
		*old = *r // a later line of the same key replaces the earlier one
		return
	}
	s.done[r.Key()] = r
	s.rows = append(s.rows, r)
}

// Done reports whether a row for the system, question and configuration is recorded without error (rows
// that failed are measured again).
func (s *Store) Done(system, questionID, config string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.done[(&Row{System: system, QuestionID: questionID, Config: config}).Key()]
	return ok && r.Error == ""
}

// Put appends a row, written at once, so a killed run loses at most the rows in flight.
func (s *Store) Put(r *Row) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.f.Write(append(b, '\n')); err != nil {
		return err
	}
	s.add(r)
	return nil
}

// Rows returns the recorded rows of one configuration, sorted by system then question id.
func (s *Store) Rows(config string) []*Row {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Row
	for _, r := range s.rows {
		if r.Config == config {
			out = append(out, r)
		}
	}
	SortRows(out)
	return out
}

// SortRows orders rows by system (report order) and question id.
func SortRows(rows []*Row) {
	rank := map[string]int{}
	for i, s := range systemOrder {
		rank[s] = i
	}
	sort.SliceStable(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.System != b.System {
			ra, oka := rank[a.System]
			rb, okb := rank[b.System]
			if oka && okb {
				return ra < rb
			}
			return a.System < b.System
		}
		return a.QuestionID < b.QuestionID
	})
}

// Close closes the file.
func (s *Store) Close() error { return s.f.Close() }

// ReadJSONL reads a JSON-lines file. A last line without its newline (a torn write) is ignored; a
// malformed complete line is an error.
func ReadJSONL[T any](path string) ([]*T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []*T
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] == '\n' {
			v := new(T)
			if uerr := json.Unmarshal(line, v); uerr != nil {
				return out, fmt.Errorf("%s line %d: %w", path, n, uerr)
			}
			out = append(out, v)
		}
		if errors.Is(err, io.EOF) {
			return out, nil // a last line without newline is a torn write: ignored
		}
		if err != nil {
			return out, err
		}
	}
}

// AppendJSONL appends one value as a line.
func AppendJSONL(path string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
