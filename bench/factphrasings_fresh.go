package bench

// This file is evaluation data, not product code: a third pool of phrasings of FactConsolidation's relations
// (see factphrasings.go for the placeholders and the "~" mark). It was written blind — by a developer who had
// read neither the dev nor the check pool, nor run the extractor on these sentences — as people write such facts
// and questions: copulas, possessives, passives, clefts, relative clauses, notes ("Capital of X: Y") and chat.
// Its first measurement is therefore a first contact; after that it is a development pool like dev, and the
// check pool stays the held-out one.

// freshRelationPhrasings is one relation's fresh phrasings.
type freshRelationPhrasings struct{ Facts, Questions, Roles []string }

// freshPhrasings holds the fresh pool, keyed by the relation's Wikidata property id.
var freshPhrasings = map[string]freshRelationPhrasings{
	"P35": { // head of state: {s} a country, {o} a person
		Facts: []string{
			"{o} is the head of state of {s}.",
			"{o} serves as {s}'s head of state.",
			"Head of state of {s}: {o}.",
			"~{s}'s head of state right now is {o}",
		},
		Questions: []string{"Who serves as head of state of {s}?", "Who is currently the head of state in {s}?", "~who is {s}'s head of state"},
		Roles:     []string{"the head of state of {s}", "{s}'s head of state"},
	},
	"P6": { // head of government: {s} a country or a city, {o} a person
		Facts: []string{
			"{o} heads the government of {s}.",
			"The government of {s} is led by {o}.",
			"{o} is the current head of government in {s}.",
			"~{s} head of government: {o}",
		},
		Questions: []string{"Who leads the government of {s}?", "Who is the head of government of {s}?"},
		Roles:     []string{"the head of the government of {s}", "the person who leads the government of {s}"},
	},
	"P159": { // headquarters location: {s} an organization, {o} a city
		Facts: []string{
			"{s} is headquartered in {o}.",
			"{s} has its headquarters in {o}.",
			"The head office of {s} is in {o}.",
			"Headquarters of {s}: {o}.",
			"~{s}'s hq is in {o}",
		},
		Questions: []string{"Where is {s} headquartered?", "In which city does {s} have its headquarters?", "~where's {s}'s hq"},
		Roles:     []string{"the city where {s} is headquartered", "the headquarters city of {s}"},
	},
	"P69": { // educated at: {s} a person, {o} a school
		Facts: []string{
			"{s} studied at {o}.",
			"{s} went to {o}.",
			"{s} is an alumnus of {o}.",
			"{o} is where {s} studied.",
			"~{s} graduated from {o}",
		},
		Questions: []string{"Where did {s} study?", "Which university did {s} attend?"},
		Roles:     []string{"the school {s} attended", "the university where {s} studied"},
	},
	"P136": { // genre: {s} a musician or a band, {o} a genre
		Facts: []string{
			"{s} plays {o}.",
			"{s} makes {o}.",
			"The genre of {s} is {o}.",
			"{s}'s music falls under {o}.",
			"~{s} does {o}",
		},
		Questions: []string{"What genre does {s} play?", "What kind of music does {s} make?"},
		Roles:     []string{"the genre of {s}", "the kind of music {s} plays"},
	},
	"P176": { // manufacturer: {s} a product, {o} a company
		Facts: []string{
			"{s} is made by {o}.",
			"{o} manufactures {s}.",
			"The manufacturer of {s} is {o}.",
			"~{s} is built by {o}",
		},
		Questions: []string{"Who makes {s}?", "Which company manufactures {s}?"},
		Roles:     []string{"the manufacturer of {s}", "the company that makes {s}"},
	},
	"P449": { // original broadcaster: {s} a show, {o} a network
		Facts: []string{
			"{s} originally aired on {o}.",
			"{o} was the original broadcaster of {s}.",
			"{s} was first broadcast by {o}.",
			"~{s} was on {o} originally",
		},
		Questions: []string{"Which network originally aired {s}?", "On which channel did {s} first air?"},
		Roles:     []string{"the network that originally aired {s}", "the original broadcaster of {s}"},
	},
	"P364": { // original language of a film or show: {s} a film, {o} a language
		Facts: []string{
			"{s} was originally made in {o}.",
			"{o} is the original language of {s}.",
			"The original version of {s} is in {o}.",
			"~{s} is originally in {o}",
		},
		Questions: []string{"What language was {s} originally made in?", "In what language was {s} originally released?"},
		Roles:     []string{"the original language of {s}", "the language {s} was originally made in"},
	},
	"P37": { // official language: {s} a country, {o} a language
		Facts: []string{
			"{o} is the official language of {s}.",
			"{s}'s official language is {o}.",
			"In {s}, the official language is {o}.",
			"Official language of {s}: {o}.",
		},
		Questions: []string{"What's the official language of {s}?", "Which language is official in {s}?"},
		Roles:     []string{"the official language of {s}", "{s}'s official language"},
	},
	"P488": { // chairperson: {s} an organization, {o} a person
		Facts: []string{
			"{o} chairs {s}.",
			"{o} is the chair of {s}.",
			"{s} is chaired by {o}.",
			"{o} serves as chairman of {s}.",
			"~{s}'s chair is {o}",
		},
		Questions: []string{"Who chairs {s}?", "Who is the chair of {s}?"},
		Roles:     []string{"the chair of {s}", "the person who chairs {s}"},
	},
	"P169": { // chief executive officer: {s} a company, {o} a person
		Facts: []string{
			"{o} is the CEO of {s}.",
			"{o} runs {s} as chief executive.",
			"{s}'s chief executive is {o}.",
			"{s} is led by its CEO, {o}.",
			"~{o} is ceo at {s}",
		},
		Questions: []string{"Who is the CEO of {s}?", "Who is {s}'s chief executive?", "~who runs {s} as ceo"},
		Roles:     []string{"the CEO of {s}", "the chief executive of {s}"},
	},
	"P1037": { // director or manager: {s} an organization, {o} a person
		Facts: []string{
			"{o} directs {s}.",
			"{o} is the director of {s}.",
			"{s} is managed by {o}.",
			"{o} is in charge of {s}.",
		},
		Questions: []string{"Who directs {s}?", "Who manages {s}?"},
		Roles:     []string{"the director of {s}", "the person who manages {s}"},
	},
	"P50": { // author: {s} a work, {o} a person
		Facts: []string{
			"{s} was written by {o}.",
			"{o} wrote {s}.",
			"{o} is the author of {s}.",
			"{s} is a book by {o}.",
			"~{s} is by {o}",
		},
		Questions: []string{"Who wrote {s}?", "Who is {s} written by?"},
		Roles:     []string{"the author of {s}", "the person who wrote {s}", "the writer of {s}"},
	},
	"P36": { // capital: {s} a country or a region, {o} a city
		Facts: []string{
			"{o} is the capital of {s}.",
			"{s}'s capital city is {o}.",
			"Capital of {s}: {o}.",
			"{s} has its capital in {o}.",
		},
		Questions: []string{"What's the capital city of {s}?", "Which city is the capital of {s}?", "~whats the capital of {s}"},
		Roles:     []string{"the capital of {s}", "{s}'s capital"},
	},
	"P286": { // head coach: {s} a team, {o} a person
		Facts: []string{
			"{o} coaches {s}.",
			"{o} is the head coach of {s}.",
			"{s} is coached by {o}.",
			"{s}'s head coach is {o}.",
			"~{o} is coaching {s} now",
		},
		Questions: []string{"Who coaches {s}?", "Who is the head coach of {s}?"},
		Roles:     []string{"the head coach of {s}", "the coach of {s}"},
	},
	"P190": { // twinned administrative body: {s} a city, {o} a city
		Facts: []string{
			"{s} is twinned with {o}.",
			"{s} and {o} are sister cities.",
			"{o} is {s}'s sister city.",
			"{o} is a twin town of {s}.",
		},
		Questions: []string{"Which city is {s} twinned with?", "What is the sister city of {s}?"},
		Roles:     []string{"the sister city of {s}", "the city twinned with {s}"},
	},
	"P40": { // child: {s} a person, {o} a person
		Facts: []string{
			"{o} is a child of {s}.",
			"{s} is the parent of {o}.",
			"{s} has a child named {o}.",
			"{o} was born to {s}.",
			"~{s}'s kid is {o}",
		},
		Questions: []string{"Who is the child of {s}?", "Who is a child of {s}?", "~who is {s}'s kid"},
		Roles:     []string{"the child of {s}", "{s}'s child"},
	},
	"P19": { // place of birth: {s} a person, {o} a city
		Facts: []string{
			"{s} was born in {o}.",
			"{o} is where {s} was born.",
			"{s}'s birthplace is {o}.",
			"Place of birth of {s}: {o}.",
			"{s} is a native of {o}.",
		},
		Questions: []string{"Where was {s} born?", "What is the birthplace of {s}?", "~which city was {s} born in"},
		Roles:     []string{"the birthplace of {s}", "the city where {s} was born"},
	},
	"P20": { // place of death: {s} a person, {o} a city
		Facts: []string{
			"{s} died in {o}.",
			"{o} is where {s} died.",
			"{s} passed away in {o}.",
			"{s}'s place of death was {o}.",
		},
		Questions: []string{"Where did {s} die?", "In which city did {s} pass away?"},
		Roles:     []string{"the place where {s} died", "the city {s} died in"},
	},
	"P413": { // position played: {s} a player, {o} a position
		Facts: []string{
			"{s} plays as {a_o}.",
			"{s} is {a_o}.",
			"{s}'s position is {o}.",
			"On the field, {s} plays {o}.",
			"~{s} plays {o}",
		},
		Questions: []string{"What's {s}'s position?", "~what does {s} play as"},
		Roles:     []string{"the position {s} plays", "the position played by {s}"},
	},
	"P30": { // continent: {s} a place, {o} a continent
		Facts: []string{
			"{s} is in {o}.",
			"{s} lies in {o}.",
			"{s} is part of {o}.",
			"{o} is the continent where {s} is.",
		},
		Questions: []string{"Which continent is {s} on?", "On what continent is {s} located?", "~what continent is {s} in"},
		Roles:     []string{"the continent {s} is on", "the continent where {s} lies"},
	},
	"P17": { // country: {s} a place or an organization, {o} a country
		Facts: []string{
			"{s} is in {o}.",
			"{s} lies in {o}.",
			"The country of {s} is {o}.",
			"{o} is the country where {s} is located.",
		},
		Questions: []string{"Which country is {s} in?", "In what country is {s} located?"},
		Roles:     []string{"the country {s} is in", "the country where {s} is located"},
	},
	"P937": { // work location: {s} a person, {o} a city
		Facts: []string{
			"{s} worked in {o}.",
			"{s} was based in {o}.",
			"{o} is where {s} worked.",
			"{s}'s place of work was {o}.",
			"~{s} used to work in {o}",
		},
		Questions: []string{"Where did {s} work?", "In which city did {s} work?"},
		Roles:     []string{"the city where {s} worked", "the place {s} worked in"},
	},
	"P26": { // spouse: {s} a person, {o} a person
		Facts: []string{
			"{s} married {o}.",
			"{s}'s spouse is {o}.",
			"{s} and {o} are married.",
			"{o} is married to {s}.",
			"~{s} is {o}'s spouse",
		},
		Questions: []string{"Who's {s} married to?", "Who is the spouse of {s}?", "~who did {s} marry"},
		Roles:     []string{"the spouse of {s}", "the person {s} is married to"},
	},
	"P740": { // location of formation: {s} a band or an organization, {o} a city
		Facts: []string{
			"{s} was formed in {o}.",
			"{s} started out in {o}.",
			"{o} is where {s} was formed.",
			"{s} was established in {o}.",
		},
		Questions: []string{"Where was {s} formed?", "In which city was {s} founded?"},
		Roles:     []string{"the city where {s} was formed", "the place {s} was founded in"},
	},
	"P112": { // founded by: {s} an organization, {o} a person
		Facts: []string{
			"{o} founded {s}.",
			"{s} was started by {o}.",
			"{o} is the founder of {s}.",
			"{s}'s founder is {o}.",
			"{s} was established by {o}.",
		},
		Questions: []string{"Who was {s} founded by?", "Who is the founder of {s}?"},
		Roles:     []string{"the founder of {s}", "the person who founded {s}"},
	},
	"P641": { // sport: {s} a team, a position or a player, {o} a sport
		Facts: []string{
			"{s} plays {o}.",
			"The sport of {s} is {o}.",
			"{s} competes in {o}.",
			"{o} is the sport {s} is associated with.",
			"~{s}'s sport is {o}",
		},
		Questions: []string{"What sport is {s} associated with?", "Which sport does {s} play?"},
		Roles:     []string{"the sport of {s}", "the sport {s} is associated with"},
	},
	"P27": { // country of citizenship: {s} a person, {o} a country
		Facts: []string{
			"{s} is a {o} citizen.",
			"{s} holds citizenship of {o}.",
			"{s} has {o} citizenship.",
			"{s}'s citizenship is {o}.",
			"{s} is a national of {o}.",
		},
		Questions: []string{"Which country is {s} a citizen of?", "What is the citizenship of {s}?", "~what country is {s} a citizen of"},
		Roles:     []string{"the country of citizenship of {s}", "the country {s} is a citizen of"},
	},
	"P175": { // performer: {s} a song or an album, {o} an artist
		Facts: []string{
			"{o} performed {s}.",
			"{s} is performed by {o}.",
			"{s} is a song by {o}.",
			"The performer of {s} is {o}.",
			"~{s} is sung by {o}",
		},
		Questions: []string{"Who was {s} performed by?", "Who is the performer of {s}?", "~who sings {s}"},
		Roles:     []string{"the performer of {s}", "the artist who performed {s}"},
	},
	"P108": { // employer: {s} a person, {o} an organization
		Facts: []string{
			"{s} works for {o}.",
			"{s} works at {o}.",
			"{o} employs {s}.",
			"{s}'s employer is {o}.",
			"{s} is an employee of {o}.",
			"~{s} has a job at {o}",
		},
		Questions: []string{"Who does {s} work for?", "Which company employs {s}?", "Where does {s} work?"},
		Roles:     []string{"the employer of {s}", "the company {s} works for"},
	},
	"P1412": { // languages spoken: {s} a person, {o} a language
		Facts: []string{
			"{s} speaks {o}.",
			"{s} is fluent in {o}.",
			"{s} can speak {o}.",
			"{o} is a language {s} speaks.",
			"{s} is a speaker of {o}.",
		},
		Questions: []string{"What language can {s} speak?", "Which language is {s} fluent in?"},
		Roles:     []string{"the language {s} speaks", "the language spoken by {s}"},
	},
	"P800": { // notable work: {s} a person, {o} a work
		Facts: []string{
			"{s} is best known for {o}.",
			"{s}'s most famous work is {o}.",
			"{o} is the work {s} is known for.",
			"{s} is known for {o}.",
			"~{s} is famous because of {o}",
		},
		Questions: []string{"Which work is {s} known for?", "What is {s} best known for?"},
		Roles:     []string{"the most famous work of {s}", "the work {s} is best known for"},
	},
	"P495": { // country of origin: {s} a work or a product, {o} a country
		Facts: []string{
			"{s} comes from {o}.",
			"{s} originated in {o}.",
			"{s} was made in {o}.",
			"The country of origin of {s} is {o}.",
			"{s} is from {o}.",
		},
		Questions: []string{"Which country does {s} come from?", "What is the country of origin of {s}?"},
		Roles:     []string{"the country of origin of {s}", "the country {s} comes from"},
	},
	"P170": { // creator: {s} a work, {o} a person
		Facts: []string{
			"{o} created {s}.",
			"{s} is the creation of {o}.",
			"{o} is the creator of {s}.",
			"{s} was made by {o}.",
			"~{s}'s creator is {o}",
		},
		Questions: []string{"Who created {s}?", "Who is the creator of {s}?"},
		Roles:     []string{"the creator of {s}", "the person who created {s}"},
	},
	"P140": { // religion or worldview: {s} a person, {o} a religion
		Facts: []string{
			"{s} follows {o}.",
			"{s} practices {o}.",
			"{s}'s religion is {o}.",
			"{s} is an adherent of {o}.",
			"{s}'s faith is {o}.",
		},
		Questions: []string{"What religion does {s} follow?", "What is the religion of {s}?", "~whats {s}'s faith"},
		Roles:     []string{"the religion of {s}", "the religion {s} follows"},
	},
	"P106": { // occupation: {s} a person, {o} an occupation
		Facts: []string{
			"{s} is {a_o}.",
			"By profession, {s} is {a_o}.",
			"{s}'s occupation is {o}.",
			"{s} makes a living as {a_o}.",
			"~{s} is {a_o} by trade",
		},
		Questions: []string{"What does {s} do for a living?", "What is the occupation of {s}?", "~whats {s}'s job"},
		Roles:     []string{"the occupation of {s}", "{s}'s profession"},
	},
	"P178": { // developer: {s} software or a game, {o} a company
		Facts: []string{
			"{o} developed {s}.",
			"The developer of {s} is {o}.",
			"{o} is the developer behind {s}.",
			"{s}'s developer is {o}.",
		},
		Questions: []string{"Who developed {s}?", "Which company is the developer of {s}?"},
		Roles:     []string{"the developer of {s}", "the company that developed {s}"},
	},
	"P407": { // language of work: {s} a work, {o} a language
		Facts: []string{
			"{s} is written in {o}.",
			"{s} is in {o}.",
			"The language of {s} is {o}.",
			"{o} is the language {s} was written in.",
		},
		Questions: []string{"What language is {s} written in?", "In which language was {s} written?"},
		Roles:     []string{"the language of {s}", "the language {s} is written in"},
	},
	"P127": { // owned by: {s} a thing or an organization, {o} its owner
		Facts: []string{
			"{o} owns {s}.",
			"{s} belongs to {o}.",
			"{s}'s owner is {o}.",
			"{s} is the property of {o}.",
			"~{s} is owned by {o} now",
		},
		Questions: []string{"Who owns {s}?", "Who is the owner of {s}?"},
		Roles:     []string{"the owner of {s}", "the one who owns {s}"},
	},
	"P264": { // record label: {s} an artist, {o} a label
		Facts: []string{
			"{s} is signed to {o}.",
			"{s}'s record label is {o}.",
			"{s} records for {o}.",
			"{o} is the label of {s}.",
			"~{s} is on {o}",
		},
		Questions: []string{"What record label is {s} signed to?", "Which label is {s} on?"},
		Roles:     []string{"the record label of {s}", "the label {s} is signed to"},
	},
	"P463": { // member of: {s} a person, an organization or a country, {o} an organization
		Facts: []string{
			"{s} belongs to {o}.",
			"{s} is part of {o}.",
			"{s} is one of the members of {o}.",
			"{s} holds membership of {o}.",
		},
		Questions: []string{"What organization is {s} a member of?", "Which group does {s} belong to?"},
		Roles:     []string{"the organization {s} is a member of", "the group {s} belongs to"},
	},
	"P131": { // located in the administrative territorial entity: {s} a place, {o} a region
		Facts: []string{
			"{s} is in {o}.",
			"{s} lies in {o}.",
			"{s} is situated in {o}.",
			"{s} is part of {o}.",
		},
		Questions: []string{"Where is {s} located?", "What is {s} located in?"},
		Roles:     []string{"the place where {s} is located", "the region {s} is in"},
	},
	"P1308": { // officeholder: {s} an office ("Prime Minister of Sweden"), {o} a person
		Facts: []string{
			"{o} is the current {s}.",
			"{o} serves as {s}.",
			"The office of {s} is held by {o}.",
			"{o} holds the office of {s}.",
			"~the current {s} is {o}",
		},
		Questions: []string{"Who currently holds the office of {s}?", "Who is serving as {s}?"},
		Roles:     []string{"the current {s}", "the person holding the office of {s}"},
	},
}

// init puts the fresh, the blind and the everyday pools beside the dev and check pools of each relation.
func init() {
	for i := range factRelations {
		r := &factRelations[i]
		f := freshPhrasings[r.ID]
		r.Facts.Fresh, r.Questions.Fresh, r.Roles.Fresh = f.Facts, f.Questions, f.Roles
		b := blindPhrasings[r.ID]
		r.Facts.Blind, r.Questions.Blind, r.Roles.Blind = b.Facts, b.Questions, b.Roles
		e := everydayPhrasings[r.ID]
		r.Facts.Everyday, r.Questions.Everyday, r.Roles.Everyday = e.Facts, e.Questions, e.Roles
	}
}
