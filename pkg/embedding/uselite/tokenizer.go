package uselite

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer reproduces the reference JavaScript tokenizer (@energetic-ai/embeddings 0.2.0, itself
// a port of the TensorFlow.js universal-sentence-encoder tokenizer) bit for bit, quirks included,
// because the model was run with it:
//
//   - input is NFKC-normalised, then "▁" is prepended and every ASCII space becomes "▁" (other
//     whitespace is kept as is, and runs of spaces are not collapsed);
//   - the first six vocabulary entries (unknown, <s>, </s>, extra ids) never match; a later duplicate
//     of a piece replaces the earlier one;
//   - a null score in vocab.json counts as 0 (JavaScript's null + number);
//   - at a position where no piece starts, the single character becomes the unknown id 0 with score 0;
//   - Viterbi keeps, at each end position, the best score with ties going to the later candidate
//     (candidates ordered by start position), and treats a best score of exactly 0 as "unset";
//   - a position that no path reaches decodes as the unknown id;
//   - consecutive unknown ids collapse into one.

const (
	wordSeparator  = '▁'
	reservedPieces = 6
	unknownID      = 0
)

// Tokenizer is a SentencePiece unigram tokenizer over the model's vocabulary. It is immutable and safe
// for concurrent use.
type Tokenizer struct {
	root    *trieNode
	pieceCP []int // length of each vocabulary piece in UTF-16 code units, as the reference backtracks
}

type trieNode struct {
	children map[rune]*trieNode
	end      bool
	score    float64
	id       int
	depth    int // number of runes from the root
}

type vocabEntry struct {
	piece string
	score float64
}

func (e *vocabEntry) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw) != 2 {
		return fmt.Errorf("vocabulary entry has %d elements, want 2", len(raw))
	}
	if err := json.Unmarshal(raw[0], &e.piece); err != nil {
		return fmt.Errorf("vocabulary piece: %w", err)
	}
	var score *float64
	if err := json.Unmarshal(raw[1], &score); err != nil {
		return fmt.Errorf("vocabulary score of %q: %w", e.piece, err)
	}
	if score != nil {
		e.score = *score
	}
	return nil
}

// parseVocabulary decodes vocab.json: a JSON array of [piece, score] pairs.
func parseVocabulary(data []byte) ([]vocabEntry, error) {
	var entries []vocabEntry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("decode vocabulary: %w", err)
	}
	if len(entries) <= reservedPieces {
		return nil, fmt.Errorf("vocabulary has %d entries, want more than %d", len(entries), reservedPieces)
	}
	return entries, nil
}

func newTokenizer(vocab []vocabEntry) *Tokenizer {
	t := &Tokenizer{root: &trieNode{}, pieceCP: make([]int, len(vocab))}
	for i, e := range vocab {
		t.pieceCP[i] = utf16Len(e.piece)
		if i < reservedPieces {
			continue
		}
		node := t.root
		for _, r := range e.piece {
			child := node.children[r]
			if child == nil {
				if node.children == nil {
					node.children = make(map[rune]*trieNode)
				}
				child = &trieNode{depth: node.depth + 1}
				node.children[r] = child
			}
			node = child
		}
		if node != t.root {
			node.end, node.score, node.id = true, e.score, i
		}
	}
	return t
}

func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// preprocess applies the reference's input normalisation and returns the text as runes.
func preprocess(text string) []rune {
	if !utf8.ValidString(text) {
		// Each invalid byte becomes U+FFFD, as ranging over the string would.
		text = strings.ToValidUTF8(text, "\uFFFD")
	}
	normalized := norm.NFKC.String(text)
	if normalized == "" {
		return nil
	}
	out := make([]rune, 0, len(normalized)+1)
	out = append(out, wordSeparator)
	for _, r := range normalized {
		if r == ' ' {
			r = wordSeparator
		}
		out = append(out, r)
	}
	return out
}

// Encode returns the token ids of text, without truncation (the model reads at most MaxTokens).
func (t *Tokenizer) Encode(text string) []int {
	return t.encodeRunes(preprocess(text))
}

func (t *Tokenizer) encodeRunes(symbols []rune) []int {
	n := len(symbols)
	if n == 0 {
		return []int{}
	}
	// Viterbi, relaxing the pieces that start at i for i = 0, 1, …: best[i] is final by then (every
	// piece ending at i starts before it), and the pieces ending at any one position are visited in
	// increasing start order — the order in which the reference compares them.
	best := make([]float64, n+1)
	words := make([]int, n+1)
	relax := func(end int, score float64, id int) {
		if best[end] == 0 || score >= best[end] {
			best[end] = score
			words[end] = id
		}
	}
	for i := 0; i < n; i++ {
		matched := false
		node := t.root.children[symbols[i]]
		for j := i; node != nil; {
			if node.end {
				relax(i+node.depth, node.score+best[i], node.id)
				matched = true
			}
			if j++; j == n {
				break
			}
			node = node.children[symbols[j]]
		}
		if !matched {
			relax(i+1, best[i], unknownID)
		}
	}

	var reversed []int
	for pos := n; pos > 0; {
		id := words[pos]
		reversed = append(reversed, id)
		pos -= max(t.pieceCP[id], 1) // an empty piece can never be chosen; the guard keeps the loop finite
	}
	out := make([]int, 0, len(reversed))
	prevUnknown := false
	for _, id := range reversed {
		if !(prevUnknown && id == unknownID) {
			out = append(out, id)
		}
		prevUnknown = id == unknownID
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}
