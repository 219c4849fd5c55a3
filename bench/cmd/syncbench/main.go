// Command syncbench measures what JetStream's fsync policy costs Mneme's publishers: acknowledged publishes of
// 1 KiB messages to a file-stored stream, by 1 and by 8 concurrent publishers each waiting for its
// acknowledgement (as an ingest request or an extractor does), on one server (R1) and on a three-node cluster
// on loopback (R3), with sync_interval "always" (Mneme's choice, see README, Durability) against the server's
// default (fsync every 2 minutes). It prints a Markdown table with the ratio of each pair.
//
//	go run ./bench/cmd/syncbench -n 2000
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus/embedded"
)

type result struct {
	perSec   float64
	p50, p99 time.Duration
}

func main() {
	n := flag.Int("n", 2000, "messages per measurement")
	size := flag.Int("size", 1024, "message size in bytes")
	flag.Parse()
	if err := run(*n, *size); err != nil {
		fmt.Fprintln(os.Stderr, "syncbench:", err)
		os.Exit(1)
	}
}

func run(n, size int) error {
	fmt.Printf("| servers | replicas | publishers | sync | acknowledged msgs/s | p50 ms | p99 ms | always / 2m |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|\n")
	for _, nodes := range []int{1, 3} {
		for _, pubs := range []int{1, 8} {
			var base result
			for _, interval := range []time.Duration{2 * time.Minute, 0} {
				r, err := measure(nodes, pubs, interval, n, size)
				if err != nil {
					return err
				}
				name, ratio := "2m (default)", "—"
				if interval == 0 {
					name, ratio = "always", fmt.Sprintf("%.2f", r.perSec/base.perSec)
				} else {
					base = r
				}
				fmt.Printf("| %d | %d | %d | %s | %.0f | %.2f | %.2f | %s |\n", nodes, nodes, pubs, name, r.perSec,
					float64(r.p50.Microseconds())/1000, float64(r.p99.Microseconds())/1000, ratio)
			}
		}
	}
	return nil
}

// measure starts nodes fresh servers with the given sync interval (0: always), publishes n messages from pubs
// publishers and stops the servers.
func measure(nodes, pubs int, interval time.Duration, n, size int) (result, error) {
	dir, err := os.MkdirTemp("", "syncbench")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	servers, urls, err := start(dir, nodes, interval)
	defer func() {
		for _, s := range servers {
			s.Shutdown()
		}
	}()
	if err != nil {
		return result{}, err
	}
	nc, err := nats.Connect(strings.Join(urls, ","))
	if err != nil {
		return result{}, err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return result{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, err = js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "BENCH", Subjects: []string{"bench.>"}, Storage: jetstream.FileStorage, Replicas: nodes})
		if err == nil || time.Now().After(deadline) {
			break
		}
		<-time.After(100 * time.Millisecond)
	}
	if err != nil {
		return result{}, fmt.Errorf("stream: %w", err)
	}
	payload := make([]byte, size)
	lat := make([][]time.Duration, pubs)
	var wg sync.WaitGroup
	errs := make(chan error, pubs)
	began := time.Now()
	for p := range pubs {
		wg.Go(func() {
			for i := p; i < n; i += pubs {
				t := time.Now()
				if _, err := js.Publish(ctx, "bench.x", payload, jetstream.WithMsgID(strconv.Itoa(i))); err != nil {
					errs <- err
					return
				}
				lat[p] = append(lat[p], time.Since(t))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(began)
	close(errs)
	if err := <-errs; err != nil {
		return result{}, err
	}
	all := slices.Concat(lat...)
	slices.Sort(all)
	return result{perSec: float64(n) / elapsed.Seconds(), p50: all[len(all)/2], p99: all[len(all)*99/100]}, nil
}

func start(dir string, nodes int, interval time.Duration) ([]*embedded.Server, []string, error) {
	ports, err := embedded.FreePorts(2 * nodes)
	if err != nil {
		return nil, nil, err
	}
	var routes []string
	for i := range nodes {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(ports[nodes+i]))
	}
	var servers []*embedded.Server
	var urls []string
	for i := range nodes {
		opts := embedded.Options{Listen: "127.0.0.1:" + strconv.Itoa(ports[i]), StoreDir: filepath.Join(dir, strconv.Itoa(i)), ServerName: fmt.Sprintf("n%d", i), SyncInterval: interval}
		if nodes > 1 {
			opts.Cluster = &embedded.Cluster{Name: "syncbench", Listen: "127.0.0.1:" + strconv.Itoa(ports[nodes+i]), Routes: routes}
		}
		s, err := embedded.Start(opts)
		if err != nil {
			return servers, nil, err
		}
		servers = append(servers, s)
		urls = append(urls, s.ClientURL())
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, s := range servers {
		for !s.JetStreamReady() {
			if time.Now().After(deadline) {
				return servers, nil, fmt.Errorf("cluster without a JetStream leader after 30s")
			}
			<-time.After(50 * time.Millisecond)
		}
	}
	return servers, urls, nil
}
