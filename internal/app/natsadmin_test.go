package app_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nats-io/jwt/v2"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// TestNATSAdminCommands: init writes every service's credentials and the server configuration; agent-creds
// writes a private .creds bound to the agent's subjects; revoke-agent records the revocation even when no
// server is reachable, and then fails saying how to deliver it.
func TestNATSAdminCommands(t *testing.T) {
	baseEnv(t)
	t.Setenv("MNEME_NATS_URL", "nats://127.0.0.1:1")
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
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
