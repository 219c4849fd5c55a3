package query

import (
	"strings"

	"github.com/mneme-ai/mneme/pkg/nlp"
)

// This file rewrites three clause forms of English questions into the forms parseClause reads: a free relative
// ("whoever wrote X"), a relative clause on a possessive ("the country whose citizenship X holds") and a question
// phrase left where its answer would stand after a verb other than "be" ("X died in which city?"). Each is
// grammar, not a phrasing: the rewrite keeps every word the question said and only moves or expands the
// function words around them.

// retoken returns a token that says text, tagged and lemmatized as given, in the place of like (its field and
// offsets), neither part of the anchor nor read yet.
func retoken(text, tag, lemma string, like qtok) qtok {
	t := like
	t.Text, t.Lower, t.Tag, t.Lemma, t.ent, t.used = text, strings.ToLower(text), tag, lemma, false, false
	return t
}

// freeRelatives reads a free relative "whoever V …" as "the person who V …": the free (nominal) relative names
// the one who does what its clause says, so "whoever wrote X" is the person who wrote X, whom parseClause reads
// as X's author.
func freeRelatives(toks []qtok) []qtok {
	out := toks[:0:0]
	for i, t := range toks {
		low := strings.ToLower(t.Text)
		if t.ent || low != "whoever" && low != "whomever" || i+1 >= len(toks) || isPunct(toks[i+1]) {
			out = append(out, t)
			continue
		}
		out = append(out, retoken("the", "DT", "the", t), retoken("person", "NN", "person", t), retoken("who", "WP", "who", t))
	}
	return out
}

// possessionVerbs are the verbs by which a relative clause on "whose" says its noun is its subject's: "the
// country whose citizenship X holds" is the country where X holds citizenship. English's verbs of having.
var possessionVerbs = set("have", "hold", "carry", "possess", "bear")

// whoseClauses reads "N whose M S V", where V is a verb of having (possessionVerbs), as "N where S V M": "the
// country whose citizenship X holds" as "the country where X holds citizenship". The passive form ("whose
// citizenship is held by X") and a clause whose verb comes right after the noun ("whose founder died in …") are
// read as they are. The clause's verb is the first verb of having that ends the clause: the question, a comma or
// the main clause's verb comes after it, so a relative clause inside the subject ("whose citizenship the person
// who directs X holds") keeps its own verb.
func whoseClauses(toks []qtok) []qtok {
	n := len(toks)
	for i := 0; i < n; i++ {
		if toks[i].ent || strings.ToLower(toks[i].Text) != "whose" {
			continue
		}
		j := i + 1
		for j < n && !toks[j].ent && (strings.HasPrefix(toks[j].Tag, "NN") || toks[j].Tag == "JJ") {
			j++
		}
		if j == i+1 || j >= n || nlp.IsVerb(toks[j].Tag) || toks[j].Tag == "MD" {
			continue
		}
		v := -1
		for k := j + 1; k < n; k++ {
			t := toks[k]
			if t.ent || !nlp.IsVerb(t.Tag) || !possessionVerbs[lemmaOf(t)] {
				continue
			}
			if k+1 == n || isPunct(toks[k+1]) || clauseVerb(toks[k+1]) {
				v = k
				break
			}
		}
		if v < 0 {
			continue
		}
		out := make([]qtok, 0, n)
		out = append(out, toks[:i]...)
		out = append(out, retoken("where", "WRB", "where", toks[i]))
		out = append(out, toks[j:v+1]...)
		out = append(out, toks[i+1:j]...)
		out = append(out, toks[v+1:]...)
		return whoseClauses(out)
	}
	return toks
}

// clauseVerb reports a token that can start a clause's verb group: a finite verb, a modal or a form of "be" or
// "have".
func clauseVerb(t qtok) bool {
	low := strings.ToLower(t.Text)
	return t.Tag == "VBZ" || t.Tag == "VBD" || t.Tag == "VBP" || t.Tag == "MD" || beWords[low] || auxWords[low]
}

// inSituAfterVerb moves to the front a question phrase left after a verb other than "be", as chat and
// quiz-style questions do ("X's husband speaks which language?", "whoever wrote X died in which city?"): the
// question asks what "Which language does X's husband speak?" asks. The verb is the finite verb just before the
// question phrase — a preposition may stand between, and goes to the front with the phrase, and a short object
// before the preposition stays after the verb ("X has its HQ in which city?": "In which city does X have its
// HQ?"); its tense picks "do", "does" or "did", and the verb itself is said in its base form. A passive keeps
// its "be" ("X was founded by whom?": "By whom was X founded?", "X was born where?"). A verb of having with "as
// its N" after the phrase ("X has which city as its capital?") says what X's N is: "Which city is the capital
// of X?". whPhraseFirst reads the forms of "be" with a complement.
func inSituAfterVerb(toks []qtok) []qtok {
	n := len(toks)
	if n < 3 || whWords[strings.ToLower(toks[0].Text)] {
		return toks
	}
	// The question phrase: a question word alone ending the question, or "which"/"what" and its nouns, ending
	// the question or followed by "as" and a possessive noun phrase.
	w, e := -1, -1
	for i := 1; i < n; i++ {
		low := strings.ToLower(toks[i].Text)
		if toks[i].ent || !whWords[low] {
			continue
		}
		end := i + 1
		if low == "which" || low == "what" {
			for end < n && !toks[end].ent && (strings.HasPrefix(toks[end].Tag, "NN") || toks[end].Tag == "JJ") {
				end++
			}
			if end == i+1 || !strings.HasPrefix(toks[end-1].Tag, "NN") {
				continue
			}
		} else if low != "where" && low != "when" && low != "who" && low != "whom" {
			continue
		}
		w, e = i, end
	}
	if w < 0 {
		return toks
	}
	tail := toks[e:]
	asIts := len(tail) >= 3 && strings.EqualFold(tail[0].Text, "as") && tail[1].Tag == "PRP$" && strings.HasPrefix(tail[2].Tag, "NN")
	if len(tail) > 0 && !asIts {
		return toks
	}
	v := w - 1
	prep := -1
	if v >= 1 && (toks[v].Tag == "IN" || toks[v].Tag == "TO") && !toks[v].ent {
		prep, v = v, v-1
	}
	// A short object between the verb and the preposition ("has its HQ in which city?") stays after the verb.
	if prep >= 0 {
		k := v
		for k >= 1 && v-k < 4 && !toks[k].ent && (strings.HasPrefix(toks[k].Tag, "NN") || toks[k].Tag == "JJ" || toks[k].Tag == "DT" || toks[k].Tag == "PRP$") {
			k--
		}
		if k < v && k >= 1 && finiteVerb(toks[k]) && (toks[k+1].Tag == "DT" || toks[k+1].Tag == "PRP$") {
			v = k
		}
	}
	var object []qtok
	if prep > v+1 {
		object = toks[v+1 : prep]
	}
	if v >= 1 && !toks[v].ent && toks[v].Tag == "NNS" && v+1 == w && prep < 0 {
		// "X's performer speaks which language?": a verb in -s the tagger read as a plural noun.
		if l := nlp.VerbLemma(toks[v].Lower); l != toks[v].Lower && strings.HasPrefix(toks[v-1].Tag, "NN") {
			toks = append([]qtok(nil), toks...)
			toks[v].Tag, toks[v].Lemma = "VBZ", l
		}
	}
	if v >= 2 && !asIts && toks[v].Tag == "VBN" && !toks[v].ent && beWords[strings.ToLower(toks[v-1].Text)] && !toks[v-1].ent {
		// A passive ("X was born where?", "X was founded by whom?"): "Where was X born?", "By whom was X
		// founded?".
		out := make([]qtok, 0, n)
		if prep >= 0 {
			out = append(out, toks[prep])
		}
		out = append(out, toks[w:e]...)
		out = append(out, toks[v-1])
		out = append(out, toks[:v-1]...)
		return append(out, toks[v])
	}
	if v < 1 || toks[v].ent || !finiteVerb(toks[v]) {
		return toks
	}
	subject := toks[:v]
	out := make([]qtok, 0, n+4)
	if asIts && possessionVerbs[lemmaOf(toks[v])] && prep < 0 {
		out = append(out, toks[w:e]...)
		out = append(out, retoken("is", "VBZ", "be", toks[v]), retoken("the", "DT", "the", tail[1]))
		out = append(out, tail[2:]...)
		out = append(out, retoken("of", "IN", "of", tail[0]))
		return append(out, subject...)
	}
	// "have" is the auxiliary only before a participle: with an object or the question phrase right after it,
	// it is the verb ("has its HQ in which city?", "has which official language?").
	lexicalHave := possessionVerbs[lemmaOf(toks[v])] && (len(object) > 0 || v+1 == w)
	if low := strings.ToLower(toks[v].Text); beWords[low] || auxWords[low] && !lexicalHave || asIts {
		return toks
	}
	aux := "does"
	switch toks[v].Tag {
	case "VBD":
		aux = "did"
	case "VBP":
		aux = "do"
	}
	if prep >= 0 {
		out = append(out, toks[prep])
	}
	out = append(out, toks[w:e]...)
	out = append(out, retoken(aux, toks[v].Tag, "do", toks[v]))
	out = append(out, subject...)
	out = append(out, retoken(lemmaOf(toks[v]), "VB", lemmaOf(toks[v]), toks[v]))
	out = append(out, object...)
	return append(out, tail...)
}

// finiteVerb reports a verb in the present or past tense.
func finiteVerb(t qtok) bool { return t.Tag == "VBZ" || t.Tag == "VBD" || t.Tag == "VBP" }
