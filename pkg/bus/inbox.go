package bus

import (
	"errors"
	"fmt"
	"strings"
)

// Inbox batch kinds: the last token of an inbox subject.
const (
	InboxKindTurns  = "turns"
	InboxKindClaims = "claims"
)

// inboxPrefix starts every inbox subject.
const inboxPrefix = "mneme.inbox."

// agentDotEscape replaces '.' in an agent id inside a subject token: '.' separates NATS subject tokens, and
// '%' is not in the agent id alphabet ([A-Za-z0-9._:@-], auth.ValidAgentID), so the encoding is reversible
// and every agent id has exactly one token.
const agentDotEscape = "%2E"

// AgentToken encodes an agent id as one NATS subject token: every '.' becomes "%2E" ("planner.eu" →
// "planner%2Eeu"). The other characters agent ids may hold are valid in a token as they are.
func AgentToken(agent string) string { return strings.ReplaceAll(agent, ".", agentDotEscape) }

// ParseAgentToken decodes a subject token made by AgentToken. It accepts only the canonical encoding, so two
// different tokens never name the same agent.
func ParseAgentToken(tok string) (string, error) {
	if tok == "" {
		return "", errors.New("agent token is empty")
	}
	agent := strings.ReplaceAll(tok, agentDotEscape, ".")
	if strings.ContainsAny(agent, "%*>") || AgentToken(agent) != tok {
		return "", fmt.Errorf("agent token %q is not an encoded agent id ('.' is written %s; no other escapes)", tok, agentDotEscape)
	}
	return agent, nil
}

// InboxAgentSubject is where an agent publishes a batch of kind (InboxKindTurns or InboxKindClaims) as itself:
// mneme.inbox.<ws>.<agent token>.<kind>. An agent's NATS credential allows publishing to its own two subjects
// only, so ingest takes the agent from the subject.
func InboxAgentSubject(ws, agent, kind string) string {
	return inboxPrefix + ws + "." + AgentToken(agent) + "." + kind
}

// InboxSubject is a parsed inbox subject.
type InboxSubject struct {
	Workspace string
	// Agent is the agent named by the subject; empty for the development-only form mneme.inbox.<ws>.<kind>,
	// where the agent comes from the X-Mneme-Agent header or the items.
	Agent string
	// Kind is InboxKindTurns or InboxKindClaims.
	Kind string
}

// Bound reports whether the subject names its agent (the credential-bound form).
func (s InboxSubject) Bound() bool { return s.Agent != "" }

// ParseInboxSubject parses mneme.inbox.<ws>.<agent token>.<kind> (credential-bound) or mneme.inbox.<ws>.<kind>
// (development mode only). It checks the structure and the agent token's encoding; the caller validates the
// workspace and agent ids.
func ParseInboxSubject(subject string) (InboxSubject, error) {
	rest, ok := strings.CutPrefix(subject, inboxPrefix)
	if !ok {
		return InboxSubject{}, fmt.Errorf("%q is not an inbox subject (mneme.inbox.<workspace>.<agent>.turns|claims)", subject)
	}
	parts := strings.Split(rest, ".")
	var s InboxSubject
	switch len(parts) {
	case 2:
		s = InboxSubject{Workspace: parts[0], Kind: parts[1]}
	case 3:
		agent, err := ParseAgentToken(parts[1])
		if err != nil {
			return InboxSubject{}, fmt.Errorf("subject %q: %w", subject, err)
		}
		s = InboxSubject{Workspace: parts[0], Agent: agent, Kind: parts[2]}
	default:
		return InboxSubject{}, fmt.Errorf("%q is not an inbox subject (mneme.inbox.<workspace>.<agent>.turns|claims)", subject)
	}
	if s.Kind != InboxKindTurns && s.Kind != InboxKindClaims {
		return InboxSubject{}, fmt.Errorf("%q is not an inbox subject: the last token must be turns or claims", subject)
	}
	return s, nil
}
