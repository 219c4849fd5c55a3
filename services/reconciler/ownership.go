package reconciler

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/store"
)

// Advisory lock classes (the first int4 of two-key advisory locks). Advisory locks are per database, so each
// deployment (and each test database) has its own.
const (
	lockClassPartition int32 = PartitionLockClass
	lockClassMember    int32 = 0x6d6e524d // "mnRM"
)

// PartitionLockClass is the first key of the two-key session advisory lock a replica holds per owned partition
// (the second key is the partition number): pg_locks shows who owns what.
const PartitionLockClass = 0x6d6e5250 // "mnRP"

// owner manages this replica's partitions. It holds, on one dedicated connection, a member lock (which makes it
// count as live) and one session lock per owned partition; Postgres releases them all when the process or the
// connection dies, even on kill -9, so a dead replica's partitions become free at once. Every interval it
// counts the live members, takes free partitions up to its share ceil(P/live) and releases extras when others
// have joined. A worker that is stopped finishes its batch first; a stale worker that lost its lock without
// noticing cannot apply anything, because every batch transaction checks the partition offset it started from.
type owner struct {
	e        *engine
	conn     *pgx.Conn
	memberNo int64
	workers  map[int]*partitionWorker
	dbOID    uint32
}

func newOwner(e *engine) *owner {
	return &owner{e: e, workers: map[int]*partitionWorker{}}
}

// run manages partitions until ctx is done, then stops every worker gracefully and releases the locks.
func (o *owner) run(ctx context.Context, ready func(bool)) error {
	work, cancelWork := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelWork()
	defer o.shutdown()
	t := time.NewTicker(o.e.cfg.RebalanceInterval)
	defer t.Stop()
	for {
		if err := o.rebalance(ctx, work); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			o.e.log.Warn("reconciler: partition ownership", "err", err)
			o.dropConn()
		}
		ready(o.conn != nil)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

func (o *owner) shutdown() {
	grace := o.e.cfg.ShutdownTimeout
	for _, w := range o.workers {
		go w.halt(grace)
	}
	for p, w := range o.workers {
		<-w.done
		delete(o.workers, p)
	}
	if o.conn != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = store.RemoveMember(ctx, o.conn, o.memberNo)
		_ = o.conn.Close(ctx) // releases every session lock
		o.conn = nil
	}
}

// dropConn stops all workers and forgets the connection: its locks are (or will be) gone with it.
func (o *owner) dropConn() {
	for p, w := range o.workers {
		w.halt(o.e.cfg.ShutdownTimeout)
		delete(o.workers, p)
	}
	if o.conn != nil {
		_ = o.conn.Close(context.Background())
		o.conn = nil
	}
}

func (o *owner) connect(ctx context.Context) error {
	pc, err := o.e.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("acquire a connection for the ownership locks: %w", err)
	}
	conn := pc.Hijack()
	o.memberNo, o.dbOID, err = store.RegisterMember(ctx, conn, o.e.instance, lockClassMember)
	if err != nil {
		_ = conn.Close(ctx)
		return fmt.Errorf("register as a reconciler member: %w", err)
	}
	o.conn = conn
	o.e.log.Info("reconciler: member registered", "member", o.memberNo, "instance", o.e.instance)
	return nil
}

func (o *owner) rebalance(ctx, work context.Context) error {
	if o.conn == nil {
		if err := o.connect(ctx); err != nil {
			return err
		}
	}
	qctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	// Live members are those whose member lock is held right now.
	live, err := store.PruneMembers(qctx, o.conn, o.dbOID, lockClassMember)
	if err != nil {
		return err
	}
	live = max(live, 1)
	parts := o.e.partitions
	share := (parts + live - 1) / live

	// Workers that ended on their own (an error, or fenced) give their partition back.
	for p, w := range o.workers {
		select {
		case <-w.done:
			if w.err != nil {
				o.e.log.Warn("reconciler: partition worker stopped", "partition", p, "err", w.err)
			}
			delete(o.workers, p)
			if err := o.unlock(qctx, p); err != nil {
				return err
			}
		default:
		}
	}
	if len(o.workers) > share {
		owned := make([]int, 0, len(o.workers))
		for p := range o.workers {
			owned = append(owned, p)
		}
		// Release the partitions furthest from this member's preferred range first.
		pref := o.preference()
		rank := map[int]int{}
		for i, p := range pref {
			rank[p] = i
		}
		sort.Slice(owned, func(i, j int) bool { return rank[owned[i]] > rank[owned[j]] })
		for _, p := range owned[:len(owned)-share] {
			o.workers[p].halt(o.e.cfg.ShutdownTimeout)
			delete(o.workers, p)
			if err := o.unlock(qctx, p); err != nil {
				return err
			}
			o.e.log.Info("reconciler: partition released for another member", "partition", p)
		}
	}
	for _, p := range o.preference() {
		if len(o.workers) >= share {
			break
		}
		if _, ok := o.workers[p]; ok {
			continue
		}
		got, err := store.TryLock(qctx, o.conn, lockClassPartition, int32(p))
		if err != nil {
			return fmt.Errorf("lock partition %d: %w", p, err)
		}
		if !got {
			continue
		}
		w := newPartitionWorker(o.e, p)
		o.workers[p] = w
		w.start(work)
	}
	return nil
}

func (o *owner) unlock(ctx context.Context, p int) error {
	if err := store.Unlock(ctx, o.conn, lockClassPartition, int32(p)); err != nil {
		return fmt.Errorf("unlock partition %d: %w", p, err)
	}
	return nil
}

// preference is the order in which this member tries partitions: a rotation that starts at a member-specific
// offset, so members joining together spread over the partitions instead of colliding on partition 0.
func (o *owner) preference() []int {
	n := o.e.partitions
	start := int(uint64(o.memberNo) * 2654435761 % uint64(n))
	out := make([]int, n)
	for i := range out {
		out[i] = (start + i) % n
	}
	return out
}

// owned returns the partitions this replica works on now.
func (o *owner) owned() []int {
	var out []int
	for p := range o.workers {
		out = append(out, p)
	}
	sort.Ints(out)
	return out
}
