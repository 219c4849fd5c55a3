package nlp

import (
	"slices"
	"strings"
	"sync"
	"testing"
)

// tagged renders tokens as "text/TAG/lemma" for compact comparison.
func tagged(ts []Token) string {
	var b []string
	for _, t := range ts {
		b = append(b, t.Text+"/"+t.Tag+"/"+t.Lemma)
	}
	return strings.Join(b, " ")
}

func TestAnalyzeKeepsOffsets(t *testing.T) {
	for _, s := range []string{
		"Elena Ceaușescu was born in Petrești.",
		"I’ve been running a lot lately and my budget is $2,000 now.",
		"Pedro Pierluisi worked in Washington, D.C..",
		"The book was written by Ursula K. Le Guin.",
	} {
		n := Normalize(s)
		for _, tok := range Analyze(s) {
			if n[tok.Start:tok.End] != tok.Text {
				t.Errorf("%q: token %q has offsets %d..%d (%q)", s, tok.Text, tok.Start, tok.End, n[tok.Start:tok.End])
			}
		}
	}
}

// TestAnalyze checks the parts of speech and lemmas a person assigns to each word (written by hand).
func TestAnalyze(t *testing.T) {
	cases := []struct {
		in   string
		want map[string]string // token text → "TAG lemma" (only the tokens that matter)
	}{
		{"Emma left Google last month and joined Anthropic.", map[string]string{"Emma": "NNP Emma", "left": "VBD leave", "joined": "VBD join", "Anthropic": "NNP Anthropic"}},
		{"She lives in Portland with her two cats.", map[string]string{"lives": "VBZ live", "cats": "NNS cat", "Portland": "NNP Portland"}},
		{"The École Militaire is located in Paris.", map[string]string{"École": "NNP École", "Militaire": "NNP Militaire", "located": "VBN locate"}},
		{"Elena Ceaușescu was born in the city of Petrești.", map[string]string{"Ceaușescu": "NNP Ceaușescu", "Petrești": "NNP Petrești", "was": "VBD be"}},
		{"The book was written by Ursula K. Le Guin.", map[string]string{"K.": "NNP K.", "written": "VBN write"}},
		{"We moved to Seattle in May.", map[string]string{"moved": "VBD move", "May": "NNP May", ".": ". ."}},
		{"My budget is $2,000 now.", map[string]string{"2,000": "CD 2,000", "is": "VBZ be"}},
		{"He stopped running and started swimming.", map[string]string{"stopped": "VBD stop", "running": "VBG run"}},
		{"Pedro Pierluisi worked in Washington, D.C..", map[string]string{"worked": "VBD work", "D.C.": "NNP D.C."}},
		// Between a question word and the question's auxiliary stands a noun, which the tagger reads as a verb.
		{"What pets does Lena have?", map[string]string{"pets": "NNS pet", "does": "VBZ do"}},
		{"Which languages do they speak?", map[string]string{"languages": "NNS language", "do": "VBP do"}},
		{"What does Lena have?", map[string]string{"does": "VBZ do"}},
		{"What matters is family.", map[string]string{"matters": "VBZ matter"}},
		// A subject needs its verb: after a possessed noun or a name, an -es word the tagger reads as a plural is
		// the verb, and the word after it that English has no verb of is its object.
		{"My husband coaches soccer.", map[string]string{"coaches": "VBZ coach", "soccer": "NN soccer"}},
		// "mum" is first an adjective to the tagger ("keep mum"); before a verb's -s form and a preposition it
		// is the noun, and the -s form the verb.
		{"My mum lives in Cluj.", map[string]string{"mum": "NN mum", "lives": "VBZ live"}},
		{"Our new neighbours from Leeds are nice.", map[string]string{"new": "JJ new", "neighbours": "NNS neighbour"}},
		{"Kim's son studies physics", map[string]string{"studies": "VBZ study"}},
		{"Tom teaches cello at the Royal Academy.", map[string]string{"teaches": "VBZ teach"}},
		// Not when the clause already has its verb, or the word after it is one.
		{"My sister's classes start soon.", map[string]string{"classes": "NNS class", "start": "VBP start"}},
		{"The Lanterns play shoegaze.", map[string]string{"play": "VBP play"}},
		{"The Lakers game was fun.", map[string]string{"game": "NN game"}},
		// Typed in lower case: an adverb is no name, a word English does not have is one.
		{"i'm at pfizer now", map[string]string{"now": "RB now", "pfizer": "NNP pfizer"}},
		{"it's so weird", map[string]string{"so": "RB so"}},
		{"wet leg have officially split", map[string]string{"officially": "RB officially"}},
		{"biscuit passed away", map[string]string{"away": "RB away"}},
		{"my sister emily is a nurse", map[string]string{"emily": "NNP emily"}},
	}
	for _, c := range cases {
		ts := Analyze(c.in)
		got := map[string]string{}
		for _, tok := range ts {
			got[tok.Text] = tok.Tag + " " + tok.Lemma
		}
		for w, want := range c.want {
			if got[w] != want {
				t.Errorf("%q: %q = %q, want %q (%s)", c.in, w, got[w], want, tagged(ts))
			}
		}
	}
}

func TestLemma(t *testing.T) {
	cases := []struct{ word, tag, want string }{
		{"lives", "VBZ", "live"}, {"lives", "NNS", "life"}, {"left", "VBD", "leave"}, {"leaves", "VBZ", "leave"},
		{"married", "VBN", "marry"}, {"studies", "VBZ", "study"}, {"stopped", "VBD", "stop"}, {"moving", "VBG", "move"},
		{"went", "VBD", "go"}, {"children", "NNS", "child"}, {"headquartered", "VBN", "headquarter"},
		{"found", "VB", "found"}, {"found", "VBD", "find"}, {"founded", "VBD", "found"}, {"Paris", "NNP", "Paris"},
		{"is", "VBZ", "be"}, {"has", "VBZ", "have"}, {"employed", "VBN", "employ"}, {"saw", "VBD", "see"},
		{"serving", "VBG", "serve"}, {"served", "VBD", "serve"}, {"solving", "VBG", "solve"},
	}
	for _, c := range cases {
		if got := Lemma(c.word, c.tag); got != c.want {
			t.Errorf("Lemma(%q, %s) = %q, want %q", c.word, c.tag, got, c.want)
		}
	}
}

func TestInflection(t *testing.T) {
	for _, c := range []struct{ base, third, past, ing string }{
		{"live", "lives", "lived", "living"}, {"stop", "stops", "stopped", "stopping"}, {"study", "studies", "studied", "studying"},
		{"work", "works", "worked", "working"}, {"prefer", "prefers", "preferred", "preferring"}, {"visit", "visits", "visited", "visiting"},
		{"play", "plays", "played", "playing"}, {"lie", "lies", "lied", "lying"}, {"watch", "watches", "watched", "watching"},
	} {
		if g := ThirdPerson(c.base); g != c.third {
			t.Errorf("ThirdPerson(%s) = %s", c.base, g)
		}
		if g := PastRegular(c.base); g != c.past {
			t.Errorf("PastRegular(%s) = %s", c.base, g)
		}
		if g := Gerund(c.base); g != c.ing {
			t.Errorf("Gerund(%s) = %s", c.base, g)
		}
	}
}

func TestPastParticiple(t *testing.T) {
	for base, want := range map[string]string{"write": "written", "buy": "bought", "read": "read", "eat": "eaten",
		"order": "ordered", "complete": "completed", "submit": "submitted", "plan": "planned", "carry": "carried"} {
		if got := PastParticiple(base); got != want {
			t.Errorf("PastParticiple(%s) = %s, want %s", base, got, want)
		}
	}
}

func TestIsCardinalWord(t *testing.T) {
	for w, want := range map[string]bool{"ten": true, "Twenty": true, "dozen": true, "thousand": true, "tenth": false, "a": false, "few": false, "10": false} {
		if got := IsCardinalWord(w); got != want {
			t.Errorf("IsCardinalWord(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestLemmasConcurrently: the lemmatizer is shared by every request of a process; reading the base forms of
// the same words from many goroutines at once must not race (golem sorts its stored slice on every lookup), and
// every goroutine gets the same lemmas. Run with -race, before anything else asked for these words.
func TestLemmasConcurrently(t *testing.T) {
	words := []string{"bases", "axes", "leaves", "lives", "analyses", "ellipses", "crises", "diagnoses"}
	got := make([][]string, 8)
	var wg sync.WaitGroup
	for g := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, w := range words {
				got[g] = append(got[g], Lemma(w, "NNS"))
			}
		}()
	}
	wg.Wait()
	for g := range got {
		if !slices.Equal(got[g], got[0]) {
			t.Errorf("goroutine %d read lemmas %v, goroutine 0 %v", g, got[g], got[0])
		}
	}
	if got[0][0] != "basis" && got[0][0] != "base" {
		t.Errorf("Lemma(bases) = %q, want base or basis", got[0][0])
	}
}
