// Command extractstats measures claim extraction on LoCoMo conversations: claims per turn, the share of the
// QA evidence turns that yield at least one claim (structured, or of any kind) and extractor throughput. It
// prints a Markdown table and, with -out, writes the figures as JSON.
//
//	go run ./bench/cmd/extractstats -data ../shared/data/locomo/locomo_conv0-6.json -out results.json
//
// With -beam it reports BEAM instead: the share of the source messages of knowledge_update and
// contradiction_resolution probes that yield at least one claim, and whether a claim states the gold
// answer's numbers (-samples N prints user source messages without a structured claim).
//
//	go run ./bench/cmd/extractstats -beam ../shared/data/beam/100K
//
// The data is read from disk and never copied (LoCoMo is licensed for evaluation only).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/llm"
	"github.com/mneme-ai/mneme/pkg/tokens"
	"github.com/mneme-ai/mneme/services/extractor/extract"
	"github.com/mneme-ai/mneme/services/extractor/llmextract"
	"github.com/mneme-ai/mneme/services/extractor/rules"
)

func main() {
	data := flag.String("data", "../shared/data/locomo/locomo_conv0-6.json", "LoCoMo JSON file (list of samples)")
	beam := flag.String("beam", "", "BEAM directory (<id>/chat.json + probing_questions): report the extraction of the knowledge_update and contradiction_resolution source messages instead of LoCoMo")
	out := flag.String("out", "", "write results as JSON to this file")
	repeat := flag.Int("repeat", 3, "extract every conversation this many times for the throughput figure (best run counts)")
	samples := flag.Int("samples", 0, "print this many sample claims of evidence turns (with -beam: source messages without a structured claim) to stderr")
	windowTokens := flag.Int("window-tokens", 2048, "token budget of an extraction window (consecutive turns of a session)")
	llmURL := flag.String("llm-base-url", os.Getenv("MNEME_EXTRACTOR_LLM_BASE_URL"), "OpenAI-compatible API root; empty uses the rule-based extractor")
	llmModel := flag.String("llm-model", os.Getenv("MNEME_EXTRACTOR_LLM_MODEL"), "chat model for -llm-base-url")
	flag.Parse()
	ex, acct, err := newExtractor(*llmURL, *llmModel, os.Getenv("MNEME_EXTRACTOR_LLM_API_KEY"))
	if err != nil {
		slog.Error("extractstats", "err", err)
		os.Exit(2)
	}
	if *beam != "" {
		if err := runBEAM(context.Background(), ex, *beam, *out, *samples, *windowTokens, os.Stdout, os.Stderr); err != nil {
			slog.Error("extractstats", "err", err)
			os.Exit(1)
		}
		return
	}
	if err := run(context.Background(), ex, acct, *data, *out, *repeat, *samples, *windowTokens, os.Stdout, os.Stderr); err != nil {
		slog.Error("extractstats", "err", err)
		os.Exit(1)
	}
}

// sample is one LoCoMo conversation with its QA.
type sample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question string          `json:"question"`
		Evidence json.RawMessage `json:"evidence"`
		Category int             `json:"category"`
	} `json:"qa"`
}

type dialogTurn struct {
	Speaker string `json:"speaker"`
	DiaID   string `json:"dia_id"`
	Text    string `json:"text"`
}

// Stats are the figures of one conversation or of all of them.
type Stats struct {
	Conversation      string  `json:"conversation"`
	Sessions          int     `json:"sessions"`
	Turns             int     `json:"turns"`
	Claims            int     `json:"claims"`
	StructuredClaims  int     `json:"structured_claims"`
	FallbackClaims    int     `json:"fallback_claims"`
	FunctionalClaims  int     `json:"functional_claims"`
	ClaimsPerTurn     float64 `json:"claims_per_turn"`
	TurnsWithClaim    int     `json:"turns_with_claim"`
	EvidenceTurns     int     `json:"evidence_turns"`
	EvidenceStructure int     `json:"evidence_turns_with_structured_claim"`
	EvidenceAny       int     `json:"evidence_turns_with_any_claim"`
	ShareStructured   float64 `json:"share_evidence_structured"`
	ShareAny          float64 `json:"share_evidence_any"`
	Seconds           float64 `json:"seconds"`
	TurnsPerSecond    float64 `json:"turns_per_second"`
}

// Results is the JSON written with -out.
type Results struct {
	Data             string    `json:"data"`
	Extractor        string    `json:"extractor"`
	ExtractorVersion string    `json:"extractor_version"`
	Repeat           int       `json:"repeat"`
	GeneratedAt      time.Time `json:"generated_at"`
	Conversations    []Stats   `json:"conversations"`
	Total            Stats     `json:"total"`
	// Usage is the LLM token usage of the "extract" stage (LLM extractor only).
	Usage *llm.Usage `json:"usage,omitempty"`
}

var sessionKey = regexp.MustCompile(`^session_(\d+)$`)

// sessionTime parses LoCoMo's "1:56 pm on 8 May, 2023".
func sessionTime(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognized session time %q", s)
}

var evidenceSplit = regexp.MustCompile(`D\d+:\d+`)

// turnsOf converts a LoCoMo conversation into accepted turns, one session after another.
func turnsOf(s sample) ([]event.TurnAcceptedV1, int, error) {
	type session struct {
		n     int
		turns []dialogTurn
		at    time.Time
	}
	var sessions []session
	for k, raw := range s.Conversation {
		m := sessionKey.FindStringSubmatch(k)
		if m == nil {
			continue
		}
		var ts []dialogTurn
		if err := json.Unmarshal(raw, &ts); err != nil {
			return nil, 0, fmt.Errorf("%s %s: %w", s.SampleID, k, err)
		}
		var date string
		if rawDate, ok := s.Conversation[k+"_date_time"]; ok {
			_ = json.Unmarshal(rawDate, &date)
		}
		at, err := sessionTime(date)
		if err != nil {
			return nil, 0, fmt.Errorf("%s %s: %w", s.SampleID, k, err)
		}
		var n int
		fmt.Sscan(m[1], &n)
		sessions = append(sessions, session{n: n, turns: ts, at: at})
	}
	sort.Slice(sessions, func(i, j int) bool { return sessions[i].n < sessions[j].n })
	var out []event.TurnAcceptedV1
	for _, ses := range sessions {
		for i, t := range ses.turns {
			seq := int64(len(out))
			out = append(out, event.TurnAcceptedV1{
				Workspace:  "locomo",
				TurnID:     s.SampleID + ":" + t.DiaID,
				AgentID:    "locomo",
				SessionID:  fmt.Sprintf("%s:session_%d", s.SampleID, ses.n),
				Role:       "user",
				Speaker:    t.Speaker,
				Content:    t.Text,
				OccurredAt: ses.at.Add(time.Duration(i) * time.Second),
				ReceivedAt: ses.at.Add(time.Duration(i) * time.Second),
				Sequence:   &seq,
				Scope:      event.ScopeShared,
			})
		}
	}
	return out, len(sessions), nil
}

func evidenceOf(s sample) map[string]bool {
	ev := map[string]bool{}
	for _, q := range s.QA {
		for _, id := range evidenceSplit.FindAllString(string(q.Evidence), -1) {
			ev[s.SampleID+":"+id] = true
		}
	}
	return ev
}

// newExtractor returns the LLM extractor when a base URL is given, else the rules.
func newExtractor(baseURL, model, key string) (extract.Extractor, *llm.Accountant, error) {
	if baseURL == "" {
		return rules.New(), nil, nil
	}
	acct := llm.NewAccountant()
	c, err := llm.New(llm.Config{BaseURL: baseURL, Model: model, APIKey: key, Accountant: acct})
	if err != nil {
		return nil, nil, err
	}
	return llmextract.New(c), acct, nil
}

// windows groups a conversation's turns as the service does: consecutive turns of one session up to the
// token budget.
func windows(turns []event.TurnAcceptedV1, budget int) []extract.Window {
	counter := tokens.Default()
	var out []extract.Window
	size := 0
	for _, t := range turns {
		n := counter.Count(t.Content) + 12
		if len(out) == 0 || out[len(out)-1].SessionID != t.SessionID || size+n > budget {
			out = append(out, extract.Window{Workspace: t.Workspace, SessionID: t.SessionID})
			size = 0
		}
		out[len(out)-1].Turns = append(out[len(out)-1].Turns, t)
		size += n
	}
	return out
}

func run(ctx context.Context, ex extract.Extractor, acct *llm.Accountant, data, out string, repeat, samples, windowTokens int, stdout, stderr io.Writer) error {
	b, err := os.ReadFile(data)
	if err != nil {
		return fmt.Errorf("read LoCoMo data: %w (pass -data ../shared/data/locomo/locomo_conv0-6.json relative to the repository root)", err)
	}
	var conv []sample
	if err := json.Unmarshal(b, &conv); err != nil {
		return fmt.Errorf("decode %s: %w", data, err)
	}
	if len(conv) == 0 {
		return errors.New("no conversations in " + data)
	}
	repeat = max(repeat, 1)
	if acct != nil {
		// LLM calls cost money and time: one pass only.
		repeat = 1
	}
	res := Results{Data: data, Extractor: ex.Name(), ExtractorVersion: ex.Version(), Repeat: repeat, GeneratedAt: time.Now().UTC()}
	total := Stats{Conversation: "total"}
	printed := 0
	for _, s := range conv {
		turns, nSessions, err := turnsOf(s)
		if err != nil {
			return err
		}
		ev := evidenceOf(s)
		st := Stats{Conversation: s.SampleID, Sessions: nSessions, Turns: len(turns)}
		var byTurn map[string][]extract.Claim
		best := time.Duration(1<<63 - 1)
		for range repeat {
			start := time.Now()
			byTurn = make(map[string][]extract.Claim, len(turns))
			for _, w := range windows(turns, windowTokens) {
				r, err := ex.Extract(ctx, w)
				if err != nil {
					return err
				}
				for _, c := range r.Claims {
					byTurn[c.TurnIDs[0]] = append(byTurn[c.TurnIDs[0]], c)
				}
			}
			best = min(best, time.Since(start))
		}
		st.Seconds = best.Seconds()
		for _, t := range turns {
			cs := byTurn[t.TurnID]
			structured := 0
			for _, c := range cs {
				st.Claims++
				if c.Fallback {
					st.FallbackClaims++
				} else {
					structured++
					st.StructuredClaims++
				}
				if c.Functional {
					st.FunctionalClaims++
				}
			}
			if len(cs) > 0 {
				st.TurnsWithClaim++
			}
			if ev[t.TurnID] {
				st.EvidenceTurns++
				if structured > 0 {
					st.EvidenceStructure++
				}
				if len(cs) > 0 {
					st.EvidenceAny++
				}
				if printed < samples {
					printed++
					fmt.Fprintf(stderr, "%s %s: %s\n", t.TurnID, t.Speaker, t.Content)
					for _, c := range cs {
						fmt.Fprintf(stderr, "    [%s | %s | %s] fallback=%v functional=%v: %s\n", c.SubjectKey, c.PredicateKey, c.Object, c.Fallback, c.Functional, c.Text)
					}
				}
			}
		}
		finish(&st)
		res.Conversations = append(res.Conversations, st)
		total.Sessions += st.Sessions
		total.Turns += st.Turns
		total.Claims += st.Claims
		total.StructuredClaims += st.StructuredClaims
		total.FallbackClaims += st.FallbackClaims
		total.FunctionalClaims += st.FunctionalClaims
		total.TurnsWithClaim += st.TurnsWithClaim
		total.EvidenceTurns += st.EvidenceTurns
		total.EvidenceStructure += st.EvidenceStructure
		total.EvidenceAny += st.EvidenceAny
		total.Seconds += st.Seconds
	}
	finish(&total)
	res.Total = total
	if acct != nil {
		u := acct.Stage(llmextract.Stage)
		res.Usage = &u
	}
	printTable(stdout, res)
	if out != "" {
		jb, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(out, append(jb, '\n'), 0o644); err != nil {
			return fmt.Errorf("write %s: %w", out, err)
		}
	}
	return nil
}

func finish(s *Stats) {
	if s.Turns > 0 {
		s.ClaimsPerTurn = float64(s.Claims) / float64(s.Turns)
	}
	if s.EvidenceTurns > 0 {
		s.ShareStructured = float64(s.EvidenceStructure) / float64(s.EvidenceTurns)
		s.ShareAny = float64(s.EvidenceAny) / float64(s.EvidenceTurns)
	}
	if s.Seconds > 0 {
		s.TurnsPerSecond = float64(s.Turns) / s.Seconds
	}
}

func printTable(w io.Writer, r Results) {
	fmt.Fprintf(w, "Extraction on LoCoMo (%s, extractor %s %s, best of %d runs, one goroutine)\n\n", r.Data, r.Extractor, r.ExtractorVersion, r.Repeat)
	fmt.Fprintln(w, "| conversation | sessions | turns | claims | structured | fallback | functional | claims/turn | evidence turns | evidence with ≥1 structured claim | evidence with ≥1 claim | turns/s |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	row := func(s Stats) {
		fmt.Fprintf(w, "| %s | %d | %d | %d | %d | %d | %d | %.2f | %d | %.1f%% | %.1f%% | %.0f |\n",
			s.Conversation, s.Sessions, s.Turns, s.Claims, s.StructuredClaims, s.FallbackClaims, s.FunctionalClaims,
			s.ClaimsPerTurn, s.EvidenceTurns, 100*s.ShareStructured, 100*s.ShareAny, s.TurnsPerSecond)
	}
	for _, s := range r.Conversations {
		row(s)
	}
	t := r.Total
	t.Conversation = fmt.Sprintf("**all %d**", len(r.Conversations))
	row(t)
	if r.Usage != nil {
		fmt.Fprintf(w, "\nLLM usage (stage extract): %d calls, %d retries, %d prompt + %d completion tokens\n",
			r.Usage.Calls, r.Usage.Retries, r.Usage.PromptTokens, r.Usage.CompletionTokens)
	}
}
