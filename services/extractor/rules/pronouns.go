package rules

import (
	"regexp"
	"strings"
)

// Third-person pronoun subjects ("He works at a bakery now") name someone said before. The extractor
// resolves one to the person named earlier in the same turn, or else in the turn before it in the window
// (the same session), when exactly one named person fits; otherwise the clause is left as said. First-person
// pronouns are the speaker's and are handled by the patterns themselves.

// gender of a mentioned person, when something said shows it ("my sister Anna", "Mr. Lee").
type gender byte

const (
	genderUnknown gender = iota
	genderMale
	genderFemale
)

// mention is a person named in a turn.
type mention struct {
	name   string
	gender gender
	plural bool // "Anna and Tom"
}

// mentions are the people named so far, most recent last.
type mentions []mention

func (ms *mentions) add(m mention) {
	for i, x := range *ms {
		if x.name == m.name {
			if m.gender == genderUnknown {
				m.gender = x.gender
			}
			*ms = append((*ms)[:i], (*ms)[i+1:]...)
			break
		}
	}
	*ms = append(*ms, m)
}

// antecedent returns the one mention a pronoun of gender g (plural for "they") can refer to, or "".
// has reports whether a person of that name was mentioned.
func (ms mentions) has(name string) bool {
	for _, m := range ms {
		if m.name == name {
			return true
		}
	}
	return false
}

func (ms mentions) antecedent(g gender, plural bool) (string, bool) {
	var found string
	for _, m := range ms {
		if m.plural != plural || (g != genderUnknown && m.gender != genderUnknown && m.gender != g) {
			continue
		}
		if found != "" && found != m.name {
			return "", false
		}
		found = m.name
	}
	return found, found != ""
}

var kinGender = map[string]gender{
	"wife": genderFemale, "girlfriend": genderFemale, "daughter": genderFemale, "mother": genderFemale,
	"sister": genderFemale, "aunt": genderFemale, "grandmother": genderFemale, "niece": genderFemale,
	"husband": genderMale, "boyfriend": genderMale, "son": genderMale, "father": genderMale,
	"brother": genderMale, "uncle": genderMale, "grandfather": genderMale, "nephew": genderMale,
}

var (
	// rePronounSubject matches a clause whose subject is a third-person pronoun, after an optional
	// connective or time adverb.
	rePronounSubject = regexp.MustCompile(`^((?:(?i:and|so|but|then|now|later|also|yesterday|today|recently|lately|apparently|luckily|sadly)[,\s]+)*)(He|She|They|he|she|they)\s+([a-z]+)`)
	// rePossessiveOpening is a clause that opens with "his" or "her" before a lower-case noun phrase and its verb
	// ("Her new teacher is …"): the possessor is a person named before.
	rePossessiveOpening = regexp.MustCompile(`^(His|Her|his|her)\s+[a-z][a-z-]*(?:\s+[a-z][a-z-]*){0,2}(?:'s)?\s+(?:is|was|are|were|has|had|went|got|moved|changed|starts|started|just|now|also)\b`)
	reHonorific         = regexp.MustCompile(`\b(Mr|Mrs|Ms|Miss|Dr|Prof|Professor)\.?\s+([A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?)`)
	// rePersonObject finds a name after a verb or noun that only takes people, or after "name is" ("my
	// flatmate's name is Carly"), or as the agent of a passive of leading people ("our team was taken over by
	// Sofia Marsh, so she's my manager now").
	rePersonObject = regexp.MustCompile(`\b(?i:met|meet|meeting|told|asked|texted|emailed|invited|thanked|hugged|married|dating|dated|hired|interviewed|mentored|visited\s+my\s+\w+|friend|friends\s+with|talked\s+to|talked\s+with|spoke\s+(?:to|with)|advice\s+from|(?:named|called)|name\s+is|name's|(?:taken\s+over|replaced|managed|led|coached|taught|mentored|supervised|headed|trained)\s+by)\s+(\p{Lu}[\p{Ll}\p{M}]+(?:\s+\p{Lu}[\p{Ll}\p{M}]+)?)(?:[^\pL\pM\pN]|$)`)
	// rePairWithSpeaker is a subject of a name and the speaker: "Levan and I got married".
	rePairWithSpeaker = regexp.MustCompile(`^(\p{Lu}[\p{Ll}\p{M}]+(?:\s+\p{Lu}[\p{Ll}\p{M}]+)?)\s+and\s+I\s+([a-z]+)`)
	rePairSubject     = regexp.MustCompile(`^(\p{Lu}[\p{Ll}\p{M}]+)\s+and\s+(\p{Lu}[\p{Ll}\p{M}]+)\s+([a-z]+)`)
	// rePronounInRelative finds "he", "she" or "they" as the subject of a relative clause without its pronoun
	// that modifies the clause's subject ("The city she lives in …", "The company they work for …"): the
	// noun is one or two words after "the", then the pronoun and its verb.
	rePronounInRelative = regexp.MustCompile(`^((?i:the)\s+[\p{L}-]+(?:\s+[\p{L}-]+)?\s+)(he|she|they)\s+([a-z]+)`)
	reHeShe             = regexp.MustCompile(`^(?:(?i:and|so|but|then|now)[,\s]+)*((?i:he|she))'s\s(?:(been|got|gotten|had|done|made|seen|taken)\b)?`)
)

// reKinOpening is a clause that opens with someone the speaker names only by kinship: "My partner's left the
// bank", "my sister moved out" (a name after the kinship term is reKin's: "my sister Anna").
var reKinOpening = regexp.MustCompile(`^(?i:my|our)\s+(?:(?i:little|big|older|younger|eldest|youngest|oldest|new)\s+)?(\p{Ll}+)(?:'s\b|\s+(\p{Ll}+))`)

// collectMentionsOf is collectMentions plus the relative a clause opens with when the speaker names them only
// by kinship: "my partner" is the speaker's partner for a later "he" ("My partner's left the bank and he's
// teaching now").
func collectMentionsOf(ms *mentions, clause, speaker string) {
	if m := reKinOpening.FindStringSubmatch(clause); m != nil && speaker != "" {
		kin := strings.ToLower(m[1])
		_, verb := verbBase(m[2])
		if role, ok := kinOf(kin); ok && !animalKin[role] && (m[2] == "" || verb || auxiliaries[m[2]] || adverbs[m[2]]) {
			// (The kinship term is the clause's subject: a verb follows it, or "'s". "My friend from the
			// library, Michael" names Michael, whom reKin and the appositions read.)
			ms.add(mention{name: possessive(speaker) + " " + kin, gender: kinGender[role]})
		}
	}
	collectMentions(ms, clause)
}

// animalKin are the kinship terms of pets, which "he" and "she" rarely name in chat ("it").
var animalKin = map[string]bool{"dog": true, "cat": true, "pet": true}

// collectMentions records the people a clause names, in order.
func collectMentions(ms *mentions, clause string) {
	type found struct {
		at int
		m  mention
	}
	var fs []found
	for _, m := range reKin.FindAllStringSubmatchIndex(clause, -1) {
		role, ok := kinOf(strings.ToLower(clause[m[2]:m[3]]))
		name := clause[m[4]:m[5]]
		if !ok || notNames[strings.ToLower(strings.Fields(name)[0])] || ownedByKin(clause, m) {
			continue
		}
		fs = append(fs, found{m[4], mention{name: name, gender: kinGender[role]}})
	}
	for _, m := range reHonorific.FindAllStringSubmatchIndex(clause, -1) {
		g := genderUnknown
		switch clause[m[2]:m[3]] {
		case "Mr":
			g = genderMale
		case "Mrs", "Ms", "Miss":
			g = genderFemale
		}
		fs = append(fs, found{m[4], mention{name: clause[m[4]:m[5]], gender: g}})
	}
	for _, m := range rePersonObject.FindAllStringSubmatchIndex(clause, -1) {
		name := clause[m[2]:m[3]]
		if notNames[strings.ToLower(strings.Fields(name)[0])] || isDayOrMonth(name) || honorifics[strings.Fields(name)[0]] {
			// "met Dr. Lee": the honorific is found above, with the name after it.
			continue
		}
		fs = append(fs, found{m[2], mention{name: name}})
	}
	if m := rePairSubject.FindStringSubmatch(clause); m != nil && !notNames[strings.ToLower(m[1])] && !notNames[strings.ToLower(m[2])] {
		if _, ok := verbBase(m[3]); ok || m[3] == "are" || m[3] == "were" {
			fs = append(fs, found{0, mention{name: m[1] + " and " + m[2], plural: true}})
		}
	} else if m := rePairWithSpeaker.FindStringSubmatch(clause); m != nil && !notNames[strings.ToLower(m[1])] && !isDayOrMonth(m[1]) {
		// "Levan and I got married": the speaker and one person, who is then "he" or "she".
		if _, ok := verbBase(m[2]); ok || m[2] == "are" || m[2] == "were" || m[2] == "have" {
			fs = append(fs, found{0, mention{name: m[1]}})
		}
	} else if name := namedSubject(clause); name != "" {
		fs = append(fs, found{0, mention{name: name}})
	} else if name := possessorSubject(clause); name != "" {
		fs = append(fs, found{0, mention{name: name}})
	}
	// In order of appearance, so the last one named is the most recent.
	for i := 1; i < len(fs); i++ {
		for j := i; j > 0 && fs[j].at < fs[j-1].at; j-- {
			fs[j], fs[j-1] = fs[j-1], fs[j]
		}
	}
	for _, f := range fs {
		ms.add(f.m)
	}
}

// namedSubject returns the name a clause starts with when a verb follows it ("Anna works ...", "Josh
// retrained.").
func namedSubject(clause string) string {
	// (A verb may close the clause: "Josh retrained.")
	m := reNamedVerb.FindStringSubmatch(strings.TrimRight(clause, ".!?; ") + " ")
	if m == nil {
		return ""
	}
	name := m[1]
	lead := strings.ToLower(strings.Fields(name)[0])
	if notNames[lead] || filler[lead] || isDayOrMonth(name) {
		return ""
	}
	if _, isVerb := verbBase(lead); isVerb {
		return ""
	}
	// The verb, after the adverbs that may stand before it ("Jess finally left").
	words := strings.Fields(m[2])
	first := words[0]
	for _, w := range words {
		if first = w; !adverbs[w] {
			break
		}
	}
	// A past the same as the base ("Clara quit Boots", "Tom put …") is a past after a name, which a
	// present would give an -s.
	_, pastAsBase := irregular[first]
	if b, ok := verbBase(first); (!ok || b == first && !pastAsBase) && first != "is" && first != "was" && first != "has" {
		return ""
	}
	return name
}

// rePossessorSubject is a clause whose subject is a named person's thing ("Sam's new job is …").
var rePossessorSubject = regexp.MustCompile(`^(\p{Lu}[\p{Ll}\p{M}]+(?:\s+\p{Lu}[\p{Ll}\p{M}]+)?)'s\s+[a-z]`)

// possessorSubject returns the name whose thing a clause opens with: "Sam's new job is at a start-up - he's a
// developer now" speaks of Sam, whom the pronoun then names.
func possessorSubject(clause string) string {
	m := rePossessorSubject.FindStringSubmatch(clause)
	if m == nil {
		return ""
	}
	lead := strings.ToLower(strings.Fields(m[1])[0])
	if notNames[lead] || filler[lead] || isDayOrMonth(m[1]) {
		return ""
	}
	return m[1]
}

func isDayOrMonth(name string) bool {
	w := strings.ToLower(strings.Fields(name)[0])
	if _, ok := months[w]; ok {
		return true
	}
	switch w {
	case "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday":
		return true
	}
	return false
}

// resolvePronoun rewrites a clause whose subject is "he", "she" or "they" with the one person it can refer
// to: first those named earlier in this turn, else those of the previous turn. It returns the clause
// unchanged when no one or more than one person fits.
func resolvePronoun(clause string, turn, prev mentions) string {
	if m := rePossessiveOpening.FindStringSubmatchIndex(clause); m != nil {
		// "Her new teacher is Mr. Novak", "His rent went up": the owner of the subject is the one person of
		// that gender named before, as for a pronoun subject.
		g := genderMale
		if strings.EqualFold(clause[m[2]:m[3]], "her") {
			g = genderFemale
		}
		name, ok := turn.antecedent(g, false)
		if !ok && !hasCandidate(turn, g, false) {
			name, ok = prev.antecedent(g, false)
		}
		if ok {
			return name + "'s" + clause[m[3]:]
		}
		return clause
	}
	said := clause
	if m := reHeShe.FindStringSubmatchIndex(clause); m != nil {
		// "He's a pro swimmer", "she's been great": expanded only here, where the subject is replaced.
		verb := " is"
		if m[4] >= 0 {
			verb = " has"
		}
		clause = clause[:m[3]] + verb + clause[m[3]+2:]
	}
	m := rePronounSubject.FindStringSubmatchIndex(clause)
	if m == nil {
		// "The city she lives in is Paris": the subject of a relative clause without its pronoun.
		m = rePronounInRelative.FindStringSubmatchIndex(clause)
	}
	if m == nil {
		return said
	}
	pron := strings.ToLower(clause[m[4]:m[5]])
	verb := clause[m[6]:m[7]]
	if _, ok := verbBase(verb); !ok && !auxiliaries[verb] && !adverbs[verb] {
		// "They said" is a verb; "they guys" is not a pronoun subject.
		return said
	}
	g, plural := genderUnknown, false
	switch pron {
	case "he":
		g = genderMale
	case "she":
		g = genderFemale
	case "they":
		plural = true
	}
	name, ok := turn.antecedent(g, plural)
	if !ok && !hasCandidate(turn, g, plural) {
		name, ok = prev.antecedent(g, plural)
	}
	if !ok {
		return said
	}
	return clause[:m[4]] + name + clause[m[5]:]
}

// hasCandidate reports whether any mention could be meant (then an ambiguity in this turn is not resolved
// by looking further back).
func hasCandidate(ms mentions, g gender, plural bool) bool {
	for _, m := range ms {
		if m.plural == plural && (g == genderUnknown || m.gender == genderUnknown || m.gender == g) {
			return true
		}
	}
	return false
}

var honorifics = map[string]bool{"Mr": true, "Mrs": true, "Ms": true, "Miss": true, "Dr": true, "Prof": true, "Professor": true}

var auxiliaries = map[string]bool{"is": true, "was": true, "are": true, "were": true, "has": true, "have": true,
	"had": true, "will": true, "would": true, "can": true, "could": true, "does": true, "did": true, "do": true,
	"should": true, "might": true, "must": true, "may": true}

// "It" and "they" naming a thing. A speaker who has just named a show, a band or a car often says what it is to
// them in the next breath: "I finished Gilmore Girls and started Severance. It's my new favourite show.",
// "New obsession: Wet Leg. They've replaced Arctic Monkeys as my favourite band." Such a clause identifies the
// value of one of the speaker's attributes — "my" or "our" with a word that marks the current value (new,
// current, favourite, usual, go-to) — and its pronoun is the thing named last in the same turn. Only that
// clause shape is resolved: elsewhere "it" is as often the situation as a thing ("it was a long day").
var (
	reThingPronoun  = regexp.MustCompile(`^((?:(?i:and|so|but|now|honestly|seriously)[,\s]+)*)((?i:it|they))(\s|'s\s|'re\s|'ve\s)`)
	reValueIdentity = regexp.MustCompile(`(?i)\b(?:my|our)\s+(?:new|current|favou?rite|fave|usual|go-to)\b`)
	reCapitalRun    = regexp.MustCompile(`\p{Lu}[\p{L}\p{M}\p{N}'-]*(?:\s+(?:(?:of|the|de|and|&)\s+)?\p{Lu}[\p{L}\p{M}\p{N}'-]*)*`)
)

// resolveThing rewrites a clause of that shape with the thing named last (things, most recent last).
func resolveThing(clause string, things []string) string {
	if len(things) == 0 || !reValueIdentity.MatchString(clause) {
		return clause
	}
	m := reThingPronoun.FindStringSubmatchIndex(clause)
	if m == nil {
		return clause
	}
	rest := clause[m[6]:m[7]]
	switch strings.ToLower(strings.TrimSpace(rest)) {
	case "'s":
		rest = " is "
	case "'re":
		rest = " are "
	case "'ve":
		rest = " have "
	}
	return clause[:m[4]] + things[len(things)-1] + rest + clause[m[7]:]
}

// reReplacedIt is a clause in which the speaker replaced, swapped or traded in "it": the thing named last
// ("The Octavia finally died on the motorway. Replaced it with a secondhand Tesla", groups: before and after
// "it").
var reReplacedIt = regexp.MustCompile(`^((?:(?i:and|so|then)\s+)?(?:I|we|We)\s+(?:(?:have|'ve|had|just|finally|then)\s+)*(?i:replaced|swapped|traded\s+in|traded|exchanged|sold))\s+it(\s+(?i:with|for)\b.*)$`)

// replacedIt names the thing a replaced "it" stands for (reReplacedIt), the thing named last in the turn.
func replacedIt(clause string, things []string) string {
	if len(things) == 0 || !strings.Contains(clause, " it ") {
		return clause
	}
	m := reReplacedIt.FindStringSubmatch(clause)
	if m == nil {
		return clause
	}
	return m[1] + " the " + things[len(things)-1] + m[2]
}

// namedThings returns the names a sentence gives that are not people (those are mentions): capitalized runs
// other than the sentence's first word alone, "I", months and days. The names inside prepositional phrases
// come first, so that the last is the most salient of the sentence — its subject or object, as a pronoun after
// it points back to by preference (the ranking by grammatical role of centering theory: "The Volvo died on the
// E4. We replaced it …" is the Volvo, "I watched Severance on Apple TV. It's my new favourite" the show).
func namedThings(sent string, people mentions) []string {
	var out, oblique []string
	for _, loc := range reCapitalRun.FindAllStringIndex(sent, -1) {
		name := sent[loc[0]:loc[1]]
		if rest, ok := strings.CutPrefix(name, "The "); ok && loc[0] == 0 {
			// "The Octavia finally died": the sentence's capitalized article is no part of the name.
			name = rest
		}
		if loc[0] == 0 && !strings.Contains(name, " ") && name == sent[loc[0]:loc[1]] || name == "I" || strings.HasPrefix(name, "I ") || isDayOrMonth(name) {
			continue
		}
		person := false
		for _, p := range people {
			if p.name == name || strings.HasPrefix(p.name, name+" ") {
				person = true
			}
		}
		if person || notNames[strings.ToLower(strings.Fields(name)[0])] {
			continue
		}
		if obliqueAt(sent, loc[0]) {
			oblique = append(oblique, name)
		} else {
			out = append(out, name)
		}
	}
	return append(oblique, out...)
}

// brokenSubject returns the thing a sentence's subject names when the sentence says it broke down, died or was
// stolen (lostThing, or a thing said with "the" and a common noun: "The printer died"), or "": the subject is the
// most salient thing of the sentence, which a replaced "it" after it stands for ("My car broke down on the M25.
// We replaced it with a Skoda": the car, not the road). A word WordNet does not list is a name typed in lower case
// ("the volvo finally died": the Volvo).
func (e *Extractor) brokenSubject(sent string) string {
	thing := lostThing(sent, true)
	if thing == "" || strings.Contains(thing, " ") {
		return thing
	}
	if e.nouns != nil && thing == strings.ToLower(thing) && !e.nouns.Known(thing) {
		return titleCase(thing)
	}
	return thing
}

// obliqueAt reports a name at sent[at:] that is the object of a preposition: "on the E4", "in Leeds".
func obliqueAt(sent string, at int) bool {
	ws := strings.Fields(sent[:at])
	if n := len(ws); n > 0 && strings.EqualFold(ws[n-1], "the") {
		ws = ws[:n-1]
	}
	return len(ws) > 0 && obliquePreps[strings.ToLower(ws[len(ws)-1])]
}

// obliquePreps are the prepositions of place, time and means that put a name in an adjunct.
var obliquePreps = map[string]bool{"on": true, "in": true, "at": true, "to": true, "from": true, "into": true, "onto": true,
	"near": true, "by": true, "off": true, "via": true, "through": true, "over": true, "under": true, "along": true, "outside": true}
