package query

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
)

// "Ana is married to Ben" files each as the other's spouse (the extractor's converse). When Ana marries Carl,
// Ben's spouse is no longer Ana, though nothing was said about Ben; a pair nobody changed stays married, and a
// spouse who married again before the later marriage was said is still that later spouse. Expectations are
// what a person reading the statements in order would answer.
func TestASpouseWhoMarriedAgainIsNoLongerTheSpouse(t *testing.T) {
	f := newMemFacts()
	marry := func(a, b string, seq int64) {
		f.add(a, "married to", b, a+" is married to "+b+".", seq)
		f.add(b, "spouse", a, b+"'s spouse is "+a+".", seq+1)
	}
	marry("Ana", "Ben", 1)
	marry("Dora", "Eli", 3)
	marry("Ana", "Carl", 5)
	marry("Gus", "Hal", 7)
	marry("Fay", "Gus", 9)
	checkResolved(t, f, map[string]string{
		"Who is Ben married to?":  "",
		"Who is Ana married to?":  "Carl",
		"Who is Carl married to?": "Ana",
		"Who is Eli married to?":  "Dora",
		"Who is Dora married to?": "Eli",
		"Who is Hal married to?":  "",
		"Who is Gus married to?":  "Fay",
		"Who is Fay married to?":  "Gus",
		"Who is married to Ana?":  "Carl",
		"Who is married to Gus?":  "Fay",
	})
}

// Through /search and Postgres: Ben's spouse, filed when Ana married him, is not given as current once Ana has
// married Carl; Carl's is.
func TestSearchLeavesAFormerSpouseOut(t *testing.T) {
	h := newHarness(t)
	f := h.workspace("converses")
	f.add(fclaim{Subject: "Ana", Predicate: "married to", Object: "Ben", Text: "Ana is married to Ben.", ValidFrom: day("2020-06-01"), Status: "superseded"})
	ben := f.add(fclaim{Subject: "Ben", Predicate: "married to", Object: "Ana", Text: "Ben is married to Ana.", ValidFrom: day("2020-06-01")})
	f.add(fclaim{Subject: "Ana", Predicate: "married to", Object: "Carl", Text: "Ana is married to Carl.", ValidFrom: day("2024-05-01")})
	carl := f.add(fclaim{Subject: "Carl", Predicate: "married to", Object: "Ana", Text: "Carl is married to Ana.", ValidFrom: day("2024-05-01")})

	f.checkSearch("agent-a", api.SearchRequest{Query: "Who is Ben married to?", K: 10}, nil, []string{ben}, "Ana has married Carl since")
	f.checkSearch("agent-a", api.SearchRequest{Query: "Who is Carl married to?", K: 10}, []string{carl}, nil, "the current spouse")
}
