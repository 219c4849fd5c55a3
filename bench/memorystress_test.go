package bench

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

func TestLoadMemoryStressTiny(t *testing.T) {
	d, err := LoadMemoryStress("testdata/memorystress_tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sessions) != 4 || len(d.Questions) != 4 || len(d.Facts) != 4 || len(d.Chains) != 1 {
		t.Fatalf("sessions %d questions %d facts %d chains %d, want 4 4 4 1", len(d.Sessions), len(d.Questions), len(d.Facts), len(d.Chains))
	}
	if got := d.Sessions[2].At(); !got.Equal(time.Date(2024, 2, 1, 14, 0, 0, 500_000_000, time.UTC)) {
		t.Fatalf("S0003 date %s", got)
	}
	if got := d.Sessions[0].TurnID(1); got != "S0001:2" {
		t.Fatalf("turn id %q", got)
	}
	if got := strings.Join(d.Agents(), ","); got != "agent_a,agent_b" {
		t.Fatalf("agents %s", got)
	}
	if got := d.Phases(); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Fatalf("phases %v", got)
	}
	cases := []struct {
		q    int
		want string
	}{
		{0, "S0001"}, // planted in S0001
		{2, "S0003"}, // a chain's truth is its last version's session, not the planting one
		{3, "S0004"},
	}
	for _, c := range cases {
		if got := strings.Join(d.EvidenceSessions(&d.Questions[c.q]), ","); got != c.want {
			t.Errorf("%s: evidence %s, want %s", d.Questions[c.q].ID, got, c.want)
		}
	}
	if q := d.Questions[3]; q.AgentScope != "agent_b" || !q.ColdStart {
		t.Fatalf("Q004: agent_scope %q cold_start %v", q.AgentScope, q.ColdStart)
	}
}

// Bad input gets an error naming the field and the rule or limit.
func TestDecodeMemoryStressErrors(t *testing.T) {
	base, err := os.ReadFile("testdata/memorystress_tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) string {
		var m map[string]any
		if err := json.Unmarshal(base, &m); err != nil {
			t.Fatal(err)
		}
		f(m)
		b, _ := json.Marshal(m)
		return string(b)
	}
	session := func(m map[string]any, i int) map[string]any { return m["sessions"].([]any)[i].(map[string]any) }
	question := func(m map[string]any, i int) map[string]any { return m["questions"].([]any)[i].(map[string]any) }
	cases := []struct{ name, doc, want string }{
		{"not json", "{", "not a MemoryStress JSON document"},
		{"trailing data", string(base) + "{}", "data after the JSON document"},
		{"no sessions", `{"sessions": []}`, "sessions: none"},
		{"bad agent", edit(func(m map[string]any) { session(m, 1)["agent_id"] = "agent b" }), "sessions[1].agent_id: agent id has a character"},
		{"empty agent scope", edit(func(m map[string]any) { question(m, 2)["agent_scope"] = "" }), "questions[2].agent_scope: agent id is empty"},
		{"bad date", edit(func(m map[string]any) { session(m, 0)["simulated_date"] = "yesterday" }), "sessions[0].simulated_date: \"yesterday\" is not an ISO 8601"},
		{"bad role", edit(func(m map[string]any) {
			session(m, 2)["turns"].([]any)[1].(map[string]any)["role"] = "narrator"
		}), "sessions[2].turns[1].role: \"narrator\", must be user, assistant, system or tool"},
		{"duplicate session", edit(func(m map[string]any) { session(m, 3)["session_id"] = "S0001" }), "sessions[3].session_id: \"S0001\" appears twice"},
		{"unknown fact", edit(func(m map[string]any) { question(m, 0)["target_fact_ids"] = []any{"F999"} }), "questions[0].target_fact_ids[0]: unknown fact \"F999\""},
		{"phase", edit(func(m map[string]any) { question(m, 1)["phase_asked"] = 1000 }), "questions[1].phase_asked: 1000, must be between 0 and 100"},
		{"NUL", edit(func(m map[string]any) { question(m, 1)["question"] = "where\x00" }), "questions[1].question: contains NUL"},
		{"empty question", edit(func(m map[string]any) { question(m, 1)["question"] = " " }), "questions[1].question: empty"},
		{"wrong type", edit(func(m map[string]any) { question(m, 1)["cold_start"] = "yes" }), "not a MemoryStress JSON document"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeMemoryStress(strings.NewReader(c.doc))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %v, want one containing %q", err, c.want)
			}
		})
	}
	big := bytes.Repeat([]byte(" "), MemoryStressMaxBytes+1)
	if _, err := DecodeMemoryStress(bytes.NewReader(big)); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("oversized file: %v", err)
	}
}

// FuzzDecodeMemoryStress: any input is either refused with an error or decodes into data that satisfies the
// loader's invariants (valid agents, parsed dates, known fact references) and survives a round trip.
func FuzzDecodeMemoryStress(f *testing.F) {
	if b, err := os.ReadFile("testdata/memorystress_tiny.json"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(`{"sessions":[{"session_id":"s","agent_id":"a","simulated_date":"2024-01-01","turns":[{"role":"user","content":"hi"}]}],"questions":[{"question_id":"q","question":"?","agent_scope":"a"}]}`))
	f.Add([]byte(`{"sessions":[{"session_id":"s","agent_id":"","simulated_date":"x"}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		d, err := DecodeMemoryStress(bytes.NewReader(b))
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error")
			}
			return
		}
		for _, s := range d.Sessions {
			if s.At().IsZero() && !strings.HasPrefix(strings.TrimSpace(s.Date), "0001-01-01") {
				t.Fatalf("session %q accepted without a parsed date (%q)", s.ID, s.Date)
			}
		}
		for _, q := range d.Questions {
			_ = d.EvidenceSessions(&q)
		}
		again, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := DecodeMemoryStress(bytes.NewReader(again)); err != nil {
			t.Fatalf("re-encoded data refused: %v", err)
		}
	})
}
