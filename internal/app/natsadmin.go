package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// NATSUsage describes the `mneme nats` commands.
const NATSUsage = `  mneme nats init [-dir D] [-resolver-dir P]
                                         write the NATS operator, accounts, service credentials and server/auth.conf
  mneme nats agent-creds [-dir D] [-expires DUR] [-out F] <workspace> <agent>
                                         issue an agent's NATS credential (.creds, to stdout unless -out)
  mneme nats revoke-agent [-dir D] <workspace> <agent>
                                         revoke every NATS credential of an agent and push it to the server
  mneme nats push [-dir D]               push the accounts (revocations) to the running NATS server
`

// NATSCommand runs `mneme nats <sub> ...`: the NATS credentials admin commands. -dir defaults to
// MNEME_NATS_AUTH_DIR.
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
		cred, err := s.IssueAgent(ws, agent, *expires)
		if err != nil {
			return err
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
		revoked, token, err := s.RevokeAgent(ws, agent)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked %d NATS credential(s) of agent %s in workspace %s (recorded in %s)\n", len(revoked), agent, ws, s.ServerConfig())
		if err := pushAccounts(ctx, cfg, s, map[string]string{s.AccountKey(natsauth.AccountAgents): token}); err != nil {
			return fmt.Errorf("the revocation is recorded, but the running NATS server was not told (its connected agents stay connected until it is): %w; run `mneme nats push` once it is reachable", err)
		}
		fmt.Fprintln(stdout, "pushed to the NATS server: the agent's connections are closed")
		return nil
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
