package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
)

// Client is a small client of Mneme's public HTTP API (/v1), used to ingest and query exactly as an agent
// does. Errors carry the API's error body.
type Client struct {
	// BaseURL is the server root, e.g. http://127.0.0.1:8080.
	BaseURL string
	// Agent is sent as X-Mneme-Agent.
	Agent string
	// APIKey, when set, is sent as a bearer credential (needed outside local development mode).
	APIKey string
	HTTP   *http.Client
}

// APIError is a non-2xx answer of the API.
type APIError struct {
	Status int
	Body   api.ErrorBody
	Raw    string
}

func (e *APIError) Error() string {
	if e.Body.Message != "" {
		return fmt.Sprintf("HTTP %d %s: %s (field %q)", e.Status, e.Body.Code, e.Body.Message, e.Body.Field)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, strings.TrimSpace(e.Raw))
}

func (c *Client) httpClient() *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return &http.Client{Timeout: 60 * time.Second}
}

func (c *Client) do(ctx context.Context, method, path string, in, out any) error {
	var body io.Reader
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return err
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+path, body)
	if err != nil {
		return err
	}
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set(api.HeaderAgent, c.Agent)
	if c.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	resp, err := c.httpClient().Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode/100 != 2 {
		e := &APIError{Status: resp.StatusCode, Raw: string(raw)}
		var eb api.Error
		if json.Unmarshal(raw, &eb) == nil {
			e.Body = eb.Error
		}
		return e
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("%s %s: decoding the answer: %w", method, path, err)
	}
	return nil
}

func wsPath(ws, rest string) string { return "/v1/workspaces/" + url.PathEscape(ws) + rest }

// PostTurns sends turns (POST /v1/workspaces/{ws}/turns).
func (c *Client) PostTurns(ctx context.Context, ws string, turns []api.TurnInput) (*api.AcceptedResponse, error) {
	var out api.AcceptedResponse
	err := c.do(ctx, http.MethodPost, wsPath(ws, "/turns"), api.TurnsRequest{Turns: turns}, &out)
	return &out, err
}

// PostClaims sends structured claims (POST /v1/workspaces/{ws}/claims).
func (c *Client) PostClaims(ctx context.Context, ws string, claims []api.ClaimInput) (*api.AcceptedResponse, error) {
	var out api.AcceptedResponse
	err := c.do(ctx, http.MethodPost, wsPath(ws, "/claims"), api.ClaimsRequest{Claims: claims}, &out)
	return &out, err
}

// Search runs POST /v1/workspaces/{ws}/search.
func (c *Client) Search(ctx context.Context, ws string, req api.SearchRequest) (*api.SearchResponse, error) {
	var out api.SearchResponse
	err := c.do(ctx, http.MethodPost, wsPath(ws, "/search"), req, &out)
	return &out, err
}

// Answer runs POST /v1/workspaces/{ws}/answer.
func (c *Client) Answer(ctx context.Context, ws string, req api.AnswerRequest) (*api.AnswerResponse, error) {
	var out api.AnswerResponse
	err := c.do(ctx, http.MethodPost, wsPath(ws, "/answer"), req, &out)
	return &out, err
}

// ClaimTurnIDs reads a claim's provenance (GET /v1/workspaces/{ws}/claims/{id}) and returns every source turn
// id it names — its own and those of claims corroborating it — wherever the document nests them.
func (c *Client) ClaimTurnIDs(ctx context.Context, ws, id string) ([]string, error) {
	var doc any
	if err := c.do(ctx, http.MethodGet, wsPath(ws, "/claims/"+url.PathEscape(id)), nil, &doc); err != nil {
		return nil, err
	}
	var ids []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, child := range x {
				if k == "turn_ids" {
					if list, ok := child.([]any); ok {
						for _, t := range list {
							if s, ok := t.(string); ok {
								ids = append(ids, s)
							}
						}
						continue
					}
				}
				walk(child)
			}
		case []any:
			for _, child := range x {
				walk(child)
			}
		}
	}
	walk(doc)
	return sortedUnique(ids), nil
}

// Ready polls /readyz until it answers 200 or the context ends.
func (c *Client) Ready(ctx context.Context) error {
	var last error
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(c.BaseURL, "/")+"/readyz", nil)
		if err != nil {
			return err
		}
		resp, err := c.httpClient().Do(req)
		if err == nil {
			b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
			err = fmt.Errorf("/readyz: HTTP %d: %s", resp.StatusCode, strings.TrimSpace(string(b)))
		}
		last = err
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
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(c.BaseURL, "/")+"/metrics", nil)
	if err != nil {
		return 0, 0, err
	}
	resp, err := c.httpClient().Do(req)
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
