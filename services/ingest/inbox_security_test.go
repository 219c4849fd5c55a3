package ingest

// Security tests of the NATS inbox: the agent of a message is the one its subject names (the subject an
// agent's NATS credential allows it), never one a header or an item sets, and the development-only subject
// form is refused outside development mode. Each refusal is a dead letter with its reason, and has no effect.

import (
	"context"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
)

func TestInboxAgentComesFromTheSubject(t *testing.T) {
	for _, dev := range []bool{true, false} {
		t.Run(map[bool]string{true: "development mode", false: "production mode"}[dev], func(t *testing.T) {
			e := newEnv(t, func(c *Config) { c.DevMode = dev })
			if !dev {
				if _, err := auth.CreateWorkspace(context.Background(), e.db, "acme", "admin"); err != nil {
					t.Fatal(err)
				}
			}
			e.runInbox()
			planner := func(kind string) string { return bus.InboxAgentSubject("acme", "planner.eu", kind) }
			// 1: a header naming another agent; 2: an item naming another agent (turns and claims); 5: good.
			e.publishInbox(planner(bus.InboxKindClaims), "scheduler", []byte(claims(goodClaim)))
			e.publishInbox(planner(bus.InboxKindTurns), "", []byte(turns(goodTurn, `{"agent_id":"scheduler","session_id":"s","role":"user","content":"as someone else"}`)))
			e.publishInbox(planner(bus.InboxKindClaims), "", []byte(claims(`{"agent_id":"scheduler","subject":"Bob","predicate":"likes","object":"tea"}`)))
			e.publishInbox(planner(bus.InboxKindClaims), "planner.eu", []byte(claims(`{"agent_id":"planner.eu","subject":"Carol","predicate":"likes","object":"tea"}`)))
			e.publishInbox(planner(bus.InboxKindTurns), "", []byte(turns(`{"turn_id":"t","session_id":"s","role":"user","content":"hello"}`)))

			eventually(t, "three dead letters and the good messages' events", func() bool {
				return e.streamCount(bus.StreamDLQ) == 3 && e.streamCount(bus.StreamTurns) == 1 && e.streamCount(bus.StreamProposed) == 1
			})
			eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })
			want := map[string]string{
				"1": `X-Mneme-Agent: names agent "scheduler", but the message was published as agent "planner.eu"`,
				"2": `turns[1].agent_id: agent_id "scheduler" differs from the agent of the inbox subject, "planner.eu"`,
				"3": `claims[0].agent_id: agent_id "scheduler" differs from the agent of the inbox subject, "planner.eu"`,
			}
			for _, m := range e.streamMsgs(bus.StreamDLQ) {
				seq := m.Header.Get(bus.HeaderDLQSequence)
				if reason := m.Header.Get(bus.HeaderDLQReason); !strings.Contains(reason, want[seq]) || want[seq] == "" {
					t.Errorf("dead letter of message %s: reason %q, want %q", seq, reason, want[seq])
				}
			}
			var c event.ClaimProposedV1
			if err := e.envelopes(bus.StreamProposed)[0].Into(event.TypeClaimProposed, &c); err != nil {
				t.Fatal(err)
			}
			var turn event.TurnAcceptedV1
			if err := e.envelopes(bus.StreamTurns)[0].Into(event.TypeTurnAccepted, &turn); err != nil {
				t.Fatal(err)
			}
			if c.Provenance.AgentID != "planner.eu" || c.SubjectKey != "carol" || turn.AgentID != "planner.eu" || turn.TurnID != "t" {
				t.Fatalf("claim by %q about %q, turn %q by %q", c.Provenance.AgentID, c.SubjectKey, turn.TurnID, turn.AgentID)
			}
		})
	}
}

func TestInboxUnboundSubjectOnlyInDevelopmentMode(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.DevMode = false })
	if _, err := auth.CreateWorkspace(context.Background(), e.db, "acme", "admin"); err != nil {
		t.Fatal(err)
	}
	e.runInbox()
	e.publishInbox(bus.InboxTurnsSubject("acme"), "alice", []byte(turns(goodTurn)))
	e.publishInbox(bus.InboxClaimsSubject("acme"), "", []byte(claims(`{"agent_id":"alice","subject":"Bob","predicate":"likes","object":"tea"}`)))
	eventually(t, "two dead letters", func() bool { return e.streamCount(bus.StreamDLQ) == 2 })
	eventually(t, "the inbox to drain", func() bool { return e.streamCount(bus.StreamInbox) == 0 })
	for _, m := range e.streamMsgs(bus.StreamDLQ) {
		if reason := m.Header.Get(bus.HeaderDLQReason); !strings.Contains(reason, "names no agent: outside development mode agents publish to mneme.inbox.acme.<agent>.") {
			t.Errorf("reason %q", reason)
		}
	}
	if n := e.streamCount(bus.StreamTurns) + e.streamCount(bus.StreamProposed); n != 0 {
		t.Fatalf("%d events from unbound messages", n)
	}
}
