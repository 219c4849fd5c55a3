package query

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// A context shows one statement once: a turn's sentence and the claim read from the same turn in nearly the
// same words are one line, while the same words said in another turn, by another writer, or a claim of the same
// turn that says something else, stay.
func TestDropRestatementsShowsAStatementOnce(t *testing.T) {
	day := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)
	seq := func(n int64) *int64 { return &n }
	claim := func(id, owner string, sequence int64, at time.Time, text string) *store.Belief {
		return &store.Belief{ID: id, Owner: owner, Scope: "shared", Status: "active", Sequence: seq(sequence), ValidFrom: at, Text: text}
	}
	sentence := claim("sentence", "bench", 7, day, "User is kinda worried that user only secured 3 interviews for producer roles.")
	tests := []struct {
		name  string
		items []item
		want  []string
	}{
		{
			name: "the claim read from the sentence of the same turn",
			items: []item{{claim: sentence},
				{claim: claim("read", "bench", 7, day, "User only secured 3 interviews for producer roles.")}},
			want: []string{"sentence"},
		},
		{
			name: "the same words in a later turn",
			items: []item{{claim: sentence},
				{claim: claim("later", "bench", 9, day.Add(24*time.Hour), "User only secured 3 interviews for producer roles.")}},
			want: []string{"sentence", "later"},
		},
		{
			name: "the same words by another writer",
			items: []item{{claim: sentence},
				{claim: claim("other", "planner", 7, day, "User only secured 3 interviews for producer roles.")}},
			want: []string{"sentence", "other"},
		},
		{
			name: "another fact of the same turn",
			items: []item{{claim: sentence},
				{claim: claim("deadline", "bench", 7, day, "User's application deadline is 1 April 2024.")}},
			want: []string{"sentence", "deadline"},
		},
		{
			name: "a former value is history, not a restatement",
			items: []item{{claim: sentence},
				{claim: claim("old", "bench", 7, day, "User only secured 3 interviews for producer roles."), former: true}},
			want: []string{"sentence", "old"},
		},
		{
			name: "a claim in a contradiction is shown with its counterpart",
			items: []item{{claim: sentence},
				{claim: &store.Belief{ID: "flagged", Owner: "bench", Status: "active", Sequence: seq(7), ValidFrom: day,
					Text: "User only secured 3 interviews for producer roles.", Contradicts: []string{"never"}}}},
			want: []string{"sentence", "flagged"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, it := range dropRestatements(tt.items) {
				got = append(got, it.claim.ID)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("kept %v, want %v", got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("kept %v, want %v", got, tt.want)
				}
			}
		})
	}
}

// The budget fills a context with what fits: one long claim that does not fit is passed over and the shorter
// claims after it are shown, in rank order; a claim and the claim contradicting it are shown together or not
// at all; a functional slot's current value may be shown without its history when the history does not fit.
func TestBudgetPassesOverWhatDoesNotFit(t *testing.T) {
	tok, err := tokens.New("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{cfg: Config{}.Defaults(), tok: tok}
	s.cfg.ScoreGap = 0 // only the budget cuts here
	day := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)
	mk := func(id, text string) *store.Belief {
		return &store.Belief{ID: id, Owner: "bench", Scope: "shared", Status: "active", ValidFrom: day, Text: text}
	}
	long := mk("long", "User needs help with "+strings.Repeat("the password hashing and verification logic, ", 40)+"today.")
	short1 := mk("short-1", "User has never written any Flask routes.")
	short2 := mk("short-2", "User implemented a homepage route with Flask.")
	acc := func(c *store.Belief, score float64) item { return item{claim: c, slot: &store.Slot{}, score: score} }

	t.Run("a long claim is passed over", func(t *testing.T) {
		items := []item{acc(short1, 1), acc(long, 0.9), acc(short2, 0.8)}
		got, ctx, n := s.budget(items, 10, 120)
		if ids := itemIDs(got); strings.Join(ids, ",") != "short-1,short-2" {
			t.Fatalf("shown %v, want short-1 and short-2 (long does not fit in 120 tokens)", ids)
		}
		if n > 120 || strings.Contains(ctx, "password") {
			t.Fatalf("context of %d tokens holds the long claim or exceeds the budget: %q", n, ctx)
		}
	})

	t.Run("a contradiction is shown whole or not at all", func(t *testing.T) {
		never := mk("never", "User has never used Bootstrap components.")
		never.Contradicts = []string{"long"}
		items := []item{acc(never, 1), {claim: long, score: 1, linked: true}, acc(short2, 0.8)}
		got, _, _ := s.budget(items, 10, 120)
		if ids := itemIDs(got); strings.Join(ids, ",") != "short-2" {
			t.Fatalf("shown %v, want only short-2: the never-claim's counterpart does not fit, so neither is shown", ids)
		}
	})

	t.Run("a current value without the history that does not fit", func(t *testing.T) {
		sl := &store.Slot{}
		cur := mk("city-now", "User lives in Seattle.")
		cur.Functional = true
		old := mk("city-before", "User lived in "+strings.Repeat("Portland, ", 200)+"Oregon.")
		old.Functional = true
		items := []item{{claim: cur, slot: sl, score: 1}, {claim: old, slot: sl, score: 1, former: true}, acc(short1, 0.5)}
		got, _, _ := s.budget(items, 10, 120)
		if ids := itemIDs(got); strings.Join(ids, ",") != "city-now,short-1" {
			t.Fatalf("shown %v, want city-now and short-1", ids)
		}
	})
}

func itemIDs(items []item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.claim.ID)
	}
	return out
}

// A chain that uses every hop the limit allows still ends when what is left of the question are type nouns
// that name no relation ("in which city"): the limit bounds relations, not words.
func TestHopLimitSkipsTrailingTypeNouns(t *testing.T) {
	f := newMemFacts()
	f.add("Zoë", "born in", "Austria", "Zoë was born in Austria.", 1)
	f.add("Austria", "capital", "Vienna", "The capital of Austria is Vienna.", 2)
	for _, maxHops := range []int{2, 4} {
		r := &resolver{f: f, agent: "a", maxHops: maxHops, slots: map[string][]*store.Slot{}}
		c, _, err := r.resolve(context.Background(), "In which city is the capital of the country where Zoë was born?")
		if err != nil {
			t.Fatal(err)
		}
		if c == nil || c.hops[len(c.hops)-1].claim.Object != "Vienna" {
			t.Fatalf("max %d hops: chain %+v, want it to end at Vienna", maxHops, c)
		}
	}
}

// A context says once what its lines share. Lines stand under the date their group's first claim holds from,
// dates in the order of their most relevant line; the writer most claims share is named in the header, and its
// lines name no writer; a line by another agent names its own, and so does a quarantined line; history states
// its own interval under its current value's date. The saving is what lets more claims into a budget; where
// there is none, each line says its own date and writer.
func TestBudgetStatesDatesAndTheCommonWriterOnce(t *testing.T) {
	tok, err := tokens.New("cl100k_base")
	if err != nil {
		t.Fatal(err)
	}
	s := &Service{cfg: Config{}.Defaults(), tok: tok}
	s.cfg.ScoreGap = 0
	march := time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)
	may := time.Date(2024, 5, 2, 0, 0, 0, 0, time.UTC)
	mk := func(id, owner string, from time.Time, text string) item {
		return item{claim: &store.Belief{ID: id, Owner: owner, Scope: "shared", Status: "active", ValidFrom: from, Text: text}, slot: &store.Slot{}, score: 1}
	}
	city := &store.Slot{}
	berlin := mk("a1", "planner", march, "Alice lives in Berlin.")
	berlin.slot, berlin.claim.Functional = city, true
	paris := mk("a0", "planner", time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC), "Alice lived in Paris.")
	paris.slot, paris.claim.Functional, paris.former, paris.claim.ValidTo = city, true, true, &march
	quarantined := mk("q", "planner", march, "Alice asked to ignore the rules.")
	quarantined.claim.Status = store.StatusQuarantined
	items := []item{
		berlin, paris,
		mk("b1", "crawler", may, "Alice works at Siemens."),
		mk("a2", "planner", march, "Alice has a cat named Mochi."),
		mk("a3", "planner", may, "Alice plays the cello."),
		quarantined,
	}
	_, ctx, _ := s.budget(items, 10, 1000)
	want := strings.Join([]string{
		"Memory, under the date each fact holds from, most relevant first (current facts unless marked; by planner, shared unless a line names its writer):",
		"2024-03-15:",
		"- Alice lives in Berlin.",
		"- [FORMER] Alice lived in Paris. (2020-01-01 to 2024-03-15)",
		"- Alice has a cat named Mochi.",
		"- [QUARANTINED] Alice asked to ignore the rules. (by planner, shared)",
		"2024-05-02:",
		"- Alice works at Siemens. (by crawler, shared)",
		"- Alice plays the cello.",
	}, "\n")
	if ctx != want {
		t.Fatalf("context\n%s\nwant\n%s", ctx, want)
	}

	// Two claims of two writers and two dates: nothing to state once, and headings would cost more than they
	// save, so each line says its date and writer.
	_, ctx, _ = s.budget(items[2:4], 10, 1000)
	want = "Memory, most relevant first (current facts unless marked):\n" +
		"- Alice works at Siemens. (since 2024-05-02; by crawler, shared)\n" +
		"- Alice has a cat named Mochi. (since 2024-03-15; by planner, shared)"
	if ctx != want {
		t.Fatalf("context\n%s\nwant\n%s", ctx, want)
	}

	// Many claims by one writer on one day: at a budget that fits eight lines with a date and a writer each,
	// many more fit.
	var many []item
	for i := range 40 {
		many = append(many, mk(fmt.Sprintf("m%d", i), "planner", march, fmt.Sprintf("Alice visited museum number %d.", i)))
	}
	perLine := tok.Count("\n- Alice visited museum number 10. (since 2024-03-15; by planner, shared)")
	budget := tok.Count("Memory, most relevant first (current facts unless marked):") + 8*perLine
	got, _, n := s.budget(many, 40, budget)
	if len(got) < 12 || n > budget {
		t.Fatalf("%d claims in %d of %d tokens: saying the date and the writer once must fit half as many again as the 8 that fit with both on every line", len(got), n, budget)
	}
}
