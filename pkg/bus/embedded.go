package bus

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// EmbeddedOptions configure the in-process NATS JetStream server of the one-process mode.
type EmbeddedOptions struct {
	// Listen is host:port for client connections; port -1 picks a free port (tests). Default 127.0.0.1:4222.
	Listen string
	// StoreDir holds JetStream file storage. Required.
	StoreDir string
	// ServerName names the server; default "mneme-embedded".
	ServerName string
}

// Embedded is a running in-process NATS server.
type Embedded struct {
	srv *server.Server
}

// StartEmbedded starts an in-process NATS server with JetStream on file storage and waits until it accepts
// connections.
func StartEmbedded(opts EmbeddedOptions) (*Embedded, error) {
	if opts.StoreDir == "" {
		return nil, errors.New("bus: embedded NATS needs a store directory")
	}
	if opts.Listen == "" {
		opts.Listen = "127.0.0.1:4222"
	}
	if opts.ServerName == "" {
		opts.ServerName = "mneme-embedded"
	}
	host, portStr, err := net.SplitHostPort(opts.Listen)
	if err != nil {
		return nil, fmt.Errorf("bus: embedded NATS listen address %q: %w", opts.Listen, err)
	}
	port, err := strconv.Atoi(portStr)
	if err != nil {
		return nil, fmt.Errorf("bus: embedded NATS port %q: %w", portStr, err)
	}
	srv, err := server.NewServer(&server.Options{
		ServerName: opts.ServerName,
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   opts.StoreDir,
		NoSigs:     true,
		MaxPayload: 8 << 20,
	})
	if err != nil {
		return nil, fmt.Errorf("bus: embedded NATS: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("bus: embedded NATS did not become ready on %s (is the port in use? set MNEME_NATS_LISTEN or MNEME_NATS_URL)", opts.Listen)
	}
	return &Embedded{srv: srv}, nil
}

// ClientURL is the URL clients connect to.
func (e *Embedded) ClientURL() string { return e.srv.ClientURL() }

// Shutdown stops the server and waits for it.
func (e *Embedded) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}
