package query

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/embedding/embeddingtest"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// harness is the query service on a real HTTP server over a fresh, migrated Postgres database.
type harness struct {
	t   testing.TB
	db  *pgxpool.Pool
	svc *Service
	srv *httptest.Server
	emb *embeddingtest.Words
}

func newHarness(t testing.TB, mod ...func(*Config)) *harness {
	t.Helper()
	db := pgtest.New(t)
	ctx := context.Background()
	if _, err := store.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	// Words stemmed as the service stems them, so texts sharing words are close.
	emb := embeddingtest.NewWords(64, stem)
	if err := store.PinEmbedding(ctx, db, emb.Model(), emb.Dim()); err != nil {
		t.Fatal(err)
	}
	cfg := DefaultConfig()
	cfg.DevMode = true
	for _, m := range mod {
		m(&cfg)
	}
	svc, err := New(service.Deps{DB: db, Embedder: emb, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	svc.Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return &harness{t: t, db: db, svc: svc, srv: srv, emb: emb}
}

func (h *harness) client(agent string) *client.Client {
	c, err := client.New(h.srv.URL, agent, client.WithTimeout(30*time.Second))
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

// fixture writes projection rows directly, the way the reconciler does (its doc.go; pkg/store/write.go): immutable
// claims with a vector, a self-corroboration and an alias; belief versions appended, never updated except for
// retired_at; decisions and supersedes edges for every change. It lets the query tests run without the
// write path.
type fixture struct {
	h    *harness
	ws   string
	seq  int64
	byID map[string]fclaim
}

func (h *harness) workspace(ws string) *fixture {
	h.t.Helper()
	if _, err := h.db.Exec(context.Background(), `INSERT INTO workspaces (id, created_by) VALUES ($1, 'test') ON CONFLICT DO NOTHING`, ws); err != nil {
		h.t.Fatal(err)
	}
	return &fixture{h: h, ws: ws, byID: map[string]fclaim{}}
}

// fclaim is one claim to insert. Zero values mean: functional, shared, owned by "agent-a", confidence 1, status
// active, recorded at the valid time.
type fclaim struct {
	Subject, Predicate, Object, Text string
	// Key is the predicate key as the extractor sets it where it builds one ("used_to_goes_to"); default
	// canon.PredicateKey(Predicate).
	Key                   string
	Accumulating          bool
	Scope, Owner          string
	ValidFrom, RecordedAt time.Time
	Seq                   *int64
	Status                string
	ValidTo               *time.Time
}

func seq(n int64) *int64 { return &n }

func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func (f *fixture) exec(sql string, args ...any) {
	f.h.t.Helper()
	if _, err := f.h.db.Exec(context.Background(), sql, args...); err != nil {
		f.h.t.Fatalf("%v\n%s", err, sql)
	}
}

// add inserts a claim and its first version; it returns the claim id.
func (f *fixture) add(c fclaim) string {
	f.h.t.Helper()
	if c.Scope == "" {
		c.Scope = "shared"
	}
	if c.Owner == "" {
		c.Owner = "agent-a"
	}
	if c.Status == "" {
		c.Status = "active"
	}
	if c.ValidFrom.IsZero() {
		c.ValidFrom = day("2024-01-01")
	}
	if c.RecordedAt.IsZero() {
		c.RecordedAt = c.ValidFrom
	}
	if c.Text == "" {
		c.Text = canon.ClaimText(c.Subject, c.Predicate, c.Object)
	}
	f.seq++
	id := uuid.NewString()
	prov, _ := json.Marshal(event.Provenance{AgentID: c.Owner, Extractor: "structured", ExtractorVersion: "1", SourceRef: "test"})
	pk := c.Key
	if pk == "" {
		pk = canon.PredicateKey(c.Predicate)
	}
	f.exec(`INSERT INTO claims (id, workspace_id, subject_key, subject, predicate_key, predicate, slot_key, object, object_key,
		text, functional, scope, owner_agent, confidence, valid_from, sequence, provenance, partition, stream_seq, recorded_at)
		VALUES ($1,$2,$3,$4,$5,$6,$5,$7,$8,$9,$10,$11,$12,1,$13,$14,$15,0,$16,$17)`,
		id, f.ws, canon.SubjectKey(c.Subject), c.Subject, pk, c.Predicate, c.Object, canon.ObjectKey(c.Object), c.Text,
		!c.Accumulating, c.Scope, c.Owner, c.ValidFrom, c.Seq, string(prov), f.seq, c.RecordedAt)
	vec, _ := f.h.emb.Embed(context.Background(), []string{c.Text})
	f.exec(`INSERT INTO claim_vectors (claim_id, workspace_id, model, dim, embedding) VALUES ($1,$2,$3,$4,$5::vector)`,
		id, f.ws, f.h.emb.Model(), f.h.emb.Dim(), vectorLiteral(vec[0]))
	f.exec(`INSERT INTO claim_versions (claim_id, version, workspace_id, status, valid_from, valid_to, recorded_at)
		VALUES ($1, 1, $2, $3, $4, $5, $6)`, id, f.ws, c.Status, c.ValidFrom, c.ValidTo, c.RecordedAt)
	f.exec(`INSERT INTO corroborations (claim_id, source, via_claim_id, recorded_at) VALUES ($1, $2, $1, $3)`, id, "agent:"+c.Owner, c.RecordedAt)
	f.exec(`INSERT INTO subject_aliases (workspace_id, alias, subject_key) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
		f.ws, strings.ToLower(c.Subject), canon.SubjectKey(c.Subject))
	f.byID[id] = c
	return id
}

// decision records a decision and returns its id.
func (f *fixture) decision(subjectKey, slotKey, operator, outcome string, inputs []string, winner string, losers []string, at time.Time) string {
	f.h.t.Helper()
	f.seq++
	id := uuid.NewString()
	var w any
	if winner != "" {
		w = winner
	}
	if losers == nil {
		losers = []string{}
	}
	f.exec(`INSERT INTO decisions (id, workspace_id, subject_key, slot_key, scope, owner_agent, operator, policy_version,
		inputs, winner, losers, outcome, reason, decided_at, partition, stream_seq)
		VALUES ($1,$2,$3,$4,'shared',NULL,$5,'test-v1',$6::uuid[],$7,$8::uuid[],$9,$10,$11,0,$12)`,
		id, f.ws, subjectKey, slotKey, operator, inputs, w, losers, outcome, operator+": "+outcome, at, f.seq)
	return id
}

// setStatus retires the claim's current version at `at` and appends one with the new status.
func (f *fixture) setStatus(id, status string, validTo *time.Time, decisionID string, at time.Time) {
	f.h.t.Helper()
	var version int
	var validFrom time.Time
	if err := f.h.db.QueryRow(context.Background(), `UPDATE claim_versions SET retired_at = $2
		WHERE claim_id = $1 AND retired_at IS NULL RETURNING version, valid_from`, id, at).Scan(&version, &validFrom); err != nil {
		f.h.t.Fatal(err)
	}
	f.exec(`INSERT INTO claim_versions (claim_id, version, workspace_id, status, valid_from, valid_to, recorded_at, decision_id)
		VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`, id, version+1, f.ws, status, validFrom, validTo, at, decisionID)
}

// supersede records that winner superseded loser (LWW) at transaction time at.
func (f *fixture) supersede(winner, loser string, at time.Time) {
	f.h.t.Helper()
	w := f.byID[winner]
	d := f.decision(canon.SubjectKey(w.Subject), canon.PredicateKey(w.Predicate), "lww", "superseded", []string{loser, winner}, winner, []string{loser}, at)
	vt := w.ValidFrom
	f.setStatus(loser, "superseded", &vt, d, at)
	f.exec(`INSERT INTO supersedes (claim_id, superseded_id, decision_id) VALUES ($1,$2,$3)`, winner, loser, d)
}

// dispute marks every claim given disputed at at.
func (f *fixture) dispute(at time.Time, ids ...string) {
	f.h.t.Helper()
	c := f.byID[ids[0]]
	d := f.decision(canon.SubjectKey(c.Subject), canon.PredicateKey(c.Predicate), "lww", "disputed", ids, "", nil, at)
	for _, id := range ids {
		f.setStatus(id, "disputed", nil, d, at)
	}
}

// contradict records a contradiction link between claims x and y of subjectKey (stored in id order, as the
// reconciler writes it), made by decision at at.
func (f *fixture) contradict(x, y, subjectKey string, similarity float64, decision string, at time.Time) {
	f.h.t.Helper()
	if y < x {
		x, y = y, x
	}
	f.exec(`INSERT INTO contradictions (claim_a, claim_b, workspace_id, subject_key, method, similarity, decision_id, recorded_at)
		VALUES ($1,$2,$3,$4,'negation',$5,$6,$7)`, x, y, f.ws, subjectKey, similarity, decision, at)
}

// corroborate adds an independent source to a claim.
func (f *fixture) corroborate(id, source string, at time.Time) {
	f.exec(`INSERT INTO corroborations (claim_id, source, via_claim_id, recorded_at) VALUES ($1,$2,$1,$3)`, id, source, at)
}

// checkSearch searches f's workspace as agent and checks that the claims want are among the results and the
// claims not are not; why says what decides it (for the failure message).
func (f *fixture) checkSearch(agent string, req api.SearchRequest, want, not []string, why string) {
	f.h.t.Helper()
	sr, err := f.h.client(agent).Search(context.Background(), f.ws, req)
	if err != nil {
		f.h.t.Fatal(err)
	}
	got := map[string]bool{}
	for _, cl := range sr.Claims {
		got[cl.ID] = true
	}
	for _, id := range want {
		if !got[id] {
			f.h.t.Errorf("%q (%s): %s missing from\n%s", req.Query, why, f.byID[id].Text, sr.Context)
		}
	}
	for _, id := range not {
		if got[id] {
			f.h.t.Errorf("%q (%s): %s given as current in\n%s", req.Query, why, f.byID[id].Text, sr.Context)
		}
	}
}

func (f *fixture) String() string { return fmt.Sprintf("fixture(%s)", f.ws) }

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }
