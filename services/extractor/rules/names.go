package rules

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Names that hold commas or "of": "Charles Frederick, Duke of Holstein-Gottorp" is one person and "The Wheel
// of Time" one book. Cut at the comma, the first becomes "Charles Frederick" (a different subject, and a
// claim about him that is wrong); read as "the wheel of Time", the second becomes an attribute of "Time".

// nobleTitle is a title that follows a name after a comma ("…, Duke of X", "…, Queen of Y").
const nobleTitle = `(?:Grand\s+Duke|Grand\s+Duchess|Archduke|Archduchess|Duke|Duchess|King|Queen|Prince|Princess|Earl|Count|Countess|Baron|Baroness|Marquess|Marquis|Marchioness|Viscount|Viscountess|Lord|Lady|Emperor|Empress|Elector|Electress|Margrave|Landgrave|Sultan|Shah|Tsar|Tsarina|Bishop|Archbishop|Pope|Emir|Khan)`

var (
	// reAppositiveName matches a name followed by its title at the start of a clause; group 1 is the whole
	// name with the title, and the match ends after the comma that closes the title (if any).
	reAppositiveName = regexp.MustCompile(`^((?:[A-Z][\p{L}'.-]*\s+){0,3}[A-Z][\p{L}'.-]*,\s+` + nobleTitle + `\s+(?:of\s+)?(?:the\s+)?[A-Z][\p{L}'-]*(?:[\s-][A-Z][\p{L}'-]*){0,3}),?\s+`)
	// reTitleContinuation matches the title after a comma inside an object ("…'s child is Charles
	// Frederick, Duke of Holstein-Gottorp").
	reTitleContinuation = regexp.MustCompile(`^,\s+` + nobleTitle + `\s+(?:of\s+)?(?:the\s+)?[A-Z][\p{L}'-]*(?:[\s-][A-Z][\p{L}'-]*){0,3}`)
	// reInitialismContinuation matches a dotted initialism after a comma inside a name ("Washington, D.C.",
	// "Tarrytown, N.Y."): the abbreviation of the district or state the place is in, part of its name.
	reInitialismContinuation = regexp.MustCompile(`^,\s+\p{Lu}\.\p{Lu}(?:\.\p{Lu})?\.?`)
)

// appositiveName returns the titled name a clause starts with and the byte offset where the rest of the
// clause (its verb) starts, or "" and 0.
func appositiveName(clause string) (string, int) {
	m := reAppositiveName.FindStringSubmatchIndex(clause)
	if m == nil {
		return "", 0
	}
	name := clause[m[2]:m[3]]
	if notNames[strings.ToLower(strings.Fields(name)[0])] {
		return "", 0
	}
	return name, m[1]
}

// objectStop returns where the object in rest ends (reObjectStop), reading past a comma that introduces a
// noble title or a place's initialism ("Washington, D.C.") and past the period of an abbreviation or an
// initial ("Dr. Okafor", "St. Mary's").
func objectStop(rest string) int {
	from := 0
	for {
		loc := reObjectStop.FindStringIndex(rest[from:])
		if loc == nil {
			return -1
		}
		at := from + loc[0]
		if rest[at] == '.' && at > 0 && isAbbreviation(rest[:at]) && at+1 < len(rest) {
			from = at + 1
			continue
		}
		if t := reTitleContinuation.FindStringIndex(rest[at:]); t != nil && at > 0 && capitalizedWordBefore(rest[:at]) {
			from = at + t[1]
			continue
		}
		if t := reInitialismContinuation.FindStringIndex(rest[at:]); t != nil && at > 0 && capitalizedWordBefore(rest[:at]) &&
			!startsWithLetter(rest[at+t[1]:]) {
			from = at + t[1]
			continue
		}
		return at
	}
}

// startsWithLetter reports whether s starts with a letter.
func startsWithLetter(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

// capitalizedWordBefore reports whether the last word of s starts with a capital letter.
func capitalizedWordBefore(s string) bool {
	s = strings.TrimSpace(s)
	i := strings.LastIndexAny(s, " \t")
	r, _ := utf8.DecodeRuneInString(s[i+1:])
	return unicode.IsUpper(r)
}
