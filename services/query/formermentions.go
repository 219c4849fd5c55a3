package query

import (
	"context"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/store"
)

// Former values inside current sentences. A sentence says several things at once ("Liam is studying law at
// Edinburgh"), and each becomes a claim with the whole sentence as its text. When a later statement replaces
// one of them (Liam now studies medicine), the claim that still holds (he studies at Edinburgh) keeps the
// sentence, which then presents the replaced value as current to whoever reads the context. The reconciler is
// right to keep the claim; what is wrong is only the sentence's word. So the context writes "(former)" after a
// value its subject no longer has, in the sentences of current claims said before the value was replaced:
// "Liam is studying law (former) at Edinburgh". Nothing is retired and the claims the API returns keep their
// text; only the context's line says what memory knows of the words inside it.

const (
	// formerSubjects bounds how many of the best-ranked subjects are checked (one query for all of them).
	formerSubjects = 8
	// formerValuesRead bounds the replaced values read for them.
	formerValuesRead = 64
	// formerMinLen is the shortest value marked: shorter ones ("it", "3") match words that are not the value.
	formerMinLen = 3
	// formerMark is written after a replaced value.
	formerMark = " (former)"
)

// replacedValue is a value the subject had until since: a single-valued slot's superseded value, or a value a
// later statement ended (endValues).
type replacedValue struct {
	subject, slot, value, key string
	since                     time.Time
}

// replacedValueOf is claim c's value, replaced since then.
func replacedValueOf(c *store.Belief, since time.Time) replacedValue {
	return replacedValue{subject: c.SubjectKey, slot: c.SlotKey, value: bareValue(c.Object), key: c.ObjectKey, since: since}
}

// withFormerMentions sets the shown text of current items whose sentence names a value their subject no longer
// has (see above). Only present views: as of another time, what is former is another question.
func (s *Service) withFormerMentions(ctx context.Context, v store.View, p searchParams, items []item, ended []replacedValue) ([]item, error) {
	if p.history || v.AsOf != nil || v.KnownAt != nil {
		return items, nil
	}
	var subjects []string
	for _, it := range items {
		if it.former || !live(it.claim.Status) || contains(subjects, it.claim.SubjectKey) {
			continue
		}
		if subjects = append(subjects, it.claim.SubjectKey); len(subjects) == formerSubjects {
			break
		}
	}
	replaced, err := store.ReplacedValues(ctx, s.db, v, subjects, formerValuesRead)
	if err != nil {
		return items, err
	}
	bySubject := map[string][]replacedValue{}
	add := func(rv replacedValue) {
		if utf8.RuneCountInString(rv.value) >= formerMinLen && !stopwords[strings.ToLower(rv.value)] {
			bySubject[rv.subject] = append(bySubject[rv.subject], rv)
		}
	}
	for i := range replaced {
		if r := &replaced[i]; r.ValidTo != nil {
			// (A restatement superseded by its own later wording has no end: its value is current.)
			add(replacedValueOf(r, *r.ValidTo))
		}
	}
	for _, rv := range ended {
		add(rv)
	}
	markFormerMentions(items, bySubject)
	return items, nil
}

// markFormerMentions sets the shown text of the current items whose sentence names a value of bySubject (by
// subject key) said before the value was replaced.
func markFormerMentions(items []item, bySubject map[string][]replacedValue) {
	if len(bySubject) == 0 {
		return
	}
	for i, it := range items {
		if it.former || !live(it.claim.Status) {
			continue
		}
		text := it.claim.Text
		values := bySubject[it.claim.SubjectKey]
		if owner := ownerOf(it.claim.SubjectKey); owner != "" {
			// "Oscar's landlord charges Oscar $1,800 a month": a sentence about a thing of the subject's speaks
			// of the subject's values too.
			values = append(values[:len(values):len(values)], bySubject[owner]...)
		}
		var former []string
		for _, rv := range values {
			if !it.claim.ValidFrom.Before(rv.since) || heldAgain(items, rv) {
				// Said when the value had been replaced already (it tells of the change), or the value is the
				// subject's again.
				continue
			}
			former = append(former, rv.value)
		}
		text = markFormer(text, former...)
		if text != it.claim.Text {
			items[i].shown = text
		}
	}
}

// live reports a status a current claim has.
func live(status string) bool {
	return status == store.StatusActive || status == store.StatusDisputed
}

// heldAgain reports whether a current claim of the value's slot among items, valid from the value's replacement
// on, has the value: the subject has it again ("went back to Google"). (A claim of another slot with the value
// may be the one that ended it: "dropped out of law".)
func heldAgain(items []item, rv replacedValue) bool {
	for _, it := range items {
		c := it.claim
		if !it.former && live(c.Status) && c.SubjectKey == rv.subject && c.SlotKey == rv.slot && c.ObjectKey == rv.key && !c.ValidFrom.Before(rv.since) {
			return true
		}
	}
	return false
}

// bareValue is a value without the determiner before it (detWords) and the punctuation after it: the words a
// sentence names it by ("the violin" is named "violin" in "plays violin").
func bareValue(object string) string {
	v := strings.TrimSpace(strings.TrimRight(object, ".,;:!? "))
	if first, rest, ok := strings.Cut(v, " "); ok && detWords[strings.ToLower(first)] && strings.TrimSpace(rest) != "" {
		return strings.TrimSpace(rest)
	}
	return v
}

// markFormer writes formerMark after every occurrence of a value in text that stands as whole words (no letter
// or digit joined to it on either side), matching without regard to case; values are tried longest first and a
// match inside one already taken ("New York" in "New York City"), or one marked already, is not marked again.
func markFormer(text string, values ...string) string {
	lower := strings.ToLower(text)
	if len(lower) != len(text) {
		// A case mapping that changes byte lengths would shift the offsets; such text is left as it is.
		return text
	}
	values = slices.Clone(values)
	sort.SliceStable(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	var ends []int
	var taken [][2]int
	for _, v := range values {
		lv := strings.ToLower(v)
		if lv == "" {
			continue
		}
		for from := 0; ; {
			i := strings.Index(lower[from:], lv)
			if i < 0 {
				break
			}
			start, end := from+i, from+i+len(lv)
			from = end
			if joined(text[:start], false) || joined(text[end:], true) || strings.HasPrefix(text[end:], formerMark) ||
				slices.ContainsFunc(taken, func(t [2]int) bool { return start < t[1] && t[0] < end }) {
				continue
			}
			taken = append(taken, [2]int{start, end})
			ends = append(ends, end)
		}
	}
	if len(ends) == 0 {
		return text
	}
	slices.Sort(ends)
	var b strings.Builder
	last := 0
	for _, end := range ends {
		b.WriteString(text[last:end])
		b.WriteString(formerMark)
		last = end
	}
	b.WriteString(text[last:])
	return b.String()
}

// joined reports whether the side of a match continues the word: a letter or digit right before it (before is
// the text up to the match) or right after it (after is the text from its end).
func joined(side string, after bool) bool {
	var r rune
	if after {
		r, _ = utf8.DecodeRuneInString(side)
	} else {
		r, _ = utf8.DecodeLastRuneInString(side)
	}
	return side != "" && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
