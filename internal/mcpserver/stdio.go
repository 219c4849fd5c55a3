package mcpserver

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/client"
)

// DefaultURL is the Mneme HTTP API `mneme mcp` calls when neither -url nor MNEME_URL names one.
const DefaultURL = "http://127.0.0.1:8080"

// StdioUsage describes `mneme mcp`.
const StdioUsage = `mneme mcp — serve Mneme's MCP tools over stdio, as a client of a running Mneme's HTTP API

Usage:
  mneme mcp [-url URL] -workspace WS -agent AGENT [-key-file PATH] [-timeout 60s]

Every flag has an environment variable, which MCP client configurations usually set:
  MNEME_URL        -url        the Mneme HTTP API (default ` + DefaultURL + `)
  MNEME_WORKSPACE  -workspace  the workspace to act on
  MNEME_AGENT      -agent      the agent to act as (sent as X-Mneme-Agent)
  MNEME_KEY        (env only)  the workspace key, sent as Authorization: Bearer (required outside development mode);
                   -key-file reads it from a file instead. Keys are never taken from flags, which other users can read.

The process speaks MCP on stdin/stdout and logs to stderr. It has exactly the power of its key and agent.
`

// StdioConfig is what `mneme mcp` needs to reach Mneme.
type StdioConfig struct {
	URL       string
	Workspace string
	Agent     string
	Key       string
	Timeout   time.Duration
}

// ParseStdioArgs reads the configuration from args and the environment (getenv), validating it with messages
// that name the flag and its variable.
func ParseStdioArgs(args []string, getenv func(string) string, stderr io.Writer) (StdioConfig, error) {
	cfg := StdioConfig{}
	fs := flag.NewFlagSet("mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, StdioUsage) }
	url := getenv("MNEME_URL")
	if url == "" {
		url = DefaultURL
	}
	fs.StringVar(&cfg.URL, "url", url, "the Mneme HTTP API (MNEME_URL)")
	fs.StringVar(&cfg.Workspace, "workspace", getenv("MNEME_WORKSPACE"), "the workspace to act on (MNEME_WORKSPACE)")
	fs.StringVar(&cfg.Agent, "agent", getenv("MNEME_AGENT"), "the agent to act as (MNEME_AGENT)")
	keyFile := fs.String("key-file", "", "read the workspace key from this file instead of MNEME_KEY")
	fs.DurationVar(&cfg.Timeout, "timeout", 60*time.Second, "bound on one call to the HTTP API")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("mcp: unexpected argument %q (see mneme mcp -h)", fs.Arg(0))
	}
	cfg.Key = getenv("MNEME_KEY")
	if *keyFile != "" {
		b, err := os.ReadFile(*keyFile)
		if err != nil {
			return cfg, fmt.Errorf("mcp: -key-file: %w", err)
		}
		cfg.Key = strings.TrimSpace(string(b))
	}
	if err := auth.ValidWorkspaceID(cfg.Workspace); err != nil {
		return cfg, fmt.Errorf("mcp: -workspace (MNEME_WORKSPACE): %w", err)
	}
	if err := auth.ValidAgentID(cfg.Agent); err != nil {
		return cfg, fmt.Errorf("mcp: -agent (MNEME_AGENT): %w", err)
	}
	if cfg.Timeout <= 0 {
		return cfg, fmt.Errorf("mcp: -timeout=%s must be positive", cfg.Timeout)
	}
	return cfg, nil
}

// RunStdio serves MCP on in/out until the client closes in or ctx ends. Nothing but protocol messages is
// written to out; diagnostics go to stderr.
func RunStdio(ctx context.Context, cfg StdioConfig, version string, in io.Reader, out io.Writer, stderr io.Writer) error {
	opts := []client.Option{client.WithTimeout(cfg.Timeout)}
	if cfg.Key != "" {
		opts = append(opts, client.WithKey(cfg.Key))
	}
	c, err := client.New(cfg.URL, cfg.Agent, opts...)
	if err != nil {
		return fmt.Errorf("mcp: -url (MNEME_URL): %w", err)
	}
	fmt.Fprintf(stderr, "mneme mcp: serving workspace %s as agent %s through %s on stdio\n", cfg.Workspace, cfg.Agent, cfg.URL)
	srv := New(cfg.Workspace, c, Options{Version: version})
	err = srv.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}, MaxLineLength: maxMessageBytes})
	if err == nil || errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return fmt.Errorf("mcp: %w", err)
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
