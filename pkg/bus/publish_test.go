package bus_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
	"github.com/mneme-ai/mneme/pkg/event"
)

// lateResponder stands in for a stream whose leader died with the first send: it receives every send of a
// subject, stays silent on the first `silent` of them, and then answers as JetStream does.
type lateResponder struct {
	mu    sync.Mutex
	sends []string // Nats-Msg-Id of every send received
}

func (l *lateResponder) start(t *testing.T, nc *nats.Conn, subject string, silent int) {
	t.Helper()
	sub, err := nc.Subscribe(subject, func(m *nats.Msg) {
		l.mu.Lock()
		l.sends = append(l.sends, m.Header.Get(jetstream.MsgIDHeader))
		n := len(l.sends)
		l.mu.Unlock()
		if silent < 0 || n <= silent {
			return
		}
		_ = m.Respond([]byte(`{"stream":"LATE","seq":1}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
}

func (l *lateResponder) received() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.sends...)
}

func msgWithID(subject, id string) *nats.Msg {
	m := nats.NewMsg(subject)
	m.Header.Set(jetstream.MsgIDHeader, id)
	m.Data = []byte(`{}`)
	return m
}

// TestPublishBatchSendsAgainWhatIsUnanswered: in one batch, a message the stream stores at once is sent once;
// a message whose first send is never answered (its stream's leader died) is sent again under the same id
// after PublishAttemptTimeout and acknowledged; a message nobody ever answers fails when the context ends,
// after several sends; a message the stream refuses for a reason sending again cannot change is sent once.
func TestPublishBatchSendsAgainWhatIsUnanswered(t *testing.T) {
	srv := bustest.Start(t)
	late, never := &lateResponder{}, &lateResponder{}
	late.start(t, srv.NC, "late.x", 1)
	never.start(t, srv.NC, "never.x", -1)

	refused := msgWithID(bus.LedgerSubject("acme"), "refused-1")
	refused.Header.Set(jetstream.ExpectedStreamHeader, "NOT_THE_LEDGER")
	msgs := []*nats.Msg{
		msgWithID(bus.LedgerSubject("acme"), "stored-1"),
		msgWithID("late.x", "late-1"),
		msgWithID("never.x", "never-1"),
		refused,
	}
	budget := 2*bus.PublishAttemptTimeout + bus.PublishAttemptTimeout/2
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	began := time.Now()
	res := bus.PublishBatch(ctx, srv.JS, msgs)
	took := time.Since(began)

	if r := res[0]; r.Err != nil || r.Ack == nil || r.Ack.Stream != bus.StreamLedger || r.Sends != 1 {
		t.Errorf("stored at once: %+v, want acknowledged by %s after one send", r, bus.StreamLedger)
	}
	if r := res[1]; r.Err != nil || r.Ack == nil || r.Sends != 2 {
		t.Errorf("answered on the second send: %+v, want acknowledged after two sends", r)
	}
	if got := late.received(); len(got) != 2 || got[0] != "late-1" || got[1] != "late-1" {
		t.Errorf("the unanswered message was sent as %v, want twice under its own id", got)
	}
	if r := res[2]; r.Err == nil || !errors.Is(r.Err, context.DeadlineExceeded) || r.Sends < 2 {
		t.Errorf("never answered: %+v, want the context's deadline after at least two sends", r)
	}
	if r := res[3]; r.Err == nil || r.Sends != 1 {
		t.Errorf("refused by the stream: %+v, want an error after one send", r)
	}
	if took > budget+time.Second {
		t.Errorf("PublishBatch returned %s after a context of %s", took, budget)
	}
}

// TestPublishEventSendsAgainWhatIsUnanswered: a synchronous publish whose first send is lost is sent again
// under the same id and returns the acknowledgement; with nobody answering, it returns when ctx ends.
func TestPublishEventSendsAgainWhatIsUnanswered(t *testing.T) {
	srv := bustest.Start(t)
	late := &lateResponder{}
	late.start(t, srv.NC, "late.y", 1)
	env, err := event.New(event.TypeDecisionRecorded, "decision-1", "test", "acme", time.Now(), map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*bus.PublishAttemptTimeout)
	defer cancel()
	ack, err := bus.PublishEvent(ctx, srv.JS, "late.y", env)
	if err != nil || ack == nil || ack.Stream != "LATE" {
		t.Fatalf("PublishEvent = %+v, %v; want the second send's acknowledgement", ack, err)
	}
	if got := late.received(); len(got) != 2 || got[0] != env.ID || got[1] != env.ID {
		t.Errorf("sends %v, want two under the event id %s", got, env.ID)
	}

	never := &lateResponder{}
	never.start(t, srv.NC, "never.y", -1)
	short, cancelShort := context.WithTimeout(context.Background(), bus.PublishAttemptTimeout+bus.PublishAttemptTimeout/2)
	defer cancelShort()
	if _, err := bus.PublishEvent(short, srv.JS, "never.y", env); err == nil {
		t.Fatal("PublishEvent with nobody answering returned no error")
	}
	if n := len(never.received()); n != 2 {
		t.Errorf("nobody answering: %d sends within one and a half attempts, want 2", n)
	}
}

// TestPublishesSendAgainWhenALeaderIsElected: on a connection that watches its streams' leaders, a publish whose
// first send is never answered (its stream's leader died) is sent again as soon as the stream elects a new
// leader, well before PublishAttemptTimeout, by PublishEvent and by PublishBatch alike.
func TestPublishesSendAgainWhenALeaderIsElected(t *testing.T) {
	srv := bustest.Start(t)
	stop, err := bus.WatchLeaders(srv.NC, "LATE")
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	// elect announces a new leader of LATE, as JetStream does, once the first send has arrived.
	elect := func(l *lateResponder) {
		// Runs on its own goroutine, so a timeout is reported with t.Error, not eventually's t.Fatalf.
		deadline := time.Now().Add(bus.PublishAttemptTimeout)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for len(l.received()) == 0 {
			if time.Now().After(deadline) {
				t.Error("the first send never arrived")
				return
			}
			<-tick.C
		}
		if err := srv.NC.Publish(bus.LeaderElectedSubject("LATE"), []byte(`{"type":"io.nats.jetstream.advisory.v1.stream_leader_elected"}`)); err != nil {
			t.Error(err)
		}
	}
	// Less than one attempt's wait: only the advisory can bring the second send in time.
	budget := bus.PublishAttemptTimeout * 8 / 10

	one := &lateResponder{}
	one.start(t, srv.NC, "late.one", 1)
	env, err := event.New(event.TypeDecisionRecorded, "decision-2", "test", "acme", time.Now(), map[string]string{"k": "v"})
	if err != nil {
		t.Fatal(err)
	}
	go elect(one)
	ctx, cancel := context.WithTimeout(context.Background(), budget)
	defer cancel()
	if ack, err := bus.PublishEvent(ctx, srv.JS, "late.one", env); err != nil || ack == nil || ack.Stream != "LATE" {
		t.Fatalf("PublishEvent = %+v, %v; want the acknowledgement of the send after the election", ack, err)
	}
	if got := one.received(); len(got) != 2 {
		t.Errorf("PublishEvent: sends %v, want two", got)
	}

	batch := &lateResponder{}
	batch.start(t, srv.NC, "late.batch", 1)
	go elect(batch)
	bctx, bcancel := context.WithTimeout(context.Background(), budget)
	defer bcancel()
	res := bus.PublishBatch(bctx, srv.JS, []*nats.Msg{msgWithID("late.batch", "batch-1")})
	if res[0].Err != nil || res[0].Ack == nil || res[0].Sends != 2 {
		t.Fatalf("PublishBatch = %+v; want the acknowledgement of the second send", res[0])
	}
}
