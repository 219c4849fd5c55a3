package query

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/embedding/uselite"
	"github.com/mneme-ai/mneme/pkg/factcons"
	"github.com/mneme-ai/mneme/pkg/store"
)

// factConsPath is the FactConsolidation data relative to this package (the repository's ../shared/data), or
// $MNEME_FACTCONS_DATA (a git worktree elsewhere has no ../shared beside it).
var factConsPath = func() string {
	if p := os.Getenv("MNEME_FACTCONS_DATA"); p != "" {
		return p
	}
	return filepath.Join("..", "..", "..", "shared", "data", "memoryagentbench", "factconsolidation_6k.json")
}()

// TestFactConsolidationResolver runs the deterministic resolver over the benchmark's facts held in memory (no
// database): it measures question understanding alone. The end-to-end figure comes from cmd/factcons.
func TestFactConsolidationResolver(t *testing.T) {
	rows, err := factcons.Load(factConsPath)
	if err != nil {
		if os.IsNotExist(err) || strings.Contains(err.Error(), "no such file") {
			t.Skipf("benchmark data not present: %v", err)
		}
		t.Fatal(err)
	}
	// With the local model present, predicate phrases are also compared by meaning (as the service does).
	var emb embedding.Embedder
	if m, err := uselite.Load(embedding.DefaultModelDir()); err == nil {
		emb = m
	} else {
		t.Logf("predicate similarity off: %v", err)
	}
	for _, row := range rows {
		m := newMemFacts()
		for _, f := range factcons.Facts(row.Context) {
			tr, ok := factcons.Split(f.Text)
			if !ok {
				t.Errorf("fact %d has no known shape: %q", f.N, f.Text)
				continue
			}
			m.add(tr.Subject, tr.Predicate, tr.Object, f.Text, f.N)
		}
		var embed func(context.Context, string) ([]float32, error)
		if emb != nil {
			if err := m.embedPredicates(emb); err != nil {
				t.Fatal(err)
			}
			embed = func(ctx context.Context, s string) ([]float32, error) {
				v, err := emb.Embed(ctx, []string{s})
				if err != nil {
					return nil, err
				}
				return v[0], nil
			}
		}
		right := 0
		for i, q := range row.Questions {
			r := &resolver{f: m, agent: "a", maxHops: 4, slots: map[string][]*store.Slot{}, embed: embed}
			c, ms, err := r.resolve(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			pred := ""
			var path []string
			if c != nil {
				pred = c.hops[len(c.hops)-1].claim.Object
				for _, h := range c.hops {
					path = append(path, h.claim.Text)
				}
			}
			ok := factcons.SubstringExactMatch(pred, row.Answers[i])
			if ok {
				right++
			} else if testing.Verbose() {
				var mt []string
				for _, x := range ms {
					mt = append(mt, x.text)
				}
				t.Logf("MISS %s q=%q gold=%v got=%q mentions=%v path=%v", row.Metadata.Source, q, row.Answers[i], pred, mt, path)
				if c != nil && c.q != nil {
					for _, u := range c.q.units {
						t.Logf("      unit %q keys=%v words=%v opt=%v", u.said, u.keys, u.words, u.optional)
					}
				}
			}
		}
		t.Logf("%s: %d/%d = %.1f%%", row.Metadata.Source, right, len(row.Questions), 100*float64(right)/float64(len(row.Questions)))
	}
}
