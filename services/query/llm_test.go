package query

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

func llmHarness(t *testing.T, srv *openaitest.Server, mod func(*Config)) *harness {
	t.Helper()
	return newHarness(t, func(c *Config) {
		c.LLM.BaseURL = srv.URL()
		c.LLM.Model = "test-model"
		c.LLMTimeout = 5 * time.Second
		mod(c)
	})
}

// The Self-Ask planner decomposes the question; each hop is still resolved by code from current values. The
// plan's phrasing ("wife") differs from the question's wording, which the rule decomposition could not follow.
func TestSelfAskPlanner(t *testing.T) {
	srv := openaitest.NewServer(t)
	h := llmHarness(t, srv, func(c *Config) { c.Planner = "llm"; c.Reader = "off" })
	f := h.workspace("books")
	f.add(fclaim{Subject: "Dune", Predicate: "author", Object: "Frank Herbert", Text: "The author of Dune is Frank Herbert."})
	old := f.add(fclaim{Subject: "Frank Herbert", Predicate: "married to", Object: "Flora Parkinson", ValidFrom: day("1940-01-01")})
	nw := f.add(fclaim{Subject: "Frank Herbert", Predicate: "married to", Object: "Beverly Herbert", ValidFrom: day("1946-01-01")})
	f.supersede(nw, old, day("1946-01-01"))
	ctx := context.Background()
	a := h.client("agent-a")

	srv.EnqueueChat(openaitest.ChatReplyJSON(plan{Entity: "Dune", Relations: []string{"writer", "wife"}}))
	res, err := a.Answer(ctx, "books", api.AnswerRequest{Question: "Whom did the person who penned Dune wed?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Beverly Herbert" || res.Mode != ModeMultiHop || len(res.Hops) != 2 || res.TokensSpent.Prompt == 0 {
		t.Fatalf("answer = %+v", res)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d LLM calls, want 1", len(reqs))
	}
	cr, err := reqs[0].Chat()
	if err != nil || cr.ResponseFormat == nil || !strings.Contains(cr.Messages[len(cr.Messages)-1].Content, "penned Dune") {
		t.Fatalf("planner request = %+v, %v", cr, err)
	}

	// A plan that does not resolve falls back to the rule decomposition.
	srv.EnqueueChat(openaitest.ChatReplyJSON(plan{Entity: "Nothing Known", Relations: []string{"x"}}))
	res, err = a.Answer(ctx, "books", api.AnswerRequest{Question: "Who is the spouse of the author of Dune?"})
	if err != nil || res.Answer != "Beverly Herbert" {
		t.Fatalf("fallback = %+v, %v", res, err)
	}
	// An LLM failure is a note, not an error.
	srv.EnqueueChat(openaitest.ServerError(500), openaitest.ServerError(500), openaitest.ServerError(500),
		openaitest.ServerError(500), openaitest.ServerError(500))
	h.svc.llm = mustLLM(t, srv, 0)
	res, err = a.Answer(ctx, "books", api.AnswerRequest{Question: "Who is the spouse of the author of Dune?"})
	if err != nil || res.Answer != "Beverly Herbert" || len(res.Notes) == 0 {
		t.Fatalf("planner failure = %+v, %v", res, err)
	}
}

func mustLLM(t *testing.T, srv *openaitest.Server, retries int) *llm.Client {
	t.Helper()
	if retries == 0 {
		retries = -1
	}
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "test-model", MaxRetries: retries, InitialBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The reader answers from the assembled context, contradiction first: disputed facts are marked in what it
// reads and the instructions tell it to name both and ask.
func TestReaderContradictionFirst(t *testing.T) {
	srv := openaitest.NewServer(t)
	h := llmHarness(t, srv, func(c *Config) { c.Reader = "always" })
	f := h.workspace("team")
	x := f.add(fclaim{Subject: "Project Apollo", Predicate: "deadline", Object: "March 3", ValidFrom: day("2024-02-01")})
	y := f.add(fclaim{Subject: "Project Apollo", Predicate: "deadline", Object: "March 10", ValidFrom: day("2024-02-01"), Owner: "agent-c"})
	f.dispute(day("2024-02-02"), x, y)
	ctx := context.Background()
	srv.EnqueueChat(openaitest.ChatReplyUsage("Memory holds conflicting deadlines: March 3 and March 10. Which is right?",
		openaitest.Usage{PromptTokens: 321, CompletionTokens: 17, TotalTokens: 338}))
	res, err := h.client("agent-a").Answer(ctx, "team", api.AnswerRequest{Question: "When is the Project Apollo deadline?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Mode != ModeReader || !res.Disputed || res.TokensSpent.Prompt != 321 || res.TokensSpent.Completion != 17 ||
		res.TokensSpent.Context == 0 || !strings.Contains(res.Answer, "Which is right") || len(res.ClaimsUsed) < 2 {
		t.Fatalf("reader answer = %+v", res)
	}
	cr, err := srv.Requests()[0].Chat()
	if err != nil {
		t.Fatal(err)
	}
	sys, user := cr.Messages[0].Content, cr.Messages[1].Content
	if !strings.Contains(sys, "Contradictions first") || strings.Count(user, "[DISPUTED]") != 2 ||
		!strings.Contains(user, "Deterministic answer: March") {
		t.Fatalf("reader prompt:\n%s\n---\n%s", sys, user)
	}
}

// With reader "fallback", the LLM reads only when the deterministic path has no answer.
func TestReaderFallback(t *testing.T) {
	srv := openaitest.NewServer(t)
	h := llmHarness(t, srv, func(c *Config) { c.Reader = "fallback" })
	f := h.workspace("team")
	f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Berlin", Text: "Alice lives in Berlin."})
	ctx := context.Background()
	a := h.client("agent-a")
	res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?"})
	if err != nil || res.Mode != ModeDeterministic || len(srv.Requests()) != 0 {
		t.Fatalf("deterministic = %+v, %v, %d LLM calls", res, err, len(srv.Requests()))
	}
	srv.EnqueueChat(openaitest.ChatReply("Probably Berlin."))
	res, err = a.Answer(ctx, "team", api.AnswerRequest{Question: "Which European capital is home to her?"})
	if err != nil || res.Mode != ModeReader || res.Answer != "Probably Berlin." || len(srv.Requests()) != 1 {
		t.Fatalf("fallback = %+v, %v", res, err)
	}
}
