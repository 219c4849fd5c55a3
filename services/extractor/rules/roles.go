package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/wordnet"
)

// Roles named beside a person: English names someone by the role they have for the speaker in a close
// apposition ("my training partner Iker", "my supervisor, Dr. Okafor") or a loose one after the name ("Dr.
// Alvarez, our vet"). matchKinship reads the one-word kinship nouns; this reads every noun of a person by
// role, compounds included, so "who is my vet / supervisor / flatmate" has a claim to answer from.

// personName is a name as written after a role: an optional honorific, then one or two capitalized words in
// any script ("Dr. Okafor", "Inès Moreau", "Bex").
const personName = `((?:(?:Dr|Mr|Mrs|Ms|Prof)\.?\s+)?\p{Lu}[\p{Ll}\p{M}'-]+(?:\s+\p{Lu}[\p{Ll}\p{M}'-]+)?)`

var (
	// reRoleName is "my/our ROLE[,] Name" with a role of one or two words.
	reRoleName = regexp.MustCompile(`(?:^|[^\p{L}])(?i:my|our)\s+((?i:[a-z-]+\s+)?(?i:[a-z-]+)),?\s+` + personName)
	// reNameRole is "Name, my/our ROLE" closed by a comma or the end of the clause.
	reNameRole = regexp.MustCompile(personName + `,\s+(?i:my|our)\s+((?i:[a-z-]+\s+)?[a-z-]+)\s*(?:,|$)`)
)

// roleNouns are everyday English nouns of a person by the role they play in someone's life that carry no
// agent suffix (agentSuffix reads "supervisor", "trainer", "therapist"): care, home, school and work.
var roleNouns = map[string]bool{
	"vet": true, "doctor": true, "gp": true, "dentist": true, "physio": true, "nanny": true, "landlord": true,
	"landlady": true, "flatmate": true, "housemate": true, "classmate": true, "bandmate": true, "boss": true,
	"partner": true, "friend": true, "mate": true, "buddy": true, "pal": true, "ex": true,
	"colleague": true, "coach": true, "mentor": true, "tutor": true, "sponsor": true, "guide": true,
}

// roleHead reports whether a one- or two-word role phrase names a person by role: its head (last word) is a
// role noun, a kinship noun or an agent noun of work.
func roleHead(role string) bool {
	ws := strings.Fields(role)
	head := ws[len(ws)-1]
	if _, kin := kinOf(head); kin {
		return true
	}
	return roleNouns[head] || agentSuffix(head)
}

// matchRoles finds the roles named beside names in a clause: one claim "Speaker's ROLE is Name" each. The
// one-word kinship nouns before a name are matchKinship's ("my sister Anna"), so they are left to it.
func matchRoles(clause, speaker string) []spec {
	var out []spec
	add := func(role, name string) {
		role = strings.ToLower(strings.Join(strings.Fields(role), " "))
		ws := strings.Fields(role)
		if len(ws) == 0 || notNames[strings.ToLower(strings.Fields(name)[0])] || isDayOrMonth(name) {
			return
		}
		if len(ws) == 2 && (notNames[ws[0]] || kinAdjectives[ws[0]]) {
			// "my best friend Anna", "my new boss Greg": a kinship adjective, not a compound role.
			ws = ws[1:]
			role = ws[0]
		}
		if !roleHead(role) {
			return
		}
		if _, kin := kinOf(role); kin && len(ws) == 1 {
			return
		}
		out = append(out, spec{predicate: role, object: name, text: sentence(possessive(speaker) + " " + role + " is " + name), confidence: confKinship})
	}
	for _, m := range reRoleName.FindAllStringSubmatch(clause, -1) {
		add(m[1], m[2])
	}
	for _, m := range reNameRole.FindAllStringSubmatch(clause, -1) {
		add(m[2], m[1])
	}
	return out
}

// kinAdjectives are the adjectives reKin allows before a kinship noun ("my best friend").
var kinAdjectives = map[string]bool{"little": true, "big": true, "older": true, "younger": true, "best": true,
	"old": true, "new": true, "dear": true, "late": true, "eldest": true, "youngest": true, "oldest": true}

// reRoleAtOrg is "as a ROLE at/for Org" — the role a person holds and the organization they hold it at
// ("I work as a pharmacist at Cruz Verde", "I earn €52,000 a year as a test engineer at Siemens in Munich",
// "as an accountant at a shipping company here, Baltic Freight"): a described organization may be named
// in apposition after a comma, or after "called" or "named" ("at a startup called Lumen"); group 3 is the town
// after the organization (townAfter).
var reRoleAtOrg = regexp.MustCompile(`(?i:\bas\s+(?:(?:a|an)\s+)?)([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(?:(?i:a|an|the)\s+\p{Ll}[\p{L}\s-]{0,40}?(?:,|\s+called|\s+named)\s+|(?i:the)\s+)?(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|de|and|&))*)` + townAfter)

// reRoleAtPlace is "as a ROLE at/for" an organization described by a common noun phrase that ends the clause:
// "I work as a receptionist at a dental clinic".
var reRoleAtPlace = regexp.MustCompile(`(?i:\bas\s+(?:(?:a|an)\s+)?)([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(` + describedOrg + `)` + townAfter + `\s*(?:[,.;!]|$)`)

// describedOrg is an organization described by a common noun phrase, not named: an article, then up to three
// words before a lower-case head noun — capitalized words among them are modifiers, not the name ("a GP
// practice", "an NHS hospital", "a small clinic").
const describedOrg = `(?i:a|an|the)\s+(?:[\p{L}&-]+\s+){0,3}?\p{Ll}[\p{Ll}-]*`

// reRoleAtLead is the object of "I am a ROLE at Org" as isASpec receives it ("junior designer at Figma", "staff
// nurse on the cardiac ward at St Thomas'": the unit one works in, between them, is neither).
var reRoleAtLead = regexp.MustCompile(`^((?i:(?:a|an|the)\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)` + workUnit + `\s+(?i:at|for|with)\s+(?:(?i:a|an|the)\s+(?:\p{Ll}[\p{L}\s-]{0,40}?\s+(?:called|named)\s+)?)?(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|de|and|&))*)`)

// workUnit is the part of an organization one works in, said between a role and the organization: "on the
// cardiac ward", "in the A&E department", "on the news desk" (the units of workplaces in everyday English).
const workUnit = `(?:\s+(?i:on|in)\s+(?i:the|a)\s+(?:[\pL&-]+\s+){0,2}(?i:ward|department|dept|team|unit|desk|floor|wing|division|branch|section|lab|office))?`

// placeWords are the words of a place's name: one to four capitalized words ("Munich", "São Paulo", "New York
// City"); orgWords those of an organization's, joined by "of" or "&" as well ("Bank of America", "Orr & Co").
const (
	placeWords = `\p{Lu}[\p{L}\p{M}'.-]*(?:\s+\p{Lu}[\p{L}\p{M}'.-]*){0,3}`
	orgWords   = `\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|&))*`
)

// townAfter is the town a workplace is in, after its name or description: " in Seville" (one group, the town).
const townAfter = `(?:\s+in\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?))?`

// reTownOfDescribed is the town in an organization's description before its name: "at an agency in Bristol
// called Spark" (group 1 the town).
var reTownOfDescribed = regexp.MustCompile(`\s(?i:at|for|with)\s+(?i:a|an|the)\s+\p{Ll}[\p{Ll}\s-]{0,30}?\s+in\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?)(?:,|\s+called|\s+named)\s`)

// reRoleAtDescribed is the object "ROLE at" an organization described by a common noun phrase, with the town
// it is in: "chef at a ramen place in Osaka", "nurse at a small clinic".
var reRoleAtDescribed = regexp.MustCompile(`^((?i:(?:a|an|the)\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(` + describedOrg + `(?:\s+in\s+` + placeWords + `)?)$`)

// postNoun reports a noun phrase that names a post: an occupation (occupationNoun), the head of a unit ("head
// of science", "director of operations": officeHeads before "of"), or an office noun after the words that say
// which ("deputy head", "team lead", "assistant principal").
func postNoun(np string) bool {
	if occupationNoun(np) {
		return true
	}
	ws := strings.Fields(strings.ToLower(np))
	if len(ws) > 0 && (ws[0] == "a" || ws[0] == "an" || ws[0] == "the") {
		ws = ws[1:]
	}
	if headOfUnit(ws) {
		return true
	}
	for i, w := range ws {
		if rolePrepositions[w] {
			ws = ws[:i]
			break
		}
	}
	return qualifiedOffice(ws)
}

// roleEmployers splits the speaker's occupation from the organization it is held at: "I'm a junior designer
// at Figma" is the occupation "junior designer" and the employer Figma, two slots that change apart (a
// promotion keeps the employer, a new job may keep the title). A clause that names a role "as a ROLE at
// Org" without a claim of it gets both.
func roleEmployers(clause string, specs []spec) []spec {
	hasEmployer := map[string]bool{}
	for _, s := range specs {
		if canon.RelationKey(specKey(s)) == "works_at" {
			hasEmployer[s.subject] = true
		}
	}
	var extra []spec
	occupation, othersRole := false, false
	for i := range specs {
		s := &specs[i]
		if s.key != "occupation" && canon.RelationKey(specKey(*s)) != "occupation" {
			continue
		}
		// "works as a sous-chef": the occupation is the noun, without its article.
		s.object = reIndefinite.ReplaceAllString(s.object, "")
		occupation = occupation || s.subject == ""
		othersRole = othersRole || s.subject != ""
		if m := reRoleAtOrg.FindStringSubmatch(clause); m != nil && s.subject != "" && !hasEmployer[s.subject] && strings.EqualFold(m[1], s.object) {
			// "Liam works as a sous-chef at Noma": the organization after the role is the holder's employer.
			extra = append(extra, spec{subject: s.subject, predicate: "works at", object: nameOnly(m[2]), confidence: s.confidence, change: s.change})
			hasEmployer[s.subject] = true
		}
		if m := reRoleAtLead.FindStringSubmatch(s.object); m != nil && postNoun(m[1]) && !reStudentAt.MatchString(s.object) && !reRoleAtDescribed.MatchString(s.object) {
			// (A student at a place goes to school there: schoolSpecs reads it. A name that only modifies a
			// common noun — "at a GP practice" — names no organization: reRoleAtDescribed reads it.)
			if t := reTownOfDescribed.FindStringSubmatch(s.object); t != nil {
				// "at an agency in Bristol called Spark": the town the organization is in is where one works.
				extra = append(extra, spec{subject: s.subject, predicate: "works in", object: t[1], confidence: s.confidence, change: s.change})
			}
			s.object = strings.TrimSpace(m[1])
			if !hasEmployer[s.subject] {
				extra = append(extra, spec{subject: s.subject, predicate: "works at", object: nameOnly(m[2]), confidence: s.confidence, change: s.change})
				hasEmployer[s.subject] = true
			}
		} else if m := reRoleAtDescribed.FindStringSubmatch(s.object); m != nil && postNoun(m[1]) && !reStudentAt.MatchString(s.object) {
			// "Kenji is a chef at a ramen place in Osaka": the role, and the place described where it is held.
			s.object = strings.TrimSpace(m[1])
			if !hasEmployer[s.subject] {
				extra = append(extra, spec{subject: s.subject, predicate: "works at", object: m[2], confidence: s.confidence, change: s.change})
				hasEmployer[s.subject] = true
			}
		}
	}
	town := ""
	if m := reRoleAtOrg.FindStringSubmatch(clause); m != nil && postNoun(m[1]) && firstPersonClause(clause) && !othersRole {
		// (A role someone else was read to hold — "My sister Clara works as a pharmacist at Boots" — is theirs.)
		if !occupation {
			extra = append(extra, spec{predicate: "works as", object: m[1], key: "occupation", confidence: confFirst})
		}
		if !hasEmployer[""] {
			extra = append(extra, spec{predicate: "works at", object: nameOnly(m[2]), confidence: confFirst})
			hasEmployer[""] = true
		}
		town = m[3]
	} else if m := reRoleAtPlace.FindStringSubmatch(clause); m != nil && postNoun(m[1]) && firstPersonClause(clause) && !othersRole && !hasEmployer[""] {
		// "I work as a receptionist at a dental clinic": an organization described, not named, is where the
		// speaker works all the same.
		extra = append(extra, spec{predicate: "works at", object: m[2], confidence: confFirst})
		town = m[3]
	} else if m := reAsRole.FindStringSubmatch(clause); m != nil && !occupation && !othersRole && firstPersonClause(clause) && speakerHas(specs, "salary") && occupationNoun(m[1]) {
		// "I earn £42k a year as a surveyor": what one is paid as is one's occupation.
		extra = append(extra, spec{predicate: "works as", object: m[1], key: "occupation", confidence: confFirst})
	}
	if town != "" && !speakerHas(specs, "works_in") && !speakerHas(extra, "works_in") {
		// "… as a sous chef at a tapas bar in Seville": the town the workplace is in is where one works.
		extra = append(extra, spec{predicate: "works in", object: town, confidence: confFirst})
	}
	for _, s := range specs {
		// "I joined Wipro last month as a test lead": the role said with "as" anywhere in the clause of a new
		// employer is the holder's occupation.
		if canon.RelationKey(specKey(s)) != "works_at" || hasOccupation(specs, extra, s.subject) {
			continue
		}
		if m := reAsRole.FindStringSubmatch(clause); m != nil && occupationNoun(m[1]) && (s.subject == "" && firstPersonClause(clause) || s.subject != "" && strings.HasPrefix(clause, s.subject)) {
			extra = append(extra, spec{subject: s.subject, predicate: "works as", object: m[1], key: "occupation", confidence: s.confidence, change: s.change})
		}
	}
	return append(specs, extra...)
}

// hasOccupation reports an occupation of subject among the specs.
func hasOccupation(specs, extra []spec, subject string) bool {
	for _, list := range [][]spec{specs, extra} {
		for _, s := range list {
			if s.subject == subject && (s.key == "occupation" || canon.RelationKey(specKey(s)) == "occupation") {
				return true
			}
		}
	}
	return false
}

// specKey is the predicate key a spec's claim gets before alias groups apply.
func specKey(s spec) string {
	if s.key != "" {
		return s.key
	}
	return canon.PredicateKey(s.predicate)
}

// Names given after the fact. English introduces a new pet or person with an indefinite noun and names them
// in a later sentence of the same turn: "We adopted a puppy from the shelter. … we named her Pepper", "I've
// been seeing someone new. Her name is Leilani". The name is the value of the role the noun introduced: the
// speaker's dog, the person the speaker is dating.
var (
	// reIntroduced is a verb of getting a pet or of dating with the indefinite noun it introduces.
	// A pet got for someone names them between the verb and the noun ("we got them a rabbit", "bought my son
	// a hamster").
	reIntroduced = regexp.MustCompile(`(?i)\b(adopted|got|bought|rescued|took\s+in|brought\s+home|seeing|dating|met)\s+(?:(?:them|him|her|us|me|the\s+(?:kids|children|boys|girls)|(?:my|our)\s+[a-z]+)\s+)?(?:a|an|another|somebody|someone)\s*(?:new\s+|little\s+|young\s+|sweet\s+)?([a-z]+)?`)
	// reNamedApposition names the one introduced right after the noun: "seeing someone new, Daniel", "we got
	// a puppy, a corgi named Biscuit".
	reNamedApposition = regexp.MustCompile(`^\s*,\s+(?:(?i:a|an)\s+[a-z-]+\s+(?i:named|called)\s+)?(\p{Lu}[\p{Ll}\p{M}'-]+)\b`)
	// reNamedNext names the one introduced by opening the next sentence with the name alone, or with the name
	// and a pronoun that says something of them: "seeing someone. Folake, she's a pharmacist", "I've met
	// someone! Folake."
	reNamedNext = regexp.MustCompile(`^[^.!?]{0,20}?[.!]+\s+(\p{Lu}[\p{Ll}\p{M}'-]+)(?:,\s+(?i:she|he)(?:'s|\s+is|\s+was)\b|\s*[.!])`)
	// reNamedLater names the one introduced: "named her Pepper", "called him Max", "her name is Leilani",
	// "She's called Clover".
	reNamedLater = regexp.MustCompile(`(?:\b(?i:named|called)\s+(?i:her|him|it|them)\s+|\b(?i:her|his|its|their)\s+name\s+is\s+|\b(?i:she|he|it)(?:'s|\s+is)\s+(?i:called|named)\s+)(\p{Lu}[\p{Ll}\p{M}'-]+)`)
)

// rePronounCalled is the pronoun's form of reNamedLater: "she's called Clover".
var rePronounCalled = regexp.MustCompile(`^\s*(?i:she|he|it)(?:'s|\s+is)\s`)

// animalKind is WordNet's animal: a named animal the speaker got is their pet.
var animalKind = wordnet.Kind{Lemma: "animal", Sense: 1}

// namedLater returns the speaker's claims of a role introduced by an indefinite noun and named later in the
// same turn; a spec's text is what the claim's sentence adds after the name (a pet's breed), the caller
// writing the rest.
func (e *Extractor) namedLater(content string) []spec {
	iv := reIntroduced.FindStringSubmatchIndex(content)
	if iv == nil {
		return nil
	}
	nm := reNamedApposition.FindStringSubmatchIndex(content[iv[1]:])
	if nm == nil {
		nm = reNamedNext.FindStringSubmatchIndex(content[iv[1]:])
	}
	if nm == nil {
		nm = reNamedLater.FindStringSubmatchIndex(content[iv[1]:])
	}
	if nm == nil {
		return nil
	}
	name := content[iv[1]+nm[2] : iv[1]+nm[3]]
	verb := strings.ToLower(strings.Join(strings.Fields(content[iv[2]:iv[3]]), " "))
	noun := ""
	if iv[4] >= 0 {
		noun = strings.ToLower(content[iv[4]:iv[5]])
	}
	switch noun {
	case "now", "again", "lately", "recently", "too", "already":
		// "I'm seeing someone new now, his name is Daichi": an adverb after the pronoun names no kind.
		noun = ""
	}
	if notNames[strings.ToLower(name)] || isDayOrMonth(name) {
		return nil
	}
	if verb == "met" && rePronounCalled.MatchString(content[iv[1]+nm[0]:iv[1]+nm[1]]) {
		// "I met a guy at the gym, he's called Tom": someone met and named is not someone dated.
		return nil
	}
	switch verb {
	case "seeing", "dating", "met":
		// "seeing someone new", "dating a guy from work": the person the speaker is dating.
		if noun != "" && noun != "guy" && noun != "girl" && noun != "woman" && noun != "man" && noun != "new" {
			if _, kin := kinOf(noun); !kin {
				return nil
			}
		}
		return []spec{{predicate: "is dating", object: name, change: true, confidence: confNamed}}
	}
	role, ok := kinOf(noun)
	if !ok && e.nouns != nil && e.nouns.Known(noun) && e.nouns.Is(noun, 1, animalKind) && !e.nouns.Is(noun, 1, personKind) {
		// "we got them a rabbit. She's called Clover": an animal one gets and names is a pet.
		role, ok = "pet", true
	}
	if !ok || (role != "dog" && role != "cat" && role != "pet") {
		return nil
	}
	return []spec{{predicate: role, object: name, text: breedPhrase(noun, role), confidence: confNamed}}
}

// reInPlace is "in" and a name of one to four capitalized words where it stands: "in Munich", "in São Paulo",
// "in New York City".
var reInPlace = regexp.MustCompile(`^,?\s+in\s+(` + placeWords + `)`)

// reStillIn is a town closing the clause after an adverb of continuance: ", still in Bangalore", "and
// again in Leeds".
var reStillIn = regexp.MustCompile(`(?:,\s*|\s+(?:and\s+)?)(?i:still|also|again|both)\s+in\s+(` + placeWords + `)\s*[.!]?$`)

// locationKind is WordNet's location, under which cities, countries and regions fall.
var locationKind = wordnet.Kind{Lemma: "location", Sense: 1}

// workPlaces adds where one works to a claim of where or as what one works that names a place after it: "I
// earn €52,000 as a test engineer at Siemens in Munich", "Arjun works for Wipro in Bangalore", "I'm a
// software engineer in Berlin" — English puts the town of a job after its employer or role, and "Which city
// does Arjun work in?" asks for it. An occupation or a subject taught loses the place from its value
// ("software engineer", "teaches English" in Seoul); an employer described, not named, keeps it ("a law firm
// in Boston"). The place is a name that is no date and, where WordNet knows the name, a location ("in
// Marketing", "in English" are no towns).
func (e *Extractor) workPlaces(clause string, dates []when, specs []spec) []spec {
	placed := map[string]bool{}
	for _, s := range specs {
		if canon.RelationKey(specKey(s)) == "works_in" {
			placed[s.subject] = true
		}
	}
	n := len(specs)
	for i := 0; i < n; i++ {
		s := &specs[i]
		key := canon.RelationKey(specKey(*s))
		if s.verbatim || s.past || placed[s.subject] || key != "works_at" && key != "occupation" && key != "teaches" {
			continue
		}
		var place string
		if at := strings.LastIndex(s.object, " in "); at > 0 {
			if m := reInPlace.FindStringSubmatch(s.object[at:]); m != nil && len(m[0]) == len(s.object)-at {
				place = m[1]
				if key != "works_at" {
					s.object = s.object[:at]
				}
			}
		}
		if place == "" {
			at := indexWords(clause, s.object)
			if at < 0 {
				continue
			}
			if m := reInPlace.FindStringSubmatchIndex(clause[at+len(s.object):]); m != nil && !dateAt(dates, at+len(s.object)+m[2]) {
				place = clause[at+len(s.object)+m[2] : at+len(s.object)+m[3]]
			} else if m := reStillIn.FindStringSubmatch(clause[at+len(s.object):]); m != nil && key == "works_at" {
				// "I joined Wipro last month as a test lead, still in Bangalore": the town said of the new job.
				place = m[1]
			}
		}
		if place == "" || !e.townName(place) {
			continue
		}
		placed[s.subject] = true
		specs = append(specs, spec{subject: s.subject, predicate: "works in", object: place, key: "works_in",
			confidence: s.confidence, change: s.change, prefix: s.prefix})
	}
	return specs
}

// townName reports a name that can be a place: no month or day, no digit, and a location for WordNet when
// WordNet knows it.
func (e *Extractor) townName(name string) bool {
	if calendarOrNumber(name) {
		return false
	}
	if e.nouns == nil || !e.nouns.Known(name) {
		return true
	}
	return e.nouns.Is(name, 2, locationKind)
}

// homeTown reports a name after "my flat in" that may be a town: one townName accepts, or one whose common
// nouns WordNet lists are no location ("Hackney", a carriage; "Reading", an activity) — after a home and "in",
// a capitalized name is a place unless it is a person, a month, a day or a number.
func (e *Extractor) homeTown(name string) bool {
	if e.townName(name) {
		return true
	}
	return !calendarOrNumber(name) && !e.nouns.Is(name, 2, personKind)
}

// calendarOrNumber reports a name that starts with a month or a weekday or holds a digit: no town.
func calendarOrNumber(name string) bool {
	first := strings.ToLower(strings.Fields(name)[0])
	_, month := months[first]
	_, day := weekdays[first]
	return month || day || strings.ContainsAny(name, "0123456789")
}

// reOwnHomeIn is the speaker's home named by its town: "my flat in Pinheiros", "our little house in Porto", "our
// rent in Bristol" (what one pays for one's home).
// Adjectives that say it is the present home may come before the noun; one that says it is a former or second
// home ("old", "holiday", "parents'") keeps the pattern from matching.
var reOwnHomeIn = regexp.MustCompile(`\b(?i:my|our)\s+(?:(?i:new|little|tiny|small|big|cosy|cozy|lovely|rented|own|current)\s+){0,2}(?i:flat|apartment|house|home|condo|townhouse|bungalow|cottage|place|loft|rent|mortgage|(?:one|two|three|four|five|\d)-bed(?:room)?(?:\s+(?:flat|apartment|house|place))?)\s+in\s+(` + placeWords + `)`)

// reUnreal marks a clause that states no fact of the present: a condition, a wish, a modal of possibility.
var reUnreal = regexp.MustCompile(`(?i)\b(?:if|would|could|might|wish|hope|dream|imagine|maybe|whether)\b`)

// homePlaces adds where the speaker lives to a clause that names their home by its town, whatever else it
// says of the home ("Our apartment in Queens is tiny", "the landlord wants more for my flat in Leith"): one's
// own flat or house in a town is where one lives. Nothing is added when the clause already has where the
// speaker lives, or states nothing real.
func (e *Extractor) homePlaces(clause string, specs []spec) []spec {
	m := reOwnHomeIn.FindStringSubmatch(clause)
	if m == nil || reUnreal.MatchString(clause) || !e.homeTown(m[1]) {
		return specs
	}
	if speakerHas(specs, "lives_in") {
		return specs
	}
	return append(specs, spec{predicate: "lives in", object: m[1], confidence: confFirst})
}

// workplaceUnits are the nouns English names an employer's premises or units by — an office, a branch, a
// site, a store —: a place one is moved to as one of them is where one works, not where one lives.
var workplaceUnits = map[string]bool{"office": true, "offices": true, "branch": true, "site": true, "team": true,
	"department": true, "division": true, "store": true, "location": true, "campus": true, "plant": true,
	"factory": true, "warehouse": true, "headquarters": true, "hq": true, "hub": true, "lab": true,
	"studio": true, "depot": true}

// reOrgsTownUnit is an employer's unit in a town, named by the employer's possessive: "Deloitte's Rotterdam
// office" (groups: the employer, the town, the unit's noun).
var reOrgsTownUnit = regexp.MustCompile(`^(\p{Lu}[\pL\pM&.'-]*(?:\s+\p{Lu}[\pL\pM&.'-]*)*)['’]s\s+(\p{Lu}[\pL\pM-]*(?:\s+\p{Lu}[\pL\pM-]*)?)\s+(\pL+)$`)

// workplaceUnit reports an object whose head noun is a workplace unit ("the Lisbon office", "their Oslo
// branch").
func workplaceUnit(object string) bool {
	f := strings.Fields(strings.ToLower(strings.TrimRight(object, ".,;!")))
	return len(f) >= 2 && workplaceUnits[f[len(f)-1]]
}

// officeMoves files a move to an employer's office or branch as where one works: "I moved to the Berlin
// office" is a transfer, not a new home; so is a move to an institution ("I've moved from St Thomas' to the
// Cadogan Clinic in Chelsea": where one works).
func (e *Extractor) officeMoves(specs []spec) []spec {
	for i := range specs {
		s := &specs[i]
		if !s.verbatim && canon.RelationKey(specKey(*s)) == "works_at" {
			if m := reOrgsTownUnit.FindStringSubmatch(s.object); m != nil && workplaceUnits[strings.ToLower(m[3])] {
				// "Starting at Deloitte's Rotterdam office": the employer, and the town one works in.
				s.object = m[1]
				if !speakerHas(specs, "works_in") {
					specs = append(specs, spec{predicate: "works in", key: "works_in", object: m[2], confidence: s.confidence, subject: s.subject})
				}
				continue
			}
		}
		if s.verbatim || canon.RelationKey(specKey(*s)) != "lives_in" {
			continue
		}
		switch {
		case workplaceUnit(s.object):
			s.predicate, s.key = "works in", "works_in"
		case e.institution(s.object):
			s.predicate, s.key = "works at", "works_at"
		}
	}
	return specs
}

// organizationKind is WordNet's social group organized for a purpose, under which institutions, firms,
// clinics and agencies fall.
var organizationKind = wordnet.Kind{Lemma: "organization", Sense: 1}

// reObjectTown is a town said after what it locates: "the Cadogan Clinic in Chelsea".
var reObjectTown = regexp.MustCompile(`\s+(?:in|at|on|near)\s+.*$`)

// institution reports a place named by an organization's noun that is no school (schools.go reads moves
// between schools) and no home: "the Cadogan Clinic", "a law firm", "the city council". Without WordNet,
// nothing is.
func (e *Extractor) institution(object string) bool {
	if e.nouns == nil {
		return false
	}
	f := strings.Fields(strings.ToLower(reObjectTown.ReplaceAllString(strings.TrimRight(object, ".,;!"), "")))
	if len(f) < 2 || f[0] != "the" && f[0] != "a" && f[0] != "an" {
		// A bare name ("Leeds") is the town moved to; an institution is said with its article.
		return false
	}
	head := f[len(f)-1]
	if schoolWords[head] || !e.nouns.Known(head) {
		return false
	}
	return e.nouns.Is(head, 1, organizationKind)
}

// reAtKindThenName is the place the speaker is at or goes to said by its kind and then, after a comma, by its
// name: "I'm a junior associate at a law firm in Malmö, Lindqvist & Berg", "I teach at a primary school, Kingsway
// Primary", "I've moved to a bigger firm in Cardiff, Hugh James" (groups: the clause up to "at" or "to", the
// kind's noun phrase, the town, the name, the closing punctuation).
var reAtKindThenName = regexp.MustCompile(`^(.+?\s(?i:at|to))\s+((?i:a|an|the)\s+(?:[\p{Ll}-]+\s+){0,3}[\p{Ll}-]+)(\s+(?i:in)\s+\p{Lu}[\pL\pM-]*(?:\s+\p{Lu}[\pL\pM-]*)*)?,\s+(\p{Lu}[\pL\pM&.'’-]*(?:\s+(?:&|of|and|the|\p{Lu}[\pL\pM&.'’-]*))*)(\s*[.!]*)$`)

// namedAfterKind says a planned event's place, or the speaker's place of work or study, by its name where the
// clause gives its kind first and the name in apposition: "… at a law firm in Malmö, Lindqvist & Berg" is "… at
// Lindqvist & Berg in Malmö". The kind must be a place's (placeKind), and the speaker's clause one of work or
// study (reWorkBeforeAt), so that a name after a comma that is no apposition ("I met him at a party, Tom") is
// left alone. Other clauses are returned as they are.
func (e *Extractor) namedAfterKind(clause string) string {
	if !strings.Contains(clause, ", ") {
		return clause
	}
	if m := reEventAtKindThenName.FindStringSubmatch(clause); m != nil && e.placeKind(m[3]) {
		// "We've booked the wedding at a vineyard near Porto, Quinta da Pacheca, for 14 September", "the
		// wedding is moving to a hotel in Porto, the Yeatman": a planned event's venue, by its name.
		return m[1] + " " + m[2] + " " + m[5] + m[4] + m[6]
	}
	if !firstPersonClause(clause) {
		return clause
	}
	m := reAtKindThenName.FindStringSubmatch(clause)
	if m == nil {
		return clause
	}
	if !reWorkBeforeAt.MatchString(m[1]) {
		// "I met him at a party, Tom": a name after a place one is at by chance is someone spoken to.
		return clause
	}
	if !e.placeKind(m[2]) {
		return clause
	}
	if reMovedTo.MatchString(m[1]+" ") && e.institution(m[2]) && !workplaceUnit(m[2]) {
		// "I've moved to a bigger firm in Cardiff, Hugh James": a move to an organization is a new employer,
		// which the name alone no longer says ("moved to Hugh James" reads as a new home).
		return "I work at " + m[4] + m[3] + m[5]
	}
	return m[1] + " " + m[4] + m[3] + m[5]
}

// reEventAtKindThenName is a planned event's place said by its kind and then, after a comma, by its name
// (groups: the clause up to the event, the preposition, the kind's noun phrase, the town, the name, what
// follows).
var reEventAtKindThenName = regexp.MustCompile(`^(.*?\b(?i:` + scheduledEvents + `)\b[^,]*?)\s(?i:(at|to|in))\s+((?i:a|an)\s+(?:[\p{Ll}-]+\s+){0,3}[\p{Ll}-]+)(\s+(?i:in|near|outside)\s+\p{Lu}[\pL\pM-]*(?:\s+\p{Lu}[\pL\pM-]*)*)?,\s+((?:(?i:the)\s+)?\p{Lu}[\pL\pM&.'’-]*(?:\s+(?:&|of|da|de|del|do|la|le|the|\p{Lu}[\pL\pM&.'’-]*))*)(\s*,\s+\S.*|\s*[.!]*)$`)

// placeKind reports a noun phrase whose head is a place's kind by WordNet: an organization, a structure or a
// location ("a vineyard", "a hotel", "a brewery", "a law firm"), or a school. Without WordNet, nothing is.
func (e *Extractor) placeKind(np string) bool {
	f := strings.Fields(strings.ToLower(np))
	head := f[len(f)-1]
	if schoolWords[head] || e.institution(np) {
		return true
	}
	return e.nouns != nil && e.nouns.Known(head) && (e.nouns.Is(head, 1, structureKind) || e.nouns.Is(head, 1, locationKind))
}

// reWorkBeforeAt is a clause of working or studying somewhere, up to its "at": a verb of work or study, or the
// speaker's role ("I'm a nurse at"); or a move to another place of that kind, up to its "to" ("I've moved to a
// bigger firm in Cardiff, Hugh James").
var reWorkBeforeAt = regexp.MustCompile(`(?i)\b(?:work(?:s|ed|ing)?|teach(?:es|ing)?|taught|stud(?:y|ies|ied|ying)|intern(?:s|ed|ing)?|volunteer(?:s|ed|ing)?|employed|based|placement|job|post|role|position|(?:I'm|I\s+am)\s+(?:now\s+)?an?\s+[\pL\s-]+)\s+at$|(?i:moved|moving|switched|transferred|gone|went|jumped)(?:\s+(?i:over|across))?\s+to$`)

// structureKind is WordNet's structure, under which buildings (hospitals, hotels) and building complexes
// (breweries, plants) fall.
var structureKind = wordnet.Kind{Lemma: "structure", Sense: 1}

// reMovedMe is someone moving or sending the speaker to a place: "Paytrek moved me to their Lisbon office",
// "they're sending me to the Singapore branch" (group 1 what follows "to").
var reMovedMe = regexp.MustCompile(`^(?:.+?)\s+(?:(?:has|have|had|is|are|'s|'re)\s+)?(?:moved|transferred|relocated|posted|sent|sending|moving|transferring|relocating)\s+(?:me|us)\s+to\s+(.+)$`)

// movedByEmployer rewrites the speaker being moved to an office or branch of their employer ("Paytrek moved
// me to their Lisbon office in July") as the transfer it states ("I was transferred to their Lisbon office in
// July"), which the clause readers file as where the speaker works. A move to anything else ("my parents
// moved me to a new school") is returned as it is.
func movedByEmployer(clause string) string {
	m := reMovedMe.FindStringSubmatch(clause)
	if m == nil {
		return clause
	}
	place := m[1]
	if d := reTrailingTime.FindStringIndex(place); d != nil {
		place = place[:d[0]]
	}
	if !workplaceUnit(place) {
		return clause
	}
	return "I was transferred to " + m[1]
}

// reWorkTookUs is a job or a posting taking the speaker to a town: "Marc's job took us to Barcelona in
// September", "work brought me back to Leeds" (groups: who went, what follows "to"). English says so of a move
// made for work; "took us to dinner" names no town, so the place must be a name.
var reWorkTookUs = regexp.MustCompile(`^(?:(?:\p{Lu}[\pL\pM'-]*'s|(?i:my|our|his|her|their))\s+(?:(?i:new)\s+)?)?(?i:job|work|career|posting|transfer|promotion|contract|company|employer)\s+(?:(?i:has|had)\s+)?(?i:took|taken|brought|sent|moved)\s+((?i:me|us))\s+((?:(?i:back|over|out|down|up)\s+)?(?i:to)\s+\p{Lu}.*)$`)

// workTookUs says a job that took the speaker to a town (reWorkTookUs) as the move it states ("Marc's job took
// us to Barcelona in September" → "We moved to Barcelona in September"), which the clause readers file as where
// the speaker lives; for a span of time ("for a week") it is a stay. Other clauses are returned as they are.
func workTookUs(clause string) string {
	m := reWorkTookUs.FindStringSubmatch(clause)
	if m == nil {
		return clause
	}
	if _, after, ok := strings.Cut(m[2], " for "); ok && reDurationFor.MatchString(after) {
		// "My job took me to Dubai for a week": a stay, not a move.
		return clause
	}
	who := "I"
	if strings.EqualFold(m[1], "us") {
		who = "We"
	}
	return who + " moved " + m[2]
}

// reNowAtKind is the speaker now at a place of a kind, said by its kind with an indefinite article: "I'm now at
// a law firm in Leeds", "I am now at a hotel restaurant in Málaga", "I'm at a design agency in Hove these days"
// (groups: an adverb of time before "at", the kind's noun phrase, what follows it, an adverb of time in it).
var reNowAtKind = regexp.MustCompile(`^I(?:'m|\s+am)\s+(?:((?i:now|currently))\s+)?(?i:at)\s+((?i:a|an)\s+(?:[\p{Ll}-]+\s+){0,2}[\p{Ll}-]+)((?:\s+(?i:in)\s+\p{Lu}[\pL\pM-]*(?:\s+\p{Lu}[\pL\pM-]*)*)?(?:\s+((?i:now|these\s+days|nowadays)))?[\s.!]*)$`)

// visitedKinds are the kinds of structure one is at as a guest or a traveller, not as a worker.
var visitedKinds = map[string]bool{"hotel": true, "hostel": true, "motel": true, "airport": true, "station": true,
	"terminal": true, "campsite": true, "resort": true, "party": true, "conference": true, "wedding": true}

// nowAtWorkplace says the speaker being now at a place of work of a kind ("I'm now at a law firm in Leeds")
// as working there ("I now work at a law firm in Leeds"): being somewhere said with "now" (or "these days") is a
// new state, and an organization or a building of work that one is at for good is one's workplace. A place one
// visits (a hotel, an airport) or lives in (a flat) is not. Other clauses are returned as they are.
func (e *Extractor) nowAtWorkplace(clause string) string {
	m := reNowAtKind.FindStringSubmatch(clause)
	if m == nil || e.nouns == nil || m[1] == "" && m[4] == "" {
		return clause
	}
	f := strings.Fields(strings.ToLower(m[2]))
	head := f[len(f)-1]
	if visitedKinds[head] || homeNouns[head] || !e.institution(m[2]) && !(e.nouns.Known(head) && e.nouns.Is(head, 1, structureKind)) {
		return clause
	}
	return "I now work at " + m[2] + m[3]
}

// reTrailingTime is a time phrase closing a clause: "in July", "last month", "next week", "in 2024".
var reTrailingTime = regexp.MustCompile(`\s+(?:(?i:in|on|from|since|by)\s+\S+(?:\s+\d{4})?|(?i:last|next|this)\s+\w+)$`)

// reHolderAtOrg is "at" or "with" a capitalized name closing a noun phrase of a role: "(my boss) at Deloitte".
var reHolderAtOrg = regexp.MustCompile(`\s+(?:at|with)\s+` + orgWords + `$`)

// reWorkmatesAt is the speaker's people or unit at work named with the organization: "my boss at Deloitte",
// "our team at Figma", "my colleagues at Google" (group 1 the organization). An adjective of a former job
// ("my old boss at …") keeps it from matching.
var reWorkmatesAt = regexp.MustCompile(`\b(?i:my|our)\s+(?:(?i:new|current)\s+)?(?i:boss|manager|line\s+manager|supervisor|colleagues?|co-?workers?|workmates?|team|teammates?|department|employer|workplace|job|work|role|position|internship|placement|contract)\s+(?:at|with)\s+(` + orgWords + `)`)

// reWorkIsAt is work itself said to be some way at an organization: "Work's been hectic at Shopify lately",
// "work at Arup is quiet" (group 1 the organization).
var reWorkIsAt = regexp.MustCompile(`^(?i:work)(?:'s|\s+is|\s+was|\s+has\s+been|\s+at)\b[^.;!?]{0,40}?\bat\s+(` + orgWords + `)`)

// reOnTeamAt is the speaker on a team or in a department of an organization: "I'm on the design team at
// Figma", "I'm in the finance department at Unilever" (group 1 the organization).
var reOnTeamAt = regexp.MustCompile(`^(?:I'm|I\s+am|I've\s+been|I\s+have\s+been)\s+(?:(?i:now|still|currently)\s+)?(?:on|in|with)\s+(?:(?i:the|a|an|our|their)\s+)?(?:[\p{L}-]+\s+){0,3}(?i:team|department|division|unit|group)\s+(?:at|with|in)\s+(` + orgWords + `)`)

// workplaceOf adds where the speaker works to a clause that names their boss, colleagues, team or job at an
// organization ("My colleagues at Google threw me a party", "my job at IKEA is fine"), puts them on a team of
// one, or says how work is there: one has a boss, colleagues and a job, and is on a team, where one works. Nothing is added when the clause already says where the
// speaker works, or states nothing real.
func workplaceOf(clause string, specs []spec) []spec {
	m := reWorkmatesAt.FindStringSubmatch(clause)
	if m == nil {
		m = reOnTeamAt.FindStringSubmatch(clause)
	}
	if m == nil {
		m = reWorkIsAt.FindStringSubmatch(clause)
	}
	if m == nil || reUnreal.MatchString(clause) {
		return specs
	}
	if speakerHas(specs, "works_at") {
		return specs
	}
	return append(specs, spec{predicate: "works at", object: strings.TrimSpace(m[1]), confidence: confFirst})
}

// reInTown is a first-person clause of being in a named place and nothing else but a clause of another
// subject joined to it: "I'm in Riga", "we're in Denver now", "I'm in Riga and flights are complicated" (group
// 1 the place).
var reInTown = regexp.MustCompile(`^(?:I'm|I\s+am|[Ww]e're|[Ww]e\s+are)\s+(?:(?i:still|now|currently|based|living)\s+)?in\s+(` + placeWords + `)(?:\s+(?i:now|these\s+days))?(?:\s+(?:and|but|so)\s+\p{Ll}+\s+(?:is|are|was|were|has|have)\b.*)?\s*[.!]?$`)

// reVisit marks a sentence that says a stay is a visit or a moment: a trip, a holiday, a time of day or of
// the week, a length of stay, an arrival.
var reVisit = regexp.MustCompile(`(?i)\b(?:visit(?:s|ing)?|trip|holiday|vacation|conference|business|weekend|week|today|tonight|tomorrow|this\s+morning|right\s+now|at\s+the\s+moment|for\s+(?:a|the|two|three|four|five|few|couple|some)\b|until|till|stopover|layover|passing\s+through|staying|hotel|landed|arrived|just\s+got)\b`)

// presentTown adds where the speaker lives to a clause that says only that they are in a named place ("I'm
// in Riga and flights are complicated", "we're in Denver now"): said of oneself in the present with nothing
// that makes it a visit (reVisit, anywhere in the sentence), being in a town is living there. The place is a
// town by townName, and one WordNet knows must be a location ("I'm in Marketing" is a department).
func (e *Extractor) presentTown(sentence, clause string, specs []spec) []spec {
	m := reInTown.FindStringSubmatch(clause)
	if m == nil || reVisit.MatchString(sentence) || !e.townName(m[1]) {
		return specs
	}
	if speakerHas(specs, "lives_in") {
		return specs
	}
	return append(specs, spec{predicate: "lives in", object: m[1], confidence: confNamed})
}

// speakerHas reports a spec of the speaker's whose relation is key (after alias groups).
func speakerHas(specs []spec, key string) bool {
	for _, s := range specs {
		if s.subject == "" && canon.RelationKey(specKey(s)) == key {
			return true
		}
	}
	return false
}

// reTeachesNow is a clause in the present of teaching: "I teach maths at …", "Meera teaches piano".
var reTeachesNow = regexp.MustCompile(`(?i)\bteach(?:es)?\s`)

// reTaughtThing is what is taught, up to where or whom it is taught ("maths at a secondary school" → maths,
// "cooking classes at the college" → cooking): one or two words, without "classes" or "lessons".
var reTaughtThing = regexp.MustCompile(`^((?:[\pL\d-]+\s+)?[\pL\d-]+)(?:\s+(?i:at|in|to|for|on|there|here)\b.*)?$`)

// reTaughtAtPlace is what is taught and the place described, not named, where: "chemistry at a sixth-form
// college (in Norwich)" (groups: the subject taught, the place; the town is read apart).
var reTaughtAtPlace = regexp.MustCompile(`^((?:[\pL\d-]+\s+)?[\pL\d-]+)\s+(?i:at)\s+((?i:a|an|the)\s+\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,3})(?:\s+in\s+` + placeWords + `)?$`)

// classWords are the nouns of what is taught in sessions, after the subject taught: "cooking classes".
var classWords = map[string]bool{"classes": true, "class": true, "lessons": true, "lesson": true, "courses": true, "course": true}

// notTaught are first words of a taught object that say whom or how, not what: "teach my kids", "teach them",
// "teach part-time".
var notTaught = map[string]bool{"my": true, "the": true, "a": true, "an": true, "them": true, "him": true, "her": true,
	"us": true, "you": true, "people": true, "kids": true, "children": true, "students": true, "adults": true,
	"part-time": true, "full-time": true, "online": true, "privately": true, "myself": true, "at": true, "in": true}

// teachers adds the occupation a clause in the present of teaching states: "I teach maths at a secondary
// school" says one is a maths teacher (as "I'm a maths teacher there" would), so that a later "I've retrained as
// a software tester" replaces it. A holder whose occupation the clause names already keeps that one.
func teachers(clause string, specs []spec) []spec {
	if !reTeachesNow.MatchString(clause) {
		return specs
	}
	occupied := map[string]bool{}
	for _, s := range specs {
		if canon.RelationKey(specKey(s)) == "occupation" {
			occupied[s.subject] = true
		}
	}
	var extra []spec
	for i := range specs {
		s := &specs[i]
		if canon.RelationKey(specKey(*s)) != "teaches" || s.past {
			continue
		}
		if m := reTaughtAtPlace.FindStringSubmatch(s.object); m != nil && !speakerHas(specs, "works_at") && s.subject == "" {
			// "I teach chemistry at a sixth-form college": a place described where one teaches is where one
			// works (a named one is read as the object's place, namedPlaceAfterObject), and what is taught is
			// the subject alone.
			s.object = m[1]
			extra = append(extra, spec{predicate: "works at", object: m[2], confidence: confFirst})
		}
		if occupied[s.subject] {
			continue
		}
		m := reTaughtThing.FindStringSubmatch(strings.TrimSpace(s.object))
		if m == nil || notTaught[strings.ToLower(strings.Fields(m[1])[0])] {
			continue
		}
		taught := m[1]
		if ws := strings.Fields(taught); len(ws) == 2 && classWords[strings.ToLower(ws[1])] {
			taught = ws[0]
		}
		occupied[s.subject] = true
		extra = append(extra, spec{subject: s.subject, predicate: "occupation", key: "occupation", object: taught + " teacher", confidence: confFirst})
	}
	return append(specs, extra...)
}
