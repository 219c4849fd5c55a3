package natsauth

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nats-io/nats.go"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
)

// WriteServerConfig writes server/auth.conf: what a NATS server needs to run Mneme's accounts, to be included
// in its configuration (`include auth.conf`, or `nats-server -c auth.conf` with -js and -sd):
//
//   - operator: the operator JWT (the server trusts what it signs);
//   - system_account: the SYS account (account updates are pushed through it);
//   - resolver: a "full" directory resolver at Options.ResolverDir that accepts pushed updates
//     (`mneme nats revoke-agent` pushes revocations);
//   - resolver_preload: every account JWT, so a fresh server knows them without a push;
//   - max_payload: 8 MiB, the largest message Mneme's streams hold (the server's default is 1 MiB).
func (s *Setup) WriteServerConfig() error {
	var b strings.Builder
	b.WriteString("# NATS server configuration for Mneme's accounts, written by `mneme nats init` (and rewritten by\n")
	b.WriteString("# `mneme nats revoke-agent`). Include it in the server's configuration; it holds no secrets.\n")
	fmt.Fprintf(&b, "operator: %s\n", s.operatorJWT)
	fmt.Fprintf(&b, "system_account: %s\n", s.SystemAccount())
	fmt.Fprintf(&b, "max_payload: %d\n", bus.DefaultTopology().MaxMsgSize)
	fmt.Fprintf(&b, "resolver: {\n  type: full\n  dir: %s\n  allow_delete: false\n  interval: \"2m\"\n}\n", strconv.Quote(s.opts.ResolverDir))
	b.WriteString("resolver_preload: {\n")
	jwts := s.AccountJWTs()
	for _, pub := range sortedKeys(jwts) {
		fmt.Fprintf(&b, "  %s: %s\n", pub, jwts[pub])
	}
	b.WriteString("}\n")
	// The directory holds no secret: a NATS server running as another user reads it.
	if err := os.MkdirAll(filepath.Dir(s.ServerConfig()), 0o755); err != nil {
		return fmt.Errorf("natsauth: %w", err)
	}
	return writeFile(s.ServerConfig(), []byte(b.String()), 0o644)
}

// Push sends an account JWT to the servers nc is connected to (nc must be a user of the system account, e.g.
// creds/sys/nats.creds) and waits for a server to confirm it. A "full" resolver stores the update and applies it:
// revoked users are disconnected at once.
func Push(ctx context.Context, nc *nats.Conn, accountKey, accountJWT string) error {
	msg, err := nc.RequestWithContext(ctx, fmt.Sprintf("$SYS.REQ.ACCOUNT.%s.CLAIMS.UPDATE", accountKey), []byte(accountJWT))
	if err != nil {
		return fmt.Errorf("natsauth: push account %s: %w", accountKey, err)
	}
	var resp struct {
		Error *struct {
			Code        int    `json:"code"`
			Description string `json:"description"`
		} `json:"error"`
	}
	if err := json.Unmarshal(msg.Data, &resp); err != nil {
		return fmt.Errorf("natsauth: push account %s: unreadable answer %q: %w", accountKey, msg.Data, err)
	}
	if resp.Error != nil {
		return fmt.Errorf("natsauth: push account %s: the server refused it: %s (%d)", accountKey, resp.Error.Description, resp.Error.Code)
	}
	return nil
}

// Embedded returns the trust an embedded server needs to run these accounts (embedded.Options.Auth).
func (s *Setup) Embedded() *embedded.Auth {
	return &embedded.Auth{OperatorJWT: s.operatorJWT, SystemAccount: s.SystemAccount(), AccountJWTs: s.AccountJWTs()}
}
