package client

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
)

// Path parameters reach the server as one intact segment whatever they contain.
func TestPathSegments(t *testing.T) {
	var got []string
	mux := http.NewServeMux()
	mux.HandleFunc("GET /base/v1/workspaces/{ws}/subjects/{key}", func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.PathValue("ws")+"|"+r.PathValue("key")+"|"+r.Header.Get(api.HeaderAgent)+"|"+r.URL.Query().Get("as_of"))
		api.WriteJSON(w, http.StatusOK, api.SubjectResponse{SubjectKey: r.PathValue("key")})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := New(srv.URL+"/base/", "agent-1")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{"carlos_gómez", "mike_d'antoni", "a/b", "50%", "x?y#z", "kūkai", "sp ace"}
	at := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, k := range keys {
		res, err := c.Subject(context.Background(), "team", k, ReadOptions{AsOf: at})
		if err != nil {
			t.Fatalf("%q: %v", k, err)
		}
		if res.SubjectKey != k {
			t.Fatalf("%q came back as %q", k, res.SubjectKey)
		}
	}
	if len(got) != len(keys) || got[0] != "team|carlos_gómez|agent-1|2024-01-02T03:04:05Z" {
		t.Fatalf("server saw %q", got)
	}
}

func TestTypedErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/v1/workspaces/team/search":
			api.WriteJSON(w, http.StatusBadRequest, api.Error{Error: api.ErrorBody{Code: api.CodeInvalid, Field: "k", Message: "k too large", Limit: "100"}})
		case "/v1/workspaces/nope/answer":
			api.WriteError(w, http.StatusNotFound, api.CodeNotFound, "workspace", "no such workspace")
		default:
			http.Error(w, "upstream exploded", http.StatusBadGateway)
		}
	}))
	defer srv.Close()
	c, _ := New(srv.URL, "a", WithKey("mnk_x"))
	_, err := c.Search(context.Background(), "team", api.SearchRequest{Query: "q", K: 1000})
	var e *Error
	if !errors.As(err, &e) || e.Status != 400 || e.Body.Field != "k" || e.Body.Limit != "100" || !errors.Is(err, ErrBadRequest) {
		t.Fatalf("search error = %#v", err)
	}
	_, err = c.Answer(context.Background(), "nope", api.AnswerRequest{Question: "q"})
	if !errors.Is(err, ErrNotFound) || errors.Is(err, ErrBadRequest) {
		t.Fatalf("answer error = %v", err)
	}
	err = c.Healthz(context.Background())
	if !errors.As(err, &e) || e.Status != http.StatusBadGateway || e.Body.Message != "upstream exploded" {
		t.Fatalf("non-JSON error = %#v", err)
	}
}

func TestNewValidates(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "http://", "::"} {
		if _, err := New(u, "a"); err == nil {
			t.Errorf("New(%q) accepted", u)
		}
	}
	if _, err := New("http://x", ""); err == nil {
		t.Error("empty agent accepted")
	}
}

// Sixteen workers sharing one Client, each calling again as soon as it is answered, keep their sixteen
// connections: after the first round no request dials a new one (Go's default transport keeps two idle
// connections per host and dialled again for most of the others' calls).
func TestConcurrentCallsReuseConnections(t *testing.T) {
	var dialled atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		api.WriteJSON(w, http.StatusOK, api.SearchResponse{})
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialled.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	c, err := New(srv.URL, "agent-1")
	if err != nil {
		t.Fatal(err)
	}
	const workers, rounds = 16, 20
	round := func() {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(func() {
				if _, err := c.Search(context.Background(), "team", api.SearchRequest{Query: "q"}); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	// About as many connections as requests in flight at once: a kept connection serves every later round. (A
	// round may need fewer than workers, when a request ends before another starts, so a later round may still
	// dial the rest; and the transport puts a connection back in its idle pool only after handing the response
	// over, so a round that starts at once may dial before the last round's connections are back — 17 for 16
	// workers on a loaded machine. With Go's default two idle connections per host, 320 requests dialled about
	// 260.)
	for range rounds {
		round()
	}
	if n, most := dialled.Load(), int64(2*workers); n > most {
		t.Errorf("%d rounds of %d concurrent requests dialled %d connections; want at most %d", rounds, workers, n, most)
	}
}
