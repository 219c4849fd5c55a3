package config_test

import (
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/config"
)

type svcConfig struct {
	config.Common
	BatchSize int `env:"MNEME_TEST_BATCH" envDefault:"4"`
}

func TestParseErrorsNameTheVariable(t *testing.T) {
	t.Setenv("MNEME_PARTITIONS", "many")
	t.Setenv("MNEME_TEST_BATCH", "x")
	var c svcConfig
	err := config.Load(&c)
	if err == nil {
		t.Fatal("accepted non-numeric values")
	}
	for _, want := range []string{`MNEME_PARTITIONS="many" is not a valid int`, `MNEME_TEST_BATCH="x"`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not contain %q", err, want)
		}
	}
}

func TestDefaultsAreValid(t *testing.T) {
	var c config.Common
	if err := config.Load(&c); err != nil {
		t.Fatal(err)
	}
	if c.Partitions != 16 || c.HTTPAddr != "127.0.0.1:8080" {
		t.Fatalf("defaults: %+v", c)
	}
}

func TestValidateNamesEveryProblem(t *testing.T) {
	c := config.Common{HTTPAddr: "nope", Partitions: 0, DatabaseURL: "mysql://x", NATSURL: "http://x", LogLevel: "loud"}
	err := c.Validate()
	if err == nil {
		t.Fatal("accepted")
	}
	for _, want := range []string{"MNEME_HTTP_ADDR", "MNEME_PARTITIONS", "MNEME_DATABASE_URL", "MNEME_NATS_URL", "MNEME_LOG_LEVEL", "MNEME_CONNECT_TIMEOUT"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not name %s: %v", want, err)
		}
	}
}
