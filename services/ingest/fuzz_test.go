package ingest

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/schemas"
)

// seedBodies are valid and nearly valid bodies of the given kind, including the golden examples.
func seedBodies(t testing.TB, kind string) [][]byte {
	t.Helper()
	out := [][]byte{
		nil, []byte("{}"), []byte("[]"), []byte("null"), []byte(`{"turns":null}`), []byte(`{"claims":[null]}`),
		[]byte("{\"turns\":[{\"session_id\":\"s\",\"role\":\"user\",\"content\":\"caf\xe9\"}]}"),
		[]byte(turns(goodTurn, `{"session_id":"s","role":"user","content":"x","occurred_at":"2016-12-31T23:59:60Z","sequence":-9223372036854775808}`)),
		[]byte(turns(`{"turn_id":"t","agent_id":"bob","session_id":"s","role":"tool","speaker":"","content":"\u0000","metadata":{"a":[1,{"b":null}]}}`)),
		[]byte(claims(goodClaim, `{"claim_id":"c","subject":"The","predicate":"'s","object":"ﷺ","functional":true,"confidence":0,"scope":"private","valid_from":"0001-01-01T00:00:00Z"}`)),
		[]byte(claims(`{"subject":"` + strings.Repeat("ﷺ", 40) + `","predicate":"is born in","object":"x","text":"t","source":"s","sequence":1e3}`)),
		// Shapes that multiply a decoder's memory (prescan refuses them before decoding).
		[]byte(`{"turns":[` + strings.Repeat(`{},`, 300) + `{}]}`),
		[]byte(turns(`{"session_id":"s","role":"user","content":"x","metadata":{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`)),
		[]byte(`{"claims":[` + strings.Repeat(goodClaim+`,`, 1001) + goodClaim + `]}`),
	}
	examples, err := schemas.Examples()
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		if strings.HasPrefix(ex.Path, "api/v1/examples/"+kind) {
			out = append(out, ex.JSON)
		}
	}
	return out
}

// checkOutcome asserts the contract for outside input: a 4xx naming what is wrong, or events that satisfy
// their schemas.
func checkOutcome(t *testing.T, events []outEvent, ierr *api.HTTPError) {
	t.Helper()
	if ierr != nil {
		if ierr.Status < 400 || ierr.Status > 499 || ierr.Code == "" || ierr.Message == "" {
			t.Fatalf("bad input must be a 4xx with a code and a message: %+v", ierr)
		}
		return
	}
	if len(events) == 0 {
		t.Fatal("accepted a batch without events")
	}
	for _, ev := range events {
		validEvent(t, ev.env)
	}
}

func fuzzDecode(f *testing.F, kind string) {
	for _, b := range seedBodies(f, kind) {
		f.Add(b)
	}
	s := core(f, nil)
	f.Fuzz(func(t *testing.T, body []byte) {
		events, ierr := s.decodeBatch(kind, httpOrigin("alice"), body)
		checkOutcome(t, events, ierr)
		events, ierr = s.decodeBatch(kind, natsOrigin(""), body)
		checkOutcome(t, events, ierr)
	})
}

func FuzzDecodeTurns(f *testing.F)  { fuzzDecode(f, kindTurns) }
func FuzzDecodeClaims(f *testing.F) { fuzzDecode(f, kindClaims) }

// FuzzInboxMessage covers everything taken from an inbox message: subject, agent header and body.
func FuzzInboxMessage(f *testing.F) {
	for _, kind := range []string{kindTurns, kindClaims} {
		for _, b := range seedBodies(f, kind) {
			f.Add("mneme.inbox.acme."+kind, "alice", b)
			f.Add("mneme.inbox.acme."+kind, "", b)
			f.Add("mneme.inbox.acme.planner%2Eeu."+kind, "", b)
			f.Add("mneme.inbox.acme.planner."+kind, "alice", b)
		}
	}
	f.Add("mneme.inbox..turns", "a b", []byte(turns(goodTurn)))
	f.Add("mneme.inbox.acme", "alice", []byte(turns(goodTurn)))
	f.Add("mneme.inbox.a.b.claims", "alice", []byte(claims(goodClaim)))
	s := core(f, nil)
	md := &jetstream.MsgMetadata{Stream: "MNEME_INBOX", Timestamp: testTime}
	md.Sequence.Stream = 42
	f.Fuzz(func(t *testing.T, subject, agent string, body []byte) {
		events, ierr := s.inboxBatch(subject, agent, md, body)
		checkOutcome(t, events, ierr)
		// A message on a credential-bound subject is written by the subject's agent, whatever it says.
		if in, err := bus.ParseInboxSubject(subject); err == nil && in.Bound() {
			for _, ev := range events {
				if ev.agent != in.Agent {
					t.Fatalf("subject %q names agent %q, event written as %q", subject, in.Agent, ev.agent)
				}
			}
		}
	})
}

// fuzzHTTP drives the real handler (real JetStream and Postgres behind it): whatever the body and agent header,
// the answer is 202 or a 4xx with an error body — never a 5xx, never a panic.
func fuzzHTTP(f *testing.F, kind string) {
	for _, b := range seedBodies(f, kind) {
		f.Add("alice", b)
	}
	f.Add("", []byte(turns(goodTurn)))
	f.Add("bad agent", []byte(claims(goodClaim)))
	f.Add(strings.Repeat("a", 129), []byte(claims(goodClaim)))
	e := newEnv(f, func(c *Config) {
		c.MaxBodyBytes = 64 << 10
		c.PublishTimeout = 30 * time.Second
		c.InboxAckWait = time.Minute
	})
	mux := http.NewServeMux()
	e.svc.Routes(mux)
	f.Fuzz(func(t *testing.T, agent string, body []byte) {
		req := httptest.NewRequest(http.MethodPost, "/v1/workspaces/acme/"+kind, bytes.NewReader(body))
		req.Header[api.HeaderAgent] = []string{agent}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		switch {
		case rec.Code == http.StatusAccepted:
		case rec.Code >= 400 && rec.Code < 500:
			if !bytes.Contains(rec.Body.Bytes(), []byte(`"error"`)) {
				t.Fatalf("%d without an error body: %s", rec.Code, rec.Body.Bytes())
			}
		default:
			t.Fatalf("status %d for outside input: %s", rec.Code, rec.Body.Bytes())
		}
	})
}

func FuzzHTTPTurns(f *testing.F)  { fuzzHTTP(f, kindTurns) }
func FuzzHTTPClaims(f *testing.F) { fuzzHTTP(f, kindClaims) }
