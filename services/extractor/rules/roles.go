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
// in apposition after a comma.
var reRoleAtOrg = regexp.MustCompile(`(?i:\bas\s+(?:a|an)\s+)([\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(?:(?i:a|an|the)\s+[\p{Ll}\s-]{1,40}?,\s+)?(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|de|and|&))*)`)

// reRoleAtLead is the object of "I am a ROLE at Org" as isASpec receives it ("junior designer at Figma").
var reRoleAtLead = regexp.MustCompile(`^((?i:(?:a|an|the)\s+)?[\p{L}-]+(?:\s+[\p{L}-]+){0,3}?)\s+(?i:at|for|with)\s+(\p{Lu}[\p{L}\p{M}&'.-]*(?:\s+(?:\p{Lu}[\p{L}\p{M}&'.-]*|of|de|and|&))*)`)

// roleEmployers splits the speaker's occupation from the organization it is held at: "I'm a junior designer
// at Figma" is the occupation "junior designer" and the employer Figma, two slots that change apart (a
// promotion keeps the employer, a new job may keep the title). A clause that names a role "as a ROLE at
// Org" without a claim of it gets both.
func roleEmployers(clause string, specs []spec) []spec {
	hasEmployer := false
	for _, s := range specs {
		if s.subject == "" && canon.RelationKey(specKey(s)) == "works_at" {
			hasEmployer = true
		}
	}
	var extra []spec
	occupation := false
	for i := range specs {
		s := &specs[i]
		if s.subject != "" || s.key != "occupation" {
			continue
		}
		occupation = true
		if m := reRoleAtLead.FindStringSubmatch(s.object); m != nil && occupationNoun(m[1]) {
			s.object = strings.TrimSpace(m[1])
			if !hasEmployer {
				extra = append(extra, spec{predicate: "works at", object: nameOnly(m[2]), confidence: s.confidence})
				hasEmployer = true
			}
		}
	}
	if m := reRoleAtOrg.FindStringSubmatch(clause); m != nil && occupationNoun(m[1]) && firstPersonClause(clause) {
		if !occupation {
			extra = append(extra, spec{predicate: "works as", object: m[1], key: "occupation", confidence: confFirst})
		}
		if !hasEmployer {
			extra = append(extra, spec{predicate: "works at", object: nameOnly(m[2]), confidence: confFirst})
		}
	}
	return append(specs, extra...)
}

// specKey is the predicate key a spec's claim gets before alias groups apply.
func specKey(s spec) string {
	if s.key != "" {
		return s.key
	}
	return canon.PredicateKey(s.predicate)
}
