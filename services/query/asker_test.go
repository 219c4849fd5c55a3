package query

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/api"
)

func TestAskedByReadsTheFirstPersonAsTheAsker(t *testing.T) {
	cases := []struct{ q, asker, want string }{
		{"Where does my sister work?", "Kim", "Where does Kim's sister work?"},
		{"My brother's job?", "Kim", "Kim's brother's job?"},
		{"Where do I live?", "Kim", "Where does Kim live?"},
		{"Do I have a dog?", "Kim", "Does Kim have a dog?"},
		{"What am I allergic to?", "Kim Lee", "What is Kim Lee allergic to?"},
		{"Where was I born?", "Kim", "Where was Kim born?"},
		{"Haven't I told you about my job?", "Kim", "Hasn't Kim told you about Kim's job?"},
		{"what's my mom’s name", "Kim", "what's Kim's mom’s name"},
		{"where do i work now", "Kim", "where does Kim work now"},
		{"Who did I meet? Who met me?", "Kim", "Who did Kim meet? Who met Kim?"},
		{"Is the car mine?", "Kim", "Is the car Kim's?"},
		{"What I'm reading?", "Kim", "What Kim is reading?"},
		// Words that only contain the pronoun's letters stay.
		{"Is Myra in Iowa? Mind the imam.", "Kim", "Is Myra in Iowa? Mind the imam."},
		// Without an asker, a question is unchanged.
		{"Where does my sister work?", "", "Where does my sister work?"},
		{"Where does my sister work?", "  ", "Where does my sister work?"},
	}
	for _, c := range cases {
		if got := askedBy(c.q, c.asker); got != c.want {
			t.Errorf("askedBy(%q, %q) = %q, want %q", c.q, c.asker, got, c.want)
		}
	}
}

func TestCheckAskerNamesTheFieldAndTheLimit(t *testing.T) {
	for _, ok := range []string{"", "Kim", "José Álvarez", "李小龍", "Kim O'Neil-Smith"} {
		if err := checkAsker(ok); err != nil {
			t.Errorf("checkAsker(%q) = %v, want nil", ok, err)
		}
	}
	for _, bad := range []struct{ asker, code, limit string }{
		{strings.Repeat("k", maxAskerBytes+1), api.CodeTooLarge, "200 bytes"},
		{"Kim\nLee", api.CodeInvalid, ""},
		{"42", api.CodeInvalid, ""},
		{"\xffKim", api.CodeInvalid, ""},
	} {
		err := checkAsker(bad.asker)
		e, ok := err.(*api.HTTPError)
		if !ok || e.Field != "asker" || e.Code != bad.code || e.Limit != bad.limit {
			t.Errorf("checkAsker(%.20q) = %#v, want a %s error on field asker with limit %q", bad.asker, err, bad.code, bad.limit)
		}
	}
}

// A question in the first person reaches what its asker said of themselves and of their relatives, through the
// public API: the claims are keyed as the extractor keys "My sister works at Google" said by Kim.
func TestSearchAndAnswerReadMyAsTheAskers(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("family")
	sister := f.add(fclaim{Subject: "Kim's sister", Predicate: "works at", Object: "Google", Text: "Kim's sister works at Google."})
	f.add(fclaim{Subject: "Ann's sister", Predicate: "works at", Object: "Deloitte", Text: "Ann's sister works at Deloitte."})
	f.add(fclaim{Subject: "Kim", Predicate: "lives in", Object: "Leeds", Text: "Kim lives in Leeds."})
	f.add(fclaim{Subject: "Ann", Predicate: "lives in", Object: "York", Text: "Ann lives in York."})

	ctx := context.Background()
	c := h.client("agent-a")
	sr, err := c.Search(ctx, "family", api.SearchRequest{Query: "Where does my sister work?", Asker: "Kim"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sr.Claims) == 0 || sr.Claims[0].ID != sister {
		t.Fatalf("search asked by Kim: context\n%s\nwant Kim's sister's claim first", sr.Context)
	}
	c2 := c
	for _, tc := range []struct{ q, asker, want string }{
		{"Where does my sister work?", "Kim", "Google"},
		{"Where does my sister work?", "Ann", "Deloitte"},
		{"Where do I live?", "Kim", "Leeds"},
		{"Where do I live?", "Ann", "York"},
	} {
		ar, err := c2.Answer(ctx, "family", api.AnswerRequest{Question: tc.q, Asker: tc.asker})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ar.Answer, tc.want) {
			t.Errorf("answer to %q asked by %s = %q, want %s", tc.q, tc.asker, ar.Answer, tc.want)
		}
	}
}

func TestAskersThing(t *testing.T) {
	for _, tc := range []struct{ q, asker, want string }{
		{"When is the offsite?", "Alice", "When is Alice's offsite?"},
		{"When was the offsite originally planned?", "Alice", "When was Alice's offsite originally planned?"},
		{"The wedding is when?", "Mei", "Mei's wedding is when?"},
		// Someone is named, or the thing is owned already: not the asker's.
		{"When is Tom's party?", "Alice", ""},
		{"Who is the CEO of Velto?", "Alice", ""},
		{"When is Alice's offsite?", "Alice", ""},
		// No definite thing, or no asker.
		{"Where do they live?", "Alice", ""},
		{"When is the offsite?", "", ""},
		{"When is theatre night?", "Alice", ""},
	} {
		got, ok := askersThing(tc.q, tc.asker)
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("askersThing(%q, %q) = %q, %v; want %q", tc.q, tc.asker, got, ok, tc.want)
		}
	}
}

func TestAnswerReadsAnUnownedThingAsTheAskers(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("offsite")
	f.add(fclaim{Subject: "Alice", Predicate: "team offsite", Object: "29 May 2024", Text: "Alice's team offsite is on 29 May 2024."})
	f.add(fclaim{Subject: "Bo", Predicate: "wedding", Object: "3 August 2024", Text: "Bo's wedding is on 3 August 2024."})
	ctx := context.Background()
	c := h.client("agent-a")
	ar, err := c.Answer(ctx, "offsite", api.AnswerRequest{Question: "When is the team offsite?", Asker: "Alice"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(ar.Answer, "29 May") || ar.Mode != ModeDeterministic {
		t.Errorf("answer asked by Alice = %q (%s), want her offsite's date, 29 May", ar.Answer, ar.Mode)
	}
}

// FuzzAskedBy: whatever the question and the asker, the rewrite is valid UTF-8 when both are, and a question
// without a first-person word is unchanged.
func FuzzAskedBy(f *testing.F) {
	for _, s := range [][2]string{{"Where does my sister work?", "Kim"}, {"Do I?", "Kim Lee"}, {"I'm my mine me", "x"}, {"’", "’"}, {"", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, q, asker string) {
		got := askedBy(q, asker)
		if utf8.ValidString(q) && utf8.ValidString(asker) && !utf8.ValidString(got) {
			t.Fatalf("askedBy(%q, %q) = %q: not UTF-8", q, asker, got)
		}
		first := false
		for _, w := range questionWords.FindAllString(q, -1) {
			switch strings.ToLower(strings.ReplaceAll(w, "’", "'")) {
			case "i", "me", "myself", "my", "mine", "i'm", "i've", "i'd", "i'll":
				first = true
			}
		}
		if !first && got != q {
			t.Fatalf("askedBy(%q, %q) = %q, want it unchanged (no first-person word)", q, asker, got)
		}
	})
}

// Reading "my" as a long name can make a question many times longer than the one checked; the result is held
// to the query limit, and the error names the field and the limit.
func TestAskedTextHoldsTheQueryLimit(t *testing.T) {
	s := &Service{cfg: DefaultConfig()}
	q := strings.Repeat("my ", s.cfg.MaxQueryBytes/3-1)
	_, err := s.askedText("query", q, "Kim")
	e, ok := err.(*api.HTTPError)
	if !ok || e.Field != "query" || e.Code != api.CodeTooLarge || e.Limit != fmt.Sprint(s.cfg.MaxQueryBytes)+" bytes" {
		t.Errorf("%d bytes of \"my\" asked by Kim: err = %v, want query too large, limit %d bytes", len(q), err, s.cfg.MaxQueryBytes)
	}
	if _, err := s.askedText("question", q, ""); err != nil {
		t.Errorf("without an asker: err = %v, want nil", err)
	}
	if got, err := s.askedText("question", "Where do I live?", "Kim"); err != nil || got != "Where does Kim live?" {
		t.Errorf("askedText = %q, %v; want \"Where does Kim live?\"", got, err)
	}
}

// A question about what a named person's schooling or keep costs is asked again as the asker's; other questions,
// and the asker's own name, are not.
func TestChildsCostIsAskedAsTheAskers(t *testing.T) {
	for _, c := range []struct{ q, asker, want, name string }{
		{"How much are Sipho's school fees?", "Thandiwe", "How much are Thandiwe's school fees?", "Sipho"},
		{"What is Mia's allowance now?", "Jonas", "What is Jonas's allowance now?", "Mia"},
		{"How much pocket money does Ana get?", "Jonas", "", ""},
		{"What is Mia's favourite film?", "Jonas", "", ""},
		{"How much are Thandiwe's school fees?", "Thandiwe", "", ""},
		{"How much are Sipho's school fees?", "", "", ""},
	} {
		got, name, ok := childsCost(c.q, c.asker)
		if ok != (c.want != "") || got != c.want || name != c.name {
			t.Errorf("childsCost(%q, %q) = %q, %q, %v; want %q, %q", c.q, c.asker, got, name, ok, c.want, c.name)
		}
	}
}

// A child's fees said by the parent are the parent's claim; asked as the child's by the parent, the answer is the
// parent's fee, and asked by someone whose child the named person is not, it is not.
func TestAnswerReadsAChildsCostAsTheParents(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("fees")
	f.add(fclaim{Subject: "Thandiwe", Predicate: "son", Object: "Sipho", Text: "Thandiwe's son is Sipho."})
	f.add(fclaim{Subject: "Thandiwe", Predicate: "fee", Object: "R74,500 a year", Text: "Thandiwe's fee is R74,500 a year."})
	f.add(fclaim{Subject: "Lerato", Predicate: "fee", Object: "R50,000 a year", Text: "Lerato's fee is R50,000 a year."})
	ctx := context.Background()
	c := h.client("agent-a")
	for asker, want := range map[string]string{"Thandiwe": "R74,500", "Lerato": ""} {
		ar, err := c.Answer(ctx, "fees", api.AnswerRequest{Question: "How much are Sipho's school fees?", Asker: asker})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case want != "" && (!strings.Contains(ar.Answer, want) || ar.Mode != ModeDeterministic):
			t.Errorf("asked by %s: %q (%s), want the parent's fee %s", asker, ar.Answer, ar.Mode, want)
		case want == "" && strings.Contains(ar.Answer, "R50,000"):
			t.Errorf("asked by %s, who is not Sipho's parent: %q, want no fee of the asker's", asker, ar.Answer)
		}
	}
}
