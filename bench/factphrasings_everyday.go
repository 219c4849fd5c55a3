package bench

// This file is evaluation data, not product code: a fifth pool of phrasings of FactConsolidation's relations
// (see factphrasings.go for the placeholders and the "~" mark), written in the twenty-seventh session before
// running the extractor on any of it and without reading the check pool. Where the fresh and blind pools
// looked for forms the others used little, this one is what a person who knows the fact most often says: the
// relation's common verb or noun first ("X was founded by Y", "X is married to Y"), then an everyday variant
// ("X tied the knot with Y", "X came into the world in Y", "X releases music on Y"), a sentence with an
// adverbial or an apposition around the fact, and chat. Its first measurement is a first contact; after that
// it is a development pool like fresh and blind, and the check pool stays the held-out one.

// everydayPhrasings holds the everyday pool, keyed by the relation's Wikidata property id.
var everydayPhrasings = map[string]freshRelationPhrasings{
	"P35": { // head of state: {s} a country, {o} a person
		Facts: []string{
			"At the moment {o} is the head of state of {s}.",
			"{o}, the head of state of {s}, gave a speech today.",
			"The role of head of state in {s} is filled by {o}.",
			"~{o} is head of state over in {s}",
		},
		Questions: []string{"Do you know who the head of state of {s} is?", "Who is {s}'s head of state at present?", "~who's head of state in {s} these days"},
		Roles:     []string{"whoever is head of state of {s}", "the current head of state of {s}"},
	},
	"P6": { // head of government: {s} a country or a city, {o} a person
		Facts: []string{
			"{o} is the one heading the government in {s}.",
			"{s} is governed by {o}, its head of government.",
			"The head of government of {s} these days is {o}.",
			"~{o} runs the government in {s}",
		},
		Questions: []string{"Who is at the head of the government of {s}?", "Do you know who heads the government in {s}?", "~who runs the government in {s}"},
		Roles:     []string{"whoever heads the government of {s}", "the head of the government in {s}"},
	},
	"P159": { // headquarters location: {s} an organization, {o} a city
		Facts: []string{
			"{s} has its headquarters in {o}.",
			"{s} is headquartered in the city of {o}.",
			"The head office of {s} can be found in {o}.",
			"~{s} hq is in {o}",
		},
		Questions: []string{"In which city does {s} have its headquarters?", "Where is {s} headquartered?", "~where's {s}'s head office"},
		Roles:     []string{"the city where {s} has its headquarters", "the city {s} is headquartered in"},
	},
	"P69": { // educated at: {s} a person, {o} a school
		Facts: []string{
			"{s} studied at {o}.",
			"{s} went to school at {o}.",
			"{s} is a graduate of {o}.",
			"{s} did their studies at {o}.",
			"~{s} went to {o}",
		},
		Questions: []string{"Where did {s} study?", "Which school did {s} graduate from?", "~where did {s} go to school"},
		Roles:     []string{"the school where {s} studied", "{s}'s alma mater"},
	},
	"P136": { // genre: {s} a musician or a band, {o} a genre
		Facts: []string{
			"{s} plays {o}.",
			"{s}'s style is {o}.",
			"{s} is best described as {a_o} artist.",
			"The genre {s} works in is {o}.",
			"~{s} does {o} mostly",
		},
		Questions: []string{"What genre does {s} play?", "Which genre is {s} associated with?", "~what kind of music is {s}"},
		Roles:     []string{"the genre {s} plays", "the style of music {s} performs"},
	},
	"P176": { // manufacturer: {s} a product, {o} a company
		Facts: []string{
			"{s} is manufactured by {o}.",
			"{o} produces {s}.",
			"{s} is a product of {o}.",
			"It is {o} that makes {s}.",
			"~{s} is made by {o}",
		},
		Questions: []string{"Which company manufactures {s}?", "Who produces {s}?", "~who makes {s}"},
		Roles:     []string{"the manufacturer of {s}", "the company that produces {s}"},
	},
	"P449": { // original broadcaster: {s} a show, {o} a network
		Facts: []string{
			"{s} was originally shown on {o}.",
			"{o} was the network that first broadcast {s}.",
			"{s} debuted on {o}.",
			"~{s} originally ran on {o}",
		},
		Questions: []string{"On which network was {s} first shown?", "Which channel originally broadcast {s}?", "~what channel did {s} air on"},
		Roles:     []string{"the network that originally showed {s}", "the channel {s} debuted on"},
	},
	"P364": { // original language of a film or show: {s} a film, {o} a language
		Facts: []string{
			"{s} was filmed in {o}.",
			"The original language of {s} is {o}.",
			"{s} is {a_o}-language film.",
			"~{s} is in {o} originally",
		},
		Questions: []string{"What language was {s} originally made in?", "In what language was {s} filmed?", "~what language is {s} in"},
		Roles:     []string{"the original language of {s}", "the language {s} was filmed in"},
	},
	"P37": { // official language: {s} a country, {o} a language
		Facts: []string{
			"{s}'s official language is {o}.",
			"{o} is the official language in {s}.",
			"In {s}, {o} has official status.",
			"~they speak {o} officially in {s}",
		},
		Questions: []string{"Which language does {s} use officially?", "Which language has official status in {s}?", "~whats the official language in {s}"},
		Roles:     []string{"the official language of {s}", "the language with official status in {s}"},
	},
	"P488": { // chairperson: {s} an organization, {o} a person
		Facts: []string{
			"{o} chairs {s}.",
			"{o} is the chairman of {s}.",
			"{s} is chaired by {o}.",
			"{o} serves as chair of the board at {s}.",
			"~{o} is chair at {s}",
		},
		Questions: []string{"Who chairs {s}?", "Who is the chairperson of {s}?", "~who's the chair of {s}"},
		Roles:     []string{"the chair of {s}", "the person who chairs {s}"},
	},
	"P169": { // chief executive officer: {s} a company, {o} a person
		Facts: []string{
			"{o} is the CEO of {s}.",
			"{s}'s chief executive is {o}.",
			"{o} took over as chief executive of {s}.",
			"~{o} is ceo at {s}",
		},
		Questions: []string{"Who is the CEO of {s}?", "Who serves as chief executive of {s}?", "~who runs {s} as ceo"},
		Roles:     []string{"the CEO of {s}", "the chief executive of {s}"},
	},
	"P1037": { // director or manager: {s} an organization, {o} a person
		Facts: []string{
			"{o} is the director of {s}.",
			"{s} is managed by {o}.",
			"{o} is in charge of running {s}.",
			"~{o} manages {s} now",
		},
		Questions: []string{"Who is the director of {s}?", "Who manages {s}?", "~who's in charge of {s}"},
		Roles:     []string{"the director of {s}", "the person who manages {s}"},
	},
	"P50": { // author: {s} a work, {o} a person
		Facts: []string{
			"{s} was written by {o}.",
			"{o} is the author of {s}.",
			"{o} wrote {s}.",
			"{s} is a book by {o}.",
			"~{s} is by {o}",
		},
		Questions: []string{"Who wrote {s}?", "Who is the author of {s}?", "~do you know who wrote {s}"},
		Roles:     []string{"the author of {s}", "the person who wrote {s}"},
	},
	"P36": { // capital: {s} a country or a region, {o} a city
		Facts: []string{
			"{o} is the capital of {s}.",
			"The capital city of {s} is {o}.",
			"{s}'s capital is {o}.",
			"~capital of {s} is {o}",
		},
		Questions: []string{"What is the capital of {s}?", "Which city is the capital of {s}?", "~whats {s}'s capital"},
		Roles:     []string{"the capital of {s}", "{s}'s capital city"},
	},
	"P286": { // head coach: {s} a team, {o} a person
		Facts: []string{
			"{o} coaches {s}.",
			"{s} is coached by {o}.",
			"{o} is the head coach of {s}.",
			"{o} is in charge of {s} as head coach.",
			"~{o} is coaching {s}",
		},
		Questions: []string{"Who coaches {s}?", "Who is the head coach of {s}?", "~whos coaching {s}"},
		Roles:     []string{"the head coach of {s}", "the coach of {s}"},
	},
	"P190": { // twinned administrative body: {s} a city, {o} a city
		Facts: []string{
			"{s} is twinned with {o}.",
			"{o} is a sister city of {s}.",
			"{s} and {o} are twin towns.",
			"{s}'s twin city is {o}.",
			"~{s}'s sister city is {o}",
		},
		Questions: []string{"Which city is {s} twinned with?", "What is the sister city of {s}?", "~whats {s}'s twin town"},
		Roles:     []string{"the twin city of {s}", "the city {s} is twinned with"},
	},
	"P40": { // child: {s} a person, {o} a person
		Facts: []string{
			"{o} is {s}'s child.",
			"{s} is the parent of {o}.",
			"{s} has a child, {o}.",
			"{o} was born to {s}.",
			"~{o} is {s}'s kid",
		},
		Questions: []string{"Who is {s}'s child?", "Who is the child of {s}?", "~who is {s}'s kid"},
		Roles:     []string{"the child of {s}", "{s}'s child"},
	},
	"P19": { // place of birth: {s} a person, {o} a city
		Facts: []string{
			"{s} was born in {o}.",
			"{o} is the birthplace of {s}.",
			"{s} is a native of {o}.",
			"{s} came into the world in {o}.",
			"~{s} born in {o}",
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
			"~{s} died over in {o}",
		},
		Questions: []string{"Where did {s} die?", "In which city did {s} pass away?", "~where did {s} pass away"},
		Roles:     []string{"the place where {s} died", "the city {s} died in"},
	},
	"P413": { // position played: {s} a player, {o} a position
		Facts: []string{
			"{s} plays as {a_o}.",
			"{s} plays in the {o} position.",
			"{s}'s position is {o}.",
			"{s} lines up at {o}.",
			"~{s} plays {o}",
		},
		Questions: []string{"What position does {s} play?", "Which position does {s} play in?", "~what does {s} play"},
		Roles:     []string{"the position {s} plays", "the position played by {s}"},
	},
	"P30": { // continent: {s} a place, {o} a continent
		Facts: []string{
			"{s} is located on the continent of {o}.",
			"{s} is in {o}.",
			"{s} belongs to {o}, geographically speaking.",
			"~{s} is over in {o}",
		},
		Questions: []string{"Which continent is {s} located on?", "What continent is {s} part of?", "~{s} is on which continent"},
		Roles:     []string{"the continent {s} is on", "the continent where {s} is located"},
	},
	"P17": { // country: {s} a place or an organization, {o} a country
		Facts: []string{
			"{s} is in the country of {o}.",
			"{s} is located in {o}.",
			"The country {s} belongs to is {o}.",
			"~{s}, that's in {o}",
		},
		Questions: []string{"Which country is {s} in?", "In what country is {s} located?", "~what country is {s} in"},
		Roles:     []string{"the country {s} is in", "the country where {s} is located"},
	},
	"P937": { // work location: {s} a person, {o} a city
		Facts: []string{
			"{s} works in {o}.",
			"{s}'s place of work is {o}.",
			"{s} is based in {o} for work.",
			"~{s} works out of {o}",
		},
		Questions: []string{"In which city does {s} work?", "Where is {s}'s workplace?", "~what city does {s} work in"},
		Roles:     []string{"the city where {s} works", "{s}'s place of work"},
	},
	"P26": { // spouse: {s} a person, {o} a person
		Facts: []string{
			"{s} is married to {o}.",
			"{s}'s spouse is {o}.",
			"{s} married {o}.",
			"{s} tied the knot with {o}.",
			"~{s} and {o} are married",
		},
		Questions: []string{"Who is {s} married to?", "Who is the spouse of {s}?", "~who did {s} marry"},
		Roles:     []string{"the spouse of {s}", "the person {s} is married to"},
	},
	"P740": { // location of formation: {s} a band or an organization, {o} a city
		Facts: []string{
			"{s} was formed in {o}.",
			"{s} was founded in {o}.",
			"{s} got together in {o}.",
			"{o} is where {s} was formed.",
			"~{s} started out in {o}",
		},
		Questions: []string{"Where was {s} formed?", "In which city was {s} founded?", "~where did {s} start out"},
		Roles:     []string{"the city where {s} was formed", "the place {s} was founded in"},
	},
	"P112": { // founded by: {s} an organization, {o} a person
		Facts: []string{
			"{s} was founded by {o}.",
			"{o} founded {s}.",
			"{o} is the founder of {s}.",
			"{s} was established by {o}.",
			"~{o} started {s}",
		},
		Questions: []string{"Who founded {s}?", "Who established {s}?", "~who's the founder of {s}"},
		Roles:     []string{"the founder of {s}", "the person who established {s}"},
	},
	"P641": { // sport: {s} a team, a position or a player, {o} a sport
		Facts: []string{
			"{s} plays {o}.",
			"{s} is part of the sport of {o}.",
			"The sport of {s} is {o}.",
			"{s} is associated with {o}.",
			"~{s} is a {o} thing",
		},
		Questions: []string{"What sport does {s} play?", "Which sport is {s} associated with?", "~what sport is {s}"},
		Roles:     []string{"the sport {s} plays", "the sport associated with {s}"},
	},
	"P27": { // country of citizenship: {s} a person, {o} a country
		Facts: []string{
			"{s} is a citizen of {o}.",
			"{s} holds citizenship of {o}.",
			"{s} has {o} nationality.",
			"{s} is a national of {o}.",
			"~{s} has citizenship in {o}",
		},
		Questions: []string{"Which country is {s} a citizen of?", "What is {s}'s nationality?", "~where is {s} a citizen"},
		Roles:     []string{"the country {s} is a citizen of", "the country of {s}'s citizenship"},
	},
	"P175": { // performer: {s} a song or an album, {o} an artist
		Facts: []string{
			"{s} is performed by {o}.",
			"{o} performs {s}.",
			"{s} is a track by {o}.",
			"The artist behind {s} is {o}.",
			"~{s} is {o}'s song",
		},
		Questions: []string{"Who performs {s}?", "Which artist is behind {s}?", "~who sang {s}"},
		Roles:     []string{"the performer of {s}", "the artist behind {s}"},
	},
	"P108": { // employer: {s} a person, {o} an organization
		Facts: []string{
			"{s} works for {o}.",
			"{s} is employed by {o}.",
			"{o} employs {s}.",
			"{s} has been working at {o}.",
			"~{s} works at {o}",
		},
		Questions: []string{"Who does {s} work for?", "Who employs {s}?", "~where does {s} work"},
		Roles:     []string{"the employer of {s}", "the company {s} works for"},
	},
	"P1412": { // languages spoken: {s} a person, {o} a language
		Facts: []string{
			"{s} speaks {o}.",
			"{s} is fluent in {o}.",
			"{o} is a language {s} speaks.",
			"{s} can speak {o}.",
			"~{s} speaks {o} fluently",
		},
		Questions: []string{"What language does {s} speak?", "Which language is {s} fluent in?", "~which language can {s} speak"},
		Roles:     []string{"the language {s} speaks", "the language that {s} is fluent in"},
	},
	"P800": { // notable work: {s} a person, {o} a work
		Facts: []string{
			"{s} is famous for {o}.",
			"{s}'s best-known work is {o}.",
			"{o} is the most famous work of {s}.",
			"{s} is best known for {o}.",
			"~{s} is known for {o}",
		},
		Questions: []string{"What is {s} best known for?", "What is the most famous work of {s}?", "~whats {s} famous for"},
		Roles:     []string{"the best-known work of {s}", "the work {s} is famous for"},
	},
	"P495": { // country of origin: {s} a work or a product, {o} a country
		Facts: []string{
			"{s} comes from {o}.",
			"{s} originated in {o}.",
			"{s}'s country of origin is {o}.",
			"{s} was created in {o}.",
			"~{s} is from {o}",
		},
		Questions: []string{"Which country does {s} come from?", "What is the country of origin of {s}?", "~where is {s} from"},
		Roles:     []string{"the country {s} comes from", "the country of origin of {s}"},
	},
	"P170": { // creator: {s} a work, {o} a person
		Facts: []string{
			"{s} was created by {o}.",
			"{o} created {s}.",
			"{o} is the creator of {s}.",
			"{s} was invented by {o}.",
			"~{o} came up with {s}",
		},
		Questions: []string{"Who created {s}?", "Who is the creator of {s}?", "~who came up with {s}"},
		Roles:     []string{"the creator of {s}", "the person who created {s}"},
	},
	"P140": { // religion or worldview: {s} a person, {o} a religion
		Facts: []string{
			"{s} follows {o}.",
			"{s} practises {o}.",
			"{s}'s religion is {o}.",
			"{s} is an adherent of {o}.",
			"~{s} believes in {o}",
		},
		Questions: []string{"What religion does {s} follow?", "What is the religion of {s}?", "~whats {s}'s religion"},
		Roles:     []string{"the religion {s} follows", "the faith of {s}"},
	},
	"P106": { // occupation: {s} a person, {o} an occupation
		Facts: []string{
			"{s} works as {a_o}.",
			"{s} is {a_o} by profession.",
			"{s}'s occupation is {o}.",
			"{s} earns a living as {a_o}.",
			"~{s} is {a_o}",
		},
		Questions: []string{"What does {s} do for work?", "What is the occupation of {s}?", "~whats {s}'s job"},
		Roles:     []string{"the occupation of {s}", "{s}'s profession"},
	},
	"P178": { // developer: {s} software or a game, {o} a company
		Facts: []string{
			"{s} was developed by {o}.",
			"{o} developed {s}.",
			"{o} is the developer of {s}.",
			"{s} is made by the developers at {o}.",
			"~{s} was developed at {o}",
		},
		Questions: []string{"Who developed {s}?", "Which company is the developer of {s}?", "~who develops {s}"},
		Roles:     []string{"the developer of {s}", "the company that developed {s}"},
	},
	"P407": { // language of work: {s} a work, {o} a language
		Facts: []string{
			"{s} was originally written in {o}.",
			"The language of {s} is {o}.",
			"{o} is the language {s} is written in.",
			"~{s} is in {o}",
		},
		Questions: []string{"In what language was {s} written?", "What is the language of {s}?", "~what language is {s} written in"},
		Roles:     []string{"the language of {s}", "the language {s} was written in"},
	},
	"P127": { // owned by: {s} a thing or an organization, {o} its owner
		Facts: []string{
			"{s} is owned by {o}.",
			"{o} owns {s}.",
			"{o} is the owner of {s}.",
			"{s} is in the hands of {o}.",
			"~{s} is owned by {o} now",
		},
		Questions: []string{"Who owns {s}?", "Who is the owner of {s}?", "~who owns {s} now"},
		Roles:     []string{"the owner of {s}", "the company that owns {s}"},
	},
	"P264": { // record label: {s} an artist, {o} a label
		Facts: []string{
			"{s} is signed to {o}.",
			"{s} records for {o}.",
			"{s}'s record label is {o}.",
			"{s} releases music on {o}.",
			"~{s} is on {o}",
		},
		Questions: []string{"Which label is {s} signed to?", "What is the record label of {s}?", "~what label is {s} on"},
		Roles:     []string{"the record label of {s}", "the label {s} is signed to"},
	},
	"P463": { // member of: {s} a person, an organization or a country, {o} an organization
		Facts: []string{
			"{s} is a member of {o}.",
			"{s} belongs to {o}.",
			"{s} has membership in {o}.",
			"{s} joined {o}.",
			"~{s} is part of {o}",
		},
		Questions: []string{"Which organization is {s} a member of?", "What group does {s} belong to?", "~what is {s} a member of"},
		Roles:     []string{"the organization {s} is a member of", "the group {s} belongs to"},
	},
	"P131": { // located in the administrative territorial entity: {s} a place, {o} a region
		Facts: []string{
			"{s} is located in {o}.",
			"{s} lies within {o}.",
			"{s} is a part of {o}.",
			"{s} can be found in {o}.",
			"~{s} is in {o}",
		},
		Questions: []string{"Where is {s} located?", "Which region is {s} in?", "~where is {s}"},
		Roles:     []string{"the region {s} is in", "the place where {s} is located"},
	},
	"P1308": { // officeholder: {s} an office ("Prime Minister of Sweden"), {o} a person
		Facts: []string{
			"{o} is {s}.",
			"The {s} is {o}.",
			"{o} holds the position of {s}.",
			"{o} was appointed {s}.",
			"~{o} is {s} now",
		},
		Questions: []string{"Who is {s}?", "Who holds the position of {s}?", "~who's the {s} now"},
		Roles:     []string{"the {s}", "the person who holds the position of {s}"},
	},
}
