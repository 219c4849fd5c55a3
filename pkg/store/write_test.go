package store_test

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/store"
)

// A batch of typed rows written with Write reads back through the read model as what the rows say: empty
// optional fields are NULL, a gate written twice keeps its last state, an edge drawn twice keeps its first
// decision, corroborating sources count once each, and a private claim is seen by its owner only.
func TestWriteReadsBackThroughTheReadModel(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	const (
		ws    = "wsw"
		paris = "00000000-0000-5000-8000-00000000000a"
		rome  = "00000000-0000-5000-8000-00000000000b"
		mine  = "00000000-0000-5000-8000-00000000000c"
		d1    = "00000000-0000-5000-8000-0000000000d1"
		d2    = "00000000-0000-5000-8000-0000000000d2"
	)
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	logT := t0.Add(100 * time.Hour)
	claim := func(id, object, scope, owner string, from time.Time) store.ClaimRow {
		return store.ClaimRow{ID: id, Workspace: ws, SubjectKey: "ann", Subject: "Ann", PredicateKey: "lives_in",
			Predicate: "lives in", SlotKey: "lives_in", Object: object, ObjectKey: object, Text: "Ann lives in " + object,
			Functional: true, Scope: scope, OwnerAgent: owner, Confidence: 0.9, ValidFrom: from, Provenance: `{"agent_id":"` + owner + `"}`,
			StreamSeq: 1, RecordedAt: logT, SourceKey: "agent:" + owner, Extractor: "structured", Trust: 1}
	}
	vec := []float32{1, 0, 0, 0, 0, 0, 0, 0}
	retired := logT.Add(time.Minute)
	ch := &store.Changes{
		Claims: []store.ClaimRow{claim(paris, "paris", "shared", "a", t0), claim(rome, "rome", "shared", "b", t0.Add(time.Hour)),
			claim(mine, "oslo", "private", "me", t0.Add(2*time.Hour))},
		Vectors: []store.VectorRow{{ClaimID: paris, Workspace: ws, Model: "m", Dim: 8, Embedding: vec},
			{ClaimID: rome, Workspace: ws, Model: "m", Dim: 8, Embedding: vec}, {ClaimID: mine, Workspace: ws, Model: "m", Dim: 8, Embedding: vec}},
		Versions: []store.VersionRow{
			{ClaimID: paris, Version: 1, Workspace: ws, Status: "active", ValidFrom: t0, RecordedAt: logT, RetiredAt: &retired, DecisionID: d1},
			{ClaimID: paris, Version: 2, Workspace: ws, Status: "superseded", ValidFrom: t0, ValidTo: &[]time.Time{t0.Add(time.Hour)}[0],
				RecordedAt: retired, DecisionID: d2, SupersededBy: rome},
			{ClaimID: rome, Version: 1, Workspace: ws, Status: "active", ValidFrom: t0.Add(time.Hour), RecordedAt: retired, DecisionID: d2},
			{ClaimID: mine, Version: 1, Workspace: ws, Status: "active", ValidFrom: t0.Add(2 * time.Hour), RecordedAt: logT, DecisionID: d1},
		},
		Decisions: []store.DecisionRow{
			{ID: d1, Workspace: ws, SubjectKey: "ann", SlotKey: "lives_in", Scope: "shared", Operator: "lww", PolicyVersion: "p",
				Inputs: []string{paris}, Winner: paris, Outcome: "active", Reason: "r", DecidedAt: logT, StreamSeq: 1},
			{ID: d2, Workspace: ws, SubjectKey: "ann", SlotKey: "lives_in", Scope: "shared", Operator: "lww", PolicyVersion: "p",
				Inputs: []string{paris, rome}, Winner: rome, Losers: []string{paris}, Outcome: "active", Reason: "r", DecidedAt: retired, StreamSeq: 2},
		},
		Supersedes: []store.SupersedesRow{{ClaimID: rome, SupersededID: paris, DecisionID: d2}, {ClaimID: rome, SupersededID: paris, DecisionID: d1}},
		Corroborations: []store.CorroborationRow{{ClaimID: rome, Source: "agent:b", ViaClaimID: rome, RecordedAt: retired},
			{ClaimID: rome, Source: "agent:c", ViaClaimID: paris, RecordedAt: retired}, {ClaimID: rome, Source: "agent:c", ViaClaimID: paris, RecordedAt: retired}},
		Aliases: []store.AliasRow{{Workspace: ws, Alias: "ann", SubjectKey: "ann"}},
		Gates:   []store.GateRow{{ClaimID: rome, Workspace: ws, State: "pending", OnTimeout: "accept"}},
	}
	write := func(ch *store.Changes) {
		t.Helper()
		if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) }); err != nil {
			t.Fatal(err)
		}
	}
	write(ch)
	write(&store.Changes{Gates: []store.GateRow{{ClaimID: rome, Workspace: ws, State: "admitted", OnTimeout: "accept", ResolvedBy: "timeout"}}})

	var screenNull, ownerNull, judgeNull bool
	var winner *string
	var losers []string
	if err := pool.QueryRow(ctx, `SELECT (SELECT screen IS NULL FROM claims WHERE id = $1),
		owner_agent IS NULL, judge_key IS NULL, winner::text, losers::text[] FROM decisions WHERE id = $2`, paris, d1).
		Scan(&screenNull, &ownerNull, &judgeNull, &winner, &losers); err != nil {
		t.Fatal(err)
	}
	if !screenNull || !ownerNull || !judgeNull || winner == nil || *winner != paris || losers == nil || len(losers) != 0 {
		t.Fatalf("NULLs: screen %v owner %v judge %v, winner %v, losers %v (want an empty array)", screenNull, ownerNull, judgeNull, winner, losers)
	}
	var state, resolvedBy, edgeDecision string
	if err := pool.QueryRow(ctx, `SELECT state, resolved_by, (SELECT decision_id::text FROM supersedes WHERE claim_id = $1)
		FROM claim_gates WHERE claim_id = $1`, rome).Scan(&state, &resolvedBy, &edgeDecision); err != nil {
		t.Fatal(err)
	}
	if state != "admitted" || resolvedBy != "timeout" || edgeDecision != d2 {
		t.Fatalf("gate %s by %s, edge decision %s", state, resolvedBy, edgeDecision)
	}

	// Another agent reads the shared tier's current value; the owner of the private claim reads its own value.
	for agent, want := range map[string]string{"someone": "rome", "me": "oslo"} {
		cur, err := store.CurrentBeliefs(ctx, pool, ws, agent, "ann", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(cur) != 1 || cur[0].Object != want {
			t.Fatalf("%s reads %+v, want %s", agent, cur, want)
		}
		if want == "rome" && (cur[0].Corroborations != 2 || len(cur[0].SupersededBy) != 0) {
			t.Fatalf("rome: %d corroborating sources, superseded by %v", cur[0].Corroborations, cur[0].SupersededBy)
		}
	}
	hist, err := store.History(ctx, pool, ws, "someone", "ann", "lives_in")
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 2 || hist[0].ID != paris || hist[0].Status != "superseded" || len(hist[0].SupersededBy) != 1 || hist[0].SupersededBy[0] != rome {
		t.Fatalf("history %+v", hist)
	}
}

// Every vector a writer copies in has its signs beside it (one bit per dimension, set where the component is
// positive), in its workspace, and an erasure takes them with the vector.
func TestVectorSignsFollowTheirVectors(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	const (
		ws  = "wss"
		ann = "00000000-0000-5000-8000-0000000000a1"
		bob = "00000000-0000-5000-8000-0000000000b1"
		dec = "00000000-0000-5000-8000-0000000000d1"
	)
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	claim := func(id, subject string) store.ClaimRow {
		return store.ClaimRow{ID: id, Workspace: ws, SubjectKey: subject, Subject: subject, PredicateKey: "lives_in",
			Predicate: "lives in", SlotKey: "lives_in", Object: "paris", ObjectKey: "paris", Text: subject + " lives in paris",
			Functional: true, Scope: "shared", OwnerAgent: "a", Confidence: 1, ValidFrom: t0, Provenance: `{"agent_id":"a"}`,
			StreamSeq: 1, RecordedAt: t0, SourceKey: "agent:a", Extractor: "structured", Trust: 1}
	}
	ch := &store.Changes{
		Claims: []store.ClaimRow{claim(ann, "ann"), claim(bob, "bob")},
		Vectors: []store.VectorRow{
			{ClaimID: ann, Workspace: ws, Model: "m", Dim: 8, Embedding: []float32{0.5, -1, 0, 2, -0.1, 0, 3, -3}},
			{ClaimID: bob, Workspace: ws, Model: "m", Dim: 8, Embedding: []float32{-0.5, 1, 1e-6, -2, 0.1, -1e-6, -3, 3}},
		},
		Versions: []store.VersionRow{
			{ClaimID: ann, Version: 1, Workspace: ws, Status: "active", ValidFrom: t0, RecordedAt: t0, DecisionID: dec},
			{ClaimID: bob, Version: 1, Workspace: ws, Status: "active", ValidFrom: t0, RecordedAt: t0, DecisionID: dec},
		},
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) }); err != nil {
		t.Fatal(err)
	}
	signs := func() map[string]string {
		t.Helper()
		rows, err := pool.Query(ctx, `SELECT claim_id::text || '@' || workspace_id, signs::text FROM claim_vector_signs`)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for rows.Next() {
			var k, v string
			if err := rows.Scan(&k, &v); err != nil {
				t.Fatal(err)
			}
			m[k] = v
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	want := map[string]string{ann + "@" + ws: "10010010", bob + "@" + ws: "01101001"}
	if got := signs(); !maps.Equal(got, want) {
		t.Fatalf("signs after the write = %v; want %v", got, want)
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		return store.Delete(ctx, tx, store.Deletion{Workspace: ws, Subjects: []string{"ann"}})
	}); err != nil {
		t.Fatal(err)
	}
	delete(want, ann+"@"+ws)
	if got := signs(); !maps.Equal(got, want) {
		t.Fatalf("signs after erasing ann = %v; want %v", got, want)
	}
}

// A read of the present goes from a slot, or a subject, straight to its current belief versions: the versions
// carry their claim's subject and slot keys whoever wrote them, the read finds the slot's current value from any
// claim of the slot (a replaced one included) and only what the reader may see, and the plan reads the index of
// current versions rather than probing the version of every claim the slot ever had. A read of history still
// sees the replaced values.
func TestPresentReadsGoFromASlotToItsCurrentVersions(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	const (
		ws     = "wsp"
		paris  = "00000000-0000-5000-8000-00000000001a"
		rome   = "00000000-0000-5000-8000-00000000001b"
		oslo   = "00000000-0000-5000-8000-00000000001c"
		mine   = "00000000-0000-5000-8000-00000000001d"
		job    = "00000000-0000-5000-8000-00000000001e"
		bobJob = "00000000-0000-5000-8000-00000000001f"
		dec    = "00000000-0000-5000-8000-0000000000d1"
	)
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	claim := func(id, subject, slot, object, scope, owner string, from time.Time) store.ClaimRow {
		return store.ClaimRow{ID: id, Workspace: ws, SubjectKey: subject, Subject: subject, PredicateKey: slot,
			Predicate: slot, SlotKey: slot, Object: object, ObjectKey: object, Text: subject + " " + slot + " " + object,
			Functional: true, Scope: scope, OwnerAgent: owner, Confidence: 1, ValidFrom: from, Provenance: `{"agent_id":"` + owner + `"}`,
			StreamSeq: 1, RecordedAt: t0, SourceKey: "agent:" + owner, Extractor: "structured", Trust: 1}
	}
	version := func(id, status string, from time.Time) store.VersionRow {
		return store.VersionRow{ClaimID: id, Version: 1, Workspace: ws, Status: status, ValidFrom: from, RecordedAt: t0, DecisionID: dec}
	}
	ch := &store.Changes{
		Claims: []store.ClaimRow{claim(paris, "ann", "lives_in", "paris", "shared", "a", t0),
			claim(rome, "ann", "lives_in", "rome", "shared", "a", t0.Add(time.Hour)),
			claim(oslo, "ann", "lives_in", "oslo", "shared", "a", t0.Add(2*time.Hour)),
			claim(mine, "ann", "lives_in", "bergen", "private", "me", t0.Add(3*time.Hour)),
			claim(job, "ann", "works_at", "acme", "shared", "a", t0),
			claim(bobJob, "bob", "works_at", "initech", "shared", "a", t0)},
		Versions: []store.VersionRow{version(paris, "superseded", t0), version(rome, "superseded", t0.Add(time.Hour)),
			version(oslo, "active", t0.Add(2*time.Hour)), version(mine, "active", t0.Add(3*time.Hour)),
			version(job, "active", t0), version(bobJob, "active", t0)},
	}
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) }); err != nil {
		t.Fatal(err)
	}
	var unkeyed int
	if err := pool.QueryRow(ctx, `SELECT count(*) FROM claim_versions v JOIN claims c ON c.id = v.claim_id
		WHERE v.subject_key IS DISTINCT FROM c.subject_key OR v.slot_key IS DISTINCT FROM c.slot_key`).Scan(&unkeyed); err != nil {
		t.Fatal(err)
	}
	if unkeyed != 0 {
		t.Fatalf("%d belief versions without their claim's subject and slot keys", unkeyed)
	}

	objects := func(bs []store.Belief) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.Object)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		name string
		view store.View
		want []string
	}{
		{"another agent, now", store.View{Workspace: ws, Agent: "someone"}, []string{"oslo"}},
		{"the private claim's owner, now", store.View{Workspace: ws, Agent: "me"}, []string{"bergen", "oslo"}},
		{"another agent, with history", store.View{Workspace: ws, Agent: "someone", History: true}, []string{"oslo", "paris", "rome"}},
	} {
		got, err := store.SlotClaimsOf(ctx, pool, c.view, []string{paris})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(objects(got), c.want) {
			t.Errorf("%s: the slot of the replaced value paris holds %v; want %v", c.name, objects(got), c.want)
		}
	}
	sql, a := store.BareClaimsBySubjectsSQL(store.View{Workspace: ws, Agent: "someone"}, []string{"ann"}, 10)
	rows, err := pool.Query(ctx, sql, a)
	if err != nil {
		t.Fatal(err)
	}
	subject, err := store.CollectBeliefs(rows)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := objects(subject), []string{"acme", "oslo"}; !slices.Equal(got, want) {
		t.Errorf("ann's current claims = %v; want %v", got, want)
	}

	// The plans, with sequential and bitmap scans off: at a test's few rows they would win on cost, and the
	// question is whether the present's index serves the read.
	if _, err := pool.Exec(ctx, `ANALYZE claims, claim_versions`); err != nil {
		t.Fatal(err)
	}
	present := store.View{Workspace: ws, Agent: "someone"}
	slotSQL, slotArgs := store.SlotClaimsSQL(present, []string{paris})
	for name, q := range map[string]struct {
		sql  string
		args pgx.NamedArgs
	}{"slot": {slotSQL, slotArgs}, "subject": {sql, a}} {
		plan := planOf(t, pool, `SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off`, q.sql, q.args)
		// Used, and looked up by subject: a plan that only filters every current version through it is the
		// probe per claim again.
		byKey := false
		for i, l := range plan {
			if strings.Contains(l, "Index Scan using claim_versions_present_slot_idx") && i+1 < len(plan) &&
				strings.Contains(plan[i+1], "Index Cond") && strings.Contains(plan[i+1], "subject_key") {
				byKey = true
			}
		}
		if !byKey {
			t.Errorf("the %s read of the present does not look its subject up in the index of current versions:\n%s", name, strings.Join(plan, "\n"))
		}
	}
}

// A search reads a single-valued slot whole, to resolve its current value, but of an accumulating slot only the
// values of the claims it was given: a speaker who said more than the read's bound of things is read for the
// sentence asked about, the newest included, and its restatement with it — not for everything else they said.
// A slot that holds one single-valued claim among accumulating ones is read whole, as the reader resolves it.
func TestSlotReadOfAnAccumulatingSlotKeepsToTheGivenValues(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	const ws = "wsa"
	t0 := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	id := func(n int) string { return fmt.Sprintf("00000000-0000-5000-8000-%012d", n) }
	dec := id(999999)
	ch := &store.Changes{}
	add := func(n int, subject, slot, object string, functional bool, status string) {
		from := t0.Add(time.Duration(n) * time.Minute)
		ch.Claims = append(ch.Claims, store.ClaimRow{ID: id(n), Workspace: ws, SubjectKey: subject, Subject: subject,
			PredicateKey: slot, Predicate: slot, SlotKey: slot, Object: object, ObjectKey: object,
			Text: subject + " " + slot + " " + object, Functional: functional, Scope: "shared", OwnerAgent: "a",
			Confidence: 1, ValidFrom: from, Provenance: `{"agent_id":"a"}`, StreamSeq: int64(n), RecordedAt: t0,
			SourceKey: "agent:a", Extractor: "structured", Trust: 1})
		ch.Versions = append(ch.Versions, store.VersionRow{ClaimID: id(n), Version: 1, Workspace: ws, Status: status,
			ValidFrom: from, RecordedAt: t0, DecisionID: dec})
	}
	// More sentences than the read returns at most (2,000), each said once; the last one said twice, the first
	// time superseded by the restatement.
	const said = 2100
	for n := 1; n <= said; n++ {
		add(n, "ann", "said", fmt.Sprintf("sentence %d", n), false, "active")
	}
	add(said+1, "ann", "said", "sentence 7", false, "active")
	ch.Versions[6].Status = "superseded"
	// Hobbies accumulate, but one claim of the slot was written single-valued.
	add(said+2, "ann", "hobby", "chess", false, "active")
	add(said+3, "ann", "hobby", "golf", true, "active")
	add(said+4, "ann", "hobby", "rowing", false, "active")
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) }); err != nil {
		t.Fatal(err)
	}
	ids := func(bs []store.Belief) []string {
		var out []string
		for _, b := range bs {
			out = append(out, b.ID)
		}
		slices.Sort(out)
		return out
	}
	for _, c := range []struct {
		name  string
		view  store.View
		given []string
		want  []string
	}{
		{"the newest sentence", store.View{Workspace: ws, Agent: "b"}, []string{id(said)}, []string{id(said)}},
		{"a restated sentence, now", store.View{Workspace: ws, Agent: "b"}, []string{id(7)}, []string{id(said + 1)}},
		{"a restated sentence, with history", store.View{Workspace: ws, Agent: "b", History: true}, []string{id(7)}, []string{id(7), id(said + 1)}},
		{"two sentences", store.View{Workspace: ws, Agent: "b"}, []string{id(1), id(2000)}, []string{id(1), id(2000)}},
		{"a slot with a single-valued claim", store.View{Workspace: ws, Agent: "b"}, []string{id(said + 2)}, []string{id(said + 2), id(said + 3), id(said + 4)}},
	} {
		got, err := store.SlotClaimsOf(ctx, pool, c.view, c.given)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ids(got), c.want) {
			t.Errorf("%s: read %v; want %v", c.name, ids(got), c.want)
		}
	}
}
