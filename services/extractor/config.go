package extractor

import (
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// Config is the extractor's configuration, read from MNEME_EXTRACTOR_* (plus the shared MNEME_* settings and
// the predicate policy MNEME_FUNCTIONAL_PREDICATES, MNEME_ACCUMULATING_PREDICATES, MNEME_PREDICATE_POLICY_FILE).
// With MNEME_EXTRACTOR_LLM_BASE_URL empty the deterministic rule-based extractor runs.
type Config struct {
	config.Common
	canon.PolicyConfig

	// WindowTokens is the token budget of one extraction window: consecutive turns of a session are grouped
	// until their content reaches it. Default 2048.
	WindowTokens int `env:"MNEME_EXTRACTOR_WINDOW_TOKENS" envDefault:"2048"`
	// Tokenizer is the encoding windows are measured in: cl100k_base (default) or o200k_base.
	Tokenizer string `env:"MNEME_EXTRACTOR_TOKENIZER" envDefault:"cl100k_base"`
	// IdleFlush is how long a session's open window waits for more turns before it is extracted anyway.
	// Default 1s; 0 extracts every batch of pulled turns at once.
	IdleFlush time.Duration `env:"MNEME_EXTRACTOR_IDLE_FLUSH" envDefault:"1s"`
	// Concurrency is how many windows are extracted at once. Default 2.
	Concurrency int `env:"MNEME_EXTRACTOR_CONCURRENCY" envDefault:"2"`
	// FetchBatch is how many turns are pulled from NATS at a time. Default 256.
	FetchBatch int `env:"MNEME_EXTRACTOR_FETCH_BATCH" envDefault:"256"`
	// MaxDeliver bounds the deliveries of one turn: after this many failed attempts (extraction or
	// publishing) it is dead-lettered rather than retried again. Default 5.
	MaxDeliver int `env:"MNEME_EXTRACTOR_MAX_DELIVER" envDefault:"5"`
	// RetryBackoff is the first redelivery delay after a failure; it doubles per delivery up to 1m. Default 1s.
	RetryBackoff time.Duration `env:"MNEME_EXTRACTOR_RETRY_BACKOFF" envDefault:"1s"`
	// AckWait is how long NATS waits for a turn's acknowledgement, or a progress signal, before redelivering
	// it; turns being extracted or held in a window are marked in progress every third of it. It is also how
	// long a killed extractor's turns wait before another replica gets them. Default 5s.
	AckWait time.Duration `env:"MNEME_EXTRACTOR_ACK_WAIT" envDefault:"5s"`
	// PublishTimeout bounds publishing one claim and waiting for JetStream's acknowledgement. Default 10s.
	PublishTimeout time.Duration `env:"MNEME_EXTRACTOR_PUBLISH_TIMEOUT" envDefault:"10s"`

	// LLM is the chat endpoint of LLM extraction; without it the rule-based extractor runs.
	LLM llm.Endpoint `envPrefix:"MNEME_EXTRACTOR_LLM_"`
	// LLMTimeout bounds one HTTP attempt. Default 60s.
	LLMTimeout time.Duration `env:"MNEME_EXTRACTOR_LLM_TIMEOUT" envDefault:"60s"`
	// LLMMaxRetries bounds retries of one call on 429, 5xx and timeouts. Default 4.
	LLMMaxRetries int `env:"MNEME_EXTRACTOR_LLM_MAX_RETRIES" envDefault:"4"`
	// LLMFallbackRules extracts a window with the rules when the LLM fails permanently or its retries are
	// exhausted, instead of dead-lettering its turns. Default true.
	LLMFallbackRules bool `env:"MNEME_EXTRACTOR_LLM_FALLBACK_RULES" envDefault:"true"`
}

// DefaultConfig returns the configuration with every default applied, as config.Load does with an empty
// environment.
func DefaultConfig() Config {
	return Config{
		Common: config.Common{
			HTTPAddr: "127.0.0.1:8080", Partitions: 16, DevMode: true, LogLevel: "info",
			DatabaseURL:    "postgres://mneme@127.0.0.1:54329/mneme?sslmode=disable",
			ConnectTimeout: 10 * time.Second, ShutdownTimeout: 15 * time.Second,
		},
		WindowTokens:     2048,
		Tokenizer:        tokens.Cl100kBase,
		IdleFlush:        time.Second,
		Concurrency:      2,
		FetchBatch:       256,
		MaxDeliver:       5,
		RetryBackoff:     time.Second,
		AckWait:          5 * time.Second,
		PublishTimeout:   10 * time.Second,
		LLMTimeout:       60 * time.Second,
		LLMMaxRetries:    4,
		LLMFallbackRules: true,
	}
}

// LLMEnabled reports whether an LLM is configured.
func (c Config) LLMEnabled() bool { return c.LLM.Set() }

// Validate checks the shared settings and every extractor setting, naming the variable and the fix.
func (c Config) Validate() error {
	var errs []error
	if err := c.Common.Validate(); err != nil {
		errs = append(errs, err)
	}
	between := func(name string, v, lo, hi int) {
		if v < lo || v > hi {
			errs = append(errs, fmt.Errorf("%s=%d is out of range: use %d..%d", name, v, lo, hi))
		}
	}
	between("MNEME_EXTRACTOR_WINDOW_TOKENS", c.WindowTokens, 64, 200000)
	between("MNEME_EXTRACTOR_CONCURRENCY", c.Concurrency, 1, 256)
	between("MNEME_EXTRACTOR_FETCH_BATCH", c.FetchBatch, 1, 10000)
	between("MNEME_EXTRACTOR_MAX_DELIVER", c.MaxDeliver, 1, 1000)
	if _, err := tokens.New(c.Tokenizer); err != nil {
		errs = append(errs, fmt.Errorf("MNEME_EXTRACTOR_TOKENIZER=%q: %v", c.Tokenizer, err))
	}
	if c.IdleFlush < 0 {
		errs = append(errs, fmt.Errorf("MNEME_EXTRACTOR_IDLE_FLUSH=%s must not be negative (0 extracts each pulled batch at once)", c.IdleFlush))
	}
	if c.AckWait < time.Second {
		errs = append(errs, fmt.Errorf("MNEME_EXTRACTOR_ACK_WAIT=%s is too short: use at least 1s (default 5s)", c.AckWait))
	}
	if c.PublishTimeout <= 0 {
		errs = append(errs, fmt.Errorf("MNEME_EXTRACTOR_PUBLISH_TIMEOUT=%s must be positive (default 10s)", c.PublishTimeout))
	}
	if c.RetryBackoff <= 0 {
		errs = append(errs, fmt.Errorf("MNEME_EXTRACTOR_RETRY_BACKOFF=%s must be positive (default 1s)", c.RetryBackoff))
	}
	if c.LLMEnabled() {
		for _, m := range c.LLM.Check("MNEME_EXTRACTOR_LLM_") {
			errs = append(errs, errors.New(m+" (or leave MNEME_EXTRACTOR_LLM_BASE_URL empty for the rule-based extractor)"))
		}
		if c.LLMTimeout <= 0 {
			errs = append(errs, fmt.Errorf("MNEME_EXTRACTOR_LLM_TIMEOUT=%s must be positive (default 60s)", c.LLMTimeout))
		}
		between("MNEME_EXTRACTOR_LLM_MAX_RETRIES", c.LLMMaxRetries, 0, 20)
	}
	if _, err := c.PolicyConfig.Policy(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// RetryPolicy is how turns whose extraction or publishing fails are retried: redelivered after RetryBackoff,
// doubling up to 1m, and dead-lettered after MaxDeliver deliveries.
func (c Config) RetryPolicy() bus.RetryPolicy {
	return bus.RetryPolicy{InitialInterval: c.RetryBackoff, MaxInterval: time.Minute, MaxAttempts: c.MaxDeliver}
}

// ConsumerName is the durable pull consumer of the turns stream.
const ConsumerName = bus.ConsumerExtractor

// ConsumerConfig is the turns consumer: one durable pull consumer shared by every extractor replica. It has
// no MaxDeliver: the service counts deliveries itself and dead-letters after MaxDeliver, so a turn is never
// silently dropped by the server.
func (c Config) ConsumerConfig() jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{
		Durable:       ConsumerName,
		Description:   "extractor: turns → proposed claims",
		FilterSubject: bus.TurnsSubject("*"),
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       c.AckWait,
		MaxDeliver:    -1,
		MaxAckPending: max(4*c.FetchBatch, 1024),
		DeliverPolicy: jetstream.DeliverAllPolicy,
	}
}
