package query

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
)

func ptime(t time.Time) *time.Time { return &t }

func claimIDs(cs []api.Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func findClaim(cs []api.Claim, id string) *api.Claim {
	for i := range cs {
		if cs[i].ID == id {
			return &cs[i]
		}
	}
	return nil
}

// lives builds the resolution story of DESIGN.md: a fact, its update, a late-arriving older fact.
//
//	valid time:   Rome 2020 ── Paris 2022 ── Berlin 2024
//	recorded:     Paris 2022-01-02, Berlin 2024-01-02, Rome 2024-06-01 (late, inserted already superseded)
type lives struct {
	f                   *fixture
	paris, berlin, rome string
}

func buildLives(h *harness) lives {
	f := h.workspace("team")
	l := lives{f: f}
	l.paris = f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Paris", ValidFrom: day("2022-01-01"), RecordedAt: day("2022-01-02")})
	l.berlin = f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Berlin", ValidFrom: day("2024-01-01"), RecordedAt: day("2024-01-02")})
	f.supersede(l.berlin, l.paris, day("2024-01-02"))
	vt := day("2022-01-01")
	l.rome = f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Rome", ValidFrom: day("2020-01-01"),
		RecordedAt: day("2024-06-01"), Status: "superseded", ValidTo: &vt})
	d := f.decision("alice", "lives_in", "lww", "superseded", []string{l.rome, l.berlin}, l.paris, []string{l.rome}, day("2024-06-01"))
	f.exec(`UPDATE claim_versions SET decision_id = $2 WHERE claim_id = $1`, l.rome, d)
	f.exec(`INSERT INTO supersedes (claim_id, superseded_id, decision_id) VALUES ($1,$2,$3)`, l.paris, l.rome, d)
	f.add(fclaim{Subject: "Alice", Predicate: "works at", Object: "Acme", ValidFrom: day("2021-03-01")})
	f.add(fclaim{Subject: "Bob", Predicate: "lives in", Object: "Madrid", ValidFrom: day("2023-01-01")})
	return l
}

func TestResolutionScenarios(t *testing.T) {
	h := newHarness(t)
	l := buildLives(h)
	ctx := context.Background()
	a := h.client("agent-a")

	t.Run("current value after update and late older fact", func(t *testing.T) {
		res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != "Berlin" || res.Mode != ModeDeterministic {
			t.Fatalf("answer = %q mode %q, want Berlin deterministic (%+v)", res.Answer, res.Mode, res)
		}
		if len(res.ClaimsUsed) != 1 || res.ClaimsUsed[0].ID != l.berlin || res.TokensSpent.Context == 0 {
			t.Fatalf("claims used %v tokens %+v", claimIDs(res.ClaimsUsed), res.TokensSpent)
		}
		sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "Where does Alice live?"})
		if err != nil {
			t.Fatal(err)
		}
		if len(sr.Claims) == 0 || sr.Claims[0].ID != l.berlin {
			t.Fatalf("search top = %v, want berlin first", claimIDs(sr.Claims))
		}
		for _, c := range sr.Claims {
			if c.ID == l.paris || c.ID == l.rome {
				t.Fatalf("a superseded claim reached the default search: %+v", c)
			}
		}
		if !strings.Contains(sr.Context, "Alice lives in Berlin") || sr.ContextTokens == 0 || sr.Tokenizer != "cl100k_base" {
			t.Fatalf("context %q tokens %d tokenizer %q", sr.Context, sr.ContextTokens, sr.Tokenizer)
		}
	})

	t.Run("history co-surfaced when asked about change", func(t *testing.T) {
		sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "Where did Alice live before?"})
		if err != nil {
			t.Fatal(err)
		}
		ids := claimIDs(sr.Claims)
		if len(ids) < 3 || ids[0] != l.berlin || ids[1] != l.paris || ids[2] != l.rome {
			t.Fatalf("search with history = %v, want berlin, paris, rome", ids)
		}
		if p := findClaim(sr.Claims, l.paris); p.Status != "superseded" || !slices.Contains(p.Conflicts, l.berlin) {
			t.Fatalf("paris = %+v, want superseded with conflicts [berlin]", p)
		}
		if !strings.Contains(sr.Context, "[FORMER] Alice lives in Paris") {
			t.Fatalf("context lacks the former value: %q", sr.Context)
		}
		res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Where did Alice use to live?"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Answer != "Paris" {
			t.Fatalf("former value = %q, want Paris (%+v)", res.Answer, res)
		}
		res, err = a.Answer(ctx, "team", api.AnswerRequest{Question: "Where did Alice originally live?"})
		if err != nil || res.Answer != "Rome" {
			t.Fatalf("earliest = %q, %v; want Rome", res.Answer, err)
		}
		sr, err = a.Search(ctx, "team", api.SearchRequest{Query: "Alice lives", IncludeHistory: true, K: 1})
		if err != nil || len(sr.Claims) != 3 {
			t.Fatalf("include_history k=1 = %v, %v; want the slot with its 3 versions", claimIDs(sr.Claims), err)
		}
	})

	t.Run("as_of valid time", func(t *testing.T) {
		for _, tc := range []struct {
			at   string
			want string
		}{{"2021-06-01", "Rome"}, {"2023-06-01", "Paris"}, {"2025-01-01", "Berlin"}} {
			res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?", AsOf: ptime(day(tc.at))})
			if err != nil {
				t.Fatal(err)
			}
			if res.Answer != tc.want {
				t.Errorf("as_of %s: %q, want %s", tc.at, res.Answer, tc.want)
			}
			sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "Where does Alice live?", AsOf: ptime(day(tc.at))})
			if err != nil {
				t.Fatal(err)
			}
			if len(sr.Claims) == 0 || sr.Claims[0].Object != tc.want {
				t.Errorf("search as_of %s: top %+v, want %s", tc.at, sr.Claims, tc.want)
			}
		}
		res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?", AsOf: ptime(day("2019-01-01"))})
		if err != nil || res.Mode != ModeNone {
			t.Fatalf("before any fact: %+v, %v; want mode none", res, err)
		}
	})

	t.Run("known_at transaction time", func(t *testing.T) {
		// On 2023-01-01 memory knew only Paris; on 2024-03-01 Berlin (Rome was not yet recorded).
		res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?", KnownAt: ptime(day("2023-01-01"))})
		if err != nil || res.Answer != "Paris" {
			t.Fatalf("known_at 2023: %q, %v; want Paris", res.Answer, err)
		}
		sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "Alice live", KnownAt: ptime(day("2024-03-01")), IncludeHistory: true})
		if err != nil {
			t.Fatal(err)
		}
		if findClaim(sr.Claims, l.rome) != nil {
			t.Fatalf("Rome was recorded 2024-06-01 but appears at known_at 2024-03-01: %v", claimIDs(sr.Claims))
		}
		// What memory believed in 2023 about 2021: Paris was then its only fact, valid from 2022.
		res, err = a.Answer(ctx, "team", api.AnswerRequest{Question: "Where does Alice live?", KnownAt: ptime(day("2023-01-01")), AsOf: ptime(day("2021-06-01"))})
		// Then memory knew of no place of living in 2021: the statement of her work, quoted, is all it has.
		if err != nil || res.Mode != ModeStatement || !strings.Contains(res.Answer, "Acme") {
			t.Fatalf("known_at 2023 as_of 2021: %+v, %v; want no place of living, the statement of her work quoted", res, err)
		}
	})

	t.Run("timeline", func(t *testing.T) {
		sub, err := a.Subject(ctx, "team", "alice", client.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if sub.Subject != "Alice" || len(sub.Slots) != 2 || len(sub.Current) != 2 {
			t.Fatalf("subject = %+v", sub)
		}
		var lv *api.Slot
		for i := range sub.Slots {
			if sub.Slots[i].SlotKey == "lives_in" {
				lv = &sub.Slots[i]
			}
		}
		if lv == nil || !slices.Equal(lv.Current, []string{l.berlin}) || len(lv.Decisions) != 2 {
			t.Fatalf("lives_in slot = %+v", lv)
		}
		// Paris: version 1 active (retired 2024-01-02), version 2 superseded by Berlin until 2024-01-01.
		var paris []api.TimelineEntry
		for _, e := range lv.Timeline {
			if e.ClaimID == l.paris {
				paris = append(paris, e)
			}
		}
		if len(paris) != 2 || paris[0].Status != "active" || paris[0].RetiredAt == nil || paris[1].Status != "superseded" ||
			paris[1].ValidTo == nil || !paris[1].ValidTo.Equal(day("2024-01-01")) || paris[1].DecisionID == "" ||
			len(paris[1].SupersededBy) != 1 || paris[1].SupersededBy[0].ClaimID != l.berlin || len(paris[1].Supersedes) != 1 {
			t.Fatalf("paris timeline = %+v", paris)
		}
		old, err := a.Subject(ctx, "team", "Alice", client.ReadOptions{KnownAt: day("2023-01-01")})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range old.Slots {
			for _, e := range s.Timeline {
				if e.ClaimID == l.berlin || e.ClaimID == l.rome || e.RetiredAt != nil {
					t.Fatalf("known_at 2023 shows a later belief: %+v", e)
				}
			}
		}
		asof, err := a.Subject(ctx, "team", "alice", client.ReadOptions{AsOf: day("2023-01-01")})
		if err != nil {
			t.Fatal(err)
		}
		var cur []string
		for _, c := range asof.Current {
			cur = append(cur, c.Object)
		}
		slices.Sort(cur)
		if !slices.Equal(cur, []string{"Acme", "Paris"}) {
			t.Fatalf("as_of 2023 current = %v, want Acme, Paris", cur)
		}
	})

	t.Run("claim provenance and decision chain", func(t *testing.T) {
		cr, err := a.Claim(ctx, "team", l.paris, client.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if cr.Claim.Status != "superseded" || cr.Provenance.Extractor != "structured" || cr.Provenance.AgentID != "agent-a" ||
			len(cr.Versions) != 2 || len(cr.Decisions) != 2 || len(cr.SupersededBy) != 1 || len(cr.Supersedes) != 1 ||
			len(cr.Corroborations) != 1 {
			t.Fatalf("claim = %+v", cr)
		}
		old, err := a.Claim(ctx, "team", l.paris, client.ReadOptions{KnownAt: day("2023-01-01")})
		if err != nil || old.Claim.Status != "active" || len(old.Versions) != 1 || len(old.Decisions) != 0 {
			t.Fatalf("claim known_at 2023 = %+v, %v", old, err)
		}
		_, err = a.Claim(ctx, "team", l.berlin, client.ReadOptions{KnownAt: day("2023-01-01")})
		if !errors.Is(err, client.ErrNotFound) {
			t.Fatalf("a claim before it was recorded: %v, want 404", err)
		}
	})
}

func TestPrivateIsolation(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	other := h.workspace("other")
	ctx := context.Background()
	a, b := h.client("agent-a"), h.client("agent-b")

	secret := f.add(fclaim{Subject: "Bob", Predicate: "salary", Object: "120k", Scope: "private", Owner: "agent-b", ValidFrom: day("2024-02-01")})
	f.add(fclaim{Subject: "Bob", Predicate: "role", Object: "engineer", ValidFrom: day("2024-01-01")})
	other.add(fclaim{Subject: "Bob", Predicate: "salary", Object: "999k", ValidFrom: day("2024-03-01")})

	res, err := b.Answer(ctx, "team", api.AnswerRequest{Question: "What is Bob's salary?"})
	if err != nil || res.Answer != "120k" {
		t.Fatalf("owner: %+v, %v; want 120k", res, err)
	}
	res, err = a.Answer(ctx, "team", api.AnswerRequest{Question: "What is Bob's salary?"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Answer, "120k") || strings.Contains(res.Answer, "999k") {
		t.Fatalf("agent-a sees a private or other-workspace claim: %+v", res)
	}
	sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "Bob salary 120k", K: 100, IncludeHistory: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range sr.Claims {
		if c.Scope == "private" || c.Object == "999k" {
			t.Fatalf("search leaked %+v", c)
		}
	}
	if strings.Contains(sr.Context, "120k") || strings.Contains(sr.Context, "999k") {
		t.Fatalf("context leaked: %q", sr.Context)
	}
	if _, err := a.Claim(ctx, "team", secret, client.ReadOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("claim endpoint: %v, want 404", err)
	}
	if _, err := a.Claim(ctx, "other", secret, client.ReadOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("claim endpoint across workspaces: %v, want 404", err)
	}
	sub, err := a.Subject(ctx, "team", "bob", client.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sub.Slots {
		if s.SlotKey == "salary" {
			t.Fatalf("timeline leaked the private slot: %+v", s)
		}
	}
	// A subject only another agent's private claims mention does not exist for this agent.
	f.add(fclaim{Subject: "Zed", Predicate: "mood", Object: "grumpy", Scope: "private", Owner: "agent-b"})
	if _, err := a.Subject(ctx, "team", "zed", client.ReadOptions{}); !errors.Is(err, client.ErrNotFound) {
		t.Fatalf("subject of private claims only: %v, want 404", err)
	}
	if _, err := b.Subject(ctx, "team", "zed", client.ReadOptions{}); err != nil {
		t.Fatalf("owner reads own subject: %v", err)
	}
}

func TestPrivateOverShared(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	ctx := context.Background()
	a, b := h.client("agent-a"), h.client("agent-b")

	// Shared: Carol (newer). agent-b's private belief: Dave (older).
	shared := f.add(fclaim{Subject: "Alice", Predicate: "manager", Object: "Carol", ValidFrom: day("2024-05-01")})
	priv := f.add(fclaim{Subject: "Alice", Predicate: "manager", Object: "Dave", Scope: "private", Owner: "agent-b", ValidFrom: day("2024-04-01")})

	ask := func(c *client.Client) string {
		t.Helper()
		res, err := c.Answer(ctx, "team", api.AnswerRequest{Question: "Who is Alice's manager?"})
		if err != nil {
			t.Fatal(err)
		}
		return res.Answer
	}
	if got := ask(a); got != "Carol" {
		t.Fatalf("agent-a: %q, want the shared Carol", got)
	}
	if got := ask(b); got != "Dave" {
		t.Fatalf("agent-b: %q, want its private Dave (shared is newer but not corroborated)", got)
	}
	sr, err := b.Search(ctx, "team", api.SearchRequest{Query: "Alice manager"})
	if err != nil {
		t.Fatal(err)
	}
	if findClaim(sr.Claims, priv) == nil || findClaim(sr.Claims, shared) != nil {
		t.Fatalf("agent-b search = %+v, want the private claim only", sr.Claims)
	}
	f.corroborate(shared, "agent:agent-c", day("2024-05-02"))
	if got := ask(b); got != "Carol" {
		t.Fatalf("agent-b after corroboration: %q, want the newer corroborated shared Carol", got)
	}
}

func TestDisputedCoSurfacing(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	ctx := context.Background()
	a := h.client("agent-a")
	x := f.add(fclaim{Subject: "Project Apollo", Predicate: "deadline", Object: "March 3", ValidFrom: day("2024-02-01"), Seq: seq(7)})
	y := f.add(fclaim{Subject: "Project Apollo", Predicate: "deadline", Object: "March 10", ValidFrom: day("2024-02-01"), Seq: seq(7), Owner: "agent-c"})
	f.dispute(day("2024-02-02"), x, y)
	f.add(fclaim{Subject: "Project Apollo", Predicate: "owner", Object: "Alice"})

	sr, err := a.Search(ctx, "team", api.SearchRequest{Query: "When is the Project Apollo deadline?"})
	if err != nil {
		t.Fatal(err)
	}
	cx, cy := findClaim(sr.Claims, x), findClaim(sr.Claims, y)
	if cx == nil || cy == nil || cx.Status != "disputed" || !slices.Contains(cx.Conflicts, y) || !slices.Contains(cy.Conflicts, x) {
		t.Fatalf("search = %+v, want both sides flagged", sr.Claims)
	}
	if strings.Count(sr.Context, "[DISPUTED]") != 2 {
		t.Fatalf("context = %q", sr.Context)
	}
	res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "What is the deadline of Project Apollo?"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Disputed || !strings.Contains(res.Answer, "March 3") || !strings.Contains(res.Answer, "March 10") || len(res.ClaimsUsed) != 2 {
		t.Fatalf("answer = %+v, want both values flagged disputed", res)
	}
	sub, err := a.Subject(ctx, "team", "project_apollo", client.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sub.Slots {
		if s.SlotKey == "deadline" && (!s.Disputed || len(s.Current) != 2) {
			t.Fatalf("timeline slot = %+v", s)
		}
	}
}

func TestChainedQuestion(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("books")
	ctx := context.Background()
	a := h.client("agent-a")
	f.add(fclaim{Subject: "Dune", Predicate: "author", Object: "Frank Herbert", Text: "The author of Dune is Frank Herbert."})
	f.add(fclaim{Subject: "Frank Herbert", Predicate: "married to", Object: "Beverly Herbert", Text: "Frank Herbert is married to Beverly Herbert.", ValidFrom: day("2020-01-01")})
	old := f.add(fclaim{Subject: "Beverly Herbert", Predicate: "born in", Object: "Seattle", Text: "Beverly Herbert was born in the city of Seattle.", ValidFrom: day("2020-01-01")})
	nw := f.add(fclaim{Subject: "Beverly Herbert", Predicate: "born in", Object: "Tacoma", Text: "Beverly Herbert was born in the city of Tacoma.", ValidFrom: day("2021-01-01")})
	f.supersede(nw, old, day("2021-01-01"))
	f.add(fclaim{Subject: "Tacoma", Predicate: "located in the country of", Object: "United States", Text: "Tacoma is located in the country of United States."})

	res, err := a.Answer(ctx, "books", api.AnswerRequest{Question: "Who is the spouse of the author of Dune?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Beverly Herbert" || res.Mode != ModeMultiHop || len(res.Hops) != 2 || res.Hops[0].Object != "Frank Herbert" {
		t.Fatalf("answer = %+v", res)
	}
	res, err = a.Answer(ctx, "books", api.AnswerRequest{Question: "In which city was the wife of the author of Dune born?"})
	if err != nil || res.Answer != "Tacoma" || len(res.Hops) != 3 {
		t.Fatalf("3 hops = %+v, %v; want Tacoma (the updated birthplace)", res, err)
	}
	if len(res.ClaimsUsed) != 3 {
		t.Fatalf("claims used = %v", claimIDs(res.ClaimsUsed))
	}
}

func TestBadInput(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.MaxQueryBytes = 100; c.MaxBodyBytes = 1024 })
	h.workspace("team").add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Paris"})
	type tc struct {
		name, method, path, agent, body string
		status                          int
		field                           string
	}
	long := strings.Repeat("x", 101)
	cases := []tc{
		{"no agent", "POST", "/v1/workspaces/team/search", "", `{"query":"x"}`, 401, "X-Mneme-Agent"},
		{"bad agent", "POST", "/v1/workspaces/team/search", "a b", `{"query":"x"}`, 401, "X-Mneme-Agent"},
		{"unknown workspace", "POST", "/v1/workspaces/nope/search", "a", `{"query":"x"}`, 404, "workspace"},
		{"bad workspace id", "POST", "/v1/workspaces/NO!/search", "a", `{"query":"x"}`, 400, "workspace"},
		{"malformed json", "POST", "/v1/workspaces/team/search", "a", `{"query":`, 400, ""},
		{"not an object", "POST", "/v1/workspaces/team/search", "a", `[1,2]`, 400, ""},
		{"empty body", "POST", "/v1/workspaces/team/search", "a", ``, 400, ""},
		{"trailing data", "POST", "/v1/workspaces/team/search", "a", `{"query":"x"} {}`, 400, ""},
		{"unknown field", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","top_k":3}`, 400, "top_k"},
		{"wrong type", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","k":"ten"}`, 400, "k"},
		{"blank query", "POST", "/v1/workspaces/team/search", "a", `{"query":"  "}`, 400, "query"},
		{"missing query", "POST", "/v1/workspaces/team/search", "a", `{}`, 400, "query"},
		{"long query", "POST", "/v1/workspaces/team/search", "a", `{"query":"` + long + `"}`, 413, "query"},
		{"nul in query", "POST", "/v1/workspaces/team/search", "a", `{"query":"a\u0000b"}`, 400, "query"},
		{"k too large", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","k":1000}`, 400, "k"},
		{"negative k", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","k":-1}`, 400, "k"},
		{"huge k", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","k":99999999999999999999}`, 400, "k"},
		{"budget too large", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","token_budget":100000}`, 400, "token_budget"},
		{"bad as_of", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","as_of":"yesterday"}`, 400, "as_of"},
		{"bad known_at type", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","known_at":5}`, 400, "known_at"},
		{"body too large", "POST", "/v1/workspaces/team/search", "a", `{"query":"x","pad":"` + strings.Repeat("y", 2000) + `"}`, 413, ""},
		{"answer blank", "POST", "/v1/workspaces/team/answer", "a", `{"question":""}`, 400, "question"},
		{"answer bad budget", "POST", "/v1/workspaces/team/answer", "a", `{"question":"x","token_budget":-5}`, 400, "token_budget"},
		{"answer unknown field", "POST", "/v1/workspaces/team/answer", "a", `{"query":"x"}`, 400, "query"},
		{"claim bad id", "GET", "/v1/workspaces/team/claims/not-a-uuid", "a", ``, 400, "id"},
		{"claim unknown", "GET", "/v1/workspaces/team/claims/0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11", "a", ``, 404, "id"},
		{"claim as_of", "GET", "/v1/workspaces/team/claims/0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11?as_of=2024-01-01T00:00:00Z", "a", ``, 400, "as_of"},
		{"subject unknown", "GET", "/v1/workspaces/team/subjects/nobody", "a", ``, 404, "subject_key"},
		{"subject punct only", "GET", "/v1/workspaces/team/subjects/%21%21", "a", ``, 400, "subject_key"},
		{"subject nul", "GET", "/v1/workspaces/team/subjects/a%00b", "a", ``, 400, "subject_key"},
		{"subject bad utf8", "GET", "/v1/workspaces/team/subjects/%ff%fe", "a", ``, 400, "subject_key"},
		{"subject bad time", "GET", "/v1/workspaces/team/subjects/alice?known_at=x", "a", ``, 400, "known_at"},
		{"subject unknown param", "GET", "/v1/workspaces/team/subjects/alice?asof=x", "a", ``, 400, "asof"},
		{"subject repeated param", "GET", "/v1/workspaces/team/subjects/alice?as_of=2024-01-01T00:00:00Z&as_of=2024-01-01T00:00:00Z", "a", ``, 400, "as_of"},
		{"ok search", "POST", "/v1/workspaces/team/search", "a", `{"query":"alice"}`, 200, ""},
		{"ok search of operators", "POST", "/v1/workspaces/team/search", "a", `{"query":"!!! & | <-> ' \" ( ) : * or and not -alice"}`, 200, ""},
		{"ok subject", "GET", "/v1/workspaces/team/subjects/Alice", "a", ``, 200, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req, err := http.NewRequest(c.method, h.srv.URL+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			if c.agent != "" {
				req.Header.Set(api.HeaderAgent, c.agent)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var body api.Error
			_ = jsonDecode(resp.Body, &body)
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d (%+v)", resp.StatusCode, c.status, body)
			}
			if c.status >= 400 {
				if body.Error.Code == "" || body.Error.Message == "" || body.Error.Field != c.field {
					t.Fatalf("error body %+v, want field %q", body, c.field)
				}
			}
		})
	}
}

func TestDeadline(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.RequestTimeout = 10 * time.Millisecond })
	h.workspace("team").add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Paris"})
	// Hold a lock the read path needs so the request must hit its deadline.
	ctx := context.Background()
	tx, err := h.db.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = tx.Rollback(ctx) }()
	if _, err := tx.Exec(ctx, `LOCK TABLE claims IN ACCESS EXCLUSIVE MODE`); err != nil {
		t.Fatal(err)
	}
	_, err = h.client("a").Search(ctx, "team", api.SearchRequest{Query: "alice"})
	var e *client.Error
	if !errors.As(err, &e) || e.Status != http.StatusServiceUnavailable || e.Body.Code != api.CodeUnavailable {
		t.Fatalf("err = %v, want 503 unavailable at the deadline", err)
	}
}

// A question that names a value asks who holds it now: "Who lives in Berlin?" (reverse lookup).
func TestReverseLookup(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	ctx := context.Background()
	a := h.client("agent-a")
	alice := f.add(fclaim{Subject: "Alice", Predicate: "lives in", Object: "Berlin", ValidFrom: day("2024-01-01")})
	f.add(fclaim{Subject: "Bob", Predicate: "lives in", Object: "Madrid", ValidFrom: day("2024-01-01")})
	old := f.add(fclaim{Subject: "Carol", Predicate: "lives in", Object: "Berlin", ValidFrom: day("2020-01-01")})
	nw := f.add(fclaim{Subject: "Carol", Predicate: "lives in", Object: "Oslo", ValidFrom: day("2023-01-01")})
	f.supersede(nw, old, day("2023-01-01"))
	f.add(fclaim{Subject: "Dave", Predicate: "works in", Object: "Berlin", ValidFrom: day("2024-01-01")})
	f.add(fclaim{Subject: "Erin", Predicate: "lives in", Object: "Berlin", Scope: "private", Owner: "agent-b"})

	res, err := a.Answer(ctx, "team", api.AnswerRequest{Question: "Who lives in Berlin?"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Answer != "Alice" || res.Mode != ModeDeterministic || len(res.ClaimsUsed) != 1 || res.ClaimsUsed[0].ID != alice {
		t.Fatalf("answer = %+v", res)
	}
	res, err = a.Answer(ctx, "team", api.AnswerRequest{Question: "Who lived in Berlin?", AsOf: ptime(day("2021-01-01"))})
	if err != nil || res.Answer != "Carol" {
		t.Fatalf("as_of 2021 = %+v, %v", res, err)
	}
}
