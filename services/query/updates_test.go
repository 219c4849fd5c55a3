package query

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
)

// A later claim restates an earlier one with a new value when both state a number and the later one states a
// number the earlier does not; the same value said again, or a sentence without a number, is no update.
func TestRestatesWithNewValue(t *testing.T) {
	tests := []struct {
		older, newer string
		want         bool
	}{
		{"User has written 4,500 words of the essay.", "User's final draft reached 4,700 words.", true},
		{"User's deadline is 20 April 2024.", "User's deadline moved to 25 April 2024.", true},
		{"User secured 3 interviews.", "User secured 5 interviews.", true},
		{"User has written 4,500 words of the essay.", "User's essay has 4500 words.", false}, // same number, other separator
		{"User's accuracy is 87% on the quiz.", "User's accuracy reached 91% after 12 problems.", true},
		{"User secured 3 interviews.", "User is nervous about the panel interview on 20 July.", false}, // a number of something else
		{"User secured 1 interview.", "User secured 4 interviews.", true},
		{"User secured 3 interviews.", "User secured several interviews.", false},
		{"User likes the essay.", "User's essay has 4,700 words.", false},
	}
	for _, tt := range tests {
		if got := restatesWithNewValue(tt.older, tt.newer); got != tt.want {
			t.Errorf("restatesWithNewValue(%q, %q) = %v, want %v", tt.older, tt.newer, got, tt.want)
		}
		// The store reads only the later claims the older one's pattern matches: every restatement among them.
		// (The pattern is Postgres' syntax; these classes and groups read the same in Go's, case aside.)
		if p := quantityPattern(tt.older); tt.want && (p == "" || !regexp.MustCompile("(?i)"+p).MatchString(tt.newer)) {
			t.Errorf("quantityPattern(%q) = %q does not match its restatement %q", tt.older, p, tt.newer)
		}
	}
}

// The pattern a later claim must match to restate a quantity: a number of what the claim counts, in any case and
// number; none for a claim that states no quantity.
func TestQuantityPattern(t *testing.T) {
	tests := []struct {
		text    string
		matches []string
		misses  []string
	}{
		{"User has written 4,500 words and 3 chapters.", []string{"now 4700 Words", "12 chapter", "5  words"}, []string{"three words", "4 pages", "words: 12"}},
		{"Accuracy is 87% on the quiz.", []string{"reached 91 %"}, []string{"91 percent"}},
		{"User likes the essay.", nil, nil},
		{"User was born in 1990.", nil, nil}, // a number of nothing counted
	}
	for _, tt := range tests {
		p := quantityPattern(tt.text)
		if (p == "") != (tt.matches == nil) {
			t.Errorf("quantityPattern(%q) = %q", tt.text, p)
			continue
		}
		if p == "" {
			continue
		}
		re := regexp.MustCompile("(?i)" + p)
		for _, m := range tt.matches {
			if !re.MatchString(m) {
				t.Errorf("quantityPattern(%q) = %q does not match %q", tt.text, p, m)
			}
		}
		for _, m := range tt.misses {
			if re.MatchString(m) {
				t.Errorf("quantityPattern(%q) = %q matches %q", tt.text, p, m)
			}
		}
	}
}

// A context that shows a value the subject stated later with another number — in another slot, so nothing
// superseded it — shows the later statement right after it, even when the search's k leaves room for one slot;
// a later claim of the subject about something else is not brought in.
func TestSearchShowsTheLaterValueOfAStatedNumber(t *testing.T) {
	// The test embedder hashes words, so the two statements of the value share most of their words here; the
	// local sentence encoder scores paraphrases that share fewer as highly.
	h := newHarness(t)
	f := h.workspace("essay")
	f.add(fclaim{Subject: "User", Predicate: "has", Accumulating: true, Object: "4,500 words",
		Text: "User said the essay draft has 4,500 words.", ValidFrom: day("2024-03-01"), Seq: seq(1)})
	f.add(fclaim{Subject: "User", Predicate: "final draft", Accumulating: true, Object: "4,700 words",
		Text: "User said the essay draft has 4,700 words by now.", ValidFrom: day("2024-04-01"), Seq: seq(2)})
	f.add(fclaim{Subject: "User", Predicate: "walked", Accumulating: true, Object: "3 miles",
		Text: "User walked 3 miles in the park.", ValidFrom: day("2024-04-02"), Seq: seq(3)})
	res, err := h.client("agent-a").Search(context.Background(), "essay",
		api.SearchRequest{Query: "Did I say the essay draft has 4,500 words?", K: 1, TokenBudget: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Context, "4,500 words") || !strings.Contains(res.Context, "4,700 words") {
		t.Fatalf("context does not show the stated value and its later restatement:\n%s", res.Context)
	}
	if strings.Index(res.Context, "4,500") > strings.Index(res.Context, "4,700") {
		t.Fatalf("the later value comes before the one it restates:\n%s", res.Context)
	}
	if strings.Contains(res.Context, "park") {
		t.Fatalf("a later claim about something else was brought in:\n%s", res.Context)
	}
}

// A never-statement and a positive statement it contradicts come back together even when a later statement
// replaced the positive one in its slot: what was said was once true, so "never" still conflicts with it. The
// replaced statement is shown as former, both are flagged, and each names the other in its conflicts.
func TestContradictionWithAReplacedStatement(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("web")
	setup := f.add(fclaim{Subject: "User", Predicate: "tries to", Object: "set up a project with Bootstrap",
		Text: "User is trying to set up a new project using Bootstrap components.", ValidFrom: day("2024-03-01"), Seq: seq(1)})
	later := f.add(fclaim{Subject: "User", Predicate: "tries to", Object: "deploy to Netlify",
		Text: "User is trying to deploy the portfolio to Netlify.", ValidFrom: day("2024-03-10"), Seq: seq(2)})
	f.supersede(later, setup, day("2024-03-10"))
	never := f.add(fclaim{Subject: "User", Predicate: "implemented", Accumulating: true, Object: "Bootstrap components",
		Text: "User has never implemented any Bootstrap components.", ValidFrom: day("2024-04-01"), Seq: seq(3)})
	d := f.decision(canon.SubjectKey("User"), "implemented", "negation", "contradiction", []string{setup, never}, "", nil, day("2024-04-01"))
	f.contradict(setup, never, canon.SubjectKey("User"), 0.8, d, day("2024-04-01"))

	res, err := h.client("agent-a").Search(context.Background(), "web",
		api.SearchRequest{Query: "Have I ever implemented Bootstrap components?", TokenBudget: 500})
	if err != nil {
		t.Fatal(err)
	}
	var neverLine, setupLine string
	for _, l := range strings.Split(res.Context, "\n") {
		switch {
		case strings.Contains(l, "never implemented"):
			neverLine = l
		case strings.Contains(l, "set up a new project"):
			setupLine = l
		}
	}
	if !strings.HasPrefix(neverLine, "- [CONFLICTING] ") || !strings.HasPrefix(setupLine, "- [FORMER] [CONFLICTING] ") {
		t.Fatalf("want the never-statement flagged and the replaced statement shown as former and flagged:\n%s", res.Context)
	}
	conflicts := map[string][]string{}
	for _, c := range res.Claims {
		conflicts[c.ID] = c.Conflicts
	}
	if !slices.Contains(conflicts[never], setup) || !slices.Contains(conflicts[setup], never) {
		t.Fatalf("conflicts do not name each other: %v", conflicts)
	}
}

// Of a never-statement's several contradicting statements, the one said before it is shown first: "User has
// never used Bootstrap components" denies what the user said on 1 March, while what they said in May, after
// it, reads as a change (they started using it) — even when the later statements are nearer the question.
func TestContradictionShowsTheStatementTheNegationDenies(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("web")
	before := f.add(fclaim{Subject: "User", Predicate: "sets up", Accumulating: true, Object: "a portfolio with Bootstrap",
		Text: "User is setting up a portfolio site with Bootstrap.", ValidFrom: day("2024-03-01"), Seq: seq(1)})
	never := f.add(fclaim{Subject: "User", Predicate: "used", Accumulating: true, Object: "Bootstrap components",
		Text: "User has never used any Bootstrap components.", ValidFrom: day("2024-04-01"), Seq: seq(2)})
	later1 := f.add(fclaim{Subject: "User", Predicate: "uses", Accumulating: true, Object: "Bootstrap components in the navbar",
		Text: "User has used Bootstrap components in the navbar.", ValidFrom: day("2024-05-01"), Seq: seq(3)})
	later2 := f.add(fclaim{Subject: "User", Predicate: "uses", Accumulating: true, Object: "Bootstrap components for the modal",
		Text: "User has used Bootstrap components for the modal.", ValidFrom: day("2024-05-10"), Seq: seq(4)})
	f.exec(`UPDATE claims SET negated = true, slot_key = 'not:' || slot_key WHERE id = $1`, never)
	for _, p := range []string{before, later1, later2} {
		d := f.decision(canon.SubjectKey("User"), "used", "negation", "contradiction", []string{p, never}, "", nil, day("2024-05-10"))
		f.contradict(p, never, canon.SubjectKey("User"), 0.7, d, day("2024-05-10"))
	}

	// k = 1: the search finds the never-statement, and its partners are brought in by the link alone.
	res, err := h.client("agent-a").Search(context.Background(), "web",
		api.SearchRequest{Query: "Has user never used any Bootstrap components?", K: 1, TokenBudget: 500})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Context, "never used any Bootstrap") || !strings.Contains(res.Context, "setting up a portfolio site") {
		t.Fatalf("want the never-statement and the statement it denies, said before it:\n%s", res.Context)
	}
	if strings.Index(res.Context, "setting up a portfolio site") > strings.Index(res.Context, "used Bootstrap components in the navbar") &&
		strings.Contains(res.Context, "used Bootstrap components in the navbar") {
		t.Fatalf("a statement made after the never-statement comes before the one it denies:\n%s", res.Context)
	}
}
