package extractor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/openaitest"
	"github.com/mneme-ai/mneme/schemas"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

const testWS = "acme"

// natsEnv is a real in-process JetStream server with Mneme's topology.
type natsEnv struct {
	js jetstream.JetStream
	nc *nats.Conn
}

func startNATS(t *testing.T) natsEnv {
	t.Helper()
	srv := bustest.Start(t)
	return natsEnv{js: srv.JS, nc: srv.NC}
}

func testConfig() Config {
	cfg := DefaultConfig()
	cfg.IdleFlush = 20 * time.Millisecond
	cfg.RetryBackoff = 20 * time.Millisecond
	cfg.AckWait = 5 * time.Second
	cfg.ShutdownTimeout = 5 * time.Second
	return cfg
}

// runService starts the extractor and returns a func that stops it and waits for Run to return.
func runService(t *testing.T, env natsEnv, cfg Config) (*Service, func()) {
	t.Helper()
	svc, err := New(Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), JS: env.js}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	waitFor(t, "service ready", func() bool { return svc.Ready(ctx) == nil })
	stopped := false
	stop := func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Run did not return after cancel")
		}
	}
	t.Cleanup(stop)
	return svc, stop
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	timeout := time.After(15 * time.Second)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		select {
		case <-timeout:
			t.Fatalf("timed out waiting for %s", what)
		case <-tick.C:
		}
	}
}

var baseTime = time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)

func turn(id, session, speaker, content string, i int) event.TurnAcceptedV1 {
	seq := int64(i)
	return event.TurnAcceptedV1{
		Workspace: testWS, TurnID: id, AgentID: "agent-1", SessionID: session, Role: "user", Speaker: speaker,
		Content: content, OccurredAt: baseTime.Add(time.Duration(i) * time.Minute), ReceivedAt: baseTime.Add(time.Duration(i) * time.Minute),
		Sequence: &seq, Scope: event.ScopeShared,
	}
}

// publishTurn publishes t as ingest does; eventID defaults to a deterministic id of the turn.
func publishTurn(t *testing.T, js jetstream.JetStream, tu event.TurnAcceptedV1, eventID string) {
	t.Helper()
	if eventID == "" {
		eventID = event.DeterministicID(tu.Workspace, tu.TurnID)
	}
	env, err := event.New(event.TypeTurnAccepted, eventID, "mneme/ingest", tu.Workspace, tu.ReceivedAt, tu)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := bus.PublishEvent(ctx, js, bus.TurnsSubject(tu.Workspace), env); err != nil {
		t.Fatal(err)
	}
}

// storedMsgs reads every message of a stream (work-queue streams too) without consuming it.
func storedMsgs(t *testing.T, js jetstream.JetStream, stream, subject string) []*jetstream.RawStreamMsg {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, stream)
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []*jetstream.RawStreamMsg
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := st.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if subject == "" || m.Subject == subject {
			out = append(out, m)
		}
	}
	return out
}

func proposedClaims(t *testing.T, js jetstream.JetStream) []event.ClaimProposedV1 {
	t.Helper()
	var out []event.ClaimProposedV1
	for _, m := range storedMsgs(t, js, bus.StreamProposed, bus.ProposedSubject(testWS)) {
		env, err := event.Decode(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		if err := schemas.Validate(event.TypeClaimProposed, m.Data); err != nil {
			t.Errorf("claim event does not match its schema: %v\n%s", err, m.Data)
		}
		if m.Header.Get(jetstream.MsgIDHeader) != env.ID {
			t.Errorf("Nats-Msg-Id %q, want event id %q", m.Header.Get(jetstream.MsgIDHeader), env.ID)
		}
		var c event.ClaimProposedV1
		if err := env.Into(event.TypeClaimProposed, &c); err != nil {
			t.Fatal(err)
		}
		if c.ClaimID != env.ID {
			t.Errorf("claim id %s differs from event id %s", c.ClaimID, env.ID)
		}
		out = append(out, c)
	}
	return out
}

// settled reports whether the extractor consumer has acknowledged everything in the turns stream. It compares
// the consumer's ack floor with the stream's last sequence: the consumer's pending count alone is updated
// asynchronously and can read zero just after a publish, before the consumer has seen the message.
func settled(t *testing.T, js jetstream.JetStream) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := js.Stream(ctx, bus.StreamTurns)
	if err != nil {
		return false
	}
	sinfo, err := st.Info(ctx)
	if err != nil {
		return false
	}
	c, err := js.Consumer(ctx, bus.StreamTurns, ConsumerName)
	if err != nil {
		return false
	}
	info, err := c.Info(ctx)
	if err != nil {
		return false
	}
	return info.AckFloor.Stream >= sinfo.State.LastSeq && info.NumPending == 0 && info.NumAckPending == 0
}

func dialog() []event.TurnAcceptedV1 {
	return []event.TurnAcceptedV1{
		turn("t1", "s1", "Caroline", "I went to a LGBTQ support group yesterday and it was so powerful.", 0),
		turn("t2", "s1", "Melanie", "Wow, that's cool! Did you hear any inspiring stories?", 1),
		turn("t3", "s1", "Caroline", "I moved to Berlin last week. My favorite color is green.", 2),
	}
}

func TestExtractsClaimsFromTurns(t *testing.T) {
	env := startNATS(t)
	svc, stop := runService(t, env, testConfig())
	for _, tu := range dialog() {
		publishTurn(t, env.js, tu, "")
	}
	waitFor(t, "turns acknowledged", func() bool { return settled(t, env.js) })
	stop()

	claims := proposedClaims(t, env.js)
	if len(claims) == 0 {
		t.Fatal("no claims published")
	}
	byTurn := map[string][]event.ClaimProposedV1{}
	for _, c := range claims {
		if len(c.Provenance.TurnIDs) != 1 {
			t.Fatalf("claim %s has source turns %v", c.ClaimID, c.Provenance.TurnIDs)
		}
		byTurn[c.Provenance.TurnIDs[0]] = append(byTurn[c.Provenance.TurnIDs[0]], c)
		if c.Provenance.Extractor != "rules" || c.Provenance.ExtractorVersion == "" || c.Provenance.AgentID != "agent-1" || c.Provenance.SessionID != "s1" {
			t.Errorf("provenance %+v", c.Provenance)
		}
		if c.Workspace != testWS || c.Scope != event.ScopeShared {
			t.Errorf("claim workspace %q scope %q", c.Workspace, c.Scope)
		}
	}
	if len(byTurn["t2"]) != 0 {
		t.Errorf("a question produced claims: %+v", byTurn["t2"])
	}
	for tid, cs := range byTurn {
		for i, c := range cs {
			if want := event.DeterministicID(testWS, tid, "rules", strconv.Itoa(i)); c.ClaimID != want {
				t.Errorf("claim %d of %s has id %s, want %s", i, tid, c.ClaimID, want)
			}
		}
	}
	var lives *event.ClaimProposedV1
	for i, c := range byTurn["t3"] {
		if c.PredicateKey == "lives_in" {
			lives = &byTurn["t3"][i]
		}
	}
	if lives == nil {
		t.Fatalf("no lives_in claim from %q: %+v", dialog()[2].Content, byTurn["t3"])
	}
	if lives.SubjectKey != "caroline" || lives.Object != "Berlin" || !lives.Functional {
		t.Errorf("lives_in claim %+v", *lives)
	}
	if want := time.Date(2023, 5, 1, 0, 0, 0, 0, time.UTC); !lives.ValidFrom.Equal(want) {
		t.Errorf("valid_from %s, want %s (last week before 8 May 2023)", lives.ValidFrom, want)
	}
	if st := svc.Stats(); st.Turns != 3 || st.Claims != int64(len(claims)) || st.DeadLetters != 0 {
		t.Errorf("stats %+v with %d claims", st, len(claims))
	}
}

func TestRedeliveryAndDuplicatesHaveOneEffect(t *testing.T) {
	env := startNATS(t)
	svc1, stop := runService(t, env, testConfig())
	turns := dialog()
	for _, tu := range turns {
		publishTurn(t, env.js, tu, "")
	}
	// Settled alone can hold before the service has seen a turn; wait for the service to count them too.
	waitFor(t, "turns acknowledged", func() bool { return settled(t, env.js) && svc1.Stats().Turns == int64(len(turns)) })
	stop()
	first := proposedClaims(t, env.js)
	if st := svc1.Stats(); len(first) == 0 || st.DeadLetters != 0 {
		t.Fatalf("first run published %d claims, stats %+v", len(first), st)
	}
	ids := func(cs []event.ClaimProposedV1) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.ClaimID)
		}
		sort.Strings(out)
		return out
	}

	// The same turn published again under another message id (a client retry that bypassed ingest's
	// dedupe), and every turn redelivered from the start of the stream (consumer recreated).
	publishTurn(t, env.js, turns[2], "another-event-id-for-t3")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := env.js.DeleteConsumer(ctx, bus.StreamTurns, ConsumerName); err != nil {
		t.Fatal(err)
	}
	svc2, stop2 := runService(t, env, testConfig())
	waitFor(t, "turns acknowledged again", func() bool { return settled(t, env.js) })
	stop2()
	second := proposedClaims(t, env.js)
	if fmt.Sprint(ids(first)) != fmt.Sprint(ids(second)) {
		t.Errorf("claims changed after redelivery:\nfirst  %v\nsecond %v", ids(first), ids(second))
	}
	st := svc2.Stats()
	if st.Turns != 4 || st.Claims != 0 || st.Duplicates == 0 {
		t.Errorf("second run stats %+v: want 4 turns, 0 new claims, some duplicates", st)
	}
}

func TestMalformedTurnIsDeadLettered(t *testing.T) {
	env := startNATS(t)
	svc, _ := runService(t, env, testConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := env.js.Publish(ctx, bus.TurnsSubject(testWS), []byte(`{"not": "an event"`)); err != nil {
		t.Fatal(err)
	}
	wrongType, err := event.New(event.TypeClaimConfirmed, "e-1", "test", testWS, baseTime, event.ClaimConfirmedV1{Workspace: testWS})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bus.PublishEvent(ctx, env.js, bus.TurnsSubject(testWS), wrongType); err != nil {
		t.Fatal(err)
	}
	otherWS := turn("t-x", "s1", "Mallory", "I moved to Paris.", 0)
	otherWS.Workspace = "other"
	b, _ := json.Marshal(otherWS)
	mismatch := event.Envelope{SpecVersion: event.SpecVersion, ID: "e-2", Source: "test", Type: event.TypeTurnAccepted, Time: baseTime, Data: b}
	if _, err := bus.PublishEvent(ctx, env.js, bus.TurnsSubject(testWS), mismatch); err != nil {
		t.Fatal(err)
	}
	// A good turn after the bad ones is not blocked.
	publishTurn(t, env.js, turn("t-ok", "s1", "Alice", "I moved to Berlin last week.", 0), "")

	waitFor(t, "turns settled", func() bool { return settled(t, env.js) })
	dl := storedMsgs(t, env.js, bus.StreamDLQ, bus.DLQSubject(dlqStage))
	if len(dl) != 3 {
		t.Fatalf("%d dead letters, want 3", len(dl))
	}
	for _, m := range dl {
		if m.Header.Get(bus.HeaderDLQReason) == "" || m.Header.Get(bus.HeaderDLQStream) != bus.StreamTurns {
			t.Errorf("dead letter headers %v", m.Header)
		}
	}
	if got := dl[2].Header.Get(bus.HeaderDLQReason); got == "" || !contains(got, "does not match subject") {
		t.Errorf("workspace mismatch reason %q", got)
	}
	claims := proposedClaims(t, env.js)
	if len(claims) == 0 || claims[0].Provenance.TurnIDs[0] != "t-ok" {
		t.Errorf("good turn after bad ones: claims %+v", claims)
	}
	if st := svc.Stats(); st.DeadLetters != 3 {
		t.Errorf("stats %+v, want 3 dead letters", st)
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

func TestLLMExtractionThroughTheService(t *testing.T) {
	env := startNATS(t)
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(r openaitest.Request) openaitest.Response {
		return openaitest.ChatReplyJSON(map[string]any{"claims": []map[string]any{{
			"turn": 0, "subject": "I", "predicate": "lives in", "object": "Berlin", "text": "Alice lives in Berlin.",
			"functional": true, "valid_from": "2023-05-01", "sequence": nil, "confidence": 0.9,
		}}})
	}))
	cfg := testConfig()
	cfg.LLM.BaseURL, cfg.LLM.Model = srv.URL(), "test-model"
	svc, stop := runService(t, env, cfg)
	publishTurn(t, env.js, turn("t-1", "s9", "Alice", "I moved to Berlin last week.", 0), "")
	waitFor(t, "turn acknowledged", func() bool { return settled(t, env.js) })
	stop()
	claims := proposedClaims(t, env.js)
	if len(claims) != 1 {
		t.Fatalf("%d claims, want 1: %+v", len(claims), claims)
	}
	c := claims[0]
	if c.SubjectKey != "alice" || c.PredicateKey != "lives_in" || c.Provenance.Extractor != "llm:test-model" || !c.Functional {
		t.Errorf("claim %+v", c)
	}
	if u := svc.Usage()["extract"]; u.Calls != 1 || u.PromptTokens != openaitest.DefaultPromptTokens {
		t.Errorf("usage %+v", svc.Usage())
	}
}

func TestLLMFailureFallsBackToRules(t *testing.T) {
	env := startNATS(t)
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.BadRequest("model not found", "model")
	}))
	cfg := testConfig()
	cfg.LLM.BaseURL, cfg.LLM.Model = srv.URL(), "missing-model"
	svc, stop := runService(t, env, cfg)
	publishTurn(t, env.js, turn("t-1", "s9", "Alice", "I moved to Berlin last week.", 0), "")
	waitFor(t, "turn acknowledged", func() bool { return settled(t, env.js) })
	stop()
	claims := proposedClaims(t, env.js)
	if len(claims) == 0 || claims[0].Provenance.Extractor != "rules" {
		t.Fatalf("claims %+v, want rule-based fallback claims", claims)
	}
	if st := svc.Stats(); st.Fallbacks != 1 {
		t.Errorf("stats %+v, want 1 fallback", st)
	}
}

func TestLLMOutageRetriesThenDeadLettersWithoutFallback(t *testing.T) {
	env := startNATS(t)
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ServerError(503)
	}))
	cfg := testConfig()
	cfg.LLM.BaseURL, cfg.LLM.Model = srv.URL(), "m"
	cfg.LLMMaxRetries = 0
	cfg.LLMFallbackRules = false
	cfg.MaxDeliver = 3
	svc, _ := runService(t, env, cfg)
	publishTurn(t, env.js, turn("t-1", "s9", "Alice", "I moved to Berlin last week.", 0), "")
	waitFor(t, "turn dead-lettered", func() bool { return svc.Stats().DeadLetters == 1 })
	dl := storedMsgs(t, env.js, bus.StreamDLQ, bus.DLQSubject(dlqStage))
	if len(dl) != 1 || !contains(dl[0].Header.Get(bus.HeaderDLQReason), "after 3 deliveries") {
		t.Fatalf("dead letters %d, reason %q", len(dl), dl[0].Header.Get(bus.HeaderDLQReason))
	}
	if st := svc.Stats(); st.Retries != 2 {
		t.Errorf("stats %+v, want 2 retries before the dead letter", st)
	}
	if n := len(srv.ChatRequests()); n != 3 {
		t.Errorf("%d LLM calls, want 3 (one per delivery)", n)
	}
}

func TestConfigValidation(t *testing.T) {
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("default config invalid: %v", err)
	}
	bad := DefaultConfig()
	bad.WindowTokens = 1
	bad.LLM.BaseURL = "localhost:11434"
	bad.Tokenizer = "nope"
	err := bad.Validate()
	for _, want := range []string{"MNEME_EXTRACTOR_WINDOW_TOKENS", "MNEME_EXTRACTOR_LLM_BASE_URL", "MNEME_EXTRACTOR_LLM_MODEL", "MNEME_EXTRACTOR_TOKENIZER"} {
		if err == nil || !contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want a message naming %s", err, want)
		}
	}
	t.Setenv("MNEME_EXTRACTOR_WINDOW_TOKENS", "512")
	t.Setenv("MNEME_EXTRACTOR_LLM_BASE_URL", "")
	var cfg Config
	if err := config.Load(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.WindowTokens != 512 || cfg.LLMEnabled() || cfg.IdleFlush != time.Second {
		t.Errorf("loaded %+v", cfg)
	}
}

func TestPublishFailureRetriesThenDeadLetters(t *testing.T) {
	env := startNATS(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cfg := testConfig()
	cfg.MaxDeliver = 2
	cfg.PublishTimeout = time.Second
	svc, _ := runService(t, env, cfg)
	// The proposed stream refuses every claim event (larger than it allows): a failure of the message, not of the
	// broker. A missing stream or a leader election is an outage, retried without using up the attempts
	// (bus.Unavailable).
	st, err := env.js.Stream(ctx, bus.StreamProposed)
	if err != nil {
		t.Fatal(err)
	}
	scfg := st.CachedInfo().Config
	scfg.MaxMsgSize = 16
	if _, err := env.js.UpdateStream(ctx, scfg); err != nil {
		t.Fatal(err)
	}
	publishTurn(t, env.js, turn("t-1", "s1", "Alice", "I moved to Berlin last week.", 0), "")
	waitFor(t, "turn dead-lettered", func() bool { return svc.Stats().DeadLetters == 1 })
	dl := storedMsgs(t, env.js, bus.StreamDLQ, bus.DLQSubject(dlqStage))
	if len(dl) != 1 || !contains(dl[0].Header.Get(bus.HeaderDLQReason), "publish failed after 2 deliveries") {
		t.Fatalf("dead letters %d, reason %q", len(dl), dl[0].Header.Get(bus.HeaderDLQReason))
	}
	if st := svc.Stats(); st.Retries != 1 || st.Claims != 0 {
		t.Errorf("stats %+v, want one retry and no claims", st)
	}
	waitFor(t, "turn terminated", func() bool { return settled(t, env.js) })
}

// panicky breaks on one turn, like an extractor bug triggered by one input.
type panicky struct{ extract.Extractor }

func (p panicky) Extract(ctx context.Context, w extract.Window) (extract.Result, error) {
	for _, t := range w.Turns {
		if strings.Contains(t.Content, "boom") {
			panic("boom")
		}
	}
	return p.Extractor.Extract(ctx, w)
}

func TestExtractorPanicDeadLettersOnlyTheBadTurn(t *testing.T) {
	env := startNATS(t)
	cfg := testConfig()
	cfg.IdleFlush = 300 * time.Millisecond // the three turns share one window
	svc, err := New(Deps{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), JS: env.js}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	svc.primary = panicky{svc.primary}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "ready", func() bool { return svc.Ready(ctx) == nil })
	publishTurn(t, env.js, turn("t-1", "s1", "Alice", "I moved to Berlin last week.", 0), "")
	publishTurn(t, env.js, turn("t-2", "s1", "Alice", "This one goes boom.", 1), "")
	publishTurn(t, env.js, turn("t-3", "s1", "Alice", "My favorite color is green.", 2), "")
	waitFor(t, "turns settled", func() bool { return settled(t, env.js) })
	dl := storedMsgs(t, env.js, bus.StreamDLQ, bus.DLQSubject(dlqStage))
	if len(dl) != 1 || !contains(dl[0].Header.Get(bus.HeaderDLQReason), "panicked") {
		t.Fatalf("dead letters: %d", len(dl))
	}
	got := map[string]bool{}
	for _, c := range proposedClaims(t, env.js) {
		got[c.Provenance.TurnIDs[0]] = true
	}
	if !got["t-1"] || !got["t-3"] || got["t-2"] {
		t.Errorf("claims from turns %v, want t-1 and t-3 only", got)
	}
}

// TestMalformedTurnAtTheSizeLimitIsDeadLettered: a turns-log message at the 8 MiB message limit cannot be
// copied whole into a dead letter (with the dead-letter headers it would not fit); it is dead-lettered by
// reference (stream and sequence, digest, excerpt), once, and the turn after it flows.
func TestMalformedTurnAtTheSizeLimitIsDeadLettered(t *testing.T) {
	env := startNATS(t)
	svc, _ := runService(t, env, testConfig())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	big := []byte(`{"x":"` + strings.Repeat("z", 8<<20-8) + `"}`)
	if _, err := env.js.Publish(ctx, bus.TurnsSubject(testWS), big); err != nil {
		t.Fatal(err)
	}
	publishTurn(t, env.js, turn("t-ok", "s1", "Alice", "I moved to Berlin last week.", 0), "")
	waitFor(t, "turns settled", func() bool { return settled(t, env.js) })
	dl := storedMsgs(t, env.js, bus.StreamDLQ, bus.DLQSubject(dlqStage))
	if len(dl) != 1 {
		t.Fatalf("%d dead letters, want 1", len(dl))
	}
	if h := dl[0].Header; h.Get(bus.HeaderDLQTruncated) != "true" || h.Get(bus.HeaderDLQSize) != "8388608" || h.Get(bus.HeaderDLQSequence) != "1" || h.Get(bus.HeaderDLQReason) == "" {
		t.Fatalf("dead letter headers %v", h)
	}
	if claims := proposedClaims(t, env.js); len(claims) == 0 || claims[0].Provenance.TurnIDs[0] != "t-ok" {
		t.Errorf("the turn after it: claims %+v", claims)
	}
	if st := svc.Stats(); st.DeadLetters != 1 {
		t.Errorf("stats %+v, want 1 dead letter", st)
	}
}
