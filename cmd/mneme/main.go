// Command mneme is Mneme in one binary: `mneme run -target=all` runs every service in one process (with an
// embedded NATS server unless MNEME_NATS_URL names one), `-target=ingest` (etc.) runs one service alone, so the
// same binary serves a laptop and a Kubernetes Deployment per service. Admin commands: migrate, digest,
// replay, create-workspace, issue-key, revoke-key, list-keys, audit-log, nats (NATS credentials); `mneme mcp` serves
// the MCP tools on stdio as a client of a running Mneme.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/internal/mcpserver"
)

const usage = `mneme — long-term memory for LLM agents

Usage:
  mneme run [-target=all|ingest,extractor,embedder,reconciler,query]
  mneme migrate                          apply database migrations
  mneme digest                           print the canonical digest of the projection
  mneme replay -into=<postgres URL>      rebuild the projection from the streams into another database and compare digests
  mneme create-workspace <workspace>     create a workspace and print its first key (outside local development mode)
` + keyUsage + app.NATSUsage + `  mneme mcp -workspace=<ws> -agent=<id>  serve the MCP tools on stdio, as a client of a running Mneme (mneme mcp -h)
  mneme version

Configuration is read from MNEME_* environment variables; see the README.
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "mneme:", err)
		}
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	cmd, rest := args[0], args[1:]
	if cmd == "mcp" {
		// A client of a running Mneme: it reads no server configuration.
		mc, err := mcpserver.ParseStdioArgs(rest, os.Getenv, stderr)
		if err != nil {
			return err
		}
		return mcpserver.RunStdio(ctx, mc, app.Version(), os.Stdin, stdout, stderr)
	}
	cfg, err := app.LoadConfig()
	if err != nil {
		return err
	}
	log := app.NewLogger(stderr, cfg.LogLevel, cfg.LogFormat)
	if handled, err := runKeyCommand(ctx, cmd, rest, cfg, stdout); handled {
		return err
	}
	switch cmd {
	case "run":
		fs := flag.NewFlagSet("run", flag.ContinueOnError)
		target := fs.String("target", cfg.Target, "services to run: all, or a comma-separated list of ingest, extractor, embedder, reconciler, query")
		if err := fs.Parse(rest); err != nil {
			return err
		}
		cfg.Target = *target
		if err := cfg.Validate(); err != nil {
			return err
		}
		a, err := app.Build(ctx, cfg, log)
		if err != nil {
			return err
		}
		return a.Run(ctx)
	case "migrate":
		return app.Migrate(ctx, cfg, stdout)
	case "digest":
		return app.Digest(ctx, cfg, stdout)
	case "replay":
		fs := flag.NewFlagSet("replay", flag.ContinueOnError)
		into := fs.String("into", "", "Postgres URL of an empty database to rebuild the projection into")
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if *into == "" {
			return errors.New("replay: -into=<postgres URL of an empty database> is required")
		}
		return app.Replay(ctx, cfg, *into, stdout, log)
	case "create-workspace":
		if len(rest) != 1 {
			return errors.New("usage: mneme create-workspace <workspace>")
		}
		return app.CreateWorkspace(ctx, cfg, rest[0], stdout)
	case "nats":
		return app.NATSCommand(ctx, cfg, rest, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, app.Version())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", cmd)
}
