// Package apptest runs the whole Mneme system in-process for tests: every service, an embedded NATS
// JetStream server on a free port with storage in a temp dir, a fresh Postgres database, HTTP on a free port.
package apptest

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/app"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/pgtest"
)

// System is a running in-process Mneme.
type System struct {
	App     *app.App
	BaseURL string
	NATSURL string
	DBURL   string
	logs    *logRecord
}

// Logged reports whether a warning or error the system logged contains s (a permission violation, say).
func (s *System) Logged(substr string) bool { return s.logs.contains(substr) }

// Start builds and runs the system with the given extra environment (MNEME_* variables) and stops it when
// the test ends. It skips the test when the local embedding model is missing, unless MNEME_REQUIRE_MODEL=1.
// opts are passed to app.Build (app.WithTracerProvider, say).
func Start(t testing.TB, env map[string]string, opts ...app.Option) *System {
	t.Helper()
	if _, err := os.Stat(embedding.DefaultModelDir()); err != nil && env["MNEME_EMBEDDING_PROVIDER"] == "" {
		if os.Getenv("MNEME_REQUIRE_MODEL") == "1" {
			t.Fatalf("embedding model weights missing at %s: run make deps", embedding.DefaultModelDir())
		}
		t.Skipf("embedding model weights missing at %s (make deps fetches them)", embedding.DefaultModelDir())
	}
	db := pgtest.URL(t)
	vars := map[string]string{
		"MNEME_DATABASE_URL":   db,
		"MNEME_HTTP_ADDR":      "127.0.0.1:0",
		"MNEME_NATS_URL":       "",
		"MNEME_NATS_LISTEN":    "127.0.0.1:-1",
		"MNEME_NATS_STORE_DIR": t.TempDir(),
		// Outside development mode the system writes NATS signing keys and credentials; they belong to the
		// test, never to the package directory (where they would end up committed).
		"MNEME_NATS_AUTH_DIR": t.TempDir(),
		"MNEME_DEV_MODE":      "true",
		"MNEME_TARGET":        "all",
		// Tests send bursts from one address; a test of the limits sets its own.
		"MNEME_HTTP_RATE_LIMIT": "0",
	}
	for k, v := range env {
		vars[k] = v
	}
	for k, v := range vars {
		setenv(t, k, v)
	}
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	logs := &logRecord{}
	log := slog.New(slog.NewTextHandler(testWriter{t, logs}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, cancel := context.WithCancel(context.Background())
	a, err := app.Build(ctx, cfg, log, opts...)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("mneme run: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("mneme did not shut down within 30s")
		}
	})
	scheme := "http://"
	if cfg.HTTPTLSCert != "" {
		scheme = "https://"
	}
	s := &System{App: a, BaseURL: scheme + a.HTTPAddr(), NATSURL: a.NATSURL(), DBURL: db, logs: logs}
	timeout := time.After(30 * time.Second)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		resp, err := readyClient.Get(s.BaseURL + "/readyz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		select {
		case <-timeout:
			t.Fatalf("system not ready within 30s: %v", err)
		case <-tick.C:
		}
	}
}

// setenv sets an environment variable for the test's duration (t.Setenv for *testing.T, plain for others).
func setenv(t testing.TB, k, v string) {
	if tt, ok := t.(interface{ Setenv(string, string) }); ok {
		tt.Setenv(k, v)
		return
	}
	old, had := os.LookupEnv(k)
	_ = os.Setenv(k, v)
	t.Cleanup(func() {
		if had {
			_ = os.Setenv(k, old)
		} else {
			_ = os.Unsetenv(k)
		}
	})
}

// readyClient polls /readyz; over TLS it does not verify the test's own certificate (the tests that enable
// TLS check it themselves).
var readyClient = &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}}

type testWriter struct {
	t    testing.TB
	logs *logRecord
}

func (w testWriter) Write(p []byte) (int, error) {
	w.logs.add(string(p))
	w.t.Log(string(p))
	return len(p), nil
}

// logRecord keeps what the system logged (warnings and errors).
type logRecord struct {
	mu    sync.Mutex
	lines []string
}

func (l *logRecord) add(s string) {
	l.mu.Lock()
	l.lines = append(l.lines, s)
	l.mu.Unlock()
}

func (l *logRecord) contains(s string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, line := range l.lines {
		if strings.Contains(line, s) {
			return true
		}
	}
	return false
}
