package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Negative assertions. "I have never written any Flask routes", "Alice does not use Slack" and "I am not using
// Redux" state something a memory must keep: a later (or earlier) "I'm implementing the homepage route with
// Flask" contradicts them, and a reader should be shown both. The clause patterns of rules.go drop negated
// clauses (a negated clause read as a positive one would state the opposite of what was said), so negations are
// read here, from the whole sentence, into claims with Negated set: the subject is the speaker (first person) or
// the named subject, the predicate is the verb phrase in its positive form ("has written"), the object what
// follows it, and the text the statement in the third person ("Alice has never written any Flask routes").
//
// Only plain statements count: nothing inside a question ("Do you think I have never…"), a condition or wish
// ("if I had never…", "I wish I had never…"), or with a modal ("I would never…", "I will not…"), and nothing
// whose object says nothing ("I have never done this before").

// reNegated finds a subject, an optional auxiliary, the negation and the verb. Contractions are expanded first
// ("I've" → "I have", "don't" → "do not", "I'm" → "I am"). The subject starts where no letter, mark, digit or
// apostrophe stands before it: Go's \b knows ASCII letters only, and would find no word start before "Ólafur".
var reNegated = regexp.MustCompile(`(?:^|[^\pL\pM\pN'])(I|\p{Lu}[\p{Ll}\p{M}]+(?:\s+\p{Lu}[\p{Ll}\p{M}]+){0,2})\s+(?:(have|has|had|do|does|did|am|is|was)\s+)?(never|not\s+ever|not|no\s+longer)\s+((?:(?:ever|actually|really|even|once|yet|previously|personally|properly|officially|seriously|successfully|fully)\s+)*)([a-z]+)\b`)

// reAnymore is the adverb that makes a negation say a state ended ("not … anymore").
var reAnymore = regexp.MustCompile(`(?i)\bany\s?more\b`)

// reNegatedParticle is a preposition that belongs to the verb ("worked with", "been to", "enrolled in").
var reNegatedParticle = regexp.MustCompile(`^\s*(in|into|to|with|on|at|for|about|from|of|through|over|up|out|by|onto)\s+`)

// reNegatedStop ends the object: a clause boundary, a question or a follow-up clause.
var reNegatedStop = regexp.MustCompile(`(?i)\s*(?:[;!?:]|\.(?:\s|$)|\(|,\s*(?:so|but|and|which|because|since|as|while|though|although|yet|then|can|could|would|will|should|do|does|did|is|are|was|what|how|why|where|when|who|I|we|you|it|this|that|especially|considering|given|even|or|please|if|let|what's|not|only|just|plus)\b|\s+[-=]+>|\s+[-–—]\s+|\s+(?:but|because|since|although|though|which|while|until|unless|whenever|so\s+that|so\s+(?:I|how|what|can|could|should|any|if|now)|and\s+(?:I|now|then|so|yet|want|need|am|was|would|wonder|wondering|can|could|should|it|this|that))\b)`)

// negationVerbOK says which verb forms a negation may take after each auxiliary: a past participle after
// have/has/had, a base form after do/does/did, an -ing form after am/is/was, any known form after a bare
// "never" ("I never use", "I never went").
func negationVerbOK(aux, neg, verb string) bool {
	if negationSkipVerbs[verb] {
		return false
	}
	base, known := verbForms[verb]
	switch aux {
	case "have", "has", "had":
		// A participle; some are spelled like their base ("read", "put", "cut").
		return verb == "been" || strings.HasSuffix(verb, "ed") || (known && !strings.HasSuffix(verb, "ing") && thirdPerson(base) != verb)
	case "do", "does", "did":
		return neg == "not" && known && base == verb
	case "am", "is", "was":
		return neg != "never" && strings.HasSuffix(verb, "ing") && len(verb) > 4
	default:
		// "I never use", "Alice never went", "I no longer work"; a bare "not" is not a verb negation ("I not
		// only…").
		return (neg == "never" || neg == "no longer") && (known || strings.HasSuffix(verb, "ed"))
	}
}

// negationSkipVerbs state a mental state, a request or an intention rather than a fact about the subject
// ("I do not know", "I am not trying to", "I have never understood").
var negationSkipVerbs = map[string]bool{
	"know": true, "known": true, "knew": true, "understand": true, "understood": true, "think": true, "thought": true,
	"see": true, "seen": true, "mind": true, "care": true, "remember": true, "recall": true, "believe": true,
	"want": true, "wanted": true, "need": true, "needed": true, "mean": true, "meant": true, "wonder": true,
	"seem": true, "seemed": true, "realize": true, "realized": true, "worry": true, "agree": true, "expect": true,
	"intend": true, "plan": true, "hesitate": true, "get": true, "got": true, "gotten": true, "quite": true,
	"going": true, "trying": true, "planning": true, "looking": true, "asking": true, "saying": true,
	"expecting": true, "kidding": true, "getting": true, "sure": true, "able": true, "bother": true,
	"only": true, "just": true, "even": true, "exactly": true, "necessarily": true, "really": true,
	"say": true, "said": true, "ask": true, "asked": true, "imagine": true, "imagined": true, "guess": true,
	"be": true,
}

// negationHedges, among the last words before the subject, make the negation hypothetical or reported.
var negationHedges = map[string]bool{
	"if": true, "whether": true, "unless": true, "suppose": true, "supposing": true, "imagine": true,
	"wonder": true, "wondering": true, "assume": true, "assuming": true, "pretend": true, "wish": true,
	"what": true, "how": true, "when": true, "where": true, "who": true, "which": true,
	"would": true, "could": true, "should": true, "might": true, "maybe": true, "perhaps": true, "says": true,
	"said": true, "claims": true, "claimed": true, "thinks": true, "thought": true, "believes": true,
}

// negationNotSubjects are capitalized words that are not a named subject.
var negationNotSubjects = map[string]bool{
	"The": true, "This": true, "That": true, "These": true, "Those": true, "It": true, "There": true, "He": true,
	"She": true, "They": true, "We": true, "You": true, "My": true, "Our": true, "Your": true, "His": true,
	"Her": true, "Their": true, "Its": true, "What": true, "Who": true, "Why": true, "How": true, "When": true,
	"Where": true, "Which": true, "And": true, "But": true, "So": true, "Also": true, "Maybe": true, "If": true,
	"Just": true, "Still": true, "Yet": true, "Now": true, "Then": true, "Because": true, "Since": true,
	"Honestly": true, "Actually": true, "Really": true, "Some": true, "Someone": true, "Nobody": true,
	"Everyone": true, "Anyone": true, "People": true, "Everything": true, "Nothing": true, "One": true,
}

// negationEmptyObject are object words that carry no content of their own.
var negationEmptyObject = map[string]bool{
	"this": true, "that": true, "it": true, "them": true, "these": true, "those": true, "anything": true,
	"something": true, "everything": true, "before": true, "yet": true, "so": true, "far": true, "at": true,
	"all": true, "much": true, "ever": true, "again": true, "here": true, "there": true, "any": true, "a": true,
	"an": true, "the": true, "of": true, "in": true, "to": true, "one": true, "lot": true, "really": true,
	"such": true, "thing": true, "things": true, "way": true, "like": true, "too": true, "either": true,
	"much of": true, "about": true, "on": true, "with": true, "for": true, "many": true, "enough": true,
}

// negatedClaims returns the negative assertions of one sentence of turn tc.
func (e *Extractor) negatedClaims(tc *turnCtx, raw string, seq *int64) []extract.Claim {
	sent := stripDiscourse(expand(raw))
	if sent == "" || conditional(sent) {
		return nil
	}
	var out []extract.Claim
	for _, m := range reNegated.FindAllStringSubmatchIndex(sent, -1) {
		subj := sent[m[2]:m[3]]
		aux := ""
		if m[4] >= 0 {
			aux = sent[m[4]:m[5]]
		}
		neg := strings.Join(strings.Fields(sent[m[6]:m[7]]), " ")
		verb := sent[m[10]:m[11]]
		if neg == "not ever" {
			neg = "never"
		}
		lasting := neg == "no longer" || reAnymore.MatchString(sent[m[11]:])
		atWork := verb == "at" && (aux == "am" || aux == "is") && lasting
		if !atWork && !negationVerbOK(aux, neg, verb) || !plainStatement(sent[:m[2]]) {
			continue
		}
		first := subj == "I"
		if !first && !negationSubjectNamed(subj, sent[:m[2]]) {
			continue
		}
		rest := sent[m[11]:]
		if atWork {
			// "I'm no longer at Meta", "Emma is not at Google anymore": a named organization one is no longer
			// at is one no longer worked for (placeOfWork in openie.go reads the positive).
			org := nameOnly(strings.TrimSpace(rest))
			if org == "" || !nlp.Capitalized(org) {
				continue
			}
			verb, rest, aux, neg = "work", " at "+org, "", "no longer"
		}
		particle := ""
		if p := reNegatedParticle.FindStringSubmatchIndex(rest); p != nil {
			particle = rest[p[2]:p[3]]
			rest = rest[p[1]:]
		}
		if loc := reNegatedStop.FindStringIndex(rest); loc != nil {
			rest = rest[:loc[0]]
		}
		if verb == "been" && particle == "" && !reBeenNoun.MatchString(rest) {
			// "I have not been able to…", "I have never been sure": a state, not an experience.
			continue
		}
		object := trimNegatedObject(rest)
		if !contentful(object) {
			continue
		}
		subject, objectText := subj, object
		if first {
			subject = tc.speaker
			objectText = toThirdPerson(object, tc.speaker)
		}
		predicate := negatedPredicate(aux, verb, particle)
		// The statement as said, in the third person: subject, auxiliary, negation, adverbs, verb, object.
		verbText := verb
		if aux == "" && (neg == "never" || neg == "no longer") {
			if b, ok := verbForms[verb]; ok && b == verb {
				verbText = thirdPerson(verb)
			}
		}
		clause := subject
		if aux != "" {
			clause += " " + thirdPersonAux(aux)
		}
		clause += " " + neg + " " + strings.TrimSpace(sent[m[8]:m[9]]+" "+verbText)
		if particle != "" {
			clause += " " + particle
		}
		clause += " " + objectText
		pk := canon.PredicateKey(predicate)
		out = append(out, extract.Claim{
			TurnIDs:      []string{tc.turn.TurnID},
			Subject:      subject,
			SubjectKey:   canon.SubjectKey(subject),
			Predicate:    predicate,
			PredicateKey: pk,
			Object:       objectText,
			Text:         sentence(strings.Join(strings.Fields(clause), " ")),
			// A negation is an accumulating fact: "never used Zotero" and "never used Mendeley" both hold.
			Functional: false,
			ValidFrom:  tc.ref,
			Sequence:   seq,
			Confidence: 0.8,
			Negated:    true,
		})
		if ended := lastingEnd(aux, verb, particle, lasting); ended != "" {
			// "I don't work at Beanstalk anymore": a state that ended, which English also says as "used to"
			// ("I used to work at Beanstalk"). The negation keeps the denial; this claim is the ending the
			// reader applies to the value it names (endings in the query service), as it does to any "used to".
			c := out[len(out)-1]
			// Keyed as the past habitual's claims are: "used_to_" and the present relation's key.
			c.Predicate, c.PredicateKey, c.Negated = ended, "used_to_"+canon.RelationKey(c.PredicateKey), false
			vp := strings.Fields(strings.TrimPrefix(ended, "used to "))
			vp[0] = thirdPerson(vp[0])
			c.Text = sentence(strings.Join(strings.Fields(subject+" no longer "+strings.Join(vp, " ")+" "+objectText), " "))
			out = append(out, c)
		}
	}
	return out
}

// lastingEnd is the "used to" predicate of a negation that says a present state or habit ended ("no longer",
// "not … anymore"; "don't", "doesn't", "am not", "is not" or no auxiliary), or "".
func lastingEnd(aux, verb, particle string, lasting bool) string {
	if !lasting {
		return ""
	}
	switch aux {
	case "", "do", "does", "am", "is", "are":
	default:
		return ""
	}
	base := nlp.VerbLemma(strings.ToLower(verb))
	if b, ok := verbForms[strings.ToLower(verb)]; ok {
		base = b
	}
	if _, ok := verbBase(base); !ok && base == strings.ToLower(verb) && !strings.HasSuffix(verb, "ing") {
		if _, known := verbForms[base]; !known {
			return ""
		}
	}
	p := "used to " + base
	if particle != "" {
		p += " " + particle
	}
	return p
}

// plainStatement reports whether the words before a negation leave it a plain statement: not inside a
// question ("Do you think I…", "Why do I…") and not after a hedge or a reporting verb among its last words
// ("I wonder if I…", "Bob says I…").
func plainStatement(prefix string) bool {
	ws := words(strings.ToLower(prefix))
	if len(ws) >= 2 && isQuestion(prefix+" x") {
		return false
	}
	if len(ws) == 1 && questionWords[ws[0]] && ws[0] != "anything" && ws[0] != "any" {
		return false
	}
	for i := max(0, len(ws)-3); i < len(ws); i++ {
		if negationHedges[ws[i]] {
			return false
		}
	}
	return true
}

// negationSubjectNamed reports whether subj, as matched before a negation, names someone: capitalized words that are
// not a pronoun or a sentence opener, at the start of the sentence or of a clause.
func negationSubjectNamed(subj, prefix string) bool {
	for _, w := range strings.Fields(subj) {
		if negationNotSubjects[w] {
			return false
		}
	}
	p := strings.TrimSpace(prefix)
	if p == "" || strings.HasSuffix(p, ",") || strings.HasSuffix(p, ";") {
		return true
	}
	ws := words(strings.ToLower(p))
	switch ws[len(ws)-1] {
	case "and", "but", "because", "since", "that", "so", "although", "though", "while":
		return true
	}
	return false
}

// negatedPredicate is the verb phrase in its positive form, third person: "has written", "uses", "is using",
// "has worked with".
func negatedPredicate(aux, verb, particle string) string {
	p := verb
	switch aux {
	case "have", "has":
		p = "has " + verb
	case "had":
		p = "had " + verb
	case "am", "is":
		p = "is " + verb
	case "was":
		p = "was " + verb
	case "did":
		p = "did " + verb
	default:
		if b, ok := verbForms[verb]; ok && b == verb {
			p = thirdPerson(verb)
		}
	}
	if particle != "" {
		p += " " + particle
	}
	return p
}

// thirdPersonAux is the auxiliary as the third person says it.
func thirdPersonAux(aux string) string {
	switch aux {
	case "have":
		return "has"
	case "do":
		return "does"
	case "am":
		return "is"
	}
	return aux
}

// reBeenNoun is what "been" takes when it states an experience: "been a member", "been there".
var reBeenNoun = regexp.MustCompile(`^\s*(?:a|an|the|part|there|here|abroad|home|anywhere|outside)\b`)

var reNegatedTail = regexp.MustCompile(`(?i)(?:[\s,]+(?:before|yet|so far|at all|ever|either|in my life|until now|till now|to date|really|though|now|again|too|myself|personally|anymore|any more|and|or|but))+$`)

// trimNegatedObject trims the object's trailing filler ("… before", "… so far") and punctuation.
func trimNegatedObject(s string) string {
	s = strings.TrimSpace(strings.TrimRight(strings.TrimSpace(s), ",;:-\"' "))
	for {
		t := strings.TrimSpace(reNegatedTail.ReplaceAllString(s, ""))
		if t == s {
			return s
		}
		s = t
	}
}

// contentful reports whether an object names something: a word that is not a pronoun or filler.
func contentful(object string) bool {
	for _, w := range words(strings.ToLower(object)) {
		if !negationEmptyObject[w] && len(w) > 1 {
			return true
		}
	}
	return false
}
