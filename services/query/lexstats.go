package query

import (
	"context"
	"sync"
	"time"
)

// lexemeStatsTTL is how long the claims table's lexeme statistics are reused before they are read again; they
// change only when Postgres re-analyzes the table.
const lexemeStatsTTL = 5 * time.Minute

// lexemeStats are the claims table's most common lexemes with their estimated number of matching claims, from
// Postgres' own statistics (pg_stats.most_common_elems of claims.tsv, times the table's row estimate).
type lexemeStats struct {
	mu     sync.Mutex
	read   time.Time
	counts map[string]float64
}

// selectiveTerms returns the terms whose matches a capped workspace-wide scan can see whole: those Postgres does
// not estimate to match more than lexicalScanCap claims. A common word ("lives" in a million claims: 25,000
// matches) costs the scan its whole posting list and leaves it an arbitrary 300 of its matches to rank; such a
// word still ranks the mentioned subjects' claims (anyTermSQL's bySubject scan). Without statistics (a new
// table) every term is selective.
func (s *Service) selectiveTerms(ctx context.Context, terms []string) []string {
	counts := s.lexemes.get(ctx, s)
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if counts[stem(t)] <= lexicalScanCap {
			out = append(out, t)
		}
	}
	return out
}

func (l *lexemeStats) get(ctx context.Context, s *Service) map[string]float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.read.IsZero() && time.Since(l.read) < lexemeStatsTTL {
		return l.counts
	}
	// A failed read leaves the previous statistics (or none) for another TTL: ranking degrades to scanning
	// every term, it does not fail the search.
	l.read = time.Now()
	var elems []string
	var freqs []float64
	var rows float64
	err := s.db.QueryRow(ctx, `SELECT coalesce(s.most_common_elems::text::text[], '{}'), coalesce(s.most_common_elem_freqs, '{}'),
			greatest(c.reltuples, 0)::float8
		FROM pg_class c LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'claims' AND s.attname = 'tsv'
		WHERE c.oid = 'claims'::regclass`).Scan(&elems, &freqs, &rows)
	if err != nil {
		s.log.DebugContext(ctx, "query: reading lexeme statistics failed; every term counts as selective", "err", err)
		return l.counts
	}
	counts := make(map[string]float64, len(elems))
	for i, e := range elems {
		// most_common_elem_freqs has one frequency per element, then the minimum, maximum and null frequency.
		if i < len(freqs) {
			counts[e] = freqs[i] * rows
		}
	}
	l.counts = counts
	return counts
}
