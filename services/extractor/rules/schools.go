package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
)

// Which school a child goes to is one value at a time, said with verbs that name no relation of their own
// ("goes to", "attends", "starts kindergarten at", "we moved Leo to …", "we switched Nora to …"): the kind of
// the object — a school — says the relation. A statement with one of these verbs whose object is named as a
// school is the subject's `school`; with a verb of change (moving, switching, transferring, starting,
// enrolling) the new school replaces the old.

// schoolWords are the English nouns that name a school below university, as the last word of its name
// ("Hawthorne Elementary", "Westbrook High", "Lincoln Montessori", "St. Mary's Primary") or its head noun
// ("the school", "an academy"): the levels and kinds of schooling of English-speaking school systems. Higher
// education ("university", "college") is kept out: where an adult studied is `educated_at`.
var schoolWords = map[string]bool{"school": true, "academy": true, "elementary": true, "high": true,
	"kindergarten": true, "preschool": true, "pre-school": true, "daycare": true, "nursery": true,
	"montessori": true, "primary": true, "middle": true, "prep": true, "gymnasium": true, "lyceum": true,
	"secondary": true, "grammar": true}

// higherEdWords are the English nouns that name a place of higher education in its name ("Leeds Beckett
// University", "University of Leeds", "Sacramento City College", "Royal Conservatory"). Someone who goes to,
// attends, enrolls at or transfers to one is educated there (`educated_at`, as "studies at"), not at a
// `school`; enrolling and transferring say the new place replaces the one before.
var higherEdWords = map[string]bool{"university": true, "college": true, "polytechnic": true, "conservatory": true,
	"conservatoire": true, "institute": true, "uni": true}

// higherEdVerbs are the verbs of schoolVerbs that say someone is a student at a place of higher education;
// starting or beginning at a university may be a job.
var higherEdVerbs = map[string]bool{"go": true, "attend": true, "enroll": true, "enrol": true, "transfer": true}

// higherEdName reports whether a capitalized phrase names a place of higher education.
func higherEdName(obj string) bool {
	for _, w := range strings.Fields(strings.TrimRight(obj, ".,;!? ")) {
		if higherEdWords[strings.ToLower(w)] && nlp.Capitalized(w) {
			return true
		}
	}
	return false
}

// schoolVerbs are the verbs, by lemma, with which English says someone goes to a school; true marks the
// verbs of change, whose object replaces the school before.
var schoolVerbs = map[string]bool{"go": false, "attend": false, "start": true, "begin": true, "enroll": true,
	"enrol": true, "transfer": true, "move": true, "switch": true, "change": true}

// reAsRoleIn is a role said with "as" in a clause ("as a maths teacher").
var reAsRoleIn = regexp.MustCompile(`(?i)\bas\s+(?:an?|the|their|its)\s`)

// reStartedAt is a start at a place.
var reStartedAt = regexp.MustCompile(`(?i)\b(?:started|starts|starting|began|begins|beginning)\s+(?:\w+\s+)?at\s`)

// reSchoolAt finds the school in an object that says what the subject does there ("kindergarten at
// Hawthorne Elementary", "third grade at Westbrook High").
var reSchoolAt = regexp.MustCompile(`\b(?:at|to|in)\s+(\p{Lu}.*)$`)

// reYearAtSchool is a school year by its number and the school it is at: "Grade 8 at Parktown Boys'", "Year 7 at
// Hillside" (groups: the year, the school).
var reYearAtSchool = regexp.MustCompile(`\b((?i:grade|year|form|standard|class)\s+\d{1,2})\s+(?i:at)\s+(\p{Lu}[\pL\pM'’.&-]*(?:\s+(?:of|the|\p{Lu}[\pL\pM'’.&-]*))*)`)

// reStudentAt is an occupation's object "(a) (nursing) student at PLACE".
var reStudentAt = regexp.MustCompile(`^(?i:(?:an?\s+)?(?:[\pL-]+\s+)?(?:student|pupil)\s+(?:at|of|in))\s+(\p{Lu}.*)$`)

// reCausativeMove is "(we) moved/switched/transferred/enrolled NAME to/in/at SCHOOL": the name is the one
// who goes to the school.
var reCausativeMove = regexp.MustCompile(`\b(?i:moved|switched|transferred|enrolled|enroled|sent|put)\s+(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?)\s+(?i:to|into|in|at)\s+(\p{Lu}[\pL\pM'.-]*(?:\s+(?:of|de|the|\p{Lu}[\pL\pM'.-]*))*)`)

// transferVerbs are the verbs of reCausativeMove that move someone to another place of the same kind (enrolling,
// sending or putting someone somewhere says where they start, not that they left one).
var transferVerbs = map[string]bool{"moved": true, "switched": true, "transferred": true}

// causativeTransfer reads a causative move of someone named to a place named that is neither a school by
// its name (schoolSpecs reads those) nor a town or country: "We moved Leo to St Mary's", "they transferred
// Ana to Northside". It says what "Leo transferred to St Mary's" says, whose reading depends on who Leo is
// (a child's school, an employee's workplace: the reader decides, services/query transferSchools); the
// verb's own reading is dropped (withoutMovedOne).
func (e *Extractor) causativeTransfer(clause string, specs []spec) []spec {
	m := reCausativeMove.FindStringSubmatch(clause)
	if m == nil || schoolName(m[2]) || notNames[strings.ToLower(strings.Fields(m[1])[0])] || e.nouns == nil ||
		!transferVerbs[strings.ToLower(strings.Fields(m[0])[0])] {
		return specs
	}
	if _, kin := kinship[strings.ToLower(m[1])]; kin {
		// "moved Grandma to Oakwood House": a relative's move is a home's, not a transfer.
		return specs
	}
	for _, name := range []string{m[1], m[2]} {
		if e.nouns.Known(name) && (e.nouns.Is(name, 2, locationKind) || !nlp.Capitalized(name)) {
			// "moved Paris to …" is no person; "moved Leo to Lisbon" a home, read elsewhere.
			return specs
		}
	}
	return append(withoutMovedOne(specs, m[1]), spec{subject: m[1], predicate: "transferred to", object: m[2], change: true, confidence: confRelation})
}

// withoutMovedOne drops the speaker's specs whose object is the one a causative move moved: the verb's own
// reading ("we moved | Leo", "we transferred | Nora to Westbrook High") says nothing of the speaker's.
func withoutMovedOne(specs []spec, name string) []spec {
	kept := specs[:0:0]
	for _, s := range specs {
		if s.subject == "" && (s.object == name || strings.HasPrefix(s.object, name+" ")) {
			continue
		}
		kept = append(kept, s)
	}
	return kept
}

// schoolName reports whether a phrase names a school: its last word (or, for "the N", its noun) is a word
// of schoolWords.
func schoolName(obj string) bool {
	f := strings.Fields(strings.TrimRight(obj, ".,;!? "))
	if len(f) == 0 {
		return false
	}
	return schoolWords[strings.ToLower(f[len(f)-1])]
}

// schoolSpecs rewrites the specs of a clause that say someone goes to a school as the subject's school, and
// adds the school of a causative move ("We moved Leo to Lincoln Montessori").
func schoolSpecs(clause, speaker string, specs []spec) []spec {
	var moved spec
	m := reCausativeMove.FindStringSubmatch(clause)
	if m != nil && schoolName(m[2]) && !notNames[strings.ToLower(strings.Fields(m[1])[0])] {
		moved = spec{subject: m[1], predicate: "goes to school at", object: m[2], key: "school", change: true, confidence: confRelation}
		specs = withoutMovedOne(specs, m[1])
	}
	out := specs[:0:0]
	for _, s := range specs {
		if ym := reYearAtSchool.FindStringSubmatch(clause); ym != nil && s.object != "" && (strings.HasPrefix(strings.ToLower(ym[1]), strings.ToLower(s.object)) || strings.HasPrefix(strings.ToLower(s.object), strings.ToLower(ym[1]))) {
			// "Sipho started Grade 8 at Parktown Boys'": the year is had at a school, whatever the school's
			// name ends in. A claim of the year itself stays; one whose object the reader cut at the year's
			// number ("Grade") or ran on into the school is the year.
			school := spec{subject: s.subject, predicate: "goes to school at", key: "school", object: nameOnly(ym[2]), change: true, confidence: s.confidence}
			if !strings.EqualFold(s.object, ym[1]) {
				s = spec{subject: s.subject, predicate: "is in", key: "grade", object: ym[1], change: true, confidence: s.confidence}
			}
			out = append(out, s, school)
			continue
		}
		words := strings.Fields(s.predicate)
		verb := ""
		for _, w := range words {
			l := nlp.VerbLemma(strings.ToLower(w))
			if l == "be" || l == "get" || l == "have" {
				continue
			}
			verb = l
			break
		}
		change, ok := schoolVerbs[verb]
		if s.key == "works_at" && s.subject != "" && schoolName(s.object) && !reAsRoleIn.MatchString(clause) && reStartedAt.MatchString(clause) {
			// "Ellie started at Northgate Academy in September": someone else who starts at a school with no role
			// said is a pupil there (the speaker's own start at one is read as a job).
			verb, change, ok = "start", true, true
		}
		obj := s.object
		if m := reSchoolAt.FindStringSubmatch(obj); m != nil && ok && schoolName(m[1]) {
			obj = m[1]
		}
		if m := reStudentAt.FindStringSubmatch(obj); m != nil && s.key == "occupation" {
			// "Emma is a student at Leeds Beckett University": being a student (pupil) at a place is going
			// there, a school or a university, not a job.
			obj, verb, ok, change = m[1], "attend", true, false
		}
		// The object read may stop before the place ("Priya is studying law at King's College London", "Hana is
		// doing her PhD at Oxford"): the place is in the clause's words after it.
		rest := obj
		if i := strings.Index(clause, obj); i >= 0 {
			rest = strings.TrimRight(clause[i:], ".!?")
		}
		if reSchoolGrade.MatchString(strings.TrimSpace(s.object)) {
			// "Isha is in fourth grade at Oak Ridge Elementary": the school the year is at, beside the year.
			// (A school year is only had at a school: the name after "at" is one, whatever its last word —
			// "Grade 8 at Parktown Boys'".)
			if m := reSchoolAt.FindStringSubmatch(strings.TrimPrefix(rest, s.object)); m != nil && nlp.Capitalized(nameOnly(m[1])) {
				out = append(out, spec{subject: s.subject, predicate: "goes to school at", key: "school", object: nameOnly(m[1]), confidence: s.confidence})
			}
		}
		if m := reFieldAt.FindStringSubmatch(rest); m != nil && (verb == "study" && nlp.Capitalized(nameOnly(m[2])) || verb == "major" && higherEdName(nameOnly(m[2]))) {
			// "I'm studying computer science at the University of Manchester", "I study architecture at Aarhus"
			// (a university named by its town): where one studies, and what; the
			// field's claim says only the field, so that a move to another university leaves no claim that
			// still names the first one as current.
			who := s.subject
			if who == "" {
				who = speaker
			}
			field := strings.TrimSpace(m[1])
			out = append(out,
				spec{subject: s.subject, predicate: "studies at", key: "educated_at", object: nameOnly(m[2]), confidence: s.confidence, change: s.change || changeCue(clause)},
				spec{subject: s.subject, predicate: "studies", object: field, confidence: s.confidence, text: canon.ClaimText(who, "studies", field)})
			continue
		}
		if m := reClassesAt.FindStringSubmatch(obj); m != nil && (verb == "take" || verb == "attend") && higherEdName(nameOnly(m[1])) {
			// "I'm taking prerequisite classes at Sacramento City College": courses taken at a college or a
			// university are studies there.
			s.predicate, s.key, s.object = "studies at", "educated_at", nameOnly(m[1])
			out = append(out, s)
			continue
		}
		m := reDegreeAt.FindStringSubmatch(obj)
		if m == nil {
			if m = reDegreeAt.FindStringSubmatch(rest); m != nil {
				obj = m[0]
			}
		}
		if m != nil && (degreeVerbs[verb] || verb == "") {
			// "I'm doing a master's in economics at the University of Toronto", "Hana is pursuing her PhD at
			// McGill": a degree studied for at a place is where one studies, whatever the place is called; so
			// is one held with no verb but "be", "get" or "have" ("I got my degree from Leeds", "she has an MBA
			// from INSEAD").
			s.predicate, s.key, s.object = "studies at", "educated_at", nameOnly(strings.TrimRight(m[1], ".,;!? "))
			s.change = s.change || verb != "do" && verb != "study" && verb != "" || changeCue(clause)
			out = append(out, s)
			continue
		}
		switch {
		case strings.HasPrefix(s.key, "used_to_"):
		case ok && schoolName(obj):
			s.predicate, s.key, s.object = "goes to school at", "school", strings.TrimRight(obj, ".,;!? ")
			s.change = s.change || change || changeCue(clause)
		case higherEdVerbs[verb] && higherEdName(obj):
			s.predicate, s.key, s.object = "studies at", "educated_at", strings.TrimRight(obj, ".,;!? ")
			s.change = s.change || change || changeCue(clause)
		}
		if moved.key != "" && s.subject == moved.subject && s.key == "school" {
			moved = spec{}
		}
		out = append(out, s)
	}
	if moved.key != "" {
		out = append(out, moved)
	}
	if len(out) == 0 {
		// "Lily is at Oakwood Primary (now)": being at a school is going to it.
		if m := reAtSchool.FindStringSubmatch(clause); m != nil && schoolName(m[2]) && !notNames[strings.ToLower(strings.Fields(m[1])[0])] {
			out = append(out, spec{subject: m[1], predicate: "goes to school at", object: m[2], key: "school", change: changeCue(clause), confidence: confRelation})
		}
	}
	return out
}

// degreeVerbs are the verbs, by lemma, of working toward (or finishing) an academic degree.
var degreeVerbs = map[string]bool{"do": true, "study": true, "pursue": true, "start": true, "begin": true,
	"finish": true, "complete": true, "take": true, "get": true, "earn": true, "switch": true, "work": true}

// reFieldAt is an object "FIELD at (the) PLACE".
var reFieldAt = regexp.MustCompile(`^([\pL][\pL\s'-]*?)\s+(?i:at)\s+(?i:the\s+)?(\p{Lu}.*)$`)

// reClassesAt is an object "(some kind of) classes|courses|a course at (the) PLACE".
var reClassesAt = regexp.MustCompile(`^(?i:(?:a|an|some|my|the)\s+)?(?:[\pL-]+\s+){0,2}?(?i:classes|courses|course|class|modules|module)\s+(?i:at)\s+(?i:the\s+)?(\p{Lu}.*)$`)

// reDegreeAt is an object "(a|my) DEGREE (in FIELD) at|from (the) PLACE": the academic degrees English names
// (bachelor's, master's, doctorate and their abbreviations, a diploma, a postdoc).
var reDegreeAt = regexp.MustCompile(`^(?i:(?:an?|my|his|her|their|our|the)\s+)?(?i:(?:[\pL-]+\s+)?(?:master'?s|masters|master|bachelor'?s|bachelor|ph\.?d\.?|doctorate|dphil|mba|msc|bsc|ma|ba|mfa|llm|degree|diploma|postdoc|undergrad)(?:\s+degree)?)(?:\s+(?i:in|of|on)\s+[\pL\s'-]+?)?\s+(?i:at|from)\s+(?i:the\s+)?(\p{Lu}.*)$`)

// reAtSchool is "NAME is (now) at/in SCHOOL (now)".
var reAtSchool = regexp.MustCompile(`^(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?)\s+(?:is|'s)\s+(?:(?i:now|currently|still)\s+)?(?i:at|in)\s+(\p{Lu}[\pL\pM'.-]*(?:\s+(?:of|de|the|\p{Lu}[\pL\pM'.-]*))*)(?:\s+(?i:now|these\s+days|this\s+year))?$`)
