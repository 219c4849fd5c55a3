package reconciler

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// Policy is the declarative, versioned resolution policy: rules that map a claim's predicate, scope and source
// to an operator. Its Version is recorded in every decision, so a decision can always be traced to the rules
// that made it.
//
// The JSON file (MNEME_RECONCILER_POLICY_FILE) looks like
//
//	{"version": "2026-11-01",
//	 "rules": [
//	   {"predicate": "born_in|birthplace", "operator": "evidence"},
//	   {"predicate": "likes|visited", "functional": false},
//	   {"predicate": "has_pet", "judge": "exclusive"},
//	   {"predicate": "*", "source": "llm:*", "await_confirmation": {"timeout": "72h", "on_timeout": "accept"}},
//	   {"agent": "crawler-*", "trust": 0.3}
//	 ]}
//
// Slot-level properties (operator, functional, judge) are taken from the first rule that matches the slot
// (predicate pattern against the slot key, scope) and sets the property; rules naming a source or an agent may
// only set claim-level properties (await_confirmation, trust), because a slot's operator must not depend on
// which claim arrived first. Claim-level properties come from the first rule that matches the claim (predicate
// pattern against its predicate key or slot key, scope, source = the extractor name, agent) and sets them.
// Patterns are '|'-separated alternatives where '*' matches any run of characters.
//
// Trust (0..1, default 1) is how far a source is believed against others. It ranks before the operator: in a
// slot tier a claim that contradicts a current claim of a more trusted source is rejected (never superseding
// it, whatever its valid time or evidence), and one that restates it is represented by it; claims of equal
// trust are resolved by the operator as usual (resolve.Fold). A claim's trust is fixed when it arrives (stored
// in claims.trust) and named, with the rule that set it, in the reason of its decision. Combine a low trust with
// await_confirmation to hold an untrusted source's claims until a second source or a confirmation admits them.
type Policy struct {
	version string
	rules   []Rule
}

// Rule is one policy rule; empty match fields match everything.
type Rule struct {
	Predicate string `json:"predicate,omitempty"`
	Scope     string `json:"scope,omitempty"`
	Source    string `json:"source,omitempty"`
	Agent     string `json:"agent,omitempty"`

	// Operator ranks the slot's claims: "lww" (default) or "evidence".
	Operator string `json:"operator,omitempty"`
	// Functional overrides the claims' functional flag for the slot.
	Functional *bool `json:"functional,omitempty"`
	// Judge asks the LLM judge whether two claims contradict where rules cannot tell: "merged" (functional
	// slots: claims whose predicates were merged by similarity), "exclusive" (accumulating slots: any two
	// different objects) or "none" (default).
	Judge string `json:"judge,omitempty"`
	// AwaitConfirmation holds a claim that would change the slot's value until it is confirmed.
	AwaitConfirmation *AwaitRule `json:"await_confirmation,omitempty"`
	// Trust is the source trust (0..1) of the claims the rule matches; claims no rule gives a trust have 1.
	Trust *float64 `json:"trust,omitempty"`
}

// AwaitRule configures await-confirmation.
type AwaitRule struct {
	// Timeout, when set, ends the wait that long (in log time) after the claim arrived.
	Timeout string `json:"timeout,omitempty"`
	// OnTimeout is "accept" (admit the claim) or "reject" (default "accept").
	OnTimeout string `json:"on_timeout,omitempty"`
}

type policyFile struct {
	Version string `json:"version"`
	Rules   []Rule `json:"rules"`
}

// Judge modes.
const (
	judgeNone      = "none"
	judgeMerged    = "merged"
	judgeExclusive = "exclusive"
)

// BuiltinPolicy is the policy without a file: LWW for functional slots, accumulate otherwise, no gates.
func BuiltinPolicy() *Policy { return &Policy{version: "builtin-1"} }

// LoadPolicy reads a policy file; an empty path gives BuiltinPolicy.
func LoadPolicy(path string) (*Policy, error) {
	if path == "" {
		return BuiltinPolicy(), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reconciler: MNEME_RECONCILER_POLICY_FILE: %w", err)
	}
	p, err := ParsePolicy(b)
	if err != nil {
		return nil, fmt.Errorf("reconciler: MNEME_RECONCILER_POLICY_FILE %s: %w", path, err)
	}
	return p, nil
}

// ParsePolicy parses and validates a policy document.
func ParsePolicy(b []byte) (*Policy, error) {
	var f policyFile
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("policy is not valid JSON of the documented shape: %w", err)
	}
	if strings.TrimSpace(f.Version) == "" {
		return nil, errors.New(`policy "version" is required (any string; it is recorded in every decision)`)
	}
	var errs []error
	for i, r := range f.Rules {
		at := fmt.Sprintf("rules[%d]", i)
		if r.Scope != "" && r.Scope != "*" && r.Scope != "private" && r.Scope != "shared" {
			errs = append(errs, fmt.Errorf("%s.scope=%q: use private, shared or *", at, r.Scope))
		}
		if r.Operator != "" && !resolve.Ranker(r.Operator).Valid() {
			errs = append(errs, fmt.Errorf("%s.operator=%q: use lww or evidence", at, r.Operator))
		}
		switch r.Judge {
		case "", judgeNone, judgeMerged, judgeExclusive:
		default:
			errs = append(errs, fmt.Errorf("%s.judge=%q: use none, merged or exclusive", at, r.Judge))
		}
		if (r.Source != "" || r.Agent != "") && (r.Operator != "" || r.Functional != nil || r.Judge != "") {
			errs = append(errs, fmt.Errorf("%s: a rule with source or agent may only set await_confirmation and trust (operator, functional and judge are per slot)", at))
		}
		if r.Trust != nil && (math.IsNaN(*r.Trust) || *r.Trust < 0 || *r.Trust > 1) {
			errs = append(errs, fmt.Errorf("%s.trust=%g: use a number from 0 (not trusted) to 1 (fully trusted, the default)", at, *r.Trust))
		}
		if a := r.AwaitConfirmation; a != nil {
			if a.Timeout != "" {
				if d, err := time.ParseDuration(a.Timeout); err != nil || d <= 0 {
					errs = append(errs, fmt.Errorf("%s.await_confirmation.timeout=%q: use a positive Go duration such as 72h", at, a.Timeout))
				}
			}
			if a.OnTimeout != "" && a.OnTimeout != "accept" && a.OnTimeout != "reject" {
				errs = append(errs, fmt.Errorf("%s.await_confirmation.on_timeout=%q: use accept or reject", at, a.OnTimeout))
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	canonical, _ := json.Marshal(f.Rules)
	sum := sha256.Sum256(canonical)
	return &Policy{version: f.Version + "#" + hex.EncodeToString(sum[:6]), rules: f.Rules}, nil
}

// Version identifies the policy: the file's version plus a hash of its rules.
func (p *Policy) Version() string { return p.version }

// slotRules are the slot-level properties of one slot tier.
type slotRules struct {
	ranker     resolve.Ranker
	functional *bool
	judge      string
}

// forSlot returns the slot-level properties for slot key and scope.
func (p *Policy) forSlot(slotKey, scope string) slotRules {
	var out slotRules
	for _, r := range p.rules {
		if r.Source != "" || r.Agent != "" || !matchPattern(r.Predicate, slotKey) || !matchScope(r.Scope, scope) {
			continue
		}
		if out.ranker == "" && r.Operator != "" {
			out.ranker = resolve.Ranker(r.Operator)
		}
		if out.functional == nil && r.Functional != nil {
			out.functional = r.Functional
		}
		if out.judge == "" && r.Judge != "" {
			out.judge = r.Judge
		}
	}
	if out.ranker == "" {
		out.ranker = resolve.LWW
	}
	if out.judge == "" {
		out.judge = judgeNone
	}
	return out
}

// gate is the claim-level await-confirmation setting; zero means no gate.
type gate struct {
	await     bool
	timeout   time.Duration
	onTimeout string // accept, reject or never (no timeout)
}

// forClaim returns the claim-level gate for a claim.
func (p *Policy) forClaim(predicateKey, slotKey, scope, extractor, agent string) gate {
	for _, r := range p.rules {
		if r.AwaitConfirmation == nil {
			continue
		}
		if !(matchPattern(r.Predicate, predicateKey) || matchPattern(r.Predicate, slotKey)) || !matchScope(r.Scope, scope) ||
			!matchPattern(r.Source, extractor) || !matchPattern(r.Agent, agent) {
			continue
		}
		g := gate{await: true, onTimeout: "never"}
		if r.AwaitConfirmation.Timeout != "" {
			g.timeout, _ = time.ParseDuration(r.AwaitConfirmation.Timeout)
			g.onTimeout = "accept"
			if r.AwaitConfirmation.OnTimeout == "reject" {
				g.onTimeout = "reject"
			}
		}
		return g
	}
	return gate{}
}

// defaultTrust is the trust of a claim no rule gives one.
const defaultTrust float32 = 1

// trustFor returns the claim-level trust of a claim and the index of the rule that set it (-1: the default).
func (p *Policy) trustFor(predicateKey, slotKey, scope, extractor, agent string) (float32, int) {
	for i, r := range p.rules {
		if r.Trust == nil {
			continue
		}
		if !(matchPattern(r.Predicate, predicateKey) || matchPattern(r.Predicate, slotKey)) || !matchScope(r.Scope, scope) ||
			!matchPattern(r.Source, extractor) || !matchPattern(r.Agent, agent) {
			continue
		}
		return float32(*r.Trust), i
	}
	return defaultTrust, -1
}

func matchScope(pattern, scope string) bool {
	return pattern == "" || pattern == "*" || pattern == scope
}

// matchPattern matches s against '|'-separated glob alternatives where '*' matches any run of characters; an
// empty pattern matches everything.
func matchPattern(pattern, s string) bool {
	if pattern == "" {
		return true
	}
	for alt := range strings.SplitSeq(pattern, "|") {
		if glob(strings.TrimSpace(alt), s) {
			return true
		}
	}
	return false
}

func glob(p, s string) bool {
	parts := strings.Split(p, "*")
	if len(parts) == 1 {
		return p == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, parts[len(parts)-1])
}
