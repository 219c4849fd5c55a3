package query

import (
	"strings"
	"sync"
	"unicode"

	"github.com/kljensen/snowball/english"

	"github.com/mneme-ai/mneme/pkg/canon"
)

// word is one word of a text with where it came from: the whitespace field it belongs to (fields are the units
// of entity n-grams) and its Snowball stem, the same stemmer Postgres' english text search uses.
type word struct {
	low   string
	stem  string
	field int
}

// stemCache memoizes stems: the same few thousand words recur in every question and claim.
var stemCache sync.Map

func stem(w string) string {
	if s, ok := stemCache.Load(w); ok {
		return s.(string)
	}
	s := english.Stem(w, false)
	stemCache.Store(w, s)
	return s
}

// splitWords splits a field into lower-case words of letters and digits; a trailing possessive "s" (after an
// apostrophe) is dropped.
func splitWords(f string) []string {
	f = strings.ToLower(f)
	var out []string
	var b strings.Builder
	prevApos := false
	flush := func() {
		if b.Len() == 0 {
			return
		}
		w := b.String()
		b.Reset()
		if prevApos && w == "s" {
			return
		}
		out = append(out, w)
	}
	for _, r := range f {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
			continue
		}
		flush()
		prevApos = r == '\'' || r == '’'
	}
	flush()
	return out
}

// fields splits a text on whitespace.
func fields(s string) []string { return strings.Fields(s) }

// words returns the words of s with their field indexes.
func words(s string) []word {
	var out []word
	for i, f := range fields(s) {
		for _, w := range splitWords(f) {
			out = append(out, word{low: w, stem: stem(w), field: i})
		}
	}
	return out
}

// stopwords carry no relation meaning in a question or a claim sentence.
var stopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the of in on at to for from by with about as into onto upon over under
		and or but nor so yet if then than that this these those there here
		is are was were be been being am do does did done has have had having will would shall should can could may might must
		what which who whom whose where when why how whoever whatever
		i me my mine we us our you your he him his she her hers it its they them their theirs one ones
		name named called current currently now still also just very really actually
		please tell know let give find show say said
		s t d ll m re ve`) {
		m[w] = true
	}
	return m
}()

// mention is a span of a question's fields that names a known subject.
type mention struct {
	from, to int // fields [from, to)
	text     string
	key      string // the candidate key looked up
	subjects []string
}

// maxMentionFields bounds entity n-grams: names longer than this are rare and the lookup stays small.
const maxMentionFields = 8

// maxMentionScan bounds how many fields of a query are scanned for entity mentions, so a long query costs a
// bounded lookup (a few thousand keys at most).
const maxMentionScan = 96

// ngramKeys returns every field n-gram of s (up to maxMentionFields fields) with its canonical subject key,
// in the order longest first. Keys are deduplicated; the first (longest, leftmost) span wins. Only the first
// maxMentionScan fields are scanned.
func ngramKeys(s string) ([]string, map[string][2]int) {
	fs := fields(s)
	if len(fs) > maxMentionScan {
		fs = fs[:maxMentionScan]
	}
	spans := map[string][2]int{}
	var keys []string
	for n := min(maxMentionFields, len(fs)); n >= 1; n-- {
		for i := 0; i+n <= len(fs); i++ {
			text := strings.Join(fs[i:i+n], " ")
			trimmed := trimQuestionPunct(text)
			// Canonical keys match claims.subject_key; the lower-cased surface form matches subject_aliases
			// (which records how subjects were written).
			for _, k := range []string{canon.SubjectKey(text), canon.SubjectKey(trimmed), strings.ToLower(trimmed)} {
				if k == "" || len(k) > 200 {
					continue
				}
				if _, ok := spans[k]; ok {
					continue
				}
				if n == 1 && stopwords[k] {
					continue
				}
				spans[k] = [2]int{i, i + n}
				keys = append(keys, k)
			}
		}
	}
	return keys, spans
}

// trimQuestionPunct strips a trailing question mark and surrounding quotes that canon keeps inside words.
func trimQuestionPunct(s string) string {
	return strings.Trim(s, "?!.,;:\"'“”‘’()[]")
}

// lexicalTerms turns arbitrary text into terms for websearch_to_tsquery: words of letters and digits only
// (so no operator or quote in the caller's text can change the query's meaning), stopwords and the words
// "or"/"and" dropped, at most maxLexicalTerms terms.
func lexicalTerms(s string) []string { return lexicalTermsOutside(s, nil) }

// lexicalTermsOutside is lexicalTerms without the words inside the mentions' fields.
func lexicalTermsOutside(s string, ms []mention) []string {
	const maxLexicalTerms = 32
	seen := map[string]bool{}
	var terms []string
	for _, w := range words(s) {
		inside := false
		for _, m := range ms {
			if w.field >= m.from && w.field < m.to {
				inside = true
				break
			}
		}
		if inside || stopwords[w.low] || seen[w.low] || len(w.low) > 64 || w.low == "or" || w.low == "and" {
			continue
		}
		seen[w.low] = true
		terms = append(terms, w.low)
		if len(terms) == maxLexicalTerms {
			break
		}
	}
	return terms
}
