// Command nats-publish is the smallest outside agent: it publishes one structured claim (or one turn) to
// Mneme's NATS inbox with any NATS client, here nats.go's JetStream API, and waits for the broker's ack.
//
//	go run ./examples/nats-publish -ws demo -agent planner -subject Alice -predicate "lives in" -object Berlin
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
)

func main() {
	url := flag.String("nats", nats.DefaultURL, "NATS server URL")
	ws := flag.String("ws", "demo", "workspace")
	agent := flag.String("agent", "planner", "publishing agent id")
	subject := flag.String("subject", "Alice", "claim subject")
	predicate := flag.String("predicate", "lives in", "claim predicate")
	object := flag.String("object", "Berlin", "claim object")
	validFrom := flag.String("valid-from", "", "RFC 3339 valid time (default: now)")
	scope := flag.String("scope", "shared", "shared or private")
	turn := flag.String("turn", "", "publish this utterance as a turn instead of a structured claim")
	speaker := flag.String("speaker", "", "speaker of the turn")
	flag.Parse()
	if err := run(*url, *ws, *agent, *subject, *predicate, *object, *validFrom, *scope, *turn, *speaker); err != nil {
		fmt.Fprintln(os.Stderr, "nats-publish:", err)
		os.Exit(1)
	}
}

func run(url, ws, agent, subject, predicate, object, validFrom, scope, turn, speaker string) error {
	nc, err := nats.Connect(url)
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
		subj = "mneme.inbox." + ws + ".turns"
		body = map[string]any{"turns": []map[string]any{{
			"session_id": "nats-example", "role": "user", "speaker": speaker, "content": turn, "scope": scope,
		}}}
	} else {
		subj = "mneme.inbox." + ws + ".claims"
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
	msg := nats.NewMsg(subj)
	msg.Data = data
	msg.Header.Set("X-Mneme-Agent", agent)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ack, err := js.PublishMsg(ctx, msg)
	if err != nil {
		return err
	}
	fmt.Printf("published to %s (stream %s, seq %d)\n", subj, ack.Stream, ack.Sequence)
	return nil
}
