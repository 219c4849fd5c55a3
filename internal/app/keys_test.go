package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/pgtest"
)

// The key commands: a key is printed once at issue with its id, role, binding and expiry; listings show ids and
// states but never a key; revocation by id takes effect; the audit log prints who did what, never a key.
func TestKeyCommands(t *testing.T) {
	baseEnv(t)
	t.Setenv("MNEME_DATABASE_URL", pgtest.URL(t))
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var out bytes.Buffer
	if err := app.CreateWorkspace(ctx, cfg, "acme", &out); err != nil {
		t.Fatal(err)
	}
	adminKey := field(t, out.String(), "key: ")
	out.Reset()
	expires := time.Now().Add(48 * time.Hour).UTC().Truncate(time.Second)
	if err := app.IssueKeyFor(ctx, cfg, app.KeyRequest{Workspace: "acme", Agent: "planner", Expires: &expires}, &out); err != nil {
		t.Fatal(err)
	}
	agentKey, agentID := field(t, out.String(), "key: "), strings.Fields(field(t, out.String(), "key id: "))[0]
	if !strings.Contains(out.String(), "role agent, agent planner, expires "+expires.Format(time.RFC3339)) {
		t.Fatalf("issue output %q does not describe the key", out.String())
	}
	out.Reset()
	if err := app.IssueKeyFor(ctx, cfg, app.KeyRequest{Workspace: "acme", Role: "curator"}, &out); err != nil {
		t.Fatal(err)
	}
	if err := app.IssueKeyFor(ctx, cfg, app.KeyRequest{Workspace: "acme", Role: "root"}, &out); err == nil {
		t.Fatal("a key with an unknown role was issued")
	}
	if err := app.IssueKeyFor(ctx, cfg, app.KeyRequest{Workspace: "acme", Role: "agent"}, &out); err == nil {
		t.Fatal("an agent key without an agent was issued")
	}

	out.Reset()
	if err := app.RevokeKey(ctx, cfg, agentID, &out); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := app.ListKeys(ctx, cfg, "acme", &out); err != nil {
		t.Fatal(err)
	}
	list := out.String()
	if strings.Contains(list, adminKey) || strings.Contains(list, agentKey) {
		t.Fatalf("the listing prints a key:\n%s", list)
	}
	lines := strings.Split(strings.TrimSpace(list), "\n")
	if len(lines) != 4 {
		t.Fatalf("listing:\n%s", list)
	}
	for i, want := range [][]string{{"admin", "*", "never", "active"}, {agentID, "planner", "agent", "revoked"}, {"curator", "*", "active"}} {
		for _, w := range want {
			if !strings.Contains(lines[i+1], w) {
				t.Errorf("listing line %q lacks %q", lines[i+1], w)
			}
		}
	}

	out.Reset()
	if err := app.AuditLog(ctx, cfg, "acme", 100, &out); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), adminKey) || strings.Contains(out.String(), agentKey) {
		t.Fatal("the audit log prints a key")
	}
	var actions []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var e struct {
			Action string `json:"action"`
			Actor  string `json:"actor"`
		}
		if err := json.Unmarshal([]byte(l), &e); err != nil {
			t.Fatalf("audit line %q: %v", l, err)
		}
		actions = append(actions, e.Action+"/"+e.Actor)
	}
	want := "workspace.created/cli key.issued/cli key.issued/cli key.issued/cli key.revoked/cli"
	if strings.Join(actions, " ") != want {
		t.Fatalf("audit actions %v, want %s", actions, want)
	}
}

func field(t *testing.T, out, prefix string) string {
	t.Helper()
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no %q in %q", prefix, out)
	return ""
}
