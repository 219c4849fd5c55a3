// Package auth establishes who is calling Mneme over HTTP and whether they may use a workspace.
//
// Every request names its agent in the X-Mneme-Agent header. Outside local development mode a workspace
// credential (Authorization: Bearer <key>) is also required; only the SHA-256 of a key is stored (table
// api_keys), and a key either may act as any agent of its workspace (agent_id NULL) or is bound to one agent.
// In development mode no key is checked and a workspace is created by its first write; reading an unknown
// workspace is a 404 in both modes.
//
// Usage in a handler:
//
//	id, err := a.Identify(r, r.PathValue("ws"), true)
//	if err != nil {
//		auth.WriteError(w, err)
//		return
//	}
package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/api"
)

// Limits on identifiers.
const (
	// MaxAgentIDLen is the longest agent id accepted.
	MaxAgentIDLen = 128
	// MaxWorkspaceIDLen is the longest workspace id accepted.
	MaxWorkspaceIDLen = 64
	// DefaultCacheTTL is how long a positive lookup (known workspace, valid key) is remembered. A revoked key
	// is refused at the latest this long after revocation.
	DefaultCacheTTL = 10 * time.Second
	// keyPrefix marks Mneme keys so they are recognisable in configuration and secret scanners.
	keyPrefix = "mnk_"
)

// Sentinel errors of the admin functions, checked with errors.Is.
var (
	// ErrWorkspaceExists is returned by CreateWorkspace for a workspace id already in use.
	ErrWorkspaceExists = errors.New("auth: workspace already exists")
	// ErrUnknownWorkspace is returned when a workspace does not exist.
	ErrUnknownWorkspace = errors.New("auth: unknown workspace")
	// ErrUnknownKey is returned by RevokeKey for a key that was never issued.
	ErrUnknownKey = errors.New("auth: unknown key")
)

// Identity is the authenticated caller of one request.
type Identity struct {
	// Workspace is the validated workspace id; it exists (or was just created by a development-mode write).
	Workspace string
	// Agent is the validated agent id from X-Mneme-Agent.
	Agent string
	// KeyBound is true when the credential is bound to Agent (rather than valid for any agent).
	KeyBound bool
}

// Error is an authentication or authorization failure: the HTTP status and the JSON error body to send.
type Error struct {
	Status int
	Body   api.ErrorBody
	// Cause is the underlying error (for example a database error behind a 503), for logs; never sent.
	Cause error
}

func (e *Error) Error() string {
	if e.Cause != nil {
		return fmt.Sprintf("auth: %d %s: %s: %v", e.Status, e.Body.Code, e.Body.Message, e.Cause)
	}
	return fmt.Sprintf("auth: %d %s: %s", e.Status, e.Body.Code, e.Body.Message)
}

func (e *Error) Unwrap() error { return e.Cause }

func newError(status int, code, field, msg string) *Error {
	return &Error{Status: status, Body: api.ErrorBody{Code: code, Field: field, Message: msg}}
}

// WriteError writes err as a JSON error response: an *Error (possibly wrapped) with its own status and body,
// anything else as 500 internal without details.
func WriteError(w http.ResponseWriter, err error) {
	var ae *Error
	if !errors.As(err, &ae) {
		api.WriteJSON(w, http.StatusInternalServerError, api.Error{Error: api.ErrorBody{Code: api.CodeInternal, Message: "internal error"}})
		return
	}
	if ae.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Bearer realm="mneme"`)
	}
	api.WriteJSON(w, ae.Status, api.Error{Error: ae.Body})
}

// ValidAgentID reports whether id is an acceptable agent id: 1–128 characters of [A-Za-z0-9._:@-].
func ValidAgentID(id string) error {
	if id == "" {
		return errors.New("agent id is empty")
	}
	if len(id) > MaxAgentIDLen {
		return fmt.Errorf("agent id is %d bytes, limit %d", len(id), MaxAgentIDLen)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("._:@-", c) >= 0) {
			return fmt.Errorf("agent id has a character %q at byte %d outside [A-Za-z0-9._:@-]", c, i)
		}
	}
	return nil
}

// ValidWorkspaceID reports whether ws is an acceptable workspace id: 1–64 characters of [a-z0-9_-] starting
// with a letter or digit, which also makes it a single NATS subject token.
func ValidWorkspaceID(ws string) error {
	if ws == "" {
		return errors.New("workspace id is empty")
	}
	if len(ws) > MaxWorkspaceIDLen {
		return fmt.Errorf("workspace id is %d bytes, limit %d", len(ws), MaxWorkspaceIDLen)
	}
	for i := 0; i < len(ws); i++ {
		c := ws[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '_' || c == '-')) {
			if i == 0 && (c == '_' || c == '-') {
				return fmt.Errorf("workspace id must start with a letter or digit, not %q", c)
			}
			return fmt.Errorf("workspace id has a character %q at byte %d outside [a-z0-9_-]", c, i)
		}
	}
	return nil
}

// Option configures an Authenticator.
type Option func(*Authenticator)

// WithCacheTTL sets how long positive lookups are cached (default DefaultCacheTTL); 0 disables the cache.
func WithCacheTTL(d time.Duration) Option { return func(a *Authenticator) { a.ttl = d } }

// Authenticator identifies HTTP callers against the workspaces and api_keys tables. Safe for concurrent use.
type Authenticator struct {
	db      *pgxpool.Pool
	devMode bool
	ttl     time.Duration
	now     func() time.Time

	mu         sync.Mutex
	workspaces map[string]time.Time // workspace id → cache expiry
	keys       map[[32]byte]keyEntry
}

type keyEntry struct {
	workspace string
	agent     string // "" = any agent
	expires   time.Time
}

// maxCacheEntries bounds each cache; when full it is cleared rather than evicted entry by entry, which is
// cheap and only costs a few extra lookups.
const maxCacheEntries = 10000

// New returns an Authenticator over db. devMode is config.Common.DevMode: no keys, workspaces created by
// their first write.
func New(db *pgxpool.Pool, devMode bool, opts ...Option) *Authenticator {
	a := &Authenticator{
		db:         db,
		devMode:    devMode,
		ttl:        DefaultCacheTTL,
		now:        time.Now,
		workspaces: make(map[string]time.Time),
		keys:       make(map[[32]byte]keyEntry),
	}
	for _, o := range opts {
		o(a)
	}
	return a
}

// DevMode reports whether the authenticator runs in local development mode.
func (a *Authenticator) DevMode() bool { return a.devMode }

// Identify authenticates r for workspace ws and checks the workspace: Authenticate, then CheckWorkspace.
// write says whether the request writes (a development-mode write creates an unknown workspace; a read of an
// unknown workspace is a 404). Errors are *Error: 401 for a missing or invalid X-Mneme-Agent header or
// credential, 403 for a credential of another workspace or agent, 400 for an invalid workspace id, 404 for an
// unknown workspace, 503 when the database cannot be reached.
func (a *Authenticator) Identify(r *http.Request, ws string, write bool) (Identity, error) {
	id, err := a.Authenticate(r, ws)
	if err != nil {
		return Identity{}, err
	}
	if err := a.CheckWorkspace(r.Context(), ws, id.Agent, write); err != nil {
		return Identity{}, err
	}
	return id, nil
}

// Authenticate checks who is calling and whether the credential covers workspace ws, without creating the
// workspace: writers call it before validating a body and CheckWorkspace after, so that a rejected write does
// not create a workspace. Errors are as for Identify.
func (a *Authenticator) Authenticate(r *http.Request, ws string) (Identity, error) {
	agent := r.Header.Get(api.HeaderAgent)
	if agent == "" {
		return Identity{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, api.HeaderAgent,
			"the "+api.HeaderAgent+" header is required: it names the calling agent")
	}
	if err := ValidAgentID(agent); err != nil {
		return Identity{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, api.HeaderAgent,
			"the "+api.HeaderAgent+" header is invalid: "+err.Error())
	}
	if err := ValidWorkspaceID(ws); err != nil {
		return Identity{}, newError(http.StatusBadRequest, api.CodeInvalid, "workspace", err.Error())
	}
	if a.devMode {
		return Identity{Workspace: ws, Agent: agent}, nil
	}
	ctx := r.Context()
	key, err := bearer(r)
	if err != nil {
		return Identity{}, err
	}
	ke, err := a.lookupKey(ctx, key)
	if err != nil {
		return Identity{}, err
	}
	if ke.workspace != ws {
		// Outside development mode workspaces exist only when created by the admin command, so an unknown one
		// is a 404 whatever the key; a known one the key does not cover is a 403.
		if err := a.CheckWorkspace(ctx, ws, agent, false); err != nil {
			return Identity{}, err
		}
		return Identity{}, newError(http.StatusForbidden, api.CodeForbidden, "Authorization",
			fmt.Sprintf("the credential is not valid for workspace %q", ws))
	}
	if ke.agent != "" && ke.agent != agent {
		return Identity{}, newError(http.StatusForbidden, api.CodeForbidden, api.HeaderAgent,
			fmt.Sprintf("the credential is bound to another agent and cannot act as %q", agent))
	}
	// A key row references its workspace (foreign key), so the workspace exists.
	a.rememberWorkspace(ws)
	return Identity{Workspace: ws, Agent: agent, KeyBound: ke.agent != ""}, nil
}

// CheckWorkspace checks that ws exists. With write in development mode an unknown workspace is created, with
// createdBy recorded; otherwise an unknown workspace is a 404 *Error. ws must already be valid. The NATS
// inbox, which carries no bearer key, uses this directly.
func (a *Authenticator) CheckWorkspace(ctx context.Context, ws, createdBy string, write bool) error {
	if a.cachedWorkspace(ws) {
		return nil
	}
	var exists bool
	if write && a.devMode {
		// INSERT … ON CONFLICT DO NOTHING is idempotent under concurrent first writes.
		if _, err := a.db.Exec(ctx, `INSERT INTO workspaces (id, created_by) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, ws, createdBy); err != nil {
			return unavailable("create workspace", err)
		}
		exists = true
	} else if err := a.db.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM workspaces WHERE id = $1)`, ws).Scan(&exists); err != nil {
		return unavailable("look up workspace", err)
	}
	if !exists {
		return newError(http.StatusNotFound, api.CodeNotFound, "workspace", fmt.Sprintf("workspace %q does not exist", ws))
	}
	a.rememberWorkspace(ws)
	return nil
}

func bearer(r *http.Request) (string, error) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return "", newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization",
			"the Authorization header is required: send 'Authorization: Bearer <key>' with a workspace key (or run in development mode, MNEME_DEV_MODE=true)")
	}
	scheme, key, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(key) == "" {
		return "", newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization",
			"the Authorization header must be 'Bearer <key>'")
	}
	return strings.TrimSpace(key), nil
}

func (a *Authenticator) lookupKey(ctx context.Context, key string) (keyEntry, error) {
	h := sha256.Sum256([]byte(key))
	now := a.now()
	a.mu.Lock()
	ke, ok := a.keys[h]
	a.mu.Unlock()
	if ok && now.Before(ke.expires) {
		return ke, nil
	}
	var agent *string
	var revoked *time.Time
	err := a.db.QueryRow(ctx, `SELECT workspace_id, agent_id, revoked_at FROM api_keys WHERE key_hash = $1`, h[:]).
		Scan(&ke.workspace, &agent, &revoked)
	if errors.Is(err, pgx.ErrNoRows) {
		return keyEntry{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization", "the credential is not a valid key")
	}
	if err != nil {
		return keyEntry{}, unavailable("look up key", err)
	}
	if revoked != nil {
		return keyEntry{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization", "the credential has been revoked")
	}
	if agent != nil {
		ke.agent = *agent
	}
	if a.ttl > 0 {
		ke.expires = now.Add(a.ttl)
		a.mu.Lock()
		if len(a.keys) >= maxCacheEntries {
			clear(a.keys)
		}
		a.keys[h] = ke
		a.mu.Unlock()
	}
	return ke, nil
}

func (a *Authenticator) cachedWorkspace(ws string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	exp, ok := a.workspaces[ws]
	return ok && a.now().Before(exp)
}

func (a *Authenticator) rememberWorkspace(ws string) {
	if a.ttl <= 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.workspaces) >= maxCacheEntries {
		clear(a.workspaces)
	}
	a.workspaces[ws] = a.now().Add(a.ttl)
}

func unavailable(what string, err error) *Error {
	e := newError(http.StatusServiceUnavailable, api.CodeUnavailable, "", "the database is unavailable; retry later")
	e.Cause = fmt.Errorf("%s: %w", what, err)
	return e
}

// CreateWorkspace creates workspace ws (recording createdBy) and issues its first key, valid for any agent.
// It returns ErrWorkspaceExists (wrapped) when ws is already in use; IssueKey adds keys to an existing one.
func CreateWorkspace(ctx context.Context, db *pgxpool.Pool, ws, createdBy string) (key string, err error) {
	if err := ValidWorkspaceID(ws); err != nil {
		return "", fmt.Errorf("auth: create workspace: %w", err)
	}
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO workspaces (id, created_by) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING`, ws, createdBy)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return fmt.Errorf("%w: %q", ErrWorkspaceExists, ws)
		}
		key, err = insertKey(ctx, tx, ws, "")
		return err
	})
	if err != nil {
		return "", fmt.Errorf("auth: create workspace: %w", err)
	}
	return key, nil
}

// IssueKey issues a new key for workspace ws. With agent "" the key may act as any agent of the workspace;
// otherwise only as agent. The key is returned once; only its SHA-256 is stored.
func IssueKey(ctx context.Context, db *pgxpool.Pool, ws, agent string) (string, error) {
	if err := ValidWorkspaceID(ws); err != nil {
		return "", fmt.Errorf("auth: issue key: %w", err)
	}
	if agent != "" {
		if err := ValidAgentID(agent); err != nil {
			return "", fmt.Errorf("auth: issue key: %w", err)
		}
	}
	key, err := insertKey(ctx, db, ws, agent)
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23503" { // foreign_key_violation
			return "", fmt.Errorf("auth: issue key: %w: %q", ErrUnknownWorkspace, ws)
		}
		return "", fmt.Errorf("auth: issue key: %w", err)
	}
	return key, nil
}

// RevokeKey marks key revoked; Authenticators refuse it within their cache TTL. Revoking twice is not an error.
func RevokeKey(ctx context.Context, db *pgxpool.Pool, key string) error {
	h := sha256.Sum256([]byte(key))
	tag, err := db.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now()) WHERE key_hash = $1`, h[:])
	if err != nil {
		return fmt.Errorf("auth: revoke key: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return ErrUnknownKey
	}
	return nil
}

type execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

func insertKey(ctx context.Context, db execer, ws, agent string) (string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	key := keyPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	h := sha256.Sum256([]byte(key))
	var agentArg *string
	if agent != "" {
		agentArg = &agent
	}
	if _, err := db.Exec(ctx, `INSERT INTO api_keys (key_hash, workspace_id, agent_id) VALUES ($1, $2, $3)`, h[:], ws, agentArg); err != nil {
		return "", err
	}
	return key, nil
}
