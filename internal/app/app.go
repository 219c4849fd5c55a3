// Package app is Mneme's composition root: it reads the configuration, connects to NATS (or starts the
// embedded server) and Postgres, builds the requested services by hand, serves HTTP and shuts everything
// down in order. cmd/mneme calls it; the end-to-end tests call it in-process.
package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/otel"
	otelprom "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"golang.org/x/sync/errgroup"

	"github.com/mneme-ai/mneme/internal/mcpserver"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus/embedded"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/pkg/wordnet"
	"github.com/mneme-ai/mneme/services/embedder"
	"github.com/mneme-ai/mneme/services/extractor"
	"github.com/mneme-ai/mneme/services/ingest"
	"github.com/mneme-ai/mneme/services/query"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// App is a built, not yet running, Mneme process.
type App struct {
	cfg      Config
	log      *slog.Logger
	embedded *embedded.Server
	nats     *natsClients
	nc       *nats.Conn
	js       jetstream.JetStream
	db       *pgxpool.Pool
	auth     *auth.Authenticator
	services []service.Service
	listener net.Listener
	server   *http.Server
	// profiles serves net/http/pprof on profileListener (MNEME_PPROF_ADDR) while Run runs; both are nil when
	// that setting is empty.
	profileListener net.Listener
	profiles        *http.Server
	meter           *sdkmetric.MeterProvider
	// tracer is the OTLP-exporting provider this process owns (nil when tracing is off or the caller's).
	tracer *sdktrace.TracerProvider
}

// LoadConfig reads the composition root's configuration from the environment.
func LoadConfig() (Config, error) {
	var c Config
	err := config.Load(&c)
	return c, err
}

// RunFromEnvironment is `mneme run` with nothing but the environment: it reads and validates the configuration,
// logs to logOut, builds the configured targets and runs them until ctx is cancelled. Processes that stand in
// for cmd/mneme (the load benchmark's and the scale-out test's re-executed binaries) call it.
func RunFromEnvironment(ctx context.Context, logOut io.Writer) error {
	cfg, err := LoadConfig()
	if err == nil {
		err = cfg.Validate()
	}
	if err != nil {
		return err
	}
	a, err := Build(ctx, cfg, NewLogger(logOut, cfg.LogLevel, cfg.LogFormat))
	if err != nil {
		return err
	}
	return a.Run(ctx)
}

// Build connects to everything the configured targets need and constructs the services. It fails fast, with
// a message that says what to fix, when a dependency is unreachable or misconfigured. On error it releases
// whatever it had already acquired.
func Build(ctx context.Context, cfg Config, log *slog.Logger, opts ...Option) (_ *App, err error) {
	a := &App{cfg: cfg, log: log}
	var o buildOptions
	for _, opt := range opts {
		opt(&o)
	}
	if cfg.DevMode {
		log.Warn(devModeWarning)
	}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	exporter, err := otelprom.New()
	if err != nil {
		return nil, fmt.Errorf("metrics exporter: %w", err)
	}
	a.meter = sdkmetric.NewMeterProvider(sdkmetric.WithReader(exporter))
	otel.SetMeterProvider(a.meter)
	tracing, err := a.startTracing(ctx, o)
	if err != nil {
		return nil, err
	}

	// Cheap checks first: a missing model or a bad database URL should fail before anything starts.
	wordnet.Configure(cfg.WordNetDir)
	if _, err := wordnet.Default(); err != nil && cfg.WordNetDir != "off" && cfg.readsKinds() {
		log.Warn("WordNet's nouns not read: the rule extractor runs without kinds of things (make deps installs Debian's wordnet-base; or set MNEME_WORDNET_DIR)", "err", err)
	}
	var emb embedding.Embedder
	if cfg.needsEmbedder() {
		if emb, err = buildEmbedder(ctx, cfg); err != nil {
			return nil, err
		}
	}
	if cfg.needsDB() {
		var dbOpts []store.Option
		if tracing {
			dbOpts = append(dbOpts, store.WithQueryTracer(queryTracer()))
		}
		if a.db, err = store.Connect(ctx, cfg.DatabaseURL, cfg.ConnectTimeout, dbOpts...); err != nil {
			return nil, err
		}
		if cfg.MigrateOnStart {
			applied, err := store.Migrate(ctx, a.db)
			if err != nil {
				return nil, err
			}
			if len(applied) > 0 {
				log.Info("applied migrations", "versions", applied)
			}
		}
	}
	if err := a.startNATS(ctx); err != nil {
		return nil, err
	}

	if a.db != nil {
		a.auth = cfg.HTTPConfig.authenticator(a.db, cfg.DevMode)
	}
	host, _ := os.Hostname()
	gate := cfg.newGate()
	if gate != nil {
		log.Info("queries go before ingest work in this process", "ingest_slots", gate.Slots(), "max_defer", cfg.IngestMaxDefer)
		// Registered with the process's meter provider, which lives as long as the process.
		if _, err := gate.Observe(); err != nil {
			return nil, fmt.Errorf("query-priority metrics: %w", err)
		}
	}
	deps := service.Deps{
		Auth:       a.auth,
		Logger:     log,
		NATS:       a.nc,
		JS:         a.js,
		DB:         a.db,
		Embedder:   emb,
		Partitions: cfg.Partitions,
		Instance:   host + "-" + strconv.Itoa(os.Getpid()),
		Priority:   gate,
		WithIngest: slices.ContainsFunc(cfg.TargetList(), func(t string) bool { return t != "query" }),
	}
	var ingestEmb embedding.Embedder
	if emb != nil {
		ingestEmb = cfg.ingestEmbedder(emb, gate)
	}
	for _, t := range cfg.TargetList() {
		// Each service uses its own NATS connection (its own least-privilege user where there are several).
		deps.NATS, deps.JS = a.nats.byService[t].nc, a.nats.byService[t].js
		svc, err := newService(t, deps, ingestEmb)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", t, err)
		}
		a.services = append(a.services, svc)
	}
	if cfg.PprofAddr != "" {
		if a.profileListener, err = net.Listen("tcp", cfg.PprofAddr); err != nil {
			return nil, fmt.Errorf("MNEME_PPROF_ADDR=%s: %w", cfg.PprofAddr, err)
		}
	}
	if a.listener, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		return nil, fmt.Errorf("MNEME_HTTP_ADDR=%s: %w (is another Mneme running? `make down` stops the local one)", cfg.HTTPAddr, err)
	}
	a.server = newHTTPServer(cfg.HTTPConfig, a.routes(), log)
	// Outermost, so requests refused by the body bound are measured too.
	a.server.Handler = instrumentHTTP(a.server.Handler)
	return a, nil
}

// newService builds one target with its own configuration read from the environment. ingestEmb is what the
// embedder stage embeds with (deps.Embedder, the query's, is the model itself).
func newService(target string, deps service.Deps, ingestEmb embedding.Embedder) (service.Service, error) {
	switch target {
	case "ingest":
		var c ingest.Config
		if err := config.Load(&c); err != nil {
			return nil, err
		}
		return ingest.New(deps, c)
	case "extractor":
		var c extractor.Config
		if err := config.Load(&c); err != nil {
			return nil, err
		}
		return extractor.New(extractor.Deps{Logger: deps.Logger, JS: deps.JS, Gate: deps.Priority}, c)
	case "embedder":
		var c embedder.Config
		if err := config.Load(&c); err != nil {
			return nil, err
		}
		return embedder.New(embedder.Deps{Logger: deps.Logger, JS: deps.JS, Embedder: ingestEmb, Partitions: deps.Partitions}, c)
	case "reconciler":
		var c reconciler.Config
		if err := config.Load(&c); err != nil {
			return nil, err
		}
		return reconciler.New(deps, c)
	case "query":
		var c query.Config
		if err := config.Load(&c); err != nil {
			return nil, err
		}
		return query.New(deps, c)
	}
	return nil, fmt.Errorf("unknown target %q", target)
}

func buildEmbedder(ctx context.Context, cfg Config) (embedding.Embedder, error) {
	switch cfg.EmbeddingProvider {
	case "openai":
		var opts []embedding.OpenAIOption
		if cfg.EmbeddingDim > 0 {
			opts = append(opts, embedding.WithDim(cfg.EmbeddingDim))
		}
		e, err := embedding.NewOpenAI(cfg.Embedding.Config(), opts...)
		if err != nil {
			return nil, fmt.Errorf("embedding provider openai: %w", err)
		}
		if e.Dim() == 0 {
			pctx, cancel := context.WithTimeout(ctx, cfg.ConnectTimeout)
			defer cancel()
			if _, err := e.Probe(pctx); err != nil {
				return nil, fmt.Errorf("embedding provider openai at %s: %w", cfg.Embedding.BaseURL, err)
			}
		}
		return e, nil
	default:
		dir := cfg.ModelDir
		if dir == "" {
			dir = embedding.DefaultModelDir()
		}
		m, err := uselite.Load(dir)
		if err != nil {
			return nil, fmt.Errorf("local embedding model: %w", err)
		}
		return m, nil
	}
}

// HTTPAddr is the address the HTTP server listens on (useful with port 0).
func (a *App) HTTPAddr() string { return a.listener.Addr().String() }

// ProfileAddr is the address Go's runtime profiles are served on (MNEME_PPROF_ADDR, resolved when its port is
// 0), or "" when none are served.
func (a *App) ProfileAddr() string {
	if a.profileListener == nil {
		return ""
	}
	return a.profileListener.Addr().String()
}

// NATSURL is the URL of the NATS server in use.
func (a *App) NATSURL() string { return a.nc.ConnectedUrl() }

// JetStream returns the process's JetStream handle.
func (a *App) JetStream() jetstream.JetStream { return a.js }

// DB returns the Postgres pool, or nil when no target needs it.
func (a *App) DB() *pgxpool.Pool { return a.db }

func (a *App) routes() *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := a.ready(ctx); err != nil {
			// The reason can name internals (database user, host and port): logged, never served.
			a.log.Warn("not ready", "err", err)
			http.Error(w, errNotReady.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ready\n"))
	})
	mux.Handle("GET /metrics", promhttp.Handler())
	for _, s := range a.services {
		if h, ok := s.(service.HTTPService); ok {
			h.Routes(mux)
		}
	}
	// MCP over streamable HTTP, beside the read API: a client of the /v1 routes above, called in process with
	// each request's own credential (internal/mcpserver).
	if slices.Contains(a.cfg.TargetList(), query.Name) && a.db != nil {
		mux.Handle(mcpserver.HTTPPattern, mcpserver.HTTPHandler(a.auth, mux, mcpserver.Options{Version: Version()}, a.log))
	}
	return mux
}

func (a *App) ready(ctx context.Context) error {
	if err := a.nats.ready(); err != nil {
		return err
	}
	if a.db != nil {
		if err := a.db.Ping(ctx); err != nil {
			return fmt.Errorf("postgres: %w", err)
		}
	}
	for _, s := range a.services {
		if err := s.Ready(ctx); err != nil {
			return fmt.Errorf("%s: %w", s.Name(), err)
		}
	}
	return nil
}

// Run serves until ctx is cancelled, then shuts down: services drain their in-flight work, the HTTP server
// finishes its requests, the NATS connection drains, telemetry flushes and the pool closes — each bounded by
// the shutdown timeout. It returns the first service failure, if any.
func (a *App) Run(ctx context.Context) error {
	defer a.close()
	g, gctx := errgroup.WithContext(ctx)
	for _, s := range a.services {
		g.Go(func() error {
			if err := s.Run(gctx); err != nil && !errors.Is(err, context.Canceled) {
				return fmt.Errorf("%s: %w", s.Name(), err)
			}
			return nil
		})
	}
	g.Go(func() error {
		serve := func() error { return a.server.Serve(a.listener) }
		if a.cfg.HTTPTLSCert != "" {
			serve = func() error { return a.server.ServeTLS(a.listener, a.cfg.HTTPTLSCert, a.cfg.HTTPTLSKey) }
		}
		if err := serve(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			return fmt.Errorf("http: %w", err)
		}
		return nil
	})
	if a.profileListener != nil {
		a.profiles = newProfileServer()
		g.Go(func() error {
			if err := a.profiles.Serve(a.profileListener); err != nil && !errors.Is(err, http.ErrServerClosed) {
				return fmt.Errorf("pprof: %w", err)
			}
			return nil
		})
	}
	g.Go(func() error {
		<-gctx.Done()
		if a.profiles != nil {
			// A profile being taken is cut off: it is a diagnostic, not a request anyone waits on.
			_ = a.profiles.Close()
		}
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), a.cfg.ShutdownTimeout)
		defer cancel()
		return a.server.Shutdown(sctx)
	})
	a.log.Info("mneme running", "targets", a.cfg.TargetList(), "http", a.HTTPAddr(), "https", a.cfg.HTTPTLSCert != "", "nats", a.NATSURL(), "dev_mode", a.cfg.DevMode)
	err := g.Wait()
	a.log.Info("mneme stopped")
	return err
}

func (a *App) close() {
	if a.nats != nil {
		ctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
		a.nats.close(ctx)
		cancel()
	}
	if a.embedded != nil {
		a.embedded.Shutdown()
	}
	if a.db != nil {
		a.db.Close()
	}
	if a.meter != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = a.meter.Shutdown(ctx)
	}
	if a.tracer != nil {
		// Flushes the spans still buffered (the last batches before shutdown) to the collector.
		ctx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
		defer cancel()
		if err := a.tracer.Shutdown(ctx); err != nil {
			a.log.Warn("traces not flushed at shutdown", "err", err)
		}
	}
	if a.listener != nil && a.server == nil {
		_ = a.listener.Close()
	}
	if a.profileListener != nil && a.profiles == nil {
		_ = a.profileListener.Close()
	}
}
