// Package bench is Mneme's evaluation harness: loaders for the published benchmark formats
// (MemoryAgentBench FactConsolidation, LoCoMo, BEAM, LongMemEval), the systems compared (Mneme through its
// public HTTP API, Mneme with resolution off, a chunked BM25+dense RAG baseline and the full history), the
// metrics of each benchmark, resumable JSONL results, and the Markdown report with its plots.
//
// cmd/mneme-bench wires it; docs/benchmarks.md describes the protocol and the figures.
package bench

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Benchmark names.
const (
	FactConsolidation = "factconsolidation"
	LoCoMo            = "locomo"
	BEAM              = "beam"
	LongMemEval       = "longmemeval"
)

// Benchmarks lists the supported benchmarks in report order.
var Benchmarks = []string{FactConsolidation, LoCoMo, BEAM, LongMemEval, ConvUpdates}

// Dataset is one benchmark's data in the harness's common shape: the histories to ingest and the questions
// asked about them.
type Dataset struct {
	Bench string
	// Source is the file or directory it was read from.
	Source        string
	Conversations []*Conversation
	Questions     []*Question
}

// Conversation is one history a memory system ingests before its questions are asked.
type Conversation struct {
	// ID is unique within the dataset (e.g. "conv-26", a BEAM chat directory name, a LongMemEval question id).
	ID       string
	Speakers []string
	Sessions []Session
}

// Session is a run of turns that share a date (a LoCoMo session, a BEAM batch, a LongMemEval haystack session).
type Session struct {
	ID string
	// DateText is the session's date as the data states it (empty when it has none).
	DateText string
	Turns    []Turn
}

// Turn is one utterance (or one numbered fact).
type Turn struct {
	// ID is the source's own id (LoCoMo dia_id, BEAM message id, "fact-N"); evidence refers to it and Mneme
	// keeps it as the turn id, so claim provenance leads back to it.
	ID      string
	Speaker string
	// Role is user or assistant (LoCoMo's two human speakers are both users).
	Role    string
	Content string
	// Time is the valid time of the utterance: the session date plus the turn's offset, strictly increasing
	// within a conversation so "later" in the source is "later" in valid time.
	Time time.Time
	// Seq is the turn's ordinal within its conversation (FactConsolidation: the fact number).
	Seq int64
}

// Question is one benchmark question about one conversation.
type Question struct {
	// ID is unique within the dataset.
	ID             string
	ConversationID string
	Text           string
	// Golds are the accepted answers (empty for unanswerable questions).
	Golds []string
	// Row names the published row the question came from where the data has rows (FactConsolidation
	// metadata.source, e.g. "factconsolidation_sh_6k"), for per-row tables.
	Row string
	// Category is the benchmark's question class: FactConsolidation "single-hop"/"multi-hop", LoCoMo
	// "single-hop"/"multi-hop"/"temporal"/"open-domain"/"adversarial", the BEAM ability, the LongMemEval
	// question type.
	Category string
	// Evidence lists the turn ids the answer rests on (LoCoMo evidence, BEAM source_chat_ids, LongMemEval
	// has_answer turns), sorted.
	Evidence []string
	// EvidenceGroups splits Evidence by role where the benchmark does (BEAM knowledge_update:
	// original_info/updated_info; contradiction_resolution: first_statement/second_statement).
	EvidenceGroups map[string][]string
	// Conflicted is set for FactConsolidation: whether a fact the answer depends on was overridden by a newer
	// one (nil when that could not be determined).
	Conflicted *bool
	// Stale lists the superseded values of the slots the answer depends on (FactConsolidation), or the
	// replaced values a current conversation-updates question must not be answered with.
	Stale []string
	// Asker is the person the question is asked for, whom its "I" and "my" name (conversation updates: the
	// dialog's user, who talks to the assistant); empty where the data's questions name their people.
	Asker string
	// Chain is the reconstruction of a FactConsolidation answer: the fact numbers of each hop, in order.
	Chain []int64
	// OverriddenChain is the chain of a FactConsolidation gold that only follows overridden facts (GoldNote
	// says which); Chain stays empty then.
	OverriddenChain []int64
	// GoldNote flags a gold answer at odds with the benchmark's own rule (FactConsolidation: a gold that only
	// follows from overridden facts).
	GoldNote string
	// StaleTurns maps each hop's fact turn ("fact-N") to the turns of the older facts it overrides.
	StaleTurns map[string][]string
	// Rubric is BEAM's list of judge criteria.
	Rubric []string
	// Date is when the question is asked (LongMemEval question_date), if given.
	Date *time.Time
	// Abstention marks a question whose correct answer is that the history does not say.
	Abstention bool
	// Attribute is what a conversation-updates question asks about (employer, city, pet, ...).
	Attribute string
	// AllOf, when set, are values an answer must all contain (a list answer: both cats' names).
	AllOf []string
	// Reject are phrases that make an answer wrong even when it contains a gold ("not vegetarian").
	Reject []string
	// About names the subject of a conversation-updates question whose stale value another subject still
	// holds: only context lines that mention it can present the stale value as current.
	About []string
}

// Conversation returns the conversation with the given id, or nil.
func (d *Dataset) Conversation(id string) *Conversation {
	for _, c := range d.Conversations {
		if c.ID == id {
			return c
		}
	}
	return nil
}

// Limit keeps the first n questions in dataset order (n <= 0 keeps all) and the conversations they need.
func (d *Dataset) Limit(n int) {
	if n > 0 && n < len(d.Questions) {
		d.Questions = d.Questions[:n]
	}
	need := map[string]bool{}
	for _, q := range d.Questions {
		need[q.ConversationID] = true
	}
	d.Conversations = slices.DeleteFunc(d.Conversations, func(c *Conversation) bool { return !need[c.ID] })
}

// KeepCategories keeps only the questions of the given categories (none given keeps all), and the
// conversations they need.
func (d *Dataset) KeepCategories(cats []string) {
	if len(cats) == 0 {
		return
	}
	d.Questions = slices.DeleteFunc(d.Questions, func(q *Question) bool { return !slices.Contains(cats, q.Category) })
	d.Limit(0)
}

// LimitPerConversation keeps at most n questions per conversation (n <= 0 keeps all), evenly spaced through
// the conversation's questions in dataset order, so a subset still covers every conversation and, where the
// published order groups questions by category, every category.
func (d *Dataset) LimitPerConversation(n int) {
	if n <= 0 {
		return
	}
	byConv := map[string][]*Question{}
	for _, q := range d.Questions {
		byConv[q.ConversationID] = append(byConv[q.ConversationID], q)
	}
	keep := map[*Question]bool{}
	for _, qs := range byConv {
		if len(qs) <= n {
			for _, q := range qs {
				keep[q] = true
			}
			continue
		}
		for i := 0; i < n; i++ {
			keep[qs[i*len(qs)/n]] = true
		}
	}
	d.Questions = slices.DeleteFunc(d.Questions, func(q *Question) bool { return !keep[q] })
}

// Turns returns every turn of the conversation in order.
func (c *Conversation) Turns() []Turn {
	var out []Turn
	for _, s := range c.Sessions {
		out = append(out, s.Turns...)
	}
	return out
}

// TurnCount is the number of turns of the conversation.
func (c *Conversation) TurnCount() int {
	n := 0
	for _, s := range c.Sessions {
		n += len(s.Turns)
	}
	return n
}

// RenderTurn is how a raw turn appears in the contexts of the raw-history systems (chunk-rag, full-context):
// the speaker and the text, on one line.
func RenderTurn(t Turn) string {
	content := strings.Join(strings.Fields(t.Content), " ")
	if t.Speaker == "" {
		return content
	}
	return t.Speaker + ": " + content
}

// RenderSessionHeader is the line that opens a session in a raw-history context.
func RenderSessionHeader(s Session) string {
	if s.DateText == "" {
		return "[" + s.ID + "]"
	}
	return "[" + s.ID + ", " + s.DateText + "]"
}

// RenderHistory is the whole history as the full-context system shows it: session headers and turn lines.
func RenderHistory(c *Conversation) string {
	var b strings.Builder
	for _, s := range c.Sessions {
		b.WriteString(RenderSessionHeader(s))
		b.WriteByte('\n')
		for _, t := range s.Turns {
			b.WriteString(RenderTurn(t))
			b.WriteByte('\n')
		}
	}
	return b.String()
}

var wsUnsafe = regexp.MustCompile(`[^a-z0-9_-]+`)

// Workspace returns the Mneme workspace a conversation is ingested into: a valid workspace id derived from
// the benchmark, a run tag and the conversation id (one workspace per conversation keeps turn ids unique and
// conversations from seeing each other).
func Workspace(bench, tag, conv string) string {
	s := strings.ToLower(bench + "-" + tag + "-" + conv)
	s = wsUnsafe.ReplaceAllString(s, "-")
	s = strings.Trim(s, "-_")
	if len(s) > 63 {
		s = s[:63]
	}
	return s
}

// Validate checks the dataset's internal consistency: unique ids, every question's conversation present,
// evidence referring to known turns (unknown evidence ids are dropped and reported, as the published data
// has a few malformed ones).
func (d *Dataset) Validate() (warnings []string, err error) {
	convs := map[string]map[string]bool{}
	for _, c := range d.Conversations {
		if _, dup := convs[c.ID]; dup {
			return nil, fmt.Errorf("%s: conversation %q appears twice", d.Bench, c.ID)
		}
		ids := map[string]bool{}
		for _, t := range c.Turns() {
			if ids[t.ID] {
				return nil, fmt.Errorf("%s: conversation %q: turn id %q appears twice", d.Bench, c.ID, t.ID)
			}
			ids[t.ID] = true
		}
		convs[c.ID] = ids
	}
	qids := map[string]bool{}
	for _, q := range d.Questions {
		if qids[q.ID] {
			return nil, fmt.Errorf("%s: question id %q appears twice", d.Bench, q.ID)
		}
		qids[q.ID] = true
		ids, ok := convs[q.ConversationID]
		if !ok {
			return nil, fmt.Errorf("%s: question %q refers to unknown conversation %q", d.Bench, q.ID, q.ConversationID)
		}
		keep := func(list []string) []string {
			return slices.DeleteFunc(list, func(e string) bool {
				if !ids[e] {
					warnings = append(warnings, fmt.Sprintf("question %s: evidence %q is not a turn of %s; ignored", q.ID, e, q.ConversationID))
					return true
				}
				return false
			})
		}
		q.Evidence = keep(q.Evidence)
		for k, g := range q.EvidenceGroups {
			q.EvidenceGroups[k] = keep(g)
		}
	}
	return warnings, nil
}

// sortedUnique returns the distinct non-empty strings of ss, sorted.
func sortedUnique(ss []string) []string {
	out := slices.DeleteFunc(slices.Clone(ss), func(s string) bool { return s == "" })
	slices.Sort(out)
	return slices.Compact(out)
}
