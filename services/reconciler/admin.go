package reconciler

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/service"
	"github.com/mneme-ai/mneme/pkg/store"
)

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// Config must equal the live reconciler's configuration in what shapes the projection: Partitions,
	// PolicyFile, PredicateMerge, PredicateSimilarity, Judge.Model, JudgeMaxPairs. Zero fields take defaults.
	Config Config
	// Logger receives progress; default slog.Default().
	Logger *slog.Logger
}

// ReplayStats summarizes a replay.
type ReplayStats struct {
	Messages   int
	Partitions int
	Elapsed    time.Duration
}

// Replay rebuilds the projection into target (a fresh, empty database; it is migrated first) from the claims
// stream up to its last message at the start of the call, reading judge verdicts from the keyed judge log and
// never asking a judge. Nothing is published and nothing is deleted from the streams. Compare Digest of the live
// database with Digest of target afterwards: they are equal when the live reconciler had applied the same
// messages.
func Replay(ctx context.Context, js jetstream.JetStream, target *pgxpool.Pool, opts ReplayOptions) (ReplayStats, error) {
	start := time.Now()
	cfg := opts.Config.Defaults()
	log := opts.Logger
	if log == nil {
		log = slog.Default()
	}
	if _, err := store.Migrate(ctx, target); err != nil {
		return ReplayStats{}, err
	}
	n, err := store.OffsetCount(ctx, target)
	if err != nil {
		return ReplayStats{}, err
	}
	if n > 0 {
		return ReplayStats{}, errors.New("reconciler: replay needs an empty database (partition_offsets has rows)")
	}
	e, err := newEngine(service.Deps{Logger: log, JS: js, DB: target, Partitions: cfg.Partitions, Instance: "replay"}, cfg, false)
	if err != nil {
		return ReplayStats{}, err
	}
	e.bindJudgeLog(ctx)
	stream, err := js.Stream(ctx, bus.StreamClaims)
	if err != nil {
		return ReplayStats{}, fmt.Errorf("reconciler: replay: %w", err)
	}
	stats := ReplayStats{Partitions: cfg.Partitions}
	for p := range cfg.Partitions {
		last, err := stream.GetLastMsgForSubject(ctx, bus.ClaimsSubject(p))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return stats, fmt.Errorf("reconciler: replay partition %d: %w", p, err)
		}
		count, err := e.replayPartition(ctx, p, last.Sequence)
		stats.Messages += count
		if err != nil {
			return stats, err
		}
		log.Info("reconciler: replayed partition", "partition", p, "messages", count)
	}
	stats.Elapsed = time.Since(start)
	return stats, nil
}

// replayPartition applies partition p's messages up to sequence last with the live worker's batch logic.
// It cuts its own batches rather than use bus.NextBatch, the live worker's: a replay must stop at exactly the
// sequence it was asked for, while NextBatch keeps gathering for its wait and would take in messages published
// after last; and with the whole log already there, waiting buys nothing.
func (e *engine) replayPartition(ctx context.Context, p int, last uint64) (int, error) {
	cons, err := e.js.OrderedConsumer(ctx, bus.StreamClaims, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{bus.ClaimsSubject(p)},
		DeliverPolicy:  jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return 0, fmt.Errorf("reconciler: replay partition %d: %w", p, err)
	}
	iter, err := cons.Messages(bus.PullOptions(jetstream.PullMaxMessages(2 * e.cfg.BatchSize))...)
	if err != nil {
		return 0, err
	}
	defer iter.Stop()
	w := newPartitionWorker(e, p)
	total := 0
	batch := make([]jetstream.Msg, 0, e.cfg.BatchSize)
	for w.offset < last {
		batch = batch[:0]
		for len(batch) < e.cfg.BatchSize {
			m, err := iter.Next(jetstream.NextContext(ctx))
			if err != nil {
				return total, fmt.Errorf("reconciler: replay partition %d: %w", p, err)
			}
			batch = append(batch, m)
			md, err := m.Metadata()
			if err == nil && md.Sequence.Stream >= last {
				break
			}
		}
		total += len(batch)
		if err := w.process(ctx, batch); err != nil {
			return total, err
		}
	}
	return total, nil
}
