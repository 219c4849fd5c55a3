// Package factcons reads MemoryAgentBench FactConsolidation rows (the HF row schema: context, questions,
// answers, metadata) and implements the benchmark's official metric, substring exact match. It also splits the
// numbered facts into structured claims for the LLM-free ingestion path.
package factcons

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
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

// Load reads a JSON list of rows.
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

// Facts returns the numbered facts of a context in order.
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

// Triple is a fact split into subject, relation phrase and object.
type Triple struct {
	Subject, Predicate, Object string
}

// templates are the sentence shapes of the FactConsolidation facts (they come from the MQuAKE/Wikidata
// relation templates), most specific first. S is the subject, O the object.
var templates = func() []*regexp.Regexp {
	shapes := []struct{ re, pred string }{
		{`^The name of the current head of state in (?P<S>.+) is (?P<O>.+)$`, "head of state"},
		{`^The name of the current head of the (?P<S>.+) government is (?P<O>.+)$`, "head of government"},
		{`^The headquarters of (?P<S>.+) is located in the city of (?P<O>.+)$`, "headquarters located in the city of"},
		{`^The univeristy where (?P<S>.+) was educated is (?P<O>.+)$`, "educated at university"},
		{`^The type of music that (?P<S>.+) plays is (?P<O>.+)$`, "type of music"},
		{`^The company that produced (?P<S>.+) is (?P<O>.+)$`, "produced by company"},
		{`^The origianl broadcaster of (?P<S>.+) is (?P<O>.+)$`, "original broadcaster"},
		{`^The (?P<P>chief executive officer|chairperson|director|author|capital|official language|Prime Minister) of (?P<S>.+) is (?P<O>.+)$`, ""},
		{`^(?P<S>.+)'s child is (?P<O>.+)$`, "child"},
		{`^(?P<S>.+?) (?P<P>was born in the city of|died in the city of|plays the position of|is located in the continent of|worked in the city of|is married to|was founded by|is associated with the sport of|is a citizen of|was performed by|is employed by|was founded in the city of|speaks the language of|is famous for|was created in the country of|was created by|is affiliated with the religion of|works in the field of|was developed by|was written in the language of) (?P<O>.+)$`, ""},
	}
	out := make([]*regexp.Regexp, len(shapes))
	for i, s := range shapes {
		re := s.re
		if s.pred != "" {
			// Carry the fixed predicate in the pattern's name table.
			re = "(?P<fixed_" + strings.ReplaceAll(s.pred, " ", "_") + ">)" + re[1:]
			re = "^" + re
		}
		out[i] = regexp.MustCompile(re)
	}
	return out
}()

// Split splits a fact sentence into a triple; ok is false for a sentence of no known shape.
func Split(sentence string) (Triple, bool) {
	s := strings.TrimSpace(sentence)
	s = strings.TrimSuffix(s, ".") // the line's full stop; an object's own "D.C." keeps its dots
	for _, re := range templates {
		m := re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		var t Triple
		for i, name := range re.SubexpNames() {
			switch {
			case name == "S":
				t.Subject = m[i]
			case name == "O":
				t.Object = m[i]
			case name == "P":
				t.Predicate = m[i]
			case strings.HasPrefix(name, "fixed_"):
				t.Predicate = strings.ReplaceAll(strings.TrimPrefix(name, "fixed_"), "_", " ")
			}
		}
		if t.Subject == "" || t.Object == "" || t.Predicate == "" {
			return Triple{}, false
		}
		return t, true
	}
	return Triple{}, false
}

// asciiPunct is Python's string.punctuation, which the official normalization removes (ASCII only).
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

// normalize is MemoryAgentBench's normalize_answer (utils/eval_other_utils.py): lower case, ASCII punctuation
// removed, the words a/an/the removed, whitespace collapsed.
func normalize(s string) string {
	s = strings.ToLower(s)
	s = strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(asciiPunct, r) {
			return -1
		}
		return r
	}, s)
	var kept []string
	for _, w := range strings.Fields(s) {
		if w == "a" || w == "an" || w == "the" {
			continue
		}
		kept = append(kept, w)
	}
	return strings.Join(kept, " ")
}

// SubstringExactMatch is the benchmark's official metric: true when the normalized gold answer is a substring
// of the normalized prediction, for any accepted gold answer.
func SubstringExactMatch(prediction string, golds []string) bool {
	p := normalize(prediction)
	for _, g := range golds {
		if strings.Contains(p, normalize(g)) {
			return true
		}
	}
	return false
}
