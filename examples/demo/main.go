// Command demo runs Mneme's scripted multi-agent scenario against a running stack (make demo starts one):
// two agents share a workspace; a fact, its update, a late-arriving older fact, as-of and known-at questions,
// a private fact the other agent cannot see, a fact extracted from conversation and a disputed slot.
// Every step waits (with a deadline) until its effect is visible, then prints what memory holds.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/client"
)

const (
	planner   = "planner"
	scheduler = "scheduler"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "Mneme HTTP API")
	natsURL := flag.String("nats", "nats://127.0.0.1:4222", "Mneme's NATS server")
	ws := flag.String("ws", "", "workspace (default: a fresh demo-<time> workspace, so every run starts from nothing)")
	flag.Parse()
	if *ws == "" {
		*ws = "demo-" + time.Now().UTC().Format("20060102-150405")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := run(ctx, *url, *natsURL, *ws); err != nil {
		fmt.Fprintln(os.Stderr, "demo:", err)
		os.Exit(1)
	}
}

type demo struct {
	ws        string
	planner   *client.Client
	scheduler *client.Client
	js        jetstream.JetStream
}

func run(ctx context.Context, url, natsURL, ws string) error {
	p, err := client.New(url, planner)
	if err != nil {
		return err
	}
	nc, err := nats.Connect(natsURL)
	if err != nil {
		return fmt.Errorf("connect to NATS at %s: %w", natsURL, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	d := &demo{ws: ws, planner: p, scheduler: p.WithAgent(scheduler), js: js}
	fmt.Printf("Mneme demo: two agents (planner, scheduler) in workspace %q\n", ws)
	fmt.Println("This demo runs Mneme in DEVELOPMENT MODE (MNEME_DEV_MODE=true): no HTTP key and no NATS credential is checked,")
	fmt.Println("so anyone on this machine can act as any agent. Outside a machine of your own run production mode:")
	fmt.Println("README, section Security.")

	heading("1. A fact — planner publishes to NATS (any NATS client can)")
	say("planner → %s: Alice lives in Paris (valid from 2024-01-10)", bus.InboxAgentSubject(ws, planner, bus.InboxKindClaims))
	if err := d.publishClaim(ctx, planner, api.ClaimInput{Subject: "Alice", Predicate: "lives in", Object: "Paris", ValidFrom: ts("2024-01-10")}); err != nil {
		return err
	}
	if err := d.waitSlot(ctx, "alice", "lives_in", map[string]string{"Paris": "active"}); err != nil {
		return err
	}
	if err := d.answer(ctx, d.scheduler, "Where does Alice live?", nil, nil, "Paris"); err != nil {
		return err
	}

	heading("2. Its update — scheduler writes over HTTP")
	say("scheduler → POST /v1/workspaces/%s/claims: Alice lives in Berlin (valid from 2025-06-01)", ws)
	beforeUpdate := time.Now().UTC()
	if _, err := d.scheduler.Claims(ctx, ws, api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Alice", Predicate: "lives in", Object: "Berlin", ValidFrom: ts("2025-06-01")}}}); err != nil {
		return err
	}
	if err := d.waitSlot(ctx, "alice", "lives_in", map[string]string{"Paris": "superseded", "Berlin": "active"}); err != nil {
		return err
	}
	if err := d.answer(ctx, d.planner, "Where does Alice live?", nil, nil, "Berlin"); err != nil {
		return err
	}

	heading("3. A late-arriving older fact — inserted already superseded")
	say("planner → HTTP: Alice lives in London (valid from 2022-03-01), arriving after the newer facts")
	if _, err := d.planner.Claims(ctx, ws, api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Alice", Predicate: "lives in", Object: "London", ValidFrom: ts("2022-03-01")}}}); err != nil {
		return err
	}
	if err := d.waitSlot(ctx, "alice", "lives_in", map[string]string{"London": "superseded", "Paris": "superseded", "Berlin": "active"}); err != nil {
		return err
	}
	if err := d.timeline(ctx, "alice", "lives_in"); err != nil {
		return err
	}

	heading("4. As-of questions — valid time and transaction time")
	if err := d.answer(ctx, d.scheduler, "Where did Alice live?", ts("2024-06-01"), nil, "Paris"); err != nil {
		return err
	}
	if err := d.answer(ctx, d.scheduler, "Where did Alice live?", ts("2023-01-01"), nil, "London"); err != nil {
		return err
	}
	if err := d.answer(ctx, d.scheduler, "Where does Alice live?", nil, &beforeUpdate, "Paris"); err != nil {
		return err
	}

	heading("5. A private fact — only its owner sees it")
	say("planner → HTTP (scope private): Alice's door code is 4512")
	if _, err := d.planner.Claims(ctx, ws, api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Alice", Predicate: "door code", Object: "4512", Scope: "private"}}}); err != nil {
		return err
	}
	if err := d.waitVisible(ctx, d.planner, "What is Alice's door code?", "4512"); err != nil {
		return err
	}
	for _, c := range []*client.Client{d.planner, d.scheduler} {
		r, err := c.Search(ctx, ws, api.SearchRequest{Query: "What is Alice's door code?", K: 5})
		if err != nil {
			return err
		}
		sees := contains(r.Claims, "4512")
		if sees != (c.Agent() == planner) {
			return fmt.Errorf("isolation: %s sees the private fact: %v", c.Agent(), sees)
		}
		verdict := "does NOT see it"
		if sees {
			verdict = "sees it"
		}
		say("%-9s searches \"What is Alice's door code?\" → %s", c.Agent(), verdict)
	}

	heading("6. A fact said in conversation — extracted from a turn")
	say("scheduler → HTTP turn (speaker Bob): \"I moved to Lisbon last week.\"")
	if _, err := d.scheduler.Turns(ctx, ws, api.TurnsRequest{Turns: []api.TurnInput{{TurnID: "demo-bob-1", SessionID: "demo", Role: "user", Speaker: "Bob", Content: "I moved to Lisbon last week."}}}); err != nil {
		return err
	}
	if err := d.waitVisible(ctx, d.planner, "Where does Bob live?", "Lisbon"); err != nil {
		return err
	}
	if err := d.answer(ctx, d.planner, "Where does Bob live?", nil, nil, "Lisbon"); err != nil {
		return err
	}

	heading("7. A truly simultaneous conflict — disputed, both sides shown")
	say("planner and scheduler both assert the Apollo launch date, same valid time, different values")
	same := ts("2026-01-15")
	if _, err := d.planner.Claims(ctx, ws, api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Project Apollo", Predicate: "launch date", Object: "March 3", ValidFrom: same, Functional: ptr(true)}}}); err != nil {
		return err
	}
	if _, err := d.scheduler.Claims(ctx, ws, api.ClaimsRequest{Claims: []api.ClaimInput{{Subject: "Project Apollo", Predicate: "launch date", Object: "March 10", ValidFrom: same, Functional: ptr(true)}}}); err != nil {
		return err
	}
	if err := d.waitSlot(ctx, "project_apollo", "launch_date", map[string]string{"March 3": "disputed", "March 10": "disputed"}); err != nil {
		return err
	}
	if err := d.answer(ctx, d.scheduler, "What is the launch date of Project Apollo?", nil, nil, "March"); err != nil {
		return err
	}

	heading("Try it yourself — the stack keeps running (make down stops it)")
	fmt.Printf(`  curl -s localhost:8080/v1/workspaces/%[1]s/search -H 'X-Mneme-Agent: scheduler' -d '{"query":"Where does Alice live?"}'
  curl -s localhost:8080/v1/workspaces/%[1]s/answer -H 'X-Mneme-Agent: scheduler' -d '{"question":"Where did Alice live?","as_of":"2024-06-01T00:00:00Z"}'
  curl -s localhost:8080/v1/workspaces/%[1]s/subjects/alice -H 'X-Mneme-Agent: planner'
  go run ./examples/nats-publish -ws %[1]s -agent planner -subject Alice -predicate "lives in" -object Rome
`, ws)
	return nil
}

func (d *demo) publishClaim(ctx context.Context, agent string, c api.ClaimInput) error {
	b, err := json.Marshal(api.ClaimsRequest{Claims: []api.ClaimInput{c}})
	if err != nil {
		return err
	}
	// The subject names the agent: outside development mode only the agent's own NATS credential may publish
	// to it, and Mneme takes the agent from it.
	_, err = d.js.Publish(ctx, bus.InboxAgentSubject(d.ws, agent, bus.InboxKindClaims), b)
	return err
}

// waitSlot polls the subject's timeline until every object in want has the wanted current status.
func (d *demo) waitSlot(ctx context.Context, subject, slot string, want map[string]string) error {
	return poll(ctx, fmt.Sprintf("%s/%s to reach %v", subject, slot, want), func() (bool, error) {
		s, err := d.planner.Subject(ctx, d.ws, subject, client.ReadOptions{})
		if err != nil {
			var ce *client.Error
			if errors.As(err, &ce) && ce.Status == 404 {
				return false, nil
			}
			return false, err
		}
		got := map[string]string{}
		for _, sl := range s.Slots {
			if sl.SlotKey != slot {
				continue
			}
			for _, e := range sl.Timeline {
				if e.RetiredAt == nil {
					got[e.Object] = e.Status
				}
			}
		}
		for obj, st := range want {
			if got[obj] != st {
				return false, nil
			}
		}
		return true, nil
	})
}

func (d *demo) waitVisible(ctx context.Context, c *client.Client, q, object string) error {
	return poll(ctx, fmt.Sprintf("%q to find %s", q, object), func() (bool, error) {
		r, err := c.Search(ctx, d.ws, api.SearchRequest{Query: q, K: 5})
		if err != nil {
			return false, err
		}
		return contains(r.Claims, object), nil
	})
}

// answer asks q and fails unless the answer contains want: the demo is also the scenario test (internal/e2e).
func (d *demo) answer(ctx context.Context, c *client.Client, q string, asOf, knownAt *time.Time, want string) error {
	r, err := c.Answer(ctx, d.ws, api.AnswerRequest{Question: q, AsOf: asOf, KnownAt: knownAt})
	if err != nil {
		return err
	}
	when := ""
	if asOf != nil {
		when += " as of " + asOf.Format("2006-01-02")
	}
	if knownAt != nil {
		when += " as memory believed at " + knownAt.Format(time.RFC3339)
	}
	flag := ""
	if r.Disputed {
		flag = "  [DISPUTED]"
	}
	say("%s asks %q%s\n      → %s%s   (mode %s, %d context tokens)", c.Agent(), q, when, r.Answer, flag, r.Mode, r.TokensSpent.Context)
	for _, cl := range r.ClaimsUsed {
		say("        used: %s [%s, valid %s]", cl.Text, cl.Status, interval(cl))
	}
	if !strings.Contains(r.Answer, want) {
		return fmt.Errorf("%s asked %q%s: answer %q, want %q", c.Agent(), q, when, r.Answer, want)
	}
	return nil
}

func (d *demo) timeline(ctx context.Context, subject, slot string) error {
	s, err := d.planner.Subject(ctx, d.ws, subject, client.ReadOptions{})
	if err != nil {
		return err
	}
	for _, sl := range s.Slots {
		if sl.SlotKey != slot {
			continue
		}
		say("timeline of %s / %s (current beliefs; transaction time = recorded_at):", subject, sl.Predicate)
		for _, e := range sl.Timeline {
			if e.RetiredAt != nil {
				continue
			}
			end := "now"
			if e.ValidTo != nil {
				end = e.ValidTo.Format("2006-01-02")
			}
			by := ""
			if len(e.SupersededBy) > 0 {
				by = " — superseded by " + short(e.SupersededBy[0].ClaimID) + " (decision " + short(e.SupersededBy[0].DecisionID) + ")"
			}
			say("  %-8s %-10s valid %s → %-10s%s", e.Object, e.Status, e.ValidFrom.Format("2006-01-02"), end, by)
		}
		for _, dec := range sl.Decisions {
			say("  decision %s: %s → %s (%s)", short(dec.ID), dec.Operator, dec.Outcome, dec.Reason)
		}
	}
	return nil
}

func poll(ctx context.Context, what string, f func() (bool, error)) error {
	tick := time.NewTicker(150 * time.Millisecond)
	defer tick.Stop()
	timeout := time.After(60 * time.Second)
	for {
		ok, err := f()
		if err != nil {
			return err
		}
		if ok {
			return nil
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-timeout:
			return fmt.Errorf("timed out waiting for %s", what)
		case <-tick.C:
		}
	}
}

func contains(cs []api.Claim, object string) bool {
	for _, c := range cs {
		if strings.EqualFold(c.Object, object) {
			return true
		}
	}
	return false
}

func interval(c api.Claim) string {
	end := "now"
	if c.ValidTo != nil {
		end = c.ValidTo.Format("2006-01-02")
	}
	return c.ValidFrom.Format("2006-01-02") + " → " + end
}

func heading(s string)       { fmt.Printf("\n\033[1m%s\033[0m\n", s) }
func say(f string, a ...any) { fmt.Printf("  "+f+"\n", a...) }

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

func ts(day string) *time.Time {
	t, err := time.Parse("2006-01-02", day)
	if err != nil {
		panic(err)
	}
	return &t
}

func ptr[T any](v T) *T { return &v }
