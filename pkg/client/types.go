package client

import (
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/event"
)

// The inspection responses of the query service. They live here, beside the client that decodes them, until
// they move to pkg/api with the other wire types; the query service encodes these very types.

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
	Current []api.Claim `json:"current"`
	Slots   []Slot      `json:"slots"`
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
	SupersededBy []Edge `json:"superseded_by,omitempty"`
	Supersedes   []Edge `json:"supersedes,omitempty"`
}

// Edge is one supersedes edge: which claim, by which decision.
type Edge struct {
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
	Claim      api.Claim        `json:"claim"`
	Provenance event.Provenance `json:"provenance"`
	// Versions are every belief version of the claim, oldest first.
	Versions     []TimelineEntry `json:"versions"`
	Supersedes   []Edge          `json:"supersedes,omitempty"`
	SupersededBy []Edge          `json:"superseded_by,omitempty"`
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

// ConfirmResponse is the answer of POST /v1/workspaces/{ws}/claims/{id}/confirm (202): the confirmation is
// durably queued on the claim's partition and applies when the reconciler reaches it.
type ConfirmResponse struct {
	Status         string `json:"status"`
	ClaimID        string `json:"claim_id"`
	ConfirmationID string `json:"confirmation_id"`
}

// Erasure kinds.
const (
	EraseSubject   = "subject"
	EraseAgent     = "agent"
	EraseWorkspace = "workspace"
)

// ErasureRequest is the body of POST /v1/workspaces/{ws}/erasures.
type ErasureRequest struct {
	// Kind is EraseSubject (Target: a subject or its key), EraseAgent (Target: an agent id) or EraseWorkspace.
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
}

// Erasure is the record of an erasure: what kind, a hash of the target, who asked, when, and what was removed
// — never the erased content.
type Erasure struct {
	ErasureID      string     `json:"erasure_id"`
	Workspace      string     `json:"workspace"`
	Kind           string     `json:"kind"`
	TargetHash     string     `json:"target_hash,omitempty"`
	RequestedBy    string     `json:"requested_by"`
	RequestedAt    time.Time  `json:"requested_at"`
	Status         string     `json:"status"`
	CompletedAt    *time.Time `json:"completed_at,omitempty"`
	ClaimsErased   int        `json:"claims_erased"`
	MessagesPurged int        `json:"messages_purged"`
}
