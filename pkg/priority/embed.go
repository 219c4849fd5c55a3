package priority

import (
	"context"
	"fmt"

	"github.com/mneme-ai/mneme/pkg/embedding"
)

// DefaultChunk is how many texts an ingest embedding unit holds by default: with the local model on one
// core about 20–40 ms of work, so a query waits at most about that long for the unit in flight.
const DefaultChunk = 16

// Embedder is the ingest side's view of an embedding model shared with queries: Embed cuts the texts into
// chunks and embeds each as one unit of the Gate, so a query that arrives during a large batch waits for at
// most the chunk in flight, not the batch, and the chunks still queued wait for the query. The query side
// calls the model directly (it is never gated). Vectors are those of the model: each text is embedded on its
// own row, whatever chunk it is in.
type Embedder struct {
	model embedding.Embedder
	gate  *Gate
	chunk int
}

var _ embedding.Embedder = (*Embedder)(nil)

// NewEmbedder wraps model for ingest under gate; chunk ≤ 0 means DefaultChunk. A nil gate makes it embed
// whole batches at once, as the model does.
func NewEmbedder(model embedding.Embedder, gate *Gate, chunk int) *Embedder {
	if chunk <= 0 {
		chunk = DefaultChunk
	}
	return &Embedder{model: model, gate: gate, chunk: chunk}
}

// Model implements embedding.Embedder.
func (e *Embedder) Model() string { return e.model.Model() }

// Dim implements embedding.Embedder.
func (e *Embedder) Dim() int { return e.model.Dim() }

// Embed implements embedding.Embedder, one gated unit per chunk of texts.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	if e.gate == nil || len(texts) == 0 {
		return e.model.Embed(ctx, texts)
	}
	out := make([][]float32, 0, len(texts))
	for start := 0; start < len(texts); start += e.chunk {
		end := min(start+e.chunk, len(texts))
		release, err := e.gate.Ingest(ctx)
		if err != nil {
			return nil, err
		}
		vecs, err := e.model.Embed(ctx, texts[start:end])
		release()
		if err != nil {
			return nil, err
		}
		if len(vecs) != end-start {
			return nil, fmt.Errorf("priority: the model returned %d vectors for %d texts", len(vecs), end-start)
		}
		out = append(out, vecs...)
	}
	return out, nil
}
