package bus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"go.opentelemetry.io/otel/propagation"

	"github.com/mneme-ai/mneme/pkg/event"
)

// headerCarrier adapts nats.Header to the OpenTelemetry propagation carrier.
type headerCarrier nats.Header

func (c headerCarrier) Get(key string) string { return nats.Header(c).Get(key) }
func (c headerCarrier) Set(key, value string) { nats.Header(c).Set(key, value) }
func (c headerCarrier) Keys() []string {
	out := make([]string, 0, len(c))
	for k := range c {
		out = append(out, k)
	}
	return out
}

var propagator = propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})

// InjectTrace writes the trace context of ctx into h.
func InjectTrace(ctx context.Context, h nats.Header) {
	propagator.Inject(ctx, headerCarrier(h))
}

// ExtractTrace returns ctx carrying the trace context found in h.
func ExtractTrace(ctx context.Context, h nats.Header) context.Context {
	return propagator.Extract(ctx, headerCarrier(h))
}

// EventMsg builds a message carrying env, with Nats-Msg-Id = the event id and the trace context of ctx.
func EventMsg(ctx context.Context, subject string, env event.Envelope) (*nats.Msg, error) {
	data, err := json.Marshal(env)
	if err != nil {
		return nil, fmt.Errorf("bus: marshal event %s: %w", env.ID, err)
	}
	msg := nats.NewMsg(subject)
	msg.Data = data
	msg.Header.Set(jetstream.MsgIDHeader, env.ID)
	msg.Header.Set(HeaderEventType, env.Type)
	InjectTrace(ctx, msg.Header)
	return msg, nil
}

// PublishAsyncTimeout is how long the client keeps an asynchronous publish waiting for its acknowledgement
// before failing it (JetStreamOptions). PublishBatch stops waiting for a send after PublishAttemptTimeout and
// sends again; without this bound the abandoned send would stay in the connection's table of pending
// publishes for good when its answer died with a server, and enough of them would stall every later publish.
const PublishAsyncTimeout = 30 * time.Second

// JetStreamOptions are the options of Mneme's JetStream handles (jetstream.New): asynchronous publishes
// fail after PublishAsyncTimeout.
func JetStreamOptions() []jetstream.JetStreamOpt {
	return []jetstream.JetStreamOpt{jetstream.WithPublishAsyncTimeout(PublishAsyncTimeout)}
}

// PublishAttemptTimeout bounds the first wait for a JetStream acknowledgement in PublishEvent and PublishBatch:
// a message not acknowledged within it is sent again under the same Nats-Msg-Id (so it is stored once) until the
// caller's context ends. When the NATS server leading a stream dies, what was sent to it is never answered;
// the stream's next leader is elected within seconds and a message sent again after that is stored at once,
// where one wait bounded only by the caller's timeout would hold the message for all of it. Each later wait is
// twice the one before, up to maxPublishAttemptTimeout: a server that is alive but slow (a loaded machine, an
// fsync per write) is not made slower still by every unanswered message of a large batch sent again every few
// seconds — with a fixed 2 s wait, six 400-event batches on a loaded machine were sent again and again until
// the requests' 10 s and even 60 s publish timeouts ended them (TestConcurrentDecodesBounded), and a first wait
// of 5 s still did on a machine at load 9. 10 s is longer than a stall of a live server and than ingest's
// default publish timeout, so an HTTP write is never sent twice; what the wait costs is recovery time after a
// stream leader's death (docs/benchmarks.md, scale-out), unless the connection watches its streams' leaders
// (WatchLeaders): then what is unacknowledged is sent again as soon as a new leader is elected.
const PublishAttemptTimeout = 10 * time.Second

// maxPublishAttemptTimeout caps the doubling waits between sends of the same message.
const maxPublishAttemptTimeout = 30 * time.Second

// nextAttemptTimeout is the wait after one of d.
func nextAttemptTimeout(d time.Duration) time.Duration { return min(2*d, maxPublishAttemptTimeout) }

// publishRetryWait is the pause before sending again after NATS answered that it cannot store the message now
// (no responders or no leader yet, or the same id being stored at that moment).
const publishRetryWait = 250 * time.Millisecond

// errCodeDuplicateInProcess is JetStream's answer to a message whose id the stream is storing at that moment
// (409): the outcome of the first send is not known yet, and a send after it is answered as a duplicate.
const errCodeDuplicateInProcess = 10158

// republish reports whether a failed publish may be sent again: NATS did not answer or had no leader
// (Unavailable), or the stream was storing the same id at that moment.
func republish(err error) bool {
	var apiErr *jetstream.APIError
	if errors.As(err, &apiErr) && apiErr.ErrorCode == errCodeDuplicateInProcess {
		return true
	}
	return Unavailable(err)
}

// PublishEvent publishes env to subject and waits for the JetStream acknowledgement, so the event is durable
// when it returns. A duplicate (same event id within the duplicate window) is not an error: ack.Duplicate says
// so. A publish NATS leaves unanswered for PublishAttemptTimeout (or until a watched stream elects a new leader:
// WatchLeaders), or refuses for want of a leader, is sent again until ctx ends; ack.Duplicate may then be the
// echo of an earlier send of this call.
func PublishEvent(ctx context.Context, js jetstream.JetStream, subject string, env event.Envelope) (*jetstream.PubAck, error) {
	msg, err := EventMsg(ctx, subject, env)
	if err != nil {
		return nil, err
	}
	for wait := PublishAttemptTimeout; ; wait = nextAttemptTimeout(wait) {
		actx, cancel := context.WithTimeout(ctx, wait)
		if elected := leaderElected(js); elected != nil {
			// A new leader stores what is sent now: stop waiting for the one that may have died (WatchLeaders).
			go func() {
				select {
				case <-elected:
					cancel()
				case <-actx.Done():
				}
			}()
		}
		ack, err := js.PublishMsg(actx, msg)
		timedOut := actx.Err() != nil
		cancel()
		if err == nil {
			return ack, nil
		}
		// An attempt that ran out of time or was cut short by an election is sent again whatever its error says.
		if ctx.Err() != nil || !(timedOut || republish(err)) {
			return nil, fmt.Errorf("bus: publish %s to %s: %w", env.Type, subject, err)
		}
		if !timedOut {
			select {
			case <-ctx.Done():
				return nil, fmt.Errorf("bus: publish %s to %s: %w", env.Type, subject, err)
			case <-time.After(publishRetryWait):
			}
		}
	}
}

// PublishResult is the outcome of one message of PublishBatch.
type PublishResult struct {
	// Ack is JetStream's acknowledgement; nil when Err is set.
	Ack *jetstream.PubAck
	// Err is why the message is not known to be stored: a refusal that sending again cannot change, or the
	// last failure when ctx ended.
	Err error
	// Sends is how many times the message was sent. Past one, Ack.Duplicate may be the echo of an earlier
	// send of the batch rather than a duplicate of the caller's.
	Sends int
}

// PublishBatch publishes msgs asynchronously (each with its Nats-Msg-Id set) and waits for every
// acknowledgement. When no acknowledgement at all has arrived for PublishAttemptTimeout, or a watched stream
// elected a new leader (WatchLeaders), the messages still unacknowledged are sent again, and so are those
// refused because NATS had no leader or was storing the same id at that moment, until ctx ends; other refusals
// end the message at once. Results are in the order of msgs.
func PublishBatch(ctx context.Context, js jetstream.JetStream, msgs []*nats.Msg) []PublishResult {
	res := make([]PublishResult, len(msgs))
	todo := make([]int, len(msgs))
	for i := range msgs {
		todo[i] = i
	}
	for wait := PublishAttemptTimeout; len(todo) > 0; wait = nextAttemptTimeout(wait) {
		if ctx.Err() != nil {
			for _, i := range todo {
				if res[i].Err == nil {
					res[i].Err = context.Cause(ctx)
				} else {
					res[i].Err = fmt.Errorf("%w (last failure: %w)", context.Cause(ctx), res[i].Err)
				}
			}
			return res
		}
		type sent struct {
			i int
			f jetstream.PubAckFuture
		}
		var inflight []sent
		var again []int
		// A new leader stores what is sent again at once (WatchLeaders).
		elected := leaderElected(js)
		refused := false // NATS answered: wait a little before sending again
		for _, i := range todo {
			res[i].Sends++
			f, err := js.PublishMsgAsync(msgs[i])
			if err != nil {
				res[i].Err = err
				if republish(err) {
					again, refused = append(again, i), true
				}
				continue
			}
			inflight = append(inflight, sent{i, f})
		}
		// The wait ends when no acknowledgement has arrived for PublishAttemptTimeout: a large batch on a loaded
		// server is acknowledged bit by bit and is left alone, while a batch sent to a leader that died hears
		// nothing at all and is sent again.
		idle := time.NewTimer(wait)
		quiet := false
		for _, s := range inflight {
			settled := func(ack *jetstream.PubAck, err error) {
				res[s.i].Ack, res[s.i].Err = ack, err
				if err != nil && republish(err) {
					again, refused = append(again, s.i), true
				}
				if !quiet {
					idle.Reset(wait)
				}
			}
			if !quiet {
				select {
				case ack := <-s.f.Ok():
					settled(ack, nil)
					continue
				case err := <-s.f.Err():
					settled(nil, err)
					continue
				case <-idle.C:
					quiet = true
				case <-elected:
					quiet = true
				case <-ctx.Done():
					quiet = true
				}
			}
			// An acknowledgement that arrived by now counts; the others are sent again.
			select {
			case ack := <-s.f.Ok():
				settled(ack, nil)
			case err := <-s.f.Err():
				settled(nil, err)
			default:
				res[s.i].Err = fmt.Errorf("no acknowledgement within %s: %w", wait, context.DeadlineExceeded)
				again = append(again, s.i)
			}
		}
		idle.Stop()
		if refused && len(again) > 0 {
			select {
			case <-ctx.Done():
			case <-time.After(publishRetryWait):
			}
		}
		todo = again
	}
	return res
}
