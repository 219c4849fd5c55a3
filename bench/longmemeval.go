package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// lmeEntry is one LongMemEval question with its own haystack (longmemeval_s.json, _m.json, _oracle.json).
type lmeEntry struct {
	QuestionID         string          `json:"question_id"`
	QuestionType       string          `json:"question_type"`
	Question           string          `json:"question"`
	Answer             json.RawMessage `json:"answer"`
	QuestionDate       string          `json:"question_date"`
	HaystackSessionIDs []string        `json:"haystack_session_ids"`
	HaystackDates      []string        `json:"haystack_dates"`
	HaystackSessions   [][]struct {
		Role      string `json:"role"`
		Content   string `json:"content"`
		HasAnswer bool   `json:"has_answer"`
	} `json:"haystack_sessions"`
	AnswerSessionIDs []string `json:"answer_session_ids"`
}

// LoadLongMemEval reads the LongMemEval format: a JSON list of questions, each with its own haystack of dated
// sessions. Every question is its own conversation (named by question_id); turn ids are
// "<session id>:<turn index>"; the evidence is the turns marked has_answer (or, when an answer session marks
// none, that session's user turns). Question ids ending in "_abs" are abstention questions.
func LoadLongMemEval(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var entries []lmeEntry
	if err := json.Unmarshal(b, &entries); err != nil {
		return nil, fmt.Errorf("longmemeval: %s: %w", path, err)
	}
	d := &Dataset{Bench: LongMemEval, Source: path}
	for ei, e := range entries {
		if e.QuestionID == "" {
			return nil, fmt.Errorf("longmemeval: %s entry %d: no question_id", path, ei)
		}
		if len(e.HaystackSessions) != len(e.HaystackSessionIDs) {
			return nil, fmt.Errorf("longmemeval: %s %s: %d haystack_sessions but %d haystack_session_ids", path, e.QuestionID, len(e.HaystackSessions), len(e.HaystackSessionIDs))
		}
		conv := &Conversation{ID: e.QuestionID, Speakers: []string{"user", "assistant"}}
		answerSession := map[string]bool{}
		for _, s := range e.AnswerSessionIDs {
			answerSession[s] = true
		}
		var evidence, fallback []string
		var prev time.Time
		var seq int64
		for si, turns := range e.HaystackSessions {
			sid := e.HaystackSessionIDs[si]
			s := Session{ID: sid}
			start := prev
			if si < len(e.HaystackDates) {
				s.DateText = e.HaystackDates[si]
				if t, err := ParseLongMemEvalDate(s.DateText); err == nil {
					start = t
				}
			}
			marked := false
			for ti, t := range turns {
				at := start.Add(time.Duration(ti) * time.Second)
				if !at.After(prev) {
					at = prev.Add(time.Second)
				}
				prev = at
				seq++
				role := t.Role
				if role != "assistant" {
					role = "user"
				}
				id := sid + ":" + strconv.Itoa(ti)
				s.Turns = append(s.Turns, Turn{ID: id, Speaker: role, Role: role, Content: t.Content, Time: at, Seq: seq})
				if t.HasAnswer {
					evidence = append(evidence, id)
					marked = true
				}
				if answerSession[sid] && role == "user" {
					fallback = append(fallback, id)
				}
			}
			if answerSession[sid] && !marked {
				evidence = append(evidence, fallback...)
			}
			fallback = nil
			conv.Sessions = append(conv.Sessions, s)
		}
		d.Conversations = append(d.Conversations, conv)
		q := &Question{
			ID: e.QuestionID, ConversationID: conv.ID, Text: e.Question, Category: e.QuestionType,
			Evidence: sortedUnique(evidence), Abstention: strings.HasSuffix(e.QuestionID, "_abs"),
		}
		if g := rawAnswer(e.Answer); g != "" {
			q.Golds = []string{g}
		}
		if e.QuestionDate != "" {
			if t, err := ParseLongMemEvalDate(e.QuestionDate); err == nil {
				q.Date = &t
			}
		}
		d.Questions = append(d.Questions, q)
	}
	return d, nil
}

// ParseLongMemEvalDate parses LongMemEval's dates ("2023/05/20 (Sat) 02:21") as UTC.
func ParseLongMemEvalDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"2006/01/02 (Mon) 15:04", "2006/01/02 15:04", "2006/01/02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognised LongMemEval date %q (expected e.g. \"2023/05/20 (Sat) 02:21\")", s)
}

// Load reads a benchmark's data from path (a file, or for BEAM a directory).
func Load(bench, path string) (*Dataset, error) {
	switch bench {
	case FactConsolidation:
		return LoadFactConsolidation(path)
	case LoCoMo:
		return LoadLoCoMo(path)
	case BEAM:
		return LoadBEAM(path)
	case LongMemEval:
		return LoadLongMemEval(path)
	case ConvUpdates:
		return LoadConvUpdates(path)
	}
	return nil, fmt.Errorf("unknown benchmark %q: use one of %s", bench, strings.Join(Benchmarks, ", "))
}

// DefaultData returns the shipped data of a benchmark under the shared data directory (../shared/data relative
// to the repository root), or "" when none is shipped (LongMemEval).
func DefaultData(bench, sharedData string) string {
	switch bench {
	case FactConsolidation:
		return sharedData + "/memoryagentbench/factconsolidation_6k.json"
	case LoCoMo:
		return sharedData + "/locomo/locomo_conv0-6.json"
	case BEAM:
		return sharedData + "/beam/100K"
	}
	return ""
}
