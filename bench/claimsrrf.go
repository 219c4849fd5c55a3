package bench

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// SystemClaimsRRF is a diagnostic system, run only when asked for (-systems ...,claims-rrf): Mneme's own
// stored claims (current beliefs, read from the projection after Mneme's ingest) ranked by the same plain
// BM25 + dense reciprocal-rank fusion chunk-rag uses, without the query service. Compared with mneme it
// separates what the claims hold from how the query service ranks and assembles them.
const SystemClaimsRRF = "claims-rrf"

// ClaimsRRF implements the claims-rrf diagnostic. It needs Mneme's projection (in-process, or -database-url).
type ClaimsRRF struct {
	M        *Mneme
	Counter  *tokens.Counter
	Embedder embedding.Embedder

	mu      sync.Mutex
	indexes map[string]*claimIndex
}

type claimDoc struct {
	id, text, status string
	turns            []string
	vec              []float32
}

type claimIndex struct {
	docs []claimDoc
	bm25 *BM25
}

// Name implements System.
func (c *ClaimsRRF) Name() string { return SystemClaimsRRF }

// Prepare implements System: Mneme's ingest (shared), then the workspace's current claims and their stored
// vectors.
func (c *ClaimsRRF) Prepare(ctx context.Context, conv *Conversation) (IngestStats, error) {
	if c.M.DB == nil {
		return IngestStats{}, errors.New("claims-rrf reads Mneme's projection: run in-process or pass -database-url")
	}
	st, _, err := c.M.prepare(ctx, conv)
	if err != nil {
		return st, err
	}
	st.Skipped = true
	claims, err := store.CurrentClaims(ctx, c.M.DB, c.M.workspace(conv))
	if err != nil {
		return st, fmt.Errorf("claims-rrf: %w", err)
	}
	x := &claimIndex{}
	for _, cl := range claims {
		d := claimDoc{id: cl.ID, text: cl.Text, status: cl.Status, vec: cl.Embedding}
		for _, t := range cl.Turns {
			d.turns = append(d.turns, SourceTurn(t))
		}
		d.turns = sortedUnique(d.turns)
		if c.Embedder == nil || len(d.vec) != c.Embedder.Dim() {
			d.vec = nil // another model's vectors are not comparable with the query's
		}
		x.docs = append(x.docs, d)
	}
	texts := make([]string, len(x.docs))
	for i, d := range x.docs {
		texts[i] = d.text
	}
	x.bm25 = NewBM25(texts)
	c.mu.Lock()
	if c.indexes == nil {
		c.indexes = map[string]*claimIndex{}
	}
	c.indexes[conv.ID] = x
	c.mu.Unlock()
	return st, nil
}

// Retrieve implements System: claims in fused order, one line each, until the budget.
func (c *ClaimsRRF) Retrieve(ctx context.Context, conv *Conversation, q *Question, budget int) (*Retrieval, error) {
	c.mu.Lock()
	x := c.indexes[conv.ID]
	c.mu.Unlock()
	if x == nil {
		return nil, fmt.Errorf("claims-rrf: conversation %s was not prepared", conv.ID)
	}
	bm := x.bm25.Scores(q.Text)
	lists := [][]int{slices.DeleteFunc(rankBy(bm), func(i int) bool { return bm[i] <= 0 })}
	if c.Embedder != nil {
		qv, err := c.Embedder.Embed(ctx, []string{q.Text})
		if err != nil {
			return nil, fmt.Errorf("claims-rrf: embedding the query: %w", err)
		}
		dense := make([]float64, len(x.docs))
		for i, d := range x.docs {
			if d.vec != nil {
				dense[i] = embedding.Cosine(qv[0], d.vec)
			}
		}
		ranked := rankBy(dense)
		lists = append(lists, slices.DeleteFunc(ranked, func(i int) bool { return x.docs[i].vec == nil }))
	}
	fused := make([]float64, len(x.docs))
	for _, l := range lists {
		for r, i := range l {
			fused[i] += 1 / float64(rrfK+r+1)
		}
	}
	r := &Retrieval{}
	var lines []string
	used := 0
	for _, i := range rankBy(fused) {
		if fused[i] == 0 {
			break
		}
		line := "- " + x.docs[i].text
		n := c.Counter.Count(line) + 1
		if used+n > budget {
			break
		}
		used += n
		lines = append(lines, line)
		r.Items = append(r.Items, Item{ID: x.docs[i].id, Text: x.docs[i].text, TurnIDs: x.docs[i].turns, Status: x.docs[i].status})
	}
	r.Context = strings.Join(lines, "\n")
	r.Tokens = c.Counter.Count(r.Context)
	return r, nil
}
