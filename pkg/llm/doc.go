// Package llm is Mneme's client for the OpenAI-compatible chat completions and embeddings APIs.
//
// The same client talks to OpenAI, Azure OpenAI, Ollama, vLLM, llama.cpp server and LM Studio: all
// of them accept POST {BaseURL}/chat/completions and POST {BaseURL}/embeddings with the OpenAI wire
// format. A Client is bound to one model (Config.Model); build one Client per model.
//
// What the client adds on top of the wire protocol:
//
//   - Structured output: ChatRequest.Schema asks for response_format json_schema; when the server
//     rejects it the client falls back to json_object, then to plain prompting with the schema in a
//     system message, and remembers the level that worked. ExtractJSON recovers the JSON value from
//     content wrapped in code fences, prose or reasoning blocks.
//   - Bounded retries (github.com/cenkalti/backoff/v4): 429, 5xx, per-attempt timeouts and
//     connection errors are retried with exponential backoff that honours Retry-After, bounded by
//     Config.MaxRetries and Config.MaxElapsed. Other 4xx are permanent. Malformed bodies are retried
//     at most Config.MalformedAttempts times. A cancelled caller context is never retried.
//   - Errors classified by sentinel values (errors.go) usable with errors.Is.
//   - Token accounting: every call returns a Usage, and an Accountant accumulates usage per stage
//     ("extract", "judge", "reader", ...) across goroutines, optionally exporting OpenTelemetry
//     counters.
//
// Typical use:
//
//	acc := llm.NewAccountant()
//	c, err := llm.New(llm.Config{BaseURL: "http://localhost:11434/v1", Model: "qwen2.5:7b", Accountant: acc})
//	...
//	var out struct{ Claims []Claim `json:"claims"` }
//	resp, err := c.ChatJSON(ctx, llm.ChatRequest{
//		Stage:    "extract",
//		Messages: []llm.Message{llm.System(prompt), llm.User(window)},
//		Schema:   &llm.JSONSchema{Name: "claims", Schema: schemaJSON, Strict: true},
//	}, &out)
//	// resp.Usage: this call; acc.Snapshot()["extract"]: all calls of the stage.
//
// Tests use package openaitest, a local server speaking the same protocol with scripted answers
// and failure injection.
package llm
