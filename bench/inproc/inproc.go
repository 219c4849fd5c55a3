// Package inproc starts the whole Mneme system in the benchmark's own process, on a fresh database of the
// project-local PostgreSQL cluster and an embedded NATS server in a temporary directory, exactly as
// `mneme run -target=all` would run it, and tears it down afterwards.
package inproc

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/bench"
	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/pgtest"
)

// DatabasePrefix starts the name of every database the benchmark creates; the creation time follows it.
const DatabasePrefix = "mneme_bench_"

// staleAfter is how old a leftover benchmark database must be before a later run drops it.
const staleAfter = 24 * time.Hour

// Options configures Start.
type Options struct {
	// Name goes into the database name (mneme_bench_<time>_<random>_<name>), e.g. the benchmark.
	Name string
	// AdminURL is a database URL on the server whose role may CREATE DATABASE. Default AdminURL().
	AdminURL string
	// Keep leaves the database in place after Close (its name is logged), for inspection.
	Keep bool
	// Reuse names an existing database (one an earlier run kept) to run on instead of a fresh one; it is
	// migrated as at any start and never dropped.
	Reuse string
	// Production runs the system outside development mode, as deployed: the embedded NATS server requires
	// credentials (operator, accounts and users written to AuthDir), every service connects as its own user,
	// agents publish only with credentials issued to them, and HTTP requires keys. Workspaces are then
	// created by the benchmark (auth.CreateWorkspace), not by a first write.
	Production bool
	Logger     *slog.Logger
}

// System is a running in-process Mneme.
type System struct {
	// URL is the HTTP API root.
	URL string
	// JS and DB are the running system's own handles (for the benchmark's visibility wait and analysis).
	JS jetstream.JetStream
	DB *pgxpool.Pool
	// Database is the name of the fresh database.
	Database string
	// NATSURL is the embedded NATS server's client URL.
	NATSURL string
	// AuthDir holds the NATS operator, accounts and credentials in production mode ("" in development mode):
	// natsauth.Load(AuthDir) issues agent credentials.
	AuthDir string
	// JetStreamOf returns a service's own JetStream handle (its NATS user's permissions in production mode).
	JetStreamOf func(service string) jetstream.JetStream

	admin    string
	keep     bool
	log      *slog.Logger
	cancel   context.CancelFunc
	done     chan error
	storeDir string
}

// AdminURL returns the admin database URL: MNEME_BENCH_ADMIN_URL, else MNEME_TEST_DATABASE_URL, else the
// project-local cluster of scripts/pg.sh (127.0.0.1, port MNEME_PG_PORT or 54329, user and database mneme).
func AdminURL() string {
	for _, env := range []string{"MNEME_BENCH_ADMIN_URL", "MNEME_TEST_DATABASE_URL"} {
		if u := os.Getenv(env); u != "" {
			return u
		}
	}
	port := "54329"
	if p := os.Getenv("MNEME_PG_PORT"); p != "" {
		port = p
	}
	return "postgres://mneme@127.0.0.1:" + port + "/mneme?sslmode=disable"
}

// Start creates a fresh database, builds the system with the configuration read from the environment
// (app.LoadConfig) but with that database, HTTP on 127.0.0.1:0 and an embedded NATS server on a free port
// storing into a temporary directory, runs it, and waits until it is ready.
func Start(ctx context.Context, o Options) (s *System, err error) {
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	s = &System{admin: o.AdminURL, keep: o.Keep || o.Reuse != "", log: log}
	if s.admin == "" {
		s.admin = AdminURL()
	}
	sys := s // the returns below set s to nil before this runs
	defer func() {
		if err != nil {
			sys.Close()
			s = nil
		}
	}()
	var dbURL string
	if o.Reuse != "" {
		s.Database = o.Reuse
		dbURL, err = pgtest.WithDatabase(s.admin, o.Reuse)
	} else {
		dbURL, err = s.createDatabase(ctx, o.Name)
	}
	if err != nil {
		return nil, err
	}
	if s.storeDir, err = os.MkdirTemp("", "mneme-bench-nats-"); err != nil {
		return nil, err
	}
	cfg, err := app.LoadConfig()
	if err != nil {
		return nil, fmt.Errorf("mneme configuration: %w", err)
	}
	cfg.DatabaseURL = dbURL
	cfg.HTTPAddr = "127.0.0.1:0"
	cfg.NATSURL = ""
	cfg.NATSListen = "127.0.0.1:-1"
	cfg.NATSStoreDir = filepath.Join(s.storeDir, "nats")
	cfg.Target = "all"
	cfg.DevMode = !o.Production
	if o.Production {
		s.AuthDir = filepath.Join(s.storeDir, "auth")
		cfg.NATSAuthDir = s.AuthDir
		cfg.NATSCreds = ""
	}
	cfg.MigrateOnStart = true
	cfg.RateLimit = 0 // the benchmark measures throughput, not one agent's fair share
	a, err := app.Build(ctx, cfg, log)
	if err != nil {
		return nil, fmt.Errorf("starting Mneme in-process: %w", err)
	}
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.cancel = cancel
	s.done = make(chan error, 1)
	go func() { s.done <- a.Run(runCtx) }()
	s.URL = "http://" + a.HTTPAddr()
	s.JS, s.DB = a.JetStream(), a.DB()
	s.NATSURL, s.JetStreamOf = a.NATSURL(), a.JetStreamOf
	rctx, rcancel := context.WithTimeout(ctx, time.Minute)
	defer rcancel()
	c, err := bench.NewClient(s.URL, "mneme-bench", "")
	if err != nil {
		return nil, err
	}
	readyErr := make(chan error, 1)
	go func() { readyErr <- c.Ready(rctx) }()
	select {
	case err := <-readyErr:
		if err != nil {
			return nil, fmt.Errorf("in-process Mneme did not become ready: %w", err)
		}
	case err := <-s.done:
		s.done <- err
		return nil, fmt.Errorf("in-process Mneme stopped during start-up: %v", err)
	}
	log.Info("in-process Mneme ready", "url", s.URL, "database", s.Database)
	return s, nil
}

// Close stops the system (draining as `mneme run` does on a signal), drops the database unless kept, and
// removes the NATS store.
func (s *System) Close() error {
	var errs []error
	if s.cancel != nil {
		s.cancel()
		select {
		case err := <-s.done:
			if err != nil && !errors.Is(err, context.Canceled) {
				errs = append(errs, err)
			}
		case <-time.After(time.Minute):
			errs = append(errs, errors.New("in-process Mneme did not stop within a minute"))
		}
	}
	if s.Database != "" {
		if s.keep {
			s.log.Info("kept the benchmark database", "database", s.Database)
		} else if err := s.dropDatabase(s.Database); err != nil {
			errs = append(errs, err)
		}
	}
	if s.storeDir != "" {
		if err := os.RemoveAll(s.storeDir); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (s *System) createDatabase(ctx context.Context, name string) (string, error) {
	if dropped, err := pgtest.DropStale(ctx, s.admin, DatabasePrefix, staleAfter); err != nil {
		return "", fmt.Errorf("no usable PostgreSQL at %s: %w (start the local cluster with `scripts/pg.sh start`, or set MNEME_BENCH_ADMIN_URL, or point -url at a running Mneme)", pgtest.Redact(s.admin), err)
	} else if len(dropped) > 0 {
		s.log.Info("dropped stale benchmark databases", "databases", dropped)
	}
	db := pgtest.ScratchName(DatabasePrefix, name, time.Now())
	dbURL, err := pgtest.CreateDatabase(ctx, s.admin, db)
	if err != nil {
		return "", err
	}
	s.Database = db
	return dbURL, nil
}

func (s *System) dropDatabase(db string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return pgtest.DropDatabase(ctx, s.admin, db)
}

// Fleet returns the production-mode system as its agents meet it (Options.Production): agents get their own
// HTTP keys and NATS credentials, written under the system's temporary directory.
func (s *System) Fleet() (*bench.Fleet, error) {
	if s.AuthDir == "" {
		return nil, errors.New("inproc: agents with credentials need a production-mode system (Options.Production)")
	}
	setup, err := natsauth.Load(s.AuthDir)
	if err != nil {
		return nil, fmt.Errorf("inproc: NATS credentials: %w", err)
	}
	dir := filepath.Join(s.storeDir, "agents")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	return &bench.Fleet{URL: s.URL, NATSURL: s.NATSURL, DB: s.DB, Setup: setup, CredsDir: dir, JetStreamOf: s.JetStreamOf}, nil
}
