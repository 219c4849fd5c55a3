package llm

import (
	"context"
	"fmt"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// Metric instrument names. Prometheus exporters append _total to counters, giving
// mneme_llm_tokens_total{stage,kind}, mneme_llm_calls_total{stage} and mneme_llm_retries_total{stage}.
const (
	MetricTokens  = "mneme_llm_tokens"
	MetricCalls   = "mneme_llm_calls"
	MetricRetries = "mneme_llm_retries"
)

// OTelRecorder returns a UsageRecorder that adds every recorded Usage to OpenTelemetry counters
// from mp: MetricTokens with attributes stage and kind ("prompt" or "completion"), MetricCalls and
// MetricRetries with attribute stage. Use it with NewAccountant(WithRecorder(rec)).
func OTelRecorder(mp metric.MeterProvider) (UsageRecorder, error) {
	m := mp.Meter("github.com/mneme-ai/mneme/pkg/llm")
	tokens, err := m.Int64Counter(MetricTokens, metric.WithDescription("LLM tokens billed, by stage and kind (prompt, completion)."))
	if err != nil {
		return nil, fmt.Errorf("llm: otel counter %s: %w", MetricTokens, err)
	}
	calls, err := m.Int64Counter(MetricCalls, metric.WithDescription("LLM HTTP requests sent, retries included, by stage."))
	if err != nil {
		return nil, fmt.Errorf("llm: otel counter %s: %w", MetricCalls, err)
	}
	retries, err := m.Int64Counter(MetricRetries, metric.WithDescription("LLM HTTP requests that repeated an earlier one, by stage."))
	if err != nil {
		return nil, fmt.Errorf("llm: otel counter %s: %w", MetricRetries, err)
	}
	return func(ctx context.Context, stage string, u Usage) {
		st := attribute.String("stage", stage)
		if u.PromptTokens > 0 {
			tokens.Add(ctx, u.PromptTokens, metric.WithAttributes(st, attribute.String("kind", "prompt")))
		}
		if u.CompletionTokens > 0 {
			tokens.Add(ctx, u.CompletionTokens, metric.WithAttributes(st, attribute.String("kind", "completion")))
		}
		if u.Calls > 0 {
			calls.Add(ctx, u.Calls, metric.WithAttributes(st))
		}
		if u.Retries > 0 {
			retries.Add(ctx, u.Retries, metric.WithAttributes(st))
		}
	}, nil
}
