// Package factcons reads MemoryAgentBench's FactConsolidation data (the published row schema: one context of
// numbered facts, its questions and their accepted answers), splits the fact sentences into subject, predicate
// and object, and implements the benchmark's official metric, substring exact match. The benchmark harness
// (bench) and its FactConsolidation command (bench/cmd/factcons) both build on it.
package factcons

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Row is one benchmark row: one context and its questions.
type Row struct {
	Context   string     `json:"context"`
	Questions []string   `json:"questions"`
	Answers   [][]string `json:"answers"`
	Metadata  struct {
		Source    string   `json:"source"`
		QAPairIDs []string `json:"qa_pair_ids"`
	} `json:"metadata"`
}

// Load reads a JSON list of rows; every row must have as many answer lists as questions.
func Load(path string) ([]Row, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []Row
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("factcons: %s: %w", path, err)
	}
	for i, r := range rows {
		if len(r.Questions) != len(r.Answers) {
			return nil, fmt.Errorf("factcons: %s row %d: %d questions but %d answers", path, i, len(r.Questions), len(r.Answers))
		}
	}
	return rows, nil
}

// Fact is one numbered line of a context: "N. <sentence>."; a larger N is a newer fact.
type Fact struct {
	N    int64
	Text string
}

var factLine = regexp.MustCompile(`^(\d+)\.\s+(.+)$`)

// Facts returns the numbered facts of a context in order; other lines are skipped.
func Facts(context string) []Fact {
	var out []Fact
	for _, line := range strings.Split(context, "\n") {
		m := factLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			continue
		}
		out = append(out, Fact{N: n, Text: m[2]})
	}
	return out
}

// Triple is a fact sentence split into subject, predicate (the relation phrase) and object.
type Triple struct {
	Subject, Predicate, Object string
}

// templates are the sentence shapes of the facts (MQuAKE's Wikidata relation templates; a word the published
// data misspells is matched as any word), most specific first: S is the subject, O the object, P the predicate when the sentence carries
// it, else pred names it. The last shape is the loose one ("X is Y", "X plays Y"), tried only when no other
// fits, so that a subject containing "is" ("This Is England was created by …") is not cut short.
var templates = func() []struct {
	re   *regexp.Regexp
	pred string
} {
	shapes := []struct{ re, pred string }{
		{`^The name of the current head of state in (?P<S>.+) is (?P<O>.+)$`, "head of state"},
		{`^The name of the current head of the (?P<S>.+) government is (?P<O>.+)$`, "head of government"},
		{`^The headquarters of (?P<S>.+) is located in the city of (?P<O>.+)$`, "headquarters located in the city of"},
		{`^The \pL+ where (?P<S>.+) was educated is (?P<O>.+)$`, "educated at university"},
		{`^The type of music that (?P<S>.+) plays is (?P<O>.+)$`, "type of music"},
		{`^The company that produced (?P<S>.+) is (?P<O>.+)$`, "produced by company"},
		{`^The \pL+ broadcaster of (?P<S>.+) is (?P<O>.+)$`, "original broadcaster"},
		{`^The (?P<P>chief executive officer|chairperson|director|author|capital|official language|Prime Minister|name of the sports team which .+? is a member of) of (?P<S>.+) is (?P<O>.+)$`, ""},
		{`^(?P<S>.+)'s child is (?P<O>.+)$`, "child"},
		{`^(?P<S>.+?) (?P<P>was born in the city of|died in the city of|plays the position of|is located in the continent of|worked in the city of|is married to|was founded by|is associated with the sport of|is a citizen of|was performed by|is employed by|was founded in the city of|speaks the language of|is famous for|was created in the country of|was created by|is affiliated with the religion of|works in the field of|was developed by|was written in the language of) (?P<O>.+)$`, ""},
		{`^(?P<S>.+?) (?P<P>is a member of|plays|is) (?P<O>.+)$`, ""},
	}
	out := make([]struct {
		re   *regexp.Regexp
		pred string
	}, len(shapes))
	for i, s := range shapes {
		out[i].re = regexp.MustCompile(s.re)
		out[i].pred = s.pred
	}
	return out
}()

// Split splits a fact sentence into a triple; ok is false for a sentence of no known shape.
func Split(sentence string) (Triple, bool) {
	s := strings.TrimSpace(sentence)
	s = strings.TrimSuffix(s, ".") // the line's full stop; an object's own "D.C." keeps its other dots
	for _, t := range templates {
		m := t.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		tr := Triple{Predicate: t.pred}
		for i, name := range t.re.SubexpNames() {
			switch name {
			case "S":
				tr.Subject = m[i]
			case "O":
				tr.Object = m[i]
			case "P":
				tr.Predicate = m[i]
			}
		}
		if tr.Subject != "" && tr.Object != "" && tr.Predicate != "" {
			return tr, true
		}
	}
	return Triple{}, false
}

// asciiPunct is Python's string.punctuation, which the official normalization removes (ASCII only).
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// NormalizeAnswer is SQuAD's normalize_answer as MemoryAgentBench uses it (utils/eval_other_utils.py): lower
// case, ASCII punctuation removed, the articles a/an/the removed, whitespace collapsed.
func NormalizeAnswer(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(asciiPunct, r) {
			return -1
		}
		return r
	}, strings.ToLower(s))
	kept := slices.DeleteFunc(strings.Fields(s), func(w string) bool { return w == "a" || w == "an" || w == "the" })
	return strings.Join(kept, " ")
}

// SubstringExactMatch is the benchmark's official metric: true when the normalized gold answer is a substring
// of the normalized prediction, for any accepted gold. An empty prediction, or a gold that normalizes to
// nothing ("The"), never matches: Python's `"" in p` would count it.
func SubstringExactMatch(prediction string, golds []string) bool {
	p := NormalizeAnswer(prediction)
	if p == "" {
		return false
	}
	for _, g := range golds {
		if n := NormalizeAnswer(g); n != "" && strings.Contains(p, n) {
			return true
		}
	}
	return false
}
