package e2e

import (
	"math"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
)

// The multi-agent rules of the design, through the HTTP API of the whole system in production mode (every
// agent acts with its own agent-bound key):
//   - an agent reads its private claims plus the shared tier; private wins ties unless the shared claim is
//     newer and corroborated;
//   - a claim asserted independently by several agents gains corroboration, once per agent.
//
// Expected values are worked out by hand from those two sentences, case by case.

// agentSet is a production system with one workspace and a key per agent.
type agentSet struct {
	p    *prod
	ws   string
	keys map[string]string
}

func newAgentSet(t *testing.T, ws string, agents ...string) *agentSet {
	p := startProd(t, nil)
	p.workspace(ws)
	s := &agentSet{p: p, ws: ws, keys: map[string]string{}}
	for _, a := range agents {
		s.keys[a] = p.agentKey(ws, a)
	}
	return s
}

// assert writes a structured claim as agent and waits until it is reconciled; it returns the claim id.
func (s *agentSet) assert(agent string, c api.ClaimInput) string {
	s.p.t.Helper()
	id := s.p.claim(s.ws, agent, s.keys[agent], c)
	s.p.visible(s.ws, agent, s.keys[agent], id)
	return id
}

func (s *agentSet) subject(agent, key string) api.SubjectResponse {
	s.p.t.Helper()
	r := s.p.do("GET", "/v1/workspaces/"+s.ws+"/subjects/"+url.PathEscape(key), agent, s.keys[agent], nil)
	if r.code != http.StatusOK {
		s.p.t.Fatalf("subject %s as %s: %s", key, agent, r)
	}
	var sr api.SubjectResponse
	r.decode(s.p.t, &sr)
	return sr
}

func (s *agentSet) search(agent, query string) api.SearchResponse {
	s.p.t.Helper()
	return s.p.search(s.ws, agent, s.keys[agent], map[string]any{"query": query, "token_budget": 2000})
}

// current returns the objects of the current values of subject key as agent reads them.
func (s *agentSet) current(agent, key string) []string {
	s.p.t.Helper()
	var out []string
	for _, c := range s.subject(agent, key).Current {
		out = append(out, c.Object)
	}
	return out
}

func conf(x float64) *float64 { return &x }

func TestMultiAgentTierPrecedence(t *testing.T) {
	s := newAgentSet(t, "fleet", "agent-a", "agent-b", "agent-c")
	fn := fnBool(true)
	site := func(subject, object, scope, valid string, confidence float64, source string) api.ClaimInput {
		return api.ClaimInput{Subject: subject, Predicate: "launch site", Object: object, Functional: fn, Scope: scope,
			ValidFrom: date(valid), Confidence: conf(confidence), Source: source}
	}
	// Every case: agent-a holds a private value first; the shared tier is written after it (so the shared
	// claims are always later in transaction time: only valid time may make them newer).
	s.assert("agent-a", site("Kestrel Tie", "Lisbon", "private", "2025-03-01", 1, ""))
	s.assert("agent-a", site("Kestrel Solo", "Lisbon", "private", "2025-03-01", 1, ""))
	s.assert("agent-a", site("Kestrel Pair", "Lisbon", "private", "2025-03-01", 1, ""))
	s.assert("agent-a", site("Kestrel Hidden", "Lisbon", "private", "2025-03-01", 1, ""))

	// Same valid time, corroborated by two agents: a tie, the private claim wins.
	s.assert("agent-b", site("Kestrel Tie", "Porto", "shared", "2025-03-01", 1, ""))
	s.assert("agent-c", site("Kestrel Tie", "Porto", "shared", "2025-03-01", 1, ""))
	// Newer but asserted by one agent only — twice, from two sources of its own, which is still one agent.
	s.assert("agent-b", site("Kestrel Solo", "Porto", "shared", "2025-03-05", 1, "memo-1"))
	s.assert("agent-b", site("Kestrel Solo", "Porto", "shared", "2025-03-06", 1, "memo-2"))
	// Newer and corroborated by two agents: the shared claim wins.
	s.assert("agent-b", site("Kestrel Pair", "Porto", "shared", "2025-03-05", 0.6, ""))
	s.assert("agent-c", site("Kestrel Pair", "Porto", "shared", "2025-03-05", 0.7, ""))
	// Another agent's private claim, newer than everything: never visible to agent-a.
	hidden := s.assert("agent-b", site("Kestrel Hidden", "Faro", "private", "2025-04-01", 1, ""))

	cases := []struct {
		name, agent, subject string
		want                 string
	}{
		{"tie: private wins over a corroborated shared claim of the same valid time", "agent-a", "kestrel_tie", "Lisbon"},
		{"tie: an agent without a private claim reads the shared tier", "agent-b", "kestrel_tie", "Porto"},
		{"shared newer but one agent: private wins", "agent-a", "kestrel_solo", "Lisbon"},
		{"shared newer and corroborated: shared wins", "agent-a", "kestrel_pair", "Porto"},
		{"agent-c has no private claim: the shared value", "agent-c", "kestrel_pair", "Porto"},
		{"another agent's private claim is invisible", "agent-a", "kestrel_hidden", "Lisbon"},
		{"its owner reads its own private claim", "agent-b", "kestrel_hidden", "Faro"},
		{"a third agent sees neither private claim", "agent-c", "kestrel_hidden", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.want == "" {
				r := s.p.do("GET", "/v1/workspaces/fleet/subjects/"+c.subject, c.agent, s.keys[c.agent], nil)
				if r.code != http.StatusNotFound {
					t.Fatalf("%s reads %s: %s, want 404 (no claim it may see)", c.agent, c.subject, r)
				}
				return
			}
			got := s.current(c.agent, c.subject)
			if len(got) != 1 || got[0] != c.want {
				t.Fatalf("%s reads %s as %v, want [%s]", c.agent, c.subject, got, c.want)
			}
			// Search resolves the slot by the same rule and shows only the winner of a single-valued slot.
			name := strings.ReplaceAll(c.subject, "_", " ")
			sr := s.search(c.agent, "What is the launch site of "+name+"?")
			if v := currentObject(sr, c.subject); v != c.want {
				t.Fatalf("search as %s: %s current %q, want %s\n%s", c.agent, c.subject, v, c.want, sr.Context)
			}
		})
	}
	// agent-a never receives agent-b's private claim, from any read.
	for _, rd := range []struct{ method, path string }{
		{"GET", "/v1/workspaces/fleet/subjects/kestrel_hidden"},
		{"GET", "/v1/workspaces/fleet/claims/" + hidden},
	} {
		r := s.p.do(rd.method, rd.path, "agent-a", s.keys["agent-a"], nil)
		if strings.Contains(string(r.body), "Faro") || strings.Contains(string(r.body), hidden) && r.code == http.StatusOK {
			t.Fatalf("%s %s shows agent-b's private claim to agent-a: %s", rd.method, rd.path, r)
		}
	}
	for _, q := range []string{"Kestrel Hidden launch site", "Faro"} {
		if sr := s.search("agent-a", q); strings.Contains(sr.Context, "Faro") || hasClaim(sr, hidden) {
			t.Fatalf("search %q shows agent-b's private claim to agent-a:\n%s", q, sr.Context)
		}
	}
}

// currentObject is the object of the first claim of subject in a search response that is not a former value.
func currentObject(sr api.SearchResponse, subject string) string {
	for _, c := range sr.Claims {
		if c.SubjectKey == subject && (c.Status == "active" || c.Status == "disputed") {
			return c.Object
		}
	}
	return ""
}

func hasClaim(sr api.SearchResponse, id string) bool {
	for _, c := range sr.Claims {
		if c.ID == id {
			return true
		}
	}
	return false
}

func TestMultiAgentCorroboration(t *testing.T) {
	s := newAgentSet(t, "guild", "agent-a", "agent-b", "agent-c", "agent-d")
	fn := fnBool(true)
	hq := func(subject, valid string, confidence float64, source string) api.ClaimInput {
		return api.ClaimInput{Subject: subject, Predicate: "headquarters", Object: "Tallinn", Functional: fn,
			ValidFrom: date(valid), Confidence: conf(confidence), Source: source}
	}
	// Three agents assert Osprey's headquarters independently; agent-a says it three times (two source
	// references and a later restatement). Expected: three agents, not five sources.
	s.assert("agent-a", hq("Osprey Works", "2025-01-10", 0.5, "doc-1"))
	s.assert("agent-a", hq("Osprey Works", "2025-01-10", 0.5, "doc-2"))
	s.assert("agent-b", hq("Osprey Works", "2025-01-12", 0.5, ""))
	s.assert("agent-c", hq("Osprey Works", "2025-01-15", 0.5, ""))
	s.assert("agent-a", hq("Osprey Works", "2025-01-20", 0.5, "doc-3"))
	// agent-d repeats itself on another subject: one agent, never corroborated.
	s.assert("agent-d", hq("Heron Labs", "2025-01-10", 0.5, "note-1"))
	s.assert("agent-d", hq("Heron Labs", "2025-01-11", 0.5, "note-2"))
	s.assert("agent-d", hq("Heron Labs", "2025-01-12", 0.5, "note-3"))

	// Three agents each with confidence 0.5: noisy-OR 1 − 0.5³ = 0.875; one agent alone keeps its 0.5.
	cases := []struct {
		subject   string
		agents    int
		support   float64
		marker    bool
		corrobLbl string
	}{
		{"osprey_works", 3, 0.875, true, "corroborated by 3 agents"},
		{"heron_labs", 1, 0.5, false, ""},
	}
	for _, c := range cases {
		t.Run(c.subject, func(t *testing.T) {
			for _, reader := range []string{"agent-a", "agent-d"} {
				sr := s.search(reader, strings.ReplaceAll(c.subject, "_", " ")+" headquarters")
				var got *api.Claim
				for i := range sr.Claims {
					if sr.Claims[i].SubjectKey == c.subject && sr.Claims[i].Status == "active" {
						got = &sr.Claims[i]
						break
					}
				}
				if got == nil {
					t.Fatalf("search as %s: no active claim of %s\n%s", reader, c.subject, sr.Context)
				}
				if got.Corroborations != c.agents || got.Corroborated != (c.agents >= 2) {
					t.Fatalf("search as %s: corroborations %d corroborated %v, want %d agents", reader, got.Corroborations, got.Corroborated, c.agents)
				}
				if math.Abs(got.SupportConfidence-c.support) > 1e-6 || got.Confidence != 0.5 {
					t.Fatalf("search as %s: confidence %v support %v, want 0.5 and %v", reader, got.Confidence, got.SupportConfidence, c.support)
				}
				line := lineOf(sr.Context, "Tallinn")
				if c.marker != strings.Contains(line, "corroborated by") || (c.marker && !strings.Contains(line, c.corrobLbl)) {
					t.Fatalf("search as %s: context line %q, want %q", reader, line, c.corrobLbl)
				}
			}
			// The timeline shows it on every belief version of the slot's claims, and on the current value.
			sub := s.subject("agent-b", c.subject)
			if len(sub.Current) != 1 || sub.Current[0].Corroborations != c.agents {
				t.Fatalf("subject %s current: %+v, want one claim of %d agents", c.subject, sub.Current, c.agents)
			}
			n := 0
			for _, sl := range sub.Slots {
				for _, e := range sl.Timeline {
					n++
					if e.Corroborations != c.agents || e.Corroborated != (c.agents >= 2) {
						t.Fatalf("timeline %s: %s v%d corroborations %d, want %d", c.subject, e.ClaimID, e.Version, e.Corroborations, c.agents)
					}
				}
			}
			if n == 0 {
				t.Fatalf("subject %s has no timeline", c.subject)
			}
		})
	}
	// Before the other agents wrote, known_at shows agent-a's claims as uncorroborated: transaction time
	// applies to corroboration too.
	first := s.subject("agent-b", "osprey_works")
	var earliest *api.TimelineEntry
	for i, e := range first.Slots[0].Timeline {
		if earliest == nil || e.RecordedAt.Before(earliest.RecordedAt) {
			earliest = &first.Slots[0].Timeline[i]
		}
	}
	r := s.p.do("GET", "/v1/workspaces/guild/subjects/osprey_works?known_at="+url.QueryEscape(earliest.RecordedAt.Format(time.RFC3339Nano)), "agent-b", s.keys["agent-b"], nil)
	var then api.SubjectResponse
	r.decode(t, &then)
	for _, sl := range then.Slots {
		for _, e := range sl.Timeline {
			if e.Corroborations != 1 || e.Corroborated {
				t.Fatalf("at known_at %s, when only agent-a had written: %s has %d agents", earliest.RecordedAt, e.ClaimID, e.Corroborations)
			}
		}
	}
}

// lineOf returns the first line of a context containing s.
func lineOf(context, s string) string {
	for _, l := range strings.Split(context, "\n") {
		if strings.Contains(l, s) {
			return l
		}
	}
	return ""
}
