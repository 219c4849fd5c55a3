package bus_test

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/bus"
)

func TestAgentToken(t *testing.T) {
	for agent, tok := range map[string]string{
		"planner":          "planner",
		"planner.eu":       "planner%2Eeu",
		"a..b.":            "a%2E%2Eb%2E",
		"bot@host:8080-x_": "bot@host:8080-x_",
	} {
		if got := bus.AgentToken(agent); got != tok {
			t.Errorf("AgentToken(%q) = %q, want %q", agent, got, tok)
		}
		if got, err := bus.ParseAgentToken(tok); err != nil || got != agent {
			t.Errorf("ParseAgentToken(%q) = %q, %v", tok, got, err)
		}
	}
	for _, bad := range []string{"", "a%2eb", "a%41", "a%", "a%2E%", "a*", "a>"} {
		if got, err := bus.ParseAgentToken(bad); err == nil {
			t.Errorf("ParseAgentToken(%q) = %q, want an error", bad, got)
		}
	}
}

// FuzzParseInboxSubject: whatever subject arrives, a parsed credential-bound subject is the one its agent's
// credential allows (InboxAgentSubject gives it back), so two subjects never name the same agent.
func FuzzParseInboxSubject(f *testing.F) {
	for _, s := range []string{"mneme.inbox.acme.turns", "mneme.inbox.acme.planner%2Eeu.claims", "mneme.inbox.acme.a.b.turns",
		"mneme.inbox..turns", "mneme.inbox.acme.%2E.turns", "mneme.inbox.acme.x%2e.turns"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, subject string) {
		in, err := bus.ParseInboxSubject(subject)
		if err != nil {
			return
		}
		if in.Kind != bus.InboxKindTurns && in.Kind != bus.InboxKindClaims {
			t.Fatalf("kind %q", in.Kind)
		}
		if in.Bound() {
			if again := bus.InboxAgentSubject(in.Workspace, in.Agent, in.Kind); again != subject {
				t.Fatalf("%q parsed as agent %q, whose subject is %q", subject, in.Agent, again)
			}
		} else if subject != "mneme.inbox."+in.Workspace+"."+in.Kind {
			t.Fatalf("%q parsed as %+v", subject, in)
		}
	})
}
