package app

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/auth"
)

// KeyRequest describes a key to issue.
type KeyRequest struct {
	Workspace string
	// Agent binds the key to one agent; empty lets it act as any agent of the workspace.
	Agent string
	// Role is agent, curator or admin; empty means agent for a bound key and admin otherwise.
	Role string
	// Expires, when set, is when the key stops working.
	Expires *time.Time
}

// IssueKeyFor issues a key as req says and prints it once with its public id; only its hash is stored.
func IssueKeyFor(ctx context.Context, cfg Config, req KeyRequest, out io.Writer) error {
	var opts []auth.KeyOption
	if req.Role != "" {
		r, err := auth.ParseRole(req.Role)
		if err != nil {
			return err
		}
		opts = append(opts, auth.WithRole(r))
	}
	if req.Expires != nil {
		opts = append(opts, auth.WithExpiry(*req.Expires))
	}
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer pool.Close()
	key, err := auth.IssueKey(ctx, pool, req.Workspace, strings.TrimSpace(req.Agent), opts...)
	if err != nil {
		return err
	}
	keys, err := auth.ListKeys(ctx, pool, req.Workspace)
	if err != nil {
		return err
	}
	id := auth.KeyID(key)
	for _, k := range keys {
		if k.ID == id {
			fmt.Fprintf(out, "key: %s\nkey id: %s (%s)\n(store the key now: only its hash is kept; revoke it with `mneme revoke-key %s`)\n",
				key, id, describeKey(k), id)
			return nil
		}
	}
	fmt.Fprintf(out, "key: %s\nkey id: %s\n", key, id)
	return nil
}

func describeKey(k auth.KeyInfo) string {
	agent := "any agent"
	if k.Agent != "" {
		agent = "agent " + k.Agent
	}
	s := fmt.Sprintf("role %s, %s", k.Role, agent)
	if k.ExpiresAt != nil {
		s += ", expires " + k.ExpiresAt.UTC().Format(time.RFC3339)
	}
	return s
}

// RevokeKey revokes a key named by its id (mk_…) or by the key itself; every replica refuses it within
// MNEME_AUTH_CACHE_TTL.
func RevokeKey(ctx context.Context, cfg Config, keyOrID string, out io.Writer) error {
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer pool.Close()
	if err := auth.RevokeKey(ctx, pool, strings.TrimSpace(keyOrID)); err != nil {
		return err
	}
	id := keyOrID
	if !strings.HasPrefix(id, "mk_") {
		id = auth.KeyID(keyOrID)
	}
	fmt.Fprintf(out, "key %s revoked (refused everywhere within %s, MNEME_AUTH_CACHE_TTL)\n", id, cfg.AuthCacheTTL)
	return nil
}

// ListKeys prints the keys of a workspace (of every workspace when ws is empty): ids, bindings, roles, expiry
// and state. Never a key or its hash.
func ListKeys(ctx context.Context, cfg Config, ws string, out io.Writer) error {
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer pool.Close()
	keys, err := auth.ListKeys(ctx, pool, ws)
	if err != nil {
		return err
	}
	now := time.Now()
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KEY ID\tWORKSPACE\tAGENT\tROLE\tCREATED\tEXPIRES\tSTATE")
	for _, k := range keys {
		agent := "*"
		if k.Agent != "" {
			agent = k.Agent
		}
		expires := "never"
		if k.ExpiresAt != nil {
			expires = k.ExpiresAt.UTC().Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", k.ID, k.Workspace, agent, k.Role, k.CreatedAt.UTC().Format(time.RFC3339), expires, k.State(now))
	}
	return tw.Flush()
}

// AuditLog prints the audit log of a workspace (every workspace when ws is empty), oldest first, one JSON
// object per line.
func AuditLog(ctx context.Context, cfg Config, ws string, limit int, out io.Writer) error {
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer pool.Close()
	entries, err := audit.List(ctx, pool, ws, limit)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(out)
	for _, e := range entries {
		_, env, err := e.Event()
		if err != nil {
			return err
		}
		if err := enc.Encode(env.Data); err != nil {
			return err
		}
	}
	return nil
}
