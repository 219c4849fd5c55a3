package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/pgtest"
)

// TestNATSAdminCommands: init writes every service's credentials and the server configuration; agent-creds
// writes a private .creds bound to the agent's subjects; revoke-agent records the revocation even when no
// server is reachable, and then fails saying how to deliver it; list-agents shows what was issued and its
// state; issuing and revoking are in the audit log, and nothing is issued when the audit log is unreachable.
func TestNATSAdminCommands(t *testing.T) {
	baseEnv(t)
	t.Setenv("MNEME_NATS_URL", "nats://127.0.0.1:1")
	t.Setenv("MNEME_DATABASE_URL", pgtest.URL(t))
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "auth")
	run := func(args ...string) (string, string, error) {
		var out, errOut strings.Builder
		err := app.NATSCommand(context.Background(), cfg, args, &out, &errOut)
		return out.String(), errOut.String(), err
	}
	out, _, err := run("init", "-dir", dir, "-resolver-dir", "/data/jwt")
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range append(append([]string(nil), natsauth.ServiceUsers...), natsauth.UserSystem) {
		if !strings.Contains(out, filepath.Join(dir, "creds", u, "nats.creds")) {
			t.Errorf("init output does not name %s's credentials:\n%s", u, out)
		}
	}
	conf, err := os.ReadFile(filepath.Join(dir, "server", "auth.conf"))
	if err != nil || !strings.Contains(string(conf), `dir: "/data/jwt"`) {
		t.Fatalf("server config (%v):\n%s", err, conf)
	}

	credsFile := filepath.Join(t.TempDir(), "planner.creds")
	out, _, err = run("agent-creds", "-dir", dir, "-out", credsFile, "acme", "planner.eu")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "mneme.inbox.acme.planner%2Eeu.turns") || !strings.Contains(out, "_INBOX_U") {
		t.Errorf("agent-creds output:\n%s", out)
	}
	fi, err := os.Stat(credsFile)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("creds file %v %v", fi, err)
	}
	creds, err := natsauth.ReadCreds(credsFile)
	if err != nil {
		t.Fatal(err)
	}
	if got := []string(creds.Claims.Pub.Allow); len(got) != 2 || got[0] != "mneme.inbox.acme.planner%2Eeu.turns" || got[1] != "mneme.inbox.acme.planner%2Eeu.claims" {
		t.Fatalf("the credential may publish to %v", got)
	}
	stdout, stderr, err := run("agent-creds", "-dir", dir, "acme", "scheduler")
	if err != nil || !strings.HasPrefix(stdout, "-----BEGIN NATS USER JWT-----") || !strings.Contains(stderr, "scheduler") {
		t.Fatalf("agent-creds to stdout: %v\n%s\n%s", err, stdout, stderr)
	}
	if _, _, err := run("agent-creds", "-dir", dir, "acme", "no spaces"); err == nil {
		t.Fatal("issued a credential for an invalid agent id")
	}

	_, _, err = run("revoke-agent", "-dir", dir, "acme", "planner.eu")
	if err == nil || !strings.Contains(err.Error(), "the revocation is recorded") || !strings.Contains(err.Error(), "mneme nats push") {
		t.Fatalf("revoke-agent without a server: %v", err)
	}
	s, err := natsauth.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	agents, err := jwt.DecodeAccountClaims(s.AccountJWT(natsauth.AccountAgents))
	if err != nil {
		t.Fatal(err)
	}
	if !agents.IsClaimRevoked(creds.Claims) {
		t.Fatal("the account does not revoke the agent's credential")
	}
	if !strings.Contains(string(mustRead(t, filepath.Join(dir, "server", "auth.conf"))), s.AccountJWT(natsauth.AccountAgents)) {
		t.Fatal("the server configuration does not preload the account with the revocation")
	}
	if _, _, err := run("revoke-agent", "-dir", dir, "acme", "nobody"); err == nil || !strings.Contains(err.Error(), "no NATS credential was issued") {
		t.Fatalf("revoking an agent without credentials: %v", err)
	}
	if _, _, err := run("frobnicate"); err == nil {
		t.Fatal("unknown subcommand accepted")
	}

	// A credential that expired, in another workspace.
	if _, _, err := run("agent-creds", "-dir", dir, "-expires", "1s", "-out", filepath.Join(t.TempDir(), "x.creds"), "beta", "ephemeral"); err != nil {
		t.Fatal(err)
	}
	s, err = natsauth.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	issued, err := s.ListAgents("")
	if err != nil {
		t.Fatal(err)
	}
	if len(issued) != 3 {
		t.Fatalf("issued %+v, want planner.eu and scheduler in acme and ephemeral in beta", issued)
	}
	want := []struct {
		ws, agent, key string
		revoked        bool
	}{{"acme", "planner.eu", creds.UserKey, true}, {"acme", "scheduler", issued[1].UserKey, false}, {"beta", "ephemeral", issued[2].UserKey, false}}
	for i, w := range want {
		if a := issued[i]; a.Workspace != w.ws || a.Agent != w.agent || a.UserKey != w.key || a.Revoked != w.revoked {
			t.Errorf("issued[%d] = %+v, want %s/%s revoked=%v", i, a, w.ws, w.agent, w.revoked)
		}
	}
	if !issued[0].Expires.IsZero() || issued[2].Expires.IsZero() {
		t.Errorf("expiry: %+v", issued)
	}
	eventuallyExpired := func() string {
		deadline := time.Now().Add(10 * time.Second)
		for {
			out, _, err := run("list-agents", "-dir", dir, "beta")
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(out, "expired") || time.Now().After(deadline) {
				return out
			}
			<-time.After(100 * time.Millisecond)
		}
	}
	if out := eventuallyExpired(); !strings.Contains(out, "beta") || !strings.Contains(out, "ephemeral") || strings.Contains(out, "acme") ||
		!strings.Contains(out, "expired") {
		t.Errorf("list-agents beta:\n%s", out)
	}
	out, _, err = run("list-agents", "-dir", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "WORKSPACE") {
		t.Fatalf("list-agents:\n%s", out)
	}
	for i, w := range []string{"revoked", "active", "expired"} {
		if f := strings.Fields(lines[i+1]); f[len(f)-1] != w || f[2] != issued[i].UserKey {
			t.Errorf("list-agents line %q: want user key %s and state %s", lines[i+1], issued[i].UserKey, w)
		}
	}
	if strings.Contains(out, "SUA") || strings.Contains(out, "eyJ") {
		t.Errorf("list-agents prints a seed or a JWT:\n%s", out)
	}

	// Every issue and revocation is in the audit log, with the user keys and never a secret.
	var audited bytes.Buffer
	if err := app.AuditLog(context.Background(), cfg, "", 100, &audited); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(audited.String()), "\n") {
		// One audit event's data per line.
		var ev struct {
			Workspace string         `json:"workspace"`
			Action    string         `json:"action"`
			Actor     string         `json:"actor"`
			Details   map[string]any `json:"details"`
		}
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatal(err)
		}
		got = append(got, fmt.Sprintf("%s %s %s %v %v %v", ev.Workspace, ev.Action, ev.Actor, ev.Details["agent"],
			ev.Details["user_key"], ev.Details["user_keys"]))
	}
	wantAudit := []string{
		"acme nats_creds.issued cli planner.eu " + creds.UserKey + " <nil>",
		"acme nats_creds.issued cli scheduler " + issued[1].UserKey + " <nil>",
		"acme nats_creds.revoked cli planner.eu <nil> " + creds.UserKey,
		"beta nats_creds.issued cli ephemeral " + issued[2].UserKey + " <nil>",
	}
	if strings.Join(got, "\n") != strings.Join(wantAudit, "\n") {
		t.Errorf("audit log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(wantAudit, "\n"))
	}
	if strings.Contains(audited.String(), "SUA") || strings.Contains(audited.String(), "eyJ") {
		t.Errorf("the audit log holds a secret:\n%s", audited.String())
	}

	// Without the audit log nothing is issued or revoked.
	cfg.DatabaseURL = "postgres://mneme@127.0.0.1:1/mneme?sslmode=disable"
	if stdout, _, err := run("agent-creds", "-dir", dir, "acme", "unaudited"); err == nil || strings.Contains(stdout, "BEGIN NATS USER JWT") ||
		!strings.Contains(err.Error(), "audit log") {
		t.Errorf("agent-creds without the audit log: %v\n%s", err, stdout)
	}
	if _, _, err := run("revoke-agent", "-dir", dir, "acme", "scheduler"); err == nil || !strings.Contains(err.Error(), "audit log") {
		t.Errorf("revoke-agent without the audit log: %v", err)
	}
	if after, err := natsauth.Load(dir); err != nil {
		t.Fatal(err)
	} else if issuedNow, err := after.ListAgents("acme"); err != nil || len(issuedNow) != 2 || issuedNow[1].Revoked {
		t.Errorf("after refused commands: %+v %v", issuedNow, err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
