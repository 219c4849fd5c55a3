package app

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/config"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/reconciler"
)

// Digest prints the canonical digest of the projection in MNEME_DATABASE_URL.
func Digest(ctx context.Context, cfg Config, out io.Writer) error {
	pool, err := connect(ctx, cfg, false)
	if err != nil {
		return err
	}
	defer pool.Close()
	d, err := store.Digest(ctx, pool)
	if err != nil {
		return err
	}
	fmt.Fprintln(out, d)
	return nil
}

// Replay rebuilds the projection from the claims stream (and the keyed judge log) into the empty database at
// into, then compares its digest with the live database's. With MNEME_NATS_URL empty it reads from the local
// embedded server at MNEME_NATS_LISTEN, which must be running (make up).
func Replay(ctx context.Context, cfg Config, into string, out io.Writer, log *slog.Logger) error {
	var rcfg reconciler.Config
	if err := config.Load(&rcfg); err != nil {
		return err
	}
	live, err := connect(ctx, cfg, false)
	if err != nil {
		return err
	}
	defer live.Close()
	target, err := store.Connect(ctx, into, cfg.ConnectTimeout)
	if err != nil {
		return fmt.Errorf("replay target: %w", err)
	}
	defer target.Close()
	url := cfg.NATSURL
	if url == "" {
		url = "nats://" + strings.Replace(cfg.NATSListen, "0.0.0.0", "127.0.0.1", 1)
	}
	// Replay reads the claims and judge logs as the replay user: it may read them and nothing else.
	creds := cfg.NATSCreds
	if creds == "" && !cfg.DevMode {
		if s, err := natsauth.Load(cfg.NATSAuthDir); err == nil {
			creds = s.Creds(natsauth.UserReplay)
		}
	}
	nc, err := bus.Connect(url, "mneme-replay", natsOptions(cfg.NATSTLSCA, cfg.NATSTLSCert, cfg.NATSTLSKey, creds, log)...)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	stats, err := reconciler.Replay(ctx, js, target, reconciler.ReplayOptions{Config: rcfg, Logger: log})
	if err != nil {
		return err
	}
	want, err := store.Digest(ctx, live)
	if err != nil {
		return err
	}
	got, err := store.Digest(ctx, target)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "replayed %d messages of %d partitions in %s\nlive     %s\nreplayed %s\n", stats.Messages, stats.Partitions, stats.Elapsed.Round(1e6), want, got)
	if want != got {
		return fmt.Errorf("replay: digests differ (was the live reconciler behind the stream, or did its configuration differ?)")
	}
	fmt.Fprintln(out, "digests match")
	return nil
}
