package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/mneme-ai/mneme/internal/app"
)

// keyUsage documents the key and audit commands (part of the usage text).
const keyUsage = `  mneme issue-key [-role=agent|curator|admin] [-ttl=720h | -expires=<RFC 3339>] <workspace> [agent]
                                         issue another key (bound to one agent, or for any agent)
  mneme revoke-key <key id | key>        revoke a key (refused on every replica within MNEME_AUTH_CACHE_TTL)
  mneme list-keys [workspace]            list keys: ids, agents, roles, expiry, state (never the keys)
  mneme audit-log [-limit=1000] [workspace]
                                         print the audit log of administrative actions (JSON lines)
`

// runKeyCommand runs the key and audit commands; handled is false for any other command.
func runKeyCommand(ctx context.Context, cmd string, args []string, cfg app.Config, stdout io.Writer) (handled bool, err error) {
	switch cmd {
	case "issue-key":
		fs := flag.NewFlagSet("issue-key", flag.ContinueOnError)
		role := fs.String("role", "", "agent (bound to one agent; the default with an agent), curator, or admin (the default without an agent)")
		ttl := fs.Duration("ttl", 0, "the key expires this long after it is issued (e.g. 720h)")
		expires := fs.String("expires", "", "the key expires at this RFC 3339 time")
		if err := fs.Parse(args); err != nil {
			return true, err
		}
		rest := fs.Args()
		if len(rest) < 1 || len(rest) > 2 {
			return true, errors.New("usage: mneme issue-key [-role=agent|curator|admin] [-ttl=<duration> | -expires=<RFC 3339>] <workspace> [agent]")
		}
		req := app.KeyRequest{Workspace: rest[0], Role: *role}
		if len(rest) == 2 {
			req.Agent = rest[1]
		}
		switch {
		case *ttl != 0 && *expires != "":
			return true, errors.New("issue-key: give -ttl or -expires, not both")
		case *ttl < 0:
			return true, fmt.Errorf("issue-key: -ttl=%s must be positive", *ttl)
		case *ttl > 0:
			t := time.Now().Add(*ttl)
			req.Expires = &t
		case *expires != "":
			t, err := time.Parse(time.RFC3339, *expires)
			if err != nil {
				return true, fmt.Errorf("issue-key: -expires=%q is not an RFC 3339 time such as 2027-01-01T00:00:00Z", *expires)
			}
			req.Expires = &t
		}
		return true, app.IssueKeyFor(ctx, cfg, req, stdout)
	case "revoke-key":
		if len(args) != 1 {
			return true, errors.New("usage: mneme revoke-key <key id (mk_…) | key (mnk_…)>")
		}
		return true, app.RevokeKey(ctx, cfg, args[0], stdout)
	case "list-keys":
		if len(args) > 1 {
			return true, errors.New("usage: mneme list-keys [workspace]")
		}
		ws := ""
		if len(args) == 1 {
			ws = args[0]
		}
		return true, app.ListKeys(ctx, cfg, ws, stdout)
	case "audit-log":
		fs := flag.NewFlagSet("audit-log", flag.ContinueOnError)
		limit := fs.Int("limit", 1000, "print at most this many entries (oldest first)")
		if err := fs.Parse(args); err != nil {
			return true, err
		}
		if fs.NArg() > 1 || *limit < 1 {
			return true, errors.New("usage: mneme audit-log [-limit=<n ≥ 1>] [workspace]")
		}
		return true, app.AuditLog(ctx, cfg, fs.Arg(0), *limit, stdout)
	}
	return false, nil
}
