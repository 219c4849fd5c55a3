package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"

	"github.com/mneme-ai/mneme/pkg/embedding"
	"github.com/mneme-ai/mneme/pkg/tokens"
)

// ChunkRAG parameters.
const (
	// DefaultChunkTokens is the chunk size of the chunk-rag baseline (cl100k_base tokens).
	DefaultChunkTokens = 512
	// denseWindowTokens bounds the pieces a chunk is embedded in: the local model reads at most 128 of its own
	// tokens, so a 512-token chunk is embedded as windows and scored by its best window (max-sim).
	denseWindowTokens = 96
	// rrfK is the reciprocal-rank-fusion constant (the customary 60).
	rrfK = 60
	// bm25K1 and bm25B are the customary BM25 parameters.
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Chunk is one retrieval unit of the chunk-rag baseline: consecutive lines of the rendered history.
type Chunk struct {
	Index int
	Text  string
	// Tokens is the chunk's token count.
	Tokens int
	// spans locate the turns inside Text, by token offsets, so a context cut at a budget knows which turns it
	// shows in full.
	spans []turnSpan
	// windows are the pieces of Text embedded for dense retrieval.
	windows []string
}

type turnSpan struct {
	turnID     string
	start, end int // token offsets in the chunk
}

// ChunkHistory cuts a conversation's rendered history into chunks of at most size tokens. Lines (turns) are
// kept whole when they fit; a chunk that starts inside a session repeats the session's header line so every
// chunk carries its date; a turn longer than a chunk is split across chunks.
func ChunkHistory(c *Conversation, counter *tokens.Counter, size int) []Chunk {
	var chunks []Chunk
	var cur []string
	var spans []turnSpan
	curTokens := 0
	flush := func() {
		if len(cur) == 0 {
			return
		}
		text := strings.Join(cur, "\n")
		chunks = append(chunks, Chunk{Index: len(chunks), Text: text, Tokens: counter.Count(text), spans: spans})
		cur, spans, curTokens = nil, nil, 0
	}
	for _, s := range c.Sessions {
		header := RenderSessionHeader(s)
		headerTokens := counter.Count(header) + 1
		flush()
		for _, t := range s.Turns {
			line := RenderTurn(t)
			n := counter.Count(line) + 1 // the newline joining it
			if curTokens > 0 && curTokens+n > size {
				flush()
			}
			if curTokens == 0 {
				cur, curTokens = []string{header}, headerTokens
			}
			for n > size-curTokens {
				// Too long for what is left of an empty chunk: split it.
				piece := counter.Truncate(line, size-curTokens-1)
				if piece == "" {
					break
				}
				pn := counter.Count(piece) + 1
				spans = append(spans, turnSpan{t.ID, curTokens, curTokens + pn})
				cur = append(cur, piece)
				curTokens += pn
				line = line[len(piece):]
				n = counter.Count(line) + 1
				flush()
				cur, curTokens = []string{header}, headerTokens
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			spans = append(spans, turnSpan{t.ID, curTokens, curTokens + n})
			cur = append(cur, line)
			curTokens += n
		}
	}
	flush()
	for i := range chunks {
		chunks[i].windows = windows(chunks[i].Text, counter, denseWindowTokens)
	}
	return chunks
}

// windows splits text into pieces of at most n tokens at line boundaries where possible.
func windows(text string, counter *tokens.Counter, n int) []string {
	var out []string
	var cur []string
	curN := 0
	for _, line := range strings.Split(text, "\n") {
		ln := counter.Count(line)
		if curN > 0 && curN+ln > n {
			out = append(out, strings.Join(cur, "\n"))
			cur, curN = nil, 0
		}
		for ln > n {
			piece := counter.Truncate(line, n)
			if piece == "" {
				break
			}
			out = append(out, piece)
			line = line[len(piece):]
			ln = counter.Count(line)
		}
		if strings.TrimSpace(line) != "" {
			cur = append(cur, line)
			curN += ln
		}
	}
	if len(cur) > 0 {
		out = append(out, strings.Join(cur, "\n"))
	}
	return out
}

// ChunkIndex is the chunk-rag baseline over one conversation: BM25 and dense retrieval over 512-token chunks
// of the raw history, fused by reciprocal rank.
type ChunkIndex struct {
	Chunks  []Chunk
	counter *tokens.Counter
	emb     embedding.Embedder
	// windowVecs[i] are the vectors of chunk i's windows.
	windowVecs [][][]float32
	bm25       *BM25
}

// NewChunkIndex chunks the conversation and indexes it. emb may be nil (BM25 only).
func NewChunkIndex(ctx context.Context, c *Conversation, counter *tokens.Counter, emb embedding.Embedder, size int) (*ChunkIndex, error) {
	if size <= 0 {
		size = DefaultChunkTokens
	}
	x := &ChunkIndex{Chunks: ChunkHistory(c, counter, size), counter: counter, emb: emb}
	docs := make([]string, len(x.Chunks))
	for i, ch := range x.Chunks {
		docs[i] = ch.Text
	}
	x.bm25 = NewBM25(docs)
	if emb != nil {
		var texts []string
		for _, ch := range x.Chunks {
			texts = append(texts, ch.windows...)
		}
		const batch = 64
		var vecs [][]float32
		for i := 0; i < len(texts); i += batch {
			v, err := emb.Embed(ctx, texts[i:min(i+batch, len(texts))])
			if err != nil {
				return nil, fmt.Errorf("chunk-rag: embedding %s: %w", c.ID, err)
			}
			vecs = append(vecs, v...)
		}
		k := 0
		x.windowVecs = make([][][]float32, len(x.Chunks))
		for i, ch := range x.Chunks {
			x.windowVecs[i] = vecs[k : k+len(ch.windows)]
			k += len(ch.windows)
		}
	}
	return x, nil
}

// Rank returns chunk indexes in fused order: reciprocal-rank fusion of the BM25 ranking and the dense
// ranking (cosine of the query to the chunk's best window), ties broken by chunk order.
func (x *ChunkIndex) Rank(ctx context.Context, query string) ([]int, error) {
	// Only chunks sharing a term with the query are lexical candidates; the rest would enter the fusion with
	// arbitrary (tie-broken) ranks.
	bm := x.bm25.Scores(query)
	lexical := slices.DeleteFunc(rankBy(bm), func(i int) bool { return bm[i] <= 0 })
	lists := [][]int{lexical}
	if x.emb != nil {
		qv, err := x.emb.Embed(ctx, []string{query})
		if err != nil {
			return nil, fmt.Errorf("chunk-rag: embedding the query: %w", err)
		}
		dense := make([]float64, len(x.Chunks))
		for i, ws := range x.windowVecs {
			best := math.Inf(-1)
			for _, v := range ws {
				best = max(best, embedding.Cosine(qv[0], v))
			}
			dense[i] = best
		}
		lists = append(lists, rankBy(dense))
	}
	fused := make([]float64, len(x.Chunks))
	for _, l := range lists {
		for r, i := range l {
			fused[i] += 1 / float64(rrfK+r+1)
		}
	}
	return rankBy(fused), nil
}

// rankBy returns indexes by descending score, ties by index; -Inf scores (no match) still rank, last.
func rankBy(scores []float64) []int {
	idx := make([]int, len(scores))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return a - b
	})
	return idx
}

// Retrieve assembles the chunk-rag context for a query within a token budget: chunks in fused order, the
// last one cut at the budget. The returned items are the turns shown in full.
func (x *ChunkIndex) Retrieve(ctx context.Context, query string, budget int) (*Retrieval, error) {
	order, err := x.Rank(ctx, query)
	if err != nil {
		return nil, err
	}
	r := &Retrieval{}
	var parts []string
	left := budget
	for _, i := range order {
		if left <= 1 {
			break
		}
		ch := x.Chunks[i]
		text := ch.Text
		shown := ch.Tokens
		if len(parts) > 0 {
			left-- // the blank line between chunks
		}
		if ch.Tokens > left {
			text = x.counter.Truncate(ch.Text, left)
			shown = x.counter.Count(text)
		}
		if text == "" {
			break
		}
		parts = append(parts, text)
		left -= shown
		for _, s := range ch.spans {
			if s.end <= shown+1 {
				r.Items = append(r.Items, Item{ID: fmt.Sprintf("chunk-%d", ch.Index), TurnIDs: []string{s.turnID}})
			}
		}
	}
	r.Context = strings.Join(parts, "\n\n")
	r.Tokens = x.counter.Count(r.Context)
	return r, nil
}

// BM25 is an in-memory Okapi BM25 index over a fixed set of documents (lower-cased, split on non-letters and
// non-digits, English stop words dropped, Snowball-stemmed).
type BM25 struct {
	docs  []map[string]int
	lens  []int
	avg   float64
	df    map[string]int
	total int
}

// NewBM25 indexes the documents.
func NewBM25(docs []string) *BM25 {
	b := &BM25{df: map[string]int{}, total: len(docs)}
	sum := 0
	for _, d := range docs {
		tf := map[string]int{}
		terms := AnalyzeTerms(d)
		for _, t := range terms {
			tf[t]++
		}
		for t := range tf {
			b.df[t]++
		}
		b.docs = append(b.docs, tf)
		b.lens = append(b.lens, len(terms))
		sum += len(terms)
	}
	if len(docs) > 0 {
		b.avg = float64(sum) / float64(len(docs))
	}
	return b
}

// Scores returns the BM25 score of every document for the query (Lucene's non-negative idf).
func (b *BM25) Scores(query string) []float64 {
	out := make([]float64, len(b.docs))
	seen := map[string]bool{}
	for _, t := range AnalyzeTerms(query) {
		if seen[t] {
			continue
		}
		seen[t] = true
		df := b.df[t]
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (float64(b.total)-float64(df)+0.5)/(float64(df)+0.5))
		for i, tf := range b.docs {
			f := float64(tf[t])
			if f == 0 {
				continue
			}
			norm := 1 - bm25B + bm25B*float64(b.lens[i])/b.avg
			out[i] += idf * f * (bm25K1 + 1) / (f + bm25K1*norm)
		}
	}
	return out
}

// AnalyzeTerms is the BM25 analyzer: lower case, split on anything but letters and digits, stop words
// dropped, Snowball English stems.
func AnalyzeTerms(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if english.IsStopWord(w) {
			continue
		}
		out = append(out, english.Stem(w, false))
	}
	return out
}
