package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/auth"
)

// MemoryStress is the name of the longitudinal multi-agent benchmark.
const MemoryStress = "memorystress"

// MemoryStressData is a MemoryStress dataset: facts planted in sessions that different agents hold, over
// phases of growing noise, contradiction chains that update facts, and questions asked at checkpoints — some
// by an agent other than the one whose session planted the fact (agent_scope), some from a fresh client that
// has seen nothing (cold_start). The format is the published generator's JSON (docs/benchmarks.md,
// "MemoryStress format"); fields it does not describe are ignored.
type MemoryStressData struct {
	Version  string                `json:"version"`
	Facts    []MemoryStressFact    `json:"facts"`
	Chains   []MemoryStressChain   `json:"contradiction_chains"`
	Sessions []MemoryStressSession `json:"sessions"`
	// Questions in file order.
	Questions []MemoryStressQuestion `json:"questions"`
}

// MemoryStressFact is a planted fact.
type MemoryStressFact struct {
	ID       string `json:"fact_id"`
	Content  string `json:"content"`
	Category string `json:"category"`
	// SessionPlanted and MentionSessions are the sessions that state the fact.
	SessionPlanted  string   `json:"session_planted"`
	MentionSessions []string `json:"mention_sessions"`
	// Chain names the contradiction chain that updates the fact, if any.
	Chain *string `json:"contradiction_chain"`
}

// MemoryStressChain is a sequence of versions of one fact; the last is the truth.
type MemoryStressChain struct {
	ID           string `json:"chain_id"`
	OriginalFact string `json:"original_fact_id"`
	Versions     []struct {
		Version   int    `json:"version"`
		Content   string `json:"content"`
		SessionID string `json:"session_id"`
	} `json:"versions"`
	FinalTruth string `json:"final_ground_truth"`
	Pattern    string `json:"pattern"`
}

// MemoryStressSession is one conversation held by one agent.
type MemoryStressSession struct {
	ID    string `json:"session_id"`
	Index int    `json:"session_index"`
	Phase int    `json:"phase"`
	// Date is the simulated date ("2024-01-01T07:12:00", no zone: UTC).
	Date  string `json:"simulated_date"`
	Topic string `json:"topic"`
	// Agent is the agent whose session this is: it publishes the turns.
	Agent string `json:"agent_id"`
	Turns []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"turns"`
	PlantedFacts []string `json:"planted_fact_ids"`
	Noise        string   `json:"noise_level"`

	at time.Time
}

// MemoryStressQuestion is asked at a checkpoint by one agent.
type MemoryStressQuestion struct {
	ID           string   `json:"question_id"`
	Question     string   `json:"question"`
	TargetFacts  []string `json:"target_fact_ids"`
	TargetChain  *string  `json:"target_chain_id"`
	Answer       string   `json:"answer"`
	PhaseAsked   int      `json:"phase_asked"`
	AgeSessions  int      `json:"age_sessions"`
	QuestionType string   `json:"question_type"`
	Difficulty   string   `json:"difficulty"`
	// AgentScope names the agent that asks (it reads with its own credential).
	AgentScope string `json:"agent_scope"`
	// ColdStart questions are asked from a fresh client over the existing store.
	ColdStart bool `json:"cold_start"`
}

// Bounds on a MemoryStress file (the published dataset is 2.6 MB: 583 facts, 1,000 sessions, 300
// questions); every one is well above it and keeps a hostile file from costing unbounded memory.
const (
	MemoryStressMaxBytes     = 256 << 20
	MemoryStressMaxItems     = 100_000
	MemoryStressMaxTurns     = 10_000
	MemoryStressMaxTextBytes = 1 << 20
	MemoryStressMaxPhase     = 100
)

// memoryStressDateLayouts are the simulated-date forms accepted: Python's isoformat without and with
// fractions, RFC 3339, or a date.
var memoryStressDateLayouts = []string{"2006-01-02T15:04:05.999999", "2006-01-02T15:04:05", time.RFC3339Nano, "2006-01-02"}

// LoadMemoryStress reads a MemoryStress file.
func LoadMemoryStress(path string) (*MemoryStressData, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := DecodeMemoryStress(f)
	if err != nil {
		return nil, fmt.Errorf("memorystress: %s: %w", path, err)
	}
	return d, nil
}

// DecodeMemoryStress decodes and validates a MemoryStress document, reading at most MemoryStressMaxBytes.
// Errors name the field (sessions[3].turns[2].role) and the rule or limit broken.
func DecodeMemoryStress(r io.Reader) (*MemoryStressData, error) {
	b, err := io.ReadAll(io.LimitReader(r, MemoryStressMaxBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MemoryStressMaxBytes {
		return nil, fmt.Errorf("the file is larger than %d bytes", MemoryStressMaxBytes)
	}
	var d MemoryStressData
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("not a MemoryStress JSON document: %w", err)
	}
	if dec.More() {
		return nil, errors.New("data after the JSON document")
	}
	if err := d.validate(); err != nil {
		return nil, err
	}
	return &d, nil
}

func (d *MemoryStressData) validate() error {
	for name, n := range map[string]int{"facts": len(d.Facts), "contradiction_chains": len(d.Chains), "sessions": len(d.Sessions), "questions": len(d.Questions)} {
		if n > MemoryStressMaxItems {
			return fmt.Errorf("%s: %d items, at most %d", name, n, MemoryStressMaxItems)
		}
	}
	if len(d.Sessions) == 0 {
		return errors.New("sessions: none (a MemoryStress file holds at least one session)")
	}
	text := func(field, s string, required bool) error {
		switch {
		case required && strings.TrimSpace(s) == "":
			return fmt.Errorf("%s: empty", field)
		case len(s) > MemoryStressMaxTextBytes:
			return fmt.Errorf("%s: %d bytes, at most %d", field, len(s), MemoryStressMaxTextBytes)
		case strings.ContainsRune(s, 0):
			return fmt.Errorf("%s: contains NUL", field)
		}
		return nil
	}
	facts := map[string]bool{}
	for i, f := range d.Facts {
		field := fmt.Sprintf("facts[%d]", i)
		if err := text(field+".fact_id", f.ID, true); err != nil {
			return err
		}
		if facts[f.ID] {
			return fmt.Errorf("%s.fact_id: %q appears twice", field, f.ID)
		}
		facts[f.ID] = true
		if err := text(field+".content", f.Content, false); err != nil {
			return err
		}
	}
	sessions := map[string]bool{}
	for i := range d.Sessions {
		s := &d.Sessions[i]
		field := fmt.Sprintf("sessions[%d]", i)
		if err := text(field+".session_id", s.ID, true); err != nil {
			return err
		}
		if sessions[s.ID] {
			return fmt.Errorf("%s.session_id: %q appears twice", field, s.ID)
		}
		sessions[s.ID] = true
		if err := auth.ValidAgentID(s.Agent); err != nil {
			return fmt.Errorf("%s.agent_id: %w", field, err)
		}
		if s.Phase < 0 || s.Phase > MemoryStressMaxPhase {
			return fmt.Errorf("%s.phase: %d, must be between 0 and %d", field, s.Phase, MemoryStressMaxPhase)
		}
		var err error
		if s.at, err = parseMemoryStressDate(s.Date); err != nil {
			return fmt.Errorf("%s.simulated_date: %w", field, err)
		}
		if len(s.Turns) > MemoryStressMaxTurns {
			return fmt.Errorf("%s.turns: %d turns, at most %d", field, len(s.Turns), MemoryStressMaxTurns)
		}
		for j, t := range s.Turns {
			tf := fmt.Sprintf("%s.turns[%d]", field, j)
			if !slices.Contains([]string{"user", "assistant", "system", "tool"}, t.Role) {
				return fmt.Errorf("%s.role: %q, must be user, assistant, system or tool", tf, t.Role)
			}
			if err := text(tf+".content", t.Content, false); err != nil {
				return err
			}
		}
	}
	for i, q := range d.Questions {
		field := fmt.Sprintf("questions[%d]", i)
		if err := text(field+".question_id", q.ID, true); err != nil {
			return err
		}
		if err := text(field+".question", q.Question, true); err != nil {
			return err
		}
		if err := text(field+".answer", q.Answer, false); err != nil {
			return err
		}
		if err := auth.ValidAgentID(q.AgentScope); err != nil {
			return fmt.Errorf("%s.agent_scope: %w", field, err)
		}
		if q.PhaseAsked < 0 || q.PhaseAsked > MemoryStressMaxPhase {
			return fmt.Errorf("%s.phase_asked: %d, must be between 0 and %d", field, q.PhaseAsked, MemoryStressMaxPhase)
		}
		for j, id := range q.TargetFacts {
			if !facts[id] {
				return fmt.Errorf("%s.target_fact_ids[%d]: unknown fact %q", field, j, id)
			}
		}
	}
	return nil
}

func parseMemoryStressDate(s string) (time.Time, error) {
	for _, l := range memoryStressDateLayouts {
		if t, err := time.Parse(l, strings.TrimSpace(s)); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an ISO 8601 date-time (e.g. 2024-01-01T07:12:00)", truncateRunes(s, 40))
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// TurnID is the id a session's turn is published under: "<session>:<n>", n from 1.
func (s *MemoryStressSession) TurnID(i int) string { return fmt.Sprintf("%s:%d", s.ID, i+1) }

// At is the session's simulated date (UTC).
func (s *MemoryStressSession) At() time.Time { return s.at }

// EvidenceSessions returns the sessions that state what a question asks: for a question about a
// contradiction chain, the session of the chain's final version (where the current truth was said; an older
// version is not the answer); otherwise the sessions planting or mentioning its target facts.
func (d *MemoryStressData) EvidenceSessions(q *MemoryStressQuestion) []string {
	if q.TargetChain != nil {
		for _, c := range d.Chains {
			if c.ID == *q.TargetChain && len(c.Versions) > 0 {
				if s := c.Versions[len(c.Versions)-1].SessionID; s != "" {
					return []string{s}
				}
			}
		}
	}
	var out []string
	for _, f := range d.Facts {
		if slices.Contains(q.TargetFacts, f.ID) {
			if f.SessionPlanted != "" {
				out = append(out, f.SessionPlanted)
			}
			out = append(out, f.MentionSessions...)
		}
	}
	return sortedUnique(out)
}

// Phases returns the phases of the sessions and of the checkpoints, ascending.
func (d *MemoryStressData) Phases() []int {
	var ps []int
	for _, s := range d.Sessions {
		ps = append(ps, s.Phase)
	}
	for _, q := range d.Questions {
		ps = append(ps, q.PhaseAsked)
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// Agents returns the agents holding sessions and asking questions, sorted.
func (d *MemoryStressData) Agents() []string {
	var as []string
	for _, s := range d.Sessions {
		as = append(as, s.Agent)
	}
	for _, q := range d.Questions {
		as = append(as, q.AgentScope)
	}
	slices.Sort(as)
	return slices.Compact(as)
}
