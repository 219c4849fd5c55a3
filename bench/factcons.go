package bench

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/bench/factcons"
)

// FactConsolidationEpoch is the valid time given to every fact of a FactConsolidation context: the list is
// one snapshot, and its order (a larger number is a newer fact) travels as the turn sequence.
var FactConsolidationEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// LoadFactConsolidation reads MemoryAgentBench FactConsolidation rows (a JSON list of
// {context, questions, answers, metadata}). Rows with the same context share one conversation, whose turns
// are the numbered facts ("N. <fact>.", sequence N, turn id "fact-N"). Single-hop rows (source containing
// "_sh_") give category single-hop, multi-hop rows ("_mh_") multi-hop. Each question is marked conflicted
// when a fact its answer depends on was overridden by a newer fact about the same subject and relation.
func LoadFactConsolidation(path string) (*Dataset, error) {
	rows, err := factcons.Load(path)
	if err != nil {
		return nil, err
	}
	d := &Dataset{Bench: FactConsolidation, Source: path}
	contexts := map[string]*factIndex{}
	for ri, r := range rows {
		source := r.Metadata.Source
		if source == "" {
			source = "row" + strconv.Itoa(ri)
		}
		idx, ok := contexts[r.Context]
		if !ok {
			facts := factcons.Facts(r.Context)
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
			q := &Question{ID: id, ConversationID: idx.conv.ID, Text: text, Golds: r.Answers[qi], Row: source, Category: category}
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

// factSessionTokens approximates MemoryAgentBench's 4,096-token context chunks by fact count; sessions only
// group turns for display, ingestion sends one turn per fact either way.
const factsPerSession = 150

func factSessions(facts []factcons.Fact) []Session {
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

// factIndex answers which facts compete for one slot (subject + predicate) and which is the newest.
type factIndex struct {
	conv   *Conversation
	facts  []factcons.Fact
	triple map[int64]factcons.Triple
	// slots maps "subject\x00predicate" (case-folded) to its facts, oldest first.
	slots map[string][]factcons.Fact
}

func slotKey(t factcons.Triple) string {
	return strings.ToLower(t.Subject) + "\x00" + strings.ToLower(t.Predicate)
}

func newFactIndex(facts []factcons.Fact) *factIndex {
	idx := &factIndex{facts: facts, triple: map[int64]factcons.Triple{}, slots: map[string][]factcons.Fact{}}
	for _, f := range facts {
		t, ok := factcons.Split(f.Text)
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
			q.OverriddenChain = c
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
