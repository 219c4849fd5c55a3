package openaitest

import (
	"encoding/json"
	"fmt"
)

// ChatRequest is the decoded body of a POST /v1/chat/completions request, for assertions.
type ChatRequest struct {
	Model          string          `json:"model"`
	Messages       []Message       `json:"messages"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	MaxTokens      *int            `json:"max_tokens,omitempty"`
	Stop           json.RawMessage `json:"stop,omitempty"`
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
	// Fields holds every top-level field as raw JSON, including ones not modelled above.
	Fields map[string]json.RawMessage `json:"-"`
}

// Message is a chat message as sent by the client.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Name    string `json:"name,omitempty"`
}

// ResponseFormat is the response_format request field.
type ResponseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *JSONSchema `json:"json_schema,omitempty"`
}

// JSONSchema is response_format.json_schema.
type JSONSchema struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Schema      json.RawMessage `json:"schema,omitempty"`
	Strict      *bool           `json:"strict,omitempty"`
}

// EmbeddingsRequest is the decoded body of a POST /v1/embeddings request. Input is normalized to a
// list whether the client sent one string or an array of strings.
type EmbeddingsRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"-"`
	Dimensions     *int     `json:"dimensions,omitempty"`
	EncodingFormat string   `json:"encoding_format,omitempty"`
	// Fields holds every top-level field as raw JSON.
	Fields map[string]json.RawMessage `json:"-"`
}

// Usage is the usage object of a response.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens,omitempty"`
	TotalTokens      int `json:"total_tokens"`
}

// DecodeChatRequest decodes a chat completions request body.
func DecodeChatRequest(body []byte) (ChatRequest, error) {
	var r ChatRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return ChatRequest{}, fmt.Errorf("openaitest: chat request: %w", err)
	}
	if err := json.Unmarshal(body, &r.Fields); err != nil {
		return ChatRequest{}, fmt.Errorf("openaitest: chat request: %w", err)
	}
	return r, nil
}

// DecodeEmbeddingsRequest decodes an embeddings request body; input may be a string or an array of
// strings.
func DecodeEmbeddingsRequest(body []byte) (EmbeddingsRequest, error) {
	var r EmbeddingsRequest
	if err := json.Unmarshal(body, &r); err != nil {
		return EmbeddingsRequest{}, fmt.Errorf("openaitest: embeddings request: %w", err)
	}
	if err := json.Unmarshal(body, &r.Fields); err != nil {
		return EmbeddingsRequest{}, fmt.Errorf("openaitest: embeddings request: %w", err)
	}
	raw, ok := r.Fields["input"]
	if !ok {
		return EmbeddingsRequest{}, fmt.Errorf("openaitest: embeddings request: no input")
	}
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		r.Input = []string{one}
		return r, nil
	}
	if err := json.Unmarshal(raw, &r.Input); err != nil {
		return EmbeddingsRequest{}, fmt.Errorf("openaitest: embeddings request: input: %w", err)
	}
	return r, nil
}

type chatCompletion struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Created int64        `json:"created"`
	Model   string       `json:"model"`
	Choices []chatChoice `json:"choices"`
	Usage   *Usage       `json:"usage,omitempty"`
}

type chatChoice struct {
	Index        int     `json:"index"`
	Message      Message `json:"message"`
	FinishReason string  `json:"finish_reason"`
}

type embeddingList struct {
	Object string          `json:"object"`
	Data   []embeddingItem `json:"data"`
	Model  string          `json:"model"`
	Usage  *Usage          `json:"usage,omitempty"`
}

type embeddingItem struct {
	Object    string    `json:"object"`
	Index     int       `json:"index"`
	Embedding []float32 `json:"embedding"`
}

type errorBody struct {
	Error errorObject `json:"error"`
}

type errorObject struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}
