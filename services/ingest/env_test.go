package ingest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// testEnv is a real embedded JetStream server with Mneme's topology, a fresh migrated Postgres database, the
// ingest service over both, and an HTTP server with its routes.
type testEnv struct {
	t   testing.TB
	nc  *nats.Conn
	js  jetstream.JetStream
	db  *pgxpool.Pool
	svc *Service
	srv *httptest.Server
}

func newEnv(t testing.TB, mutate func(*Config)) *testEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ns, err := embedded.Start(embedded.Options{Listen: "127.0.0.1:-1", StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	nc, err := nats.Connect(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	if err := bus.DefaultTopology().Ensure(ctx, js); err != nil {
		t.Fatal(err)
	}
	db := pgtest.New(t)
	if _, err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	if testing.Verbose() {
		log = slog.New(slog.NewTextHandler(t.Output(), &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	svc, err := New(service.Deps{Logger: log, NATS: nc, JS: js, DB: db, Partitions: 16, Instance: "test"}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	svc.Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &testEnv{t: t, nc: nc, js: js, db: db, svc: svc, srv: srv}
}

// runInbox runs the inbox consumer until the test ends and checks it returns cleanly.
func (e *testEnv) runInbox() {
	e.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.svc.Run(ctx) }()
	e.t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			e.t.Errorf("Run: %v", err)
		}
	})
	eventually(e.t, "inbox consumer ready", func() bool { return e.svc.Ready(context.Background()) == nil })
}

// post sends body to path as agent and decodes the answer into out (when not nil).
func (e *testEnv) post(path, agent, body string, out any) int {
	e.t.Helper()
	req, err := http.NewRequest(http.MethodPost, e.srv.URL+path, bytes.NewBufferString(body))
	if err != nil {
		e.t.Fatal(err)
	}
	if agent != "" {
		req.Header.Set(api.HeaderAgent, agent)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			e.t.Fatalf("response %d %q: %v", resp.StatusCode, b, err)
		}
	}
	return resp.StatusCode
}

// streamMsgs returns every message stored in a stream, in order.
func (e *testEnv) streamMsgs(stream string) []*jetstream.RawStreamMsg {
	e.t.Helper()
	ctx := context.Background()
	s, err := e.js.Stream(ctx, stream)
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		e.t.Fatal(err)
	}
	var out []*jetstream.RawStreamMsg
	if info.State.Msgs == 0 {
		return nil
	}
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			e.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

func (e *testEnv) streamCount(stream string) uint64 {
	e.t.Helper()
	s, err := e.js.Stream(context.Background(), stream)
	if err != nil {
		e.t.Fatal(err)
	}
	info, err := s.Info(context.Background())
	if err != nil {
		e.t.Fatal(err)
	}
	return info.State.Msgs
}

// envelopes decodes and schema-checks every event in a stream.
func (e *testEnv) envelopes(stream string) []event.Envelope {
	e.t.Helper()
	var out []event.Envelope
	for _, m := range e.streamMsgs(stream) {
		env, err := event.Decode(m.Data)
		if err != nil {
			e.t.Fatal(err)
		}
		validEvent(e.t, env)
		if got := m.Header.Get(jetstream.MsgIDHeader); got != env.ID {
			e.t.Fatalf("Nats-Msg-Id %q, event id %q", got, env.ID)
		}
		out = append(out, env)
	}
	return out
}

// publishInbox publishes a raw inbox message and waits for the inbox stream to store it.
func (e *testEnv) publishInbox(subject, agent string, body []byte) {
	e.t.Helper()
	msg := nats.NewMsg(subject)
	msg.Data = body
	if agent != "" {
		msg.Header.Set(api.HeaderAgent, agent)
	}
	if _, err := e.js.PublishMsg(context.Background(), msg); err != nil {
		e.t.Fatal(err)
	}
}

// eventually polls cond until it holds or a deadline passes.
func eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		<-tick.C
	}
}
