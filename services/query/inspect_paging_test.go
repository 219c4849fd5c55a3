package query

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
)

// busySlot is an accumulating slot the way the reconciler leaves one: every new value is accepted by a
// decision that names all the slot's values so far as its inputs, so decision i weighs i claims and the
// first claim is an input of every decision.
type busySlot struct {
	f                 *fixture
	subjectKey, slot  string
	claims, decisions []string // decisions in chain order (decided_at, partition, stream_seq, id)
}

func buildBusySlot(t *testing.T, f *fixture, subject, predicate string, n int, start time.Time) *busySlot {
	t.Helper()
	b := &busySlot{f: f, subjectKey: canon.SubjectKey(subject), slot: canon.PredicateKey(predicate)}
	for i := range n {
		b.claims = append(b.claims, f.add(fclaim{Subject: subject, Predicate: predicate, Object: fmt.Sprintf("value %d", i),
			Accumulating: true, ValidFrom: start.Add(time.Duration(i) * time.Hour)}))
	}
	// Three decisions share each decided_at and the partitions alternate, so the chain order depends on
	// every key of the cursor, not on insertion order.
	f.exec(`INSERT INTO decisions (id, workspace_id, subject_key, slot_key, scope, owner_agent, operator, policy_version,
			inputs, winner, losers, outcome, reason, decided_at, partition, stream_seq)
		SELECT gen_random_uuid(), $1, $2, $3, 'shared', NULL, 'accumulate', 'test-v1', ($4::uuid[])[1:i], ($4::uuid[])[i],
			'{}', 'accepted', 'accumulate: accepted', $5::timestamptz + (i / 3) * interval '1 second', i % 2, 1000000 + i
		FROM generate_series(1, cardinality($4::uuid[])) AS i`, f.ws, b.subjectKey, b.slot, b.claims, start)
	b.decisions = chainOrder(t, f, `subject_key = $2 AND slot_key = $3`, b.subjectKey, b.slot)
	return b
}

// chainOrder lists the ids of the shared decisions selected by cond in chain order, straight from the table.
func chainOrder(t *testing.T, f *fixture, cond string, args ...any) []string {
	t.Helper()
	rows, err := f.h.db.Query(context.Background(), `SELECT id::text FROM decisions WHERE workspace_id = $1 AND scope = 'shared' AND `+
		cond+` ORDER BY decided_at, partition, stream_seq, id`, append([]any{f.ws}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			t.Fatal(err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// get sends a GET as agent-a and returns the status and the body.
func get(t *testing.T, h *harness, path string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, h.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set(api.HeaderAgent, "agent-a")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, body
}

// wantBadRequest checks a 400 that names field (and, when given, the limit).
func wantBadRequest(t *testing.T, h *harness, path, field, limit string) {
	t.Helper()
	status, body := get(t, h, path)
	var e api.Error
	if status != http.StatusBadRequest || json.Unmarshal(body, &e) != nil || e.Error.Field != field || e.Error.Limit != limit || e.Error.Message == "" {
		t.Errorf("GET %s: %d %s; want 400 naming field %q with limit %q", path, status, body, field, limit)
	}
}

// checkDecision checks the bound on a decision's id lists and that its counts are the stored ones.
func checkDecision(t *testing.T, d api.Decision, inputsLimit int, inputsTotal map[string]int) {
	t.Helper()
	if len(d.Inputs) > inputsLimit || len(d.Losers) > inputsLimit {
		t.Fatalf("decision %s carries %d inputs and %d losers; inputs_limit is %d", d.ID, len(d.Inputs), len(d.Losers), inputsLimit)
	}
	if want, ok := inputsTotal[d.ID]; ok && (d.InputsTotal != want || len(d.Inputs) != min(want, inputsLimit)) {
		t.Fatalf("decision %s: %d of inputs_total %d; want %d of %d", d.ID, len(d.Inputs), d.InputsTotal, min(want, inputsLimit), want)
	}
}

func inputsTotals(t *testing.T, f *fixture) map[string]int {
	t.Helper()
	rows, err := f.h.db.Query(context.Background(), `SELECT id::text, cardinality(inputs) FROM decisions WHERE workspace_id = $1`, f.ws)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var id string
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			t.Fatal(err)
		}
		out[id] = n
	}
	return out
}

// TestClaimDecisionPaging: the claim of a busy accumulating slot answers with a bounded page of its decision
// chain, and paging with the cursor returns the whole chain exactly once, in order, while decisions keep
// being recorded.
func TestClaimDecisionPaging(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	const n = 260
	start := day("2024-01-01")
	b := buildBusySlot(t, f, "Busy Bee", "likes", n, start)
	first := b.claims[0]
	// Another agent's private decision naming the claim is not part of what agent-a sees.
	f.exec(`INSERT INTO decisions (id, workspace_id, subject_key, slot_key, scope, owner_agent, operator, policy_version,
			inputs, winner, losers, outcome, reason, decided_at, partition, stream_seq)
		VALUES ($1, $2, $3, $4, 'private', 'agent-b', 'accumulate', 'test-v1', $5::uuid[], NULL, '{}', 'accepted', 'x', $6, 0, 1)`,
		uuid.NewString(), f.ws, b.subjectKey, b.slot, []string{first}, start)
	totals := inputsTotals(t, f)
	var unbounded int
	for _, id := range b.decisions {
		unbounded += totals[id] * len(`"00000000-0000-0000-0000-000000000000",`)
	}

	// The default page.
	status, body := get(t, h, "/v1/workspaces/team/claims/"+first)
	var cr api.ClaimResponse
	if status != http.StatusOK || json.Unmarshal(body, &cr) != nil {
		t.Fatalf("%d %.300s", status, body)
	}
	if len(cr.Decisions) != api.DefaultDecisionsLimit || cr.DecisionsTotal != n || cr.DecisionsNext == "" {
		t.Fatalf("default page: %d decisions, total %d, next %q; want %d, %d and a cursor", len(cr.Decisions), cr.DecisionsTotal, cr.DecisionsNext, api.DefaultDecisionsLimit, n)
	}
	for _, d := range cr.Decisions {
		checkDecision(t, d, api.DefaultInputsLimit, totals)
	}
	if len(body) > 128<<10 {
		t.Errorf("the default page is %d bytes", len(body))
	}
	t.Logf("default page %d bytes; the input ids of the whole chain alone are %d bytes", len(body), unbounded)

	// Every page, through the Go client; a decision recorded between pages comes at the end, once.
	c := h.client("agent-a")
	o := client.ReadOptions{DecisionsLimit: 37, InputsLimit: 3}
	var got []string
	pages := 0
	for {
		page, err := c.Claim(context.Background(), "team", first, o)
		if err != nil {
			t.Fatal(err)
		}
		pages++
		if len(page.Decisions) > o.DecisionsLimit {
			t.Fatalf("page %d has %d decisions; decisions_limit is %d", pages, len(page.Decisions), o.DecisionsLimit)
		}
		for _, d := range page.Decisions {
			checkDecision(t, d, o.InputsLimit, totals)
			if d.Inputs[0] != first {
				t.Fatalf("decision %s: inputs %v do not start with the slot's first value", d.ID, d.Inputs)
			}
			got = append(got, d.ID)
		}
		if pages == 1 {
			f.exec(`INSERT INTO decisions (id, workspace_id, subject_key, slot_key, scope, owner_agent, operator, policy_version,
					inputs, winner, losers, outcome, reason, decided_at, partition, stream_seq)
				VALUES ($1, $2, $3, $4, 'shared', NULL, 'lww', 'test-v1', $5::uuid[], $6, $7::uuid[], 'superseded', 'x', $8, 0, 1)`,
				uuid.NewString(), f.ws, b.subjectKey, b.slot, []string{first, b.claims[1]}, b.claims[1], []string{first}, start.Add(time.Hour))
		}
		if page.DecisionsNext == "" {
			if page.DecisionsTotal != n+1 {
				t.Fatalf("last page: total %d, want %d", page.DecisionsTotal, n+1)
			}
			break
		}
		if pages > n {
			t.Fatal("paging does not end")
		}
		o.DecisionsCursor = page.DecisionsNext
	}
	want := chainOrder(t, f, `subject_key = $2 AND slot_key = $3`, b.subjectKey, b.slot)
	if !slices.Equal(got, want) {
		t.Fatalf("paging returned %d decisions (%d pages); the chain has %d; first difference at %d", len(got), pages, len(want), firstDiff(got, want))
	}
	if pages != (n+1+36)/37 {
		t.Errorf("%d pages for %d decisions at 37 a page", pages, n+1)
	}

	// decisions_limit=0 gives the totals, and a cursor from the start; inputs_limit=0 gives counts only.
	cr = api.ClaimResponse{}
	status, body = get(t, h, "/v1/workspaces/team/claims/"+first+"?decisions_limit=0")
	if status != http.StatusOK || json.Unmarshal(body, &cr) != nil || len(cr.Decisions) != 0 || cr.DecisionsTotal != n+1 || cr.DecisionsNext == "" {
		t.Fatalf("decisions_limit=0: %d %.300s", status, body)
	}
	status, body = get(t, h, "/v1/workspaces/team/claims/"+first+"?inputs_limit=0&decisions_limit=2&decisions_cursor="+cr.DecisionsNext)
	cr = api.ClaimResponse{}
	if status != http.StatusOK || json.Unmarshal(body, &cr) != nil || len(cr.Decisions) != 2 || cr.Decisions[0].ID != want[0] ||
		len(cr.Decisions[0].Inputs) != 0 || cr.Decisions[0].InputsTotal != totals[want[0]] || cr.Decisions[1].InputsTotal != totals[want[1]] {
		t.Fatalf("from the start, counts only: %d %.500s", status, body)
	}

	// known_at: the chain as it was; the totals count what had been decided by then.
	cr = api.ClaimResponse{}
	status, body = get(t, h, "/v1/workspaces/team/claims/"+first+"?known_at="+url.QueryEscape(start.Add(10*time.Second).Format(time.RFC3339)))
	if status != http.StatusOK || json.Unmarshal(body, &cr) != nil || cr.DecisionsTotal != 32 || len(cr.Decisions) != 32 || cr.DecisionsNext != "" {
		t.Fatalf("known_at: %d decisions of %d, next %q", len(cr.Decisions), cr.DecisionsTotal, cr.DecisionsNext)
	}

	// Bad parameters name the field and the limit.
	base := "/v1/workspaces/team/claims/" + first
	wantBadRequest(t, h, base+"?decisions_limit=501", "decisions_limit", "500")
	wantBadRequest(t, h, base+"?decisions_limit=-1", "decisions_limit", "500")
	wantBadRequest(t, h, base+"?decisions_limit=ten", "decisions_limit", "500")
	wantBadRequest(t, h, base+"?decisions_limit=1&decisions_limit=2", "decisions_limit", "")
	wantBadRequest(t, h, base+"?inputs_limit=101", "inputs_limit", "100")
	wantBadRequest(t, h, base+"?inputs_limit=1e3", "inputs_limit", "100")
	wantBadRequest(t, h, base+"?decisions_cursor=not-a-cursor", "decisions_cursor", "")
	wantBadRequest(t, h, base+"?decisions_cursor="+strings.Repeat("A", 3000), "decisions_cursor", "")
	wantBadRequest(t, h, base+"?decisions_cursor="+decisionCursor{Key: first, ID: "x"}.encode(), "decisions_cursor", "")
	wantBadRequest(t, h, "/v1/workspaces/team/claims/"+b.claims[1]+"?decisions_cursor="+o.DecisionsCursor, "decisions_cursor", "")
	wantBadRequest(t, h, base+"?slot=likes", "slot", "")
	wantBadRequest(t, h, base+"?as_of=2024-01-01T00:00:00Z", "as_of", "")
}

// TestSubjectDecisionPaging: a subject with a busy slot and several others answers with a page of each
// slot's decisions, at most MaxSubjectDecisions in all, and every slot's chain pages to its end exactly once.
func TestSubjectDecisionPaging(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	start := day("2024-01-01")
	b := buildBusySlot(t, f, "Busy Bee", "likes", 260, start)
	chains := map[string][]string{b.slot: b.decisions}
	// Five more slots of 450 decisions, each weighing 30 claims.
	for i := range 5 {
		pred := fmt.Sprintf("attribute %c", 'a'+i)
		id := f.add(fclaim{Subject: "Busy Bee", Predicate: pred, Object: "x", ValidFrom: start})
		slot := canon.PredicateKey(pred)
		f.exec(`INSERT INTO decisions (id, workspace_id, subject_key, slot_key, scope, owner_agent, operator, policy_version,
				inputs, winner, losers, outcome, reason, decided_at, partition, stream_seq)
			SELECT gen_random_uuid(), $1, $2, $3, 'shared', NULL, 'lww', 'test-v1',
				array_fill($4::uuid, ARRAY[30]), $4::uuid, array_fill($4::uuid, ARRAY[25]), 'accepted', 'x',
				$5::timestamptz + (i / 4) * interval '1 second', i % 3, i
			FROM generate_series(1, 450) AS i`, f.ws, b.subjectKey, slot, id, start)
		chains[slot] = chainOrder(t, f, `subject_key = $2 AND slot_key = $3`, b.subjectKey, slot)
	}
	totals := inputsTotals(t, f)
	all := 0
	for _, ids := range chains {
		all += len(ids)
	}

	subject := func(query string) (*api.SubjectResponse, int) {
		t.Helper()
		status, body := get(t, h, "/v1/workspaces/team/subjects/busy_bee"+query)
		var res api.SubjectResponse
		if status != http.StatusOK || json.Unmarshal(body, &res) != nil {
			t.Fatalf("GET subject%s: %d %.300s", query, status, body)
		}
		return &res, len(body)
	}

	// The default: each slot a page of at most 50 decisions, with its total and a cursor where more remain.
	res, size := subject("")
	if len(res.Slots) != len(chains) {
		t.Fatalf("%d slots, want %d", len(res.Slots), len(chains))
	}
	for _, sl := range res.Slots {
		want := chains[sl.SlotKey]
		if sl.DecisionsTotal != len(want) || len(sl.Decisions) != min(len(want), api.DefaultDecisionsLimit) || (sl.DecisionsNext != "") != (len(want) > api.DefaultDecisionsLimit) {
			t.Fatalf("slot %s: %d decisions of %d, next %q; the chain has %d", sl.SlotKey, len(sl.Decisions), sl.DecisionsTotal, sl.DecisionsNext, len(want))
		}
		for _, d := range sl.Decisions {
			checkDecision(t, d, api.DefaultInputsLimit, totals)
		}
	}
	t.Logf("default subject response: %d bytes for %d decisions in %d slots", size, all, len(chains))

	// At the largest page the response holds MaxSubjectDecisions; the slots it cuts say where to go on.
	res, _ = subject("?decisions_limit=500&inputs_limit=100")
	shown := 0
	for _, sl := range res.Slots {
		shown += len(sl.Decisions)
		if (sl.DecisionsNext != "") != (len(sl.Decisions) < sl.DecisionsTotal) {
			t.Fatalf("slot %s: %d of %d decisions, next %q", sl.SlotKey, len(sl.Decisions), sl.DecisionsTotal, sl.DecisionsNext)
		}
	}
	if shown != api.MaxSubjectDecisions {
		t.Fatalf("%d decisions in one subject response; want the cap %d (of %d)", shown, api.MaxSubjectDecisions, all)
	}

	// Each slot's chain, page by page from the first response: everything exactly once, in order.
	for _, sl := range res.Slots {
		got := []string{}
		for _, d := range sl.Decisions {
			got = append(got, d.ID)
		}
		next := sl.DecisionsNext
		for pages := 0; next != ""; pages++ {
			if pages > 20 {
				t.Fatalf("slot %s: paging does not end", sl.SlotKey)
			}
			page, _ := subject("?decisions_limit=120&inputs_limit=7&slot=" + url.QueryEscape(sl.SlotKey) + "&decisions_cursor=" + next)
			if len(page.Slots) != 1 || page.Slots[0].SlotKey != sl.SlotKey || len(page.Slots[0].Decisions) > 120 {
				t.Fatalf("slot %s page: %d slots", sl.SlotKey, len(page.Slots))
			}
			for _, c := range page.Current {
				if c.PredicateKey != sl.SlotKey {
					t.Fatalf("slot %s page lists a current value of %s", sl.SlotKey, c.PredicateKey)
				}
			}
			for _, d := range page.Slots[0].Decisions {
				checkDecision(t, d, 7, totals)
				got = append(got, d.ID)
			}
			next = page.Slots[0].DecisionsNext
		}
		if want := chains[sl.SlotKey]; !slices.Equal(got, want) {
			t.Fatalf("slot %s: paging returned %d decisions, the chain has %d; first difference at %d", sl.SlotKey, len(got), len(want), firstDiff(got, want))
		}
	}

	// A cursor needs its slot, and only that slot.
	var likes api.Slot
	other := ""
	for _, sl := range res.Slots {
		if sl.SlotKey == b.slot {
			likes = sl
		} else {
			other = sl.SlotKey
		}
	}
	if likes.DecisionsNext == "" {
		t.Fatal("the busy slot has no cursor")
	}
	wantBadRequest(t, h, "/v1/workspaces/team/subjects/busy_bee?decisions_cursor="+likes.DecisionsNext, "slot", "")
	wantBadRequest(t, h, "/v1/workspaces/team/subjects/busy_bee?slot="+other+"&decisions_cursor="+likes.DecisionsNext, "decisions_cursor", "")
	wantBadRequest(t, h, "/v1/workspaces/team/subjects/busy_bee?decisions_limit=1000", "decisions_limit", "500")
	wantBadRequest(t, h, "/v1/workspaces/team/subjects/busy_bee?inputs_limit=-5", "inputs_limit", "100")
	wantBadRequest(t, h, "/v1/workspaces/team/subjects/busy_bee?slots=likes", "slots", "")
	if status, body := get(t, h, "/v1/workspaces/team/subjects/busy_bee?slot=no_such_slot"); status != http.StatusNotFound || !strings.Contains(string(body), `"field":"slot"`) {
		t.Errorf("unknown slot: %d %s", status, body)
	}
}

// TestClaimListCaps: versions and corroborations, which have no parameter, are capped and say so.
func TestClaimListCaps(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("team")
	id := f.add(fclaim{Subject: "Flip Flop", Predicate: "mood", Object: "fine"})
	// 1,100 more versions, version v recorded v-2 minutes after 2024-01-02 and retired 30 s later, so that
	// between two versions memory believed nothing of the claim; the last is current.
	f.exec(`UPDATE claim_versions SET retired_at = '2024-01-02' WHERE claim_id = $1`, id)
	f.exec(`INSERT INTO claim_versions (claim_id, version, workspace_id, status, valid_from, recorded_at, retired_at)
		SELECT $1, v, $2, CASE WHEN v = 1100 THEN 'disputed' ELSE 'active' END, '2024-01-01',
			'2024-01-02'::timestamptz + (v - 2) * interval '1 minute',
			CASE WHEN v < 1101 THEN '2024-01-02'::timestamptz + (v - 2) * interval '1 minute' + interval '30 seconds' END
		FROM generate_series(2, 1101) AS v`, id, f.ws)
	f.exec(`INSERT INTO corroborations (claim_id, source, via_claim_id, recorded_at)
		SELECT $1, 'agent:a' || s, $1, '2024-01-03' FROM generate_series(1, 1200) AS s`, id)
	cr, err := h.client("agent-a").Claim(context.Background(), "team", id, client.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cr.Versions) != api.MaxClaimVersions || !cr.VersionsTruncated || cr.Versions[0].Version != 1 ||
		len(cr.Corroborations) != api.MaxCorroborations || !cr.CorroborationsTruncated || cr.Claim.Status != "active" {
		t.Fatalf("%d versions (truncated %v), %d corroborations (truncated %v), status %s", len(cr.Versions), cr.VersionsTruncated,
			len(cr.Corroborations), cr.CorroborationsTruncated, cr.Claim.Status)
	}
	// Read between versions 1100 and 1101, when every version recorded had been retired: the claim shown is
	// the last version then (1100, disputed), not the last one listed.
	cr, err = h.client("agent-a").Claim(context.Background(), "team", id, client.ReadOptions{KnownAt: day("2024-01-02").Add(1098*time.Minute + 45*time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	if !cr.VersionsTruncated || cr.Claim.Status != "disputed" {
		t.Fatalf("known_at: truncated %v, status %s", cr.VersionsTruncated, cr.Claim.Status)
	}
}

// FuzzDecisionCursor: whatever a caller sends as decisions_cursor either is refused or decodes to a cursor
// that encodes back to itself.
func FuzzDecisionCursor(f *testing.F) {
	f.Add(decisionCursor{Key: "k"}.encode())
	f.Add(decisionCursor{Key: slotChainKey("alice", "lives_in"), DecidedAt: day("2024-01-01"), Partition: 3, StreamSeq: 7,
		ID: "0b6d7a51-8a1c-5e0f-9b7e-3f1f0c6d2a11"}.encode())
	f.Add("eyJrIjoieCIsInQiOiIwMDAwLTAxLTAxVDAwOjAwOjAwWiJ9")
	f.Add("")
	f.Add("%%%")
	f.Fuzz(func(t *testing.T, s string) {
		c, err := decodeCursor(s)
		if err != nil {
			var he *api.HTTPError
			if !errors.As(err, &he) || he.Status != http.StatusBadRequest || he.Field != api.ParamDecisionsCursor {
				t.Fatalf("%q: %v", s, err)
			}
			return
		}
		again, err := decodeCursor(c.encode())
		if err != nil || again.encode() != c.encode() {
			t.Fatalf("%q: %+v does not round-trip: %+v, %v", s, c, again, err)
		}
	})
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
