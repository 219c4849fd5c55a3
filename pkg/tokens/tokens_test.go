package tokens

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCount(t *testing.T) {
	c, err := New("")
	if err != nil {
		t.Fatal(err)
	}
	if c.Name() != Cl100kBase {
		t.Fatalf("default encoding %q, want %q", c.Name(), Cl100kBase)
	}
	// Reference counts from the Python tiktoken package.
	tests := []struct {
		enc, text string
		want      int
	}{
		{Cl100kBase, "", 0},
		{Cl100kBase, "hello world", 2},
		{Cl100kBase, "I moved to Berlin last week.", 7},
		{O200kBase, "hello world", 2},
	}
	for _, tt := range tests {
		c, err := New(tt.enc)
		if err != nil {
			t.Fatal(err)
		}
		if got := c.Count(tt.text); got != tt.want {
			t.Errorf("%s Count(%q) = %d, want %d", tt.enc, tt.text, got, tt.want)
		}
	}
	if Count("hello world") != 2 {
		t.Error("package Count disagrees with cl100k_base")
	}
}

func TestNewCachesAndModels(t *testing.T) {
	a, _ := New(Cl100kBase)
	b, _ := New(Cl100kBase)
	if a != b {
		t.Error("New does not cache the codec")
	}
	m, err := New("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	if m.Name() != O200kBase {
		t.Errorf("gpt-4o uses %q, want %q", m.Name(), O200kBase)
	}
	if _, err := New("no-such-encoding"); err == nil || !strings.Contains(err.Error(), Cl100kBase) {
		t.Errorf("unknown encoding error %v should name the supported ones", err)
	}
}

func TestTruncate(t *testing.T) {
	c := Default()
	text := "The quick brown fox jumps over the lazy dog."
	n := c.Count(text)
	if got := c.Truncate(text, n); got != text {
		t.Errorf("Truncate at the count changed the text: %q", got)
	}
	if got := c.Truncate(text, 0); got != "" {
		t.Errorf("Truncate(0) = %q", got)
	}
	for max := 1; max < n; max++ {
		got := c.Truncate(text, max)
		if !strings.HasPrefix(text, got) || c.Count(got) > max {
			t.Errorf("Truncate(%d) = %q (%d tokens)", max, got, c.Count(got))
		}
	}
	// Multi-byte characters split across tokens must not leave a broken rune.
	emoji := strings.Repeat("日本語の文章🙂", 10)
	for max := 1; max < c.Count(emoji); max++ {
		got := c.Truncate(emoji, max)
		if !utf8.ValidString(got) || !strings.HasPrefix(emoji, got) || c.Count(got) > max {
			t.Fatalf("Truncate(%d) = %q", max, got)
		}
	}
}

func TestInvalidUTF8(t *testing.T) {
	c := Default()
	if c.Count("a\xffb") == 0 {
		t.Error("invalid UTF-8 counted as zero tokens")
	}
	if got := c.Truncate("a\xffb c d e f", 2); !utf8.ValidString(got) {
		t.Errorf("Truncate of invalid UTF-8 returned invalid UTF-8 %q", got)
	}
}

func BenchmarkCount(b *testing.B) {
	c := Default()
	text := "I moved to Berlin last week and started a new job at a small robotics company."
	for b.Loop() {
		c.Count(text)
	}
}
