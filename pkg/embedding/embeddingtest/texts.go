package embeddingtest

import "strings"

// words are ordinary English sentences about people, places and plans, the kind of text claims hold; the
// benchmarks measure speed per token, so what the words say does not matter, only that they are real words.
var words = strings.Fields(`alice bob moved to berlin last year and started a new job at the local
hospital where she works as a nurse on the night shift her brother lives in paris with two cats he
likes green tea jazz music and long walks by the river on sundays they meet for dinner every month
at a small italian restaurant near the station the meeting is scheduled for tuesday morning please
bring the quarterly report and the budget numbers for the marketing team our flight was delayed by
three hours because of heavy snow in munich`)

// Texts returns n distinct texts that each have exactly tokens tokens according to count (the
// tokenizer's token count), built from a fixed word list so every run measures the same work: the input of
// the uselite Go benchmarks and of bench/cmd/embedbench.
func Texts(n, tokens int, count func(string) int) []string {
	out := make([]string, 0, n)
	seed := uint32(1)
	next := func() int {
		seed = seed*1664525 + 1013904223
		return int(seed >> 8)
	}
	for len(out) < n {
		var b []string
		for count(strings.Join(b, " ")) < tokens {
			b = append(b, words[next()%len(words)])
		}
		if text := strings.Join(b, " "); count(text) == tokens {
			out = append(out, text)
		}
	}
	return out
}
