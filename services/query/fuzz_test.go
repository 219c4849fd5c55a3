package query

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
)

// Fuzz tests send arbitrary input through the real HTTP server to real Postgres. Whatever a caller sends, the
// answer is a well-formed JSON response with a status below 500 (a deadline or database failure would be a
// 503; none is expected here).

// fuzzServer builds one harness for the whole fuzz run, seeded with a small story.
func fuzzServer(tb testing.TB) *harness {
	h := newHarness(tb)
	fx := buildLives(h).f
	fx.add(fclaim{Subject: "Dune", Predicate: "author", Object: "Frank Herbert"})
	fx.add(fclaim{Subject: "Frank Herbert", Predicate: "married to", Object: "Beverly Herbert"})
	fx.add(fclaim{Subject: "Bob", Predicate: "salary", Object: "1", Scope: "private", Owner: "agent-b"})
	return h
}

func checkResponse(t *testing.T, resp *http.Response) {
	t.Helper()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") &&
		(resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed) {
		return // a path no route matches: the mux's own answer
	}
	if resp.StatusCode >= 500 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	if !json.Valid(body) {
		t.Fatalf("status %d with a body that is not JSON: %q", resp.StatusCode, body)
	}
	if resp.StatusCode >= 400 {
		var e api.Error
		if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" || e.Error.Message == "" {
			t.Fatalf("status %d with a malformed error body: %s", resp.StatusCode, body)
		}
	}
}

func post(t *testing.T, h *harness, path, agent, body string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, h.srv.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(api.HeaderAgent, agent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	checkResponse(t, resp)
}

var bodySeeds = []string{
	`{"query":"Where does Alice live?"}`,
	`{"query":"Where did Alice live before?","k":3,"token_budget":50,"include_history":true}`,
	`{"query":"alice","as_of":"2023-01-01T00:00:00Z","known_at":"2024-01-01T00:00:00+02:00"}`,
	`{"query":"\u0000"}`, `{"query":"` + strings.Repeat("a ", 3000) + `"}`, `{"query":1}`, `{"query":null}`,
	`{"query":"x","k":1e2}`, `{"query":"x","k":-0}`, `{"query":"x","as_of":"0000-01-01T00:00:00Z"}`,
	`{"query":"x","as_of":"9999-12-31T23:59:59Z"}`, `{"query":"'\"&|!:*()<->"}`, `{"query":"the of a an"}`,
	`{"query":"` + strings.Repeat("Spouse of the author of ", 40) + `Dune"}`, `{"question":"Who is the spouse of the author of Dune?"}`,
	`[]`, `""`, `null`, `{`, `{"query":"x"}{"query":"y"}`, "\xff\xfe", `{"query":"\ud800"}`,
	`{"query":"Where does my sister work?","asker":"Kim"}`, `{"query":"Where do I live?","asker":"` + strings.Repeat("K", 300) + `"}`,
	`{"query":"my my my","asker":"\u0007"}`, `{"query":"I'm?","asker":"42"}`, `{"query":"x","asker":7}`,
}

func FuzzSearch(f *testing.F) {
	for _, s := range bodySeeds {
		f.Add(s)
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		post(t, h, "/v1/workspaces/team/search", "agent-a", body)
	})
}

func FuzzAnswer(f *testing.F) {
	for _, s := range bodySeeds {
		f.Add(strings.ReplaceAll(s, `"query"`, `"question"`))
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, body string) {
		post(t, h, "/v1/workspaces/team/answer", "agent-a", body)
	})
}

// FuzzQuestion fuzzes the question text itself (the deterministic resolver's input), in a valid body.
func FuzzQuestion(f *testing.F) {
	for _, s := range []string{"Where does Alice live?", "Who is the spouse of the author of Dune?", "''s's 's", "?", "Alice Alice Alice",
		"the the the the the the the the the the", "Dune's author's wife's city", "used to before still changed"} {
		f.Add(s)
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, q string) {
		b, _ := json.Marshal(map[string]string{"question": q})
		post(t, h, "/v1/workspaces/team/answer", "agent-a", string(b))
		b, _ = json.Marshal(map[string]string{"query": q})
		post(t, h, "/v1/workspaces/team/search", "agent-b", string(b))
	})
}

func FuzzInspect(f *testing.F) {
	for _, s := range []string{"alice", "Alice", "%00", "%ff", "a/b", "..", "claims", strings.Repeat("x", 600),
		"0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11", "alice?as_of=2024-01-01T00:00:00Z", "alice?known_at=bad&x=1",
		"alice?decisions_limit=0&inputs_limit=0", "alice?decisions_limit=500&inputs_limit=100", "alice?decisions_limit=501",
		"alice?inputs_limit=-1", "alice?decisions_limit=99999999999999999999", "alice?slot=lives_in",
		"alice?slot=lives_in&decisions_cursor=" + decisionCursor{Key: slotChainKey("alice", "lives_in")}.encode(),
		"alice?slot=lives_in&decisions_cursor=" + decisionCursor{Key: slotChainKey("alice", "lives_in"), DecidedAt: day("2024-01-01"),
			Partition: -1, StreamSeq: -9, ID: "0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11"}.encode(),
		"alice?decisions_cursor=eyJrIjoieCJ9", "alice?slot=%00", "alice?slot=&decisions_cursor=",
		"0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11?decisions_limit=3&decisions_cursor=%ff&inputs_limit=2"} {
		f.Add(s)
	}
	h := fuzzServer(f)
	f.Fuzz(func(t *testing.T, p string) {
		for _, base := range []string{"/v1/workspaces/team/subjects/", "/v1/workspaces/team/claims/"} {
			u, err := url.Parse(h.srv.URL + base + p)
			if err != nil || strings.ContainsFunc(u.RawQuery, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
				return // not a request an HTTP client can send
			}
			req, err := http.NewRequest(http.MethodGet, u.String(), nil)
			if err != nil {
				return
			}
			req.Header.Set(api.HeaderAgent, "agent-a")
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			checkResponse(t, resp)
			resp.Body.Close()
		}
	})
}
