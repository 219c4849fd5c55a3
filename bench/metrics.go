package bench

import (
	"regexp"
	"strings"

	"github.com/kljensen/snowball/english"

	"github.com/mneme-ai/mneme/bench/factcons"
)

// asciiPunct is Python's string.punctuation, which LoCoMo's normalization removes (ASCII only).
const asciiPunct = "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"

func stripPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && strings.ContainsRune(asciiPunct, r) {
			return -1
		}
		return r
	}, s)
}

// ContainsAny reports which of values occur in text under the official normalization (as
// factcons.SubstringExactMatch does for a gold), in the order of values.
func ContainsAny(text string, values []string) []string {
	t := factcons.NormalizeAnswer(text)
	var out []string
	for _, v := range values {
		if n := factcons.NormalizeAnswer(v); n != "" && strings.Contains(t, n) {
			out = append(out, v)
		}
	}
	return out
}

var locomoArticles = regexp.MustCompile(`\b(a|an|the|and)\b`)

// locomoNormalize is LoCoMo's normalize_answer (task_eval/evaluation.py): commas removed, lower case,
// punctuation removed, articles and "and" removed, whitespace collapsed.
func locomoNormalize(s string) string {
	s = strings.ReplaceAll(s, ",", "")
	s = stripPunct(strings.ToLower(s))
	s = locomoArticles.ReplaceAllString(s, " ")
	return strings.Join(strings.Fields(s), " ")
}

// tokenF1 is LoCoMo's f1_score: token overlap of the normalized, stemmed prediction and gold.
// The official code stems with NLTK's Porter stemmer; Snowball English (Porter2) is used here.
func tokenF1(prediction, gold string) float64 {
	stem := func(s string) []string {
		var out []string
		for _, w := range strings.Fields(locomoNormalize(s)) {
			out = append(out, english.Stem(w, false))
		}
		return out
	}
	p, g := stem(prediction), stem(gold)
	if len(p) == 0 || len(g) == 0 {
		return 0
	}
	counts := map[string]int{}
	for _, w := range g {
		counts[w]++
	}
	common := 0
	for _, w := range p {
		if counts[w] > 0 {
			counts[w]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	prec := float64(common) / float64(len(p))
	rec := float64(common) / float64(len(g))
	return 2 * prec * rec / (prec + rec)
}

// LoCoMoF1 is LoCoMo's official answer score for one question: token F1 against the gold, where multi-hop
// answers are split on commas and each gold part takes its best match among the prediction's parts
// (averaged), open-domain golds keep only the text before ';', and adversarial questions score 1 when the
// prediction says the information is not available.
func LoCoMoF1(category, prediction string, golds []string) float64 {
	if category == "adversarial" {
		p := strings.ToLower(prediction)
		if strings.Contains(p, "no information available") || strings.Contains(p, "not mentioned") {
			return 1
		}
		return 0
	}
	if len(golds) == 0 {
		return 0
	}
	gold := golds[0]
	switch category {
	case "multi-hop":
		preds := strings.Split(prediction, ",")
		parts := strings.Split(gold, ",")
		sum := 0.0
		for _, g := range parts {
			best := 0.0
			for _, p := range preds {
				best = max(best, tokenF1(p, g))
			}
			sum += best
		}
		return sum / float64(len(parts))
	case "open-domain":
		gold, _, _ = strings.Cut(gold, ";")
	}
	return tokenF1(prediction, gold)
}

// Recall is the share of want found in got (1 when want is empty), and the ids of want that were found.
func Recall(want []string, got map[string]bool) (float64, []string) {
	if len(want) == 0 {
		return 1, nil
	}
	var hit []string
	for _, w := range want {
		if got[w] {
			hit = append(hit, w)
		}
	}
	return float64(len(hit)) / float64(len(want)), hit
}
