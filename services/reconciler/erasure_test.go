package reconciler

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/openaitest"
	"github.com/mneme-ai/mneme/pkg/store"
)

func openaitestRandomJudge(t testing.TB) string {
	srv := openaitest.NewServer(t, openaitest.WithChatHandler(func(openaitest.Request) openaitest.Response {
		return openaitest.ChatReplyJSON(map[string]any{"contradicts": rand.IntN(2) == 0, "reason": "coin flip"})
	}))
	return srv.URL()
}

func serveHTTP(t testing.TB, svc *Service) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	svc.Routes(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func postJSON(t testing.TB, url, agent string, body any) (*http.Response, []byte) {
	t.Helper()
	var b []byte
	if body != nil {
		var err error
		if b, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(api.HeaderAgent, agent)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	_, _ = out.ReadFrom(resp.Body)
	return resp, out.Bytes()
}

func createWorkspace(t testing.TB, pool *pgxpool.Pool, ws string) {
	t.Helper()
	if _, err := pool.Exec(context.Background(), `INSERT INTO workspaces (id, created_by) VALUES ($1, 'test')`, ws); err != nil {
		t.Fatal(err)
	}
}

func publishEvent(t testing.TB, js jetstream.JetStream, subject, typ, id, ws string, payload any) {
	t.Helper()
	env, err := event.New(typ, id, "mneme/test", ws, baseTime, payload)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bus.PublishEvent(context.Background(), js, subject, env); err != nil {
		t.Fatal(err)
	}
}

// streamTexts returns every stored message body and header of every stream, and every judge-log value.
func streamTexts(t testing.TB, js jetstream.JetStream) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, name := range []string{bus.StreamInbox, bus.StreamTurns, bus.StreamProposed, bus.StreamClaims, bus.StreamLedger, bus.StreamDLQ, "KV_" + bus.BucketJudge} {
		st, err := js.Stream(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		for seq := uint64(1); ; {
			m, err := st.GetMsg(ctx, seq, jetstream.WithGetMsgSubject(">"))
			if err != nil {
				break
			}
			out = append(out, name+": "+string(m.Data)+fmt.Sprint(m.Header))
			seq = m.Sequence + 1
		}
	}
	return out
}

// dbTexts returns the text of every row of every table.
func dbTexts(t testing.TB, pool *pgxpool.Pool) []string {
	t.Helper()
	ctx := context.Background()
	rows, err := pool.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = 'public'`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var n string
		_ = rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	var out []string
	for _, tbl := range tables {
		r, err := pool.Query(ctx, fmt.Sprintf(`SELECT t::text FROM %q t`, tbl))
		if err != nil {
			t.Fatal(err)
		}
		for r.Next() {
			var s string
			_ = r.Scan(&s)
			out = append(out, tbl+": "+s)
		}
		r.Close()
	}
	return out
}

func containing(texts []string, needle string) []string {
	var out []string
	for _, s := range texts {
		if strings.Contains(strings.ToLower(s), strings.ToLower(needle)) {
			out = append(out, s)
		}
	}
	return out
}

// filesContaining lists files under dir whose bytes contain needle.
func filesContaining(t testing.TB, dir, needle string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil && bytes.Contains(b, []byte(needle)) {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// Erasure of a subject leaves no trace of its content in Postgres or JetStream (turns, proposed claims, claims,
// ledger, dead letters), keeps everything else, and leaves the erasure record.
func TestEraseSubjectLeavesNoTrace(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	svc, _ := runService(t, pool, b, cfg, "r1")
	srv := serveHTTP(t, svc)
	const ws, secret, subject = "wse", "Zanzibarquartz", "Ottoline Vexley"
	createWorkspace(t, pool, ws)

	// The source turn, a queued proposed claim, claims (one dead-lettered), and a survivor about someone else.
	publishEvent(t, b.js, bus.TurnsSubject(ws), event.TypeTurnAccepted, "turn-1", ws, event.TurnAcceptedV1{Workspace: ws, TurnID: "turn-1",
		AgentID: "agent-a", SessionID: "s1", Role: "user", Content: subject + " moved to " + secret, OccurredAt: baseTime, ReceivedAt: baseTime, Scope: event.ScopeShared})
	publishEvent(t, b.js, bus.TurnsSubject(ws), event.TypeTurnAccepted, "turn-2", ws, event.TurnAcceptedV1{Workspace: ws, TurnID: "turn-2",
		AgentID: "agent-a", SessionID: "s1", Role: "user", Content: "Bruno likes tea", OccurredAt: baseTime, ReceivedAt: baseTime, Scope: event.ScopeShared})
	publishEvent(t, b.js, bus.ProposedSubject(ws), event.TypeClaimProposed, "prop-1", ws, event.ClaimProposedV1{Workspace: ws,
		ClaimID: "00000000-0000-4000-8000-000000000001", Subject: subject, SubjectKey: "ottoline_vexley", Predicate: "likes", PredicateKey: "likes", Object: secret + " tea"})
	c1 := mkClaim(ws, subject, "lives in", secret, baseTime, cfg.Partitions, withTurn("turn-1"))
	c2 := mkClaim(ws, subject, "lives in", "Lisbon", baseTime.Add(time.Hour), cfg.Partitions, withAgent("agent-b"))
	bad := mkClaim(ws, subject, "owns", secret+" boat", baseTime, cfg.Partitions)
	bad.Confidence = 7 // invalid: dead-lettered with its content
	keep := mkClaim(ws, "Bruno", "likes", "tea", baseTime, cfg.Partitions, withFunctional(false), withTurn("turn-2"))
	for _, c := range []event.ClaimEmbeddedV1{c1, c2, bad, keep, c1} {
		publishClaim(t, b.js, c)
	}
	waitApplied(t, pool, b.js, cfg.Partitions, 20*time.Second)
	if len(containing(dbTexts(t, pool), secret)) == 0 || len(containing(streamTexts(t, b.js), secret)) < 5 {
		t.Fatal("the workload did not store the secret where expected")
	}

	resp, body := postJSON(t, srv.URL+"/v1/workspaces/"+ws+"/erasures", "agent-admin", api.ErasureRequest{Kind: api.EraseSubject, Target: subject})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("erasure: %d %s", resp.StatusCode, body)
	}
	var st api.Erasure
	if err := json.Unmarshal(body, &st); err != nil {
		t.Fatal(err)
	}
	if st.Status != "completed" || st.ClaimsErased != 2 || st.MessagesPurged < 5 {
		t.Fatalf("erasure record %+v", st)
	}
	h := sha256.Sum256([]byte(ws + "\x00ottoline_vexley"))
	if st.TargetHash != hex.EncodeToString(h[:]) || st.RequestedBy != "agent-admin" {
		t.Fatalf("erasure record %+v", st)
	}

	for _, needle := range []string{secret, "ottoline", "Lisbon", c1.ClaimID, c2.ClaimID} {
		if hits := containing(dbTexts(t, pool), needle); len(hits) > 0 {
			t.Errorf("Postgres still holds %q: %v", needle, hits)
		}
		if hits := containing(streamTexts(t, b.js), needle); len(hits) > 0 {
			t.Errorf("JetStream still holds %q: %v", needle, hits)
		}
	}
	if files := filesContaining(t, b.dir, secret); len(files) > 0 {
		t.Errorf("JetStream files still hold the bytes: %v", files)
	}
	if len(containing(dbTexts(t, pool), "Bruno")) == 0 || len(containing(streamTexts(t, b.js), "Bruno likes tea")) == 0 {
		t.Error("the erasure removed content of another subject")
	}
	var erasures int
	_ = pool.QueryRow(context.Background(), `SELECT count(*) FROM erasures WHERE workspace_id = $1 AND status = 'completed'`, ws).Scan(&erasures)
	if erasures != 1 {
		t.Errorf("%d completed erasure records", erasures)
	}
}

// Erasing an agent rebuilds the subjects it spoke about as if it never had: the projection afterwards equals a
// replay of what is left in the streams, and nothing of the agent remains.
func TestEraseAgentRebuildsLikeReplay(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	srvJudge := openaitestRandomJudge(t)
	cfg := testConfig()
	cfg.PolicyFile = writePolicy(t, judgePolicy)
	cfg.Judge.BaseURL, cfg.Judge.Model = srvJudge, "random-judge"
	svc, _ := runService(t, pool, b, cfg, "r1")
	srv := serveHTTP(t, svc)
	const ws = "wsa"
	createWorkspace(t, pool, ws)
	mixedWorkload(t, b, cfg.Partitions, ws)
	// agent-z's claim is the latest value of its slots; erasing agent-z must bring the previous value back.
	waitApplied(t, pool, b.js, cfg.Partitions, 30*time.Second)
	before := currentStatus(t, pool, ws)

	resp, body := postJSON(t, srv.URL+"/v1/workspaces/"+ws+"/erasures", "agent-admin", api.ErasureRequest{Kind: api.EraseAgent, Target: "agent-z"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("erasure: %d %s", resp.StatusCode, body)
	}
	ctx := context.Background()
	for _, needle := range []string{"agent-z"} {
		if hits := containing(dbTexts(t, pool), needle); len(hits) > 0 {
			t.Errorf("Postgres still holds %q: %v", needle, hits[:min(3, len(hits))])
		}
		if hits := containing(streamTexts(t, b.js), needle); len(hits) > 0 {
			t.Errorf("JetStream still holds %q: %v", needle, hits[:min(3, len(hits))])
		}
	}
	after := currentStatus(t, pool, ws)
	if len(after) >= len(before) {
		t.Fatalf("%d claims before, %d after", len(before), len(after))
	}
	live, err := store.Digest(ctx, pool)
	if err != nil {
		t.Fatal(err)
	}
	target, _ := newStore(t)
	if _, err := Replay(ctx, b.js, target, ReplayOptions{Config: cfg, Logger: testLogger()}); err != nil {
		t.Fatal(err)
	}
	if replayed, _ := store.Digest(ctx, target); replayed != live {
		diffProjections(t, pool, target)
		t.Fatal("after an agent erasure the projection differs from a replay of the remaining log")
	}
}

// Erasing a workspace removes all of it and nothing of another workspace.
func TestEraseWorkspace(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	cfg := testConfig()
	svc, _ := runService(t, pool, b, cfg, "r1")
	srv := serveHTTP(t, svc)
	createWorkspace(t, pool, "wsx")
	createWorkspace(t, pool, "wsy")
	mixedWorkload(t, b, cfg.Partitions, "wsx")
	mixedWorkload(t, b, cfg.Partitions, "wsy")
	waitApplied(t, pool, b.js, cfg.Partitions, 30*time.Second)
	y := currentStatus(t, pool, "wsy")
	resp, body := postJSON(t, srv.URL+"/v1/workspaces/wsx/erasures", "agent-admin", api.ErasureRequest{Kind: api.EraseWorkspace})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("erasure: %d %s", resp.StatusCode, body)
	}
	if got := currentStatus(t, pool, "wsx"); len(got) != 0 {
		t.Fatalf("%d claims of the erased workspace remain", len(got))
	}
	if got := currentStatus(t, pool, "wsy"); len(got) != len(y) {
		t.Fatalf("the other workspace lost claims: %d of %d", len(got), len(y))
	}
	for _, s := range streamTexts(t, b.js) {
		// The audit trail (ids and counts, no content) outlives what it records.
		if strings.Contains(s, `"workspace":"wsx"`) && !strings.Contains(s, event.TypeAuditRecorded) {
			t.Fatalf("a message of the erased workspace remains: %.200s", s)
		}
	}
}

// TestErasureBodyIsStrict: the erasure endpoint reads its body with the API's strict decoder — a body over its
// 4,096 bytes is a 413 naming the limit (it used to be cut there and reported as malformed JSON), and unknown
// fields and trailing data are 400s; nothing is erased.
func TestErasureBodyIsStrict(t *testing.T) {
	t.Parallel()
	pool, _ := newStore(t)
	b := startBus(t)
	svc, _ := runService(t, pool, b, testConfig(), "r1")
	srv := serveHTTP(t, svc)
	createWorkspace(t, pool, "wss")
	for _, c := range []struct {
		name, body   string
		status       int
		field, limit string
	}{
		{"over the limit", `{"kind":"subject","target":"` + strings.Repeat("a", 5000) + `"}`, http.StatusRequestEntityTooLarge, "", "4096 bytes"},
		{"unknown field", `{"kind":"subject","target":"alice","force":true}`, http.StatusBadRequest, "force", ""},
		{"trailing data", `{"kind":"subject","target":"alice"} {"kind":"workspace"}`, http.StatusBadRequest, "", ""},
	} {
		req, err := http.NewRequest(http.MethodPost, srv.URL+"/v1/workspaces/wss/erasures", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set(api.HeaderAgent, "agent-admin")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var e api.Error
		err = json.NewDecoder(resp.Body).Decode(&e)
		resp.Body.Close()
		if err != nil || resp.StatusCode != c.status || e.Error.Field != c.field || e.Error.Limit != c.limit {
			t.Errorf("%s: %d %+v (%v); want %d field %q limit %q", c.name, resp.StatusCode, e.Error, err, c.status, c.field, c.limit)
		}
	}
	var n int
	if err := pool.QueryRow(context.Background(), `SELECT count(*) FROM erasures`).Scan(&n); err != nil || n != 0 {
		t.Errorf("%d erasures recorded (%v)", n, err)
	}
}
