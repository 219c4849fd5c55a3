package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// LoCoMo question categories (the mapping of the official task_eval/evaluation.py).
var locomoCategories = map[int]string{
	1: "multi-hop",
	2: "temporal",
	3: "open-domain",
	4: "single-hop",
	5: "adversarial",
}

type locomoSample struct {
	SampleID     string                     `json:"sample_id"`
	Conversation map[string]json.RawMessage `json:"conversation"`
	QA           []struct {
		Question          string          `json:"question"`
		Answer            json.RawMessage `json:"answer"`
		AdversarialAnswer json.RawMessage `json:"adversarial_answer"`
		Evidence          []string        `json:"evidence"`
		Category          int             `json:"category"`
	} `json:"qa"`
}

type locomoTurn struct {
	Speaker     string `json:"speaker"`
	DiaID       string `json:"dia_id"`
	Text        string `json:"text"`
	BlipCaption string `json:"blip_caption"`
}

var (
	locomoSessionKey = regexp.MustCompile(`^session_(\d+)$`)
	locomoEvidence   = regexp.MustCompile(`D:?(\d+):(\d+)`)
)

// LoadLoCoMo reads the LoCoMo format (a JSON list of samples {sample_id, conversation, qa, ...}). Each sample
// is a conversation; its sessions keep their dates; every turn keeps its dia_id as turn id, with the image
// caption appended when the turn shared an image. Category 5 (adversarial) questions have no gold answer and
// are marked abstention. Malformed evidence ids in the published file ("D8:6; D9:17", "D:11:26") are repaired.
func LoadLoCoMo(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var samples []locomoSample
	if err := json.Unmarshal(b, &samples); err != nil {
		return nil, fmt.Errorf("locomo: %s: %w", path, err)
	}
	d := &Dataset{Bench: LoCoMo, Source: path}
	for si, s := range samples {
		id := s.SampleID
		if id == "" {
			id = "sample-" + strconv.Itoa(si)
		}
		conv, err := locomoConversation(id, s.Conversation)
		if err != nil {
			return nil, fmt.Errorf("locomo: %s: %w", path, err)
		}
		d.Conversations = append(d.Conversations, conv)
		for qi, qa := range s.QA {
			q := &Question{
				ID: fmt.Sprintf("%s-q%03d", id, qi), ConversationID: id, Text: qa.Question,
				Category: locomoCategories[qa.Category],
			}
			if q.Category == "" {
				q.Category = "category-" + strconv.Itoa(qa.Category)
			}
			if g := rawAnswer(qa.Answer); g != "" {
				q.Golds = []string{g}
			}
			if qa.Category == 5 {
				q.Abstention = true
				q.Golds = nil
			}
			var ev []string
			for _, e := range qa.Evidence {
				for _, m := range locomoEvidence.FindAllStringSubmatch(e, -1) {
					ev = append(ev, "D"+m[1]+":"+m[2])
				}
			}
			q.Evidence = sortedUnique(ev)
			d.Questions = append(d.Questions, q)
		}
	}
	return d, nil
}

// rawAnswer turns a JSON answer (a string, or a number in a few items) into text.
func rawAnswer(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return strings.TrimSpace(s)
	}
	return strings.TrimSpace(string(raw))
}

func locomoConversation(id string, c map[string]json.RawMessage) (*Conversation, error) {
	conv := &Conversation{ID: id}
	for _, k := range []string{"speaker_a", "speaker_b"} {
		var name string
		if raw, ok := c[k]; ok && json.Unmarshal(raw, &name) == nil && name != "" {
			conv.Speakers = append(conv.Speakers, name)
		}
	}
	var nums []int
	for k := range c {
		if m := locomoSessionKey.FindStringSubmatch(k); m != nil {
			n, _ := strconv.Atoi(m[1])
			nums = append(nums, n)
		}
	}
	slices.Sort(nums)
	var prev time.Time
	var seq int64
	for _, n := range nums {
		key := "session_" + strconv.Itoa(n)
		var turns []locomoTurn
		if err := json.Unmarshal(c[key], &turns); err != nil {
			return nil, fmt.Errorf("%s %s: %w", id, key, err)
		}
		var dateText string
		if raw, ok := c[key+"_date_time"]; ok {
			_ = json.Unmarshal(raw, &dateText)
		}
		start, err := ParseLoCoMoDate(dateText)
		if err != nil {
			return nil, fmt.Errorf("%s %s_date_time: %w", id, key, err)
		}
		s := Session{ID: "session " + strconv.Itoa(n), DateText: dateText}
		for i, t := range turns {
			content := t.Text
			if t.BlipCaption != "" {
				content += " [shares a photo: " + t.BlipCaption + "]"
			}
			// One second per turn keeps valid time strictly increasing in dialogue order, also across a session
			// whose stated date is not later than the previous one.
			at := start.Add(time.Duration(i) * time.Second)
			if !at.After(prev) {
				at = prev.Add(time.Second)
			}
			prev = at
			seq++
			s.Turns = append(s.Turns, Turn{ID: t.DiaID, Speaker: t.Speaker, Role: "user", Content: content, Time: at, Seq: seq})
		}
		conv.Sessions = append(conv.Sessions, s)
	}
	if len(conv.Sessions) == 0 {
		return nil, fmt.Errorf("%s: no sessions", id)
	}
	return conv, nil
}

// ParseLoCoMoDate parses LoCoMo's session dates ("1:56 pm on 8 May, 2023") as UTC.
func ParseLoCoMoDate(s string) (time.Time, error) {
	s = strings.TrimSpace(s)
	for _, layout := range []string{"3:04 pm on 2 January, 2006", "3:04 pm on 2 Jan, 2006", "3:04 PM on 2 January, 2006"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognised LoCoMo date %q (expected e.g. \"1:56 pm on 8 May, 2023\")", s)
}
