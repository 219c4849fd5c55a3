package query

import (
	"strings"
	"testing"
)

func TestNgramKeysBounded(t *testing.T) {
	keys, spans := ngramKeys(strings.Repeat("Alice Smith lives in Berlin ", 1000))
	if len(keys) > maxMentionScan*maxMentionFields*3 || len(spans) != len(keys) {
		t.Fatalf("%d keys", len(keys))
	}
	keys, _ = ngramKeys(`Who is "The Beatles"'s director, the Kingdom of Ireland's?`)
	for _, want := range []string{"beatles", "kingdom_of_ireland", "kingdom of ireland's"} {
		if !strings.Contains(" "+strings.Join(keys, " | ")+" ", want) {
			t.Errorf("missing %q in %v", want, keys)
		}
	}
}

func TestLexicalTermsAreWordsOnly(t *testing.T) {
	got := lexicalTerms(`alice & !bob | "carol" <-> dave:* (or) and -erin`)
	want := "alice bob carol dave erin"
	if strings.Join(got, " ") != want {
		t.Fatalf("lexicalTerms = %q, want %q", got, want)
	}
}
