package app

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// devModeWarning is logged at every start in development mode.
const devModeWarning = "DEVELOPMENT MODE (MNEME_DEV_MODE=true): no HTTP key and no NATS credential is checked — " +
	"anonymous callers can act as any agent, read every workspace and erase workspaces. " +
	"Use it on a machine of your own; set MNEME_DEV_MODE=false anywhere else (see README, Security)"

// natsClients are the NATS connections of one process: one per credential in use.
type natsClients struct {
	// byService maps a target to its connection and JetStream handle.
	byService map[string]natsClient
	// all lists each connection once, in the order made.
	all []*nats.Conn
	// stops end the connections' leader watches.
	stops []func()
}

type natsClient struct {
	nc *nats.Conn
	js jetstream.JetStream
}

// startNATS starts the embedded server when no external one is named (with authentication outside development
// mode), connects every service with its credentials and ensures the topology.
func (a *App) startNATS(ctx context.Context) error {
	cfg := a.cfg
	natsURL := cfg.NATSURL
	var setup *natsauth.Setup
	if cfg.embeddedNATS() {
		if err := os.MkdirAll(cfg.NATSStoreDir, 0o755); err != nil {
			return fmt.Errorf("MNEME_NATS_STORE_DIR=%q: %w", cfg.NATSStoreDir, err)
		}
		opts := embedded.Options{Listen: cfg.NATSListen, StoreDir: cfg.NATSStoreDir, SyncInterval: cfg.NATSSyncInterval}
		if !cfg.DevMode {
			var err error
			if setup, err = natsauth.Init(cfg.NATSAuthDir, natsauth.Options{}); err != nil {
				return fmt.Errorf("MNEME_NATS_AUTH_DIR=%s: %w", cfg.NATSAuthDir, err)
			}
			opts.Auth = setup.Embedded()
			a.log.Info("embedded NATS requires credentials", "auth_dir", cfg.NATSAuthDir,
				"agents", "issue credentials with `mneme nats agent-creds <workspace> <agent>`")
		}
		if cfg.NATSServerTLSCert != "" {
			cert, err := tls.LoadX509KeyPair(cfg.NATSServerTLSCert, cfg.NATSServerTLSKey)
			if err != nil {
				return fmt.Errorf("MNEME_NATS_SERVER_TLS_CERT/_KEY: %w", err)
			}
			opts.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
		}
		var err error
		if a.embedded, err = embedded.Start(opts); err != nil {
			return err
		}
		natsURL = a.embedded.ClientURL()
		a.log.Info("embedded NATS JetStream started", "url", natsURL, "store", cfg.NATSStoreDir, "tls", opts.TLS != nil)
	} else if !cfg.DevMode && cfg.NATSCreds == "" {
		if s, err := natsauth.Load(cfg.NATSAuthDir); err == nil {
			setup = s
		} else if !authenticatedURL(natsURL) && cfg.NATSTLSCert == "" {
			return fmt.Errorf("outside development mode Mneme does not connect to NATS anonymously: set MNEME_NATS_CREDS to this service's .creds file "+
				"(`mneme nats init` writes them), or MNEME_NATS_AUTH_DIR to the directory holding them (%v)", err)
		}
	}
	clients, err := connectServices(cfg, natsURL, setup, a.log)
	a.nats = clients
	if err != nil {
		return err
	}
	first := clients.byService[cfg.TargetList()[0]]
	a.nc, a.js = first.nc, first.js
	tctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
	defer cancel()
	topo := bus.DefaultTopology()
	topo.Replicas = cfg.StreamReplicas
	topo.InboxMaxPerSubject = cfg.InboxMaxPerAgent
	if owner, ok := clients.byService[natsauth.TopologyOwner]; ok {
		if err := topo.Ensure(tctx, owner.js); err != nil {
			return fmt.Errorf("%w (is JetStream enabled on the NATS server at %s, and is this the %s's NATS user?)", err, natsURL, natsauth.TopologyOwner)
		}
		return nil
	}
	i := slices.IndexFunc(cfg.TargetList(), usesStreams)
	if i < 0 {
		return nil // query alone reads Postgres only
	}
	// Only the topology owner's user may create and update streams: the others wait for it to have started.
	if err := topo.Wait(tctx, clients.byService[cfg.TargetList()[i]].js, 200*time.Millisecond); err != nil {
		return fmt.Errorf("%w (Mneme's streams are created by the %s at its start-up: start it, or check that JetStream is enabled on the NATS server at %s)",
			err, natsauth.TopologyOwner, natsURL)
	}
	return nil
}

// usesStreams reports whether a service consumes or publishes to Mneme's streams (every one but query).
func usesStreams(target string) bool { return target != natsauth.UserQuery }

// connectServices connects each target of cfg: with MNEME_NATS_CREDS all share one connection as that user;
// with a credentials directory each service connects as its own user; in development mode without either,
// all share one anonymous connection.
func connectServices(cfg Config, natsURL string, setup *natsauth.Setup, log *slog.Logger) (*natsClients, error) {
	clients := &natsClients{byService: map[string]natsClient{}}
	byCreds := map[string]natsClient{}
	for _, t := range cfg.TargetList() {
		creds := cfg.NATSCreds
		if creds == "" && setup != nil {
			creds = setup.Creds(t)
		}
		if c, ok := byCreds[creds]; ok {
			clients.byService[t] = c
			continue
		}
		name := "mneme-" + t
		if cfg.NATSCreds != "" || setup == nil {
			name = "mneme-" + strings.Join(cfg.TargetList(), ",")
		}
		nc, err := bus.Connect(natsURL, name, natsOptions(cfg.NATSTLSCA, cfg.NATSTLSCert, cfg.NATSTLSKey, creds, log)...)
		if err != nil {
			return clients, fmt.Errorf("%s: %w", t, err)
		}
		clients.all = append(clients.all, nc)
		js, err := jetstream.New(nc, bus.JetStreamOptions()...)
		if err != nil {
			return clients, fmt.Errorf("jetstream: %w", err)
		}
		c := natsClient{nc: nc, js: js}
		byCreds[creds], clients.byService[t] = c, c
	}
	// Each connection watches the leaders of the streams its services publish to, so a publish sent to a leader
	// that died is sent again as soon as the next one is elected (bus.WatchLeaders).
	for _, nc := range clients.all {
		var streams []string
		for t, c := range clients.byService {
			if c.nc == nc {
				streams = append(streams, bus.PublishedStreams[t]...)
			}
		}
		slices.Sort(streams)
		if streams = slices.Compact(streams); len(streams) == 0 {
			continue
		}
		stop, err := bus.WatchLeaders(nc, streams...)
		if err != nil {
			return clients, err
		}
		clients.stops = append(clients.stops, stop)
	}
	return clients, nil
}

func natsOptions(ca, cert, key, creds string, log *slog.Logger) []bus.ConnectOption {
	return []bus.ConnectOption{bus.WithCredentials(creds), bus.WithTLS(ca, cert, key), bus.WithLogger(log)}
}

// authenticatedURL reports whether a NATS URL list carries credentials of its own (user:password@ or token@).
func authenticatedURL(urls string) bool {
	for _, one := range strings.Split(urls, ",") {
		if u, err := url.Parse(strings.TrimSpace(one)); err == nil && u.User != nil {
			return true
		}
	}
	return false
}

// ready reports whether every connection is up.
func (c *natsClients) ready() error {
	if c == nil {
		return errors.New("nats: not connected")
	}
	for _, nc := range c.all {
		if st := nc.Status(); st != nats.CONNECTED {
			return fmt.Errorf("nats: %s", st)
		}
	}
	return nil
}

// close drains every connection, each bounded by timeout.
func (c *natsClients) close(timeout context.Context) {
	if c == nil {
		return
	}
	for _, stop := range c.stops {
		stop()
	}
	for _, nc := range c.all {
		done := make(chan struct{})
		nc.SetClosedHandler(func(*nats.Conn) { close(done) })
		if err := nc.Drain(); err == nil {
			select {
			case <-done:
			case <-timeout.Done():
			}
		}
		nc.Close()
	}
}

// JetStreamOf returns the JetStream handle of one service's NATS connection (that service's user outside
// development mode), or nil when this process does not run the service. Tests read streams through it with the
// permissions the service really has.
func (a *App) JetStreamOf(service string) jetstream.JetStream {
	if a.nats == nil {
		return nil
	}
	if c, ok := a.nats.byService[service]; ok {
		return c.js
	}
	return nil
}
