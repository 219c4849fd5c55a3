package api

import (
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
)

// The inspection responses of the query service: a subject's beliefs and timeline, and one claim's provenance
// and decision chain.
//
// Decision chains grow with the memory (each decision of an accumulating slot names the slot's values as its
// inputs), so both responses carry them a page at a time: at most decisions_limit decisions per chain, each
// with at most inputs_limit input and loser ids, with the totals, and a cursor (decisions_next) that the
// decisions_cursor parameter takes to continue.

// Query parameters and limits of the inspection endpoints.
const (
	// ParamDecisionsLimit caps the decisions of one chain in a response: a claim's chain, or each slot's.
	ParamDecisionsLimit = "decisions_limit"
	// ParamDecisionsCursor continues a chain after the page that returned it as decisions_next.
	ParamDecisionsCursor = "decisions_cursor"
	// ParamInputsLimit caps the input ids, and the loser ids, that each decision carries.
	ParamInputsLimit = "inputs_limit"
	// ParamSlot restricts a subject response to one slot; it is required with decisions_cursor there.
	ParamSlot = "slot"

	DefaultDecisionsLimit = 50
	MaxDecisionsLimit     = 500
	DefaultInputsLimit    = 20
	MaxInputsLimit        = 100
	// MaxSubjectDecisions caps the decisions of all slots in one subject response together; a slot cut by it
	// carries fewer (or none) and a decisions_next.
	MaxSubjectDecisions = 2000
	// MaxClaimVersions and MaxCorroborations cap the claim response's lists that have no parameter.
	MaxClaimVersions  = 1000
	MaxCorroborations = 1000
)

// SubjectResponse is the answer of GET /v1/workspaces/{ws}/subjects/{subject_key}: what memory believes about
// one subject now (or at as_of / known_at), and the full timeline of every attribute (slot).
type SubjectResponse struct {
	Workspace  string `json:"workspace"`
	SubjectKey string `json:"subject_key"`
	// Subject is the subject's name as most recently written.
	Subject string     `json:"subject"`
	AsOf    *time.Time `json:"as_of,omitempty"`
	KnownAt *time.Time `json:"known_at,omitempty"`
	// Current lists the current value(s) of every slot: one claim per resolved functional slot, every side of
	// a disputed slot (flagged by Conflicts), every value of an accumulating slot.
	Current []Claim `json:"current"`
	Slots   []Slot  `json:"slots"`
	// Truncated is true when the subject has more versions than one response carries.
	Truncated bool `json:"truncated,omitempty"`
}

// Slot is one attribute of a subject with its history.
type Slot struct {
	SlotKey    string `json:"slot_key"`
	Predicate  string `json:"predicate"`
	Functional bool   `json:"functional"`
	Disputed   bool   `json:"disputed,omitempty"`
	// Current holds the ids of the current value(s).
	Current []string `json:"current"`
	// Timeline lists every belief version of every claim of the slot, ordered by valid time, sequence, claim
	// and version: both times, the status and the decision that produced each version.
	Timeline []TimelineEntry `json:"timeline"`
	// Decisions are a page of the slot's resolution decisions, in the order they were made: the first
	// decisions_limit, or those after decisions_cursor.
	Decisions []Decision `json:"decisions"`
	// DecisionsTotal counts all the slot's decisions the caller may see (at known_at).
	DecisionsTotal int `json:"decisions_total"`
	// DecisionsNext, when set, is the decisions_cursor that continues the slot's decisions (with slot=SlotKey);
	// absent on the last page.
	DecisionsNext string `json:"decisions_next,omitempty"`
}

// TimelineEntry is one belief version of one claim.
type TimelineEntry struct {
	ClaimID  string `json:"claim_id"`
	Version  int    `json:"version"`
	Text     string `json:"text"`
	Object   string `json:"object"`
	Scope    string `json:"scope"`
	Owner    string `json:"owner"`
	Sequence *int64 `json:"sequence,omitempty"`
	Status   string `json:"status"`
	// ValidFrom and ValidTo are valid time: when the claim was true in the world.
	ValidFrom time.Time  `json:"valid_from"`
	ValidTo   *time.Time `json:"valid_to,omitempty"`
	// RecordedAt and RetiredAt are transaction time: when memory held this version.
	RecordedAt time.Time  `json:"recorded_at"`
	RetiredAt  *time.Time `json:"retired_at,omitempty"`
	// DecisionID is the decision that produced this version, if any.
	DecisionID string `json:"decision_id,omitempty"`
	// SupersededBy and Supersedes are the supersedes edges of the claim, with the deciding decision.
	SupersededBy []SupersedesEdge `json:"superseded_by,omitempty"`
	Supersedes   []SupersedesEdge `json:"supersedes,omitempty"`
	// Negated marks a negative assertion ("Alice has never lived in Rome"); its slot key is "not:<predicate>".
	Negated bool `json:"negated,omitempty"`
	// Contradicts are the claims of opposite polarity linked to this one as contradicting it (a negated claim
	// and the positive claims it denies), with the decision that recorded each link: only partners the caller
	// may see, and, with known_at, only links recorded by then. Neither side's status changes; the reader is
	// meant to see both.
	Contradicts []ContradictionEdge `json:"contradicts,omitempty"`
	// Corroborations counts the independent agents that asserted the claim's content in its tier (as memory
	// knew it at known_at, when given), the owner included; Corroborated is true from two agents on.
	Corroborations int  `json:"corroborations,omitempty"`
	Corroborated   bool `json:"corroborated,omitempty"`
}

// ContradictionEdge is one contradiction link: the claim on the other side, and the decision that recorded it.
type ContradictionEdge struct {
	ClaimID    string `json:"claim_id"`
	DecisionID string `json:"decision_id"`
}

// SupersedesEdge is one supersedes edge: which claim, by which decision.
type SupersedesEdge struct {
	ClaimID    string `json:"claim_id"`
	DecisionID string `json:"decision_id"`
}

// Decision is one resolution decision record.
type Decision struct {
	ID            string `json:"id"`
	SubjectKey    string `json:"subject_key"`
	SlotKey       string `json:"slot_key"`
	Scope         string `json:"scope"`
	OwnerAgent    string `json:"owner_agent,omitempty"`
	Operator      string `json:"operator"`
	PolicyVersion string `json:"policy_version"`
	// Inputs are the first inputs_limit of the claims the decision weighed; InputsTotal counts them all.
	Inputs      []string `json:"inputs"`
	InputsTotal int      `json:"inputs_total"`
	Winner      string   `json:"winner,omitempty"`
	// Losers are the first inputs_limit of the claims the decision retired or rejected; LosersTotal counts
	// them all.
	Losers      []string  `json:"losers,omitempty"`
	LosersTotal int       `json:"losers_total"`
	Outcome     string    `json:"outcome"`
	Reason      string    `json:"reason"`
	JudgeKey    string    `json:"judge_key,omitempty"`
	DecidedAt   time.Time `json:"decided_at"`
}

// ClaimResponse is the answer of GET /v1/workspaces/{ws}/claims/{id}: one claim, where it came from, and
// the decisions that touched it, a page at a time.
type ClaimResponse struct {
	// Claim is the claim with the belief version of the request's known_at (default: the current belief).
	Claim      Claim            `json:"claim"`
	Provenance event.Provenance `json:"provenance"`
	// Versions are the belief versions of the claim, oldest first: at most MaxClaimVersions, and
	// VersionsTruncated when there are more.
	Versions          []TimelineEntry  `json:"versions"`
	VersionsTruncated bool             `json:"versions_truncated,omitempty"`
	Supersedes        []SupersedesEdge `json:"supersedes,omitempty"`
	SupersededBy      []SupersedesEdge `json:"superseded_by,omitempty"`
	// Contradicts are the contradiction links of the claim (see TimelineEntry.Contradicts).
	Contradicts []ContradictionEdge `json:"contradicts,omitempty"`
	// Decisions is a page of the decision chain (the decisions naming the claim as input, winner or loser, or
	// producing one of its versions) in the order they were made: the first decisions_limit, or those after
	// decisions_cursor.
	Decisions []Decision `json:"decisions"`
	// DecisionsTotal counts the whole chain the caller may see (at known_at).
	DecisionsTotal int `json:"decisions_total"`
	// DecisionsNext, when set, is the decisions_cursor of the next page; absent on the last page.
	DecisionsNext string `json:"decisions_next,omitempty"`
	// Corroborations are the independent sources of the claim, oldest first: at most MaxCorroborations, and
	// CorroborationsTruncated when there are more.
	Corroborations          []Corroboration `json:"corroborations,omitempty"`
	CorroborationsTruncated bool            `json:"corroborations_truncated,omitempty"`
}

// Corroboration is one independent source asserting the claim's content.
type Corroboration struct {
	Source     string    `json:"source"`
	ViaClaimID string    `json:"via_claim_id"`
	RecordedAt time.Time `json:"recorded_at"`
}
