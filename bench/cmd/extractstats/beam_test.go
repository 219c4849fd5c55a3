package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/services/extractor/rules"
)

// A synthetic chat in BEAM's layout (the real data is read from ../shared/data, never copied).
const beamChat = `[{"batch_number":1,"time_anchor":null,"turns":[
 [{"role":"user","id":0,"time_anchor":"March-15-2024","content":"I'm using Flask 2.3 and my deadline is April 1, can you help me plan?"},
  {"role":"assistant","id":1,"content":"Sure, here is a plan."}],
 [{"role":"user","id":2,"content":"My deadline moved to April 5, can you re-plan?\n` + "```" + `python\napp = Flask(__name__)\n` + "```" + `"},
  {"role":"assistant","id":3,"content":"Done."}],
 [{"role":"user","id":4,"content":"How do I add a login page?"},
  {"role":"assistant","id":5,"content":"Use Flask-Login."}]]}]`

const beamProbes = `{
 "knowledge_update":[{"question":"When is my deadline?","answer":"April 5","source_chat_ids":{"original_info":[0],"updated_info":[2]}}],
 "contradiction_resolution":[{"question":"Have I used Flask?","ideal_answer":"…","source_chat_ids":{"first_statement":[0],"second_statement":[4]}}],
 "temporal_reasoning":[{"question":"ignored","answer":"x","source_chat_ids":[0]}]
}`

func TestRunBEAM(t *testing.T) {
	dir := t.TempDir()
	conv := filepath.Join(dir, "7")
	if err := os.MkdirAll(filepath.Join(conv, "probing_questions"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conv, "chat.json"), []byte(beamChat), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(conv, "probing_questions", "probing_questions.json"), []byte(beamProbes), 0o600); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "beam.json")
	var stdout, stderr bytes.Buffer
	if err := runBEAM(context.Background(), rules.New(), dir, out, 10, 2048, &stdout, &stderr); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var res BEAMResults
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if res.Conversations != 1 || res.Messages != 6 || len(res.Groups) != 4 {
		t.Fatalf("results %+v", res)
	}
	got := map[string]BEAMGroup{}
	for _, g := range res.Groups {
		got[g.Ability+"/"+g.Group] = g
	}
	// The statements around the questions yield claims; the pure question (message 4) yields none.
	if g := got["knowledge_update/updated_info"]; g.Sources != 1 || g.Structured != 1 || g.ValueSources != 1 || g.ValueInClaim != 1 {
		t.Errorf("updated_info %+v", g)
	}
	if g := got["contradiction_resolution/second_statement"]; g.Sources != 1 || g.Any != 0 {
		t.Errorf("second_statement %+v", g)
	}
	if !strings.Contains(stdout.String(), "| knowledge_update | updated_info | 1 | 1 | 100.0% | 100.0% | 1 | 100.0% |") {
		t.Errorf("table:\n%s", stdout.String())
	}
	if !strings.Contains(stderr.String(), "message 4: Have I used Flask?") {
		t.Errorf("samples:\n%s", stderr.String())
	}
}

func TestBEAMMissingDirectory(t *testing.T) {
	var stdout, stderr bytes.Buffer
	err := runBEAM(context.Background(), rules.New(), filepath.Join(t.TempDir(), "nope"), "", 0, 2048, &stdout, &stderr)
	if err == nil || !strings.Contains(err.Error(), "-beam") {
		t.Fatalf("error %v, want a hint about -beam", err)
	}
}

// FuzzBEAMSourceGroups feeds source_chat_ids shapes to the decoder: it returns groups or an error, never panics.
func FuzzBEAMSourceGroups(f *testing.F) {
	for _, s := range []string{`null`, `[1,2,[3,4]]`, `{"original_info":[86],"updated_info":["114"]}`, `{"a":{"b":1}}`, `"x"`, `[`, `{"a":[1.5e3]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		gs, err := beamSourceGroups(json.RawMessage(raw))
		if err != nil {
			return
		}
		again, err := beamSourceGroups(json.RawMessage(raw))
		if err != nil || len(again) != len(gs) {
			t.Fatalf("decoding %q twice differs: %v", raw, err)
		}
	})
}
