package llm_test

import (
	"context"
	"sync"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"

	"github.com/mneme-ai/mneme/pkg/llm"
)

// recordingProvider hands out counters that remember their sums per attribute set, so the test
// needs no SDK.
type recordingProvider struct {
	noop.MeterProvider
	mu   sync.Mutex
	sums map[string]int64 // "name|stage|kind" → sum
}

type recordingMeter struct {
	noop.Meter
	p *recordingProvider
}

type recordingCounter struct {
	noop.Int64Counter
	name string
	p    *recordingProvider
}

func (p *recordingProvider) Meter(string, ...metric.MeterOption) metric.Meter {
	return recordingMeter{p: p}
}

func (m recordingMeter) Int64Counter(name string, _ ...metric.Int64CounterOption) (metric.Int64Counter, error) {
	return recordingCounter{name: name, p: m.p}, nil
}

func (c recordingCounter) Add(_ context.Context, n int64, opts ...metric.AddOption) {
	attrs := metric.NewAddConfig(opts).Attributes()
	stage, _ := attrs.Value(attribute.Key("stage"))
	kind, _ := attrs.Value(attribute.Key("kind"))
	c.p.mu.Lock()
	c.p.sums[c.name+"|"+stage.AsString()+"|"+kind.AsString()] += n
	c.p.mu.Unlock()
}

func TestOTelRecorder(t *testing.T) {
	p := &recordingProvider{sums: map[string]int64{}}
	rec, err := llm.OTelRecorder(p)
	if err != nil {
		t.Fatal(err)
	}
	acc := llm.NewAccountant(llm.WithRecorder(rec))
	acc.Add(context.Background(), "judge", llm.Usage{PromptTokens: 10, CompletionTokens: 3, TotalTokens: 13, Calls: 2, Retries: 1})
	acc.Add(context.Background(), "judge", llm.Usage{PromptTokens: 5, TotalTokens: 5, Calls: 1})
	want := map[string]int64{
		"mneme_llm_tokens|judge|prompt":     15,
		"mneme_llm_tokens|judge|completion": 3,
		"mneme_llm_calls|judge|":            3,
		"mneme_llm_retries|judge|":          1,
	}
	for k, v := range want {
		if p.sums[k] != v {
			t.Errorf("%s = %d, want %d (all: %v)", k, p.sums[k], v, p.sums)
		}
	}
}

func TestNilAccountant(t *testing.T) {
	var acc *llm.Accountant
	acc.Add(context.Background(), "x", llm.Usage{Calls: 1})
	if len(acc.Snapshot()) != 0 || acc.Total() != (llm.Usage{}) {
		t.Fatal("nil accountant must be inert")
	}
	var zero llm.Accountant
	zero.Add(context.Background(), "x", llm.Usage{Calls: 1})
	if zero.Stage("x").Calls != 1 {
		t.Fatal("zero accountant must accumulate")
	}
}
