package llm

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Wire types of the OpenAI-compatible API, limited to the fields Mneme sends and reads.

type chatBody struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	MaxCompletion  int             `json:"max_completion_tokens,omitempty"`
	Stop           []string        `json:"stop,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
}

type responseFormat struct {
	Type       string          `json:"type"`
	JSONSchema *jsonSchemaBody `json:"json_schema,omitempty"`
}

type jsonSchemaBody struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      bool            `json:"strict"`
}

type embedBody struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	Dimensions     int      `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format,omitempty"`
}

type wireUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

func (w *wireUsage) addTo(u *Usage) {
	if w == nil {
		return
	}
	// Negative counts are nonsense from a broken server; ignore them rather than subtract.
	p, c, t := max(w.PromptTokens, 0), max(w.CompletionTokens, 0), max(w.TotalTokens, 0)
	if t == 0 {
		t = p + c
	}
	u.PromptTokens += p
	u.CompletionTokens += c
	u.TotalTokens += t
}

// chatResult is the part of a chat completion Mneme uses.
type chatResult struct {
	Model        string
	Content      string
	FinishReason string
	Refusal      string
	Usage        *wireUsage
}

// parseChatResponse decodes a chat completion body. It fails with ErrMalformedResponse when the
// body is not a JSON object, has no choices, or its first choice has no message.
func parseChatResponse(body []byte) (*chatResult, error) {
	var w struct {
		Model   string `json:"model"`
		Choices []struct {
			Message *struct {
				Content json.RawMessage `json:"content"`
				Refusal *string         `json:"refusal"`
			} `json:"message"`
			// Some servers put completion text here (legacy completions shape).
			Text         *string `json:"text"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		Usage *wireUsage `json:"usage"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("%w: chat completion: %w", ErrMalformedResponse, err)
	}
	r := &chatResult{Model: w.Model, Usage: w.Usage}
	if len(w.Choices) == 0 {
		return r, fmt.Errorf("%w: chat completion has no choices", ErrMalformedResponse)
	}
	ch := w.Choices[0]
	if ch.FinishReason != nil {
		r.FinishReason = *ch.FinishReason
	}
	switch {
	case ch.Message != nil:
		if ch.Message.Refusal != nil {
			r.Refusal = *ch.Message.Refusal
		}
		content, err := decodeContent(ch.Message.Content)
		if err != nil {
			return r, err
		}
		r.Content = content
	case ch.Text != nil:
		r.Content = *ch.Text
	default:
		return r, fmt.Errorf("%w: chat completion choice has no message", ErrMalformedResponse)
	}
	return r, nil
}

// decodeContent accepts message content as a string, null, or an array of content parts
// ({"type":"text","text":...}), as different servers send it.
func decodeContent(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("%w: message content is neither a string nor content parts", ErrMalformedResponse)
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "" || p.Type == "text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}

// embedResult is a decoded embeddings response with vectors in input order.
type embedResult struct {
	Model   string
	Vectors [][]float32
	Usage   *wireUsage
}

// parseEmbeddingsResponse decodes an embeddings body for n inputs: exactly n vectors, placed by
// their index (position when the server sends none), all of one non-zero dimension. A body that
// is not the expected JSON fails with ErrMalformedResponse; a wrong count or differing dimensions
// with ErrDimensionMismatch.
func parseEmbeddingsResponse(body []byte, n int) (*embedResult, error) {
	var w struct {
		Model string `json:"model"`
		Data  []struct {
			Index     *int            `json:"index"`
			Embedding json.RawMessage `json:"embedding"`
		} `json:"data"`
		Usage *wireUsage `json:"usage"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, fmt.Errorf("%w: embeddings: %w", ErrMalformedResponse, err)
	}
	r := &embedResult{Model: w.Model, Usage: w.Usage}
	if w.Data == nil {
		return r, fmt.Errorf("%w: embeddings: no data", ErrMalformedResponse)
	}
	if len(w.Data) != n {
		return r, fmt.Errorf("%w: %d vectors for %d inputs", ErrDimensionMismatch, len(w.Data), n)
	}
	r.Vectors = make([][]float32, n)
	dim := -1
	for pos, d := range w.Data {
		i := pos
		if d.Index != nil {
			i = *d.Index
		}
		if i < 0 || i >= n || r.Vectors[i] != nil {
			return r, fmt.Errorf("%w: embeddings: bad or repeated index %d", ErrMalformedResponse, i)
		}
		v, err := decodeVector(d.Embedding)
		if err != nil {
			return r, err
		}
		if len(v) == 0 {
			return r, fmt.Errorf("%w: embeddings: empty vector at index %d", ErrMalformedResponse, i)
		}
		if dim >= 0 && len(v) != dim {
			return r, fmt.Errorf("%w: vector %d has %d dimensions, others %d", ErrDimensionMismatch, i, len(v), dim)
		}
		dim = len(v)
		r.Vectors[i] = v
	}
	return r, nil
}

// decodeVector accepts an array of numbers or a base64 string of little-endian float32 (the
// encoding_format=base64 form).
func decodeVector(raw json.RawMessage) ([]float32, error) {
	var v []float32
	if err := json.Unmarshal(raw, &v); err == nil {
		return v, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("%w: embedding is neither numbers nor base64", ErrMalformedResponse)
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b)%4 != 0 {
		return nil, fmt.Errorf("%w: embedding base64 is invalid", ErrMalformedResponse)
	}
	v = make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[i*4:]))
		if math.IsNaN(float64(v[i])) || math.IsInf(float64(v[i]), 0) {
			return nil, fmt.Errorf("%w: embedding holds NaN or Inf", ErrMalformedResponse)
		}
	}
	return v, nil
}

type errorObject struct {
	Message string
	Type    string
	Param   string
	Code    string
}

// parseErrorBody reads {"error":{"message","type","param","code"}} (OpenAI, vLLM, llama.cpp) or
// {"error":"message"} (Ollama). code may be a string or a number.
func parseErrorBody(body []byte) (errorObject, bool) {
	var w struct {
		Error json.RawMessage `json:"error"`
		// Some servers answer {"message": "..."} or {"detail": "..."} (FastAPI).
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		return errorObject{}, false
	}
	var s string
	if len(w.Error) > 0 && json.Unmarshal(w.Error, &s) == nil {
		return errorObject{Message: s}, true
	}
	var o struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Param   json.RawMessage `json:"param"`
		Code    json.RawMessage `json:"code"`
	}
	if len(w.Error) > 0 && json.Unmarshal(w.Error, &o) == nil {
		return errorObject{Message: o.Message, Type: o.Type, Param: scalar(o.Param), Code: scalar(o.Code)}, true
	}
	if w.Message != "" {
		return errorObject{Message: w.Message}, true
	}
	if len(w.Detail) > 0 {
		if json.Unmarshal(w.Detail, &s) == nil {
			return errorObject{Message: s}, true
		}
		return errorObject{Message: truncate(string(w.Detail), 300)}, true
	}
	return errorObject{}, false
}

// scalar renders a JSON string or number as text; null and anything else give "".
func scalar(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}
