package bench

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

func testReader(t *testing.T) (*Reader, *openaitest.Server) {
	t.Helper()
	srv := openaitest.NewServer(t)
	c, err := llm.New(llm.Config{BaseURL: srv.URL(), Model: "reader-m", InitialBackoff: 1, MaxRetries: 2})
	if err != nil {
		t.Fatal(err)
	}
	return &Reader{Chat: c, Seed: 42}, srv
}

func TestReaderFactConsolidation(t *testing.T) {
	r, srv := testReader(t)
	srv.EnqueueChat(openaitest.ChatReplyUsage("The Fairly OddParents", openaitest.Usage{PromptTokens: 90, CompletionTokens: 5, TotalTokens: 95}))
	q := &Question{Text: "What is Nobuhiro Watsuki famous for?", Golds: []string{"The Fairly OddParents"}}
	res, err := r.AnswerAndJudge(context.Background(), FactConsolidation, q, &Retrieval{Context: "259. Nobuhiro Watsuki is famous for The Fairly OddParents.", Tokens: 14})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score != 1 || res.Tokens != 14+95 || res.Model != "reader-m" || res.JudgeTokens != 0 {
		t.Fatalf("%+v", res)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	b, _ := json.Marshal(reqs[0])
	if !strings.Contains(string(b), "259. Nobuhiro Watsuki") || !strings.Contains(string(b), `"max_tokens":10`) || !strings.Contains(string(b), `"seed":42`) {
		t.Fatalf("reader request %s", b)
	}
}

func TestReaderJudges(t *testing.T) {
	ctx := context.Background()
	ret := &Retrieval{Context: "memories", Tokens: 10}

	r, srv := testReader(t)
	srv.EnqueueChat(openaitest.ChatReply("7 May 2023"), openaitest.ChatReplyJSON(map[string]string{"label": "CORRECT"}))
	res, err := r.AnswerAndJudge(ctx, LoCoMo, &Question{Text: "When?", Golds: []string{"7 May 2023"}, Category: "temporal"}, ret)
	if err != nil || res.Score != 1 || res.Judge != "CORRECT" {
		t.Fatalf("locomo: %+v %v", res, err)
	}
	// The judge sees question, gold and answer.
	reqs := srv.ChatRequests()
	b, _ := json.Marshal(reqs[len(reqs)-1])
	if !strings.Contains(string(b), "Gold answer: 7 May 2023") || !strings.Contains(string(b), "Generated answer: 7 May 2023") {
		t.Fatalf("judge request %s", b)
	}
	// Adversarial questions use the official rule, no judge call.
	n := len(srv.ChatRequests())
	srv.EnqueueChat(openaitest.ChatReply("That is not mentioned."))
	res, err = r.AnswerAndJudge(ctx, LoCoMo, &Question{Text: "?", Category: "adversarial", Abstention: true}, ret)
	if err != nil || res.Score != 1 || len(srv.ChatRequests()) != n+1 {
		t.Fatalf("adversarial: %+v %v", res, err)
	}
	// BEAM: one judge call per rubric item, averaged.
	srv.EnqueueChat(openaitest.ChatReply("Around 250ms."),
		openaitest.ChatReplyJSON(map[string]any{"score": 1}), openaitest.ChatReplyJSON(map[string]any{"score": 0.5}))
	res, err = r.AnswerAndJudge(ctx, BEAM, &Question{Text: "?", Golds: []string{"250ms"}, Rubric: []string{"states 250ms", "mentions caching"}}, ret)
	if err != nil || res.Score != 0.75 || res.Judge != "rubric 1/0.5" {
		t.Fatalf("beam: %+v %v", res, err)
	}
	// LongMemEval: yes/no with the per-type criterion; a malformed judge reply is retried by the client.
	srv.EnqueueChat(openaitest.ChatReply("Oak Avenue"), openaitest.MalformedJSON(), openaitest.ChatReplyJSON(map[string]string{"answer": "yes"}))
	res, err = r.AnswerAndJudge(ctx, LongMemEval, &Question{Text: "?", Golds: []string{"42 Oak Avenue"}, Category: "knowledge-update"}, ret)
	if err != nil || res.Score != 1 {
		t.Fatalf("longmemeval: %+v %v", res, err)
	}
	reqs = srv.ChatRequests()
	b, _ = json.Marshal(reqs[len(reqs)-1])
	if !strings.Contains(string(b), "updated answer") {
		t.Fatalf("knowledge-update criterion missing: %s", b)
	}
	// A failing server is an error, not a score.
	srv.EnqueueChat(openaitest.ServerError(500), openaitest.ServerError(500), openaitest.ServerError(500))
	if _, err := r.AnswerAndJudge(ctx, LoCoMo, &Question{Text: "?", Category: "temporal"}, ret); err == nil {
		t.Fatal("server errors were scored")
	}
}

func TestReaderPromptOverride(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "locomo.reader.txt"), []byte("CTX={context} Q={question}"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &Reader{PromptDir: dir}
	p, err := r.ReaderPrompt(LoCoMo, &Question{Text: "why?"}, "mem")
	if err != nil || p != "CTX=mem Q=why?" {
		t.Fatalf("%q %v", p, err)
	}
	p, _ = r.ReaderPrompt(BEAM, &Question{Text: "why?"}, "mem")
	if !strings.Contains(p, "Question: why?") {
		t.Fatalf("default prompt not used: %q", p)
	}
}

func TestNewReaderFromEnv(t *testing.T) {
	t.Setenv("MNEME_LLM_BASE_URL", "")
	t.Setenv("MNEME_LLM_MODEL", "")
	if r, err := NewReaderFromEnv(""); r != nil || err != nil {
		t.Fatalf("%v %v", r, err)
	}
	t.Setenv("MNEME_LLM_MODEL", "m")
	if _, err := NewReaderFromEnv(""); err == nil {
		t.Fatal("half a configuration accepted")
	}
	t.Setenv("MNEME_LLM_BASE_URL", "http://127.0.0.1:1/v1")
	t.Setenv("MNEME_JUDGE_MODEL", "j")
	r, err := NewReaderFromEnv("")
	if err != nil || r.Model() != "m (judge j)" {
		t.Fatalf("%v %v", r, err)
	}
}

func TestClientProvenanceAndMetrics(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/workspaces/{ws}/claims/{id}", func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(api.HeaderAgent) != "bench" {
			api.WriteError(w, 401, api.CodeUnauthorized, "", "who are you")
			return
		}
		switch r.PathValue("id") {
		case "c1":
			w.Write([]byte(`{"claim":{"id":"c1"},"provenance":{"agent_id":"x","turn_ids":["D1:3"],"extractor":"rules"},
				"corroborations":[{"source":"x:D2:1","via_claim_id":"c2"},{"source":"x:D1:3","via_claim_id":"c1"}]}`))
		case "c2":
			w.Write([]byte(`{"claim":{"id":"c2"},"provenance":{"agent_id":"x","turn_ids":["D2:1"],"extractor":"rules"}}`))
		default:
			api.WriteError(w, 404, api.CodeNotFound, "id", "no such claim")
		}
	})
	mux.HandleFunc("GET /metrics", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("# HELP mneme_llm_tokens_total x\nmneme_llm_tokens_total{kind=\"prompt\",stage=\"extract\"} 1200\n" +
			"mneme_llm_tokens_total{kind=\"completion\",stage=\"extract\"} 300\nmneme_llm_tokens_total{kind=\"prompt\",stage=\"judge\"} 5\nother 9\n"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := NewClient(srv.URL, "bench", "")
	if err != nil {
		t.Fatal(err)
	}
	ids, err := c.ClaimTurnIDs(context.Background(), "ws", "c1")
	if err != nil || strings.Join(ids, ",") != "D1:3,D2:1" {
		t.Fatalf("%v %v", ids, err)
	}
	if _, err := c.ClaimTurnIDs(context.Background(), "ws", "nope"); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("%v", err)
	}
	p, comp, err := c.LLMTokens(context.Background())
	if err != nil || p != 1205 || comp != 300 {
		t.Fatalf("%d %d %v", p, comp, err)
	}
	other, _ := NewClient(srv.URL, "nobody", "")
	if _, err := other.ClaimTurnIDs(context.Background(), "ws", "c1"); err == nil || !strings.Contains(err.Error(), "who are you") {
		t.Fatalf("%v", err)
	}
}
