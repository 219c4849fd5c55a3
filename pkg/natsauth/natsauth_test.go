package natsauth_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// authServer is an embedded server in operator mode with Mneme's accounts and topology.
type authServer struct {
	setup *natsauth.Setup
	emb   *embedded.Server
	url   string
	store string
}

func startAuthServer(t *testing.T) *authServer {
	t.Helper()
	setup, err := natsauth.Init(filepath.Join(t.TempDir(), "auth"), natsauth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	store := t.TempDir()
	emb, err := embedded.Start(embedded.Options{Listen: "127.0.0.1:-1", StoreDir: store, Auth: setup.Embedded()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Shutdown)
	s := &authServer{setup: setup, emb: emb, url: emb.ClientURL(), store: store}
	nc := s.connect(t, setup.Creds(natsauth.TopologyOwner))
	js, _ := jetstream.New(nc.Conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.DefaultTopology().Ensure(ctx, js); err != nil {
		t.Fatalf("the topology owner cannot ensure the topology: %v (%v)", err, nc.asyncErrors())
	}
	nc.noViolations(t)
	// The other services' users only wait for it (stream info), without a violation.
	wctx, wcancel := context.WithTimeout(context.Background(), time.Minute)
	defer wcancel()
	for _, u := range []string{natsauth.UserIngest, natsauth.UserExtractor, natsauth.UserEmbedder} {
		other := s.connect(t, setup.Creds(u))
		ojs, _ := jetstream.New(other.Conn)
		if err := bus.DefaultTopology().Wait(wctx, ojs, 50*time.Millisecond); err != nil {
			t.Fatalf("%s cannot wait for the topology: %v (%v)", u, err, other.asyncErrors())
		}
		other.noViolations(t)
	}
	return s
}

// watchedConn is a connection that records the asynchronous errors the server sends (permission violations).
type watchedConn struct {
	*nats.Conn
	mu   sync.Mutex
	errs []error
}

func (w *watchedConn) asyncErrors() []error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]error(nil), w.errs...)
}

// violation waits until the server reported a permission violation mentioning subject.
func (w *watchedConn) violation(t *testing.T, subject string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for time.Now().Before(deadline) {
		for _, err := range w.asyncErrors() {
			if errors.Is(err, nats.ErrPermissionViolation) && strings.Contains(err.Error(), subject) {
				return
			}
		}
		<-tick.C
	}
	t.Fatalf("no permission violation for %q; async errors: %v", subject, w.asyncErrors())
}

func (w *watchedConn) noViolations(t *testing.T) {
	t.Helper()
	if errs := w.asyncErrors(); len(errs) > 0 {
		t.Fatalf("asynchronous errors: %v", errs)
	}
}

func (s *authServer) connect(t *testing.T, creds string) *watchedConn {
	t.Helper()
	w := &watchedConn{}
	nc, err := bus.Connect(s.url, "test", bus.WithCredentials(creds))
	if err != nil {
		t.Fatal(err)
	}
	nc.SetErrorHandler(func(_ *nats.Conn, _ *nats.Subscription, err error) {
		w.mu.Lock()
		w.errs = append(w.errs, err)
		w.mu.Unlock()
	})
	t.Cleanup(nc.Close)
	w.Conn = nc
	return w
}

func (s *authServer) agentCreds(t *testing.T, ws, agent string) string {
	t.Helper()
	cred, err := s.setup.IssueAgent(ws, agent, 0)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "agent.creds")
	if err := os.WriteFile(path, cred.Creds, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestAnonymousConnectRefused(t *testing.T) {
	s := startAuthServer(t)
	if nc, err := nats.Connect(s.url); err == nil {
		nc.Close()
		t.Fatal("an anonymous client connected to a server in operator mode")
	}
}

func TestAgentPublishesOnlyToItsOwnInbox(t *testing.T) {
	s := startAuthServer(t)
	agent := s.connect(t, s.agentCreds(t, "ws1", "planner.eu"))
	js, _ := jetstream.New(agent.Conn)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	own := bus.InboxAgentSubject("ws1", "planner.eu", bus.InboxKindClaims)
	if own != "mneme.inbox.ws1.planner%2Eeu.claims" {
		t.Fatalf("subject %q", own)
	}
	ack, err := js.Publish(ctx, own, []byte(`{"claims":[]}`))
	if err != nil {
		t.Fatalf("publish to its own inbox: %v", err)
	}
	if ack.Stream != bus.StreamInbox {
		t.Fatalf("stored in %q", ack.Stream)
	}
	agent.noViolations(t)

	for _, subject := range []string{
		bus.InboxAgentSubject("ws1", "scheduler", bus.InboxKindClaims), // another agent
		bus.InboxAgentSubject("ws2", "planner.eu", bus.InboxKindTurns), // another workspace
		"mneme.inbox.ws1.claims", // the development-only form
		"mneme.claims.3", "mneme.turns.ws1", "mneme.proposed.ws1", "mneme.ledger.ws1", "mneme.dlq.ingest",
	} {
		pctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		_, err := js.Publish(pctx, subject, []byte(`{}`))
		cancel()
		if err == nil {
			t.Errorf("publish to %s acknowledged", subject)
		}
		agent.violation(t, subject)
	}
	// What reached Mneme's account: exactly the one allowed message.
	svc := s.connect(t, s.setup.Creds(natsauth.UserReconciler))
	sjs, _ := jetstream.New(svc.Conn)
	for _, name := range []string{bus.StreamInbox, bus.StreamClaims, bus.StreamTurns, bus.StreamProposed, bus.StreamLedger, bus.StreamDLQ} {
		st, err := sjs.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		want := uint64(0)
		if name == bus.StreamInbox {
			want = 1
		}
		if n := st.CachedInfo().State.Msgs; n != want {
			t.Errorf("%s holds %d messages, want %d", name, n, want)
		}
	}
}

func TestAgentCannotSubscribeOrCallJetStream(t *testing.T) {
	s := startAuthServer(t)
	agent := s.connect(t, s.agentCreds(t, "ws1", "planner"))
	other, err := s.setup.IssueAgent("ws1", "scheduler", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{"mneme.>", "mneme.claims.*", "mneme.inbox.>", "_INBOX.>", other.InboxPrefix + ".>", "$JS.>", ">"} {
		if _, err := agent.SubscribeSync(subject); err != nil {
			t.Fatal(err)
		}
		agent.violation(t, subject)
	}
	js, _ := jetstream.New(agent.Conn)
	calls := map[string]func(ctx context.Context) error{
		"$JS.API.STREAM.INFO.MNEME_CLAIMS": func(ctx context.Context) error { _, err := js.Stream(ctx, bus.StreamClaims); return err },
		"$JS.API.STREAM.NAMES": func(ctx context.Context) error {
			names := js.StreamNames(ctx)
			for range names.Name() {
			}
			return names.Err()
		},
		"$JS.API.STREAM.PURGE.MNEME_CLAIMS": func(ctx context.Context) error {
			_, err := agent.Request("$JS.API.STREAM.PURGE.MNEME_CLAIMS", nil, 300*time.Millisecond)
			return err
		},
		"$JS.API.STREAM.DELETE.MNEME_CLAIMS": func(ctx context.Context) error { return js.DeleteStream(ctx, bus.StreamClaims) },
		"$JS.API.CONSUMER.CREATE.MNEME_TURNS": func(ctx context.Context) error {
			_, err := js.CreateOrUpdateConsumer(ctx, bus.StreamTurns, jetstream.ConsumerConfig{Name: "spy"})
			return err
		},
		"$JS.API.DIRECT.GET.MNEME_TURNS": func(ctx context.Context) error {
			_, err := agent.Request("$JS.API.DIRECT.GET.MNEME_TURNS", []byte(`{"seq":1}`), 300*time.Millisecond)
			return err
		},
		"$JS.API.STREAM.MSG.GET.MNEME_TURNS": func(ctx context.Context) error {
			_, err := agent.Request("$JS.API.STREAM.MSG.GET.MNEME_TURNS", []byte(`{"seq":1}`), 300*time.Millisecond)
			return err
		},
		"$JS.API.STREAM.MSG.DELETE.MNEME_CLAIMS": func(ctx context.Context) error {
			_, err := agent.Request("$JS.API.STREAM.MSG.DELETE.MNEME_CLAIMS", []byte(`{"seq":1}`), 300*time.Millisecond)
			return err
		},
		"$KV.MNEME_JUDGE.k": func(ctx context.Context) error {
			_, err := js.Publish(ctx, "$KV.MNEME_JUDGE.k", []byte("forged verdict"))
			return err
		},
	}
	for subject, call := range calls {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		err := call(ctx)
		cancel()
		if err == nil {
			t.Errorf("%s answered an agent", subject)
		}
		agent.violation(t, subject)
	}
}

func TestRevokedAgentIsDisconnectedAndRefused(t *testing.T) {
	s := startAuthServer(t)
	creds := s.agentCreds(t, "ws1", "planner")
	agent := s.connect(t, creds)
	bystander := s.connect(t, s.agentCreds(t, "ws1", "scheduler"))
	closed := make(chan struct{})
	agent.SetClosedHandler(func(*nats.Conn) { close(closed) })
	agent.SetReconnectHandler(func(*nats.Conn) {})

	revoked, token, err := s.setup.RevokeAgent("ws1", "planner")
	if err != nil {
		t.Fatal(err)
	}
	if len(revoked) != 1 {
		t.Fatalf("revoked %v", revoked)
	}
	sys := s.connect(t, s.setup.Creds(natsauth.UserSystem))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := natsauth.Push(ctx, sys.Conn, s.setup.AccountKey(natsauth.AccountAgents), token); err != nil {
		t.Fatal(err)
	}
	// The revoked connection is closed by the server and cannot come back (reconnects are refused).
	deadline := time.After(10 * time.Second)
	for agent.Status() == nats.CONNECTED {
		select {
		case <-deadline:
			t.Fatal("the revoked agent is still connected")
		case <-time.After(10 * time.Millisecond):
		}
	}
	agent.Close()
	if nc, err := nats.Connect(s.url, nats.UserCredentials(creds)); err == nil {
		nc.Close()
		t.Fatal("a revoked credential connected")
	}
	if bystander.Status() != nats.CONNECTED {
		t.Fatalf("another agent's connection is %s", bystander.Status())
	}
	// A new credential for the same agent works.
	fresh := s.connect(t, s.agentCreds(t, "ws1", "planner"))
	js, _ := jetstream.New(fresh.Conn)
	if _, err := js.Publish(ctx, bus.InboxAgentSubject("ws1", "planner", bus.InboxKindTurns), []byte("{}")); err != nil {
		t.Fatalf("a credential issued after the revocation: %v", err)
	}
	if _, _, err := s.setup.RevokeAgent("ws1", "nobody"); !errors.Is(err, natsauth.ErrNoAgentCredential) {
		t.Fatalf("revoking an agent without credentials: %v", err)
	}
}

// TestServerConfigRunsAServer starts a NATS server from nothing but server/auth.conf (as an external
// deployment includes it), the way nats-server reads it: Mneme's users work, anonymous clients and a
// credential revoked before the server started are refused.
func TestServerConfigRunsAServer(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "auth")
	setup, err := natsauth.Init(dir, natsauth.Options{ResolverDir: filepath.Join(t.TempDir(), "jwt")})
	if err != nil {
		t.Fatal(err)
	}
	revokedCred, err := setup.IssueAgent("ws1", "gone", 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := setup.RevokeAgent("ws1", "gone"); err != nil {
		t.Fatal(err)
	}
	opts, err := server.ProcessConfigFile(setup.ServerConfig())
	if err != nil {
		t.Fatalf("nats-server cannot read %s: %v", setup.ServerConfig(), err)
	}
	opts.Host, opts.Port, opts.JetStream, opts.StoreDir, opts.NoSigs = "127.0.0.1", -1, true, t.TempDir(), true
	if opts.MaxPayload != 8<<20 {
		t.Errorf("max_payload %d", opts.MaxPayload)
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	t.Cleanup(srv.Shutdown)
	if !srv.ReadyForConnections(10 * time.Second) {
		t.Fatal("server not ready")
	}
	s := &authServer{setup: setup, url: srv.ClientURL()}
	owner := s.connect(t, setup.Creds(natsauth.TopologyOwner))
	js, _ := jetstream.New(owner.Conn)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.DefaultTopology().Ensure(ctx, js); err != nil {
		t.Fatal(err)
	}
	agent := s.connect(t, s.agentCreds(t, "ws1", "planner"))
	ajs, _ := jetstream.New(agent.Conn)
	if _, err := ajs.Publish(ctx, bus.InboxAgentSubject("ws1", "planner", bus.InboxKindTurns), []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if nc, err := nats.Connect(s.url); err == nil {
		nc.Close()
		t.Fatal("anonymous client connected")
	}
	revokedPath := filepath.Join(t.TempDir(), "gone.creds")
	if err := os.WriteFile(revokedPath, revokedCred.Creds, 0o600); err != nil {
		t.Fatal(err)
	}
	if nc, err := nats.Connect(s.url, nats.UserCredentials(revokedPath)); err == nil {
		nc.Close()
		t.Fatal("a credential revoked in the preloaded account connected")
	}
}

// TestInitKeepsKeys: running init again (every start of docker compose does) keeps the operator, the accounts
// and the credentials already issued, and restores a deleted service credential.
func TestInitKeepsKeys(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "auth")
	first, err := natsauth.Init(dir, natsauth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ingest, err := os.ReadFile(first.Creds(natsauth.UserIngest))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(first.Creds(natsauth.UserQuery)); err != nil {
		t.Fatal(err)
	}
	second, err := natsauth.Init(dir, natsauth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if first.OperatorJWT() != second.OperatorJWT() || first.AccountKey(natsauth.AccountMneme) != second.AccountKey(natsauth.AccountMneme) {
		t.Fatal("init replaced the operator or an account")
	}
	again, _ := os.ReadFile(second.Creds(natsauth.UserIngest))
	if string(again) != string(ingest) {
		t.Fatal("init replaced an existing service credential")
	}
	if _, err := natsauth.ReadCreds(second.Creds(natsauth.UserQuery)); err != nil {
		t.Fatalf("deleted credential not restored: %v", err)
	}
	// A credential issued with other rights than this version gives its service (here the extractor's, in the
	// embedder's place, as an upgrade that changed the embedder's rights would leave it) is issued again.
	extractor, err := os.ReadFile(second.Creds(natsauth.UserExtractor))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(second.Creds(natsauth.UserEmbedder), extractor, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := natsauth.Init(dir, natsauth.Options{}); err != nil {
		t.Fatal(err)
	}
	embedder, err := natsauth.ReadCreds(second.Creds(natsauth.UserEmbedder))
	if err != nil {
		t.Fatal(err)
	}
	want, err := natsauth.ServicePermissions(natsauth.UserEmbedder, embedder.UserKey)
	if err != nil {
		t.Fatal(err)
	}
	if embedder.Claims.Name != natsauth.UserEmbedder || !slices.Equal(embedder.Claims.Pub.Allow, want.Pub.Allow) ||
		!slices.Equal(embedder.Claims.Sub.Allow, want.Sub.Allow) {
		t.Errorf("the embedder's credential after init: %s may publish %v and subscribe %v; want the embedder's %v and %v",
			embedder.Claims.Name, embedder.Claims.Pub.Allow, embedder.Claims.Sub.Allow, want.Pub.Allow, want.Sub.Allow)
	}
	if again, _ := os.ReadFile(second.Creds(natsauth.UserIngest)); string(again) != string(ingest) {
		t.Fatal("init replaced a current service credential")
	}
	for _, secret := range []string{filepath.Join(dir, "operator.nk"), second.Creds(natsauth.UserIngest)} {
		fi, err := os.Stat(secret)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s is readable by others: %v", secret, fi.Mode())
		}
	}
	if _, err := natsauth.Load(t.TempDir()); !errors.Is(err, natsauth.ErrNoSetup) {
		t.Fatalf("Load of an empty directory: %v", err)
	}
}

// TestServiceUsersAreLeastPrivileged: a service user is refused what another service does, nobody may purge
// or delete a stream, only the topology owner (the reconciler) may create or reconfigure one, and query, which
// reads Postgres only, may use no JetStream API at all.
func TestServiceUsersAreLeastPrivileged(t *testing.T) {
	s := startAuthServer(t)
	refused := []struct {
		user, subject string
	}{
		{natsauth.UserIngest, "mneme.claims.0"},       // only the embedder publishes embedded claims
		{natsauth.UserIngest, "mneme.ledger.ws1"},     // only the reconciler records decisions
		{natsauth.UserExtractor, "mneme.turns.ws1"},   // only ingest accepts turns
		{natsauth.UserEmbedder, "mneme.proposed.ws1"}, // embedder reads proposals, never makes them
		{natsauth.UserQuery, "mneme.claims.0"},        // query reads Postgres only
		{natsauth.UserQuery, "$JS.API.CONSUMER.CREATE.MNEME_CLAIMS.x"},
		{natsauth.UserReplay, "mneme.claims.0"},
		{natsauth.UserReplay, "$JS.API.STREAM.MSG.DELETE.MNEME_CLAIMS"},
		{natsauth.UserReconciler, "$JS.API.STREAM.PURGE.MNEME_CLAIMS"},
		{natsauth.UserReconciler, "$JS.API.STREAM.DELETE.MNEME_CLAIMS"},
		{natsauth.UserIngest, "$JS.API.STREAM.PURGE.MNEME_INBOX"},
		{natsauth.UserIngest, "$JS.API.CONSUMER.DELETE.MNEME_INBOX.ingest"},
		{natsauth.UserEmbedder, "$JS.API.CONSUMER.MSG.NEXT.MNEME_INBOX.ingest"},
		// Stream management belongs to the topology owner alone.
		{natsauth.UserQuery, "$JS.API.STREAM.UPDATE.MNEME_CLAIMS"},
		{natsauth.UserQuery, "$JS.API.STREAM.CREATE.MNEME_INBOX"},
		{natsauth.UserQuery, "$JS.API.STREAM.INFO.MNEME_CLAIMS"},
		{natsauth.UserQuery, "$JS.API.INFO"},
		{natsauth.UserIngest, "$JS.API.STREAM.UPDATE.MNEME_INBOX"},
		{natsauth.UserIngest, "$JS.API.STREAM.CREATE.MNEME_TURNS"},
		{natsauth.UserExtractor, "$JS.API.STREAM.UPDATE.MNEME_TURNS"},
		{natsauth.UserEmbedder, "$JS.API.STREAM.UPDATE.MNEME_CLAIMS"},
		{natsauth.UserReplay, "$JS.API.STREAM.UPDATE.MNEME_CLAIMS"},
	}
	for _, r := range refused {
		nc := s.connect(t, s.setup.Creds(r.user))
		if _, err := nc.Request(r.subject, []byte("{}"), 300*time.Millisecond); err == nil {
			t.Errorf("%s: %s answered", r.user, r.subject)
		}
		nc.violation(t, r.subject)
	}
	for _, u := range natsauth.ServiceUsers {
		p, err := natsauth.ServicePermissions(u, "UKEY")
		if err != nil {
			t.Fatal(err)
		}
		for _, subj := range append(append([]string(nil), p.Pub.Allow...), p.Sub.Allow...) {
			if subj == ">" || strings.HasPrefix(subj, "$JS.API.>") || strings.Contains(subj, "PURGE") || strings.Contains(subj, "STREAM.DELETE") || subj == "mneme.>" {
				t.Errorf("%s may use %s", u, subj)
			}
		}
		// Its own inbox, and the leader advisories of the streams it publishes to: never a stream's messages.
		wantSub := []string{"_INBOX_UKEY.>"}
		for _, s := range bus.PublishedStreams[u] {
			wantSub = append(wantSub, "$JS.EVENT.ADVISORY.STREAM.LEADER_ELECTED."+s)
		}
		if !slices.Equal(p.Sub.Allow, wantSub) {
			t.Errorf("%s subscribes to %v, want %v: its own inbox and its streams' leader advisories", u, p.Sub.Allow, wantSub)
		}
		manages := slices.ContainsFunc(p.Pub.Allow, func(s string) bool {
			return strings.Contains(s, "STREAM.CREATE") || strings.Contains(s, "STREAM.UPDATE")
		})
		if manages != (u == natsauth.TopologyOwner) {
			t.Errorf("%s may create or update streams: %v (only %s may)", u, manages, natsauth.TopologyOwner)
		}
		if u == natsauth.UserQuery && (len(p.Pub.Allow) != 0 || !slices.Equal(p.Pub.Deny, []string{">"})) {
			// An empty allow list alone would allow every subject.
			t.Errorf("query may publish to %v (denied %v), want nothing (it reads Postgres only)", p.Pub.Allow, p.Pub.Deny)
		}
	}
	// The owner's rights cover the whole topology, so it can create every stream from nothing.
	owner, err := natsauth.ServicePermissions(natsauth.TopologyOwner, "UKEY")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range bus.DefaultTopology().StreamConfigs() {
		for _, op := range []string{"CREATE", "UPDATE", "INFO"} {
			if subj := "$JS.API.STREAM." + op + "." + c.Name; !slices.Contains(owner.Pub.Allow, subj) {
				t.Errorf("the topology owner may not %s", subj)
			}
		}
	}
	if _, err := natsauth.ServicePermissions("mallory", "UKEY"); err == nil {
		t.Fatal("permissions for an unknown service")
	}
}

// TestAgentCredentialExpires: a credential issued with a lifetime stops working when it ends; invalid ids are
// refused at issue.
func TestAgentCredentialExpires(t *testing.T) {
	s := startAuthServer(t)
	cred, err := s.setup.IssueAgent("ws1", "temp", time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if cred.Expires.IsZero() || time.Until(cred.Expires) > time.Second {
		t.Fatalf("expires %v", cred.Expires)
	}
	path := filepath.Join(t.TempDir(), "temp.creds")
	if err := os.WriteFile(path, cred.Creds, 0o600); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		nc, err := nats.Connect(s.url, nats.UserCredentials(path), nats.NoReconnect())
		if err != nil {
			break // expired
		}
		nc.Close()
		if time.Now().After(deadline) {
			t.Fatal("an expired credential still connects")
		}
		<-tick.C
	}
	for _, bad := range [][2]string{{"Bad WS", "a"}, {"ws1", "no spaces"}, {"ws1", ""}, {"ws1", strings.Repeat("a", 129)}} {
		if _, err := s.setup.IssueAgent(bad[0], bad[1], 0); err == nil {
			t.Errorf("issued a credential for workspace %q agent %q", bad[0], bad[1])
		}
	}
}
