// Package auth establishes who is calling Mneme over HTTP, what the caller may do, and whether it may use a
// workspace.
//
// Every request names its agent in the X-Mneme-Agent header. Outside local development mode a workspace key
// (Authorization: Bearer <key>) is also required; only the SHA-256 of a key is stored (table api_keys), with a
// public id (mk_…, for listing, revocation and audit), a role, an optional agent binding and an optional expiry.
// A key bound to an agent acts only as that agent; an unbound key acts as any agent of its workspace. The role
// says what the key may do beyond reading and writing (see Role). In development mode no key is checked, every
// caller has the admin role, and a workspace is created by its first write; reading an unknown workspace is a
// 404 there. Outside development mode a key of one workspace gets the same 403 for every other workspace,
// existing or not, so a key reveals nothing about other workspaces.
//
// Revoked and expired keys are refused with 401. Positive lookups are cached per process for at most the cache
// TTL (WithCacheTTL, default DefaultCacheTTL) and never beyond a key's expiry, so a revocation takes effect on
// every replica within the TTL.
//
// Requests are rate limited (WithRateLimit): per key once the key is known, per remote address for
// development-mode callers and for credentials that are not (yet) known. Over the limit is a 429 with
// Retry-After.
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
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
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
	// keyIDPrefix marks the public id of a key.
	keyIDPrefix = "mk_"
)

// Role says what a key may do beyond reading and writing as the agent it acts as.
type Role string

// Roles, from least to most privileged.
const (
	// RoleAgent is an agent's own key: it must be bound to the agent, and it may erase only within that agent's
	// private tier.
	RoleAgent Role = "agent"
	// RoleCurator may also erase in the shared tier (never another agent's private tier or a whole workspace).
	RoleCurator Role = "curator"
	// RoleAdmin administers the workspace: it may erase anything of it (other agents' private tiers, the whole
	// workspace) and release claims from quarantine. Development-mode callers have this role.
	RoleAdmin Role = "admin"
)

// Roles lists the roles in order of privilege.
var Roles = []Role{RoleAgent, RoleCurator, RoleAdmin}

// ParseRole returns the role named s.
func ParseRole(s string) (Role, error) {
	for _, r := range Roles {
		if string(r) == s {
			return r, nil
		}
	}
	return "", fmt.Errorf("unknown role %q: use agent, curator or admin", s)
}

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
	// Role is the key's role; RoleAdmin in development mode.
	Role Role
	// KeyID is the public id of the key (empty in development mode).
	KeyID string
}

// Admin reports whether the caller may administer the workspace.
func (id Identity) Admin() bool { return id.Role == RoleAdmin }

// Error is an authentication or authorization failure: the HTTP status and the JSON error body to send.
type Error struct {
	Status int
	Body   api.ErrorBody
	// RetryAfter, for a 429, is how long until the request would be allowed; sent as Retry-After.
	RetryAfter time.Duration
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
	if ae.Status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds(ae.RetryAfter)))
	}
	api.WriteJSON(w, ae.Status, api.Error{Error: ae.Body})
}

// retryAfterSeconds rounds a wait up to whole seconds (Retry-After has no fractions), at least 1.
func retryAfterSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
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

// WithCacheTTL sets how long positive lookups are cached (default DefaultCacheTTL); 0 disables the cache. It is
// the bound on how long a revoked key keeps working on a replica that looked it up just before.
func WithCacheTTL(d time.Duration) Option { return func(a *Authenticator) { a.ttl = d } }

// WithRateLimit limits each key (and each remote address, for development-mode callers and unknown
// credentials) to perSecond requests per second on average with bursts of burst. perSecond <= 0 disables
// rate limiting (the default).
func WithRateLimit(perSecond float64, burst int) Option {
	return func(a *Authenticator) {
		if perSecond > 0 && burst > 0 {
			a.limits = newLimiter(perSecond, burst)
		}
	}
}

// Authenticator identifies HTTP callers against the workspaces and api_keys tables. Safe for concurrent use.
type Authenticator struct {
	db      *pgxpool.Pool
	devMode bool
	ttl     time.Duration
	now     func() time.Time
	limits  *limiter

	mu         sync.Mutex
	workspaces map[string]time.Time // workspace id → cache expiry
	keys       map[[32]byte]keyEntry
}

type keyEntry struct {
	id        string
	workspace string
	agent     string // "" = any agent
	role      Role
	expires   time.Time // cache expiry: min(lookup + TTL, key expiry)
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

// CacheTTL is how long a positive lookup is trusted: the staleness bound of revocation.
func (a *Authenticator) CacheTTL() time.Duration { return a.ttl }

// Identify authenticates r for workspace ws and checks the workspace: Authenticate, then CheckWorkspace.
// write says whether the request writes (a development-mode write creates an unknown workspace; a read of an
// unknown workspace is a 404). Errors are *Error: 401 for a missing or invalid X-Mneme-Agent header or
// credential (unknown, revoked or expired), 403 for a credential of another workspace or agent, 400 for an
// invalid workspace id, 404 for an unknown workspace (development mode), 429 over the rate limit, 503 when the
// database cannot be reached.
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
// not create a workspace. It also applies the rate limit, once per call (none for a Precharged request).
// Errors are as for Identify.
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
		if err := a.limitRequest(r, "addr:"+remoteHost(r)); err != nil {
			return Identity{}, err
		}
		return Identity{Workspace: ws, Agent: agent, Role: RoleAdmin}, nil
	}
	ctx := r.Context()
	key, err := bearer(r)
	if err != nil {
		return Identity{}, err
	}
	h := sha256.Sum256([]byte(key))
	ke, ok := a.cachedKey(h)
	if !ok {
		// An unknown credential costs a database lookup: it is charged to the caller's address, so guessing
		// keys is rate limited too.
		if err := a.limitRequest(r, "addr:"+remoteHost(r)); err != nil {
			return Identity{}, err
		}
		if ke, err = a.loadKey(ctx, h); err != nil {
			return Identity{}, err
		}
	}
	if ke.workspace != ws {
		// The same answer whether ws exists or not: a key says nothing about other workspaces.
		return Identity{}, newError(http.StatusForbidden, api.CodeForbidden, "Authorization",
			fmt.Sprintf("the credential is not valid for workspace %q", ws))
	}
	if ke.agent != "" && ke.agent != agent {
		return Identity{}, newError(http.StatusForbidden, api.CodeForbidden, api.HeaderAgent,
			fmt.Sprintf("the credential is bound to another agent and cannot act as %q", agent))
	}
	if err := a.limitRequest(r, "key:"+ke.id); err != nil {
		return Identity{}, err
	}
	// A key row references its workspace (foreign key), so the workspace exists.
	a.rememberWorkspace(ws)
	return Identity{Workspace: ws, Agent: agent, KeyBound: ke.agent != "", Role: ke.role, KeyID: ke.id}, nil
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

// chargedKey marks a request context as already charged to the rate limit (Precharged).
type chargedKey struct{}

// Precharged returns ctx marked so that Authenticate does not charge the requests made with it to the rate
// limit again: for a request served in process on behalf of a caller whose own request was authenticated and
// charged already (the MCP endpoint, whose tool calls go to the /v1 handlers in process). Only code in this
// process can set it; nothing a client sends can.
func Precharged(ctx context.Context) context.Context {
	return context.WithValue(ctx, chargedKey{}, true)
}

// limitRequest charges r to the bucket named by key, unless r's context is Precharged.
func (a *Authenticator) limitRequest(r *http.Request, key string) error {
	if charged, _ := r.Context().Value(chargedKey{}).(bool); charged {
		return nil
	}
	return a.limit(key)
}

// limit charges one request to the bucket named by key; over the limit it returns a 429 *Error.
func (a *Authenticator) limit(key string) error {
	if a.limits == nil {
		return nil
	}
	if wait := a.limits.take(key, a.now()); wait > 0 {
		e := newError(http.StatusTooManyRequests, api.CodeRateLimited, "",
			fmt.Sprintf("too many requests: the limit is %g per second with bursts of %d (MNEME_HTTP_RATE_LIMIT, MNEME_HTTP_RATE_BURST); retry after %d s",
				a.limits.perSecond, a.limits.burst, retryAfterSeconds(wait)))
		e.RetryAfter = wait
		return e
	}
	return nil
}

// remoteHost is the IP address of the peer (a proxy in front of Mneme counts as one caller: forwarded headers
// are set by the caller and are not trusted).
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
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

func (a *Authenticator) cachedKey(h [32]byte) (keyEntry, bool) {
	a.mu.Lock()
	ke, ok := a.keys[h]
	a.mu.Unlock()
	return ke, ok && a.now().Before(ke.expires)
}

// loadKey reads a key from the database and caches it if it is valid.
func (a *Authenticator) loadKey(ctx context.Context, h [32]byte) (keyEntry, error) {
	now := a.now()
	var ke keyEntry
	var agent *string
	var revoked, expires *time.Time
	var role string
	err := a.db.QueryRow(ctx, `SELECT key_id, workspace_id, agent_id, role, revoked_at, expires_at FROM api_keys WHERE key_hash = $1`, h[:]).
		Scan(&ke.id, &ke.workspace, &agent, &role, &revoked, &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return keyEntry{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization", "the credential is not a valid key")
	}
	if err != nil {
		return keyEntry{}, unavailable("look up key", err)
	}
	if revoked != nil {
		return keyEntry{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization", "the credential has been revoked")
	}
	if expires != nil && !now.Before(*expires) {
		return keyEntry{}, newError(http.StatusUnauthorized, api.CodeUnauthorized, "Authorization", "the credential has expired")
	}
	if agent != nil {
		ke.agent = *agent
	}
	ke.role = Role(role)
	if a.ttl > 0 {
		ke.expires = now.Add(a.ttl)
		if expires != nil && expires.Before(ke.expires) {
			ke.expires = *expires
		}
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

// KeyID returns the public id of a key: "mk_" and the first 16 hex digits of the key's SHA-256. It names the
// key in listings, revocation and the audit log without being usable as one.
func KeyID(key string) string {
	h := sha256.Sum256([]byte(key))
	return keyIDOfHash(h)
}

func keyIDOfHash(h [32]byte) string { return keyIDPrefix + hex.EncodeToString(h[:8]) }
