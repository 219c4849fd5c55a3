package configdoc_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/services/extractor"
	"github.com/mneme-ai/mneme/services/query"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// TestEndpointVariables: each service's LLM (or embeddings) endpoint is read from the variables
// docs/configuration.md lists for it — base URL, model and key under the service's own prefix — and each
// service's timeout keeps its own default (query 30s per call, extractor 60s per HTTP attempt, judge 30s per
// call with its retries).
func TestEndpointVariables(t *testing.T) {
	doc, err := os.ReadFile("../../docs/configuration.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		prefix  string
		load    func() (llm.Endpoint, time.Duration, error)
		timeout time.Duration
	}{
		{"MNEME_QUERY_LLM_", func() (llm.Endpoint, time.Duration, error) {
			var c query.Config
			err := env.Parse(&c)
			return c.LLM, c.LLMTimeout, err
		}, 30 * time.Second},
		{"MNEME_EXTRACTOR_LLM_", func() (llm.Endpoint, time.Duration, error) {
			var c extractor.Config
			err := env.Parse(&c)
			return c.LLM, c.LLMTimeout, err
		}, 60 * time.Second},
		{"MNEME_RECONCILER_JUDGE_", func() (llm.Endpoint, time.Duration, error) {
			var c reconciler.Config
			err := env.Parse(&c)
			return c.Judge, c.JudgeTimeout, err
		}, 30 * time.Second},
		{"MNEME_EMBEDDING_", func() (llm.Endpoint, time.Duration, error) {
			var c app.Config
			err := env.Parse(&c)
			return c.Embedding, 0, err
		}, 0},
	} {
		t.Run(c.prefix, func(t *testing.T) {
			want := llm.Endpoint{BaseURL: "http://llm.example:8000/v1", Model: "model-of-" + c.prefix, APIKey: "key-of-" + c.prefix}
			t.Setenv(c.prefix+"BASE_URL", want.BaseURL)
			t.Setenv(c.prefix+"MODEL", want.Model)
			t.Setenv(c.prefix+"API_KEY", want.APIKey)
			got, timeout, err := c.load()
			if err != nil || got != want || timeout != c.timeout {
				t.Errorf("got %+v, timeout %s (%v); want %+v, timeout %s", got, timeout, err, want, c.timeout)
			}
			for _, v := range []string{"BASE_URL", "MODEL", "API_KEY"} {
				if !strings.Contains(string(doc), "| `"+c.prefix+v+"` |") {
					t.Errorf("docs/configuration.md does not list %s%s", c.prefix, v)
				}
			}
		})
	}
}
