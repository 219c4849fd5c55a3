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

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/audit"
)

func TestRolesAndBindings(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	adminKey, err := CreateWorkspace(ctx, db, "acme", "ops")
	if err != nil {
		t.Fatal(err)
	}
	agentKey, err := IssueKey(ctx, db, "acme", "alice")
	if err != nil {
		t.Fatal(err)
	}
	curatorKey, err := IssueKey(ctx, db, "acme", "", WithRole(RoleCurator))
	if err != nil {
		t.Fatal(err)
	}
	boundAdmin, err := IssueKey(ctx, db, "acme", "dpo", WithRole(RoleAdmin))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := IssueKey(ctx, db, "acme", "", WithRole(RoleAgent)); err == nil {
		t.Fatal("an agent key without an agent was issued")
	}
	if _, err := IssueKey(ctx, db, "acme", "bob", WithRole("root")); err == nil {
		t.Fatal("a key with an unknown role was issued")
	}
	a := New(db, false, WithCacheTTL(0))
	for _, tt := range []struct {
		name, agent, key string
		role             Role
		bound            bool
	}{
		{"first key of a workspace is its admin key", "anyone", adminKey, RoleAdmin, false},
		{"a key bound to an agent is an agent key", "alice", agentKey, RoleAgent, true},
		{"curator valid for any agent", "carol", curatorKey, RoleCurator, false},
		{"admin bound to one agent", "dpo", boundAdmin, RoleAdmin, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			id, err := a.Identify(request(tt.agent, tt.key), "acme", false)
			if err != nil {
				t.Fatal(err)
			}
			if id.Role != tt.role || id.KeyBound != tt.bound || id.KeyID != KeyID(tt.key) || !strings.HasPrefix(id.KeyID, "mk_") {
				t.Fatalf("identity %+v, want role %s bound %v key id %s", id, tt.role, tt.bound, KeyID(tt.key))
			}
		})
	}
	_, err = a.Identify(request("mallory", boundAdmin), "acme", false)
	wantError(t, err, http.StatusForbidden, api.HeaderAgent)

	dev, err := New(db, true).Identify(request("anyone", ""), "acme", false)
	if err != nil || dev.Role != RoleAdmin || dev.KeyID != "" {
		t.Fatalf("development mode identity %+v, %v; want the admin role and no key", dev, err)
	}
}

func TestExpiry(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	if _, err := CreateWorkspace(ctx, db, "acme", "ops"); err != nil {
		t.Fatal(err)
	}
	if _, err := IssueKey(ctx, db, "acme", "alice", WithExpiry(time.Now().Add(-time.Minute))); err == nil {
		t.Fatal("a key that expired before it was issued was accepted")
	}
	expiry := time.Now().Add(time.Hour).Truncate(time.Microsecond)
	key, err := IssueKey(ctx, db, "acme", "alice", WithExpiry(expiry))
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	a := New(db, false, WithCacheTTL(10*time.Minute))
	a.now = func() time.Time { return now }
	if _, err := a.Identify(request("alice", key), "acme", false); err != nil {
		t.Fatalf("before expiry: %v", err)
	}
	// The cache never outlives the key: one second past the expiry the key is refused although the cache TTL
	// (10 minutes) has not run out.
	now = expiry.Add(time.Second)
	_, err = a.Identify(request("alice", key), "acme", false)
	wantError(t, err, http.StatusUnauthorized, "Authorization")
	var ae *Error
	errors.As(err, &ae)
	if !strings.Contains(ae.Body.Message, "expired") {
		t.Fatalf("message %q does not say the key expired", ae.Body.Message)
	}
}

func TestListAndRevokeByID(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	adminKey, err := CreateWorkspace(ctx, db, "acme", "ops")
	if err != nil {
		t.Fatal(err)
	}
	aliceKey, err := IssueKey(ctx, db, "acme", "alice", WithActor("dpo", KeyID(adminKey)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := CreateWorkspace(ctx, db, "other", "ops"); err != nil {
		t.Fatal(err)
	}
	keys, err := ListKeys(ctx, db, "acme")
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != 2 || keys[0].ID != KeyID(adminKey) || keys[0].Role != RoleAdmin || keys[1].Agent != "alice" || keys[1].Role != RoleAgent {
		t.Fatalf("keys of acme: %+v", keys)
	}
	b, _ := json.Marshal(keys)
	if strings.Contains(string(b), adminKey) || strings.Contains(string(b), aliceKey) {
		t.Fatal("a listing holds a key")
	}
	all, err := ListKeys(ctx, db, "")
	if err != nil || len(all) != 3 {
		t.Fatalf("all keys: %d, %v", len(all), err)
	}

	a := New(db, false, WithCacheTTL(0))
	if err := RevokeKey(ctx, db, KeyID(aliceKey), WithActor("dpo", KeyID(adminKey))); err != nil {
		t.Fatal(err)
	}
	_, err = a.Identify(request("alice", aliceKey), "acme", false)
	wantError(t, err, http.StatusUnauthorized, "Authorization")
	if err := RevokeKey(ctx, db, "mk_0000000000000000"); !errors.Is(err, ErrUnknownKey) {
		t.Fatalf("revoking an unknown id: %v", err)
	}
	keys, _ = ListKeys(ctx, db, "acme")
	if keys[1].State(time.Now()) != "revoked" || keys[0].State(time.Now()) != "active" {
		t.Fatalf("states %s %s", keys[0].State(time.Now()), keys[1].State(time.Now()))
	}

	// Every administrative action is in the audit log: who, what, when — never a key.
	entries, err := audit.List(ctx, db, "acme", 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Action+" by "+e.Actor+" "+e.KeyID+" "+stringDetail(e.Details, "key_id"))
	}
	want := []string{
		"workspace.created by cli  ",
		"key.issued by cli  " + KeyID(adminKey),
		"key.issued by dpo " + KeyID(adminKey) + " " + KeyID(aliceKey),
		"key.revoked by dpo " + KeyID(adminKey) + " " + KeyID(aliceKey),
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("audit log:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	b, _ = json.Marshal(entries)
	if strings.Contains(string(b), adminKey) || strings.Contains(string(b), aliceKey) {
		t.Fatal("the audit log holds a key")
	}
}

func stringDetail(d map[string]any, k string) string {
	s, _ := d[k].(string)
	return s
}

func TestRateLimit(t *testing.T) {
	db := migrated(t)
	ctx := context.Background()
	key, err := CreateWorkspace(ctx, db, "acme", "ops")
	if err != nil {
		t.Fatal(err)
	}
	other, err := IssueKey(ctx, db, "acme", "bob")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	a := New(db, false, WithRateLimit(2, 3))
	a.now = func() time.Time { return now }
	// A burst of 3, then refused; another key has its own bucket.
	for i := range 3 {
		if _, err := a.Identify(request("alice", key), "acme", false); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
	}
	_, err = a.Identify(request("alice", key), "acme", false)
	wantError(t, err, http.StatusTooManyRequests, "")
	var ae *Error
	errors.As(err, &ae)
	if ae.RetryAfter != 500*time.Millisecond {
		t.Fatalf("retry after %s, want 500ms (one token at 2/s)", ae.RetryAfter)
	}
	rec := httptest.NewRecorder()
	WriteError(rec, err)
	if rec.Code != http.StatusTooManyRequests || rec.Header().Get("Retry-After") != "1" {
		t.Fatalf("response %d Retry-After %q, want 429 and 1", rec.Code, rec.Header().Get("Retry-After"))
	}
	if _, err := a.Identify(request("bob", other), "acme", false); err != nil {
		t.Fatalf("another key is limited by the first one's use: %v", err)
	}
	// Tokens come back at the configured rate.
	now = now.Add(500 * time.Millisecond)
	if _, err := a.Identify(request("alice", key), "acme", false); err != nil {
		t.Fatalf("after refill: %v", err)
	}

	// Development mode: anonymous callers are limited by remote address.
	dev := New(db, true, WithRateLimit(1, 1))
	dev.now = func() time.Time { return now }
	r1 := request("alice", "")
	r1.RemoteAddr = "192.0.2.1:1000"
	if _, err := dev.Authenticate(r1, "acme"); err != nil {
		t.Fatal(err)
	}
	r2 := request("bob", "") // another agent name does not help ...
	r2.RemoteAddr = "192.0.2.1:2000"
	_, err = dev.Authenticate(r2, "acme")
	wantError(t, err, http.StatusTooManyRequests, "")
	r3 := request("alice", "") // ... another address does
	r3.RemoteAddr = "192.0.2.2:1000"
	if _, err := dev.Authenticate(r3, "acme"); err != nil {
		t.Fatal(err)
	}

	// Guessing keys is limited by address too.
	guess := New(db, false, WithRateLimit(1, 2))
	guess.now = func() time.Time { return now }
	for i, want := range []int{http.StatusUnauthorized, http.StatusUnauthorized, http.StatusTooManyRequests} {
		r := request("alice", "mnk_guess")
		r.RemoteAddr = "198.51.100.7:4000"
		_, err := guess.Authenticate(r, "acme")
		var ae *Error
		if !errors.As(err, &ae) || ae.Status != want {
			t.Fatalf("guess %d: %v, want %d", i, err, want)
		}
	}
}

func TestLimiterEvictsIdleBuckets(t *testing.T) {
	l := newLimiter(1000, 1)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range maxBuckets + 10 {
		l.take("addr:"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+time.Duration(i).String(), now)
		now = now.Add(time.Millisecond)
	}
	if len(l.buckets) > maxBuckets {
		t.Fatalf("%d buckets, limit %d", len(l.buckets), maxBuckets)
	}
}
