package bus

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/cenkalti/backoff/v4"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Every failure of a message's handling is one of four kinds, and each has one fate (invariant 3, no loss):
//
//   - cancelled (the handler's context ended: shutdown, ownership lost): never retried, never dead-lettered;
//     the message is left for redelivery (after the consumer's AckWait, or to the partition's next owner);
//   - permanent (Permanent, Reject, or RetryPolicy.ShouldRetry false: bad input that retrying cannot fix):
//     dead-lettered at once with the reason, then terminated;
//   - transient (RetryPolicy.Transient: the infrastructure, not the message, failed): retried without bound;
//   - anything else: retried with exponential backoff up to RetryPolicy.MaxAttempts (and MaxElapsed), then
//     dead-lettered with "gave up after N deliveries: <reason>".
//
// A dead letter that cannot be stored never loses its message: the message is handed back for a retry.

// Dead-letter causes (the "cause" attribute of the services' dead-letter counters).
const (
	// CauseInvalid is the cause of a permanent error without one of its own (Permanent).
	CauseInvalid = "invalid"
	// CauseRetriesExhausted is the cause of a message dead-lettered after its last allowed attempt.
	CauseRetriesExhausted = "retries_exhausted"
	// CausePanic is the cause of a message whose handler panicked (Concurrent and Batches recover it).
	CausePanic = "panic"
)

// rejection marks an error that retrying cannot fix: the message is dead-lettered at once.
type rejection struct {
	cause string
	err   error
}

func (r *rejection) Error() string { return r.err.Error() }
func (r *rejection) Unwrap() error { return r.err }

// Permanent marks err as permanent (cause CauseInvalid): the message is dead-lettered without retrying, with
// err's message as the reason. Permanent(nil) is nil.
func Permanent(err error) error { return Reject(CauseInvalid, err) }

// Reject is Permanent with a cause of its own for the dead-letter counters ("invalid", "extraction_panic").
// The dead letter's reason is err's message, unchanged. Reject(cause, nil) is nil.
func Reject(cause string, err error) error {
	if err == nil {
		return nil
	}
	return &rejection{cause: cause, err: err}
}

// IsPermanent reports whether err was marked Permanent or Reject.
func IsPermanent(err error) bool {
	var r *rejection
	return errors.As(err, &r)
}

// causeOf is the dead-letter cause of a permanent error.
func causeOf(err error) string {
	var r *rejection
	if errors.As(err, &r) {
		return r.cause
	}
	return CauseInvalid
}

// stepError names the step of the handling that failed, for the dead letter's reason.
type stepError struct {
	step string
	err  error
}

func (s *stepError) Error() string { return s.step + ": " + s.err.Error() }
func (s *stepError) Unwrap() error { return s.err }

// Step labels a retryable failure with the step of the handling it happened in ("extraction", "publish"):
// when the retries are exhausted, the dead letter's reason reads "<step> failed after N deliveries: <err>"
// instead of "gave up after N deliveries: <err>". Step(step, nil) is nil.
func Step(step string, err error) error {
	if err == nil {
		return nil
	}
	return &stepError{step: step, err: err}
}

// exhaustedReason is the dead-letter reason of a message whose attempts are used up.
func exhaustedReason(err error, attempts int, unit string) string {
	var s *stepError
	if errors.As(err, &s) {
		return fmt.Sprintf("%s failed after %d %s: %v", s.step, attempts, unit, s.err)
	}
	return fmt.Sprintf("gave up after %d %s: %v", attempts, unit, err)
}

// RetryPolicy bounds the retries of a message whose handling failed. Delays grow exponentially (cenkalti/backoff,
// multiplier 2, no jitter) from InitialInterval to MaxInterval.
type RetryPolicy struct {
	// InitialInterval is the delay after the first failed attempt. Default 500ms.
	InitialInterval time.Duration
	// MaxInterval caps the delay. Default 30s.
	MaxInterval time.Duration
	// MaxAttempts bounds the attempts at one message (JetStream deliveries, or calls in Retry); when the last
	// one fails the message is dead-lettered. 0: no bound.
	MaxAttempts int
	// MaxElapsed bounds the time Retry spends on one message before it gives up; 0: no bound. A redelivered
	// message is bounded by MaxAttempts alone: its first delivery time is not known to the consumer.
	MaxElapsed time.Duration
	// ShouldRetry reports whether a failure may be retried at all; false makes it permanent. Nil: every error
	// not marked Permanent or Reject.
	ShouldRetry func(error) bool
	// Transient reports failures of the infrastructure rather than of the message (the database or the broker
	// is down): they are retried without counting toward MaxAttempts or MaxElapsed, since dead-lettering good
	// messages during an outage would lose their effect. Nil: Unavailable.
	Transient func(error) bool
}

// Unavailable reports whether err says that NATS did not answer rather than that the message is bad: no
// responders or no response from the stream (a stream or consumer leader is being elected after a server
// failed), a timeout or an expired deadline while waiting for an acknowledgement, a connection closed,
// draining or reconnecting, missing heartbeats, or JetStream's "temporarily unavailable" (503). Such a
// failure is transient: the same message succeeds once the cluster has a leader again, so it must not use up
// the message's attempts — a leader election that outlasts the backoff would otherwise dead-letter good
// messages.
func Unavailable(err error) bool {
	var apiErr *jetstream.APIError
	switch {
	case err == nil:
		return false
	case errors.Is(err, jetstream.ErrNoStreamResponse), errors.Is(err, nats.ErrNoResponders), errors.Is(err, nats.ErrTimeout),
		errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrConnectionClosed), errors.Is(err, nats.ErrConnectionDraining),
		errors.Is(err, nats.ErrConnectionReconnecting), errors.Is(err, nats.ErrDisconnected), errors.Is(err, jetstream.ErrNoHeartbeat):
		return true
	case errors.As(err, &apiErr):
		return apiErr.Code == 503
	}
	return false
}

func (p RetryPolicy) withDefaults() RetryPolicy {
	if p.Transient == nil {
		p.Transient = Unavailable
	}
	if p.InitialInterval <= 0 {
		p.InitialInterval = 500 * time.Millisecond
	}
	if p.MaxInterval < p.InitialInterval {
		p.MaxInterval = max(30*time.Second, p.InitialInterval)
	}
	return p
}

// exponential is the delay sequence of the policy; maxElapsed 0 never stops.
func (p RetryPolicy) exponential(maxElapsed time.Duration) *backoff.ExponentialBackOff {
	p = p.withDefaults()
	b := &backoff.ExponentialBackOff{
		InitialInterval:     p.InitialInterval,
		RandomizationFactor: 0,
		Multiplier:          2,
		MaxInterval:         p.MaxInterval,
		MaxElapsedTime:      maxElapsed,
		Stop:                backoff.Stop,
		Clock:               backoff.SystemClock,
	}
	b.Reset()
	return b
}

// Delay is the delay before the next attempt after attempt failed (1-based; 0 counts as 1):
// InitialInterval · 2^(attempt-1), capped at MaxInterval.
func (p RetryPolicy) Delay(attempt int) time.Duration {
	b := p.exponential(0)
	d := b.NextBackOff()
	for i := 1; i < attempt && d < b.MaxInterval; i++ {
		d = b.NextBackOff()
	}
	return d
}

// permanent reports whether err may not be retried.
func (p RetryPolicy) permanent(err error) bool {
	if IsPermanent(err) {
		return true
	}
	var bp *backoff.PermanentError
	if errors.As(err, &bp) {
		return true
	}
	return p.ShouldRetry != nil && !p.ShouldRetry(err)
}

func (p RetryPolicy) transient(err error) bool {
	p = p.withDefaults()
	return p.Transient(err)
}

// ExhaustedError is what Retry returns when a message's retryable failures used up the policy's bounds: the
// caller dead-letters the message with Reason.
type ExhaustedError struct {
	// Attempts is how many attempts failed (transient failures not counted).
	Attempts int
	// Err is the last failure.
	Err error
}

func (e *ExhaustedError) Error() string { return e.Reason() }
func (e *ExhaustedError) Unwrap() error { return e.Err }

// Reason is the dead-letter reason: "gave up after N attempts: <err>" (or "<step> failed after N attempts").
func (e *ExhaustedError) Reason() string { return exhaustedReason(e.Err, e.Attempts, "attempts") }

// Retry calls op until it returns nil, and returns nil; or until it stops, and returns why:
//   - ctx ended: the last error (cancelled: the caller leaves the message);
//   - a permanent error: that error, unchanged (the caller dead-letters the message, or stops when the error
//     says it must, such as lost ownership);
//   - the bounds were reached: an *ExhaustedError (the caller dead-letters the message with its Reason).
//
// notify, when not nil, is called before each wait with the failure, the attempts counted so far and the delay.
// This is the in-process form of the policy, for consumers that cannot hand a message back to JetStream (the
// reconciler's ordered per-partition consumers); Consumer applies the same policy through redeliveries.
func (p RetryPolicy) Retry(ctx context.Context, op func(context.Context) error, notify func(err error, attempts int, delay time.Duration)) error {
	counted := p.exponential(p.MaxElapsed)
	uncounted := p.exponential(0)
	attempts := 0
	for {
		err := op(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || p.permanent(err) {
			return err
		}
		var delay time.Duration
		if p.transient(err) {
			delay = uncounted.NextBackOff()
		} else {
			attempts++
			delay = counted.NextBackOff()
			if (p.MaxAttempts > 0 && attempts >= p.MaxAttempts) || delay == backoff.Stop {
				return &ExhaustedError{Attempts: attempts, Err: err}
			}
		}
		if notify != nil {
			notify(err, attempts, delay)
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
	}
}
