package query

import (
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/store"
)

// termMatchesSQL counts, for each of n question terms (@t0 … @t<n-1>), the workspace's claims visible to the
// view's agent that hold it, counting no further than lexicalScanCap+1: one bounded probe per term, a few
// hundred rows at most whatever the workspace's size. Each term is a constant of its own subquery, so the
// planner chooses per term between the full-text index (a word rare in the whole table) and the workspace's
// rows (a word common in other workspaces).
func termMatchesSQL(n int) string {
	cols := make([]string, n)
	for i := range n {
		cols[i] = fmt.Sprintf(`(SELECT count(*) FROM (SELECT 1 FROM claims c
			WHERE c.workspace_id = @ws AND %s AND c.tsv @@ plainto_tsquery('english', @t%d) LIMIT %d) AS x)`,
			store.VisibleTo("c"), i, lexicalScanCap+1)
	}
	return `SELECT ` + strings.Join(cols, ", ")
}

// termMatchesArgs are termMatchesSQL's arguments for terms in view v.
func termMatchesArgs(v store.View, terms []string) pgx.NamedArgs {
	a := pgx.NamedArgs{"ws": v.Workspace, "agent": v.Agent}
	for i, t := range terms {
		a[fmt.Sprintf("t%d", i)] = t
	}
	return a
}

// scanTermMatches reads termMatchesSQL's one row: each term's bounded count of matching claims.
func scanTermMatches(rows pgx.Rows, terms []string) (map[string]int, error) {
	defer rows.Close()
	counts := make([]int64, len(terms))
	dest := make([]any, len(terms))
	for i := range counts {
		dest[i] = &counts[i]
	}
	out := make(map[string]int, len(terms))
	if rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		for i, t := range terms {
			out[t] = int(counts[i])
		}
	}
	return out, rows.Err()
}

// selectiveTerms returns the terms a capped workspace-wide scan can see whole: those no more than lexicalScanCap of
// the workspace's visible claims hold (matches, from termMatchesSQL). A common word ("lives" in 800 of a
// workspace's 14,000 claims) costs the scan every one of its matches, to keep an arbitrary 300 of them whose
// inverse document frequency is near zero; such a word still ranks the mentioned subjects' claims (anyTermSQL's
// bySubject scan) and weighs every claim the rarer words find. The counts are the workspace's own, taken with
// the search, so a result depends on the data alone — not on when Postgres last analyzed the table, nor on how
// common a word is in other workspaces.
func selectiveTerms(terms []string, matches map[string]int) []string {
	out := make([]string, 0, len(terms))
	for _, t := range terms {
		if n, ok := matches[t]; !ok || n <= lexicalScanCap {
			out = append(out, t)
		}
	}
	return out
}
