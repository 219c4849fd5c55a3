package query

import (
	"context"
	"sync"
	"time"

	"github.com/mneme-ai/mneme/pkg/store"
)

// lexemeStatsTTL is how long the claims table's lexeme statistics are reused before they are read again; they
// change only when Postgres re-analyzes the table.
const lexemeStatsTTL = 5 * time.Minute

// largeWorkspaceClaims is the workspace size above which the any-term scan consults the table statistics. A
// smaller workspace scans every word: the scan is cheap there, and its result then depends on the data alone —
// not on when Postgres last analyzed the table (statistics sampled at different moments gave the same BEAM run
// different figures).
const largeWorkspaceClaims = 20000

// workspaceSizes remembers, per workspace, whether it holds more than largeWorkspaceClaims claims.
type workspaceSizes struct {
	mu    sync.Mutex
	sizes map[string]workspaceSize
}

type workspaceSize struct {
	large bool
	read  time.Time
}

// large reports whether ws holds more than largeWorkspaceClaims claims, counted at most once per
// lexemeStatsTTL (the count stops at the threshold, so it stays cheap in a workspace of any size).
func (w *workspaceSizes) large(ctx context.Context, s *Service, ws string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if sz, ok := w.sizes[ws]; ok && time.Since(sz.read) < lexemeStatsTTL {
		return sz.large
	}
	large, err := store.WorkspaceHoldsMore(ctx, s.db, ws, largeWorkspaceClaims)
	if err != nil {
		s.log.DebugContext(ctx, "query: counting the workspace's claims failed", "err", err)
		return false
	}
	if w.sizes == nil {
		w.sizes = map[string]workspaceSize{}
	}
	w.sizes[ws] = workspaceSize{large: large, read: time.Now()}
	return large
}

// lexemeStats are the claims table's most common lexemes with their estimated number of matching claims
// (store.LexemeCounts), read at most once per lexemeStatsTTL.
type lexemeStats struct {
	mu     sync.Mutex
	read   time.Time
	counts map[string]float64
}

// selectiveTerms returns the terms whose matches a capped workspace-wide scan can see whole: in a large workspace
// (more than largeWorkspaceClaims claims), those Postgres does not estimate to match more than lexicalScanCap
// claims; in a smaller one, every term. A common word ("lives" in a million claims: 25,000 matches) costs the scan
// its whole posting list and leaves it an arbitrary 300 of its matches to rank; such a word still ranks the
// mentioned subjects' claims (anyTermSQL's bySubject scan). Without statistics (a new table) every term is
// selective.
func (s *Service) selectiveTerms(ctx context.Context, ws string, terms []string) []string {
	if !s.wsSizes.large(ctx, s, ws) {
		return terms
	}
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
	counts, err := store.LexemeCounts(ctx, s.db)
	if err != nil {
		s.log.DebugContext(ctx, "query: reading lexeme statistics failed; every term counts as selective", "err", err)
		return l.counts
	}
	l.counts = counts
	return counts
}
