// Package api holds the JSON bodies of Mneme's HTTP API (/v1) and of the NATS inbox, which accepts the same
// bodies. Field names are snake_case; times are RFC 3339. The OpenAPI document in schemas/openapi.yaml
// describes the same types.
package api

import (
	"encoding/json"
	"net/http"
	"time"
)

// HeaderAgent names the calling agent on every HTTP request and, optionally, on NATS inbox messages.
const HeaderAgent = "X-Mneme-Agent"

// TurnInput is one utterance an agent said or heard.
type TurnInput struct {
	// TurnID identifies the turn for deduplication; generated when absent (then duplicates are not detected).
	TurnID string `json:"turn_id,omitempty"`
	// AgentID of the publishing agent; on HTTP it must match X-Mneme-Agent when both are given.
	AgentID   string `json:"agent_id,omitempty"`
	SessionID string `json:"session_id"`
	// Role is one of user, assistant, system, tool.
	Role string `json:"role"`
	// Speaker is the human-readable name of who spoke ("Alice"); first-person claims are attributed to it.
	Speaker string `json:"speaker,omitempty"`
	Content string `json:"content"`
	// OccurredAt is the valid time of the utterance; defaults to the time it was received.
	OccurredAt *time.Time `json:"occurred_at,omitempty"`
	// Sequence is an optional ordinal from the source, used to order claims with equal valid time.
	Sequence *int64 `json:"sequence,omitempty"`
	// Scope is the default scope of claims derived from this turn: "shared" (default) or "private".
	Scope    string         `json:"scope,omitempty"`
	Metadata map[string]any `json:"metadata,omitempty"`
}

// TurnsRequest is the body of POST /v1/workspaces/{ws}/turns and of messages on mneme.inbox.<ws>.turns.
type TurnsRequest struct {
	Turns []TurnInput `json:"turns"`
}

// ClaimInput is a structured claim: the LLM-free path for callers who already know their facts.
type ClaimInput struct {
	// ClaimID identifies the claim for deduplication; derived from the content when absent.
	ClaimID   string `json:"claim_id,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	// Functional marks a single-valued attribute (a new value supersedes the old); when absent the predicate
	// policy decides.
	Functional *bool `json:"functional,omitempty"`
	// ValidFrom is when the claim became true in the world; defaults to the time it was received.
	ValidFrom  *time.Time `json:"valid_from,omitempty"`
	Sequence   *int64     `json:"sequence,omitempty"`
	Scope      string     `json:"scope,omitempty"`
	Confidence *float64   `json:"confidence,omitempty"`
	// Text is the self-contained sentence stating the claim; generated from subject, predicate, object when absent.
	Text   string `json:"text,omitempty"`
	Source string `json:"source,omitempty"`
	// Negated states a negative assertion ("Alice has never used Zotero": predicate "has used", object
	// "Zotero"). It never competes with positive claims for a slot; memory links it to the positive claims of
	// the same subject it contradicts and surfaces them together.
	Negated bool `json:"negated,omitempty"`
}

// ClaimsRequest is the body of POST /v1/workspaces/{ws}/claims and of messages on mneme.inbox.<ws>.claims.
type ClaimsRequest struct {
	Claims []ClaimInput `json:"claims"`
}

// AcceptedResponse answers an accepted write (202): the ids, once the events are durably in JetStream.
type AcceptedResponse struct {
	Workspace string   `json:"workspace"`
	IDs       []string `json:"ids"`
	// Duplicates lists ids already accepted before (no second effect).
	Duplicates []string `json:"duplicates,omitempty"`
}

// SearchRequest is the body of POST /v1/workspaces/{ws}/search.
type SearchRequest struct {
	Query string `json:"query"`
	// K caps the number of claims returned (default 10, max 100).
	K int `json:"k,omitempty"`
	// TokenBudget caps the tokens of the assembled context (default 500).
	TokenBudget int `json:"token_budget,omitempty"`
	// AsOf reads what was true at this valid time.
	AsOf *time.Time `json:"as_of,omitempty"`
	// KnownAt reads what memory believed at this transaction time.
	KnownAt        *time.Time `json:"known_at,omitempty"`
	IncludeHistory bool       `json:"include_history,omitempty"`
	// IncludeQuarantined also returns quarantined claims (content flagged as instructions to a model), marked
	// [QUARANTINED]; for reviewing them.
	IncludeQuarantined bool `json:"include_quarantined,omitempty"`
	// Asker names the person asking: "I" and "my" in Query are read as them ("my sister" asked by Kim is
	// "Kim's sister", as the extractor keys what Kim said of her sister). It selects no memory and grants no
	// access.
	Asker string `json:"asker,omitempty"`
}

// Claim is one claim as the query API returns it.
type Claim struct {
	ID           string     `json:"id"`
	Text         string     `json:"text"`
	Subject      string     `json:"subject"`
	SubjectKey   string     `json:"subject_key"`
	Predicate    string     `json:"predicate"`
	PredicateKey string     `json:"predicate_key"`
	Object       string     `json:"object"`
	Functional   bool       `json:"functional"`
	Status       string     `json:"status"`
	ValidFrom    time.Time  `json:"valid_from"`
	ValidTo      *time.Time `json:"valid_to,omitempty"`
	RecordedAt   time.Time  `json:"recorded_at"`
	RetiredAt    *time.Time `json:"retired_at,omitempty"`
	Sequence     *int64     `json:"sequence,omitempty"`
	Scope        string     `json:"scope"`
	Owner        string     `json:"owner"`
	Confidence   float64    `json:"confidence"`
	Score        float64    `json:"score,omitempty"`
	// Conflicts lists the ids of claims this one is disputed with or superseded by, and of the claims of
	// opposite polarity linked to it as contradicting it (see Negated).
	Conflicts []string `json:"conflicts,omitempty"`
	// Negated marks a negative assertion: the subject does not (or never did) stand in this relation.
	Negated bool `json:"negated,omitempty"`
	// Corroborations counts the independent agents that asserted this claim's content in its tier, its own
	// owner included (one agent repeating itself counts once); Corroborated is true from two agents on.
	Corroborations int  `json:"corroborations,omitempty"`
	Corroborated   bool `json:"corroborated,omitempty"`
	// SupportConfidence combines the confidence of every corroborating agent as independent evidence
	// (noisy-OR, 1 − Π(1 − cᵢ), one cᵢ per agent), so agreement raises it above any one agent's confidence;
	// equal to Confidence for a claim only its owner asserted.
	SupportConfidence float64 `json:"support_confidence,omitempty"`
}

// SearchResponse is the answer of POST /v1/workspaces/{ws}/search.
type SearchResponse struct {
	Claims []Claim `json:"claims"`
	// Context is a compact, token-budgeted text for a reader.
	Context       string `json:"context"`
	ContextTokens int    `json:"context_tokens"`
	Tokenizer     string `json:"tokenizer"`
}

// AnswerRequest is the body of POST /v1/workspaces/{ws}/answer.
type AnswerRequest struct {
	Question    string     `json:"question"`
	AsOf        *time.Time `json:"as_of,omitempty"`
	KnownAt     *time.Time `json:"known_at,omitempty"`
	TokenBudget int        `json:"token_budget,omitempty"`
	// IncludeQuarantined lets quarantined claims into the reader's context, marked [QUARANTINED].
	IncludeQuarantined bool `json:"include_quarantined,omitempty"`
	// Asker names the person asking: "I" and "my" in Question are read as them (see SearchRequest.Asker).
	Asker string `json:"asker,omitempty"`
}

// AnswerResponse is the answer of POST /v1/workspaces/{ws}/answer.
type AnswerResponse struct {
	Answer string `json:"answer"`
	// Mode is "deterministic", "multi-hop", "reader", "statement" (no relation resolved and no reader: the
	// answer quotes the closest remembered statement about the entity the question names) or "none".
	Mode        string   `json:"mode"`
	ClaimsUsed  []Claim  `json:"claims_used"`
	Hops        []Hop    `json:"hops,omitempty"`
	Disputed    bool     `json:"disputed,omitempty"`
	TokensSpent Tokens   `json:"tokens_spent"`
	Notes       []string `json:"notes,omitempty"`
}

// Hop is one deterministic step of a chained answer.
type Hop struct {
	Subject   string `json:"subject"`
	Predicate string `json:"predicate"`
	Object    string `json:"object"`
	ClaimID   string `json:"claim_id"`
}

// Tokens counts what an answer cost.
type Tokens struct {
	Context    int `json:"context"`
	Prompt     int `json:"prompt,omitempty"`
	Completion int `json:"completion,omitempty"`
}

// Error is the JSON body of every error response.
type Error struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody says what went wrong; Field names the offending field (JSON path such as "turns[3].content").
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Field   string `json:"field,omitempty"`
	Limit   string `json:"limit,omitempty"`
}

// Error codes.
const (
	CodeInvalid      = "invalid_argument"
	CodeTooLarge     = "too_large"
	CodeUnauthorized = "unauthenticated"
	CodeForbidden    = "permission_denied"
	CodeNotFound     = "not_found"
	CodeUnavailable  = "unavailable"
	CodeInternal     = "internal"
	// CodeRateLimited answers a request over its key's (or address's) rate limit: 429 with Retry-After.
	CodeRateLimited = "rate_limited"
)

// WriteJSON writes v as JSON with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// WriteError writes an Error body.
func WriteError(w http.ResponseWriter, status int, code, field, message string) {
	WriteJSON(w, status, Error{Error: ErrorBody{Code: code, Message: message, Field: field}})
}
