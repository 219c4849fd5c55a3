package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// NATSUsage describes the `mneme nats` commands.
const NATSUsage = `  mneme nats init [-dir D] [-resolver-dir P]
                                         write the NATS operator, accounts, service credentials and server/auth.conf
  mneme nats agent-creds [-dir D] [-expires DUR] [-out F] <workspace> <agent>
                                         issue an agent's NATS credential (.creds, to stdout unless -out)
  mneme nats revoke-agent [-dir D] <workspace> <agent>
                                         revoke every NATS credential of an agent and push it to the server
  mneme nats list-agents [-dir D] [workspace]
                                         list the agent credentials issued (user key, expiry, revoked)
  mneme nats push [-dir D]               push the accounts (revocations) to the running NATS server
`

// NATSCommand runs `mneme nats <sub> ...`: the NATS credentials admin commands. -dir defaults to
// MNEME_NATS_AUTH_DIR. agent-creds and revoke-agent are administrative actions: they record an audit entry in
// Postgres (MNEME_DATABASE_URL), which the reconciler relays to the ledger, like the key commands.
func NATSCommand(ctx context.Context, cfg Config, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, "Usage:\n"+NATSUsage)
		return flag.ErrHelp
	}
	sub, rest := args[0], args[1:]
	fs := flag.NewFlagSet("nats "+sub, flag.ContinueOnError)
	fs.SetOutput(stderr)
	dir := fs.String("dir", cfg.NATSAuthDir, "credentials directory (MNEME_NATS_AUTH_DIR)")
	switch sub {
	case "init":
		resolverDir := fs.String("resolver-dir", "", `where a NATS server using server/auth.conf keeps account JWTs (default "jwt", relative to the server's working directory)`)
		if err := fs.Parse(rest); err != nil {
			return err
		}
		s, err := natsauth.Init(*dir, natsauth.Options{ResolverDir: *resolverDir})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "NATS credentials in %s (keep the directory secret: its seeds sign credentials)\n", *dir)
		fmt.Fprintf(stdout, "  operator %s, accounts MNEME %s, AGENTS %s, SYS %s\n", s.OperatorKey(),
			s.AccountKey(natsauth.AccountMneme), s.AccountKey(natsauth.AccountAgents), s.SystemAccount())
		for _, u := range append(append([]string(nil), natsauth.ServiceUsers...), natsauth.UserSystem) {
			fmt.Fprintf(stdout, "  %-11s %s\n", u, s.Creds(u))
		}
		fmt.Fprintf(stdout, "NATS server configuration: %s (include it; run the server with -js)\n", s.ServerConfig())
		fmt.Fprintln(stdout, "Each service connects with MNEME_NATS_CREDS=<its .creds>; agents get theirs from `mneme nats agent-creds`.")
		return nil
	case "agent-creds":
		expires := fs.Duration("expires", 0, "lifetime of the credential (e.g. 720h); 0 = until revoked")
		out := fs.String("out", "", "write the .creds file here (mode 0600) instead of to stdout")
		if err := fs.Parse(rest); err != nil {
			return err
		}
		ws, agent, err := wsAgent(fs.Args(), "agent-creds")
		if err != nil {
			return err
		}
		s, err := natsauth.Load(*dir)
		if err != nil {
			return err
		}
		// The audit log is reachable before anything is issued: a credential is never handed out unrecorded.
		rec, err := natsAuditor(ctx, cfg)
		if err != nil {
			return err
		}
		defer rec.close()
		cred, err := s.IssueAgent(ws, agent, *expires)
		if err != nil {
			return err
		}
		details := map[string]any{"agent": agent, "user_key": cred.UserKey}
		if !cred.Expires.IsZero() {
			details["expires_at"] = cred.Expires.UTC().Format(time.RFC3339)
		}
		if err := rec.record(ctx, ws, event.AuditNATSCredsIssued, details); err != nil {
			// Not printed, so never usable; the public part stays listed (list-agents) and can be revoked.
			return fmt.Errorf("agent-creds: the credential was not handed out: %w", err)
		}
		help := natsauth.AgentSubjectsHelp(cred)
		if *out == "" {
			_, err := stdout.Write(cred.Creds)
			fmt.Fprint(stderr, help)
			return err
		}
		if err := os.WriteFile(*out, cred.Creds, 0o600); err != nil {
			return fmt.Errorf("agent-creds: %w", err)
		}
		fmt.Fprintf(stdout, "wrote %s\n%s", *out, help)
		return nil
	case "revoke-agent":
		if err := fs.Parse(rest); err != nil {
			return err
		}
		ws, agent, err := wsAgent(fs.Args(), "revoke-agent")
		if err != nil {
			return err
		}
		s, err := natsauth.Load(*dir)
		if err != nil {
			return err
		}
		rec, err := natsAuditor(ctx, cfg)
		if err != nil {
			return err
		}
		defer rec.close()
		revoked, token, err := s.RevokeAgent(ws, agent)
		if err != nil {
			return err
		}
		if err := rec.record(ctx, ws, event.AuditNATSCredsRevoked, map[string]any{"agent": agent,
			"revoked": len(revoked), "user_keys": strings.Join(revoked, ",")}); err != nil {
			// The revocation stands (it is in the account JWT and auth.conf); say what is missing.
			return fmt.Errorf("revoked %d NATS credential(s), but the audit entry was not recorded: %w", len(revoked), err)
		}
		fmt.Fprintf(stdout, "revoked %d NATS credential(s) of agent %s in workspace %s (recorded in %s)\n", len(revoked), agent, ws, s.ServerConfig())
		if err := pushAccounts(ctx, cfg, s, map[string]string{s.AccountKey(natsauth.AccountAgents): token}); err != nil {
			return fmt.Errorf("the revocation is recorded, but the running NATS server was not told (its connected agents stay connected until it is): %w; run `mneme nats push` once it is reachable", err)
		}
		fmt.Fprintln(stdout, "pushed to the NATS server: the agent's connections are closed")
		return nil
	case "list-agents":
		if err := fs.Parse(rest); err != nil {
			return err
		}
		if fs.NArg() > 1 {
			return errors.New("usage: mneme nats list-agents [flags] [workspace]")
		}
		s, err := natsauth.Load(*dir)
		if err != nil {
			return err
		}
		agents, err := s.ListAgents(fs.Arg(0))
		if err != nil {
			return err
		}
		return printAgents(stdout, agents, time.Now())
	case "push":
		if err := fs.Parse(rest); err != nil {
			return err
		}
		s, err := natsauth.Load(*dir)
		if err != nil {
			return err
		}
		if err := pushAccounts(ctx, cfg, s, s.AccountJWTs()); err != nil {
			return err
		}
		fmt.Fprintln(stdout, "pushed the accounts to the NATS server")
		return nil
	}
	fmt.Fprint(stderr, "Usage:\n"+NATSUsage)
	return fmt.Errorf("unknown command nats %q", sub)
}

func wsAgent(args []string, cmd string) (string, string, error) {
	if len(args) != 2 {
		return "", "", fmt.Errorf("usage: mneme nats %s [flags] <workspace> <agent>", cmd)
	}
	return args[0], args[1], nil
}

// pushAccounts sends account JWTs to the NATS server of cfg (MNEME_NATS_URL, else the local embedded one at
// MNEME_NATS_LISTEN) as the system user.
func pushAccounts(ctx context.Context, cfg Config, s *natsauth.Setup, jwts map[string]string) error {
	url := cfg.NATSURL
	if url == "" {
		url = "nats://" + strings.Replace(cfg.NATSListen, "0.0.0.0", "127.0.0.1", 1)
	}
	nc, err := bus.Connect(url, "mneme-nats-admin", natsOptions(cfg.NATSTLSCA, cfg.NATSTLSCert, cfg.NATSTLSKey, s.Creds(natsauth.UserSystem), nil)...)
	if err != nil {
		return err
	}
	defer nc.Close()
	var errs []error
	for pub, token := range jwts {
		pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		errs = append(errs, natsauth.Push(pctx, nc, pub, token))
		cancel()
	}
	return errors.Join(errs...)
}

// printAgents writes the issued agent credentials as a table: public parts only, with each one's state.
func printAgents(out io.Writer, agents []natsauth.IssuedAgent, now time.Time) error {
	tw := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "WORKSPACE\tAGENT\tUSER KEY\tISSUED\tEXPIRES\tSTATE")
	for _, a := range agents {
		expires, state := "never", "active"
		if !a.Expires.IsZero() {
			expires = a.Expires.Format(time.RFC3339)
			if !now.Before(a.Expires) {
				state = "expired"
			}
		}
		if a.Revoked {
			state = "revoked"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.Workspace, a.Agent, a.UserKey, a.Issued.Format(time.RFC3339), expires, state)
	}
	return tw.Flush()
}

// natsAudit records the NATS credential commands in the audit log.
type natsAudit struct{ pool *pgxpool.Pool }

// natsAuditor connects to the database the audit log lives in (and migrates it, as the key commands do).
func natsAuditor(ctx context.Context, cfg Config) (*natsAudit, error) {
	pool, err := connect(ctx, cfg, true)
	if err != nil {
		return nil, fmt.Errorf("the audit log (MNEME_DATABASE_URL) is unreachable, so nothing was changed: %w", err)
	}
	return &natsAudit{pool: pool}, nil
}

func (a *natsAudit) record(ctx context.Context, ws, action string, details map[string]any) error {
	_, err := audit.Record(ctx, a.pool, audit.Entry{Workspace: ws, Action: action, Actor: audit.ActorCLI, Details: details})
	return err
}

func (a *natsAudit) close() { a.pool.Close() }
