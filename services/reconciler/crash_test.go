package reconciler

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// The test binary doubles as a reconciler process: run with MNEME_RECONCILER_TEST_CHILD=1 it starts one replica
// on MNEME_NATS_URL and MNEME_DATABASE_URL instead of running tests, so crash tests can kill -9 real processes.
const envChild = "MNEME_RECONCILER_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(envChild) == "1" {
		os.Exit(childMain())
	}
	os.Exit(m.Run())
}

func childMain() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	log := testLogger()
	pool, err := store.Connect(ctx, os.Getenv("MNEME_DATABASE_URL"), 10*time.Second)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer pool.Close()
	nc, err := bus.Connect(os.Getenv("MNEME_NATS_URL"), "reconciler-child")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	cfg := testConfig()
	cfg.Partitions, _ = strconv.Atoi(os.Getenv("MNEME_PARTITIONS"))
	cfg.BatchSize = 64
	cfg.BatchWait = 20 * time.Millisecond
	svc, err := New(service.Deps{Logger: log, NATS: nc, JS: js, DB: pool, Partitions: cfg.Partitions, Instance: os.Getenv("MNEME_INSTANCE")}, cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if d, err := time.ParseDuration(os.Getenv("MNEME_TEST_APPLY_DELAY")); err == nil {
		// Stands for slow work inside the batch transaction, so that a kill lands inside one.
		svc.engine.faultHook = func(*item) error { <-time.After(d); return nil } // a slow batch holds its transaction open
	}
	if err := svc.Run(ctx); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

type child struct {
	name string
	cmd  *exec.Cmd
	done chan struct{}
}

func startChild(t *testing.T, natsURL, dbURL string, partitions int, name string) *child {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^$")
	// application_name lets the test see the child's open transactions in pg_locks.
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("application_name", name)
	u.RawQuery = q.Encode()
	cmd.Env = append(os.Environ(), envChild+"=1", "MNEME_NATS_URL="+natsURL, "MNEME_DATABASE_URL="+u.String(),
		"MNEME_PARTITIONS="+strconv.Itoa(partitions), "MNEME_INSTANCE="+name, "MNEME_TEST_APPLY_DELAY=2ms")
	logf, err := os.Create(filepath.Join(t.TempDir(), name+".log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{name: name, cmd: cmd, done: make(chan struct{})}
	go func() {
		_ = cmd.Wait()
		logf.Close()
		close(c.done)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-c.done
	})
	return c
}

// inBatch reports whether the process named name (its application_name) has a batch transaction open: it
// holds a lock on partition_offsets only between the fencing SELECT ... FOR UPDATE and the commit.
func inBatch(pool *pgxpool.Pool, name string) bool {
	var n int
	_ = pool.QueryRow(context.Background(), `SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
		WHERE a.application_name = $1 AND l.relation = 'partition_offsets'::regclass AND l.granted`, name).Scan(&n)
	return n > 0
}

func (c *child) kill9() {
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.done
}

// kill -9 of reconciler processes mid-batch, repeatedly, under a steady stream of claims: nothing is lost,
// nothing duplicated, and the survivor takes over every partition.
func TestKill9UnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills processes")
	}
	t.Parallel()
	pool, dbURL := newStore(t)
	b := startBus(t)
	const partitions = 4
	cfg := testConfig()
	cfg.Partitions = partitions

	var published sync.Map // claim id → true
	var count atomic.Int64
	stopPub := make(chan struct{})
	pubDone := make(chan struct{})
	go func() {
		defer close(pubDone)
		// A steady stream, not a flood: about 1000 claims a second over a few hundred subjects.
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for i := 0; ; i++ {
			select {
			case <-stopPub:
				return
			case <-tick.C:
			}
			subj := fmt.Sprintf("Subject %d", i%301)
			c := mkClaim("wsk", subj, "status", fmt.Sprintf("v%d", i), baseTime.Add(time.Duration(i)*time.Second), partitions, withAgent(fmt.Sprintf("agent-%d", i%5)))
			publishClaim(t, b.js, c)
			if i%10 == 0 {
				publishClaim(t, b.js, c) // duplicate publish
			}
			published.Store(c.ClaimID, true)
			count.Add(1)
		}
	}()

	a := startChild(t, b.url, dbURL, partitions, "child-a")
	bb := startChild(t, b.url, dbURL, partitions, "child-b")
	offsets := func() int64 {
		var n int64
		_ = pool.QueryRow(context.Background(), `SELECT count(*) FROM claims`).Scan(&n)
		return n
	}
	for round := range 6 {
		before := offsets()
		waitFor(t, 30*time.Second, func() (bool, string) { return offsets() > before+100, "no progress before kill" })
		victim := a
		if round%2 == 1 {
			victim = bb
		}
		// Kill it inside a batch transaction: while it holds the partition offset row lock.
		waitFor(t, 30*time.Second, func() (bool, string) {
			return inBatch(pool, victim.name), victim.name + " never seen inside a batch"
		})
		victim.kill9()
		// Progress continues on the survivor alone.
		before = offsets()
		waitFor(t, 30*time.Second, func() (bool, string) { return offsets() > before+100, "no progress after kill" })
		replacement := startChild(t, b.url, dbURL, partitions, fmt.Sprintf("child-%d", round))
		if round%2 == 1 {
			bb = replacement
		} else {
			a = replacement
		}
	}
	// The last kill leaves one survivor, which must take over every partition.
	waitFor(t, 30*time.Second, func() (bool, string) { return inBatch(pool, a.name), a.name + " never seen inside a batch" })
	a.kill9()
	close(stopPub)
	<-pubDone
	survivor := bb.name
	waitApplied(t, pool, b.js, partitions, 60*time.Second)
	t.Logf("%d claims published", count.Load())

	ctx := context.Background()
	var claims, current, decisions int64
	if err := pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM claims WHERE workspace_id = 'wsk'),
		(SELECT count(*) FROM claim_versions WHERE workspace_id = 'wsk' AND retired_at IS NULL),
		(SELECT count(*) FROM decisions WHERE workspace_id = 'wsk' AND outcome IN ('active', 'superseded', 'disputed'))`).Scan(&claims, &current, &decisions); err != nil {
		t.Fatal(err)
	}
	if claims != count.Load() || current != claims || decisions != claims {
		t.Fatalf("published %d claims; stored %d, %d current versions, %d claim decisions", count.Load(), claims, current, decisions)
	}
	missing := 0
	published.Range(func(k, _ any) bool {
		var ok bool
		_ = pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM claims WHERE id = $1)`, k.(string)).Scan(&ok)
		if !ok {
			missing++
		}
		return true
	})
	if missing > 0 {
		t.Fatalf("%d published claims missing", missing)
	}
	var activePerSlot int64
	if err := pool.QueryRow(ctx, `SELECT max(n) FROM (SELECT count(*) AS n FROM claims c JOIN claim_versions v ON v.claim_id = c.id AND v.retired_at IS NULL
		WHERE v.status = 'active' GROUP BY c.subject_key) x`).Scan(&activePerSlot); err != nil {
		t.Fatal(err)
	}
	if activePerSlot != 1 {
		t.Fatalf("a slot has %d active claims", activePerSlot)
	}
	// Publish a little more: only the survivor runs, so it must own all partitions.
	for i := range 40 {
		publishClaim(t, b.js, mkClaim("wsk", fmt.Sprintf("Late %d", i), "status", "late", baseTime, partitions))
	}
	waitApplied(t, pool, b.js, partitions, 30*time.Second)
	var owners []string
	rows, err := pool.Query(ctx, `SELECT DISTINCT owner FROM partition_offsets`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var o string
		_ = rows.Scan(&o)
		owners = append(owners, o)
	}
	rows.Close()
	if len(owners) != 1 || owners[0] != survivor {
		t.Fatalf("partition owners after the last kill: %v, want only %s", owners, survivor)
	}
	// And the crash-ridden projection is exactly what a clean replay produces.
	live, err := store.Digest(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := newStore(t)
	if _, err := Replay(ctx, b.js, target, ReplayOptions{Config: cfg, Logger: testLogger()}); err != nil {
		t.Fatal(err)
	}
	if replayed, _ := store.Digest(ctx, target); replayed != live {
		t.Fatal("projection after crashes differs from a clean replay")
	}
}
