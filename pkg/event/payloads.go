package event

import "time"

// Scope says who may read a claim: the owning agent only, or every agent of the workspace.
type Scope string

// Scopes.
const (
	ScopePrivate Scope = "private"
	ScopeShared  Scope = "shared"
)

// Valid reports whether s is a known scope.
func (s Scope) Valid() bool { return s == ScopePrivate || s == ScopeShared }

// TurnAcceptedV1 is one validated utterance an agent said or heard. It is the input log of extraction.
type TurnAcceptedV1 struct {
	Workspace  string         `json:"workspace"`
	TurnID     string         `json:"turn_id"`
	AgentID    string         `json:"agent_id"`
	SessionID  string         `json:"session_id"`
	Role       string         `json:"role"`
	Speaker    string         `json:"speaker,omitempty"`
	Content    string         `json:"content"`
	OccurredAt time.Time      `json:"occurred_at"`
	ReceivedAt time.Time      `json:"received_at"`
	Sequence   *int64         `json:"sequence,omitempty"`
	Scope      Scope          `json:"scope"`
	Metadata   map[string]any `json:"metadata,omitempty"`
}

// Provenance says where a claim came from.
type Provenance struct {
	// AgentID is the agent that asserted (published) the claim or the turn it was extracted from.
	AgentID string `json:"agent_id"`
	// SessionID of the source turns, when extracted.
	SessionID string `json:"session_id,omitempty"`
	// TurnIDs are the source turns the claim was extracted from (empty for structured claims without one).
	TurnIDs []string `json:"turn_ids,omitempty"`
	// Extractor is "structured" for caller-supplied claims, else the extractor's name (e.g. "rules", "llm:<model>").
	Extractor        string `json:"extractor"`
	ExtractorVersion string `json:"extractor_version"`
	// SourceRef is an opaque caller reference (document id, URL, message id) copied from structured claims.
	SourceRef string `json:"source_ref,omitempty"`
}

// ClaimProposedV1 is a candidate claim before embedding: from the extractor, or a structured claim from ingest.
type ClaimProposedV1 struct {
	ClaimID      string     `json:"claim_id"`
	Workspace    string     `json:"workspace"`
	Subject      string     `json:"subject"`
	SubjectKey   string     `json:"subject_key"`
	Predicate    string     `json:"predicate"`
	PredicateKey string     `json:"predicate_key"`
	Object       string     `json:"object"`
	Text         string     `json:"text"`
	Functional   bool       `json:"functional"`
	ValidFrom    time.Time  `json:"valid_from"`
	Sequence     *int64     `json:"sequence,omitempty"`
	Scope        Scope      `json:"scope"`
	Confidence   float64    `json:"confidence"`
	Provenance   Provenance `json:"provenance"`
	ProposedAt   time.Time  `json:"proposed_at"`

	// Negated marks a negative assertion: the subject does not (or never did) stand in this relation to the
	// object ("Alice has never used Zotero": predicate "has used", object "Zotero", negated). The reconciler
	// keeps negated claims out of the positive claims' slots and links each to the positive claims of the same
	// subject it contradicts.
	Negated bool `json:"negated,omitempty"`
}

// Vector is an embedding with the model that made it; the model id and dimension travel with every vector.
type Vector struct {
	Model  string    `json:"model"`
	Dim    int       `json:"dim"`
	Values []float32 `json:"values"`
}

// ClaimEmbeddedV1 is a claim with its embeddings, published to its partition of the claims stream. The claims
// stream is the reconciler's log of record: replaying it rebuilds the projection.
type ClaimEmbeddedV1 struct {
	ClaimProposedV1
	Embedding Vector `json:"embedding"`
	// PredicateEmbedding embeds the predicate phrase, for merging paraphrased predicates into one slot.
	PredicateEmbedding Vector `json:"predicate_embedding"`
	Partition          int    `json:"partition"`
}

// ClaimConfirmedV1 explicitly confirms a pending claim (await-confirmation operator).
type ClaimConfirmedV1 struct {
	Workspace   string    `json:"workspace"`
	ClaimID     string    `json:"claim_id"`
	SubjectKey  string    `json:"subject_key"`
	AgentID     string    `json:"agent_id"`
	ConfirmedAt time.Time `json:"confirmed_at"`
	Partition   int       `json:"partition"`
	// Release also releases the claim from quarantine. Only the query and reconciler HTTP handlers set it,
	// and only for a workspace administrator's key: a reviewer decided the flagged content is harmless.
	Release bool `json:"release,omitempty"`
}

// DecisionRecordedV1 is the audit record of one resolution decision, published after its transaction commits.
type DecisionRecordedV1 struct {
	DecisionID    string    `json:"decision_id"`
	Workspace     string    `json:"workspace"`
	SubjectKey    string    `json:"subject_key"`
	PredicateKey  string    `json:"predicate_key"`
	Scope         Scope     `json:"scope"`
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
	Partition     int       `json:"partition"`
	StreamSeq     uint64    `json:"stream_seq"`
}

// ErasureRequestedV1 asks to forget a subject, an agent's claims or a whole workspace, within a scope of tiers.
type ErasureRequestedV1 struct {
	ErasureID   string    `json:"erasure_id"`
	Workspace   string    `json:"workspace"`
	Kind        string    `json:"kind"` // "subject", "agent" or "workspace"
	Target      string    `json:"target,omitempty"`
	RequestedBy string    `json:"requested_by"`
	RequestedAt time.Time `json:"requested_at"`
	// Scope limits the erasure to tiers the requester may write: "all" (every tier; also what an absent scope
	// means, as in commands written before scopes existed), "private" (the private tier of ScopeAgent),
	// "shared" (the shared tier) or "shared_private" (the shared tier and ScopeAgent's private tier).
	Scope      string `json:"scope,omitempty"`
	ScopeAgent string `json:"scope_agent,omitempty"`
}

// ErasureCompletedV1 records that an erasure was carried out: what and by whom, never the erased content.
type ErasureCompletedV1 struct {
	ErasureID      string    `json:"erasure_id"`
	Workspace      string    `json:"workspace"`
	Kind           string    `json:"kind"`
	Target         string    `json:"target,omitempty"`
	RequestedBy    string    `json:"requested_by"`
	ClaimsErased   int       `json:"claims_erased"`
	MessagesPurged int       `json:"messages_purged"`
	CompletedAt    time.Time `json:"completed_at"`
}

// Audit actions (AuditRecordedV1.Action).
const (
	AuditWorkspaceCreated   = "workspace.created"
	AuditKeyIssued          = "key.issued"
	AuditKeyRevoked         = "key.revoked"
	AuditErasureRequested   = "erasure.requested"
	AuditErasureCompleted   = "erasure.completed"
	AuditPolicyChanged      = "policy.changed"
	AuditQuarantineReleased = "quarantine.released"
	// AuditNATSCredsIssued and AuditNATSCredsRevoked are `mneme nats agent-creds` and `revoke-agent`: an agent's
	// NATS credential issued (details: agent, user_key, expires_at) or every credential of an agent revoked
	// (details: agent, revoked, user_keys).
	AuditNATSCredsIssued  = "nats_creds.issued"
	AuditNATSCredsRevoked = "nats_creds.revoked"
)

// AuditRecordedV1 is one administrative action (workspace creation, key issue or revocation, erasure, policy
// change, quarantine release): who, what and when — ids, roles, scopes and hashes, never erased content or a
// secret. It is published to the ledger of its workspace (mneme.ledger.<ws>, or mneme.ledger._system for
// actions of no workspace) after the action is recorded in Postgres.
type AuditRecordedV1 struct {
	AuditID   string `json:"audit_id"`
	Workspace string `json:"workspace,omitempty"`
	Action    string `json:"action"`
	// Actor is the agent a key acted as, or "cli" for the mneme admin commands.
	Actor string `json:"actor"`
	// KeyID is the public id of the key that acted (mk_…), when one did.
	KeyID string `json:"key_id,omitempty"`
	// Details are the action's parameters: string, number or boolean values only.
	Details    map[string]any `json:"details,omitempty"`
	RecordedAt time.Time      `json:"recorded_at"`
}
