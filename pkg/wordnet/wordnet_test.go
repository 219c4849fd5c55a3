package wordnet

import (
	"os"
	"testing"
)

// The fixture is a hand-written database in WordNet's format: baseball's first sense is a sport, its second a
// piece of equipment; Islam's first sense a civilization, its second a religion; Lisbon is an instance of a
// city; "ice hockey" is a compound listed open, "jiu-jitsu" one listed hyphenated.
func TestIsFollowsHypernymsAndInstancesWithinTheFirstSenses(t *testing.T) {
	n, err := Open("testdata")
	if err != nil {
		t.Fatal(err)
	}
	sport, religion, equipment, city := Kind{"sport", 1}, Kind{"religion", 1}, Kind{"equipment", 1}, Kind{"city", 1}
	for _, c := range []struct {
		noun   string
		senses int
		kind   Kind
		want   bool
	}{
		{"baseball", 1, sport, true},
		{"Baseball", 2, sport, true},
		{"baseball", 1, equipment, false}, // the ball is the second sense
		{"baseball", 2, equipment, true},
		{"baseball", 0, equipment, true}, // every sense
		{"Islam", 1, religion, false},
		{"Islam", 2, religion, true},
		{"Lisbon", 1, city, true}, // an instance hypernym
		{"ice  hockey", 1, sport, true},
		{"ice-hockey", 1, sport, true}, // the hyphenated spelling of a compound listed open
		{"ball-game", 1, sport, true},
		{"jiu jitsu", 1, sport, true}, // the open spelling of a compound listed hyphenated
		{"jiu_jitsu", 1, sport, true},
		{"ice-hockey-stick", 1, sport, false},
		{"Lisbon", 1, sport, false},
		{"cortado", 2, sport, false},             // not listed
		{"baseball", 2, Kind{"sport", 2}, false}, // no second sense of sport
		{"baseball", 2, Kind{"game", 1}, false},  // no such kind
	} {
		if got := n.Is(c.noun, c.senses, c.kind); got != c.want {
			t.Errorf("Is(%q, %d, %v) = %v, want %v", c.noun, c.senses, c.kind, got, c.want)
		}
	}
	if !n.Known("Ice Hockey") || n.Known("cortado") {
		t.Error("Known: want ice hockey listed and cortado not")
	}
}

// A name of several words typed in lower case is written as WordNet writes an instance's name; a name WordNet
// also writes in lower case ("old town"), a capitalized kind that is no instance, a word alone and a phrase
// it does not list are not names.
func TestNameWritesAnInstancesNameOfSeveralWords(t *testing.T) {
	n, err := Open("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ phrase, want string }{
		{"new york", "New York"},
		{"new  york city", "New York City"},
		{"NEW YORK", "New York"},
		{"old town", ""},
		{"ball game", ""},
		{"lisbon", ""},
		{"ice hockey", ""},
		{"new jersey", ""},
	} {
		got, ok := n.Name(c.phrase)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Name(%q) = %q, %v; want %q", c.phrase, got, ok, c.want)
		}
	}
}

func TestOpenRejectsWhatIsNotTheDatabase(t *testing.T) {
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("an empty directory opened")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{"index.noun": "baseball n 2 1 @ 2 2 00000400\n", "data.noun": ""} {
		if err := os.WriteFile(dir+"/"+name, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Open(dir); err == nil {
		t.Error("an index entry with fewer offsets than its count opened")
	}
}

// The installed database (Debian's wordnet-base; make test installs it) knows the kinds the extractor asks
// about. MNEME_REQUIRE_WORDNET=1 makes its absence a failure.
func TestInstalledDatabase(t *testing.T) {
	n, err := Open(DefaultDir)
	if err != nil {
		if os.Getenv("MNEME_REQUIRE_WORDNET") == "1" {
			t.Fatalf("WordNet missing with MNEME_REQUIRE_WORDNET=1: %v", err)
		}
		t.Skipf("WordNet not installed: %v", err)
	}
	for phrase, want := range map[string]string{"united states of america": "United States of America", "north america": "North America", "soviet union": "Soviet Union"} {
		if got, _ := n.Name(phrase); got != want {
			t.Errorf("Name(%q) = %q, want %q", phrase, got, want)
		}
	}
	for _, c := range []struct {
		noun string
		kind Kind
		want bool
	}{
		{"baseball", Kind{"sport", 1}, true},
		{"cricket", Kind{"sport", 1}, true}, // its first sense is the insect
		{"Buddhism", Kind{"religion", 1}, true},
		{"jazz", Kind{"music genre", 1}, true},
		{"Paris", Kind{"city", 1}, true},
		{"Google", Kind{"sport", 1}, false},
		{"Lisbon", Kind{"religion", 1}, false},
	} {
		if got := n.Is(c.noun, 2, c.kind); got != c.want {
			t.Errorf("Is(%q, 2, %v) = %v, want %v", c.noun, c.kind, got, c.want)
		}
	}
}

func FuzzLines(f *testing.F) {
	f.Add("baseball n 2 1 @ 2 2 00000400 00000500")
	f.Add("00000400 04 n 02 baseball 0 ball_game 0 001 @ 00000200 n 0000 | a ball game")
	f.Add("00000400 04 n ff x")
	f.Fuzz(func(t *testing.T, s string) {
		n := &Nouns{senses: map[string][]uint32{}, up: map[uint32][]uint32{}, names: map[string]string{}}
		_ = n.indexLine(s)
		_ = n.dataLine(s, map[string]bool{})
	})
}
