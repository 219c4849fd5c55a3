package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

func TestChatSuccess(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.RequireAPIKey("sk-test"))
	srv.EnqueueChat(openaitest.ChatReply("Hello there"))
	cfg := testConfig(srv)
	cfg.Headers = map[string]string{"OpenAI-Organization": "org-1"}
	c := newClient(t, cfg)
	seed := int64(42)
	resp, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}, Seed: &seed, MaxTokens: 100, Stop: []string{"\n\n"}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "Hello there" || resp.FinishReason != "stop" || resp.Format != llm.FormatText || resp.JSON != nil {
		t.Fatalf("unexpected response %+v", resp)
	}
	want := llm.Usage{PromptTokens: openaitest.DefaultPromptTokens, CompletionTokens: openaitest.DefaultCompletionTokens,
		TotalTokens: openaitest.DefaultPromptTokens + openaitest.DefaultCompletionTokens, Calls: 1}
	if resp.Usage != want {
		t.Fatalf("usage %+v, want %+v", resp.Usage, want)
	}
	reqs := srv.RequestsTo(openaitest.PathChat)
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer sk-test" {
		t.Errorf("Authorization %q", got)
	}
	if got := reqs[0].Header.Get("OpenAI-Organization"); got != "org-1" {
		t.Errorf("extra header %q", got)
	}
	cr, err := reqs[0].Chat()
	if err != nil {
		t.Fatal(err)
	}
	if cr.Model != "test-model" || len(cr.Messages) != 1 || cr.Messages[0].Role != "user" || cr.Messages[0].Content != "hi" {
		t.Errorf("request %+v", cr)
	}
	if cr.Temperature == nil || *cr.Temperature != 0 {
		t.Errorf("temperature must be sent as 0, got %v", cr.Temperature)
	}
	if cr.Seed == nil || *cr.Seed != 42 || cr.MaxTokens == nil || *cr.MaxTokens != 100 {
		t.Errorf("seed/max_tokens not sent: %s", reqs[0].Body)
	}
	if cr.ResponseFormat != nil {
		t.Errorf("plain chat sent response_format")
	}
}

func TestChatJSONSchemaRequest(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply(`{"claims":["Alice lives in Berlin"]}`))
	c := newClient(t, testConfig(srv))
	var out claims
	resp, err := c.ChatJSON(ctxT(t), schemaReq("extract"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Claims) != 1 || out.Claims[0] != "Alice lives in Berlin" || resp.Format != llm.FormatJSONSchema {
		t.Fatalf("out %+v resp %+v", out, resp)
	}
	cr := srv.ChatRequests()[0]
	rf := cr.ResponseFormat
	if rf == nil || rf.Type != "json_schema" || rf.JSONSchema == nil || rf.JSONSchema.Name != "claims" ||
		rf.JSONSchema.Strict == nil || !*rf.JSONSchema.Strict {
		t.Fatalf("response_format %s", cr.Fields["response_format"])
	}
	var a, b any
	_ = json.Unmarshal(rf.JSONSchema.Schema, &a)
	_ = json.Unmarshal([]byte(claimSchema), &b)
	if !jsonEqual(a, b) {
		t.Fatalf("schema sent %s", rf.JSONSchema.Schema)
	}
	// The server enforces the schema: no instruction is added to the messages.
	if len(cr.Messages) != 2 || strings.Contains(cr.Messages[0].Content, "JSON Schema") {
		t.Fatalf("messages changed: %+v", cr.Messages)
	}
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestFallbackJSONSchemaToJSONObject(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.RejectJSONSchema())
	srv.EnqueueChat(openaitest.ChatReply("```json\n{\"claims\":[\"x\"]}\n```"))
	c := newClient(t, testConfig(srv))
	var out claims
	resp, err := c.ChatJSON(ctxT(t), schemaReq("extract"), &out)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Format != llm.FormatJSONObject || len(out.Claims) != 1 {
		t.Fatalf("resp %+v out %+v", resp, out)
	}
	if resp.Usage.Calls != 2 || resp.Usage.Retries != 1 {
		t.Fatalf("usage %+v", resp.Usage)
	}
	crs := srv.ChatRequests()
	if len(crs) != 2 || crs[0].ResponseFormat.Type != "json_schema" || crs[1].ResponseFormat.Type != "json_object" {
		t.Fatalf("formats: %+v", crs)
	}
	// The schema moves into the existing system message, which stays first.
	if len(crs[1].Messages) != 2 || crs[1].Messages[0].Role != "system" || !strings.Contains(crs[1].Messages[0].Content, `"claims"`) ||
		!strings.HasPrefix(crs[1].Messages[0].Content, "Extract claims.") {
		t.Fatalf("json_object request messages: %+v", crs[1].Messages)
	}
	// The client remembers: the next structured call starts at json_object.
	if c.StructuredFormat() != llm.FormatJSONObject {
		t.Fatalf("format %v", c.StructuredFormat())
	}
	srv.EnqueueChat(openaitest.ChatReply(`{"claims":[]}`))
	resp, err = c.ChatJSON(ctxT(t), schemaReq("extract"), &out)
	if err != nil || resp.Usage.Calls != 1 || resp.Format != llm.FormatJSONObject {
		t.Fatalf("second call: %v %+v", err, resp)
	}
}

func TestFallbackToPrompt(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.RejectResponseFormat())
	srv.EnqueueChat(openaitest.ChatReply(`Sure! Here is the JSON: {"claims":["a","b"]} Hope it helps.`))
	c := newClient(t, testConfig(srv))
	req := schemaReq("extract")
	req.Messages = []llm.Message{llm.User("no system message here")}
	var out claims
	resp, err := c.ChatJSON(ctxT(t), req, &out)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Format != llm.FormatPrompt || len(out.Claims) != 2 || resp.Usage.Calls != 3 || resp.Usage.Retries != 2 {
		t.Fatalf("resp %+v out %+v", resp, out)
	}
	crs := srv.ChatRequests()
	last := crs[len(crs)-1]
	if last.ResponseFormat != nil || len(last.Messages) != 2 || last.Messages[0].Role != "system" || !strings.Contains(last.Messages[0].Content, "JSON") {
		t.Fatalf("prompt-mode request: %+v", last)
	}
}

func TestMalformedThenSuccess(t *testing.T) {
	cases := map[string]openaitest.Response{
		"malformed body":      openaitest.MalformedJSON(),
		"truncated body":      openaitest.ChatReply(`{"claims":["x"]}`).Truncated(),
		"empty choices":       openaitest.EmptyChoices(),
		"html page":           openaitest.HTMLPage(),
		"prose content":       openaitest.ChatReply("I could not find any claims, sorry."),
		"content wrong shape": openaitest.ChatReply(`{"claims":"not a list"}`),
		"wrong content type":  openaitest.ChatReply("{oops").WithContentType("text/plain"),
	}
	for name, bad := range cases {
		t.Run(name, func(t *testing.T) {
			srv := openaitest.NewServer(t)
			srv.EnqueueChat(bad, openaitest.ChatReply(`{"claims":["x"]}`).WithContentType("text/plain"))
			c := newClient(t, testConfig(srv))
			var out claims
			resp, err := c.ChatJSON(ctxT(t), schemaReq("extract"), &out)
			if err != nil {
				t.Fatal(err)
			}
			if len(out.Claims) != 1 || resp.Usage.Calls != 2 || resp.Usage.Retries != 1 {
				t.Fatalf("out %+v usage %+v", out, resp.Usage)
			}
		})
	}
}

func TestMalformedExhausted(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReply("no json at all")
	}))
	cfg := testConfig(srv)
	cfg.MalformedAttempts = 2
	acc := llm.NewAccountant()
	cfg.Accountant = acc
	c := newClient(t, cfg)
	var out claims
	_, err := c.ChatJSON(ctxT(t), schemaReq("extract"), &out)
	if !errors.Is(err, llm.ErrMalformedResponse) || !errors.Is(err, llm.ErrNoJSON) {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}
	// Billed tokens of rejected answers are still accounted.
	u := acc.Stage("extract")
	if u.Calls != 2 || u.Retries != 1 || u.PromptTokens != 2*openaitest.DefaultPromptTokens {
		t.Fatalf("usage %+v", u)
	}
}

func TestRateLimitedRetryAfter(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.RateLimited(300*time.Millisecond), openaitest.ChatReply("ok"))
	c := newClient(t, testConfig(srv))
	resp, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Usage.Calls != 2 || resp.Usage.Retries != 1 {
		t.Fatalf("usage %+v", resp.Usage)
	}
	reqs := srv.Requests()
	// The exponential policy alone would wait ~1ms; the server asked for 300ms.
	if gap := reqs[1].Time.Sub(reqs[0].Time); gap < 300*time.Millisecond {
		t.Fatalf("retried after %v, before Retry-After", gap)
	}
}

func TestRetryAfterSeconds(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.Error(429, "requests", "slow down", "", "").WithHeader("Retry-After", "1"), openaitest.ChatReply("ok"))
	c := newClient(t, testConfig(srv))
	if _, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	if gap := reqs[1].Time.Sub(reqs[0].Time); gap < time.Second {
		t.Fatalf("retried after %v, before Retry-After: 1", gap)
	}
}

func TestRetryAfterBeyondMaxElapsed(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.RateLimited(time.Hour), openaitest.ChatReply("ok"))
	c := newClient(t, testConfig(srv))
	_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	var apiErr *llm.APIError
	if !errors.Is(err, llm.ErrRateLimited) || !errors.As(err, &apiErr) || apiErr.RetryAfter != time.Hour {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests; a wait past MaxElapsed must end the call", n)
	}
}

func TestServerErrorsExhausted(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ServerError(500), openaitest.ServerError(502), openaitest.ServerError(503), openaitest.ChatReply("too late"))
	cfg := testConfig(srv)
	cfg.MaxRetries = 2
	c := newClient(t, cfg)
	_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	var apiErr *llm.APIError
	if !errors.Is(err, llm.ErrServer) || !errors.As(err, &apiErr) || apiErr.StatusCode != 503 {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Fatalf("%d requests, want 1 + 2 retries", n)
	}
}

func TestServerErrorThenSuccess(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ServerError(502), openaitest.ServerError(503), openaitest.ChatReply("ok"))
	c := newClient(t, testConfig(srv))
	resp, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if err != nil || resp.Usage.Calls != 3 || resp.Usage.Retries != 2 {
		t.Fatalf("err %v resp %+v", err, resp)
	}
}

func TestPermanentClientErrors(t *testing.T) {
	cases := []struct {
		resp openaitest.Response
		want error
	}{
		{openaitest.BadRequest("This model's maximum context length is 8192 tokens.", "messages"), llm.ErrBadRequest},
		{openaitest.Error(401, "invalid_request_error", "Incorrect API key", "", "invalid_api_key"), llm.ErrUnauthorized},
		{openaitest.Error(404, "invalid_request_error", "The model does not exist", "model", "model_not_found"), llm.ErrBadRequest},
	}
	for _, tc := range cases {
		srv := openaitest.NewServer(t)
		srv.EnqueueChat(tc.resp, openaitest.ChatReply("never"))
		c := newClient(t, testConfig(srv))
		_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
		if !errors.Is(err, tc.want) {
			t.Errorf("status %d: err = %v, want %v", tc.resp.Status, err, tc.want)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("status %d: %d requests, want 1 (permanent)", tc.resp.Status, n)
		}
	}
}

func TestAttemptTimeout(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply("slow").WithDelay(time.Minute), openaitest.ChatReply("slow").WithDelay(time.Minute))
	cfg := testConfig(srv)
	cfg.Timeout = 100 * time.Millisecond
	cfg.MaxRetries = 1
	c := newClient(t, cfg)
	_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if !errors.Is(err, llm.ErrTimeout) || errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Fatalf("%d requests, want 2", n)
	}

	// A timeout followed by a prompt answer succeeds.
	srv.EnqueueChat(openaitest.ChatReply("slow").WithDelay(time.Minute), openaitest.ChatReply("fast"))
	resp, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if err != nil || resp.Content != "fast" || resp.Usage.Retries != 1 {
		t.Fatalf("err %v resp %+v", err, resp)
	}
}

func TestMaxElapsedBoundsCall(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply("slow").WithDelay(time.Minute))
	cfg := testConfig(srv)
	cfg.MaxElapsed = 150 * time.Millisecond
	c := newClient(t, cfg)
	_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if !errors.Is(err, llm.ErrTimeout) {
		t.Fatalf("err = %v", err)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Fatalf("%d requests after MaxElapsed", n)
	}
}

func TestContextCancelNotRetried(t *testing.T) {
	t.Run("during request", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		srv.EnqueueChat(openaitest.ChatReply("slow").WithDelay(time.Minute))
		c := newClient(t, testConfig(srv))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		errc := make(chan error, 1)
		go func() {
			_, err := c.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
			errc <- err
		}()
		waitFor(t, "request to arrive", func() bool { return len(srv.Requests()) == 1 })
		cancel()
		err := <-errc
		if !errors.Is(err, context.Canceled) || errors.Is(err, llm.ErrTimeout) || errors.Is(err, llm.ErrConnection) {
			t.Fatalf("err = %v", err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Fatalf("%d requests: cancellation was retried", n)
		}
	})
	t.Run("during backoff wait", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		srv.EnqueueChat(openaitest.RateLimited(20 * time.Second))
		c := newClient(t, testConfig(srv))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		errc := make(chan error, 1)
		go func() {
			_, err := c.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
			errc <- err
		}()
		waitFor(t, "request to arrive", func() bool { return len(srv.Requests()) == 1 })
		cancel()
		if err := <-errc; !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if n := len(srv.Requests()); n != 1 {
			t.Fatalf("%d requests", n)
		}
	})
	t.Run("already cancelled", func(t *testing.T) {
		srv := openaitest.NewServer(t)
		c := newClient(t, testConfig(srv))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := c.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}}); !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Fatalf("%d requests", n)
		}
	})
}

func TestConnectionRefused(t *testing.T) {
	srv := openaitest.NewServer(t)
	cfg := testConfig(srv)
	srv.Close()
	cfg.MaxRetries = 2
	c := newClient(t, cfg)
	_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if !errors.Is(err, llm.ErrConnection) {
		t.Fatalf("err = %v", err)
	}
}

func TestRefusalIsPermanent(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.Response{Body: []byte(`{"choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":"I can't help with that."},"finish_reason":"stop"}]}`)})
	c := newClient(t, testConfig(srv))
	_, err := c.ChatJSON(ctxT(t), schemaReq("extract"), &claims{})
	if !errors.Is(err, llm.ErrRefused) || len(srv.Requests()) != 1 {
		t.Fatalf("err = %v, %d requests", err, len(srv.Requests()))
	}
}

func TestAzureStyle(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.RequireAPIKey("azure-key"))
	srv.Enqueue("/v1/deployments/gpt4o/chat/completions", openaitest.ChatReply("from azure"))
	cfg := testConfig(srv)
	cfg.BaseURL = srv.URL() + "/deployments/gpt4o/"
	cfg.APIKey = "azure-key"
	cfg.AuthHeader = llm.AuthAPIKey
	cfg.APIVersion = "2024-10-21"
	c := newClient(t, cfg)
	resp, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if err != nil || resp.Content != "from azure" {
		t.Fatalf("err %v resp %+v", err, resp)
	}
	r := srv.Requests()[0]
	if r.Query.Get("api-version") != "2024-10-21" || r.Header.Get("api-key") != "azure-key" || r.Header.Get("Authorization") != "" {
		t.Fatalf("request %s?%s headers %v", r.Path, r.Query.Encode(), r.Header)
	}
}

func TestUsageAccounting(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(r openaitest.Request) openaitest.Response {
		cr, _ := r.Chat()
		if strings.Contains(cr.Messages[len(cr.Messages)-1].Content, "nousage") {
			return openaitest.ChatReplyNoUsage("{}")
		}
		return openaitest.ChatReplyUsage("{}", openaitest.Usage{PromptTokens: 100, CompletionTokens: 20, TotalTokens: 120})
	}))
	var mu sync.Mutex
	recorded := map[string]int64{}
	acc := llm.NewAccountant(llm.WithRecorder(func(_ context.Context, stage string, u llm.Usage) {
		mu.Lock()
		recorded[stage] += u.TotalTokens
		mu.Unlock()
	}))
	cfg := testConfig(srv)
	cfg.Accountant = acc
	c := newClient(t, cfg)

	const perStage = 10
	stages := []string{"extract", "judge", "reader"}
	var wg sync.WaitGroup
	for _, st := range stages {
		for range perStage {
			wg.Go(func() {
				if _, err := c.Chat(ctxT(t), llm.ChatRequest{Stage: st, Messages: []llm.Message{llm.User("hi")}}); err != nil {
					t.Error(err)
				}
			})
		}
	}
	wg.Go(func() {
		// Stage from the context; a server without usage still counts the call.
		ctx := llm.WithStage(ctxT(t), "nousage")
		if _, err := c.Chat(ctx, llm.ChatRequest{Messages: []llm.Message{llm.User("nousage")}}); err != nil {
			t.Error(err)
		}
	})
	wg.Wait()

	snap := acc.Snapshot()
	for _, st := range stages {
		want := llm.Usage{PromptTokens: 100 * perStage, CompletionTokens: 20 * perStage, TotalTokens: 120 * perStage, Calls: perStage}
		if snap[st] != want {
			t.Errorf("stage %s: %+v, want %+v", st, snap[st], want)
		}
		if recorded[st] != 120*perStage {
			t.Errorf("recorder stage %s: %d", st, recorded[st])
		}
	}
	if snap["nousage"] != (llm.Usage{Calls: 1}) {
		t.Errorf("nousage: %+v", snap["nousage"])
	}
	if tot := acc.Total(); tot.Calls != 3*perStage+1 || tot.TotalTokens != 3*120*perStage {
		t.Errorf("total %+v", tot)
	}
	if got := acc.Stages(); strings.Join(got, ",") != "extract,judge,nousage,reader" {
		t.Errorf("stages %v", got)
	}
}

func TestNewValidates(t *testing.T) {
	for _, cfg := range []llm.Config{{}, {BaseURL: "http://x/v1"}, {Model: "m"}, {BaseURL: "ftp://x", Model: "m"}, {BaseURL: "localhost:8080", Model: "m"}} {
		if _, err := llm.New(cfg); !errors.Is(err, llm.ErrNotConfigured) {
			t.Errorf("%+v: err = %v", cfg, err)
		}
	}
	c, err := llm.New(llm.Config{BaseURL: "http://localhost:11434/v1/", Model: "llama3"})
	if err != nil {
		t.Fatal(err)
	}
	got := c.Config()
	if got.Timeout != llm.DefaultTimeout || got.MaxRetries != llm.DefaultMaxRetries || got.MaxElapsed != llm.DefaultMaxElapsed ||
		got.EmbedBatchSize != llm.DefaultEmbedBatchSize || got.MalformedAttempts != llm.DefaultMalformedAttempts {
		t.Errorf("defaults not applied: %+v", got)
	}
}

func TestChatRejectsBadInput(t *testing.T) {
	srv := openaitest.NewServer(t)
	c := newClient(t, testConfig(srv))
	if _, err := c.Chat(ctxT(t), llm.ChatRequest{}); !errors.Is(err, llm.ErrBadRequest) {
		t.Errorf("no messages: %v", err)
	}
	if _, err := c.ChatJSON(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("x")}}, &claims{}); !errors.Is(err, llm.ErrBadRequest) {
		t.Errorf("no schema: %v", err)
	}
	var notPtr claims
	if _, err := c.ChatJSON(ctxT(t), schemaReq(""), notPtr); !errors.Is(err, llm.ErrBadRequest) {
		t.Errorf("not a pointer: %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("bad input reached the server")
	}
	_ = http.StatusOK
}

func TestModels(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithModels("llama3", "nomic-embed-text"), openaitest.RequireAPIKey("sk-test"))
	c := newClient(t, testConfig(srv))
	ids, err := c.Models(ctxT(t))
	if err != nil || strings.Join(ids, ",") != "llama3,nomic-embed-text" {
		t.Fatalf("ids %v err %v", ids, err)
	}
	r := srv.Requests()[0]
	if r.Method != http.MethodGet || r.Path != openaitest.PathModels || len(r.Body) != 0 {
		t.Fatalf("request %+v", r)
	}
}

func TestTruncatedExhaustedIsConnectionError(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply("a reply long enough to cut in half").Truncated())
	cfg := testConfig(srv)
	cfg.MaxRetries = -1
	c := newClient(t, cfg)
	_, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}})
	if !errors.Is(err, llm.ErrConnection) || len(srv.Requests()) != 1 {
		t.Fatalf("err = %v, %d requests", err, len(srv.Requests()))
	}
}

func TestInvalidSchemaIsNotAFallback(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.BadRequest("Invalid schema for response_format 'claims': In context=(), 'additionalProperties' is required to be supplied and to be false.", "response_format"))
	c := newClient(t, testConfig(srv))
	_, err := c.ChatJSON(ctxT(t), schemaReq("extract"), &claims{})
	if !errors.Is(err, llm.ErrBadRequest) || len(srv.Requests()) != 1 || c.StructuredFormat() != llm.FormatJSONSchema {
		t.Fatalf("err = %v, %d requests, format %v", err, len(srv.Requests()), c.StructuredFormat())
	}
}

func TestReasoningModelParameters(t *testing.T) {
	srv := openaitest.NewServer(t)
	cfg := testConfig(srv)
	cfg.ReasoningModel = true
	c := newClient(t, cfg)
	if _, err := c.Chat(ctxT(t), llm.ChatRequest{Messages: []llm.Message{llm.User("hi")}, MaxTokens: 50}); err != nil {
		t.Fatal(err)
	}
	cr := srv.ChatRequests()[0]
	if cr.Temperature != nil || cr.MaxTokens != nil || string(cr.Fields["max_completion_tokens"]) != "50" {
		t.Fatalf("body %s", srv.Requests()[0].Body)
	}
}
