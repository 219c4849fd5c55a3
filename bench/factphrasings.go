package bench

import "regexp"

// This file is evaluation data, not product code: how people write the facts and questions of
// MemoryAgentBench FactConsolidation (MQuAKE's Wikidata relations) when nobody hands them a template.
// Each relation has the benchmark's own sentence shape (the key the rewording maps from) and, in two
// disjoint pools, the phrasings a person might use instead:
//
//   - dev: for developing and tuning an extractor and a question parser;
//   - check: other constructions (inversions, passives, clefts, notes, contractions, lower-case typing,
//     extra words), for measuring whether what works on dev generalizes. Never tune on it.
//
// Placeholders: {s} is the subject, {o} the object, {a_o} the object after "a" or "an". In a question or a
// role, {s} is the entity asked about, which in a multi-hop question is itself a description ("the author
// of X"). A phrasing starting with "~" is typed all in lower case (names included), as people do in chat.
// Questions are asked about the object; a role is a noun phrase that names the object ("the author of
// {s}") and chains multi-hop questions. Every pool holds at least one question and one role without a
// possessive "{s}'s", so that a description never gets one ("the author of X's spouse" is avoided).

// phrasingPools holds a relation's phrasings per pool.
type phrasingPools struct{ Dev, Check, Fresh, Blind, Everyday []string }

// pool returns the phrasings of one pool.
func (p phrasingPools) pool(name Pool) []string {
	switch name {
	case PoolCheck:
		return p.Check
	case PoolFresh:
		return p.Fresh
	case PoolBlind:
		return p.Blind
	case PoolEveryday:
		return p.Everyday
	}
	return p.Dev
}

// factRelation is one relation of the benchmark with its published shape and its rewordings.
type factRelation struct {
	// ID is the Wikidata property (MQuAKE's relation id); Name says what it is.
	ID, Name string
	// Published matches the benchmark's own sentence (without its final full stop), groups s and o.
	Published *regexp.Regexp
	Facts     phrasingPools
	Questions phrasingPools
	Roles     phrasingPools
}

// factRelations lists MQuAKE's relation templates as FactConsolidation states them, most specific
// first: a sentence takes the first shape that matches. The shapes are the published ones; where a
// template's word is misspelled in the data, the shape matches any word there (\pL+) and keys on the rest of
// the template, so no misspelling is written into the code.
var factRelations = []factRelation{
	{
		ID: "P35", Name: "head of state",
		Published: regexp.MustCompile(`^The name of the current head of state in (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} is the head of state of {s}.", "{s}'s head of state is {o}.", "The current head of state in {s} is {o}."},
			Check: []string{"{o} currently serves as head of state in {s}.", "{s} has {o} as its head of state.", "~{o} is {s}'s head of state right now"},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is the head of state of {s}?", "Who is {s}'s current head of state?"},
			Check: []string{"Who currently serves as head of state in {s}?", "{s}'s head of state is who?", "~who is head of state in {s}"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the head of state of {s}", "{s}'s head of state"},
			Check: []string{"the person serving as head of state in {s}", "whoever is head of state in {s}"},
		},
	},
	{
		ID: "P6", Name: "head of government",
		Published: regexp.MustCompile(`^The name of the current head of the (?P<s>.+) government is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} heads the government of {s}.", "{s}'s head of government is {o}."},
			Check: []string{"{o} leads the {s} government.", "The government of {s} is headed by {o}.", "At the moment {o} is in charge of the {s} government."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who heads the government of {s}?", "Who is the head of government of {s}?"},
			Check: []string{"Who leads the {s} government?", "The government of {s} is led by whom?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the head of government of {s}", "the person who heads the government of {s}"},
			Check: []string{"the leader of the {s} government", "whoever leads the government of {s}"},
		},
	},
	{
		ID: "P159", Name: "headquarters location",
		Published: regexp.MustCompile(`^The headquarters of (?P<s>.+) is located in the city of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is headquartered in {o}.", "{s}'s headquarters are in {o}."},
			Check: []string{"{o} is where {s} has its headquarters.", "{s} has its head office in {o}.", "{s} HQ: {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Where is {s} headquartered?", "In which city are {s}'s headquarters?"},
			Check: []string{"Which city is home to the head office of {s}?", "{s} has its HQ in which city?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the city where {s} is headquartered", "{s}'s headquarters city"},
			Check: []string{"the city that hosts the head office of {s}", "the place where {s} has its HQ"},
		},
	},
	{
		ID: "P69", Name: "educated at",
		Published: regexp.MustCompile(`^The \pL+ where (?P<s>.+) was educated is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} studied at {o}.", "{s} was educated at {o}.", "{s} graduated from {o}."},
			Check: []string{"{o} is where {s} went to university.", "{s} is an alumnus of {o}.", "~{s} went to {o}"},
		},
		Questions: phrasingPools{
			Dev:   []string{"Where did {s} study?", "Which university did {s} attend?"},
			Check: []string{"Which university is {s} an alumnus of?", "Where did {s} go to college?", "{s} graduated from which university?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the university {s} attended", "the university where {s} studied"},
			Check: []string{"{s}'s alma mater", "the school {s} graduated from"},
		},
	},
	{
		ID: "P136", Name: "genre",
		Published: regexp.MustCompile(`^The type of music that (?P<s>.+) plays is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} plays {o}.", "{s}'s music genre is {o}.", "{s} makes {o}."},
			Check: []string{"{o} is the genre {s} performs.", "The music {s} plays is mostly {o}.", "Genre-wise, {s} is {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What genre does {s} play?", "What kind of music does {s} make?"},
			Check: []string{"Which music genre is {s} associated with?", "{s} plays what kind of music?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the genre {s} plays", "{s}'s genre"},
			Check: []string{"the kind of music {s} makes", "the style of music performed by {s}"},
		},
	},
	{
		ID: "P176", Name: "manufacturer",
		Published: regexp.MustCompile(`^The company that produced (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} was produced by {o}.", "{o} produced {s}."},
			Check: []string{"{o} is the manufacturer of {s}.", "{s} is made by {o}.", "{s} was built by {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who produced {s}?", "Which company made {s}?"},
			Check: []string{"Who is the manufacturer of {s}?", "{s} is made by which company?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the company that made {s}", "{s}'s producer"},
			Check: []string{"the manufacturer of {s}", "whoever builds {s}"},
		},
	},
	{
		ID: "P449", Name: "original broadcaster",
		Published: regexp.MustCompile(`^The \pL+ broadcaster of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} originally aired on {o}.", "{s} was first broadcast by {o}."},
			Check: []string{"{o} is the network that first aired {s}.", "{s} premiered on {o}.", "{o} originally broadcast {s}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which network originally aired {s}?", "Who first broadcast {s}?"},
			Check: []string{"{s} premiered on which network?", "What was the original broadcaster of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the network that originally aired {s}", "{s}'s original broadcaster"},
			Check: []string{"the channel {s} premiered on", "the broadcaster that first showed {s}"},
		},
	},
	{
		ID: "P364", Name: "original language of film or TV show",
		Published: regexp.MustCompile(`^The original language of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} was originally made in {o}.", "{s}'s original language is {o}."},
			Check: []string{"{o} is the language {s} was first made in.", "{s} first came out in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"In which language was {s} originally made?", "What language was {s} originally in?"},
			Check: []string{"{s} was originally in which language?", "What's the original language of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the language {s} was originally made in", "{s}'s original language"},
			Check: []string{"the language in which {s} first came out", "the original language of {s}"},
		},
	},
	{
		ID: "P37", Name: "official language",
		Published: regexp.MustCompile(`^The official language of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s}'s official language is {o}.", "{o} is the official language of {s}."},
			Check: []string{"In {s}, the official language is {o}.", "{s} uses {o} as its official language.", "{o} is what's officially spoken in {s}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What's the official language in {s}?", "Which language is official in {s}?"},
			Check: []string{"{s} has which official language?", "What language is officially used in {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s official language", "the language that is official in {s}"},
			Check: []string{"the language {s} uses officially", "the language officially spoken in {s}"},
		},
	},
	{
		ID: "P488", Name: "chairperson",
		Published: regexp.MustCompile(`^The chairperson of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} chairs {s}.", "{s}'s chairperson is {o}."},
			Check: []string{"{o} is the chair of {s}.", "{s} is chaired by {o}.", "~{o} chairs {s} these days"},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who chairs {s}?", "Who is the chair of {s}?"},
			Check: []string{"{s} is chaired by whom?", "Who's {s}'s chairperson?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the chairperson of {s}", "{s}'s chair"},
			Check: []string{"the person who chairs {s}", "whoever chairs {s}"},
		},
	},
	{
		ID: "P169", Name: "chief executive officer",
		Published: regexp.MustCompile(`^The chief executive officer of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} is the CEO of {s}.", "{s}'s CEO is {o}."},
			Check: []string{"{o} runs {s} as chief executive.", "{s} is led by chief executive {o}.", "{o}, CEO of {s}, spoke at the event."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is the CEO of {s}?", "Who runs {s}?"},
			Check: []string{"{s} is led by which chief executive?", "Who's the chief executive of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the CEO of {s}", "{s}'s chief executive"},
			Check: []string{"the person who runs {s}", "whoever leads {s} as CEO"},
		},
	},
	{
		ID: "P1037", Name: "director or manager",
		Published: regexp.MustCompile(`^The director of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} directs {s}.", "{s}'s director is {o}."},
			Check: []string{"{o} is the director of {s}.", "{s} is managed by {o}.", "{s} is run by its director, {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who directs {s}?", "Who is {s}'s director?"},
			Check: []string{"{s} is managed by whom?", "Who is in charge of {s} as director?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the director of {s}", "{s}'s director"},
			Check: []string{"the person who manages {s}", "whoever directs {s}"},
		},
	},
	{
		ID: "P50", Name: "author",
		Published: regexp.MustCompile(`^The author of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} was written by {o}.", "{o} wrote {s}.", "{o} is the author of {s}."},
			Check: []string{"{o} is the writer behind {s}.", "{s} came from the pen of {o}.", "{s}'s author is {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who wrote {s}?", "Who authored {s}?"},
			Check: []string{"{s} was written by whom?", "Who is the writer of {s}?", "~who's {s} by"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the author of {s}", "the person who wrote {s}"},
			Check: []string{"{s}'s writer", "whoever wrote {s}"},
		},
	},
	{
		ID: "P36", Name: "capital",
		Published: regexp.MustCompile(`^The capital of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} is the capital of {s}.", "{s}'s capital is {o}."},
			Check: []string{"{s} has {o} as its capital.", "{o} serves as the capital of {s}.", "Capital city of {s}: {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which city is the capital of {s}?", "What is {s}'s capital?"},
			Check: []string{"{s} has which city as its capital?", "What city serves as the capital of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the capital of {s}", "{s}'s capital"},
			Check: []string{"the city that serves as capital of {s}", "the capital city {s} has"},
		},
	},
	{
		ID: "P286", Name: "head coach",
		Published: regexp.MustCompile(`^The head coach of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} coaches {s}.", "{s}'s head coach is {o}."},
			Check: []string{"{o} is the head coach of {s}.", "{s} is coached by {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who coaches {s}?", "Who is {s}'s head coach?"},
			Check: []string{"{s} is coached by whom?", "Who's the head coach at {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s head coach", "the coach of {s}"},
			Check: []string{"the person who coaches {s}", "whoever coaches {s}"},
		},
	},
	{
		ID: "P190", Name: "twinned administrative body",
		Published: regexp.MustCompile(`^The twinned administrative body of (?P<s>.+) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is twinned with {o}.", "{s}'s sister city is {o}."},
			Check: []string{"{o} is a twin town of {s}.", "{s} and {o} are sister cities."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which city is {s} twinned with?", "What is {s}'s sister city?"},
			Check: []string{"{s} has which twin town?", "What's the twin city of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s sister city", "the city {s} is twinned with"},
			Check: []string{"the twin town of {s}", "the place twinned with {s}"},
		},
	},
	{
		ID: "P40", Name: "child",
		Published: regexp.MustCompile(`^(?P<s>.+)'s child is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} is {s}'s child.", "{s} is the parent of {o}."},
			Check: []string{"{s} has a child named {o}.", "{o} was born to {s}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is the child of {s}?", "Who is {s} the parent of?"},
			Check: []string{"Name the child of {s}.", "Which person is a child of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s child", "the child of {s}"},
			Check: []string{"the son or daughter of {s}", "the person born to {s}"},
		},
	},
	{
		ID: "P19", Name: "place of birth",
		Published: regexp.MustCompile(`^(?P<s>.+?) was born in the city of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} was born in {o}.", "{s}'s birthplace is {o}.", "{s} is a native of {o}."},
			Check: []string{"{o} is where {s} was born.", "As it happens, {s} was born and raised in {o}.", "~{s}, born in {o}"},
		},
		Questions: phrasingPools{
			Dev:   []string{"Where was {s} born?", "What is {s}'s birthplace?"},
			Check: []string{"In which city was {s} born?", "{s} was born where?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the city where {s} was born", "{s}'s birthplace"},
			Check: []string{"the place of birth of {s}", "the city {s} was born in"},
		},
	},
	{
		ID: "P20", Name: "place of death",
		Published: regexp.MustCompile(`^(?P<s>.+?) died in the city of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} died in {o}.", "{s} passed away in {o}."},
			Check: []string{"{o} is where {s} died.", "{s}'s place of death was {o}.", "{s} spent their final days in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Where did {s} die?", "In which city did {s} pass away?"},
			Check: []string{"What was the place of death of {s}?", "{s} died in which city?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the city where {s} died", "{s}'s place of death"},
			Check: []string{"the place {s} passed away in", "the city in which {s} died"},
		},
	},
	{
		ID: "P413", Name: "position played",
		Published: regexp.MustCompile(`^(?P<s>.+?) plays the position of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} plays as {a_o}.", "{s}'s position is {o}."},
			Check: []string{"{o} is the position {s} plays.", "On the field, {s} is {a_o}.", "{s} lines up at {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What is {s}'s position?", "Which position does {s} play in?"},
			Check: []string{"{s} plays which position?", "Where does {s} line up on the field?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the position {s} plays", "{s}'s position"},
			Check: []string{"the role {s} has on the field", "the position played by {s}"},
		},
	},
	{
		ID: "P30", Name: "continent",
		Published: regexp.MustCompile(`^(?P<s>.+?) is located in the continent of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is on the continent of {o}.", "{s} is in {o}."},
			Check: []string{"{o} is the continent where {s} is located.", "{s} belongs to the continent of {o}.", "{s} (continent: {o})."},
		},
		Questions: phrasingPools{
			Dev:   []string{"On which continent is {s}?", "What continent is {s} on?"},
			Check: []string{"{s} is on which continent?", "Which continent does {s} belong to?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the continent {s} is on", "the continent where {s} lies"},
			Check: []string{"the continent that {s} belongs to", "{s}'s continent"},
		},
	},
	{
		ID: "P17", Name: "country",
		Published: regexp.MustCompile(`^(?P<s>.+?) is located in the country of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is in the country of {o}.", "{s} lies in {o}."},
			Check: []string{"{o} is the country where {s} is located.", "You'll find {s} in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which country is {s} in?", "What country is {s} located in?"},
			Check: []string{"In what country can {s} be found?", "{s} is in which country?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the country {s} is in", "the country where {s} is located"},
			Check: []string{"the country that contains {s}", "the country in which {s} lies"},
		},
	},
	{
		ID: "P937", Name: "work location",
		Published: regexp.MustCompile(`^(?P<s>.+?) worked in the city of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} worked in {o}.", "{s}'s place of work was {o}."},
			Check: []string{"{o} is where {s} worked.", "{s} was based in {o} for work.", "For most of their career {s} worked out of {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"In which city did {s} work?", "Where did {s} work?"},
			Check: []string{"{s} worked in which city?", "Where was {s} based for work?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the city where {s} worked", "{s}'s place of work"},
			Check: []string{"the city {s} was based in for work", "the place where {s} worked"},
		},
	},
	{
		ID: "P26", Name: "spouse",
		Published: regexp.MustCompile(`^(?P<s>.+?) is married to (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s}'s spouse is {o}.", "{s} and {o} are married.", "{s} married {o}."},
			Check: []string{"{o} is {s}'s spouse.", "{s} has been married to {o} for years.", "{s}'s married to {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is {s}'s spouse?", "Whom did {s} marry?"},
			Check: []string{"{s} is married to whom?", "Who is the husband or wife of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s spouse", "the person {s} is married to"},
			Check: []string{"the husband or wife of {s}", "the person married to {s}"},
		},
	},
	{
		ID: "P740", Name: "location of formation",
		Published: regexp.MustCompile(`^(?P<s>.+?) was founded in the city of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} was founded in {o}.", "{s} was established in {o}."},
			Check: []string{"{o} is where {s} was founded.", "{s} got its start in {o}.", "{s} first came into being in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"In which city was {s} founded?", "Where was {s} established?"},
			Check: []string{"{s} was founded in which city?", "Where did {s} get its start?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the city where {s} was founded", "the place {s} was established"},
			Check: []string{"the city {s} got its start in", "the founding city of {s}"},
		},
	},
	{
		ID: "P112", Name: "founded by",
		Published: regexp.MustCompile(`^(?P<s>.+?) was founded by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} founded {s}.", "{s}'s founder is {o}."},
			Check: []string{"{o} is the founder of {s}.", "{s} was established by {o}.", "{s} owes its founding to {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is the founder of {s}?", "Who established {s}?"},
			Check: []string{"{s} was founded by whom?", "Who started {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the founder of {s}", "the person who founded {s}"},
			Check: []string{"{s}'s founder", "whoever established {s}"},
		},
	},
	{
		ID: "P641", Name: "sport",
		Published: regexp.MustCompile(`^(?P<s>.+?) is associated with the sport of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s}'s sport is {o}.", "{s} is connected with {o}."},
			Check: []string{"{o} is the sport of {s}.", "{s} is tied to {o}.", "When it comes to sport, {s} is all about {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What sport does {s} play?", "Which sport is {s} linked to?"},
			Check: []string{"{s} is associated with which sport?", "What is the sport of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the sport {s} plays", "{s}'s sport"},
			Check: []string{"the sport tied to {s}", "the sport of {s}"},
		},
	},
	{
		ID: "P27", Name: "country of citizenship",
		Published: regexp.MustCompile(`^(?P<s>.+?) is a citizen of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} holds citizenship of {o}.", "{s}'s nationality is {o}.", "{s} is a national of {o}."},
			Check: []string{"{o} is where {s} holds citizenship.", "{s} carries a passport from {o}.", "~{s} has {o} citizenship"},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which country is {s} a citizen of?", "What's {s}'s nationality?"},
			Check: []string{"Where does {s} hold citizenship?", "{s} is a citizen of what country?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the country {s} is a citizen of", "{s}'s country of citizenship"},
			Check: []string{"the country whose citizenship {s} holds", "the country that issued the passport of {s}"},
		},
	},
	{
		ID: "P175", Name: "performer",
		Published: regexp.MustCompile(`^(?P<s>.+?) was performed by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} performed {s}.", "{s}'s performer is {o}."},
			Check: []string{"{o} is the performer of {s}.", "{o} is the artist behind {s}.", "{s} is by {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is the performer of {s}?", "Which artist performed {s}?"},
			Check: []string{"{s} was performed by whom?", "Who's behind {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the performer of {s}", "the artist who performed {s}"},
			Check: []string{"{s}'s performer", "whoever performed {s}"},
		},
	},
	{
		ID: "P108", Name: "employer",
		Published: regexp.MustCompile(`^(?P<s>.+?) is employed by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} works for {o}.", "{s}'s employer is {o}."},
			Check: []string{"{o} employs {s}.", "{s} has a job at {o}.", "{s} is on the staff of {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who does {s} work for?", "Who is {s}'s employer?"},
			Check: []string{"{s} works for which organization?", "Which company employs {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s employer", "the organization {s} works for"},
			Check: []string{"the company that employs {s}", "the place where {s} has a job"},
		},
	},
	{
		ID: "P1412", Name: "languages spoken",
		Published: regexp.MustCompile(`^(?P<s>.+?) speaks the language of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} speaks {o}.", "{s} is fluent in {o}."},
			Check: []string{"{o} is a language {s} speaks.", "{s} can speak {o}.", "~{s} is a {o} speaker"},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which language does {s} speak?", "What language is {s} fluent in?"},
			Check: []string{"{s} speaks which language?", "In what language can {s} communicate?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the language {s} speaks", "a language {s} is fluent in"},
			Check: []string{"the language spoken by {s}", "the tongue {s} can speak"},
		},
	},
	{
		ID: "P800", Name: "notable work",
		Published: regexp.MustCompile(`^(?P<s>.+?) is famous for (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is best known for {o}.", "{s}'s most famous work is {o}."},
			Check: []string{"{o} is what made {s} famous.", "{s} is renowned for {o}.", "{o} is the best-known work of {s}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What is {s} best known for?", "What is {s}'s most famous work?"},
			Check: []string{"What made {s} famous?", "{s} is renowned for what?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s most famous work", "the work {s} is best known for"},
			Check: []string{"the work that made {s} famous", "the thing {s} is renowned for"},
		},
	},
	{
		ID: "P495", Name: "country of origin",
		Published: regexp.MustCompile(`^(?P<s>.+?) was created in the country of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} originated in {o}.", "{s} comes from {o}."},
			Check: []string{"{o} is the country where {s} originated.", "{s} was first developed in {o}.", "{s}'s country of origin is {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Where does {s} come from?", "Which country did {s} originate in?"},
			Check: []string{"What is the country of origin of {s}?", "{s} was first developed in which country?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the country where {s} originated", "the country {s} comes from"},
			Check: []string{"{s}'s country of origin", "the country that gave rise to {s}"},
		},
	},
	{
		ID: "P170", Name: "creator",
		Published: regexp.MustCompile(`^(?P<s>.+?) was created by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} created {s}.", "{s}'s creator is {o}."},
			Check: []string{"{o} is the creator of {s}.", "{s} is a creation of {o}.", "{s} was dreamed up by {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who created {s}?", "Who is {s}'s creator?"},
			Check: []string{"{s} was created by whom?", "Who came up with {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the creator of {s}", "the person who created {s}"},
			Check: []string{"{s}'s creator", "whoever came up with {s}"},
		},
	},
	{
		ID: "P140", Name: "religion or worldview",
		Published: regexp.MustCompile(`^(?P<s>.+?) is affiliated with the religion of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} follows {o}.", "{s}'s religion is {o}."},
			Check: []string{"{o} is the religion of {s}.", "{s} practices {o}.", "{s} is a follower of {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What religion does {s} follow?", "What is {s}'s religion?"},
			Check: []string{"{s} practices which religion?", "Which faith does {s} belong to?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the religion {s} follows", "{s}'s religion"},
			Check: []string{"the faith {s} practices", "the religion practiced by {s}"},
		},
	},
	{
		ID: "P106", Name: "occupation",
		Published: regexp.MustCompile(`^(?P<s>.+?) works in the field of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} works as {a_o}.", "{s} is {a_o} by profession.", "{s}'s occupation is {o}."},
			Check: []string{"By trade, {s} is {a_o}.", "{s} earns a living as {a_o}.", "{s}, job: {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What does {s} do for a living?", "What is {s}'s occupation?"},
			Check: []string{"What is the profession of {s}?", "{s} works as what?", "~what's {s}'s job"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s occupation", "the profession of {s}"},
			Check: []string{"what {s} does for a living", "the line of work of {s}"},
		},
	},
	{
		ID: "P178", Name: "developer",
		Published: regexp.MustCompile(`^(?P<s>.+?) was developed by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} developed {s}.", "{s}'s developer is {o}."},
			Check: []string{"{o} is the developer of {s}.", "The developer behind {s} is {o}.", "{s} is developed by {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who developed {s}?", "Which company is the developer of {s}?"},
			Check: []string{"{s} was developed by whom?", "Who's behind the development of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the developer of {s}", "the company that developed {s}"},
			Check: []string{"{s}'s developer", "whoever developed {s}"},
		},
	},
	{
		ID: "P407", Name: "language of work",
		Published: regexp.MustCompile(`^(?P<s>.+?) was written in the language of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} was written in {o}.", "The language of {s} is {o}."},
			Check: []string{"{o} is the language {s} was written in.", "{s} was originally composed in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"What language was {s} written in?", "In which language is {s} written?"},
			Check: []string{"{s} was written in which language?", "What's the language of {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the language {s} was written in", "the language of {s}"},
			Check: []string{"the language in which {s} was composed", "{s}'s language"},
		},
	},
	{
		ID: "P127", Name: "owned by",
		Published: regexp.MustCompile(`^(?P<s>.+?) is owned by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} owns {s}.", "{s} belongs to {o}."},
			Check: []string{"{o} is the owner of {s}.", "{s}'s owner is {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who owns {s}?", "Who is the owner of {s}?"},
			Check: []string{"{s} belongs to whom?", "Which company or person owns {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the owner of {s}", "whoever owns {s}"},
			Check: []string{"{s}'s owner", "the company that owns {s}"},
		},
	},
	{
		ID: "P264", Name: "record label",
		Published: regexp.MustCompile(`^(?P<s>.+?) is represented by (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is signed to {o}.", "{s}'s record label is {o}."},
			Check: []string{"{o} is the label that represents {s}.", "{s} records for {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which label is {s} signed to?", "What is {s}'s record label?"},
			Check: []string{"{s} is represented by which label?", "Who represents {s}?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"{s}'s record label", "the label {s} is signed to"},
			Check: []string{"the label that represents {s}", "whoever represents {s}"},
		},
	},
	{
		ID: "P463", Name: "member of",
		Published: regexp.MustCompile(`^(?P<s>.+?) is a member of (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} belongs to {o}.", "{s} is part of {o}."},
			Check: []string{"{o} counts {s} among its members.", "{s} has membership in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Which organization does {s} belong to?", "What is {s} a member of?"},
			Check: []string{"{s} is part of which organization?", "Which group counts {s} as a member?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the organization {s} belongs to", "the group {s} is part of"},
			Check: []string{"the organization that counts {s} as a member", "{s}'s organization"},
		},
	},
	{
		ID: "P131", Name: "located in",
		Published: regexp.MustCompile(`^(?P<s>.+?) is located in (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{s} is in {o}.", "{s} lies within {o}."},
			Check: []string{"{o} is home to {s}.", "You can find {s} in {o}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Where is {s} located?", "Where is {s}?"},
			Check: []string{"In which place is {s} situated?", "{s} is located where?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the place where {s} is located", "the place {s} is in"},
			Check: []string{"the area that contains {s}", "{s}'s location"},
		},
	},
	{
		ID: "P1308", Name: "officeholder",
		// "The {office} is {holder}": the subject is the office ("Prime Minister of Sweden"). Last, because
		// every other "The ... of X is Y" shape is more specific.
		Published: regexp.MustCompile(`^The (?P<s>.+?) is (?P<o>.+)$`),
		Facts: phrasingPools{
			Dev:   []string{"{o} is the current {s}.", "The office of {s} is held by {o}."},
			Check: []string{"{o} serves as {s}.", "Currently, {o} holds the office of {s}."},
		},
		Questions: phrasingPools{
			Dev:   []string{"Who is the current {s}?", "Who holds the office of {s}?"},
			Check: []string{"Who serves as {s}?", "Who is {s} at the moment?"},
		},
		Roles: phrasingPools{
			Dev:   []string{"the current {s}", "the person who holds the office of {s}"},
			Check: []string{"whoever serves as {s}", "the sitting {s}"},
		},
	},
}
