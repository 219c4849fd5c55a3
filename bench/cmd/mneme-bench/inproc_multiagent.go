//go:build !benchremote

package main

import (
	"context"
	"log/slog"

	"github.com/mneme-ai/mneme/bench"
	"github.com/mneme-ai/mneme/bench/inproc"
)

func init() {
	startFleet = func(ctx context.Context, name string, keep bool, log *slog.Logger) (*bench.Fleet, func() error, error) {
		s, err := inproc.Start(ctx, inproc.Options{Name: name, Keep: keep, Production: true, Logger: log})
		if err != nil {
			return nil, nil, err
		}
		f, err := s.Fleet()
		if err != nil {
			_ = s.Close()
			return nil, nil, err
		}
		return f, s.Close, nil
	}
}
