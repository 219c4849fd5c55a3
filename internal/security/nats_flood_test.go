package security

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

// TestNATSAgentFloodIsLimited: an agent that floods its inbox subject is refused past its backlog bound
// (MNEME_NATS_INBOX_MAX_PER_AGENT, here 5), with an error it sees, while another agent publishing at the same
// time is accepted and its claim reaches memory. Nothing the flooder had acknowledged is lost, and the
// server holds an agent's connection to an inbox batch's size and a few subscriptions.
func TestNATSAgentFloodIsLimited(t *testing.T) {
	const backlog = 5
	p := startProduction(t, map[string]string{"MNEME_NATS_INBOX_MAX_PER_AGENT": fmt.Sprint(backlog)})
	flooder, floodCreds := p.agent(t, "acme", "flooder")
	bystander, _ := p.agent(t, "acme", "bystander")

	// The credential carries the connection limits.
	creds, err := natsauth.ReadCreds(floodCreds)
	if err != nil {
		t.Fatal(err)
	}
	if l := creds.Claims.Limits; l.Payload != int64(bus.DefaultTopology().MaxMsgSize) || l.Subs != natsauth.AgentMaxSubscriptions || l.Subs <= 0 {
		t.Errorf("agent user limits: payload %d, subscriptions %d; want %d and %d", l.Payload, l.Subs, bus.DefaultTopology().MaxMsgSize, natsauth.AgentMaxSubscriptions)
	}

	// 300 batches at once, without waiting for each acknowledgement.
	const flood = 300
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	floodSubject := bus.InboxAgentSubject("acme", "flooder", bus.InboxKindClaims)
	acks := make([]jetstream.PubAckFuture, 0, flood)
	for i := range flood {
		body := fmt.Sprintf(`{"claims":[{"subject":"Flood %d","predicate":"says","object":"%s"}]}`, i, strings.Repeat("y", 200))
		f, err := flooder.js.PublishAsync(floodSubject, []byte(body))
		if err != nil {
			t.Fatal(err)
		}
		acks = append(acks, f)
	}
	// The bystander publishes while the flood is under way.
	if !bystander.publish(t, bus.InboxAgentSubject("acme", "bystander", bus.InboxKindClaims), nil,
		`{"claims":[{"subject":"Alice","predicate":"lives in","object":"Lisbon"}]}`) {
		t.Fatal("the bystander's claim was refused during another agent's flood")
	}
	accepted, refused := 0, 0
	for _, f := range acks {
		select {
		case <-f.Ok():
			accepted++
		case err := <-f.Err():
			if !strings.Contains(err.Error(), "maximum messages per subject exceeded") {
				t.Fatalf("a flood publish failed for another reason: %v", err)
			}
			refused++
		case <-ctx.Done():
			t.Fatal("flood acknowledgements did not arrive within a minute")
		}
	}
	t.Logf("flood: %d accepted, %d refused", accepted, refused)
	if refused == 0 || accepted == 0 {
		t.Fatalf("flood of %d: %d accepted, %d refused; want the backlog bound to refuse some and pass others", flood, accepted, refused)
	}

	// The bystander is served, and every flood batch that was acknowledged is processed.
	count := func(agent string) int {
		var n int
		if err := p.db.QueryRow(context.Background(), `SELECT count(*) FROM claims WHERE workspace_id = 'acme' AND owner_agent = $1`, agent).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	eventually(t, 90*time.Second, "the bystander's claim in memory", func() bool { return count("bystander") == 1 })
	eventually(t, 120*time.Second, "every acknowledged flood batch in memory", func() bool { return count("flooder") == accepted })

	// A connection may hold a few subscriptions, no more.
	prefix := bus.UserInboxPrefix(p.userKey(t, floodCreds))
	for i := range natsauth.AgentMaxSubscriptions + 1 {
		if _, err := flooder.SubscribeSync(fmt.Sprintf("%s.extra%d", prefix, i)); err != nil {
			t.Fatal(err)
		}
	}
	eventually(t, 5*time.Second, "the subscription limit enforced", func() bool {
		flooder.mu.Lock()
		defer flooder.mu.Unlock()
		for _, err := range flooder.errs {
			if strings.Contains(strings.ToLower(err.Error()), "maximum subscriptions exceeded") {
				return true
			}
		}
		return false
	})
}
