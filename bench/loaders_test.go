package bench

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/bench/factcons"
)

// sharedData returns rel under ../shared/data relative to the repository root (or $MNEME_SHARED_DATA); when
// the file is absent the test skips, or fails under MNEME_REQUIRE_DATA=1 (see dataMissing).
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..")
	p := filepath.Join(root, "..", "shared", "data", rel)
	if d := os.Getenv("MNEME_SHARED_DATA"); d != "" {
		p = filepath.Join(d, rel)
	}
	if dataMissing(t, p) {
		t.Skip("skipped: the data is not here")
	}
	return p
}

// dataMissing reports whether the shipped benchmark data at path is absent, saying so in the test's log. The
// data is not in the repository, so a checkout without it runs what it can; make test sets
// MNEME_REQUIRE_DATA=1 when ../shared/data exists, and then a missing file fails the test: a suite that has
// the data must not pass without reading it.
func dataMissing(t testing.TB, path string) bool {
	t.Helper()
	_, err := os.Stat(path)
	if err == nil {
		return false
	}
	if os.Getenv("MNEME_REQUIRE_DATA") == "1" {
		t.Fatalf("shared benchmark data missing with MNEME_REQUIRE_DATA=1: %v (it lives in ../shared/data next to the repository, or $MNEME_SHARED_DATA)", err)
	}
	t.Logf("shared benchmark data not available (%v); it lives in ../shared/data next to the repository (MNEME_REQUIRE_DATA=1 makes this a failure)", err)
	return true
}

func TestLoadFactConsolidationShipped(t *testing.T) {
	d, err := LoadFactConsolidation(sharedData(t, "memoryagentbench/factconsolidation_6k.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(d.Conversations) != 1 || len(d.Questions) != 200 {
		t.Fatalf("got %d conversations, %d questions; want 1 shared context and 200 questions", len(d.Conversations), len(d.Questions))
	}
	conv := d.Conversations[0]
	turns := conv.Turns()
	if len(turns) != 455 || turns[0].ID != "fact-0" || turns[454].Seq != 454 || !strings.HasPrefix(turns[0].Content, "0. Thomas Kyd") {
		t.Fatalf("facts: %d, first %+v", len(turns), turns[0])
	}
	// Every fact has a known sentence shape, so slots and conflicts can be computed.
	for _, f := range turns {
		if _, ok := factcons.Split(strings.SplitN(f.Content, ". ", 2)[1]); !ok {
			t.Errorf("fact of unknown shape: %q", f.Content)
		}
	}
	byID := map[string]*Question{}
	cats := map[string]int{}
	chains := 0
	for _, q := range d.Questions {
		byID[q.ID] = q
		cats[q.Category]++
		if q.Conflicted != nil {
			chains++
		}
	}
	if cats["single-hop"] != 100 || cats["multi-hop"] != 100 {
		t.Fatalf("categories %v", cats)
	}
	if chains < 190 {
		t.Errorf("only %d of 200 questions have a reconstructed answer chain", chains)
	}
	// sh q1: #91 "famous for Rurouni Kenshin" is overridden by #259 "famous for The Fairly OddParents".
	q := byID["factconsolidation_sh_6k_no1"]
	if q == nil || q.Conflicted == nil || !*q.Conflicted || !slices.Contains(q.Stale, "Rurouni Kenshin") || !slices.Equal(q.Chain, []int64{259}) {
		t.Fatalf("sh q1: %+v", q)
	}
	if got := q.StaleTurns["fact-259"]; !slices.Contains(got, "fact-91") {
		t.Fatalf("sh q1 stale turns %v", got)
	}
	// A gold whose object ends in its own full stop ("Washington, D.C.") still finds its fact.
	for _, q := range d.Questions {
		if q.Category == "single-hop" && len(q.Chain) != 1 {
			t.Errorf("single-hop %s (%q → %v) has chain %v", q.ID, q.Text, q.Golds, q.Chain)
		}
	}
	// mh q86's gold (New Delhi) follows fact 158, which fact 341 overrides.
	if n := byID["factconsolidation_mh_6k_no86"]; n.Conflicted != nil || !strings.Contains(n.GoldNote, "158") {
		t.Errorf("mh q86: conflicted %v, note %q", n.Conflicted, n.GoldNote)
	}
	mh := byID["factconsolidation_mh_6k_no0"]
	if mh == nil || len(mh.Chain) < 2 || mh.Golds[0] != "Belgium" {
		t.Fatalf("mh q0: %+v", mh)
	}
}

func TestLoadLoCoMoShipped(t *testing.T) {
	d, err := LoadLoCoMo(sharedData(t, "locomo/locomo_conv0-6.json"))
	if err != nil {
		t.Fatal(err)
	}
	warnings, err := d.Validate()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Conversations) != 7 || len(d.Questions) != 1347 {
		t.Fatalf("%d conversations, %d questions", len(d.Conversations), len(d.Questions))
	}
	if len(warnings) > 5 {
		t.Errorf("too many evidence warnings: %v", warnings)
	}
	c := d.Conversations[0]
	if c.ID != "conv-26" || !slices.Equal(c.Speakers, []string{"Caroline", "Melanie"}) {
		t.Fatalf("first conversation %s %v", c.ID, c.Speakers)
	}
	first := c.Sessions[0].Turns[0]
	if first.ID != "D1:1" || first.Speaker != "Caroline" || !first.Time.Equal(time.Date(2023, 5, 8, 13, 56, 0, 0, time.UTC)) {
		t.Fatalf("first turn %+v", first)
	}
	turns := c.Turns()
	for i := 1; i < len(turns); i++ {
		if !turns[i].Time.After(turns[i-1].Time) || turns[i].Seq != turns[i-1].Seq+1 {
			t.Fatalf("valid time not strictly increasing at %s", turns[i].ID)
		}
	}
	q := d.Questions[0]
	if q.Text != "When did Caroline go to the LGBTQ support group?" || q.Category != "temporal" || !slices.Equal(q.Evidence, []string{"D1:3"}) || q.Golds[0] != "7 May 2023" {
		t.Fatalf("first question %+v", q)
	}
	cats := map[string]int{}
	captions := 0
	for _, q := range d.Questions {
		cats[q.Category]++
		if q.Category == "adversarial" && (!q.Abstention || len(q.Golds) != 0) {
			t.Fatalf("adversarial question %s has golds %v", q.ID, q.Golds)
		}
	}
	for _, t := range c.Turns() {
		if strings.Contains(t.Content, "[shares a photo: ") {
			captions++
		}
	}
	if cats["single-hop"] != 563 || cats["adversarial"] != 312 || cats["multi-hop"] != 192 || cats["temporal"] != 214 || cats["open-domain"] != 66 {
		t.Fatalf("categories %v", cats)
	}
	if captions == 0 {
		t.Error("image captions were not kept")
	}
}

func TestLoCoMoEvidenceRepair(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "l.json")
	data := `[{"sample_id":"c1","conversation":{"speaker_a":"A","speaker_b":"B",
	  "session_1_date_time":"1:56 pm on 8 May, 2023","session_1":[{"speaker":"A","dia_id":"D1:1","text":"hi"},{"speaker":"B","dia_id":"D1:2","text":"yo","blip_caption":"a dog"}],
	  "session_2_date_time":"9:00 am on 9 May, 2023","session_2":[{"speaker":"A","dia_id":"D2:1","text":"bye"}]},
	  "qa":[{"question":"q?","answer":2022,"evidence":["D1:1; D2:1","D:1:2","D"],"category":1}]}]`
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := LoadLoCoMo(p)
	if err != nil {
		t.Fatal(err)
	}
	q := d.Questions[0]
	if !slices.Equal(q.Evidence, []string{"D1:1", "D1:2", "D2:1"}) || q.Golds[0] != "2022" || q.Category != "multi-hop" {
		t.Fatalf("%+v", q)
	}
	if got := d.Conversations[0].Sessions[0].Turns[1].Content; got != "yo [shares a photo: a dog]" {
		t.Fatalf("caption: %q", got)
	}
}

func TestLoadBEAMShipped(t *testing.T) {
	d, err := LoadBEAM(sharedData(t, "beam/100K"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(d.Conversations) != 14 || d.Conversations[1].ID != "2" || len(d.Questions) != 280 {
		t.Fatalf("%d conversations (second %s), %d questions", len(d.Conversations), d.Conversations[1].ID, len(d.Questions))
	}
	c := d.Conversations[0]
	turns := c.Turns()
	if len(turns) != 188 || turns[0].ID != "0" || turns[0].Role != "user" || turns[1].Role != "assistant" {
		t.Fatalf("chat 1: %d turns, first %+v", len(turns), turns[0])
	}
	if !turns[0].Time.Equal(time.Date(2024, 3, 15, 0, 0, 0, 0, time.UTC)) || c.Sessions[1].DateText != "April-05-2024" {
		t.Fatalf("time anchors: %v, %q", turns[0].Time, c.Sessions[1].DateText)
	}
	var ku, cr *Question
	for _, q := range d.Questions {
		if q.ConversationID == "1" && q.Category == AbilityKnowledgeUpdate && ku == nil {
			ku = q
		}
		if q.ConversationID == "1" && q.Category == AbilityContradictionResolution && cr == nil {
			cr = q
		}
		if len(q.Golds) == 0 {
			t.Errorf("question %s has no gold", q.ID)
		}
	}
	if ku == nil || !slices.Equal(ku.EvidenceGroups["original_info"], []string{"86"}) || !slices.Equal(ku.EvidenceGroups["updated_info"], []string{"114"}) || !slices.Equal(ku.Evidence, []string{"114", "86"}) {
		t.Fatalf("knowledge_update: %+v", ku)
	}
	if cr == nil || !slices.Equal(cr.EvidenceGroups["first_statement"], []string{"58"}) || !slices.Equal(cr.EvidenceGroups["second_statement"], []string{"24"}) {
		t.Fatalf("contradiction_resolution: %+v", cr)
	}
	// The probing questions are the user's ("What is the average response time of the dashboard API?", "Have I
	// worked with Flask routes…?"): their asker is the speaker the user's messages are sent as.
	if ku.Asker != "user" || cr.Asker != "user" || turns[0].Speaker != "user" {
		t.Fatalf("askers %q, %q; the user's speaker %q", ku.Asker, cr.Asker, turns[0].Speaker)
	}
	if !strings.Contains(ku.Golds[0], "250ms") || len(ku.Rubric) == 0 {
		t.Fatalf("knowledge_update gold/rubric: %v %v", ku.Golds, ku.Rubric)
	}
}

func TestLoadLongMemEvalHandWritten(t *testing.T) {
	d, err := LoadLongMemEval(filepath.Join("testdata", "longmemeval_tiny.json"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if len(d.Conversations) != 3 || len(d.Questions) != 3 {
		t.Fatalf("%d conversations, %d questions", len(d.Conversations), len(d.Questions))
	}
	q := d.Questions[0]
	if q.ID != "tiny_user_1" || q.Category != "single-session-user" || !slices.Equal(q.Evidence, []string{"answer_tiny_1:0"}) || q.Golds[0] != "A border collie" {
		t.Fatalf("%+v", q)
	}
	if q.Date == nil || !q.Date.Equal(time.Date(2023, 6, 1, 10, 0, 0, 0, time.UTC)) {
		t.Fatalf("question date %v", q.Date)
	}
	c := d.Conversations[0]
	if c.Sessions[1].DateText != "2023/05/25 (Thu) 18:05" || !c.Sessions[1].Turns[0].Time.Equal(time.Date(2023, 5, 25, 18, 5, 0, 0, time.UTC)) {
		t.Fatalf("session dates %+v", c.Sessions[1])
	}
	// A numeric answer; has_answer marks the evidence (the old and the new value of a knowledge update).
	u := d.Questions[1]
	if u.Golds[0] != "42" || !slices.Equal(u.Evidence, []string{"answer_tiny_2a:0", "answer_tiny_2b:0"}) {
		t.Fatalf("%+v", u)
	}
	// No has_answer in the answer session: its user turns are the evidence. "_abs" marks abstention.
	a := d.Questions[2]
	if !a.Abstention || !slices.Equal(a.Evidence, []string{"answer_tiny_3:0"}) {
		t.Fatalf("%+v", a)
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"not":"a list"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{FactConsolidation, LoCoMo, LongMemEval} {
		if _, err := Load(b, bad); err == nil {
			t.Errorf("%s accepted a non-list", b)
		}
	}
	if _, err := Load(BEAM, dir); err == nil || !strings.Contains(err.Error(), "chat.json") {
		t.Errorf("BEAM on an empty directory: %v", err)
	}
	if _, err := Load("nope", bad); err == nil {
		t.Error("unknown benchmark accepted")
	}
}

func TestLimit(t *testing.T) {
	spread := &Dataset{}
	for i := range 10 {
		spread.Questions = append(spread.Questions, &Question{ID: strconv.Itoa(i), ConversationID: "a"})
	}
	spread.LimitPerConversation(3)
	if ids := []string{spread.Questions[0].ID, spread.Questions[1].ID, spread.Questions[2].ID}; len(spread.Questions) != 3 || strings.Join(ids, ",") != "0,3,6" {
		t.Fatalf("evenly spaced: %v", ids)
	}

	d := &Dataset{Conversations: []*Conversation{{ID: "a"}, {ID: "b"}}, Questions: []*Question{
		{ID: "1", ConversationID: "a"}, {ID: "2", ConversationID: "a"}, {ID: "3", ConversationID: "b"}, {ID: "4", ConversationID: "b"}}}
	d.LimitPerConversation(1)
	if len(d.Questions) != 2 || d.Questions[0].ID != "1" || d.Questions[1].ID != "3" {
		t.Fatalf("%v", d.Questions)
	}
	d.Limit(1)
	if len(d.Questions) != 1 || len(d.Conversations) != 1 || d.Conversations[0].ID != "a" {
		t.Fatalf("%v %v", d.Questions, d.Conversations)
	}
}

func TestWorkspace(t *testing.T) {
	if got := Workspace("locomo", "b", "conv-26"); got != "locomo-b-conv-26" {
		t.Fatal(got)
	}
	if got := Workspace("LongMemEval", "", "e47becba_abs"); got != "longmemeval--e47becba_abs" {
		t.Fatal(got)
	}
	if got := Workspace("x", "y", strings.Repeat("z", 100)); len(got) != 63 {
		t.Fatal(len(got))
	}
}
