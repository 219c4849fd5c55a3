package query

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/nlp"
)

// maxAskerBytes bounds the asker's name: a person's name, not a text.
const maxAskerBytes = 200

// checkAsker validates the optional asker field of a search or an answer.
func checkAsker(asker string) error {
	switch {
	case asker == "":
		return nil
	case len(asker) > maxAskerBytes:
		return api.TooLarge("asker", maxAskerBytes, "bytes", "asker is %d bytes; the limit is %d", len(asker), maxAskerBytes)
	case !utf8.ValidString(asker) || strings.IndexFunc(asker, unicode.IsControl) >= 0:
		return api.BadRequest("asker", "asker must be valid UTF-8 without control characters")
	case strings.IndexFunc(asker, unicode.IsLetter) < 0:
		return api.BadRequest("asker", "asker must name a person (it has no letter)")
	}
	return nil
}

// askedText validates the asker and returns text (the request's field) read as the asker's. Reading "my" as a
// 200-byte name can make a text many times longer than the one checked, so the result is held to the same limit.
func (s *Service) askedText(field, text, asker string) (string, error) {
	if err := checkAsker(asker); err != nil {
		return "", err
	}
	out := askedBy(text, asker)
	if len(out) > s.cfg.MaxQueryBytes {
		return "", api.TooLarge(field, int64(s.cfg.MaxQueryBytes), "bytes", "%s read as asked by %q is %d bytes; the limit is %d (MNEME_QUERY_MAX_QUERY_BYTES)",
			field, asker, len(out), s.cfg.MaxQueryBytes)
	}
	return out, nil
}

// questionWords splits a question into words (letters, digits and apostrophes) and what lies between them.
var questionWords = regexp.MustCompile(`[\p{L}\p{N}'’]+|[^\p{L}\p{N}'’]+`)

// firstPersonAux are the auxiliaries that agree with "I" and their third-person forms: "do I" asked by Kim is
// "does Kim".
var firstPersonAux = map[string]string{
	"do": "does", "don't": "doesn't", "am": "is", "have": "has", "haven't": "hasn't", "were": "was", "weren't": "wasn't",
}

// askedBy returns question q with its first person read as the asker: "Where does my sister work?" asked by
// Kim is "Where does Kim's sister work?", "What am I allergic to?" is "What is Kim allergic to?". The
// extractor keys what a speaker says of "my sister" to the speaker's sister ("Kim's sister") and what they say
// of themselves to their name, so a question in the first person reaches those claims only when it says whose.
// Without an asker q is returned unchanged.
func askedBy(q, asker string) string {
	asker = strings.TrimSpace(asker)
	if asker == "" {
		return q
	}
	toks := questionWords.FindAllString(q, -1)
	// prevWord is the index in toks of the last word before the current token.
	prevWord := -1
	for i, t := range toks {
		if !isWordToken(t) {
			continue
		}
		low := lowerWord(t)
		repl, subject := "", false
		switch low {
		case "i", "me", "myself":
			repl, subject = asker, low == "i"
		case "my", "mine":
			repl = asker + "'s"
		case "i'm":
			repl = asker + " is"
		case "i've":
			repl = asker + " has"
		case "i'd":
			repl = asker + " would"
		case "i'll":
			repl = asker + " will"
		}
		if repl != "" {
			toks[i] = repl
			if subject && prevWord >= 0 {
				if aux, ok := firstPersonAux[lowerWord(toks[prevWord])]; ok {
					toks[prevWord] = matchCase(toks[prevWord], aux)
				}
			}
		}
		prevWord = i
	}
	return strings.Join(toks, "")
}

// lowerWord is a word in lower case with a typographic apostrophe as a plain one ("I’m" → "i'm").
func lowerWord(t string) string { return strings.ToLower(strings.ReplaceAll(t, "’", "'")) }

func isWordToken(t string) bool {
	return strings.IndexFunc(t, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
}

// matchCase gives word the capitalization of like's first letter ("Do" → "Does").
func matchCase(like, word string) string {
	r, _ := utf8.DecodeRuneInString(like)
	if unicode.IsUpper(r) {
		w, n := utf8.DecodeRuneInString(word)
		return string(unicode.ToUpper(w)) + word[n:]
	}
	return word
}

// reDefiniteThing is the first "the" of a question before a word, and what precedes it (group 1).
var reDefiniteThing = regexp.MustCompile(`^(.*?\b)(?:[Tt]he)\s+(\pL)`)

// askersThing returns question q with its first definite noun phrase read as the asker's ("When is the
// offsite?" asked by Alice: "When is Alice's offsite?"), and whether q has one and names no one: no
// capitalized word after its first, so the definite thing is not someone else's ("When is Tom's party?",
// "Who is the CEO of Velto?"), and no possessive.
func askersThing(q, asker string) (string, bool) {
	asker = strings.TrimSpace(asker)
	if asker == "" {
		return "", false
	}
	ws := strings.Fields(q)
	for i, w := range ws {
		if i > 0 && nlp.Capitalized(strings.TrimLeft(w, `"'(`)) || strings.Contains(w, "'s") || strings.Contains(w, "’s") {
			return "", false
		}
	}
	m := reDefiniteThing.FindStringSubmatchIndex(q)
	if m == nil {
		return "", false
	}
	return q[:m[3]] + asker + "'s " + q[m[4]:], true
}

// reChildsCost is a question about what a named person's schooling or keep costs: "How much are Sipho's school
// fees?", "What is Mia's allowance?" (groups: what precedes the name, the name, the cost's noun phrase and the
// rest). The nouns are the costs of a child that a parent pays: fees, tuition, an allowance, pocket money.
var reChildsCost = regexp.MustCompile(`^(.*?\b)(\p{Lu}[\pL\pM'-]+)(?:'s|’s)\s+((?:[\p{Ll}-]+\s+){0,2}?(?:fees?|tuition|allowance|pocket\s+money))\b(.*)$`)

// childsCost returns question q asked about the asker's own cost in the place of the named person's ("How much are
// Thandiwe's school fees?" for "How much are Sipho's school fees?" asked by Thandiwe), and the name.
func childsCost(q, asker string) (string, string, bool) {
	asker = strings.TrimSpace(asker)
	m := reChildsCost.FindStringSubmatch(q)
	if asker == "" || m == nil || strings.EqualFold(m[2], asker) {
		return "", "", false
	}
	return m[1] + asker + "'s " + m[3] + m[4], m[2], true
}
