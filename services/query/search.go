package query

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/api"
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
}

// searchParams is a validated search.
type searchParams struct {
	query   string
	k       int
	budget  int
	history bool
}

func (s *Service) handleSearch(w http.ResponseWriter, r *request) error {
	var b searchBody
	if err := s.decodeBody(w, r, &b); err != nil {
		return err
	}
	if err := s.checkText("query", b.Query); err != nil {
		return err
	}
	k := b.K
	switch {
	case k == 0:
		k = s.cfg.DefaultK
	case k < 0:
		return outOfRange("k", s.cfg.MaxK, "k must be positive (or absent for the default %d)", s.cfg.DefaultK)
	case k > s.cfg.MaxK:
		return outOfRange("k", s.cfg.MaxK, "k %d exceeds the limit %d (MNEME_QUERY_MAX_K)", k, s.cfg.MaxK)
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
	p := searchParams{query: b.Query, k: k, budget: budget, history: b.IncludeHistory || asksAboutChange(b.Query)}
	v := view{ws: r.ws, agent: r.agent, asOf: asOf, knownAt: knownAt}
	res, err := s.search(r.ctx, v, p)
	if err != nil {
		return err
	}
	api.WriteJSON(w, http.StatusOK, res.response(s.tok.Name()))
	return nil
}

// searchResult is a search before it goes on the wire.
type searchResult struct {
	items         []item
	context       string
	contextTokens int
	embedDur      time.Duration
	retrieveDur   time.Duration
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
	claim *claimRow
	slot  *slot
	score float64
	// former marks history: a value that is no longer (or, for as_of, not yet or no longer) current.
	former bool
}

func (it item) apiClaim() api.Claim {
	c := it.claim.apiClaim()
	c.Score = it.score
	if it.slot != nil {
		c.Conflicts = it.slot.conflictsOf(it.claim)
	} else {
		c.Conflicts = it.claim.SupersededBy
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
func (s *Service) search(ctx context.Context, v view, p searchParams) (*searchResult, error) {
	res := &searchResult{}
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
	cands, err := s.retrieve(ctx, v, p.query, qvec, dim)
	if err != nil {
		return nil, err
	}
	items, err := s.assemble(ctx, v, p, cands)
	if err != nil {
		return nil, err
	}
	res.retrieveDur = time.Since(t0)
	res.items, res.context, res.contextTokens = s.budget(items, p.k, p.budget)
	return res, nil
}

// retrieve returns fused candidates (best first) from the three modes. The dense and lexical queries and the
// subject lookup go to Postgres in one batch, inside one read-only transaction whose settings tune the HNSW
// scan: iterative scanning (relaxed order) keeps the scan going until the visibility and time filters have
// passed enough rows, so filters never starve the result.
func (s *Service) retrieve(ctx context.Context, v view, query string, qvec []float32, dim int) ([]candidate, error) {
	n := s.cfg.Candidates
	keys, spans := ngramKeys(query)
	lex := lexicalQuery(query)

	tx, err := s.db.BeginTx(ctx, pgx.TxOptions{AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, err
	}
	defer func() { _ = tx.Rollback(context.WithoutCancel(ctx)) }()

	batch := &pgx.Batch{}
	dense, lexical := false, false
	if qvec != nil {
		batch.Queue(`SELECT set_config('hnsw.ef_search', $1, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)`, fmt.Sprint(s.cfg.EfSearch))
		a := v.args()
		a["qvec"] = vectorLiteral(qvec)
		a["n"] = n
		expr := fmt.Sprintf("(cv.embedding::vector(%d))", dim)
		dense = true
		batch.Queue(`SELECT c.id::text, `+expr+` <=> @qvec::vector AS dist
			FROM claim_vectors cv
			JOIN claims c ON c.id = cv.claim_id
			JOIN claim_versions v ON v.claim_id = cv.claim_id AND `+v.belief()+`
			WHERE cv.workspace_id = @ws AND `+v.where()+`
			ORDER BY `+expr+` <=> @qvec::vector
			LIMIT @n`, a)
	}
	if lex != "" {
		a := v.args()
		a["lex"] = lex
		a["n"] = n
		lexical = true
		batch.Queue(`SELECT c.id::text, ts_rank_cd(c.tsv, q) AS rank
			FROM websearch_to_tsquery('english', @lex) AS q, claims c
			JOIN claim_versions v ON v.claim_id = c.id AND `+v.belief()+`
			WHERE c.workspace_id = @ws AND c.tsv @@ q AND `+v.where()+`
			ORDER BY rank DESC, c.id
			LIMIT @n`, a)
	}
	var denseIDs, lexicalIDs []string
	if batch.Len() > 0 {
		br := tx.SendBatch(ctx, batch)
		err := func() error {
			if dense {
				if _, err := br.Exec(); err != nil {
					return err
				}
				ids, err := collectIDs(br)
				if err != nil {
					return err
				}
				denseIDs = ids
			}
			if lexical {
				ids, err := collectIDs(br)
				if err != nil {
					return err
				}
				lexicalIDs = ids
			}
			return nil
		}()
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
	}
	subjectIDs, err := subjectCandidates(ctx, tx, v, query, keys, spans, n)
	if err != nil {
		return nil, err
	}
	return fuse(s.cfg.RRFK, denseIDs, lexicalIDs, subjectIDs), nil
}

func collectIDs(br pgx.BatchResults) ([]string, error) {
	rows, err := br.Query()
	if err != nil {
		return nil, err
	}
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

// subjectCandidates is the third mode: entity mentions of the query matched to canonical subjects (and
// aliases), their claims ranked by how well their relation matches the rest of the query.
func subjectCandidates(ctx context.Context, q querier, v view, query string, keys []string, spans map[string][2]int, n int) ([]string, error) {
	known, err := knownSubjects(ctx, q, v, keys)
	if err != nil || len(known) == 0 {
		return nil, err
	}
	// Longest mentions first; overlapping shorter ones are dropped ("United States of America" over "America").
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
			ms = append(ms, mention{from: sp[0], to: sp[1], key: k, subjects: subj})
		}
		if len(ms) == maxMentions {
			break
		}
	}
	var subjects []string
	for _, m := range ms {
		subjects = append(subjects, m.subjects...)
	}
	rows, err := claimsBySubjects(ctx, q, v, dedupe(subjects), subjectClaimsLimit)
	if err != nil {
		return nil, err
	}
	type scored struct {
		id    string
		score float64
		row   *claimRow
	}
	var out []scored
	for i := range rows {
		r := &rows[i]
		best := -1e9
		for _, m := range ms {
			if !contains(m.subjects, r.SubjectKey) {
				continue
			}
			cs := cuesFor(query, m)
			sc, _ := relationMatch(relationWords(r), cs, make([]bool, len(cs)))
			best = max(best, sc)
		}
		out = append(out, scored{id: r.ID, score: best, row: r})
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].score != out[j].score {
			return out[i].score > out[j].score
		}
		return newer(out[i].row, out[j].row)
	})
	ids := make([]string, 0, min(n, len(out)))
	for _, o := range out {
		if len(ids) == n {
			break
		}
		ids = append(ids, o.id)
	}
	return ids, nil
}

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
func (s *Service) assemble(ctx context.Context, v view, p searchParams, cands []candidate) ([]item, error) {
	// Enough candidates for k slots after collapsing several candidates of one slot; bounded.
	limit := min(len(cands), max(3*p.k, p.k+20), 400)
	cands = cands[:limit]
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.id
	}
	rows, err := claimsByID(ctx, s.db, v, ids)
	if err != nil {
		return nil, err
	}
	byID := map[string]*claimRow{}
	var slotKeys [][2]string
	seenSlot := map[[2]string]bool{}
	for i := range rows {
		r := &rows[i]
		byID[r.ID] = r
		id := slotID(r.SubjectKey, r.SlotKey)
		if !seenSlot[id] {
			seenSlot[id] = true
			slotKeys = append(slotKeys, id)
		}
	}
	// Every believed claim of those slots, so resolution sees the whole slot (history only when asked).
	sv := v
	sv.history = p.history
	all, err := slotClaims(ctx, s.db, sv, slotKeys)
	if err != nil {
		return nil, err
	}
	slots := map[[2]string]*slot{}
	for _, sl := range groupSlots(all, v.agent, sv) {
		slots[slotID(sl.subjectKey, sl.slotKey)] = sl
	}
	var items []item
	emitted := map[string]bool{}
	emit := func(c *claimRow, sl *slot, score float64, former bool) {
		if emitted[c.ID] {
			return
		}
		emitted[c.ID] = true
		items = append(items, item{claim: c, slot: sl, score: score, former: former})
	}
	done := map[*slot]bool{}
	for _, cand := range cands {
		r := byID[cand.id]
		if r == nil {
			continue
		}
		sl := slots[slotID(r.SubjectKey, r.SlotKey)]
		if sl == nil || done[sl] {
			continue
		}
		done[sl] = true
		for _, w := range sl.winners {
			emit(w, sl, cand.score, false)
		}
		if p.history {
			// Older values, newest first, after the current one.
			var old []*claimRow
			for _, c := range sl.claims {
				if !emitted[c.ID] && !contains(idsOf(sl.winners), c.ID) && !contains(idsOf(sl.overridden), c.ID) {
					old = append(old, c)
				}
			}
			sort.SliceStable(old, func(i, j int) bool { return newer(old[i], old[j]) })
			for _, c := range old {
				emit(c, sl, cand.score, true)
			}
		}
	}
	return items, nil
}

func idsOf(cs []*claimRow) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.ID
	}
	return out
}

// budget cuts the ranked items adaptively — at most k slots' worth, stopping at a fused-score gap after
// MinK items, and never beyond the token budget — and renders the context. A disputed slot's sides and a
// slot's history stay together with their current value.
func (s *Service) budget(items []item, k, budget int) ([]item, string, int) {
	var out []item
	var lines []string
	used := 0
	header := "Memory (current facts unless marked; newest first):"
	used = s.tok.Count(header)
	prevScore := 0.0
	slotsTaken := 0
	var lastSlot *slot
	for i, it := range items {
		newSlot := it.slot != lastSlot
		if newSlot {
			if slotsTaken >= k {
				break
			}
			if s.cfg.ScoreGap > 0 && len(out) >= s.cfg.MinK && prevScore > 0 && it.score < s.cfg.ScoreGap*prevScore {
				break
			}
		}
		line := renderLine(it)
		n := s.tok.Count("\n" + line)
		if used+n > budget {
			if i == 0 {
				// Even the best claim does not fit: give a truncated line rather than nothing.
				line = s.tok.Truncate(line, max(0, budget-used-1))
				if line != "" {
					lines = append(lines, line)
					out = append(out, it)
					used += s.tok.Count("\n" + line)
				}
			}
			break
		}
		lines = append(lines, line)
		used += n
		out = append(out, it)
		if newSlot {
			slotsTaken++
			lastSlot = it.slot
		}
		prevScore = it.score
	}
	if len(out) == 0 {
		return nil, "", 0
	}
	ctx := header + "\n" + strings.Join(lines, "\n")
	return out, ctx, s.tok.Count(ctx)
}

// renderLine writes one claim for a reader: its sentence, and its standing when it is not simply current.
func renderLine(it item) string {
	c := it.claim
	var b strings.Builder
	b.WriteString("- ")
	switch {
	case it.former:
		b.WriteString("[FORMER] ")
	case it.slot != nil && it.slot.disputed:
		b.WriteString("[DISPUTED] ")
	}
	b.WriteString(strings.TrimSpace(c.Text))
	b.WriteString(" (")
	b.WriteString(interval(c, it.former))
	if c.Scope == "private" {
		b.WriteString("; private")
	}
	b.WriteString(")")
	return b.String()
}

// interval renders a claim's valid time compactly.
func interval(c *claimRow, former bool) string {
	from := fmtTime(c.ValidFrom)
	if c.ValidTo != nil {
		return from + " to " + fmtTime(*c.ValidTo)
	}
	if former {
		return "from " + from
	}
	return "since " + from
}

func fmtTime(t time.Time) string {
	t = t.UTC()
	if t.Hour() == 0 && t.Minute() == 0 && t.Second() == 0 && t.Nanosecond() == 0 {
		return t.Format("2006-01-02")
	}
	return t.Format("2006-01-02 15:04")
}
