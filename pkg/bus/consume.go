package bus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// NextBatch blocks until one message is available (or ctx ends), then gathers more for at most wait, up to
// max messages. Batching this way keeps latency low when idle and amortises work under load.
func NextBatch(ctx context.Context, it jetstream.MessagesContext, max int, wait time.Duration) ([]jetstream.Msg, error) {
	first, err := it.Next(jetstream.NextContext(ctx))
	if err != nil {
		return nil, err
	}
	batch := []jetstream.Msg{first}
	deadline := time.Now().Add(wait)
	for len(batch) < max {
		left := time.Until(deadline)
		if left <= 0 {
			break
		}
		m, err := it.Next(jetstream.NextMaxWait(left))
		if err != nil {
			break
		}
		batch = append(batch, m)
	}
	return batch, nil
}

// permanentError marks an error that retrying cannot fix (bad input): the message is dead-lettered at once.
type permanentError struct{ err error }

func (p permanentError) Error() string { return p.err.Error() }
func (p permanentError) Unwrap() error { return p.err }

// Permanent wraps err so Settle dead-letters the message without retrying.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return permanentError{err}
}

// IsPermanent reports whether err was marked Permanent.
func IsPermanent(err error) bool {
	var p permanentError
	return errors.As(err, &p)
}

// RetryDelay is the redelivery delay after the n-th failed delivery (1-based): exponential from 500 ms,
// capped at 30 s.
func RetryDelay(n uint64) time.Duration {
	d := 500 * time.Millisecond
	for i := uint64(1); i < n && d < 30*time.Second; i++ {
		d *= 2
	}
	return min(d, 30*time.Second)
}

// Settle finishes a message whose handling failed with err: permanent errors and messages delivered
// maxDeliver times go to the stage's dead-letter subject with the reason and are terminated; others are
// redelivered after a backoff. A cancelled ctx leaves the message alone so it is redelivered after AckWait.
func Settle(ctx context.Context, js jetstream.JetStream, stage string, msg jetstream.Msg, err error, maxDeliver int) error {
	if ctx.Err() != nil {
		return nil
	}
	md, mdErr := msg.Metadata()
	delivered := uint64(1)
	if mdErr == nil {
		delivered = md.NumDelivered
	}
	if IsPermanent(err) || (maxDeliver > 0 && delivered >= uint64(maxDeliver)) {
		reason := err.Error()
		if !IsPermanent(err) {
			reason = fmt.Sprintf("gave up after %d deliveries: %s", delivered, reason)
		}
		if dlErr := DeadLetter(ctx, js, stage, msg, reason); dlErr != nil {
			// Could not park it: let it come back rather than lose it.
			_ = msg.NakWithDelay(RetryDelay(delivered))
			return dlErr
		}
		return msg.Term()
	}
	return msg.NakWithDelay(RetryDelay(delivered))
}
