package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/client"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/natsauth"
	"github.com/mneme-ai/mneme/pkg/store"
)

// WritersOptions configures RunWriters: many agents publishing structured claims at once through NATS, each
// with its own credential, on overlapping subjects (so they conflict and corroborate), while other goroutines
// query as those agents.
type WritersOptions struct {
	// Workspace the agents share (default "writers").
	Workspace string
	// Agents publishing at once (default 32).
	Agents int
	// Duration of the publishing phase (default 3 s).
	Duration time.Duration
	// Rate is each agent's publishes per second (0: as fast as acknowledgements come).
	Rate float64
	// MaxBatch is the most claims per publish (1..MaxBatch, default 4).
	MaxBatch int
	// Subjects, Predicates and Values size the overlap: every agent writes every subject's single-valued
	// predicates with values from a small common set (defaults 8, 3, 4).
	Subjects, Predicates, Values int
	// PrivateShare is the share of claims an agent keeps private (default 0.2); private values are unique to
	// their agent, so one seen by another agent is a leak.
	PrivateShare float64
	// ValidSpread is how many distinct valid times (minutes after a base time) claims draw from (default 120):
	// small enough that the latest valid time of a slot is sometimes shared by different values (a dispute).
	ValidSpread int
	// Queriers query during the run, each as a random agent (default 4).
	Queriers int
	// Baseline is how long the same queriers run again once the pipeline has drained, with no writer: the
	// latency of the final store without writers, measured in the same run (default 10 s). The store is then
	// complete, so it is comparable to the latency during the run only when the pipeline kept up.
	Baseline time.Duration
	// Seed makes the plan of each agent reproducible (timing still varies).
	Seed uint64
	// DrainTimeout bounds the wait for the pipeline to catch up after the run (default 5 min).
	DrainTimeout time.Duration
	Logger       *slog.Logger
}

func (o *WritersOptions) defaults() {
	if o.Workspace == "" {
		o.Workspace = "writers"
	}
	if o.Agents <= 0 {
		o.Agents = 32
	}
	if o.Duration <= 0 {
		o.Duration = 3 * time.Second
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 4
	}
	if o.Subjects <= 0 {
		o.Subjects = 8
	}
	if o.Predicates <= 0 {
		o.Predicates = 3
	}
	if o.Values <= 0 {
		o.Values = 4
	}
	if o.PrivateShare < 0 || o.PrivateShare >= 1 {
		o.PrivateShare = 0.2
	} else if o.PrivateShare == 0 {
		o.PrivateShare = 0.2
	}
	if o.ValidSpread <= 0 {
		o.ValidSpread = 120
	}
	if o.Queriers <= 0 {
		o.Queriers = 4
	}
	if o.Baseline <= 0 {
		o.Baseline = 10 * time.Second
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = 5 * time.Minute
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
}

// The vocabulary of the run. Subjects are made-up project names; predicates are distinct single-valued
// attributes (far apart as phrases, so paraphrase merging keeps them in their own slots); values are city
// names. Nothing here is matched by product code.
var (
	writerSubjects   = []string{"Project Alder", "Project Birch", "Project Cedar", "Project Dogwood", "Project Elm", "Project Fir", "Project Ginkgo", "Project Hazel", "Project Juniper", "Project Larch", "Project Maple", "Project Oak"}
	writerPredicates = []string{"headquarters", "lead engineer", "launch quarter", "budget owner", "data center"}
	writerValues     = []string{"Tallinn", "Oslo", "Riga", "Vilnius", "Gdansk", "Turku", "Bergen", "Tartu"}
)

// writerBase is the valid time claims are spread after.
var writerBase = time.Date(2025, 6, 1, 9, 0, 0, 0, time.UTC)

// PublishedClaim is one claim an agent's publish carried, as the agent knows it.
type PublishedClaim struct {
	Agent, Ref, Subject, Predicate, Object string
	Scope                                  event.Scope
	ValidFrom                              time.Time
	Confidence                             float64
	// Accepted is true when JetStream acknowledged the publish; false when every attempt failed (the
	// publish may or may not have been stored).
	Accepted bool
}

// WritersRun is what happened during a run, for the checks and the report.
type WritersRun struct {
	Options   WritersOptions
	Published []PublishedClaim
	// Publishes counts acknowledged publishes (batches) and FailedPublishes those that were not.
	Publishes, FailedPublishes int
	// QueryLatencies of every query during the publishing phase (search and subject reads).
	QueryLatencies []time.Duration
	// BaselineLatencies of the same queries after the drain, with no writer (Options.Baseline); how many and
	// how many failed. Their responses are checked for leaks too.
	BaselineLatencies               []time.Duration
	BaselineQueries, BaselineErrors int
	Queries                         int
	QueryErrors                     int
	// Leaks are the query responses that showed an agent a claim it may not read (described).
	Leaks []string
	// Start and Stop bound the publishing phase; Drained is when the pipeline had caught up.
	Start, Stop, Drained time.Time
	// ReconciledAtStop is how many of the run's claims the projection held when publishing stopped.
	ReconciledAtStop int
	// Claims is the number of the run's claims in the projection at the end.
	Claims int
	// LoadStart and LoadEnd are /proc/loadavg at the start and the end.
	LoadStart, LoadEnd string
}

// RunWriters runs the publishing phase with queries alongside, then waits for the pipeline to drain.
func RunWriters(ctx context.Context, f *Fleet, o WritersOptions) (*WritersRun, error) {
	o.defaults()
	o.Subjects = min(o.Subjects, len(writerSubjects))
	o.Predicates = min(o.Predicates, len(writerPredicates))
	o.Values = min(o.Values, len(writerValues))
	run := &WritersRun{Options: o}
	if err := f.CreateWorkspace(ctx, o.Workspace); err != nil {
		return nil, err
	}
	agents := make([]*FleetAgent, o.Agents)
	for i := range agents {
		a, err := f.Agent(ctx, o.Workspace, fmt.Sprintf("w%02d", i))
		if err != nil {
			return nil, err
		}
		agents[i] = a
	}
	run.LoadStart = LoadAverage()
	run.Start = time.Now()
	pubCtx, stopPub := context.WithDeadline(ctx, run.Start.Add(o.Duration))
	defer stopPub()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for i, a := range agents {
		wg.Add(1)
		go func(i int, a *FleetAgent) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(o.Seed, uint64(i)))
			var tick <-chan time.Time
			if o.Rate > 0 {
				t := time.NewTicker(time.Duration(float64(time.Second) / o.Rate))
				defer t.Stop()
				tick = t.C
			}
			for n := 0; pubCtx.Err() == nil; n++ {
				batch := make([]PublishedClaim, 1+rng.IntN(o.MaxBatch))
				inputs := make([]api.ClaimInput, len(batch))
				for j := range batch {
					batch[j] = planClaim(rng, a.ID, fmt.Sprintf("%s-%d-%d", a.ID, n, j), o)
					inputs[j] = batch[j].input()
				}
				// A publish under way when the phase ends is completed (its outcome is known), not abandoned.
				err := a.PublishClaims(context.WithoutCancel(ctx), inputs)
				mu.Lock()
				for j := range batch {
					batch[j].Accepted = err == nil
				}
				run.Published = append(run.Published, batch...)
				if err == nil {
					run.Publishes++
				} else {
					run.FailedPublishes++
					o.Logger.Warn("writers: publish failed", "agent", a.ID, "err", err)
				}
				mu.Unlock()
				if tick != nil {
					select {
					case <-tick:
					case <-pubCtx.Done():
					}
				}
			}
		}(i, a)
	}
	// Queriers: each query as a random agent, every response checked for claims it may not read.
	qdone := make(chan queryStats, 1)
	go func() { qdone <- runQueriers(pubCtx, agents, o, o.Seed+1000) }()
	wg.Wait()
	run.Stop = time.Now()
	stopPub()
	qs := <-qdone
	run.QueryLatencies, run.Queries, run.QueryErrors, run.Leaks = qs.latencies, qs.queries, qs.errors, qs.leaks
	if n, err := runClaims(ctx, f, o.Workspace); err == nil {
		run.ReconciledAtStop = n
	}
	if err := f.Quiescent(ctx, []string{o.Workspace}, 3*time.Second, o.DrainTimeout); err != nil {
		return run, err
	}
	run.Drained = time.Now()
	run.LoadEnd = LoadAverage()
	n, err := runClaims(ctx, f, o.Workspace)
	if err != nil {
		return run, err
	}
	run.Claims = n
	// The baseline: the same queries on the same (now complete) store with no writer.
	bctx, cancel := context.WithTimeout(ctx, o.Baseline)
	defer cancel()
	bs := runQueriers(bctx, agents, o, o.Seed+2000)
	run.BaselineLatencies, run.BaselineQueries, run.BaselineErrors = bs.latencies, bs.queries, bs.errors
	run.Leaks = append(run.Leaks, bs.leaks...)
	return run, nil
}

// queryStats is what a set of queriers saw.
type queryStats struct {
	latencies       []time.Duration
	queries, errors int
	leaks           []string
}

// runQueriers runs o.Queriers goroutines until ctx ends, each query as a random agent: a search or a subject
// read, every response checked for claims the agent may not read. A query cut off by the end of ctx is
// neither a latency nor an error of the system.
func runQueriers(ctx context.Context, agents []*FleetAgent, o WritersOptions, seed uint64) queryStats {
	var mu sync.Mutex
	var st queryStats
	var wg sync.WaitGroup
	for q := 0; q < o.Queriers; q++ {
		wg.Add(1)
		go func(q int) {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(seed, uint64(q)))
			for ctx.Err() == nil {
				a := agents[rng.IntN(len(agents))]
				subject := writerSubjects[rng.IntN(o.Subjects)]
				t0 := time.Now()
				var found []string
				var err error
				if rng.IntN(2) == 0 {
					pred := writerPredicates[rng.IntN(o.Predicates)]
					var resp *api.SearchResponse
					resp, err = a.API.Search(ctx, o.Workspace, api.SearchRequest{Query: "What is the " + pred + " of " + subject + "?", TokenBudget: 500})
					if err == nil {
						found = leaksInSearch(a.ID, resp)
					}
				} else {
					var resp *api.SubjectResponse
					resp, err = a.API.Subject(ctx, o.Workspace, canon.SubjectKey(subject), clientReadDefaults)
					if err == nil {
						found = leaksInSubject(a.ID, resp)
					}
				}
				d := time.Since(t0)
				if ctx.Err() != nil {
					return
				}
				mu.Lock()
				st.queries++
				if err != nil && !isNotFound(err) {
					st.errors++
				} else {
					st.latencies = append(st.latencies, d)
				}
				st.leaks = append(st.leaks, found...)
				mu.Unlock()
			}
		}(q)
	}
	wg.Wait()
	return st
}

// isNotFound reports a 404: a subject nobody has written yet (or only other agents' private claims).
func isNotFound(err error) bool { return errors.Is(err, client.ErrNotFound) }

func runClaims(ctx context.Context, f *Fleet, ws string) (int, error) {
	n, _, err := store.WorkspaceSize(ctx, f.DB, ws)
	return int(n), err
}

// planClaim draws one claim for agent: a subject, predicate and valid time from the shared pool; a shared
// value from the small common set, or a private value only this agent ever uses.
func planClaim(rng *rand.Rand, agent, ref string, o WritersOptions) PublishedClaim {
	c := PublishedClaim{Agent: agent, Ref: ref, Subject: writerSubjects[rng.IntN(o.Subjects)],
		Predicate: writerPredicates[rng.IntN(o.Predicates)], Scope: event.ScopeShared,
		ValidFrom:  writerBase.Add(time.Duration(rng.IntN(o.ValidSpread)) * time.Minute),
		Confidence: []float64{0.6, 0.8, 0.9}[rng.IntN(3)]}
	if rng.Float64() < o.PrivateShare {
		c.Scope = event.ScopePrivate
		c.Object = privateValue(agent, rng.IntN(3))
	} else {
		c.Object = writerValues[rng.IntN(o.Values)]
	}
	return c
}

// privateValue is a value only agent uses: seeing it as another agent is a leak.
func privateValue(agent string, n int) string {
	return fmt.Sprintf("Vault%s%c", strings.ToUpper(agent), 'A'+n)
}

// privateValuePattern finds private values in any text.
var privateValuePattern = regexp.MustCompile(`Vault(W\d\d)[A-Z]`)

func (c PublishedClaim) input() api.ClaimInput {
	fn := true
	vf := c.ValidFrom
	conf := c.Confidence
	return api.ClaimInput{Subject: c.Subject, Predicate: c.Predicate, Object: c.Object, Functional: &fn, ValidFrom: &vf,
		Scope: string(c.Scope), Confidence: &conf, Source: c.Ref}
}

// clientReadDefaults reads a subject without its decision chains (the checks need the timeline only).
var clientReadDefaults = client.ReadOptions{DecisionsLimit: -1, InputsLimit: -1}

// leaksInSearch describes every claim of a search response (and every private value in its context) that
// agent may not read.
func leaksInSearch(agent string, r *api.SearchResponse) []string {
	var out []string
	for _, c := range r.Claims {
		if c.Scope != string(event.ScopeShared) && c.Owner != agent {
			out = append(out, fmt.Sprintf("search as %s returned %s's private claim %s", agent, c.Owner, c.ID))
		}
	}
	return append(out, foreignValues(agent, "search context", r.Context)...)
}

// leaksInSubject does the same for a subject timeline.
func leaksInSubject(agent string, r *api.SubjectResponse) []string {
	var out []string
	for _, c := range r.Current {
		if c.Scope != string(event.ScopeShared) && c.Owner != agent {
			out = append(out, fmt.Sprintf("subject as %s: current %s's private claim %s", agent, c.Owner, c.ID))
		}
	}
	for _, s := range r.Slots {
		for _, e := range s.Timeline {
			if e.Scope != string(event.ScopeShared) && e.Owner != agent {
				out = append(out, fmt.Sprintf("subject as %s: timeline %s's private claim %s", agent, e.Owner, e.ClaimID))
			}
			out = append(out, foreignValues(agent, "timeline", e.Text+" "+e.Object)...)
		}
	}
	return out
}

func foreignValues(agent, where, text string) []string {
	var out []string
	for _, m := range privateValuePattern.FindAllStringSubmatch(text, -1) {
		if !strings.EqualFold(m[1], agent) {
			out = append(out, fmt.Sprintf("%s as %s shows %s", where, agent, m[0]))
		}
	}
	return out
}

// WritersCheck is the outcome of checking a run against what the agents published.
type WritersCheck struct {
	// Slots and Disputed count the slot tiers checked and those whose latest valid time has several values.
	Slots, Disputed int
	// Corroborations counts the claims whose corroboration count was checked, Corroborated those of them
	// that at least two agents asserted, Conflicting the slot tiers that received different values: a run
	// with none of either did not exercise what it checks.
	Corroborations, Corroborated, Conflicting int
	// DeadLetters counts published claims found in the dead-letter stream instead of the projection.
	DeadLetters int
	// Violations describe every broken expectation; none is expected.
	Violations []string
}

// slotTier is a single-valued slot of one tier: the shared tier (owner "") or one agent's private tier.
type slotTier struct{ owner, subject, predicate string }

// CheckWriters checks the projection and the HTTP API against what the run published, with expectations
// computed from the publish log alone:
//   - nothing lost: every accepted claim is in the projection (by its source reference) or dead-lettered;
//   - every single-valued slot tier has exactly one active claim, the latest by valid time, or — when the
//     latest valid time carries several values — is disputed between exactly those values;
//   - corroboration: every claim counts the distinct agents that published its value in its slot tier (one
//     per agent however often it repeated itself), in the projection and in the HTTP timeline;
//   - no query response during the run showed an agent another agent's private claim.
func CheckWriters(ctx context.Context, f *Fleet, run *WritersRun) (*WritersCheck, error) {
	ws := run.Options.Workspace
	chk := &WritersCheck{}
	bad := func(format string, args ...any) {
		chk.Violations = append(chk.Violations, fmt.Sprintf(format, args...))
	}
	for _, l := range run.Leaks {
		bad("leak during the run: %s", l)
	}
	// What the projection holds, by source reference.
	type stored struct {
		id, subjectKey, slot, object, objectKey, scope, owner, status string
		validFrom                                                     time.Time
		corroborations                                                int
	}
	claims, err := store.SourcedClaims(ctx, f.DB, ws)
	if err != nil {
		return nil, err
	}
	byRef := map[string]stored{}
	for _, c := range claims {
		if c.SourceRef != "" {
			byRef[c.SourceRef] = stored{id: c.ID, subjectKey: c.SubjectKey, slot: c.SlotKey, object: c.Object, objectKey: c.ObjectKey,
				scope: c.Scope, owner: c.OwnerAgent, status: c.Status, validFrom: c.ValidFrom, corroborations: c.Corroborations}
		}
	}
	dead, err := deadLetteredRefs(ctx, f)
	if err != nil {
		return nil, err
	}
	// The claims that took effect. An agent that publishes the same content twice (same subject, predicate,
	// value and valid time; another source reference) has published one claim: ingest derives the claim id
	// from the content and the agent, so the repeat is a duplicate of the first, which is stored under the
	// first publish's reference.
	identity := func(c PublishedClaim) string {
		return strings.Join([]string{c.Agent, c.Subject, c.Predicate, c.Object, c.ValidFrom.UTC().Format(time.RFC3339Nano)}, "\x00")
	}
	storedAs := map[string]string{} // identity → reference the projection holds it under
	for _, c := range run.Published {
		if _, in := byRef[c.Ref]; in {
			if _, seen := storedAs[identity(c)]; !seen {
				storedAs[identity(c)] = c.Ref
			}
		}
	}
	var effective []PublishedClaim
	for _, c := range run.Published {
		ref, in := storedAs[identity(c)]
		switch {
		case in:
			c.Ref = ref
			effective = append(effective, c)
		case dead[c.Ref]:
			chk.DeadLetters++
		case c.Accepted:
			bad("lost: %s's accepted claim %s (%s %s %s) is neither in the projection nor dead-lettered", c.Agent, c.Ref, c.Subject, c.Predicate, c.Object)
		}
	}
	// Slot identity as the projection decided it must be the predicate's own: the check's expectations are per
	// predicate (distinct attributes must never be merged as paraphrases).
	slotOf := map[string]string{}
	for _, c := range effective {
		s := byRef[c.Ref]
		pk := canon.PredicateKey(c.Predicate)
		if prev, ok := slotOf[pk]; ok && prev != s.slot {
			bad("predicate %q landed in slots %q and %q", c.Predicate, prev, s.slot)
		}
		slotOf[pk] = s.slot
	}
	// Expected state per slot tier, from the publish log.
	tiers := map[slotTier][]PublishedClaim{}
	for _, c := range effective {
		k := slotTier{subject: canon.SubjectKey(c.Subject), predicate: canon.PredicateKey(c.Predicate)}
		if c.Scope == event.ScopePrivate {
			k.owner = c.Agent
		}
		tiers[k] = append(tiers[k], c)
	}
	keys := make([]slotTier, 0, len(tiers))
	for k := range tiers {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := keys[i], keys[j]
		return a.owner+"\x00"+a.subject+"\x00"+a.predicate < b.owner+"\x00"+b.subject+"\x00"+b.predicate
	})
	// expectCorrob maps (tier, object key) to the number of distinct agents that published it.
	expectCorrob := map[slotTier]map[string]map[string]bool{}
	for _, k := range keys {
		cs := tiers[k]
		chk.Slots++
		latest := cs[0].ValidFrom
		agentsOf := map[string]map[string]bool{}
		for _, c := range cs {
			if c.ValidFrom.After(latest) {
				latest = c.ValidFrom
			}
			ok := canon.ObjectKey(c.Object)
			if agentsOf[ok] == nil {
				agentsOf[ok] = map[string]bool{}
			}
			agentsOf[ok][c.Agent] = true
		}
		expectCorrob[k] = agentsOf
		if len(agentsOf) > 1 {
			chk.Conflicting++
		}
		wantValues := map[string]bool{}
		for _, c := range cs {
			if c.ValidFrom.Equal(latest) {
				wantValues[canon.ObjectKey(c.Object)] = true
			}
		}
		var active, disputed []stored
		counted := map[string]bool{}
		for _, c := range cs {
			s := byRef[c.Ref]
			if counted[s.id] {
				continue // a repeat of the same claim
			}
			counted[s.id] = true
			switch s.status {
			case "active":
				active = append(active, s)
			case "disputed":
				disputed = append(disputed, s)
			}
		}
		tierName := "shared"
		if k.owner != "" {
			tierName = k.owner + "'s private tier"
		}
		if len(wantValues) == 1 {
			if len(active) != 1 || len(disputed) != 0 {
				bad("%s %s (%s): %d active and %d disputed claims, want exactly one active (latest valid time %s)",
					k.subject, k.predicate, tierName, len(active), len(disputed), latest.Format(time.RFC3339))
				continue
			}
			if !active[0].validFrom.Equal(latest) || !wantValues[active[0].objectKey] {
				bad("%s %s (%s): active %q at %s, want the latest by valid time (%s at %s)", k.subject, k.predicate, tierName,
					active[0].object, active[0].validFrom.Format(time.RFC3339), keysOf(wantValues), latest.Format(time.RFC3339))
			}
			continue
		}
		chk.Disputed++
		got := map[string]bool{}
		for _, s := range disputed {
			got[s.objectKey] = true
			if !s.validFrom.Equal(latest) {
				bad("%s %s (%s): disputed claim %q at %s, not the latest valid time %s", k.subject, k.predicate, tierName, s.object, s.validFrom, latest)
			}
		}
		if len(active) != 0 || !sameKeys(got, wantValues) {
			bad("%s %s (%s): %d active, disputed values %v; want disputed between %v (same latest valid time %s)",
				k.subject, k.predicate, tierName, len(active), keysOf(got), keysOf(wantValues), latest.Format(time.RFC3339))
		}
	}
	// Corroboration in the projection: every claim of the run.
	for _, c := range effective {
		s := byRef[c.Ref]
		k := slotTier{subject: canon.SubjectKey(c.Subject), predicate: canon.PredicateKey(c.Predicate)}
		if c.Scope == event.ScopePrivate {
			k.owner = c.Agent
		}
		want := len(expectCorrob[k][canon.ObjectKey(c.Object)])
		chk.Corroborations++
		if want >= 2 {
			chk.Corroborated++
		}
		if s.corroborations != want {
			bad("corroboration of %s (%s %s = %s, %s): %d sources in the projection, want %d agents", c.Ref, c.Subject, c.Predicate, c.Object, c.Scope, s.corroborations, want)
		}
	}
	// Corroboration through HTTP: each subject's timeline as one agent shows the shared tier's counts.
	if len(run.Published) > 0 {
		reader := run.Published[0].Agent
		var a *FleetAgent
		f.mu.Lock()
		for _, x := range f.agents {
			if x.Workspace == ws && x.ID == reader {
				a = x
			}
		}
		f.mu.Unlock()
		if a != nil {
			subjects := map[string]bool{}
			for k := range tiers {
				subjects[k.subject] = true
			}
			for _, subj := range keysOf(subjects) {
				resp, err := a.API.Subject(ctx, ws, subj, clientReadDefaults)
				if err != nil {
					return nil, fmt.Errorf("writers: subject %s as %s: %w", subj, reader, err)
				}
				for _, l := range leaksInSubject(reader, resp) {
					bad("after the run: %s", l)
				}
				for _, sl := range resp.Slots {
					for _, e := range sl.Timeline {
						k := slotTier{subject: subj, predicate: predicateOfSlot(slotOf, sl.SlotKey)}
						if e.Scope == string(event.ScopePrivate) {
							k.owner = e.Owner
						}
						want := len(expectCorrob[k][canon.ObjectKey(e.Object)])
						if e.Corroborations != want || e.Corroborated != (want >= 2) {
							bad("timeline of %s as %s: %s (%s) shows %d agents, want %d", subj, reader, e.Object, e.Scope, e.Corroborations, want)
						}
					}
				}
			}
		}
	}
	return chk, nil
}

// predicateOfSlot maps a slot key back to the predicate key whose slot it is.
func predicateOfSlot(slotOf map[string]string, slot string) string {
	for p, s := range slotOf {
		if s == slot {
			return p
		}
	}
	return slot
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}

// writerRefPattern finds the run's source references in a dead letter's body.
var writerRefPattern = regexp.MustCompile(`w\d\d-\d+-\d+`)

// deadLetteredRefs reads every dead letter (MNEME_DLQ, as the reconciler's NATS user, the one allowed to read
// it) and returns the run's source references found in them.
func deadLetteredRefs(ctx context.Context, f *Fleet) (map[string]bool, error) {
	out := map[string]bool{}
	if f.JetStreamOf == nil {
		return out, nil
	}
	js := f.JetStreamOf(natsauth.UserReconciler)
	if js == nil {
		return out, nil
	}
	s, err := js.Stream(ctx, bus.StreamDLQ)
	if err != nil {
		return nil, fmt.Errorf("writers: dead-letter stream: %w", err)
	}
	info, err := s.Info(ctx)
	if err != nil {
		return nil, err
	}
	for seq := info.State.FirstSeq; seq > 0 && seq <= info.State.LastSeq; seq++ {
		m, err := s.GetMsg(ctx, seq)
		if err != nil {
			if isMsgNotFound(err) {
				continue
			}
			return nil, err
		}
		for _, ref := range writerRefPattern.FindAllString(string(m.Data), -1) {
			out[ref] = true
		}
	}
	return out, nil
}

func isMsgNotFound(err error) bool { return err != nil && errors.Is(err, jetstream.ErrMsgNotFound) }

// WritersReport is the run's headline figures.
type WritersReport struct {
	Agents            int     `json:"agents"`
	Seconds           float64 `json:"seconds"`
	Publishes         int     `json:"publishes"`
	FailedPublishes   int     `json:"failed_publishes"`
	ClaimsAccepted    int     `json:"claims_accepted"`
	WritesPerSecond   float64 `json:"writes_per_second"`
	ReconciledAtStop  int     `json:"reconciled_at_stop"`
	BacklogAtStop     int     `json:"backlog_at_stop"`
	DrainSeconds      float64 `json:"drain_seconds"`
	ReconciledPerSec  float64 `json:"reconciled_per_second"`
	Queries           int     `json:"queries"`
	QueryErrors       int     `json:"query_errors"`
	QueryP50Millis    float64 `json:"query_p50_ms"`
	QueryP99Millis    float64 `json:"query_p99_ms"`
	BaselineQueries   int     `json:"baseline_queries"`
	BaselineP50Millis float64 `json:"baseline_query_p50_ms"`
	BaselineP99Millis float64 `json:"baseline_query_p99_ms"`
	Slots             int     `json:"slots"`
	Disputed          int     `json:"disputed"`
	CorroborationsChk int     `json:"corroborations_checked"`
	DeadLetters       int     `json:"dead_letters"`
	Violations        int     `json:"violations"`
	LoadStart         string  `json:"load_start"`
	LoadEnd           string  `json:"load_end"`
}

// Report computes the headline figures of a checked run. Claims reconciled per second is the run's claims
// over the time from the first publish until the pipeline had drained.
func (run *WritersRun) Report(chk *WritersCheck) WritersReport {
	r := WritersReport{Agents: run.Options.Agents, Seconds: run.Stop.Sub(run.Start).Seconds(), Publishes: run.Publishes,
		FailedPublishes: run.FailedPublishes, ReconciledAtStop: run.ReconciledAtStop, Queries: run.Queries,
		QueryErrors: run.QueryErrors, LoadStart: run.LoadStart, LoadEnd: run.LoadEnd}
	distinct := map[string]bool{}
	for _, c := range run.Published {
		if c.Accepted {
			r.ClaimsAccepted++
			distinct[strings.Join([]string{c.Agent, c.Subject, c.Predicate, c.Object, c.ValidFrom.UTC().Format(time.RFC3339Nano)}, "\x00")] = true
		}
	}
	if r.Seconds > 0 {
		r.WritesPerSecond = float64(r.ClaimsAccepted) / r.Seconds
	}
	// Repeats of one claim by its agent are one claim: the backlog counts distinct claims not yet reconciled.
	r.BacklogAtStop = max(0, len(distinct)-run.ReconciledAtStop)
	if !run.Drained.IsZero() {
		r.DrainSeconds = run.Drained.Sub(run.Stop).Seconds()
		if total := run.Drained.Sub(run.Start).Seconds(); total > 0 {
			r.ReconciledPerSec = float64(run.Claims) / total
		}
	}
	lat := slices.Clone(run.QueryLatencies)
	slices.Sort(lat)
	r.QueryP50Millis = percentile(lat, 0.50)
	r.QueryP99Millis = percentile(lat, 0.99)
	base := slices.Clone(run.BaselineLatencies)
	slices.Sort(base)
	r.BaselineQueries = run.BaselineQueries
	r.BaselineP50Millis = percentile(base, 0.50)
	r.BaselineP99Millis = percentile(base, 0.99)
	if chk != nil {
		r.Slots, r.Disputed, r.CorroborationsChk, r.DeadLetters, r.Violations = chk.Slots, chk.Disputed, chk.Corroborations, chk.DeadLetters, len(chk.Violations)
	}
	return r
}

// percentile is the nearest-rank percentile of sorted durations, in milliseconds.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(p*float64(len(sorted))+0.999999) - 1
	i = max(0, min(i, len(sorted)-1))
	return float64(sorted[i].Microseconds()) / 1000
}

// WriteTable prints the report as a Markdown table.
func (r WritersReport) WriteTable(w io.Writer) {
	fmt.Fprintln(w, "| agents | run s | claims accepted | writes/s accepted | reconciled at stop | backlog at stop | drain s | claims reconciled/s | queries during run | query p50 / p99 ms during run | after the drain, no writer: p50 / p99 ms (queries) | slots (disputed) | violations | load start → end |")
	fmt.Fprintln(w, "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
	fmt.Fprintf(w, "| %d | %.1f | %d | %.1f | %d | %d | %.1f | %.1f | %d | %.1f / %.1f | %.1f / %.1f (%d) | %d (%d) | %d | %s → %s |\n",
		r.Agents, r.Seconds, r.ClaimsAccepted, r.WritesPerSecond, r.ReconciledAtStop, r.BacklogAtStop, r.DrainSeconds,
		r.ReconciledPerSec, r.Queries, r.QueryP50Millis, r.QueryP99Millis, r.BaselineP50Millis, r.BaselineP99Millis,
		r.BaselineQueries, r.Slots, r.Disputed, r.Violations, r.LoadStart, r.LoadEnd)
}

// LoadAverage returns the first three fields of /proc/loadavg ("" where there is none).
func LoadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
