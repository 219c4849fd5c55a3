package query

import (
	"context"
	"sync"
	"time"

	"github.com/mneme-ai/mneme/pkg/store"
)

// denseIndexesTTL is how long the query service reuses what it read of the dense indexes. Staleness costs time,
// never results' correctness: for up to a TTL after a workspace's index is built its searches stay exact (the
// reconciler builds it when the workspace passes the threshold, so the exact scan is still small), and a
// dropped index leaves a statement that sorts the workspace exactly in half precision.
const denseIndexesTTL = 5 * time.Second

// denseIndexCache holds store.ReadDenseIndexes, read at most once per denseIndexesTTL.
type denseIndexCache struct {
	mu      sync.Mutex
	read    time.Time
	indexes store.DenseIndexes
}

// covers reports whether workspace ws has an HNSW index the dense query can use. When the indexes cannot be
// read it answers from the last read (or says none): the search then runs exactly, which is slower, not wrong.
func (c *denseIndexCache) covers(ctx context.Context, s *Service, ws string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read.IsZero() || time.Since(c.read) >= denseIndexesTTL {
		c.read = time.Now()
		d, err := store.ReadDenseIndexes(ctx, s.db)
		if err != nil {
			s.log.DebugContext(ctx, "query: reading the dense indexes failed; keeping the last read", "err", err)
		} else {
			c.indexes = d
		}
	}
	return c.indexes.Covers(ws)
}
