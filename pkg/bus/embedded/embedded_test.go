package embedded

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// freePorts reserves n distinct loopback ports: a cluster node's route port must be known before it starts,
// since every node lists all routes.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	ports, err := FreePorts(n)
	if err != nil {
		t.Fatal(err)
	}
	return ports
}

func waitFor(t *testing.T, within time.Duration, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("not within %s: %s", within, what)
		}
		<-tick.C
	}
}

func TestSyncEveryWriteByDefault(t *testing.T) {
	for _, tc := range []struct {
		interval   time.Duration
		wantAlways bool
	}{{0, true}, {time.Minute, false}} {
		s, err := Start(Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir(), SyncInterval: tc.interval})
		if err != nil {
			t.Fatal(err)
		}
		if got := s.srv.JetStreamConfig().SyncAlways; got != tc.wantAlways {
			t.Errorf("SyncInterval %s: sync always = %v, want %v", tc.interval, got, tc.wantAlways)
		}
		s.Shutdown()
	}
}

// TestClusterKeepsAcknowledgedWritesWhenANodeStops runs three nodes with an R3 stream, stops the stream's
// leader between two rounds of publishes and restarts it: every acknowledged message is readable throughout,
// and the restarted node rejoins as a current replica.
func TestClusterKeepsAcknowledgedWritesWhenANodeStops(t *testing.T) {
	ports := freePorts(t, 6)
	var routes []string
	for i := range 3 {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(ports[3+i]))
	}
	dirs := []string{t.TempDir(), t.TempDir(), t.TempDir()}
	start := func(i int) *Server {
		s, err := Start(Options{
			Listen:     "127.0.0.1:" + strconv.Itoa(ports[i]),
			StoreDir:   dirs[i],
			ServerName: fmt.Sprintf("n%d", i),
			Cluster:    &Cluster{Name: "mneme-test", Listen: "127.0.0.1:" + strconv.Itoa(ports[3+i]), Routes: routes},
		})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	nodes := []*Server{start(0), start(1), start(2)}
	t.Cleanup(func() {
		for _, n := range nodes {
			if n != nil {
				n.Shutdown()
			}
		}
	})
	waitFor(t, 20*time.Second, "a JetStream metadata leader", func() bool {
		for _, n := range nodes {
			if !n.JetStreamReady() {
				return false
			}
		}
		return true
	})
	var urls string
	for i, n := range nodes {
		if i > 0 {
			urls += ","
		}
		urls += n.ClientURL()
	}
	nc, err := nats.Connect(urls, nats.MaxReconnects(-1), nats.ReconnectWait(50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	// The whole test, elections included, on a loaded machine with -race and an fsync per write.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	var stream jetstream.Stream
	waitFor(t, 20*time.Second, "an R3 stream", func() bool {
		stream, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "S", Subjects: []string{"s.>"}, Replicas: 3, Storage: jetstream.FileStorage})
		return err == nil
	})
	publish := func(from, to int) {
		for i := from; i < to; i++ {
			for {
				// A publish during a leader election may fail or go unanswered (sent to the node that stopped);
				// the client sends it again under the same id after a short wait, so an acknowledged message is
				// stored once.
				pctx, pcancel := context.WithTimeout(ctx, 2*time.Second)
				_, err := js.Publish(pctx, "s.x", []byte(strconv.Itoa(i)), jetstream.WithMsgID(strconv.Itoa(i)))
				pcancel()
				if err == nil {
					break
				}
				if ctx.Err() != nil {
					t.Fatalf("publish %d: %v", i, err)
				}
			}
		}
	}
	publish(0, 100)
	info, err := stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(info.Cluster.Replicas) + 1; got != 3 {
		t.Fatalf("stream has %d copies, want 3", got)
	}
	leader := -1
	for i := range nodes {
		if info.Cluster.Leader == fmt.Sprintf("n%d", i) {
			leader = i
		}
	}
	if leader < 0 {
		t.Fatalf("stream leader %q is none of the nodes", info.Cluster.Leader)
	}
	nodes[leader].Shutdown()
	nodes[leader] = nil
	publish(100, 200)

	info, err = stream.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if info.State.Msgs != 200 {
		t.Fatalf("stream holds %d messages with a node down, want 200", info.State.Msgs)
	}
	for seq := uint64(1); seq <= 200; seq++ {
		m, err := stream.GetMsg(ctx, seq)
		if err != nil {
			t.Fatalf("message %d: %v", seq, err)
		}
		if want := strconv.Itoa(int(seq) - 1); string(m.Data) != want {
			t.Fatalf("message %d is %q, want %s (lost or duplicated)", seq, m.Data, want)
		}
	}

	nodes[leader] = start(leader)
	waitFor(t, 30*time.Second, "the restarted node current again", func() bool {
		info, err := stream.Info(ctx)
		if err != nil || info.State.Msgs != 200 {
			return false
		}
		current := 0
		for _, r := range info.Cluster.Replicas {
			if r.Current {
				current++
			}
		}
		return current == 2
	})
}
