package nlp

import "strings"

// cardinalWords are the English cardinal numbers written as words: one to nineteen, the tens, and the words of
// round numbers.
var cardinalWords = map[string]bool{"one": true, "two": true, "three": true, "four": true, "five": true,
	"six": true, "seven": true, "eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true,
	"thirteen": true, "fourteen": true, "fifteen": true, "sixteen": true, "seventeen": true, "eighteen": true,
	"nineteen": true, "twenty": true, "thirty": true, "forty": true, "fifty": true, "sixty": true, "seventy": true,
	"eighty": true, "ninety": true, "hundred": true, "thousand": true, "million": true, "dozen": true}

// IsCardinalWord reports whether a word is a cardinal number written as a word ("ten", "Twenty", "dozen").
func IsCardinalWord(w string) bool { return cardinalWords[strings.ToLower(w)] }
