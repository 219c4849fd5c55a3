package llm

import (
	"context"
	"encoding/json"
)

// Message roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
	Name    string `json:"name,omitempty"`
}

// System, User and Assistant build messages of their role.
func System(content string) Message    { return Message{Role: RoleSystem, Content: content} }
func User(content string) Message      { return Message{Role: RoleUser, Content: content} }
func Assistant(content string) Message { return Message{Role: RoleAssistant, Content: content} }

// JSONSchema asks for structured output conforming to Schema.
type JSONSchema struct {
	// Name identifies the schema to the server ([a-zA-Z0-9_-], at most 64 characters). Required.
	Name string
	// Description is optional guidance for the model.
	Description string
	// Schema is the JSON Schema document. OpenAI's strict mode requires an object root with
	// additionalProperties false and every property listed in required.
	Schema json.RawMessage
	// Strict asks the server to enforce the schema exactly (OpenAI strict mode).
	Strict bool
}

// Format is the structured-output mechanism a chat request used.
type Format int

const (
	// FormatText: no structured output requested.
	FormatText Format = iota
	// FormatJSONSchema: response_format {"type":"json_schema", ...}.
	FormatJSONSchema
	// FormatJSONObject: response_format {"type":"json_object"} with the schema in a system message.
	FormatJSONObject
	// FormatPrompt: no response_format; the schema and a JSON-only instruction in a system message.
	FormatPrompt
)

func (f Format) String() string {
	switch f {
	case FormatText:
		return "text"
	case FormatJSONSchema:
		return "json_schema"
	case FormatJSONObject:
		return "json_object"
	case FormatPrompt:
		return "prompt"
	}
	return "unknown"
}

// ChatRequest is one chat completion call.
type ChatRequest struct {
	// Stage names the accounting stage ("extract", "judge", "reader"); default the stage of the
	// context (WithStage), else DefaultChatStage.
	Stage string
	// Messages is the conversation; at least one is required.
	Messages []Message
	// Temperature is sent as is; the zero value 0 is the deterministic default Mneme wants.
	// Config.ReasoningModel omits it.
	Temperature float64
	// Seed, when non-nil, is sent as seed (servers that support it become reproducible).
	Seed *int64
	// MaxTokens, when positive, is sent as max_tokens (max_completion_tokens with
	// Config.ReasoningModel).
	MaxTokens int
	// Schema, when non-nil, requests structured output (see Format for the fallback ladder) and
	// makes the call fail with ErrMalformedResponse unless the content holds a JSON value
	// (extracted with ExtractJSON, retried up to Config.MalformedAttempts).
	Schema *JSONSchema
	// Stop sequences, optional.
	Stop []string
}

// ChatResponse is the outcome of a chat call.
type ChatResponse struct {
	// Content is the first choice's message content as returned.
	Content string
	// JSON is the JSON value extracted from Content when the request had a Schema; nil otherwise.
	JSON json.RawMessage
	// Format is the structured-output mechanism that produced this response.
	Format Format
	// Model is the model the server says answered.
	Model string
	// FinishReason is the first choice's finish_reason ("stop", "length", ...).
	FinishReason string
	// Usage is what this call cost, retries included.
	Usage Usage
}

// Chat sends a chat completion request with retries and, for a request with a Schema, the
// structured-output fallback ladder. Its Usage is also added to Config.Accountant. On error the
// returned *ChatResponse is nil; the usage spent on failed attempts is still accounted.
func (c *Client) Chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	return c.chat(ctx, req)
}

// ChatJSON is Chat followed by decoding the extracted JSON into out. A value that does not decode
// into out counts as a malformed response and is retried like one. req.Schema is required.
func (c *Client) ChatJSON(ctx context.Context, req ChatRequest, out any) (*ChatResponse, error) {
	return c.chatJSON(ctx, req, out)
}
