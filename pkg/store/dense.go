package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Dense index layout. Many workspaces share claim_vectors, and a search must not pay for the others: one
// store-wide HNSW graph makes a search in a 10k-claim workspace walk the graph of every workspace, discarding
// their rows until it has enough of its own (tens of milliseconds beside a 200k-claim workspace, issue 15).
// So the layout is per workspace, chosen by size:
//
//   - below a threshold (DefaultWorkspaceIndexMin vectors), a workspace is searched by its vectors' signs first
//     (DenseBySignsSQL): the nearest by the Hamming distance of their signs, those ranked by their
//     full-precision distance (ExactDenseExpr) — a few milliseconds because the workspace is small, and
//     recall near 1; sorted exactly when the signs' cut holds too few claims the reader may see;
//   - above it, the workspace has an HNSW index of its own, partial on workspace_id = <it>
//     (WorkspaceIndexName), which IndexWorkspaces builds. Postgres uses a partial index only when the query's
//     predicate proves the index's, that is, when the plan is made for the workspace value: the search
//     statements run with plan_cache_mode = force_custom_plan (services/query/search.go), and the dense one
//     with sorts disabled, since the planner's row estimate would often have it sort the workspace instead.
//
// The indexes are expression indexes over DenseIndexExpr: pgvector indexes need a typed column, and a cast to a
// fixed dimension pins it. They store half-precision vectors (halfvec), half the size of single precision, so
// the indexes stay in Postgres's buffers; searchbench measures their recall against exact full-precision
// search (docs/benchmarks.md). The table keeps full precision and stays append-only (no UPDATEs of vector rows,
// RUNTIME.md): an index is built beside the rows, never by rewriting them. Half precision also raises pgvector's
// HNSW dimension limit from 2,000 to 4,000; embeddings are unit-scale, far inside its range (±65,504).

// DefaultWorkspaceIndexMin is the number of vectors at which a workspace gets its own HNSW index. Below it the
// search by signs costs about as much as the rest of a search (under 1 µs per row, and a cut of a few hundred
// TOASTed vectors read back); above it the scan would dominate. A higher threshold means fewer indexes for the planner to consider on every
// statement over claim_vectors, a lower one faster medium workspaces.
const DefaultWorkspaceIndexMin = 2000

const (
	// storeWideIndexName is the one HNSW index over every workspace's vectors of earlier versions, and
	// legacyDenseIndexName its single-precision predecessor; IndexWorkspaces drops both once every large
	// workspace has its own.
	storeWideIndexName   = "claim_vectors_halfvec_hnsw_idx"
	legacyDenseIndexName = "claim_vectors_hnsw_idx"
	// indexLockID serializes IndexWorkspaces across processes (every reconciler replica may run it).
	indexLockID = migrateLockID + 2
)

// IndexLockID is the session advisory lock a process holds while it builds workspace indexes
// (IndexWorkspaces, IndexGrownWorkspaces): pg_locks shows who builds (objid is its low 32 bits), and a test can
// play another replica building.
const IndexLockID int64 = indexLockID

// DenseIndexExpr returns the SQL expression the dense (HNSW, cosine) indexes are built over, for a query that
// names claim_vectors by alias ("" for the bare column) in a store of dimension dim. A query uses a workspace's
// index only when it orders by exactly this expression and restricts claim_vectors to that workspace:
// WHERE cv.workspace_id = $ws ... ORDER BY DenseIndexExpr("cv", dim) <=> $1::vector (the query vector is cast to
// halfvec implicitly), planned for the workspace value (a custom plan).
func DenseIndexExpr(alias string, dim int) string {
	col := "embedding"
	if alias != "" {
		col = alias + ".embedding"
	}
	return fmt.Sprintf("(%s::halfvec(%d))", col, dim)
}

// ExactDenseExpr returns the SQL expression an exact dense search orders by, for a query naming claim_vectors by
// alias: the stored full-precision vector itself. A workspace without an index of its own is sorted by it, which
// is exact and costs less than ordering by DenseIndexExpr, whose cast to half precision runs on every row (2,000
// TOASTed vectors: 15 ms in full precision against 34 ms through the cast, EXPLAIN ANALYZE on this machine).
func ExactDenseExpr(alias string) string {
	if alias == "" {
		return "embedding"
	}
	return alias + ".embedding"
}

// The cut of DenseBySignsSQL: the @n nearest visible claims are looked for among the vectors whose signs are
// nearest the question's, SignsCutFactor·@n of them or one in SignsCutShare of the workspace's vectors when that
// is more. Reading the cut's full vectors back is most of the statement's cost (about 10 µs a vector), so the cut
// is as small as keeps recall. On LoCoMo's conversations (USE-lite vectors; docs/benchmarks.md, "Dense search by
// signs first") the cut of 160 held 99.8–99.9% of the 40 nearest claims by full precision in workspaces of
// 700–1,400 vectors; over all 8,172 vectors as one workspace it held 98.8% at 160, 99.7% at 240 and 99.95% at
// 320 — recall follows the cut's share of the workspace, hence the floor.
const (
	SignsCutFactor = 4
	SignsCutShare  = 25
)

// DenseBySignsSQL is the dense query of a workspace without an HNSW index of its own: the @n claims nearest
// @qvec among those view v selects, as (id, dist, scanned) rows, nearest first; @cut is SignsCutFactor·@n.
//
// Sorting the workspace by its full-precision vectors reads every one back from TOAST (about 10 µs each) and,
// joined first, every claim and belief version of the workspace, to keep a few dozen: 9–13 ms for a 1,400-claim
// workspace (EXPLAIN ANALYZE on a 2-core machine). Instead, in three steps: the vectors whose signs
// (claim_vector_signs, 64 bytes kept in the row) are nearest the question's by Hamming distance, under 1 µs a
// row; those ranked by their full-precision distance (ExactDenseExpr); and the view's filters over them only.
//
// The rows are the nearest visible claims of the cut, which are the @n nearest visible claims of the workspace
// unless one of those has signs farther than the cut's. When fewer than @n pass the filters and scanned (the
// number of vectors the cut held) is at least @cut, the workspace may hold nearer visible claims beyond the cut
// (another agent's private claims, superseded or retired ones nearest the question): sort it exactly then.
func DenseBySignsSQL(v View) string {
	return `WITH cut AS MATERIALIZED (
			SELECT s.claim_id
			FROM claim_vector_signs s
			WHERE s.workspace_id = @ws
			ORDER BY s.signs <~> binary_quantize(@qvec::vector)
			LIMIT greatest(@cut, (SELECT count(*) FROM claim_vector_signs WHERE workspace_id = @ws) / ` + fmt.Sprint(SignsCutShare) + `)
		)
		SELECT c.id::text AS id, ` + ExactDenseExpr("cv") + ` <=> @qvec::vector AS dist, (SELECT count(*) FROM cut) AS scanned
		FROM cut
		JOIN claim_vectors cv ON cv.claim_id = cut.claim_id
		JOIN claims c ON c.id = cut.claim_id
		JOIN claim_versions v ON v.claim_id = cut.claim_id AND ` + v.Belief() + `
		WHERE ` + v.Where() + `
		ORDER BY dist, c.id
		LIMIT @n`
}

// DenseIndexes says which workspaces a dense query can search through an HNSW index: those with a valid index of
// their own, or every workspace while the store-wide index of an earlier version exists.
type DenseIndexes struct {
	storeWide bool
	own       map[string]bool
}

// Covers reports whether workspace ws has an HNSW index a dense query over DenseIndexExpr can use.
func (d DenseIndexes) Covers(ws string) bool {
	return d.storeWide || d.own[WorkspaceIndexName(ws)]
}

// ReadDenseIndexes reads which valid HNSW indexes claim_vectors has. An index still being built concurrently, or
// left invalid by a failed build, covers nothing.
func ReadDenseIndexes(ctx context.Context, q Querier) (DenseIndexes, error) {
	rows, err := q.Query(ctx, `SELECT c.relname::text FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid
		JOIN pg_am am ON am.oid = c.relam
		WHERE i.indrelid = 'claim_vectors'::regclass AND i.indisvalid AND am.amname = 'hnsw'`)
	if err != nil {
		return DenseIndexes{}, fmt.Errorf("store: read the dense indexes: %w", err)
	}
	names, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return DenseIndexes{}, fmt.Errorf("store: read the dense indexes: %w", err)
	}
	d := DenseIndexes{own: map[string]bool{}}
	for _, n := range names {
		if n == storeWideIndexName {
			d.storeWide = true
		}
		d.own[n] = true
	}
	return d, nil
}

// WorkspaceIndexName returns the name of workspace ws's own HNSW index: a hash of the id, since ids may hold
// any characters and be longer than an identifier.
func WorkspaceIndexName(ws string) string {
	sum := sha256.Sum256([]byte(ws))
	return "claim_vectors_ws_" + hex.EncodeToString(sum[:8]) + "_hnsw"
}

// IndexReport says what IndexWorkspaces did.
type IndexReport struct {
	// Indexed lists the workspaces that got an index of their own, largest first.
	Indexed []string
	// DroppedStoreWide is set when the store-wide index of earlier versions was dropped.
	DroppedStoreWide bool
	// Busy is set when another process was indexing, so this call did nothing.
	Busy bool
}

// IndexWorkspaces gives every workspace holding at least minVectors vectors an HNSW index of its own (and
// rebuilds one that an interrupted build left invalid), then drops the store-wide index of earlier versions,
// which no large workspace needs any more. Builds run CONCURRENTLY: writers are not blocked, and searches of a
// workspace being indexed stay exact until its index is valid. Only one process indexes at a time; the others
// return with Busy set. A store with no pinned dimension has nothing to index.
func IndexWorkspaces(ctx context.Context, pool *pgxpool.Pool, minVectors int) (IndexReport, error) {
	return indexWorkspaces(ctx, pool, minVectors, nil)
}

// IndexGrownWorkspaces is IndexWorkspaces for the given workspaces only — those a writer has just added vectors
// to — so it can run every few seconds: it counts each one's vectors through the workspace B-tree, stopping at
// minVectors, where IndexWorkspaces counts the whole table. It never drops the store-wide index (other large
// workspaces may still need it).
func IndexGrownWorkspaces(ctx context.Context, pool *pgxpool.Pool, minVectors int, workspaces []string) (IndexReport, error) {
	if len(workspaces) == 0 {
		return IndexReport{}, nil
	}
	return indexWorkspaces(ctx, pool, minVectors, workspaces)
}

// indexWorkspaces builds the missing indexes of the workspaces with at least minVectors vectors: among only, or
// among all when only is nil (then the store-wide index is dropped afterwards).
func indexWorkspaces(ctx context.Context, pool *pgxpool.Pool, minVectors int, only []string) (IndexReport, error) {
	var rep IndexReport
	if minVectors <= 0 {
		return rep, fmt.Errorf("store: workspace index threshold %d must be positive", minVectors)
	}
	_, dim, err := EmbeddingDim(ctx, pool)
	if err != nil || dim == 0 {
		return rep, err
	}
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return rep, fmt.Errorf("store: index workspaces: %w", err)
	}
	defer conn.Release()
	var locked bool
	if err := conn.QueryRow(ctx, `SELECT pg_try_advisory_lock($1)`, indexLockID).Scan(&locked); err != nil {
		return rep, fmt.Errorf("store: index workspaces lock: %w", err)
	}
	if !locked {
		rep.Busy = true
		return rep, nil
	}
	defer func() { _, _ = conn.Exec(context.WithoutCancel(ctx), `SELECT pg_advisory_unlock($1)`, indexLockID) }()

	var rows pgx.Rows
	if only == nil {
		rows, err = conn.Query(ctx, `SELECT workspace_id FROM claim_vectors GROUP BY workspace_id
			HAVING count(*) >= $1 ORDER BY count(*) DESC, workspace_id`, minVectors)
	} else {
		// A workspace with a valid index of its own needs no count; any other is counted up to the threshold.
		names := make([]string, len(only))
		for i, ws := range only {
			names[i] = WorkspaceIndexName(ws)
		}
		rows, err = conn.Query(ctx, `SELECT t.w FROM unnest($1::text[], $2::text[]) AS t(w, name)
			WHERE NOT coalesce((SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass(t.name)), false)
			  AND (SELECT count(*) FROM (SELECT 1 FROM claim_vectors WHERE workspace_id = t.w LIMIT $3) x) >= $3
			ORDER BY t.w`, only, names, minVectors)
	}
	if err != nil {
		return rep, fmt.Errorf("store: count workspace vectors: %w", err)
	}
	large, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return rep, fmt.Errorf("store: count workspace vectors: %w", err)
	}
	for _, ws := range large {
		name := WorkspaceIndexName(ws)
		var valid *bool
		if err := conn.QueryRow(ctx, `SELECT (SELECT indisvalid FROM pg_index WHERE indexrelid = to_regclass($1))`, name).Scan(&valid); err != nil {
			return rep, fmt.Errorf("store: index of workspace %q: %w", ws, err)
		}
		if valid != nil && *valid {
			continue
		}
		if valid != nil {
			// A concurrent build that failed leaves an invalid index that writers still maintain; rebuild it.
			if _, err := conn.Exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS `+pgx.Identifier{name}.Sanitize()); err != nil {
				return rep, fmt.Errorf("store: drop the invalid index of workspace %q: %w", ws, err)
			}
		}
		// The workspace id becomes a string literal in the index predicate, quoted by the server.
		var lit string
		if err := conn.QueryRow(ctx, `SELECT quote_literal($1::text)`, ws).Scan(&lit); err != nil {
			return rep, err
		}
		if _, err := conn.Exec(ctx, workspaceIndexDDL(name, lit, dim)); err != nil {
			return rep, fmt.Errorf("store: index workspace %q: %w", ws, err)
		}
		rep.Indexed = append(rep.Indexed, ws)
	}
	if only != nil {
		return rep, nil
	}
	for _, name := range []string{storeWideIndexName, legacyDenseIndexName} {
		var exists bool
		if err := conn.QueryRow(ctx, `SELECT to_regclass($1) IS NOT NULL`, name).Scan(&exists); err != nil {
			return rep, err
		}
		if !exists {
			continue
		}
		if _, err := conn.Exec(ctx, `DROP INDEX CONCURRENTLY IF EXISTS `+pgx.Identifier{name}.Sanitize()); err != nil {
			return rep, fmt.Errorf("store: drop the store-wide dense index: %w", err)
		}
		rep.DroppedStoreWide = true
	}
	return rep, nil
}

// workspaceIndexDDL is the statement building the index name of the workspace whose id is the quoted literal
// wsLiteral.
func workspaceIndexDDL(name, wsLiteral string, dim int) string {
	return fmt.Sprintf(`CREATE INDEX CONCURRENTLY IF NOT EXISTS %s ON claim_vectors
		USING hnsw (%s halfvec_cosine_ops) WITH (m = 16, ef_construction = 64) WHERE workspace_id = %s`,
		pgx.Identifier{name}.Sanitize(), DenseIndexExpr("", dim), wsLiteral)
}
