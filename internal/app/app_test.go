package app_test

import (
	"context"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/internal/app"
)

// baseEnv is a configuration that would be valid if its dependencies were reachable.
func baseEnv(t *testing.T) {
	t.Helper()
	for k, v := range map[string]string{
		"MNEME_HTTP_ADDR":       "127.0.0.1:0",
		"MNEME_NATS_URL":        "",
		"MNEME_NATS_LISTEN":     "127.0.0.1:-1",
		"MNEME_NATS_STORE_DIR":  t.TempDir(),
		"MNEME_PARTITIONS":      "16",
		"MNEME_TARGET":          "all",
		"MNEME_CONNECT_TIMEOUT": "2s",
	} {
		t.Setenv(k, v)
	}
}

// TestBadConfigurationFailsFast: each misconfiguration is reported by name with a way to fix it, quickly, and
// without a panic.
func TestBadConfigurationFailsFast(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"partition count zero", map[string]string{"MNEME_PARTITIONS": "0"}, []string{"MNEME_PARTITIONS=0", "1..1024"}},
		{"partition count not a number", map[string]string{"MNEME_PARTITIONS": "many"}, []string{"MNEME_PARTITIONS"}},
		{"bad http address", map[string]string{"MNEME_HTTP_ADDR": "8080"}, []string{"MNEME_HTTP_ADDR", "host:port"}},
		{"not a postgres url", map[string]string{"MNEME_DATABASE_URL": "mysql://x"}, []string{"MNEME_DATABASE_URL", "postgres://"}},
		{"unknown target", map[string]string{"MNEME_TARGET": "ingest,cache"}, []string{"unknown service", "cache"}},
		{"single service without broker", map[string]string{"MNEME_TARGET": "query"}, []string{"MNEME_NATS_URL is required"}},
		{"unknown embedding provider", map[string]string{"MNEME_EMBEDDING_PROVIDER": "magic"}, []string{"MNEME_EMBEDDING_PROVIDER"}},
		{"openai embeddings without url", map[string]string{"MNEME_EMBEDDING_PROVIDER": "openai"}, []string{"MNEME_EMBEDDING_BASE_URL"}},
		{"no read-header timeout", map[string]string{"MNEME_HTTP_READ_HEADER_TIMEOUT": "0s"}, []string{"MNEME_HTTP_READ_HEADER_TIMEOUT"}},
		{"body timeout below the header timeout", map[string]string{"MNEME_HTTP_READ_TIMEOUT": "1s", "MNEME_HTTP_READ_HEADER_TIMEOUT": "5s"}, []string{"MNEME_HTTP_READ_TIMEOUT"}},
		{"no in-flight bodies", map[string]string{"MNEME_HTTP_MAX_INFLIGHT_BODIES": "0"}, []string{"MNEME_HTTP_MAX_INFLIGHT_BODIES"}},
		{"negative rate", map[string]string{"MNEME_HTTP_RATE_LIMIT": "-1"}, []string{"MNEME_HTTP_RATE_LIMIT"}},
		{"rate without burst", map[string]string{"MNEME_HTTP_RATE_LIMIT": "5", "MNEME_HTTP_RATE_BURST": "0"}, []string{"MNEME_HTTP_RATE_BURST"}},
		{"negative key cache", map[string]string{"MNEME_AUTH_CACHE_TTL": "-1s"}, []string{"MNEME_AUTH_CACHE_TTL"}},
		{"unknown log format", map[string]string{"MNEME_LOG_FORMAT": "xml"}, []string{"MNEME_LOG_FORMAT", "json"}},
		{"tracing switch not a boolean", map[string]string{"MNEME_TRACING": "maybe"}, []string{"MNEME_TRACING"}},
		{"profiles on every interface", map[string]string{"MNEME_PPROF_ADDR": "0.0.0.0:6060"}, []string{"MNEME_PPROF_ADDR=0.0.0.0:6060", "loopback"}},
		{"negative sync interval", map[string]string{"MNEME_NATS_SYNC_INTERVAL": "-1s"}, []string{"MNEME_NATS_SYNC_INTERVAL"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			baseEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			cfg, err := app.LoadConfig()
			if err == nil {
				err = cfg.Validate()
			}
			if err == nil {
				t.Fatal("accepted a bad configuration")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestUnreachableDependenciesFailFast(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"unreachable database", map[string]string{"MNEME_DATABASE_URL": "postgres://mneme@127.0.0.1:1/mneme?sslmode=disable"}, "cannot reach Postgres"},
		{"missing model weights", map[string]string{"MNEME_MODEL_DIR": "/nonexistent/use-lite"}, "make deps"},
		{"unreachable NATS", map[string]string{"MNEME_NATS_URL": "nats://127.0.0.1:1", "MNEME_TARGET": "embedder"}, "connect to NATS"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			baseEnv(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			cfg, err := app.LoadConfig()
			if err != nil {
				t.Fatal(err)
			}
			if err := cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			start := time.Now()
			if _, err := app.Build(ctx, cfg, slog.New(slog.DiscardHandler)); err == nil {
				t.Fatalf("built an app with %v", tc.env)
			} else if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
			if ctx.Err() != nil {
				t.Errorf("took until the test's deadline (%s): a hang, not a fast failure", time.Since(start))
			}
		})
	}
}

// TestBinaryExitsCleanlyOnBadConfig runs the real binary: a clear message on stderr, exit status 1, no panic.
func TestBinaryExitsCleanlyOnBadConfig(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "mneme")
	build := exec.Command("go", "build", "-o", bin, "./cmd/mneme")
	build.Dir = "../.."
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "run")
	cmd.Env = append(os.Environ(), "MNEME_PARTITIONS=-3")
	out, err := cmd.CombinedOutput()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 1 {
		t.Fatalf("want exit status 1, got %v\n%s", err, out)
	}
	if strings.Contains(string(out), "panic") || !strings.Contains(string(out), "MNEME_PARTITIONS=-3") {
		t.Fatalf("unclear failure:\n%s", out)
	}
}
