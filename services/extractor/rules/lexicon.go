package rules

import (
	"strings"
	"sync"

	"github.com/mneme-ai/mneme/pkg/wordnet"
)

// verbBases are common English verbs of personal narratives (what people do, get, start, like and plan).
// Their inflected forms are derived by rule; irregular past forms are listed in irregular.
var verbBases = strings.Fields(`
accept achieve act add adopt adore advise agree aim apply appreciate arrange arrive ask attend audition
bake bathe become begin believe belong bike binge blog board book borrow bounce break bring browse build buy
call camp care carry catch celebrate change chat check cheer choose clean climb coach collaborate collect come
compete complete compose connect consider consult contact continue contract cook create cuddle cycle dance date decide
decorate deliver design develop dine discover discuss divorce do donate draw dream dress drink drive
earn eat educate embrace encourage end enjoy enroll enter escape explore face fail fall feed feel fight
figure fill film find finish fish fix fly focus follow forget found foster freelance gain garden get give go graduate
grow guide hang hate have head hear help hike hire hit hold host hunt implement improve include inspire
install intern invest invite join jog keep kick knit know land launch lead learn leave lend like listen live
lose love make manage marry meditate meet mentor miss move need nurse offer open order organize own paint
participate pass pay perform pick plan plant play practice practise prefer prepare present produce promote
publish purchase put quit race raise reach read realize receive recommend record recover redo refurbish
register relax relocate remember renovate rent repair report research rest retire retake return ride run save
score sculpt see sell send serve set share shoot shop sign sing sit skate ski sleep snowboard solve speak
spend sponsor start stay stop study surf swim take talk teach team tell test text think throw train travel
treat try turn tutor understand upgrade use visit volunteer vote wait walk want watch wear weigh win wish work
worry write
`)

// irregular maps irregular past tense and participle forms to their base.
var irregular = map[string]string{
	"became": "become", "began": "begin", "begun": "begin", "broke": "break", "broken": "break", "brought": "bring",
	"built": "build", "bought": "buy", "caught": "catch", "chose": "choose", "chosen": "choose", "came": "come",
	"did": "do", "done": "do", "drew": "draw", "drawn": "draw", "dreamt": "dream", "drank": "drink", "drunk": "drink",
	"drove": "drive", "driven": "drive", "ate": "eat", "eaten": "eat", "fell": "fall", "fallen": "fall", "fed": "feed",
	"felt": "feel", "fought": "fight", "found": "find", "flew": "fly", "flown": "fly", "forgot": "forget",
	"forgotten": "forget", "got": "get", "gotten": "get", "gave": "give", "given": "give", "went": "go", "gone": "go",
	"grew": "grow", "grown": "grow", "hung": "hang", "had": "have", "heard": "hear", "hit": "hit", "held": "hold",
	"kept": "keep", "knew": "know", "known": "know", "led": "lead", "learnt": "learn", "left": "leave", "lent": "lend",
	"lost": "lose", "made": "make", "met": "meet", "paid": "pay", "put": "put", "quit": "quit", "ran": "run",
	"read": "read", "rode": "ride", "ridden": "ride", "saw": "see", "seen": "see", "sold": "sell", "sent": "send",
	"set": "set", "shot": "shoot", "sang": "sing", "sung": "sing", "sat": "sit", "slept": "sleep", "spoke": "speak",
	"spoken": "speak", "spent": "spend", "swam": "swim", "swum": "swim", "took": "take", "taken": "take",
	"taught": "teach", "told": "tell", "thought": "think", "threw": "throw", "thrown": "throw",
	"understood": "understand", "won": "win", "wore": "wear", "worn": "wear", "wrote": "write", "written": "write",
	"retook": "retake", "retaken": "retake", "redid": "redo", "redone": "redo",
}

// verbForms maps every known verb form to its base.
var verbForms = func() map[string]string {
	m := make(map[string]string, len(verbBases)*4)
	for _, b := range verbBases {
		m[b] = b
		m[thirdPerson(b)] = b
		m[pastRegular(b)] = b
		m[gerund(b)] = b
	}
	for form, b := range irregular {
		m[form] = b
	}
	// "has" and "does" are not derived by rule.
	m["has"], m["does"], m["goes"] = "have", "do", "go"
	return m
}()

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

func thirdPerson(b string) string {
	switch {
	case b == "have":
		return "has"
	case b == "be":
		return "is"
	case strings.HasSuffix(b, "y") && len(b) > 1 && !isVowel(b[len(b)-2]):
		return b[:len(b)-1] + "ies"
	case strings.HasSuffix(b, "s"), strings.HasSuffix(b, "sh"), strings.HasSuffix(b, "ch"), strings.HasSuffix(b, "x"), strings.HasSuffix(b, "o"):
		return b + "es"
	}
	return b + "s"
}

// doubled lists bases whose final consonant doubles before -ed/-ing.
var doubled = map[string]bool{"plan": true, "shop": true, "stop": true, "jog": true, "chat": true, "hit": true,
	"run": true, "swim": true, "sit": true, "set": true, "put": true, "win": true, "begin": true, "get": true,
	"prefer": true, "blog": true, "skip": true, "drop": true, "quit": true}

func pastRegular(b string) string {
	switch {
	case doubled[b]:
		return b + b[len(b)-1:] + "ed"
	case strings.HasSuffix(b, "e"):
		return b + "d"
	case strings.HasSuffix(b, "y") && len(b) > 1 && !isVowel(b[len(b)-2]):
		return b[:len(b)-1] + "ied"
	}
	return b + "ed"
}

func gerund(b string) string {
	switch {
	case doubled[b]:
		return b + b[len(b)-1:] + "ing"
	case strings.HasSuffix(b, "ie"):
		return b[:len(b)-2] + "ying"
	case strings.HasSuffix(b, "e") && !strings.HasSuffix(b, "ee") && b != "be":
		return b[:len(b)-1] + "ing"
	}
	return b + "ing"
}

// verbBase returns the base of a verb form and whether the word is a known verb. Unknown words ending in
// "-ed" count as regular past tenses.
func verbBase(w string) (string, bool) {
	w = strings.ToLower(w)
	if b, ok := verbForms[w]; ok {
		return b, true
	}
	if len(w) > 4 && strings.HasSuffix(w, "ed") && !nonVerbsEd[w] {
		return strings.TrimSuffix(w, "ed"), true
	}
	return "", false
}

// nonVerbsEd are adjectives ending in -ed that follow "I" or "I'm" as states, not actions.
var nonVerbsEd = map[string]bool{
	"excited": true, "thrilled": true, "tired": true, "interested": true, "worried": true, "stressed": true,
	"bored": true, "amazed": true, "blessed": true, "overwhelmed": true, "inspired": true, "motivated": true,
	"pleased": true, "relieved": true, "scared": true, "surprised": true, "stoked": true, "pumped": true,
	"obsessed": true, "exhausted": true, "delighted": true, "touched": true, "honored": true, "impressed": true,
	"determined": true, "dedicated": true, "committed": true, "devoted": true, "hooked": true, "amused": true,
	"indeed": true, "need": true, "speed": true, "seed": true, "feed": true, "proceed": true,
}

// particles follow a verb to form a phrasal verb or a verb + preposition predicate.
var particles = map[string]bool{
	"up": true, "out": true, "off": true, "on": true, "in": true, "into": true, "to": true, "at": true,
	"with": true, "for": true, "about": true, "from": true, "back": true, "over": true, "down": true,
	"by": true, "around": true, "through": true, "of": true,
}

// adverbs may stand between a subject and its verb without changing the claim.
var adverbs = map[string]bool{
	"just": true, "recently": true, "finally": true, "also": true, "really": true, "actually": true,
	"even": true, "still": true, "usually": true, "always": true, "often": true, "sometimes": true,
	"already": true, "totally": true, "definitely": true, "officially": true, "currently": true, "now": true,
	"lately": true, "once": true, "both": true, "all": true, "too": true, "again": true, "mostly": true,
	"absolutely": true, "truly": true, "honestly": true, "literally": true, "somehow": true, "luckily": true,
	"happily": true, "proudly": true, "successfully": true, "eventually": true, "then": true, "first": true,
	"only": true, "kinda": true, "sorta": true,
}

// kinship nouns name people related to the speaker ("my sister Anna").
var kinship = map[string]string{
	"wife": "wife", "husband": "husband", "spouse": "spouse", "partner": "partner", "girlfriend": "girlfriend",
	"boyfriend": "boyfriend", "gf": "girlfriend", "bf": "boyfriend", "fiance": "fiance", "fiancé": "fiance",
	"fiancee": "fiance", "fiancée": "fiance", "son": "son", "daughter": "daughter", "kid": "child",
	"child": "child", "mom": "mother", "mother": "mother", "mum": "mother", "dad": "father", "father": "father",
	"brother": "brother", "sister": "sister", "cousin": "cousin", "aunt": "aunt", "uncle": "uncle",
	"grandma": "grandmother", "grandmother": "grandmother", "grandpa": "grandfather", "grandfather": "grandfather",
	"niece": "niece", "nephew": "nephew", "friend": "friend", "buddy": "friend", "colleague": "colleague",
	"coworker": "colleague", "co-worker": "colleague", "boss": "boss", "manager": "manager", "mentor": "mentor",
	"coach": "coach", "teacher": "teacher", "roommate": "roommate", "neighbor": "neighbor", "neighbour": "neighbor",
	"teammate": "teammate", "dog": "dog", "cat": "cat", "puppy": "dog", "pup": "dog", "kitten": "cat",
	"pet": "pet", "turtle": "pet", "bird": "pet", "horse": "pet", "snake": "pet", "hamster": "pet",
	// Relatives by marriage and step-relatives, grandchildren and twins: the rest of English kinship terms.
	"mother-in-law": "mother-in-law", "father-in-law": "father-in-law", "sister-in-law": "sister-in-law",
	"brother-in-law": "brother-in-law", "son-in-law": "son-in-law", "daughter-in-law": "daughter-in-law",
	"stepmother": "stepmother", "stepfather": "stepfather", "stepson": "stepson", "stepdaughter": "stepdaughter",
	"stepbrother": "stepbrother", "stepsister": "stepsister", "grandson": "grandson", "granddaughter": "granddaughter",
	"grandchild": "grandchild", "twin": "twin",
	// "our eldest, Cerys", "my youngest": a superlative of age said as a noun names one's child (Oxford,
	// "eldest": "the oldest of three or more people, especially children of a family")
	"eldest": "child", "youngest": "child",
}

// kinOf returns the kinship role of a noun (kinship), or, for a noun WordNet's first sense makes a dog or a
// domestic cat ("greyhound", "beagle", "tabby"), the pet it is: people name a pet by its breed as often as by
// its kind ("my greyhound Luna"), and a list of breeds would never be whole.
func kinOf(noun string) (string, bool) {
	if r, ok := kinship[noun]; ok {
		return r, true
	}
	if r := petBreed(noun); r != "" {
		return r, true
	}
	return "", false
}

// breedPhrase is what a pet's claim adds after its name when the noun that introduced it is a breed, not its
// kind ("a rescue greyhound named Dash" → ", a greyhound"): the breed stays in the claim's words, so that a
// question naming it ("What was the name of Pippa's greyhound?") tells this dog from another. "" otherwise.
func breedPhrase(noun, role string) string {
	if _, kin := kinship[noun]; kin || noun == role || petBreed(noun) == "" {
		return ""
	}
	return ", " + article(noun) + " " + noun
}

// kinRole is kinOf's role alone, "" for none.
func kinRole(noun string) string {
	r, _ := kinOf(noun)
	return r
}

// workerKinds are WordNet's kinds of a person by what they do for a living: a worker ("paralegal", "plumber")
// or a professional ("solicitor", "pharmacist").
var workerKinds = []wordnet.Kind{{Lemma: "worker", Sense: 1}, {Lemma: "professional", Sense: 1}}

// workers caches workerNoun's answers.
var workers sync.Map

// workerNoun reports a lower-case noun whose first WordNet sense is a worker or a professional: an occupation
// whose name carries no agent suffix (agentSuffix). False without WordNet.
func workerNoun(noun string) bool {
	return len(noun) >= 4 && firstSenseKind(&workers, noun, workerKinds) >= 0
}

// people caches personNoun's answers.
var people sync.Map

// personKinds is the kind personNoun reads.
var personKinds = []wordnet.Kind{{Lemma: "person", Sense: 1}}

// personNoun reports a lower-case noun whose first WordNet sense is a person ("contractor", "landlord", "vet"):
// a noun that names someone by what they are to others. False without WordNet.
func personNoun(noun string) bool {
	return firstSenseKind(&people, noun, personKinds) >= 0
}

// leaders caches leaderNoun's answers.
var leaders sync.Map

// leaderKinds is the kind leaderNoun reads: a person who rules or guides others.
var leaderKinds = []wordnet.Kind{{Lemma: "leader", Sense: 1}}

// leaderNoun reports a lower-case noun one of whose first eight WordNet senses is a leader (a person who rules
// or guides others): "chair", "captain", "president", "head", whose first sense may be a thing ("chair" is
// first a seat). A post said bare after "I'm" ("I'm chair now") is one of these. False without WordNet.
func leaderNoun(noun string) bool {
	return senseKind(&leaders, noun, 8, leaderKinds) >= 0
}

// petKinds are the kinds petBreed reads, and petRoles the role each gives.
var (
	petKinds = []wordnet.Kind{{Lemma: "dog", Sense: 1}, {Lemma: "domestic cat", Sense: 1}}
	petRoles = []string{"dog", "cat"}
)

// petBreeds caches petBreed's answers: the extractor asks of every word after a possessive.
var petBreeds sync.Map

// petBreed returns "dog" or "cat" for a lower-case noun whose first WordNet sense is a breed or kind of one, ""
// otherwise or without WordNet.
func petBreed(noun string) string {
	if len(noun) < 3 {
		return ""
	}
	if k := firstSenseKind(&petBreeds, noun, petKinds); k >= 0 {
		return petRoles[k]
	}
	return ""
}

// firstSenseKind returns the index of the first of kinds that a one-word lower-case noun's first WordNet sense
// falls under, or -1 (also without WordNet: the process's default database, which the extractor's Version
// names), remembering the answer in cache. Only nouns WordNet lists are remembered, so the cache is bounded by
// WordNet's vocabulary whatever words callers send.
func firstSenseKind(cache *sync.Map, noun string, kinds []wordnet.Kind) int {
	return senseKind(cache, noun, 1, kinds)
}

// senseKind is firstSenseKind over the noun's first senses (at most that many).
func senseKind(cache *sync.Map, noun string, senses int, kinds []wordnet.Kind) int {
	if strings.ToLower(noun) != noun || strings.ContainsAny(noun, " '") {
		return -1
	}
	if k, ok := cache.Load(noun); ok {
		return k.(int)
	}
	nouns, err := wordnet.Default()
	if err != nil || nouns == nil || !nouns.Known(noun) {
		return -1
	}
	k := -1
	for i, kind := range kinds {
		if nouns.Is(noun, senses, kind) {
			k = i
			break
		}
	}
	cache.Store(noun, k)
	return k
}

// notNames are capitalized words that start sentences but do not name anyone.
var notNames = map[string]bool{
	"the": true, "this": true, "that": true, "these": true, "those": true, "it": true, "its": true, "they": true,
	"it's": true, "that's": true, "there's": true, "here's": true, "what's": true, "let's": true,
	"he": true, "she": true, "we": true, "you": true, "i": true, "my": true, "our": true, "your": true, "his": true,
	"her": true, "their": true, "there": true, "here": true, "what": true, "when": true, "where": true,
	"who": true, "why": true, "how": true, "thanks": true, "thank": true, "yeah": true, "yes": true, "yep": true,
	"wow": true, "oh": true, "hey": true, "hi": true, "hello": true, "well": true, "so": true, "and": true,
	"but": true, "or": true, "also": true, "plus": true, "sounds": true, "looks": true, "seems": true,
	"glad": true, "good": true, "great": true, "nice": true, "cool": true, "awesome": true, "sure": true,
	"haha": true, "lol": true, "omg": true, "btw": true, "anyway": true, "all": true, "some": true, "one": true,
	"everyone": true, "everything": true, "nothing": true, "something": true, "someone": true, "each": true,
	"anything": true, "anyone": true, "nobody": true, "everybody": true, "which": true,
	"both": true, "many": true, "most": true, "if": true, "maybe": true, "a": true, "an": true, "no": true,
	"not": true, "never": true, "always": true, "just": true, "really": true, "definitely": true, "totally": true,
	"absolutely": true, "congrats": true, "congratulations": true, "love": true, "hope": true, "let": true,
	"keep": true, "take": true, "check": true, "look": true, "be": true, "go": true, "make": true, "try": true,
	"remember": true, "being": true, "having": true, "getting": true, "seeing": true, "sorry": true, "please": true,
	"last": true, "next": true, "first": true, "second": true, "third": true, "final": true, "yesterday": true,
	"today": true, "tomorrow": true, "recently": true,
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true, "saturday": true,
	"sunday": true, "since": true, "after": true, "before": true, "during": true, "while": true, "once": true,
	"hmm": true, "ah": true, "aw": true, "aww": true, "ooh": true, "yay": true, "woohoo": true, "ha": true,
	"agreed": true, "exactly": true, "absolutely!": true, "right": true, "okay": true, "ok": true, "indeed": true,
}

// evaluativeAdjectives are the common qualitative adjectives of everyday English that judge or describe a
// thing — its quality, difficulty, size, age, cost, pace — rather than identify it. After a relation's noun
// ("my job is exhausting", "Ana's husband is amazing", "my boss is strict") they say what the value is like,
// not what it is: read as the value, they would supersede the real one (the job, the husband's name). A value
// is a noun phrase, a name, a number or a date, or a classifying adjective ("vegan", "single", "French",
// "blue"), none of which is listed. The list is general English (judgements people give in conversation).
var evaluativeAdjectives = map[string]bool{
	"good": true, "great": true, "bad": true, "awful": true, "terrible": true, "horrible": true, "amazing": true,
	"awesome": true, "fantastic": true, "wonderful": true, "excellent": true, "brilliant": true, "lovely": true,
	"nice": true, "fine": true, "okay": true, "ok": true, "alright": true, "decent": true, "perfect": true,
	"incredible": true, "superb": true, "cool": true, "fun": true, "boring": true, "exhausting": true,
	"tiring": true, "stressful": true, "hard": true, "easy": true, "difficult": true, "tough": true, "rough": true,
	"brutal": true, "busy": true, "hectic": true, "crazy": true, "insane": true, "intense": true, "weird": true,
	"strange": true, "interesting": true, "exciting": true, "annoying": true, "frustrating": true,
	"demanding": true, "rewarding": true, "fulfilling": true, "beautiful": true, "gorgeous": true, "cute": true,
	"ugly": true, "tiny": true, "huge": true, "big": true, "small": true, "large": true, "long": true,
	"short": true, "old": true, "expensive": true, "cheap": true, "pricey": true, "affordable": true,
	"strict": true, "sweet": true, "funny": true, "smart": true, "nice-looking": true,
	"quiet": true, "loud": true, "noisy": true, "messy": true, "clean": true, "slow": true, "fast": true,
	"healthy": true, "happy": true, "sad": true, "lonely": true, "comfortable": true, "cozy": true, "cosy": true,
	"spacious": true, "cramped": true, "safe": true, "dangerous": true, "far": true, "close": true,
	"convenient": true, "inconvenient": true, "unbearable": true, "manageable": true, "reasonable": true,
	"ridiculous": true, "unreal": true, "wild": true, "chill": true, "relaxed": true, "relaxing": true,
}

// intensifiers grade an adjective without changing what it says ("really great", "a bit long").
var intensifiers = map[string]bool{
	"very": true, "really": true, "so": true, "pretty": true, "quite": true, "super": true, "too": true,
	"extremely": true, "incredibly": true, "totally": true, "absolutely": true, "fairly": true, "rather": true,
	"kinda": true, "sorta": true, "still": true, "always": true, "less": true, "more": true,
}

// madeNouns name a thing by the act of its maker, whose "of" names the maker ("the creation of X", "the
// invention of X", "the brainchild of X", dictionary senses of these nouns): "Y is the creation of X" says Y was
// created by X, not what X's creation is among others.
var madeNouns = map[string]bool{"creation": true, "invention": true, "brainchild": true}
