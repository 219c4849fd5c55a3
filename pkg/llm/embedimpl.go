package llm

import (
	"context"
	"encoding/json"
	"fmt"
)

func (c *Client) embed(ctx context.Context, texts []string) (*Embeddings, error) {
	stage := StageFrom(ctx)
	if stage == "" {
		stage = DefaultEmbedStage
	}
	res := &Embeddings{Vectors: make([][]float32, 0, len(texts)), Model: c.cfg.Model}
	if len(texts) == 0 {
		return res, nil
	}
	var u Usage
	defer func() { c.cfg.Accountant.Add(ctx, stage, u) }()

	for start := 0; start < len(texts); start += c.cfg.EmbedBatchSize {
		batch := texts[start:min(start+c.cfg.EmbedBatchSize, len(texts))]
		body, err := json.Marshal(embedBody{Model: c.cfg.Model, Input: batch, Dimensions: c.cfg.Dimensions})
		if err != nil {
			return nil, fmt.Errorf("%w: encode embeddings request: %w", ErrBadRequest, err)
		}
		var got *embedResult
		err = c.post(ctx, c.embedURL, body, &u, postOptions{}, func(b []byte, u *Usage) error {
			r, err := parseEmbeddingsResponse(b, len(batch))
			if r != nil {
				r.Usage.addTo(u)
			}
			if err != nil {
				return err
			}
			got = r
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("llm: embed %s (inputs %d-%d of %d): %w", c.cfg.Model, start, start+len(batch)-1, len(texts), err)
		}
		dim := len(got.Vectors[0])
		if res.Dim == 0 {
			res.Dim = dim
		}
		if dim != res.Dim {
			return nil, fmt.Errorf("llm: embed %s: %w: batch at %d has %d dimensions, earlier batches %d", c.cfg.Model, ErrDimensionMismatch, start, dim, res.Dim)
		}
		if c.cfg.Dimensions > 0 && dim != c.cfg.Dimensions {
			return nil, fmt.Errorf("llm: embed %s: %w: got %d dimensions, requested %d", c.cfg.Model, ErrDimensionMismatch, dim, c.cfg.Dimensions)
		}
		if got.Model != "" {
			res.Model = got.Model
		}
		res.Vectors = append(res.Vectors, got.Vectors...)
	}
	res.Usage = u
	return res, nil
}
