package reconciler

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
)

// TestErasureMatchesDeadLettersByTheirSubject: a dead letter of an inbox message belongs to the workspace and
// agent of its original subject even when its body is cut short (a message too large to copy whole) or is not
// JSON, and in the credential-bound subject form the agent is the subject's, not a header's.
func TestErasureMatchesDeadLettersByTheirSubject(t *testing.T) {
	truncated := bus.DeadLetterMsg("ingest", bus.InboxAgentSubject("acme", "planner.eu", bus.InboxKindTurns),
		[]byte(`{"turns":[{"session_id":"s","role":"user","content":"`+strings.Repeat("x", bus.DeadLetterFullBodyBytes)+`"}]}`), nil, nil, "too long")
	garbage := bus.DeadLetterMsg("ingest", bus.InboxAgentSubject("acme", "planner.eu", bus.InboxKindClaims), []byte("{not json"), nil, nil, "not JSON")
	legacy := bus.DeadLetterMsg("ingest", bus.InboxTurnsSubject("acme"), []byte("{not json"), map[string][]string{bus.HeaderAgent: {"scheduler"}}, nil, "not JSON")
	for _, tt := range []struct {
		name   string
		target erasureTarget
		want   map[string]bool // by dead letter
	}{
		{"workspace", erasureTarget{ws: "acme", kind: api.EraseWorkspace}, map[string]bool{"truncated": true, "garbage": true, "legacy": true}},
		{"other workspace", erasureTarget{ws: "other", kind: api.EraseWorkspace}, map[string]bool{}},
		{"agent of the subject", erasureTarget{ws: "acme", kind: api.EraseAgent, target: "planner.eu"}, map[string]bool{"truncated": true, "garbage": true}},
		{"agent of the header (development form)", erasureTarget{ws: "acme", kind: api.EraseAgent, target: "scheduler"}, map[string]bool{"legacy": true}},
		{"same agent, other workspace", erasureTarget{ws: "other", kind: api.EraseAgent, target: "planner.eu"}, map[string]bool{}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for name, dl := range map[string]struct {
				data []byte
				hdr  map[string][]string
			}{"truncated": {truncated.Data, truncated.Header}, "garbage": {garbage.Data, garbage.Header}, "legacy": {legacy.Data, legacy.Header}} {
				if got := tt.target.matches(dl.data, dl.hdr, nil, nil); got != tt.want[name] {
					t.Errorf("%s: matches = %v, want %v", name, got, tt.want[name])
				}
			}
		})
	}
}
