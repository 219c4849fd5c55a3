package reconciler

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// state is what one segment's decisions read and change, in memory: load.go fills it from the store, decide.go
// changes it message by message, and nothing in it is written until the decider hands its changes to
// store.Write.
type state struct {
	// tiers are the slot tiers the segment touches, with every claim and its current belief version.
	tiers map[tierKey]*tier
	// claimTier names the tier of every claim the segment knows of.
	claimTier map[string]tierKey
	// preds are the predicates of the segment's subjects, every tier's (slot assignment reads them).
	preds map[subjKey][]*predRow
	// existing holds the ids of claims already stored (or already seen in the segment): a repeat is a duplicate.
	existing map[string]bool
	// confirmed and released hold claims with an explicit confirmation, and with a release from quarantine.
	confirmed, released map[string]bool
	// due are the pending await-confirmation gates whose deadline falls within the segment's log time.
	due gateHeap
	// polar holds, per subject, the claims a newcomer of the other polarity may contradict (negation.go).
	polar map[subjKey]*polarSet
}

func newState() *state {
	return &state{tiers: map[tierKey]*tier{}, claimTier: map[string]tierKey{}, preds: map[subjKey][]*predRow{},
		existing: map[string]bool{}, confirmed: map[string]bool{}, released: map[string]bool{}, polar: map[subjKey]*polarSet{}}
}

// tierKey names a slot tier: the claims that compete with each other. Shared claims compete per slot in the
// workspace; private claims per slot and owner agent.
type tierKey struct{ ws, subject, slot, scope, owner string }

func (k tierKey) String() string {
	return k.ws + "\x00" + k.subject + "\x00" + k.slot + "\x00" + k.scope + "\x00" + k.owner
}

func tierOf(ws, subject, slot, scope, owner string) tierKey {
	if scope == string(event.ScopeShared) {
		owner = ""
	}
	return tierKey{ws: ws, subject: subject, slot: slot, scope: scope, owner: owner}
}

type subjKey struct{ ws, subject string }

// tclaim is one claim of a tier with its current belief version.
type tclaim struct {
	id, objectKey, source, predicateKey, extractor, agent string
	subject, predicate, object, text                      string
	validFrom                                             time.Time
	seq                                                   *int64
	confidence                                            float32
	functional                                            bool
	streamSeq                                             int64

	version      int // 0: no version yet
	status       resolve.Status
	validTo      *time.Time
	supersededBy string
	newRow       int // index of the current version in the decider's new versions, or -1 when it is in the store

	gate      *gateRow
	confirmed bool

	// screen is the promptguard rule that flagged the claim's content ("" when none); released says an
	// administrator released it. A flagged claim that is not released is quarantined.
	screen   string
	released bool
	// trust is the claim's source trust from the policy at arrival.
	trust float32
}

// quarantined reports whether the claim is held in quarantine.
func (c *tclaim) quarantined() bool { return c.screen != "" && !c.released }

// gateRow is a claim's await-confirmation gate.
type gateRow struct {
	state      string // pending, admitted, timed_out
	deadline   *time.Time
	onTimeout  string
	resolvedBy string
}

// tier is the claims of one slot tier.
type tier struct {
	key      tierKey
	claims   []*tclaim
	byID     map[string]*tclaim
	verdicts map[resolve.Pair]bool

	// rc caches the operators' view of claims (same order) after a full fold, so that a hot slot resolved by
	// plain LWW is updated incrementally (resolve.FoldLWWAdded) instead of folded whole for every message. rcOK
	// is cleared by anything the incremental rule does not cover (gates, judge verdicts).
	rc         []resolve.Claim
	rcOK       bool
	plain      bool
	functional bool
}

func newTier(k tierKey) *tier {
	return &tier{key: k, byID: map[string]*tclaim{}, verdicts: map[resolve.Pair]bool{}}
}

func toResolve(c *tclaim) resolve.Claim {
	return resolve.Claim{ID: c.id, ObjectKey: c.objectKey, ValidFrom: c.validFrom, Sequence: c.seq,
		Confidence: c.confidence, Source: c.source,
		Held:         c.gate != nil && c.gate.state == "pending",
		GateRejected: c.gate != nil && c.gate.state == "timed_out" && c.gate.onTimeout == "reject",
		Quarantined:  c.quarantined(), Trust: c.trust}
}

// add inserts c keeping t.claims ordered by id: every loop over a tier then runs in the same order however the
// stream was cut into batches, which keeps decision reasons, gate notes and corroboration rows replay-identical.
func (t *tier) add(c *tclaim) {
	i, _ := slices.BinarySearchFunc(t.claims, c.id, func(e *tclaim, id string) int { return cmp.Compare(e.id, id) })
	t.claims = slices.Insert(t.claims, i, c)
	t.byID[c.id] = c
	if t.rcOK {
		t.rc = slices.Insert(t.rc, i, toResolve(c))
	}
}

// isFunctional reports whether the tier's slot is single-valued: the policy's override, else whether any of its
// claims says so (a set property, so independent of arrival order).
func (t *tier) isFunctional(r slotRules) bool {
	if r.functional != nil {
		return *r.functional
	}
	for _, c := range t.claims {
		if c.functional {
			return true
		}
	}
	return false
}

func (t *tier) input(r slotRules) resolve.Input {
	in := resolve.Input{Ranker: r.ranker, Functional: t.isFunctional(r), Verdicts: t.verdicts}
	in.Claims = make([]resolve.Claim, len(t.claims))
	for i, c := range t.claims {
		in.Claims[i] = toResolve(c)
	}
	return in
}

// operatorName is the pipeline that decided the tier, e.g. "await_confirmation|lww+judge".
func (t *tier) operatorName(r slotRules) string {
	var parts []string
	for _, c := range t.claims {
		if c.gate != nil {
			parts = append(parts, "await_confirmation")
			break
		}
	}
	rank := string(r.ranker)
	if r.ranker == resolve.LWW && !t.isFunctional(r) {
		rank = "accumulate"
	}
	if r.judge != judgeNone {
		rank += "+judge"
	}
	return strings.Join(append(parts, rank), "|")
}

// liveIDs are the ids of the tier's claims that still take part in its conflict set.
func (t *tier) liveIDs() []string {
	var out []string
	for _, e := range t.claims {
		if live(e.status) {
			out = append(out, e.id)
		}
	}
	return out
}

func live(s resolve.Status) bool {
	return s == resolve.Active || s == resolve.Disputed || s == resolve.Pending
}

// predRow is a predicate of a subject in one tier and the slot it joined (a subject_predicates row).
type predRow struct {
	// tierOwner is "" for a predicate of the shared tier, else the agent whose private tier it belongs to.
	tierOwner                    string
	predicateKey, slotKey, model string
	embedding                    []float32
}

// dueGate is a pending await-confirmation gate with a deadline.
type dueGate struct {
	deadline time.Time
	claimID  string
}

type gateHeap []dueGate

func (h gateHeap) Len() int { return len(h) }
func (h gateHeap) Less(i, j int) bool {
	if c := h[i].deadline.Compare(h[j].deadline); c != 0 {
		return c < 0
	}
	return h[i].claimID < h[j].claimID
}
func (h gateHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *gateHeap) Push(x any)   { *h = append(*h, x.(dueGate)) }
func (h *gateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
