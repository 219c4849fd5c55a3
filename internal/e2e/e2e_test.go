// Package e2e tests the whole system through its public interfaces only: NATS inbox subjects and the HTTP API,
// with every service running in-process on real JetStream and real Postgres+pgvector.
package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/internal/app/apptest"
	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
)

// call sends a JSON request as agent and decodes the JSON answer into out; it returns the status code.
func call(t *testing.T, method, url, agent string, body, out any) int {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if agent != "" {
		req.Header.Set(api.HeaderAgent, agent)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if out != nil && len(b) > 0 {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: decode %q: %v", method, url, b, err)
		}
	}
	return resp.StatusCode
}

// eventually polls f until it returns true or the deadline passes.
func eventually(t *testing.T, within time.Duration, what string, f func() bool) {
	t.Helper()
	timeout := time.After(within)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for !f() {
		select {
		case <-timeout:
			t.Fatalf("not within %s: %s", within, what)
		case <-tick.C:
		}
	}
}

func hasObject(r api.SearchResponse, object string) bool {
	for _, c := range r.Claims {
		if strings.EqualFold(c.Object, object) {
			return true
		}
	}
	return false
}

// TestOutsideProcessesSeeEachOther: a separate OS process publishes a structured claim to the NATS inbox and
// an HTTP caller finds it; a claim written over HTTP shows up to an independent NATS client on the claims log.
func TestOutsideProcessesSeeEachOther(t *testing.T) {
	sys := apptest.Start(t, nil)
	bin := filepath.Join(t.TempDir(), "nats-publish")
	build := exec.Command("go", "build", "-o", bin, "./examples/nats-publish")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build example: %v\n%s", err, out)
	}
	pub := exec.Command(bin, "-nats", sys.NATSURL, "-ws", "spine", "-agent", "planner",
		"-subject", "Alice", "-predicate", "lives in", "-object", "Berlin", "-valid-from", "2025-06-01T00:00:00Z")
	if out, err := pub.CombinedOutput(); err != nil {
		t.Fatalf("outside publisher: %v\n%s", err, out)
	}
	eventually(t, 60*time.Second, "the NATS-published claim is found over HTTP", func() bool {
		var r api.SearchResponse
		code := call(t, "POST", sys.BaseURL+"/v1/workspaces/spine/search", "scheduler", api.SearchRequest{Query: "Where does Alice live?"}, &r)
		return code == 200 && hasObject(r, "Berlin")
	})

	var acc api.AcceptedResponse
	claim := api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Bob", Predicate: "works at", Object: "Acme"}}}
	if code := call(t, "POST", sys.BaseURL+"/v1/workspaces/spine/claims", "scheduler", claim, &acc); code != http.StatusAccepted || len(acc.IDs) != 1 {
		t.Fatalf("HTTP claim: %d %+v", code, acc)
	}
	nc, err := nats.Connect(sys.NATSURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cons, err := js.OrderedConsumer(ctx, bus.StreamClaims, jetstream.OrderedConsumerConfig{})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for !found {
		m, err := cons.Next(jetstream.FetchMaxWait(time.Until(deadline(ctx))))
		if err != nil {
			t.Fatalf("the HTTP-written claim never reached the claims log: %v", err)
		}
		env, err := event.Decode(m.Data())
		if err != nil {
			t.Fatal(err)
		}
		var c event.ClaimEmbeddedV1
		if env.Into(event.TypeClaimEmbedded, &c) == nil && c.ClaimID == acc.IDs[0] {
			found = c.Object == "Acme" && c.Provenance.AgentID == "scheduler"
		}
	}
}

func deadline(ctx context.Context) time.Time {
	d, _ := ctx.Deadline()
	return d
}

// TestDemoScenario runs the scripted demo (examples/demo, what `make demo` shows) against the in-process system:
// fact, update, late-arriving older fact, as-of and known-at answers, private isolation, extraction from a turn
// and a disputed slot. The demo exits non-zero when any answer is wrong.
func TestDemoScenario(t *testing.T) {
	sys := apptest.Start(t, nil)
	cmd := exec.Command("go", "run", "./examples/demo", "-url", sys.BaseURL, "-nats", sys.NATSURL, "-ws", "scenario")
	cmd.Dir = "../.."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("demo scenario failed: %v\n%s", err, out)
	}
	t.Logf("%s", out)
}
