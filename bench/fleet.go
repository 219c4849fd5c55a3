package bench

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/auth"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Fleet is a Mneme deployment in production mode as its agents meet it: workspaces created by an
// administrator, and per agent an HTTP key bound to it and a NATS credential that may publish only to its own
// inbox subjects. The multi-agent benchmarks drive every agent through its own credential, never as an
// administrator.
type Fleet struct {
	// URL is the HTTP API root, NATSURL the NATS server agents connect to.
	URL, NATSURL string
	// DB is the system's Postgres (workspaces and keys are created there, as `mneme workspace create` does).
	DB *pgxpool.Pool
	// Setup issues agents' NATS credentials (natsauth.Load of the system's auth directory).
	Setup *natsauth.Setup
	// CredsDir is where agents' .creds files are written (a temporary directory of the run).
	CredsDir string
	// JetStreamOf returns a service's own JetStream handle, for the pipeline lag (nil: lag unknown).
	JetStreamOf func(service string) jetstream.JetStream

	mu     sync.Mutex
	agents []*FleetAgent
}

// FleetAgent is one agent with its own credentials: a NATS connection that can publish to its inbox subjects
// and nothing else, and an HTTP client whose key is bound to it.
type FleetAgent struct {
	Workspace, ID string
	NC            *nats.Conn
	js            jetstream.JetStream
	// API reads as this agent with its own key.
	API *client.Client
}

// CreateWorkspace creates ws with an administrative key that the benchmark never uses for reads or writes.
func (f *Fleet) CreateWorkspace(ctx context.Context, ws string) error {
	_, err := auth.CreateWorkspace(ctx, f.DB, ws, "mneme-bench")
	return err
}

// agentUnsafe is what an agent id may not contain (pkg/auth.ValidAgentID's alphabet is [A-Za-z0-9._:@-]).
var agentUnsafe = regexp.MustCompile(`[^a-z0-9._:@-]+`)

// AgentID derives a valid agent id from a speaker's name ("Caroline" → "caroline").
func AgentID(name string) string {
	s := strings.Trim(agentUnsafe.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if s == "" {
		s = "agent"
	}
	return s
}

// Agent issues agent's credentials in ws (an agent-bound HTTP key with the agent role, a NATS user of the
// AGENTS account) and connects with them.
func (f *Fleet) Agent(ctx context.Context, ws, agent string) (*FleetAgent, error) {
	key, err := auth.IssueKey(ctx, f.DB, ws, agent, auth.WithRole(auth.RoleAgent))
	if err != nil {
		return nil, fmt.Errorf("fleet: key for %s/%s: %w", ws, agent, err)
	}
	cred, err := f.Setup.IssueAgent(ws, agent, 0)
	if err != nil {
		return nil, fmt.Errorf("fleet: NATS credential for %s/%s: %w", ws, agent, err)
	}
	path := filepath.Join(f.CredsDir, ws+"."+agent+".creds")
	if err := os.WriteFile(path, cred.Creds, 0o600); err != nil {
		return nil, err
	}
	nc, err := bus.Connect(f.NATSURL, "agent "+ws+"/"+agent, bus.WithCredentials(path))
	if err != nil {
		return nil, fmt.Errorf("fleet: %s/%s connects to NATS: %w", ws, agent, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, err
	}
	c, err := client.New(f.URL, agent, client.WithKey(key), client.WithTimeout(2*time.Minute))
	if err != nil {
		nc.Close()
		return nil, err
	}
	a := &FleetAgent{Workspace: ws, ID: agent, NC: nc, js: js, API: c}
	f.mu.Lock()
	f.agents = append(f.agents, a)
	f.mu.Unlock()
	return a, nil
}

// Close closes every agent's NATS connection.
func (f *Fleet) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, a := range f.agents {
		a.NC.Close()
	}
	f.agents = nil
}

// PublishTurns publishes one batch of turns to the agent's own inbox subject and waits for JetStream's
// acknowledgement (which the broker sends only once the batch is stored in the inbox stream). The message id
// is a digest of the batch, so a retried publish is stored once.
func (a *FleetAgent) PublishTurns(ctx context.Context, turns []api.TurnInput) error {
	return a.publish(ctx, bus.InboxKindTurns, api.TurnsRequest{Turns: turns})
}

// PublishClaims publishes one batch of structured claims to the agent's own inbox subject.
func (a *FleetAgent) PublishClaims(ctx context.Context, claims []api.ClaimInput) error {
	return a.publish(ctx, bus.InboxKindClaims, api.ClaimsRequest{Claims: claims})
}

func (a *FleetAgent) publish(ctx context.Context, kind string, body any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(append([]byte(a.Workspace+"\x00"+a.ID+"\x00"+kind+"\x00"), b...))
	msg := &nats.Msg{Subject: bus.InboxAgentSubject(a.Workspace, a.ID, kind), Data: b, Header: nats.Header{}}
	msg.Header.Set(jetstream.MsgIDHeader, hex.EncodeToString(sum[:16]))
	var last error
	for attempt := 0; attempt < 5; attempt++ {
		pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		_, last = a.js.PublishMsg(pctx, msg)
		cancel()
		if last == nil || ctx.Err() != nil {
			break
		}
		if !errors.Is(last, context.DeadlineExceeded) && !errors.Is(last, nats.ErrTimeout) && !errors.Is(last, nats.ErrNoResponders) {
			break
		}
	}
	if last != nil {
		return fmt.Errorf("fleet: %s publishes to %s: %w", a.ID, msg.Subject, last)
	}
	return nil
}

// PipelineLag sums what the durable consumers of ingest, extractor and embedder have not yet delivered or
// had acknowledged, each read with its own service's NATS user (the only one allowed to read it). The
// reconciler's backlog is visible in Postgres instead (see Quiescent). ok is false when a handle is missing.
func (f *Fleet) PipelineLag(ctx context.Context) (pending uint64, ok bool, err error) {
	if f.JetStreamOf == nil {
		return 0, false, nil
	}
	for _, c := range []struct{ user, stream, consumer string }{
		{natsauth.UserIngest, bus.StreamInbox, bus.ConsumerIngest},
		{natsauth.UserExtractor, bus.StreamTurns, bus.ConsumerExtractor},
		{natsauth.UserEmbedder, bus.StreamProposed, bus.ConsumerEmbedder},
	} {
		js := f.JetStreamOf(c.user)
		if js == nil {
			return 0, false, nil
		}
		cons, err := js.Consumer(ctx, c.stream, c.consumer)
		if err != nil {
			return 0, false, fmt.Errorf("fleet: consumer %s/%s: %w", c.stream, c.consumer, err)
		}
		info, err := cons.Info(ctx)
		if err != nil {
			return 0, false, err
		}
		pending += info.NumPending + uint64(info.NumAckPending)
	}
	return pending, true, nil
}

// Quiescent waits until the pipeline has caught up with what was published to the workspaces: no consumer
// lag, and the workspaces' claims and belief versions unchanged for settle.
func (f *Fleet) Quiescent(ctx context.Context, workspaces []string, settle, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type state struct {
		pending          uint64
		claims, versions int64
	}
	var last state
	var since time.Time
	for {
		var s state
		var err error
		s.pending, _, err = f.PipelineLag(ctx)
		if err == nil {
			s.claims, s.versions, err = store.WorkspacesSize(ctx, f.DB, workspaces)
		}
		switch {
		case err != nil || s != last || s.pending > 0:
			last, since = s, time.Time{}
		case since.IsZero():
			since = time.Now()
		case time.Since(since) >= settle:
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("fleet: not quiescent within %s (pending %d, claims %d, versions %d; last error %v)", timeout, last.pending, last.claims, last.versions, err)
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// Reader returns a fresh HTTP client acting as agent with a newly issued key of its own: a client that has
// seen nothing of the session, for cold-start reads over the existing store.
func (f *Fleet) Reader(ctx context.Context, ws, agent string) (*client.Client, error) {
	key, err := auth.IssueKey(ctx, f.DB, ws, agent, auth.WithRole(auth.RoleAgent))
	if err != nil {
		return nil, fmt.Errorf("fleet: key for %s/%s: %w", ws, agent, err)
	}
	return client.New(f.URL, agent, client.WithKey(key), client.WithTimeout(2*time.Minute))
}
