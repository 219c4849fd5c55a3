package uselite

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTokenizerQuirks(t *testing.T) {
	// A tiny vocabulary exercising the reference's rules without the model files.
	vocab := []vocabEntry{
		{"\uFFFD", 0}, {"<s>", 0}, {"</s>", 0}, {"e1", 0}, {"e2", 0}, {"e3", 0},
		{"▁", -2}, {"a", -1}, {"b", -1}, {"▁ab", -1.5}, {"ab", -3}, {"x:", 0}, {"b", -0.5},
	}
	tok := newTokenizer(vocab)
	tests := []struct {
		text string
		want []int
	}{
		{"", []int{}},
		{"ab", []int{9}},            // ▁ab beats ▁ + ab and ▁ + a + b
		{"a b", []int{6, 7, 6, 12}}, // the later duplicate "b" (id 12) wins
		{"zz", []int{6, 0}},         // unknown characters collapse into one unknown id
		{"ｂ", []int{6, 12}},         // NFKC folds full-width b
		{"a\u00a0b", []int{6, 7, 6, 12}},
		{"<s>", []int{6, 0}}, // reserved pieces never match
		{"x", []int{6, 0}},   // "x:" starts here, so no unknown fallback: the position is unreachable
	}
	for _, tc := range tests {
		if got := tok.Encode(tc.text); !equalInts(got, tc.want) {
			t.Errorf("Encode(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{"", " ", "hello world", "10:30", "東京", "🎉", "\xff\xfe", "a\u0301", "x:"} {
		f.Add(s)
	}
	vocab := []vocabEntry{
		{"\uFFFD", 0}, {"<s>", 0}, {"</s>", 0}, {"e1", 0}, {"e2", 0}, {"e3", 0},
		{"▁", -2}, {"a", -1}, {"b", -1}, {"▁ab", -1.5}, {"ab", -3}, {"x:", 0}, {":30", 30}, {"é", -4}, {"🎉", -5},
	}
	tok := newTokenizer(vocab)
	f.Fuzz(func(t *testing.T, text string) {
		ids := tok.Encode(text)
		runes := utf8.RuneCountInString(text)
		if runes > 0 && len(ids) == 0 && len(preprocess(text)) > 0 {
			t.Fatalf("Encode(%q) returned no ids", text)
		}
		if len(ids) > len(preprocess(text)) {
			t.Fatalf("Encode(%q) returned %d ids for %d symbols", text, len(ids), len(preprocess(text)))
		}
		for _, id := range ids {
			if id < 0 || id >= len(vocab) {
				t.Fatalf("Encode(%q) returned id %d outside the vocabulary", text, id)
			}
		}
	})
}

func FuzzParseVocabulary(f *testing.F) {
	f.Add([]byte(`[["\uFFFD",0],["<s>",0],["</s>",0],["a",0],["b",0],["c",0],["▁x",-1],[":",null],["",-2]]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`[["a"]]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		vocab, err := parseVocabulary(data)
		if err != nil {
			return
		}
		tok := newTokenizer(vocab)
		for _, id := range tok.Encode("x a b: ▁x ab") {
			if id < 0 || id >= len(vocab) {
				t.Fatalf("id %d outside the vocabulary of %d", id, len(vocab))
			}
		}
	})
}

func TestClipText(t *testing.T) {
	short := "hello world"
	if clipText(short) != short {
		t.Fatal("short text changed")
	}
	long := strings.Repeat("word ", maxTextBytes/5+100)
	got := clipText(long)
	if len(got) > maxTextBytes || !strings.HasPrefix(long, got) || strings.HasSuffix(got, " ") {
		t.Fatalf("clipText(long words): %d bytes, suffix %q", len(got), got[len(got)-10:])
	}
	cjk := strings.Repeat("東", maxTextBytes) // no spaces, 3-byte runes
	got = clipText(cjk)
	if len(got) > maxTextBytes || !utf8.ValidString(got) || !strings.HasPrefix(cjk, got) {
		t.Fatalf("clipText(cjk): %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}
