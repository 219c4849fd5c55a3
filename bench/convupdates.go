package bench

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/bench/factcons"
)

// ConvUpdates is the conversation-updates benchmark: short multi-session dialogs in which everyday
// attributes change, with questions on the current value, a past value and facts that never changed.
const ConvUpdates = "convupdates"

// Question kinds of the conversation-updates set (the Category of its questions).
const (
	// KindCurrent asks for the latest value of something that changed.
	KindCurrent = "current"
	// KindPast asks for a value that was replaced ("where did she live before Seattle?").
	KindPast = "past"
	// KindUnchanged asks for a fact stated once and never changed.
	KindUnchanged = "unchanged"
)

// ConvKinds lists the question kinds in report order.
var ConvKinds = []string{KindCurrent, KindPast, KindUnchanged}

// ConvAttributes are the attribute kinds a conversation-updates question may be tagged with.
var ConvAttributes = []string{"employer", "job_title", "manager", "city", "partner", "person", "pet", "budget",
	"price", "salary", "diet", "favourite", "plan", "date", "school", "car", "contact", "hobby", "possession"}

//go:embed convupdates/*.json
var convUpdatesData embed.FS

// convFile is the format of a conversation-updates file (convupdates/dev.json, convupdates/check.json).
type convFile struct {
	Pool        string       `json:"pool"`
	Description string       `json:"description,omitempty"`
	Dialogs     []convDialog `json:"dialogs"`
}

type convDialog struct {
	ID string `json:"id"`
	// User is the user's name: the speaker of the user turns.
	User      string         `json:"user"`
	Sessions  []convSession  `json:"sessions"`
	Questions []convQuestion `json:"questions"`
}

type convSession struct {
	// Date is the session's day (YYYY-MM-DD) or time (RFC 3339).
	Date  string     `json:"date"`
	Turns []convTurn `json:"turns"`
}

// convTurn is one utterance: exactly one of User and Assistant is set.
type convTurn struct {
	User      string `json:"user,omitempty"`
	Assistant string `json:"assistant,omitempty"`
}

type convQuestion struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	Attribute string `json:"attribute"`
	Question  string `json:"question"`
	// Answer is the gold; Accept lists other accepted forms.
	Answer string   `json:"answer"`
	Accept []string `json:"accept,omitempty"`
	// AllOf, when set, replaces the gold test: an answer must contain every one of them (list answers).
	AllOf []string `json:"all_of,omitempty"`
	// Stale lists the replaced values that must not be presented as current (current questions).
	Stale []string `json:"stale,omitempty"`
	// Reject lists phrases that make an answer wrong even when it contains the gold ("not vegetarian").
	Reject []string `json:"reject,omitempty"`
	// About names the question's subject: only context lines that mention one of these can present its
	// stale value as current (a line about someone or something else does not, and another person may
	// well still hold the value). Default: the user's first name when the question names the user.
	About []string `json:"about,omitempty"`
	// Note explains a gold that is not said literally (a relative date resolved).
	Note string `json:"note,omitempty"`
}

// Limits of a conversation-updates file: a small hand-written set, so anything larger is a mistake.
const (
	maxConvDialogs   = 10000
	maxConvTurnBytes = MaxTurnBytes
)

// LoadConvUpdatesPool reads the shipped conversation-updates dialogs of one pool.
func LoadConvUpdatesPool(pool Pool) (*Dataset, error) {
	if _, err := ParsePool(string(pool)); err != nil {
		return nil, fmt.Errorf("convupdates: %w", err)
	}
	if pool == PoolFresh || pool == PoolBlind || pool == PoolEveryday {
		return nil, fmt.Errorf("convupdates: pool %q holds FactConsolidation phrasings only; the dialogs have the pools dev and check", pool)
	}
	b, err := convUpdatesData.ReadFile("convupdates/" + string(pool) + ".json")
	if err != nil {
		return nil, err
	}
	return parseConvUpdates(b, "convupdates/"+string(pool)+".json (shipped)")
}

// LowerCaseUserTurns types every user turn of the dataset in lower case, as many people chat ("hey, so i work
// at deloitte now"): a variant of the dialogs that says the same things, for measuring whether what works on
// written text works on typed text. The assistant's turns and the questions stay as written. It returns the
// number of turns changed.
func LowerCaseUserTurns(d *Dataset) int {
	n := 0
	for _, c := range d.Conversations {
		for si := range c.Sessions {
			for ti := range c.Sessions[si].Turns {
				t := &c.Sessions[si].Turns[ti]
				if t.Role != "user" {
					continue
				}
				if low := strings.ToLower(t.Content); low != t.Content {
					t.Content = low
					n++
				}
			}
		}
	}
	return n
}

// LoadConvUpdates reads a conversation-updates file.
func LoadConvUpdates(path string) (*Dataset, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return parseConvUpdates(b, path)
}

// parseConvUpdates decodes and checks a conversation-updates file. Every error names the dialog and the
// field.
func parseConvUpdates(b []byte, source string) (*Dataset, error) {
	var f convFile
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("convupdates: %s: %w", source, err)
	}
	if len(f.Dialogs) == 0 {
		return nil, fmt.Errorf("convupdates: %s: no dialogs", source)
	}
	if len(f.Dialogs) > maxConvDialogs {
		return nil, fmt.Errorf("convupdates: %s: %d dialogs, at most %d", source, len(f.Dialogs), maxConvDialogs)
	}
	d := &Dataset{Bench: ConvUpdates, Source: source}
	for di, dl := range f.Dialogs {
		where := fmt.Sprintf("convupdates: %s: dialogs[%d]", source, di)
		conv, qs, err := convDialogData(dl)
		if err != nil {
			return nil, fmt.Errorf("%s (%q): %w", where, dl.ID, err)
		}
		d.Conversations = append(d.Conversations, conv)
		d.Questions = append(d.Questions, qs...)
	}
	return d, nil
}

func parseConvDate(s string) (time.Time, error) {
	if t, err := time.Parse("2006-01-02", s); err == nil {
		return t.Add(10 * time.Hour), nil // a day's sessions start at 10:00 UTC
	}
	return time.Parse(time.RFC3339, s)
}

func convDialogData(dl convDialog) (*Conversation, []*Question, error) {
	if strings.TrimSpace(dl.ID) == "" {
		return nil, nil, errors.New("id is empty")
	}
	if strings.TrimSpace(dl.User) == "" {
		return nil, nil, errors.New("user is empty")
	}
	if len(dl.Sessions) == 0 {
		return nil, nil, errors.New("sessions is empty")
	}
	conv := &Conversation{ID: dl.ID, Speakers: []string{dl.User, "Assistant"}}
	var last time.Time
	var seq int64
	var text strings.Builder
	for si, s := range dl.Sessions {
		at, err := parseConvDate(s.Date)
		if err != nil {
			return nil, nil, fmt.Errorf("sessions[%d].date %q: want YYYY-MM-DD or an RFC 3339 time", si, s.Date)
		}
		if !at.After(last) {
			return nil, nil, fmt.Errorf("sessions[%d].date %s: sessions must be in time order", si, s.Date)
		}
		if len(s.Turns) == 0 {
			return nil, nil, fmt.Errorf("sessions[%d].turns is empty", si)
		}
		sess := Session{ID: "session " + strconv.Itoa(si+1), DateText: at.Format("Mon 2 Jan 2006")}
		for ti, t := range s.Turns {
			field := fmt.Sprintf("sessions[%d].turns[%d]", si, ti)
			role, speaker, content := "user", dl.User, t.User
			if t.Assistant != "" {
				role, speaker, content = "assistant", "Assistant", t.Assistant
			}
			if (t.User == "") == (t.Assistant == "") {
				return nil, nil, fmt.Errorf("%s: exactly one of user and assistant must be set", field)
			}
			if len(content) > maxConvTurnBytes {
				return nil, nil, fmt.Errorf("%s: %d bytes, at most %d", field, len(content), maxConvTurnBytes)
			}
			seq++
			// Turns of a session are a minute apart, so "later" in the dialog is later in valid time.
			sess.Turns = append(sess.Turns, Turn{
				ID: fmt.Sprintf("S%d:%d", si+1, ti+1), Speaker: speaker, Role: role, Content: content,
				Time: at.Add(time.Duration(ti) * time.Minute), Seq: seq,
			})
			text.WriteString(content)
			text.WriteByte('\n')
		}
		last = at.Add(time.Duration(len(s.Turns)) * time.Minute)
		conv.Sessions = append(conv.Sessions, sess)
	}
	if len(dl.Questions) == 0 {
		return nil, nil, errors.New("questions is empty")
	}
	said := text.String()
	var qs []*Question
	ids := map[string]bool{}
	for qi, cq := range dl.Questions {
		field := fmt.Sprintf("questions[%d]", qi)
		if err := checkConvQuestion(cq, said); err != nil {
			return nil, nil, fmt.Errorf("%s (%q): %w", field, cq.ID, err)
		}
		if ids[cq.ID] {
			return nil, nil, fmt.Errorf("%s: id %q appears twice", field, cq.ID)
		}
		ids[cq.ID] = true
		if len(cq.About) == 0 && mentionsAny(cq.Question, []string{firstName(dl.User)}) {
			cq.About = []string{firstName(dl.User)}
		}
		qs = append(qs, &Question{
			ID: dl.ID + "/" + cq.ID, ConversationID: dl.ID, Text: cq.Question, Category: cq.Kind,
			Golds: append([]string{cq.Answer}, cq.Accept...), Stale: cq.Stale, Attribute: cq.Attribute,
			AllOf: cq.AllOf, Reject: cq.Reject, About: cq.About, Asker: dl.User,
		})
	}
	return conv, qs, nil
}

// checkConvQuestion checks one question against the dialog's text: a kind and an attribute from the known
// lists, a gold, stale values for a current question, and values that were actually said.
func checkConvQuestion(q convQuestion, said string) error {
	switch {
	case strings.TrimSpace(q.ID) == "":
		return errors.New("id is empty")
	case !slices.Contains(ConvKinds, q.Kind):
		return fmt.Errorf("kind %q: want current, past or unchanged", q.Kind)
	case !slices.Contains(ConvAttributes, q.Attribute):
		return fmt.Errorf("attribute %q: want one of %s", q.Attribute, strings.Join(ConvAttributes, ", "))
	case strings.TrimSpace(q.Question) == "":
		return errors.New("question is empty")
	case factcons.NormalizeAnswer(q.Answer) == "":
		return errors.New("answer is empty")
	case q.Kind == KindCurrent && len(q.Stale) == 0:
		return errors.New("a current question needs the stale values it must not be answered with")
	case q.Kind != KindCurrent && len(q.Stale) > 0:
		return fmt.Errorf("stale values only make sense for a current question, not %s", q.Kind)
	}
	golds := append(append([]string{q.Answer}, q.Accept...), q.AllOf...)
	for _, s := range q.Stale {
		if factcons.NormalizeAnswer(s) == "" {
			return errors.New("stale has an empty value")
		}
		for _, g := range golds {
			if containsWords(g, s) || containsWords(s, g) {
				return fmt.Errorf("stale value %q and gold %q contain one another", s, g)
			}
		}
		if q.Note == "" && !containsWords(said, s) {
			return fmt.Errorf("stale value %q is never said in the dialog and no note explains it", s)
		}
	}
	// A gold is said in the dialog, unless a note explains how it follows (a relative date resolved).
	if q.Note == "" && len(ContainsAny(said, golds)) == 0 {
		return fmt.Errorf("none of the answers %q is said in the dialog and no note explains it", golds)
	}
	for _, a := range q.AllOf {
		if len(ContainsAny(said, []string{a})) == 0 {
			return fmt.Errorf("all_of value %q is never said in the dialog", a)
		}
	}
	return nil
}

// ConvCorrect is the conversation-updates answer metric: the answer contains a gold (SQuAD-normalized
// substring, as FactConsolidation's official metric; a gold that is a day of a month also in the other English
// order, convdates.go) — or every value of AllOf — contains no rejected phrase, and presents no stale value as
// current.
func ConvCorrect(q *Question, answer string) bool {
	if len(q.AllOf) > 0 {
		for _, a := range q.AllOf {
			if !factcons.SubstringExactMatch(canonDates(answer), []string{canonDates(a)}) {
				return false
			}
		}
	} else if !factcons.SubstringExactMatch(canonDates(answer), canonDatesAll(q.Golds)) {
		return false
	}
	if len(ContainsAny(answer, q.Reject)) > 0 {
		return false
	}
	return StaleInAnswer(q, answer) == ""
}

// StaleInAnswer returns the first stale value the answer presents as current, or "": a stale value the
// answer names without marking it as former (see presentsCurrent).
func StaleInAnswer(q *Question, answer string) string {
	for _, v := range q.Stale {
		if presentsCurrent(answer, v) {
			return v
		}
	}
	return ""
}

// StaleInContext returns the first context line that presents a stale value of the question as current,
// or "". A line does not when
//   - it belongs to a claim the system marks as not current (a status other than active or disputed: the
//     all-versions view shows superseded claims with their status),
//   - it marks the value as former in its own words, next to the value (presentsCurrent),
//   - it also presents a current value (a gold) as current and says something changed (changeMarkers): it
//     describes the change ("Mateo jumped ship, he's at Stripe now. Said Microsoft was too slow", "on the
//     14th. Sorry, I mean the 15th"); a line that names both values without saying so presents both as
//     current ("a VW Jetta for my commute and a Subaru Outback for weekends"), or
//   - the question names its subject (About) and the line mentions none of those names: it is about someone
//     else, who may well still hold the value.
//
// Raw history (no claim statuses) is read line by line alike: a stale statement in it is presented as
// current, since nothing marks it otherwise.
func StaleInContext(q *Question, r *Retrieval) string {
	if len(q.Stale) == 0 {
		return ""
	}
	var retired []string
	for _, it := range r.Items {
		if it.Status != "" && !live(it.Status) && it.Text != "" {
			retired = append(retired, compactSpace(it.Text))
		}
	}
	for _, line := range strings.Split(r.Context, "\n") {
		flat := compactSpace(line)
		if flat == "" || slices.ContainsFunc(retired, func(t string) bool { return strings.Contains(flat, t) }) {
			continue
		}
		if len(q.About) > 0 && !mentionsAny(flat, q.About) {
			continue
		}
		if slices.ContainsFunc(q.Golds, func(g string) bool { return presentsCurrent(flat, g) }) && saysChange(flat) {
			continue
		}
		if slices.ContainsFunc(q.Stale, func(v string) bool { return presentsCurrent(flat, v) }) {
			return flat
		}
	}
	return ""
}

// formerCues are English words and phrases that say a value no longer holds: ending a job (leaving, resigning,
// handing in one's notice), a place, a
// relationship, a possession or a plan ("left", "moved from", "broke up", "went our separate ways", "sold",
// "cancelled", "moved on from" a favourite; disposing of a
// thing or a provider, "dropped", "got rid of", "gave away"; finishing a book or a course; a place that shut
// down), a time
// that is over ("no longer", "used to", "previously", "until", "former"), and the words a memory system
// puts on history ("superseded", "outdated"). They come from how people report changes in everyday
// English, not from any dataset. Verbs that name the new value ("moved to", "switched to", "pushed to")
// are not cues: the value after them is current.
var formerCues = func() [][]string {
	var out [][]string
	for _, c := range []string{
		"left", "leaving", "quit", "quits", "quitting", "stopped", "gave up", "given up", "no longer", "anymore", "any more",
		"used to", "former", "formerly", "previous", "previously", "before", "earlier", "originally", "old", "ex",
		"until", "till", "broke up", "split up", "called off", "divorced", "moved from", "moved away", "moved out",
		"relocated from", "switched from", "transferred from", "changed from", "away from", "sold", "traded in",
		"replaced", "instead of", "swapped", "scrapped", "cancelled", "canceled", "withdrawn", "withdrew",
		"deferred", "on hold", "retired", "rehomed", "passed away", "died", "lost", "stolen", "let go", "laid off",
		"ended", "dethroned", "overtaken", "overtook", "supplanted", "ousted", "resigned", "resigning", "handed in", "notice at", "superseded", "history", "historical", "outdated", "obsolete",
		"dropped", "ditched", "got rid of", "gotten rid of", "getting rid of", "gave away", "given away", "finished",
		"shut down", "closed down", "closed", "moved on from", "separate ways", "parted ways",
	} {
		out = append(out, normWords(c))
	}
	return out
}()

// changeMarkers say that something changed or was corrected: the new value ("now", "these days", "new",
// "instead", "switched", "joined"), a correction ("actually", "I mean", "sorry", "scratch that"), and every
// former cue. General English, like formerCues.
var changeMarkers = func() [][]string {
	out := slices.Clone(formerCues)
	for _, c := range []string{
		"now", "these days", "nowadays", "anymore", "new", "instead", "actually", "i mean", "sorry", "scratch that",
		"correction", "switched", "changed", "moved", "relocated", "transferred", "joined", "became", "promoted",
		"update", "updated", "jumped ship", "no more", "back to", "again",
	} {
		out = append(out, normWords(c))
	}
	return out
}()

// saysChange reports whether a text has a change marker anywhere.
func saysChange(text string) bool {
	words := normWords(text)
	for _, c := range changeMarkers {
		for j := 0; j+len(c) <= len(words); j++ {
			if slices.Equal(words[j:j+len(c)], c) {
				return true
			}
		}
	}
	return false
}

// negations just before a value deny it ("not vegan", "never Google").
var negations = []string{"not", "never", "no", "isnt", "arent", "doesnt", "dont", "wasnt"}

// clauseBreak splits a line into clauses: a cue in one clause says nothing about a value in another
// ("I'm not vegetarian anymore. I'm pescatarian now."). Decimal and thousands separators are not followed
// by a space, so "R$ 3.200" and "$2,800" stay whole; a title's period is taken off first (titleDot).
var clauseBreak = regexp.MustCompile(`[.;!?,:]+(\s|$)|\s[—–-]\s|\n`)

// titleDot matches the period of an abbreviated title of address before a name — the English titles (Mr, Mrs,
// Ms, Mx, Dr, Prof, Rev, Hon, St and military ranks) — which ends no clause: without it, "my dentist is
// Dr. Patel" was split inside the value and a stale "Dr. Patel" was never seen.
var titleDot = regexp.MustCompile(`\b((?i:Mr|Mrs|Ms|Mx|Dr|Prof|Rev|Hon|St|Capt|Col|Gen|Lt|Sgt))\.(\s+\p{Lu})`)

// clauses are the clauses of text (clauseBreak).
func clauses(text string) []string {
	return clauseBreak.Split(titleDot.ReplaceAllString(text, "$1$2"), -1)
}

// Cue window: how many words before and after a value a former cue may stand ("Emma left Google", "Greg
// left the company", "Hannah and I broke up", "Admiral the goldfish passed away").
const (
	cueBefore = 4
	cueAfter  = 4
)

// presentsCurrent reports whether text names value (as whole words, SQuAD-normalized) somewhere without a
// former cue within a few words of it in the same clause, nor a negation just before it.
func presentsCurrent(text, value string) bool {
	text, value = canonDates(text), canonDates(value)
	vw := normWords(value)
	if len(vw) == 0 {
		return false
	}
	for _, clause := range clauses(text) {
		words := normWords(clause)
		for i := 0; i+len(vw) <= len(words); i++ {
			if !slices.Equal(words[i:i+len(vw)], vw) {
				continue
			}
			if !markedFormer(words, i, i+len(vw)) {
				return true
			}
		}
	}
	return false
}

// markedFormer reports whether the value at words[from:to] has a former cue within the window around it,
// or a negation in the three words before it ("not vegan", "does not work at Google").
func markedFormer(words []string, from, to int) bool {
	// A cue counts when it starts inside the window, though its last words may stand past it ("Tom and Grace
	// have called off the engagement").
	lo, hi := max(0, from-cueBefore), min(len(words), to+cueAfter)
	for _, c := range formerCues {
		for j := lo; j < hi && j+len(c) <= len(words); j++ {
			if (j+len(c) <= from || j >= to) && slices.Equal(words[j:j+len(c)], c) {
				return true
			}
		}
	}
	for j := max(0, from-3); j < from; j++ {
		if slices.Contains(negations, words[j]) {
			return true
		}
	}
	return false
}

// containsWords reports whether text contains value as whole words, under the official normalization
// (lower case, punctuation and articles removed): "Civic" is in "my Civic." but not in "civics".
func containsWords(text, value string) bool {
	words, seq := normWords(text), normWords(value)
	if len(seq) == 0 {
		return false
	}
	for i := 0; i+len(seq) <= len(words); i++ {
		if slices.Equal(words[i:i+len(seq)], seq) {
			return true
		}
	}
	return false
}

// firstName is a person's first name, titles skipped ("Dr. Esi Mensah" → "Esi").
func firstName(name string) string {
	for _, w := range strings.Fields(name) {
		if !strings.HasSuffix(w, ".") {
			return w
		}
	}
	return name
}

// mentionsAny reports whether text names one of the names as whole words, a possessive included ("Emma's"
// mentions Emma; "console" does not mention Sol).
func mentionsAny(text string, names []string) bool {
	words := normWords(text)
	for _, n := range names {
		nw := normWords(n)
		if len(nw) == 0 {
			continue
		}
		for i := 0; i+len(nw) <= len(words); i++ {
			last := words[i+len(nw)-1]
			if slices.Equal(words[i:i+len(nw)-1], nw[:len(nw)-1]) && (last == nw[len(nw)-1] || last == nw[len(nw)-1]+"s") {
				return true
			}
		}
	}
	return false
}

// normWords is the official normalization split into words (apostrophes are removed with the other
// punctuation, so "isn't" is "isnt" and "Emma's" is "emmas").
func normWords(s string) []string { return strings.Fields(factcons.NormalizeAnswer(s)) }
