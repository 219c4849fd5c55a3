package reconciler

import (
	"errors"
	"fmt"
	"time"

	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Config is the reconciler's configuration, read from MNEME_RECONCILER_* (plus the shared MNEME_* settings) by
// config.Load. Every zero value of a field means its documented default (Defaults fills them), so a Config built
// in code needs only the fields it changes.
type Config struct {
	config.Common

	// BatchSize is the most claims-stream messages applied in one Postgres transaction. Default 256.
	BatchSize int `env:"MNEME_RECONCILER_BATCH_SIZE" envDefault:"256"`
	// BatchWait is how long a partition waits for more messages after the first one before it commits the batch
	// it has. Default 5ms; 0 means the default.
	BatchWait time.Duration `env:"MNEME_RECONCILER_BATCH_WAIT" envDefault:"5ms"`
	// PolicyFile is a JSON resolution policy (see policy.go and docs): rules mapping predicate, scope and source to
	// an operator. Empty means the built-in policy (LWW for functional slots, accumulate otherwise).
	PolicyFile string `env:"MNEME_RECONCILER_POLICY_FILE"`
	// PredicateMerge enables paraphrase merging of predicates of one subject into one slot. Default true.
	PredicateMerge bool `env:"MNEME_RECONCILER_PREDICATE_MERGE" envDefault:"true"`
	// PredicateSimilarity is the cosine similarity of two predicate-phrase embeddings at or above which a new
	// predicate joins an existing predicate's slot. Default 0.85.
	PredicateSimilarity float64 `env:"MNEME_RECONCILER_PREDICATE_SIMILARITY" envDefault:"0.85"`
	// NegationLinks links each negated claim ("Alice has never used Zotero") to the positive claims of the same
	// subject and slot tier that are about the same thing ("Alice downloaded Zotero"), so the query service
	// surfaces them together, flagged as conflicting. Default true.
	NegationLinks bool `env:"MNEME_RECONCILER_NEGATION_LINKS" envDefault:"true"`
	// NegationSimilarity is the cosine similarity of two claims' text embeddings at or above which a negated
	// and a positive claim of the same subject that share content (two content words, or a name) are linked as
	// contradicting. Default 0.3 (measured on BEAM's never-statement contradictions; see docs/architecture.md).
	NegationSimilarity float64 `env:"MNEME_RECONCILER_NEGATION_SIMILARITY" envDefault:"0.3"`
	// MaxAttempts bounds how often one message is tried when applying it fails for a reason that is not a
	// transient infrastructure error; then it goes to the dead-letter stream and the partition moves on.
	// Default 5.
	MaxAttempts int `env:"MNEME_RECONCILER_MAX_ATTEMPTS" envDefault:"5"`
	// RetryBackoff is the first delay between attempts; it doubles up to 5s. Default 100ms.
	RetryBackoff time.Duration `env:"MNEME_RECONCILER_RETRY_BACKOFF" envDefault:"100ms"`
	// RebalanceInterval is how often a replica re-checks the live replicas and takes or releases partitions.
	// Default 1s.
	RebalanceInterval time.Duration `env:"MNEME_RECONCILER_REBALANCE_INTERVAL" envDefault:"1s"`
	// PublishDecisions publishes a DecisionRecordedV1 per decision to mneme.ledger.<ws> after commit. Default true.
	PublishDecisions bool `env:"MNEME_RECONCILER_PUBLISH_DECISIONS" envDefault:"true"`
	// ErasureWait is how long POST /v1/workspaces/{ws}/erasures waits for the erasure to complete before it
	// answers 202 Accepted (poll GET .../erasures/{id}). Default 30s.
	ErasureWait time.Duration `env:"MNEME_RECONCILER_ERASURE_WAIT" envDefault:"30s"`
	// AuditRelayInterval is how often the reconciler publishes audit-log entries not yet on the ledger stream
	// (io.mneme.audit.v1.recorded on mneme.ledger.<ws>). Default 1s.
	AuditRelayInterval time.Duration `env:"MNEME_RECONCILER_AUDIT_RELAY_INTERVAL" envDefault:"1s"`
	// WorkspaceIndexMin is the number of vectors at which a workspace gets an HNSW index of its own; smaller
	// workspaces are searched exactly (pkg/store/dense.go). Default 2000.
	WorkspaceIndexMin int `env:"MNEME_RECONCILER_WORKSPACE_INDEX_MIN" envDefault:"2000"`
	// WorkspaceIndexInterval is how often the reconciler looks for workspaces that crossed WorkspaceIndexMin and
	// builds their indexes (one replica at a time, CONCURRENTLY). Default 1m.
	WorkspaceIndexInterval time.Duration `env:"MNEME_RECONCILER_WORKSPACE_INDEX_INTERVAL" envDefault:"1m"`
	// WorkspaceIndexCheckInterval is how often the reconciler checks the workspaces it has written vectors to
	// since its last check, and indexes those that crossed WorkspaceIndexMin — a count up to the threshold per
	// workspace, cheap where the full pass counts the whole table — so a fast-growing workspace is not searched
	// exactly for up to WorkspaceIndexInterval. Default 5s.
	WorkspaceIndexCheckInterval time.Duration `env:"MNEME_RECONCILER_WORKSPACE_INDEX_CHECK_INTERVAL" envDefault:"5s"`

	// Judge is the chat endpoint of the LLM judge, for the policy rules that ask for it (without it, rules
	// only); its model is part of every judge-log key.
	Judge llm.Endpoint `envPrefix:"MNEME_RECONCILER_JUDGE_"`
	// JudgeTimeout bounds one judge call including retries. Default 30s.
	JudgeTimeout time.Duration `env:"MNEME_RECONCILER_JUDGE_TIMEOUT" envDefault:"30s"`
	// JudgeMaxPairs bounds the pairs judged for one incoming claim (the newest claims of the tier first).
	// Default 8.
	JudgeMaxPairs int `env:"MNEME_RECONCILER_JUDGE_MAX_PAIRS" envDefault:"8"`
}

// Defaults returns c with every zero-valued field set to its documented default.
func (c Config) Defaults() Config {
	if c.Partitions == 0 {
		c.Partitions = 16
	}
	if c.BatchSize == 0 {
		c.BatchSize = 256
	}
	if c.BatchWait == 0 {
		c.BatchWait = 5 * time.Millisecond
	}
	if c.PredicateSimilarity == 0 {
		c.PredicateSimilarity = 0.85
	}
	if c.NegationSimilarity == 0 {
		c.NegationSimilarity = 0.3
	}
	if c.MaxAttempts == 0 {
		c.MaxAttempts = 5
	}
	if c.RetryBackoff == 0 {
		c.RetryBackoff = 100 * time.Millisecond
	}
	if c.RebalanceInterval == 0 {
		c.RebalanceInterval = time.Second
	}
	if c.ErasureWait == 0 {
		c.ErasureWait = 30 * time.Second
	}
	if c.AuditRelayInterval == 0 {
		c.AuditRelayInterval = time.Second
	}
	if c.WorkspaceIndexMin == 0 {
		c.WorkspaceIndexMin = store.DefaultWorkspaceIndexMin
	}
	if c.WorkspaceIndexInterval == 0 {
		c.WorkspaceIndexInterval = time.Minute
	}
	if c.WorkspaceIndexCheckInterval == 0 {
		c.WorkspaceIndexCheckInterval = 5 * time.Second
	}
	if c.JudgeTimeout == 0 {
		c.JudgeTimeout = 30 * time.Second
	}
	if c.JudgeMaxPairs == 0 {
		c.JudgeMaxPairs = 8
	}
	if c.ShutdownTimeout == 0 {
		c.ShutdownTimeout = 15 * time.Second
	}
	return c
}

// DefaultConfig is the configuration with every default applied and predicate merging and decision
// publishing on, as config.Load gives with an empty environment (minus the shared settings).
func DefaultConfig() Config {
	return Config{PredicateMerge: true, PublishDecisions: true, NegationLinks: true}.Defaults()
}

// Validate checks the reconciler settings (after Defaults) and says what is wrong and how to fix it. The shared
// settings are checked by config.Common.Validate, which config.Load calls through this method.
func (c Config) Validate() error {
	return errors.Join(c.Common.Validate(), c.validateOwn())
}

// validateOwn checks the MNEME_RECONCILER_* settings only; New uses it because the shared settings reach a
// service through service.Deps.
func (c Config) validateOwn() error {
	var errs []error
	bad := func(format string, a ...any) { errs = append(errs, fmt.Errorf(format, a...)) }
	if c.BatchSize < 1 || c.BatchSize > 10000 {
		bad("MNEME_RECONCILER_BATCH_SIZE=%d is out of range: use 1..10000 (default 256)", c.BatchSize)
	}
	if c.BatchWait < 0 || c.BatchWait > 10*time.Second {
		bad("MNEME_RECONCILER_BATCH_WAIT=%s is out of range: use 0..10s (default 5ms)", c.BatchWait)
	}
	if c.PredicateSimilarity <= 0 || c.PredicateSimilarity > 1 {
		bad("MNEME_RECONCILER_PREDICATE_SIMILARITY=%g is out of range: use a cosine similarity in (0, 1] (default 0.85); set MNEME_RECONCILER_PREDICATE_MERGE=false to disable merging", c.PredicateSimilarity)
	}
	if c.NegationSimilarity <= 0 || c.NegationSimilarity > 1 {
		bad("MNEME_RECONCILER_NEGATION_SIMILARITY=%g is out of range: use a cosine similarity in (0, 1] (default 0.3); set MNEME_RECONCILER_NEGATION_LINKS=false to disable negation links", c.NegationSimilarity)
	}
	if c.MaxAttempts < 1 || c.MaxAttempts > 100 {
		bad("MNEME_RECONCILER_MAX_ATTEMPTS=%d is out of range: use 1..100 (default 5)", c.MaxAttempts)
	}
	if c.RetryBackoff < time.Millisecond || c.RetryBackoff > time.Minute {
		bad("MNEME_RECONCILER_RETRY_BACKOFF=%s is out of range: use 1ms..1m (default 100ms)", c.RetryBackoff)
	}
	if c.RebalanceInterval < 10*time.Millisecond || c.RebalanceInterval > time.Minute {
		bad("MNEME_RECONCILER_REBALANCE_INTERVAL=%s is out of range: use 10ms..1m (default 1s)", c.RebalanceInterval)
	}
	if c.ErasureWait < 0 || c.ErasureWait > 10*time.Minute {
		bad("MNEME_RECONCILER_ERASURE_WAIT=%s is out of range: use 0..10m (default 30s)", c.ErasureWait)
	}
	if c.AuditRelayInterval < 10*time.Millisecond || c.AuditRelayInterval > time.Hour {
		bad("MNEME_RECONCILER_AUDIT_RELAY_INTERVAL=%s is out of range: use 10ms..1h (default 1s)", c.AuditRelayInterval)
	}
	if c.WorkspaceIndexMin < 100 {
		bad("MNEME_RECONCILER_WORKSPACE_INDEX_MIN=%d is out of range: use at least 100 (default 2000)", c.WorkspaceIndexMin)
	}
	if c.WorkspaceIndexInterval < 10*time.Millisecond || c.WorkspaceIndexInterval > 24*time.Hour {
		bad("MNEME_RECONCILER_WORKSPACE_INDEX_INTERVAL=%s is out of range: use 10ms..24h (default 1m)", c.WorkspaceIndexInterval)
	}
	if c.WorkspaceIndexCheckInterval < 10*time.Millisecond || c.WorkspaceIndexCheckInterval > time.Hour {
		bad("MNEME_RECONCILER_WORKSPACE_INDEX_CHECK_INTERVAL=%s is out of range: use 10ms..1h (default 5s)", c.WorkspaceIndexCheckInterval)
	}
	for _, m := range c.Judge.Check("MNEME_RECONCILER_JUDGE_") {
		bad("%s", m)
	}
	if c.JudgeTimeout <= 0 {
		bad("MNEME_RECONCILER_JUDGE_TIMEOUT=%s must be positive (default 30s)", c.JudgeTimeout)
	}
	if c.JudgeMaxPairs < 1 || c.JudgeMaxPairs > 100 {
		bad("MNEME_RECONCILER_JUDGE_MAX_PAIRS=%d is out of range: use 1..100 (default 8)", c.JudgeMaxPairs)
	}
	return errors.Join(errs...)
}

func (c Config) judgeEnabled() bool { return c.Judge.Set() && c.Judge.Model != "" }
