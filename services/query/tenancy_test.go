package query

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/store"
)

// bulkWorkspace inserts n current, shared claims with random vectors into workspace ws in a few statements
// (the fixture's one claim at a time would take minutes for a workspace large enough to get its own index):
// "<Subject> i <predicate> <Object> i".
func (h *harness) bulkWorkspace(ws string, n int, subject, predicate, object string) {
	h.t.Helper()
	ctx := context.Background()
	for _, st := range []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO workspaces (id, created_by) VALUES ($1, 'test') ON CONFLICT DO NOTHING`, []any{ws}},
		{`INSERT INTO claims (id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key,
			text, functional, scope, owner_agent, confidence, valid_from, provenance, partition, stream_seq, recorded_at)
		 SELECT gen_random_uuid(), $1, lower($3) || '_' || i, $3 || ' ' || i, replace($4, ' ', '_'), $4, replace($4, ' ', '_'), $5 || ' ' || i,
			lower($5) || '_' || i, $3 || ' ' || i || ' ' || $4 || ' ' || $5 || ' ' || i, true, 'shared', 'agent-a', 1, '2024-01-01', '{}', 0, i, '2024-01-01'
		 FROM generate_series(1, $2::int) i`, []any{ws, n, subject, predicate, object}},
		{`INSERT INTO claim_versions (claim_id, version, workspace_id, status, valid_from, recorded_at)
		 SELECT id, 1, workspace_id, 'active', valid_from, recorded_at FROM claims WHERE workspace_id = $1`, []any{ws}},
		// The correlated subquery draws a fresh vector per claim.
		{`INSERT INTO claim_vectors (claim_id, workspace_id, model, dim, embedding)
		 SELECT c.id, c.workspace_id, $2, $3, (SELECT array_agg(random() - 0.5)::vector FROM generate_series(1, $3::int) WHERE c.id IS NOT NULL)
		 FROM claims c WHERE c.workspace_id = $1`, []any{ws, h.emb.Model(), h.emb.Dim()}},
	} {
		if _, err := h.db.Exec(ctx, st.sql, st.args...); err != nil {
			h.t.Fatalf("%v\n%s", err, st.sql)
		}
	}
}

// denseStatement is the dense query as one connection prepared it, with its plan counts.
type denseStatement struct {
	name            string
	generic, custom int64
	sql             string
}

// TestDenseSearchKeepsWorkspacePlan runs the same search many times and checks the connection's prepared dense
// statement was planned for the workspace every time: never a generic plan, which cannot use a workspace's own
// index and would scan the whole workspace (after five executions Postgres may switch to one), and the plan
// scans the large workspace's own HNSW index, while a small workspace is searched exactly.
func TestDenseSearchKeepsWorkspacePlan(t *testing.T) {
	h := newHarness(t, func(c *Config) { c.RequestTimeout = 3 * time.Minute })
	ctx := context.Background()
	h.bulkWorkspace("big", 1000, "Person", "lives in", "Town")
	h.bulkWorkspace("small", 300, "Person", "lives in", "Town")
	rep, err := store.IndexWorkspaces(ctx, h.db, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Indexed, ",") != "big" {
		t.Fatalf("indexed workspaces = %v, want [big]", rep.Indexed)
	}
	// A larger workspace, not indexed yet, shares the tables: the planner then expects a couple of dozen rows
	// from "big" and would sort them exactly (denseEnterSQL). Its claims share no word with the searches.
	h.bulkWorkspace("other", 40000, "Parcel", "weighs", "Gram")
	if _, err := h.db.Exec(ctx, `ANALYZE`); err != nil {
		t.Fatal(err)
	}

	const searches = 15
	// The first search loads the language models, which takes long under -race on a busy machine.
	cl, err := client.New(h.srv.URL, "agent-a", client.WithTimeout(3*time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	for i := range searches {
		if _, err := cl.Search(ctx, "big", api.SearchRequest{Query: "Where does Person 17 live?", K: 5}); err != nil {
			t.Fatalf("search %d: %v", i, err)
		}
	}

	// Every connection of the pool that prepared the dense statement: none ever used a generic plan, and the
	// searches' executions are all there.
	conns := h.db.AcquireAllIdle(ctx)
	defer func() {
		for _, c := range conns {
			c.Release()
		}
	}()
	var busiest *pgx.Conn
	var most denseStatement
	var total int64
	for _, c := range conns {
		rows, err := c.Query(ctx, `SELECT name, generic_plans, custom_plans, statement FROM pg_prepared_statements
			WHERE statement LIKE '%FROM claim_vectors cv%' AND statement LIKE '%ORDER BY (cv.embedding::halfvec%'
				AND statement NOT LIKE '%pg_prepared_statements%'`)
		if err != nil {
			t.Fatal(err)
		}
		sts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (denseStatement, error) {
			var d denseStatement
			return d, r.Scan(&d.name, &d.generic, &d.custom, &d.sql)
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sts {
			if st.generic != 0 {
				t.Errorf("the dense statement was run with a generic plan %d times (%d custom):\n%s", st.generic, st.custom, st.sql)
			}
			total += st.custom
			if st.custom > most.custom {
				most, busiest = st, c.Conn()
			}
		}
	}
	if total < searches || most.custom <= 10 {
		t.Fatalf("dense statement: %d custom plans in all, at most %d on one connection; want every one of %d searches, more than 10 on one connection",
			total, most.custom, searches)
	}

	// The plan the busiest connection's statement gets now, for the large and the small workspace.
	planOf := func(ws, mode string) string {
		t.Helper()
		v := store.View{Workspace: ws, Agent: "agent-a"}
		a := v.Args()
		a["qvec"] = vectorLiteral(make([]float32, h.emb.Dim()))
		a["n"] = h.svc.cfg.Candidates
		_, args, err := a.RewriteQuery(ctx, busiest, denseSQL(v, h.emb.Dim(), true), nil)
		if err != nil {
			t.Fatal(err)
		}
		params := make([]string, len(args))
		for i := range args {
			params[i] = fmt.Sprintf("$%d", i+1)
		}
		var plan []byte
		err = pgx.BeginFunc(ctx, busiest, func(tx pgx.Tx) error {
			// The settings the service's batch has in force when it runs the dense query.
			if _, err := tx.Exec(ctx, searchSettingsSQL, "40"); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, denseEnterSQL); err != nil {
				return err
			}
			if mode != "" {
				if _, err := tx.Exec(ctx, `SELECT set_config('plan_cache_mode', $1, true)`, mode); err != nil {
					return err
				}
			}
			// The simple protocol writes the arguments into the EXPLAIN as literals.
			return tx.QueryRow(ctx, `EXPLAIN (FORMAT JSON) EXECUTE `+most.name+`(`+strings.Join(params, ", ")+`)`,
				append([]any{pgx.QueryExecModeSimpleProtocol}, args...)...).Scan(&plan)
		})
		if err != nil {
			t.Fatal(err)
		}
		return string(plan)
	}
	bigIndex := store.WorkspaceIndexName("big")
	if p := planOf("big", ""); !strings.Contains(p, `"Index Name": "`+bigIndex+`"`) {
		t.Errorf("after %d searches the large workspace's dense plan does not scan its index %s:\n%s", most.custom, bigIndex, indent(p))
	}
	// Were the small workspace searched by the statement of indexed workspaces, it would still be sorted.
	if p := planOf("small", ""); strings.Contains(p, "hnsw") || !strings.Contains(p, `"Node Type": "Sort"`) {
		t.Errorf("the small workspace's dense plan is not an exact sort of its own rows:\n%s", indent(p))
	} else if strings.Contains(p, `"JIT"`) {
		// The disabled sort's cost penalty must not make Postgres compile the plan (seconds under load).
		t.Errorf("the small workspace's dense plan is JIT-compiled:\n%s", indent(p))
	}
	// The service searches it by its full-precision vectors instead (no cast per row), and the large one by its index.
	if !h.svc.denseIndexes.covers(ctx, h.svc, "big") || h.svc.denseIndexes.covers(ctx, h.svc, "small") {
		t.Errorf("dense index cache: covers big = %v, small = %v; want true, false",
			h.svc.denseIndexes.covers(ctx, h.svc, "big"), h.svc.denseIndexes.covers(ctx, h.svc, "small"))
	}
	if sql := denseSQL(store.View{Workspace: "small"}, h.emb.Dim(), false); strings.Contains(sql, "halfvec") ||
		!strings.Contains(sql, "ORDER BY "+store.ExactDenseExpr("cv")+" <=> @qvec::vector") {
		t.Errorf("the exact dense statement does not order by the full-precision vector:\n%s", sql)
	}
	// The check sees the difference: a generic plan, made without the workspace value, cannot use the index.
	if p := planOf("big", "force_generic_plan"); strings.Contains(p, bigIndex) {
		t.Errorf("a generic plan uses the workspace's partial index:\n%s", indent(p))
	}
}

func indent(js string) string {
	var v any
	if json.Unmarshal([]byte(js), &v) != nil {
		return js
	}
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
