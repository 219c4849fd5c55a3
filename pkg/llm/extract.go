package llm

import (
	"fmt"
)

// ErrNoJSON is returned by ExtractJSON when content holds no JSON value. It wraps
// ErrMalformedResponse.
var ErrNoJSON = fmt.Errorf("%w: no JSON value in content", ErrMalformedResponse)

// ExtractJSON returns the JSON value held in an LLM's message content, tolerating what models wrap
// around it: surrounding whitespace, a byte-order mark, <think>…</think> reasoning blocks, Markdown
// code fences (```json … ```), leading prose and trailing text. Objects are preferred over arrays
// when both occur ("I found [2] facts: {...}"). The result is the value's bytes as written (valid
// JSON, not re-encoded).
func ExtractJSON(content string) ([]byte, error) {
	return nil, ErrNoJSON
}
