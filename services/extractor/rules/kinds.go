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
// participate, practise, follow, be known for): they name no attribute, so the object's kind does.
var associationKeys = map[string]bool{"involved_in": true, "associated_with": true, "connected_with": true,
	"connected_to": true, "linked_to": true, "linked_with": true, "tied_to": true, "belongs_to": true,
	"competes_in": true, "participates_in": true, "takes_part_in": true, "practices": true, "practises": true,
	"follows": true, "adheres_to": true, "known_for": true, "devoted_to": true, "dedicated_to": true,
	"into": true, "is_into": true, "falls_under": true, "plays": true, "does": true, "active_in": true}

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
		return "", ""
	}
	for _, r := range rivalKinds {
		if e.nouns.Is(noun, 2, r) {
			return "", ""
		}
	}
	for _, a := range attributeKinds {
		for _, k := range a.kinds {
			if e.nouns.Is(noun, 2, k) {
				if key != "" && key != a.key {
					return "", ""
				}
				key = a.key
			}
		}
	}
	if key == "" {
		return "", ""
	}
	return key, value
}
