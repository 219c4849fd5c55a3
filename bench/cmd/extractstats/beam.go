package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/bench"
	"github.com/mneme-ai/mneme/bench/beam"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// BEAM is read by the evaluation harness's loader (bench.LoadBEAM), so extraction sees the turns exactly as the
// harness ingests them: a batch is a session, the speaker is the role, a time anchor dates the messages that
// follow it, and each message keeps its id (source_chat_ids refer to it).

// beamAbilities are the abilities whose source messages hold the facts extraction must not miss: the
// original and updated value of a knowledge update, both statements of a contradiction.
var beamAbilities = []string{"knowledge_update", "contradiction_resolution"}

// BEAMGroup is the coverage of one group of source messages (an ability's original_info, updated_info, ...).
type BEAMGroup struct {
	Ability string `json:"ability"`
	Group   string `json:"group"`
	// Sources counts (question, source message) pairs; a message two questions rest on counts twice.
	Sources    int `json:"sources"`
	User       int `json:"user_sources"`
	Any        int `json:"with_any_claim"`
	Structured int `json:"with_structured_claim"`
	// ValueSources counts knowledge-update sources whose message holds the numbers of the gold answer;
	// ValueInClaim those where some claim of the message states all of them.
	ValueSources int `json:"value_sources,omitempty"`
	ValueInClaim int `json:"value_in_claim,omitempty"`
}

// BEAMResults is the JSON written with -beam and -out.
type BEAMResults struct {
	Data             string      `json:"data"`
	Extractor        string      `json:"extractor"`
	ExtractorVersion string      `json:"extractor_version"`
	GeneratedAt      time.Time   `json:"generated_at"`
	Conversations    int         `json:"conversations"`
	Messages         int         `json:"messages"`
	Claims           int         `json:"claims"`
	Groups           []BEAMGroup `json:"groups"`
}

// beamTurns converts one conversation of the harness's loader into accepted turns, with the session ids and
// ordinals the harness gives them (bench.TurnInputs); turn ids are "<conversation>:<message id>".
func beamTurns(conv *bench.Conversation) []event.TurnAcceptedV1 {
	var out []event.TurnAcceptedV1
	for _, s := range conv.Sessions {
		for _, t := range s.Turns {
			seq := t.Seq
			out = append(out, event.TurnAcceptedV1{
				Workspace: "beam", TurnID: conv.ID + ":" + t.ID, AgentID: "beam",
				SessionID: conv.ID + "/" + s.ID, Role: t.Role, Speaker: t.Speaker, Content: t.Content,
				OccurredAt: t.Time, ReceivedAt: t.Time, Sequence: &seq, Scope: event.ScopeShared,
			})
		}
	}
	return out
}

// beamSourceGroups reads source_chat_ids as named groups of message ids ({"original_info": [86], ...});
// a plain list becomes the group "sources".
func beamSourceGroups(raw json.RawMessage) (map[string][]string, error) {
	all, groups, err := beam.SourceIDs(raw)
	if err != nil || groups != nil || all == nil {
		return groups, err
	}
	return map[string][]string{"sources": all}, nil
}

var reNumber = regexp.MustCompile(`\d[\d,]*(?:\.\d+)?`)

// numbers returns the numbers written in s, thousands separators dropped ("1,200" → "1200").
func numbers(s string) []string {
	var out []string
	for _, n := range reNumber.FindAllString(s, -1) {
		out = append(out, strings.TrimRight(strings.ReplaceAll(n, ",", ""), "."))
	}
	return out
}

// runBEAM extracts every BEAM chat under dir and reports, for the knowledge-update and
// contradiction-resolution probes, how many source messages yield at least one claim. With samples > 0 it
// prints the user source messages that yield no structured claim, or whose claims miss the gold answer's
// numbers (up to samples of them), to stderr.
func runBEAM(ctx context.Context, ex extract.Extractor, dir, out string, samples, windowTokens int, stdout, stderr io.Writer) error {
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("read BEAM directory: %w (pass -beam ../shared/data/beam/100K relative to the repository root)", err)
	}
	data, err := bench.LoadBEAM(dir)
	if err != nil {
		return err
	}
	questions := map[string][]*bench.Question{}
	for _, q := range data.Questions {
		questions[q.ConversationID] = append(questions[q.ConversationID], q)
	}
	res := BEAMResults{Data: dir, Extractor: ex.Name(), ExtractorVersion: ex.Version(), GeneratedAt: time.Now().UTC(), Conversations: len(data.Conversations)}
	groups := map[string]*BEAMGroup{}
	var order []string
	printed := 0
	for _, conv := range data.Conversations {
		id := conv.ID
		turns := beamTurns(conv)
		res.Messages += len(turns)
		byTurn := map[string][]extract.Claim{}
		for _, w := range windows(turns, windowTokens) {
			r, err := ex.Extract(ctx, w)
			if err != nil {
				return err
			}
			for _, c := range r.Claims {
				byTurn[c.TurnIDs[0]] = append(byTurn[c.TurnIDs[0]], c)
				res.Claims++
			}
		}
		turnByID := map[string]event.TurnAcceptedV1{}
		for _, t := range turns {
			turnByID[t.TurnID] = t
		}
		for _, ability := range beamAbilities {
			qi := -1
			for _, p := range questions[id] {
				if p.Category != ability {
					continue
				}
				qi++
				gs := p.EvidenceGroups
				if gs == nil && p.Evidence != nil {
					gs = map[string][]string{"sources": p.Evidence}
				}
				gold := ""
				if len(p.Golds) > 0 {
					gold = p.Golds[0]
				}
				names := make([]string, 0, len(gs))
				for g := range gs {
					names = append(names, g)
				}
				slices.Sort(names)
				for _, g := range names {
					key := ability + "\x00" + g
					st := groups[key]
					if st == nil {
						st = &BEAMGroup{Ability: ability, Group: g}
						groups[key] = st
						order = append(order, key)
					}
					for _, mid := range gs[g] {
						tid := id + ":" + mid
						t, ok := turnByID[tid]
						if !ok {
							continue
						}
						st.Sources++
						if t.Role == "user" {
							st.User++
						}
						cs := byTurn[tid]
						structured := 0
						for _, c := range cs {
							if !c.Fallback {
								structured++
							}
						}
						if len(cs) > 0 {
							st.Any++
						}
						if structured > 0 {
							st.Structured++
						}
						valueMissed := false
						if ability == "knowledge_update" {
							valueMissed = valueStats(st, gold, t.Content, cs) == valueNotStated
						}
						if (structured == 0 || valueMissed) && t.Role == "user" && printed < samples {
							printed++
							fmt.Fprintf(stderr, "=== %s %s[%d] %s message %s: %s\n%s\n", id, ability, qi, g, mid, p.Text, t.Content)
							for _, c := range cs {
								fmt.Fprintf(stderr, "    [%s | %s | %s] fallback=%v: %s\n", c.SubjectKey, c.PredicateKey, c.Object, c.Fallback, c.Text)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(order)
	for _, k := range order {
		res.Groups = append(res.Groups, *groups[k])
	}
	printBEAM(stdout, res)
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

type valueOutcome int

const (
	valueAbsent valueOutcome = iota
	valueNotStated
	valueStated
)

// valueStats counts a knowledge-update source whose message writes the numbers of the gold answer, and
// whether one claim of the message states all of them: a proxy for "the fact was extracted", since a long
// message yields some claim whatever it says.
func valueStats(st *BEAMGroup, answer, content string, cs []extract.Claim) valueOutcome {
	want := numbers(answer)
	if len(want) == 0 {
		return valueAbsent
	}
	have := map[string]bool{}
	for _, n := range numbers(content) {
		have[n] = true
	}
	for _, n := range want {
		if !have[n] {
			return valueAbsent
		}
	}
	st.ValueSources++
	for _, c := range cs {
		got := map[string]bool{}
		for _, n := range numbers(c.Text) {
			got[n] = true
		}
		all := true
		for _, n := range want {
			all = all && got[n]
		}
		if all {
			st.ValueInClaim++
			return valueStated
		}
	}
	return valueNotStated
}

func pct(n, d int) string {
	if d == 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(d))
}

func printBEAM(w io.Writer, r BEAMResults) {
	fmt.Fprintf(w, "Extraction of BEAM source messages (%s, extractor %s %s; %d chats, %d messages, %d claims)\n\n",
		r.Data, r.Extractor, r.ExtractorVersion, r.Conversations, r.Messages, r.Claims)
	fmt.Fprintln(w, "| ability | source group | sources | user messages | ≥1 claim | ≥1 structured claim | gold numbers in message | … stated by one claim |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---:|---:|")
	var tot BEAMGroup
	for _, g := range r.Groups {
		fmt.Fprintf(w, "| %s | %s | %d | %d | %s | %s | %d | %s |\n", g.Ability, g.Group, g.Sources, g.User,
			pct(g.Any, g.Sources), pct(g.Structured, g.Sources), g.ValueSources, pct(g.ValueInClaim, g.ValueSources))
		tot.Sources += g.Sources
		tot.User += g.User
		tot.Any += g.Any
		tot.Structured += g.Structured
		tot.ValueSources += g.ValueSources
		tot.ValueInClaim += g.ValueInClaim
	}
	fmt.Fprintf(w, "| **all** | | %d | %d | %s | %s | %d | %s |\n", tot.Sources, tot.User,
		pct(tot.Any, tot.Sources), pct(tot.Structured, tot.Sources), tot.ValueSources, pct(tot.ValueInClaim, tot.ValueSources))
}
