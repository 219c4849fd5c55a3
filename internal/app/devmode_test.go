package app_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/app"
)

// TestDevModeListensOnLoopbackOnly: development mode checks no credential, so it refuses to listen where
// others can reach it unless told explicitly; production mode listens where it is told.
func TestDevModeListensOnLoopbackOnly(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string // empty: accepted
	}{
		{"all interfaces", map[string]string{"MNEME_HTTP_ADDR": "0.0.0.0:8080"}, []string{"MNEME_HTTP_ADDR=0.0.0.0:8080", "act as any agent", "MNEME_DEV_MODE_ALLOW_NON_LOOPBACK=true"}},
		{"empty host", map[string]string{"MNEME_HTTP_ADDR": ":8080"}, []string{"MNEME_HTTP_ADDR=:8080"}},
		{"LAN address", map[string]string{"MNEME_HTTP_ADDR": "192.168.1.20:8080"}, []string{"MNEME_HTTP_ADDR"}},
		{"embedded NATS on all interfaces", map[string]string{"MNEME_NATS_LISTEN": "0.0.0.0:4222"}, []string{"MNEME_NATS_LISTEN=0.0.0.0:4222"}},
		{"IPv6 all interfaces", map[string]string{"MNEME_NATS_LISTEN": "[::]:4222"}, []string{"MNEME_NATS_LISTEN"}},
		{"loopback", map[string]string{"MNEME_HTTP_ADDR": "127.0.0.1:8080", "MNEME_NATS_LISTEN": "127.0.0.2:4222"}, nil},
		{"IPv6 loopback and localhost", map[string]string{"MNEME_HTTP_ADDR": "[::1]:8080", "MNEME_NATS_LISTEN": "localhost:4222"}, nil},
		{"explicit override", map[string]string{"MNEME_HTTP_ADDR": "0.0.0.0:8080", "MNEME_DEV_MODE_ALLOW_NON_LOOPBACK": "true"}, nil},
		{"production mode", map[string]string{"MNEME_HTTP_ADDR": "0.0.0.0:8080", "MNEME_NATS_LISTEN": "0.0.0.0:4222", "MNEME_DEV_MODE": "false"}, nil},
		{"external NATS: the listen address is unused", map[string]string{"MNEME_NATS_URL": "nats://10.0.0.5:4222", "MNEME_NATS_LISTEN": "0.0.0.0:4222"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			baseEnv(t)
			t.Setenv("MNEME_DEV_MODE", "true")
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			cfg, err := app.LoadConfig() // validates too
			if err == nil {
				err = cfg.Validate()
			}
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// TestDevModeWarnsAtStartup: the first thing a development-mode process logs is a warning that anonymous
// callers can act as any agent and erase workspaces; production mode does not log it.
func TestDevModeWarnsAtStartup(t *testing.T) {
	for _, dev := range []string{"true", "false"} {
		baseEnv(t)
		t.Setenv("MNEME_DEV_MODE", dev)
		t.Setenv("MNEME_DATABASE_URL", "postgres://mneme@127.0.0.1:1/mneme?sslmode=disable")
		cfg, err := app.LoadConfig()
		if err != nil {
			t.Fatal(err)
		}
		var logs bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err = app.Build(ctx, cfg, slog.New(slog.NewTextHandler(&logs, nil)))
		cancel()
		if err == nil {
			t.Fatal("built without a database")
		}
		warned := strings.Contains(logs.String(), "level=WARN") && strings.Contains(logs.String(), "anonymous callers can act as any agent") &&
			strings.Contains(logs.String(), "erase workspaces")
		if warned != (dev == "true") {
			t.Errorf("MNEME_DEV_MODE=%s: warned %v; log:\n%s", dev, warned, logs.String())
		}
	}
}

// TestProductionDoesNotConnectToNATSAnonymously: outside development mode a service with no NATS credential
// (no MNEME_NATS_CREDS, no credentials directory, no user in the URL) refuses to start, saying what to set.
func TestProductionDoesNotConnectToNATSAnonymously(t *testing.T) {
	baseEnv(t)
	for k, v := range map[string]string{"MNEME_DEV_MODE": "false", "MNEME_NATS_URL": "nats://127.0.0.1:1", "MNEME_TARGET": "extractor", "MNEME_NATS_AUTH_DIR": t.TempDir()} {
		t.Setenv(k, v)
	}
	cfg, err := app.LoadConfig()
	if err != nil {
		t.Fatal(err)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	_, err = app.Build(context.Background(), cfg, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "does not connect to NATS anonymously") || !strings.Contains(err.Error(), "MNEME_NATS_CREDS") {
		t.Fatalf("error %v", err)
	}
}
