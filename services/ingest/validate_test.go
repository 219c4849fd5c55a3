package ingest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/schemas"
)

var testTime = time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)

func core(t testing.TB, mutate func(*Config)) *Service {
	t.Helper()
	cfg := DefaultConfig()
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := newCore(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func httpOrigin(agent string) batchOrigin {
	return batchOrigin{workspace: "acme", headerAgent: agent, bound: true, boundBy: "the X-Mneme-Agent header", receivedAt: testTime, newTurnID: randomTurnIDs}
}

func natsOrigin(agent string) batchOrigin {
	return batchOrigin{workspace: "acme", headerAgent: agent, receivedAt: testTime, newTurnID: inboxTurnIDs("acme", "MNEME_INBOX", 7)}
}

// turns builds a turns body from item objects given as JSON fragments.
func turns(items ...string) string { return `{"turns":[` + strings.Join(items, ",") + `]}` }

func claims(items ...string) string { return `{"claims":[` + strings.Join(items, ",") + `]}` }

const goodTurn = `{"session_id":"s1","role":"user","content":"I moved to Berlin."}`
const goodClaim = `{"subject":"Alice","predicate":"lives in","object":"Berlin"}`

func TestValidationNamesFieldAndLimit(t *testing.T) {
	big := strings.Repeat("x", 65537)
	for _, tt := range []struct {
		name   string
		kind   string
		body   string
		origin batchOrigin
		mutate func(*Config)
		status int
		field  string
		limit  string
	}{
		// Body-level problems.
		{name: "empty body", kind: kindTurns, body: "", status: 400, field: ""},
		{name: "not json", kind: kindTurns, body: "turns please", status: 400},
		{name: "truncated json", kind: kindTurns, body: `{"turns":[`, status: 400},
		{name: "trailing data", kind: kindTurns, body: turns(goodTurn) + ` {}`, status: 400},
		{name: "array body", kind: kindTurns, body: `[]`, status: 400},
		{name: "missing turns", kind: kindTurns, body: `{}`, status: 400, field: "turns"},
		{name: "empty turns", kind: kindTurns, body: `{"turns":[]}`, status: 400, field: "turns"},
		{name: "unknown top-level field", kind: kindTurns, body: `{"turns":[` + goodTurn + `],"extra":1}`, status: 400, field: "extra"},
		{name: "body too large", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"` + strings.Repeat("x", 2000) + `"}`), mutate: func(c *Config) { c.MaxBodyBytes = 1024 }, status: 413, limit: "1024 bytes"},

		// Turn fields.
		{name: "unknown turn field", kind: kindTurns, body: turns(goodTurn, `{"session_id":"s","role":"user","content":"x","mood":"happy"}`), status: 400, field: "turns[1].mood"},
		{name: "missing content", kind: kindTurns, body: turns(`{"session_id":"s","role":"user"}`), status: 400, field: "turns[0].content"},
		{name: "empty content", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":""}`), status: 400, field: "turns[0].content"},
		{name: "blank content", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":" \n\t "}`), status: 400, field: "turns[0].content"},
		{name: "content too large", kind: kindTurns, body: turns(goodTurn, goodTurn, `{"session_id":"s","role":"user","content":"`+big+`"}`), status: 413, field: "turns[2].content", limit: "65536 bytes"},
		{name: "content NUL", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"a\u0000b"}`), status: 400, field: "turns[0].content"},
		{name: "content invalid utf-8", kind: kindTurns, body: turns(goodTurn, "{\"session_id\":\"s\",\"role\":\"user\",\"content\":\"caf\xe9\"}"), status: 400, field: "turns[1].content"},
		{name: "content wrong type", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":42}`), status: 400, field: "turns[0].content"},
		{name: "missing session", kind: kindTurns, body: turns(`{"role":"user","content":"x"}`), status: 400, field: "turns[0].session_id"},
		{name: "blank session", kind: kindTurns, body: turns(`{"session_id":"  ","role":"user","content":"x"}`), status: 400, field: "turns[0].session_id"},
		{name: "session too long", kind: kindTurns, body: turns(`{"session_id":"` + strings.Repeat("s", 257) + `","role":"user","content":"x"}`), status: 413, field: "turns[0].session_id"},
		{name: "session too many bytes", kind: kindTurns, body: turns(`{"session_id":"` + strings.Repeat("é", 200) + `","role":"user","content":"x"}`), status: 413, field: "turns[0].session_id", limit: "256 bytes"},
		{name: "unknown role", kind: kindTurns, body: turns(`{"session_id":"s","role":"narrator","content":"x"}`), status: 400, field: "turns[0].role"},
		{name: "role not allowed by config", kind: kindTurns, body: turns(`{"session_id":"s","role":"tool","content":"x"}`), mutate: func(c *Config) { c.AllowedRoles = []string{"user", "assistant"} }, status: 400, field: "turns[0].role"},
		{name: "bad scope", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","scope":"public"}`), status: 400, field: "turns[0].scope"},
		{name: "occurred_at not a time", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","occurred_at":"yesterday"}`), status: 400, field: "turns[0].occurred_at"},
		{name: "occurred_at without zone", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","occurred_at":"2026-03-01T10:00:00"}`), status: 400, field: "turns[0].occurred_at"},
		{name: "occurred_at space separated", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","occurred_at":"2026-03-01 10:00:00Z"}`), status: 400, field: "turns[0].occurred_at"},
		{name: "sequence fraction", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","sequence":1.5}`), status: 400, field: "turns[0].sequence"},
		{name: "sequence overflow", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","sequence":9223372036854775808}`), status: 400, field: "turns[0].sequence"},
		{name: "sequence string", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","sequence":"3"}`), status: 400, field: "turns[0].sequence"},
		{name: "metadata not object", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","metadata":[1]}`), status: 400, field: "turns[0].metadata"},
		{name: "metadata too large", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","metadata":{"k":"` + strings.Repeat("m", 100) + `"}}`), mutate: func(c *Config) { c.MaxMetadataBytes = 64 }, status: 413, field: "turns[0].metadata", limit: "64 bytes"},
		{name: "metadata NUL", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","metadata":{"k":"\u0000"}}`), status: 400, field: "turns[0].metadata"},
		{name: "bad agent id", kind: kindTurns, body: turns(`{"session_id":"s","role":"user","content":"x","agent_id":"no spaces"}`), status: 400, field: "turns[0].agent_id"},
		{name: "agent differs from header (http)", kind: kindTurns, body: turns(goodTurn, `{"session_id":"s","role":"user","content":"x","agent_id":"mallory"}`), status: 403, field: "turns[1].agent_id"},
		{name: "no agent anywhere (nats)", kind: kindTurns, body: turns(goodTurn), origin: natsOrigin(""), status: 400, field: "turns[0].agent_id"},
		{name: "invalid header agent (nats)", kind: kindTurns, body: turns(goodTurn), origin: natsOrigin("bad agent"), status: 400, field: api.HeaderAgent},
		{name: "blank turn id", kind: kindTurns, body: turns(`{"turn_id":"  ","session_id":"s","role":"user","content":"x"}`), status: 400, field: "turns[0].turn_id"},
		{name: "too many turns", kind: kindTurns, body: turns(goodTurn, goodTurn, goodTurn, goodTurn), mutate: func(c *Config) { c.MaxTurnsPerBatch = 3 }, status: 413, field: "turns", limit: "3 items"},

		// Claim fields.
		{name: "missing claims", kind: kindClaims, body: `{"turns":[]}`, status: 400, field: "claims"},
		{name: "missing subject", kind: kindClaims, body: claims(goodClaim, `{"predicate":"p","object":"o"}`), status: 400, field: "claims[1].subject"},
		{name: "punctuation subject", kind: kindClaims, body: claims(`{"subject":"!!!","predicate":"p","object":"o"}`), status: 400, field: "claims[0].subject"},
		{name: "subject too long", kind: kindClaims, body: claims(`{"subject":"` + strings.Repeat("a", 513) + `","predicate":"p","object":"o"}`), status: 413, field: "claims[0].subject"},
		{name: "subject over byte limit", kind: kindClaims, body: claims(`{"subject":"` + strings.Repeat("é", 300) + `","predicate":"p","object":"o"}`), status: 413, field: "claims[0].subject", limit: "512 bytes"},
		{name: "configured subject limit", kind: kindClaims, body: claims(`{"subject":"Alexandria","predicate":"p","object":"o"}`), mutate: func(c *Config) { c.MaxSubjectBytes = 5 }, status: 413, field: "claims[0].subject", limit: "5 bytes"},
		{name: "blank predicate", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"   ","object":"o"}`), status: 400, field: "claims[0].predicate"},
		{name: "blank object", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":" "}`), status: 400, field: "claims[0].object"},
		{name: "object too long", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"` + strings.Repeat("o", 50) + `"}`), mutate: func(c *Config) { c.MaxObjectBytes = 40 }, status: 413, field: "claims[0].object", limit: "40 bytes"},
		{name: "confidence above 1", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","confidence":1.5}`), status: 400, field: "claims[0].confidence"},
		{name: "confidence below 0", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","confidence":-0.1}`), status: 400, field: "claims[0].confidence"},
		{name: "scope", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","scope":"team"}`), status: 400, field: "claims[0].scope"},
		{name: "valid_from", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","valid_from":"2026-13-01T00:00:00Z"}`), status: 400, field: "claims[0].valid_from"},
		{name: "functional not bool", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","functional":"yes"}`), status: 400, field: "claims[0].functional"},
		{name: "text too long", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","text":"` + strings.Repeat("t", 30) + `"}`), mutate: func(c *Config) { c.MaxClaimTextBytes = 20 }, status: 413, field: "claims[0].text", limit: "20 bytes"},
		{name: "blank text", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","text":" "}`), status: 400, field: "claims[0].text"},
		{name: "source NUL", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","source":"x\u0000"}`), status: 400, field: "claims[0].source"},
		{name: "unknown claim field", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","valid_to":"2026-01-01T00:00:00Z"}`), status: 400, field: "claims[0].valid_to"},
		{name: "too many claims", kind: kindClaims, body: claims(goodClaim, goodClaim, goodClaim), mutate: func(c *Config) { c.MaxClaimsPerBatch = 2 }, status: 413, field: "claims", limit: "2 items"},
		{name: "claim agent differs (http)", kind: kindClaims, body: claims(`{"subject":"Alice","predicate":"p","object":"o","agent_id":"bob"}`), status: 403, field: "claims[0].agent_id"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := core(t, tt.mutate)
			o := tt.origin
			if o.workspace == "" {
				o = httpOrigin("alice")
			}
			events, ierr := s.decodeBatch(tt.kind, o, []byte(tt.body))
			if ierr == nil {
				t.Fatalf("accepted %d events, want %d on %q", len(events), tt.status, tt.field)
			}
			if ierr.Status != tt.status || ierr.Field != tt.field || (tt.limit != "" && ierr.Limit != tt.limit) {
				t.Fatalf("got %d field %q limit %q (%s), want %d field %q limit %q",
					ierr.Status, ierr.Field, ierr.Limit, ierr.Error(), tt.status, tt.field, tt.limit)
			}
			if ierr.Message == "" || ierr.Code == "" {
				t.Fatalf("error without code or message: %+v", ierr)
			}
			if tt.field != "" && !strings.Contains(ierr.Error(), tt.field) {
				t.Fatalf("message %q does not name the field %q", ierr.Error(), tt.field)
			}
			if ierr.Status == http.StatusRequestEntityTooLarge && (ierr.Limit == "" || ierr.Code != api.CodeTooLarge) {
				t.Fatalf("a size error must name its limit: %+v", ierr)
			}
		})
	}
}

// validEvent checks an event satisfies the event schema of its type and round-trips through the Go type.
func validEvent(t testing.TB, env event.Envelope) {
	t.Helper()
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	if err := schemas.Validate(env.Type, b); err != nil {
		t.Fatalf("event violates its schema %s: %v\n%s", env.Type, err, b)
	}
	if _, err := env.Payload(); err != nil {
		t.Fatal(err)
	}
}

func TestBuildTurns(t *testing.T) {
	s := core(t, nil)
	body := turns(
		`{"turn_id":"t-1","session_id":"chat","role":"user","speaker":"Alice","content":"I moved to Berlin.","occurred_at":"2026-02-01T09:00:00+01:00","sequence":4,"scope":"private","metadata":{"channel":"slack"}}`,
		`{"session_id":"chat","role":"assistant","content":"Noted."}`,
	)
	events, ierr := s.decodeBatch(kindTurns, httpOrigin("alice"), []byte(body))
	if ierr != nil {
		t.Fatal(ierr)
	}
	if len(events) != 2 {
		t.Fatalf("%d events", len(events))
	}
	for _, ev := range events {
		validEvent(t, ev.env)
		if ev.subject != "mneme.turns.acme" || ev.env.Type != event.TypeTurnAccepted || ev.env.Workspace != "acme" {
			t.Fatalf("event %+v", ev)
		}
	}
	var first, second event.TurnAcceptedV1
	_ = events[0].env.Into(event.TypeTurnAccepted, &first)
	_ = events[1].env.Into(event.TypeTurnAccepted, &second)
	if events[0].reportID != "t-1" || events[0].env.ID != event.DeterministicID("acme", "alice", "t-1") {
		t.Fatalf("turn id %q, event id %q", events[0].reportID, events[0].env.ID)
	}
	if !first.OccurredAt.Equal(time.Date(2026, 2, 1, 8, 0, 0, 0, time.UTC)) || first.Scope != event.ScopePrivate ||
		*first.Sequence != 4 || first.Speaker != "Alice" || first.AgentID != "alice" || first.Metadata["channel"] != "slack" {
		t.Fatalf("first turn %+v", first)
	}
	// Defaults: generated UUID turn id, received time, shared scope.
	if _, err := uuid.Parse(second.TurnID); err != nil || !second.OccurredAt.Equal(testTime) || second.Scope != event.ScopeShared {
		t.Fatalf("second turn %+v", second)
	}
	if second.TurnID != events[1].reportID || events[1].env.ID != event.DeterministicID("acme", "alice", second.TurnID) {
		t.Fatalf("report id %q / event id %q for turn %q", events[1].reportID, events[1].env.ID, second.TurnID)
	}

	// On the inbox, turns without an id get ids from the message position: a redelivery makes the same ids.
	a, _ := s.decodeBatch(kindTurns, natsOrigin("bot"), []byte(turns(goodTurn, goodTurn)))
	b, _ := s.decodeBatch(kindTurns, natsOrigin("bot"), []byte(turns(goodTurn, goodTurn)))
	if a[0].env.ID != b[0].env.ID || a[1].env.ID != b[1].env.ID || a[0].env.ID == a[1].env.ID {
		t.Fatalf("inbox ids not stable per position: %s %s / %s %s", a[0].env.ID, a[1].env.ID, b[0].env.ID, b[1].env.ID)
	}
	// On the inbox an item's agent_id overrides the header.
	c, ierr := s.decodeBatch(kindTurns, natsOrigin("bot"), []byte(turns(`{"agent_id":"alice","session_id":"s","role":"user","content":"x"}`)))
	if ierr != nil || c[0].agent != "alice" {
		t.Fatalf("inbox agent override: %+v %v", c, ierr)
	}
}

func TestBuildClaims(t *testing.T) {
	s := core(t, func(c *Config) { c.Functional = []string{"favourite colour"} })
	body := claims(
		`{"subject":"The Eiffel Tower","predicate":"is located in","object":"Paris"}`,
		`{"claim_id":"apollo-1","agent_id":"alice","subject":"Project Apollo","predicate":"deadline","object":"2026-06-30","functional":false,"valid_from":"2026-03-01T11:00:00Z","sequence":12,"scope":"private","confidence":0.5,"text":"Apollo is due 2026-06-30.","source":"jira:APOLLO-7"}`,
		`{"subject":"Alice","predicate":"favourite colour","object":"green","valid_from":"2025-01-01T00:00:00Z"}`,
	)
	events, ierr := s.decodeBatch(kindClaims, httpOrigin("alice"), []byte(body))
	if ierr != nil {
		t.Fatal(ierr)
	}
	var got []event.ClaimProposedV1
	for _, ev := range events {
		validEvent(t, ev.env)
		var c event.ClaimProposedV1
		if err := ev.env.Into(event.TypeClaimProposed, &c); err != nil {
			t.Fatal(err)
		}
		if ev.subject != "mneme.proposed.acme" || ev.reportID != c.ClaimID || ev.env.ID != c.ClaimID || ev.env.Subject != c.SubjectKey {
			t.Fatalf("event %+v for claim %+v", ev, c)
		}
		if _, err := uuid.Parse(c.ClaimID); err != nil {
			t.Fatalf("claim id %q is not a UUID", c.ClaimID)
		}
		if c.Provenance.Extractor != "structured" || c.Provenance.AgentID != "alice" || c.Provenance.ExtractorVersion == "" {
			t.Fatalf("provenance %+v", c.Provenance)
		}
		got = append(got, c)
	}
	eiffel, apollo, colour := got[0], got[1], got[2]
	if eiffel.SubjectKey != "eiffel_tower" || eiffel.PredicateKey == "" || eiffel.Text == "" || eiffel.Confidence != 1 ||
		eiffel.Scope != event.ScopeShared || !eiffel.ValidFrom.Equal(testTime) || !eiffel.ProposedAt.Equal(testTime) {
		t.Fatalf("defaults: %+v", eiffel)
	}
	if apollo.Functional || apollo.Confidence != 0.5 || apollo.Scope != event.ScopePrivate || *apollo.Sequence != 12 ||
		apollo.Text != "Apollo is due 2026-06-30." || apollo.Provenance.SourceRef != "jira:APOLLO-7" || apollo.SubjectKey != "project_apollo" {
		t.Fatalf("explicit fields: %+v", apollo)
	}
	if !colour.Functional {
		t.Fatalf("configured functional predicate not applied: %+v", colour)
	}
	if apollo.ClaimID != event.DeterministicID("claim_id", "acme", "alice", "apollo-1") {
		t.Fatalf("given claim id not derived as documented: %s", apollo.ClaimID)
	}

	// Content-derived ids: the same statement is the same claim; another valid time or workspace is another.
	again, _ := s.decodeBatch(kindClaims, httpOrigin("alice"), []byte(body))
	if again[0].env.ID != events[0].env.ID || again[1].env.ID != events[1].env.ID {
		t.Fatal("claim ids are not deterministic")
	}
	later := httpOrigin("alice")
	later.receivedAt = testTime.Add(time.Hour)
	moved, _ := s.decodeBatch(kindClaims, later, []byte(body))
	if moved[0].env.ID == events[0].env.ID {
		t.Fatal("a claim defaulting to another valid time has the same id")
	}
	if moved[2].env.ID != events[2].env.ID {
		t.Fatal("an explicit valid_from must make the id independent of the receive time")
	}
	other := httpOrigin("alice")
	other.workspace = "other"
	elsewhere, _ := s.decodeBatch(kindClaims, other, []byte(body))
	if elsewhere[1].env.ID == events[1].env.ID {
		t.Fatal("the same claim_id in two workspaces must not collide")
	}
}

func TestFieldPath(t *testing.T) {
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"turns"}, "turns"},
		{[]string{"turns", "3", "content"}, "turns[3].content"},
		{[]string{"turns", "0", "metadata", "k"}, "turns[0].metadata.k"},
	} {
		if got := fieldPath(tt.in); got != tt.want {
			t.Errorf("fieldPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestPathAtOffset(t *testing.T) {
	body := "{\"turns\":[{\"content\":\"ok\"},{\"session_id\":\"s\",\"content\":\"caf\xe9\"}]}"
	if got := pathAtOffset([]byte(body), invalidUTF8Offset([]byte(body))); got != "turns[1].content" {
		t.Fatalf("got %q", got)
	}
	key := "{\"turns\":[{\"k\xe9y\":1}]}"
	if got := pathAtOffset([]byte(key), invalidUTF8Offset([]byte(key))); got != "turns[0]" {
		t.Fatalf("bad byte in a key: got %q", got)
	}
}

func TestParseInboxSubject(t *testing.T) {
	for _, tt := range []struct {
		subject, ws, agent, kind string
		ok                       bool
	}{
		{"mneme.inbox.acme.turns", "acme", "", "turns", true},
		{"mneme.inbox.acme.claims", "acme", "", "claims", true},
		{"mneme.inbox.acme.planner.claims", "acme", "planner", "claims", true},
		{"mneme.inbox.acme.planner%2Eeu.turns", "acme", "planner.eu", "turns", true},
		{"mneme.inbox.acme.bot@host:1.turns", "acme", "bot@host:1", "turns", true},
		{"mneme.inbox.acme.bot.eu.turns", "", "", "", false},       // an unescaped dot: one token too many
		{"mneme.inbox.acme.planner%2eeu.turns", "", "", "", false}, // only the canonical escape
		{"mneme.inbox.acme.planner%41.turns", "", "", "", false},
		{"mneme.inbox.acme.pl!anner.turns", "", "", "", false}, // not an agent id
		{"mneme.inbox.acme.other", "", "", "", false},
		{"mneme.inbox.Acme.turns", "", "", "", false},
		{"mneme.inbox.acme.turns.extra", "", "", "", false},
		{"mneme.turns.acme", "", "", "", false},
	} {
		in, ierr := parseInboxSubject(tt.subject)
		if (ierr == nil) != tt.ok || in.Workspace != tt.ws || in.Agent != tt.agent || in.Kind != tt.kind {
			t.Errorf("parseInboxSubject(%q) = %+v %v", tt.subject, in, ierr)
		}
	}
}

func TestRetryDelay(t *testing.T) {
	s := core(t, func(c *Config) { c.InboxRetryBackoff = time.Second })
	want := []time.Duration{time.Second, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 16 * time.Second, 30 * time.Second, 30 * time.Second}
	for i, w := range want {
		if got := s.cfg.RetryPolicy().Delay(i); got != w {
			t.Errorf("retry delay after delivery %d = %s, want %s", i, got, w)
		}
	}
}

func ExampleService_errorBody() {
	s, _ := newCore(DefaultConfig())
	_, ierr := s.decodeBatch(kindTurns, httpOrigin("alice"), []byte(turns(`{"session_id":"s","role":"user","content":"`+strings.Repeat("x", 70000)+`"}`)))
	b, _ := json.Marshal(rejectBody(ierr))
	fmt.Println(ierr.Status, string(b))
	// Output: 413 {"error":{"code":"too_large","message":"turns[0].content: is 70000 bytes (limit 65536 bytes)","field":"turns[0].content","limit":"65536 bytes"}}
}

func TestLeapSecondNamesField(t *testing.T) {
	s := core(t, nil)
	_, ierr := s.decodeBatch(kindClaims, httpOrigin("alice"), []byte(claims(goodClaim, `{"subject":"a","predicate":"p","object":"o","valid_from":"2016-12-31T23:59:60Z"}`)))
	if ierr == nil || ierr.Status != 400 || ierr.Field != "claims[1].valid_from" {
		t.Fatalf("got %+v", ierr)
	}
}

// TestRequestExamples checks the golden request examples satisfy their schemas, survive a round trip through
// the Go types unchanged (so the types and schemas agree), and are accepted by ingest.
func TestRequestExamples(t *testing.T) {
	examples, err := schemas.Examples()
	if err != nil {
		t.Fatal(err)
	}
	s := core(t, nil)
	n := 0
	for _, ex := range examples {
		var kind string
		var v any
		switch ex.SchemaID {
		case schemaTurnsRequest:
			kind, v = kindTurns, new(api.TurnsRequest)
		case schemaClaimsRequest:
			kind, v = kindClaims, new(api.ClaimsRequest)
		default:
			continue
		}
		n++
		t.Run(ex.Path, func(t *testing.T) {
			if ierr := decodeStrict(ex.JSON, 1<<20, s.scanLimits(kind), map[string]*jsonschema.Schema{kindTurns: s.turnsSchema, kindClaims: s.claimsSchema}[kind], v); ierr != nil {
				t.Fatal(ierr)
			}
			b, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if err := schemas.Validate(ex.SchemaID, b); err != nil {
				t.Fatalf("re-encoded example violates its schema: %v", err)
			}
			var want, got any
			_ = json.Unmarshal(ex.JSON, &want)
			_ = json.Unmarshal(b, &got)
			if !reflect.DeepEqual(normalizeTimes(want), normalizeTimes(got)) {
				t.Fatalf("round trip changed the example:\n%s\n%s", ex.JSON, b)
			}
			events, ierr := s.decodeBatch(kind, httpOrigin("pm-bot"), ex.JSON)
			if ierr != nil {
				t.Fatal(ierr)
			}
			for _, ev := range events {
				validEvent(t, ev.env)
			}
		})
	}
	if n < 2 {
		t.Fatalf("found %d request examples, want at least one per request schema", n)
	}
}

// normalizeTimes rewrites RFC 3339 strings to one form, since Go re-encodes "+01:00" offsets as given but may
// drop trailing zero fractions.
func normalizeTimes(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeTimes(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeTimes(e)
		}
	case string:
		if ts, err := time.Parse(time.RFC3339Nano, x); err == nil {
			return ts.UTC().Format(time.RFC3339Nano)
		}
	}
	return v
}

// TestRequestTypesMatchSchemas: the request schemas refuse unknown fields (additionalProperties: false) and
// declare exactly the Go types' JSON fields, so decoding a body the schema accepted drops nothing.
func TestRequestTypesMatchSchemas(t *testing.T) {
	for _, tc := range []struct {
		file, list, item string
		top, elem        reflect.Type
	}{
		{"api/v1/turns_request.json", "turns", "turn", reflect.TypeOf(api.TurnsRequest{}), reflect.TypeOf(api.TurnInput{})},
		{"api/v1/claims_request.json", "claims", "claim", reflect.TypeOf(api.ClaimsRequest{}), reflect.TypeOf(api.ClaimInput{})},
	} {
		raw, err := schemas.FS.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		type object struct {
			AdditionalProperties *bool                      `json:"additionalProperties"`
			Properties           map[string]json.RawMessage `json:"properties"`
		}
		var s struct {
			object
			Defs map[string]object `json:"$defs"`
		}
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatal(err)
		}
		for name, o := range map[string]struct {
			obj object
			typ reflect.Type
		}{"body": {s.object, tc.top}, tc.item: {s.Defs[tc.item], tc.elem}} {
			if o.obj.AdditionalProperties == nil || *o.obj.AdditionalProperties {
				t.Errorf("%s: %s allows unknown fields", tc.file, name)
			}
			var props []string
			for p := range o.obj.Properties {
				props = append(props, p)
			}
			slices.Sort(props)
			var fields []string
			for i := range o.typ.NumField() {
				if n, _, _ := strings.Cut(o.typ.Field(i).Tag.Get("json"), ","); n != "" && n != "-" {
					fields = append(fields, n)
				}
			}
			slices.Sort(fields)
			if !slices.Equal(props, fields) {
				t.Errorf("%s %s: schema properties %v, Go fields of %s %v", tc.file, name, props, o.typ, fields)
			}
		}
	}
}
