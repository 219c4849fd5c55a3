package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/promptguard"
)

// The tools' inputs. Their JSON fields are exactly the properties of the tool's input schema (schemas.go;
// TestSchemasMatchInputs keeps them in step).

type rememberIn struct {
	Content    string `json:"content"`
	Speaker    string `json:"speaker,omitempty"`
	Role       string `json:"role,omitempty"`
	SessionID  string `json:"session_id,omitempty"`
	TurnID     string `json:"turn_id,omitempty"`
	OccurredAt string `json:"occurred_at,omitempty"`
	Sequence   *int64 `json:"sequence,omitempty"`
	Scope      string `json:"scope,omitempty"`
}

type claimIn struct {
	Subject    string   `json:"subject"`
	Predicate  string   `json:"predicate"`
	Object     string   `json:"object"`
	Functional *bool    `json:"functional,omitempty"`
	Negated    bool     `json:"negated,omitempty"`
	ValidFrom  string   `json:"valid_from,omitempty"`
	Sequence   *int64   `json:"sequence,omitempty"`
	Scope      string   `json:"scope,omitempty"`
	Confidence *float64 `json:"confidence,omitempty"`
	Text       string   `json:"text,omitempty"`
	Source     string   `json:"source,omitempty"`
	ClaimID    string   `json:"claim_id,omitempty"`
}

type rememberClaimsIn struct {
	Claims []claimIn `json:"claims"`
}

type recallIn struct {
	Query          string `json:"query"`
	K              int    `json:"k,omitempty"`
	TokenBudget    int    `json:"token_budget,omitempty"`
	AsOf           string `json:"as_of,omitempty"`
	KnownAt        string `json:"known_at,omitempty"`
	IncludeHistory bool   `json:"include_history,omitempty"`
	Asker          string `json:"asker,omitempty"`
}

type answerIn struct {
	Question    string `json:"question"`
	AsOf        string `json:"as_of,omitempty"`
	KnownAt     string `json:"known_at,omitempty"`
	TokenBudget int    `json:"token_budget,omitempty"`
	Asker       string `json:"asker,omitempty"`
}

type timelineIn struct {
	Subject         string `json:"subject"`
	Slot            string `json:"slot,omitempty"`
	AsOf            string `json:"as_of,omitempty"`
	KnownAt         string `json:"known_at,omitempty"`
	DecisionsLimit  *int   `json:"decisions_limit,omitempty"`
	DecisionsCursor string `json:"decisions_cursor,omitempty"`
}

type confirmIn struct {
	ClaimID string `json:"claim_id"`
}

type eraseIn struct {
	Kind   string `json:"kind"`
	Target string `json:"target,omitempty"`
}

type erasureStatusIn struct {
	ErasureID string `json:"erasure_id"`
}

// defaultSession is the session of a remembered turn that names none.
const defaultSession = "mcp"

func (s *server) remember(ctx context.Context, in *rememberIn) (string, *api.AcceptedResponse, error) {
	at, err := parseTime("occurred_at", in.OccurredAt)
	if err != nil {
		return "", nil, err
	}
	t := api.TurnInput{TurnID: in.TurnID, SessionID: in.SessionID, Role: in.Role, Speaker: in.Speaker,
		Content: in.Content, OccurredAt: at, Sequence: in.Sequence, Scope: in.Scope}
	if t.SessionID == "" {
		t.SessionID = defaultSession
	}
	if t.Role == "" {
		t.Role = "user"
	}
	res, err := s.c.Turns(ctx, s.ws, api.TurnsRequest{Turns: []api.TurnInput{t}})
	if err != nil {
		return "", nil, err
	}
	msg := fmt.Sprintf("Remembered the turn in workspace %s (turn %s). The claims Mneme extracts from it become searchable within seconds.",
		s.ws, strings.Join(res.IDs, ", "))
	if len(res.Duplicates) > 0 {
		msg = fmt.Sprintf("Turn %s was already remembered; nothing changed.", strings.Join(res.Duplicates, ", "))
	}
	return msg, res, nil
}

func (s *server) rememberClaims(ctx context.Context, in *rememberClaimsIn) (string, *api.AcceptedResponse, error) {
	req := api.ClaimsRequest{Claims: make([]api.ClaimInput, len(in.Claims))}
	for i, c := range in.Claims {
		from, err := parseTime(fmt.Sprintf("claims[%d].valid_from", i), c.ValidFrom)
		if err != nil {
			return "", nil, err
		}
		req.Claims[i] = api.ClaimInput{ClaimID: c.ClaimID, Subject: c.Subject, Predicate: c.Predicate, Object: c.Object,
			Functional: c.Functional, Negated: c.Negated, ValidFrom: from, Sequence: c.Sequence, Scope: c.Scope,
			Confidence: c.Confidence, Text: c.Text, Source: c.Source}
	}
	res, err := s.c.Claims(ctx, s.ws, req)
	if err != nil {
		return "", nil, err
	}
	fresh := len(res.IDs) - len(res.Duplicates)
	msg := fmt.Sprintf("Remembered %d claim(s) in workspace %s; they are reconciled with what memory holds within seconds.", fresh, s.ws)
	if len(res.Duplicates) > 0 {
		msg += fmt.Sprintf(" %d were already known (no second effect).", len(res.Duplicates))
	}
	msg += "\nClaim ids: " + strings.Join(res.IDs, ", ")
	return msg, res, nil
}

func (s *server) recall(ctx context.Context, in *recallIn) (string, *api.SearchResponse, error) {
	asOf, err := parseTime("as_of", in.AsOf)
	if err != nil {
		return "", nil, err
	}
	knownAt, err := parseTime("known_at", in.KnownAt)
	if err != nil {
		return "", nil, err
	}
	res, err := s.c.Search(ctx, s.ws, api.SearchRequest{Query: in.Query, K: in.K, TokenBudget: in.TokenBudget,
		AsOf: asOf, KnownAt: knownAt, IncludeHistory: in.IncludeHistory, Asker: in.Asker})
	if err != nil {
		return "", nil, err
	}
	if len(res.Claims) == 0 || strings.TrimSpace(res.Context) == "" {
		return "Memory holds nothing that matches this query.", res, nil
	}
	return res.Context, res, nil
}

func (s *server) answer(ctx context.Context, in *answerIn) (string, *api.AnswerResponse, error) {
	asOf, err := parseTime("as_of", in.AsOf)
	if err != nil {
		return "", nil, err
	}
	knownAt, err := parseTime("known_at", in.KnownAt)
	if err != nil {
		return "", nil, err
	}
	res, err := s.c.Answer(ctx, s.ws, api.AnswerRequest{Question: in.Question, AsOf: asOf, KnownAt: knownAt, TokenBudget: in.TokenBudget,
		Asker: in.Asker})
	if err != nil {
		return "", nil, err
	}
	return renderAnswer(res), res, nil
}

// renderAnswer writes an answer for a model: the answer, then every claim it rests on as one line that names
// its writer and tier. Claim content goes through promptguard like every line of the query service's contexts
// (services/query renderLine): it cannot start a new line or role turn, carry a chat-template token or write a
// marker, so the only [DISPUTED] a model reads here is the one this function writes.
func renderAnswer(res *api.AnswerResponse) string {
	var b strings.Builder
	switch {
	case res.Answer == "" || res.Mode == "none":
		b.WriteString("Memory has no answer to this question.")
	case res.Mode == "statement":
		// No remembered relation answered: the statement is evidence to read, not a resolved value.
		b.WriteString("Memory resolved no fact for this question; the closest remembered statement: " + promptguard.Neutralize(res.Answer))
	default:
		b.WriteString(promptguard.Neutralize(res.Answer))
		if res.Disputed {
			b.WriteString("\n[DISPUTED] memory holds conflicting values of equal standing; both are listed below.")
		}
	}
	if len(res.ClaimsUsed) > 0 {
		b.WriteString("\nBased on:")
		for _, c := range res.ClaimsUsed {
			fmt.Fprintf(&b, "\n- %s (%s, valid %s; %s)", promptguard.Neutralize(c.Text), promptguard.Neutralize(c.Status),
				span(c.ValidFrom, c.ValidTo), promptguard.Attribution(c.Owner, c.Scope))
		}
	}
	for _, n := range res.Notes {
		b.WriteString("\nNote: " + promptguard.Neutralize(n))
	}
	return b.String()
}

func (s *server) timeline(ctx context.Context, in *timelineIn) (string, *api.SubjectResponse, error) {
	var o client.ReadOptions
	asOf, err := parseTime("as_of", in.AsOf)
	if err != nil {
		return "", nil, err
	}
	knownAt, err := parseTime("known_at", in.KnownAt)
	if err != nil {
		return "", nil, err
	}
	if asOf != nil {
		o.AsOf = *asOf
	}
	if knownAt != nil {
		o.KnownAt = *knownAt
	}
	o.Slot, o.DecisionsCursor = in.Slot, in.DecisionsCursor
	if in.DecisionsLimit != nil {
		// The client reads 0 as "the server's default" and a negative value as "none".
		o.DecisionsLimit = *in.DecisionsLimit
		if o.DecisionsLimit == 0 {
			o.DecisionsLimit = -1
		}
	}
	if in.DecisionsCursor != "" && in.Slot == "" {
		return "", nil, argErrorf("slot", "slot is required with decisions_cursor: give the slot_key whose decisions_next it is")
	}
	res, err := s.c.Subject(ctx, s.ws, in.Subject, o)
	if err != nil {
		return "", nil, err
	}
	return renderTimeline(res), res, nil
}

func (s *server) confirm(ctx context.Context, in *confirmIn) (string, *api.ConfirmResponse, error) {
	res, err := s.c.Confirm(ctx, s.ws, strings.ToLower(in.ClaimID))
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("Confirmation of claim %s recorded (confirmation %s). A pending claim becomes current when the reconciler applies it, within seconds.",
		res.ClaimID, res.ConfirmationID), res, nil
}

func (s *server) erase(ctx context.Context, in *eraseIn) (string, *api.Erasure, error) {
	switch {
	case in.Kind == api.EraseWorkspace && in.Target != "" && in.Target != s.ws:
		return "", nil, argErrorf("target", "a workspace erasure takes no target (this server acts on workspace %s only)", s.ws)
	case in.Kind != api.EraseWorkspace && strings.TrimSpace(in.Target) == "":
		return "", nil, argErrorf("target", "target is required for kind %s: the %s to forget", in.Kind, in.Kind)
	}
	res, err := s.c.RequestErasure(ctx, s.ws, api.ErasureRequest{Kind: in.Kind, Target: in.Target})
	if err != nil {
		return "", nil, err
	}
	return erasureText(res), res, nil
}

func (s *server) erasureStatus(ctx context.Context, in *erasureStatusIn) (string, *api.Erasure, error) {
	res, err := s.c.Erasure(ctx, s.ws, strings.ToLower(in.ErasureID))
	if err != nil {
		return "", nil, err
	}
	return erasureText(res), res, nil
}

func erasureText(e *api.Erasure) string {
	if e.Status == "completed" {
		return fmt.Sprintf("Erasure %s (%s) completed: %d claim(s) erased, %d source message(s) purged. Mneme keeps a record of "+
			"the erasure (who asked and when), never the erased content.", e.ErasureID, e.Kind, e.ClaimsErased, e.MessagesPurged)
	}
	return fmt.Sprintf("Erasure %s (%s) is %s; ask erasure_status with this erasure_id to see when it completes.", e.ErasureID, e.Kind, e.Status)
}

// renderTimeline writes a subject's timeline compactly for a model: per slot, the current value(s), then every
// belief version with its valid and transaction times, status, writer and tier, and the change that made it.
// Everything that comes from content (names, predicates, objects, decision reasons) is neutralized as in
// renderAnswer; the structured result keeps the raw values.
func renderTimeline(r *api.SubjectResponse) string {
	nz := promptguard.Neutralize
	var b strings.Builder
	fmt.Fprintf(&b, "%s (subject_key %s)", nz(r.Subject), nz(r.SubjectKey))
	if r.AsOf != nil {
		fmt.Fprintf(&b, ", as of %s", stamp(*r.AsOf))
	}
	if r.KnownAt != nil {
		fmt.Fprintf(&b, ", as memory believed at %s", stamp(*r.KnownAt))
	}
	for _, sl := range r.Slots {
		objects := map[string]string{}
		for _, e := range sl.Timeline {
			objects[e.ClaimID] = nz(e.Object)
		}
		kind := "accumulating"
		if sl.Functional {
			kind = "single-valued"
		}
		fmt.Fprintf(&b, "\n\n%s [slot %s, %s]", nz(sl.Predicate), nz(sl.SlotKey), kind)
		cur := make([]string, 0, len(sl.Current))
		for _, id := range sl.Current {
			cur = append(cur, objects[id])
		}
		switch {
		case len(cur) == 0:
			b.WriteString("\n  current: none")
		case sl.Disputed:
			fmt.Fprintf(&b, "\n  current: DISPUTED between %s", strings.Join(cur, " | "))
		default:
			fmt.Fprintf(&b, "\n  current: %s", strings.Join(cur, " | "))
		}
		for _, e := range sl.Timeline {
			if e.RetiredAt != nil {
				continue // a belief memory no longer holds; the structured result keeps it
			}
			fmt.Fprintf(&b, "\n  - %s: %s, valid %s, recorded %s, %s, claim %s", objects[e.ClaimID], nz(e.Status), span(e.ValidFrom, e.ValidTo),
				stamp(e.RecordedAt), promptguard.Attribution(e.Owner, e.Scope), nz(e.ClaimID))
			for _, by := range e.SupersededBy {
				fmt.Fprintf(&b, "; superseded by %s", objects[by.ClaimID])
			}
			if e.Negated {
				b.WriteString("; negated")
			}
			if len(e.Contradicts) > 0 {
				fmt.Fprintf(&b, "; contradicts %d claim(s)", len(e.Contradicts))
			}
		}
		for _, d := range sl.Decisions {
			fmt.Fprintf(&b, "\n  decision %s: %s → %s (%s)", stamp(d.DecidedAt), nz(d.Operator), nz(d.Outcome), nz(d.Reason))
		}
		if sl.DecisionsNext != "" {
			fmt.Fprintf(&b, "\n  (%d more decisions: decisions_cursor %s with slot %s)", sl.DecisionsTotal-len(sl.Decisions), nz(sl.DecisionsNext), nz(sl.SlotKey))
		}
	}
	if r.Truncated {
		b.WriteString("\n\n(the subject has more versions than one answer carries)")
	}
	return b.String()
}

// span renders a valid-time interval.
func span(from time.Time, to *time.Time) string {
	if to == nil {
		return stamp(from) + " → now"
	}
	return stamp(from) + " → " + stamp(*to)
}

// stamp renders a time as its date when it is midnight UTC, else to the second.
func stamp(t time.Time) string {
	t = t.UTC()
	if t.Equal(t.Truncate(24 * time.Hour)) {
		return t.Format(time.DateOnly)
	}
	return t.Format(time.RFC3339)
}

// errNotServed is returned by the in-process transport for an endpoint this process does not serve.
var errNotServed = errors.New("not served by this process")
