package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/bench/beam"
)

// BEAM abilities (the keys of probing_questions.json).
const (
	AbilityKnowledgeUpdate         = "knowledge_update"
	AbilityContradictionResolution = "contradiction_resolution"
	AbilityAbstention              = "abstention"
)

type beamMessage struct {
	Role       string `json:"role"`
	ID         *int64 `json:"id"`
	Content    string `json:"content"`
	TimeAnchor string `json:"time_anchor"`
	Index      string `json:"index"`
}

type beamBatch struct {
	BatchNumber int             `json:"batch_number"`
	TimeAnchor  *string         `json:"time_anchor"`
	Turns       [][]beamMessage `json:"turns"`
}

// beamProbe is one probing question; the gold field's name depends on the ability.
type beamProbe struct {
	Question           string          `json:"question"`
	Answer             json.RawMessage `json:"answer"`
	IdealAnswer        string          `json:"ideal_answer"`
	IdealResponse      string          `json:"ideal_response"`
	IdealSummary       string          `json:"ideal_summary"`
	ExpectedCompliance string          `json:"expected_compliance"`
	SourceChatIDs      json.RawMessage `json:"source_chat_ids"`
	Rubric             []string        `json:"rubric"`
}

// LoadBEAM reads BEAM conversations laid out as in its repository: a directory holding <id>/chat.json and
// <id>/probing_questions/probing_questions.json per conversation (or one such conversation directory).
// Messages keep their numeric id as turn id (source_chat_ids refer to it); a batch's time anchor dates its
// messages. Every probing question becomes a question whose category is its ability; source_chat_ids become
// its evidence, grouped by role for knowledge_update (original_info, updated_info), contradiction_resolution
// (first_statement, second_statement) and temporal_reasoning (first_event, second_event).
func LoadBEAM(dir string) (*Dataset, error) {
	d := &Dataset{Bench: BEAM, Source: dir}
	var ids []string
	if _, err := os.Stat(filepath.Join(dir, "chat.json")); err == nil {
		ids = []string{""}
	} else {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() {
				if _, err := os.Stat(filepath.Join(dir, e.Name(), "chat.json")); err == nil {
					ids = append(ids, e.Name())
				}
			}
		}
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("beam: %s holds no <id>/chat.json", dir)
	}
	// Numeric ids in numeric order ("2" before "10"), others after, by name.
	slices.SortFunc(ids, func(a, b string) int {
		na, ea := strconv.Atoi(a)
		nb, eb := strconv.Atoi(b)
		switch {
		case ea == nil && eb == nil:
			return na - nb
		case ea == nil:
			return -1
		case eb == nil:
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, id := range ids {
		cdir := filepath.Join(dir, id)
		convID := id
		if convID == "" {
			convID = filepath.Base(filepath.Clean(dir))
		}
		conv, err := loadBEAMChat(convID, filepath.Join(cdir, "chat.json"))
		if err != nil {
			return nil, err
		}
		d.Conversations = append(d.Conversations, conv)
		qs, err := loadBEAMProbes(convID, filepath.Join(cdir, "probing_questions", "probing_questions.json"))
		if err != nil {
			return nil, err
		}
		d.Questions = append(d.Questions, qs...)
	}
	return d, nil
}

// beamUser is the role and speaker of a chat's user messages, and the asker of its probing questions.
const beamUser = "user"

// beamEpoch dates messages of a chat whose batches carry no time anchor.
var beamEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func loadBEAMChat(id, path string) (*Conversation, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var batches []beamBatch
	if err := json.Unmarshal(b, &batches); err != nil {
		return nil, fmt.Errorf("beam: %s: %w", path, err)
	}
	conv := &Conversation{ID: id, Speakers: []string{"user", "assistant"}}
	var prev time.Time
	var seq int64
	anchor := beamEpoch
	for bi, batch := range batches {
		s := Session{ID: "batch " + strconv.Itoa(batch.BatchNumber)}
		if batch.BatchNumber == 0 {
			s.ID = "batch " + strconv.Itoa(bi+1)
		}
		if batch.TimeAnchor != nil && *batch.TimeAnchor != "" {
			if t, err := parseBEAMAnchor(*batch.TimeAnchor); err == nil {
				anchor = t
				s.DateText = *batch.TimeAnchor
			}
		}
		for _, pair := range batch.Turns {
			for _, m := range pair {
				if m.ID == nil {
					return nil, fmt.Errorf("beam: %s: a message of %s has no id", path, s.ID)
				}
				if m.TimeAnchor != "" {
					if t, err := parseBEAMAnchor(m.TimeAnchor); err == nil {
						anchor = t
						if s.DateText == "" {
							s.DateText = m.TimeAnchor
						}
					}
				}
				// Messages of one anchor day follow each other a minute apart; time never runs backwards.
				at := anchor
				if !at.After(prev) {
					at = prev.Add(time.Minute)
				}
				prev = at
				seq++
				role := m.Role
				if role != "assistant" {
					role = beamUser
				}
				s.Turns = append(s.Turns, Turn{
					ID: strconv.FormatInt(*m.ID, 10), Speaker: role, Role: role,
					Content: m.Content, Time: at, Seq: seq,
				})
			}
		}
		conv.Sessions = append(conv.Sessions, s)
	}
	return conv, nil
}

// parseBEAMAnchor parses BEAM's time anchors ("March-15-2024").
func parseBEAMAnchor(s string) (time.Time, error) {
	for _, layout := range []string{"January-02-2006", "January-2-2006", "Jan-02-2006", "2006-01-02"} {
		if t, err := time.Parse(layout, strings.TrimSpace(s)); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognised BEAM time anchor %q", s)
}

func loadBEAMProbes(convID, path string) ([]*Question, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var probes map[string][]beamProbe
	if err := json.Unmarshal(b, &probes); err != nil {
		return nil, fmt.Errorf("beam: %s: %w", path, err)
	}
	abilities := make([]string, 0, len(probes))
	for k := range probes {
		abilities = append(abilities, k)
	}
	slices.Sort(abilities)
	var out []*Question
	for _, ability := range abilities {
		for i, p := range probes[ability] {
			q := &Question{
				ID: fmt.Sprintf("beam-%s-%s-%d", convID, ability, i), ConversationID: convID,
				Text: p.Question, Category: ability, Rubric: p.Rubric,
				Abstention: ability == AbilityAbstention,
				// BEAM's questions are the chat's user asking about themselves ("Have I…", "my project"): their
				// "I" and "my" are the speaker the user's messages are sent as.
				Asker: beamUser,
			}
			for _, g := range []string{rawAnswer(p.Answer), p.IdealAnswer, p.IdealResponse, p.IdealSummary, p.ExpectedCompliance} {
				if g != "" {
					q.Golds = append(q.Golds, g)
					break
				}
			}
			ev, groups, err := beam.SourceIDs(p.SourceChatIDs)
			if err != nil {
				return nil, fmt.Errorf("beam: %s: %s[%d].source_chat_ids: %w", path, ability, i, err)
			}
			q.Evidence, q.EvidenceGroups = ev, groups
			out = append(out, q)
		}
	}
	return out, nil
}
