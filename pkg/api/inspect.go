package api

import (
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
)

// The inspection responses of the query service: a subject's beliefs and timeline, and one claim's provenance
// and decision chain.

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
	// Decisions are the resolution decisions of the slot, in the order they were made.
	Decisions []Decision `json:"decisions"`
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
}

// SupersedesEdge is one supersedes edge: which claim, by which decision.
type SupersedesEdge struct {
	ClaimID    string `json:"claim_id"`
	DecisionID string `json:"decision_id"`
}

// Decision is one resolution decision record.
type Decision struct {
	ID            string    `json:"id"`
	SubjectKey    string    `json:"subject_key"`
	SlotKey       string    `json:"slot_key"`
	Scope         string    `json:"scope"`
	OwnerAgent    string    `json:"owner_agent,omitempty"`
	Operator      string    `json:"operator"`
	PolicyVersion string    `json:"policy_version"`
	Inputs        []string  `json:"inputs"`
	Winner        string    `json:"winner,omitempty"`
	Losers        []string  `json:"losers,omitempty"`
	Outcome       string    `json:"outcome"`
	Reason        string    `json:"reason"`
	JudgeKey      string    `json:"judge_key,omitempty"`
	DecidedAt     time.Time `json:"decided_at"`
}

// ClaimResponse is the answer of GET /v1/workspaces/{ws}/claims/{id}: one claim, where it came from, and
// every decision that touched it.
type ClaimResponse struct {
	// Claim is the claim with the belief version of the request's known_at (default: the current belief).
	Claim      Claim            `json:"claim"`
	Provenance event.Provenance `json:"provenance"`
	// Versions are every belief version of the claim, oldest first.
	Versions     []TimelineEntry  `json:"versions"`
	Supersedes   []SupersedesEdge `json:"supersedes,omitempty"`
	SupersededBy []SupersedesEdge `json:"superseded_by,omitempty"`
	// Decisions is the decision chain: every decision naming the claim as input, winner or loser, in order.
	Decisions      []Decision      `json:"decisions"`
	Corroborations []Corroboration `json:"corroborations,omitempty"`
}

// Corroboration is one independent source asserting the claim's content.
type Corroboration struct {
	Source     string    `json:"source"`
	ViaClaimID string    `json:"via_claim_id"`
	RecordedAt time.Time `json:"recorded_at"`
}
