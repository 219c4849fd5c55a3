package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/store"
)

// A workspace that grew since the tables were last analyzed is estimated at a row or so, and a read planned on
// that estimate can loop over the whole workspace once per row of it: in a BEAM run (a long chat ingested
// while the previous one's questions were answered) a subject read planned that way took 1.5–4 s where it
// takes 50 ms planned well, and answers waited out their deadline. The reads of a subject's or a slot's claims
// (and the others by key) must stay linear in what they read whatever the statistics say. The test freezes the statistics on a small
// workspace, writes a large one after, and counts the rows every plan node handles (EXPLAIN ANALYZE: rows
// returned and removed by filters, times loops): a plan linear in the subject's claims handles a small
// multiple of them, the quadratic one millions.
func TestSubjectReadsOfAWorkspaceGrownSinceAnalyzeStayLinear(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	for _, table := range []string{"claims", "claim_versions", "subject_predicates"} {
		if _, err := pool.Exec(ctx, `ALTER TABLE `+table+` SET (autovacuum_enabled = false)`); err != nil {
			t.Fatal(err)
		}
	}
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	dec := "00000000-0000-5000-8000-999999999999"
	n := 0
	write := func(ws, subject string, claims, predicates int) {
		ch := &store.Changes{}
		for p := range predicates {
			ch.Predicates = append(ch.Predicates, store.PredicateRow{Workspace: ws, SubjectKey: subject, TierOwner: "",
				PredicateKey: fmt.Sprintf("p%d", p), SlotKey: fmt.Sprintf("p%d", p), Phrase: fmt.Sprintf("p %d", p),
				Model: "m", Embedding: []float32{1, 0, 0}, FirstClaim: fmt.Sprintf("00000000-0000-5000-8000-%012d", n+1), StreamSeq: int64(n + 1)})
		}
		for i := range claims {
			n++
			id := fmt.Sprintf("00000000-0000-5000-8000-%012d", n)
			from := t0.Add(time.Duration(n) * time.Minute)
			pred := fmt.Sprintf("p%d", i%predicates)
			ch.Claims = append(ch.Claims, store.ClaimRow{ID: id, Workspace: ws, SubjectKey: subject, Subject: subject,
				PredicateKey: pred, Predicate: pred, SlotKey: pred, Object: fmt.Sprint("value ", i), ObjectKey: fmt.Sprint("value_", i),
				Text: fmt.Sprintf("%s %s value %d", subject, pred, i), Functional: pred == "p0", Scope: "shared", OwnerAgent: "a",
				Confidence: 1, ValidFrom: from, Provenance: `{"agent_id":"a"}`, StreamSeq: int64(n), RecordedAt: t0,
				SourceKey: "agent:a", Extractor: "structured", Trust: 1})
			ch.Versions = append(ch.Versions, store.VersionRow{ClaimID: id, Version: 1, Workspace: ws, Status: "active",
				ValidFrom: from, RecordedAt: t0, DecisionID: dec})
		}
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) }); err != nil {
			t.Fatal(err)
		}
	}
	for w := range 5 {
		write(fmt.Sprintf("small%d", w), "ann", 40, 4)
	}
	if _, err := pool.Exec(ctx, `ANALYZE claims, claim_versions, subject_predicates`); err != nil {
		t.Fatal(err)
	}
	const big = 3000
	write("grown", "user", big, 20)
	write("grown", "assistant", big/3, 5)
	// A subject that moved house 600 times, in a workspace of its own (the reads above are bounded by the grown
	// workspace's size): every value of its single-valued slot replaced but the newest.
	const moves = 600
	moved := &store.Changes{}
	for i := range moves {
		n++
		id := fmt.Sprintf("00000000-0000-5000-8000-%012d", n)
		from, to := t0.Add(time.Duration(i)*time.Hour), t0.Add(time.Duration(i+1)*time.Hour)
		moved.Claims = append(moved.Claims, store.ClaimRow{ID: id, Workspace: "moves", SubjectKey: "mover", Subject: "mover",
			PredicateKey: "lives_in", Predicate: "lives in", SlotKey: "lives_in", Object: fmt.Sprint("town ", i), ObjectKey: fmt.Sprint("town_", i),
			Text: fmt.Sprintf("mover lives in town %d", i), Functional: true, Scope: "shared", OwnerAgent: "a",
			Confidence: 1, ValidFrom: from, Provenance: `{"agent_id":"a"}`, StreamSeq: int64(n), RecordedAt: t0,
			SourceKey: "agent:a", Extractor: "structured", Trust: 1})
		v := store.VersionRow{ClaimID: id, Version: 1, Workspace: "moves", Status: "superseded", ValidFrom: from, ValidTo: &to, RecordedAt: t0, DecisionID: dec}
		if i == moves-1 {
			v.Status, v.ValidTo = "active", nil
		}
		moved.Versions = append(moved.Versions, v)
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, moved) }); err != nil {
		t.Fatal(err)
	}

	// linear reports a plan that handled more than bound rows, with its outline.
	linear := func(what string, plan map[string]any, bound int) {
		t.Helper()
		if handled := rowsHandled(plan); handled > float64(bound) {
			t.Errorf("%s handled %.0f rows; want a plan linear in what it reads (at most %d):\n%s", what, handled, bound, planOutline(plan, ""))
		}
	}
	for _, c := range []struct {
		name string
		view store.View
	}{
		{"now", store.View{Workspace: "grown", Agent: "a"}},
		{"with history", store.View{Workspace: "grown", Agent: "a", History: true}},
	} {
		sql, args := store.ClaimsBySubjectsSQL(c.view, []string{"user", "assistant"}, 500, "m")
		plan, err := analyzed(ctx, pool, sql, args)
		if err != nil {
			t.Fatal(err)
		}
		linear(c.name+": the read of 4,000 claims", plan, 40*big)
		// A single-valued slot is read whole for one of its claims: the user's first claim is of p0.
		first := fmt.Sprintf("00000000-0000-5000-8000-%012d", 5*40+1)
		sql, args = store.SlotClaimsSQL(c.view, []string{first})
		if plan, err = analyzed(ctx, pool, sql, args); err != nil {
			t.Fatal(err)
		}
		linear(c.name+": the read of a slot of 150 claims", plan, 40*big/20)
		slot, err := store.SlotClaimsOf(ctx, pool, c.view, []string{first})
		if err != nil {
			t.Fatal(err)
		}
		if len(slot) != big/20 {
			t.Errorf("%s: the slot read %d claims; want the slot's %d", c.name, len(slot), big/20)
		}
		// The claims naming one value, and a subject's claims of a few relations, read the handful they find.
		for _, read := range []struct {
			name string
			run  func(q store.Querier) ([]store.Belief, error)
		}{
			{"by object", func(q store.Querier) ([]store.Belief, error) {
				return store.ClaimsByObject(ctx, q, c.view, []string{"value_7"}, 100)
			}},
			{"by relation", func(q store.Querier) ([]store.Belief, error) {
				return store.ClaimsByPredicateHead(ctx, q, c.view, map[string]time.Time{"assistant": {}}, []string{"p3"}, nil, 100)
			}},
			{"replaced values", func(q store.Querier) ([]store.Belief, error) {
				return store.ReplacedValues(ctx, q, c.view, []string{"user"}, 64)
			}},
		} {
			ex := &explainer{q: pool}
			if _, err := read.run(ex); err != nil {
				t.Fatal(err)
			}
			linear(c.name+", "+read.name, ex.plan, 40*big/20)
		}
		// The newest replaced values of a subject with hundreds of them: a read that stops at its limit, not one
		// that looks at every single-valued claim the subject ever had.
		ex := &explainer{q: pool}
		inMoves := c.view
		inMoves.Workspace = "moves"
		replaced, err := store.ReplacedValues(ctx, ex, inMoves, []string{"mover"}, 8)
		if err != nil {
			t.Fatal(err)
		}
		linear(c.name+", the newest 8 of 599 replaced values", ex.plan, 20*8)
		if len(replaced) != 8 || replaced[0].Object != fmt.Sprint("town ", moves-2) {
			t.Errorf("%s: replaced values %d, the newest %v; want 8, the newest town %d", c.name, len(replaced), replaced, moves-2)
		}
		got, err := store.ClaimsBySubjects(ctx, pool, c.view, []string{"user", "assistant"}, 500)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 500 || got[0].SubjectKey != "assistant" {
			t.Errorf("%s: read %d claims, the newest of %q; want 500, the newest the assistant's", c.name, len(got), got[0].SubjectKey)
		}
	}
}

// rowsHandled sums, over a plan's nodes, the rows each returned and removed by its filters, times its loops.
func rowsHandled(node map[string]any) float64 {
	num := func(k string) float64 {
		f, _ := node[k].(float64)
		return f
	}
	loops := num("Actual Loops")
	total := (num("Actual Rows") + num("Rows Removed by Filter") + num("Rows Removed by Join Filter") +
		num("Rows Removed by Index Recheck")) * loops
	if kids, ok := node["Plans"].([]any); ok {
		for _, k := range kids {
			total += rowsHandled(k.(map[string]any))
		}
	}
	return total
}

// planOutline renders a plan's nodes one per line: type, relation, index and condition, rows and loops.
func planOutline(node map[string]any, indent string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v", indent, node["Node Type"])
	for _, k := range []string{"Relation Name", "Index Name", "Index Cond", "Join Filter"} {
		if v, ok := node[k]; ok {
			fmt.Fprintf(&b, " %s=%v", k, v)
		}
	}
	fmt.Fprintf(&b, " rows=%v loops=%v\n", node["Actual Rows"], node["Actual Loops"])
	if kids, ok := node["Plans"].([]any); ok {
		for _, k := range kids {
			b.WriteString(planOutline(k.(map[string]any), indent+"  "))
		}
	}
	return b.String()
}

// analyzed returns the plan of sql as EXPLAIN ANALYZE ran it.
func analyzed(ctx context.Context, q store.Querier, sql string, args ...any) (map[string]any, error) {
	rows, err := q.Query(ctx, `EXPLAIN (ANALYZE, FORMAT JSON) `+sql, args...)
	if err != nil {
		return nil, err
	}
	var plan []map[string]any
	if _, err := pgx.ForEachRow(rows, []any{&plan}, func() error { return nil }); err != nil {
		return nil, err
	}
	return plan[0]["Plan"].(map[string]any), nil
}

// explainer runs a read's statement under EXPLAIN ANALYZE first, keeping its plan, then as it is.
type explainer struct {
	q    store.Querier
	plan map[string]any
}

func (e *explainer) Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error) {
	plan, err := analyzed(ctx, e.q, sql, args...)
	if err != nil {
		return nil, err
	}
	e.plan = plan
	return e.q.Query(ctx, sql, args...)
}
