package bus_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
)

func TestRetryPolicyDelay(t *testing.T) {
	for _, tt := range []struct {
		name    string
		p       bus.RetryPolicy
		attempt int
		want    time.Duration
	}{
		{"first delivery", bus.RetryPolicy{InitialInterval: time.Second, MaxInterval: 30 * time.Second}, 1, time.Second},
		{"attempt 0 counts as 1", bus.RetryPolicy{InitialInterval: time.Second, MaxInterval: 30 * time.Second}, 0, time.Second},
		{"doubles", bus.RetryPolicy{InitialInterval: time.Second, MaxInterval: 30 * time.Second}, 4, 8 * time.Second},
		{"capped", bus.RetryPolicy{InitialInterval: time.Second, MaxInterval: 30 * time.Second}, 6, 30 * time.Second},
		{"stays capped", bus.RetryPolicy{InitialInterval: time.Second, MaxInterval: 30 * time.Second}, 500, 30 * time.Second},
		{"reconciler's 100ms to 5s, 7th", bus.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaxInterval: 5 * time.Second}, 7, 5 * time.Second},
		{"reconciler's 100ms to 5s, 6th", bus.RetryPolicy{InitialInterval: 100 * time.Millisecond, MaxInterval: 5 * time.Second}, 6, 3200 * time.Millisecond},
		{"defaults 500ms", bus.RetryPolicy{}, 1, 500 * time.Millisecond},
		{"defaults cap 30s", bus.RetryPolicy{}, 20, 30 * time.Second},
	} {
		if got := tt.p.Delay(tt.attempt); got != tt.want {
			t.Errorf("%s: Delay(%d) = %s, want %s", tt.name, tt.attempt, got, tt.want)
		}
	}
}

func TestRetryInProcess(t *testing.T) {
	fast := bus.RetryPolicy{InitialInterval: time.Millisecond, MaxInterval: 2 * time.Millisecond, MaxAttempts: 3}
	errBoom := errors.New("boom")
	errDown := errors.New("database down")
	errStop := errors.New("ownership lost")
	ctx := context.Background()

	t.Run("succeeds after failures", func(t *testing.T) {
		calls := 0
		err := fast.Retry(ctx, func(context.Context) error {
			if calls++; calls < 3 {
				return errBoom
			}
			return nil
		}, nil)
		if err != nil || calls != 3 {
			t.Fatalf("err %v after %d calls, want nil after 3", err, calls)
		}
	})
	t.Run("gives up after MaxAttempts", func(t *testing.T) {
		calls := 0
		err := fast.Retry(ctx, func(context.Context) error { calls++; return bus.Step("apply", errBoom) }, nil)
		var ex *bus.ExhaustedError
		if !errors.As(err, &ex) || ex.Attempts != 3 || calls != 3 || !errors.Is(err, errBoom) {
			t.Fatalf("err %v after %d calls, want exhausted after 3", err, calls)
		}
		if ex.Reason() != "apply failed after 3 attempts: boom" {
			t.Fatalf("reason %q", ex.Reason())
		}
	})
	t.Run("permanent stops at once", func(t *testing.T) {
		calls := 0
		p := fast
		p.ShouldRetry = func(err error) bool { return !errors.Is(err, errStop) }
		for _, e := range []error{bus.Permanent(errBoom), errStop} {
			calls = 0
			if err := p.Retry(ctx, func(context.Context) error { calls++; return e }, nil); !errors.Is(err, e) || calls != 1 {
				t.Fatalf("%v: err %v after %d calls", e, err, calls)
			}
		}
	})
	t.Run("transient failures do not count", func(t *testing.T) {
		p := fast
		p.Transient = func(err error) bool { return errors.Is(err, errDown) }
		calls, counted := 0, 0
		err := p.Retry(ctx, func(context.Context) error {
			if calls++; calls <= 10 {
				return errDown
			}
			counted++
			return errBoom
		}, nil)
		var ex *bus.ExhaustedError
		if !errors.As(err, &ex) || ex.Attempts != 3 || counted != 3 || calls != 13 {
			t.Fatalf("err %v: %d calls, %d counted", err, calls, counted)
		}
	})
	t.Run("elapsed bound", func(t *testing.T) {
		p := bus.RetryPolicy{InitialInterval: time.Millisecond, MaxInterval: time.Millisecond, MaxElapsed: 20 * time.Millisecond}
		calls := 0
		err := p.Retry(ctx, func(context.Context) error { calls++; return errBoom }, nil)
		var ex *bus.ExhaustedError
		if !errors.As(err, &ex) || calls < 2 {
			t.Fatalf("err %v after %d calls, want exhausted by elapsed time", err, calls)
		}
		if !strings.HasPrefix(ex.Reason(), "gave up after ") {
			t.Fatalf("reason %q", ex.Reason())
		}
	})
	t.Run("cancelled is never retried", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		calls := 0
		err := fast.Retry(cctx, func(context.Context) error { calls++; cancel(); return errBoom }, nil)
		if !errors.Is(err, errBoom) || calls != 1 {
			t.Fatalf("err %v after %d calls", err, calls)
		}
	})
	t.Run("notify sees each wait", func(t *testing.T) {
		var seen []int
		_ = fast.Retry(ctx, func(context.Context) error { return errBoom }, func(_ error, attempts int, _ time.Duration) { seen = append(seen, attempts) })
		if len(seen) != 2 || seen[0] != 1 || seen[1] != 2 {
			t.Fatalf("notified %v, want [1 2]", seen)
		}
	})
}

func TestPermanentMarks(t *testing.T) {
	base := errors.New("bad input")
	if bus.Permanent(nil) != nil || bus.Reject("x", nil) != nil || bus.Step("s", nil) != nil {
		t.Fatal("wrapping nil must give nil")
	}
	if !bus.IsPermanent(bus.Permanent(base)) || !bus.IsPermanent(bus.Reject("extraction_panic", base)) || bus.IsPermanent(base) {
		t.Fatal("IsPermanent")
	}
	if got := bus.Reject("invalid", base).Error(); got != "bad input" {
		t.Fatalf("a rejection's message is the error's own: %q", got)
	}
	if !errors.Is(bus.Permanent(base), base) {
		t.Fatal("Permanent must unwrap")
	}
}

func TestUnavailable(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("invalid claim: empty subject"), false},
		{fmt.Errorf("publish embedded claim: %w", jetstream.ErrNoStreamResponse), true},
		{fmt.Errorf("publish: %w", nats.ErrTimeout), true},
		{fmt.Errorf("publish: %w", context.DeadlineExceeded), true},
		{nats.ErrConnectionClosed, true},
		{&jetstream.APIError{Code: 503, Description: "JetStream system temporarily unavailable"}, true},
		{&jetstream.APIError{Code: 400, Description: "bad request"}, false},
		{bus.Permanent(errors.New("bad json")), false},
	} {
		if got := bus.Unavailable(tc.err); got != tc.want {
			t.Errorf("Unavailable(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
