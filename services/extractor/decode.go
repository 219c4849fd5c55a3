package extractor

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/event"
)

// errPoison marks input that can never be processed; the turn is dead-lettered at once.
var errPoison = errors.New("extractor: unprocessable turn")

func poison(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errPoison, fmt.Sprintf(format, args...))
}

// maxContentBytes bounds the content the extractor reads from one turn; ingest's limit is far lower, so a
// larger turn did not come through ingest.
const maxContentBytes = 1 << 20

// decodeTurn decodes and checks one message of the turns stream: a CloudEvents envelope of type
// io.mneme.turn.v1.accepted whose workspace matches the subject (mneme.turns.<ws>). Every error wraps
// errPoison.
func decodeTurn(subject string, data []byte) (event.TurnAcceptedV1, error) {
	var t event.TurnAcceptedV1
	ws, ok := strings.CutPrefix(subject, "mneme.turns.")
	if !ok || ws == "" || strings.Contains(ws, ".") {
		return t, poison("subject %q is not mneme.turns.<workspace>", subject)
	}
	env, err := event.Decode(data)
	if err != nil {
		return t, poison("%v", err)
	}
	if err := env.Into(event.TypeTurnAccepted, &t); err != nil {
		return t, poison("%v", err)
	}
	switch {
	case t.Workspace != ws:
		return t, poison("workspace %q in data does not match subject %q", t.Workspace, subject)
	case env.Workspace != "" && env.Workspace != ws:
		return t, poison("envelope workspace %q does not match subject %q", env.Workspace, subject)
	case t.TurnID == "":
		return t, poison("turn_id is required")
	case t.AgentID == "":
		return t, poison("agent_id is required")
	case !utf8.ValidString(t.Content) || !utf8.ValidString(t.Speaker) || !utf8.ValidString(t.SessionID):
		return t, poison("content, speaker and session_id must be UTF-8")
	case len(t.Content) > maxContentBytes:
		return t, poison("content is %d bytes, more than %d", len(t.Content), maxContentBytes)
	}
	if t.OccurredAt.IsZero() {
		t.OccurredAt = t.ReceivedAt
	}
	if t.OccurredAt.IsZero() {
		t.OccurredAt = env.Time
	}
	if t.ReceivedAt.IsZero() {
		t.ReceivedAt = t.OccurredAt
	}
	switch {
	case t.Scope == "":
		t.Scope = event.ScopeShared
	case !t.Scope.Valid():
		// Guessing could publish a private turn's claims to the shared tier.
		return t, poison("scope %q is neither private nor shared", t.Scope)
	}
	return t, nil
}
