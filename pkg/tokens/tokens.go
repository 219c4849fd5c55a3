// Package tokens counts and truncates text in the tokens of OpenAI's BPE encodings (cl100k_base by default,
// o200k_base for newer models), offline, with counts identical to the reference tokenizer. Token budgets
// everywhere in Mneme (extraction windows, assembled context) are measured with it.
package tokens

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding names.
const (
	Cl100kBase = "cl100k_base"
	O200kBase  = "o200k_base"
	// DefaultEncoding is used when New is given an empty name.
	DefaultEncoding = Cl100kBase
)

// Counter counts tokens of one encoding. It is safe for concurrent use; all Counters of one encoding share a
// codec, which is built once per process (building one costs tens of milliseconds and megabytes).
type Counter struct {
	name  string
	codec tokenizer.Codec
}

var (
	mu    sync.Mutex
	cache = map[string]*Counter{}
)

// New returns the Counter of an encoding ("cl100k_base", "o200k_base"; "" means DefaultEncoding) or of the
// encoding an OpenAI model name uses ("gpt-4o" → o200k_base). Unknown names are an error that lists the
// supported encodings.
func New(name string) (*Counter, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		name = DefaultEncoding
	}
	mu.Lock()
	defer mu.Unlock()
	if c, ok := cache[name]; ok {
		return c, nil
	}
	codec, err := tokenizer.Get(tokenizer.Encoding(name))
	if err != nil {
		codec, err = tokenizer.ForModel(tokenizer.Model(name))
	}
	if err != nil {
		return nil, fmt.Errorf("tokens: unknown encoding or model %q: use %s or %s (or an OpenAI model name)", name, Cl100kBase, O200kBase)
	}
	// Invalid UTF-8 is counted as U+FFFD rather than failing: outside text is validated elsewhere, and a
	// count must always be available.
	codec.SetErrorMode(tokenizer.ErrorModeReplace)
	if c, ok := cache[codec.GetName()]; ok {
		cache[name] = c
		return c, nil
	}
	c := &Counter{name: codec.GetName(), codec: codec}
	cache[name] = c
	cache[c.name] = c
	return c, nil
}

// Default returns the Counter of DefaultEncoding.
func Default() *Counter {
	c, err := New(DefaultEncoding)
	if err != nil {
		// The default encoding is compiled into the binary; failing to build it is a programming error.
		panic(err)
	}
	return c
}

// Name is the encoding name (e.g. "cl100k_base").
func (c *Counter) Name() string { return c.name }

// Count returns the number of tokens of text.
func (c *Counter) Count(text string) int {
	n, err := c.codec.Count(text)
	if err != nil {
		// Only possible in strict mode, which New never sets; estimate rather than report zero.
		return (len(text) + 3) / 4
	}
	return n
}

// Truncate returns the longest prefix of text that has at most max tokens, cut at a token boundary (and a
// rune boundary). Text within the budget is returned unchanged; max <= 0 gives "".
func (c *Counter) Truncate(text string, max int) string {
	if max <= 0 {
		return ""
	}
	if !utf8.ValidString(text) {
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	_, pieces, err := c.codec.Encode(text)
	if err != nil || len(pieces) <= max {
		return text
	}
	cut := 0
	for _, p := range pieces[:max] {
		cut += len(p)
	}
	cut = min(cut, len(text))
	// A byte-level token may end inside a multi-byte character: back off to the character's start.
	for cut > 0 && !utf8.ValidString(text[:cut]) {
		cut--
	}
	return text[:cut]
}

// Count counts text with the default encoding.
func Count(text string) int { return Default().Count(text) }
