// Package config reads Mneme's typed configuration from environment variables once at start-up and
// validates it with messages that say what is wrong and how to fix it.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"reflect"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"
)

// Common is the configuration every service shares. Each service embeds it in its own Config.
type Common struct {
	// HTTPAddr is where the HTTP API (and /healthz, /readyz, /metrics) listens.
	HTTPAddr string `env:"MNEME_HTTP_ADDR" envDefault:"127.0.0.1:8080"`
	// NATSURL names an external NATS server; empty means "start the embedded one" (target all only).
	NATSURL string `env:"MNEME_NATS_URL"`
	// DatabaseURL is the Postgres (with pgvector) connection URL.
	DatabaseURL string `env:"MNEME_DATABASE_URL" envDefault:"postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable"`
	// Partitions is the number of claim partitions; fixed per deployment, the same in every stage.
	Partitions int `env:"MNEME_PARTITIONS" envDefault:"16"`
	// DevMode is local development mode: no bearer keys, workspaces are created by their first write.
	DevMode bool `env:"MNEME_DEV_MODE" envDefault:"true"`
	// LogLevel is debug, info, warn or error.
	LogLevel string `env:"MNEME_LOG_LEVEL" envDefault:"info"`
	// ConnectTimeout bounds how long start-up waits for Postgres and NATS before failing.
	ConnectTimeout time.Duration `env:"MNEME_CONNECT_TIMEOUT" envDefault:"10s"`
	// ShutdownTimeout bounds how long shutdown waits for in-flight work.
	ShutdownTimeout time.Duration `env:"MNEME_SHUTDOWN_TIMEOUT" envDefault:"15s"`
	// NATSCreds is this process's NATS credentials file (user JWT and nkey seed), one of those `mneme nats init`
	// writes (creds/<service>/nats.creds). Outside development mode a process connects to NATS with it, or with its
	// services' files in MNEME_NATS_AUTH_DIR.
	NATSCreds string `env:"MNEME_NATS_CREDS"`
	// NATSTLSCA is a PEM file of the CA that signed the NATS server's certificate: NATS connections use TLS.
	NATSTLSCA string `env:"MNEME_NATS_TLS_CA"`
	// NATSTLSCert is a PEM client certificate for NATS servers that verify clients (with MNEME_NATS_TLS_KEY).
	NATSTLSCert string `env:"MNEME_NATS_TLS_CERT"`
	// NATSTLSKey is the PEM key of MNEME_NATS_TLS_CERT.
	NATSTLSKey string `env:"MNEME_NATS_TLS_KEY"`
	// HTTPTLSCert is a PEM certificate (chain): the HTTP API is served over TLS (with MNEME_HTTP_TLS_KEY).
	HTTPTLSCert string `env:"MNEME_HTTP_TLS_CERT"`
	// HTTPTLSKey is the PEM key of MNEME_HTTP_TLS_CERT.
	HTTPTLSKey string `env:"MNEME_HTTP_TLS_KEY"`
}

// Validator is implemented by configs that check themselves after parsing.
type Validator interface{ Validate() error }

// Load fills cfg (a pointer to a struct with env tags) from the environment and validates it.
func Load(cfg any) error {
	if err := env.Parse(cfg); err != nil {
		return describe(cfg, err)
	}
	if v, ok := cfg.(Validator); ok {
		if err := v.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// describe rewrites the library's parse errors, which name Go struct fields, to name the environment variable,
// its value and the expected type.
func describe(cfg any, err error) error {
	var agg env.AggregateError
	if !errors.As(err, &agg) {
		return fmt.Errorf("config: %w", err)
	}
	var out []error
	for _, e := range agg.Errors {
		var pe env.ParseError
		if errors.As(e, &pe) {
			if name := envName(reflect.TypeOf(cfg), pe.Name); name != "" {
				out = append(out, fmt.Errorf("%s=%q is not a valid %s", name, os.Getenv(name), pe.Type))
				continue
			}
		}
		out = append(out, e)
	}
	return fmt.Errorf("config: %w", errors.Join(out...))
}

// envName finds the env tag of the field called field in t, searching embedded structs.
func envName(t reflect.Type, field string) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return ""
	}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if f.Name == field {
			if tag, _, _ := strings.Cut(f.Tag.Get("env"), ","); tag != "" {
				return tag
			}
		}
		if f.Type.Kind() == reflect.Struct {
			if n := envName(f.Type, field); n != "" {
				return n
			}
		}
	}
	return ""
}

// Validate checks the shared settings.
func (c Common) Validate() error {
	var errs []error
	if _, _, err := net.SplitHostPort(c.HTTPAddr); err != nil {
		errs = append(errs, fmt.Errorf("MNEME_HTTP_ADDR=%q is not host:port (example: 127.0.0.1:8080): %v", c.HTTPAddr, err))
	}
	if c.Partitions < 1 || c.Partitions > 1024 {
		errs = append(errs, fmt.Errorf("MNEME_PARTITIONS=%d is out of range: use 1..1024 (default 16); it must be the same for every service of a deployment", c.Partitions))
	}
	if u, err := url.Parse(c.DatabaseURL); err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		errs = append(errs, fmt.Errorf("MNEME_DATABASE_URL=%q is not a postgres:// URL (example: postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable)", c.DatabaseURL))
	}
	if c.NATSURL != "" {
		for _, one := range strings.Split(c.NATSURL, ",") {
			if u, err := url.Parse(strings.TrimSpace(one)); err != nil || (u.Scheme != "nats" && u.Scheme != "tls" && u.Scheme != "ws" && u.Scheme != "wss") {
				errs = append(errs, fmt.Errorf("MNEME_NATS_URL=%q: %q is not a nats:// URL (example: nats://127.0.0.1:4222), or leave it empty for the embedded server", c.NATSURL, one))
			}
		}
	}
	for _, pair := range [][4]string{
		{"MNEME_NATS_TLS_CERT", c.NATSTLSCert, "MNEME_NATS_TLS_KEY", c.NATSTLSKey},
		{"MNEME_HTTP_TLS_CERT", c.HTTPTLSCert, "MNEME_HTTP_TLS_KEY", c.HTTPTLSKey},
	} {
		if (pair[1] == "") != (pair[3] == "") {
			errs = append(errs, fmt.Errorf("%s and %s go together: set both (PEM certificate and key files) or neither", pair[0], pair[2]))
		}
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		errs = append(errs, fmt.Errorf("MNEME_LOG_LEVEL=%q: use debug, info, warn or error", c.LogLevel))
	}
	if c.ConnectTimeout <= 0 {
		errs = append(errs, fmt.Errorf("MNEME_CONNECT_TIMEOUT=%s must be positive", c.ConnectTimeout))
	}
	return errors.Join(errs...)
}
