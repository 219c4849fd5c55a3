package app

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Version reports the module version and VCS revision the binary was built from.
func Version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "mneme (unknown version)"
	}
	v := "mneme " + bi.Main.Version
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" {
			v += " " + s.Value
		}
	}
	return v + " " + bi.GoVersion
}

func connect(ctx context.Context, cfg Config, migrate bool) (*pgxpool.Pool, error) {
	if err := cfg.Common.Validate(); err != nil {
		return nil, err
	}
	pool, err := store.Connect(ctx, cfg.DatabaseURL, cfg.ConnectTimeout)
	if err != nil {
		return nil, err
	}
	if migrate {
		if _, err := store.Migrate(ctx, pool); err != nil {
			pool.Close()
			return nil, err
		}
	}
	return pool, nil
}

// Migrate applies pending migrations and reports what it did.
func Migrate(ctx context.Context, cfg Config, out io.Writer) error {
	pool, err := connect(ctx, cfg, false)
	if err != nil {
		return err
	}
	defer pool.Close()
	applied, err := store.Migrate(ctx, pool)
	if err != nil {
		return err
	}
	if len(applied) == 0 {
		fmt.Fprintln(out, "migrate: database is up to date")
		return nil
	}
	fmt.Fprintf(out, "migrate: applied %v\n", applied)
	return nil
}

// CreateWorkspace creates a workspace and prints its first bearer key.
func CreateWorkspace(ctx context.Context, cfg Config, ws string, out io.Writer) error {
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer pool.Close()
	key, err := auth.CreateWorkspace(ctx, pool, ws, "admin")
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "workspace %s created\nkey: %s\n(store it now: only its hash is kept)\n", ws, key)
	return nil
}

// IssueKey issues another key for a workspace, optionally bound to one agent.
func IssueKey(ctx context.Context, cfg Config, ws, agent string, out io.Writer) error {
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return err
	}
	defer pool.Close()
	key, err := auth.IssueKey(ctx, pool, ws, strings.TrimSpace(agent))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "key: %s\n", key)
	return nil
}
