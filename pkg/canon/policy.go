package canon

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
)

// builtinFunctional lists predicate keys (after PredicateKey) of single-valued relations: a new value
// supersedes the old one. Entries ending in "*" match every key with that prefix.
//
// Where the list comes from, and why it is general: it is the relations of everyday English that hold one
// value at a time for one subject, in three groups. (1) The single-value constraints of Wikidata's most used
// properties of people and organizations: place and date of birth and of death, father, mother, spouse,
// capital, head of state and of government, chief executive, chairperson, headquarters, official name.
// (2) The attributes a person has one of at a time, as forms and profiles ask for them: where they live,
// where they work and as what, age, name, relationship status, contact details, height and weight, religion,
// native language, the school a child attends, the emergency contact a form asks for (one next of kin to call);
// and who heads an organization (its head, leader, chair).
// (3) The place and time of a one-time event (born, died, founded, created, invented, built, released):
// an event happens once. Quantities a person tracks (budget, rent, salary, price, deadline, score, version)
// have one current value. Nothing here is taken from a benchmark's phrasing; relations outside the list
// are still single-valued when the sentence says so — a definite description ("the capital of X", "X's
// wife") or a change cue ("moved to", "joined", "now") — which the extractor marks on the claim.
var builtinFunctional = []string{
	// where someone or something is
	"lives_in", "lives_at", "located_in", "based_in", "headquartered_in", "headquarters", "headquarters_*",
	"hometown", "current_city", "address", "from", "comes_from", "origin", "moves_to",
	// work
	"works_at", "works_for", "works_in", "works_as", "employer", "employed_by", "employed_at", "job", "job_title",
	"occupation", "profession", "position", "role", "job_status", "school", "manager", "boss", "ceo",
	"chief_executive_officer", "chairperson", "chair", "director", "president", "prime_minister",
	"head_of_state", "head_of_government", "head", "leader", "mayor", "governor", "owner",
	// family and relationships
	"spouse", "married_to", "wife", "husband", "partner", "girlfriend", "boyfriend", "fiance", "engaged_to",
	"relationship_status", "mother", "father",
	// identity
	"age", "name", "full_name", "nickname", "gender", "pronouns", "email", "phone", "phone_number", "emergency_contact",
	"birthday", "date_of_birth", "birthplace", "place_of_birth", "place_of_death", "date_of_death",
	"nationality", "height", "weight", "native_language", "first_language", "religion",
	// the place and time of one-time events
	"born_in", "born_on", "died_in", "died_on", "founded_in", "founded_on", "created_in", "invented_in",
	"built_in", "released_in", "released_on", "established_in",
	// things with one current value
	"capital", "capital_of", "currency", "population", "official_name", "status", "price", "cost", "deadline", "due_date",
	"version", "rent", "salary", "budget", "score", "balance",
	// the same quantities of one thing ("the laptop budget", "the flat rent"): one current value each
	"*_budget", "*_rent", "*_price", "*_cost", "*_deadline", "*_due_date", "*_salary",
	// preferences stated as one value; the diet one keeps
	"favourite_*", "favourite", "preferred_*", "diet",
}

// builtinAccumulating lists predicate keys that collect many values (and the fallback predicates of
// sentence-level claims). They are accumulating even when a configured prefix would match them.
var builtinAccumulating = []string{
	"said", "mentioned", "asked", "says", "likes", "loves", "enjoys", "hates", "has", "owns", "visits",
	"goes_to", "attends", "plays", "reads", "writes", "child", "children", "sibling", "friend", "friends",
	"hobby", "hobbies", "interest", "interests", "speaks", "pet", "pets", "member_of", "skill", "skills",
	"goal", "goals", "plan", "plans", "event", "activity", "activities", "experience", "uses", "wants",
	"needs", "studies",
}

// PolicyConfig is the configuration of the predicate policy. Services embed it in their Config, so
// config.Load fills it from the environment.
type PolicyConfig struct {
	// Functional lists extra single-valued predicates (comma-separated phrases or keys; "x_*" matches the
	// prefix x_, "*_x" the suffix _x; "*" alone makes every predicate not listed as accumulating functional).
	Functional []string `env:"MNEME_FUNCTIONAL_PREDICATES" envSeparator:","`
	// Accumulating lists predicates that are never functional, overriding the built-in functional list.
	Accumulating []string `env:"MNEME_ACCUMULATING_PREDICATES" envSeparator:","`
	// File names a JSON file {"functional":[...],"accumulating":[...]} read in addition to the lists above.
	File string `env:"MNEME_PREDICATE_POLICY_FILE"`
}

// PolicyFile is the format of MNEME_PREDICATE_POLICY_FILE.
type PolicyFile struct {
	Functional   []string `json:"functional"`
	Accumulating []string `json:"accumulating"`
}

// Policy decides whether a predicate is functional (single-valued: a new value supersedes the old one) or
// accumulating (values add up). Configuration overrides the built-in lists: configured accumulating beats
// everything, then configured functional, then the built-in lists; unknown predicates are accumulating unless
// "*" was configured as functional. A Policy is immutable and safe for concurrent use.
type Policy struct {
	confAcc, confFun   rules
	builtAcc, builtFun rules
	allFunctional      bool
	version            string
}

type rules struct {
	exact    map[string]bool
	prefixes []string
	suffixes []string
}

func (r rules) match(key string) bool {
	if r.exact[key] {
		return true
	}
	for _, p := range r.prefixes {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	for _, x := range r.suffixes {
		if strings.HasSuffix(key, x) {
			return true
		}
	}
	return false
}

func newRules(entries []string) (rules, bool) {
	r := rules{exact: map[string]bool{}}
	all := false
	for _, e := range entries {
		e = strings.TrimSpace(e)
		switch {
		case e == "":
		case e == "*":
			all = true
		case strings.HasPrefix(e, "*_") || strings.HasPrefix(e, "* "):
			// A suffix keeps its leading separator: "*_budget" matches "laptop_budget", not "budget" alone.
			if x := PredicateKey(e[2:]); x != "" {
				r.suffixes = append(r.suffixes, "_"+x)
			}
		case strings.HasSuffix(e, "*"):
			// A prefix keeps its trailing separator: "favourite_*" matches "favourite_color", not "favourites".
			p := PredicateKey(strings.TrimSuffix(e, "*"))
			if strings.HasSuffix(strings.TrimSpace(strings.TrimSuffix(e, "*")), "_") || strings.HasSuffix(strings.TrimSuffix(e, "*"), " ") {
				p += "_"
			}
			if p != "" && p != "_" {
				r.prefixes = append(r.prefixes, p)
			}
		default:
			if k := PredicateKey(e); k != "" {
				r.exact[k] = true
			}
		}
	}
	sort.Strings(r.prefixes)
	sort.Strings(r.suffixes)
	return r, all
}

// BuiltinFunctional returns the built-in functional predicate keys, prefixes ("x_*") and suffixes ("*_x").
func BuiltinFunctional() []string { return append([]string(nil), builtinFunctional...) }

// BuiltinAccumulating returns the built-in accumulating predicate keys.
func BuiltinAccumulating() []string { return append([]string(nil), builtinAccumulating...) }

// DefaultPolicy is the built-in policy with no configuration.
func DefaultPolicy() *Policy { return NewPolicy(nil, nil) }

// NewPolicy returns the built-in policy extended by configured functional and accumulating predicates
// (phrases or keys; "x_*" prefixes, "*_x" suffixes; "*" in functional makes unknown predicates functional).
func NewPolicy(functional, accumulating []string) *Policy {
	p := &Policy{}
	p.builtFun, _ = newRules(builtinFunctional)
	p.builtAcc, _ = newRules(builtinAccumulating)
	p.confFun, p.allFunctional = newRules(functional)
	p.confAcc, _ = newRules(accumulating)
	h := sha256.New()
	for _, part := range [][]string{builtinFunctional, builtinAccumulating, normalized(functional), normalized(accumulating)} {
		fmt.Fprintf(h, "%d|%s\n", len(part), strings.Join(part, ","))
	}
	p.version = "p2-" + hex.EncodeToString(h.Sum(nil))[:12]
	return p
}

func normalized(entries []string) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if e = strings.TrimSpace(e); e != "" {
			out = append(out, e)
		}
	}
	sort.Strings(out)
	return out
}

// Policy builds the policy the configuration describes, reading File when set.
func (c PolicyConfig) Policy() (*Policy, error) {
	fun := append([]string(nil), c.Functional...)
	acc := append([]string(nil), c.Accumulating...)
	if c.File != "" {
		f, err := LoadPolicyFile(c.File)
		if err != nil {
			return nil, err
		}
		fun = append(fun, f.Functional...)
		acc = append(acc, f.Accumulating...)
	}
	return NewPolicy(fun, acc), nil
}

// LoadPolicyFile reads a JSON policy file {"functional":[...],"accumulating":[...]}.
func LoadPolicyFile(path string) (PolicyFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return PolicyFile{}, fmt.Errorf("canon: MNEME_PREDICATE_POLICY_FILE: %w", err)
	}
	var f PolicyFile
	if err := json.Unmarshal(b, &f); err != nil {
		return PolicyFile{}, fmt.Errorf("canon: MNEME_PREDICATE_POLICY_FILE %s is not JSON of the form {\"functional\":[...],\"accumulating\":[...]}: %w", path, err)
	}
	return f, nil
}

// PolicyFromEnv builds the policy from MNEME_FUNCTIONAL_PREDICATES, MNEME_ACCUMULATING_PREDICATES (comma
// lists) and MNEME_PREDICATE_POLICY_FILE, for callers that do not embed PolicyConfig.
func PolicyFromEnv() (*Policy, error) {
	return PolicyConfig{
		Functional:   splitList(os.Getenv("MNEME_FUNCTIONAL_PREDICATES")),
		Accumulating: splitList(os.Getenv("MNEME_ACCUMULATING_PREDICATES")),
		File:         os.Getenv("MNEME_PREDICATE_POLICY_FILE"),
	}.Policy()
}

func splitList(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// Functional reports whether the predicate key (or phrase; it is canonicalized) names a single-valued
// attribute.
func (p *Policy) Functional(predicateKey string) bool {
	f, _ := p.Lookup(predicateKey)
	return f
}

// Lookup is Functional plus whether the policy knows the predicate (a built-in or configured entry, or a
// configured "*"). Callers with their own hint for unknown predicates — such as an LLM's judgement — use
// the hint only when known is false.
func (p *Policy) Lookup(predicateKey string) (functional, known bool) {
	if p == nil {
		p = defaultPolicy
	}
	k := PredicateKey(predicateKey)
	if c := RelationKey(k); c != k && !p.confAcc.match(k) && !p.confFun.match(k) && !p.builtAcc.exact[k] && !p.builtFun.match(k) && !p.builtAcc.match(k) {
		// A key the lists do not name is looked up as its relation ("employer" as works_at).
		k = c
	}
	switch {
	case p.confAcc.match(k):
		return false, true
	case p.confFun.match(k):
		return true, true
	case p.builtAcc.exact[k]:
		return false, true
	case p.builtFun.match(k):
		return true, true
	case p.builtAcc.match(k):
		return false, true
	}
	return p.allFunctional, p.allFunctional
}

// Version identifies the policy's effective configuration (built-in lists plus configuration); it changes
// when either changes, so decisions can record which policy made them.
func (p *Policy) Version() string {
	if p == nil {
		return defaultPolicy.version
	}
	return p.version
}

var defaultPolicy = DefaultPolicy()
