package bus_test

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
)

// startCluster runs three embedded JetStream nodes routed to each other and returns their client URLs once
// the cluster has a metadata leader.
func startCluster(t *testing.T) string {
	t.Helper()
	c := newCluster(t)
	for i := range 3 {
		c.start(i)
	}
	return c.urls()
}

// cluster is three embedded JetStream nodes routed to each other, started one at a time.
type cluster struct {
	t     *testing.T
	ports []int
	nodes []*embedded.Server
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	ports, err := embedded.FreePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	return &cluster{t: t, ports: ports}
}

// start starts node i and returns once every started node has a JetStream metadata leader.
func (c *cluster) start(i int) {
	c.t.Helper()
	var routes []string
	for j := range 3 {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(c.ports[3+j]))
	}
	s, err := embedded.Start(embedded.Options{
		Listen:     "127.0.0.1:" + strconv.Itoa(c.ports[i]),
		StoreDir:   c.t.TempDir(),
		ServerName: fmt.Sprintf("n%d", i),
		Cluster:    &embedded.Cluster{Name: "topology-test", Listen: "127.0.0.1:" + strconv.Itoa(c.ports[3+i]), Routes: routes},
	})
	if err != nil {
		c.t.Fatal(err)
	}
	c.t.Cleanup(s.Shutdown)
	c.nodes = append(c.nodes, s)
	if len(c.nodes) < 2 {
		return // one node of three has no quorum to elect a leader
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, n := range c.nodes {
		for !n.JetStreamReady() {
			if time.Now().After(deadline) {
				c.t.Fatal("no JetStream metadata leader within 30s")
			}
			<-time.After(50 * time.Millisecond)
		}
	}
}

// connectJetStream connects to urls as name for the rest of the test.
func connectJetStream(t *testing.T, urls, name string) jetstream.JetStream {
	t.Helper()
	nc, err := bus.Connect(urls, name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// urls are the started nodes' client URLs, comma-separated.
func (c *cluster) urls() string {
	var urls []string
	for _, n := range c.nodes {
		urls = append(urls, n.ClientURL())
	}
	return strings.Join(urls, ",")
}

// A replicated topology ensured while the cluster knows fewer JetStream peers than the streams' replicas (a
// cluster still forming, a node restarting) cannot be placed yet: Ensure keeps asking until its context ends,
// and succeeds once the missing node joins, instead of failing the service's start-up at the first answer.
func TestEnsureWaitsForTheReplicasPeers(t *testing.T) {
	c := newCluster(t)
	c.start(0)
	c.start(1)
	js := connectJetStream(t, c.urls(), "reconciler")
	topo := bus.DefaultTopology()
	topo.Replicas = 3

	short, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err := topo.Ensure(short, js)
	var apiErr *jetstream.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode != 10005 {
		t.Fatalf("Ensure on two nodes of three = %v, want JetStream's no suitable peers (10005)", err)
	}
	if short.Err() == nil {
		t.Fatalf("Ensure gave up before its context ended: %v", err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- topo.Ensure(ctx, js) }()
	c.start(2)
	if err := <-done; err != nil {
		t.Fatalf("Ensure once the third node joined: %v", err)
	}
	s, err := js.Stream(ctx, bus.StreamInbox)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.CachedInfo().Config.Replicas; got != 3 {
		t.Errorf("%s has %d replicas, want 3", bus.StreamInbox, got)
	}
}

// TestEnsureConcurrentlyOnCluster: every reconciler replica ensures the topology at start-up, at the same
// time on a fresh cluster (a Kubernetes rollout starts them together). Each must succeed — a create request
// the cluster leaves unanswered is sent again — and the streams exist once, replicated three times.
func TestEnsureConcurrentlyOnCluster(t *testing.T) {
	urls := startCluster(t)
	topo := bus.DefaultTopology()
	topo.Replicas = 3
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	const replicas = 4
	var wg sync.WaitGroup
	errs := make([]error, replicas)
	var js jetstream.JetStream
	for i := range replicas {
		replica := connectJetStream(t, urls, fmt.Sprintf("replica-%d", i))
		js = replica
		wg.Go(func() { errs[i] = topo.Ensure(ctx, replica) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("replica %d: %v", i, err)
		}
	}
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	names := []string{"KV_" + bus.BucketJudge}
	for _, c := range topo.StreamConfigs() {
		names = append(names, c.Name)
	}
	for _, name := range names {
		s, err := js.Stream(ctx, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got := s.CachedInfo().Config.Replicas; got != 3 {
			t.Errorf("%s has %d replicas, want 3", name, got)
		}
	}
}
