package bench

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/cenkalti/backoff/v4"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// Mneme drives the real system through its public HTTP API: turns in, search and answer out. One ingest per
// conversation serves both the mneme and the mneme-all-versions views.
type Mneme struct {
	Client *Client
	// Bench and Prefix name the workspaces (Workspace(Bench, Prefix, conversation id)).
	Bench, Prefix string
	// JS, when set, lets ingestion wait until every JetStream consumer has caught up.
	JS jetstream.JetStream
	// DB, when set, lets ingestion wait until the workspace's projection stops changing, and serves
	// provenance when the claims endpoint cannot.
	DB *pgxpool.Pool
	// Settle is how long the pipeline must stay idle and unchanged before ingested data counts as visible.
	Settle time.Duration
	// Timeout bounds the wait for one conversation (0: 2 minutes plus 200 ms per turn).
	Timeout time.Duration
	// K is the claim cap of a search (the API's maximum by default).
	K int
	// Reuse skips the ingest of a conversation whose workspace already holds claims (a database kept by an
	// earlier complete run), so query changes can be re-measured on the same store.
	Reuse  bool
	Logger *slog.Logger

	mu       sync.Mutex
	prepared map[string]*prepareOnce
	prov     map[string][]string
	provErr  error
}

type prepareOnce struct {
	once  sync.Once
	stats IngestStats
	err   error
}

// Views returns the two systems backed by this Mneme: resolution on (mneme, which also answers) and off
// (mneme-all-versions, context only).
func (m *Mneme) Views() (System, System) {
	return &mnemeView{m: m}, &allVersionsView{v: &mnemeView{m: m, allVersions: true}}
}

// allVersionsView hides the Answerer of its view: with resolution off there is no answer of Mneme's own.
type allVersionsView struct{ v *mnemeView }

func (a *allVersionsView) Name() string { return a.v.Name() }
func (a *allVersionsView) Prepare(ctx context.Context, conv *Conversation) (IngestStats, error) {
	return a.v.Prepare(ctx, conv)
}
func (a *allVersionsView) Retrieve(ctx context.Context, conv *Conversation, q *Question, budget int) (*Retrieval, error) {
	return a.v.Retrieve(ctx, conv, q, budget)
}

func (m *Mneme) workspace(conv *Conversation) string { return Workspace(m.Bench, m.Prefix, conv.ID) }

func (m *Mneme) log() *slog.Logger {
	if m.Logger != nil {
		return m.Logger
	}
	return slog.Default()
}

// prepare ingests a conversation once, however many views ask.
func (m *Mneme) prepare(ctx context.Context, conv *Conversation) (IngestStats, bool, error) {
	m.mu.Lock()
	if m.prepared == nil {
		m.prepared = map[string]*prepareOnce{}
	}
	p, ok := m.prepared[conv.ID]
	if !ok {
		p = &prepareOnce{}
		m.prepared[conv.ID] = p
	}
	m.mu.Unlock()
	first := false
	p.once.Do(func() {
		first = true
		p.stats, p.err = m.ingest(ctx, conv)
	})
	return p.stats, first, p.err
}

// maxBatchBytes keeps request bodies well under the ingest service's default 8 MiB limit.
const (
	maxBatchTurns = 256
	maxBatchBytes = 4 << 20
)

// MaxTurnBytes is the largest turn content the harness sends: under the ingest service's default limit of
// 64 KiB per turn. A longer message (a few BEAM messages paste whole files) is sent as consecutive parts,
// as an agent would, with turn ids "<id>~p2", "<id>~p3", ... after the first; SourceTurn maps them back.
const MaxTurnBytes = 60000

// partMark separates a source turn id from its part number.
const partMark = "~p"

// SourceTurn returns the source turn id of a turn id the harness sent (the id itself, or the id a part
// belongs to).
func SourceTurn(id string) string {
	if i := strings.LastIndex(id, partMark); i > 0 {
		return id[:i]
	}
	return id
}

// TurnInputs converts a conversation's turns to the API's turn bodies: the source's turn id, its session,
// role, speaker, content, valid time and ordinal.
func TurnInputs(conv *Conversation) []api.TurnInput {
	var out []api.TurnInput
	for _, s := range conv.Sessions {
		for _, t := range s.Turns {
			at := t.Time.UTC()
			seq := t.Seq
			for i, part := range splitContent(t.Content, MaxTurnBytes) {
				id := t.ID
				if i > 0 {
					id += partMark + strconv.Itoa(i+1)
				}
				out = append(out, api.TurnInput{
					TurnID: id, SessionID: conv.ID + "/" + s.ID, Role: t.Role, Speaker: t.Speaker,
					Content: part, OccurredAt: &at, Sequence: &seq,
				})
			}
		}
	}
	return out
}

// splitContent cuts text into parts of at most max bytes, at a line break, else a space, else a rune
// boundary.
func splitContent(text string, max int) []string {
	var parts []string
	for len(text) > max {
		cut := strings.LastIndexByte(text[:max], '\n')
		if cut < max/2 {
			cut = strings.LastIndexByte(text[:max], ' ')
		}
		if cut < max/2 {
			cut = max
			for cut > 0 && !utf8.RuneStart(text[cut]) {
				cut--
			}
		}
		parts = append(parts, text[:cut])
		text = text[cut:]
	}
	return append(parts, text)
}

func (m *Mneme) ingest(ctx context.Context, conv *Conversation) (IngestStats, error) {
	ws := m.workspace(conv)
	stats := IngestStats{Turns: conv.TurnCount(), Claims: -1}
	if m.Reuse && m.DB != nil {
		if n, _, err := store.WorkspaceSize(ctx, m.DB, ws); err == nil && n > 0 {
			m.log().Info("reusing the ingested workspace", "workspace", ws, "claims", n)
			stats.Claims = int(n)
			return stats, nil
		}
	}
	p0, c0, _ := m.Client.LLMTokens(ctx)
	start := time.Now()
	turns := TurnInputs(conv)
	for i := 0; i < len(turns); {
		j, size := i, 0
		for j < len(turns) && j-i < maxBatchTurns && (j == i || size+len(turns[j].Content)+512 <= maxBatchBytes) {
			size += len(turns[j].Content) + 512
			j++
		}
		if err := sendTurns(ctx, m.Client.API, ws, turns[i:j]); err != nil {
			return stats, fmt.Errorf("mneme: ingesting %s turns %d..%d: %w", conv.ID, i, j-1, err)
		}
		i = j
	}
	timeout := m.Timeout
	if timeout == 0 {
		timeout = 2*time.Minute + time.Duration(len(turns))*200*time.Millisecond
	}
	if err := m.waitVisible(ctx, ws, conv, timeout); err != nil {
		return stats, err
	}
	stats.Seconds = time.Since(start).Seconds()
	p1, c1, _ := m.Client.LLMTokens(ctx)
	stats.LLMPromptTokens, stats.LLMCompletionTokens = p1-p0, c1-c0
	if m.DB != nil {
		if n, _, err := store.WorkspaceSize(ctx, m.DB, ws); err == nil {
			stats.Claims = int(n)
		}
	}
	return stats, nil
}

// fingerprint is what the visibility wait watches.
type fingerprint struct {
	pending          uint64
	claims, versions int64
	probe            string
}

// waitVisible waits until ingested data is visible: every JetStream consumer caught up (when JS is known),
// and the workspace's projection (DB, or else a probe search) unchanged for Settle.
func (m *Mneme) waitVisible(ctx context.Context, ws string, conv *Conversation, timeout time.Duration) error {
	settle := m.Settle
	if settle <= 0 {
		settle = 2 * time.Second
	}
	const interval = 250 * time.Millisecond
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	probe := ""
	if ts := conv.Turns(); len(ts) > 0 {
		probe = tokens.Default().Truncate(ts[len(ts)-1].Content, 64)
	}
	var last fingerprint
	var stableSince time.Time
	var lastErr error
	for {
		fp, err := m.fingerprint(ctx, ws, probe)
		switch {
		case err != nil:
			lastErr = err
			stableSince = time.Time{}
		case fp != last || fp.pending > 0:
			last = fp
			stableSince = time.Time{}
		case stableSince.IsZero():
			stableSince = time.Now()
		case time.Since(stableSince) >= settle && (m.JS != nil || m.DB != nil || fp.probe != ""):
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("mneme: %s: ingested data not settled within %s (last state: %d messages pending, %d claims, %d versions; last error: %v)",
				ws, timeout, last.pending, last.claims, last.versions, lastErr)
		case <-time.After(interval):
		}
	}
}

func (m *Mneme) fingerprint(ctx context.Context, ws, probe string) (fingerprint, error) {
	var fp fingerprint
	if m.JS != nil {
		n, err := consumerLag(ctx, m.JS)
		if err != nil {
			return fp, err
		}
		fp.pending = n
	}
	if m.DB != nil {
		var err error
		fp.claims, fp.versions, err = store.WorkspaceSize(ctx, m.DB, ws)
		return fp, err
	}
	// Remote system without database access: watch what a search shows.
	resp, err := m.Client.API.Search(ctx, ws, api.SearchRequest{Query: probe, K: 10})
	if errors.Is(err, client.ErrNotFound) {
		return fp, nil // workspace not created yet
	}
	if err != nil {
		return fp, err
	}
	var ids []string
	for _, c := range resp.Claims {
		ids = append(ids, c.ID+":"+c.Status)
	}
	fp.probe = strings.Join(ids, ",")
	return fp, nil
}

// consumerLag sums the messages not yet delivered or not yet acknowledged over every consumer of every stream.
func consumerLag(ctx context.Context, js jetstream.JetStream) (uint64, error) {
	var total uint64
	names := js.StreamNames(ctx)
	for name := range names.Name() {
		s, err := js.Stream(ctx, name)
		if err != nil {
			return 0, err
		}
		cons := s.ListConsumers(ctx)
		for ci := range cons.Info() {
			total += ci.NumPending + uint64(ci.NumAckPending)
		}
		if err := cons.Err(); err != nil {
			return 0, err
		}
	}
	return total, names.Err()
}

// turnIDs returns the source turns of claims: from the claims endpoint, or from the projection when the
// endpoint cannot tell. Results are cached.
func (m *Mneme) turnIDs(ctx context.Context, ws string, ids []string) (map[string][]string, error) {
	out := map[string][]string{}
	var missing []string
	m.mu.Lock()
	if m.prov == nil {
		m.prov = map[string][]string{}
	}
	for _, id := range ids {
		if t, ok := m.prov[ws+"/"+id]; ok {
			out[id] = t
		} else {
			missing = append(missing, id)
		}
	}
	useAPI := m.provErr == nil
	m.mu.Unlock()
	if len(missing) == 0 {
		return out, nil
	}
	got := map[string][]string{}
	var apiErr error
	if useAPI {
		for _, id := range missing {
			t, err := m.Client.ClaimTurnIDs(ctx, ws, id)
			if err != nil {
				apiErr = err
				break
			}
			got[id] = t
		}
	}
	if (apiErr != nil || !useAPI) && m.DB != nil {
		if useAPI {
			m.log().Warn("claim provenance endpoint unusable; reading provenance from the projection", "err", apiErr)
			m.mu.Lock()
			m.provErr = apiErr
			m.mu.Unlock()
		}
		var err error
		if got, err = dbTurnIDs(ctx, m.DB, missing); err != nil {
			return out, err
		}
	} else if apiErr != nil {
		return out, fmt.Errorf("mneme: claim provenance: %w", apiErr)
	}
	m.mu.Lock()
	for _, id := range missing {
		m.prov[ws+"/"+id] = got[id]
		out[id] = got[id]
	}
	m.mu.Unlock()
	return out, nil
}

// dbTurnIDs reads claim provenance from the projection: each claim's own source turns and those of the
// claims that corroborate it.
func dbTurnIDs(ctx context.Context, db *pgxpool.Pool, ids []string) (map[string][]string, error) {
	out, err := store.SourceTurns(ctx, db, ids)
	if err != nil {
		return nil, fmt.Errorf("mneme: reading provenance: %w", err)
	}
	return out, nil
}

// claimItems turns claims into context items with their source turns.
func (m *Mneme) claimItems(ctx context.Context, ws string, claims []api.Claim) ([]Item, error) {
	ids := make([]string, len(claims))
	for i, c := range claims {
		ids[i] = c.ID
	}
	prov, err := m.turnIDs(ctx, ws, ids)
	if err != nil {
		return nil, err
	}
	items := make([]Item, len(claims))
	for i, c := range claims {
		var turns []string
		for _, t := range prov[c.ID] {
			turns = append(turns, SourceTurn(t))
		}
		items[i] = Item{ID: c.ID, Text: c.Text, TurnIDs: sortedUnique(turns), Status: c.Status, Conflicts: c.Conflicts,
			SubjectKey: c.SubjectKey, PredicateKey: c.PredicateKey, Object: c.Object}
	}
	return items, nil
}

// mnemeView is one of the two Mneme systems.
type mnemeView struct {
	m           *Mneme
	allVersions bool
}

func (v *mnemeView) Name() string {
	if v.allVersions {
		return SystemMnemeAllVersions
	}
	return SystemMneme
}

// Prepare implements System. The second view of a conversation reports the ingest as shared.
func (v *mnemeView) Prepare(ctx context.Context, conv *Conversation) (IngestStats, error) {
	st, first, err := v.m.prepare(ctx, conv)
	if !first {
		st.Skipped = true
	}
	return st, err
}

// Retrieve implements System: a search at the budget, with every version (include_history) for the
// all-versions view. The items are the returned claims that the assembled context shows.
func (v *mnemeView) Retrieve(ctx context.Context, conv *Conversation, q *Question, budget int) (*Retrieval, error) {
	ws := v.m.workspace(conv)
	k := v.m.K
	if k <= 0 {
		k = 100
	}
	resp, err := v.m.Client.API.Search(ctx, ws, api.SearchRequest{Query: q.Text, K: k, TokenBudget: budget,
		IncludeHistory: v.allVersions, Asker: q.Asker})
	if err != nil {
		return nil, err
	}
	shown, note := claimsInContext(resp.Context, resp.Claims)
	items, err := v.m.claimItems(ctx, ws, shown)
	if err != nil {
		return nil, err
	}
	return &Retrieval{Context: resp.Context, Tokens: resp.ContextTokens, Items: items, Note: note}, nil
}

// claimsInContext keeps the claims whose text the assembled context shows. When the context quotes none of
// them (a context format that rewrites claims), all returned claims count, and the note says so.
func claimsInContext(ctxText string, claims []api.Claim) ([]api.Claim, string) {
	flat := compactSpace(ctxText)
	shown := slices.DeleteFunc(slices.Clone(claims), func(c api.Claim) bool {
		return !strings.Contains(flat, compactSpace(c.Text))
	})
	if len(shown) == 0 && len(claims) > 0 {
		return claims, "claim texts not found in the context; all returned claims counted"
	}
	return shown, ""
}

// Answer implements Answerer for the resolution-on view: Mneme's own deterministic /answer.
func (v *mnemeView) Answer(ctx context.Context, conv *Conversation, q *Question) (*Answer, error) {
	ws := v.m.workspace(conv)
	req := api.AnswerRequest{Question: q.Text, Asker: q.Asker}
	resp, err := v.m.Client.API.Answer(ctx, ws, req)
	if err != nil {
		return nil, err
	}
	items, err := v.m.claimItems(ctx, ws, resp.ClaimsUsed)
	if err != nil {
		return nil, err
	}
	return &Answer{
		Text: resp.Answer, Mode: resp.Mode, Items: items, Notes: resp.Notes,
		Tokens: resp.TokensSpent.Context + resp.TokensSpent.Prompt + resp.TokensSpent.Completion,
	}, nil
}

// Inspector returns Mneme as an Inspector when it can read the projection (nil otherwise).
func (m *Mneme) Inspector() Inspector {
	if m.DB == nil {
		return nil
	}
	return m
}

// TurnClaims implements Inspector: the current belief about every claim whose provenance names one of the
// turns.
func (m *Mneme) TurnClaims(ctx context.Context, conv *Conversation, turnIDs []string) (map[string][]ClaimState, error) {
	byTurn, err := store.ClaimsOfTurns(ctx, m.DB, m.workspace(conv), turnIDs, partMark)
	if err != nil {
		return nil, fmt.Errorf("mneme: reading claims by turn: %w", err)
	}
	out := make(map[string][]ClaimState, len(byTurn))
	for turn, cs := range byTurn {
		for _, c := range cs {
			out[turn] = append(out[turn], ClaimState{ID: c.ID, Object: c.Object, Status: c.Status, SubjectKey: c.SubjectKey, SlotKey: c.SlotKey})
		}
	}
	return out, nil
}

// ingestRetryFor bounds how long one batch of turns is sent again while the service answers 429 or 503.
const ingestRetryFor = 3 * time.Minute

// sendTurns sends a batch of turns, again with backoff while the service is busy (429) or could not store them
// durably yet (503): a loaded machine answers so for a while, and the harness should measure the system rather
// than give up on it. Sending again is safe: turns carry their ids, and ingest deduplicates by them.
func sendTurns(ctx context.Context, c *client.Client, ws string, turns []api.TurnInput) error {
	b := backoff.NewExponentialBackOff()
	b.InitialInterval, b.MaxInterval, b.MaxElapsedTime = time.Second, 15*time.Second, ingestRetryFor
	return backoff.Retry(func() error {
		_, err := c.Turns(ctx, ws, api.TurnsRequest{Turns: turns})
		var e *client.Error
		if errors.As(err, &e) && (e.Status == http.StatusTooManyRequests || e.Status == http.StatusServiceUnavailable) {
			return err
		}
		if err != nil {
			return backoff.Permanent(err)
		}
		return nil
	}, backoff.WithContext(b, ctx))
}
