package rules

import (
	"regexp"
	"strings"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
	"github.com/mneme-ai/mneme/services/extractor/extract"
)

// Everyday attributes by the shape and the lexical field of their values, whatever the sentence's
// construction: an amount of money is the value of the money noun that governs it ("our budget went up to
// $3,250", "they pay me €60k now" → salary), an e-mail address or a phone number is the speaker's contact,
// a diet adjective the speaker's diet. Templates miss most of the ways people say these; the values
// themselves are unmistakable, and the nouns and verbs around them come from closed lexical fields.

// moneyNouns are the nouns of English that name an amount of money a person has, pays or is paid, each with
// the attribute it is filed under (its relation key): the lexical field of personal finance.
var moneyNouns = map[string]string{
	"salary": "salary", "pay": "salary", "wage": "salary", "wages": "salary", "income": "salary",
	"paycheck": "salary", "rent": "rent", "budget": "budget", "price": "price", "cost": "price",
	"offer": "offer", "bid": "offer", "fee": "fee", "fees": "fee", "loan": "loan", "mortgage": "mortgage",
	"deposit": "deposit", "allowance": "allowance", "tuition": "tuition", "bonus": "bonus", "quote": "quote",
	"premium": "premium", "savings": "savings", "debt": "debt",
	// A raise is of one's pay: "got a raise to €56k", "came with a bump - €56k".
	"raise": "salary", "bump": "salary",
}

// payAdverbs are the adverbs of time and degree between a payer and "pay": "we now pay", "I only pay".
var payAdverbs = map[string]bool{"now": true, "still": true, "currently": true, "only": true, "just": true, "already": true, "actually": true}

// moneyVerbs name the attribute of an amount when no money noun does: being paid is a salary ("I earn",
// "I make", "they pay me", "I take home", "I'm on", "I'll be on"), paying for a home is rent, what something
// costs is its price.
var moneyVerbs = []struct {
	re   *regexp.Regexp
	attr string
}{
	{regexp.MustCompile(`(?i)\b(?:earn|earns|earned|earning|make|makes|made|making|pay\s+me|pays\s+me|paid\s+me|paying\s+me|am\s+paid|get\s+paid|got\s+paid|take\s+home|bring\s+in|(?:am|'m|I\s+(?:will|'ll)\s+be)\s+(?:now\s+|currently\s+|still\s+)?on)\s+(?:(?:about|around|roughly|almost|nearly|over|just|now|only)\s+)*$`), "salary"},
	// A person moved up to an amount is paid it: "bumped to £42k from October", "I've been upped to $95,000" —
	// with the clause opening on the verb or on "I", or with "me" after the verb ("they bumped me to 52,500
	// kroner a month"); a thing bumped up names the thing ("Vodafone bumped it up to £30" is no salary).
	{regexp.MustCompile(`(?i)(?:^|[,;]\s*|\bI\s+(?:have\s+|'ve\s+)?)(?:(?:just|finally|now)\s+)?(?:(?:got|been|was|am|'m|being)\s+)?(?:bumped|upped)\s+(?:up\s+)?to\s+$|\b(?:bumped|upped|raised|moved|put|bumping|upping|raising|moving|putting)\s+me\s+(?:up\s+)?to\s+$`), "salary"},
	// What a landlord asks is rent: "The landlord wants 450 dinars a month from August".
	{regexp.MustCompile(`(?i)\b(?:landlord|landlady|letting\s+agent|letting\s+agency)\s+(?:(?:now|also|then)\s+)?(?:wants|is\s+asking\s+for|asks\s+for|has\s+asked\s+for|is\s+charging|charges)\s+(?:(?:me|us)\s+)?(?:(?:about|around|roughly|only|just)\s+)*$`), "rent"},
	{regexp.MustCompile(`(?i)\b(?:cost|costs|costing|priced\s+at|selling\s+for|sold\s+for|bought\s+(?:it|them)\s+for|buying\s+(?:it|them)\s+for|asking|listed\s+at|going\s+for)\s+(?:(?:me|us)\s+)?(?:(?:about|around|roughly|almost|nearly|over|just|only)\s+)*$`), "price"},
}

var (
	reMoneyValue = regexp.MustCompile(money + `(?:\s+(?:a|an|per)\s+(?:year|month|hour|week|night)|\s+(?:annually|yearly|monthly|hourly|weekly))?`)
	reEmail      = regexp.MustCompile(`[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}`)
	rePhone      = regexp.MustCompile(`(?:\+|\b0)\d[\d\s().-]{6,}\d\b`)
	reDietWord   = regexp.MustCompile(`(?i)\b(vegetarian|vegan|pescatarian|pescetarian|flexitarian|keto|paleo|gluten-free|dairy-free|lactose-free|plant-based)\b`)
	reNegation   = regexp.MustCompile(`(?i)\b(?:not|no\s+longer|never|n't|stopped\s+being|quit\s+being|(?:gave|given|giving)\s+up\s+(?:on\s+)?being)\b`)
	reRentCue    = regexp.MustCompile(`(?i)\bfor\s+(?:my|our|the|a|an)\s+(?:[\p{L}-]+\s+){0,2}(?:flat|apartment|place|house|room|studio|home|condo|loft|bedsit|(?:one|two|three|four|\d)-bedroom)\b|\bin\s+rent\b`)
	reMonthly    = regexp.MustCompile(`(?i)(?:a|per)\s+month|monthly`)
	reHomeNoun   = regexp.MustCompile(`(?i)\b(?:flat|apartment|place|house|room|studio|home|condo|loft)\b`)
	reFirstWord  = regexp.MustCompile(`(?i)\b(?:I|me|my|we|us|our|I'm|I've)\b`)
	reOtherOwner = regexp.MustCompile(`\p{Lu}[\p{L}\p{M}-]*'s\s`)
	// reBeOnPay is a first-person clause of being something, ending in "on" before the amount: the British and
	// Commonwealth idiom of one's pay ("I'm a nurse on £32k", "I was a junior analyst at Barclays on 34k").
	reBeOnPay = regexp.MustCompile(`(?i)^(?:\S+\s+)?I\s+(?:am|was)\s+(?:an?\s+|the\s+|now\s+|still\s+)?[\p{L}\p{M}' -]{2,60}\bon\s+$`)
	// rePayAmount is an amount said as pay is: in thousands ("£34k") or by the year or the hour.
	rePayAmount = regexp.MustCompile(`(?i)\d\s?k\b|\b(?:a|an|per)\s+(?:year|hour)\b|\b(?:annually|yearly|hourly)\b`)
)

// withoutLandlordsAsk drops the claims of what a landlord asks ("Our landlord charges £1,100 a month": the
// landlord's "charges") when the speaker's rent of the same amount was read from the clause: the rent says it,
// and a later rent would supersede only its own claim, leaving the landlord's old figure beside it as current.
func withoutLandlordsAsk(cs, attrs []extract.Claim) []extract.Claim {
	var rents []string
	for _, a := range attrs {
		if a.PredicateKey == "rent" {
			rents = append(rents, canon.ObjectKey(a.Object))
		}
	}
	if len(rents) == 0 {
		return cs
	}
	out := cs[:0]
	for _, c := range cs {
		k := canon.ObjectKey(c.Object)
		asked := false
		for _, r := range rents {
			asked = asked || k != "" && strings.Contains(r, k)
		}
		if !asked || !reLettingSubject.MatchString(c.SubjectKey) {
			out = append(out, c)
		}
	}
	return out
}

// reLettingSubject is the key of a subject who lets the speaker's home ("kim's_landlord").
var reLettingSubject = regexp.MustCompile(`_(?:landlord|landlady|letting_agent|letting_agency)$`)

// attributeValues returns claims of the speaker's everyday attributes read from the values a first-person
// clause states; claims already made for the same value are not repeated.
func (e *Extractor) attributeValues(tc *turnCtx, clause string, seq *int64, have []extract.Claim) []extract.Claim {
	defer noteMoneyNoun(tc, clause)
	if !(reFirstWord.MatchString(clause) || reTheOwnMoney.MatchString(clause) || reAimingFor.MatchString(clause) || reItIsAmount.MatchString(clause) && tc.moneyNoun != "" || reAmountNowClause.MatchString(clause) || reListedAmount.MatchString(clause)) || otherOwner(clause) {
		return nil
	}
	dates := findDates(clause, tc.ref)
	var out []extract.Claim
	stated := func(value string) bool {
		k := canon.ObjectKey(value)
		for _, c := range append(have, out...) {
			if !c.Fallback && (canon.ObjectKey(c.Object) == k || c.Functional && strings.Contains(canon.ObjectKey(c.Object), k)) {
				return true
			}
		}
		return false
	}
	add := func(attr, value string) {
		if attr == "" || value == "" || stated(value) {
			return
		}
		s := spec{predicate: strings.ReplaceAll(attr, "_", " "), object: value, text: sentence(possessive(tc.speaker) + " " + strings.ReplaceAll(attr, "_", " ") + " is " + value), confidence: confFirst, definite: true}
		out = append(out, e.claim(*tc, s, clause, dates, seq))
	}
	negated := reNegation.MatchString(clause)
	for _, loc := range reMoneyValue.FindAllStringIndex(clause, -1) {
		if negated {
			break
		}
		value := strings.TrimSpace(clause[loc[0]:loc[1]])
		before := clause[:loc[0]]
		if reByAmount.MatchString(before) {
			// "The landlord has hiked the rent by £150": an amount after "by" is how much a value changed,
			// not the value.
			continue
		}
		attr := ""
		// The nearest money noun before the amount in its clause ("our budget to $3,250", "a rent of £900").
		ws := words(strings.ToLower(before))
		for i := len(ws) - 1; i >= 0 && i >= len(ws)-6; i-- {
			if ws[i] == "pay" && i > 0 && (subjectPronouns[ws[i-1]] || payAdverbs[ws[i-1]] && i > 1 && subjectPronouns[ws[i-2]]) {
				// "I pay $1,700 for a one-bedroom", "we now pay €1,050": the verb, not the noun of one's wages;
				// what is paid is what the turn's money noun named ("Nursery fees went up, we now pay €1,050").
				if i == len(ws)-1 || i == len(ws)-2 && payAdverbs[ws[len(ws)-1]] {
					attr = tc.moneyNoun
				}
				continue
			}
			// ("Our rent's going up to £1,650": the noun with its clitic "is".)
			if a, ok := moneyNouns[strings.TrimSuffix(ws[i], "'s")]; ok {
				attr = a
				break
			}
		}
		if m := reOpeningMoney.FindStringSubmatch(before); attr == "" && m != nil {
			// "The rent on our two-bed in Oakland is $1,850": the money noun is the clause's subject, however
			// long the phrase that says what it is for.
			attr = moneyNouns[strings.ToLower(m[1])]
		}
		if tail := strings.TrimLeft(before[strings.LastIndex(before, ",")+1:], " "); attr == "" && (reItIsAmount.MatchString(tail) || reSoAmount.MatchString(tail) && reNowAfter.MatchString(clause[loc[1]:])) {
			// "The rent's gone up again, it's £1,175 now", "My rent went up. It's £1,175 now": the amount of
			// the money noun said before it, in the clause or in the turn.
			attr = tc.moneyNoun
			for _, w := range ws {
				if a, ok := moneyNouns[w]; ok {
					attr = a
				}
			}
		}
		if attr == "" {
			for _, v := range moneyVerbs {
				if v.re.MatchString(before) {
					attr = v.attr
					break
				}
			}
		}
		if attr == "" && reBeOnPay.MatchString(before) && rePayAmount.MatchString(value) {
			// "I'm a junior analyst at Barclays on £34k": what one is "on" in a clause about one's job is one's
			// pay, said in thousands or by the year or hour.
			attr = "salary"
		}
		if attr == "" && reRentCue.MatchString(clause[loc[1]:]) && strings.Contains(strings.ToLower(before), "pay") {
			attr = "rent"
		}
		if attr == "price" && reMonthly.MatchString(value) && reHomeNoun.MatchString(clause) {
			// What a home costs a month is its rent.
			attr = "rent"
		}
		if m := reThingCosts.FindStringSubmatch(before); m != nil && (attr == "" || attr == "price") {
			// "My gym membership costs £35 a month": the price of the thing the clause is about, the
			// speaker's as a quantity of the speaker's world ("the laptop budget").
			attr = thingPrice(m[1] + m[2])
		}
		add(attr, value)
	}
	if m := reAimingFor.FindStringSubmatch(clause); m != nil && !negated {
		// "aiming for a £30,000 deposit": the amount one aims at is a target, of the thing it names.
		add(strings.TrimSpace(strings.ToLower(m[2])+" target"), m[1])
	}
	if m := reEmail.FindString(clause); m != "" {
		add("email", m)
	}
	if m := rePhone.FindString(clause); m != "" && !inDate(dates, clause, m) && digits(m) >= 7 {
		add("phone_number", strings.TrimSpace(m))
	}
	if m := reDietWord.FindStringSubmatch(clause); m != nil && !negated && !strings.Contains(strings.ToLower(clause), "?") {
		add("diet", strings.ToLower(m[1]))
	}
	return out
}

// otherOwner reports a clause that names another owner by a possessive ("Anna's rent"); "It's", "That's" and
// the like are a pronoun and "is".
func otherOwner(clause string) bool {
	for _, loc := range reOtherOwner.FindAllStringIndex(clause, -1) {
		w := strings.ToLower(strings.TrimRight(clause[loc[0]:loc[1]], " \t"))
		if !notNames[w] && !notNames[strings.TrimSuffix(w, "'s")] {
			return true
		}
	}
	return false
}

// reListedAmount is a thing for sale and the price it is listed at, said without an owner ("It's listed at
// €6.500 now", "The bike is up for sale at £300"): what a person says they are selling is theirs.
var reListedAmount = regexp.MustCompile(`(?i)^(?:it|that|the\s+[\pL-]+)(?:\s+is|'s|\s+was)\s+(?:now\s+|currently\s+)?(?:listed|advertised|priced|on\s+sale|up\s+for\s+sale)\s+(?:at|for)\s`)

// reOpeningMoney is a clause up to its copula whose subject is a money noun of the speaker's household and
// what it is for: "The rent on our two-bed in Oakland is", "My budget for the whole trip to Japan is now".
var reOpeningMoney = regexp.MustCompile(`(?i)^(?:(?:the|my|our)\s+)?(rent|mortgage|budget|salary|pay|allowance|deposit|tuition)\s+(?:on|for)\s+[^,;]{1,60}?\s+(?:is|was|'s)\s+(?:(?:now|only|just|about|around|still)\s+)*$`)

// reThingCosts is a clause up to its amount whose subject is a thing said to cost it: "my gym membership
// costs", "the tickets now cost", "Netflix costs" (group 1 or 2 the thing). With "is" the amount is what the
// noun names ("my target is $60,000" is a target, not its price), so only the verb of price counts.
var reThingCosts = regexp.MustCompile(`^(?:(?i:my|our|the)\s+((?:\p{Ll}[\p{Ll}-]*\s+){0,2}\p{Ll}[\p{Ll}-]*)|(\p{Lu}[\pL\pM-]*(?:\s+\p{Lu}[\pL\pM-]*)?))\s+(?:(?i:now|still|only)\s+)?(?i:costs?|costing)\s+(?:(?i:now|still|only|just|about|around|me|us)\s+)*$`)

// thingPrice is the attribute of a thing's price: its words, the head noun in the singular, then "price"
// ("tickets" → "ticket price", "Netflix" → "netflix price").
func thingPrice(thing string) string {
	ws := strings.Fields(strings.ToLower(thing))
	ws[len(ws)-1] = nlp.Lemma(ws[len(ws)-1], "NNS")
	return strings.Join(ws, " ") + " price"
}

// reItIsAmount is a clause that opens with "it is" (or "that is") before an amount: the pronoun stands for the
// money noun said before it.
var reItIsAmount = regexp.MustCompile(`(?i)^(?:it|that)\s+(?:is|was|will\s+be|has\s+gone\s+up\s+to|went\s+up\s+to)\s+(?:(?:now|only|just|about|around)\s+)*$|^(?i:it|that)\s+(?:is|was)\s+`)

// reSoAmount is what may open a clause of a bare amount that ends in "now" ("…off the rent, so £1,400 now"):
// the amount is the money noun's, as after "it is".
var reSoAmount = regexp.MustCompile(`(?i)^(?:so\s+|which\s+makes\s+it\s+|making\s+it\s+)?$`)

// reAmountNowClause is a clause that ends in a bare amount said to hold now: "The landlord knocked £50 off the
// rent, so £1,400 now", "Promotion came with a bump - €56k from January".
var reAmountNowClause = regexp.MustCompile(`(?:^|,\s*)(?:(?i:so)\s+)?` + money + `(?:\s+(?i:a|per)\s+(?i:month|week|year))?\s+(?:(?i:now)\s*[.!]*$|` + fromTime + `)`)

// fromTime is a start said after an amount: "from January", "starting next month", "as of the 1st".
const fromTime = `(?i:from|starting|as\s+of)\s+(?:(?i:next|this)\s+)?(?:\p{Lu}\p{Ll}+|(?i:month|year|week)|(?i:the\s+)?\d)`

// reNowAfter is "now" right after an amount.
var reNowAfter = regexp.MustCompile(`^(?:\s+(?i:a|per)\s+(?i:month|week|year))?\s+(?:(?i:now)\b|` + fromTime + `)`)

// reByAmount is the "by" before the amount a value changed by ("up by £150", "cut it by about $20").
var reByAmount = regexp.MustCompile(`(?i)\bby\s+(?:(?:about|around|roughly|another|a\s+further|an\s+extra|over|almost|nearly)\s+)?$`)

// reAimingFor is an amount aimed at, with what it is for: "(we're) aiming for a £30,000 deposit", "hoping to
// raise $5,000" (groups: the amount, the noun after it).
var reAimingFor = regexp.MustCompile(`(?i)^(?:(?:I|we)\s+(?:am|are|'m|'re)\s+)?(?:aiming|hoping|trying|looking)\s+(?:for|to\s+(?:get|save|raise|hit|reach))\s+(?:(?:a|an)\s+)?(` + money + `)(?:\s+([\p{Ll}-]+))?\s*$`)

// reTheOwnMoney is a money noun of one's own household said with "the" or bare ("The rent's gone up again",
// "School fees have gone up"): chat says "the rent" of the speaker's rent, as it does not say "the price" of the
// speaker's; and "the landlord" is the speaker's, whose amounts are the speaker's rent. The nouns before "fees"
// are what a household pays fees for (school, nursery, childcare, a club, a gym, the council, a service).
var reTheOwnMoney = regexp.MustCompile(`(?i)^(?:the\s+)?(?:(?:school|nursery|tuition|childcare|daycare|club|gym|membership|council|service)\s+)?(?:rent|mortgage|salary|pay|wages?|budget|allowance|bonus|deposit|tuition|fees?|landlord|landlady)\b`)

// noteMoneyNoun records the money noun a clause names, for an "it" in a later clause of the turn.
func noteMoneyNoun(tc *turnCtx, clause string) {
	for _, w := range words(strings.ToLower(clause)) {
		if a, ok := moneyNouns[w]; ok {
			tc.moneyNoun = a
		}
	}
}

func digits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// inDate reports whether the matched text lies inside one of the clause's dates.
func inDate(dates []when, clause, m string) bool {
	i := strings.Index(clause, m)
	for _, d := range dates {
		if i >= d.start && i < d.end {
			return true
		}
	}
	return false
}

// rePaidAs is a salary said with the role it is paid for: "I'm on £38k as a QA engineer" (groups: the salary
// clause, the role with its article, what follows).
var rePaidAs = regexp.MustCompile(`^((?:I'm|I\s+am)\s+(?:(?:now|currently|still)\s+)?on\s+` + money + `(?:\s+(?:a|per)\s+year)?)\s+as\s+(an?\s+(?:[\pL-]+\s+){0,2}[\pL-]+)(.*)$`)

// paidAs says a salary and the role it is paid for as two clauses, each read by its own reading: "I'm on £38k,
// and I work as a QA engineer".
func paidAs(sent string) string {
	if m := rePaidAt.FindStringSubmatch(sent); m != nil && !reTimeAfterAt.MatchString(m[2]) {
		// "I'm on £38,000 at the council": the salary, and where it is earned.
		return m[1] + ", and I work at " + m[2] + m[3]
	}
	m := rePaidAs.FindStringSubmatch(sent)
	if m == nil {
		return sent
	}
	return m[1] + ", and I work as " + m[2] + m[3]
}

// reTimeAfterAt is a time said with "at the": "at the moment", "at the weekend" (British), "at the end".
var reTimeAfterAt = regexp.MustCompile(`^the\s+(?:moment|minute|time|weekend|weekends|end|start|beginning|same\s+time|latest|most|least)\b`)

// rePaidAt is a salary said with where it is earned: "I'm on £38,000 at the council", "I earn £41k at Tesco"
// (groups: the salary clause, the employer — a name, or "the" and a noun —, the end).
var rePaidAt = regexp.MustCompile(`^((?:I'm|I\s+am|I\s+earn|I\s+make)\s+(?:(?:now|currently|still)\s+)?(?:on\s+)?` + money + `(?:\s+(?:a|per)\s+year)?)\s+at\s+((?:the\s+\p{Ll}[\pL-]*(?:\s+\p{Ll}[\pL-]*)?|\p{Lu}[\pL\pM&'.-]*(?:\s+\p{Lu}[\pL\pM&'.-]*){0,3}))(\s*[.!]*)$`)
