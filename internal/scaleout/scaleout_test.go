//go:build linux

package scaleout

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// The test binary doubles as the processes the test runs: with MNEME_SCALEOUT_ROLE=nats it is one node of
// the NATS cluster, with MNEME_SCALEOUT_ROLE=mneme it is `mneme run` (configured by MNEME_* as cmd/mneme is),
// so the test can kill -9 real processes and restart them on the same ports and stores.
const envRole = "MNEME_SCALEOUT_ROLE"

// Node settings of a NATS child.
const (
	envNodeName   = "MNEME_SCALEOUT_NODE_NAME"
	envNodeListen = "MNEME_SCALEOUT_NODE_LISTEN"
	envNodeRoute  = "MNEME_SCALEOUT_NODE_ROUTE"
	envNodeRoutes = "MNEME_SCALEOUT_NODE_ROUTES"
	envNodeStore  = "MNEME_SCALEOUT_NODE_STORE"
	// envNodeAuth is the NATS credentials directory (`mneme nats init`) whose operator and accounts every
	// node trusts, as each node of a real cluster includes the same server/auth.conf.
	envNodeAuth = "MNEME_SCALEOUT_NODE_AUTH"
)

// MNEME_SCALEOUT_LOG_DIR, when set, keeps the children's logs there (they go to the test's temporary
// directory otherwise, removed when the test ends); MNEME_SCALEOUT_LOG_LEVEL sets the services' log level
// (default warn; info shows reconnects, consumer resets and partition hand-overs with their times).
const (
	envLogDir   = "MNEME_SCALEOUT_LOG_DIR"
	envLogLevel = "MNEME_SCALEOUT_LOG_LEVEL"
)

const (
	workspace  = "scaleout"
	agent      = "loadgen"
	partitions = 16
)

func TestMain(m *testing.M) {
	switch os.Getenv(envRole) {
	case "nats":
		os.Exit(natsMain())
	case "mneme":
		os.Exit(mnemeMain())
	}
	os.Exit(m.Run())
}

func natsMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	setup, err := natsauth.Load(os.Getenv(envNodeAuth))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	s, err := embedded.Start(embedded.Options{
		Auth:       setup.Embedded(),
		Listen:     os.Getenv(envNodeListen),
		StoreDir:   os.Getenv(envNodeStore),
		ServerName: os.Getenv(envNodeName),
		Cluster: &embedded.Cluster{
			Name:   "mneme-scaleout",
			Listen: os.Getenv(envNodeRoute),
			Routes: strings.Split(os.Getenv(envNodeRoutes), ","),
		},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	<-ctx.Done()
	s.Shutdown()
	return 0
}

// mnemeMain is cmd/mneme's `run`: configuration from the environment, app.Build, App.Run.
func mnemeMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	if err := app.RunFromEnvironment(ctx, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// proc is a child process the test can kill -9 and start again with the same environment.
type proc struct {
	name string
	env  []string
	logf string
	url  string // HTTP base URL of a mneme process

	mu   sync.Mutex
	cmd  *exec.Cmd
	done chan struct{}
}

func (p *proc) start(t *testing.T) {
	t.Helper()
	f, err := os.OpenFile(p.logf, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "---- start %s\n", time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), p.env...)
	cmd.Stdout, cmd.Stderr = f, f
	// A child must not outlive a test binary that dies before its cleanup runs.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("start %s: %v", p.name, err)
	}
	done := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		f.Close()
		close(done)
	}()
	p.mu.Lock()
	p.cmd, p.done = cmd, done
	p.mu.Unlock()
}

// kill sends SIGKILL and waits until the process is gone.
func (p *proc) kill() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	_ = cmd.Process.Signal(syscall.SIGKILL)
	<-done
}

// stop asks the process to shut down gracefully, and kills it after a grace period.
func (p *proc) stop() {
	p.mu.Lock()
	cmd, done := p.cmd, p.done
	p.mu.Unlock()
	if cmd == nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Signal(syscall.SIGKILL)
		<-done
	}
}

func (p *proc) alive() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// tail returns the last lines of the process's log, for failure messages.
func (p *proc) tail(n int) string {
	b, _ := os.ReadFile(p.logf)
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func freePorts(t *testing.T, n int) []int {
	t.Helper()
	ports, err := embedded.FreePorts(n)
	if err != nil {
		t.Fatal(err)
	}
	return ports
}

// poll calls f until it returns true or within has passed; it reports whether f succeeded.
func poll(within time.Duration, f func() bool) bool {
	deadline := time.Now().Add(within)
	for {
		if f() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		<-time.After(100 * time.Millisecond)
	}
}

// input is one thing a client sent and Mneme accepted: a turn (HTTP), a structured claim (HTTP) or a
// structured claim published to the NATS inbox. Each carries an object of its own, so its effect is the claim
// rows holding that object.
type input struct {
	kind   string
	object string
	body   []byte
}

// rig is the running system.
type rig struct {
	t        *testing.T
	dir      string
	logDir   string
	nats     []*proc
	natsURLs string
	procs    map[string][]*proc // target → its two processes
	db       *pgxpool.Pool
	client   *http.Client

	// The system runs in production mode: every connection below uses a credential of the directory setup
	// holds, with the permissions a real deployment gives it — the test holds no all-powerful user.
	setup *natsauth.Setup
	// js reads Mneme's streams with the reconciler's credential (stream state and messages, ordered consumers
	// on the claims log): the one service user allowed to read every stream.
	js jetstream.JetStream
	// durableJS reads each durable consumer's state with the credential of the service that owns it: only
	// that service may look at its consumer.
	durableJS map[string]jetstream.JetStream
	// replayJS is `mneme replay`'s credential, for the clean replay.
	replayJS jetstream.JetStream
	// agentJS publishes to the agent's inbox subjects with the agent's NATS credential.
	agentJS jetstream.JetStream
	// key is the agent's HTTP key (bound to the agent) for writes and searches.
	key string

	mu       sync.Mutex
	accepted []input
	retries  atomic.Int64 // requests or publishes repeated after a failure
	searches atomic.Int64
	searchFO atomic.Int64 // searches answered by the other query process after a failure
	// searchFail counts searches neither query process answered.
	searchFail atomic.Int64
}

var targets = []string{"ingest", "extractor", "embedder", "reconciler", "query"}

func TestScaleOutSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("the scale-out test runs 13 processes for about three minutes; skipped with -short")
	}
	if _, err := os.Stat(embedding.DefaultModelDir()); err != nil {
		if os.Getenv("MNEME_REQUIRE_MODEL") == "1" {
			t.Fatalf("embedding model weights missing at %s: run make deps", embedding.DefaultModelDir())
		}
		t.Skipf("embedding model weights missing at %s (make deps fetches them)", embedding.DefaultModelDir())
	}
	began := time.Now()
	r := startRig(t)
	t.Logf("system up in %s: 3 NATS nodes, 2 processes of each of %s", time.Since(began).Round(time.Millisecond), strings.Join(targets, ", "))

	type kill struct {
		what     string
		victim   func() *proc
		accepted int
		recovery time.Duration
		// leaders, after a NATS node's kill: when each stream and durable consumer it led had a leader again.
		leaders *leaderWatch
	}
	kills := []kill{
		{what: "none (baseline)"},
		{what: "NATS node (claims stream leader)", victim: r.claimsLeader},
		{what: "reconciler", victim: func() *proc { return r.procs["reconciler"][0] }},
		{what: "embedder", victim: func() *proc { return r.procs["embedder"][0] }},
		{what: "extractor", victim: func() *proc { return r.procs["extractor"][0] }},
		{what: "ingest", victim: func() *proc { return r.procs["ingest"][0] }},
	}
	const perPhase = 24
	next := 0
	for i := range kills {
		k := &kills[i]
		before := len(r.snapshot())
		var victim *proc
		if k.victim != nil {
			victim = k.victim()
		}
		killedAt := r.phase(next, perPhase, func() {
			if victim != nil {
				victim.kill()
				if victim.url == "" {
					k.leaders = r.watchLeaders(victim.name)
				}
			}
		})
		next += perPhase
		all := r.snapshot()
		k.accepted = len(all) - before
		if !poll(120*time.Second, func() bool { return r.allVisible(all) }) {
			diag := r.diagnose(r.missing(all))
			r.dumpStacks("reconciler")
			r.dumpLogs()
			t.Fatalf("after kill of %s: accepted inputs still missing from the projection after 120s: %v\n%s", k.what, r.missing(all), diag)
		}
		k.recovery = time.Since(killedAt)
		t.Logf("phase %d (kill: %s): %d inputs accepted; all visible %s after the kill", i, k.what, k.accepted, k.recovery.Round(time.Millisecond))
		if k.leaders != nil {
			t.Logf("leaders after the kill of %s: %s", k.what, k.leaders.report())
		}
		if victim != nil {
			victim.start(t)
			r.waitUp(victim)
		}
	}

	// Quiescence: every durable consumer settled, every partition applied to the end of its log.
	if !poll(60*time.Second, r.consumersSettled) {
		t.Errorf("consumers still hold pending or unacknowledged messages after 60s: %s", r.consumerState())
	}
	if !poll(60*time.Second, r.partitionsCaughtUp) {
		t.Errorf("partitions not applied to the end of the claims log after 60s")
	}
	all := r.snapshot()
	effects, dups, losses := r.effects(all)
	owners := r.ownedPartitions()
	if owners != partitions {
		t.Errorf("%d of %d partitions have a live owner", owners, partitions)
	}
	if dups != 0 || losses != 0 {
		t.Errorf("%d accepted inputs: %d duplicated, %d lost (missing: %v)", len(all), dups, losses, r.missing(all))
	}
	live, replayed, msgs := r.replayDigest()
	if live != replayed {
		t.Errorf("projection digest %s differs from a clean replay's %s", live, replayed)
	}
	// Least privilege must not cost the services anything they need, through kills and hand-overs.
	if v := r.permissionViolations(); len(v) > 0 {
		t.Errorf("a service was refused a NATS permission it needs:\n%s", strings.Join(v, "\n"))
	}

	var b strings.Builder
	fmt.Fprintf(&b, "| kill -9 | inputs accepted in the phase | all accepted inputs in the projection after the kill |\n|---|---|---|\n")
	for _, k := range kills {
		fmt.Fprintf(&b, "| %s | %d | %.1f s |\n", k.what, k.accepted, k.recovery.Seconds())
	}
	for _, k := range kills {
		if k.leaders != nil {
			fmt.Fprintf(&b, "\nafter the kill of the %s, new leaders (seconds after the kill): %s\n", k.what, k.leaders.report())
		}
	}
	fmt.Fprintf(&b, "\ninputs accepted %d (turns %d, claims over HTTP %d, claims over the NATS inbox %d); effects %d; duplicates %d; losses %d\n",
		len(all), countKind(all, "turn"), countKind(all, "claim-http"), countKind(all, "claim-inbox"), effects, dups, losses)
	fmt.Fprintf(&b, "requests repeated after a failure %d; searches answered %d (%d by the other query process after a failure, %d failed on both)\n",
		r.retries.Load(), r.searches.Load(), r.searchFO.Load(), r.searchFail.Load())
	fmt.Fprintf(&b, "partitions with a live owner %d/%d; consumers settled: %s; digest equals a clean replay of %d log messages: %v; test time %s\n",
		owners, partitions, r.consumerState(), msgs, live == replayed, time.Since(began).Round(time.Second))
	t.Log("scale-out under kill -9:\n" + b.String())
}

func countKind(in []input, kind string) int {
	n := 0
	for _, i := range in {
		if i.kind == kind {
			n++
		}
	}
	return n
}

func startRig(t *testing.T) *rig {
	r := &rig{t: t, dir: t.TempDir(), procs: map[string][]*proc{}, durableJS: map[string]jetstream.JetStream{},
		client: &http.Client{Timeout: 15 * time.Second}}
	r.logDir = r.dir
	if d := os.Getenv(envLogDir); d != "" {
		r.logDir = d
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	dbURL := pgtest.URL(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := store.Connect(ctx, dbURL, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	if _, err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	r.db = db

	// Production mode, as a deployment sets it up: an administrator creates the workspace (its first key) and
	// issues the agent an HTTP key bound to it; `mneme nats init` writes the operator, the accounts and one
	// credential per service, and every NATS node trusts them; the agent gets a NATS credential of its own.
	if _, err := auth.CreateWorkspace(ctx, db, workspace, "scaleout-admin"); err != nil {
		t.Fatal(err)
	}
	if r.key, err = auth.IssueKey(ctx, db, workspace, agent); err != nil {
		t.Fatal(err)
	}
	authDir := filepath.Join(r.dir, "nats-auth")
	if r.setup, err = natsauth.Init(authDir, natsauth.Options{}); err != nil {
		t.Fatal(err)
	}
	agentCred, err := r.setup.IssueAgent(workspace, agent, 0)
	if err != nil {
		t.Fatal(err)
	}
	agentCreds := filepath.Join(r.dir, "agent.creds")
	if err := os.WriteFile(agentCreds, agentCred.Creds, 0o600); err != nil {
		t.Fatal(err)
	}

	// Three NATS nodes, each with its own store, routed to each other, all trusting the same operator.
	ports := freePorts(t, 6+2*len(targets))
	var routes, urls []string
	for i := range 3 {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(ports[3+i]))
		urls = append(urls, "nats://127.0.0.1:"+strconv.Itoa(ports[i]))
	}
	r.natsURLs = strings.Join(urls, ",")
	for i := range 3 {
		p := &proc{name: fmt.Sprintf("nats-n%d", i), logf: filepath.Join(r.logDir, fmt.Sprintf("nats-n%d.log", i)), env: []string{
			envRole + "=nats",
			envNodeName + "=" + fmt.Sprintf("n%d", i),
			envNodeListen + "=127.0.0.1:" + strconv.Itoa(ports[i]),
			envNodeRoute + "=127.0.0.1:" + strconv.Itoa(ports[3+i]),
			envNodeRoutes + "=" + strings.Join(routes, ","),
			envNodeStore + "=" + filepath.Join(r.dir, fmt.Sprintf("nats-n%d", i)),
			envNodeAuth + "=" + authDir,
		}}
		p.start(t)
		r.nats = append(r.nats, p)
	}
	t.Cleanup(func() {
		for _, p := range r.nats {
			p.stop()
		}
	})
	if !poll(60*time.Second, func() bool {
		r.js, err = r.connect(r.setup.Creds(natsauth.UserReconciler), "scaleout-test-inspector")
		return err == nil
	}) {
		r.dumpLogs()
		t.Fatalf("NATS nodes not accepting the reconciler's credential: %v", err)
	}
	for _, d := range durables {
		if r.durableJS[d.consumer], err = r.connect(r.setup.Creds(d.user), "scaleout-test-"+d.user); err != nil {
			t.Fatal(err)
		}
	}
	if r.replayJS, err = r.connect(r.setup.Creds(natsauth.UserReplay), "scaleout-test-replay"); err != nil {
		t.Fatal(err)
	}
	if r.agentJS, err = r.connect(agentCreds, "scaleout-test-agent"); err != nil {
		t.Fatal(err)
	}
	// The streams are the reconciler's to create (MNEME_STREAM_REPLICAS=3), once the cluster has elected its
	// JetStream metadata leader.
	if !poll(60*time.Second, func() bool {
		actx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err = r.js.AccountInfo(actx)
		return err == nil
	}) {
		r.dumpLogs()
		t.Fatalf("JetStream cluster not ready: %v", err)
	}

	// Two processes of every service, each with its own service's NATS credential. Ingest and query listen on
	// HTTP for the load; every process serves /readyz.
	level := "warn"
	if l := os.Getenv(envLogLevel); l != "" {
		level = l
	}
	common := []string{
		envRole + "=mneme",
		"MNEME_DATABASE_URL=" + dbURL,
		"MNEME_NATS_URL=" + r.natsURLs,
		"MNEME_DEV_MODE=false",
		"MNEME_STREAM_REPLICAS=3",
		"MNEME_MIGRATE_ON_START=false",
		"MNEME_PARTITIONS=" + strconv.Itoa(partitions),
		"MNEME_HTTP_RATE_LIMIT=0",
		"MNEME_LOG_LEVEL=" + level,
		"MNEME_CONNECT_TIMEOUT=60s",
		"MNEME_MODEL_DIR=" + embedding.DefaultModelDir(),
		// Nothing from the directory but the process's own credential.
		"MNEME_NATS_AUTH_DIR=" + filepath.Join(r.dir, "no-such-dir"),
	}
	port := 6
	for _, target := range targets {
		for i := range 2 {
			addr := "127.0.0.1:" + strconv.Itoa(ports[port])
			port++
			p := &proc{
				name: fmt.Sprintf("%s-%d", target, i),
				logf: filepath.Join(r.logDir, fmt.Sprintf("%s-%d.log", target, i)),
				url:  "http://" + addr,
				env: append(append([]string{}, common...), "MNEME_TARGET="+target, "MNEME_HTTP_ADDR="+addr,
					"MNEME_NATS_CREDS="+r.setup.Creds(target)),
			}
			p.start(t)
			r.procs[target] = append(r.procs[target], p)
		}
	}
	t.Cleanup(func() {
		var wg sync.WaitGroup
		for _, ps := range r.procs {
			for _, p := range ps {
				wg.Go(p.stop)
			}
		}
		wg.Wait()
	})
	for _, target := range targets {
		for _, p := range r.procs[target] {
			r.waitUp(p)
		}
	}
	return r
}

// connect opens a NATS connection to the cluster with a .creds file, closed when the test ends.
func (r *rig) connect(creds, name string) (jetstream.JetStream, error) {
	nc, err := bus.Connect(r.natsURLs, name, bus.WithCredentials(creds))
	if err != nil {
		return nil, err
	}
	r.t.Cleanup(nc.Close)
	return jetstream.New(nc)
}

// waitUp waits until a mneme process answers /readyz, or a NATS node has rejoined the cluster.
func (r *rig) waitUp(p *proc) {
	r.t.Helper()
	if p.url == "" {
		if !poll(60*time.Second, func() bool { return r.natsCurrent() }) {
			r.dumpLogs()
			r.t.Fatalf("%s did not rejoin the cluster within 60s", p.name)
		}
		return
	}
	// Generous: thirteen race-instrumented processes start at once on two shared cores.
	if !poll(180*time.Second, func() bool {
		if !p.alive() {
			return false
		}
		resp, err := r.client.Get(p.url + "/readyz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	}) {
		r.t.Fatalf("%s not ready within 180s; its log ends:\n%s", p.name, p.tail(30))
	}
}

// natsCurrent reports whether every stream has all three replicas current.
func (r *rig) natsCurrent() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for _, name := range []string{bus.StreamInbox, bus.StreamTurns, bus.StreamProposed, bus.StreamClaims} {
		s, err := r.js.Stream(ctx, name)
		if err != nil {
			return false
		}
		info, err := s.Info(ctx)
		if err != nil || info.Cluster == nil || info.Cluster.Leader == "" || len(info.Cluster.Replicas) != 2 {
			return false
		}
		for _, p := range info.Cluster.Replicas {
			if !p.Current || p.Offline {
				return false
			}
		}
	}
	return true
}

// leaderWatch records, after a NATS node was killed, when each stream and durable consumer that node led had
// a leader on another node again: the share of the recovery time that is the cluster's own election.
type leaderWatch struct {
	killedAt time.Time
	mu       sync.Mutex
	led      []string             // streams and consumers the node led when it was killed
	back     map[string]time.Time // when each had a new leader
	done     chan struct{}
}

// watchLeaders starts a leaderWatch for the killed node (named nX) and polls every 100ms for up to 60s.
func (r *rig) watchLeaders(killed string) *leaderWatch {
	w := &leaderWatch{killedAt: time.Now(), back: map[string]time.Time{}, done: make(chan struct{})}
	node := strings.TrimPrefix(killed, "nats-")
	// Who led what is read once, just after the kill, from the surviving nodes' view of the cluster.
	type group struct {
		name string
		info func(context.Context) (*jetstream.ClusterInfo, error)
	}
	var groups []group
	for _, name := range []string{bus.StreamInbox, bus.StreamTurns, bus.StreamProposed, bus.StreamClaims, bus.StreamLedger, bus.StreamDLQ} {
		groups = append(groups, group{name, func(ctx context.Context) (*jetstream.ClusterInfo, error) {
			s, err := r.js.Stream(ctx, name)
			if err != nil {
				return nil, err
			}
			return s.CachedInfo().Cluster, nil
		}})
	}
	for _, d := range durables {
		groups = append(groups, group{d.consumer + " consumer", func(ctx context.Context) (*jetstream.ClusterInfo, error) {
			c, err := r.durableJS[d.consumer].Consumer(ctx, d.stream, d.consumer)
			if err != nil {
				return nil, err
			}
			return c.CachedInfo().Cluster, nil
		}})
	}
	go func() {
		defer close(w.done)
		pending := map[string]bool{}
		first := true
		deadline := time.Now().Add(60 * time.Second)
		for time.Now().Before(deadline) {
			for _, g := range groups {
				if !first && !pending[g.name] {
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), time.Second)
				ci, err := g.info(ctx)
				cancel()
				leader := ""
				if err == nil && ci != nil {
					leader = ci.Leader
				}
				if first && (err != nil || leader == "" || leader == node) {
					pending[g.name] = true
					w.mu.Lock()
					w.led = append(w.led, g.name)
					w.mu.Unlock()
					continue
				}
				if pending[g.name] && leader != "" && leader != node {
					delete(pending, g.name)
					w.mu.Lock()
					w.back[g.name] = time.Now()
					w.mu.Unlock()
				}
			}
			first = false
			if len(pending) == 0 {
				return
			}
			<-time.After(100 * time.Millisecond)
		}
	}()
	return w
}

// report waits for the watch to end and says when each group the node led had a leader again.
func (w *leaderWatch) report() string {
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	var parts []string
	for _, name := range w.led {
		if at, ok := w.back[name]; ok {
			parts = append(parts, fmt.Sprintf("%s %.1f", name, at.Sub(w.killedAt).Seconds()))
		} else {
			parts = append(parts, name+" none within 60s")
		}
	}
	if len(parts) == 0 {
		return "the node led no stream or consumer"
	}
	return strings.Join(parts, ", ")
}

// claimsLeader is the NATS node leading the claims stream, the log of record.
func (r *rig) claimsLeader() *proc {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := r.js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		r.t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		r.t.Fatal(err)
	}
	for i, p := range r.nats {
		if info.Cluster.Leader == fmt.Sprintf("n%d", i) {
			return p
		}
	}
	r.t.Fatalf("claims stream leader %q is none of the nodes", info.Cluster.Leader)
	return nil
}

// Speakers of the turns: every turn has a subject of its own, so turns spread over the partitions.
var (
	firstNames = []string{"Avery", "Blake", "Casey", "Devon", "Emery", "Finley", "Harper", "Jordan", "Kendall", "Logan", "Morgan", "Quinn"}
	lastNames  = []string{"Abbott", "Barros", "Castell", "Dunmore", "Ellery", "Fairbank", "Galloway", "Hartley", "Iverson", "Jessup", "Kimura", "Lindqvist"}
)

// newInput builds the i-th input: turns, claims over HTTP and claims over the NATS inbox in turn.
func newInput(i int) input {
	switch i % 3 {
	case 0:
		n := i / 3
		speaker := firstNames[n%len(firstNames)] + " " + lastNames[(n/len(firstNames))%len(lastNames)]
		object := strconv.Itoa(40000 + i)
		body, _ := json.Marshal(api.TurnsRequest{Turns: []api.TurnInput{{
			TurnID: fmt.Sprintf("turn-%d", i), SessionID: fmt.Sprintf("session-%d", i), Role: "user", Speaker: speaker,
			Content: "My locker number is " + object + ".",
		}}})
		return input{kind: "turn", object: object, body: body}
	default:
		kind := "claim-http"
		if i%3 == 2 {
			kind = "claim-inbox"
		}
		object := fmt.Sprintf("SN-%05d", i)
		body, _ := json.Marshal(api.ClaimsRequest{Claims: []api.ClaimInput{{
			ClaimID: fmt.Sprintf("claim-%d", i), Subject: fmt.Sprintf("Device %d", i), Predicate: "serial number", Object: object,
		}}})
		return input{kind: kind, object: object, body: body}
	}
}

// phase sends inputs [from, from+n) from four clients while searches run, calls kill once half of them are
// accepted, and returns when every input is accepted, with the moment of the kill.
func (r *rig) phase(from, n int, kill func()) time.Time {
	r.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	work := make(chan int)
	var acceptedHere atomic.Int64
	var killedAt time.Time
	killed := make(chan struct{})
	go func() {
		defer close(killed)
		for acceptedHere.Load() < int64(n/2) && ctx.Err() == nil {
			<-time.After(10 * time.Millisecond)
		}
		killedAt = time.Now()
		kill()
	}()
	var searchers sync.WaitGroup
	searchers.Go(func() { r.search(ctx) })
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for range 4 {
		wg.Go(func() {
			for i := range work {
				in := newInput(i)
				if err := r.send(in, i); err != nil {
					errs <- err
					continue
				}
				r.mu.Lock()
				r.accepted = append(r.accepted, in)
				r.mu.Unlock()
				acceptedHere.Add(1)
				// Paced, so that the kill lands while inputs are in flight in every stage.
				<-time.After(50 * time.Millisecond)
			}
		})
	}
	for i := from; i < from+n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	<-killed
	cancel()
	searchers.Wait()
	close(errs)
	for err := range errs {
		r.t.Errorf("input not accepted: %v", err)
	}
	return killedAt
}

// send delivers one input until Mneme accepts it (HTTP 202, or the inbox stream's acknowledgement), retrying
// with the same ids on the other process after a failure — the at-least-once client Mneme expects, whose
// repeats the ids make harmless.
func (r *rig) send(in input, i int) error {
	deadline := time.Now().Add(90 * time.Second)
	var last error
	for attempt := 0; time.Now().Before(deadline); attempt++ {
		if attempt > 0 {
			r.retries.Add(1)
			<-time.After(200 * time.Millisecond)
		}
		if in.kind == "claim-inbox" {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			// The agent's credential names the agent: the subject is its own, no header says who it is.
			msg := nats.NewMsg(bus.InboxAgentSubject(workspace, agent, bus.InboxKindClaims))
			msg.Data = in.body
			_, err := r.agentJS.PublishMsg(ctx, msg, jetstream.WithMsgID(fmt.Sprintf("inbox-%d", i)))
			cancel()
			if err == nil {
				return nil
			}
			last = err
			continue
		}
		path := "/turns"
		if in.kind == "claim-http" {
			path = "/claims"
		}
		p := r.procs["ingest"][(i+attempt)%2]
		req, _ := http.NewRequest(http.MethodPost, p.url+"/v1/workspaces/"+workspace+path, bytes.NewReader(in.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set(api.HeaderAgent, agent)
		req.Header.Set("Authorization", "Bearer "+r.key)
		resp, err := r.client.Do(req)
		if err != nil {
			last = err
			continue
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusAccepted {
			return nil
		}
		last = fmt.Errorf("%s: HTTP %d: %s", p.name, resp.StatusCode, b)
		if resp.StatusCode < 500 {
			return last
		}
	}
	return fmt.Errorf("input %d (%s) not accepted within 90s: %w", i, in.kind, last)
}

// search runs searches against the query processes until ctx ends, falling over to the other process.
func (r *rig) search(ctx context.Context) {
	body := []byte(`{"query":"locker number","k":5}`)
	for i := 0; ctx.Err() == nil; i++ {
		answered := false
		for attempt := range 2 {
			p := r.procs["query"][(i+attempt)%2]
			req, _ := http.NewRequestWithContext(ctx, http.MethodPost, p.url+"/v1/workspaces/"+workspace+"/search", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(api.HeaderAgent, agent)
			req.Header.Set("Authorization", "Bearer "+r.key)
			resp, err := r.client.Do(req)
			if err == nil {
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					r.searches.Add(1)
					if attempt > 0 {
						r.searchFO.Add(1)
					}
					answered = true
					break
				}
			}
		}
		if !answered && ctx.Err() == nil {
			r.searchFail.Add(1)
		}
		select {
		case <-ctx.Done():
		case <-time.After(250 * time.Millisecond):
		}
	}
}

func (r *rig) snapshot() []input {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]input(nil), r.accepted...)
}

// rowsByObject counts the workspace's claim rows per object.
func (r *rig) rowsByObject() map[string]int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rows, err := r.db.Query(ctx, `SELECT object, count(*) FROM claims WHERE workspace_id = $1 GROUP BY object`, workspace)
	if err != nil {
		return nil
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var o string
		var n int
		if rows.Scan(&o, &n) == nil {
			out[o] = n
		}
	}
	return out
}

func (r *rig) allVisible(in []input) bool {
	rows := r.rowsByObject()
	for _, i := range in {
		if rows[i.object] == 0 {
			return false
		}
	}
	return true
}

func (r *rig) missing(in []input) []string {
	rows := r.rowsByObject()
	var out []string
	for _, i := range in {
		if rows[i.object] == 0 {
			out = append(out, i.kind+":"+i.object)
		}
	}
	return out
}

// effects counts the claim rows of the accepted inputs: effects (inputs with at least one row), duplicates
// (rows beyond the first of an input) and losses (inputs without a row).
func (r *rig) effects(in []input) (effects, dups, losses int) {
	rows := r.rowsByObject()
	for _, i := range in {
		switch n := rows[i.object]; {
		case n == 0:
			losses++
		default:
			effects++
			dups += n - 1
		}
	}
	return effects, dups, losses
}

// durables are the work-queue consumers and the service users that own them.
var durables = []struct{ stream, consumer, user string }{
	{bus.StreamInbox, bus.ConsumerIngest, natsauth.UserIngest},
	{bus.StreamTurns, bus.ConsumerExtractor, natsauth.UserExtractor},
	{bus.StreamProposed, bus.ConsumerEmbedder, natsauth.UserEmbedder},
}

func (r *rig) consumerInfos() ([]*jetstream.ConsumerInfo, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out []*jetstream.ConsumerInfo
	for _, d := range durables {
		c, err := r.durableJS[d.consumer].Consumer(ctx, d.stream, d.consumer)
		if err != nil {
			return nil, err
		}
		info, err := c.Info(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, info)
	}
	return out, nil
}

func (r *rig) consumersSettled() bool {
	infos, err := r.consumerInfos()
	if err != nil {
		return false
	}
	for _, i := range infos {
		if i.NumPending != 0 || i.NumAckPending != 0 {
			return false
		}
	}
	return true
}

func (r *rig) consumerState() string {
	infos, err := r.consumerInfos()
	if err != nil {
		return err.Error()
	}
	var parts []string
	for _, i := range infos {
		parts = append(parts, fmt.Sprintf("%s: pending %d, ack pending %d", i.Name, i.NumPending, i.NumAckPending))
	}
	return strings.Join(parts, "; ")
}

// partitionsCaughtUp reports whether every partition's stored offset is the last message of its subject.
func (r *rig) partitionsCaughtUp() bool {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := r.js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		return false
	}
	for p := range partitions {
		m, err := s.GetLastMsgForSubject(ctx, bus.ClaimsSubject(p))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return false
		}
		var off int64
		if err := r.db.QueryRow(ctx, `SELECT stream_seq FROM partition_offsets WHERE partition = $1`, p).Scan(&off); err != nil || uint64(off) < m.Sequence {
			return false
		}
	}
	return true
}

// ownedPartitions counts the partitions whose ownership lock a live session holds.
func (r *rig) ownedPartitions() int {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var n int
	if err := r.db.QueryRow(ctx, `SELECT count(DISTINCT l.objid) FROM pg_locks l
		WHERE l.locktype = 'advisory' AND l.classid = $1::int::oid AND l.objsubid = 2 AND l.granted
		  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`, reconciler.PartitionLockClass).Scan(&n); err != nil {
		r.t.Errorf("partition owners: %v", err)
	}
	return n
}

// replayDigest rebuilds the projection from the claims log into a fresh database and returns the live and
// the rebuilt digests.
func (r *rig) replayDigest() (live, replayed string, msgs int) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	fresh := pgtest.New(r.t)
	cfg := reconciler.DefaultConfig()
	cfg.Partitions = partitions
	stats, err := reconciler.Replay(ctx, r.replayJS, fresh, reconciler.ReplayOptions{Config: cfg})
	if err != nil {
		r.t.Fatalf("replay: %v", err)
	}
	if live, err = store.Digest(ctx, r.db); err != nil {
		r.t.Fatal(err)
	}
	if replayed, err = store.Digest(ctx, fresh); err != nil {
		r.t.Fatal(err)
	}
	return live, replayed, stats.Messages
}

// diagnose says where missing inputs are: the consumers' state, and which streams still hold a message
// naming each missing object (the claims log, the work queues, the dead letters).
func (r *rig) diagnose(missing []string) string {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var b strings.Builder
	fmt.Fprintf(&b, "consumers: %s\n", r.consumerState())
	for _, name := range []string{bus.StreamInbox, bus.StreamTurns, bus.StreamProposed, bus.StreamClaims, bus.StreamDLQ} {
		s, err := r.js.Stream(ctx, name)
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", name, err)
			continue
		}
		info, err := s.Info(ctx)
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", name, err)
			continue
		}
		fmt.Fprintf(&b, "%s: %d messages (seq %d..%d), leader %s\n", name, info.State.Msgs, info.State.FirstSeq, info.State.LastSeq, info.Cluster.Leader)
		for seq := info.State.FirstSeq; seq <= info.State.LastSeq && seq > 0; seq++ {
			m, err := s.GetMsg(ctx, seq)
			if err != nil {
				continue
			}
			for _, miss := range missing {
				object := miss[strings.Index(miss, ":")+1:]
				if bytes.Contains(m.Data, []byte(object)) {
					fmt.Fprintf(&b, "  %s seq %d holds %s (%s) %s\n", name, seq, object, m.Subject, m.Header.Get(bus.HeaderDLQReason))
				}
			}
		}
	}
	// The claims log read through a consumer (direct gets may be answered by any replica), and the offsets of
	// the partitions that hold a missing object.
	cons, err := r.js.OrderedConsumer(ctx, bus.StreamClaims, jetstream.OrderedConsumerConfig{})
	if err == nil {
		batch, err := cons.Fetch(10000, jetstream.FetchMaxWait(5*time.Second))
		if err == nil {
			for m := range batch.Messages() {
				md, _ := m.Metadata()
				for _, miss := range missing {
					object := miss[strings.Index(miss, ":")+1:]
					if bytes.Contains(m.Data(), []byte(object)) {
						p, _ := bus.ParsePartition(m.Subject())
						var off int64
						_ = r.db.QueryRow(ctx, `SELECT stream_seq FROM partition_offsets WHERE partition = $1`, p).Scan(&off)
						stream, _ := r.js.Stream(ctx, bus.StreamClaims)
						var last uint64
						if stream != nil {
							if lm, err := stream.GetLastMsgForSubject(ctx, m.Subject()); err == nil {
								last = lm.Sequence
							}
						}
						fmt.Fprintf(&b, "  consumer read: seq %d holds %s on partition %d; stored offset %d; last seq of the subject by direct get %d\n", md.Sequence.Stream, object, p, off, last)
					}
				}
			}
		}
	}
	var owners []string
	rows, err := r.db.Query(ctx, `SELECT l.objid::int, l.pid FROM pg_locks l WHERE l.locktype = 'advisory' AND l.classid = $1::int::oid AND l.objsubid = 2 AND l.granted
		AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY 1`, reconciler.PartitionLockClass)
	if err == nil {
		for rows.Next() {
			var part, pid int
			if rows.Scan(&part, &pid) == nil {
				owners = append(owners, fmt.Sprintf("%d:%d", part, pid))
			}
		}
		rows.Close()
	}
	fmt.Fprintf(&b, "partition owners (partition:backend pid): %s\n", strings.Join(owners, " "))
	return b.String()
}

// permissionViolations returns the lines of the services' logs where the NATS server refused them something.
func (r *rig) permissionViolations() []string {
	var out []string
	for _, target := range targets {
		for _, p := range r.procs[target] {
			b, _ := os.ReadFile(p.logf)
			for _, line := range strings.Split(string(b), "\n") {
				if strings.Contains(strings.ToLower(line), "permissions violation") {
					out = append(out, p.name+": "+line)
				}
			}
		}
	}
	return out
}

// dumpStacks makes the processes of target print every goroutine's stack to their logs (SIGQUIT) and exit.
func (r *rig) dumpStacks(target string) {
	for _, p := range r.procs[target] {
		p.mu.Lock()
		cmd, done := p.cmd, p.done
		p.mu.Unlock()
		_ = cmd.Process.Signal(syscall.SIGQUIT)
		<-done
		b, _ := os.ReadFile(p.logf)
		if i := bytes.Index(b, []byte("goroutine ")); i >= 0 {
			r.t.Logf("%s stacks:\n%s", p.name, b[i:])
		}
	}
}

// dumpLogs writes the end of every child's log to the test output.
func (r *rig) dumpLogs() {
	all := append([]*proc(nil), r.nats...)
	for _, target := range targets {
		all = append(all, r.procs[target]...)
	}
	for _, p := range all {
		var b strings.Builder
		sc := bufio.NewScanner(strings.NewReader(p.tail(15)))
		for sc.Scan() {
			b.WriteString("  " + sc.Text() + "\n")
		}
		r.t.Logf("%s:\n%s", p.name, b.String())
	}
}
