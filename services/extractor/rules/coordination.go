package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Coordinated objects and appositive names. English lists several things one relation holds with by
// coordinating noun phrases ("I drive a Honda Civic and a Vespa", "I have a dog named Rufus and a parrot named
// Kiwi") and names a thing right after the noun phrase that introduces it, between commas ("a dog, Rufus, and
// a parrot", "two cats, Miso and Tofu"). One claim per conjunct lets a later statement end one of them ("we
// rehomed Kiwi") without ending the others, and a name given to a thing the speaker has is that thing's name
// ("Lena's parrot is Kiwi"), which questions ask for.
//
// The rules are the grammar of noun-phrase coordination and apposition, not any dataset's wording: a list is
// split only where every conjunct is a noun phrase of its own — opened by a determiner, a possessive or a
// number, or a proper name — and the last one follows "and" or "or", so mass pairs ("salt and pepper"),
// adjective pairs ("Portuguese and Japanese", which the clause reader already splits) and a name qualified by
// a place ("Paris, France", "Washington, D.C.") stay whole.

// namedThing is "a parrot named Kiwi", "my dog called Rufus" (the noun is group 1, the name group 2).
var namedThing = regexp.MustCompile(`^(?i:a|an|my|our|one|the|his|her|their)\s+(?:[\p{L}-]+\s+){0,2}?([\p{L}-]+)\s+(?i:named|called)\s+(\p{Lu}[\p{L}\p{M}'-]*(?:\s+\p{Lu}[\p{L}\p{M}'-]*)?)$`)

// possessionVerbs are the verbs (by lemma) with which a speaker says a thing is theirs: its name is then the
// name of their thing ("I adopted a puppy named Pepper" → "Hiroshi's dog is Pepper").
var possessionVerbs = map[string]bool{"have": true, "own": true, "adopt": true, "get": true, "rescue": true, "raise": true, "keep": true}

// coordinated returns the claims of c, one per conjunct of its object, each with its own text, and for a
// possession verb the name each named thing has; a claim whose object is no coordination or apposition comes
// back alone.
func (e *Extractor) coordinated(tc turnCtx, c extract.Claim, clause string, dates []when, seq *int64) []extract.Claim {
	if c.Fallback || c.Negated || c.Object == "" {
		return []extract.Claim{c}
	}
	object := c.Object
	var objects []string
	if i := strings.Index(clause, object); i >= 0 && strings.HasPrefix(clause[i+len(object):], ",") && strings.Contains(c.Text, clause[i:]) {
		// A reader that ends the object at a comma leaves an apposition or the rest of a list behind ("I have
		// a dog, Rufus, and a parrot"): the rest of the clause, when it is one, belongs to the object.
		rest := strings.TrimRight(clause[i:], ".!? ")
		if objects = splitObject(rest); objects != nil {
			object = rest
		}
	}
	if objects == nil {
		if !strings.Contains(object, ",") && !strings.Contains(object, " and ") && !strings.Contains(object, " or ") && !strings.Contains(object, " named ") && !strings.Contains(object, " called ") {
			return []extract.Claim{c}
		}
		objects = splitObject(object)
	}
	if len(objects) == 0 {
		return []extract.Claim{c}
	}
	var out []extract.Claim
	if len(objects) > 1 || object != c.Object {
		for _, o := range objects {
			d := c
			d.Object = o
			d.Text = strings.Replace(c.Text, object, o, 1)
			if d.Text == c.Text {
				d.Text = canon.ClaimText(c.Subject, c.Predicate, o)
			}
			// Several values said at once are not one value replacing another; one value named by an
			// apposition ("a bakery, Crumbs") is the one value it was.
			d.Functional = c.Functional && len(objects) == 1
			out = append(out, d)
		}
	} else {
		out = append(out, c)
	}
	if !possessionVerbs[nlp.VerbLemma(firstWords(c.Predicate, 1))] {
		return out
	}
	for _, o := range objects {
		m := namedThing.FindStringSubmatch(o)
		if m == nil {
			continue
		}
		noun := nlp.Lemma(m[1], "NNS")
		kind := ""
		if role, ok := kinOf(noun); ok {
			kind = breedPhrase(noun, role)
			noun = role
		}
		s := spec{subject: c.Subject, predicate: noun, object: m[2], confidence: confNamed,
			text: sentence(possessive(c.Subject) + " " + noun + " is " + m[2] + kind)}
		out = append(out, e.claim(tc, s, clause, dates, seq))
	}
	return out
}

// splitObject returns the conjuncts of a coordinated object, appositive names attached to what they name ("a
// dog, Rufus" → "a dog named Rufus"; "two cats, Miso and Tofu" → "two cats", "a cat named Miso", "a cat named
// Tofu"), or the object alone when it names a thing ("a parrot named Kiwi"); nil when it is neither.
func splitObject(object string) []string {
	toks := nlp.Analyze(object)
	var segs [][]nlp.Token
	var seps []string
	from := 0
	for i := 0; i < len(toks); i++ {
		sep := ""
		switch toks[i].Lower {
		case ",":
			sep = ","
			if i+1 < len(toks) && (toks[i+1].Lower == "and" || toks[i+1].Lower == "or") {
				sep = "and"
			}
		case "and", "or":
			sep = "and"
		}
		if sep == "" {
			continue
		}
		if i == from {
			return nil // two separators in a row, or one first: no list of noun phrases
		}
		segs = append(segs, toks[from:i])
		seps = append(seps, sep)
		if sep == "and" && toks[i].Lower == "," {
			i++
		}
		from = i + 1
	}
	if from >= len(toks) {
		return nil
	}
	segs = append(segs, toks[from:])
	if n := len(segs); n > 2 && seps[n-2] == "," && segs[n-1][0].Tag == "IN" && properPhrase(segs[n-2]) {
		// "a robotics startup, Nimbus Labs, in Austin": a place or time after the apposed name qualifies it and
		// is no conjunct of the list.
		segs, seps = segs[:n-1], seps[:n-2]
	}
	norm := nlp.Normalize(object) // the text the token offsets refer to
	text := func(ts []nlp.Token) string { return norm[ts[0].Start:ts[len(ts)-1].End] }
	if len(segs) == 1 {
		if namedThing.MatchString(text(segs[0])) {
			return []string{text(segs[0])}
		}
		return nil
	}
	var out []string
	listed := false // a list ends with "and" or "or"
	for i := 0; i < len(segs); i++ {
		s := segs[i]
		switch {
		case determined(s) && !properPhrase(s) && !nlp.IsProper(s[len(s)-1].Tag) && i+1 < len(segs) && seps[i] == "," && properPhrase(segs[i+1]):
			// Apposition: "a dog, Rufus" names one thing; "two cats, Miso and Tofu" names each of them. (A phrase
			// that ends in a name is qualified by the name after the comma, not named by it: "a flat in
			// Kreuzberg, Berlin" is in Berlin's Kreuzberg.)
			j := i + 2
			if plural(s) {
				for j < len(segs) && properPhrase(segs[j]) {
					j++
				}
				noun := nlp.Lemma(s[len(s)-1].Text, "NNS")
				out = append(out, text(s))
				for _, n := range segs[i+1 : j] {
					out = append(out, article(noun)+" "+noun+" named "+text(n))
				}
				listed = listed || j-(i+1) > 1 && seps[j-2] == "and"
			} else {
				out = append(out, text(s)+" named "+text(segs[i+1]))
			}
			listed = listed || j < len(segs) && seps[j-1] == "and"
			i = j - 1
		case determined(s) || properPhrase(s):
			out = append(out, text(s))
			listed = listed || i > 0 && seps[i-1] == "and"
		default:
			return nil
		}
	}
	if len(out) > 1 && !listed && !apposed(out) {
		// Commas alone between names qualify a name ("Paris, France"); a list ends with "and" or "or".
		return nil
	}
	return out
}

// apposed reports whether the conjuncts came from an apposition alone ("a dog named Rufus").
func apposed(out []string) bool {
	for _, o := range out {
		if !namedThing.MatchString(o) {
			return false
		}
	}
	return true
}

// determined reports whether a phrase opens with a determiner, a possessive or a number and ends with a noun:
// a noun phrase of its own.
func determined(ts []nlp.Token) bool {
	if len(ts) < 2 || !nlp.IsNoun(ts[len(ts)-1].Tag) && !namedEnd(ts) {
		return false
	}
	switch ts[0].Tag {
	case "DT", "PRP$", "CD":
		return ts[0].Lower != "that" && ts[0].Lower != "this" && ts[0].Lower != "these" && ts[0].Lower != "those" && ts[0].Lower != "all" && ts[0].Lower != "both"
	}
	return false
}

// namedEnd reports a phrase ending "named/called Name".
func namedEnd(ts []nlp.Token) bool {
	for i := len(ts) - 2; i >= 1; i-- {
		if ts[i].Lower == "named" || ts[i].Lower == "called" {
			return nlp.IsProper(ts[i+1].Tag)
		}
	}
	return false
}

// properPhrase reports a phrase that is a name: every word a proper noun, or "the" and proper nouns, joined by
// "&" too ("Harper & Lowe").
func properPhrase(ts []nlp.Token) bool {
	if len(ts) == 0 || len(ts) > 5 {
		return false
	}
	for i, t := range ts {
		if !nlp.IsProper(t.Tag) && !(i == 0 && t.Lower == "the" && len(ts) > 1) && !(t.Text == "&" && i > 0 && i+1 < len(ts)) {
			return false
		}
	}
	return true
}

// plural reports a noun phrase with a plural head ("two cats").
func plural(ts []nlp.Token) bool { return ts[len(ts)-1].Tag == "NNS" }

// article is "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && strings.ContainsRune("aeiou", rune(noun[0])) {
		return "an"
	}
	return "a"
}

// listTexts gives each claim of a list its own text where the clause reader split the list but left every
// claim the clause's text ("Greta has a big aviary and lots of time" for both "a big aviary" and "lots of
// time"): the list in the text is replaced by the claim's own conjunct. Claims of one subject and relation
// with one text are a list when their objects, in order, are all the text holds between the first and the
// last, apart from commas and "and"/"or".
func listTexts(cs []extract.Claim) {
	for i := range cs {
		group := []int{i}
		for j := i + 1; j < len(cs); j++ {
			if cs[j].Text == cs[i].Text && cs[j].SubjectKey == cs[i].SubjectKey && cs[j].PredicateKey == cs[i].PredicateKey && cs[j].Object != cs[i].Object {
				group = append(group, j)
			}
		}
		if len(group) < 2 {
			continue
		}
		text := cs[i].Text
		from, end, at := -1, -1, 0
		var between strings.Builder
		for _, k := range group {
			o := cs[k].Object
			idx := strings.Index(text[at:], o)
			if idx < 0 || o == "" {
				from = -1
				break
			}
			if from < 0 {
				from = at + idx
			} else {
				between.WriteString(text[at : at+idx])
			}
			at += idx + len(o)
			end = at
		}
		if from < 0 || strings.Trim(strings.NewReplacer(" and ", "", " or ", "", ",", "").Replace(between.String()), " ") != "" {
			continue
		}
		for _, k := range group {
			cs[k].Text = text[:from] + cs[k].Object + text[end:]
		}
	}
}
