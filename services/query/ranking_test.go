package query

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/store"
)

// The any-term lexical mode weighs a rare word of the question above a common one: a claim matching only the
// rare word outranks claims that repeat the common word, and a claim matching both ranks first.
func TestAnyTermRanksByInverseDocumentFrequency(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("idf")
	for i := range 30 {
		f.add(fclaim{Subject: "Ann", Predicate: "said", Accumulating: true, Object: fmt.Sprint(i),
			Text: fmt.Sprintf("Ann said the weekend weekend was long, number %d.", i)})
	}
	rare := f.add(fclaim{Subject: "Ann", Predicate: "said", Accumulating: true, Object: "pottery",
		Text: "Ann tried pottery."})
	both := f.add(fclaim{Subject: "Ann", Predicate: "said", Accumulating: true, Object: "class",
		Text: "Ann took a pottery class at the weekend."})
	v := store.View{Workspace: "idf", Agent: "agent-a"}
	a := lexicalArgs(v, "pottery or weekend", 10)
	a["terms"] = []string{"pottery", "weekend"}
	a["wide"] = "pottery or weekend"
	sql, _ := anyTermSQL(v, true, false)
	rows, err := h.db.Query(context.Background(), sql, a)
	if err != nil {
		t.Fatal(err)
	}
	ids, err := scanIDs(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) != 10 {
		t.Fatalf("got %d ids, want 10 (the limit)", len(ids))
	}
	if ids[0] != both || ids[1] != rare {
		t.Fatalf("ranking = %v…, want the claim with both words (%s), then the one with the rare word (%s)", ids[:3], both, rare)
	}
}

// The subject mode lists a mentioned subject's claims only when their predicate is the relation the question
// asks about; the subject's other claims — everything a busy speaker said — are left to the other modes.
func TestSubjectModeNeedsThePredicate(t *testing.T) {
	row := func(id, pred, text string) store.Belief {
		return store.Belief{ID: id, Subject: "Ann", SubjectKey: canon.SubjectKey("Ann"), Predicate: pred,
			PredicateKey: canon.PredicateKey(pred), Object: "x", Text: text}
	}
	rows := []store.Belief{
		row("said-1", "said", "Ann said her sister lives far away."),
		row("said-2", "said", "Ann said she loves the sea."),
		row("sister", "sister", "Ann's sister is Beth."),
	}
	q := "Who is Ann's sister?"
	keys, spans := ngramKeys(q)
	ms := mentionsOf(keys, spans, map[string][]string{canon.SubjectKey("Ann"): {canon.SubjectKey("Ann")}})
	if len(ms) != 1 {
		t.Fatalf("mentions = %+v, want Ann", ms)
	}
	got := rankSubjectClaims(analyzeQuestion(q), ms, rows, 10)
	if len(got) != 1 || got[0] != "sister" {
		t.Fatalf("subject mode = %v, want only [sister]", got)
	}
}

// Searching a busy subject for something it said once finds that claim first, through the public API.
func TestSearchFindsTheClaimAboutTheQuestionAmongABusySubjectsClaims(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("busy")
	for i := range 80 {
		f.add(fclaim{Subject: "Caro", Predicate: "said", Accumulating: true, Object: fmt.Sprint(i),
			Text: fmt.Sprintf("Caro said it was a really nice day, like day %d.", i), ValidFrom: day("2024-03-01").AddDate(0, 0, i)})
	}
	want := f.add(fclaim{Subject: "Caro", Predicate: "said", Accumulating: true, Object: "tournament",
		Text: "Caro won a chess tournament in Oslo.", ValidFrom: day("2024-01-05")})
	sr, err := h.client("agent-a").Search(context.Background(), "busy", api.SearchRequest{Query: "Which tournament did Caro win?", TokenBudget: 200})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Claims) == 0 || sr.Claims[0].ID != want {
		first := ""
		if len(sr.Claims) > 0 {
			first = sr.Claims[0].Text
		}
		t.Fatalf("first claim = %q, want the tournament claim\ncontext:\n%s", first, sr.Context)
	}
}

// A word more than lexicalScanCap of the workspace's visible claims hold is left out of the workspace-wide
// any-term scan (to the mentioned subjects' scan), and rarer words are scanned: counted in the workspace itself,
// so the same word is common in one workspace and rare in another, and another agent's private claims do not
// make it common for an agent that cannot read them.
func TestSelectiveTermsAreTheWorkspacesOwn(t *testing.T) {
	h := newHarness(t)
	insert := func(ws, scope, owner string, n int) {
		h.workspace(ws).exec(`INSERT INTO claims (id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key,
			text, functional, scope, owner_agent, confidence, valid_from, provenance, partition, stream_seq, recorded_at)
			SELECT gen_random_uuid(), $1, 's' || i, 'S' || i, 'said', 'said', 'said', 'x', 'x',
				'S' || i || ' spent the weekend at home.', false, $2, $3, 1, now(), '{}', 0, i, now()
			FROM generate_series(1, $4::int) AS i`, ws, scope, owner, n)
	}
	common := lexicalScanCap + 50
	insert("busy", "shared", "agent-a", common)
	insert("quiet", "shared", "agent-a", 3)
	insert("private", "private", "agent-b", common)
	for _, ws := range []string{"busy", "quiet", "private"} {
		h.workspace(ws).add(fclaim{Subject: "Ann", Predicate: "said", Accumulating: true, Object: "x",
			Text: "Ann spent the weekend at a pottery class."})
	}
	terms := []string{"weekend", "pottery"}
	for _, c := range []struct {
		ws, agent string
		want      []string
	}{
		{"busy", "agent-a", []string{"pottery"}},
		{"quiet", "agent-a", terms},
		{"private", "agent-a", terms},
		{"private", "agent-b", []string{"pottery"}},
	} {
		v := store.View{Workspace: c.ws, Agent: c.agent}
		rows, err := h.db.Query(context.Background(), termMatchesSQL(len(terms)), termMatchesArgs(v, terms))
		if err != nil {
			t.Fatal(err)
		}
		matches, err := scanTermMatches(rows, terms)
		if err != nil {
			t.Fatal(err)
		}
		if got := selectiveTerms(terms, matches); !slices.Equal(got, c.want) {
			t.Errorf("%s as %s: selective terms = %v (matches %v), want %v", c.ws, c.agent, got, matches, c.want)
		}
	}
}
