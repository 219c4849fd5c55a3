// Package embedded runs Mneme's in-process NATS JetStream server: the one-process mode (mneme run -target=all
// without MNEME_NATS_URL), the benchmarks and the tests. It is its own package so that only what embeds a server
// links nats-server; the services reach NATS through pkg/bus as clients.
package embedded

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strconv"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats-server/v2/server"
)

// Options configure the in-process NATS JetStream server of the one-process mode.
type Options struct {
	// Listen is host:port for client connections; port -1 picks a free port (tests). Default 127.0.0.1:4222.
	Listen string
	// StoreDir holds JetStream file storage (and, with Auth, the account resolver's files). Required.
	StoreDir string
	// ServerName names the server; default "mneme-embedded".
	ServerName string
	// Auth, when set, runs the server in operator mode: only users signed by the operator's accounts may
	// connect (see pkg/natsauth). Nil means no authentication (development mode).
	Auth *Auth
	// TLS, when set, makes the client listener require TLS.
	TLS *tls.Config
}

// Auth is the decentralized-JWT trust of an embedded server.
type Auth struct {
	// OperatorJWT is the trusted operator.
	OperatorJWT string
	// SystemAccount is the system account's public key.
	SystemAccount string
	// AccountJWTs preloads the resolver: account public key → JWT. Newer JWTs pushed at run time (revocations)
	// are kept in StoreDir/jwt and win over older preloads at the next start.
	AccountJWTs map[string]string
}

// Server is a running in-process NATS server.
type Server struct {
	srv *server.Server
}

// Start starts an in-process NATS server with JetStream on file storage and waits until it accepts
// connections.
func Start(opts Options) (*Server, error) {
	if opts.StoreDir == "" {
		return nil, errors.New("embedded NATS needs a store directory")
	}
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:4222"
	}
	if opts.ServerName == "" {
		opts.ServerName = "mneme-embedded"
	}
	host, portStr, err := net.SplitHostPort(opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS listen address %q: %w", opts.Listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS port %q: %w", portStr, err)
	}
	so := &server.Options{
		ServerName: opts.ServerName,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   opts.StoreDir,
		NoSigs:     true,
		MaxPayload: 8 << 20,
	}
	if opts.TLS != nil {
		so.TLSConfig = opts.TLS
		so.TLS = true
		so.TLSTimeout = 5
	}
	if opts.Auth != nil {
		if err := configureAuth(so, opts.StoreDir, opts.Auth); err != nil {
			return nil, err
		}
	}
	srv, err := server.NewServer(so)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("embedded NATS did not become ready on %s (is the port in use? set MNEME_NATS_LISTEN or MNEME_NATS_URL)", opts.Listen)
	}
	return &Server{srv: srv}, nil
}

// configureAuth puts the server in operator mode with a "full" account resolver in storeDir/jwt, preloaded
// with the given accounts; it accepts account updates pushed through the system account.
func configureAuth(so *server.Options, storeDir string, a *Auth) error {
	op, err := jwt.DecodeOperatorClaims(a.OperatorJWT)
	if err != nil {
		return fmt.Errorf("embedded NATS operator: %w", err)
	}
	res, err := server.NewDirAccResolver(filepath.Join(storeDir, "jwt"), 0, 2*time.Minute, server.NoDelete)
	if err != nil {
		return fmt.Errorf("embedded NATS account resolver: %w", err)
	}
	for pub, token := range a.AccountJWTs {
		if err := res.Store(pub, token); err != nil {
			res.Close()
			return fmt.Errorf("embedded NATS account %s: %w", pub, err)
		}
	}
	so.TrustedOperators = []*jwt.OperatorClaims{op}
	so.SystemAccount = a.SystemAccount
	so.AccountResolver = res
	return nil
}

// ClientURL is the URL clients connect to.
func (e *Server) ClientURL() string { return e.srv.ClientURL() }

// Shutdown stops the server and waits for it.
func (e *Server) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}
