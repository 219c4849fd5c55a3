package llm

import (
	"context"
	"encoding/json"
	"fmt"
)

// Models lists the model ids the server offers (GET {BaseURL}/models), with the usual retries. Use
// it as a readiness check or to verify Config.Model at start-up. It is not accounted (it costs no
// tokens).
func (c *Client) Models(ctx context.Context) ([]string, error) {
	var ids []string
	var u Usage
	err := c.post(ctx, c.modelsURL, nil, &u, postOptions{method: "GET"}, func(b []byte, _ *Usage) error {
		got, err := parseModels(b)
		if err != nil {
			return err
		}
		ids = got
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("llm: models: %w", err)
	}
	return ids, nil
}

// parseModels decodes a model listing: OpenAI's {"data":[{"id"}]} or Ollama's {"models":[{"name"}]}.
func parseModels(b []byte) ([]string, error) {
	var w struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
		// Ollama's native listing shape, in case BaseURL points at its root.
		Models []struct {
			Name string `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("%w: models: %w", ErrMalformedResponse, err)
	}
	if w.Data == nil && w.Models == nil {
		return nil, fmt.Errorf("%w: models: no data", ErrMalformedResponse)
	}
	ids := []string{}
	for _, m := range w.Data {
		ids = append(ids, m.ID)
	}
	for _, m := range w.Models {
		ids = append(ids, m.Name)
	}
	return ids, nil
}
