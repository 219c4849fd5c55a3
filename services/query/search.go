package query

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/promptguard"
	"github.com/mneme-ai/mneme/pkg/store"
)

// searchBody is the wire form of api.SearchRequest with times as strings, so a bad time is a 400 that names
// its field.
type searchBody struct {
	Query          string  `json:"query"`
	K              int     `json:"k"`
	TokenBudget    int     `json:"token_budget"`
	AsOf           *string `json:"as_of"`
	KnownAt        *string `json:"known_at"`
	IncludeHistory bool    `json:"include_history"`
	// IncludeQuarantined also returns quarantined claims, flagged (for reviewing them).
	IncludeQuarantined bool `json:"include_quarantined"`
	// Asker is whom "I" and "my" in the query name (askedBy).
	Asker string `json:"asker"`
}

// searchParams is a validated search.
type searchParams struct {
	query   string
	k       int
	budget  int
	history bool
	// qvec is the query's embedding (nil when dense retrieval cannot run), of dimension dim.
	qvec []float32
	dim  int
	// toks is the query read as a question (analyzeQuestion), when the caller has read it already; nil: read
	// when needed. Tagging a question is a search's largest cost in Go after embedding it.
	toks []qtok
}

// questionParams are the search parameters of a question. Read once, it says whether the question asks about
// the past or how something changed ("before", "used to", "originally", "still", "in 2022": its time reading,
// question.go), which asks for history, and it ranks the subjects' claims.
func questionParams(query string, k, budget int, history bool) searchParams {
	toks := analyzeQuestion(query)
	return searchParams{query: query, k: k, budget: budget, toks: toks,
		history: history || parseTokens(toks, nil).time.asksPast()}
}

func (s *Service) handleSearch(w http.ResponseWriter, r *request) error {
	var b searchBody
	if err := api.DecodeBody(w, r.Request, s.cfg.MaxBodyBytes, &b); err != nil {
		return err
	}
	if err := s.checkText("query", b.Query); err != nil {
		return err
	}
	query, err := s.askedText("query", b.Query, b.Asker)
	if err != nil {
		return err
	}
	k := b.K
	switch {
	case k == 0:
		k = s.cfg.DefaultK
	case k < 0:
		return api.OutOfRange("k", s.cfg.MaxK, "k must be positive (or absent for the default %d)", s.cfg.DefaultK)
	case k > s.cfg.MaxK:
		return api.OutOfRange("k", s.cfg.MaxK, "k %d exceeds the limit %d (MNEME_QUERY_MAX_K)", k, s.cfg.MaxK)
	}
	budget, err := s.checkBudget(b.TokenBudget)
	if err != nil {
		return err
	}
	asOf, err := parseTime("as_of", b.AsOf)
	if err != nil {
		return err
	}
	knownAt, err := parseTime("known_at", b.KnownAt)
	if err != nil {
		return err
	}
	p := questionParams(query, k, budget, b.IncludeHistory)
	v := store.View{Workspace: r.ws, Agent: r.agent, AsOf: asOf, KnownAt: knownAt, Quarantined: b.IncludeQuarantined}
	res, err := s.search(r.ctx, v, p)
	if err != nil {
		return err
	}
	w.Header().Set("Server-Timing", res.serverTiming())
	api.WriteJSON(w, http.StatusOK, res.response(s.tok.Name()))
	return nil
}

// searchResult is a search before it goes on the wire.
type searchResult struct {
	items         []item
	context       string
	contextTokens int
	queueDur      time.Duration
	embedDur      time.Duration
	retrieveDur   time.Duration
	first, second time.Duration
	assembleDur   time.Duration
}

// timing is where a retrieval spent its time (reported in the Server-Timing header).
type timing struct{ first, second time.Duration }

// serverTiming renders the phases for the Server-Timing response header (milliseconds).
func (r *searchResult) serverTiming() string {
	f := func(name string, d time.Duration) string {
		return fmt.Sprintf("%s;dur=%.2f", name, float64(d.Microseconds())/1000)
	}
	return strings.Join([]string{f("queue", r.queueDur), f("embed", r.embedDur), f("retrieve", r.retrieveDur), f("retrieve1", r.first),
		f("retrieve2", r.second), f("assemble", r.assembleDur)}, ", ")
}

func (r *searchResult) response(tokenizer string) api.SearchResponse {
	out := api.SearchResponse{Claims: make([]api.Claim, 0, len(r.items)), Context: r.context, ContextTokens: r.contextTokens, Tokenizer: tokenizer}
	for _, it := range r.items {
		out.Claims = append(out.Claims, it.apiClaim())
	}
	return out
}

// item is one claim chosen for a response, with the slot that explains its standing.
type item struct {
	claim *store.Belief
	slot  *store.Slot
	score float64
	// former marks history: a value that is no longer (or, for as_of, not yet or no longer) current.
	former bool
	// linked marks a claim that contradicts the item before it (contradictions.go): it stays with that item.
	linked bool
	// shown is the claim's sentence as the context writes it when it differs from its text (formermentions.go).
	shown string
}

func (it item) apiClaim() api.Claim {
	c := apiClaim(it.claim)
	c.Score = it.score
	if it.slot != nil {
		c.Conflicts = it.slot.ConflictsOf(it.claim)
	} else {
		c.Conflicts = it.claim.SupersededBy
	}
	for _, id := range it.claim.Contradicts {
		if !contains(c.Conflicts, id) {
			c.Conflicts = append(c.Conflicts, id)
		}
	}
	return c
}

// candidate is a claim id with its fused score and where it came from.
type candidate struct {
	id    string
	score float64
}

// search runs the tri-modal retrieval, fuses it, resolves the slots of the candidates and assembles the
// budgeted result.
func (s *Service) search(ctx context.Context, v store.View, p searchParams) (*searchResult, error) {
	res := &searchResult{}
	tq := time.Now()
	leave, err := s.inflight.enter(ctx)
	if err != nil {
		return nil, err
	}
	defer leave()
	res.queueDur = time.Since(tq)
	var qvec []float32
	dim, derr := s.denseDimension(ctx)
	if derr == nil {
		t0 := time.Now()
		vecs, err := s.embedder.Embed(ctx, []string{p.query})
		res.embedDur = time.Since(t0)
		if err != nil {
			// Dense retrieval is one of three modes; without it the others still answer.
			s.log.WarnContext(ctx, "query embedding failed; searching without dense retrieval", "err", err)
		} else if len(vecs) == 1 && len(vecs[0]) == dim {
			qvec = vecs[0]
		}
	}
	t0 := time.Now()
	p.qvec, p.dim = qvec, dim
	cands, refs, tm, err := s.retrieve(ctx, v, p.query, p.toks, qvec, dim)
	if err != nil {
		return nil, err
	}
	res.retrieveDur = time.Since(t0)
	res.first, res.second = tm.first, tm.second
	t1 := time.Now()
	items, err := s.assemble(ctx, v, p, cands, refs)
	if err != nil {
		return nil, err
	}
	res.assembleDur = time.Since(t1)
	res.items, res.context, res.contextTokens = s.budget(items, p.k, p.budget)
	return res, nil
}

// retrieve returns fused candidates (best first) from the three modes, in up to three round trips to Postgres
// inside one read-only transaction. The first batch runs the dense query, the precise lexical query (every
// term) and the entity lookup; the second fetches the mentioned subjects' claims (and the exact dense query, in
// the rare case that the signs-first one found too few visible claims) and, when the question names a known
// subject or the precise lexical query found too little, counts how common the words outside the names are;
// the third is then the bounded any-term lexical query. The transaction's settings (searchSettingsSQL) plan
// every statement for its workspace and tune the HNSW scan.
func (s *Service) retrieve(ctx context.Context, v store.View, query string, toks []qtok, qvec []float32, dim int) ([]candidate, map[string]slotRef, *timing, error) {
	tm := &timing{}
	n := s.cfg.Candidates
	keys, spans := ngramKeys(query)
	terms := lexicalTerms(query)

	t0 := time.Now()
	// Asked before the transaction takes its connection: covers may read the indexes through the pool, and a
	// search holding one connection while it waits for another deadlocks once as many searches as the pool
	// has connections do so at once.
	indexed := qvec != nil && s.denseIndexes.covers(ctx, s, v.Workspace)
	tx, err := s.db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, nil, tm, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()

	var denseIDs, lexicalIDs []string
	var refs map[string]slotRef
	var known map[string][]string
	// denseShort is set when the signs-first dense query's cut left fewer than n visible claims of a workspace
	// holding more vectors than the cut: the second round trip then sorts every visible claim exactly.
	denseShort := false
	var denseArgs pgx.NamedArgs
	b1 := &pgx.Batch{}
	// The names first, before the settings: a key is looked up by the same plan whatever the workspace's size,
	// so this statement may keep a cached generic plan rather than be planned again on every search.
	if len(keys) > 0 {
		sql, a := store.KnownSubjectsSQL(v, keys)
		b1.Queue(sql, a).Query(func(rows pgx.Rows) error {
			k, err := store.ScanKnownSubjects(rows)
			known = k
			return err
		})
	}
	b1.Queue(searchSettingsSQL, fmt.Sprint(s.cfg.EfSearch)).Exec(func(pgconn.CommandTag) error { return nil })
	if qvec != nil {
		denseArgs = v.Args()
		denseArgs["qvec"] = vectorLiteral(qvec)
		denseArgs["n"] = n
		if indexed {
			b1.Queue(denseEnterSQL).Exec(func(pgconn.CommandTag) error { return nil })
			b1.Queue(denseSQL(v, dim, true), denseArgs).Query(func(rows pgx.Rows) error {
				ids, r, err := scanDense(rows)
				denseIDs, refs = ids, r
				return err
			})
			b1.Queue(denseExitSQL).Exec(func(pgconn.CommandTag) error { return nil })
		} else {
			// Searched by its vectors' signs first; the cut's size makes the recall (store.DenseBySignsSQL).
			cut := store.SignsCutFactor * n
			a := maps.Clone(denseArgs)
			a["cut"] = cut
			b1.Queue(store.DenseBySignsSQL(v), a).Query(func(rows pgx.Rows) error {
				ids, scanned, err := scanBySigns(rows)
				denseIDs = ids
				denseShort = len(ids) < n && (len(ids) == 0 || scanned >= cut)
				return err
			})
		}
	}
	if len(terms) > 0 {
		b1.Queue(lexicalSQL(v), lexicalArgs(v, strings.Join(terms, " "), n)).Query(func(rows pgx.Rows) error {
			ids, err := scanIDs(rows)
			lexicalIDs = ids
			return err
		})
	}
	if b1.Len() > 0 {
		if err := tx.SendBatch(ctx, b1).Close(); err != nil {
			return nil, nil, tm, err
		}
	}
	tm.first = time.Since(t0)

	// Second round trip: the mentioned subjects' claims, and how common the words the any-term scan may read are.
	t1 := time.Now()
	ms := mentionsOf(keys, spans, known)
	var subjects []string
	for _, m := range ms {
		subjects = append(subjects, m.subjects...)
	}
	var subjRows []store.Belief
	b2 := &pgx.Batch{}
	if denseShort {
		b2.Queue(denseSQL(v, dim, false), denseArgs).Query(func(rows pgx.Rows) error {
			ids, r, err := scanDense(rows)
			denseIDs, refs = ids, r
			return err
		})
	}
	if len(subjects) > 0 {
		// Only ranked here (rankSubjectClaims); the claims kept are read in full with their slots (assemble).
		sql, a := store.BareClaimsBySubjectsSQL(v, dedupe(subjects), subjectClaimsLimit)
		b2.Queue(sql, a).Query(func(rows pgx.Rows) error {
			r, err := store.CollectBeliefs(rows)
			subjRows = r
			return err
		})
	}
	// Any-term matching is the low-precision fallback: only when every-term matching found little and no
	// entity of the query is known (then names carry the query), and bounded.
	anyTerms := terms
	if len(ms) > 0 {
		// The mentioned names are the subject mode's; what else the question says is what ranks the
		// subject's claims lexically (a name shared by most claims of a workspace would rank nothing).
		anyTerms = lexicalTermsOutside(query, ms)
	}
	// A question of names only leaves no word to scan (anyTerms is empty).
	runAny := len(anyTerms) > 0 && (len(ms) > 0 || len(terms) > 1 && len(lexicalIDs) < n/2)
	var matches map[string]int
	if runAny {
		// How common each word is in the workspace decides which words the any-term scan reads
		// workspace-wide (selectiveTerms). Probing only these words, not the names, is what a third round trip
		// buys: a name is often as common as any word in a workspace about a few people.
		b2.Queue(termMatchesSQL(len(anyTerms)), termMatchesArgs(v, anyTerms)).Query(func(rows pgx.Rows) error {
			m, err := scanTermMatches(rows, anyTerms)
			matches = m
			return err
		})
	}
	if b2.Len() > 0 {
		if err := tx.SendBatch(ctx, b2).Close(); err != nil {
			return nil, nil, tm, err
		}
	}
	// Third round trip, when needed: the any-term scan.
	var anyIDs []string
	if runAny {
		wide := selectiveTerms(anyTerms, matches)
		if sql, ok := anyTermSQL(v, len(wide) > 0, len(subjects) > 0); ok {
			a := lexicalArgs(v, strings.Join(anyTerms, " or "), n)
			a["terms"] = anyTerms
			a["wide"] = strings.Join(wide, " or ")
			a["subjects"] = dedupe(subjects)
			rows, err := tx.Query(ctx, sql, a)
			if err != nil {
				return nil, nil, tm, err
			}
			if anyIDs, err = scanIDs(rows); err != nil {
				return nil, nil, tm, err
			}
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, nil, tm, err
	}
	tm.second = time.Since(t1)
	// Precise matches rank before any-term matches in the lexical list.
	for _, id := range anyIDs {
		if !contains(lexicalIDs, id) {
			lexicalIDs = append(lexicalIDs, id)
		}
	}
	if toks == nil && len(subjRows) > 0 {
		toks = analyzeQuestion(query)
	}
	subjectIDs := rankSubjectClaims(toks, ms, subjRows, n)
	return fuse(s.cfg.RRFK, denseIDs, lexicalIDs, subjectIDs), refs, tm, nil
}

// searchSettingsSQL sets, for the search's read-only transaction ($1: hnsw.ef_search):
//
//   - plan_cache_mode = force_custom_plan: every statement is planned for its workspace. pgx prepares each
//     statement once per connection, and after five executions Postgres may switch a prepared statement to a
//     generic plan, made without the workspace value. For the dense query that plan cannot use a workspace's
//     own HNSW index (a partial index serves only a plan that knows the workspace: pkg/store/dense.go) and
//     sorts the whole workspace exactly, seconds in a large one (issue 15). The cost is planning each search's
//     few statements again: about 4 ms of Postgres time a search under loadbench's mix, most of it the
//     lexical statements' (docs/benchmarks.md, "What planning a search's statements costs"). It is set here, per transaction, rather than on every
//     connection: the reconciler's writes have one best plan whatever the workspace and keep their cached ones.
//   - hnsw.iterative_scan = relaxed_order: the index scan goes on until the visibility and time filters have
//     passed enough rows, so filters never starve the result.
//   - jit = off: a search's statements run in milliseconds, and compiling them never pays. Postgres compiles a
//     plan whose estimated cost passes jit_above_cost, and a plan whose sort denseEnterSQL disabled carries
//     the planner's 10^10 penalty: the 200-claim workspace's exact search took 2 s, almost all of it JIT
//     compilation and inlining (searchbench -tenants, loaded machine).
const searchSettingsSQL = `SELECT set_config('plan_cache_mode', 'force_custom_plan', true),
	set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true),
	set_config('jit', 'off', true)`

// denseEnterSQL and denseExitSQL surround the dense query: a workspace's own HNSW index, when it has one, is
// scanned rather than the workspace sorted exactly. The planner cannot tell which is cheaper: it restricts both
// claim_vectors and claims to the workspace and, not knowing that a claim's vector is in the claim's
// workspace, multiplies the two selectivities — it expected a dozen rows from a 1,000-claim workspace beside
// 85,000 others, and sorted them all exactly in 115 ms where the index took 15 (searchbench -tenants, loaded
// machine). The estimate only worsens as the table grows. With sorting disabled, a sort is still chosen where
// nothing else can order the rows: a small workspace without an index of its own.
const (
	denseEnterSQL = `SELECT set_config('enable_sort', 'off', true)`
	denseExitSQL  = `SET LOCAL enable_sort TO DEFAULT`
)

// denseSQL is the dense query: the @n claims nearest @qvec among those the view selects — by the workspace's own
// HNSW index when indexed (the statement orders by the indexed expression), else exactly by the full-precision
// vectors (pkg/store/dense.go). It restricts claim_vectors itself to the workspace, which is what proves a
// workspace index's predicate. Each row carries the claim's subject and slot keys and whether it is
// single-valued (slotRef).
//
// Indexed, for a view of the present (no as_of, no known_at), the nearest claims the agent may see are taken
// whatever their belief status, and a claim no longer believed — a value its slot has since replaced — stands for
// its slot (assemble). Checking each vector's belief version in the scan cost more than the index itself where
// values change often: nine in ten of the vectors nearest a question about a person's job were that person's
// superseded jobs, each read from claim_versions and dropped, and the index scan went on until 40 current ones
// were found (7.4 against 2.9 ms at 58,000 claims, loadbench). A view of another time selects its beliefs in
// the scan, since what it may not see includes claims recorded later.
func denseSQL(v store.View, dim int, indexed bool) string {
	expr := store.ExactDenseExpr("cv")
	if indexed {
		expr = store.DenseIndexExpr("cv", dim)
	}
	versions := `JOIN claim_versions v ON v.claim_id = cv.claim_id AND ` + v.Belief()
	where := v.Where()
	if indexed && v.AsOf == nil && v.KnownAt == nil {
		versions, where = "", v.Visible()
	}
	// The distance orders the rows and is not selected: for the index scan, selecting it computed it again
	// for every row, reading each row's full-precision vector back from TOAST (the ordering is all the caller
	// uses).
	return `SELECT c.id::text, c.subject_key, c.slot_key, c.functional
		FROM claim_vectors cv
		JOIN claims c ON c.id = cv.claim_id
		` + versions + `
		WHERE cv.workspace_id = @ws AND ` + where + `
		ORDER BY ` + expr + ` <=> @qvec::vector
		LIMIT @n`
}

// slotRef is the slot a dense candidate belongs to.
type slotRef struct {
	subjectKey, slotKey string
	functional          bool
}

// scanDense reads denseSQL's rows: the claim ids, nearest first, and each one's slot.
func scanDense(rows pgx.Rows) ([]string, map[string]slotRef, error) {
	defer rows.Close()
	var ids []string
	refs := map[string]slotRef{}
	for rows.Next() {
		var id string
		var r slotRef
		if err := rows.Scan(&id, &r.subjectKey, &r.slotKey, &r.functional); err != nil {
			return nil, nil, err
		}
		ids = append(ids, id)
		refs[id] = r
	}
	return ids, refs, rows.Err()
}

// lexicalScanCap bounds the rows an any-term full-text query ranks: common words match a large share of a big
// workspace, and ranking all of them would make the query unbounded. 300 leaves LoCoMo's evidence recall where
// 1,000 had it (a conversation's matches fit) and keeps the query at a few milliseconds of Postgres CPU in a
// million-claim workspace (1,000 cost about 16 ms there, most of a search's time).
const lexicalScanCap = 300

// lexicalSQL is the every-term full-text query over claims c (websearch AND), ranked by cover density.
func lexicalSQL(v store.View) string {
	return `SELECT c.id::text, ts_rank_cd(c.tsv, q) AS rank
		FROM websearch_to_tsquery('english', @lex) AS q, claims c
		JOIN claim_versions v ON v.claim_id = c.id AND ` + v.Belief() + `
		WHERE c.workspace_id = @ws AND c.tsv @@ q AND ` + v.Where() + `
		ORDER BY rank DESC, c.id
		LIMIT @n`
}

// anyTermSQL is the any-term full-text query: claims matching at least one term — anywhere in the workspace
// for the selective terms (wide; see selectiveTerms), and among the mentioned subjects' claims for every term
// (bySubject) — at most lexicalScanCap of each, ranked by the summed inverse document frequency of the terms
// each matches, the frequencies counted over the matched claims. Postgres' own ranking has no IDF, so a
// question's common words ("like", "feel", "time") would outweigh the one rare word it is about. ok is false
// when there is nothing to scan.
func anyTermSQL(v store.View, wide, bySubject bool) (sql string, ok bool) {
	// The cap keeps the matches that hold the most of the question's terms (cover density), not the first the
	// index returns: a conversation's common words ("draft", "essay", "word") match more claims than the cap,
	// and an arbitrary 300 of them left out the one claim that holds them all.
	scan := func(cond, q string) string {
		return `(SELECT c.id, c.tsv FROM claims c
			JOIN claim_versions v ON v.claim_id = c.id AND ` + v.Belief() + `
			WHERE c.workspace_id = @ws AND ` + cond + ` AND c.tsv @@ websearch_to_tsquery('english', ` + q + `) AND ` + v.Where() + `
			ORDER BY ts_rank_cd(c.tsv, websearch_to_tsquery('english', ` + q + `)) DESC, c.id
			LIMIT ` + fmt.Sprint(lexicalScanCap) + `)`
	}
	var scans []string
	if wide {
		scans = append(scans, scan(`true`, `@wide`))
	}
	if bySubject {
		scans = append(scans, scan(`c.subject_key = ANY(@subjects::text[])`, `@lex`))
	}
	if len(scans) == 0 {
		return "", false
	}
	// The scans carry each match's tsv: joining the matched ids back to claims had the planner hash the whole
	// claims table on every search. total is materialized: inlined, the planner counted m again for every row
	// it ranked (300 × 300 rows). The frequencies are float8 arithmetic, not numeric. With a wide scan of a word
	// 800 of a 14k-claim workspace's claims hold, the statement went from 20 to 6.5 ms.
	return `WITH t AS MATERIALIZED (
			SELECT term, plainto_tsquery('english', term) AS q FROM unnest(@terms::text[]) AS term
		), m AS MATERIALIZED (
			SELECT DISTINCT ON (id) id, tsv FROM (` + strings.Join(scans, " UNION ALL ") + `) AS s ORDER BY id
		), df AS (
			SELECT t.q, count(m.id)::float8 AS df FROM t JOIN m ON m.tsv @@ t.q GROUP BY t.q
		), total AS MATERIALIZED (SELECT count(*)::float8 AS n FROM m)
		SELECT m.id::text, sum(ln(1 + (total.n - df.df + 0.5) / (df.df + 0.5))) AS rank
		FROM m JOIN df ON m.tsv @@ df.q, total
		GROUP BY m.id
		ORDER BY rank DESC, m.id
		LIMIT @n`, true
}

func lexicalArgs(v store.View, lex string, n int) pgx.NamedArgs {
	a := v.Args()
	a["lex"] = lex
	a["n"] = n
	return a
}

func scanIDs(rows pgx.Rows) ([]string, error) {
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		var score float64
		if err := rows.Scan(&id, &score); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// scanBySigns reads store.DenseBySignsSQL's rows: the claim ids, and how many vectors its cut held.
func scanBySigns(rows pgx.Rows) (ids []string, scanned int, err error) {
	defer rows.Close()
	for rows.Next() {
		var id string
		var dist float64
		if err := rows.Scan(&id, &dist, &scanned); err != nil {
			return nil, 0, err
		}
		ids = append(ids, id)
	}
	return ids, scanned, rows.Err()
}

// mentionsOf turns known n-gram keys into mentions: longest first, overlapping shorter ones dropped
// ("United States of America" over "America").
func mentionsOf(keys []string, spans map[string][2]int, known map[string][]string) []mention {
	var ms []mention
	for _, k := range keys {
		subj, ok := known[k]
		if !ok {
			continue
		}
		sp := spans[k]
		overlap := false
		for _, m := range ms {
			if sp[0] < m.to && m.from < sp[1] {
				overlap = true
				break
			}
		}
		if !overlap {
			sort.Strings(subj)
			ms = append(ms, mention{from: sp[0], to: sp[1], key: k, subjects: dedupe(subj)})
		}
		if len(ms) == maxMentions {
			break
		}
	}
	return ms
}

// rankSubjectClaims is the third mode: the claims of the mentioned subjects whose relation is one the
// question asks about (its relation units, read from each mention: question.go), ranked by how well they
// match, then newest first. toks is the question as analyzeQuestion reads it.
func rankSubjectClaims(toks []qtok, ms []mention, rows []store.Belief, n int) []string {
	type scored struct {
		score float64
		row   *store.Belief
	}
	parses := make([]*questionParse, len(ms))
	for i := range ms {
		parses[i] = readQuestion(toks, &ms[i])
	}
	var out []scored
	for i := range rows {
		r := &rows[i]
		rel := relationOf(r)
		best, bestPred := 0.0, 0.0
		for j, m := range ms {
			if !contains(m.subjects, r.SubjectKey) {
				continue
			}
			for k := range parses[j].units {
				sc, pred := unitScore(&parses[j].units[k], rel, false, parses[j].loose)
				if pred > bestPred {
					bestPred = pred
				}
				best = max(best, sc)
			}
		}
		if bestPred < minPredMatch {
			// The claim's predicate is not the question's relation: the subject's other claims are what the
			// dense and lexical modes rank. Listing them here (by sentence words, or newest first) would push
			// every claim about a busy subject — a conversation's speaker — ahead of the ones the question is
			// about (LoCoMo evidence recall at 500 tokens: 54% with them, 73% without).
			continue
		}
		out = append(out, scored{score: best, row: r})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return store.Newer(out[i].row, out[j].row)
	})
	ids := make([]string, 0, min(n, len(out)))
	for _, o := range out {
		if len(ids) == n {
			break
		}
		ids = append(ids, o.row.ID)
	}
	return ids
}

// minPredMatch is the match of a claim's own relation (key or predicate lemmas) with a question's relation
// at which the subject mode lists it.
const minPredMatch = 0.4

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// fuse combines ranked lists by reciprocal-rank fusion: score(c) = Σ 1/(k + rank), rank from 1. Ties break by
// id so the order is deterministic.
func fuse(k int, lists ...[]string) []candidate {
	score := map[string]float64{}
	for _, l := range lists {
		for i, id := range l {
			score[id] += 1 / float64(k+i+1)
		}
	}
	out := make([]candidate, 0, len(score))
	for id, sc := range score {
		out = append(out, candidate{id: id, score: sc})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return out[i].id < out[j].id
	})
	return out
}

// assemble hydrates the candidates and resolves their slots: each candidate stands for its slot, whose
// current value is what the caller sees (a stale or overridden candidate brings the current value instead),
// with both sides of a dispute and, when history is asked for, the superseded values before it.
func (s *Service) assemble(ctx context.Context, v store.View, p searchParams, cands []candidate, refs map[string]slotRef) ([]item, error) {
	// Enough candidates for k slots after collapsing several candidates of one slot; bounded.
	limit := min(len(cands), max(3*p.k, p.k+20), 400)
	cands = cands[:limit]
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	// Every believed claim of the candidates' slots, so resolution sees the whole slot (history only when
	// asked); the candidates themselves are among them.
	sv := v
	sv.History = p.history
	all, err := store.SlotClaimsOf(ctx, s.db, sv, ids)
	if err != nil {
		return nil, err
	}
	byID := map[string]*store.Belief{}
	for i := range all {
		byID[all[i].ID] = &all[i]
	}
	slots := map[[2]string]*store.Slot{}
	groups := store.GroupSlots(all, sv)
	for _, sl := range groups {
		slots[store.SlotID(sl.SubjectKey, sl.SlotKey)] = sl
	}
	// A value a later statement of its subject ended ("we lost Biscuit") is history, not current (endings.go).
	endings, err := s.endingsOf(ctx, v, groups)
	if err != nil {
		return nil, err
	}
	ended := endValues(groups, endings)
	if err := replaceEnded(ctx, groups, ended, endings, embedAlike(s.embedOne)); err != nil {
		return nil, err
	}
	transferSchools(groups, endings)
	jobTowns(groups)
	// An event's date a later statement moved ("the wedding has been pushed back to …") is the moved one.
	if since, keys, heads := reschedulable(groups); len(since) > 0 {
		moves, err := store.ClaimsByPredicateHead(ctx, s.db, v, since, heads, keys, maxEndingRows)
		if err != nil {
			return nil, err
		}
		for id, by := range rescheduleEvents(groups, movesAmong(moves), true) {
			if ended == nil {
				ended = map[string]*store.Belief{}
			}
			ended[id] = by
		}
	}
	// A spouse who has since married someone else is no longer the spouse (converses.go).
	if err := s.conversesOf(ctx, v, groups); err != nil {
		return nil, err
	}
	var items []item
	emitted := map[string]bool{}
	emit := func(c *store.Belief, sl *store.Slot, score float64, former bool) {
		if emitted[c.ID] {
			return
		}
		emitted[c.ID] = true
		items = append(items, item{claim: c, slot: sl, score: score, former: former})
	}
	done := map[*store.Slot]bool{}
	for _, cand := range cands {
		r := byID[cand.id]
		if r == nil {
			// A dense candidate the view does not believe (denseSQL): a value of a single-valued slot that
			// was replaced stands for the slot's current value, as a stale candidate of a slot does below.
			ref, ok := refs[cand.id]
			if !ok || !ref.functional {
				continue
			}
			sl := slots[store.SlotID(ref.subjectKey, ref.slotKey)]
			if sl == nil || done[sl] {
				continue
			}
			done[sl] = true
			for _, w := range sl.Winners {
				emit(w, sl, cand.score, false)
			}
			continue
		}
		sl := slots[store.SlotID(r.SubjectKey, r.SlotKey)]
		if r.Status == store.StatusQuarantined {
			// Asked for: the quarantined claim itself, flagged; it stands for nothing else in its slot.
			emit(r, sl, cand.score, false)
			continue
		}
		if sl == nil || done[sl] {
			continue
		}
		if !r.Functional && !sl.Disputed {
			// An accumulating slot has many current values (everything a speaker said, every hobby): the
			// candidate stands for itself — or, when a restatement superseded it, for the current claim with
			// the same object — never for the whole slot, which would flood the context with the slot's newest
			// values whatever the question asked.
			if w := sameObjectWinner(sl, r); w != nil {
				emit(w, sl, cand.score, false)
			} else if p.history {
				emit(r, sl, cand.score, true)
			}
			continue
		}
		done[sl] = true
		for _, w := range sl.Winners {
			emit(w, sl, cand.score, false)
		}
		if p.history {
			// Older values, newest first, after the current one.
			var old []*store.Belief
			for _, c := range sl.Claims {
				if !emitted[c.ID] && !contains(idsOf(sl.Winners), c.ID) && !contains(idsOf(sl.Overridden), c.ID) {
					old = append(old, c)
				}
			}
			sort.SliceStable(old, func(i, j int) bool { return store.Newer(old[i], old[j]) })
			for _, c := range old {
				emit(c, sl, cand.score, true)
			}
		}
	}
	items, err = s.withContradictions(ctx, v, p, dropRestatements(items), cands)
	if err != nil {
		return nil, err
	}
	if items, err = s.withChanges(ctx, v, p, items, byID); err != nil {
		return nil, err
	}
	if items, err = s.withUpdates(ctx, v, p, items); err != nil {
		return nil, err
	}
	var endedValues []replacedValue
	for id, by := range ended {
		if c := byID[id]; c != nil {
			endedValues = append(endedValues, replacedValueOf(c, by.ValidFrom))
		}
	}
	return s.withFormerMentions(ctx, v, p, items, endedValues)
}

// dropRestatements drops a current claim that restates one ranked before it from the same statement (the same
// writer, valid time and sequence: one turn) in nearly the same words — a turn's sentence and the claim read
// from it ("User is kinda worried that user only secured 3 interviews …" beside "User only secured 3
// interviews …"). The reader learns nothing from the second and pays for it in tokens.
func dropRestatements(items []item) []item {
	type seen struct {
		c     *store.Belief
		words map[string]bool
	}
	var kept []seen
	out := items[:0:0]
	for _, it := range items {
		c := it.claim
		if it.former || it.linked || c.Status != "active" || len(c.Contradicts) > 0 {
			out = append(out, it)
			continue
		}
		ws := contentWordSet(c.Text)
		dup := false
		for _, k := range kept {
			if k.c.Owner == c.Owner && k.c.ValidFrom.Equal(c.ValidFrom) && sameSequence(k.c, c) && nearlyContains(k.words, ws) {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		kept = append(kept, seen{c, ws})
		out = append(out, it)
	}
	return out
}

func sameSequence(a, b *store.Belief) bool {
	return (a.Sequence == nil) == (b.Sequence == nil) && (a.Sequence == nil || *a.Sequence == *b.Sequence)
}

// restatementShare is the share of the shorter text's content words the longer must hold for the two to be
// one statement said twice.
const restatementShare = 0.8

// nearlyContains reports whether one word set holds nearly all of the other (the smaller).
func nearlyContains(a, b map[string]bool) bool {
	small, large := a, b
	if len(b) < len(a) {
		small, large = b, a
	}
	if len(small) == 0 {
		return false
	}
	n := 0
	for w := range small {
		if large[w] {
			n++
		}
	}
	return float64(n) >= restatementShare*float64(len(small))
}

// contentWordSet returns the lower-case content words of a text.
func contentWordSet(text string) map[string]bool {
	out := map[string]bool{}
	for _, w := range splitWords(text) {
		if !stopwords[w] {
			out[w] = true
		}
	}
	return out
}

func idsOf(cs []*store.Belief) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// budget cuts the ranked items adaptively — at most k slots' worth, stopping at a fused-score gap after
// MinK items, and never beyond the token budget — and renders the context. Items travel in groups: a slot's
// current value with its history, a disputed slot's sides, a claim with the claims linked to it as
// contradicting it. A group whose first line does not fit is passed over and smaller groups after it still
// fill the budget (one long sentence must not end a context at a fifth of its budget); a group is shown whole
// or cut only at its history — a disputed side or a contradiction is never shown without its counterpart.
//
// The context says once what many lines would repeat: the lines stand under headings of the date their
// group's first claim holds from (dates in the order of their most relevant line, lines in rank order under
// each), and the attribution most candidates share is in the header. A line by one agent on a workspace it
// alone writes, with its date and writer, is about 28 tokens, of which 18 were the date and the writer; said
// once per date and once per context, they leave room for about half as many claims again at the same budget.
func (s *Service) budget(items []item, k, budget int) ([]item, string, int) {
	var out []item
	common := commonWriter(items)
	header := "Memory, under the date each fact holds from, most relevant first (current facts unless marked):"
	if common != "" {
		header = "Memory, under the date each fact holds from, most relevant first (current facts unless marked; " + common + " unless a line names its writer):"
	}
	used := s.tok.Count(header)
	// The lines go under date headings (dated); a date's heading is paid for by the first line under it.
	dated := map[string][]string{}
	var dates []string
	headingCost := func(date string) int {
		if _, ok := dated[date]; ok {
			return 0
		}
		return s.tok.Count("\n" + date + ":")
	}
	place := func(date string, ls ...string) {
		if _, ok := dated[date]; !ok {
			dates = append(dates, date)
		}
		dated[date] = append(dated[date], ls...)
	}
	prevScore := 0.0
	slotsTaken := 0
	truncated := false
	var lastSlot *store.Slot
	for start := 0; start < len(items); {
		first := start == 0
		end := start + 1
		for end < len(items) && travelsWith(items[end], items[start]) {
			end++
		}
		group := items[start:end]
		start = end
		newSlot := group[0].slot != lastSlot || group[0].slot == nil
		if newSlot {
			if slotsTaken >= k {
				break
			}
			if s.cfg.ScoreGap > 0 && len(out) >= s.cfg.MinK && prevScore > 0 && group[0].score < s.cfg.ScoreGap*prevScore {
				break
			}
		}
		// A group goes under its head's date: the head and every current line of that date need no date of
		// their own; history and other dates say theirs on the line.
		date := fmtTime(group[0].claim.ValidFrom)
		var gl []string
		var gi []item
		gused := headingCost(date)
		headTooLong := false
		for i, it := range group {
			line := renderLine(it, common, date)
			n := s.tok.Count("\n" + line)
			if used+gused+n > budget {
				headTooLong = i == 0
				if len(gi) > 0 && (it.linked || (it.slot != nil && it.slot.Disputed && !it.former)) {
					// A side of a dispute or a contradiction without its counterpart would mislead.
					gl, gi, gused = nil, nil, 0
				}
				break
			}
			gl = append(gl, line)
			gi = append(gi, it)
			gused += n
		}
		if len(gi) == 0 {
			if first && headTooLong {
				// Even the best claim does not fit: give a truncated line rather than nothing.
				heading := headingCost(date)
				line := s.tok.Truncate(renderLine(group[0], common, date), max(0, budget-used-heading-1))
				if line != "" {
					truncated = true
					place(date, line)
					out = append(out, group[0])
					used += heading + s.tok.Count("\n"+line)
				}
				break
			}
			continue
		}
		place(date, gl...)
		out = append(out, gi...)
		used += gused
		if newSlot {
			slotsTaken++
			lastSlot = gi[0].slot
		}
		prevScore = gi[len(gi)-1].score
	}
	if len(out) == 0 {
		return nil, "", 0
	}
	var b strings.Builder
	b.WriteString(header)
	for _, d := range dates {
		b.WriteString("\n" + d + ":")
		for _, l := range dated[d] {
			b.WriteString("\n" + l)
		}
	}
	ctx := b.String()
	n := s.tok.Count(ctx)
	if !truncated {
		// A context of a few lines with a date and a writer each (an answer's one claim) is shorter without
		// the headings: the same claims in whichever layout costs fewer tokens.
		flat := []string{"Memory, most relevant first (current facts unless marked):"}
		for _, it := range out {
			flat = append(flat, renderLine(it, "", ""))
		}
		fctx := strings.Join(flat, "\n")
		if fn := s.tok.Count(fctx); fn < n {
			return out, fctx, fn
		}
	}
	return out, ctx, n
}

// travelsWith reports whether it belongs to the group head starts: a claim linked to the head as contradicting
// it, the head's slot's history, the other side of its dispute, another current value of its functional slot.
// Separate statements of one accumulating slot (everything a speaker said) are groups of their own.
func travelsWith(it, head item) bool {
	if it.linked {
		return true
	}
	if it.slot == nil || it.slot != head.slot {
		return false
	}
	return it.former || it.slot.Disputed || it.claim.Functional
}

// commonWriter returns the attribution ("by planner, shared") most of the candidate claims share, for the
// context's header to state once instead of on every line, or "" when no two share one. On a workspace one
// agent writes the attribution is a third of a typical line's tokens; stated once, it leaves room for more
// claims at the same budget without hiding who wrote what: a line by anyone else names its writer. Ties go to
// the attribution that reached the count first in rank order, so the choice is deterministic.
func commonWriter(items []item) string {
	counts := map[string]int{}
	best, bestN := "", 1
	for _, it := range items {
		if it.claim.Status == store.StatusQuarantined {
			// A quarantined line always names its writer (renderLine): it is shown for review.
			continue
		}
		w := writerOf(it.claim)
		counts[w]++
		if counts[w] > bestN {
			best, bestN = w, counts[w]
		}
	}
	return best
}

// renderLine writes one claim for a reader: its standing when it is not simply current, its sentence, and in
// parentheses what the context does not already say — its valid time unless it is simply current since the
// date heading it is under, who wrote it in which tier unless that is the common attribution the header
// states, and its corroboration. The sentence is neutralized (promptguard.Neutralize): it cannot break the
// line, carry a chat-template token or write a marker — markers are the bracketed words at the start of a
// line, a syntax content is never rendered in, so a reader can trust them — and content that imitates an
// attribution is quarantined (promptguard.Screen), so a line without one cannot borrow another agent's name.
func renderLine(it item, common, date string) string {
	c := it.claim
	var b strings.Builder
	b.WriteString("- ")
	switch {
	case c.Status == store.StatusQuarantined:
		// Only when the request asked for quarantined claims: content flagged as instructions to a model.
		b.WriteString("[QUARANTINED] ")
	case it.former:
		b.WriteString("[FORMER] ")
	case it.slot != nil && it.slot.Disputed:
		b.WriteString("[DISPUTED] ")
	}
	if len(c.Contradicts) > 0 {
		// A claim and a claim that contradicts it (one says never, the other says it happened): which is right
		// is for the user to say.
		b.WriteString("[CONFLICTING] ")
	}
	text := c.Text
	if it.shown != "" {
		text = it.shown
	}
	b.WriteString(promptguard.Neutralize(text))
	var notes []string
	switch span := interval(c, it.former); {
	case date == "" && !it.former && c.ValidTo == nil:
		// A line of its own (flat layout): its date says since when it holds.
		notes = append(notes, "since "+span)
	case span != date:
		notes = append(notes, span)
	}
	if w := writerOf(c); w != common || c.Status == store.StatusQuarantined {
		notes = append(notes, w)
	}
	if c.Corroborations >= store.CorroboratedAt {
		// Independent agents said the same: a reader may weigh it above a claim only its writer holds.
		notes = append(notes, "corroborated by "+strconv.Itoa(c.Corroborations)+" agents")
	}
	if len(notes) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(notes, "; "))
		b.WriteString(")")
	}
	return b.String()
}

// writerOf names the agent that wrote a claim and its tier ("by planner, shared").
func writerOf(c *store.Belief) string {
	return promptguard.Attribution(c.Owner, c.Scope)
}

// interval renders a claim's valid time compactly.
func interval(c *store.Belief, former bool) string {
	from := fmtTime(c.ValidFrom)
	if c.ValidTo != nil {
		return from + " to " + fmtTime(*c.ValidTo)
	}
	if former {
		return "from " + from
	}
	// A current fact's date alone: the context's header says a date is since when a fact holds, which spares
	// every line the word.
	return from
}

// fmtTime renders a valid time as its date: the clock time costs a reader four tokens a line and rarely
// matters; the order of values within a day is already resolved (current vs. [FORMER]).
func fmtTime(t time.Time) string {
	return t.UTC().Format("2006-01-02")
}

// sameObjectWinner returns the current value of sl that r stands for: r itself when it is current, else the
// current claim with r's object (its restatement), else nil.
func sameObjectWinner(sl *store.Slot, r *store.Belief) *store.Belief {
	for _, w := range sl.Winners {
		if w.ID == r.ID {
			return w
		}
	}
	for _, w := range sl.Winners {
		if w.ObjectKey == r.ObjectKey {
			return w
		}
	}
	return nil
}
