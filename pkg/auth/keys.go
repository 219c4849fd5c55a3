package auth

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/event"
)

// KeyOption configures IssueKey and CreateWorkspace.
type KeyOption func(*keySpec)

type keySpec struct {
	role    Role
	expires *time.Time
	actor   string
	actorID string
}

// WithRole sets the key's role (default: RoleAgent for a key bound to an agent, RoleAdmin for one valid for
// any agent, which is what keys were before roles existed).
func WithRole(r Role) KeyOption { return func(s *keySpec) { s.role = r } }

// WithExpiry makes the key expire at t: from then on it is refused with 401.
func WithExpiry(t time.Time) KeyOption { return func(s *keySpec) { t := t.UTC(); s.expires = &t } }

// WithActor names who issues the key in the audit log: an agent id and the id of the key it acted with, or
// audit.ActorCLI (the default) for the admin commands.
func WithActor(actor, keyID string) KeyOption {
	return func(s *keySpec) { s.actor, s.actorID = actor, keyID }
}

func newKeySpec(agent string, opts []KeyOption) (keySpec, error) {
	s := keySpec{actor: audit.ActorCLI}
	for _, o := range opts {
		o(&s)
	}
	if s.role == "" {
		s.role = RoleAdmin
		if agent != "" {
			s.role = RoleAgent
		}
	}
	if _, err := ParseRole(string(s.role)); err != nil {
		return s, err
	}
	if s.role == RoleAgent && agent == "" {
		return s, errors.New("an agent key must be bound to an agent: name the agent, or choose the curator or admin role")
	}
	if s.expires != nil && !s.expires.After(time.Now()) {
		return s, fmt.Errorf("expiry %s is not in the future", s.expires.Format(time.RFC3339))
	}
	return s, nil
}

// CreateWorkspace creates workspace ws (recording createdBy) and issues its first key: valid for any agent,
// with the admin role unless opts say otherwise. Both are recorded in the audit log in the same transaction.
// It returns ErrWorkspaceExists (wrapped) when ws is already in use; IssueKey adds keys to an existing one.
func CreateWorkspace(ctx context.Context, db *pgxpool.Pool, ws, createdBy string, opts ...KeyOption) (key string, err error) {
	if err := ValidWorkspaceID(ws); err != nil {
		return "", fmt.Errorf("auth: create workspace: %w", err)
	}
	spec, err := newKeySpec("", opts)
	if err != nil {
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
		if _, err := audit.Record(ctx, tx, audit.Entry{Workspace: ws, Action: event.AuditWorkspaceCreated, Actor: spec.actor, KeyID: spec.actorID,
			Details: map[string]any{"created_by": createdBy}}); err != nil {
			return err
		}
		key, err = insertKey(ctx, tx, ws, "", spec)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("auth: create workspace: %w", err)
	}
	return key, nil
}

// IssueKey issues a new key for workspace ws. With agent "" the key may act as any agent of the workspace;
// otherwise only as agent. opts set the role (WithRole), the expiry (WithExpiry) and who issues it
// (WithActor). The key is returned once; only its SHA-256 is stored, and KeyID(key) names it. The issue is
// recorded in the audit log in the same transaction.
func IssueKey(ctx context.Context, db *pgxpool.Pool, ws, agent string, opts ...KeyOption) (string, error) {
	if err := ValidWorkspaceID(ws); err != nil {
		return "", fmt.Errorf("auth: issue key: %w", err)
	}
	if agent != "" {
		if err := ValidAgentID(agent); err != nil {
			return "", fmt.Errorf("auth: issue key: %w", err)
		}
	}
	spec, err := newKeySpec(agent, opts)
	if err != nil {
		return "", fmt.Errorf("auth: issue key: %w", err)
	}
	var key string
	err = pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		key, err = insertKey(ctx, tx, ws, agent, spec)
		return err
	})
	if err != nil {
		var pgErr *pgconn.PgError
		if errors.As(err, &pgErr) && pgErr.Code == "23503" { // foreign_key_violation
			return "", fmt.Errorf("auth: issue key: %w: %q", ErrUnknownWorkspace, ws)
		}
		return "", fmt.Errorf("auth: issue key: %w", err)
	}
	return key, nil
}

// KeyInfo describes an issued key: everything but the key.
type KeyInfo struct {
	ID        string
	Workspace string
	// Agent is the agent the key is bound to; empty when it may act as any agent.
	Agent     string
	Role      Role
	CreatedAt time.Time
	CreatedBy string
	ExpiresAt *time.Time
	RevokedAt *time.Time
}

// State is "active", "expired" or "revoked" at now.
func (k KeyInfo) State(now time.Time) string {
	switch {
	case k.RevokedAt != nil:
		return "revoked"
	case k.ExpiresAt != nil && !now.Before(*k.ExpiresAt):
		return "expired"
	}
	return "active"
}

// ListKeys returns the keys of workspace ws (every workspace when ws is empty), oldest first. It never returns
// a key or its hash.
func ListKeys(ctx context.Context, db *pgxpool.Pool, ws string) ([]KeyInfo, error) {
	rows, err := db.Query(ctx, `SELECT key_id, workspace_id, coalesce(agent_id, ''), role, created_at, created_by, expires_at, revoked_at
		FROM api_keys WHERE $1 = '' OR workspace_id = $1 ORDER BY workspace_id, created_at, key_id`, ws)
	if err != nil {
		return nil, fmt.Errorf("auth: list keys: %w", err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (KeyInfo, error) {
		var k KeyInfo
		var role string
		err := r.Scan(&k.ID, &k.Workspace, &k.Agent, &role, &k.CreatedAt, &k.CreatedBy, &k.ExpiresAt, &k.RevokedAt)
		k.Role = Role(role)
		return k, err
	})
	if err != nil {
		return nil, fmt.Errorf("auth: list keys: %w", err)
	}
	return out, nil
}

// RevokeKey marks a key revoked; it is named by its public id (mk_…) or by the key itself (mnk_…). Every
// Authenticator refuses it within its cache TTL. Revoking twice is not an error (and is audited once). opts
// may name the actor (WithActor); other options are ignored.
func RevokeKey(ctx context.Context, db *pgxpool.Pool, keyOrID string, opts ...KeyOption) error {
	spec := keySpec{actor: audit.ActorCLI}
	for _, o := range opts {
		o(&spec)
	}
	id := keyOrID
	if !strings.HasPrefix(keyOrID, keyIDPrefix) {
		id = KeyID(keyOrID)
	}
	return pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		var ws string
		var already bool
		err := tx.QueryRow(ctx, `SELECT workspace_id, revoked_at IS NOT NULL FROM api_keys WHERE key_id = $1 FOR UPDATE`, id).Scan(&ws, &already)
		if errors.Is(err, pgx.ErrNoRows) {
			return ErrUnknownKey
		}
		if err != nil {
			return fmt.Errorf("auth: revoke key: %w", err)
		}
		if already {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = now() WHERE key_id = $1`, id); err != nil {
			return fmt.Errorf("auth: revoke key: %w", err)
		}
		_, err = audit.Record(ctx, tx, audit.Entry{Workspace: ws, Action: event.AuditKeyRevoked, Actor: spec.actor, KeyID: spec.actorID,
			Details: map[string]any{"key_id": id}})
		return err
	})
}

func insertKey(ctx context.Context, tx pgx.Tx, ws, agent string, spec keySpec) (string, error) {
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	key := keyPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	h := sha256.Sum256([]byte(key))
	id := keyIDOfHash(h)
	var agentArg *string
	if agent != "" {
		agentArg = &agent
	}
	createdBy := spec.actor
	if _, err := tx.Exec(ctx, `INSERT INTO api_keys (key_hash, key_id, workspace_id, agent_id, role, expires_at, created_by)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`, h[:], id, ws, agentArg, string(spec.role), spec.expires, createdBy); err != nil {
		return "", err
	}
	details := map[string]any{"key_id": id, "role": string(spec.role)}
	if agent != "" {
		details["agent"] = agent
	}
	if spec.expires != nil {
		details["expires_at"] = spec.expires.Format(time.RFC3339)
	}
	if _, err := audit.Record(ctx, tx, audit.Entry{Workspace: ws, Action: event.AuditKeyIssued, Actor: spec.actor, KeyID: spec.actorID,
		Details: details}); err != nil {
		return "", err
	}
	return key, nil
}
