package bus_test

import (
	"context"
	"fmt"
	"strconv"
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
	ports, err := embedded.FreePorts(6)
	if err != nil {
		t.Fatal(err)
	}
	var routes []string
	for i := range 3 {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(ports[3+i]))
	}
	var nodes []*embedded.Server
	urls := ""
	for i := range 3 {
		s, err := embedded.Start(embedded.Options{
			Listen:     "127.0.0.1:" + strconv.Itoa(ports[i]),
			StoreDir:   t.TempDir(),
			ServerName: fmt.Sprintf("n%d", i),
			Cluster:    &embedded.Cluster{Name: "topology-test", Listen: "127.0.0.1:" + strconv.Itoa(ports[3+i]), Routes: routes},
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Shutdown)
		nodes = append(nodes, s)
		if i > 0 {
			urls += ","
		}
		urls += s.ClientURL()
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, n := range nodes {
		for !n.JetStreamReady() {
			if time.Now().After(deadline) {
				t.Fatal("no JetStream metadata leader within 30s")
			}
			<-time.After(50 * time.Millisecond)
		}
	}
	return urls
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
		nc, err := bus.Connect(urls, fmt.Sprintf("replica-%d", i))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		replica, err := jetstream.New(nc)
		if err != nil {
			t.Fatal(err)
		}
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
