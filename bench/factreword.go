package bench

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/bench/factcons"
)

// Pool names one of the disjoint sets of phrasings of the development data (FactConsolidation
// rewordings, conversation-updates dialogs).
type Pool string

// Pools: dev for development, check for measuring generalization (never tuned on), fresh, blind and everyday
// (FactConsolidation only) three later blind rewordings, each for a first-contact measurement and then for
// development.
const (
	PoolDev      Pool = "dev"
	PoolCheck    Pool = "check"
	PoolFresh    Pool = "fresh"
	PoolBlind    Pool = "blind"
	PoolEveryday Pool = "everyday"
)

// Pools lists the pools every data set has (FactConsolidation rewordings and conversation-updates dialogs).
var Pools = []Pool{PoolDev, PoolCheck}

// FactPools lists the pools of the FactConsolidation rewording.
var FactPools = []Pool{PoolDev, PoolCheck, PoolFresh, PoolBlind, PoolEveryday}

// ParsePool validates a pool name: one of FactPools (Pools, and PoolFresh, PoolBlind and PoolEveryday, which
// only the FactConsolidation rewording has).
func ParsePool(s string) (Pool, error) {
	for _, p := range FactPools {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("pool %q: use dev, check or (factconsolidation only) fresh, blind or everyday", s)
}

// Variant says which parts of the published FactConsolidation data a run rewords.
type Variant string

// Variants of FactConsolidation.
const (
	// VariantPublished is the data as published.
	VariantPublished Variant = "published"
	// VariantFacts rewords the facts and keeps the published questions.
	VariantFacts Variant = "facts"
	// VariantQuestions keeps the published facts and rewords the questions.
	VariantQuestions Variant = "questions"
	// VariantBoth rewords the facts and the questions.
	VariantBoth Variant = "both"
)

// Variants lists the variants in report order.
var Variants = []Variant{VariantPublished, VariantFacts, VariantQuestions, VariantBoth}

// ParseVariant validates a variant name.
func ParseVariant(s string) (Variant, error) {
	for _, v := range Variants {
		if string(v) == s {
			return v, nil
		}
	}
	return "", fmt.Errorf("variant %q: use published, facts, questions or both", s)
}

func (v Variant) facts() bool     { return v == VariantFacts || v == VariantBoth }
func (v Variant) questions() bool { return v == VariantQuestions || v == VariantBoth }

// RewordOptions configures RewordFactConsolidation.
type RewordOptions struct {
	Variant Variant
	Pool    Pool
	// Seed chooses the phrasing of each fact and question; the same seed gives the same text.
	Seed uint64
}

// RewordStats says how much of a dataset was reworded.
type RewordStats struct {
	Facts, FactsReworded         int
	Questions, QuestionsReworded int
	// Unmatched lists facts of no known shape, kept as published.
	Unmatched []string
	// Kept lists the questions kept as published: no answer chain could be reconstructed.
	Kept []string
	// Relations counts the facts per relation id.
	Relations map[string]int
}

// String summarizes the rewording for the report.
func (s RewordStats) String() string {
	return fmt.Sprintf("%d of %d facts and %d of %d questions reworded", s.FactsReworded, s.Facts, s.QuestionsReworded, s.Questions)
}

// parsedFact is a published fact split by its relation.
type parsedFact struct {
	rel  *factRelation
	s, o string
}

// factNumber splits a FactConsolidation turn "N. <fact>." into its number and the sentence without its
// final full stop.
var factNumber = regexp.MustCompile(`^(\d+)\.\s+(.+)$`)

// parsePublishedFact finds the relation of a published fact sentence (without the line's final full stop).
func parsePublishedFact(sentence string) (parsedFact, bool) {
	for i := range factRelations {
		r := &factRelations[i]
		m := r.Published.FindStringSubmatch(sentence)
		if m == nil {
			continue
		}
		s, o := m[r.Published.SubexpIndex("s")], m[r.Published.SubexpIndex("o")]
		if strings.TrimSpace(s) == "" || strings.TrimSpace(o) == "" {
			continue
		}
		return parsedFact{rel: r, s: s, o: o}, true
	}
	return parsedFact{}, false
}

// trimFactStop removes the line's own full stop; an object's abbreviation keeps its dot ("D.C.." → "D.C.").
func trimFactStop(s string) string { return strings.TrimSuffix(strings.TrimSpace(s), ".") }

// RewordFactConsolidation rewrites a FactConsolidation dataset (as LoadFactConsolidation returns it) in
// place with the phrasings of one pool: every fact in a phrasing of its relation (VariantFacts,
// VariantBoth), every question in a phrasing of the relation it asks — for multi-hop questions, the chain
// of relations from the entity the question names to the gold, reconstructed by the loader, as nested role
// phrases (VariantQuestions, VariantBoth). Gold answers, fact numbers, turn ids and the conflict
// annotations are unchanged: only the words change. A reworded context gets a new conversation id, so it
// is ingested into its own workspace.
func RewordFactConsolidation(d *Dataset, o RewordOptions) (RewordStats, error) {
	st := RewordStats{Relations: map[string]int{}}
	if d.Bench != FactConsolidation {
		return st, fmt.Errorf("reword: dataset is %s, not %s", d.Bench, FactConsolidation)
	}
	if _, err := ParsePool(string(o.Pool)); err != nil {
		return st, fmt.Errorf("reword: %w", err)
	}
	if _, err := ParseVariant(string(o.Variant)); err != nil {
		return st, fmt.Errorf("reword: %w", err)
	}
	if o.Variant == VariantPublished {
		return st, nil
	}
	renamed := map[string]string{}
	facts := map[string]map[int64]parsedFact{} // conversation id → fact number → fact
	for _, c := range d.Conversations {
		byN := map[int64]parsedFact{}
		facts[c.ID] = byN
		for si := range c.Sessions {
			for ti := range c.Sessions[si].Turns {
				t := &c.Sessions[si].Turns[ti]
				st.Facts++
				m := factNumber.FindStringSubmatch(t.Content)
				if m == nil {
					st.Unmatched = append(st.Unmatched, t.Content)
					continue
				}
				n, _ := strconv.ParseInt(m[1], 10, 64)
				pf, ok := parsePublishedFact(trimFactStop(m[2]))
				if !ok {
					st.Unmatched = append(st.Unmatched, t.Content)
					continue
				}
				byN[n] = pf
				st.Relations[pf.rel.ID]++
				if !o.Variant.facts() {
					continue
				}
				tmpl := choose(pf.rel.Facts.pool(o.Pool), o.Seed, "fact", c.ID, m[1])
				t.Content = m[1] + ". " + renderPhrasing(tmpl, pf.s, pf.o)
				st.FactsReworded++
			}
		}
		if o.Variant.facts() {
			id := fmt.Sprintf("%s-rw-%s-s%d", c.ID, o.Pool, o.Seed)
			renamed[c.ID] = id
			facts[id] = byN
			c.ID = id
		}
	}
	for _, q := range d.Questions {
		if id, ok := renamed[q.ConversationID]; ok {
			q.ConversationID = id
		}
		st.Questions++
		if !o.Variant.questions() {
			continue
		}
		chain := q.Chain
		if len(chain) == 0 {
			chain = q.OverriddenChain
		}
		text, ok := composeQuestion(facts[q.ConversationID], chain, o.Pool, o.Seed, q.ID)
		if !ok {
			st.Kept = append(st.Kept, q.ID)
			continue
		}
		q.Text = text
		st.QuestionsReworded++
	}
	return st, nil
}

// composeQuestion asks for the object of the chain's last fact, naming its subject by the roles of the
// facts before it: chain [author of X = A, A married to B, B citizen of C] asks "Which country is the
// spouse of the author of X a citizen of?". ok is false when a fact of the chain is unknown or the chain
// does not link (an object that is not the next subject).
func composeQuestion(facts map[int64]parsedFact, chain []int64, pool Pool, seed uint64, qid string) (string, bool) {
	if len(chain) == 0 {
		return "", false
	}
	var hops []parsedFact
	for i, n := range chain {
		f, ok := facts[n]
		if !ok {
			return "", false
		}
		if i > 0 && !strings.EqualFold(trimFactStop(hops[i-1].o), trimFactStop(f.s)) {
			return "", false
		}
		hops = append(hops, f)
	}
	desc := hops[0].s
	for i, h := range hops[:len(hops)-1] {
		roles := h.rel.Roles.pool(pool)
		if i > 0 {
			roles = withoutPossessive(roles)
		}
		desc = fillPhrasing(choose(roles, seed, "role", qid, strconv.Itoa(i)), desc, "")
	}
	qs := hops[len(hops)-1].rel.Questions.pool(pool)
	if len(hops) > 1 {
		qs = withoutPossessive(qs)
	}
	return renderPhrasing(choose(qs, seed, "question", qid), desc, ""), true
}

// withoutPossessive keeps the phrasings that do not put "'s" after the entity: a description ("the author
// of X") reads badly as a possessive.
func withoutPossessive(ps []string) []string {
	out := slices.DeleteFunc(slices.Clone(ps), func(p string) bool { return strings.Contains(p, "{s}'s") })
	if len(out) == 0 {
		return ps
	}
	return out
}

// choose picks one phrasing, deterministically from the seed and the item's key.
func choose(ps []string, seed uint64, key ...string) string {
	h := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], seed)
	h.Write(b[:])
	for _, k := range key {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return ps[h.Sum64()%uint64(len(ps))]
}

// renderPhrasing fills a sentence's phrasing (fillPhrasing) and capitalizes its first letter, as at the
// start of any sentence, unless the phrasing is typed in lower case.
func renderPhrasing(tmpl, s, o string) string {
	out := fillPhrasing(tmpl, s, o)
	if strings.HasPrefix(tmpl, "~") {
		return out
	}
	r, n := utf8.DecodeRuneInString(out)
	if unicode.IsLower(r) {
		return string(unicode.ToUpper(r)) + out[n:]
	}
	return out
}

// fillPhrasing replaces {s}, {o} and {a_o}; a leading "~" types the whole text in lower case.
func fillPhrasing(tmpl, s, o string) string {
	lower := strings.HasPrefix(tmpl, "~")
	tmpl = strings.TrimPrefix(tmpl, "~")
	out := strings.NewReplacer("{a_o}", indefinite(o)+" "+o, "{s}", s, "{o}", o).Replace(tmpl)
	// An object ending in its own abbreviation dot ends the sentence once ("Washington, D.C.").
	for strings.HasSuffix(out, "..") {
		out = strings.TrimSuffix(out, ".")
	}
	if lower {
		return strings.ToLower(out)
	}
	return out
}

// indefinite is the English indefinite article for a noun phrase: "an" before a vowel sound, judged by
// spelling (a few common exceptions where the spelling misleads).
func indefinite(w string) string {
	l := strings.ToLower(w)
	for _, p := range []string{"uni", "use", "usu", "eu", "one"} {
		if strings.HasPrefix(l, p) {
			return "a"
		}
	}
	for _, p := range []string{"hour", "honest", "honor", "honour", "heir"} {
		if strings.HasPrefix(l, p) {
			return "an"
		}
	}
	if l != "" && strings.ContainsRune("aeiou", rune(l[0])) {
		return "an"
	}
	return "a"
}

// WriteFactConsolidation writes a FactConsolidation dataset (a reworded one, typically) in the published
// row format: per context, one row of its single-hop and one of its multi-hop questions, the context as
// "Here is a list of facts:" and the numbered facts. It is for reading a variant, not for the repository.
func WriteFactConsolidation(d *Dataset, path string) error {
	if d.Bench != FactConsolidation {
		return fmt.Errorf("dataset is %s, not %s", d.Bench, FactConsolidation)
	}
	var rows []factcons.Row
	for _, c := range d.Conversations {
		var b strings.Builder
		b.WriteString("Here is a list of facts:")
		for _, t := range c.Turns() {
			b.WriteString("\n" + t.Content)
		}
		for _, cat := range []string{"single-hop", "multi-hop"} {
			var r factcons.Row
			r.Context = b.String()
			r.Metadata.Source = c.ID + " " + cat
			for _, q := range d.Questions {
				if q.ConversationID == c.ID && q.Category == cat {
					r.Questions = append(r.Questions, q.Text)
					r.Answers = append(r.Answers, q.Golds)
					r.Metadata.QAPairIDs = append(r.Metadata.QAPairIDs, q.ID)
				}
			}
			if len(r.Questions) > 0 {
				rows = append(rows, r)
			}
		}
	}
	out, err := json.MarshalIndent(rows, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(out, '\n'), 0o644)
}
