package ingest

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/config"
)

func TestConfigDefaultsMatchLoad(t *testing.T) {
	var cfg Config
	if err := config.Load(&cfg); err != nil {
		t.Fatal(err)
	}
	def := DefaultConfig()
	// Only the ingest settings: the shared ones may come from the test environment.
	cfg.Common, def.Common = config.Common{}, config.Common{}
	if !reflect.DeepEqual(cfg, def) {
		t.Fatalf("config.Load defaults\n%+v\ndiffer from DefaultConfig\n%+v", cfg, def)
	}
}

func TestConfigFromEnvironment(t *testing.T) {
	t.Setenv("MNEME_INGEST_MAX_TURN_CONTENT_BYTES", "1000")
	t.Setenv("MNEME_INGEST_ALLOWED_ROLES", "user,assistant")
	t.Setenv("MNEME_INGEST_PUBLISH_TIMEOUT", "2s")
	t.Setenv("MNEME_FUNCTIONAL_PREDICATES", "favourite colour")
	var cfg Config
	if err := config.Load(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.MaxTurnContentBytes != 1000 || len(cfg.AllowedRoles) != 2 || cfg.PublishTimeout != 2*time.Second || len(cfg.Functional) != 1 {
		t.Fatalf("%+v", cfg)
	}
}

func TestConfigValidateNamesVariable(t *testing.T) {
	for _, tt := range []struct {
		mutate func(*Config)
		want   string
	}{
		{func(c *Config) { c.MaxTurnContentBytes = 0 }, "MNEME_INGEST_MAX_TURN_CONTENT_BYTES=0"},
		{func(c *Config) { c.MaxBodyBytes = 1 << 30 }, "MNEME_INGEST_MAX_BODY_BYTES"},
		{func(c *Config) { c.MaxSubjectBytes = 513 }, "MNEME_INGEST_MAX_SUBJECT_BYTES=513"},
		{func(c *Config) { c.AllowedRoles = []string{"user", "narrator"} }, `unknown role "narrator"`},
		{func(c *Config) { c.AllowedRoles = nil }, "MNEME_INGEST_ALLOWED_ROLES is empty"},
		{func(c *Config) { c.InboxAckWait = 500 * time.Millisecond }, "MNEME_INGEST_INBOX_ACK_WAIT"},
		{func(c *Config) { c.InboxConcurrency = 0 }, "MNEME_INGEST_INBOX_CONCURRENCY"},
		{func(c *Config) { c.Partitions = 0 }, "MNEME_PARTITIONS"},
	} {
		cfg := DefaultConfig()
		tt.mutate(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Validate() = %v, want it to mention %q", err, tt.want)
		}
	}
	if err := DefaultConfig().Validate(); err != nil {
		t.Fatalf("defaults invalid: %v", err)
	}
}
