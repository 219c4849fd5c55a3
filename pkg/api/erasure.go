package api

import "time"

// The bodies of the reconciler's confirmation and erasure endpoints.

// ConfirmResponse is the answer of POST /v1/workspaces/{ws}/claims/{id}/confirm (and .../release), 202: the
// confirmation is durably queued on the claim's partition and applies when the reconciler reaches it.
type ConfirmResponse struct {
	// Status is always "accepted".
	Status  string `json:"status"`
	ClaimID string `json:"claim_id"`
	// ConfirmationID is the ClaimConfirmedV1 event id, deterministic per claim and agent.
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
	// Kind is EraseSubject (Target: a subject or its canonical key), EraseAgent (Target: an agent id) or
	// EraseWorkspace (no Target, or the workspace id).
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
}

// Erasure is the record of an erasure, the answer of the erasure endpoints: what kind, a hash of the target,
// who asked, when, and what was removed — never the erased content.
type Erasure struct {
	ErasureID string `json:"erasure_id"`
	Workspace string `json:"workspace"`
	Kind      string `json:"kind"`
	// Scope is the tiers the erasure covered, those the requesting key may write: all, private, shared or
	// shared_private (ScopeAgent names the private tier). Every record has one, so it is always on the wire;
	// the counts cover only it.
	Scope       string    `json:"scope"`
	ScopeAgent  string    `json:"scope_agent,omitempty"`
	TargetHash  string    `json:"target_hash,omitempty"`
	RequestedBy string    `json:"requested_by"`
	RequestedAt time.Time `json:"requested_at"`
	// Status is requested, completed or failed.
	Status         string     `json:"status"`
	CompletedAt    *time.Time `json:"completed_at,omitempty"`
	ClaimsErased   int        `json:"claims_erased"`
	MessagesPurged int        `json:"messages_purged"`
}
