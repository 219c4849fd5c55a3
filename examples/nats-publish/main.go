// Command nats-publish is the smallest outside agent: it publishes one structured claim (or one turn) to
// Mneme's NATS inbox with any NATS client, here nats.go's JetStream API, and waits for the broker's ack.
//
// Outside development mode an agent connects with its own credential (`mneme nats agent-creds <ws> <agent>`
// writes it) and may publish only to its own subjects, mneme.inbox.<ws>.<agent>.claims|turns ('.' in an agent
// id is written %2E); Mneme takes the agent from the subject. Its replies (the JetStream acknowledgement) come
// under its own inbox prefix, _INBOX_<user public key>, the only subjects it may subscribe to:
//
//	go run ./examples/nats-publish -creds planner.creds -ws demo -agent planner -subject Alice -predicate "lives in" -object Berlin
//
// In development mode (no credentials) the same works without -creds:
//
//	go run ./examples/nats-publish -ws demo -agent planner -turn "I moved to Lisbon last week." -speaker Bob
//
// Then ask over HTTP:
//
//	curl -s localhost:8080/v1/workspaces/demo/search -H 'X-Mneme-Agent: planner' -d '{"query":"Where does Alice live?"}'
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/natsauth"
)

func main() {
	url := flag.String("nats", nats.DefaultURL, "NATS server URL")
	creds := flag.String("creds", "", "the agent's NATS credential (.creds); required outside development mode")
	ca := flag.String("tls-ca", "", "PEM CA of the server's certificate, when it requires TLS")
	ws := flag.String("ws", "demo", "workspace")
	agent := flag.String("agent", "planner", "publishing agent id (the credential's agent)")
	subject := flag.String("subject", "Alice", "claim subject")
	predicate := flag.String("predicate", "lives in", "claim predicate")
	object := flag.String("object", "Berlin", "claim object")
	validFrom := flag.String("valid-from", "", "RFC 3339 valid time (default: now)")
	scope := flag.String("scope", "shared", "shared or private")
	turn := flag.String("turn", "", "publish this utterance as a turn instead of a structured claim")
	speaker := flag.String("speaker", "", "speaker of the turn")
	flag.Parse()
	if err := run(*url, *creds, *ca, *ws, *agent, *subject, *predicate, *object, *validFrom, *scope, *turn, *speaker); err != nil {
		fmt.Fprintln(os.Stderr, "nats-publish:", err)
		os.Exit(1)
	}
}

func run(url, creds, ca, ws, agent, subject, predicate, object, validFrom, scope, turn, speaker string) error {
	opts := []nats.Option{nats.Name("nats-publish " + agent)}
	if creds != "" {
		c, err := natsauth.ReadCreds(creds)
		if err != nil {
			return err
		}
		opts = append(opts, nats.UserCredentials(creds), nats.CustomInboxPrefix(natsauth.InboxPrefix(c.UserKey)))
	}
	if ca != "" {
		opts = append(opts, nats.RootCAs(ca))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	var subj string
	var body any
	if turn != "" {
		subj = bus.InboxAgentSubject(ws, agent, bus.InboxKindTurns)
		body = map[string]any{"turns": []map[string]any{{
			"session_id": "nats-example", "role": "user", "speaker": speaker, "content": turn, "scope": scope,
		}}}
	} else {
		subj = bus.InboxAgentSubject(ws, agent, bus.InboxKindClaims)
		c := map[string]any{"subject": subject, "predicate": predicate, "object": object, "scope": scope}
		if validFrom != "" {
			c["valid_from"] = validFrom
		}
		body = map[string]any{"claims": []any{c}}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ack, err := js.Publish(ctx, subj, data)
	if err != nil {
		return fmt.Errorf("publish to %s: %w (does the credential belong to agent %q of workspace %q?)", subj, err, agent, ws)
	}
	fmt.Printf("published to %s (stream %s, seq %d)\n", subj, ack.Stream, ack.Sequence)
	return nil
}
