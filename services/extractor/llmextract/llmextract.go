// Package llmextract extracts claims from a window of turns with an LLM over the OpenAI-compatible chat API
// (pkg/llm): JSON-schema-constrained output where the server supports it (the client falls back to
// json_object and to prompting), tolerant parsing of what comes back, bounded retries with backoff, and
// token usage recorded under the stage "extract" and returned with every result.
package llmextract

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/tokens"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Stage is the accounting stage of extraction calls.
const Stage = "extract"

// PromptVersion changes whenever the prompt or schema changes; it is part of the extractor version.
const PromptVersion = "p1"

// Version is the provenance version of LLM-extracted claims.
const Version = "1.0.0+" + PromptVersion

// maxTurnTokens bounds one turn's content in the prompt; a longer turn is truncated rather than failing
// the window on the model's context length.
const maxTurnTokens = 4000

// Extractor is the LLM extractor. It is safe for concurrent use.
type Extractor struct {
	client    *llm.Client
	policy    *canon.Policy
	counter   *tokens.Counter
	maxTokens int
}

// Option configures an Extractor.
type Option func(*Extractor)

// WithPolicy sets the predicate policy (default canon.DefaultPolicy()). The policy decides the functional
// flag; the model's own judgement is used only for predicates the policy does not know.
func WithPolicy(p *canon.Policy) Option { return func(e *Extractor) { e.policy = p } }

// WithTokenizer sets the counter used to bound turn content in the prompt (default cl100k_base).
func WithTokenizer(c *tokens.Counter) Option { return func(e *Extractor) { e.counter = c } }

// WithMaxTokens sets max_tokens of each completion (default 0: the server's default).
func WithMaxTokens(n int) Option { return func(e *Extractor) { e.maxTokens = n } }

// New returns an LLM extractor using client.
func New(client *llm.Client, opts ...Option) *Extractor {
	e := &Extractor{client: client, policy: canon.DefaultPolicy(), counter: tokens.Default()}
	for _, o := range opts {
		o(e)
	}
	return e
}

// Name implements extract.Extractor: "llm:<model>".
func (e *Extractor) Name() string { return "llm:" + e.client.Model() }

// Version implements extract.Extractor.
func (e *Extractor) Version() string { return Version }

// Permanent reports whether an extraction error will not go away by retrying the same window: the server
// refused the request, the credentials, or kept answering without a usable claims list.
func Permanent(err error) bool {
	return errors.Is(err, llm.ErrBadRequest) || errors.Is(err, llm.ErrUnauthorized) ||
		errors.Is(err, llm.ErrMalformedResponse) || errors.Is(err, llm.ErrNotConfigured) ||
		errors.Is(err, llm.ErrRefused) || errors.Is(err, ErrInvalidOutput)
}

const systemPrompt = `You extract long-term memory from a conversation.
Return every fact worth remembering as an atomic, self-contained claim:
- one fact per claim; "text" is one sentence of at most 30 words that makes sense alone: name people instead of
  pronouns ("I", "my", "we" are the speaker of that turn), and state dates absolutely;
- "subject" is who or what the claim is about (a person's name, not a pronoun); "predicate" a short lower-case
  relation ("lives in", "works at", "married to", "favourite colour", "went to", "plans to"); "object" the value;
- "turn" is the index of the turn the claim comes from;
- resolve relative dates ("yesterday", "last week", "in May") against that turn's time and put the date the
  fact became true in "valid_from" as YYYY-MM-DD (or YYYY-MM, YYYY), else null;
- "functional" is true when the predicate holds one value at a time (where someone lives, their job, spouse,
  age, a capital city), false when values accumulate (likes, visits, hobbies);
- numbered facts ("12. ...") carry their number in "sequence", else null;
- "confidence" from 0 to 1;
- skip questions, greetings, negated statements, hypotheticals and wishes; do not invent facts.
Answer with JSON only: {"claims": [...]}; an empty list when there is nothing to remember.`

var claimSchema = json.RawMessage(`{
  "type": "object",
  "additionalProperties": false,
  "required": ["claims"],
  "properties": {
    "claims": {
      "type": "array",
      "items": {
        "type": "object",
        "additionalProperties": false,
        "required": ["turn", "subject", "predicate", "object", "text", "functional", "valid_from", "sequence", "confidence"],
        "properties": {
          "turn": {"type": "integer"},
          "subject": {"type": "string"},
          "predicate": {"type": "string"},
          "object": {"type": "string"},
          "text": {"type": "string"},
          "functional": {"type": "boolean"},
          "valid_from": {"type": ["string", "null"]},
          "sequence": {"type": ["integer", "null"]},
          "confidence": {"type": "number"}
        }
      }
    }
  }
}`)

type promptTurn struct {
	Turn    int    `json:"turn"`
	Speaker string `json:"speaker"`
	Time    string `json:"time"`
	Text    string `json:"text"`
}

// Messages returns the chat messages for a window (exported for tests and prompt inspection).
func (e *Extractor) Messages(w extract.Window) []llm.Message {
	turns := make([]promptTurn, len(w.Turns))
	for i, t := range w.Turns {
		turns[i] = promptTurn{Turn: i, Speaker: speaker(t.Speaker, t.Role), Time: t.OccurredAt.UTC().Format(time.RFC3339), Text: e.counter.Truncate(t.Content, maxTurnTokens)}
	}
	b, _ := json.Marshal(map[string]any{"turns": turns})
	return []llm.Message{llm.System(systemPrompt), llm.User(string(b))}
}

func speaker(s, role string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	if role != "" {
		return role
	}
	return "unknown"
}

// Extract implements extract.Extractor.
func (e *Extractor) Extract(ctx context.Context, w extract.Window) (extract.Result, error) {
	if len(w.Turns) == 0 {
		return extract.Result{}, nil
	}
	var out Output
	resp, err := e.client.ChatJSON(ctx, llm.ChatRequest{
		Stage:       Stage,
		Messages:    e.Messages(w),
		Temperature: 0,
		MaxTokens:   e.maxTokens,
		Schema:      &llm.JSONSchema{Name: "claims", Description: "Claims extracted from the turns", Schema: claimSchema, Strict: true},
	}, &out)
	if err != nil {
		return extract.Result{}, fmt.Errorf("llmextract: %w", err)
	}
	res := extract.Result{Usage: resp.Usage}
	for _, it := range out.Claims {
		if c, ok := e.claim(w, it); ok {
			res.Claims = append(res.Claims, c)
		}
	}
	return res, nil
}

// firstPersonSubjects are subjects a model may leave unresolved; they mean the turn's speaker.
var firstPersonSubjects = map[string]bool{"i": true, "me": true, "my": true, "myself": true, "speaker": true, "user": true, "we": true}

func (e *Extractor) claim(w extract.Window, it Item) (extract.Claim, bool) {
	ti := it.Turn
	if ti < 0 || ti >= len(w.Turns) {
		if len(w.Turns) != 1 {
			// Without a valid turn the claim cannot be attributed; one-turn windows need no index.
			return extract.Claim{}, false
		}
		ti = 0
	}
	t := w.Turns[ti]
	subject := it.Subject
	if firstPersonSubjects[strings.ToLower(subject)] {
		subject = speaker(t.Speaker, t.Role)
	}
	sk := canon.SubjectKey(subject)
	pk := canon.PredicateKey(it.Predicate)
	if sk == "" || pk == "" || strings.TrimSpace(it.Object) == "" {
		return extract.Claim{}, false
	}
	functional, known := e.policy.Lookup(pk)
	if !known && it.Functional != nil {
		functional = *it.Functional
	}
	validFrom := t.OccurredAt
	if v, ok := parseDate(it.ValidFrom); ok && !v.After(t.OccurredAt) {
		validFrom = v
	}
	seq := it.Sequence
	if seq == nil {
		seq = t.Sequence
	}
	conf := 0.7
	if it.Confidence != nil {
		conf = *it.Confidence
	}
	text := strings.TrimSpace(it.Text)
	if text == "" {
		text = canon.ClaimText(subject, it.Predicate, it.Object)
	}
	return extract.Claim{
		TurnIDs:      []string{t.TurnID},
		Subject:      subject,
		SubjectKey:   sk,
		Predicate:    it.Predicate,
		PredicateKey: pk,
		Object:       it.Object,
		Text:         text,
		Functional:   functional,
		ValidFrom:    validFrom,
		Sequence:     seq,
		Confidence:   conf,
	}, true
}

// parseDate reads the dates models write: RFC 3339, YYYY-MM-DD, YYYY-MM, YYYY.
func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "null") {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02", "2006-01", "2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}
