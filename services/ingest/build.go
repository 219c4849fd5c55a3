package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/event"
)

// Event attributes of what ingest publishes.
const (
	eventSource = "mneme/ingest"
	// extractorStructured marks caller-supplied claims in provenance.
	extractorStructured = "structured"
	// structuredVersion versions how ingest turns a structured claim into a ClaimProposedV1 (defaults, text
	// generation, id derivation); bump it when any of that changes.
	structuredVersion = "1"
	// defaultConfidence of a structured claim: the caller states it as a fact.
	defaultConfidence = 1.0
)

// Batch kinds: the last token of the inbox subject and of the HTTP path.
const (
	kindTurns  = bus.InboxKindTurns
	kindClaims = bus.InboxKindClaims
)

// decodeBatch validates a whole body of the given kind and builds its events; any bad item rejects the batch.
func (s *Service) decodeBatch(kind string, o batchOrigin, body []byte) ([]outEvent, *api.HTTPError) {
	defer s.enterDecode()()
	switch kind {
	case kindTurns:
		var req api.TurnsRequest
		if ierr := decodeStrict(body, s.cfg.MaxBodyBytes, s.scanLimits(kindTurns), s.turnsSchema, &req); ierr != nil {
			return nil, ierr
		}
		return s.buildTurns(o, &req)
	case kindClaims:
		var req api.ClaimsRequest
		if ierr := decodeStrict(body, s.cfg.MaxBodyBytes, s.scanLimits(kindClaims), s.claimsSchema, &req); ierr != nil {
			return nil, ierr
		}
		return s.buildClaims(o, &req)
	}
	return nil, api.BadRequest("", "unknown batch kind %q", kind)
}

// batchOrigin says where a batch came from; it decides how the agent is found and how missing ids are made.
type batchOrigin struct {
	workspace string
	// headerAgent is the writing agent: on HTTP the authenticated X-Mneme-Agent, on NATS the agent of a
	// credential-bound inbox subject, else (development-only subject form) the message's X-Mneme-Agent header,
	// which may be "".
	headerAgent string
	// bound is true when headerAgent comes from a credential (HTTP, or a credential-bound inbox subject): an
	// item's agent_id must then equal it. In the development-only subject form an item's agent_id overrides it.
	bound bool
	// boundBy names where a bound agent comes from, for error messages ("the X-Mneme-Agent header").
	boundBy string
	// receivedAt is the default valid time: now on HTTP, the inbox message's stream time on NATS (stable
	// across redeliveries, so derived ids are too).
	receivedAt time.Time
	// newTurnID makes the id of the i-th turn when it has none.
	newTurnID func(i int) string
}

// outEvent is one event to publish and the id reported to the caller.
type outEvent struct {
	reportID string
	agent    string
	subject  string
	env      event.Envelope
}

// itemAgent decides the agent of one item.
func (o batchOrigin) itemAgent(field, itemAgent string) (string, *api.HTTPError) {
	switch {
	case o.bound && itemAgent != "" && itemAgent != o.headerAgent:
		return "", api.Forbidden(field, "agent_id %q differs from the agent of %s, %q: an agent may only write as itself", itemAgent, o.boundBy, o.headerAgent)
	case itemAgent != "":
		return itemAgent, nil
	case o.headerAgent == "":
		return "", api.BadRequest(field, "is required: set agent_id on the item or the %s message header", api.HeaderAgent)
	}
	if err := auth.ValidAgentID(o.headerAgent); err != nil {
		return "", api.BadRequest(api.HeaderAgent, "%v", err)
	}
	return o.headerAgent, nil
}

// checkText enforces what every stored string needs beyond the schema: a byte limit and no NUL characters
// (Postgres text and jsonb cannot hold them).
func checkText(field, s string, limit int) *api.HTTPError {
	if len(s) > limit {
		return api.TooLarge(field, int64(limit), "bytes", "is %d bytes", len(s))
	}
	if strings.IndexByte(s, 0) >= 0 {
		return api.BadRequest(field, "contains a NUL character")
	}
	return nil
}

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// buildTurns validates a decoded turns batch and turns it into TurnAcceptedV1 events. One bad turn rejects
// the batch.
func (s *Service) buildTurns(o batchOrigin, req *api.TurnsRequest) ([]outEvent, *api.HTTPError) {
	if len(req.Turns) == 0 {
		return nil, api.BadRequest("turns", "must have at least 1 item")
	}
	if len(req.Turns) > s.cfg.MaxTurnsPerBatch {
		return nil, api.TooLarge("turns", int64(s.cfg.MaxTurnsPerBatch), "items", "has %d turns", len(req.Turns))
	}
	out := make([]outEvent, 0, len(req.Turns))
	for i, t := range req.Turns {
		at := func(name string) string { return "turns[" + strconv.Itoa(i) + "]." + name }
		agent, ierr := o.itemAgent(at("agent_id"), t.AgentID)
		if ierr != nil {
			return nil, ierr
		}
		for _, f := range []struct {
			name, v string
			limit   int
		}{
			{"turn_id", t.TurnID, s.cfg.MaxIDBytes},
			{"session_id", t.SessionID, s.cfg.MaxIDBytes},
			{"speaker", t.Speaker, s.cfg.MaxIDBytes},
			{"content", t.Content, s.cfg.MaxTurnContentBytes},
		} {
			if ierr := checkText(at(f.name), f.v, f.limit); ierr != nil {
				return nil, ierr
			}
		}
		if blank(t.SessionID) {
			return nil, api.BadRequest(at("session_id"), "must not be blank")
		}
		if blank(t.Content) {
			return nil, api.BadRequest(at("content"), "must not be blank")
		}
		if t.TurnID != "" && blank(t.TurnID) {
			return nil, api.BadRequest(at("turn_id"), "must not be blank")
		}
		if !slices.Contains(s.cfg.AllowedRoles, t.Role) {
			return nil, api.BadRequest(at("role"), "must be one of %s, got %q", strings.Join(s.cfg.AllowedRoles, ", "), t.Role)
		}
		scope, ierr := parseScope(at("scope"), t.Scope)
		if ierr != nil {
			return nil, ierr
		}
		if t.Metadata != nil {
			mb, err := json.Marshal(t.Metadata)
			if err != nil {
				return nil, api.BadRequest(at("metadata"), "cannot be encoded as JSON: %v", err)
			}
			if len(mb) > s.cfg.MaxMetadataBytes {
				return nil, api.TooLarge(at("metadata"), int64(s.cfg.MaxMetadataBytes), "bytes", "is %d bytes as JSON", len(mb))
			}
			if bytes.Contains(mb, []byte(`\u0000`)) {
				return nil, api.BadRequest(at("metadata"), "contains a NUL character")
			}
		}
		occurred := o.receivedAt
		if t.OccurredAt != nil {
			occurred = *t.OccurredAt
		}
		turnID := t.TurnID
		if turnID == "" {
			turnID = o.newTurnID(i)
		}
		payload := event.TurnAcceptedV1{
			Workspace:  o.workspace,
			TurnID:     turnID,
			AgentID:    agent,
			SessionID:  t.SessionID,
			Role:       t.Role,
			Speaker:    t.Speaker,
			Content:    t.Content,
			OccurredAt: occurred.UTC(),
			ReceivedAt: o.receivedAt.UTC(),
			Sequence:   t.Sequence,
			Scope:      scope,
			Metadata:   t.Metadata,
		}
		id := event.DeterministicID(o.workspace, agent, turnID)
		env, err := event.New(event.TypeTurnAccepted, id, eventSource, o.workspace, o.receivedAt, payload)
		if err != nil {
			return nil, api.BadRequest(at("metadata"), "cannot be encoded as JSON: %v", err)
		}
		env.Subject = turnID
		out = append(out, outEvent{reportID: turnID, agent: agent, subject: bus.TurnsSubject(o.workspace), env: env})
	}
	return out, nil
}

func parseScope(field, s string) (event.Scope, *api.HTTPError) {
	if s == "" {
		return event.ScopeShared, nil
	}
	sc := event.Scope(s)
	if !sc.Valid() {
		return "", api.BadRequest(field, "must be private or shared, got %q", s)
	}
	return sc, nil
}

// buildClaims validates a decoded claims batch, canonicalizes each claim and turns it into a ClaimProposedV1
// event. One bad claim rejects the batch.
func (s *Service) buildClaims(o batchOrigin, req *api.ClaimsRequest) ([]outEvent, *api.HTTPError) {
	if len(req.Claims) == 0 {
		return nil, api.BadRequest("claims", "must have at least 1 item")
	}
	if len(req.Claims) > s.cfg.MaxClaimsPerBatch {
		return nil, api.TooLarge("claims", int64(s.cfg.MaxClaimsPerBatch), "items", "has %d claims", len(req.Claims))
	}
	out := make([]outEvent, 0, len(req.Claims))
	for i, c := range req.Claims {
		at := func(name string) string { return "claims[" + strconv.Itoa(i) + "]." + name }
		agent, ierr := o.itemAgent(at("agent_id"), c.AgentID)
		if ierr != nil {
			return nil, ierr
		}
		for _, f := range []struct {
			name, v string
			limit   int
		}{
			{"claim_id", c.ClaimID, s.cfg.MaxIDBytes},
			{"subject", c.Subject, s.cfg.MaxSubjectBytes},
			{"predicate", c.Predicate, s.cfg.MaxPredicateBytes},
			{"object", c.Object, s.cfg.MaxObjectBytes},
			{"text", c.Text, s.cfg.MaxClaimTextBytes},
			{"source", c.Source, s.cfg.MaxSourceBytes},
		} {
			if ierr := checkText(at(f.name), f.v, f.limit); ierr != nil {
				return nil, ierr
			}
		}
		if c.ClaimID != "" && blank(c.ClaimID) {
			return nil, api.BadRequest(at("claim_id"), "must not be blank")
		}
		if c.Text != "" && blank(c.Text) {
			return nil, api.BadRequest(at("text"), "must not be blank")
		}
		if blank(c.Object) {
			return nil, api.BadRequest(at("object"), "must not be blank")
		}
		subjectKey := canon.SubjectKey(c.Subject)
		if subjectKey == "" {
			return nil, api.BadRequest(at("subject"), "has no letters or digits to key it by")
		}
		if len(subjectKey) > ceilingSubjectBytes {
			return nil, api.TooLarge(at("subject"), ceilingSubjectBytes, "bytes", "canonical key is %d bytes", len(subjectKey))
		}
		predicateKey := canon.PredicateKey(c.Predicate)
		if predicateKey == "" {
			return nil, api.BadRequest(at("predicate"), "has no words to key it by")
		}
		if len(predicateKey) > ceilingPredicateBytes {
			return nil, api.TooLarge(at("predicate"), ceilingPredicateBytes, "bytes", "canonical key is %d bytes", len(predicateKey))
		}
		scope, ierr := parseScope(at("scope"), c.Scope)
		if ierr != nil {
			return nil, ierr
		}
		confidence := defaultConfidence
		if c.Confidence != nil {
			confidence = *c.Confidence
			if !(confidence >= 0 && confidence <= 1) {
				return nil, api.BadRequest(at("confidence"), "must be between 0 and 1, got %v", confidence)
			}
		}
		functional := s.policy.Functional(predicateKey)
		if c.Functional != nil {
			functional = *c.Functional
		}
		validFrom := o.receivedAt
		if c.ValidFrom != nil {
			validFrom = *c.ValidFrom
		}
		validFrom = validFrom.UTC()
		text := c.Text
		if text == "" {
			text = canon.ClaimText(c.Subject, c.Predicate, c.Object)
			if c.Negated {
				text = negatedText(text)
			}
			if len(text) > ceilingTextBytes {
				return nil, api.TooLarge(at("text"), ceilingTextBytes, "bytes", "the text generated from subject, predicate and object is %d bytes: send a shorter text", len(text))
			}
		}
		claimID := claimIDFor(o.workspace, agent, c.ClaimID, subjectKey, predicateKey, c.Object, validFrom, c.Sequence, c.Negated)
		payload := event.ClaimProposedV1{
			ClaimID:      claimID,
			Workspace:    o.workspace,
			Subject:      c.Subject,
			SubjectKey:   subjectKey,
			Predicate:    c.Predicate,
			PredicateKey: predicateKey,
			Object:       c.Object,
			Text:         text,
			Functional:   functional,
			ValidFrom:    validFrom,
			Sequence:     c.Sequence,
			Scope:        scope,
			Confidence:   confidence,
			Provenance: event.Provenance{
				AgentID:          agent,
				Extractor:        extractorStructured,
				ExtractorVersion: structuredVersion,
				SourceRef:        c.Source,
			},
			ProposedAt: o.receivedAt.UTC(),
			Negated:    c.Negated,
		}
		env, err := event.New(event.TypeClaimProposed, claimID, eventSource, o.workspace, o.receivedAt, payload)
		if err != nil {
			return nil, api.BadRequest(at("subject"), "cannot be encoded as JSON: %v", err)
		}
		env.Subject = subjectKey
		out = append(out, outEvent{reportID: claimID, agent: agent, subject: bus.ProposedSubject(o.workspace), env: env})
	}
	return out, nil
}

// claimIDFor derives a claim's id (a UUID, the claims table's primary key). A caller's claim_id is scoped by
// workspace and agent before it becomes the id, so one workspace can never collide with, or pre-empt, another's
// claims; without one the id is derived from the content, so the same statement published twice is one claim.
func claimIDFor(ws, agent, given, subjectKey, predicateKey, object string, validFrom time.Time, seq *int64, negated bool) string {
	if given != "" {
		return event.DeterministicID("claim_id", ws, agent, given)
	}
	seqPart := ""
	if seq != nil {
		seqPart = strconv.FormatInt(*seq, 10)
	}
	if negated {
		// "Alice has never used Zotero" is another claim than "Alice has used Zotero"; positive ids keep the
		// derivation they always had.
		return event.DeterministicID(ws, agent, subjectKey, predicateKey, object, validFrom.Format(time.RFC3339Nano), seqPart, "negated")
	}
	return event.DeterministicID(ws, agent, subjectKey, predicateKey, object, validFrom.Format(time.RFC3339Nano), seqPart)
}

// negatedText words a generated claim text as a negative assertion ("Alice uses Zotero." → "It is not true
// that Alice uses Zotero.").
func negatedText(text string) string {
	return "It is not true that " + text
}

// randomTurnIDs makes ids for HTTP turns sent without one: a retried request then makes new turns, which is
// why callers that retry should send turn_id.
func randomTurnIDs(int) string { return uuid.NewString() }

// inboxTurnIDs makes ids for inbox turns sent without one from the message's stream position, so a
// redelivered message yields the same ids and its events are deduplicated.
func inboxTurnIDs(ws, stream string, seq uint64) func(int) string {
	return func(i int) string {
		return event.DeterministicID("inbox-turn", ws, stream, strconv.FormatUint(seq, 10), strconv.Itoa(i))
	}
}
