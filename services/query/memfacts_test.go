package query

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/store"
)

// memFacts is an in-memory facts for tests of the deterministic resolver: it holds current claims only.
type memFacts struct {
	bySubject map[string][]store.Belief
	aliases   map[string][]string
}

func newMemFacts() *memFacts {
	return &memFacts{bySubject: map[string][]store.Belief{}, aliases: map[string][]string{}}
}

// resolvedObject is the object of the last hop the deterministic resolver finds for question q over f, or "".
func resolvedObject(t *testing.T, f *memFacts, q string) string {
	t.Helper()
	r := &resolver{f: f, agent: "a", maxHops: 4, slots: map[string][]*store.Slot{}}
	c, _, err := r.resolve(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if c == nil || len(c.hops) == 0 {
		return ""
	}
	return c.hops[len(c.hops)-1].claim.Object
}

// checkResolved checks, for each question, the object resolvedObject finds over f ("" for no answer).
func checkResolved(t *testing.T, f *memFacts, want map[string]string) {
	t.Helper()
	for q, w := range want {
		if got := resolvedObject(t, f, q); got != w {
			t.Errorf("%q = %q, want %q", q, got, w)
		}
	}
}

// add records a shared, functional claim asserted by agent "a" at sequence seq.
func (m *memFacts) add(subject, predicate, object, text string, seq int64) {
	s := seq
	r := store.Belief{
		ID: fmt.Sprintf("c%04d", seq), Text: text, Subject: subject, SubjectKey: canon.SubjectKey(subject),
		// Keyed as the extractor keys a relation: structurally, then through its alias group.
		Predicate: predicate, PredicateKey: canon.RelationKey(canon.PredicateKey(predicate)), SlotKey: canon.RelationKey(canon.PredicateKey(predicate)),
		Object: object, ObjectKey: canon.ObjectKey(object), Functional: true, Scope: "shared", Owner: "a",
		Confidence: 1, Sequence: &s, Status: "active", ValidFrom: time.Unix(0, 0).UTC(), RecordedAt: time.Unix(0, 0).UTC(),
	}
	m.bySubject[r.SubjectKey] = append(m.bySubject[r.SubjectKey], r)
}

func (m *memFacts) known(_ context.Context, keys []string) (map[string][]string, error) {
	out := map[string][]string{}
	for _, k := range keys {
		if _, ok := m.bySubject[k]; ok {
			out[k] = append(out[k], k)
		}
		out[k] = append(out[k], m.aliases[k]...)
		if len(out[k]) == 0 {
			delete(out, k)
		}
	}
	return out, nil
}

func (m *memFacts) byObject(_ context.Context, keys []string) ([]store.Belief, error) {
	var out []store.Belief
	for _, rows := range m.bySubject {
		for _, r := range rows {
			if contains(keys, r.ObjectKey) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

func (m *memFacts) about(_ context.Context, keys []string) ([]store.Belief, error) {
	var out []store.Belief
	for _, k := range keys {
		out = append(out, m.bySubject[k]...)
	}
	return out, nil
}

func (m *memFacts) ownEndings(ctx context.Context, keys []string) ([]store.Belief, error) {
	rows, err := m.about(ctx, keys)
	return ownEndingsAmong(rows), err
}

func (m *memFacts) moves(_ context.Context, since map[string]time.Time, keys, heads []string) ([]store.Belief, error) {
	var out []store.Belief
	for k, t := range since {
		for _, r := range m.bySubject[k] {
			head, _, _ := strings.Cut(r.PredicateKey, "_")
			if !r.ValidFrom.Before(t) && (r.Functional && contains(keys, r.PredicateKey) || contains(heads, head)) {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// embedPredicates sets PredVec of every claim to the embedding of its predicate phrase.
func (m *memFacts) embedPredicates(e embedding.Embedder) error {
	cache := map[string][]float32{}
	for k, rows := range m.bySubject {
		for i := range rows {
			p := rows[i].Predicate
			if _, ok := cache[p]; !ok {
				v, err := e.Embed(context.Background(), []string{p})
				if err != nil {
					return err
				}
				cache[p] = v[0]
			}
			rows[i].PredVec = cache[p]
		}
		m.bySubject[k] = rows
	}
	return nil
}

// countingFacts counts the lookups of known subjects a resolution makes.
type countingFacts struct {
	*memFacts
	knownCalls int
}

func (c *countingFacts) known(ctx context.Context, keys []string) (map[string][]string, error) {
	c.knownCalls++
	return c.memFacts.known(ctx, keys)
}

// A question's readings are extended a depth at a time, and the subjects their new values name are looked up
// for the whole depth at once, so a question makes as many round trips for them with four readings as with two
// (it had been one a reading: 14 a question on BEAM's chat 14).
func TestAQuestionLooksUpItsValuesSubjectsOnceADepth(t *testing.T) {
	m := newMemFacts()
	homes := map[string]string{"Emma": "Paris", "Anna": "Rome", "Tom": "Oslo", "Lea": "Bern"}
	n := int64(0)
	for who, home := range homes {
		n++
		m.add(who, "lives in", home, who+" lives in "+home+".", n)
	}
	m.add("Paris", "country", "France", "Paris is in France.", 9)
	f := &countingFacts{memFacts: m}
	lookups := map[int]int{}
	for people, q := range map[int]string{2: "Where do Emma and Anna live?", 4: "Where do Emma, Anna, Tom and Lea live?"} {
		f.knownCalls = 0
		r := &resolver{f: f, agent: "a", maxHops: 4, slots: map[string][]*store.Slot{}}
		c, _, err := r.resolve(context.Background(), q)
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || !slices.Contains(slices.Collect(maps.Values(homes)), c.hops[len(c.hops)-1].claim.Object) {
			t.Fatalf("%q: resolved %+v; want one of their homes", q, c)
		}
		lookups[people] = f.knownCalls
	}
	if lookups[4] != lookups[2] {
		t.Errorf("lookups of known subjects: %d for two people, %d for four; want as many (one a depth)", lookups[2], lookups[4])
	}
}
