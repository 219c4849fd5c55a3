package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
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
	if _, kin := kinship[head]; kin {
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
		if _, kin := kinship[role]; kin && len(ws) == 1 {
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
// in apposition after a comma, or after "called" or "named" ("at a startup called Lumen").
var reRoleAtOrg = regexp.MustCompile(`(?i:\bas\s+(?:a|an)\s+)([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(?:(?i:a|an|the)\s+[\p{Ll}\s-]{1,40}?(?:,|\s+called|\s+named)\s+)?(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|de|and|&))*)`)

// reRoleAtPlace is "as a ROLE at/for" an organization described by a common noun phrase that ends the clause:
// "I work as a receptionist at a dental clinic".
var reRoleAtPlace = regexp.MustCompile(`(?i:\bas\s+(?:a|an)\s+)([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+((?i:a|an|the)\s+\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,3})\s*(?:[,.;!]|$)`)

// reRoleAtLead is the object of "I am a ROLE at Org" as isASpec receives it ("junior designer at Figma").
var reRoleAtLead = regexp.MustCompile(`^((?i:(?:a|an|the)\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(?:(?i:a|an|the)\s+(?:[\p{Ll}\s-]{1,40}?\s+(?:called|named)\s+)?)?(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|de|and|&))*)`)

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
		if m := reRoleAtLead.FindStringSubmatch(s.object); m != nil && occupationNoun(m[1]) && !reStudentAt.MatchString(s.object) {
			// (A student at a place goes to school there: schoolSpecs reads it.)
			s.object = strings.TrimSpace(m[1])
			if !hasEmployer[s.subject] {
				extra = append(extra, spec{subject: s.subject, predicate: "works at", object: nameOnly(m[2]), confidence: s.confidence, change: s.change})
				hasEmployer[s.subject] = true
			}
		}
	}
	if m := reRoleAtOrg.FindStringSubmatch(clause); m != nil && occupationNoun(m[1]) && firstPersonClause(clause) && !othersRole {
		// (A role someone else was read to hold — "My sister Clara works as a pharmacist at Boots" — is theirs.)
		if !occupation {
			extra = append(extra, spec{predicate: "works as", object: m[1], key: "occupation", confidence: confFirst})
		}
		if !hasEmployer[""] {
			extra = append(extra, spec{predicate: "works at", object: nameOnly(m[2]), confidence: confFirst})
			hasEmployer[""] = true
		}
	} else if m := reRoleAtPlace.FindStringSubmatch(clause); m != nil && occupationNoun(m[1]) && firstPersonClause(clause) && !othersRole && !hasEmployer[""] {
		// "I work as a receptionist at a dental clinic": an organization described, not named, is where the
		// speaker works all the same.
		extra = append(extra, spec{predicate: "works at", object: m[2], confidence: confFirst})
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
	reIntroduced = regexp.MustCompile(`(?i)\b(adopted|got|bought|rescued|took\s+in|brought\s+home|seeing|dating|met)\s+(?:a|an|another|somebody|someone)\s*(?:new\s+|little\s+|young\s+|sweet\s+)?([a-z]+)?`)
	// reNamedApposition names the one introduced right after the noun: "seeing someone new, Daniel", "we got
	// a puppy, a corgi named Biscuit".
	reNamedApposition = regexp.MustCompile(`^\s*,\s+(?:(?i:a|an)\s+[a-z-]+\s+(?i:named|called)\s+)?(\p{Lu}[\p{Ll}\p{M}'-]+)\b`)
	// reNamedLater names the one introduced: "named her Pepper", "called him Max", "her name is Leilani".
	reNamedLater = regexp.MustCompile(`(?:\b(?i:named|called)\s+(?i:her|him|it|them)\s+|\b(?i:her|his|its|their)\s+name\s+is\s+)(\p{Lu}[\p{Ll}\p{M}'-]+)`)
)

// namedLater returns the speaker's claims of a role introduced by an indefinite noun and named later in the
// same turn.
func namedLater(content string) []spec {
	iv := reIntroduced.FindStringSubmatchIndex(content)
	if iv == nil {
		return nil
	}
	nm := reNamedApposition.FindStringSubmatchIndex(content[iv[1]:])
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
	switch verb {
	case "seeing", "dating", "met":
		// "seeing someone new", "dating a guy from work": the person the speaker is dating.
		if noun != "" && noun != "guy" && noun != "girl" && noun != "woman" && noun != "man" && noun != "new" {
			if _, kin := kinship[noun]; !kin {
				return nil
			}
		}
		return []spec{{predicate: "is dating", object: name, change: true, confidence: confNamed}}
	}
	role, ok := kinship[noun]
	if !ok || (role != "dog" && role != "cat" && role != "pet") {
		return nil
	}
	return []spec{{predicate: role, object: name, confidence: confNamed}}
}
