package store

import (
	"context"
	"fmt"
	"time"

	"github.com/pgvector/pgvector-go"
)

// Reads the query service makes around a search (besides its retrieval statements, which it batches itself):
// claims that may end another's value, the later restatements of a claim, and the question's similarity to given
// claims. Like every read in view.go they go through a View.

// ClaimsByPredicateHead returns the view's beliefs about the subjects of since whose predicate key starts with
// one of heads (the part before its first '_'), or is one of kinds and single-valued, valid from since[subject]
// on, newest first, at most limit.
//
// The claims are found in claims_subject_predicate_idx alone (an index-only scan: subject, predicate key,
// functional, id, valid time), and only those found are read from the table: filtering the table's rows read
// every claim of the subjects, thousands per search in a workspace whose people have a few hundred claims each
// (9 ms of a search's Postgres time at 58,000 claims, loadbench). The word lists are hashed subplans, not =
// ANY(array): a cached generic plan compares each row with a parameter array element by element (3 ms against
// 1). The valid time bound is the claim's own (a belief version's valid_from is its claim's), so it is checked
// in the index too, before any belief version is looked up: the common verbs ("joined", "got", "started") and
// kinds of a workspace's people matched about two hundred claims a search, most of them older than the values
// examined, and probing each one's version cost half of the statement (1,130 against 534 buffers, loadbench).
func ClaimsByPredicateHead(ctx context.Context, q Querier, v View, since map[string]time.Time, heads, kinds []string, limit int) ([]Belief, error) {
	a := v.Args()
	keys := make([]string, 0, len(since))
	times := make([]time.Time, 0, len(since))
	for k, t := range since {
		keys = append(keys, k)
		times = append(times, t)
	}
	a["keys"] = keys
	a["since"] = times
	a["heads"] = heads
	a["kinds"] = kinds
	a["lim"] = limit
	return queryBeliefs(ctx, q, `WITH e AS MATERIALIZED (
			SELECT x.id FROM unnest(@keys::text[], @since::timestamptz[]) AS s(key, since)
			JOIN claims x ON x.workspace_id = @ws AND x.subject_key = s.key AND x.valid_from >= s.since
			WHERE split_part(x.predicate_key, '_', 1) IN (SELECT unnest(@heads::text[]))
				OR x.functional AND x.predicate_key IN (SELECT unnest(@kinds::text[]))
		)
		SELECT `+BeliefColumns+`
		FROM e JOIN claims c ON c.id = e.id
		JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
		WHERE `+v.Where()+`
		ORDER BY v.valid_from DESC, c.id
		LIMIT @lim`, a)
}

// Restatement is a claim (ID) of the same subject as Source, believed from a later valid time, whose vector is
// Similarity (cosine) close to Source's.
type Restatement struct {
	Source, ID string
	Similarity float64
}

// RestatementSource is a claim whose later restatements LaterRestatements looks for, and what a restatement's
// text must match: TextPattern, a Postgres regular expression matched without regard to case ("" matches any).
type RestatementSource struct {
	ID, TextPattern string
}

// LaterRestatements returns, for each of the sources, at most n claims the view selects of the same subject,
// valid from after the source, whose text matches the source's pattern, nearest to it by the dense vectors of
// dimension dim and at least minSimilarity close; ordered by source, then most similar first.
//
// The pattern is checked before any vector is read: in a conversation where one speaker said 3,600 things, the
// nearest of every later claim of the speaker took 31 ms a source (most of it reading the vectors, each stored
// apart from its row), against 1.5 ms for the few whose text can be a restatement (EXPLAIN ANALYZE, twelve
// sources). The vectors are compared at full precision: the index's half-precision cast would run on each one.
func LaterRestatements(ctx context.Context, q Querier, v View, sources []RestatementSource, dim, n int, minSimilarity float64) ([]Restatement, error) {
	a := v.Args()
	ids := make([]string, len(sources))
	patterns := make([]string, len(sources))
	for i, s := range sources {
		ids[i], patterns[i] = s.ID, s.TextPattern
	}
	a["ids"] = ids
	a["patterns"] = patterns
	a["dim"] = dim
	a["n"] = n
	a["sim"] = minSimilarity
	expr, srcExpr := ExactDenseExpr("cv"), ExactDenseExpr("sv")
	// A claim's valid_from is its belief versions' (the reconciler never changes it), so the bound is the claim's.
	rows, err := q.Query(ctx, `SELECT sc.id::text, n.id::text, n.sim
		FROM unnest(@ids::uuid[], @patterns::text[]) AS s(id, pattern)
		JOIN claims sc ON sc.id = s.id
		JOIN claim_vectors sv ON sv.claim_id = sc.id AND sv.dim = @dim
		CROSS JOIN LATERAL (
			SELECT c.id, 1 - (`+expr+` <=> `+srcExpr+`) AS sim
			FROM claims c
			JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
			JOIN claim_vectors cv ON cv.claim_id = c.id AND cv.dim = @dim
			WHERE `+v.Where()+` AND c.subject_key = sc.subject_key AND c.id <> sc.id
				AND c.valid_from > sc.valid_from AND (s.pattern = '' OR c.text ~* s.pattern)
			ORDER BY `+expr+` <=> `+srcExpr+`
			LIMIT @n) n
		WHERE sc.workspace_id = @ws AND n.sim >= @sim
		ORDER BY sc.id, n.sim DESC`, a)
	if err != nil {
		return nil, fmt.Errorf("store: later restatements: %w", err)
	}
	defer rows.Close()
	var out []Restatement
	for rows.Next() {
		var r Restatement
		if err := rows.Scan(&r.Source, &r.ID, &r.Similarity); err != nil {
			return nil, fmt.Errorf("store: later restatements: %w", err)
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// Earlier is what a later claim is about among what its subject said before (EarlierOf).
type Earlier struct {
	// Nearest is the claim of the same subject valid from before it whose dense vector is nearest to its own,
	// among every version the view's history holds (values since superseded included); "" when there is none.
	Nearest string
	// Replaced reports that the claim superseded another in its own slot: the reconciler connected the change it
	// says to the value it changed. (Read from the supersedes edges as they are now, whatever the view's
	// known_at: an edge names no time of its own.)
	Replaced bool
}

// EarlierOf returns, for each of the given claims that has a dense vector of dimension dim, what it is about among
// what its subject said before (Earlier).
func EarlierOf(ctx context.Context, q Querier, v View, ids []string, dim int) (map[string]Earlier, error) {
	v.History = true
	a := v.Args()
	a["ids"] = ids
	a["dim"] = dim
	// Full precision: the statement sorts a subject's claims exactly, and the half-precision cast of the index
	// expression would run on every one of them (ExactDenseExpr).
	expr, srcExpr := ExactDenseExpr("cv"), ExactDenseExpr("sv")
	rows, err := q.Query(ctx, `SELECT sc.id::text, coalesce(n.id::text, ''), EXISTS (SELECT 1 FROM supersedes s WHERE s.claim_id = sc.id)
		FROM claims sc
		JOIN claim_vectors sv ON sv.claim_id = sc.id AND sv.dim = @dim
		LEFT JOIN LATERAL (
			SELECT c.id
			FROM claims c
			JOIN claim_versions v ON v.claim_id = c.id AND `+v.Belief()+`
			JOIN claim_vectors cv ON cv.claim_id = c.id AND cv.dim = @dim
			WHERE `+v.Where()+` AND c.subject_key = sc.subject_key AND c.id <> sc.id AND c.valid_from < sc.valid_from
			ORDER BY `+expr+` <=> `+srcExpr+`, c.id
			LIMIT 1) n ON true
		WHERE sc.workspace_id = @ws AND sc.id = ANY(@ids::uuid[])`, a)
	if err != nil {
		return nil, fmt.Errorf("store: earlier claims: %w", err)
	}
	defer rows.Close()
	out := map[string]Earlier{}
	for rows.Next() {
		var id string
		var e Earlier
		if err := rows.Scan(&id, &e.Nearest, &e.Replaced); err != nil {
			return nil, fmt.Errorf("store: earlier claims: %w", err)
		}
		out[id] = e
	}
	return out, rows.Err()
}

// PairSimilarities returns the cosine similarity of the dense vectors (of dimension dim) of each pair of claims
// of the view's workspace, a[i] with b[i], keyed by the pair; pairs of which a claim has no such vector are
// absent. Each vector is read once however many pairs it is in.
func PairSimilarities(ctx context.Context, q Querier, v View, a, b []string, dim int) (map[[2]string]float64, error) {
	args := v.Args()
	args["a"] = a
	args["b"] = b
	args["dim"] = dim
	rows, err := q.Query(ctx, `WITH p AS (SELECT * FROM unnest(@a::uuid[], @b::uuid[]) AS p(x, y)),
		vs AS MATERIALIZED (SELECT cv.claim_id, cv.embedding FROM claim_vectors cv
			WHERE cv.workspace_id = @ws AND cv.dim = @dim AND cv.claim_id IN (SELECT x FROM p UNION SELECT y FROM p))
		SELECT p.x::text, p.y::text, 1 - (va.embedding <=> vb.embedding)
		FROM p JOIN vs va ON va.claim_id = p.x JOIN vs vb ON vb.claim_id = p.y`, args)
	if err != nil {
		return nil, fmt.Errorf("store: pair similarities: %w", err)
	}
	defer rows.Close()
	out := map[[2]string]float64{}
	for rows.Next() {
		var x, y string
		var sim float64
		if err := rows.Scan(&x, &y, &sim); err != nil {
			return nil, fmt.Errorf("store: pair similarities: %w", err)
		}
		out[[2]string{x, y}] = sim
	}
	return out, rows.Err()
}

// Similarities returns the cosine similarity of qvec to the stored vectors (of dimension dim) of the given
// claims of the view's workspace, by claim id; claims without such a vector are absent.
func Similarities(ctx context.Context, q Querier, v View, ids []string, qvec []float32, dim int) (map[string]float64, error) {
	a := v.Args()
	a["ids"] = ids
	a["qvec"] = pgvector.NewVector(qvec).String() // text, cast by the statement: no registered vector type needed
	a["dim"] = dim
	rows, err := q.Query(ctx, `SELECT cv.claim_id::text, 1 - (`+DenseIndexExpr("cv", dim)+` <=> @qvec::vector)
		FROM claim_vectors cv WHERE cv.workspace_id = @ws AND cv.claim_id = ANY(@ids::uuid[]) AND cv.dim = @dim`, a)
	if err != nil {
		return nil, fmt.Errorf("store: similarities: %w", err)
	}
	defer rows.Close()
	out := map[string]float64{}
	for rows.Next() {
		var id string
		var sim float64
		if err := rows.Scan(&id, &sim); err != nil {
			return nil, fmt.Errorf("store: similarities: %w", err)
		}
		out[id] = sim
	}
	return out, rows.Err()
}

// ReplacedValues returns the superseded claims of single-valued slots of the given subjects that a present
// view may read — the values a later claim of the same subject replaced — newest first, at most limit. It
// reads the present only: an as-of or known-at view has its own idea of what was replaced, and such views
// get nil.
//
// A subject's superseded beliefs are read newest first from their own index (claim_versions_superseded_idx)
// and each one's claim looked up, so the read stops at its limit however much the subject has said.
func ReplacedValues(ctx context.Context, q Querier, v View, subjects []string, limit int) ([]Belief, error) {
	if v.AsOf != nil || v.KnownAt != nil || len(subjects) == 0 || limit <= 0 {
		return nil, nil
	}
	a := v.Args()
	a["keys"] = subjects
	a["lim"] = limit
	// The belief's columns are read inside the lateral read, where its limit applies, and ordered outside by
	// the names BareBeliefColumns gives them (v.valid_from, c.id::text). Each version's claim is looked up by
	// its key alone (the fence of OFFSET 0): a planner that thinks the workspace small would otherwise read the
	// workspace's single-valued claims once per version.
	return queryBeliefs(ctx, q, `SELECT r.* FROM unnest(@keys::text[]) AS k(subject_key)
		CROSS JOIN LATERAL (SELECT `+BareBeliefColumns+`
			FROM claim_versions v
			CROSS JOIN LATERAL (SELECT * FROM claims c WHERE c.id = v.claim_id OFFSET 0) c
			WHERE v.workspace_id = @ws AND v.subject_key = k.subject_key AND v.retired_at IS NULL AND v.status = 'superseded'
				AND c.functional AND `+v.Visible()+`
			ORDER BY v.valid_from DESC
			LIMIT @lim) r
		ORDER BY r.valid_from DESC, r.id
		LIMIT @lim`, a)
}
