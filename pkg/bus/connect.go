package bus

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/nats-io/jwt/v2"
	"github.com/nats-io/nats.go"
)

// UserInboxPrefix is the reply-subject prefix of the NATS user with public key userKey. Mneme's users may
// subscribe only under their own prefix (see pkg/natsauth), so no client can read another's replies.
func UserInboxPrefix(userKey string) string { return "_INBOX_" + userKey }

// connectConfig collects ConnectOptions.
type connectConfig struct {
	opts []nats.Option
	log  *slog.Logger
}

// ConnectOption configures Connect.
type ConnectOption func(*connectConfig) error

// WithCredentials authenticates with a .creds file (user JWT and nkey seed) and uses the user's own inbox
// prefix for replies (UserInboxPrefix), the only one its permissions allow it to subscribe to. An empty path
// does nothing.
func WithCredentials(path string) ConnectOption {
	return func(c *connectConfig) error {
		if path == "" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("bus: NATS credentials: %w", err)
		}
		token, err := jwt.ParseDecoratedJWT(b)
		if err != nil {
			return fmt.Errorf("bus: NATS credentials %s: %w", path, err)
		}
		uc, err := jwt.DecodeUserClaims(token)
		if err != nil {
			return fmt.Errorf("bus: NATS credentials %s: %w", path, err)
		}
		c.opts = append(c.opts, nats.UserCredentials(path), nats.CustomInboxPrefix(UserInboxPrefix(uc.Subject)))
		return nil
	}
}

// WithTLS connects over TLS: caFile (PEM) verifies the server, certFile and keyFile (PEM) present a client
// certificate when the server asks for one. Empty names are skipped; all empty does nothing.
func WithTLS(caFile, certFile, keyFile string) ConnectOption {
	return func(c *connectConfig) error {
		if caFile == "" && certFile == "" && keyFile == "" {
			return nil
		}
		cfg, err := ClientTLS(caFile, certFile, keyFile)
		if err != nil {
			return err
		}
		c.opts = append(c.opts, nats.Secure(cfg))
		return nil
	}
}

// WithLogger logs asynchronous connection errors (a permission violation, a slow consumer) and reconnects.
func WithLogger(log *slog.Logger) ConnectOption {
	return func(c *connectConfig) error {
		c.log = log
		return nil
	}
}

// ClientTLS builds a client TLS configuration from PEM files: caFile verifies the server (system roots when
// empty), certFile and keyFile are the client's certificate (both or neither).
func ClientTLS(caFile, certFile, keyFile string) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("bus: TLS CA: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("bus: TLS CA %s holds no PEM certificate", caFile)
		}
		cfg.RootCAs = pool
	}
	if (certFile == "") != (keyFile == "") {
		return nil, errors.New("bus: a TLS client certificate needs both the certificate and the key file")
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("bus: TLS client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}

// Connect dials NATS with reconnects forever and a name that shows in server monitoring.
func Connect(url, name string, options ...ConnectOption) (*nats.Conn, error) {
	var c connectConfig
	for _, o := range options {
		if err := o(&c); err != nil {
			return nil, err
		}
	}
	opts := append([]nats.Option{
		nats.Name(name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.Timeout(5 * time.Second),
	}, c.opts...)
	if log := c.log; log != nil {
		opts = append(opts,
			nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
				subject := ""
				if sub != nil {
					subject = sub.Subject
				}
				log.Warn("nats: asynchronous error", "connection", name, "subscription", subject, "err", err)
			}),
			nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
				if err != nil {
					log.Warn("nats: disconnected", "connection", name, "err", err)
				}
			}),
			nats.ReconnectHandler(func(nc *nats.Conn) { log.Info("nats: reconnected", "connection", name, "url", nc.ConnectedUrl()) }),
		)
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("bus: connect to NATS at %s: %w (is it running? set MNEME_NATS_URL, or leave it empty for the embedded server; with authentication, MNEME_NATS_CREDS names this service's .creds file)", url, err)
	}
	return nc, nil
}
