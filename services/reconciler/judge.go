package reconciler

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/services/reconciler/internal/resolve"
)

// judgePromptVersion is part of every judge-log key: changing the prompt must not reuse old verdicts.
const judgePromptVersion = "contradict-v1"

// judgeEntry is one keyed judge-log entry. It holds no claim content: only ids, the verdict and its provenance.
// Verdict is "contradict", "compatible" or "abstain" (the judge could not be asked; rules decide).
type judgeEntry struct {
	Claims        []string `json:"claims"`
	Operator      string   `json:"operator"`
	Model         string   `json:"model"`
	PromptVersion string   `json:"prompt_version"`
	Verdict       string   `json:"verdict"`
	Error         string   `json:"error,omitempty"`
}

// judge asks an LLM whether two claims contradict, through the durable keyed judge log (KV bucket MNEME_JUDGE):
// the verdict is written to the log before it is applied, and a key already in the log is read instead of asking
// again, so redelivery, a racing second owner and replay all apply the same verdict.
type judge struct {
	kv      jetstream.KeyValue
	client  *llm.Client // nil: read the log only (replay, or no LLM configured)
	model   string
	timeout time.Duration
	log     *slog.Logger
}

// judgeKey derives the log key from the conflict set, operator, judge model and prompt version.
func judgeKey(ids []string, operator, model string) string {
	ids = slices.Clone(ids)
	slices.Sort(ids)
	h := sha256.New()
	for _, p := range append(ids, operator, model, judgePromptVersion) {
		fmt.Fprintf(h, "%d:%s;", len(p), p)
	}
	return "v1." + hex.EncodeToString(h.Sum(nil))[:48]
}

// verdict returns the verdict for a pair: ok is false when there is none (no judge configured and nothing in the
// log, or the judge abstained), in which case the rules' default relation applies.
func (j *judge) verdict(ctx context.Context, a, b *tclaim, operator string) (contradicts, ok bool, key string, err error) {
	if j == nil || j.kv == nil {
		return false, false, "", nil
	}
	model := j.model
	key = judgeKey([]string{a.id, b.id}, operator, model)
	if e, found, err := j.read(ctx, key); err != nil {
		return false, false, "", err
	} else if found {
		return e.Verdict == "contradict", e.Verdict != "abstain", key, nil
	}
	if j.client == nil {
		return false, false, "", nil
	}
	entry := judgeEntry{Claims: sortedPair(a.id, b.id), Operator: operator, Model: model, PromptVersion: judgePromptVersion}
	verdict, askErr := j.ask(ctx, a, b)
	switch {
	case askErr != nil && ctx.Err() != nil:
		return false, false, "", ctx.Err()
	case askErr != nil:
		// The abstention is logged like a verdict, so a replay does not ask again and decides the same way.
		entry.Verdict, entry.Error = "abstain", truncateString(askErr.Error(), 200)
		j.log.Warn("reconciler: judge failed; rules decide this pair", "key", key, "err", askErr)
	case verdict:
		entry.Verdict = "contradict"
	default:
		entry.Verdict = "compatible"
	}
	val, _ := json.Marshal(entry)
	if _, err := j.kv.Create(ctx, key, val); err != nil {
		if !errors.Is(err, jetstream.ErrKeyExists) {
			return false, false, "", fmt.Errorf("reconciler: write judge log %s: %w", key, err)
		}
		// Someone (a previous owner of the partition) logged a verdict first: that one is the verdict.
		e, found, err := j.read(ctx, key)
		if err != nil || !found {
			return false, false, "", fmt.Errorf("reconciler: read judge log %s after a racing write: %v", key, err)
		}
		entry = e
	}
	return entry.Verdict == "contradict", entry.Verdict != "abstain", key, nil
}

// modelName is the judge model the verdicts are logged under.
func (j *judge) modelName() string { return j.model }

func (j *judge) read(ctx context.Context, key string) (judgeEntry, bool, error) {
	kve, err := j.kv.Get(ctx, key)
	if errors.Is(err, jetstream.ErrKeyNotFound) || errors.Is(err, jetstream.ErrKeyDeleted) {
		return judgeEntry{}, false, nil
	}
	if err != nil {
		return judgeEntry{}, false, fmt.Errorf("reconciler: read judge log %s: %w", key, err)
	}
	var e judgeEntry
	if err := json.Unmarshal(kve.Value(), &e); err != nil {
		return judgeEntry{}, false, fmt.Errorf("reconciler: judge log %s is corrupt: %w", key, err)
	}
	return e, true, nil
}

func sortedPair(a, b string) []string {
	if a > b {
		a, b = b, a
	}
	return []string{a, b}
}

func truncateString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

var judgeSchema = json.RawMessage(`{"type":"object","additionalProperties":false,"required":["contradicts","reason"],
"properties":{"contradicts":{"type":"boolean"},"reason":{"type":"string"}}}`)

const judgeSystem = `You check a memory store for contradictions. Two statements about the same subject are given.
They contradict when they cannot both be true at the same time (for example two different values of one
single-valued attribute). Statements that can both hold (different facts, compatible details, one refining the
other) do not contradict. Answer with JSON {"contradicts": true|false, "reason": "<one short sentence>"}.`

func (j *judge) ask(ctx context.Context, a, b *tclaim) (bool, error) {
	ctx, cancel := context.WithTimeout(llm.WithStage(ctx, "judge"), j.timeout)
	defer cancel()
	user := fmt.Sprintf("Subject: %s\nStatement A: %s\nStatement B: %s", a.subject, a.text, b.text)
	var out struct {
		Contradicts bool   `json:"contradicts"`
		Reason      string `json:"reason"`
	}
	_, err := j.client.ChatJSON(ctx, llm.ChatRequest{
		Stage:    "judge",
		Messages: []llm.Message{llm.System(judgeSystem), llm.User(user)},
		Schema:   &llm.JSONSchema{Name: "contradiction", Schema: judgeSchema, Strict: true},
	}, &out)
	if err != nil {
		return false, err
	}
	return out.Contradicts, nil
}

// judgePairs asks the judge about the pairs the slot's policy sends to it: the newcomer against each live claim
// of the tier with a different object (functional slots: only across paraphrase-merged predicates; accumulating
// slots with an exclusivity hint: all), newest first, at most JudgeMaxPairs.
func (d *decider) judgePairs(ctx context.Context, t *tier, n *tclaim, rules slotRules) ([]string, error) {
	if rules.judge == judgeNone || d.judge == nil {
		return nil, nil
	}
	functional := t.isFunctional(rules)
	if (rules.judge == judgeMerged && !functional) || (rules.judge == judgeExclusive && functional) {
		return nil, nil
	}
	var cands []*tclaim
	for _, e := range t.claims {
		if e == n || e.objectKey == n.objectKey || !live(e.status) {
			continue
		}
		if rules.judge == judgeMerged && e.predicateKey == n.predicateKey {
			continue
		}
		if _, done := t.verdicts[resolve.PairOf(e.id, n.id)]; done {
			continue
		}
		cands = append(cands, e)
	}
	slices.SortFunc(cands, func(a, b *tclaim) int {
		if c := b.validFrom.Compare(a.validFrom); c != 0 {
			return c
		}
		return cmp.Compare(a.id, b.id)
	})
	if len(cands) > d.cfg.JudgeMaxPairs {
		cands = cands[:d.cfg.JudgeMaxPairs]
	}
	operator := string(rules.ranker) + "/" + rules.judge
	var keys []string
	for _, e := range cands {
		contra, ok, key, err := d.judge.verdict(ctx, n, e, operator)
		if err != nil {
			return nil, err
		}
		if key != "" {
			keys = append(keys, key)
		}
		if !ok {
			continue
		}
		p := resolve.PairOf(n.id, e.id)
		t.verdicts[p] = contra
		t.rcOK = false
		d.out.Judgements = append(d.out.Judgements, store.JudgementRow{ClaimA: p.A, ClaimB: p.B, Workspace: t.key.ws, JudgeKey: key,
			Contradicts: contra, Model: d.judge.modelName(), PromptVersion: judgePromptVersion})
	}
	return keys, nil
}

// judgeModelLabel is the model name recorded when no judge model is configured (log-only replays use the
// configured model name to derive keys, so it must match the live configuration).
func judgeModelLabel(cfg Config) string {
	if m := strings.TrimSpace(cfg.Judge.Model); m != "" {
		return m
	}
	return "none"
}
