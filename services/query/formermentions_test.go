package query

import (
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/store"
)

func TestMarkFormerWritesTheMarkAfterWholeWordsOnly(t *testing.T) {
	for _, c := range []struct{ text, value, want string }{
		{"Liam is studying law at Edinburgh.", "law", "Liam is studying law (former) at Edinburgh."},
		{"Liam is studying Law at Edinburgh.", "law", "Liam is studying Law (former) at Edinburgh."},
		// Inside another word, or joined to a digit, it is not the value.
		{"Liam's lawyer is Ana.", "law", "Liam's lawyer is Ana."},
		{"The rent is $1,8000.", "$1,800", "The rent is $1,8000."},
		{"The rent was $1,800 a month.", "$1,800", "The rent was $1,800 (former) a month."},
		// Every occurrence, and none twice.
		{"Portland, then Portland again.", "Portland", "Portland (former), then Portland (former) again."},
		{"Kim lives in Portland (former) with two cats.", "Portland", "Kim lives in Portland (former) with two cats."},
		{"Kim lives in Malmö.", "malmö", "Kim lives in Malmö (former)."},
		{"Nothing to see.", "Portland", "Nothing to see."},
	} {
		if got := markFormer(c.text, c.value); got != c.want {
			t.Errorf("markFormer(%q, %q) = %q, want %q", c.text, c.value, got, c.want)
		}
	}
}

func TestBareValueDropsTheDeterminerAndTrailingPunctuation(t *testing.T) {
	for in, want := range map[string]string{"the violin": "violin", "The Static.": "Static", "a Civic": "Civic",
		"my old bike": "old bike", "Edinburgh": "Edinburgh", "the": "the"} {
		if got := bareValue(in); got != want {
			t.Errorf("bareValue(%q) = %q, want %q", in, got, want)
		}
	}
}

// A sentence that says two things, one of which a later statement replaced: the claim that still holds keeps
// its sentence, and the context marks the replaced value in it — only in sentences said before the
// replacement, only of the subject (or a thing of the subject's), and not when the subject has the value again.
func TestFormerMentionsMarkReplacedValuesInOlderSentencesOfTheSubject(t *testing.T) {
	jan := time.Date(2024, 1, 8, 10, 0, 0, 0, time.UTC)
	sep := time.Date(2024, 9, 1, 10, 0, 0, 0, time.UTC)
	belief := func(id, subject, slot, object string, at time.Time, text string) *store.Belief {
		return &store.Belief{ID: id, SubjectKey: subject, SlotKey: slot, Object: object, ObjectKey: object,
			Status: store.StatusActive, ValidFrom: at, Text: text}
	}
	law := replacedValue{subject: "liam", slot: "studies", value: "law", key: "law", since: sep}
	items := []item{
		{claim: belief("school", "liam", "educated_at", "edinburgh", jan, "Liam is studying law at Edinburgh.")},
		{claim: belief("ended", "liam", "drops_out_of", "law", sep, "Liam dropped out of law.")},
		{claim: belief("other", "noah", "studies", "history", jan, "Noah studies history, not law.")},
		{claim: belief("owned", "liam's_tutor", "name", "ana", jan, "Liam's tutor for law is Ana.")},
		{claim: belief("old", "liam", "studies", "law", jan, "Liam studies law."), former: true},
	}
	markFormerMentions(items, map[string][]replacedValue{"liam": {law}})
	want := map[string]string{
		"school": "Liam is studying law (former) at Edinburgh.",
		"ended":  "", // said when law was replaced: it tells of the change
		"other":  "", // another subject's sentence
		"owned":  "Liam's tutor for law (former) is Ana.",
		"old":    "", // history is marked [FORMER] as a whole
	}
	for _, it := range items {
		if it.shown != want[it.claim.ID] {
			t.Errorf("%s: shown %q, want %q", it.claim.ID, it.shown, want[it.claim.ID])
		}
	}

	// A value that begins a longer one is marked once, after the longer one, in any order found.
	york := []item{{claim: belief("trip", "liam", "visits", "boston", jan, "Liam flew from New York City to Boston.")}}
	markFormerMentions(york, map[string][]replacedValue{"liam": {
		{subject: "liam", slot: "lives_in", value: "New York", key: "new_york", since: sep},
		{subject: "liam", slot: "works_in", value: "New York City", key: "new_york_city", since: sep}}})
	if want := "Liam flew from New York City (former) to Boston."; york[0].shown != want {
		t.Errorf("nested values: shown %q, want %q", york[0].shown, want)
	}

	// Back to law in November: the value is current again and marked nowhere.
	nov := time.Date(2024, 11, 1, 10, 0, 0, 0, time.UTC)
	again := []item{
		{claim: belief("school", "liam", "educated_at", "edinburgh", jan, "Liam is studying law at Edinburgh.")},
		{claim: belief("back", "liam", "studies", "law", nov, "Liam went back to law.")},
	}
	markFormerMentions(again, map[string][]replacedValue{"liam": {law}})
	if again[0].shown != "" {
		t.Errorf("law held again is marked former: %q", again[0].shown)
	}
}
