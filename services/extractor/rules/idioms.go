package rules

import (
	"regexp"
	"strings"
	"time"

	"github.com/mneme-ai/mneme/pkg/canon"
	"github.com/mneme-ai/mneme/pkg/nlp"
)

// Fixed expressions and fronted topics, said plainly before the sentence is read.
//
// English says some relations with idioms whose words name no relation the clause reader can key: "breathed
// her last in Tromsø" is "died in Tromsø", "came into the world in Tromsø" is "was born in Tromsø", "calls
// Tromsø home" is "lives in Tromsø", "at the helm of Velto" is "leads Velto". The list holds the idioms of
// English dictionaries (Oxford, Collins and Merriam-Webster list each under its headword) for the events and
// relations people state most — birth, death, home, origin, leadership, marriage, authorship — each rewritten to the
// plain verb the dictionary defines it by. It is general English, written from the idioms' meaning, not from
// any data set's sentences; the plain wording keeps the idiom's tense and subject, so the clause reader keys it
// as it keys the plain verb ("died in" → died_in).
var idioms = []struct {
	re   *regexp.Regexp
	repl string
}{
	// death
	{regexp.MustCompile(`(?i)\bbreathed\s+(?:his|her|their|its)\s+last\b`), "died"},
	{regexp.MustCompile(`(?i)\bspent\s+(?:his|her|their|its)\s+(?:last|final|dying)\s+(?:days|years|months|weeks)\s+in\b`), "died in"},
	{regexp.MustCompile(`(?i)(\b\pL[\pL\pM.'-]*)'s\s+life\s+(?:ended|came\s+to\s+an\s+end)\s+in\b`), "$1 died in"},
	// birth
	{regexp.MustCompile(`(?i)\bcame\s+into\s+(?:the|this)\s+world\b`), "was born"},
	// "came into being", "came into existence": WordNet's gloss of "originate" (come into existence)
	{regexp.MustCompile(`(?i)\bcame\s+into\s+(?:being|existence)\b`), "originated"},
	{regexp.MustCompile(`(?i)\bcomes\s+into\s+(?:being|existence)\b`), "originates"},
	{regexp.MustCompile(`(?i)\bdrew\s+(?:his|her|their)\s+first\s+breath\b`), "was born"},
	{regexp.MustCompile(`(?i)\b(?:first\s+)?saw\s+the\s+light\s+of\s+day\b`), "was born"},
	{regexp.MustCompile(`(?i)(\b\pL[\pL\pM.'-]*)'s\s+life\s+(?:began|started)\s+in\b`), "$1 was born in"},
	// home and origin: "is a Tromsø native" is "is a native of Tromsø" (keyed as born in)
	{regexp.MustCompile(`\b(?i:calls)\s+(\p{Lu}[\pL\pM.'-]*(?:\s+\p{Lu}[\pL\pM.'-]*)*)\s+(?i:home)\b`), "lives in $1"},
	{regexp.MustCompile(`\b(?i:called)\s+(\p{Lu}[\pL\pM.'-]*(?:\s+\p{Lu}[\pL\pM.'-]*)*)\s+(?i:home)\b`), "lived in $1"},
	// "hails from" is "comes from" (canon's aliases); the tagger reads "hails" as the plural noun after a noun
	// ("Rap rock hails from …"), so the verb is said plainly before tagging
	{regexp.MustCompile(`(?i)\bhails\s+from\b`), "comes from"},
	{regexp.MustCompile(`(?i)\bhailed\s+from\b`), "came from"},
	{regexp.MustCompile(`(?i)\bhail\s+from\b`), "come from"},
	{regexp.MustCompile(`(?i)\bmakes\s+(?:his|her|their|its|my|our)\s+home\s+in\b`), "lives in"},
	{regexp.MustCompile(`(?i)\bmade\s+(?:his|her|their|its|my|our)\s+home\s+in\b`), "lived in"},
	{regexp.MustCompile(`\b((?i:is|was|am|are))\s+(?i:an?)\s+(\p{Lu}[\pL\pM.'-]*(?:\s+\p{Lu}[\pL\pM.'-]*)*)\s+(?i:native)\b`), "$1 a native of $2"},
	// leadership: "at the helm of" and "in charge of" say who heads something
	// ("in charge of running X" is "in charge of X": the verbs of managing after it name what being in charge
	// is, not another thing one is in charge of)
	{regexp.MustCompile(`(?i)\bin\s+charge\s+of\s+(?:running|managing|leading|operating|heading)\b`), "in charge of"},
	{regexp.MustCompile(`(?i)\b(?:is|'s)\s+(?:now\s+)?(?:at\s+the\s+helm|in\s+charge)\s+of\b`), "heads"},
	{regexp.MustCompile(`(?i)\bwas\s+(?:at\s+the\s+helm|in\s+charge)\s+of\b`), "headed"},
	{regexp.MustCompile(`(?i)\b(has|had)\s+(\p{Lu}[\pL\pM.'-]*(?:\s+\p{Lu}[\pL\pM.'-]*)*)\s+at\s+the\s+helm\b`), "$1 $2 as its head"},
	{regexp.MustCompile(`(?i)\b(?:is|was|has\s+been|had\s+been|got|gets|were|are)\s+(?:now\s+)?put\s+in\s+charge\s+of\b`), "heads"},
	// offices: to hold, occupy or fill the post, office, position or role of something, to take over or be
	// appointed, elected or installed as it, is to serve as it (the dictionaries' sense of "serve as": to hold
	// an office); the office's own words then name the relation ("serves as head coach of X")
	{regexp.MustCompile(`(?i)\b(?:holds|occupies|fills)\s+the\s+(?:post|office|position|role|seat|job)\s+of\b`), "serves as"},
	{regexp.MustCompile(`(?i)\b(?:held|occupied|filled)\s+the\s+(?:post|office|position|role|seat|job)\s+of\b`), "served as"},
	// the same said of the office: "The role of head of state in X is filled by Y" (the passive of "Y fills the
	// role of head of state in X")
	{regexp.MustCompile(`^(?i:the\s+)?(?i:post|office|position|role|seat|job)\s+of\s+(.+?)\s+(?i:is|was)\s+(?:(?i:currently|now|presently)\s+)?(?i:filled|held|occupied)\s+by\s+(.+?)([.!]?)$`), "$2 serves as $1$3"},
	{regexp.MustCompile(`(?i)\b(?:takes|took|has\s+taken|is\s+taking)\s+over\s+as\b`), "serves as"},
	{regexp.MustCompile(`(?i)\b(?:is|was|has\s+been|got|were|are|have\s+been)\s+(?:newly\s+|recently\s+|just\s+)?(?:appointed|elected|installed|named)\s+(?:as\s+)?((?:the\s+)?(?:new\s+)?\pL+(?:\s+\pL+){0,3}\s+(?:of|at|for)\s+\p{Lu})`), "serves as $1"},
	// marriage and dating: to have been seeing someone, to have started seeing them, to go out with them is to
	// date them (Oxford, "see": "be having a romantic relationship with"; "go out": "have a romantic
	// relationship with"); a title with a period ("seeing Dr. Lee") is a visit, not a romance
	{regexp.MustCompile(`(?i)\btied\s+the\s+knot\s+with\b`), "married"},
	// "partner in marriage" is WordNet's gloss of "spouse" (a person's partner in marriage)
	{regexp.MustCompile(`\b(?i:partner)\s+(?i:in)\s+(?i:marriage)\b`), "spouse"},
	{regexp.MustCompile(`\b((?i:been|started|starting|began|begun))\s+(?i:seeing)\s+((?i:(?:a\s+(?:guy|girl|man|woman|boy)|someone|somebody)\s+(?:called|named)\b)|(?i:a\s+(?:guy|girl|man|woman|boy)\b)|\p{Lu}\p{Ll}+(?:\s|,|$))`), "$1 dating $2"},
	{regexp.MustCompile(`(?i)\b(is|are|am|'s|'re|'m)\s+seeing\s+((?:someone|somebody|a\s+(?:guy|girl|man|woman|boy))\s+(?:called|named)\s)`), "$1 dating $2"},
	{regexp.MustCompile(`(?i)\b(?:is|are|am|'s|'re|'m)\s+going\s+out\s+with\b`), "is dating"},
	{regexp.MustCompile(`(?i)\bwent\s+out\s+with\b`), "dated"},
	{regexp.MustCompile(`(?i)\bgoes\s+out\s+with\b`), "dates"},
	// the end of a relationship: a relationship that "didn't work out" failed (Oxford, "work out": "develop in
	// a good way"), said as the speaker's "things ended", which the ending reader takes; the negation is the
	// idiom's, not a denial of a claim
	{regexp.MustCompile(`^(?i:it|things|stuff)\s+(?:(?i:just|really|sadly|unfortunately|ultimately)\s+)?(?i:did\s*n[o']t|did\s+not|never)\s+(?i:work(?:ed)?\s+out)\s+(?i:with)\s+(\p{Lu}[\pL\pM'-]+)`), "Things with $1 ended"},
	{regexp.MustCompile(`^(?i:things|stuff)\s+(?i:with)\s+(\p{Lu}[\pL\pM'-]+)\s+(?:(?i:just|really|sadly|unfortunately|ultimately)\s+)?(?i:did\s*n[o']t|did\s+not|never)\s+(?i:work(?:ed)?\s+out)`), "Things with $1 ended"},
	// partners: one's "other half" or "better half" is one's partner (Oxford, "other half": "a person's
	// husband, wife, or partner")
	{regexp.MustCompile(`\b((?i:my|our|his|her|their))\s+(?i:other|better)\s+(?i:half)\b`), "$1 partner"},
	// "go-to" (Oxford: "denoting a person or thing that is regularly sought out as the best") is a favourite:
	// "my go-to coffee order" (the tagger reads its "go" as a verb)
	{regexp.MustCompile(`\b((?i:my|our|his|her|their|the))\s+(?i:go-to|goto)\s+(\pL)`), "$1 favourite $2"},
	// fans: "a Juventus fan" is "a fan of Juventus" (the noun's complement said before it, as English does with
	// a name: "a Beatles fan"), so the reader of fans reads both alike; "through and through" (Oxford:
	// "thoroughly; completely") says how much, not of what
	{regexp.MustCompile(`\b((?i:am|'m|is|'s|are|'re|was|were))\s+((?i:a|an)\s+(?:(?i:big|huge|massive|lifelong|life-long|die-hard|diehard|loyal|long-time|longtime|proper|avid|true|mad|passionate|devoted)\s+)?)(\p{Lu}[\pL\pM.'&-]*(?:\s+\p{Lu}[\pL\pM.'&-]*)*)\s+((?i:fan|supporter))\b(?:\s+(?i:through\s+and\s+through))?`), "$1 $2$4 of $3"},
	// a pet's death: an animal "put down" or "put to sleep" was killed humanely (Oxford, "put down": "kill (an
	// animal) because it is sick, injured, or old"), said by its owners as having it done ("we had to have
	// Bram put down") or as having had to do it; its end is a death, said as "passed away" of a pet named
	// (which the ending reader reads with or without a date after it; a bare "died" leaves no object), and as
	// "died" of one's own dog or cat
	{regexp.MustCompile(`^(?:(?i:we|I)(?:'ve|\s+have)?\s+)?(?:(?i:finally|sadly|just|recently)\s+)?(?i:had\s+to\s+|have\s+had\s+to\s+)?(?i:have|had|get|got)\s+(\p{Lu}[\pL\pM'-]*)\s+(?i:put\s+down|put\s+to\s+sleep)\b`), "$1 passed away"},
	{regexp.MustCompile(`^(?:(?i:we|I)(?:'ve|\s+have)?\s+)?(?:(?i:finally|sadly|just|recently)\s+)?(?i:had\s+to\s+|have\s+had\s+to\s+)?(?i:have|had|get|got)\s+((?i:my|our)\s+[\pL-]+)\s+(?i:put\s+down|put\s+to\s+sleep)\b`), "$1 died"},
	{regexp.MustCompile(`^(?:(?i:we|I)(?:'ve|\s+have)?\s+)?(?:(?i:finally|sadly|just|recently)\s+)?(?i:had\s+to|have\s+had\s+to)\s+(?i:put)\s+(\p{Lu}[\pL\pM'-]*)\s+(?i:down|to\s+sleep)\b`), "$1 passed away"},
	{regexp.MustCompile(`^(?:(?i:we|I)(?:'ve|\s+have)?\s+)?(?:(?i:finally|sadly|just|recently)\s+)?(?i:had\s+to|have\s+had\s+to)\s+(?i:put)\s+((?i:my|our)\s+[\pL-]+)\s+(?i:down|to\s+sleep)\b`), "$1 died"},
	{regexp.MustCompile(`\b(\p{Lu}[\pL\pM'-]*)\s+(?i:was|got|had\s+to\s+be|has\s+been|'s\s+been)\s+(?i:put\s+down|put\s+to\s+sleep)\b`), "$1 passed away"},
	{regexp.MustCompile(`\b((?i:my|our)\s+[\pL-]+)\s+(?i:was|got|had\s+to\s+be|has\s+been|'s\s+been)\s+(?i:put\s+down|put\s+to\s+sleep)\b`), "$1 died"},
	// a death in one's sleep said by what was not seen: a pet or a person who "didn't wake up" (this morning,
	// today) died, the euphemism English uses for dying asleep; waking up late or "until noon" is no death
	{regexp.MustCompile(`\b(\p{Lu}[\pL\pM'-]*(?:\s+\p{Lu}[\pL\pM'-]*)?)\s+(?i:didn't|did\s+not|never)\s+(?i:wake\s+up|woke\s+up)((?:\s+(?i:this\s+morning|today|yesterday|last\s+night|on\s+\p{Lu}\pL+))?\s*(?:[,.;!]|$))`), "$1 passed away$2"},
	// a move between organizations: "left Deloitte to join PwC" says what "left Deloitte and joined PwC" does
	// (the purpose infinitive of "join" after leaving)
	{regexp.MustCompile(`\b((?i:left|quit))\s+(\p{Lu}[\pL\pM&.'-]*(?:\s+\p{Lu}[\pL\pM&.'-]*)*)\s+(?i:to\s+join)\b`), "$1 $2 and joined"},
	// leaving work: to jack in, pack in or chuck in a job is to quit it, to hand in one's notice or one's
	// resignation is to resign (Oxford and Collins, British informal); being let go or laid off by a named
	// employer ends the job as leaving it does ("was made redundant" names no employer, and is left as said)
	{regexp.MustCompile(`(?i)\b(?:jacked|packed|chucked)\s+in\b`), "quit"},
	{regexp.MustCompile(`(?i)\b(?:jack|pack|chuck)\s+in\b`), "quit"},
	{regexp.MustCompile(`(?i)\b(?:handed|turned)\s+in\s+(?:my|his|her|their|our)\s+(?:notice|resignation)\s+(?:at|to)\b`), "quit"},
	{regexp.MustCompile(`\b(\p{Lu}[\pL\pM&.'-]*(?:\s+\p{Lu}[\pL\pM&.'-]*)*)\s+(?i:let)\s+me\s+(?i:go)\b`), "I left $1"},
	{regexp.MustCompile(`\b(\p{Lu}[\pL\pM&.'-]*(?:\s+\p{Lu}[\pL\pM&.'-]*)*)\s+(?i:let)\s+us\s+(?i:go)\b`), "we left $1"},
	{regexp.MustCompile(`\b(?i:(?:was|were|got|have\s+been|has\s+been)\s+(?:let\s+go|laid\s+off)\s+(?:by|from))\s+(\p{Lu})`), "left $1"},
	// a new role: to move, step or transition into a role, or to take one on, is to be promoted to it (the
	// role's noun before "role" or "position"; "a part-time job" names no role); said of what is done, not of
	// what is to come
	{regexp.MustCompile(`\b(?i:moved|stepped|transitioned|switched)\s+(?i:into|to)\s+(?i:a|an|the)\s+(?:(?i:new|part-time|full-time|temporary|permanent|remote|paid)\s+)*((?:[\pL-]+\s+){0,2}[\pL-]+)\s+(?i:role|position)\b`), "got promoted to $1"},
	{regexp.MustCompile(`\b(?i:took|taken)\s+(?i:on\s+)?(?i:a|an|the)\s+(?:(?i:new|part-time|full-time|temporary|permanent|remote|paid)\s+)*((?:[\pL-]+\s+){0,2}[\pL-]+)\s+(?i:role|position)\b`), "got promoted to $1"},
	// starting work: "First week at Wealthsimple done!", "My first day at Arup went well": a first day, week or
	// month at a named organization, said as a whole sentence, is having started working there
	{regexp.MustCompile(`^(?i:my\s+)?(?i:first)\s+(?i:day|week|month|shift|fortnight)\s+(?i:at)\s+(\p{Lu}[\pL\pM&.'-]*(?:\s+\p{Lu}[\pL\pM&.'-]*)*)\s*(?:(?i:is\s+|was\s+)?(?i:done|over|complete|completed|finished|went\s+well|went\s+great))?\s*[!.]*$`), "I started working at $1."},
	// taking a role: being made (or offered and taking) a post is holding it — "was made head of the testing
	// team", "was offered the practice manager role and took it" (not "was made redundant": a role noun follows)
	// (said without its subject in chat, "Got made head chef this week!", it is the speaker's)
	{regexp.MustCompile(`^(?:(?i:just|finally|officially)\s+)?(?i:got|been)\s+made\s+((?:the\s+)?(?:new\s+)?(?:head|lead|leader|manager|director|chair|captain|partner|supervisor|principal|editor|coordinator|president|deputy|chief)\b)`), "I work as $1"},
	{regexp.MustCompile(`(?i)\b(?:was|were|have\s+been|has\s+been|got)\s+made\s+((?:the\s+)?(?:new\s+)?(?:head|lead|leader|manager|director|chair|captain|partner|supervisor|principal|editor|coordinator|president|deputy|chief)\b)`), "works as $1"},
	{regexp.MustCompile(`(?i)\b(?:was|were|got)\s+offered\s+(?:the|a|an)\s+([\pL-]+(?:\s+[\pL-]+){0,2})\s+(?:role|job|position|post)\s+and\s+(?:took|accepted)\s+it\b`), "works as $1"},
	// giving back: a relative or friend who "gets his Civic back" has it returned by the speaker, who no longer
	// has it (a thing named, so "gets his life back" is left alone)
	{regexp.MustCompile(`\b(?:(?i:my|our)\s+)?(?i:dad|mum|mom|father|mother|brother|sister|parents|grandad|grandpa|grandma|gran|uncle|aunt|friend|flatmate|roommate|neighbour|neighbor|boss)\s+(?i:gets|got|can\s+have|will\s+get|'ll\s+get)\s+(?i:his|her|their)\s+(\p{Lu}[\pL\pM-]*(?:\s+\p{Lu}[\pL\pM-]*)*)\s+(?i:back)\b`), "I gave back the $1"},
	// "over at" or "over in" a named place is "at" or "in" it ("I'm an engineer over at Tesla", "she died over
	// in Lyon"; Oxford, "over" adv. 3, "at or to the place indicated")
	{regexp.MustCompile(`\b(?i:over)\s+((?i:at|in))\s+(\p{Lu})`), "$1 $2"},
	// whoever is "behind the founding" (creation, invention) of a thing founded (created, invented) it, as
	// Oxford's "behind" ("responsible for"): "Ana is the person behind the founding of Velto"
	{regexp.MustCompile(`\b(?i:is|was)\s+(?:(?i:the)\s+(?i:person|one|man|woman|mind|force|people)\s+)?(?i:behind)\s+(?i:the)\s+(?i:founding)\s+(?i:of)\b`), "founded"},
	{regexp.MustCompile(`\b(?i:is|was)\s+(?:(?i:the)\s+(?i:person|one|man|woman|mind|force|people)\s+)?(?i:behind)\s+(?i:the)\s+(?i:creation)\s+(?i:of)\b`), "created"},
	{regexp.MustCompile(`\b(?i:is|was)\s+(?:(?i:the)\s+(?i:person|one|man|woman|mind|force|people)\s+)?(?i:behind)\s+(?i:the)\s+(?i:invention)\s+(?i:of)\b`), "invented"},
	// a place "home to the headquarters of" an organization is where it has them (Oxford, "home": "a place where
	// something flourishes, is most typically found"): "Ankara is home to the headquarters of Velto" is "The
	// headquarters of Velto is in Ankara"
	{regexp.MustCompile(`^(.+?)\s+(?i:is|was)\s+(?i:home)\s+(?i:to)\s+(?i:the)\s+((?i:headquarters|head\s+office|main\s+offices?))\s+(?i:of)\s+(.+?)([.!]?)$`), "The $2 of $3 is in $1$4"},
	// "can be found in" a place is "is in" it (Oxford, "find": "be present in"; the modal of possibility says
	// where the thing is, not whether): "The head office can be found in Ankara"
	{regexp.MustCompile(`\b(?i:can|could)\s+(?i:be)\s+(?i:found|seen|located)\s+((?i:in|at|on))\s+(\p{Lu})`), "is $1 $2"},
	// the pseudo-cleft of identification: "X is the one heading the government" and "X is the one who heads
	// it" say what "X is heading it" and "X heads it" do (a grammar's "the one who/that" identifying clause)
	{regexp.MustCompile(`\b((?i:is|was|'s))\s+(?i:the)\s+(?i:one|person|man|woman|guy)\s+(?:(?i:who|that)(?:'s|\s+(?i:is|was))?\s+)?(\pL+ing)\b`), "$1 $2"},
	{regexp.MustCompile(`\b(?i:is|was|'s)\s+(?i:the)\s+(?i:one|person|man|woman|guy)\s+(?i:who|that)\s+(\pL+(?:s|ed))\b`), "$1"},
	// a description as a copula: "X is best described as a jazz singer" says what "X is a jazz singer" does
	{regexp.MustCompile(`\b((?i:is|are|was|were))\s+(?:(?i:best|usually|often|commonly|generally|mostly|most\s+often|perhaps\s+best)\s+)?(?i:described|characterized|characterised|categorized|categorised|classified)\s+(?i:as)\b`), "$1"},
	// a language "officially spoken" in a place is its official language ("Swedish is officially spoken in
	// Japan"; officialSpeech reads "they speak Swedish officially in Japan")
	{regexp.MustCompile(`\b((?i:is|was))\s+(?:(?i:officially)\s+(?i:spoken)|(?i:spoken)\s+(?i:officially))\s+(?i:in)\s+(\p{Lu})`), "$1 the official language in $2"},
	// a work said by its kind and its maker: "X is a track by Y" is "X is performed by Y", "a novel by Y"
	// "written by Y", "a film by Y" "directed by Y", "a painting by Y" "created by Y" — the verb English
	// names the maker of each kind of work by (the work nouns of everyday English, by what makes them)
	{regexp.MustCompile(`\b((?i:is|was))\s+(?i:a|an|the)\s+(?:[\pL\d'-]+\s+){0,2}?(?i:song|track|single|album|record|tune|ballad|hit|anthem|LP|EP)\s+(?i:by)\s+(\p{Lu})`), "$1 performed by $2"},
	{regexp.MustCompile(`\b((?i:is|was))\s+(?i:a|an|the)\s+(?:[\pL\d'-]+\s+){0,2}?(?i:book|novel|novella|poem|play|memoir|essay|biography|story|short\s+story)\s+(?i:by)\s+(\p{Lu})`), "$1 written by $2"},
	{regexp.MustCompile(`\b((?i:is|was))\s+(?i:a|an|the)\s+(?:[\pL\d'-]+\s+){0,2}?(?i:film|movie|documentary)\s+(?i:by)\s+(\p{Lu})`), "$1 directed by $2"},
	{regexp.MustCompile(`\b((?i:is|was))\s+(?i:a|an|the)\s+(?:[\pL\d'-]+\s+){0,2}?(?i:painting|sculpture|statue|drawing|mural)\s+(?i:by)\s+(\p{Lu})`), "$1 created by $2"},
	// fame: to be famous or known "because of" something is to be famous or known for it (the dictionaries give
	// "for" as the preposition of the reason of fame)
	{regexp.MustCompile(`(?i)\b(famous|known|renowned|celebrated)\s+because\s+of\b`), "$1 for"},
	// plans: "my plan is to move" is "I plan to move" (the noun of the verb, as the dictionaries define it),
	// which the clause reader reads as a plan; "the plan" said by a speaker is theirs, "our plan" theirs and
	// others'
	{regexp.MustCompile(`\b(?i:my|the)\s+(?i:plan|intention)(?:\s+(?i:for)\s+(?i:the|this|next)\s+(\pL+))?\s+(?i:is|was)\s+(?i:now\s+)?(?i:to)\s+(\pL)`), "I plan to $2"},
	{regexp.MustCompile(`\b(?i:our)\s+(?i:plan|intention)(?:\s+(?i:for)\s+(?i:the|this|next)\s+(\pL+))?\s+(?i:is|was)\s+(?i:now\s+)?(?i:to)\s+(\pL)`), "we plan to $2"},
	// pay: an approximate amount is the amount ("I earn about 62k" says what one earns, not what one
	// "earns about"); the approximating adverbs of English before a number
	{regexp.MustCompile(`\b((?i:earn|earns|earned|earning|make|makes|making|pay|pays|paid|paying|cost|costs|costing|charge|charges|charged|charging))\s+(?i:about|around|roughly|approximately|nearly|almost|close\s+to|circa|somewhere\s+around)\s+([$£€¥]?\d)`), "$1 $2"},
	// authorship: "to pen" is to write
	{regexp.MustCompile(`\b((?i:was|were|been|is|are|be|being))\s+penned\b`), "$1 written"},
	{regexp.MustCompile(`\bpenned\b`), "wrote"},
	{regexp.MustCompile(`\bpens\b`), "writes"},
}

// cuedIdioms are idioms of work and business (as above, from the dictionaries' definitions), each with a word it
// cannot match without (lower case): a sentence without it is not scanned, since most sentences hold none.
var cuedIdioms = []struct {
	re        *regexp.Regexp
	repl, cue string
}{
	// changing employer: to "jump ship" is to leave an organization for another (Collins, "jump ship"), to be
	// "poached" or "headhunted" by one is to be hired away by it; working "for oneself" is being self-employed,
	// which names no employer
	{regexp.MustCompile(`(?i)\b(?:jumped|jumping|jump)\s+ship\s+to\s+(\p{Lu})`), "joined $1", "ship"},
	{regexp.MustCompile(`\b(?i:got|was|were|have\s+been|has\s+been|'ve\s+been|been)\s+(?i:poached|headhunted|head-hunted)\s+(?i:by)\s+(\p{Lu})`), "joined $1", " by "},
	// to be "taken on" by an employer is to be hired by it (Cambridge, "take on": to employ someone)
	{regexp.MustCompile(`\b(?i:got|was|were|have\s+been|has\s+been|'ve\s+been|been)\s+(?i:taken\s+on)\s+(?i:by|at)\s+(\p{Lu})`), "joined $1", "taken on"},
	// to be "made up" to a rank is, in British English, to be promoted to it (Collins, "make up"), said
	// without its subject in chat too ("Made up to sergeant last month!")
	{regexp.MustCompile(`^(?i:made\s+up)\s+(?i:to)\s+`), "I was promoted to ", "made up"},
	{regexp.MustCompile(`\b((?i:got|was|were|have\s+been|has\s+been|'ve\s+been|been))\s+(?i:made\s+up)\s+(?i:to)\s+`), "$1 promoted to ", "made up"},
	// transferring to an institution "to finish one's degree" is studying there from now on
	{regexp.MustCompile(`\b(?i:(?:have|has|had)\s+)?(?i:(?:just|now)\s+)?(?i:transferred|moved|switched)\s+to\s+((?:the\s+)?\p{Lu}[\pL\pM'-]*(?:\s+(?:of\s+)?\p{Lu}[\pL\pM'-]*)*)(?:\s+in\s+\p{Lu}[\pL\pM'-]*)?\s+to\s+(?i:finish|complete|continue|do|start)\s+(?i:my|his|her|their|the)\s+(?i:degree|studies|course|phd|masters|master's|doctorate|training|bachelor's)\b`), "now study at $1", "to "},
	// to enrol in a course at an institution is to start it there (Oxford, "enrol": "officially register as a
	// member of an institution or a student on a course")
	{regexp.MustCompile(`\b(?i:enrolled|enrolling|enrol|enroll|enrols|enrolls)\s+(?i:in|on|onto|for)\s+((?i:a|an|the)\s+[^,.;!?]{1,60}?\s+(?i:at)\s+(?:(?i:the)\s+)?\p{Lu})`), "started $1", "enrol"},
	// a reflexive pronoun after a verb of getting is who the thing is for, the subject itself: "got myself an
	// iPhone 16" is "got an iPhone 16" (English's indirect object of benefit, here the subject's own)
	{regexp.MustCompile(`(?i)\b(got|get|gets|getting|bought|buy|buys|buying|treated|ordered|found|picked\s+up)\s+(?:myself|ourselves|himself|herself|themselves)\s+(a|an|the|some|my|our|his|her|their|new|\d)`), "$1 $2", "sel"},
	{regexp.MustCompile(`(?i)\b(am|'m|are|'re|is|'s)\s+(?:now\s+)?working\s+for\s+(?:myself|ourselves|himself|herself|themselves)\b`), "$1 self-employed", "sel"},
	{regexp.MustCompile(`\bI\s+(?:now\s+)?(?i:work)\s+(?i:for)\s+(?i:myself)\b`), "I am self-employed", "myself"},
	// one's own business: who runs, started or set up their own shop works there, at its name when one follows
	// ("opened my own place, Bistro Goran")
	{regexp.MustCompile(`(?i)\b(?:(?:am|'m|is|'s|are|'re)\s+(?:now\s+)?running|run|runs|(?:(?:have|has|had|'ve)\s+(?:just\s+)?)?(?:started|opened|set\s+up))\s+(?:my|our|his|her|their)\s+own\s+[\pL-]+,\s+(\p{Lu}[\pL\pM'&-]*(?:\s+\p{Lu}[\pL\pM'&-]*)*)`), "work at $1", " own "},
	{regexp.MustCompile(`(?i)\b(?:(?:am|'m|is|'s|are|'re)\s+(?:now\s+)?running|run|runs|(?:(?:have|has|had|'ve)\s+(?:just\s+)?)?(?:started|opened|set\s+up))\s+(my|our|his|her|their)\s+own\s+([\pL-]+)\b`), "work at $1 own $2", " own "},
	{regexp.MustCompile(`,\s+(?i:running)\s+(?i:my)\s+(?i:own)\s+([\pL-]+)\b`), ", I work at my own $1", " own "},
}

// reFrontedTopic is a topic fronted before the clause that is about it: "In Tarvia, the head of state is Ana
// Ruiz", "As for Velto, its CEO is Bruno Keller", "When it comes to Velto, the CEO is …". The clause's
// subject is a relational noun with a definite article or a possessive pronoun, whose owner is the topic. The
// comma is often left out after a short fronted phrase ("In Tarvia the head of state is …").
var reFrontedTopic = regexp.MustCompile(`^(?i:in|for|as\s+for|as\s+to|regarding|concerning|when\s+it\s+comes\s+to|speaking\s+of|at)\s+(\p{Lu}[\pL\pM.'&-]*(?:\s+(?:of|de|the|and|\p{Lu}[\pL\pM.'&-]*))*)\s*,?\s+(?i:the|its|their|his|her)\s+(\pL)`)

// reFrontedRelation is a relation named as a topic before the clause that gives its value: "When it comes to
// religion, Ana is a devout Buddhist", "As for sport, he is all about rugby", "As far as music goes, she is
// into jazz". The topic is a lower-case noun (a name is reFrontedTopic's owner); what the clause's verb leaves
// vague, the topic names (frontedRelation).
var reFrontedRelation = regexp.MustCompile(`^(?i:when\s+it\s+comes\s+to|as\s+for|as\s+to|as\s+regards|regarding|concerning|in\s+terms\s+of|on\s+the\s+subject\s+of|speaking\s+of|talking\s+of|as\s+far\s+as)\s+(?:(?i:the|his|her|their|its)\s+)?(\p{Ll}[\p{Ll}-]*(?:\s+\p{Ll}[\p{Ll}-]*){0,2}?)(?:\s+(?:goes|go|is\s+concerned|are\s+concerned))?\s*,\s*(\S.*)$`)

// frontedRelation returns the sentence without a fronted relation topic (reFrontedRelation) and the topic's
// relation key, or the sentence unchanged and "" when it has none or the noun names no relation the alias
// table knows ("As for the weather, …").
func frontedRelation(sent string) (string, string) {
	m := reFrontedRelation.FindStringSubmatch(sent)
	if m == nil {
		return sent, ""
	}
	words := strings.Fields(m[1])
	words[len(words)-1] = nlp.Lemma(words[len(words)-1], "NNS")
	key := canon.RelationKey(canon.PredicateKey(strings.Join(words, " ")))
	if !canon.KnownRelation(key) {
		return sent, ""
	}
	return m[2], key
}

// rePresentBeforeBe is a present-time adverbial (presentAdverbials, "currently") right before a form of "be".
var rePresentBeforeBe = regexp.MustCompile(`(?i)\s*,?\s+(?:right\s+now|at\s+the\s+moment|at\s+present|these\s+days|nowadays|currently|for\s+now)\s*,?\s+(is|are|was|were)\b`)

// reFrontedAttribute is a clause with "by" and an attribute noun fronted: "By profession, X is a nurse", "By
// trade, X is a carpenter" say what "X is a nurse by profession" says, which the clause reader reads.
var reFrontedAttribute = regexp.MustCompile(`^(?i:by\s+(profession|trade|occupation|faith|religion|birth|nationality))\s*,\s*(.+?)([.!]?)$`)

// reSymmetricPair is two names said to be a pair of a symmetric relation: "Ana and Ben are husband and wife",
// "Bordeaux and Porto are sister cities".
var reSymmetricPair = regexp.MustCompile(`^(\p{Lu}[\pL\pM.'&-]*(?:\s+(?:of|de|the|\p{Lu}[\pL\pM.'&-]*))*)\s+and\s+(\p{Lu}[\pL\pM.'&-]*(?:\s+(?:of|de|the|\p{Lu}[\pL\pM.'&-]*))*)\s+are\s+(\pL+(?:\s+\pL+){0,2})([.!]?)$`)

// symmetricPairs maps the plural nouns English uses for both members of a symmetric relation to the noun one
// member is of the other: kinship, marriage, partnership and acquaintance, and the pairing of towns. General
// English (a grammar's reciprocal plurals), not any data set's words.
var symmetricPairs = map[string]string{
	"husband and wife": "spouse", "wife and husband": "spouse", "spouses": "spouse", "married": "spouse",
	"siblings": "sibling", "brothers": "brother", "sisters": "sister", "twins": "twin", "cousins": "cousin",
	"partners": "partner", "business partners": "business partner", "colleagues": "colleague",
	"friends": "friend", "best friends": "best friend", "neighbours": "neighbour", "neighbors": "neighbor",
	"classmates": "classmate", "roommates": "roommate", "teammates": "teammate", "flatmates": "flatmate",
	"sister cities": "sister city", "twin cities": "twin city", "twin towns": "twin town",
	"sister towns": "sister town", "partner cities": "partner city", "partner towns": "partner town",
}

// plainly rewrites a sentence's idioms and fronted topic in plain words (above); ref resolves dates, so a
// fronted date ("In May, the rent is …") is not read as a topic.
func plainly(sent string, ref time.Time) string {
	if !strings.ContainsAny(sent, " ") {
		return sent
	}
	for _, id := range idioms {
		sent = id.re.ReplaceAllString(sent, id.repl)
	}
	lower := strings.ToLower(sent)
	for _, id := range cuedIdioms {
		if strings.Contains(lower, id.cue) {
			sent = id.re.ReplaceAllString(sent, id.repl)
		}
	}
	if strings.Contains(lower, "read") || strings.Contains(lower, "studying") {
		sent = readingSubject(sent)
	}
	sent = articleBeforeRelation(sent)
	sent = officialSpeech(sent)
	sent = linedUpAt(sent)
	// "Velmora's head of state right now is Ana Ruiz": a present-time adverbial between a subject and its
	// copula says the value is the current one, as it does at the clause's end, and is no part of the subject.
	sent = rePresentBeforeBe.ReplaceAllString(sent, " $1")
	if m := reSymmetricPair.FindStringSubmatch(sent); m != nil {
		if noun, ok := symmetricPairs[strings.ToLower(m[3])]; ok {
			// Each is the other's: "Ana is Ben's spouse, and Ben is Ana's spouse".
			sent = m[1] + " is " + possessive(m[2]) + " " + noun + ", and " + m[2] + " is " + possessive(m[1]) + " " + noun + m[4]
		}
	}
	if m := reFrontedAttribute.FindStringSubmatch(sent); m != nil {
		sent = m[2] + " by " + strings.ToLower(m[1]) + m[3]
	}
	if m := reFrontedTopic.FindStringSubmatchIndex(sent); m != nil {
		topic := sent[m[2]:m[3]]
		if len(findDates(topic, ref)) == 0 && topic != "I" && !timeName(topic) {
			sent = possessive(topic) + " " + sent[m[4]:]
		}
	}
	return sent
}

// reBareRelationOf is a sentence that opens with a noun and "of" and no article (group 1 the noun and the words
// up to the "of" of its owner).
var reBareRelationOf = regexp.MustCompile(`^(\p{Lu}\p{Ll}+(?:\s+\p{Ll}+){0,2})\s+of\s+`)

// articleBeforeRelation gives a sentence that opens with a relation's noun and "of", as chat and notes write it
// without the article ("capital of France is Paris", "Head of state of Peru is Ana Ruiz"), the "the" English
// puts before it, so that it is read as the relation of the owner after "of" and not as a name. Only a noun the
// relation table knows (canon) qualifies: "Bank of America is…" is a name. A note ("Capital of Peru: Lima")
// has a reading of its own and is left as written.
func articleBeforeRelation(sent string) string {
	m := reBareRelationOf.FindStringSubmatch(sent)
	if m == nil || strings.Contains(sent, ":") || !canon.KnownRelation(strings.ReplaceAll(strings.ToLower(m[1]), " ", "_")) {
		return sent
	}
	return "The " + lowerFirst(sent, true)
}

// reOfficialSpeech is "they speak Swedish officially in Japan" (groups: the language, the place's first letter).
var reOfficialSpeech = regexp.MustCompile(`\b(?i:they|people)\s+(?:(?i:officially)\s+(?i:speak)\s+(\pL[\pL\pM-]*(?:\s+\pL[\pL\pM-]*)?)|(?i:speak)\s+(\pL[\pL\pM-]*(?:\s+\pL[\pL\pM-]*)?)\s+(?i:officially))\s+(?i:in)\s+(\p{Lu})`)

// officialSpeech says a place's official language, said of its people, as the place's official language: "they
// speak Swedish officially in Japan" is "Swedish is the official language in Japan" (the impersonal "they" of a
// place's people, as grammars of English describe it). The language gets the capitals English writes it
// with, however it was typed.
func officialSpeech(sent string) string {
	return reOfficialSpeech.ReplaceAllStringFunc(sent, func(m string) string {
		g := reOfficialSpeech.FindStringSubmatch(m)
		lang := g[1] + g[2]
		words := strings.Fields(lang)
		for i, w := range words {
			words[i] = titleCase(w)
		}
		return strings.Join(words, " ") + " is the official language in " + g[3]
	})
}

// reLinesUpAt is "lines up at wide receiver" (groups: the verb's form, the position).
var reLinesUpAt = regexp.MustCompile(`\b((?i:lines|lined|lining|line))\s+(?i:up)\s+(?i:at|as)\s+(?:(?i:an?)\s+)?([\pL-]+(?:\s+[\pL-]+)?)\b`)

// playForms are the forms of "play" for the forms of "line" ("lines up at" → "plays").
var playForms = map[string]string{"lines": "plays", "lined": "played", "lining": "playing", "line": "play"}

// linedUpAt says the sports idiom "lines up at" a playing position as "plays" it (Merriam-Webster, "line up":
// to take one's place in a formation, as a team's players do), only when a playing position (positionWords)
// follows: "lined up at the bank" stays as said.
func linedUpAt(sent string) string {
	return reLinesUpAt.ReplaceAllStringFunc(sent, func(m string) string {
		g := reLinesUpAt.FindStringSubmatch(m)
		if !positionWords[strings.ToLower(lastWords(g[2], 1))] {
			return m
		}
		return playForms[strings.ToLower(g[1])] + " " + g[2]
	})
}

// timeName reports the name of a month or a day of the week, which a fronted "In May," makes a time, not a
// topic.
func timeName(w string) bool {
	for m := time.January; m <= time.December; m++ {
		if strings.EqualFold(w, m.String()) {
			return true
		}
	}
	for d := time.Sunday; d <= time.Saturday; d++ {
		if strings.EqualFold(w, d.String()) {
			return true
		}
	}
	return false
}

// reReadingAt is British English's "read" a subject at a university: "I'm reading law at Vienna", "she read
// history at Durham" (groups: the verb, the subject's words, the place's first letter).
var reReadingAt = regexp.MustCompile(`\b((?i:reading|read|reads))\s+(\p{Ll}[\pL-]*(?:\s+\p{Ll}[\pL-]*)?)\s+(?i:at)\s+(\p{Lu})`)

// reAtReading is someone at a university said before what they read or study there (groups: the copula, the
// place, the subject's words).
var reAtReading = regexp.MustCompile(`\b((?i:is|am|'m|are|'re|was|were))\s+(?i:at)\s+(\p{Lu}[\pL\pM'-]*(?:\s+(?:of\s+)?\p{Lu}[\pL\pM'-]*)*)\s+(?i:reading|studying)\s+(\p{Ll}[\pL-]*(?:\s+\p{Ll}[\pL-]*)?)\b`)

// readingSubject says "reading" a subject at a place as "studying" it there (Cambridge, "read": to study a
// subject at a British university). The subject is a bare noun: "reading the paper at Caffè Nero" reads a
// thing, and a determiner or a pronoun says so.
func readingSubject(sent string) string {
	sent = reAtReading.ReplaceAllStringFunc(sent, func(m string) string {
		// "Cerys is at Cardiff Uni reading history": the place first, then what is studied there.
		g := reAtReading.FindStringSubmatch(m)
		if !higherEdName(g[2]) || notNames[strings.Fields(g[3])[0]] {
			return m
		}
		return g[1] + " studying " + g[3] + " at " + g[2]
	})
	return reReadingAt.ReplaceAllStringFunc(sent, func(m string) string {
		g := reReadingAt.FindStringSubmatch(m)
		if first := strings.Fields(g[2])[0]; notNames[first] || first == "a" || first == "an" || first == "some" || first == "them" || first == "him" {
			return m
		}
		verb := "studied"
		switch strings.ToLower(g[1]) {
		case "reading":
			verb = "studying"
		case "reads":
			verb = "studies"
		}
		return verb + " " + g[2] + " at " + g[3]
	})
}
