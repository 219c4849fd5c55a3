package query

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mneme-ai/mneme/pkg/store"
)

// Value updates the reconciler could not tie to a slot. A person states a quantity, a date or a count and later
// the same thing with another value, in other words ("I've written 4,500 words" … "my final draft reached 4,700
// words"): the two claims land in different slots, so nothing supersedes the first, and a context that shows
// only the older one presents a stale value as all there is. Assembly therefore brings, after a claim that
// states a quantity, the most similar later claim of the same subject among its nearest (cosine similarity of
// the stored vectors at least updateSimilarity) that gives the same thing counted ("words", "interviews", "%",
// a month) another number, so the reader sees both, each with its date. Nothing is retired: deciding is the
// reconciler's.

const (
	// updateSimilarity is how close two claims' vectors must be to be read as statements about one thing; the
	// same counted thing carries the precision, the similarity only keeps other topics out (paraphrases of one
	// fact score 0.6–0.8 with the local embedder).
	updateSimilarity = 0.6
	// updateSources bounds how many of the best-ranked claims are checked for a later value (one query).
	updateSources = 12
	// updateCandidates is how many nearest later claims of the subject are read per source claim.
	updateCandidates = 8
)

// numberPattern matches a number a value is stated in — digits with thousands separators or decimals ("4,500",
// "3.5", "87") — with what it counts: a percent sign or the word after it ("4,500 words", "87%", "20 April").
var numberPattern = regexp.MustCompile(`(\d+(?:[.,]\d{3})*(?:\.\d+)?)\s*(%|[\p{L}]+)?`)

// quantitiesOf returns, per thing counted (a lower-case word without a plural "s", or "%"), the numbers a text
// states of it; separators are removed ("4,500" and "4500" are one number).
func quantitiesOf(text string) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	for _, m := range numberPattern.FindAllStringSubmatch(text, -1) {
		unit := strings.TrimSuffix(strings.ToLower(m[2]), "s")
		if unit == "" {
			continue
		}
		if out[unit] == nil {
			out[unit] = map[string]bool{}
		}
		out[unit][strings.ReplaceAll(m[1], ",", "")] = true
	}
	return out
}

// quantityPattern returns a Postgres regular expression (matched without regard to case) that every text
// stating a quantity of something text counts matches — a digit, then space, then what is counted
// (quantitiesOf's units, whose plural "s" the match leaves open) — or "" when text states none. It matches more
// than restatesWithNewValue accepts: the store reads only the claims it matches, and the check is made on those.
func quantityPattern(text string) string {
	units := slices.Sorted(maps.Keys(quantitiesOf(text)))
	if len(units) == 0 {
		return ""
	}
	for i, u := range units {
		units[i] = regexp.QuoteMeta(u)
	}
	return `[0-9][[:space:]]*(?:` + strings.Join(units, "|") + `)`
}

// restatesWithNewValue reports whether newer states a quantity of something older also counts, with a number
// older does not give it ("3 interviews" then "5 interviews", "20 April" then "25 April"): the same thing with
// another value — not the same value again, and not a number of something else.
func restatesWithNewValue(older, newer string) bool {
	a := quantitiesOf(older)
	for unit, ns := range quantitiesOf(newer) {
		if a[unit] == nil {
			continue
		}
		for n := range ns {
			if !a[unit][n] {
				return true
			}
		}
	}
	return false
}

// withUpdates inserts after each of the first updateSources current claims that state a number the later claim
// that restates it with another value (see above), marked linked so the two travel together through the budget.
// Without a query embedding dimension (no dense retrieval) it does nothing.
func (s *Service) withUpdates(ctx context.Context, v store.View, p searchParams, items []item) ([]item, error) {
	if p.dim == 0 || p.history || v.AsOf != nil {
		// History and as_of views show every value already; without vectors there is no similarity.
		return items, nil
	}
	var sources []store.RestatementSource
	for _, it := range items {
		if len(sources) == updateSources {
			break
		}
		if it.former || it.linked || it.claim.Status != "active" {
			continue
		}
		if pattern := quantityPattern(it.claim.Text); pattern != "" {
			sources = append(sources, store.RestatementSource{ID: it.claim.ID, TextPattern: pattern})
		}
	}
	if len(sources) == 0 {
		return items, nil
	}
	near, byID, err := s.laterRestatements(ctx, v, sources, p.dim, updateSimilarity)
	if err != nil || len(near) == 0 {
		return items, err
	}
	// An update ranked further down is pulled forward to follow the value it updates; one ranked before it stays.
	at := map[string]int{}
	for i, it := range items {
		at[it.claim.ID] = i
	}
	moved := map[string]bool{}
	out := make([]item, 0, len(items)+len(sources))
	for i, it := range items {
		if moved[it.claim.ID] {
			continue
		}
		out = append(out, it)
		for _, id := range near[it.claim.ID] {
			c := byID[id]
			if j, ok := at[id]; ok {
				if j < i || moved[id] || items[j].linked || len(items[j].claim.Contradicts) > 0 || !restatesWithNewValue(it.claim.Text, items[j].claim.Text) {
					continue
				}
				c = items[j].claim
			} else if c == nil || moved[id] || !restatesWithNewValue(it.claim.Text, c.Text) {
				continue
			}
			moved[id] = true
			out = append(out, item{claim: c, score: it.score, linked: true})
			break
		}
	}
	return out, nil
}

// laterRestatements reads, for each source claim, its nearest later claims of the same subject at least
// minSimilarity close (store.LaterRestatements): their ids by source, most similar first, and the claims by id.
func (s *Service) laterRestatements(ctx context.Context, v store.View, sources []store.RestatementSource, dim int,
	minSimilarity float64) (map[string][]string, map[string]*store.Belief, error) {
	restated, err := store.LaterRestatements(ctx, s.db, v, sources, dim, updateCandidates, minSimilarity)
	if err != nil || len(restated) == 0 {
		return nil, nil, err
	}
	near := map[string][]string{}
	var want []string
	for _, r := range restated {
		near[r.Source] = append(near[r.Source], r.ID)
		want = append(want, r.ID)
	}
	loaded, err := store.ClaimsByID(ctx, s.db, v, want)
	if err != nil {
		return nil, nil, err
	}
	byID := make(map[string]*store.Belief, len(loaded))
	for i := range loaded {
		byID[loaded[i].ID] = &loaded[i]
	}
	return near, byID, nil
}
