package query

import (
	"context"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/promptguard"
	"github.com/mneme-ai/mneme/pkg/store"
)

// ModeStatement answers with the remembered statement closest to the question, quoted, when no reading of the
// question resolves and no LLM reader is configured.
const ModeStatement = "statement"

// statementCandidates bounds the claims a closest-statement answer is chosen from: a search's default depth.
const statementCandidates = 10

// statementBudget is the search budget of a closest-statement answer: enough for its candidates' lines.
const statementBudget = 1000

// statementMargin is how close in fused score to the most relevant statement a newer (for the present) or
// older (for the past) one must be to answer instead. Retrieval ranks what is said about a topic, not when it
// was said: among statements it ranks alike, the newest is what a person last said on it, so it is the one
// most likely to still hold — newest-wins, as the reconciler applies it to the slots it understands.
const statementMargin = 0.85

// closestStatement answers a question that named a remembered entity but no relation memory holds of it: the
// most relevant remembered statement about that entity, quoted whole, in the view's time. A question of the
// present takes only current statements; one of a former or first value prefers history. It sets res and
// returns the statement used, or nil when no statement of the entity is among the candidates (the answer
// stays none: a statement about someone else would answer another question).
func (s *Service) closestStatement(ctx context.Context, v store.View, question string, t timeAsk, ms []mention, res *api.AnswerResponse) (*item, error) {
	if t.mode == askChange || len(ms) == 0 || chained(question, ms) {
		// Whether something changed is a yes or no a quoted statement does not give; and a statement about the
		// entity a chain starts from says one relation of it, not where the chain ends.
		return nil, nil
	}
	sr, err := s.search(ctx, v, questionParams(question, statementCandidates, statementBudget, t.asksPast()))
	if err != nil {
		return nil, err
	}
	qp := parseQuestion(question, nil)
	pool := statementsAbout(sr.items, ms, t, &qp)
	if len(pool) == 0 {
		return nil, nil
	}
	pick := pickStatement(pool, t)
	res.Mode = ModeStatement
	res.Answer = promptguard.Neutralize(pick.claim.Text)
	res.ClaimsUsed = append(res.ClaimsUsed, pick.apiClaim())
	res.Notes = append(res.Notes, "no remembered relation of "+quoteList(mentionTexts(ms))+
		" matches the question: the answer is the closest remembered statement about it, quoted")
	return &pick, nil
}

// statementsAbout keeps the search items that may answer a question of time t about the mentions: claims
// whose subject is a mentioned entity or whose text names one, never quarantined, linked or (for the present)
// former, and that name a time or hold a number when the question asks for one (q), in rank order.
func statementsAbout(items []item, ms []mention, t timeAsk, q *questionParse) []item {
	subjects := map[string]bool{}
	for _, m := range ms {
		for _, k := range m.subjects {
			subjects[k] = true
		}
	}
	names := mentionTexts(ms)
	var out []item
	for _, it := range items {
		c := it.claim
		if c.Status == store.StatusQuarantined || it.linked || c.Text == "" {
			continue
		}
		if it.former && t.mode == askCurrent && t.before == "" && t.after == "" {
			continue
		}
		if !subjects[c.SubjectKey] && !namesAny(c.Text, names) {
			continue
		}
		if q.kind == kindTime && !saysATime(c.Text) || q.kind == kindAmount && answerTypePenalty(q, c.Text) > 0 {
			// "When" asks for a time and "how many" for a number: a statement without one does not answer.
			continue
		}
		if q.kind == kindPerson && !namesAnother(c.Text, names) || q.kind == kindPlace && !namesAnother(c.Text, names) && !saysAPlace(c.Text) {
			// "Who" asks for someone, said by a name, and "where" for a place, said by a name or after a
			// preposition of place ("at the bank", "in bath" typed in lower case): "Emma is still a data
			// scientist" names none beside Emma's and answers neither.
			continue
		}
		out = append(out, it)
	}
	return out
}

// chained reports a question that asks a chain of relations from every entity it names ("Who is the spouse of
// the CEO of Acme?": the CEO, then the spouse): read from each mention as the resolver reads it, none leaves one
// relation or fewer to explain.
func chained(question string, ms []mention) bool {
	toks := analyzeQuestion(question)
	for i := range ms {
		if requiredUnits(readQuestion(toks, &ms[i]).units) <= 1 {
			return false
		}
	}
	return true
}

// mentionTexts are the mentions as the question wrote them, each once.
func mentionTexts(ms []mention) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.text)
	}
	return dedupe(out)
}

// pickStatement chooses among candidate statements in rank order (none empty): of those within statementMargin
// of the best score, the newest in belief order (the later valid time, then the later place in its source) for
// a question of the present, and for one of the past the oldest, a former value before a current one.
func pickStatement(pool []item, t timeAsk) item {
	pick := pool[0]
	past := t.mode != askCurrent || t.before != ""
	for _, it := range pool[1:] {
		if it.score < statementMargin*pool[0].score {
			continue
		}
		switch order := store.CompareBelief(it.claim.ValidFrom, it.claim.Sequence, pick.claim.ValidFrom, pick.claim.Sequence); {
		case past && (it.former && !pick.former || it.former == pick.former && order < 0):
			pick = it
		case !past && order > 0:
			pick = it
		}
	}
	return pick
}

// reYearDayOrClock is a year (1000–2999), a day of the month said as an ordinal ("the 15th") or a time of day
// ("9:30", "3 pm", "10am") standing alone.
var reYearDayOrClock = regexp.MustCompile(`(?i)\b(?:[12]\d{3}|\d{1,2}(?:st|nd|rd|th)|\d{1,2}:\d{2}|\d{1,2}\s?[ap]\.?m\.?)\b`)

// saysATime reports whether a statement names a time: a month, a weekday, a day relative to today, a year, a
// day of the month or a time of day. A digit is not enough in a statement ("Linh's price is $640,000" says no
// time), though it is in a value that can only be a date.
func saysATime(text string) bool {
	return mentionsMonthOrDay(text) || reYearDayOrClock.MatchString(text)
}

// namesAnother reports whether a statement holds a capitalized word that is none of the mentioned names, no
// month or weekday, no pronoun "I" and no closed-class word capitalized as a sentence's first ("The", "My"): a
// name of something else, a place's or a person's.
func namesAnother(text string, mentioned []string) bool {
	own := map[string]bool{}
	for _, n := range mentioned {
		for _, w := range splitWords(n) {
			own[w] = true
		}
	}
	for _, f := range strings.Fields(text) {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		w = strings.TrimSuffix(strings.TrimSuffix(w, "'s"), "’s")
		r, _ := utf8.DecodeRuneInString(w)
		if w == "" || !unicode.IsUpper(r) {
			continue
		}
		low := strings.ToLower(w)
		if own[low] || low == "i" || stopwords[low] || detWords[low] || whWords[low] || mentionsMonthOrDay(low) {
			continue
		}
		return true
	}
	return false
}

// reAtPlace is a preposition of place and a word after it that is no time: "at the bank", "in bath", "on the
// field", "near the station" — not "in June", "on Monday", "at 5 pm".
var reAtPlace = regexp.MustCompile(`(?i)\b(?:at|in|on|near|from)\s+(?:the\s+|a\s+|an\s+|my\s+|our\s+|his\s+|her\s+|their\s+)?(\pL[\pL'-]*)`)

// saysAPlace reports whether a statement names a place after a preposition of place.
func saysAPlace(text string) bool {
	for _, m := range reAtPlace.FindAllStringSubmatch(text, -1) {
		if !mentionsMonthOrDay(m[1]) && !stopwords[strings.ToLower(m[1])] {
			return true
		}
	}
	return false
}
