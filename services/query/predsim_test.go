package query

import (
	"context"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/store"
)

// A relation no lexicon entry names is still found by the meaning of its predicate phrase (local model).
func TestPredicateSimilarityFallback(t *testing.T) {
	m, err := uselite.Load(embedding.DefaultModelDir())
	if err != nil {
		t.Skipf("local model not available: %v", err)
	}
	f := newMemFacts()
	f.add("Alice", "favourite beverage", "green tea", "Alice's favourite beverage is green tea.", 1)
	f.add("Alice", "shoe size", "38", "Alice's shoe size is 38.", 2)
	f.add("Alice", "lives in", "Lyon", "Alice lives in Lyon.", 3)
	if err := f.embedPredicates(m); err != nil {
		t.Fatal(err)
	}
	embed := func(ctx context.Context, s string) ([]float32, error) {
		v, err := m.Embed(ctx, []string{s})
		if err != nil {
			return nil, err
		}
		return v[0], nil
	}
	for q, want := range map[string]string{
		"Which drink does Alice like best?":     "green tea",
		"How big are Alice's feet in footwear?": "38",
	} {
		r := &resolver{f: f, agent: "a", maxHops: 4, slots: map[string][]*store.Slot{}, embed: embed}
		c, _, err := r.resolve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if c != nil {
			got = c.hops[len(c.hops)-1].claim.Object
		}
		t.Logf("%q → %q", q, got)
		if got != want {
			t.Errorf("%q = %q, want %q", q, got, want)
		}
	}
}

// The phrase compared by meaning with a subject's predicates: the relation as said with the question's type
// noun, except that after a light verb the type noun alone is the relation ("What pets does Tobias have?"
// asks for his pets, "Which activity does Mia do?" for her activity).
func TestUnitPhrase(t *testing.T) {
	for _, c := range []struct {
		q, entity, want string
	}{
		{"What pets does Tobias have?", "Tobias", "pet"},
		{"Which activity does Mia do?", "Mia", "activity"},
		{"Which drink does Alice like?", "Alice", "like drink"},
		{"Where does Zoë work?", "Zoë", "work"},
	} {
		m := mentionOf(t, c.q, c.entity)
		qp := readQuestion(analyzeQuestion(c.q), &m)
		if len(qp.units) != 1 {
			t.Errorf("%q: %d relations, want 1", c.q, len(qp.units))
			continue
		}
		if got := unitPhrase(&qp.units[0]); got != c.want {
			t.Errorf("%q: phrase %q, want %q", c.q, got, c.want)
		}
	}
}
