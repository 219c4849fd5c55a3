package nlp

import "strings"

// Lemma returns the lower-case base form of word read with part-of-speech tag: a verb's infinitive, a plural
// noun's singular, the word itself otherwise. Proper nouns keep their spelling. golem proposes the base forms
// its dictionary knows; for verbs and plural nouns the one English inflection rules can derive the word from
// is taken ("lives"/VBZ → "live", "lives"/NNS → "life", "left"/VBD → "leave"), because the dictionary does
// not know which part of speech a form belongs to.
func Lemma(word, tag string) string {
	loadLemmas()
	if IsProper(tag) {
		return word
	}
	w := strings.ToLower(word)
	switch {
	case IsVerb(tag) || tag == "MD":
		return verbLemma(w, tag)
	case tag == "NNS":
		return nounLemma(w)
	}
	return w
}

// VerbLemma returns the infinitive of a verb form of unknown tense ("moved" → "move", "has" → "have"); a word
// that is no verb form is returned lower-cased.
func VerbLemma(word string) string {
	loadLemmas()
	w := strings.ToLower(word)
	if b, ok := irregularVerb[w]; ok {
		return b
	}
	for _, tag := range []string{"VBZ", "VBD", "VBG"} {
		if b := verbLemma(w, tag); b != w {
			return b
		}
	}
	return w
}

func verbLemma(w, tag string) string {
	if tag == "VB" || tag == "VBP" || tag == "MD" {
		// A base form is its own lemma ("lay", "found"); only "am", "are" and the like are not.
		if b, ok := auxiliaryForms[w]; ok {
			return b
		}
		return w
	}
	if b, ok := irregularVerb[w]; ok {
		return b
	}
	// A base form golem knows that inflects to w by rule.
	for _, c := range baseForms(w) {
		if c != w && inflectsTo(c, w, tag) {
			return c
		}
	}
	// Else undo the inflection by rule and keep a candidate the dictionary knows as a word.
	for _, c := range uninflect(w, tag) {
		if strings.HasSuffix(c, "v") && lemmatize.InDict(c+"e") {
			// English spelling ends no verb in "v" ("serve", "love", "move"): "serving" is not "serv"
			// + "ing" though the dictionary lists "serv" as a word.
			continue
		}
		if inflectsTo(c, w, tag) && lemmatize.InDict(c) {
			return c
		}
	}
	return w
}

// inflectsTo reports whether base inflects to w in the tense tag names (any regular form for an unknown tag).
func inflectsTo(base, w, tag string) bool {
	switch tag {
	case "VBZ":
		return ThirdPerson(base) == w
	case "VBG":
		return Gerund(base) == w
	case "VBD", "VBN":
		return PastRegular(base) == w
	}
	return ThirdPerson(base) == w || Gerund(base) == w || PastRegular(base) == w
}

// uninflect proposes base forms of a regular inflection.
func uninflect(w, tag string) []string {
	var out []string
	cut := func(suffix string, adds ...string) {
		if strings.HasSuffix(w, suffix) && len(w) > len(suffix)+1 {
			stem := strings.TrimSuffix(w, suffix)
			for _, a := range adds {
				out = append(out, stem+a)
			}
			if n := len(stem); n > 2 && stem[n-1] == stem[n-2] {
				out = append(out, stem[:n-1])
			}
		}
	}
	switch tag {
	case "VBZ":
		cut("ies", "y")
		cut("es", "", "e")
		cut("s", "")
	case "VBG":
		cut("ying", "ie")
		cut("ing", "", "e")
	default:
		cut("ied", "y")
		cut("ed", "", "e")
		cut("d", "")
	}
	return out
}

func nounLemma(w string) string {
	for _, c := range baseForms(w) {
		if c != w {
			return c
		}
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ses") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// ThirdPerson is the third-person singular present of a base form ("live" → "lives", "study" → "studies").
func ThirdPerson(b string) string {
	switch {
	case b == "have":
		return "has"
	case b == "be":
		return "is"
	case b == "do":
		return "does"
	case b == "go":
		return "goes"
	case strings.HasSuffix(b, "y") && len(b) > 1 && !isVowel(b[len(b)-2]):
		return b[:len(b)-1] + "ies"
	case strings.HasSuffix(b, "s"), strings.HasSuffix(b, "sh"), strings.HasSuffix(b, "ch"), strings.HasSuffix(b, "x"), strings.HasSuffix(b, "z"), strings.HasSuffix(b, "o"):
		return b + "es"
	}
	return b + "s"
}

// doublesFinal reports a base whose final consonant doubles before -ed/-ing: a short stressed
// consonant-vowel-consonant ending ("stop", "plan", "admit"), which English spelling marks this way.
func doublesFinal(b string) bool {
	n := len(b)
	if n < 3 {
		return false
	}
	c1, v, c2 := b[n-3], b[n-2], b[n-1]
	if isVowel(c1) || !isVowel(v) || isVowel(c2) || strings.IndexByte("wxy", c2) >= 0 {
		return false
	}
	// Two-syllable words double only with final stress, which spelling does not show; the common ones are
	// listed.
	if n > 4 {
		return finalStress[b]
	}
	return n == 3 || !isVowel(b[n-4]) // "rain", "cook" do not double
}

// finalStress are longer verbs stressed on the last syllable, so they double the final consonant.
var finalStress = map[string]bool{"admit": true, "begin": true, "commit": true, "compel": true, "control": true,
	"equip": true, "forget": true, "occur": true, "omit": true, "permit": true, "prefer": true, "refer": true,
	"regret": true, "submit": true, "transfer": true, "upset": true, "patrol": true, "rebel": true, "expel": true,
	"propel": true, "excel": true, "confer": true, "deter": true, "infer": true, "acquit": true}

// PastRegular is the regular past tense of a base form ("move" → "moved", "stop" → "stopped").
func PastRegular(b string) string {
	switch {
	case strings.HasSuffix(b, "e"):
		return b + "d"
	case strings.HasSuffix(b, "y") && len(b) > 1 && !isVowel(b[len(b)-2]):
		return b[:len(b)-1] + "ied"
	case doublesFinal(b):
		return b + b[len(b)-1:] + "ed"
	}
	return b + "ed"
}

// Gerund is the -ing form of a base form ("move" → "moving", "run" → "running", "lie" → "lying").
func Gerund(b string) string {
	switch {
	case strings.HasSuffix(b, "ie"):
		return b[:len(b)-2] + "ying"
	case strings.HasSuffix(b, "e") && !strings.HasSuffix(b, "ee") && b != "be":
		return b[:len(b)-1] + "ing"
	case doublesFinal(b):
		return b + b[len(b)-1:] + "ing"
	}
	return b + "ing"
}

// irregularVerb maps the past tense and past participle of English irregular verbs (and the forms of "be",
// "have" and "do") to their infinitive. The list is the standard one of English grammars: a closed class of
// about 150 verbs, most of them common, whose forms no rule derives.
var irregularVerb = func() map[string]string {
	m := map[string]string{}
	for k, v := range auxiliaryForms {
		m[k] = v
	}
	for _, row := range strings.Split(strings.TrimSpace(irregularTable), "\n") {
		f := strings.Fields(row)
		for _, form := range f[1:] {
			for _, alt := range strings.Split(form, "/") {
				if _, taken := m[alt]; !taken {
					m[alt] = f[0]
				}
			}
		}
	}
	return m
}()

// irregularParticiple holds the past participles of the irregular verbs (third column of irregularTable).
var irregularParticiple = func() map[string]bool {
	m := map[string]bool{}
	for _, row := range strings.Split(strings.TrimSpace(irregularTable), "\n") {
		f := strings.Fields(row)
		for _, alt := range strings.Split(f[len(f)-1], "/") {
			m[alt] = true
		}
	}
	return m
}()

// irregularPast holds the simple past forms of the irregular verbs (second column of irregularTable).
var irregularPast = func() map[string]bool {
	m := map[string]bool{}
	for _, row := range strings.Split(strings.TrimSpace(irregularTable), "\n") {
		f := strings.Fields(row)
		for _, alt := range strings.Split(f[1], "/") {
			m[alt] = true
		}
	}
	return m
}()

// IsIrregularPast reports whether w is the simple past of an irregular verb ("rang", "left", "bought"); the
// tagger reads some of them as nouns where no context tells it otherwise ("The agent rang").
func IsIrregularPast(w string) bool { return irregularPast[strings.ToLower(w)] }

// auxiliaryForms are the forms of "be", "have", "do" and the clitic forms of auxiliaries and modals.
var auxiliaryForms = map[string]string{
	"am": "be", "is": "be", "are": "be", "was": "be", "were": "be", "been": "be", "being": "be", "'m": "be",
	"'re": "be", "'s": "be", "has": "have", "had": "have", "'ve": "have", "having": "have", "does": "do",
	"did": "do", "done": "do", "'d": "would", "'ll": "will", "ca": "can", "wo": "will",
}

// irregularTable: base, past, participle (alternatives separated by "/").
const irregularTable = `
arise arose arisen
awake awoke awoken
bear bore born/borne
beat beat beaten
become became become
begin began begun
bend bent bent
bet bet bet
bind bound bound
bite bit bitten
bleed bled bled
blow blew blown
break broke broken
breed bred bred
bring brought brought
broadcast broadcast broadcast
build built built
burn burnt burnt
buy bought bought
catch caught caught
choose chose chosen
cling clung clung
come came come
cost cost cost
creep crept crept
cut cut cut
deal dealt dealt
dig dug dug
draw drew drawn
dream dreamt dreamt
drink drank drunk
drive drove driven
eat ate eaten
fall fell fallen
feed fed fed
feel felt felt
fight fought fought
find found found
flee fled fled
fly flew flown
forbid forbade forbidden
forget forgot forgotten
forgive forgave forgiven
freeze froze frozen
get got got/gotten
give gave given
go went gone
grind ground ground
grow grew grown
hang hung hung
hear heard heard
hide hid hidden
hit hit hit
hold held held
hurt hurt hurt
keep kept kept
kneel knelt knelt
know knew known
lay laid laid
lead led led
lean leant leant
leap leapt leapt
learn learnt learnt
leave left left
lend lent lent
let let let
lie lay lain
light lit lit
lose lost lost
make made made
mean meant meant
meet met met
mistake mistook mistaken
overcome overcame overcome
overtake overtook overtaken
overthrow overthrew overthrown
pay paid paid
prove proved proven
put put put
quit quit quit
read read read
rebuild rebuilt rebuilt
rethink rethought rethought
redo redid redone
retake retook retaken
ride rode ridden
ring rang rung
rise rose risen
run ran run
say said said
see saw seen
seek sought sought
sell sold sold
send sent sent
set set set
sew sewed sewn
shake shook shaken
shine shone shone
shoot shot shot
show showed shown
shrink shrank shrunk
shut shut shut
sing sang sung
sink sank sunk
sit sat sat
sleep slept slept
slide slid slid
speak spoke spoken
speed sped sped
spend spent spent
spin spun spun
split split split
spread spread spread
spring sprang sprung
stand stood stood
steal stole stolen
stick stuck stuck
sting stung stung
stink stank stunk
strike struck struck
strive strove striven
swear swore sworn
sweep swept swept
swim swam swum
swing swung swung
take took taken
teach taught taught
tear tore torn
tell told told
think thought thought
throw threw thrown
undergo underwent undergone
understand understood understood
undertake undertook undertaken
upset upset upset
wake woke woken
wear wore worn
weave wove woven
weep wept wept
win won won
wind wound wound
withdraw withdrew withdrawn
write wrote written
`

// AgentNoun returns the noun English derives from a verb for whoever does it ("found" → "founder", "create"
// → "creator", "direct" → "director", "write" → "writer"), when the dictionary knows it, else "".
func AgentNoun(base string) string {
	loadLemmas()
	if base == "" {
		return ""
	}
	var cands []string
	switch {
	case strings.HasSuffix(base, "e"):
		cands = append(cands, base+"r", base[:len(base)-1]+"or")
	default:
		cands = append(cands, base+"er", base+"or")
		if doublesFinal(base) {
			cands = append(cands, base+base[len(base)-1:]+"er")
		}
	}
	for _, c := range cands {
		if lemmatize.InDict(c) {
			return c
		}
	}
	return ""
}

// irregularParticipleOf maps an irregular verb's base form to its past participle (the first alternative of
// irregularTable's third column: "write" → "written", "buy" → "bought").
var irregularParticipleOf = func() map[string]string {
	m := map[string]string{}
	for _, row := range strings.Split(strings.TrimSpace(irregularTable), "\n") {
		f := strings.Fields(row)
		m[f[0]] = strings.Split(f[len(f)-1], "/")[0]
	}
	return m
}()

// PastParticiple is the past participle of a base form: an irregular verb's from the table of irregular verbs
// ("write" → "written"), else the regular -ed form ("order" → "ordered", "stop" → "stopped").
func PastParticiple(base string) string {
	if p, ok := irregularParticipleOf[base]; ok {
		return p
	}
	return PastRegular(base)
}

// IsIrregularParticiple reports whether w is the past participle of an irregular verb ("read", "quit", "written").
func IsIrregularParticiple(w string) bool { return irregularParticiple[strings.ToLower(w)] }
