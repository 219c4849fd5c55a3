package ingest

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
)

func TestHTTPTurnsAcceptedOnceDurable(t *testing.T) {
	e := newEnv(t, nil)
	body := turns(
		`{"turn_id":"chat-1:1","session_id":"chat-1","role":"user","speaker":"Alice","content":"I moved to Berlin.","occurred_at":"2026-03-01T10:00:00Z"}`,
		`{"session_id":"chat-1","role":"assistant","content":"Noted."}`,
	)
	var resp api.AcceptedResponse
	if code := e.post("/v1/workspaces/acme/turns", "alice", body, &resp); code != http.StatusAccepted {
		t.Fatalf("status %d: %+v", code, resp)
	}
	if resp.Workspace != "acme" || len(resp.IDs) != 2 || resp.IDs[0] != "chat-1:1" || len(resp.Duplicates) != 0 {
		t.Fatalf("response %+v", resp)
	}
	// 202 means durable: the events are in the stream when the response arrives, no waiting needed.
	envs := e.envelopes(bus.StreamTurns)
	if len(envs) != 2 {
		t.Fatalf("%d events on %s, want 2", len(envs), bus.StreamTurns)
	}
	var turn event.TurnAcceptedV1
	if err := envs[0].Into(event.TypeTurnAccepted, &turn); err != nil {
		t.Fatal(err)
	}
	if turn.TurnID != "chat-1:1" || turn.AgentID != "alice" || turn.Content != "I moved to Berlin." || turn.Workspace != "acme" {
		t.Fatalf("turn %+v", turn)
	}
	if msgs := e.streamMsgs(bus.StreamTurns); msgs[0].Subject != "mneme.turns.acme" {
		t.Fatalf("subject %q", msgs[0].Subject)
	}
	// Development mode: the first write created the workspace.
	var by string
	if err := e.db.QueryRow(context.Background(), `SELECT created_by FROM workspaces WHERE id = 'acme'`).Scan(&by); err != nil || by != "alice" {
		t.Fatalf("workspace row: %q %v", by, err)
	}

	// The same turn again: one effect, reported as a duplicate.
	var again api.AcceptedResponse
	if code := e.post("/v1/workspaces/acme/turns", "alice", turns(`{"turn_id":"chat-1:1","session_id":"chat-1","role":"user","content":"I moved to Berlin."}`), &again); code != http.StatusAccepted {
		t.Fatalf("status %d", code)
	}
	if !slices.Equal(again.Duplicates, []string{"chat-1:1"}) {
		t.Fatalf("duplicates %v, want [chat-1:1]", again.Duplicates)
	}
	if n := e.streamCount(bus.StreamTurns); n != 2 {
		t.Fatalf("%d events after a duplicate, want 2", n)
	}
	// The same turn id from another agent is another turn.
	if code := e.post("/v1/workspaces/acme/turns", "bob", turns(`{"turn_id":"chat-1:1","session_id":"chat-1","role":"user","content":"x"}`), nil); code != http.StatusAccepted {
		t.Fatalf("status %d", code)
	}
	if n := e.streamCount(bus.StreamTurns); n != 3 {
		t.Fatalf("%d events, want 3", n)
	}
	st := e.svc.Stats()
	if st.Accepted != 3 || st.Duplicates != 1 {
		t.Fatalf("stats %+v", st)
	}
}

func TestHTTPClaimsToProposedStream(t *testing.T) {
	e := newEnv(t, nil)
	body := claims(
		`{"claim_id":"apollo-1","subject":"Project Apollo","predicate":"deadline","object":"2026-06-30","valid_from":"2026-03-01T11:00:00Z","source":"jira:APOLLO-7"}`,
		`{"subject":"Alice","predicate":"lives in","object":"Berlin","valid_from":"2026-03-01T11:00:00Z"}`,
	)
	var resp api.AcceptedResponse
	if code := e.post("/v1/workspaces/acme/claims", "pm-bot", body, &resp); code != http.StatusAccepted {
		t.Fatalf("status %d", code)
	}
	envs := e.envelopes(bus.StreamProposed)
	if len(envs) != 2 || len(resp.IDs) != 2 {
		t.Fatalf("%d events, response %+v", len(envs), resp)
	}
	for i, env := range envs {
		var c event.ClaimProposedV1
		if err := env.Into(event.TypeClaimProposed, &c); err != nil {
			t.Fatal(err)
		}
		if c.ClaimID != resp.IDs[i] || c.Provenance.Extractor != "structured" || c.Provenance.AgentID != "pm-bot" {
			t.Fatalf("claim %d: %+v (ids %v)", i, c, resp.IDs)
		}
	}
	// Publishing the same batch again has one effect.
	var again api.AcceptedResponse
	if code := e.post("/v1/workspaces/acme/claims", "pm-bot", body, &again); code != http.StatusAccepted {
		t.Fatalf("status %d", code)
	}
	if !slices.Equal(again.IDs, resp.IDs) || !slices.Equal(again.Duplicates, resp.IDs) || e.streamCount(bus.StreamProposed) != 2 {
		t.Fatalf("second publish %+v, %d events", again, e.streamCount(bus.StreamProposed))
	}
}

func TestHTTPErrors(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.MaxBodyBytes = 4096 })
	for _, tt := range []struct {
		name, path, agent, body string
		status                  int
		field, limit            string
	}{
		{"no agent", "/v1/workspaces/acme/turns", "", turns(goodTurn), 401, api.HeaderAgent, ""},
		{"bad agent", "/v1/workspaces/acme/turns", "a b", turns(goodTurn), 401, api.HeaderAgent, ""},
		{"bad workspace", "/v1/workspaces/ACME/turns", "alice", turns(goodTurn), 400, "workspace", ""},
		{"body too large", "/v1/workspaces/acme/turns", "alice", turns(`{"session_id":"s","role":"user","content":"` + strings.Repeat("x", 5000) + `"}`), 413, "", "4096 bytes"},
		{"bad field", "/v1/workspaces/acme/claims", "alice", claims(goodClaim, `{"subject":"a","predicate":"p","object":"o","confidence":2}`), 400, "claims[1].confidence", ""},
		{"unknown field", "/v1/workspaces/acme/turns", "alice", turns(`{"session_id":"s","role":"user","content":"x","contnet":"y"}`), 400, "turns[0].contnet", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var body api.Error
			if code := e.post(tt.path, tt.agent, tt.body, &body); code != tt.status {
				t.Fatalf("status %d, want %d: %+v", code, tt.status, body)
			}
			if body.Error.Field != tt.field || body.Error.Limit != tt.limit || body.Error.Message == "" {
				t.Fatalf("error %+v, want field %q limit %q", body.Error, tt.field, tt.limit)
			}
		})
	}
	// No rejected write created the workspace or published anything.
	var n int
	if err := e.db.QueryRow(context.Background(), `SELECT count(*) FROM workspaces`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d workspaces after rejected writes (%v)", n, err)
	}
	if e.streamCount(bus.StreamTurns)+e.streamCount(bus.StreamProposed) != 0 {
		t.Fatal("a rejected write published events")
	}
	if e.svc.Stats().Rejected != 6 {
		t.Fatalf("stats %+v", e.svc.Stats())
	}
}

func TestHTTPKeysOutsideDevMode(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.DevMode = false })
	key, err := auth.CreateWorkspace(context.Background(), e.db, "acme", "admin")
	if err != nil {
		t.Fatal(err)
	}
	post := func(ws, key string) int {
		req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/v1/workspaces/"+ws+"/turns", strings.NewReader(turns(goodTurn)))
		req.Header.Set(api.HeaderAgent, "alice")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if code := post("acme", ""); code != http.StatusUnauthorized {
		t.Fatalf("no key: %d", code)
	}
	if code := post("acme", "mnk_wrong"); code != http.StatusUnauthorized {
		t.Fatalf("wrong key: %d", code)
	}
	// Another workspace's answer, existing or not: a key learns nothing about workspaces it may not use.
	if code := post("ghost", key); code != http.StatusForbidden {
		t.Fatalf("unknown workspace: %d", code)
	}
	if code := post("acme", key); code != http.StatusAccepted {
		t.Fatalf("valid key: %d", code)
	}
	if n := e.streamCount(bus.StreamTurns); n != 1 {
		t.Fatalf("%d events", n)
	}
}

func TestHTTPUnavailableWhenNotDurable(t *testing.T) {
	e := newEnv(t, nil)
	// Without the turns stream nothing can acknowledge the publish.
	if err := e.js.DeleteStream(context.Background(), bus.StreamTurns); err != nil {
		t.Fatal(err)
	}
	var body api.Error
	if code := e.post("/v1/workspaces/acme/turns", "alice", turns(goodTurn), &body); code != http.StatusServiceUnavailable {
		t.Fatalf("status %d: %+v", code, body)
	}
	if body.Error.Code != api.CodeUnavailable {
		t.Fatalf("error %+v", body.Error)
	}
}
