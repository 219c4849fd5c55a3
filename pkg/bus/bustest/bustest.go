// Package bustest starts a real in-process NATS JetStream server for tests, with Mneme's topology created.
package bustest

import (
	"context"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
)

// Server is a running test server with a connected client.
type Server struct {
	URL string
	// StoreDir is the server's JetStream storage directory (tests that inspect files on disk read it).
	StoreDir string
	NC       *nats.Conn
	JS       jetstream.JetStream
	emb      *embedded.Server
}

// Start runs an embedded JetStream server on a free loopback port with storage in t.TempDir(), creates the
// topology, and stops everything when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	emb, err := embedded.Start(embedded.Options{Listen: "127.0.0.1:-1", StoreDir: dir, ServerName: "mneme-test"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(emb.Shutdown)
	nc, err := bus.Connect(emb.ClientURL(), "mneme-test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := bus.DefaultTopology().Ensure(ctx, js); err != nil {
		t.Fatal(err)
	}
	return &Server{URL: emb.ClientURL(), StoreDir: dir, NC: nc, JS: js, emb: emb}
}

// Collect reads up to n messages from subject filter of stream with an ephemeral consumer, waiting at most
// timeout overall. It returns what arrived (possibly fewer than n).
func (s *Server) Collect(t testing.TB, stream, filter string, n int, timeout time.Duration) []jetstream.Msg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cons, err := s.JS.OrderedConsumer(ctx, stream, jetstream.OrderedConsumerConfig{FilterSubjects: []string{filter}})
	if err != nil {
		t.Fatal(err)
	}
	var out []jetstream.Msg
	for len(out) < n {
		left := time.Until(deadlineOf(ctx))
		if left < time.Millisecond {
			break
		}
		m, err := cons.Next(jetstream.FetchMaxWait(left))
		if err != nil {
			break
		}
		out = append(out, m)
	}
	return out
}

func deadlineOf(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}
