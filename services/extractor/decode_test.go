package extractor

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

func turnEnvelope(t testing.TB, tu event.TurnAcceptedV1) []byte {
	env, err := event.New(event.TypeTurnAccepted, "id-"+tu.TurnID, "mneme/ingest", tu.Workspace, tu.ReceivedAt, tu)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(env)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestDecodeTurn(t *testing.T) {
	good := turn("t1", "s1", "Alice", "I moved to Berlin.", 0)
	if _, err := decodeTurn(turnsSubject(testWS), turnEnvelope(t, good)); err != nil {
		t.Fatalf("good turn: %v", err)
	}
	noTime := good
	noTime.OccurredAt = time.Time{}
	noTime.Scope = ""
	got, err := decodeTurn(turnsSubject(testWS), turnEnvelope(t, noTime))
	if err != nil || !got.OccurredAt.Equal(good.ReceivedAt) || got.Scope != event.ScopeShared {
		t.Errorf("defaults: %+v, %v", got, err)
	}
	bad := map[string]func(*event.TurnAcceptedV1){
		"no turn id": func(tu *event.TurnAcceptedV1) { tu.TurnID = "" },
		"no agent":   func(tu *event.TurnAcceptedV1) { tu.AgentID = "" },
		"bad scope":  func(tu *event.TurnAcceptedV1) { tu.Scope = "public" },
		"other ws":   func(tu *event.TurnAcceptedV1) { tu.Workspace = "other" },
		"huge":       func(tu *event.TurnAcceptedV1) { tu.Content = strings.Repeat("a", maxContentBytes+1) },
	}
	for name, mutate := range bad {
		tu := good
		mutate(&tu)
		if _, err := decodeTurn(turnsSubject(testWS), turnEnvelope(t, tu)); !errors.Is(err, errPoison) {
			t.Errorf("%s: err %v, want errPoison", name, err)
		}
	}
	for _, subj := range []string{"mneme.turns.", "mneme.turns.a.b", "mneme.claims.1"} {
		if _, err := decodeTurn(subj, turnEnvelope(t, good)); !errors.Is(err, errPoison) {
			t.Errorf("subject %q: err %v", subj, err)
		}
	}
}

func turnsSubject(ws string) string { return "mneme.turns." + ws }

func FuzzDecodeTurn(f *testing.F) {
	f.Add("mneme.turns.acme", turnEnvelope(f, turn("t1", "s1", "Alice", "I moved to Berlin.", 0)))
	f.Add("mneme.turns.acme", []byte(`{"specversion":"1.0","id":"x","source":"s","type":"io.mneme.turn.v1.accepted","data":{"workspace":"acme","turn_id":"t","agent_id":"a","scope":"private","occurred_at":"2023-01-01T00:00:00Z"}}`))
	f.Add("mneme.turns.acme", []byte(`{"specversion":"1.0","id":"x","source":"s","type":"io.mneme.turn.v1.accepted","data":null}`))
	f.Add("mneme.turns.", []byte(`{}`))
	f.Fuzz(func(t *testing.T, subject string, data []byte) {
		tu, err := decodeTurn(subject, data)
		if err != nil {
			if !errors.Is(err, errPoison) {
				t.Fatalf("error %v does not wrap errPoison", err)
			}
			return
		}
		if "mneme.turns."+tu.Workspace != subject || tu.TurnID == "" || tu.AgentID == "" || !tu.Scope.Valid() {
			t.Fatalf("accepted %q: %+v", subject, tu)
		}
	})
}

func TestWindower(t *testing.T) {
	c, err := tokens.New("")
	if err != nil {
		t.Fatal(err)
	}
	w := newWindower(64, c)
	now := time.Now()
	long := strings.Repeat("word ", 30) // ~30 tokens + overhead
	a1 := turn("a1", "A", "Alice", long, 0)
	b1 := turn("b1", "B", "Bob", "short", 1)
	a2 := turn("a2", "A", "Alice", long, 2)
	if out := w.add(nil, a1, now); len(out) != 0 {
		t.Fatalf("first turn closed a window: %+v", out)
	}
	if out := w.add(nil, b1, now); len(out) != 0 {
		t.Fatalf("other session closed a window")
	}
	out := w.add(nil, a2, now)
	if len(out) != 1 || len(out[0].window.Turns) != 1 || out[0].window.Turns[0].TurnID != "a1" {
		t.Fatalf("over budget: want a1's window closed, got %+v", out)
	}
	if w.held() != 2 {
		t.Fatalf("held %d, want 2", w.held())
	}
	// Duplicate turn ids in one window are extracted once.
	w.add(nil, b1, now.Add(time.Second))
	if out := w.idle(now.Add(500*time.Millisecond), time.Second); len(out) != 0 {
		t.Fatalf("idle closed fresh windows: %+v", out)
	}
	out = w.idle(now.Add(1100*time.Millisecond), time.Second)
	if len(out) != 1 || out[0].window.SessionID != "A" {
		t.Fatalf("idle: %+v", out)
	}
	out = w.all()
	if len(out) != 1 || len(out[0].items) != 2 || len(out[0].window.Turns) != 1 {
		t.Fatalf("all: want B's window with 2 messages and 1 turn, got %+v", out)
	}
	if w.held() != 0 {
		t.Fatalf("held %d after all", w.held())
	}
}
