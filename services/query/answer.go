package query

import (
	"context"
	"github.com/mneme-ai/mneme/pkg/store"
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/promptguard"
)

// Answer modes.
const (
	ModeDeterministic = "deterministic"
	ModeMultiHop      = "multi-hop"
	ModeReader        = "reader"
	ModeNone          = "none"
)

// answerBody is the wire form of api.AnswerRequest with times as strings.
type answerBody struct {
	Question    string  `json:"question"`
	AsOf        *string `json:"as_of"`
	KnownAt     *string `json:"known_at"`
	TokenBudget int     `json:"token_budget"`
	// IncludeQuarantined lets quarantined claims into the reader's context, flagged (for reviewing them);
	// they never become a deterministic answer.
	IncludeQuarantined bool `json:"include_quarantined"`
	// Asker is whom "I" and "my" in the question name (askedBy).
	Asker string `json:"asker"`
}

func (s *Service) handleAnswer(w http.ResponseWriter, r *request) error {
	var b answerBody
	if err := api.DecodeBody(w, r.Request, s.cfg.MaxBodyBytes, &b); err != nil {
		return err
	}
	if err := s.checkText("question", b.Question); err != nil {
		return err
	}
	question, err := s.askedText("question", b.Question, b.Asker)
	if err != nil {
		return err
	}
	budget, err := s.checkBudget(b.TokenBudget)
	if err != nil {
		return err
	}
	asOf, err := parseTime("as_of", b.AsOf)
	if err != nil {
		return err
	}
	knownAt, err := parseTime("known_at", b.KnownAt)
	if err != nil {
		return err
	}
	v := store.View{Workspace: r.ws, Agent: r.agent, AsOf: asOf, KnownAt: knownAt, Quarantined: b.IncludeQuarantined}
	res, err := s.answer(r.ctx, v, question, budget)
	if err != nil {
		return err
	}
	if owned, ok := askersThing(question, b.Asker); ok && res.Mode == ModeNone {
		// "When is the offsite?" asked by Alice, about which memory holds nothing under "the offsite" alone:
		// in a conversation a definite thing no one owns in the question is the asker's ("Alice's offsite").
		again, err := s.answer(r.ctx, v, owned, budget)
		if err != nil {
			return err
		}
		if again.Mode != ModeNone {
			again.Notes = append(again.Notes, "read as the asker's: "+promptguard.Neutralize(owned))
			res = again
		}
	}
	if paid, name, ok := childsCost(question, b.Asker); ok && (res.Mode == ModeNone || res.Mode == ModeStatement) {
		// "How much are Sipho's school fees?" asked by Sipho's parent: what a parent pays for a child is said as
		// the parent's own ("Fees are R74,500 a year"), so the question is asked again as the asker's, and its
		// answer taken only when memory holds the child as the asker's and the asker's cost answers it.
		kin, err := s.childOf(r.ctx, v, b.Asker, name)
		if err != nil {
			return err
		}
		if kin {
			again, err := s.answer(r.ctx, v, paid, budget)
			if err != nil {
				return err
			}
			if again.Mode == ModeDeterministic {
				again.Notes = append(again.Notes, "read as the asker's, who pays for "+promptguard.Neutralize(name)+": "+promptguard.Neutralize(paid))
				res = again
			}
		}
	}
	s.metrics.answer(r.ctx, res.Mode, res.Disputed)
	api.WriteJSON(w, http.StatusOK, res)
	return nil
}

// childOf reports whether memory holds name as a child of the asker's (a current claim of the asker's child,
// son or daughter naming them).
func (s *Service) childOf(ctx context.Context, v store.View, asker, name string) (bool, error) {
	rows, err := dbFacts{s: s, v: v}.about(ctx, []string{canon.SubjectKey(asker)})
	if err != nil {
		return false, err
	}
	want := canon.ObjectKey(name)
	for _, c := range rows {
		if !c.Negated && canon.RelationKey(c.PredicateKey) == "child" && (c.ObjectKey == want || canon.ObjectKey(c.Object) == want) {
			return true, nil
		}
	}
	return false, nil
}

// dbFacts is facts over Postgres through one view. model, when set, loads predicate phrase embeddings of
// that model with the claims.
type dbFacts struct {
	s     *Service
	v     store.View
	model string
}

func (f dbFacts) known(ctx context.Context, keys []string) (map[string][]string, error) {
	return store.KnownSubjects(ctx, f.s.db, f.v, keys)
}

func (f dbFacts) byObject(ctx context.Context, keys []string) ([]store.Belief, error) {
	all, err := store.ClaimsByObject(ctx, f.s.db, f.v, keys, maxReverseRows)
	// A quarantined claim never answers a question, even when the request lets it into the reader's context.
	out := all[:0]
	for _, c := range all {
		if c.Status != store.StatusQuarantined {
			out = append(out, c)
		}
	}
	return out, err
}

func (f dbFacts) ownEndings(ctx context.Context, keys []string) ([]store.Belief, error) {
	// Only the claims whose predicate starts with an own-ending verb are read (claims_subject_predicate_idx),
	// not everything the named values' subjects hold.
	since := make(map[string]time.Time, len(keys))
	for _, k := range keys {
		since[k] = time.Time{}
	}
	rows, err := store.ClaimsByPredicateHead(ctx, f.s.db, f.v, since, ownEndingHeads, nil, maxEndingRows)
	return ownEndingsAmong(rows), err
}

func (f dbFacts) moves(ctx context.Context, since map[string]time.Time, keys, heads []string) ([]store.Belief, error) {
	return store.ClaimsByPredicateHead(ctx, f.s.db, f.v, since, heads, keys, maxEndingRows)
}

func (f dbFacts) about(ctx context.Context, keys []string) ([]store.Belief, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	sql, a := store.ClaimsBySubjectsSQL(f.v, keys, subjectClaimsLimit, f.model)
	rows, err := f.s.db.Query(ctx, sql, a)
	if err != nil {
		return nil, err
	}
	return store.CollectBeliefs(rows)
}

// temporal says what a question asks of time: the current value (default), a former one ("used to",
// "before Seattle"), the earliest ("originally", "at first"), or whether it changed ("still", "changed").
type temporal int

const (
	askCurrent temporal = iota
	askFormer
	askEarliest
	askChange
)

// asksPast reports whether a question's time reading needs the slots' history.
func (t timeAsk) asksPast() bool {
	return t.mode != askCurrent || t.before != "" || t.after != "" || t.asOf != nil
}

// answer resolves a question deterministically where it can, with the LLM planner and reader where they are
// configured and needed.
func (s *Service) answer(ctx context.Context, v store.View, question string, budget int) (*api.AnswerResponse, error) {
	question = withoutPreface(question)
	t := parseQuestion(question, nil).time
	fv := v
	fv.History = t.asksPast()
	if t.asOf != nil && v.AsOf == nil {
		// "What was X's job in 2022?": the values valid then, as memory holds them now.
		fv.AsOf = t.asOf
	}
	r := &resolver{f: dbFacts{s: s, v: fv}, v: fv, agent: v.Agent, maxHops: s.cfg.MaxHops, slots: map[string][]*store.Slot{}, before: t.before}
	if _, err := s.denseDimension(ctx); err == nil {
		// Predicate phrases embedded by the same model as the question can be compared with it.
		r.f = dbFacts{s: s, v: fv, model: s.embedder.Model()}
		r.embed = func(ctx context.Context, text string) ([]float32, error) {
			vs, err := s.embedder.Embed(ctx, []string{text})
			if err != nil || len(vs) != 1 {
				return nil, err
			}
			return vs[0], nil
		}
	}

	var c *chain
	var ms []mention
	var notes []string
	var planUsage tokenUse
	if s.llm != nil && s.cfg.Planner == "llm" {
		pc, u, err := s.planWithLLM(ctx, r, question)
		planUsage = u
		switch {
		case err != nil:
			notes = append(notes, "LLM plan unavailable ("+err.Error()+"); used the rule-based decomposition")
		case pc != nil:
			c = pc
			notes = append(notes, "decomposed by the LLM planner (Self-Ask); every hop resolved deterministically")
		}
	}
	if c == nil {
		leave, err := s.inflight.enter(ctx)
		if err != nil {
			return nil, err
		}
		rc, rms, err := r.resolve(ctx, question)
		leave()
		if err != nil {
			return nil, err
		}
		c, ms = rc, rms
	}

	res := &api.AnswerResponse{Mode: ModeNone, ClaimsUsed: []api.Claim{}}
	var used []item
	if c != nil {
		used = s.deterministic(c, t, res)
		if t.mode == askCurrent && t.before == "" && t.after == "" && fv.AsOf == nil && len(c.reverse) == 0 && !res.Disputed {
			later, err := r.laterChange(ctx, last(c))
			if err == nil && later == nil {
				later, err = s.changedInOtherWords(ctx, fv, last(c))
			}
			if err != nil {
				return nil, err
			}
			if later != nil {
				revived, err := r.revivedSince(ctx, last(c), later)
				if err != nil {
					return nil, err
				}
				if revived {
					later = nil
				}
			}
			if later != nil && !answersTheKind(c.q, later.Text) {
				// "When is the offsite?" after "the offsite is in Madrid now": a later statement that changed
				// another side of the thing does not take the answer's place.
				later = nil
			}
			if later != nil {
				// A later statement names the value beside a word of change: the value may no longer hold, and
				// the statement says what does, as far as memory understood it.
				res.Answer = later.Text
				res.Notes = append(res.Notes, "a later statement says "+quoteList([]string{last(c).Object})+" changed: the answer is that statement")
				used = append(used, item{claim: later})
				res.ClaimsUsed = append(res.ClaimsUsed, item{claim: later}.apiClaim())
			} else if moved, err := r.movedWithinJob(ctx, c); err != nil {
				return nil, err
			} else if moved != nil {
				res.Answer += ", " + moved.Object
				res.Notes = append(res.Notes, "where "+last(c).Subject+" works changed after the employer was said: "+moved.Object)
				used = append(used, item{claim: moved})
				res.ClaimsUsed = append(res.ClaimsUsed, item{claim: moved}.apiClaim())
			}
		}
		// The answer and notes quote claim content: one line, no template tokens, no markers.
		res.Answer = promptguard.Neutralize(res.Answer)
		for i, n := range res.Notes {
			res.Notes[i] = promptguard.Neutralize(n)
		}
	}
	res.Notes = append(res.Notes, notes...)

	wantReader := s.llm != nil && (s.cfg.Reader == "always" || (s.cfg.Reader == "fallback" && c == nil))
	if wantReader {
		if err := s.read(ctx, v, question, budget, res); err != nil {
			return nil, err
		}
	} else {
		if c == nil && s.cfg.Statements == "on" {
			st, err := s.closestStatement(ctx, fv, question, t, ms, res)
			if err != nil {
				return nil, err
			}
			if st != nil {
				used = append(used, *st)
			}
		}
		res.TokensSpent.Context = s.usedTokens(used, budget)
	}
	res.TokensSpent.Prompt += planUsage.prompt
	res.TokensSpent.Completion += planUsage.completion
	if res.Mode == ModeNone {
		res.Notes = append(res.Notes, "no remembered entity and attribute match the question")
	}
	return res, nil
}

// last is the claim the chain's last hop answers with.
func last(c *chain) *store.Belief { return c.hops[len(c.hops)-1].claim }

// deterministic fills res from a resolved chain and returns the claims it used, in order.
func (s *Service) deterministic(c *chain, t timeAsk, res *api.AnswerResponse) []item {
	var used []item
	for _, h := range c.hops {
		used = append(used, item{claim: h.claim, slot: h.slot})
		res.Hops = append(res.Hops, api.Hop{Subject: h.claim.Subject, Predicate: h.claim.Predicate, Object: h.claim.Object, ClaimID: h.claim.ID})
		if h.slot.Disputed {
			res.Disputed = true
			for _, w := range h.slot.Winners[1:] {
				used = append(used, item{claim: w, slot: h.slot})
			}
			res.Notes = append(res.Notes, "disputed: "+h.claim.Subject+" — "+h.claim.Predicate+" has conflicting values "+
				quoteList(objectsOf(h.slot.Winners))+"; which is right?")
		}
	}
	if len(c.reverse) > 0 {
		var subjects []string
		used = used[:0]
		res.Hops = res.Hops[:0]
		for _, cl := range c.reverse {
			subjects = append(subjects, cl.Subject)
			used = append(used, item{claim: cl})
			res.Hops = append(res.Hops, api.Hop{Subject: cl.Subject, Predicate: cl.Predicate, Object: cl.Object, ClaimID: cl.ID})
		}
		res.Answer = strings.Join(dedupe(subjects), ", ")
		res.Mode = ModeDeterministic
		res.Notes = append(res.Notes, "reverse lookup: the question names the value; the answer is who or what holds it")
		for _, it := range used {
			res.ClaimsUsed = append(res.ClaimsUsed, it.apiClaim())
		}
		return used
	}
	last := c.hops[len(c.hops)-1]
	values := objectsOf(last.slot.Winners)
	switch {
	case last.slot.Disputed:
		res.Answer = strings.Join(values, " or ") + " (disputed)"
	case len(values) > 1 && !sentenceSlot(last.slot):
		res.Answer = strings.Join(values, ", ")
	default:
		res.Answer = last.claim.Object
	}
	if t.mode != askCurrent || t.before != "" || t.after != "" {
		used = s.past(last.slot, values, t, used, res)
	}
	res.Mode = ModeDeterministic
	if len(c.hops) > 1 {
		res.Mode = ModeMultiHop
	}
	for _, it := range used {
		res.ClaimsUsed = append(res.ClaimsUsed, it.apiClaim())
	}
	return used
}

// sentenceSlot reports a slot of sentence claims (the extractor's fallback, "X said: …"): its values are
// whatever was said, one per statement, not the values of one attribute, so listing them all would answer
// with every past statement as if each still held. Its newest sentence answers instead.
func sentenceSlot(sl *store.Slot) bool {
	if sl == nil || len(sl.Winners) == 0 {
		return false
	}
	switch sl.Winners[0].PredicateKey {
	case "said", "mentioned", "says":
		return true
	}
	return false
}

// usedTokens counts the tokens of the used claims rendered as a reader would see them, within budget.
func (s *Service) usedTokens(used []item, budget int) int {
	if len(used) == 0 {
		return 0
	}
	_, _, n := s.budget(used, len(used), budget)
	return n
}

func objectsOf(cs []*store.Belief) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Object
	}
	return out
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "\"" + s + "\""
	}
	return strings.Join(q, " vs ")
}

// past answers a question about a slot's history deterministically: its values in the order of belief
// (valid time, then sequence). "before X" is the value held just before the one the phrase names (or before
// the current one when it names none), "after X" the one just after; "used to" the value before the current
// one; "originally" the first; "still"/"changed" the current value with the one it replaced.
func (s *Service) past(sl *store.Slot, current []string, t timeAsk, used []item, res *api.AnswerResponse) []item {
	var all []*store.Belief
	for _, cl := range sl.Claims {
		if !contains(idsOf(sl.Overridden), cl.ID) {
			all = append(all, cl)
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return store.Newer(all[j], all[i]) }) // oldest first
	all = dedupeObjectsKeepLast(all)
	var former []*store.Belief // newest first, not current
	for i := len(all) - 1; i >= 0; i-- {
		if !contains(idsOf(sl.Winners), all[i].ID) && !contains(current, all[i].Object) {
			former = append(former, all[i])
		}
	}
	for _, f := range former {
		used = append(used, item{claim: f, slot: sl, former: true})
	}
	now := strings.Join(current, ", ")
	named := func(text string) int {
		words := " " + strings.Join(splitWords(text), " ") + " "
		at := -1
		for i, cl := range all {
			ow := strings.Join(splitWords(cl.Object), " ")
			if ow != "" && strings.Contains(words, " "+ow+" ") {
				at = i
			}
		}
		return at
	}
	switch {
	case t.before != "":
		at := named(t.before)
		if at == 0 {
			// The value the question counts back from is the first remembered: answering with it would name
			// what the question says came later.
			res.Answer = ""
			res.Notes = append(res.Notes, "no value before "+all[0].Object+" is remembered")
			return used
		}
		if at < 0 {
			// "before the promotion": before the current value.
			at = len(all)
			for i, cl := range all {
				if contains(idsOf(sl.Winners), cl.ID) {
					at = i
					break
				}
			}
		}
		if at <= 0 {
			// The phrase names no value of the slot ("before UC Davis", said of another slot, or "before the
			// move") and the slot's current value is its first: what it held then is that value.
			res.Notes = append(res.Notes, "no earlier value is remembered")
			return used
		}
		res.Answer = all[at-1].Object
		if at == len(all) {
			// No value of the slot is current (a later statement ended it): its last value is the one before.
			res.Notes = append(res.Notes, "the last value remembered, which has ended")
			return used
		}
		res.Notes = append(res.Notes, "the value before "+all[at].Object+"; now "+now)
	case t.after != "":
		at := named(t.after)
		if at < 0 || at+1 >= len(all) {
			if at >= 0 {
				// The named value is the last one: the current value would be that value itself.
				res.Answer = ""
			}
			res.Notes = append(res.Notes, "no later value is remembered")
			return used
		}
		res.Answer = all[at+1].Object
		res.Notes = append(res.Notes, "the value after "+all[at].Object+"; now "+now)
	case len(former) == 0 && t.mode == askChange:
		res.Notes = append(res.Notes, "no earlier value is remembered; the value has not changed")
	case len(former) == 0:
		res.Notes = append(res.Notes, "no earlier value is remembered; the current value is given")
	case t.mode == askFormer:
		res.Answer = former[0].Object
		res.Notes = append(res.Notes, "former value; now "+now)
	case t.mode == askEarliest:
		res.Answer = former[len(former)-1].Object
		res.Notes = append(res.Notes, "earliest remembered value; now "+now)
	default:
		res.Answer += " (changed from " + former[0].Object + ")"
	}
	return used
}

// dedupeObjectsKeepLast keeps, of claims in chronological order, the last claim of each run of one value: a
// restatement does not make a value earlier than the one it repeats.
func dedupeObjectsKeepLast(cs []*store.Belief) []*store.Belief {
	out := cs[:0:0]
	for _, c := range cs {
		if n := len(out); n > 0 && out[n-1].ObjectKey == c.ObjectKey {
			out[n-1] = c
			continue
		}
		out = append(out, c)
	}
	return out
}
