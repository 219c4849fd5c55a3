//go:build !benchremote

package main

import (
	"context"
	"log/slog"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/bench/inproc"
)

// The default build can start Mneme in-process; -tags benchremote builds a harness that only talks to a
// running system (-url), without linking the services.
func init() {
	inProcess = func(ctx context.Context, name string, keep bool, reuse string, log *slog.Logger) (string, jetstream.JetStream, *pgxpool.Pool, func() error, error) {
		s, err := inproc.Start(ctx, inproc.Options{Name: name, Keep: keep, Reuse: reuse, Logger: log})
		if err != nil {
			return "", nil, nil, nil, err
		}
		return s.URL, s.JS, s.DB, s.Close, nil
	}
}
