package rules

import (
	"os"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/wordnet"
)

// A verb of mere association says no attribute; the kind of its object (WordNet's hypernyms) does: baseball is
// a sport, Buddhism a religion, jazz a genre. Objects of no such kind, of two kinds ("yoga": a discipline of a
// faith and an exercise), and verbs with a relation of their own keep the verb. The expectations are the
// attributes a reader of English gives these sentences.
func TestKindsNameTheAttribute(t *testing.T) {
	nouns := installedWordNet(t)
	e := New(WithWordNet(nouns))
	if e.Version() != Version+"+wordnet" {
		t.Errorf("version %q does not say WordNet is read", e.Version())
	}
	for _, c := range []struct{ content, subject, key, object string }{
		{"Velto FC is involved in cricket.", "velto_fc", "sport", "cricket"},
		{"Jon Dahl belongs to the world of baseball.", "jon_dahl", "sport", "baseball"},
		{"Ida Berg follows Hinduism.", "ida_berg", "religion", "Hinduism"},
		{"Siri Lund is associated with Islam.", "siri_lund", "religion", "Islam"},
		{"The Lanterns are known for jazz.", "lanterns", "genre", "jazz"},
		{"Ida Berg practices yoga.", "ida_berg", "practices", "yoga"},
		{"Jon Dahl follows Arsenal.", "jon_dahl", "follows", "Arsenal"},
		{"Ida Berg watches baseball.", "ida_berg", "watches", "baseball"},
	} {
		cs := e.ExtractTurn(event.TurnAcceptedV1{TurnID: "t", Role: "user", Speaker: "Kim", Content: c.content, OccurredAt: time.Now()})
		found := false
		for _, cl := range cs {
			if cl.SubjectKey == c.subject && canon.RelationKey(cl.PredicateKey) == c.key && cl.Object == c.object {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: no claim (%s, %s, %s) in %+v", c.content, c.subject, c.key, c.object, cs)
		}
	}
	off := New(WithWordNet(nil))
	if off.Version() != Version {
		t.Errorf("version without WordNet %q, want %q", off.Version(), Version)
	}
	for _, cl := range off.ExtractTurn(event.TurnAcceptedV1{TurnID: "t", Role: "user", Content: "Velto FC is involved in cricket.", OccurredAt: time.Now()}) {
		if cl.PredicateKey == "sport" {
			t.Errorf("without WordNet the verb said the sport: %+v", cl)
		}
	}
}

// installedWordNet returns the installed WordNet's nouns, skipping the test when WordNet is not installed
// (failing it instead when MNEME_REQUIRE_WORDNET=1, as CI sets).
func installedWordNet(t *testing.T) *wordnet.Nouns {
	t.Helper()
	nouns, err := wordnet.Default()
	if err != nil {
		if os.Getenv("MNEME_REQUIRE_WORDNET") == "1" {
			t.Fatalf("WordNet missing with MNEME_REQUIRE_WORDNET=1: %v", err)
		}
		t.Skipf("WordNet not installed: %v", err)
	}
	return nouns
}
