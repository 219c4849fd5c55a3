package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// factConsRow is one MemoryAgentBench row in the published (HuggingFace row) schema.
type factConsRow struct {
	Context   string     `json:"context"`
	Questions []string   `json:"questions"`
	Answers   [][]string `json:"answers"`
	Metadata  struct {
		Source    string   `json:"source"`
		QAPairIDs []string `json:"qa_pair_ids"`
	} `json:"metadata"`
}

// FactConsolidationEpoch is the valid time given to every fact of a FactConsolidation context: the list is
// one snapshot, and its order (a larger number is a newer fact) travels as the turn sequence.
var FactConsolidationEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// LoadFactConsolidation reads MemoryAgentBench FactConsolidation rows (a JSON list of
// {context, questions, answers, metadata}). Rows with the same context share one conversation, whose turns
// are the numbered facts ("N. <fact>.", sequence N, turn id "fact-N"). Single-hop rows (source containing
// "_sh_") give category single-hop, multi-hop rows ("_mh_") multi-hop. Each question is marked conflicted
// when a fact its answer depends on was overridden by a newer fact about the same subject and relation.
func LoadFactConsolidation(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var rows []factConsRow
	if err := json.Unmarshal(b, &rows); err != nil {
		return nil, fmt.Errorf("factconsolidation: %s: %w", path, err)
	}
	d := &Dataset{Bench: FactConsolidation, Source: path}
	contexts := map[string]*factIndex{}
	for ri, r := range rows {
		if len(r.Questions) != len(r.Answers) {
			return nil, fmt.Errorf("factconsolidation: %s row %d: %d questions but %d answers", path, ri, len(r.Questions), len(r.Answers))
		}
		source := r.Metadata.Source
		if source == "" {
			source = "row" + strconv.Itoa(ri)
		}
		idx, ok := contexts[r.Context]
		if !ok {
			facts := ParseFacts(r.Context)
			if len(facts) == 0 {
				return nil, fmt.Errorf("factconsolidation: %s row %d (%s): context has no numbered facts", path, ri, source)
			}
			idx = newFactIndex(facts)
			idx.conv = &Conversation{ID: contextID(source, len(contexts))}
			idx.conv.Sessions = factSessions(facts)
			contexts[r.Context] = idx
			d.Conversations = append(d.Conversations, idx.conv)
		}
		category := "single-hop"
		if strings.Contains(source, "_mh_") || strings.HasPrefix(source, "mh") {
			category = "multi-hop"
		}
		for qi, text := range r.Questions {
			id := source + "_no" + strconv.Itoa(qi)
			if qi < len(r.Metadata.QAPairIDs) && r.Metadata.QAPairIDs[qi] != "" {
				id = r.Metadata.QAPairIDs[qi]
			}
			q := &Question{ID: id, ConversationID: idx.conv.ID, Text: text, Golds: r.Answers[qi], Category: category}
			idx.annotate(q)
			d.Questions = append(d.Questions, q)
		}
	}
	return d, nil
}

// contextID names a FactConsolidation context after the length tag of its first row ("factconsolidation_sh_6k"
// → "ctx-6k").
func contextID(source string, n int) string {
	parts := strings.Split(source, "_")
	if last := parts[len(parts)-1]; strings.HasSuffix(last, "k") {
		return "ctx-" + last
	}
	return "ctx-" + strconv.Itoa(n)
}

// Fact is one numbered line of a FactConsolidation context; a larger N is a newer fact.
type Fact struct {
	N    int64
	Text string
}

var factLine = regexp.MustCompile(`^(\d+)\.\s+(.+)$`)

// ParseFacts returns the numbered facts of a context in order.
func ParseFacts(context string) []Fact {
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

// factSessionTokens approximates MemoryAgentBench's 4,096-token context chunks by fact count; sessions only
// group turns for display, ingestion sends one turn per fact either way.
const factsPerSession = 150

func factSessions(facts []Fact) []Session {
	var out []Session
	for i := 0; i < len(facts); i += factsPerSession {
		s := Session{ID: "chunk " + strconv.Itoa(len(out)+1)}
		for _, f := range facts[i:min(i+factsPerSession, len(facts))] {
			s.Turns = append(s.Turns, Turn{
				ID: factTurnID(f.N), Role: "user",
				Content: strconv.FormatInt(f.N, 10) + ". " + f.Text,
				Time:    FactConsolidationEpoch, Seq: f.N,
			})
		}
		out = append(out, s)
	}
	return out
}

// factTurnID is the turn id of fact n.
func factTurnID(n int64) string { return "fact-" + strconv.FormatInt(n, 10) }

// Triple is a fact sentence split into subject, relation and object.
type Triple struct{ Subject, Relation, Object string }

// factTemplates are the sentence shapes of the FactConsolidation facts (MQuAKE's Wikidata relation
// templates, typos included), most specific first. S is the subject, O the object, P the relation when the
// shape carries it.
var factTemplates = func() []struct {
	re  *regexp.Regexp
	rel string
} {
	shapes := []struct{ re, rel string }{
		{`^The name of the current head of state in (?P<S>.+) is (?P<O>.+)$`, "head of state"},
		{`^The name of the current head of the (?P<S>.+) government is (?P<O>.+)$`, "head of government"},
		{`^The headquarters of (?P<S>.+) is located in the city of (?P<O>.+)$`, "headquarters location"},
		{`^The univeristy where (?P<S>.+) was educated is (?P<O>.+)$`, "educated at"},
		{`^The type of music that (?P<S>.+) plays is (?P<O>.+)$`, "genre"},
		{`^The company that produced (?P<S>.+) is (?P<O>.+)$`, "producer"},
		{`^The origianl broadcaster of (?P<S>.+) is (?P<O>.+)$`, "original broadcaster"},
		{`^The (?P<P>chief executive officer|chairperson|director|author|capital|official language|Prime Minister|name of the sports team which .+? is a member of) of (?P<S>.+) is (?P<O>.+)$`, ""},
		{`^(?P<S>.+)'s child is (?P<O>.+)$`, "child"},
		{`^(?P<S>.+?) (?P<P>was born in the city of|died in the city of|plays the position of|is located in the continent of|worked in the city of|is married to|was founded by|is associated with the sport of|is a citizen of|was performed by|is employed by|was founded in the city of|speaks the language of|is famous for|was created in the country of|was created by|is affiliated with the religion of|works in the field of|was developed by|was written in the language of|is a member of|plays|is) (?P<O>.+)$`, ""},
	}
	out := make([]struct {
		re  *regexp.Regexp
		rel string
	}, len(shapes))
	for i, s := range shapes {
		out[i].re = regexp.MustCompile(s.re)
		out[i].rel = s.rel
	}
	return out
}()

// SplitFact splits a fact sentence into subject, relation and object; ok is false for an unknown shape.
func SplitFact(sentence string) (Triple, bool) {
	s := strings.TrimSpace(sentence)
	s = strings.TrimSuffix(s, ".") // the line's full stop; an object's own "D.C." keeps its other dots
	for _, t := range factTemplates {
		m := t.re.FindStringSubmatch(s)
		if m == nil {
			continue
		}
		tr := Triple{Relation: t.rel}
		for i, name := range t.re.SubexpNames() {
			switch name {
			case "S":
				tr.Subject = m[i]
			case "O":
				tr.Object = m[i]
			case "P":
				tr.Relation = m[i]
			}
		}
		if tr.Subject != "" && tr.Object != "" && tr.Relation != "" {
			return tr, true
		}
	}
	return Triple{}, false
}

// factIndex answers which facts compete for one slot (subject + relation) and which is the newest.
type factIndex struct {
	conv   *Conversation
	facts  []Fact
	triple map[int64]Triple
	// slots maps "subject\x00relation" (case-folded) to its facts, oldest first.
	slots map[string][]Fact
}

func slotKey(t Triple) string {
	return strings.ToLower(t.Subject) + "\x00" + strings.ToLower(t.Relation)
}

func newFactIndex(facts []Fact) *factIndex {
	idx := &factIndex{facts: facts, triple: map[int64]Triple{}, slots: map[string][]Fact{}}
	for _, f := range facts {
		t, ok := SplitFact(f.Text)
		if !ok {
			continue
		}
		idx.triple[f.N] = t
		idx.slots[slotKey(t)] = append(idx.slots[slotKey(t)], f)
	}
	return idx
}

// newest reports whether fact n is the newest fact of its slot.
func (x *factIndex) newest(n int64) bool {
	t, ok := x.triple[n]
	if !ok {
		return false
	}
	s := x.slots[slotKey(t)]
	return s[len(s)-1].N == n
}

// stale returns the objects of the slot of fact n that differ from its own object (the overridden values).
func (x *factIndex) stale(n int64) []string {
	t := x.triple[n]
	var out []string
	for _, f := range x.slots[slotKey(t)] {
		if o := x.triple[f.N].Object; f.N != n && !strings.EqualFold(o, t.Object) {
			out = append(out, o)
		}
	}
	return out
}

// annotate reconstructs how the question's gold answer follows from the facts: the chain of newest facts
// from an entity named in the question to the gold (one hop for single-hop questions), and from it whether
// the question is conflicted and which stale values a reader could be misled by.
func (x *factIndex) annotate(q *Question) {
	if len(q.Golds) == 0 {
		return
	}
	maxHops := 1
	if q.Category == "multi-hop" {
		maxHops = 4
	}
	chain := x.chain(strings.ToLower(q.Text), q.Golds[0], maxHops, true)
	if chain == nil {
		// A few published golds follow an overridden fact: say which, so a miss is not blamed on the system.
		if c := x.chain(strings.ToLower(q.Text), q.Golds[0], maxHops, false); c != nil {
			var old []string
			for _, n := range c {
				if !x.newest(n) {
					old = append(old, strconv.FormatInt(n, 10))
				}
			}
			q.GoldNote = "the gold follows overridden fact(s) " + strings.Join(old, ", ") + "; the newest facts give another answer"
		}
		return
	}
	q.Chain = chain
	conflicted := false
	var stale []string
	q.StaleTurns = map[string][]string{}
	for _, n := range chain {
		s := x.stale(n)
		if len(s) > 0 {
			conflicted = true
		}
		stale = append(stale, s...)
		t := x.triple[n]
		for _, f := range x.slots[slotKey(t)] {
			if f.N != n && !strings.EqualFold(x.triple[f.N].Object, t.Object) {
				q.StaleTurns[factTurnID(n)] = append(q.StaleTurns[factTurnID(n)], factTurnID(f.N))
			}
		}
	}
	q.Conflicted = &conflicted
	q.Stale = sortedUnique(stale)
}

// chain searches backwards from the gold object: a newest fact whose object is the gold, whose subject is
// the object of another newest fact, ... until a subject named in the question. The shortest chain wins;
// among equals, the one with the smallest fact numbers (deterministic). With newestOnly false, overridden
// facts may be links too.
func (x *factIndex) chain(question, gold string, maxHops int, newestOnly bool) []int64 {
	usable := func(n int64) bool { return !newestOnly || x.newest(n) }
	type path struct{ facts []int64 } // newest-first while searching
	var frontier []path
	for _, f := range x.facts {
		if t, ok := x.triple[f.N]; ok && usable(f.N) && strings.EqualFold(strings.TrimSuffix(t.Object, "."), strings.TrimSuffix(gold, ".")) {
			frontier = append(frontier, path{[]int64{f.N}})
		}
	}
	for hop := 1; hop <= maxHops && len(frontier) > 0; hop++ {
		var done [][]int64
		for _, p := range frontier {
			subj := x.triple[p.facts[len(p.facts)-1]].Subject
			if mentions(question, subj) {
				c := slices.Clone(p.facts)
				slices.Reverse(c)
				done = append(done, c)
			}
		}
		if len(done) > 0 {
			slices.SortFunc(done, slices.Compare[[]int64])
			return done[0]
		}
		var next []path
		for _, p := range frontier {
			subj := x.triple[p.facts[len(p.facts)-1]].Subject
			for _, f := range x.facts {
				t, ok := x.triple[f.N]
				if ok && usable(f.N) && strings.EqualFold(t.Object, subj) && !slices.Contains(p.facts, f.N) {
					next = append(next, path{append(slices.Clone(p.facts), f.N)})
				}
			}
		}
		frontier = next
	}
	return nil
}

// mentions reports whether the (lower-cased) question names the entity, as whole words.
func mentions(question, entity string) bool {
	e := strings.ToLower(strings.TrimSpace(entity))
	if e == "" {
		return false
	}
	for i := 0; ; {
		j := strings.Index(question[i:], e)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(e)
		if (start == 0 || !isWordByte(question[start-1])) && (end == len(question) || !isWordByte(question[end])) {
			return true
		}
		i = start + 1
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80
}
