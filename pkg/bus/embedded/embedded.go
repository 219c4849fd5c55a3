// Package embedded runs Mneme's in-process NATS JetStream server: the one-process mode (mneme run -target=all
// without MNEME_NATS_URL), the benchmarks and the tests. It is its own package so that only what embeds a server
// links nats-server; the services reach NATS through pkg/bus as clients.
package embedded

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
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
	// SyncInterval is how often JetStream flushes its files to disk (fsync). Zero, the default, syncs every
	// write before the publish is acknowledged (the server's "sync_interval: always"); a positive value syncs
	// at that interval instead, so a power loss or kernel crash can lose writes acknowledged within it (the
	// server's own default is 2 minutes). README, Durability, says why Mneme syncs every write.
	SyncInterval time.Duration
	// Cluster, when set, makes the server one node of a JetStream cluster (streams can then be replicated
	// with Topology.Replicas 3). Nil runs a single server.
	Cluster *Cluster
}

// Cluster joins an embedded server to a JetStream cluster of servers routed to each other.
type Cluster struct {
	// Name is the cluster's name, the same on every node. Required.
	Name string
	// Listen is host:port for the routes of the other nodes. Required; a cluster node's route port must stay
	// the same across restarts, since the others dial it.
	Listen string
	// Routes are the route URLs (nats-route://host:port) of the cluster's nodes; this node's own is ignored.
	Routes []string
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
	if opts.SyncInterval > 0 {
		so.SyncInterval = opts.SyncInterval
	} else {
		so.SyncAlways = true
	}
	if opts.Cluster != nil {
		if err := configureCluster(so, opts.Cluster); err != nil {
			return nil, err
		}
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

// configureCluster sets the route listener and the routes of a cluster node.
func configureCluster(so *server.Options, c *Cluster) error {
	if c.Name == "" {
		return errors.New("embedded NATS cluster needs a name")
	}
	host, portStr, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("embedded NATS cluster listen address %q: %w", c.Listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 {
		return fmt.Errorf("embedded NATS cluster port %q: use a fixed port, the other nodes dial it", portStr)
	}
	so.Cluster = server.ClusterOpts{Name: c.Name, Host: host, Port: port}
	for _, r := range c.Routes {
		u, err := url.Parse(r)
		if err != nil {
			return fmt.Errorf("embedded NATS cluster route %q: %w", r, err)
		}
		if u.Host == net.JoinHostPort(host, portStr) {
			continue
		}
		so.Routes = append(so.Routes, u)
	}
	return nil
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

// JetStreamReady reports whether the server's JetStream is enabled and, on a cluster node, the cluster has
// elected its metadata leader (before that, stream requests fail).
func (e *Server) JetStreamReady() bool {
	return e.srv.JetStreamEnabled() && e.srv.JetStreamIsCurrent()
}

// Shutdown stops the server and waits for it.
func (e *Server) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}

// FreePorts returns n distinct loopback TCP ports that were free a moment ago: it holds them all at once, so
// none repeats, and releases them before returning. A cluster's nodes each list every route, so the route
// ports must be known before any node starts; another process may still take a port in between.
func FreePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var held []net.Listener
	defer func() {
		for _, l := range held {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		held = append(held, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}
