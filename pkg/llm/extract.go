package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ErrNoJSON is returned by ExtractJSON when content holds no JSON value. It wraps
// ErrMalformedResponse.
var ErrNoJSON = fmt.Errorf("%w: no JSON value in content", ErrMalformedResponse)

// maxExtractStarts bounds how many candidate start positions ExtractJSON tries, so adversarial
// content full of braces costs linear rather than quadratic time in practice.
const maxExtractStarts = 64

// ExtractJSON returns the JSON value held in an LLM's message content, tolerating what models wrap
// around it: surrounding whitespace, a byte-order mark, <think>…</think> reasoning blocks, Markdown
// code fences (```json … ```), leading prose and trailing text. Objects are preferred over arrays
// when both occur ("I found [2] facts: {...}"). The result is the value's bytes as written (valid
// JSON, not re-encoded).
func ExtractJSON(content string) ([]byte, error) {
	s := strings.TrimPrefix(content, "\ufeff")
	s = stripThink(s)
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, ErrNoJSON
	}
	// Fenced blocks first: models that fence put the answer there, and prose around them may
	// contain braces. A text that starts with a value is that value, whatever follows it.
	texts := append(fencedBlocks(s), s)
	for _, t := range texts {
		t = strings.TrimSpace(t)
		if t != "" && (t[0] == '{' || t[0] == '[') {
			if v, ok := decodeOne(t); ok {
				return v, nil
			}
		}
	}
	for _, t := range texts {
		if v, ok := firstValue(t); ok {
			return v, nil
		}
	}
	return nil, ErrNoJSON
}

// stripThink removes <think>…</think> blocks (reasoning models such as DeepSeek-R1 and Qwen3 emit
// them before the answer). An unclosed block swallows the rest, which then holds no answer.
func stripThink(s string) string {
	for {
		i := strings.Index(s, "<think>")
		if i < 0 {
			return s
		}
		j := strings.Index(s[i:], "</think>")
		if j < 0 {
			return s[:i]
		}
		s = s[:i] + s[i+j+len("</think>"):]
	}
}

// fencedBlocks returns the bodies of ``` fenced blocks in order; the info string (e.g. "json")
// is dropped. An unclosed fence yields the rest of the text.
func fencedBlocks(s string) []string {
	var out []string
	for {
		i := strings.Index(s, "```")
		if i < 0 {
			return out
		}
		s = s[i+3:]
		// Skip the info string up to the end of the line.
		if nl := strings.IndexByte(s, '\n'); nl >= 0 && !strings.ContainsAny(s[:nl], "{[") {
			s = s[nl+1:]
		} else {
			s = strings.TrimLeft(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
		}
		j := strings.Index(s, "```")
		if j < 0 {
			return append(out, s)
		}
		out = append(out, s[:j])
		s = s[j+3:]
	}
}

// firstValue finds the first complete JSON object in s, else the first complete array.
func firstValue(s string) ([]byte, bool) {
	for _, open := range []byte{'{', '['} {
		rest := s
		off := 0
		for tries := 0; tries < maxExtractStarts; tries++ {
			i := strings.IndexByte(rest, open)
			if i < 0 {
				break
			}
			if v, ok := decodeOne(s[off+i:]); ok {
				return v, true
			}
			off += i + 1
			rest = s[off:]
		}
	}
	return nil, false
}

// decodeOne decodes the single JSON value at the start of s, ignoring whatever follows it.
func decodeOne(s string) ([]byte, bool) {
	dec := json.NewDecoder(strings.NewReader(s))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, false
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || (raw[0] != '{' && raw[0] != '[') {
		return nil, false
	}
	return raw, true
}
