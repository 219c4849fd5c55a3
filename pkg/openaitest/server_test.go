package openaitest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/openaitest"
)

func post(t *testing.T, url, body string) (*http.Response, []byte, error) {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewBufferString(body))
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

func TestDefaultsAndRecording(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithEmbeddingDim(5), openaitest.WithModels("a", "b"))
	resp, body, err := post(t, srv.URL()+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}],"temperature":0}`)
	if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("chat: %v %v", err, resp)
	}
	var cc struct {
		Model   string `json:"model"`
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
		Usage openaitest.Usage `json:"usage"`
	}
	if err := json.Unmarshal(body, &cc); err != nil || cc.Choices[0].Message.Content != "ok" || cc.Model != "m" ||
		cc.Usage.TotalTokens != openaitest.DefaultPromptTokens+openaitest.DefaultCompletionTokens {
		t.Fatalf("chat body %s: %v", body, err)
	}
	_, body, _ = post(t, srv.URL()+"/chat/completions", `{"model":"m","messages":[],"response_format":{"type":"json_object"}}`)
	if !bytes.Contains(body, []byte(`"content":"{}"`)) {
		t.Fatalf("json chat default: %s", body)
	}

	_, body, _ = post(t, srv.URL()+"/embeddings", `{"model":"e","input":"one"}`)
	var el struct {
		Data []struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &el); err != nil || len(el.Data) != 1 || len(el.Data[0].Embedding) != 5 {
		t.Fatalf("embeddings %s: %v", body, err)
	}
	_, body, _ = post(t, srv.URL()+"/embeddings", `{"model":"e","input":["one","two"],"dimensions":3}`)
	if err := json.Unmarshal(body, &el); err != nil || len(el.Data) != 2 || len(el.Data[1].Embedding) != 3 || el.Data[1].Index != 1 {
		t.Fatalf("embeddings with dimensions %s: %v", body, err)
	}

	r, err := http.Get(srv.URL() + "/models")
	if err != nil {
		t.Fatal(err)
	}
	mb, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if !bytes.Contains(mb, []byte(`"id":"a"`)) || !bytes.Contains(mb, []byte(`"id":"b"`)) {
		t.Fatalf("models %s", mb)
	}

	resp, _, _ = post(t, srv.URL()+"/nope", `{}`)
	if resp.StatusCode != 404 {
		t.Fatalf("unknown path: %d", resp.StatusCode)
	}

	reqs := srv.Requests()
	if len(reqs) != 6 || srv.RequestsTo(openaitest.PathEmbeddings)[1].Seq != 3 {
		t.Fatalf("recorded %d requests", len(reqs))
	}
	er, err := srv.RequestsTo(openaitest.PathEmbeddings)[0].Embeddings()
	if err != nil || len(er.Input) != 1 || er.Input[0] != "one" {
		t.Fatalf("decoded embeddings request %+v %v", er, err)
	}
	if crs := srv.ChatRequests(); len(crs) != 2 || crs[1].ResponseFormat.Type != "json_object" || crs[0].Temperature == nil {
		t.Fatalf("decoded chat requests %+v", crs)
	}
}

func TestQueueBeforeHandler(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReply("handler")
	}))
	srv.EnqueueChat(openaitest.ServerError(503), openaitest.RateLimited(1500*time.Millisecond))
	if srv.Pending(openaitest.PathChat) != 2 {
		t.Fatal("pending")
	}
	resp, _, _ := post(t, srv.URL()+"/chat/completions", `{}`)
	if resp.StatusCode != 503 {
		t.Fatalf("first: %d", resp.StatusCode)
	}
	resp, _, _ = post(t, srv.URL()+"/chat/completions", `{}`)
	if resp.StatusCode != 429 || resp.Header.Get("Retry-After") != "2" || resp.Header.Get("retry-after-ms") != "1500" {
		t.Fatalf("second: %d %v", resp.StatusCode, resp.Header)
	}
	_, body, _ := post(t, srv.URL()+"/chat/completions", `{}`)
	if !bytes.Contains(body, []byte("handler")) {
		t.Fatalf("third: %s", body)
	}
}

func TestRejections(t *testing.T) {
	srv := openaitest.NewServer(t, openaitest.RejectJSONSchema(), openaitest.RequireAPIKey("k"))
	req, _ := http.NewRequest(http.MethodPost, srv.URL()+"/chat/completions", bytes.NewBufferString(`{"response_format":{"type":"json_schema"}}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 401 {
		t.Fatalf("no key: %v %v", err, resp)
	}
	resp.Body.Close()
	req, _ = http.NewRequest(http.MethodPost, srv.URL()+"/chat/completions", bytes.NewBufferString(`{"response_format":{"type":"json_schema"}}`))
	req.Header.Set("Authorization", "Bearer k")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 400 {
		t.Fatalf("json_schema: %v %v", err, resp)
	}
	resp.Body.Close()
	req, _ = http.NewRequest(http.MethodPost, srv.URL()+"/chat/completions", bytes.NewBufferString(`{"response_format":{"type":"json_object"}}`))
	req.Header.Set("api-key", "k")
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("json_object: %v %v", err, resp)
	}
	resp.Body.Close()
}

func TestTruncatedAndDelayed(t *testing.T) {
	srv := openaitest.NewServer(t)
	srv.EnqueueChat(openaitest.ChatReply("a fairly long reply so there is something to cut").Truncated())
	_, _, err := post(t, srv.URL()+"/chat/completions", `{}`)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated body read: %v", err)
	}

	srv.EnqueueChat(openaitest.ChatReply("late").WithDelay(time.Hour))
	client := &http.Client{Timeout: 50 * time.Millisecond}
	if _, err := client.Post(srv.URL()+"/chat/completions", "application/json", bytes.NewBufferString(`{}`)); err == nil {
		t.Fatal("a delayed response beat a 50ms client timeout")
	}
	// Close must not wait for the hour-long delay.
	srv.Close()
}

func TestConcurrentRecording(t *testing.T) {
	srv := openaitest.NewServer(t)
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			resp, _, err := post(t, srv.URL()+"/embeddings", `{"input":["x"]}`)
			if err != nil || resp.StatusCode != 200 {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, r := range srv.Requests() {
		seen[r.Seq] = true
	}
	if len(seen) != 20 {
		t.Fatalf("%d distinct sequence numbers", len(seen))
	}
}

func TestFakeEmbedding(t *testing.T) {
	a, b := openaitest.FakeEmbedding("alice", 64), openaitest.FakeEmbedding("alice", 64)
	c := openaitest.FakeEmbedding("bob", 64)
	var na, dot float64
	for i := range a {
		if a[i] != b[i] {
			t.Fatal("not deterministic")
		}
		na += float64(a[i]) * float64(a[i])
		dot += float64(a[i]) * float64(c[i])
	}
	if math.Abs(na-1) > 1e-5 {
		t.Fatalf("norm² %v", na)
	}
	if math.Abs(dot) > 0.6 {
		t.Fatalf("different texts too similar: %v", dot)
	}
	if openaitest.FakeEmbedding("x", 0) != nil || len(openaitest.FakeEmbedding("", 3)) != 3 {
		t.Fatal("edge dims")
	}
}

func FuzzDecodeRequests(f *testing.F) {
	for _, s := range []string{`{"model":"m","messages":[{"role":"user","content":"x"}]}`, `{"input":"x"}`, `{"input":["a","b"],"dimensions":3}`, `{"input":5}`, `[`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_, _ = openaitest.DecodeChatRequest(body)
		if er, err := openaitest.DecodeEmbeddingsRequest(body); err == nil && er.Input == nil {
			t.Fatalf("decoded embeddings request without input from %q", body)
		}
	})
}
