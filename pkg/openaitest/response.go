package openaitest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"time"
)

// Usage reported by ChatReply and embeddings replies, constant so tests can assert sums.
const (
	DefaultPromptTokens     = 11
	DefaultCompletionTokens = 7
	// DefaultEmbeddingTokensPerInput is the prompt_tokens an embeddings reply reports per input.
	DefaultEmbeddingTokensPerInput = 3
	// DefaultModel is the model name replies report when the request names none.
	DefaultModel = "test-model"
)

// Response is one scripted HTTP answer. Build one with the constructors below and adjust it with
// the With* methods, which return modified copies.
type Response struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// Header holds extra response headers.
	Header http.Header
	// ContentType is sent as Content-Type; "" means application/json.
	ContentType string
	// Body is written as is.
	Body []byte
	// Delay is waited before anything is written; the wait ends early (writing nothing) when the
	// client goes away or the server closes.
	Delay time.Duration
	// Truncate sends a Content-Length for the whole body, writes only its first half, then drops the
	// connection, so the client sees an unexpected EOF.
	Truncate bool
}

// WithDelay returns r answered after d (a slow server).
func (r Response) WithDelay(d time.Duration) Response { r.Delay = d; return r }

// WithContentType returns r with another Content-Type.
func (r Response) WithContentType(ct string) Response { r.ContentType = ct; return r }

// WithHeader returns r with one more header.
func (r Response) WithHeader(key, value string) Response {
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	r.Header = h
	return r
}

// WithStatus returns r with another status code.
func (r Response) WithStatus(status int) Response { r.Status = status; return r }

// Truncated returns r cut in the middle of its body.
func (r Response) Truncated() Response { r.Truncate = true; return r }

// Completion describes a chat completion answer in more detail than ChatReply.
type Completion struct {
	// Content is the assistant message content.
	Content string
	// FinishReason defaults to "stop".
	FinishReason string
	// Model defaults to DefaultModel.
	Model string
	// Usage defaults to DefaultPromptTokens/DefaultCompletionTokens; set NoUsage to omit it.
	Usage   *Usage
	NoUsage bool
	// Choices, when > 1, repeats the message in that many choices.
	Choices int
}

// Response encodes c as a 200 chat.completion response.
func (c Completion) Response() Response {
	if c.FinishReason == "" {
		c.FinishReason = "stop"
	}
	if c.Model == "" {
		c.Model = DefaultModel
	}
	n := max(c.Choices, 1)
	cc := chatCompletion{ID: "chatcmpl-test", Object: "chat.completion", Created: 1700000000, Model: c.Model}
	for i := range n {
		cc.Choices = append(cc.Choices, chatChoice{Index: i, Message: Message{Role: "assistant", Content: c.Content}, FinishReason: c.FinishReason})
	}
	switch {
	case c.NoUsage:
	case c.Usage != nil:
		cc.Usage = c.Usage
	default:
		cc.Usage = &Usage{PromptTokens: DefaultPromptTokens, CompletionTokens: DefaultCompletionTokens, TotalTokens: DefaultPromptTokens + DefaultCompletionTokens}
	}
	return jsonResponse(http.StatusOK, cc)
}

// ChatReply is a 200 chat completion whose single choice has content, with usage
// DefaultPromptTokens/DefaultCompletionTokens.
func ChatReply(content string) Response { return Completion{Content: content}.Response() }

// ChatReplyJSON is ChatReply with v encoded as JSON for content.
func ChatReplyJSON(v any) Response {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("openaitest: ChatReplyJSON: %v", err))
	}
	return ChatReply(string(b))
}

// ChatReplyUsage is ChatReply reporting the given usage.
func ChatReplyUsage(content string, u Usage) Response {
	return Completion{Content: content, Usage: &u}.Response()
}

// ChatReplyNoUsage is ChatReply without a usage object (as some local servers answer).
func ChatReplyNoUsage(content string) Response {
	return Completion{Content: content, NoUsage: true}.Response()
}

// EmptyChoices is a 200 chat completion with "choices": [].
func EmptyChoices() Response {
	return jsonResponse(http.StatusOK, chatCompletion{ID: "chatcmpl-test", Object: "chat.completion", Model: DefaultModel, Choices: []chatChoice{},
		Usage: &Usage{PromptTokens: DefaultPromptTokens, TotalTokens: DefaultPromptTokens}})
}

// MalformedJSON is a 200 application/json response whose body is not valid JSON.
func MalformedJSON() Response {
	return Response{Status: http.StatusOK, Body: []byte(`{"id":"chatcmpl-test","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"hel`)}
}

// HTMLPage is a 200 text/html page, as an intercepting proxy answers.
func HTMLPage() Response {
	return Response{Status: http.StatusOK, ContentType: "text/html; charset=utf-8", Body: []byte("<html><body><h1>Gateway</h1></body></html>")}
}

// Error is an OpenAI-style error response {"error":{"message","type","param","code"}}.
func Error(status int, typ, message, param, code string) Response {
	eo := errorObject{Message: message, Type: typ}
	if param != "" {
		eo.Param = &param
	}
	if code != "" {
		eo.Code = &code
	}
	return jsonResponse(status, errorBody{Error: eo})
}

// BadRequest is a 400 invalid_request_error naming param.
func BadRequest(message, param string) Response {
	return Error(http.StatusBadRequest, "invalid_request_error", message, param, "")
}

// RejectJSONSchemaResponse is the 400 a server that does not support json_schema answers.
func RejectJSONSchemaResponse() Response {
	return Error(http.StatusBadRequest, "invalid_request_error",
		"Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", "response_format", "")
}

// RejectResponseFormatResponse is the 400 a server that supports no response_format answers.
func RejectResponseFormatResponse() Response {
	return Error(http.StatusBadRequest, "invalid_request_error",
		"Unrecognized request argument supplied: response_format (unsupported)", "response_format", "")
}

// ServerError is an OpenAI-style error with the given 5xx status.
func ServerError(status int) Response {
	return Error(status, "server_error", fmt.Sprintf("The server had an error processing your request (%d).", status), "", "")
}

// RateLimited is a 429 whose Retry-After header carries d rounded up to whole seconds and whose
// retry-after-ms header carries d in milliseconds (as OpenAI sends both). d <= 0 sends neither.
func RateLimited(d time.Duration) Response {
	r := Error(http.StatusTooManyRequests, "requests", "Rate limit reached for requests.", "", "rate_limit_exceeded")
	if d > 0 {
		r = r.WithHeader("Retry-After", strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10))
		r = r.WithHeader("retry-after-ms", strconv.FormatInt(d.Milliseconds(), 10))
	}
	return r
}

// EmbeddingsReply is a 200 embeddings list holding vectors at indexes 0..n-1, with usage
// DefaultEmbeddingTokensPerInput per vector.
func EmbeddingsReply(model string, vectors [][]float32) Response {
	if model == "" {
		model = DefaultModel
	}
	el := embeddingList{Object: "list", Model: model, Data: make([]embeddingItem, len(vectors))}
	for i, v := range vectors {
		el.Data[i] = embeddingItem{Object: "embedding", Index: i, Embedding: v}
	}
	n := len(vectors) * DefaultEmbeddingTokensPerInput
	el.Usage = &Usage{PromptTokens: n, TotalTokens: n}
	return jsonResponse(http.StatusOK, el)
}

// FakeEmbeddings is an EmbeddingsReply with FakeEmbedding(text, dim) for every input.
func FakeEmbeddings(model string, inputs []string, dim int) Response {
	vs := make([][]float32, len(inputs))
	for i, s := range inputs {
		vs[i] = FakeEmbedding(s, dim)
	}
	return EmbeddingsReply(model, vs)
}

// FakeEmbedding returns a deterministic unit vector of length dim derived from a SHA-256 stream of
// text: equal texts give equal vectors, different texts nearly orthogonal ones. dim <= 0 gives nil.
func FakeEmbedding(text string, dim int) []float32 {
	if dim <= 0 {
		return nil
	}
	x := make([]float64, dim)
	var sum float64
	var block [sha256.Size]byte
	for i := range dim {
		if i%8 == 0 {
			h := sha256.New()
			var ctr [8]byte
			binary.LittleEndian.PutUint64(ctr[:], uint64(i/8))
			h.Write(ctr[:])
			h.Write([]byte(text))
			h.Sum(block[:0])
		}
		u := binary.LittleEndian.Uint32(block[(i%8)*4:])
		x[i] = float64(u)/float64(math.MaxUint32)*2 - 1
		sum += x[i] * x[i]
	}
	if sum == 0 {
		x[0], sum = 1, 1
	}
	n := math.Sqrt(sum)
	v := make([]float32, dim)
	for i := range x {
		v[i] = float32(x[i] / n)
	}
	return v
}

func jsonResponse(status int, v any) Response {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("openaitest: encode response: %v", err))
	}
	return Response{Status: status, Body: b}
}
