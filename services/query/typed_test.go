package query

import (
	"context"
	"os"
	"testing"

	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/pkg/wordnet"
)

// A question whose relation no claim of its entity matches is answered by the kind its type noun names: of
// Tomás's values, cricket is the one WordNet knows as a sport, whatever verb stated it; a type of which no value
// is an instance, and the same question without WordNet, get no answer. The expectations are a reader's.
func TestTypeNounAnswersWhatNoRelationMatches(t *testing.T) {
	nouns, err := wordnet.Default()
	if err != nil {
		if os.Getenv("MNEME_REQUIRE_WORDNET") == "1" {
			t.Fatalf("WordNet missing with MNEME_REQUIRE_WORDNET=1: %v", err)
		}
		t.Skipf("WordNet not installed: %v", err)
	}
	f := newMemFacts()
	f.add("Tomás", "trains for", "the Valencia half marathon", "Tomás trains for the Valencia half marathon.", 1)
	f.add("Tomás", "got hooked on", "cricket", "Tomás got hooked on cricket.", 2)
	f.add("Tomás", "lives in", "Valencia", "Tomás lives in Valencia.", 3)
	f.add("Tomás", "adopted", "a beagle", "Tomás adopted a beagle.", 4)
	answer := func(n *wordnet.Nouns, q string) string {
		r := &resolver{f: f, agent: "a", maxHops: 4, slots: map[string][]*store.Slot{}, nouns: n}
		c, _, err := r.resolve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || len(c.hops) == 0 {
			return ""
		}
		return c.hops[len(c.hops)-1].claim.Object
	}
	for q, want := range map[string]string{
		"What sport does Tomás do these days?": "cricket",
		"Which city does Tomás live in?":       "Valencia",
		"What religion does Tomás practise?":   "",
		"What dog does Tomás have?":            "a beagle",
	} {
		if got := answer(nouns, q); got != want {
			t.Errorf("%q = %q, want %q", q, got, want)
		}
	}
	if got := answer(nil, "What sport does Tomás do these days?"); got != "" {
		t.Errorf("without WordNet the sport question was answered %q", got)
	}
}
