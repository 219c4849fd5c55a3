package rules

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

type goldenCase struct {
	Name       string    `json:"name"`
	OccurredAt time.Time `json:"occurred_at"`
	Turns      []struct {
		Speaker string `json:"speaker"`
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"turns"`
}

// goldenClaim is the reviewed form of a claim: what a reader checks.
type goldenClaim struct {
	Turn       int    `json:"turn"`
	Subject    string `json:"subject_key"`
	Predicate  string `json:"predicate_key"`
	Object     string `json:"object"`
	Functional bool   `json:"functional,omitempty"`
	Fallback   bool   `json:"fallback,omitempty"`
	ValidFrom  string `json:"valid_from"`
	Sequence   *int64 `json:"sequence,omitempty"`
	Text       string `json:"text"`
}

func loadCases(t testing.TB) []goldenCase {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "cases.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cs []goldenCase
	if err := json.Unmarshal(b, &cs); err != nil {
		t.Fatal(err)
	}
	return cs
}

func (gc goldenCase) turns() []event.TurnAcceptedV1 {
	out := make([]event.TurnAcceptedV1, len(gc.Turns))
	for i, t := range gc.Turns {
		role := t.Role
		if role == "" {
			role = "user"
		}
		at := gc.OccurredAt.Add(time.Duration(i) * time.Second)
		out[i] = event.TurnAcceptedV1{Workspace: "ws", TurnID: "turn-" + string(rune('a'+i)), AgentID: "agent", SessionID: "s",
			Role: role, Speaker: t.Speaker, Content: t.Content, OccurredAt: at, ReceivedAt: at, Scope: event.ScopeShared}
	}
	return out
}

// TestGolden runs the extractor over testdata/cases.json and compares with testdata/golden/<case>.json.
// Run `go test ./rules -run TestGolden -update` after an intended change and review the diff.
func TestGolden(t *testing.T) {
	e := New()
	for _, gc := range loadCases(t) {
		t.Run(gc.Name, func(t *testing.T) {
			turns := gc.turns()
			res, err := e.Extract(context.Background(), extract.Window{Workspace: "ws", SessionID: "s", Turns: turns})
			if err != nil {
				t.Fatal(err)
			}
			idx := map[string]int{}
			for i, tu := range turns {
				idx[tu.TurnID] = i
			}
			got := make([]goldenClaim, 0, len(res.Claims))
			for _, c := range res.Claims {
				got = append(got, goldenClaim{Turn: idx[c.TurnIDs[0]], Subject: c.SubjectKey, Predicate: c.PredicateKey, Object: c.Object,
					Functional: c.Functional, Fallback: c.Fallback, ValidFrom: c.ValidFrom.UTC().Format("2006-01-02"), Sequence: c.Sequence, Text: c.Text})
			}
			b, err := json.MarshalIndent(got, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			b = append(b, '\n')
			path := filepath.Join("testdata", "golden", gc.Name+".json")
			if *update {
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(want, b) {
				t.Errorf("claims differ from %s (run with -update and review the diff):\n%s", path, b)
			}
		})
	}
}

// TestNoClaimForNonAssertions checks the cases that must produce nothing at all: questions, hypotheticals and
// pure pleasantries; a negation produces only its negated claim (negation_test.go), never a positive one — save
// the ending of a lasting negation ("I don't live in Berlin anymore": Alice used to live in Berlin), which says
// the state no longer holds.
func TestNoClaimForNonAssertions(t *testing.T) {
	e := New()
	for _, gc := range loadCases(t) {
		if gc.Name != "no_claims" {
			continue
		}
		for _, tu := range gc.turns() {
			if cs := slices.DeleteFunc(e.ExtractTurn(tu), func(c extract.Claim) bool { return c.Negated || strings.HasPrefix(c.Predicate, "used to ") }); len(cs) != 0 {
				t.Errorf("%q produced %d claims, first: %+v", tu.Content, len(cs), cs[0])
			}
		}
	}
}

func TestKeyFacts(t *testing.T) {
	ref := time.Date(2024, 3, 15, 9, 0, 0, 0, time.UTC)
	type want struct{ subject, predicate, object string }
	tests := []struct {
		speaker, content string
		want             want
		functional       bool
		validFrom        time.Time
		sequence         int64
	}{
		{"Alice", "I moved to Berlin last week.", want{"alice", "lives_in", "Berlin"}, true, time.Date(2024, 3, 8, 0, 0, 0, 0, time.UTC), -1},
		{"Alice", "My favorite color is green.", want{"alice", "favourite_colour", "green"}, true, ref, -1},
		{"Bob", "Alice's manager is Bob.", want{"alice", "manager", "Bob"}, true, ref, -1},
		{"x", "12. The capital of Germany is Berlin.", want{"germany", "capital", "Berlin"}, true, ref, 12},
		{"x", "3. Thomas Kyd was born in the city of London.", want{"thomas_kyd", "born_in", "London"}, true, ref, 3},
		{"x", "Nobuhiro Watsuki is famous for Rurouni Kenshin.", want{"nobuhiro_watsuki", "known_for", "Rurouni Kenshin"}, false, ref, -1}, // one can be famous for several works
		{"x", "Dave Filoni works for Lucasfilm.", want{"dave_filoni", "works_at", "Lucasfilm"}, true, ref, -1},
		{"x", "Colin Irwin is a citizen of Israel.", want{"colin_irwin", "citizen_of", "Israel"}, false, ref, -1}, // one can hold several citizenships
		{"x", "Paris is the capital of France.", want{"france", "capital", "Paris"}, true, ref, -1},
		{"Alice", "I visited Rome yesterday.", want{"alice", "visits", "Rome"}, false, time.Date(2024, 3, 14, 0, 0, 0, 0, time.UTC), -1},
		{"Alice", "I graduated in 2019.", want{"alice", "did", "graduated"}, false, time.Date(2019, 1, 1, 0, 0, 0, 0, time.UTC), -1},
	}
	e := New()
	for _, tt := range tests {
		cs := e.ExtractTurn(event.TurnAcceptedV1{TurnID: "t", Speaker: tt.speaker, Content: tt.content, OccurredAt: ref})
		var found *extract.Claim
		for i, c := range cs {
			if c.SubjectKey == tt.want.subject && c.PredicateKey == tt.want.predicate && c.Object == tt.want.object {
				found = &cs[i]
			}
		}
		if found == nil {
			t.Errorf("%q: no claim %+v in %+v", tt.content, tt.want, cs)
			continue
		}
		if found.Functional != tt.functional || !found.ValidFrom.Equal(tt.validFrom) || found.Fallback {
			t.Errorf("%q: functional=%v valid_from=%s fallback=%v", tt.content, found.Functional, found.ValidFrom, found.Fallback)
		}
		if tt.sequence >= 0 && (found.Sequence == nil || *found.Sequence != tt.sequence) {
			t.Errorf("%q: sequence %v, want %d", tt.content, found.Sequence, tt.sequence)
		}
		if strings.Contains(found.Text, " I ") || strings.HasPrefix(found.Text, "I ") {
			t.Errorf("%q: text %q is not in the third person", tt.content, found.Text)
		}
	}
}

func TestFallbackKeepsEverythingRetrievable(t *testing.T) {
	e := New()
	cs := e.ExtractTurn(event.TurnAcceptedV1{TurnID: "t", Speaker: "Nate", Content: "The turtles eat a combination of vegetables, fruits, and insects.",
		OccurredAt: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)})
	if len(cs) != 1 || !cs[0].Fallback || cs[0].Functional || cs[0].PredicateKey != "said" || cs[0].SubjectKey != "nate" {
		t.Fatalf("claims %+v, want one fallback claim by nate", cs)
	}
	if !strings.Contains(cs[0].Text, "vegetables, fruits, and insects") {
		t.Errorf("fallback text %q lost content", cs[0].Text)
	}
}

func TestDeterministic(t *testing.T) {
	e := New()
	for _, gc := range loadCases(t) {
		for _, tu := range gc.turns() {
			a, _ := json.Marshal(e.ExtractTurn(tu))
			b, _ := json.Marshal(e.ExtractTurn(tu))
			if !bytes.Equal(a, b) {
				t.Fatalf("two runs over %q differ", tu.Content)
			}
		}
	}
}

func FuzzExtractTurn(f *testing.F) {
	for _, s := range []string{"I moved to Berlin last week.", "12. The capital of X is Y.", "My sister Anna works at Google.",
		"Yesterday, I — well — went to the the the 31st of February 2023", "Alice's's manager is is Bob", "\x00\xff I am 999 years old",
		"in 2 weeks ago next Sunday on May 32", "The of of is is", "I have been to",
		"Instead of Venice, we're heading to Rome.", "a instead of \t", "Instead of , x", "Dentist appointment is Tuesday 12 March at 9.",
		"Émile is on Friday 15 March", "I'm a nurse on £32k.", "From March I'll be at Lloyds Pharmacy, closer to home."} {
		f.Add(s)
	}
	e := New()
	ref := time.Date(2024, 3, 15, 9, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, content string) {
		for _, c := range e.ExtractTurn(event.TurnAcceptedV1{TurnID: "t", Speaker: "Alice", Content: content, OccurredAt: ref}) {
			if c.SubjectKey == "" || c.PredicateKey == "" || c.Object == "" || c.Text == "" {
				t.Fatalf("incomplete claim %+v from %q", c, content)
			}
			if c.ValidFrom.After(ref) {
				t.Fatalf("valid_from %s after the turn (%s) from %q", c.ValidFrom, ref, content)
			}
		}
	})
}

func BenchmarkExtract(b *testing.B) {
	e := New()
	var turns []event.TurnAcceptedV1
	for _, gc := range loadCases(b) {
		turns = append(turns, gc.turns()...)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Extract(context.Background(), extract.Window{Workspace: "ws", SessionID: "s", Turns: turns}); err != nil {
			b.Fatal(err)
		}
	}
}
