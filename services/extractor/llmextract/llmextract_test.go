package llmextract

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

var ref = time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)

func window() extract.Window {
	seq := int64(7)
	return extract.Window{Workspace: "ws", SessionID: "s", Turns: []event.TurnAcceptedV1{
		{Workspace: "ws", TurnID: "t0", AgentID: "a", SessionID: "s", Role: "user", Speaker: "Caroline", Content: "I went to a support group yesterday.", OccurredAt: ref},
		{Workspace: "ws", TurnID: "t1", AgentID: "a", SessionID: "s", Role: "user", Speaker: "Melanie", Content: "I moved to Berlin last week.", OccurredAt: ref.Add(time.Minute), Sequence: &seq},
	}}
}

const goodAnswer = `{"claims":[
 {"turn":0,"subject":"Caroline","predicate":"went to","object":"a support group","text":"Caroline went to a support group on 7 May 2023.","functional":false,"valid_from":"2023-05-07","sequence":null,"confidence":0.9},
 {"turn":1,"subject":"I","predicate":"lives in","object":"Berlin","text":"Melanie lives in Berlin.","functional":false,"valid_from":"2023-05-01","sequence":null,"confidence":0.8}
]}`

func newExtractor(t *testing.T, srv *openaitest.Server, cfg llm.Config) *Extractor {
	t.Helper()
	cfg.BaseURL, cfg.Model = srv.URL(), "test-model"
	if cfg.InitialBackoff == 0 {
		cfg.InitialBackoff = time.Millisecond
	}
	if cfg.MaxBackoff == 0 {
		cfg.MaxBackoff = 5 * time.Millisecond
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return New(c)
}

func TestExtract(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply(goodAnswer))
	acct := llm.NewAccountant()
	e := newExtractor(t, srv, llm.Config{Accountant: acct})
	res, err := e.Extract(context.Background(), window())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 2 {
		t.Fatalf("claims %+v", res.Claims)
	}
	c := res.Claims[1]
	if c.TurnIDs[0] != "t1" || c.Subject != "Melanie" || c.SubjectKey != "melanie" || c.PredicateKey != "lives_in" || !c.Functional {
		t.Errorf("claim %+v: want Melanie lives_in (functional by policy despite the model)", c)
	}
	if !c.ValidFrom.Equal(time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC)) || c.Sequence == nil || *c.Sequence != 7 {
		t.Errorf("valid_from %s sequence %v", c.ValidFrom, c.Sequence)
	}
	if res.Usage.Calls != 1 || res.Usage.PromptTokens != openaitest.DefaultPromptTokens {
		t.Errorf("result usage %+v", res.Usage)
	}
	if u := acct.Stage(Stage); u.Calls != 1 || u.CompletionTokens != openaitest.DefaultCompletionTokens {
		t.Errorf("accounted usage %+v", acct.Snapshot())
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	body, _ := json.Marshal(reqs[0])
	if !strings.Contains(string(body), "json_schema") || !strings.Contains(string(body), "Melanie") {
		t.Errorf("request lacks the schema or the turns: %s", body)
	}
	if e.Name() != "llm:test-model" || e.Version() != Version {
		t.Errorf("provenance %s %s", e.Name(), e.Version())
	}
}

func TestMalformedAnswersAreRetried(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.MalformedJSON(), openaitest.ChatReply("Sure! Here are the facts you asked for."), openaitest.ChatReply("```json\n"+goodAnswer+"\n```"))
	e := newExtractor(t, srv, llm.Config{MalformedAttempts: 3})
	res, err := e.Extract(context.Background(), window())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 2 || res.Usage.Calls != 3 {
		t.Errorf("claims %d usage %+v, want 2 claims after 3 calls", len(res.Claims), res.Usage)
	}
}

func TestMalformedAnswersExhausted(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReply(`{"answer": "no list here"}`)
	}))
	e := newExtractor(t, srv, llm.Config{MalformedAttempts: 2})
	_, err := e.Extract(context.Background(), window())
	if err == nil || !Permanent(err) || !errors.Is(err, llm.ErrMalformedResponse) {
		t.Fatalf("err = %v, want a permanent malformed-response error", err)
	}
}

func TestRateLimitedThenAnswers(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.RateLimited(10*time.Millisecond), openaitest.RateLimited(0), openaitest.ChatReply(goodAnswer))
	e := newExtractor(t, srv, llm.Config{})
	res, err := e.Extract(context.Background(), window())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 2 || res.Usage.Retries != 2 {
		t.Errorf("claims %d usage %+v, want 2 retries", len(res.Claims), res.Usage)
	}
}

func TestRateLimitExhaustedIsRetryable(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response { return openaitest.RateLimited(0) }))
	e := newExtractor(t, srv, llm.Config{MaxRetries: 2})
	_, err := e.Extract(context.Background(), window())
	if !errors.Is(err, llm.ErrRateLimited) || Permanent(err) {
		t.Fatalf("err = %v, want a retryable rate-limit error", err)
	}
}

func TestTimeoutThenAnswers(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply(goodAnswer).WithDelay(2*time.Second), openaitest.ChatReply(goodAnswer))
	e := newExtractor(t, srv, llm.Config{Timeout: 100 * time.Millisecond})
	res, err := e.Extract(context.Background(), window())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 2 || res.Usage.Calls != 2 {
		t.Errorf("claims %d usage %+v", len(res.Claims), res.Usage)
	}
}

func TestTimeoutsExhausted(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReply(goodAnswer).WithDelay(2 * time.Second)
	}))
	e := newExtractor(t, srv, llm.Config{Timeout: 50 * time.Millisecond, MaxRetries: 1})
	_, err := e.Extract(context.Background(), window())
	if !errors.Is(err, llm.ErrTimeout) || Permanent(err) {
		t.Fatalf("err = %v, want a retryable timeout", err)
	}
}

func TestJSONObjectFallback(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.RejectJSONSchema(), openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReply(goodAnswer)
	}))
	e := newExtractor(t, srv, llm.Config{})
	res, err := e.Extract(context.Background(), window())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 2 {
		t.Errorf("claims %+v", res.Claims)
	}
	reqs := srv.ChatRequests()
	last, _ := json.Marshal(reqs[len(reqs)-1])
	if !strings.Contains(string(last), "json_object") {
		t.Errorf("last request did not fall back to json_object: %s", last)
	}
}

func TestUnattributableClaimsAreDropped(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply(`{"claims":[{"turn":9,"subject":"X","predicate":"p","object":"o"},{"subject":"Y","predicate":"p","object":"o"},{"turn":0,"subject":"Caroline","predicate":"likes","object":"jazz"}]}`))
	e := newExtractor(t, srv, llm.Config{})
	res, err := e.Extract(context.Background(), window())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Claims) != 1 || res.Claims[0].Text != "Caroline likes jazz." {
		t.Errorf("claims %+v: want only the attributable one, with generated text", res.Claims)
	}
}
