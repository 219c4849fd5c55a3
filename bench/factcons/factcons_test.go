package factcons

import (
	"os"
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
		{"He is famous for the fairly oddparents.", []string{"The Fairly OddParents"}, true},
		{"Washington, D.C.", []string{"Washington, D.C."}, true},
		{"washington dc", []string{"Washington, D.C."}, true},
		{"pesäpallo", []string{"pesäpallo"}, true},
		{"Charles Frederick", []string{"Charles Frederick, Duke of Holstein-Gottorp"}, false},
		{"Rurouni Kenshin", []string{"The Fairly OddParents"}, false},
		{"It is Shinzō Abe.", []string{"Shinzō Abe"}, true},
		{"", []string{"x"}, false},
		{"anything", []string{"The"}, false},                  // a gold that normalizes to nothing never matches
		{"Sassou-Nguesso", []string{"Sassou Nguesso"}, false}, // ASCII punctuation is removed, not spaced
		{"an apple", []string{"apple"}, true},
		{"Italy", []string{"France", "Italy"}, true},
	} {
		if got := SubstringExactMatch(tc.pred, tc.gold); got != tc.want {
			t.Errorf("SubstringExactMatch(%q, %q) = %v, want %v", tc.pred, tc.gold, got, tc.want)
		}
	}
	if got := NormalizeAnswer("  The  Cat, an Owl & a DOG!"); got != "cat owl dog" {
		t.Errorf("NormalizeAnswer: %q", got)
	}
}

func TestSplit(t *testing.T) {
	for in, want := range map[string]Triple{
		"Thomas Kyd was born in the city of London.":                               {"Thomas Kyd", "was born in the city of", "London"},
		"The chairperson of Fatah is Mahmoud Abbas.":                               {"Fatah", "chairperson", "Mahmoud Abbas"},
		"The capital of Soviet Union is Russellville.":                             {"Soviet Union", "capital", "Russellville"},
		"Pedro Pierluisi worked in the city of Washington, D.C..":                  {"Pedro Pierluisi", "worked in the city of", "Washington, D.C."},
		"Pedro Pierluisi worked in the city of Washington, D.C.":                   {"Pedro Pierluisi", "worked in the city of", "Washington, D.C"},
		"Walter Chrysler's child is Walter Percy Chrysler Jr..":                    {"Walter Chrysler", "child", "Walter Percy Chrysler Jr."},
		"The name of the current head of state in United Kingdom is Elizabeth II.": {"United Kingdom", "head of state", "Elizabeth II"},
		"The univeristy where Galileo Galilei was educated is University of Pisa.": {"Galileo Galilei", "educated at university", "University of Pisa"},
		"Kingdom of Ireland is affiliated with the religion of Catholic Church.":   {"Kingdom of Ireland", "is affiliated with the religion of", "Catholic Church"},
		"Nobuhiro Watsuki is famous for Rurouni Kenshin.":                          {"Nobuhiro Watsuki", "is famous for", "Rurouni Kenshin"},
		"Igor of Kiev is married to Olga of Kiev.":                                 {"Igor of Kiev", "is married to", "Olga of Kiev"},
		"Lionel Messi is a member of FC Barcelona.":                                {"Lionel Messi", "is a member of", "FC Barcelona"},
		"Yo-Yo Ma plays cello.":                                                    {"Yo-Yo Ma", "plays", "cello"},
		"This Is England was created by Shane Meadows.":                            {"This Is England", "was created by", "Shane Meadows"},
		"The type of music that Miles Davis plays is jazz.":                        {"Miles Davis", "type of music", "jazz"},
		"The headquarters of Nokia is located in the city of Espoo.":               {"Nokia", "headquarters located in the city of", "Espoo"},
		"The company that produced Toy Story is Pixar.":                            {"Toy Story", "produced by company", "Pixar"},
		"The origianl broadcaster of The Simpsons is Fox Broadcasting Company.":    {"The Simpsons", "original broadcaster", "Fox Broadcasting Company"},
		"The name of the current head of the Canada government is Justin Trudeau.": {"Canada", "head of government", "Justin Trudeau"},
		"The chief executive officer of Apple Inc. is Tim Cook.":                   {"Apple Inc.", "chief executive officer", "Tim Cook"},
		"Mahatma Gandhi is a citizen of India.":                                    {"Mahatma Gandhi", "is a citizen of", "India"},
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

// Every fact of the shipped data has a known shape. The data (../shared/data beside the repository, or
// $MNEME_SHARED_DATA) is not in the repository: without it the test skips, unless MNEME_REQUIRE_DATA=1 (make
// test sets it when the data is there), when it fails.
func TestShippedFacts(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "data")
	if d := os.Getenv("MNEME_SHARED_DATA"); d != "" {
		dir = d
	}
	path := filepath.Join(dir, "memoryagentbench", "factconsolidation_6k.json")
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("MNEME_REQUIRE_DATA") == "1" {
			t.Fatalf("data missing with MNEME_REQUIRE_DATA=1: %v", err)
		}
		t.Skipf("data not available (MNEME_REQUIRE_DATA=1 makes this a failure): %v", err)
	}
	rows, err := Load(path)
	if err != nil {
		t.Fatal(err)
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
	f.Add("3. is is is is.\n4. The name of the sports team which X is a member of of Y is Z.")
	f.Fuzz(func(t *testing.T, s string) {
		for _, fact := range Facts(s) {
			if tr, ok := Split(fact.Text); ok && (tr.Subject == "" || tr.Object == "" || tr.Predicate == "") {
				t.Fatalf("empty part in %+v from %q", tr, fact.Text)
			}
		}
		_ = SubstringExactMatch(s, []string{s})
	})
}
