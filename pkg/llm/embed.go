package llm

import "context"

// Embeddings is the outcome of an Embed call.
type Embeddings struct {
	// Vectors holds one vector per input text, in input order, as returned (not normalized).
	Vectors [][]float32
	// Model is the model the server says answered (Config.Model when the server omits it).
	Model string
	// Dim is the length of every vector.
	Dim int
	// Usage is what the call cost over all its batches.
	Usage Usage
}

// Embed embeds texts, in batches of at most Config.EmbedBatchSize inputs, with retries per batch.
// It checks that the server returned exactly one vector per input (reordered by index), that all
// vectors have one dimension, and that it equals Config.Dimensions when set; otherwise it fails
// with ErrDimensionMismatch. Usage is accounted under the context's stage (WithStage), else
// DefaultEmbedStage. Zero texts return empty Embeddings without a request.
func (c *Client) Embed(ctx context.Context, texts []string) (*Embeddings, error) {
	return c.embed(ctx, texts)
}
