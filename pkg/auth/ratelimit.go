package auth

import (
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// maxBuckets bounds the rate-limit buckets held at once. Past it, idle buckets (full again, so forgetting them
// changes nothing) are dropped; if every bucket is busy, the oldest half is.
const maxBuckets = 50000

// limiter is a token bucket per caller key ("key:<id>" or "addr:<ip>").
type limiter struct {
	perSecond float64
	burst     int

	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	lim  *rate.Limiter
	seen time.Time
}

func newLimiter(perSecond float64, burst int) *limiter {
	return &limiter{perSecond: perSecond, burst: burst, buckets: map[string]*bucket{}}
}

// take charges one request to key at now. It returns 0 when the request may proceed, else how long until it
// would (and charges nothing).
func (l *limiter) take(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		if len(l.buckets) >= maxBuckets {
			l.evict(now)
		}
		b = &bucket{lim: rate.NewLimiter(rate.Limit(l.perSecond), l.burst)}
		l.buckets[key] = b
	}
	b.seen = now
	r := b.lim.ReserveN(now, 1)
	if !r.OK() {
		return time.Second
	}
	if d := r.DelayFrom(now); d > 0 {
		r.CancelAt(now)
		return d
	}
	return 0
}

// evict drops buckets that have refilled completely, or the older half when none has.
func (l *limiter) evict(now time.Time) {
	full := time.Duration(float64(l.burst) / l.perSecond * float64(time.Second))
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= full {
			delete(l.buckets, k)
		}
	}
	if len(l.buckets) < maxBuckets {
		return
	}
	var sum time.Duration
	for _, b := range l.buckets {
		sum += now.Sub(b.seen)
	}
	avg := sum / time.Duration(len(l.buckets))
	for k, b := range l.buckets {
		if now.Sub(b.seen) >= avg {
			delete(l.buckets, k)
		}
	}
}
