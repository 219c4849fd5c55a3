package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Partition offsets: how far each claims partition's log has been applied (partition_offsets). The offset
// commits in the transaction that writes the projection, so the projection and its position never disagree; it
// is also the fence that keeps a partition's old owner from writing after a new one took over.

// ErrOffsetMoved is returned by FenceOffset when the partition's offset is not the one the caller expected:
// another owner has applied messages since.
var ErrOffsetMoved = errors.New("store: the partition's offset moved")

// FenceOffset locks partition's offset row for the rest of tx (creating it at 0, owned by owner, the first
// time) and fails with ErrOffsetMoved unless it equals expected.
func FenceOffset(ctx context.Context, tx pgx.Tx, partition int, owner string, expected uint64) error {
	// The row exists from the partition's first batch on; creating it is idempotent under racing owners.
	if _, err := tx.Exec(ctx, `INSERT INTO partition_offsets (partition, stream_seq, owner) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING`, partition, owner); err != nil {
		return fmt.Errorf("store: create offset of partition %d: %w", partition, err)
	}
	var cur int64
	if err := tx.QueryRow(ctx, `SELECT stream_seq FROM partition_offsets WHERE partition = $1 FOR UPDATE`, partition).Scan(&cur); err != nil {
		return fmt.Errorf("store: read offset of partition %d: %w", partition, err)
	}
	if uint64(cur) != expected {
		return fmt.Errorf("%w: partition %d is at %d, this owner expected %d", ErrOffsetMoved, partition, cur, expected)
	}
	return nil
}

// AdvanceOffset moves partition's offset to seq, the stream position of the last message tx applied, whose log
// time was logTime.
func AdvanceOffset(ctx context.Context, tx pgx.Tx, partition int, seq uint64, logTime time.Time, owner string) error {
	if _, err := tx.Exec(ctx, `UPDATE partition_offsets SET stream_seq = $2, log_time = $3, owner = $4, updated_at = now() WHERE partition = $1`,
		partition, int64(seq), logTime, owner); err != nil {
		return fmt.Errorf("store: advance offset of partition %d: %w", partition, err)
	}
	return nil
}

// Offset returns partition's offset: 0 before its first batch.
func Offset(ctx context.Context, db DB, partition int) (uint64, error) {
	var off int64
	err := db.QueryRow(ctx, `SELECT stream_seq FROM partition_offsets WHERE partition = $1`, partition).Scan(&off)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("store: read offset of partition %d: %w", partition, err)
	}
	return uint64(off), nil
}

// OffsetLogTime returns the log time of the last message partition applied; the zero time before its first
// batch.
func OffsetLogTime(ctx context.Context, db DB, partition int) (time.Time, error) {
	horizon := time.Time{}
	var t *time.Time
	err := db.QueryRow(ctx, `SELECT log_time FROM partition_offsets WHERE partition = $1`, partition).Scan(&t)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return horizon, fmt.Errorf("store: read log time of partition %d: %w", partition, err)
	}
	if t != nil {
		horizon = *t
	}
	return horizon, nil
}

// OffsetCount returns how many partitions have an offset row: none in a database no reconciler has written.
func OffsetCount(ctx context.Context, db DB) (int64, error) {
	var n int64
	if err := db.QueryRow(ctx, `SELECT count(*) FROM partition_offsets`).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count partition offsets: %w", err)
	}
	return n, nil
}

// LockSubjects takes the transaction-scoped advisory locks of keys (per-subject guards) in ascending order, so
// two transactions that touch several subjects never deadlock. keys must be sorted and distinct.
func LockSubjects(ctx context.Context, tx pgx.Tx, keys []int64) error {
	if len(keys) == 0 {
		return nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(k) FROM unnest($1::bigint[]) AS k ORDER BY k`, keys); err != nil {
		return fmt.Errorf("store: subject guards: %w", err)
	}
	return nil
}

// SwapSetting sets store setting key to value unless it already holds it, with the row locked for the rest of
// tx (so replicas starting together see one change); it returns the value it held ("" for none) and whether it
// changed.
func SwapSetting(ctx context.Context, tx pgx.Tx, key, value string) (last string, changed bool, err error) {
	if _, err := tx.Exec(ctx, `INSERT INTO store_settings (key, value) VALUES ($1, '') ON CONFLICT DO NOTHING`, key); err != nil {
		return "", false, fmt.Errorf("store: setting %s: %w", key, err)
	}
	if err := tx.QueryRow(ctx, `SELECT value FROM store_settings WHERE key = $1 FOR UPDATE`, key).Scan(&last); err != nil {
		return "", false, fmt.Errorf("store: setting %s: %w", key, err)
	}
	if last == value {
		return last, false, nil
	}
	if _, err := tx.Exec(ctx, `UPDATE store_settings SET value = $2 WHERE key = $1`, key, value); err != nil {
		return "", false, fmt.Errorf("store: setting %s: %w", key, err)
	}
	return last, true, nil
}

// Offsets returns every partition's offset, by partition.
func Offsets(ctx context.Context, q Querier) (map[int]uint64, error) {
	type off struct {
		p   int
		seq int64
	}
	rows, err := collect(ctx, q, "partition offsets", func(r pgx.CollectableRow) (off, error) {
		var o off
		err := r.Scan(&o.p, &o.seq)
		return o, err
	}, `SELECT partition, stream_seq FROM partition_offsets`)
	if err != nil {
		return nil, err
	}
	out := make(map[int]uint64, len(rows))
	for _, o := range rows {
		out[o.p] = uint64(o.seq)
	}
	return out, nil
}
