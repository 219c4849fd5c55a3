package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/wordnet"
)

// What the object is says the relation when the verb says little (rules 2.12).
//
// English often states a person's or a team's sport, faith or style of music with a verb of mere association —
// "is involved in baseball", "competes in cricket", "follows Buddhism", "is associated with jazz", "belongs to
// the world of hockey" — where the attribute is named by nothing but the kind of thing the object is. With
// WordNet's noun hierarchy (pkg/wordnet) the extractor knows that baseball is a sport, Buddhism a religion and
// jazz a genre of music, and files such a claim under the attribute, so that a later "plays soccer" or "is a
// Buddhist" restatement of the same attribute supersedes it. Without WordNet installed the claims keep their
// verbs (the extractor's version says which: Version).

// attributeKinds are the attributes a kind of thing names, each with the WordNet synsets of the kind (a lemma
// and its sense number). The first two senses of an object are read: the commonest one may be another thing
// ("cricket" the insect, "Islam" the civilization).
var attributeKinds = []struct {
	key   string
	kinds []wordnet.Kind
}{
	{"sport", []wordnet.Kind{{Lemma: "sport", Sense: 1}}},
	{"religion", []wordnet.Kind{{Lemma: "religion", Sense: 1}, {Lemma: "religion", Sense: 2}, {Lemma: "religious orientation", Sense: 1}}},
	{"genre", []wordnet.Kind{{Lemma: "music genre", Sense: 1}}},
}

// rivalKinds are kinds of activity that name no attribute of their own; an object of one of them as well as of
// an attribute's kind ("yoga": a Hindu discipline and an exercise) says nothing certain.
var rivalKinds = []wordnet.Kind{{Lemma: "exercise", Sense: 1}, {Lemma: "hobby", Sense: 1}}

// associationKeys are the relation keys of English verbs and adjectives of mere association, participation or
// adherence (as grammars of English list the "light" uses of involve, associate, connect, link, belong, compete,
// participate, practise, follow, believe in, be part of, be known for; informally, be into and be all about),
// and the noun "style", which is said of music, dress and play alike: they name no attribute, so the object's
// kind does ("is part of the sport of cricket", "her style is jazz", "he is all about baseball").
var associationKeys = map[string]bool{"involved_in": true, "associated_with": true, "connected_with": true,
	"connected_to": true, "linked_to": true, "linked_with": true, "tied_to": true, "belongs_to": true,
	"competes_in": true, "participates_in": true, "takes_part_in": true, "practices": true, "practises": true,
	"follows": true, "adheres_to": true, "known_for": true, "devoted_to": true, "dedicated_to": true,
	"into": true, "is_into": true, "falls_under": true, "plays": true, "does": true, "active_in": true,
	"member_of": true, "part_of": true, "believes_in": true, "style": true,
	"all_about": true}

// reKindOf is an object that names its kind before the value: "the world of baseball", "the sport of cricket".
var reKindOf = regexp.MustCompile(`^(?i:the\s+)?(?i:world|realm|field|domain|sport|game|religion|faith|genre|style)\s+of\s+(.+)$`)

// attributeOf returns the attribute the object's kind names and the object without its kind words, or "" when
// WordNet is not loaded, the object is not a kind of one attribute, or it is of a rival kind too.
func (e *Extractor) attributeOf(object string) (key, value string) {
	if e.nouns == nil {
		return "", ""
	}
	value = strings.TrimSpace(object)
	if m := reKindOf.FindStringSubmatch(value); m != nil {
		value = m[1]
	}
	noun := value
	for _, det := range []string{"the ", "a ", "an "} {
		if len(noun) > len(det) && strings.EqualFold(noun[:len(det)], det) {
			noun = noun[len(det):]
		}
	}
	if !e.nouns.Known(noun) {
		if e.styleOfMusic(noun) {
			// "rap rock", "Australian hip hop": a style WordNet does not list, whose last word with "music"
			// names a genre it does ("rock music").
			return "genre", value
		}
		// "Australian hip hop", "Brazilian jiu-jitsu": modifiers before a head WordNet knows make a kind of
		// the head, so the longest known ending of the phrase names the attribute.
		ws := strings.Fields(noun)
		for i := 1; i < len(ws) && i <= 3; i++ {
			if head := strings.Join(ws[i:], " "); e.nouns.Known(head) {
				if key = e.kindAttribute(head); key != "" {
					return key, value
				}
				break
			}
		}
		return "", ""
	}
	if key = e.kindAttribute(noun); key == "" {
		return "", ""
	}
	return key, value
}

// kindAttribute returns the one attribute the kind of a noun WordNet knows names (attributeKinds, its first two
// senses), or "" when it names none or is of a rival kind too.
func (e *Extractor) kindAttribute(noun string) string {
	for _, r := range rivalKinds {
		if e.nouns.Is(noun, 2, r) {
			return ""
		}
	}
	key := ""
	for _, a := range attributeKinds {
		for _, k := range a.kinds {
			if e.nouns.Is(noun, 2, k) {
				if key != "" && key != a.key {
					return ""
				}
				key = a.key
			}
		}
	}
	return key
}

// placeKinds are the kinds of place a verb of belonging locates its subject in: "Israel belongs to Asia", "X is
// part of Africa" say where X is, as "X is in Asia" does (WordNet's continent, and country in its sense of a
// nation's territory).
var placeKinds = []wordnet.Kind{{Lemma: "continent", Sense: 1}, {Lemma: "country", Sense: 2}}

// belongingKeys are the keys of English's verbs of belonging and of being part of a whole.
var belongingKeys = map[string]bool{"belongs_to": true, "member_of": true, "part_of": true}

// locatedBy reports whether a relation of belonging has a continent or a country as its object, which makes it
// where the subject is (false when WordNet is not loaded).
func (e *Extractor) locatedBy(key, object string) bool {
	if e.nouns == nil || !belongingKeys[key] {
		return false
	}
	noun := strings.TrimSpace(object)
	if strings.HasPrefix(strings.ToLower(noun), "the ") {
		noun = noun[4:]
	}
	if !e.nouns.Known(noun) {
		return false
	}
	for _, k := range placeKinds {
		if e.nouns.Is(noun, 1, k) {
			return true
		}
	}
	return false
}

// musicMakers are the nouns of everyday English for a person or a group that makes music: after a modifier that
// names a style of music ("a rap rock artist", "a folk singer", "a Swedish pop band") the modifier is their
// genre.
var musicMakers = map[string]bool{"artist": true, "band": true, "group": true, "act": true, "singer": true,
	"singer-songwriter": true, "songwriter": true, "musician": true, "rapper": true, "duo": true, "trio": true,
	"quartet": true, "vocalist": true, "outfit": true, "star": true, "composer": true, "dj": true}

// reMusicMaker is "a rap rock artist": group 1 the modifiers, 2 the music maker's noun.
var reMusicMaker = regexp.MustCompile(`^(?i:an?\s+)?((?:[\pL&'-]+\s+){1,3})([\pL-]+)$`)

// genresOfMusicMakers adds, for a claim that someone is a music maker of a style ("John McVie is a rap rock
// artist"), the claim of their genre, as "John McVie's genre is rap rock" says. The style is the longest run of
// nouns before the maker's noun whose last word names a genre of music in WordNet, alone or with "music" ("rock
// music", "pop music"); a nationality before it is no part of it ("a Swedish pop band": pop).
func (e *Extractor) genresOfMusicMakers(specs []spec) []spec {
	if e.nouns == nil {
		return specs
	}
	n := len(specs)
	for i := 0; i < n; i++ {
		s := specs[i]
		if key := specKey(s); key != "occupation" && key != "is_a" || s.verbatim {
			continue
		}
		m := reMusicMaker.FindStringSubmatch(strings.TrimRight(s.object, ".!?, "))
		if m == nil || !musicMakers[strings.ToLower(m[2])] {
			continue
		}
		words := strings.Fields(m[1])
		last := strings.ToLower(words[len(words)-1])
		if g, _ := e.attributeOf(last); g != "genre" && !e.styleOfMusic(last) {
			continue
		}
		from := len(words) - 1
		for from > 0 && countryOf(words[from-1]) == "" && e.nouns.Known(strings.ToLower(words[from-1])) && !evaluation(words[from-1]) {
			from--
		}
		specs = append(specs, spec{subject: s.subject, predicate: "genre", object: strings.Join(words[from:], " "), key: "genre", confidence: s.confidence, prefix: s.prefix})
	}
	return specs
}

// styleOfMusic reports a phrase whose last word, with "music" after it, names a genre of music in WordNet
// ("rock" → "rock music", "pop" → "pop music"): English names styles by the word before "music" and
// compounds them freely ("rap rock", "Australian hip hop").
func (e *Extractor) styleOfMusic(phrase string) bool {
	ws := strings.Fields(strings.ToLower(phrase))
	if e.nouns == nil || len(ws) == 0 || len(ws) > 3 {
		return false
	}
	music := ws[len(ws)-1] + " music"
	return e.nouns.Known(music) && e.kindAttribute(music) == "genre"
}
