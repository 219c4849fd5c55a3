package mcpserver

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// The limits the tool schemas state are the defaults of the services behind them; a deployment that
// configures tighter ones answers with an error that names the field and its own limit.
const (
	maxQueryChars   = 4096 // MNEME_QUERY_MAX_QUERY_BYTES
	maxK            = 100  // MNEME_QUERY_MAX_K
	maxTokenBudget  = 8000 // MNEME_QUERY_MAX_TOKEN_BUDGET
	maxContentChars = 65536
	maxIDChars      = 256  // MNEME_INGEST_MAX_ID_BYTES
	maxClaims       = 1000 // MNEME_INGEST_MAX_CLAIMS_PER_BATCH
	maxSubjectChars = 512
	maxPredChars    = 256
	maxObjectChars  = 4096
	maxTextChars    = 8192
	maxSourceChars  = 2048
	maxDecisions    = 500 // api.MaxDecisionsLimit
	maxCursorChars  = 2048
	maxSlotChars    = 512
)

const uuidPattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"

// timeDescription is appended to every time argument's description.
const timeDescription = " An RFC 3339 time such as 2024-06-01T12:00:00Z, or a date such as 2024-06-01 (midnight UTC)."

func object(required []string, props map[string]*jsonschema.Schema) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "object", Properties: props, Required: required, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
}

func text(desc string, minLen, maxLen int) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc, MaxLength: jsonschema.Ptr(maxLen)}
	if minLen > 0 {
		s.MinLength = jsonschema.Ptr(minLen)
	}
	return s
}

func oneOf(desc string, values ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string", Description: desc}
	for _, v := range values {
		s.Enum = append(s.Enum, v)
	}
	return s
}

func integer(desc string, minimum, maximum float64) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "integer", Description: desc, Minimum: jsonschema.Ptr(minimum), Maximum: jsonschema.Ptr(maximum)}
}

func boolean(desc string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: "boolean", Description: desc}
}

func timeArg(desc string) *jsonschema.Schema {
	return text(desc+timeDescription, 1, 64)
}

func uuidArg(desc string) *jsonschema.Schema {
	s := text(desc, 36, 36)
	s.Pattern = uuidPattern
	return s
}

// sequence is an ordinal from the source; JSON Schema integers are exact only within ±2^53 in most clients.
func sequenceArg(desc string) *jsonschema.Schema {
	return integer(desc, -(1 << 53), 1<<53)
}

var (
	rememberSchema = object([]string{"content"}, map[string]*jsonschema.Schema{
		"content": text("What was said, verbatim: one utterance of the conversation. Mneme extracts atomic claims from it "+
			"(first-person statements are attributed to the speaker).", 1, maxContentChars),
		"speaker": text("Who said it, by name (\"Alice\"); first-person claims (\"I moved to Lisbon\") are about this person. "+
			"Give it whenever the speaker is a person.", 0, maxIDChars),
		"role": oneOf("The speaker's role in the conversation; default user.", "user", "assistant", "system", "tool"),
		"session_id": text("The conversation this turn belongs to; turns of one session are read together (pronouns "+
			"resolve against earlier turns). Default \"mcp\".", 1, maxIDChars),
		"turn_id": text("A stable id of this turn: sending the same turn_id again has no second effect. "+
			"Generated when absent (then a resend is stored twice).", 1, maxIDChars),
		"occurred_at": timeArg("When it was said (the valid time of what it states); default now."),
		"sequence":    sequenceArg("An ordinal from the source that orders turns with the same occurred_at."),
		"scope":       oneOf("shared (default): every agent of the workspace may read the claims; private: only this agent.", "shared", "private"),
	})

	claimSchema = object([]string{"subject", "predicate", "object"}, map[string]*jsonschema.Schema{
		"subject":   text("Who or what the claim is about, by name (\"Alice\", \"Project Apollo\").", 1, maxSubjectChars),
		"predicate": text("The attribute or relation, as a short verb phrase (\"lives in\", \"launch date\", \"works at\").", 1, maxPredChars),
		"object":    text("The value (\"Berlin\", \"March 3\").", 1, maxObjectChars),
		"functional": boolean("true: a single-valued attribute, so a newer value supersedes the old one (where someone lives); " +
			"false: values accumulate (languages someone speaks). Absent: the server's predicate policy decides."),
		"negated": boolean("true states a negative (\"Alice has never lived in Rome\": predicate \"lives in\", object \"Rome\"). " +
			"A negated claim never overrides a positive one; memory links the two and shows both."),
		"valid_from": timeArg("When the claim became true in the world; default now. An older valid_from than the current value's " +
			"is recorded as history, not as the current value."),
		"sequence":   sequenceArg("An ordinal from the source that orders claims with the same valid_from."),
		"scope":      oneOf("shared (default): every agent of the workspace may read it; private: only this agent.", "shared", "private"),
		"confidence": {Type: "number", Description: "How sure the source is, 0 to 1; default 1.", Minimum: jsonschema.Ptr(0.0), Maximum: jsonschema.Ptr(1.0)},
		"text":       text("The claim as one self-contained sentence; generated from subject, predicate and object when absent.", 1, maxTextChars),
		"source":     text("Where the claim came from (document id, URL, message id), kept as its provenance.", 0, maxSourceChars),
		"claim_id":   text("A stable id of this claim: sending it again has no second effect. Derived from the content when absent.", 1, maxIDChars),
	})

	rememberClaimsSchema = object([]string{"claims"}, map[string]*jsonschema.Schema{
		"claims": {Type: "array", Description: "The claims to store, all or none.", Items: claimSchema,
			MinItems: jsonschema.Ptr(1), MaxItems: jsonschema.Ptr(maxClaims)},
	})

	// askerArg is the person the assistant asks for: "my sister" in the question is theirs.
	askerArg = text("The person you ask for, by the name memory knows them by (\"Kim\"): \"I\" and \"my\" in the "+
		"question are read as them, so \"Where does my sister work?\" finds what Kim said of her sister.", 1, 200)

	recallSchema = object([]string{"query"}, map[string]*jsonschema.Schema{
		"query": text("What to look up, as a question or keywords (\"Where does Alice live?\").", 1, maxQueryChars),
		"k":     integer("At most this many claims; default 10.", 1, maxK),
		"token_budget": integer("At most this many tokens of context (cl100k); default 500. Smaller budgets keep the most "+
			"relevant claims.", 1, maxTokenBudget),
		"as_of":           timeArg("Read what was true in the world at this time (valid time) instead of now."),
		"known_at":        timeArg("Read what memory believed at this time (transaction time) instead of now."),
		"include_history": boolean("Also return superseded values (history), not only current ones."),
		"asker":           askerArg,
	})

	answerSchema = object([]string{"question"}, map[string]*jsonschema.Schema{
		"question":     text("The question (\"Where does Alice live?\"). Answered deterministically from current claims.", 1, maxQueryChars),
		"as_of":        timeArg("Answer as of this time in the world (valid time)."),
		"known_at":     timeArg("Answer from what memory believed at this time (transaction time)."),
		"token_budget": integer("At most this many tokens of context behind the answer; default 500.", 1, maxTokenBudget),
		"asker":        askerArg,
	})

	timelineSchema = object([]string{"subject"}, map[string]*jsonschema.Schema{
		"subject":         text("The subject, by name or canonical key (\"Alice\" or \"alice\").", 1, maxSubjectChars),
		"slot":            text("Only this attribute: a slot_key from an earlier timeline (\"lives_in\").", 1, maxSlotChars),
		"as_of":           timeArg("Current values as of this time in the world (valid time)."),
		"known_at":        timeArg("The timeline as memory believed it at this time (transaction time)."),
		"decisions_limit": integer("At most this many resolution decisions per slot; default 50.", 0, maxDecisions),
		"decisions_cursor": text("Continue a slot's decisions: the decisions_next of the previous call (give slot too).",
			1, maxCursorChars),
	})

	confirmSchema = object([]string{"claim_id"}, map[string]*jsonschema.Schema{
		"claim_id": uuidArg("The id of the pending claim to confirm (a UUID from recall or subject_timeline)."),
	})

	eraseSchema = object([]string{"kind"}, map[string]*jsonschema.Schema{
		"kind": oneOf("subject: forget everything about one subject; agent: forget every claim one agent made; "+
			"workspace: forget the whole workspace (needs an admin key).", "subject", "agent", "workspace"),
		"target": text("The subject (name or key) for kind subject, the agent id for kind agent; omit for workspace.", 1, maxSubjectChars),
	})

	erasureStatusSchema = object([]string{"erasure_id"}, map[string]*jsonschema.Schema{
		"erasure_id": uuidArg("The erasure_id an erase call returned."),
	})
)
