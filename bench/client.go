package bench

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/client"
)

// Client is the harness's view of a Mneme deployment: the public Go client (pkg/client) for the /v1 API,
// exactly as an agent uses it, plus the operational endpoints the harness reads (/readyz, /metrics).
type Client struct {
	API *client.Client
	// BaseURL is the server root, e.g. http://127.0.0.1:8080.
	BaseURL string
	HTTP    *http.Client
}

// NewClient returns a client of the deployment at baseURL acting as agent; key is the bearer key outside
// local development mode ("" for none).
func NewClient(baseURL, agent, key string) (*Client, error) {
	opts := []client.Option{client.WithTimeout(2 * time.Minute)}
	if key != "" {
		opts = append(opts, client.WithKey(key))
	}
	c, err := client.New(baseURL, agent, opts...)
	if err != nil {
		return nil, err
	}
	return &Client{API: c, BaseURL: strings.TrimRight(baseURL, "/"), HTTP: &http.Client{Timeout: time.Minute}}, nil
}

// ClaimTurnIDs reads a claim's provenance (GET /v1/workspaces/{ws}/claims/{id}) and returns its source turn
// ids and those of the claims corroborating it. It asks for no decisions: only the provenance is needed.
func (c *Client) ClaimTurnIDs(ctx context.Context, ws, id string) ([]string, error) {
	provenanceOnly := client.ReadOptions{DecisionsLimit: -1, InputsLimit: -1}
	cr, err := c.API.Claim(ctx, ws, id, provenanceOnly)
	if err != nil {
		return nil, err
	}
	ids := slices.Clone(cr.Provenance.TurnIDs)
	for _, co := range cr.Corroborations {
		if co.ViaClaimID == "" || co.ViaClaimID == id {
			continue
		}
		via, err := c.API.Claim(ctx, ws, co.ViaClaimID, provenanceOnly)
		if err != nil {
			return nil, fmt.Errorf("corroborating claim %s: %w", co.ViaClaimID, err)
		}
		ids = append(ids, via.Provenance.TurnIDs...)
	}
	return sortedUnique(ids), nil
}

// Ready polls /readyz until it answers 200 or the context ends.
func (c *Client) Ready(ctx context.Context) error {
	var last error
	for {
		if last = c.API.Readyz(ctx); last == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return errors.Join(ctx.Err(), last)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// LLMTokens reads the process's LLM token counters from /metrics (mneme_llm_tokens by kind), summed over
// stages. A server without the metric reports zeros.
func (c *Client) LLMTokens(ctx context.Context) (prompt, completion int64, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL+"/metrics", nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("/metrics: HTTP %d", resp.StatusCode)
	}
	return parseLLMTokens(resp.Body)
}

func parseLLMTokens(r io.Reader) (prompt, completion int64, err error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "mneme_llm_tokens") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, perr := strconv.ParseFloat(line[i+1:], 64)
		if perr != nil {
			continue
		}
		switch {
		case strings.Contains(line, `kind="prompt"`):
			prompt += int64(v)
		case strings.Contains(line, `kind="completion"`):
			completion += int64(v)
		}
	}
	return prompt, completion, sc.Err()
}
