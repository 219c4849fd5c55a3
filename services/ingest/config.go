package ingest

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/config"
)

// Hard ceilings: the event schemas (schemas/*/v1) bound these fields, so a configured limit above them would
// accept input whose events then violate their schema.
const (
	ceilingIDBytes        = 256  // turn_id, session_id, speaker, claim_id
	ceilingSubjectBytes   = 512  // claim subject and subject_key
	ceilingPredicateBytes = 256  // claim predicate and predicate_key
	ceilingObjectBytes    = 4096 // claim object
	ceilingTextBytes      = 8192 // claim text
	ceilingSourceBytes    = 2048 // claim source (provenance.source_ref)
	// ceilingBodyBytes is the stream's maximum message size (bus.DefaultTopology().MaxMsgSize): an inbox batch
	// larger than this cannot be published to NATS, so HTTP should not accept one either.
	ceilingBodyBytes = 8 << 20
)

// knownRoles are the roles the turn schema allows; MNEME_INGEST_ALLOWED_ROLES may narrow them.
var knownRoles = []string{"user", "assistant", "system", "tool"}

// Config is the ingest service's configuration, read from MNEME_INGEST_* (plus the shared MNEME_* settings
// and the predicate policy MNEME_FUNCTIONAL_PREDICATES, MNEME_ACCUMULATING_PREDICATES,
// MNEME_PREDICATE_POLICY_FILE). Sizes are in bytes of UTF-8.
type Config struct {
	config.Common
	canon.PolicyConfig

	// MaxBodyBytes bounds one HTTP request body or NATS inbox message (a whole batch). Default 8 MiB, the
	// largest message the inbox stream accepts.
	MaxBodyBytes int64 `env:"MNEME_INGEST_MAX_BODY_BYTES" envDefault:"8388608"`
	// MaxTurnContentBytes bounds the content of one turn. Default 64 KiB.
	MaxTurnContentBytes int `env:"MNEME_INGEST_MAX_TURN_CONTENT_BYTES" envDefault:"65536"`
	// MaxTurnsPerBatch bounds the turns of one request or inbox message. Default 256.
	MaxTurnsPerBatch int `env:"MNEME_INGEST_MAX_TURNS_PER_BATCH" envDefault:"256"`
	// MaxClaimsPerBatch bounds the claims of one request or inbox message. Default 1000.
	MaxClaimsPerBatch int `env:"MNEME_INGEST_MAX_CLAIMS_PER_BATCH" envDefault:"1000"`
	// MaxIDBytes bounds turn_id, session_id, speaker and claim_id. Default (and ceiling) 256.
	MaxIDBytes int `env:"MNEME_INGEST_MAX_ID_BYTES" envDefault:"256"`
	// MaxSubjectBytes bounds a claim's subject. Default (and ceiling) 512.
	MaxSubjectBytes int `env:"MNEME_INGEST_MAX_SUBJECT_BYTES" envDefault:"512"`
	// MaxPredicateBytes bounds a claim's predicate. Default (and ceiling) 256.
	MaxPredicateBytes int `env:"MNEME_INGEST_MAX_PREDICATE_BYTES" envDefault:"256"`
	// MaxObjectBytes bounds a claim's object. Default (and ceiling) 4096.
	MaxObjectBytes int `env:"MNEME_INGEST_MAX_OBJECT_BYTES" envDefault:"4096"`
	// MaxClaimTextBytes bounds a claim's text. Default (and ceiling) 8192.
	MaxClaimTextBytes int `env:"MNEME_INGEST_MAX_CLAIM_TEXT_BYTES" envDefault:"8192"`
	// MaxSourceBytes bounds a claim's source reference. Default (and ceiling) 2048.
	MaxSourceBytes int `env:"MNEME_INGEST_MAX_SOURCE_BYTES" envDefault:"2048"`
	// MaxMetadataBytes bounds a turn's metadata object, measured as compact JSON. Default 16 KiB.
	MaxMetadataBytes int `env:"MNEME_INGEST_MAX_METADATA_BYTES" envDefault:"16384"`
	// MaxJSONDepth bounds the nesting of a body, checked before it is decoded: the body object is level 1 and
	// an item level 3, so at the default an item's metadata may nest 28 levels. Default 32.
	MaxJSONDepth int `env:"MNEME_INGEST_MAX_JSON_DEPTH" envDefault:"32"`
	// MaxJSONValues bounds the JSON keys and values of one body, checked before it is decoded: decoding costs
	// memory per value, not per byte (8 MiB of empty objects is 2.8 million maps). A full batch of 1000
	// claims holds about 25,000. Default 100000.
	MaxJSONValues int `env:"MNEME_INGEST_MAX_JSON_VALUES" envDefault:"100000"`
	// MaxConcurrentDecodes bounds the bodies (HTTP requests and inbox messages together) decoded and validated
	// at once, so many large bodies at once cannot multiply the memory one takes; others wait their turn.
	// Default 4.
	MaxConcurrentDecodes int `env:"MNEME_INGEST_MAX_CONCURRENT_DECODES" envDefault:"4"`
	// AllowedRoles lists the turn roles accepted (comma-separated); a subset of user, assistant, system, tool.
	AllowedRoles []string `env:"MNEME_INGEST_ALLOWED_ROLES" envDefault:"user,assistant,system,tool" envSeparator:","`
	// PublishTimeout bounds how long a batch waits for JetStream to acknowledge its events; past it the HTTP
	// request fails with 503 and an inbox message is retried. Default 10s.
	PublishTimeout time.Duration `env:"MNEME_INGEST_PUBLISH_TIMEOUT" envDefault:"10s"`
	// InboxAckWait is how long NATS waits for an inbox message's acknowledgement, or a progress signal, before
	// it redelivers the message; a message being processed is marked in progress every third of it. It is
	// also how long a killed ingest replica's inbox messages wait before another replica gets them. Default 5s.
	InboxAckWait time.Duration `env:"MNEME_INGEST_INBOX_ACK_WAIT" envDefault:"5s"`
	// InboxMaxDeliver bounds deliveries of one inbox message: after this many transient failures it is
	// dead-lettered instead of retried again. Default 8.
	InboxMaxDeliver int `env:"MNEME_INGEST_INBOX_MAX_DELIVER" envDefault:"8"`
	// InboxConcurrency is how many inbox messages are processed at once. Default 4.
	InboxConcurrency int `env:"MNEME_INGEST_INBOX_CONCURRENCY" envDefault:"4"`
	// InboxRetryBackoff is the first redelivery delay after a transient failure; it doubles per delivery up
	// to 30s. Default 500ms.
	InboxRetryBackoff time.Duration `env:"MNEME_INGEST_INBOX_RETRY_BACKOFF" envDefault:"500ms"`
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
		MaxBodyBytes:         8 << 20,
		MaxTurnContentBytes:  64 << 10,
		MaxTurnsPerBatch:     256,
		MaxClaimsPerBatch:    1000,
		MaxIDBytes:           ceilingIDBytes,
		MaxSubjectBytes:      ceilingSubjectBytes,
		MaxPredicateBytes:    ceilingPredicateBytes,
		MaxObjectBytes:       ceilingObjectBytes,
		MaxClaimTextBytes:    ceilingTextBytes,
		MaxSourceBytes:       ceilingSourceBytes,
		MaxMetadataBytes:     16 << 10,
		MaxJSONDepth:         32,
		MaxJSONValues:        100000,
		MaxConcurrentDecodes: 4,
		AllowedRoles:         slices.Clone(knownRoles),
		PublishTimeout:       10 * time.Second,
		InboxAckWait:         5 * time.Second,
		InboxMaxDeliver:      8,
		InboxConcurrency:     4,
		InboxRetryBackoff:    500 * time.Millisecond,
	}
}

// Validate checks the shared settings and every ingest setting, naming the variable and the fix.
func (c Config) Validate() error {
	var errs []error
	if err := c.Common.Validate(); err != nil {
		errs = append(errs, err)
	}
	between := func(name string, v, lo, hi int64) {
		if v < lo || v > hi {
			errs = append(errs, fmt.Errorf("%s=%d is out of range: use %d..%d", name, v, lo, hi))
		}
	}
	between("MNEME_INGEST_MAX_BODY_BYTES", c.MaxBodyBytes, 1024, ceilingBodyBytes)
	between("MNEME_INGEST_MAX_TURN_CONTENT_BYTES", int64(c.MaxTurnContentBytes), 1, ceilingBodyBytes)
	between("MNEME_INGEST_MAX_TURNS_PER_BATCH", int64(c.MaxTurnsPerBatch), 1, 100000)
	between("MNEME_INGEST_MAX_CLAIMS_PER_BATCH", int64(c.MaxClaimsPerBatch), 1, 100000)
	between("MNEME_INGEST_MAX_ID_BYTES", int64(c.MaxIDBytes), 1, ceilingIDBytes)
	between("MNEME_INGEST_MAX_SUBJECT_BYTES", int64(c.MaxSubjectBytes), 1, ceilingSubjectBytes)
	between("MNEME_INGEST_MAX_PREDICATE_BYTES", int64(c.MaxPredicateBytes), 1, ceilingPredicateBytes)
	between("MNEME_INGEST_MAX_OBJECT_BYTES", int64(c.MaxObjectBytes), 1, ceilingObjectBytes)
	between("MNEME_INGEST_MAX_CLAIM_TEXT_BYTES", int64(c.MaxClaimTextBytes), 1, ceilingTextBytes)
	between("MNEME_INGEST_MAX_SOURCE_BYTES", int64(c.MaxSourceBytes), 1, ceilingSourceBytes)
	between("MNEME_INGEST_MAX_METADATA_BYTES", int64(c.MaxMetadataBytes), 2, ceilingBodyBytes)
	between("MNEME_INGEST_MAX_JSON_DEPTH", int64(c.MaxJSONDepth), 4, 10000)
	between("MNEME_INGEST_MAX_JSON_VALUES", int64(c.MaxJSONValues), 100, 100000000)
	between("MNEME_INGEST_MAX_CONCURRENT_DECODES", int64(c.MaxConcurrentDecodes), 1, 1024)
	between("MNEME_INGEST_INBOX_MAX_DELIVER", int64(c.InboxMaxDeliver), 1, 1000)
	between("MNEME_INGEST_INBOX_CONCURRENCY", int64(c.InboxConcurrency), 1, 256)
	if len(c.AllowedRoles) == 0 {
		errs = append(errs, errors.New("MNEME_INGEST_ALLOWED_ROLES is empty: list at least one of user, assistant, system, tool"))
	}
	for _, r := range c.AllowedRoles {
		if !slices.Contains(knownRoles, r) {
			errs = append(errs, fmt.Errorf("MNEME_INGEST_ALLOWED_ROLES: unknown role %q: use a comma-separated subset of user, assistant, system, tool", r))
		}
	}
	if c.PublishTimeout <= 0 {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_PUBLISH_TIMEOUT=%s must be positive (default 10s)", c.PublishTimeout))
	}
	if c.InboxAckWait < time.Second {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_INBOX_ACK_WAIT=%s is too short: use at least 1s (default 5s)", c.InboxAckWait))
	}
	if c.InboxRetryBackoff <= 0 {
		errs = append(errs, fmt.Errorf("MNEME_INGEST_INBOX_RETRY_BACKOFF=%s must be positive (default 500ms)", c.InboxRetryBackoff))
	}
	return errors.Join(errs...)
}
