package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

func (c *Client) chat(ctx context.Context, req ChatRequest) (*ChatResponse, error) {
	return c.chatDecode(ctx, req, nil)
}

func (c *Client) chatJSON(ctx context.Context, req ChatRequest, out any) (*ChatResponse, error) {
	if req.Schema == nil {
		return nil, fmt.Errorf("%w: ChatJSON needs a Schema", ErrBadRequest)
	}
	rv := reflect.ValueOf(out)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return nil, fmt.Errorf("%w: ChatJSON needs a non-nil pointer, got %T", ErrBadRequest, out)
	}
	var decoded reflect.Value
	resp, err := c.chatDecode(ctx, req, func(v []byte) error {
		// Decode into a fresh value each attempt so a rejected attempt leaves nothing in out.
		fresh := reflect.New(rv.Elem().Type())
		if err := json.Unmarshal(v, fresh.Interface()); err != nil {
			return fmt.Errorf("%w: content does not decode into %T: %w", ErrMalformedResponse, out, err)
		}
		decoded = fresh
		return nil
	})
	if err != nil {
		return nil, err
	}
	rv.Elem().Set(decoded.Elem())
	return resp, nil
}

// chatDecode runs the format ladder around post. accept, when set, vets the extracted JSON of a
// structured call; an error wrapping ErrMalformedResponse makes the attempt count as malformed.
func (c *Client) chatDecode(ctx context.Context, req ChatRequest, accept func([]byte) error) (*ChatResponse, error) {
	if len(req.Messages) == 0 {
		return nil, fmt.Errorf("%w: chat request has no messages", ErrBadRequest)
	}
	stage := req.Stage
	if stage == "" {
		stage = StageFrom(ctx)
	}
	if stage == "" {
		stage = DefaultChatStage
	}
	var u Usage
	defer func() { c.cfg.Accountant.Add(ctx, stage, u) }()

	format := FormatText
	if req.Schema != nil {
		format = c.StructuredFormat()
		if len(req.Schema.Schema) == 0 && format == FormatJSONSchema {
			format = FormatJSONObject
		}
	}
	for {
		body, err := json.Marshal(c.chatBody(req, format))
		if err != nil {
			return nil, fmt.Errorf("%w: encode chat request: %w", ErrBadRequest, err)
		}
		var resp *ChatResponse
		err = c.post(ctx, c.chatURL, body, &u, postOptions{formatSensitive: format == FormatJSONSchema || format == FormatJSONObject}, func(b []byte, u *Usage) error {
			r, err := parseChatResponse(b)
			if r != nil {
				r.Usage.addTo(u)
			}
			if err != nil {
				return err
			}
			if r.Refusal != "" && strings.TrimSpace(r.Content) == "" {
				return fmt.Errorf("%w: %s", ErrRefused, truncate(r.Refusal, 300))
			}
			out := &ChatResponse{Content: r.Content, Format: format, Model: r.Model, FinishReason: r.FinishReason}
			if out.Model == "" {
				out.Model = c.cfg.Model
			}
			if req.Schema != nil {
				v, err := ExtractJSON(r.Content)
				if err != nil {
					if r.FinishReason == "length" {
						return fmt.Errorf("%w (finish_reason length: raise MaxTokens)", err)
					}
					return err
				}
				if accept != nil {
					if err := accept(v); err != nil {
						return err
					}
				}
				out.JSON = v
			}
			resp = out
			return nil
		})
		var apiErr *APIError
		if err != nil && req.Schema != nil && format < FormatPrompt && errors.As(err, &apiErr) && blamesResponseFormat(apiErr) {
			next := format + 1
			c.lowerFormat(next)
			c.log.WarnContext(ctx, "llm: server rejected structured output, falling back",
				"model", c.cfg.Model, "from", format.String(), "to", next.String(), "status", apiErr.StatusCode, "message", apiErr.Message)
			format = next
			// The next request repeats this one in another form.
			u.Retries++
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("llm: chat %s: %w", c.cfg.Model, err)
		}
		resp.Usage = u
		return resp, nil
	}
}

// lowerFormat moves the client's starting format down to f (never up).
func (c *Client) lowerFormat(f Format) {
	for {
		cur := c.format.Load()
		if int32(f) <= cur || c.format.CompareAndSwap(cur, int32(f)) {
			return
		}
	}
}

// jsonInstruction is the system text that asks for JSON when the server does not enforce a schema.
func jsonInstruction(s *JSONSchema) string {
	var b strings.Builder
	b.WriteString("Respond with a single JSON value only: no prose, no Markdown code fences.")
	if len(s.Schema) > 0 {
		b.WriteString(" The JSON must conform to this JSON Schema")
		if s.Name != "" {
			b.WriteString(" (" + s.Name + ")")
		}
		b.WriteString(":\n")
		b.Write(s.Schema)
	}
	return b.String()
}

func (c *Client) chatBody(req ChatRequest, format Format) chatBody {
	body := chatBody{
		Model:    c.cfg.Model,
		Messages: req.Messages,
		Seed:     req.Seed,
		Stop:     req.Stop,
	}
	if c.cfg.ReasoningModel {
		body.MaxCompletion = req.MaxTokens
	} else {
		t := req.Temperature
		body.Temperature = &t
		body.MaxTokens = req.MaxTokens
	}
	switch format {
	case FormatJSONSchema:
		body.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchemaBody{
			Name: schemaName(req.Schema.Name), Description: req.Schema.Description, Schema: req.Schema.Schema, Strict: req.Schema.Strict,
		}}
	case FormatJSONObject:
		body.ResponseFormat = &responseFormat{Type: "json_object"}
		body.Messages = withInstruction(req.Messages, jsonInstruction(req.Schema))
	case FormatPrompt:
		body.Messages = withInstruction(req.Messages, jsonInstruction(req.Schema))
	}
	return body
}

// withInstruction appends text to the first system message, or prepends a system message when
// there is none; chat templates of several local models reject system messages after the first
// turn, so the instruction never goes last.
func withInstruction(msgs []Message, text string) []Message {
	out := make([]Message, 0, len(msgs)+1)
	if len(msgs) > 0 && msgs[0].Role == RoleSystem {
		first := msgs[0]
		first.Content = strings.TrimRight(first.Content, "\n") + "\n\n" + text
		out = append(out, first)
		return append(out, msgs[1:]...)
	}
	out = append(out, System(text))
	return append(out, msgs...)
}

// schemaName makes a name OpenAI accepts ([a-zA-Z0-9_-]{1,64}).
func schemaName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if b.Len() == 64 {
			break
		}
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "response"
	}
	return b.String()
}
