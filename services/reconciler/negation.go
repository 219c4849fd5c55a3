package reconciler

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Negation contradictions. A negated claim ("Alice has never used Zotero") and a positive claim of the same
// subject about the same thing ("Alice downloaded Zotero") cannot both be right, yet neither supersedes the other:
// they are usually in different slots (different predicates), and which one is wrong is for the user to say, not
// for valid time — the negation may be the later statement or the earlier one. So the reconciler records a
// contradiction link between them and leaves both statuses alone; the query service surfaces the two together,
// flagged, so a reader asks which is right.
//
// The test is symmetric and depends on the two claims only (never on what else arrived, or when), so the set of
// links is the same for every arrival order and every replay: opposite polarity, same subject, same slot tier
// owner (shared with shared; private with private claims of the same agent — a link never crosses tiers, so it
// can never reveal a private claim to another agent), the same embedding model, cosine similarity of the claim
// text embeddings at or above MNEME_RECONCILER_NEGATION_SIMILARITY, and shared content: two content words in
// common, or one name (a word capitalized inside both texts: "Zotero", "Flask", "API"). The embedding alone
// relates too much in a conversation that stays on one topic, and one shared common word ("problems",
// "project") too: on BEAM's never-statements they linked a negation to about 45 claims of its speaker, against 14
// with this rule, which keeps 21 of the 23 source pairs the looser rule found (docs/architecture.md). A link is
// recorded when the second of the two claims arrives, with a decision row (operator "negation") naming both.

const (
	// negatedPrefix marks the predicate keys (and so the slots) of negated claims in subject_predicates:
	// "not:has_used" is another slot than "has_used".
	negatedPrefix = "not:"
	// methodNegation is the contradictions.method of links between a negated and a positive claim.
	methodNegation = "negation"
	// operatorNegation is the decisions.operator of the decision that records negation links.
	operatorNegation = "negation"
)

// polarKey is the predicate key of a claim with its polarity.
func polarKey(predicateKey string, negated bool) string {
	if negated {
		return negatedPrefix + predicateKey
	}
	return predicateKey
}

// negatedKey reports whether a polarity-qualified predicate key is a negated one.
func negatedKey(key string) bool { return strings.HasPrefix(key, negatedPrefix) }

// polarClaim is what the contradiction test needs of a claim.
type polarClaim struct {
	id, scope, owner, model string
	negated                 bool
	vec                     []float32
	words                   []string // distinct content words, sorted
	names                   []string // the content words written capitalized inside the text, sorted
}

// polarSet is a subject's claims loaded for the test: its negated claims always, its positive claims only when
// the segment brings a negated claim of the subject (positives is then set); plus the segment's newcomers.
type polarSet struct {
	positives bool
	claims    []*polarClaim
}

func newPolarClaim(id, scope, owner, model string, negated bool, vec []float32, text, subject string) *polarClaim {
	if scope == string(event.ScopeShared) {
		owner = ""
	}
	words, names := contentWords(text, subject)
	return &polarClaim{id: id, scope: scope, owner: owner, model: model, negated: negated, vec: vec,
		words: words, names: names}
}

// contradictionLink is one partner a newcomer contradicts.
type contradictionLink struct {
	id  string
	sim float64
}

// linkContradictions tests the newcomer of item it (in slot tier k) against the claims of the other polarity
// known for its subject and records a link, and one decision, for those it contradicts.
func (d *decider) linkContradictions(it *item, k tierKey) {
	if !d.cfg.NegationLinks {
		return
	}
	c := it.claim
	ps := d.st.polar[subjKey{c.Workspace, c.SubjectKey}]
	if ps == nil {
		return
	}
	n := newPolarClaim(c.ClaimID, string(c.Scope), c.Provenance.AgentID, c.Embedding.Model, c.Negated, c.Embedding.Values, c.Text, c.Subject)
	var links []contradictionLink
	for _, o := range ps.claims {
		if o.negated == n.negated || o.scope != n.scope || o.owner != n.owner || o.model != n.model || len(o.vec) != len(n.vec) || o.id == n.id {
			continue
		}
		sim := embedding.Cosine(o.vec, n.vec)
		if sim < d.cfg.NegationSimilarity || !(countShared(o.words, n.words) >= 2 || countShared(o.names, n.names) >= 1) {
			continue
		}
		links = append(links, contradictionLink{o.id, sim})
	}
	ps.claims = append(ps.claims, n)
	if len(links) == 0 {
		return
	}
	slices.SortFunc(links, func(a, b contradictionLink) int { return cmp.Compare(a.id, b.id) })
	at := it.msg.Time
	decisionID := event.DeterministicID("negation", fmt.Sprint(d.partition), fmt.Sprint(it.msg.Seq), c.ClaimID)
	inputs := []string{n.id}
	whys := []string{fmt.Sprintf("%s over %d claims", operatorNegation, len(links)+1)}
	for _, l := range links {
		a, b := n.id, l.id
		if b < a {
			a, b = b, a
		}
		d.out.Contradictions = append(d.out.Contradictions, store.ContradictionRow{ClaimA: a, ClaimB: b, Workspace: c.Workspace,
			SubjectKey: c.SubjectKey, Method: methodNegation, Similarity: l.sim, DecisionID: decisionID, RecordedAt: at})
		inputs = append(inputs, l.id)
		neg, pos := n.id, l.id
		if !n.negated {
			neg, pos = pos, neg
		}
		whys = append(whys, fmt.Sprintf("%s (negated) contradicts %s (cosine %.4f >= %g, shared content)", neg, pos, l.sim, d.cfg.NegationSimilarity))
	}
	slices.Sort(inputs)
	d.out.Decisions = append(d.out.Decisions, store.DecisionRow{ID: decisionID, Workspace: k.ws, SubjectKey: k.subject,
		SlotKey: k.slot, Scope: k.scope, OwnerAgent: k.owner, Operator: operatorNegation, PolicyVersion: d.policy.Version(),
		Inputs: inputs, Outcome: "contradicted", Reason: strings.Join(whys, "; "), DecidedAt: at, Partition: d.partition,
		StreamSeq: int64(it.msg.Seq)})
}

// contentWords returns the distinct words of a claim's text that say what it is about (lower case, a plural "s"
// dropped, without the subject's own words, function words, negations and the verbs every claim uses), and
// those of them written with a capital letter anywhere but at the start of the text: names of people, places,
// products.
func contentWords(text, subject string) (words, names []string) {
	skip := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(subject), notWordRune) {
		skip[w] = true
	}
	for i, raw := range strings.FieldsFunc(text, notWordRune) {
		w := strings.ToLower(raw)
		w = strings.TrimSuffix(strings.Trim(w, "'-."), "'s")
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
			w = w[:len(w)-1]
		}
		if len(w) < 2 || skip[w] || linkStopwords[w] {
			continue
		}
		words = append(words, w)
		if r, _ := utf8.DecodeRuneInString(raw); i > 0 && unicode.IsUpper(r) {
			names = append(names, w)
		}
	}
	slices.Sort(words)
	slices.Sort(names)
	return slices.Compact(words), slices.Compact(names)
}

func notWordRune(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\'' && r != '-' && r != '.'
}

// countShared counts the words two sorted, distinct word lists have in common.
func countShared(a, b []string) int {
	n, i, j := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch c := strings.Compare(a[i], b[j]); {
		case c == 0:
			n++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return n
}

// linkStopwords carry no topic: function words, negations, auxiliaries and verbs of every other claim.
var linkStopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the this that these those it its it's i me my mine we us our you your he him his
		she her they them their there here who whom whose which what when where why how all any some no none not never
		n't nor neither either ever yet before after again also just only even still really very actually already
		and or but so because since though although if then than as of to in on at by for with from into onto about
		over under up down out off through between among around per via be is are was were been being am do does did
		done doing have has had having will would can could should may might must shall get got gotten getting make
		made making use used using uses try tried trying want wanted need needed like said say says tell told know
		known think thought help new first one more most much many lot thing things way time times sure able well
		good bit kind kinda something anything everything nothing someone anyone everyone user assistant currently
		now today recently still past last next another other same such each every both few own too quite`) {
		m[w] = true
	}
	return m
}()
