package llm

import (
	"errors"
	"net/http"
	"testing"
	"time"
)

func TestParseChatResponseShapes(t *testing.T) {
	cases := []struct {
		name, body, content string
	}{
		{"standard", `{"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}}`, "hi"},
		{"content parts", `{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"image_url"},{"type":"text","text":"b"}]}}]}`, "ab"},
		{"legacy text", `{"choices":[{"text":"hello","finish_reason":"length"}]}`, "hello"},
		{"null content", `{"choices":[{"message":{"content":null}}]}`, ""},
	}
	for _, tc := range cases {
		r, err := parseChatResponse([]byte(tc.body))
		if err != nil || r.Content != tc.content {
			t.Errorf("%s: %+v %v", tc.name, r, err)
		}
	}
	for _, bad := range []string{``, `[]`, `{"choices":[]}`, `{"choices":[{}]}`, `{"choices":[{"message":{"content":5}}]}`, `<html>`} {
		if _, err := parseChatResponse([]byte(bad)); !errors.Is(err, ErrMalformedResponse) {
			t.Errorf("%q: err = %v", bad, err)
		}
	}
}

func TestUsageTotalsMissingTotal(t *testing.T) {
	var u Usage
	(&wireUsage{PromptTokens: 5, CompletionTokens: 2}).addTo(&u)
	(&wireUsage{PromptTokens: -5, CompletionTokens: 1, TotalTokens: 1}).addTo(&u)
	if u != (Usage{PromptTokens: 5, CompletionTokens: 3, TotalTokens: 8}) {
		t.Fatalf("%+v", u)
	}
}

func TestParseErrorBody(t *testing.T) {
	cases := map[string]errorObject{
		`{"error":{"message":"m","type":"t","param":"p","code":"c"}}`: {Message: "m", Type: "t", Param: "p", Code: "c"},
		`{"error":{"message":"m","code":400,"param":null}}`:           {Message: "m", Code: "400"},
		`{"error":"model not found"}`:                                 {Message: "model not found"},
		`{"detail":"Not Found"}`:                                      {Message: "Not Found"},
		`{"message":"bad"}`:                                           {Message: "bad"},
	}
	for body, want := range cases {
		got, ok := parseErrorBody([]byte(body))
		if !ok || got != want {
			t.Errorf("%s: %+v %v", body, got, ok)
		}
	}
	if _, ok := parseErrorBody([]byte("<html>502 Bad Gateway</html>")); ok {
		t.Errorf("html parsed as error body")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	cases := []struct {
		h    http.Header
		want time.Duration
	}{
		{http.Header{"Retry-After": {"2"}}, 2 * time.Second},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond},
		{http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"250"}}, 250 * time.Millisecond},
		{http.Header{"Retry-After": {now.Add(3 * time.Second).Format(http.TimeFormat)}}, 3 * time.Second},
		{http.Header{"Retry-After": {"-1"}}, 0},
		{http.Header{"Retry-After": {"soon"}}, 0},
		{http.Header{}, 0},
	}
	for _, tc := range cases {
		if got := parseRetryAfter(tc.h, now); got != tc.want {
			t.Errorf("%v: got %v, want %v", tc.h, got, tc.want)
		}
	}
}

func TestBlamesResponseFormat(t *testing.T) {
	yes := []*APIError{
		{StatusCode: 400, Param: "response_format", Message: "Invalid parameter"},
		{StatusCode: 400, Message: "'json_schema' is not supported"},
		{StatusCode: 500, Message: "response_format type must be one of \"text\" or \"json_object\""},
		{StatusCode: 422, Message: "unsupported value"},
	}
	no := []*APIError{
		{StatusCode: 400, Message: "maximum context length exceeded"},
		{StatusCode: 429, Message: "rate limit for response_format requests"},
		{StatusCode: 500, Message: "internal error"},
		{StatusCode: 400, Param: "temperature", Message: "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported."},
		{StatusCode: 400, Param: "response_format", Message: "Invalid schema for response_format 'claims': 'additionalProperties' is required"},
	}
	for _, e := range yes {
		if !blamesResponseFormat(e) {
			t.Errorf("%v should blame the format", e)
		}
	}
	for _, e := range no {
		if blamesResponseFormat(e) {
			t.Errorf("%v should not blame the format", e)
		}
	}
}

func FuzzParseChatResponse(f *testing.F) {
	for _, s := range []string{`{"choices":[{"message":{"content":"x"}}],"usage":{"prompt_tokens":1}}`, `{"choices":[]}`, `{`, `{"choices":[{"message":{"content":[{"type":"text","text":"a"}]}}]}`, `{"choices":[{"text":"t"}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := parseChatResponse(body)
		if err != nil && !errors.Is(err, ErrMalformedResponse) {
			t.Fatalf("unexpected error class: %v", err)
		}
		if err == nil && r == nil {
			t.Fatal("nil result without error")
		}
		if r != nil {
			var u Usage
			r.Usage.addTo(&u)
			if u.PromptTokens < 0 || u.CompletionTokens < 0 || u.TotalTokens < 0 {
				t.Fatalf("negative usage %+v", u)
			}
		}
	})
}

func FuzzParseEmbeddingsResponse(f *testing.F) {
	for _, s := range []string{`{"data":[{"index":0,"embedding":[1,2]},{"index":1,"embedding":[3,4]}]}`, `{"data":[{"embedding":"AACAPw=="}]}`, `{"data":[{"index":5,"embedding":[1]}]}`, `{}`} {
		f.Add([]byte(s), 2)
	}
	f.Fuzz(func(t *testing.T, body []byte, n int) {
		if n < 0 || n > 64 {
			return
		}
		r, err := parseEmbeddingsResponse(body, n)
		if err != nil {
			if !errors.Is(err, ErrMalformedResponse) && !errors.Is(err, ErrDimensionMismatch) {
				t.Fatalf("unexpected error class: %v", err)
			}
			return
		}
		if len(r.Vectors) != n {
			t.Fatalf("%d vectors for %d inputs", len(r.Vectors), n)
		}
		for i, v := range r.Vectors {
			if len(v) == 0 || len(v) != len(r.Vectors[0]) {
				t.Fatalf("vector %d has %d dims", i, len(v))
			}
		}
	})
}

func FuzzParseErrorBody(f *testing.F) {
	for _, s := range []string{`{"error":{"message":"m","code":1}}`, `{"error":"x"}`, `{"detail":[1]}`, `nope`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		e := newAPIError(400, http.Header{}, body)
		_ = e.Error()
		if !errors.Is(e, ErrBadRequest) {
			t.Fatal("400 must unwrap to ErrBadRequest")
		}
	})
}

func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"1", "0.5", "Sun, 22 Nov 2026 12:00:03 GMT", "-3", "1e308", "NaN"} {
		f.Add(s, "")
		f.Add("", s)
	}
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, ra, ms string) {
		h := http.Header{}
		h.Set("Retry-After", ra)
		h.Set("retry-after-ms", ms)
		if d := parseRetryAfter(h, now); d < 0 {
			t.Fatalf("negative delay %v from %q/%q", d, ra, ms)
		}
	})
}

func FuzzParseModels(f *testing.F) {
	for _, s := range []string{`{"data":[{"id":"a"}]}`, `{"models":[{"name":"llama3"}]}`, `{}`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		ids, err := parseModels(body)
		if err != nil && !errors.Is(err, ErrMalformedResponse) {
			t.Fatalf("unexpected error class: %v", err)
		}
		if err == nil && ids == nil {
			t.Fatal("nil ids without error")
		}
	})
}
