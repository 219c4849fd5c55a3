// Package canon canonicalizes the parts of a claim so that the same fact stated in different words lands in the
// same slot: subject keys (what claims are about, the partition key), predicate keys (which attribute), object
// keys (value equality), the predicate policy (single-valued "functional" attributes versus accumulating facts)
// and a generated claim sentence for claims that arrive without text.
//
// Every key function is deterministic and idempotent (K(K(x)) == K(x)), so a key can be canonicalized again
// by a later stage, or used as input, without changing.
package canon

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// maxFixpoint bounds the normalization loop. One or two passes suffice for real text; the loop only protects
// idempotence against rare Unicode case mappings whose result is not itself NFKC-normal.
const maxFixpoint = 4

// fold returns s in NFKC, lower-cased, with typographic apostrophes and quotes mapped to ASCII so "Alice’s"
// and "Alice's" agree.
func fold(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "")
	}
	s = norm.NFKC.String(s)
	s = strings.ToLower(s)
	s = norm.NFKC.String(s)
	return strings.Map(func(r rune) rune {
		switch r {
		case '’', '‘', '`', '´', 'ʼ', '′':
			return '\''
		case '“', '”', '„', '«', '»', '″':
			return '"'
		}
		return r
	}, s)
}

// isSep reports runes that separate key words. "_" is a separator so that a key is accepted as input.
func isSep(r rune) bool { return unicode.IsSpace(r) || r == '_' || unicode.IsControl(r) }

// isEdgePunct reports runes trimmed from both ends of a key word: punctuation and symbols, except those
// that carry meaning at an edge ("#1", "$5", "+49", "c++", "50%", "&").
func isEdgePunct(r rune) bool {
	switch r {
	case '#', '$', '€', '£', '+', '%', '&', '@':
		return false
	}
	return unicode.IsPunct(r) || unicode.IsSymbol(r)
}

var articles = map[string]bool{"the": true, "a": true, "an": true}

// SubjectKey returns the canonical key of a subject: NFKC, lower case, surrounding punctuation and quotes
// removed, leading articles and a trailing possessive ('s, s') stripped, words joined by "_".
// "The Eiffel Tower" → "eiffel_tower", "Alice's" → "alice", "Dr. Smith" → "dr_smith". A subject that is
// nothing but an article keeps it ("The" → "the"); an empty or all-punctuation subject gives "".
func SubjectKey(s string) string {
	prev := s
	for range maxFixpoint {
		next := subjectKeyOnce(prev)
		if next == prev {
			return next
		}
		prev = next
	}
	return prev
}

func subjectKeyOnce(s string) string {
	words := keyWords(fold(s))
	for len(words) > 1 && articles[words[0]] {
		words = words[1:]
	}
	if n := len(words); n > 0 {
		if w := stripPossessive(words[n-1]); w != "" {
			words[n-1] = w
		} else if n > 1 {
			words = words[:n-1]
		}
	}
	return strings.Join(words, "_")
}

// keyWords splits on separators, drops dots inside words ("U.S." → "us") and trims edge punctuation.
func keyWords(s string) []string {
	fields := strings.FieldsFunc(s, isSep)
	out := fields[:0]
	for _, f := range fields {
		f = strings.ReplaceAll(f, ".", "")
		f = strings.TrimFunc(f, isEdgePunct)
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// stripPossessive removes trailing "'s" or "'" (after s), repeatedly, and any punctuation uncovered.
func stripPossessive(w string) string {
	for {
		switch {
		case strings.HasSuffix(w, "'s") && len(w) > 2:
			w = w[:len(w)-2]
		case strings.HasSuffix(w, "s'") && len(w) > 2:
			w = w[:len(w)-1]
		default:
			return w
		}
		w = strings.TrimFunc(w, isEdgePunct)
	}
}

// ObjectKey returns a key for comparing objects: case-, space-, punctuation- and diacritic-insensitive, with
// a leading article dropped. "Washington, D.C." and "washington dc" have the same key; so do "Kūkai" and
// "Kukai", "The Beatles" and "beatles". The key is for equality only; it is not meant for display.
func ObjectKey(o string) string {
	prev := o
	for range maxFixpoint {
		next := objectKeyOnce(prev)
		if next == prev {
			return next
		}
		prev = next
	}
	return prev
}

func objectKeyOnce(o string) string {
	s := fold(o)
	// Decompose and drop combining marks so accents do not decide equality.
	s = norm.NFKD.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case unicode.Is(unicode.Mn, r):
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		case unicode.IsSpace(r) || r == '_' || r == '-' || r == '/' || r == '–' || r == '—' || r == ',' || r == ';' || r == ':':
			b.WriteByte(' ')
		case r == '&' || r == '+' || r == '%' || r == '#' || r == '$' || r == '€' || r == '£':
			b.WriteRune(r)
		}
	}
	words := strings.Fields(norm.NFKC.String(b.String()))
	for len(words) > 1 && articles[words[0]] {
		words = words[1:]
	}
	return strings.Join(words, " ")
}
