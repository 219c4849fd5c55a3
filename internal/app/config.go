package app

import (
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/llm"
)

// Targets are the services one process can run; "all" runs every one of them.
var Targets = []string{"ingest", "extractor", "embedder", "reconciler", "query"}

// Config is the composition root's configuration; each service reads its own Config besides.
type Config struct {
	config.Common
	HTTPConfig
	// Target is "all" or a comma-separated list of services (MNEME_TARGET, or the -target flag).
	Target string `env:"MNEME_TARGET" envDefault:"all"`
	// NATSListen is where the embedded NATS server listens when MNEME_NATS_URL is empty.
	NATSListen string `env:"MNEME_NATS_LISTEN" envDefault:"127.0.0.1:4222"`
	// NATSStoreDir holds the embedded server's JetStream files.
	NATSStoreDir string `env:"MNEME_NATS_STORE_DIR" envDefault:".local/nats"`
	// NATSSyncInterval is how often the embedded server flushes JetStream's files to disk. 0, the default,
	// flushes every write before acknowledging it, so a power loss or kernel crash loses no accepted input;
	// a positive interval (NATS's own default is 2m) trades that for publish throughput (README, Durability).
	NATSSyncInterval time.Duration `env:"MNEME_NATS_SYNC_INTERVAL" envDefault:"0s"`
	// EmbeddingProvider is "local" (in-process Universal Sentence Encoder lite) or "openai" (any
	// OpenAI-compatible embeddings endpoint).
	EmbeddingProvider string `env:"MNEME_EMBEDDING_PROVIDER" envDefault:"local"`
	// ModelDir overrides where the local model's weights are read (default .cache/models/use-lite).
	ModelDir string `env:"MNEME_MODEL_DIR"`
	// WordNetDir is where WordNet's noun files (index.noun, data.noun) are read: the kinds of things the rule
	// extractor knows (default /usr/share/wordnet, where Debian's wordnet-base installs them; "off" turns them
	// off). Without them it still runs, knowing no kinds.
	WordNetDir string `env:"MNEME_WORDNET_DIR"`
	// Embedding is the embeddings endpoint of the openai provider (e.g. Ollama's http://localhost:11434/v1).
	Embedding llm.Endpoint `envPrefix:"MNEME_EMBEDDING_"`
	// EmbeddingDim requests vectors of this dimension from the openai provider (0: the model's own).
	EmbeddingDim int `env:"MNEME_EMBEDDING_DIM"`
	// StreamReplicas is the JetStream replica count of Mneme's streams: 1 on one machine, 3 on a cluster.
	StreamReplicas int `env:"MNEME_STREAM_REPLICAS" envDefault:"1"`
	// InboxMaxPerAgent bounds the unprocessed inbox messages of one agent's subject (its turns, or its
	// claims); a publish beyond it is refused with an error the agent sees, so a flooding agent fills only
	// its own backlog. 0 removes the bound. Applied by the reconciler when it creates or updates the streams.
	InboxMaxPerAgent int64 `env:"MNEME_NATS_INBOX_MAX_PER_AGENT" envDefault:"1000"`
	// MigrateOnStart applies database migrations at start-up.
	MigrateOnStart bool `env:"MNEME_MIGRATE_ON_START" envDefault:"true"`
	// NATSAuthDir holds the NATS operator, accounts and credentials (`mneme nats init` writes it; keep it
	// secret). Outside development mode the embedded NATS server trusts it (it is created at the first start
	// when missing), and a process running several services without MNEME_NATS_CREDS connects each with its
	// own credentials from it.
	NATSAuthDir string `env:"MNEME_NATS_AUTH_DIR" envDefault:".local/nats-auth"`
	// NATSServerTLSCert is a PEM certificate (chain) for the embedded NATS server: it then requires TLS (with
	// MNEME_NATS_SERVER_TLS_KEY; clients trust it through MNEME_NATS_TLS_CA).
	NATSServerTLSCert string `env:"MNEME_NATS_SERVER_TLS_CERT"`
	// NATSServerTLSKey is the PEM key of MNEME_NATS_SERVER_TLS_CERT.
	NATSServerTLSKey string `env:"MNEME_NATS_SERVER_TLS_KEY"`
	// DevModeAllowNonLoopback lets development mode listen (HTTP, embedded NATS) on addresses other than
	// loopback. Development mode checks no credential: anyone who reaches it can act as any agent and erase
	// workspaces, so it refuses to start on 0.0.0.0 or a LAN address unless this is true.
	DevModeAllowNonLoopback bool `env:"MNEME_DEV_MODE_ALLOW_NON_LOOPBACK" envDefault:"false"`
	// PprofAddr, when set, serves Go's runtime profiles (net/http/pprof: CPU, heap, goroutines, mutexes) on
	// this address, apart from the API, to see where a running process spends its time. Loopback only, since
	// a heap profile shows what the process holds and no credential guards it (in Kubernetes, reach it with
	// kubectl port-forward). Empty, the default, serves none.
	PprofAddr string `env:"MNEME_PPROF_ADDR"`
	TelemetryConfig
	PriorityConfig
}

// embeddedNATS reports whether this process starts the embedded NATS server.
func (c Config) embeddedNATS() bool { return c.NATSURL == "" }

// TargetList returns the services this process runs, in start order.
func (c Config) TargetList() []string {
	if strings.TrimSpace(c.Target) == "all" {
		return Targets
	}
	var out []string
	for _, t := range Targets {
		for _, want := range strings.Split(c.Target, ",") {
			if strings.TrimSpace(want) == t {
				out = append(out, t)
			}
		}
	}
	return out
}

// Validate checks the configuration with messages that say how to fix it.
func (c Config) Validate() error {
	var errs []error
	if err := c.Common.Validate(); err != nil {
		errs = append(errs, err)
	}
	if c.Target != "all" {
		for _, t := range strings.Split(c.Target, ",") {
			if !slices.Contains(Targets, strings.TrimSpace(t)) {
				errs = append(errs, fmt.Errorf("MNEME_TARGET/-target=%q: unknown service %q; use all or a comma-separated list of %s", c.Target, t, strings.Join(Targets, ", ")))
			}
		}
	}
	if c.NATSURL == "" && c.Target != "all" {
		errs = append(errs, fmt.Errorf("MNEME_NATS_URL is required with -target=%s: the embedded NATS server runs only with -target=all, so separate services can share one broker", c.Target))
	}
	switch c.EmbeddingProvider {
	case "local":
	case "openai":
		if !c.Embedding.Set() || c.Embedding.Model == "" {
			errs = append(errs, errors.New("MNEME_EMBEDDING_PROVIDER=openai needs MNEME_EMBEDDING_BASE_URL (e.g. http://localhost:11434/v1) and MNEME_EMBEDDING_MODEL"))
		}
	default:
		errs = append(errs, fmt.Errorf("MNEME_EMBEDDING_PROVIDER=%q: use local or openai", c.EmbeddingProvider))
	}
	if c.InboxMaxPerAgent < 0 {
		errs = append(errs, fmt.Errorf("MNEME_NATS_INBOX_MAX_PER_AGENT=%d must not be negative (0 removes the bound; default 1000)", c.InboxMaxPerAgent))
	}
	if c.StreamReplicas != 1 && c.StreamReplicas != 3 && c.StreamReplicas != 5 {
		errs = append(errs, fmt.Errorf("MNEME_STREAM_REPLICAS=%d: use 1 (one server), 3 or 5 (a JetStream cluster)", c.StreamReplicas))
	}
	errs = append(errs, c.HTTPConfig.validate()...)
	errs = append(errs, c.TelemetryConfig.validate()...)
	errs = append(errs, c.PriorityConfig.validate()...)
	if (c.NATSServerTLSCert == "") != (c.NATSServerTLSKey == "") {
		errs = append(errs, errors.New("MNEME_NATS_SERVER_TLS_CERT and MNEME_NATS_SERVER_TLS_KEY go together: set both (PEM certificate and key files) or neither"))
	}
	if c.DevMode && !c.DevModeAllowNonLoopback {
		listens := map[string]string{"MNEME_HTTP_ADDR": c.HTTPAddr}
		if c.embeddedNATS() {
			listens["MNEME_NATS_LISTEN"] = c.NATSListen
		}
		for name, addr := range listens {
			if !loopback(addr) {
				errs = append(errs, fmt.Errorf("%s=%s is not a loopback address, and development mode (MNEME_DEV_MODE=true) checks no credential: "+
					"anyone who reaches it can act as any agent and erase workspaces. Listen on 127.0.0.1, or run with MNEME_DEV_MODE=false "+
					"(keys and NATS credentials), or set MNEME_DEV_MODE_ALLOW_NON_LOOPBACK=true if the network is yours alone", name, addr))
			}
		}
	}
	if c.PprofAddr != "" && !loopback(c.PprofAddr) {
		errs = append(errs, fmt.Errorf("MNEME_PPROF_ADDR=%s is not a loopback address: profiles show what the process holds and no credential guards them; listen on 127.0.0.1:PORT (or leave it empty for none)", c.PprofAddr))
	}
	if c.NATSSyncInterval < 0 {
		errs = append(errs, fmt.Errorf("MNEME_NATS_SYNC_INTERVAL=%s must not be negative: 0 syncs every write (the default), a positive interval syncs that often", c.NATSSyncInterval))
	}
	if c.EmbeddingDim < 0 {
		errs = append(errs, fmt.Errorf("MNEME_EMBEDDING_DIM=%d must not be negative", c.EmbeddingDim))
	}
	return errors.Join(errs...)
}

func (c Config) needsDB() bool {
	return slices.ContainsFunc(c.TargetList(), func(t string) bool { return t == "ingest" || t == "reconciler" || t == "query" })
}

// readsKinds reports a target that reads kinds of things from WordNet (the rule extractor).
func (c Config) readsKinds() bool {
	return slices.ContainsFunc(c.TargetList(), func(t string) bool { return t == "extractor" })
}

func (c Config) needsEmbedder() bool {
	return slices.ContainsFunc(c.TargetList(), func(t string) bool { return t == "embedder" || t == "query" })
}

// loopback reports whether a listen address (host:port) accepts connections from this machine only: a
// loopback IP or "localhost". An empty host or 0.0.0.0 listens on every interface.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
