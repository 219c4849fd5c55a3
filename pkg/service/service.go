// Package service is the contract between Mneme's services and the composition root (cmd/mneme): what a
// service gets (Deps) and what it offers (Service). The same services run all in one process or one per
// process; nothing here assumes either.
package service

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/priority"
)

// Deps are the shared resources the composition root builds once and hands to every service.
type Deps struct {
	Logger *slog.Logger
	NATS   *nats.Conn
	JS     jetstream.JetStream
	// DB is nil for services that do not use Postgres.
	DB *pgxpool.Pool
	// Embedder is nil for services that do not embed.
	Embedder embedding.Embedder
	// Partitions is the deployment's partition count (MNEME_PARTITIONS).
	Partitions int
	// Instance names this process (hostname + pid); used for ownership and consumer names.
	Instance string
	// Auth, when set, is the process's one HTTP authenticator (shared key cache and rate limits); services
	// with HTTP routes build their own from DB otherwise.
	Auth *auth.Authenticator
	// Priority, when set, is the process's query-over-ingest gate: the query service marks its requests in
	// flight and the ingest stages run their units behind them (pkg/priority). Nil in processes that do not
	// serve queries beside ingest.
	Priority *priority.Gate
	// WithIngest says the process runs an ingest stage (ingest, extractor, embedder or reconciler) beside
	// the service, whether or not a Priority gate orders them.
	WithIngest bool
}

// Service is one stage of Mneme.
type Service interface {
	// Name is the target name: ingest, extractor, embedder, reconciler or query.
	Name() string
	// Run does the service's work until ctx is cancelled, then drains in-flight work and returns.
	// A non-nil error other than ctx's means the service failed.
	Run(ctx context.Context) error
	// Ready reports whether the service can do its work now (for /readyz).
	Ready(ctx context.Context) error
}

// HTTPService is a service that serves HTTP routes under /v1 on the shared server.
type HTTPService interface {
	Service
	Routes(mux *http.ServeMux)
}
