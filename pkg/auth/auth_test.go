package auth

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
)

func TestValidAgentID(t *testing.T) {
	for _, tt := range []struct {
		id string
		ok bool
	}{
		{"alice", true},
		{"agent-7.bot:prod@acme_1", true},
		{strings.Repeat("a", 128), true},
		{"", false},
		{strings.Repeat("a", 129), false},
		{"has space", false},
		{"slash/no", false},
		{"ünicode", false},
		{"star*", false},
	} {
		if err := ValidAgentID(tt.id); (err == nil) != tt.ok {
			t.Errorf("ValidAgentID(%q) = %v, want ok=%v", tt.id, err, tt.ok)
		}
	}
}

func TestValidWorkspaceID(t *testing.T) {
	for _, tt := range []struct {
		ws string
		ok bool
	}{
		{"acme", true},
		{"a", true},
		{"team_1-prod", true},
		{"0day", true},
		{strings.Repeat("w", 64), true},
		{"", false},
		{strings.Repeat("w", 65), false},
		{"Acme", false},
		{"a.b", false}, // two NATS tokens
		{"a*", false},
		{"a>", false},
		{"a b", false},
		{"-lead", false},
		{"_lead", false},
	} {
		if err := ValidWorkspaceID(tt.ws); (err == nil) != tt.ok {
			t.Errorf("ValidWorkspaceID(%q) = %v, want ok=%v", tt.ws, err, tt.ok)
		}
	}
}

func migrated(t *testing.T) *pgxpool.Pool {
	t.Helper()
	pool := pgtest.New(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := store.Migrate(ctx, pool); err != nil {
		t.Fatalf("migrate: %v", err)
	}
	return pool
}

func request(agent, key string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, "/v1/workspaces/x/turns", nil)
	if agent != "" {
		r.Header.Set(api.HeaderAgent, agent)
	}
	if key != "" {
		r.Header.Set("Authorization", "Bearer "+key)
	}
	return r
}

// wantError checks err is an *Error with the given status and field.
func wantError(t *testing.T, err error, status int, field string) {
	t.Helper()
	var ae *Error
	if !errors.As(err, &ae) {
		t.Fatalf("error = %v, want *auth.Error with status %d", err, status)
	}
	if ae.Status != status || ae.Body.Field != field {
		t.Fatalf("error = %d field %q (%s), want %d field %q", ae.Status, ae.Body.Field, ae.Body.Message, status, field)
	}
	if ae.Body.Message == "" || ae.Body.Code == "" {
		t.Fatalf("error body lacks code or message: %+v", ae.Body)
	}
}

func workspaceExists(t *testing.T, db *pgxpool.Pool, ws string) (bool, string) {
	t.Helper()
	var createdBy string
	err := db.QueryRow(context.Background(), `SELECT created_by FROM workspaces WHERE id = $1`, ws).Scan(&createdBy)
	if err != nil {
		return false, ""
	}
	return true, createdBy
}

func TestDevMode(t *testing.T) {
	db := migrated(t)
	a := New(db, true)

	_, err := a.Identify(request("", ""), "acme", true)
	wantError(t, err, http.StatusUnauthorized, api.HeaderAgent)
	_, err = a.Identify(request("bad agent", ""), "acme", true)
	wantError(t, err, http.StatusUnauthorized, api.HeaderAgent)
	_, err = a.Identify(request("alice", ""), "Bad.WS", true)
	wantError(t, err, http.StatusBadRequest, "workspace")

	// Reading an unknown workspace is a 404 and creates nothing.
	_, err = a.Identify(request("alice", ""), "acme", false)
	wantError(t, err, http.StatusNotFound, "workspace")
	if ok, _ := workspaceExists(t, db, "acme"); ok {
		t.Fatal("a read created the workspace")
	}

	// Authenticate alone never creates the workspace.
	id, err := a.Authenticate(request("alice", ""), "acme")
	if err != nil || id.Agent != "alice" || id.Workspace != "acme" {
		t.Fatalf("Authenticate = %+v, %v", id, err)
	}
	if ok, _ := workspaceExists(t, db, "acme"); ok {
		t.Fatal("Authenticate created the workspace")
	}

	// The first write creates it, recording who; later reads see it.
	id, err = a.Identify(request("alice", ""), "acme", true)
	if err != nil || id.Agent != "alice" {
		t.Fatalf("write Identify = %+v, %v", id, err)
	}
	if ok, by := workspaceExists(t, db, "acme"); !ok || by != "alice" {
		t.Fatalf("workspace exists=%v created_by=%q, want true alice", ok, by)
	}
	fresh := New(db, true) // no cache
	if _, err := fresh.Identify(request("bob", ""), "acme", false); err != nil {
		t.Fatalf("read after create: %v", err)
	}
	// A second first write (another replica) is harmless and keeps the creator.
	if _, err := fresh.Identify(request("bob", ""), "acme", true); err != nil {
		t.Fatalf("second write: %v", err)
	}
	if _, by := workspaceExists(t, db, "acme"); by != "alice" {
		t.Fatalf("created_by = %q after a second write, want alice", by)
	}
	// Development mode ignores credentials.
	if _, err := fresh.Identify(request("bob", "whatever"), "acme", false); err != nil {
		t.Fatalf("dev mode with a bogus key: %v", err)
	}
}

func TestKeys(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	anyKey, err := CreateWorkspace(ctx, db, "acme", "admin")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(anyKey, keyPrefix) || len(anyKey) < 40 {
		t.Fatalf("key %q does not look like a Mneme key", anyKey)
	}
	if _, err := CreateWorkspace(ctx, db, "acme", "admin"); !errors.Is(err, ErrWorkspaceExists) {
		t.Fatalf("CreateWorkspace twice: %v, want ErrWorkspaceExists", err)
	}
	if _, err := CreateWorkspace(ctx, db, "Not Valid", "admin"); err == nil {
		t.Fatal("CreateWorkspace accepted an invalid id")
	}
	aliceKey, err := IssueKey(ctx, db, "acme", "alice")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := IssueKey(ctx, db, "nowhere", ""); !errors.Is(err, ErrUnknownWorkspace) {
		t.Fatalf("IssueKey for an unknown workspace: %v, want ErrUnknownWorkspace", err)
	}
	otherKey, err := CreateWorkspace(ctx, db, "other", "admin")
	if err != nil {
		t.Fatal(err)
	}
	// Only hashes are stored.
	var n int
	if err := db.QueryRow(ctx, `SELECT count(*) FROM api_keys WHERE key_hash = convert_to($1, 'UTF8')`, anyKey).Scan(&n); err != nil || n != 0 {
		t.Fatalf("a raw key is stored (%d rows, %v)", n, err)
	}

	a := New(db, false, WithCacheTTL(0))
	for _, tt := range []struct {
		name   string
		r      *http.Request
		ws     string
		write  bool
		status int // 0 = success
		field  string
	}{
		{"any-agent key", request("alice", anyKey), "acme", true, 0, ""},
		{"any-agent key, other agent", request("bob", anyKey), "acme", false, 0, ""},
		{"bound key, its agent", request("alice", aliceKey), "acme", true, 0, ""},
		{"bound key, other agent", request("bob", aliceKey), "acme", true, http.StatusForbidden, api.HeaderAgent},
		{"no credential", request("alice", ""), "acme", true, http.StatusUnauthorized, "Authorization"},
		{"unknown key", request("alice", "mnk_nope"), "acme", true, http.StatusUnauthorized, "Authorization"},
		{"key of another workspace", request("alice", otherKey), "acme", true, http.StatusForbidden, "Authorization"},
		// A key of one workspace gets the same answer for a workspace that exists and one that does not.
		{"unknown workspace write", request("alice", anyKey), "ghost", true, http.StatusForbidden, "Authorization"},
		{"unknown workspace read", request("alice", anyKey), "ghost", false, http.StatusForbidden, "Authorization"},
		{"missing agent beats key check", request("", anyKey), "acme", true, http.StatusUnauthorized, api.HeaderAgent},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id, err := a.Identify(tt.r, tt.ws, tt.write)
			if tt.status == 0 {
				if err != nil {
					t.Fatalf("Identify: %v", err)
				}
				if id.Workspace != tt.ws || id.Agent != tt.r.Header.Get(api.HeaderAgent) {
					t.Fatalf("identity %+v", id)
				}
				return
			}
			wantError(t, err, tt.status, tt.field)
		})
	}
	if ok, _ := workspaceExists(t, db, "ghost"); ok {
		t.Fatal("a write outside development mode created a workspace")
	}

	bad := request("alice", "")
	bad.Header.Set("Authorization", "Basic Zm9vOmJhcg==")
	_, err = a.Identify(bad, "acme", false)
	wantError(t, err, http.StatusUnauthorized, "Authorization")

	// Revocation takes effect (no cache here).
	if err := RevokeKey(ctx, db, aliceKey); err != nil {
		t.Fatal(err)
	}
	if err := RevokeKey(ctx, db, aliceKey); err != nil {
		t.Fatalf("revoking twice: %v", err)
	}
	if err := RevokeKey(ctx, db, "mnk_never_issued"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("RevokeKey(unknown) = %v, want ErrUnknownKey", err)
	}
	_, err = a.Identify(request("alice", aliceKey), "acme", true)
	wantError(t, err, http.StatusUnauthorized, "Authorization")
}

func TestPositiveLookupsAreCachedBriefly(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	key, err := CreateWorkspace(ctx, db, "acme", "admin")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := New(db, false, WithCacheTTL(10*time.Second))
	a.now = func() time.Time { return now }
	if _, err := a.Identify(request("alice", key), "acme", false); err != nil {
		t.Fatal(err)
	}
	if err := RevokeKey(ctx, db, key); err != nil {
		t.Fatal(err)
	}
	// Within the TTL the cached key is still accepted ...
	now = now.Add(5 * time.Second)
	if _, err := a.Identify(request("alice", key), "acme", false); err != nil {
		t.Fatalf("within TTL: %v", err)
	}
	// ... and refused once it expires.
	now = now.Add(6 * time.Second)
	_, err = a.Identify(request("alice", key), "acme", false)
	wantError(t, err, http.StatusUnauthorized, "Authorization")
}

func TestDatabaseDownIsUnavailable(t *testing.T) {
	db := migrated(t)
	a := New(db, true, WithCacheTTL(0))
	db.Close()
	_, err := a.Identify(request("alice", ""), "acme", true)
	wantError(t, err, http.StatusServiceUnavailable, "")
	var ae *Error
	errors.As(err, &ae)
	if ae.Cause == nil || strings.Contains(ae.Body.Message, "closed") {
		t.Fatalf("cause must be kept for logs and not sent: %+v", ae)
	}
}

func TestWriteError(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteError(rec, newError(http.StatusUnauthorized, api.CodeUnauthorized, api.HeaderAgent, "missing"))
	if rec.Code != http.StatusUnauthorized || rec.Header().Get("WWW-Authenticate") == "" {
		t.Fatalf("status %d, WWW-Authenticate %q", rec.Code, rec.Header().Get("WWW-Authenticate"))
	}
	var body api.Error
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error.Field != api.HeaderAgent || body.Error.Code != api.CodeUnauthorized {
		t.Fatalf("body %s (%v)", rec.Body.String(), err)
	}

	rec = httptest.NewRecorder()
	WriteError(rec, errors.New("boom: secret detail"))
	if rec.Code != http.StatusInternalServerError || strings.Contains(rec.Body.String(), "secret") {
		t.Fatalf("plain error: %d %s", rec.Code, rec.Body.String())
	}
}
