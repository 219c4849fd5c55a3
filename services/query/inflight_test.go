package query

import (
	"context"
	"errors"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
)

// A bound lets its number of retrievals in at once; the next waits until one leaves or its own deadline ends.
// The default is twice GOMAXPROCS in a process without ingest, none beside it; -1 is no bound.
func TestInflightLetsInItsNumberAndTheRestWait(t *testing.T) {
	f := newInflight(2, false)
	ctx := context.Background()
	leave1, err := f.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	leave2, err := f.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := f.enter(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a third retrieval with two in flight: %v; want it to wait until its deadline", err)
	}
	entered := make(chan struct{})
	go func() {
		leave, err := f.enter(ctx)
		if err == nil {
			leave()
		}
		close(entered)
	}()
	leave1()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("a waiting retrieval was not let in when one left")
	}
	leave2()

	if got, want := cap(newInflight(0, false)), 2*runtime.GOMAXPROCS(0); got != want {
		t.Fatalf("default bound of a query process %d; want twice GOMAXPROCS, %d", got, want)
	}
	if newInflight(0, true) != nil || cap(newInflight(3, true)) != 3 {
		t.Fatal("beside ingest the default is no bound, and a bound set is kept")
	}
	none := newInflight(-1, false)
	for range 100 {
		if _, err := none.enter(short); err != nil {
			t.Fatalf("no bound refused a retrieval: %v", err)
		}
	}
}

// Over HTTP, with one retrieval at a time: eight concurrent searches and answers all finish with the right
// answer (a waiting request holds no connection, and an answer's reader does not wait behind itself), and a
// request whose deadline ends while it waits gets 503 unavailable, naming the deadline.
func TestSearchesBeyondTheBoundWaitTheirTurn(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxInFlight = 1 })
	f := h.workspace("ws-turns")
	f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Lisbon", Text: "Alice lives in Lisbon.", ValidFrom: day("2025-01-01")})
	c := h.client("agent-a")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 8 {
		wg.Go(func() {
			res, err := c.Search(ctx, "ws-turns", api.SearchRequest{Query: "Where does Alice live?", K: 5})
			if err == nil && !strings.Contains(res.Context, "Lisbon") {
				err = errors.New("search context without Lisbon: " + res.Context)
			}
			errs <- err
		})
		wg.Go(func() {
			res, err := c.Answer(ctx, "ws-turns", api.AnswerRequest{Question: "Where does Alice live?"})
			if err == nil && res.Answer != "Lisbon" {
				err = errors.New("answer " + res.Answer + ", want Lisbon")
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}

	// The one turn taken and held: the next request waits out its deadline.
	short := newHarness(t, func(c *Config) { c.MaxInFlight, c.RequestTimeout = 1, 50*time.Millisecond })
	short.workspace("ws-turns").add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Lisbon", Text: "Alice lives in Lisbon.", ValidFrom: day("2025-01-01")})
	leave, err := short.svc.inflight.enter(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer leave()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, short.srv.URL+"/v1/workspaces/ws-turns/search", strings.NewReader(`{"query":"Where does Alice live?"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.HeaderAgent, "agent-a")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body api.Error
	if err := jsonDecode(resp.Body, &body); err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusServiceUnavailable || body.Error.Code != api.CodeUnavailable || !strings.Contains(body.Error.Message, "deadline") {
		t.Fatalf("a search that waited out its deadline: HTTP %d %+v; want 503 unavailable naming the deadline", resp.StatusCode, body.Error)
	}
}
