package embedding

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/mneme-ai/mneme/pkg/llm"
)

// OpenAIModelPrefix prefixes the model id of vectors from an OpenAI-compatible endpoint.
const OpenAIModelPrefix = "openai:"

// OpenAI is an Embedder backed by any OpenAI-compatible embeddings endpoint (OpenAI, Azure OpenAI,
// Ollama, vLLM, llama.cpp server, LM Studio) through package llm, which batches and retries.
// Vectors are normalised to unit length. It is safe for concurrent use.
//
// Dimension: Dim is known from the start when llm.Config.Dimensions or WithDim sets it; otherwise
// it is 0 until the first successful Embed (or Probe) discovers it, and every later response must
// keep that dimension (ErrDimensionMismatch otherwise).
type OpenAI struct {
	client *llm.Client
	model  string
	dim    atomic.Int64
}

// OpenAIOption configures NewOpenAI.
type OpenAIOption func(*OpenAI)

// WithDim declares the dimension the endpoint returns, so Dim is known before the first call and
// responses of another dimension are refused. It does not send the "dimensions" parameter
// (llm.Config.Dimensions does).
func WithDim(dim int) OpenAIOption {
	return func(e *OpenAI) { e.dim.Store(int64(dim)) }
}

// ErrDimensionMismatch reports vectors whose dimension differs from the embedder's. It is
// llm.ErrDimensionMismatch, so either name works with errors.Is.
var ErrDimensionMismatch = llm.ErrDimensionMismatch

// NewOpenAI builds an OpenAI-compatible embedder for cfg.Model. cfg is validated by llm.New.
func NewOpenAI(cfg llm.Config, opts ...OpenAIOption) (*OpenAI, error) {
	c, err := llm.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("embedding: openai: %w", err)
	}
	return NewOpenAIFromClient(c, opts...), nil
}

// NewOpenAIFromClient wraps an existing llm.Client (sharing its configuration and accounting).
func NewOpenAIFromClient(c *llm.Client, opts ...OpenAIOption) *OpenAI {
	e := &OpenAI{client: c, model: OpenAIModelPrefix + c.Model()}
	if d := c.Config().Dimensions; d > 0 {
		e.dim.Store(int64(d))
	}
	for _, o := range opts {
		o(e)
	}
	return e
}

var _ Embedder = (*OpenAI)(nil)

// Model returns "openai:<model>", e.g. "openai:text-embedding-3-small".
func (e *OpenAI) Model() string { return e.model }

// Dim returns the vector dimension, or 0 while it is still unknown (see OpenAI).
func (e *OpenAI) Dim() int { return int(e.dim.Load()) }

// Probe makes Dim known: when it is 0 it embeds one short text and returns the discovered dimension.
func (e *OpenAI) Probe(ctx context.Context) (int, error) {
	if d := e.Dim(); d > 0 {
		return d, nil
	}
	if _, err := e.Embed(ctx, []string{"dimension probe"}); err != nil {
		return 0, err
	}
	return e.Dim(), nil
}

// Embed returns one unit-length vector per text, in order. Accounting goes to the stage of ctx
// (llm.WithStage), else llm.DefaultEmbedStage.
func (e *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if len(texts) == 0 {
		return [][]float32{}, nil
	}
	res, err := e.client.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("embedding: %s: %w", e.model, err)
	}
	if res.Dim <= 0 {
		return nil, fmt.Errorf("embedding: %s: %w: empty vectors", e.model, ErrDimensionMismatch)
	}
	if !e.dim.CompareAndSwap(0, int64(res.Dim)) {
		if want := e.Dim(); want != res.Dim {
			return nil, fmt.Errorf("embedding: %s: %w: got %d, want %d", e.model, ErrDimensionMismatch, res.Dim, want)
		}
	}
	for i, v := range res.Vectors {
		if err := normalize(v); err != nil {
			return nil, fmt.Errorf("embedding: %s: vector %d: %w", e.model, i, err)
		}
	}
	return res.Vectors, nil
}

var errBadVector = errors.New("zero, NaN or infinite vector")

// normalize scales v to unit length in place.
func normalize(v []float32) error {
	var sum float64
	for _, x := range v {
		sum += float64(x) * float64(x)
	}
	if sum == 0 || math.IsNaN(sum) || math.IsInf(sum, 0) {
		return fmt.Errorf("%w: %w", llm.ErrMalformedResponse, errBadVector)
	}
	n := math.Sqrt(sum)
	for i := range v {
		v[i] = float32(float64(v[i]) / n)
	}
	return nil
}
