package llm_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/openaitest"
)

// testConfig is a config with fast backoff so retry tests take milliseconds.
func testConfig(srv *openaitest.Server) llm.Config {
	return llm.Config{
		BaseURL:        srv.URL(),
		Model:          "test-model",
		APIKey:         "sk-test",
		Timeout:        5 * time.Second,
		MaxRetries:     4,
		MaxElapsed:     30 * time.Second,
		InitialBackoff: time.Millisecond,
		MaxBackoff:     5 * time.Millisecond,
		Logger:         slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
}

func newClient(t *testing.T, cfg llm.Config) *llm.Client {
	t.Helper()
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatalf("llm.New: %v", err)
	}
	return c
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	tick := time.NewTicker(2 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		case <-tick.C:
		}
	}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

const claimSchema = `{"type":"object","properties":{"claims":{"type":"array","items":{"type":"string"}}},"required":["claims"],"additionalProperties":false}`

type claims struct {
	Claims []string `json:"claims"`
}

func schemaReq(stage string) llm.ChatRequest {
	return llm.ChatRequest{
		Stage:    stage,
		Messages: []llm.Message{llm.System("Extract claims."), llm.User("I moved to Berlin.")},
		Schema:   &llm.JSONSchema{Name: "claims", Schema: []byte(claimSchema), Strict: true},
	}
}
