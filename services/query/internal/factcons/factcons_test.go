package factcons

import (
	"path/filepath"
	"testing"
)

func TestSubstringExactMatch(t *testing.T) {
	for _, tc := range []struct {
		pred string
		gold []string
		want bool
	}{
		{"The Fairly OddParents", []string{"The Fairly OddParents"}, true},
		{"fairly oddparents!", []string{"The Fairly OddParents"}, true},
		{"Washington, D.C.", []string{"Washington, D.C."}, true},
		{"washington dc", []string{"Washington, D.C."}, true},
		{"Charles Frederick", []string{"Charles Frederick, Duke of Holstein-Gottorp"}, false},
		{"It is Shinzō Abe.", []string{"Shinzō Abe"}, true},
		{"", []string{"x"}, false},
		{"Sassou-Nguesso", []string{"Sassou Nguesso"}, false}, // ASCII punctuation is removed, not spaced
		{"an apple", []string{"apple"}, true},
	} {
		if got := SubstringExactMatch(tc.pred, tc.gold); got != tc.want {
			t.Errorf("SubstringExactMatch(%q, %q) = %v, want %v", tc.pred, tc.gold, got, tc.want)
		}
	}
}

func TestSplit(t *testing.T) {
	for in, want := range map[string]Triple{
		"Thomas Kyd was born in the city of London.":                               {"Thomas Kyd", "was born in the city of", "London"},
		"The chairperson of Fatah is Mahmoud Abbas.":                               {"Fatah", "chairperson", "Mahmoud Abbas"},
		"Pedro Pierluisi worked in the city of Washington, D.C..":                  {"Pedro Pierluisi", "worked in the city of", "Washington, D.C."},
		"Walter Chrysler's child is Walter Percy Chrysler Jr..":                    {"Walter Chrysler", "child", "Walter Percy Chrysler Jr."},
		"The name of the current head of state in United Kingdom is Elizabeth II.": {"United Kingdom", "head of state", "Elizabeth II"},
		"The univeristy where Galileo Galilei was educated is University of Pisa.": {"Galileo Galilei", "educated at university", "University of Pisa"},
		"Kingdom of Ireland is affiliated with the religion of Catholic Church.":   {"Kingdom of Ireland", "is affiliated with the religion of", "Catholic Church"},
	} {
		got, ok := Split(in)
		if !ok || got != want {
			t.Errorf("Split(%q) = %+v, %v; want %+v", in, got, ok, want)
		}
	}
	if _, ok := Split("Nothing of a known shape"); ok {
		t.Error("an unknown shape was split")
	}
}

// Every fact of the shipped data has a known shape (skipped when the data is absent).
func TestShippedFacts(t *testing.T) {
	rows, err := Load(filepath.Join("..", "..", "..", "..", "..", "shared", "data", "memoryagentbench", "factconsolidation_6k.json"))
	if err != nil {
		t.Skipf("data not available: %v", err)
	}
	for _, r := range rows {
		fs := Facts(r.Context)
		if len(fs) != 455 {
			t.Fatalf("%d facts", len(fs))
		}
		for _, f := range fs {
			if _, ok := Split(f.Text); !ok {
				t.Errorf("fact %d: %q", f.N, f.Text)
			}
		}
	}
}

func FuzzFactsAndSplit(f *testing.F) {
	f.Add("Here is a list of facts:\n0. Thomas Kyd was born in the city of London.\n1. The chairperson of Fatah is Mahmoud Abbas.")
	f.Add("12. 's child is .")
	f.Fuzz(func(t *testing.T, s string) {
		for _, fact := range Facts(s) {
			if tr, ok := Split(fact.Text); ok && (tr.Subject == "" || tr.Object == "" || tr.Predicate == "") {
				t.Fatalf("empty part in %+v from %q", tr, fact.Text)
			}
		}
		_ = SubstringExactMatch(s, []string{s})
	})
}
