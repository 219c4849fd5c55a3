package bench

// This file is evaluation data, not product code: a fourth pool of phrasings of FactConsolidation's relations
// (see factphrasings.go for the placeholders and the "~" mark), written blind in the thirteenth session — before
// running the extractor on any of it, by a developer who had read neither the check pool nor this pool's
// rows in any report — in the forms people use that the other pools use little: light verbs and office
// nouns ("holds the post of"), adjectives for places ("the Norwegian head of state"), a kind noun before a
// name ("the band X"), a relational noun after another preposition ("the head coach at X"), "is a/an … of",
// payroll and workplace idioms, and chat. Its first measurement is a first contact; after that it is a
// development pool like dev and fresh, and the check pool stays the held-out one.

// blindPhrasings holds the blind pool, keyed by the relation's Wikidata property id.
var blindPhrasings = map[string]freshRelationPhrasings{
	"P35": { // head of state: {s} a country, {o} a person
		Facts: []string{
			"{o} holds the post of head of state in {s}.",
			"The head of state in {s} is currently {o}.",
			"{s} has {o} as its head of state.",
		},
		Questions: []string{"Who holds the post of head of state in {s}?", "~who's the head of state in {s} now"},
		Roles:     []string{"the person who is head of state in {s}", "{s}'s present head of state"},
	},
	"P6": {
		Facts: []string{
			"{o} governs {s} as its head of government.",
			"{s}'s government is headed by {o}.",
			"{o} is in charge of the government of {s}.",
		},
		Questions: []string{"Who is in charge of the government of {s}?", "Who heads {s}'s government?"},
		Roles:     []string{"the person heading the government of {s}", "{s}'s head of government"},
	},
	"P159": {
		Facts: []string{
			"{s}'s main offices are located in {o}.",
			"{o} is home to the headquarters of {s}.",
			"{s} is based in {o}.",
		},
		Questions: []string{"Which city is home to the headquarters of {s}?", "Where are the main offices of {s}?"},
		Roles:     []string{"the city where {s} has its main offices", "the home city of {s}'s headquarters"},
	},
	"P69": {
		Facts: []string{
			"{s} earned a degree at {o}.",
			"{s} attended {o}.",
			"{s} got an education at {o}.",
		},
		Questions: []string{"Which school did {s} attend?", "Where did {s} get a degree?"},
		Roles:     []string{"the school {s} went to", "the institution where {s} was educated"},
	},
	"P136": {
		Facts: []string{
			"{s} is known for {o}.",
			"The music of {s} falls under {o}.",
			"{s} is a {o} act.",
		},
		Questions: []string{"What kind of music does {s} make?", "Which genre does the music of {s} fall under?"},
		Roles:     []string{"the genre {s} is known for", "the style of music of {s}"},
	},
	"P176": {
		Facts: []string{
			"{o} is the maker of {s}.",
			"{s} is built by {o}.",
			"{s} comes out of the factories of {o}.",
		},
		Questions: []string{"Who makes {s}?", "Which company builds {s}?"},
		Roles:     []string{"the company that makes {s}", "the maker of {s}"},
	},
	"P449": {
		Facts: []string{
			"{s} first aired on {o}.",
			"{o} originally broadcast {s}.",
			"{s} premiered on {o}.",
		},
		Questions: []string{"Which network first aired {s}?", "Where did {s} premiere?"},
		Roles:     []string{"the network that first aired {s}", "the channel {s} premiered on"},
	},
	"P364": {
		Facts: []string{
			"{s} was originally made in {o}.",
			"{s} was shot in {o}.",
			"The dialogue of {s} is in {o}.",
		},
		Questions: []string{"In what language was {s} originally made?", "What language is the dialogue of {s} in?"},
		Roles:     []string{"the language {s} was made in", "the language of the dialogue of {s}"},
	},
	"P37": {
		Facts: []string{
			"{o} is an official language of {s}.",
			"The language used officially in {s} is {o}.",
			"In {s} the official language is {o}.",
		},
		Questions: []string{"What language is used officially in {s}?", "Which language is official in {s}?"},
		Roles:     []string{"the language used officially in {s}", "the official tongue of {s}"},
	},
	"P488": {
		Facts: []string{
			"{o} chairs the board of {s}.",
			"{o} is the chairperson of {s}.",
			"The board of {s} is chaired by {o}.",
		},
		Questions: []string{"Who chairs the board of {s}?", "Who is {s}'s chairperson?"},
		Roles:     []string{"the chairperson of {s}", "the person chairing {s}'s board"},
	},
	"P169": {
		Facts: []string{
			"{s} is run by {o} as chief executive.",
			"The chief executive of {s} is {o}.",
			"{o} is {s}'s top executive.",
		},
		Questions: []string{"Who is the chief executive of {s}?", "Who runs {s} as chief executive?"},
		Roles:     []string{"the chief executive of {s}", "the person running {s} as chief executive"},
	},
	"P1037": {
		Facts: []string{
			"{s} is directed by {o}.",
			"{o} manages {s}.",
			"{o} has been put in charge of {s}.",
		},
		Questions: []string{"Who directs {s}?", "Who is in charge of {s}?"},
		Roles:     []string{"the person in charge of {s}", "the director of {s}"},
	},
	"P50": {
		Facts: []string{
			"{s} was penned by {o}.",
			"{o} wrote {s}.",
			"{s} is a book by {o}.",
		},
		Questions: []string{"Who penned {s}?", "Who is the writer of {s}?"},
		Roles:     []string{"the writer of {s}", "the person who penned {s}"},
	},
	"P36": {
		Facts: []string{
			"{o} serves as the capital of {s}.",
			"The seat of government of {s} is {o}.",
			"{s} has its capital in {o}.",
		},
		Questions: []string{"Which city serves as the capital of {s}?", "~whats the capital city of {s}"},
		Roles:     []string{"the capital city of {s}", "the city serving as capital of {s}"},
	},
	"P286": {
		Facts: []string{
			"{s} is coached by {o}.",
			"The head coach at {s} is {o}.",
			"{o} took over as coach of {s}.",
		},
		Questions: []string{"Who coaches {s}?", "Who is the head coach at {s}?"},
		Roles:     []string{"the coach of {s}", "the person coaching {s}"},
	},
	"P190": {
		Facts: []string{
			"{s} has a sister city relationship with {o}.",
			"{s} and {o} are sister cities.",
			"{s}'s twin town is {o}.",
		},
		Questions: []string{"Which city is {s}'s sister city?", "What is the twin town of {s}?"},
		Roles:     []string{"the sister city of {s}", "the town twinned with {s}"},
	},
	"P40": {
		Facts: []string{
			"{s} is the father of {o}.",
			"{o} is a child of {s}.",
			"{s} has a kid named {o}.",
		},
		Questions: []string{"Who is a child of {s}?", "What is the name of {s}'s kid?"},
		Roles:     []string{"the child of {s}", "{s}'s kid"},
	},
	"P19": {
		Facts: []string{
			"{s} came into the world in {o}.",
			"{o} is the town where {s} was born.",
			"{s} is a native of {o}.",
		},
		Questions: []string{"In which town did {s} come into the world?", "~where was {s} born"},
		Roles:     []string{"the town where {s} was born", "the place of birth of {s}"},
	},
	"P20": {
		Facts: []string{
			"{s} passed away in {o}.",
			"{s}'s life ended in {o}.",
			"{o} is where {s} died.",
		},
		Questions: []string{"Where did {s} pass away?", "In which city did {s}'s life end?"},
		Roles:     []string{"the city where {s} passed away", "the place of death of {s}"},
	},
	"P413": {
		Facts: []string{
			"{s} plays as a {o}.",
			"{s}'s position on the field is {o}.",
			"On the field, {s} lines up at {o}.",
		},
		Questions: []string{"What position does {s} play on the field?", "Where does {s} line up on the field?"},
		Roles:     []string{"the position {s} plays", "{s}'s position on the field"},
	},
	"P30": {
		Facts: []string{
			"{s} lies on the continent of {o}.",
			"{s} is part of {o}.",
			"{s} is a place in {o}.",
		},
		Questions: []string{"On which continent does {s} lie?", "~what continent is {s} on"},
		Roles:     []string{"the continent {s} lies on", "the continent that {s} is part of"},
	},
	"P17": {
		Facts: []string{
			"{s} stands in {o}.",
			"{s} is a landmark of {o}.",
			"You will find {s} in {o}.",
		},
		Questions: []string{"Which country does {s} stand in?", "In what country will you find {s}?"},
		Roles:     []string{"the country {s} is in", "the country where you find {s}"},
	},
	"P937": {
		Facts: []string{
			"{s} works out of {o}.",
			"{s}'s workplace is in {o}.",
			"{s} does most of the work in {o}.",
		},
		Questions: []string{"Which city does {s} work out of?", "Where is {s}'s workplace?"},
		Roles:     []string{"the city {s} works out of", "the city where {s} works"},
	},
	"P26": {
		Facts: []string{
			"{s} is wed to {o}.",
			"{s}'s partner in marriage is {o}.",
			"{s} and {o} are husband and wife.",
		},
		Questions: []string{"Who is {s} wed to?", "Who is the partner in marriage of {s}?"},
		Roles:     []string{"the person {s} is wed to", "the husband or wife of {s}"},
	},
	"P740": {
		Facts: []string{
			"{s} was formed in {o}.",
			"{s} got its start in {o}.",
			"{s} was put together in {o}.",
		},
		Questions: []string{"Where was {s} formed?", "In which city did {s} get its start?"},
		Roles:     []string{"the city where {s} was formed", "the place {s} got its start"},
	},
	"P112": {
		Facts: []string{
			"{s} was started by {o}.",
			"{o} set up {s}.",
			"{o} is the person behind the founding of {s}.",
		},
		Questions: []string{"Who started {s}?", "Who set up {s}?"},
		Roles:     []string{"the person who set up {s}", "the founder of {s}"},
	},
	"P641": {
		Facts: []string{
			"{s} competes in {o}.",
			"{s} is involved in {o}.",
			"{s} belongs to the world of {o}.",
		},
		Questions: []string{"Which sport does {s} compete in?", "~what sport is {s} in"},
		Roles:     []string{"the sport {s} competes in", "the sport of {s}"},
	},
	"P27": {
		Facts: []string{
			"{s} holds a passport from {o}.",
			"{s} is a national of {o}.",
			"{s} has citizenship in {o}.",
		},
		Questions: []string{"Which country is {s} a national of?", "Where does {s} hold citizenship?"},
		Roles:     []string{"the country {s} is a national of", "the country of {s}'s passport"},
	},
	"P175": {
		Facts: []string{
			"{s} is a song by {o}.",
			"{s} was recorded by {o}.",
			"{o} sings {s}.",
		},
		Questions: []string{"Who recorded {s}?", "Who sings {s}?"},
		Roles:     []string{"the artist who recorded {s}", "the singer of {s}"},
	},
	"P108": {
		Facts: []string{
			"{s} is on the payroll of {o}.",
			"{s} is an employee of {o}.",
			"{s} has a job with {o}.",
		},
		Questions: []string{"Who is {s} an employee of?", "Which company does {s} have a job with?"},
		Roles:     []string{"the company {s} has a job with", "the employer of {s}"},
	},
	"P1412": {
		Facts: []string{
			"{s} can speak {o}.",
			"{s} is fluent in {o}.",
			"{s} talks in {o}.",
		},
		Questions: []string{"Which language is {s} fluent in?", "What language can {s} speak?"},
		Roles:     []string{"the language {s} is fluent in", "the language {s} can speak"},
	},
	"P800": {
		Facts: []string{
			"{s} is best remembered for {o}.",
			"{s}'s major work is {o}.",
			"{o} is the work {s} is famous for.",
		},
		Questions: []string{"What is {s} best remembered for?", "What is the major work of {s}?"},
		Roles:     []string{"the major work of {s}", "the work {s} is famous for"},
	},
	"P495": {
		Facts: []string{
			"{s} originated in {o}.",
			"{s} hails from {o}.",
			"The origin of {s} is {o}.",
		},
		Questions: []string{"Where did {s} originate?", "What is the origin country of {s}?"},
		Roles:     []string{"the country where {s} originated", "the origin country of {s}"},
	},
	"P170": {
		Facts: []string{
			"{s} was dreamed up by {o}.",
			"{o} is the creator of {s}.",
			"{s} is the brainchild of {o}.",
		},
		Questions: []string{"Who dreamed up {s}?", "Whose brainchild is {s}?"},
		Roles:     []string{"the person who dreamed up {s}", "the creator of {s}"},
	},
	"P140": {
		Facts: []string{
			"{s} practices {o}.",
			"{s} is a follower of {o}.",
			"The faith of {s} is {o}.",
		},
		Questions: []string{"What faith does {s} practice?", "What is the faith of {s}?"},
		Roles:     []string{"the faith {s} practices", "the faith of {s}"},
	},
	"P106": {
		Facts: []string{
			"{s} makes a living as {a_o}.",
			"{s}'s line of work is {o}.",
			"{s} has a career as {a_o}.",
		},
		Questions: []string{"What does {s} do for a living?", "What is the line of work of {s}?"},
		Roles:     []string{"the line of work of {s}", "{s}'s career"},
	},
	"P178": {
		Facts: []string{
			"{s} was developed by {o}.",
			"{o} built {s}.",
			"{s} is a product of {o}.",
		},
		Questions: []string{"Which company developed {s}?", "Who built {s}?"},
		Roles:     []string{"the developer of {s}", "the company that built {s}"},
	},
	"P407": {
		Facts: []string{
			"{s} is written in {o}.",
			"The text of {s} is in {o}.",
			"{s} was published in the {o} language.",
		},
		Questions: []string{"What language is {s} written in?", "In which language is the text of {s}?"},
		Roles:     []string{"the language {s} is written in", "the language of the text of {s}"},
	},
	"P127": {
		Facts: []string{
			"{s} belongs to {o}.",
			"{o} has ownership of {s}.",
			"{s} is in the hands of {o}.",
		},
		Questions: []string{"Who does {s} belong to?", "Who has ownership of {s}?"},
		Roles:     []string{"the owner of {s}", "whoever has ownership of {s}"},
	},
	"P264": {
		Facts: []string{
			"{s} is signed to {o}.",
			"{s} records for {o}.",
			"{s} releases music on {o}.",
		},
		Questions: []string{"Which label is {s} signed to?", "What label does {s} record for?"},
		Roles:     []string{"the label {s} is signed to", "the record company of {s}"},
	},
	"P463": {
		Facts: []string{
			"{s} has membership in {o}.",
			"{s} is one of the members of {o}.",
			"{s} takes part in {o} as a member.",
		},
		Questions: []string{"Which organization does {s} have membership in?", "What is {s} a member of?"},
		Roles:     []string{"the organization {s} has membership in", "the group {s} is a member of"},
	},
	"P131": {
		Facts: []string{
			"{s} is situated in {o}.",
			"{s} lies within {o}.",
			"{s} is a part of {o}.",
		},
		Questions: []string{"What region is {s} situated in?", "Which area does {s} lie within?"},
		Roles:     []string{"the region {s} is situated in", "the area {s} lies within"},
	},
	"P1308": {
		Facts: []string{
			"{o} occupies the office of {s}.",
			"The job of {s} belongs to {o}.",
			"{o} is serving as {s}.",
		},
		Questions: []string{"Who occupies the office of {s}?", "Who has the job of {s}?"},
		Roles:     []string{"the holder of the office of {s}", "the person serving as {s}"},
	},
}
