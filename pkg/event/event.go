// Package event defines Mneme's wire events: CloudEvents 1.0 envelopes in structured JSON mode whose data
// payloads are the versioned types in this package. Every type has a JSON Schema under schemas/<domain>/v1/.
package event

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// SpecVersion is the CloudEvents specification version of every envelope Mneme writes.
const SpecVersion = "1.0"

// Event type names: io.mneme.<domain>.v1.<event>. A v1 type never changes incompatibly.
const (
	TypeTurnAccepted      = "io.mneme.turn.v1.accepted"
	TypeClaimProposed     = "io.mneme.claim.v1.proposed"
	TypeClaimEmbedded     = "io.mneme.claim.v1.embedded"
	TypeClaimConfirmed    = "io.mneme.claim.v1.confirmed"
	TypeDecisionRecorded  = "io.mneme.decision.v1.recorded"
	TypeErasureRequested  = "io.mneme.erasure.v1.requested"
	TypeErasureCompleted  = "io.mneme.erasure.v1.completed"
	TypeAuditRecorded     = "io.mneme.audit.v1.recorded"
	dataContentTypeJSON   = "application/json"
	namespaceMnemeClaimID = "6f0f5d0e-2b8c-4c8e-9a53-6d1f3f0c7a11"
)

// Envelope is a CloudEvents 1.0 structured-mode event. Data holds the JSON of the payload type named by Type.
type Envelope struct {
	SpecVersion     string    `json:"specversion"`
	ID              string    `json:"id"`
	Source          string    `json:"source"`
	Type            string    `json:"type"`
	Time            time.Time `json:"time"`
	DataContentType string    `json:"datacontenttype,omitempty"`
	Subject         string    `json:"subject,omitempty"`
	// Workspace is a CloudEvents extension attribute (lower-case, alphanumeric by the spec) so routers can
	// filter without decoding data.
	Workspace string          `json:"workspace,omitempty"`
	Data      json.RawMessage `json:"data"`
}

// ErrUnknownType is returned when an envelope names a type this version of Mneme does not know.
var ErrUnknownType = errors.New("event: unknown event type")

// New wraps payload in an envelope of the given type. id should be deterministic for the payload (for example
// derived from a turn id) so that a republished event is recognised by the broker's duplicate window.
func New(typ, id, source, workspace string, at time.Time, payload any) (Envelope, error) {
	data, err := json.Marshal(payload)
	if err != nil {
		return Envelope{}, fmt.Errorf("event: marshal %s payload: %w", typ, err)
	}
	return Envelope{
		SpecVersion:     SpecVersion,
		ID:              id,
		Source:          source,
		Type:            typ,
		Time:            at.UTC(),
		DataContentType: dataContentTypeJSON,
		Workspace:       workspace,
		Data:            data,
	}, nil
}

// Decode parses an envelope and checks the attributes CloudEvents requires.
func Decode(b []byte) (Envelope, error) {
	var e Envelope
	if err := json.Unmarshal(b, &e); err != nil {
		return Envelope{}, fmt.Errorf("event: decode envelope: %w", err)
	}
	switch {
	case e.SpecVersion != SpecVersion:
		return Envelope{}, fmt.Errorf("event: specversion %q, want %q", e.SpecVersion, SpecVersion)
	case e.ID == "":
		return Envelope{}, errors.New("event: id is required")
	case e.Source == "":
		return Envelope{}, errors.New("event: source is required")
	case e.Type == "":
		return Envelope{}, errors.New("event: type is required")
	case len(e.Data) == 0:
		return Envelope{}, errors.New("event: data is required")
	}
	return e, nil
}

// Payload decodes the envelope's data into the registered Go type for its event type.
func (e Envelope) Payload() (any, error) {
	newFn, ok := registry[e.Type]
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownType, e.Type)
	}
	v := newFn()
	if err := json.Unmarshal(e.Data, v); err != nil {
		return nil, fmt.Errorf("event: decode %s data: %w", e.Type, err)
	}
	return v, nil
}

// Into decodes the envelope's data into v after checking the type matches want.
func (e Envelope) Into(want string, v any) error {
	if e.Type != want {
		return fmt.Errorf("event: type %q, want %q", e.Type, want)
	}
	if err := json.Unmarshal(e.Data, v); err != nil {
		return fmt.Errorf("event: decode %s data: %w", e.Type, err)
	}
	return nil
}

var registry = map[string]func() any{
	TypeTurnAccepted:     func() any { return new(TurnAcceptedV1) },
	TypeClaimProposed:    func() any { return new(ClaimProposedV1) },
	TypeClaimEmbedded:    func() any { return new(ClaimEmbeddedV1) },
	TypeClaimConfirmed:   func() any { return new(ClaimConfirmedV1) },
	TypeDecisionRecorded: func() any { return new(DecisionRecordedV1) },
	TypeErasureRequested: func() any { return new(ErasureRequestedV1) },
	TypeErasureCompleted: func() any { return new(ErasureCompletedV1) },
	TypeAuditRecorded:    func() any { return new(AuditRecordedV1) },
}

// Types lists every registered event type, for schema tests.
func Types() []string {
	out := make([]string, 0, len(registry))
	for t := range registry {
		out = append(out, t)
	}
	return out
}

// NewPayload returns a pointer to a zero value of the Go type registered for typ.
func NewPayload(typ string) (any, bool) {
	f, ok := registry[typ]
	if !ok {
		return nil, false
	}
	return f(), true
}

// DeterministicID returns a UUIDv5 over the given parts, so the same logical input always gets the same id
// (turn ids, claim ids, decision ids): redelivery and duplicate publishing then have one effect.
func DeterministicID(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return uuid.NewSHA1(uuid.MustParse(namespaceMnemeClaimID), h.Sum(nil)).String()
}
