// Package security holds Mneme's security test suite for the NATS side (issue 10): the whole system runs in
// production mode (MNEME_DEV_MODE=false) with its embedded NATS server requiring credentials, on real
// JetStream and real Postgres, and each test attacks it the way an agent or anyone on the network would.
// Every finding of the issue's NATS part is a test here: anonymous access, writing as another agent or into
// another workspace, reading, purging or deleting Mneme's streams, consumers, forged internal events, and the
// replay digest after all of it. The pipeline test runs every service as its own least-privilege user.
package security

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/pgtest"
)

// prod is a running production-mode system with workspaces "acme" and "other".
type prod struct {
	sys     *apptest.System
	setup   *natsauth.Setup
	authDir string
	db      *pgxpool.Pool
	// key is acme's workspace key (valid for any agent of acme).
	key string
}

// startProduction starts the system in production mode, with extra environment variables if given.
func startProduction(t *testing.T, extra ...map[string]string) *prod {
	t.Helper()
	authDir := filepath.Join(t.TempDir(), "nats-auth")
	env := map[string]string{"MNEME_DEV_MODE": "false", "MNEME_NATS_AUTH_DIR": authDir}
	for _, e := range extra {
		maps.Copy(env, e)
	}
	sys := apptest.Start(t, env)
	setup, err := natsauth.Load(authDir)
	if err != nil {
		t.Fatalf("production start-up did not create the NATS credentials: %v", err)
	}
	ctx := context.Background()
	db, err := pgxpool.New(ctx, sys.DBURL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	key, err := auth.CreateWorkspace(ctx, db, "acme", "admin")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := auth.CreateWorkspace(ctx, db, "other", "admin"); err != nil {
		t.Fatal(err)
	}
	return &prod{sys: sys, setup: setup, authDir: authDir, db: db, key: key}
}

// conn is a NATS connection that records the permission violations the server reports to it.
type conn struct {
	*nats.Conn
	js   jetstream.JetStream
	mu   sync.Mutex
	errs []error
}

func (p *prod) connect(t *testing.T, creds string) *conn {
	t.Helper()
	c := &conn{}
	nc, err := bus.Connect(p.sys.NATSURL, t.Name(), bus.WithCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		c.mu.Lock()
		c.errs = append(c.errs, err)
		c.mu.Unlock()
	})
	t.Cleanup(nc.Close)
	c.Conn = nc
	c.js, _ = jetstream.New(nc)
	return c
}

func (p *prod) agent(t *testing.T, ws, agent string) (*conn, string) {
	t.Helper()
	cred, err := p.setup.IssueAgent(ws, agent, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), agent+".creds")
	if err := os.WriteFile(path, cred.Creds, 0o600); err != nil {
		t.Fatal(err)
	}
	return p.connect(t, path), path
}

// refused waits for the server to report a permission violation on subject to c.
func (c *conn) refused(t *testing.T, subject string) {
	t.Helper()
	eventually(t, 5*time.Second, "a permission violation for "+subject, func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, err := range c.errs {
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), `"`+subject+`"`) {
				return true
			}
		}
		return false
	})
}

// publish publishes a batch and reports whether JetStream acknowledged it.
func (c *conn) publish(t *testing.T, subject string, hdr nats.Header, body string) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	msg := &nats.Msg{Subject: subject, Header: hdr, Data: []byte(body)}
	_, err := c.js.PublishMsg(ctx, msg)
	return err == nil
}

func eventually(t *testing.T, within time.Duration, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", within, what)
		}
		<-tick.C
	}
}

// inspector reads Mneme's streams as the reconciler (a Mneme service): what the attacks left there.
func (p *prod) inspector(t *testing.T) jetstream.JetStream {
	return p.connect(t, p.setup.Creds(natsauth.UserReconciler)).js
}

func streamMsgs(t *testing.T, js jetstream.JetStream, stream string) []*jetstream.RawStreamMsg {
	t.Helper()
	ctx := context.Background()
	s, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; info.State.Msgs > 0 && seq <= info.State.LastSeq; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func TestNATSAnonymousConnectRefused(t *testing.T) {
	p := startProduction(t)
	nc, err := nats.Connect(p.sys.NATSURL, nats.Timeout(2*time.Second))
	if err == nil {
		nc.Close()
		t.Fatal("an anonymous client connected to Mneme's NATS outside development mode")
	}
	if !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("refused, but not for authorization: %v", err)
	}
}

// TestNATSAgentCannotWriteAsAnotherAgent: the publishing agent is the credential's. Another agent's subject,
// another workspace, the development-only subject and internal subjects are refused by the server; a header
// or an item naming another agent on its own subject is dead-lettered with the reason. None has any effect.
func TestNATSAgentCannotWriteAsAnotherAgent(t *testing.T) {
	p := startProduction(t)
	planner, _ := p.agent(t, "acme", "planner")
	claim := func(subject, object string) string {
		return `{"claims":[{"subject":"` + subject + `","predicate":"lives in","object":"` + object + `","scope":"private"}]}`
	}
	for _, subject := range []string{
		bus.InboxAgentSubject("acme", "scheduler", bus.InboxKindClaims),
		bus.InboxAgentSubject("other", "planner", bus.InboxKindClaims),
		bus.InboxClaimsSubject("acme"),
	} {
		if planner.publish(t, subject, nats.Header{bus.HeaderAgent: {"scheduler"}}, claim("Mallory", "Impersonated")) {
			t.Errorf("published to %s", subject)
		}
		planner.refused(t, subject)
	}
	own := bus.InboxAgentSubject("acme", "planner", bus.InboxKindClaims)
	if !planner.publish(t, own, nats.Header{bus.HeaderAgent: {"scheduler"}}, claim("Mallory", "Header")) {
		t.Fatal("own subject refused")
	}
	if !planner.publish(t, own, nil, `{"claims":[{"agent_id":"scheduler","subject":"Mallory","predicate":"lives in","object":"Item"}]}`) {
		t.Fatal("own subject refused")
	}
	if !planner.publish(t, own, nil, claim("Alice", "Berlin")) {
		t.Fatal("own subject refused")
	}
	js := p.inspector(t)
	eventually(t, 60*time.Second, "two dead letters and the good claim reconciled", func() bool {
		var n int
		_ = p.db.QueryRow(context.Background(), `SELECT count(*) FROM claims WHERE workspace_id = 'acme' AND subject_key = 'alice'`).Scan(&n)
		return len(streamMsgs(t, js, bus.StreamDLQ)) == 2 && n == 1
	})
	for _, m := range streamMsgs(t, js, bus.StreamDLQ) {
		reason := m.Header.Get(bus.HeaderDLQReason)
		if !strings.Contains(reason, `"scheduler"`) || !strings.Contains(reason, "an agent may only write as itself") {
			t.Errorf("dead letter reason %q", reason)
		}
	}
	var n int
	if err := p.db.QueryRow(context.Background(), `SELECT count(*) FROM claims WHERE subject_key = 'mallory' OR owner_agent = 'scheduler'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("%d claims written as another agent or about the impersonation", n)
	}
	var owner string
	if err := p.db.QueryRow(context.Background(), `SELECT owner_agent FROM claims WHERE subject_key = 'alice'`).Scan(&owner); err != nil || owner != "planner" {
		t.Fatalf("the good claim's owner %q (%v)", owner, err)
	}
}

// TestNATSAgentCannotReadOrManageStreams: an agent can neither subscribe to Mneme's subjects or anyone's
// replies nor call the JetStream API (stream info and list, purge, delete, consumer create, direct and message
// get, message delete, the judge log), and publishing onto internal subjects is refused.
func TestNATSAgentCannotReadOrManageStreams(t *testing.T) {
	p := startProduction(t)
	agent, _ := p.agent(t, "acme", "planner")
	// Something to steal: a private claim of another agent.
	other, _ := p.agent(t, "acme", "scheduler")
	if !other.publish(t, bus.InboxAgentSubject("acme", "scheduler", bus.InboxKindClaims), nil,
		`{"claims":[{"subject":"Vault","predicate":"code is","object":"1234","scope":"private"}]}`) {
		t.Fatal("publish")
	}
	for _, subject := range []string{"mneme.>", "mneme.claims.*", "mneme.turns.acme", "mneme.inbox.>", "mneme.dlq.>", "_INBOX.>",
		bus.UserInboxPrefix(p.userKey(t, p.setup.Creds(natsauth.UserIngest))) + ".>", "$JS.>", "$KV.>", ">"} {
		sub, err := agent.SubscribeSync(subject)
		if err != nil {
			t.Fatal(err)
		}
		agent.refused(t, subject)
		if m, err := sub.NextMsg(200 * time.Millisecond); err == nil {
			t.Fatalf("subscription %s delivered %q", subject, m.Data)
		}
	}
	ctx := context.Background()
	short := func() (context.Context, context.CancelFunc) { return context.WithTimeout(ctx, 500*time.Millisecond) }
	request := func(subject, body string) error {
		_, err := agent.Request(subject, []byte(body), 500*time.Millisecond)
		return err
	}
	calls := []struct {
		subject string
		call    func() error
	}{
		{"$JS.API.STREAM.INFO.MNEME_CLAIMS", func() error {
			c, cancel := short()
			defer cancel()
			_, err := agent.js.Stream(c, bus.StreamClaims)
			return err
		}},
		{"$JS.API.STREAM.LIST", func() error {
			c, cancel := short()
			defer cancel()
			l := agent.js.ListStreams(c)
			for range l.Info() {
			}
			return l.Err()
		}},
		{"$JS.API.STREAM.PURGE.MNEME_CLAIMS", func() error { return request("$JS.API.STREAM.PURGE.MNEME_CLAIMS", "{}") }},
		{"$JS.API.STREAM.DELETE.MNEME_CLAIMS", func() error { c, cancel := short(); defer cancel(); return agent.js.DeleteStream(c, bus.StreamClaims) }},
		{"$JS.API.CONSUMER.CREATE.MNEME_CLAIMS.spy", func() error {
			c, cancel := short()
			defer cancel()
			_, err := agent.js.CreateOrUpdateConsumer(c, bus.StreamClaims, jetstream.ConsumerConfig{Name: "spy"})
			return err
		}},
		{"$JS.API.DIRECT.GET.MNEME_INBOX", func() error { return request("$JS.API.DIRECT.GET.MNEME_INBOX", `{"seq":1}`) }},
		{"$JS.API.STREAM.MSG.GET.MNEME_TURNS", func() error { return request("$JS.API.STREAM.MSG.GET.MNEME_TURNS", `{"seq":1}`) }},
		{"$JS.API.STREAM.MSG.DELETE.MNEME_CLAIMS", func() error { return request("$JS.API.STREAM.MSG.DELETE.MNEME_CLAIMS", `{"seq":1}`) }},
		{"$KV.MNEME_JUDGE.x", func() error {
			c, cancel := short()
			defer cancel()
			_, err := agent.js.Publish(c, "$KV.MNEME_JUDGE.x", []byte("forged"))
			return err
		}},
	}
	for _, c := range calls {
		if err := c.call(); err == nil {
			t.Errorf("%s answered an agent", c.subject)
		}
		agent.refused(t, c.subject)
	}
	// Forged internal events: a hand-made embedded claim on a claims partition (the reconciler would apply it),
	// and one on every other internal subject.
	forged, err := event.New(event.TypeClaimEmbedded, "forged-1", "mallory", "acme", time.Now(), map[string]any{"claim_id": "00000000-0000-0000-0000-000000000001"})
	if err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{bus.ClaimsSubject(0), bus.TurnsSubject("acme"), bus.ProposedSubject("acme"), bus.LedgerSubject("acme"), bus.DLQSubject("ingest")} {
		msg, err := bus.EventMsg(ctx, subject, forged)
		if err != nil {
			t.Fatal(err)
		}
		c, cancel := short()
		_, err = agent.js.PublishMsg(c, msg)
		cancel()
		if err == nil {
			t.Errorf("a forged event on %s was stored", subject)
		}
		agent.refused(t, subject)
	}
	// The other agent's private claim still stands, and nothing forged reached a stream.
	eventually(t, 60*time.Second, "the private claim reconciled", func() bool {
		var n int
		_ = p.db.QueryRow(ctx, `SELECT count(*) FROM claims WHERE subject_key = 'vault'`).Scan(&n)
		return n == 1
	})
	js := p.inspector(t)
	for _, stream := range []string{bus.StreamClaims, bus.StreamTurns, bus.StreamProposed, bus.StreamLedger, bus.StreamDLQ} {
		for _, m := range streamMsgs(t, js, stream) {
			if m.Header.Get(jetstream.MsgIDHeader) == "forged-1" {
				t.Fatalf("%s holds the forged event", stream)
			}
		}
	}
	p.waitReconciled(t, js)
	p.replayMatches(t)
}

// TestNATSRevokedAgent: `mneme nats revoke-agent` closes the agent's connections at once and its credential
// is refused from then on; other agents are untouched.
func TestNATSRevokedAgent(t *testing.T) {
	p := startProduction(t)
	agent, creds := p.agent(t, "acme", "planner")
	bystander, _ := p.agent(t, "acme", "scheduler")
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	cfg.NATSURL = p.sys.NATSURL
	var out, errOut strings.Builder
	if err := app.NATSCommand(context.Background(), cfg, []string{"revoke-agent", "-dir", p.authDir, "acme", "planner"}, &out, &errOut); err != nil {
		t.Fatalf("revoke-agent: %v\n%s%s", err, out.String(), errOut.String())
	}
	eventually(t, 10*time.Second, "the revoked agent disconnected", func() bool { return agent.Status() != nats.CONNECTED })
	agent.Close()
	if nc, err := nats.Connect(p.sys.NATSURL, nats.UserCredentials(creds)); err == nil {
		nc.Close()
		t.Fatal("a revoked credential connected")
	}
	if !bystander.publish(t, bus.InboxAgentSubject("acme", "scheduler", bus.InboxKindTurns), nil,
		`{"turns":[{"session_id":"s","role":"user","content":"still here"}]}`) {
		t.Fatal("another agent lost its connection")
	}
}

// TestNATSPipelineWithLeastPrivilegeUsers: every service runs as its own NATS user with only the permissions
// it needs, and the whole pipeline works end to end: an agent publishes a claim and a turn over NATS with
// its credential; both are found over HTTP; a bad message is dead-lettered; an erasure deletes stream
// messages and judge-log entries; replay reproduces the digest. No service is refused anything on the way.
func TestNATSPipelineWithLeastPrivilegeUsers(t *testing.T) {
	p := startProduction(t)
	agent, _ := p.agent(t, "acme", "planner.eu")
	if !agent.publish(t, bus.InboxAgentSubject("acme", "planner.eu", bus.InboxKindClaims), nil,
		`{"claims":[{"subject":"Alice","predicate":"lives in","object":"Berlin","valid_from":"2025-06-01T00:00:00Z"}]}`) {
		t.Fatal("claim refused")
	}
	if !agent.publish(t, bus.InboxAgentSubject("acme", "planner.eu", bus.InboxKindTurns), nil,
		`{"turns":[{"session_id":"s1","role":"user","speaker":"Bob","content":"My manager is Carol."}]}`) {
		t.Fatal("turn refused")
	}
	if !agent.publish(t, bus.InboxAgentSubject("acme", "planner.eu", bus.InboxKindTurns), nil, `{"turns":[{}]}`) {
		t.Fatal("bad message refused by the server (ingest must dead-letter it)")
	}
	c, err := client.New(p.sys.BaseURL, "planner.eu", client.WithKey(p.key))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	found := func(q, object string) func() bool {
		return func() bool {
			r, err := c.Search(ctx, "acme", api.SearchRequest{Query: q})
			if err != nil {
				return false
			}
			for _, cl := range r.Claims {
				if strings.EqualFold(cl.Object, object) {
					return true
				}
			}
			return false
		}
	}
	eventually(t, 90*time.Second, "the NATS claim found over HTTP", found("Where does Alice live?", "Berlin"))
	eventually(t, 90*time.Second, "the claim extracted from the NATS turn found over HTTP", found("Who is Bob's manager?", "Carol"))
	js := p.inspector(t)
	eventually(t, 30*time.Second, "the bad message dead-lettered", func() bool { return len(streamMsgs(t, js, bus.StreamDLQ)) == 1 })

	// Erasure: the reconciler deletes the agent's messages from every stream (and the dead letter).
	e, err := c.RequestErasure(ctx, "acme", api.ErasureRequest{Kind: "agent", Target: "planner.eu"})
	if err != nil {
		t.Fatalf("erasure: %v", err)
	}
	eventually(t, 60*time.Second, "the erasure completed", func() bool {
		st, err := c.Erasure(ctx, "acme", e.ErasureID)
		return err == nil && st.Status == "completed"
	})
	var n int
	if err := p.db.QueryRow(ctx, `SELECT count(*) FROM claims WHERE workspace_id = 'acme'`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("%d claims left after erasing their only agent (%v)", n, err)
	}
	for _, stream := range []string{bus.StreamTurns, bus.StreamProposed, bus.StreamDLQ} {
		if msgs := streamMsgs(t, js, stream); len(msgs) != 0 {
			t.Errorf("%s still holds %d messages of the erased agent", stream, len(msgs))
		}
	}
	p.waitReconciled(t, js)
	p.replayMatches(t)
	if p.sys.Logged("Permissions Violation") || p.sys.Logged("permissions violation") {
		t.Fatal("a Mneme service was refused a NATS permission it needs (see the log)")
	}
}

// userKey reads the user public key of a .creds file.
func (p *prod) userKey(t *testing.T, path string) string {
	t.Helper()
	c, err := natsauth.ReadCreds(path)
	if err != nil {
		t.Fatal(err)
	}
	return c.UserKey
}

// waitReconciled waits until the reconciler has applied every message of every partition.
func (p *prod) waitReconciled(t *testing.T, js jetstream.JetStream) {
	t.Helper()
	ctx := context.Background()
	stream, err := js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "every partition reconciled", func() bool {
		for part := range 16 {
			last, err := stream.GetLastMsgForSubject(ctx, bus.ClaimsSubject(part))
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				continue
			}
			if err != nil {
				return false
			}
			var off int64
			err = p.db.QueryRow(ctx, `SELECT stream_seq FROM partition_offsets WHERE partition = $1`, part).Scan(&off)
			if errors.Is(err, pgx.ErrNoRows) || err != nil || uint64(off) < last.Sequence {
				return false
			}
		}
		return true
	})
}

// replayMatches runs `mneme replay` (as the replay user) into a fresh database: the digest must match.
func (p *prod) replayMatches(t *testing.T) {
	t.Helper()
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	cfg.NATSURL = p.sys.NATSURL
	var out strings.Builder
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if err := app.Replay(context.Background(), cfg, pgtest.URL(t), &out, log); err != nil {
		t.Fatalf("replay: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "digests match") {
		t.Fatalf("replay: %s", out.String())
	}
}

// TestNATSPublishExampleWithCredential: an outside process (examples/nats-publish) publishes with the agent's
// .creds to its credential-bound subject; the claim is found over HTTP. Without -creds it cannot connect.
func TestNATSPublishExampleWithCredential(t *testing.T) {
	p := startProduction(t)
	bin := filepath.Join(t.TempDir(), "nats-publish")
	build := exec.Command("go", "build", "-o", bin, "./examples/nats-publish")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build example: %v\n%s", err, out)
	}
	credsFile := filepath.Join(t.TempDir(), "planner.creds")
	var out, errOut strings.Builder
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := app.NATSCommand(context.Background(), cfg, []string{"agent-creds", "-dir", p.authDir, "-out", credsFile, "acme", "planner"}, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	args := []string{"-nats", p.sys.NATSURL, "-ws", "acme", "-agent", "planner", "-subject", "Alice", "-predicate", "lives in", "-object", "Oslo"}
	if b, err := exec.Command(bin, args...).CombinedOutput(); err == nil {
		t.Fatalf("published without a credential: %s", b)
	}
	if b, err := exec.Command(bin, append([]string{"-creds", credsFile}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("outside publisher: %v\n%s", err, b)
	}
	c, err := client.New(p.sys.BaseURL, "planner", client.WithKey(p.key))
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, 60*time.Second, "the claim found over HTTP", func() bool {
		r, err := c.Search(context.Background(), "acme", api.SearchRequest{Query: "Where does Alice live?"})
		if err != nil {
			return false
		}
		for _, cl := range r.Claims {
			if cl.Object == "Oslo" {
				return true
			}
		}
		return false
	})
}
