package query

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Relation matching decides which attribute of an entity a question asks about, without an LLM. A claim's
// relation words are the content words of its predicate plus the words of its sentence outside the subject
// and object ("The author of X is Y" → author; "X was born in the city of Y" → born, city). A question's cue
// words are its content words outside the entity mention. A relation word matches a cue word when their
// stems are equal, or — scaled down — when both belong to one relation family of the lexicon below: a small
// table of how English names common relations (in the spirit of Wikidata property aliases), so "spouse",
// "partner" and "married" meet, and so do "pass away" and "died".

// family is a group of words naming one relation; weak words hint at it but also occur elsewhere.
type family struct {
	name         string
	strong, weak []string
}

var families = []family{
	{"spouse", []string{"spouse", "wife", "husband", "married", "marry", "marriage", "partner", "wed", "wedded"}, nil},
	{"death", []string{"die", "died", "dies", "death", "dead", "deceased", "perish", "perished"}, []string{"pass", "passed", "away", "breathe", "breath", "last", "buried"}},
	{"birth", []string{"born", "birth", "birthplace", "native"}, []string{"hometown", "origin"}},
	{"citizenship", []string{"citizen", "citizenship", "nationality", "national", "passport"}, []string{"country", "belong", "belongs", "hold", "holds", "come", "comes", "hail", "hails", "from", "member", "part"}},
	{"origin", []string{"origin", "originate", "originated", "originates", "invented", "invent"}, []string{"created", "create", "creation", "come", "comes", "from", "develop", "developed", "first", "rise", "hail", "hails", "birthplace", "established", "made", "country", "arise", "arose", "existence", "began", "start", "started"}},
	{"capital", []string{"capital"}, []string{"city"}},
	{"continent", []string{"continent"}, []string{"located", "location"}},
	{"position", []string{"position", "specialty", "specialise", "specialize", "specializes", "specialized"}, []string{"play", "plays", "played", "role", "serve", "served"}},
	{"sport", []string{"sport", "sports"}, []string{"play", "plays", "played", "compete", "competed", "game", "associated"}},
	{"author", []string{"author", "writer", "wrote", "authored"}, []string{"write", "written", "creator", "created"}},
	{"language", []string{"language", "languages", "speak", "speaks", "spoken", "tongue"}, []string{"write", "written", "sign", "signed", "official", "communication", "communications"}},
	{"occupation", []string{"occupation", "profession", "professional", "job", "career", "field"}, []string{"work", "works", "role", "title"}},
	{"employer", []string{"employer", "employ", "employs", "employed", "employee"}, []string{"work", "works", "worked", "company", "organization", "organisation", "member", "part"}},
	{"workplace", []string{"workplace"}, []string{"work", "works", "worked", "location", "hours", "city"}},
	{"founder", []string{"found", "founded", "founder", "founding", "establish", "established", "cofounder"}, []string{"start", "started", "responsible", "create", "created"}},
	{"headquarters", []string{"headquarters", "headquarter", "headquartered", "hq"}, []string{"based", "located", "location", "office"}},
	{"ceo", []string{"ceo", "executive"}, []string{"chief", "officer", "head"}},
	{"chair", []string{"chair", "chairperson", "chairman", "chairwoman"}, []string{"president", "head", "leader"}},
	{"director", []string{"director", "manager", "management"}, []string{"head", "manage", "managed", "managing"}},
	{"head_of_state", []string{"monarch", "king", "queen", "president"}, []string{"head", "state", "chief", "leader"}},
	{"head_of_government", []string{"government", "premier", "mayor", "prime", "minister", "chancellor"}, []string{"head", "chief", "leader", "executive"}},
	{"developer", []string{"developer", "develop", "developed"}, []string{"made", "make", "built", "company"}},
	{"manufacturer", []string{"manufacturer", "manufactured", "manufacture", "produced", "producer", "produce", "maker"}, []string{"made", "make", "company", "built"}},
	{"performer", []string{"performer", "performed", "perform", "performs", "singer", "sang", "sung", "actor", "actress", "portrayed", "played"}, []string{"artist", "band", "play", "sing"}},
	{"creator", []string{"creator", "created", "create", "invented", "inventor"}, []string{"made", "author"}},
	{"famous", []string{"famous", "known", "notable", "renowned", "famed"}, []string{"work", "creation", "significant", "associated"}},
	{"religion", []string{"religion", "religious", "faith", "denomination"}, []string{"affiliated", "affiliation", "belief", "believe", "follow", "follows", "church", "associated"}},
	{"genre", []string{"genre", "music", "musical"}, []string{"type", "kind", "style"}},
	{"child", []string{"child", "children", "son", "daughter", "offspring"}, []string{"successor", "heir", "descendant"}},
	{"education", []string{"educated", "education", "educational", "university", "college", "school", "alma", "studied", "graduated", "attended"}, []string{"institution", "study", "received"}},
	{"broadcaster", []string{"broadcaster", "broadcast", "broadcasted", "network", "channel", "aired"}, []string{"original", "originally"}},
	{"location", []string{"located", "location"}, []string{"where", "place", "situated", "lies"}},
}

// familyWeight of strong and weak members, and the scale of a family match against an exact stem match.
const (
	strongMember = 1.0
	weakMember   = 0.5
	familyScale  = 0.85
)

// membership maps a stem to the families it belongs to and how strongly.
var membership = func() map[string]map[int]float64 {
	m := map[string]map[int]float64{}
	add := func(w string, fam int, wt float64) {
		s := stem(strings.ToLower(w))
		if m[s] == nil {
			m[s] = map[int]float64{}
		}
		if wt > m[s][fam] {
			m[s][fam] = wt
		}
	}
	for i, f := range families {
		for _, w := range f.strong {
			add(w, i, strongMember)
		}
		for _, w := range f.weak {
			add(w, i, weakMember)
		}
	}
	return m
}()

// wordSim is how well relation stem r matches question stem q: 1 for the same stem, else the best shared
// family scaled by the weaker membership.
func wordSim(r, q string) float64 {
	if r == q {
		return 1
	}
	mr, mq := membership[r], membership[q]
	best := 0.0
	for f, wr := range mr {
		if wq, ok := mq[f]; ok {
			if s := min(wr, wq) * familyScale; s > best {
				best = s
			}
		}
	}
	return best
}

// relWord is one relation word of a claim. Words of the predicate carry full weight; words found only in the
// claim's sentence carry less, because a sentence may also hold leftovers of a name or value that extraction
// cut short ("Charles Frederick, Duke of ...").
type relWord struct {
	stem   string
	weight float64
}

// residualWeight is the weight of a relation word found only in the sentence.
const residualWeight = 0.3

// relationWords returns the relation words of a claim: content words of its predicate, plus content words of
// its sentence that are not part of the subject or the object and are not capitalized mid-sentence (names).
// Deduplicated, in order.
func relationWords(c *store.Belief) []relWord {
	seen := map[string]bool{}
	var out []relWord
	add := func(s string, w float64) {
		if !seen[s] && !stopwords[s] {
			seen[s] = true
			out = append(out, relWord{stem: s, weight: w})
		}
	}
	for _, w := range contentWords(strings.ReplaceAll(c.Predicate, "_", " ")) {
		add(w.stem, 1)
	}
	// The canonical relation key names the relation however it was said ("Thomas Kyd's birthplace is London"
	// is keyed born_in): a question may use either wording.
	if k := canon.RelationKey(c.PredicateKey); k != "" && k != canon.PredicateKey(c.Predicate) {
		for _, w := range contentWords(strings.ReplaceAll(k, "_", " ")) {
			add(w.stem, 0.5)
		}
	}
	for _, w := range sentenceResidual(c.Text, c.Subject, c.Object) {
		add(w.stem, residualWeight)
	}
	return out
}

// sentenceResidual returns the content words of text outside the first occurrences of subject and object,
// without capitalized words after the first (names).
func sentenceResidual(text, subject, object string) []word {
	low := strings.ToLower(text)
	orig := text
	cut := func(part string) {
		p := strings.ToLower(strings.TrimSpace(part))
		if p == "" {
			return
		}
		if i := strings.Index(low, p); i >= 0 && len(low) == len(orig) {
			low = low[:i] + " " + low[i+len(p):]
			orig = orig[:i] + " " + orig[i+len(p):]
		}
	}
	// The longer of the two first, so an object inside the subject's name (or the reverse) is not cut twice.
	if len(object) > len(subject) {
		cut(object)
		cut(subject)
	} else {
		cut(subject)
		cut(object)
	}
	var out []word
	for i, f := range strings.Fields(orig) {
		r, _ := utf8.DecodeRuneInString(f)
		if i > 0 && unicode.IsUpper(r) {
			continue
		}
		for _, w := range splitWords(f) {
			if !stopwords[w] {
				out = append(out, word{low: w, stem: stem(w), field: i})
			}
		}
	}
	return out
}

// cue is a question word available for matching, with its distance (in fields) from the anchor entity.
type cue struct {
	stem  string
	field int
	// text is the word as written (or the plain word an idiom means), for embedding.
	text string
}

// relationMatch scores a claim's relation words against the question's unconsumed cues. It returns the score
// (matched weight minus a penalty for relation words the question does not mention) and the indexes of the
// cues the match consumed.
func relationMatch(rel []relWord, cues []cue, used []bool) (float64, []int) {
	if len(rel) == 0 {
		return 0, nil
	}
	const unmatchedPenalty = 0.35
	score := 0.0
	var consumed []int
	for _, r := range rel {
		best, bi := 0.0, -1
		for i, c := range cues {
			if used[i] {
				continue
			}
			if s := wordSim(r.stem, c.stem); s > best {
				best, bi = s, i
			}
		}
		if bi >= 0 && best >= 0.4 {
			score += best
			consumed = append(consumed, bi)
		} else {
			score -= unmatchedPenalty * r.weight * relationWordWeight(r.stem)
		}
	}
	// A cue consumed for one relation word consumes the other cues of its families too ("country of
	// citizenship" is one relation, not two hops).
	taken := map[int]bool{}
	for _, i := range consumed {
		taken[i] = true
	}
	for i, c := range cues {
		if used[i] || taken[i] {
			continue
		}
		// Only generic words are swept up this way; a strong relation word ("sport" after "plays") names a
		// hop of its own.
		if strongest(c.stem) >= strongMember {
			continue
		}
		for _, r := range rel {
			if wordSim(r.stem, c.stem) >= 0.4 {
				taken[i] = true
				consumed = append(consumed, i)
				break
			}
		}
	}
	return score, consumed
}

// relationWordWeight discounts type nouns that many relations share ("city", "country"): missing one costs
// less than missing the verb of the relation.
func relationWordWeight(r string) float64 {
	switch r {
	case "citi", "countri", "locat", "place", "person", "compani", "organ":
		return 0.5
	}
	return 1
}

// strongest is the highest family membership of a stem (0 when it belongs to no family).
func strongest(s string) float64 {
	best := 0.0
	for _, wt := range membership[s] {
		best = max(best, wt)
	}
	return best
}

// idioms are multi-word ways of naming a relation, matched on stems; "*" matches any one word. Each is
// replaced by one plain word that the lexicon knows.
var idioms = func() []struct {
	pattern []string
	meaning string
} {
	raw := []struct{ phrase, meaning string }{
		{"pass away", "died"}, {"passed away", "died"}, {"passes away", "died"}, {"passing away", "died"},
		{"breathe * last", "died"}, {"breathed * last", "died"}, {"last breath", "died"}, {"breath * last", "died"},
		{"come into existence", "founded"}, {"came into existence", "founded"}, {"come into being", "founded"},
		{"came into being", "founded"}, {"give rise", "originated"}, {"gave rise", "originated"},
		{"work for", "employed"}, {"works for", "employed"}, {"worked for", "employed"}, {"working for", "employed"},
		{"alma mater", "educated"}, {"tied the knot", "married"}, {"set up", "founded"},
		{"notable work", "famous"}, {"significant creation", "famous"}, {"significant work", "famous"},
		{"best known", "famous"}, {"major work", "famous"}, {"known for", "famous"},
	}
	out := make([]struct {
		pattern []string
		meaning string
	}, len(raw))
	for i, r := range raw {
		for _, w := range strings.Fields(r.phrase) {
			if w != "*" {
				w = stem(w)
			}
			out[i].pattern = append(out[i].pattern, w)
		}
		out[i].meaning = r.meaning
	}
	return out
}()

// matchIdiom reports how many words at the start of ws form an idiom, and what it means.
func matchIdiom(ws []word) (int, string) {
	for _, id := range idioms {
		if len(ws) < len(id.pattern) {
			continue
		}
		ok := true
		for j, p := range id.pattern {
			if p != "*" && ws[j].stem != p {
				ok = false
				break
			}
		}
		if ok {
			return len(id.pattern), id.meaning
		}
	}
	return 0, ""
}
