package e2e

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/api/openapitest"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// TestNegationThroughReconciler: a never-statement and a positive statement of the same subject about the same
// thing — in either order — are linked by the real reconciler and come back from /search together, each naming
// the other in conflicts and both flagged in the context; an unrelated positive claim is not linked; a private
// partner of another agent is never shown or named.
func TestNegationThroughReconciler(t *testing.T) {
	const partitions = 4
	ctx := context.Background()
	// The test embedder hashes words: related sentences score lower than with a sentence encoder.
	p := startPipeline(t, partitions, func(c *reconciler.Config) { c.NegationSimilarity = 0.25 })
	js, pool, emb, a := p.js, p.pool, p.emb, p.a
	b := a.WithAgent("agent-b")

	publish := func(subject, predicate, object, text string, negated bool, validFrom time.Time, agent string, scope event.Scope) string {
		t.Helper()
		c := event.ClaimEmbeddedV1{ClaimProposedV1: event.ClaimProposedV1{
			Workspace: "team", Subject: subject, SubjectKey: canon.SubjectKey(subject), Predicate: predicate,
			PredicateKey: canon.PredicateKey(predicate), Object: object, ValidFrom: validFrom, Negated: negated,
			Scope: scope, Confidence: 0.9, Text: text, ProposedAt: time.Now().UTC(),
			Provenance: event.Provenance{AgentID: agent, Extractor: "rules", ExtractorVersion: "1"},
		}}
		c.ClaimID = event.DeterministicID("team", c.SubjectKey, c.PredicateKey, object, validFrom.String(), agent, string(scope), text)
		vs, _ := emb.Embed(ctx, []string{c.Text, "predicate:" + c.PredicateKey})
		c.Embedding = event.Vector{Model: emb.Model(), Dim: emb.Dim(), Values: vs[0]}
		c.PredicateEmbedding = event.Vector{Model: emb.Model(), Dim: emb.Dim(), Values: vs[1]}
		c.Partition = bus.PartitionOf("team", c.SubjectKey, partitions)
		env, err := event.New(event.TypeClaimEmbedded, "claim:"+c.ClaimID, "mneme/test", "team", c.ProposedAt, c)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := bus.PublishEvent(ctx, js, bus.ClaimsSubject(c.Partition), env); err != nil {
			t.Fatal(err)
		}
		return c.ClaimID
	}
	search := func(c *client.Client, query string) *api.SearchResponse {
		t.Helper()
		res, err := c.Search(ctx, "team", api.SearchRequest{Query: query, TokenBudget: 2000})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	byID := func(res *api.SearchResponse, id string) (api.Claim, int) {
		for i, c := range res.Claims {
			if c.ID == id {
				return c, i
			}
		}
		return api.Claim{}, -1
	}
	// checkPair asserts that both claims come back adjacent, each naming the other, both flagged.
	checkPair := func(res *api.SearchResponse, x, y string) {
		t.Helper()
		cx, ix := byID(res, x)
		cy, iy := byID(res, y)
		if ix < 0 || iy < 0 {
			t.Fatalf("search did not return both sides (%d, %d): %+v", ix, iy, res.Claims)
		}
		if ix-iy != 1 && iy-ix != 1 {
			t.Errorf("the sides are not adjacent (%d, %d)", ix, iy)
		}
		if !slices.Contains(cx.Conflicts, y) || !slices.Contains(cy.Conflicts, x) {
			t.Errorf("conflicts do not name each other: %v / %v", cx.Conflicts, cy.Conflicts)
		}
		if cx.Status != "active" || cy.Status != "active" {
			t.Errorf("statuses changed: %s / %s", cx.Status, cy.Status)
		}
		if n := strings.Count(res.Context, "[CONFLICTING]"); n < 2 {
			t.Errorf("context flags %d lines:\n%s", n, res.Context)
		}
	}

	// Never first, then the positive statement.
	never := publish("Maya", "has written", "any Flask routes in this project", "Maya has never written any Flask routes in this project.",
		true, onDay("2024-03-01"), "agent-a", event.ScopeShared)
	waitReconciled(t, pool, js, partitions)
	homepage := publish("Maya", "is implementing", "the homepage route with Flask", "Maya is implementing the homepage route with Flask for the project.",
		false, onDay("2024-03-05"), "agent-a", event.ScopeShared)
	// The positive statement first, then the never-statement.
	zotero := publish("Maya", "downloaded", "Zotero", "Maya downloaded Zotero to manage citations.", false, onDay("2024-02-01"), "agent-a", event.ScopeShared)
	waitReconciled(t, pool, js, partitions)
	neverZotero := publish("Maya", "has used", "citation software like Zotero", "Maya has never used citation software like Zotero.",
		true, onDay("2024-04-01"), "agent-a", event.ScopeShared)
	unrelated := publish("Maya", "lives in", "Lisbon", "Maya lives in Lisbon.", false, onDay("2024-01-01"), "agent-a", event.ScopeShared)
	// Agent b's private statement about Flask routes: linked to nothing shared, never shown to agent a.
	secret := publish("Maya", "wrote", "Flask routes for the admin API", "Maya wrote Flask routes for the admin API in this project.",
		false, onDay("2024-03-07"), "agent-b", event.ScopePrivate)
	waitReconciled(t, pool, js, partitions)

	res := search(a, "Has Maya written Flask routes in this project?")
	checkPair(res, never, homepage)
	if c, _ := byID(res, never); !c.Negated {
		t.Errorf("the never-statement is not marked negated: %+v", c)
	}
	if _, i := byID(res, secret); i >= 0 || strings.Contains(res.Context, "admin API") {
		t.Errorf("agent b's private claim reached agent a")
	}
	for _, c := range res.Claims {
		if slices.Contains(c.Conflicts, secret) {
			t.Errorf("claim %s names agent b's private claim in conflicts", c.ID)
		}
	}
	checkPair(search(a, "Has Maya used Zotero?"), neverZotero, zotero)

	var linked int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM contradictions WHERE $1::uuid IN (claim_a, claim_b) OR $2::uuid IN (claim_a, claim_b)`, unrelated, secret).Scan(&linked); err != nil {
		t.Fatal(err)
	}
	if linked != 0 {
		t.Errorf("%d links to the unrelated or the private claim", linked)
	}
	// Agent b sees the shared pair too (and its own claim), still flagged.
	checkPair(search(b, "Has Maya written Flask routes in this project?"), never, homepage)

	// The subject's timeline and the claim's detail carry the links too (the timeline page draws them from
	// there), each with the decision that recorded it, and the negated side is marked.
	subject := func(o client.ReadOptions) map[string]api.TimelineEntry {
		t.Helper()
		res, err := a.Subject(ctx, "team", "maya", o)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]api.TimelineEntry{}
		for _, sl := range res.Slots {
			for _, e := range sl.Timeline {
				out[e.ClaimID] = e
			}
		}
		return out
	}
	partners := func(links []api.ContradictionEdge) []string {
		var ids []string
		for _, l := range links {
			if l.DecisionID == "" {
				t.Errorf("link to %s has no decision", l.ClaimID)
			}
			ids = append(ids, l.ClaimID)
		}
		slices.Sort(ids)
		return ids
	}
	tl := subject(client.ReadOptions{})
	for _, c := range []struct {
		id      string
		negated bool
		links   []string
	}{
		{never, true, []string{homepage}},
		{homepage, false, []string{never}},
		{neverZotero, true, []string{zotero}},
		{zotero, false, []string{neverZotero}},
		{unrelated, false, nil},
	} {
		e, ok := tl[c.id]
		if !ok {
			t.Fatalf("claim %s is not on the timeline", c.id)
		}
		if e.Negated != c.negated || !slices.Equal(partners(e.Contradicts), c.links) {
			t.Errorf("%q: negated %v, contradicts %v; want %v, %v", e.Text, e.Negated, partners(e.Contradicts), c.negated, c.links)
		}
	}
	if _, ok := tl[secret]; ok {
		t.Errorf("agent b's private claim is on agent a's timeline")
	}
	cr, err := a.Claim(ctx, "team", never, client.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := partners(cr.Contradicts); !slices.Equal(got, []string{homepage}) {
		t.Errorf("claim detail: contradicts %v, want [%s]", got, homepage)
	}
	// Before the positive statement was recorded, memory knew of no contradiction.
	before := tl[homepage].RecordedAt.Add(-time.Nanosecond)
	if e := subject(client.ReadOptions{KnownAt: before})[never]; len(e.Contradicts) != 0 {
		t.Errorf("known_at %s, before the link: contradicts %v", before.Format(time.RFC3339Nano), partners(e.Contradicts))
	}
	// The documented response shapes hold the new fields.
	sch := openapitest.Components(t, "SubjectResponse", "ClaimResponse")
	for path, schema := range map[string]string{"/v1/workspaces/team/subjects/maya": "SubjectResponse", "/v1/workspaces/team/claims/" + never: "ClaimResponse"} {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, p.url+path, nil)
		req.Header.Set(api.HeaderAgent, "agent-a")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := sch[schema].Validate(v); err != nil {
			t.Errorf("%s does not match %s: %v", path, schema, err)
		}
	}
}
