package query

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/store"
)

func TestTimeReading(t *testing.T) {
	for q, want := range map[string]temporal{
		"Where does Alice live?":                                    askCurrent,
		"Where did Alice use to live?":                              askFormer,
		"Where did Alice live before?":                              askFormer,
		"Where did Alice originally live?":                          askEarliest,
		"Does Alice still live in Paris?":                           askChange,
		"Has Alice's address changed?":                              askChange,
		"On which continent was Le Petit Parisien originally made?": askCurrent,
		"Which country does the sport originally come from?":        askCurrent,
		"Where did Alice work for six years?":                       askFormer,
		"Where did Alice live for a long time?":                     askFormer,
		"Where has Alice worked for six years?":                     askCurrent,
		"Who did Alice work for?":                                   askCurrent,
	} {
		if got := parseQuestion(q, nil).time.mode; got != want {
			t.Errorf("time mode of %q = %v, want %v", q, got, want)
		}
	}
}

// An answer read from a slot of sentence claims is its newest sentence: the sentences are every statement
// the speaker made, not the values of one attribute, and listing the older ones would present what they
// said as still true. A slot of one attribute with several values still lists them all.
func TestSentenceSlotAnswersWithNewest(t *testing.T) {
	older := &store.Belief{ID: "c1", Subject: "Chloe", Predicate: "said", PredicateKey: "said", Object: "My favourite band right now is Arctic Monkeys."}
	newer := &store.Belief{ID: "c2", Subject: "Chloe", Predicate: "said", PredicateKey: "said", Object: "They have officially replaced Arctic Monkeys as my favourite band."}
	miso := &store.Belief{ID: "c3", Subject: "Jonah", Predicate: "cat", PredicateKey: "cat", Object: "Miso"}
	tofu := &store.Belief{ID: "c4", Subject: "Jonah", Predicate: "cat", PredicateKey: "cat", Object: "Tofu"}
	for _, tc := range []struct {
		winners []*store.Belief
		want    string
	}{
		{[]*store.Belief{newer, older}, "They have officially replaced Arctic Monkeys as my favourite band."},
		{[]*store.Belief{tofu, miso}, "Tofu, Miso"},
	} {
		sl := &store.Slot{Winners: tc.winners, Claims: tc.winners}
		c := &chain{hops: []hop{{slot: sl, claim: tc.winners[0]}}}
		res := &api.AnswerResponse{}
		(&Service{}).deterministic(c, timeAsk{}, res)
		if res.Answer != tc.want {
			t.Errorf("answer %q, want %q", res.Answer, tc.want)
		}
	}
}

// A question may ask with a verb what was stated with the noun English uses for its event: paying for
// something asks its price, earning a salary, flying a flight.
func TestVerbsAskTheirEventNoun(t *testing.T) {
	f := newMemFacts()
	f.add("Linh", "price", "$640,000", "Linh is buying the townhouse for $640,000.", 1)
	f.add("Linh", "husband", "Bao", "Linh's husband is Bao.", 2)
	f.add("Linh", "closing", "28 June 2025", "Linh's closing is on 28 June 2025.", 7)
	f.add("Ingrid", "flight to Denver", "15 October 2024", "Ingrid's flight to Denver is on 15 October 2024.", 3)
	f.add("Ingrid", "hotel", "the Maven", "Ingrid's hotel is the Maven.", 4)
	f.add("Lukas", "salary", "€58,500", "Lukas's salary is €58,500.", 5)
	f.add("Lukas", "works at", "Siemens", "Lukas works at Siemens.", 6)
	checkResolved(t, f, map[string]string{
		"How much is Linh paying for the townhouse?": "$640,000",
		"When is Ingrid flying to Denver?":           "15 October 2024",
		"How much does Lukas earn?":                  "€58,500",
		"When does Linh close on the townhouse?":     "28 June 2025",
	})
}

// "Who was Marcus's girlfriend before Leilani?" when the girlfriend slot has no current value (the breakup
// ended it) and Leilani is in another slot: the slot's last value is the one before.
func TestBeforeWhenTheSlotEnded(t *testing.T) {
	hannah := &store.Belief{ID: "c1", Subject: "Marcus", Predicate: "girlfriend", PredicateKey: "girlfriend", Object: "Hannah", ObjectKey: "hannah"}
	sl := &store.Slot{Claims: []*store.Belief{hannah}}
	c := &chain{hops: []hop{{slot: sl, claim: hannah}}}
	res := &api.AnswerResponse{}
	(&Service{}).deterministic(c, timeAsk{before: "Leilani"}, res)
	if res.Answer != "Hannah" {
		t.Errorf("answer %q, want Hannah", res.Answer)
	}
}

// "What was Greta's comfort show before Severance?" when Severance is the only value remembered: the value
// before it is unknown, and Severance itself (what the question says came after) is no answer; nor is the
// current value an answer to what followed it.
func TestBeforeOrAfterTheOnlyValueIsNoAnswer(t *testing.T) {
	show := &store.Belief{ID: "c1", Subject: "Greta", Predicate: "favourite show", PredicateKey: "favourite_show", Object: "Severance", ObjectKey: "severance"}
	for _, ta := range []timeAsk{{before: "Severance"}, {after: "Severance"}} {
		sl := &store.Slot{Claims: []*store.Belief{show}, Winners: []*store.Belief{show}}
		c := &chain{hops: []hop{{slot: sl, claim: show}}}
		res := &api.AnswerResponse{}
		(&Service{}).deterministic(c, ta, res)
		if res.Answer != "" {
			t.Errorf("%+v: answer %q, want none", ta, res.Answer)
		}
	}
	// A phrase that names no value ("after the promotion") still gets the current value.
	sl := &store.Slot{Claims: []*store.Belief{show}, Winners: []*store.Belief{show}}
	res := &api.AnswerResponse{}
	(&Service{}).deterministic(&chain{hops: []hop{{slot: sl, claim: show}}}, timeAsk{after: "the winter"}, res)
	if res.Answer != "Severance" {
		t.Errorf("after an event: answer %q, want Severance", res.Answer)
	}
}

// "Where did Darnell study before UC Davis?" when UC Davis was filed under another relation: the studies slot's
// only value is what he studied at before it.
func TestBeforeAValueOfAnotherSlot(t *testing.T) {
	college := &store.Belief{ID: "c1", Subject: "Darnell", Predicate: "studies at", PredicateKey: "educated_at", Object: "Sacramento City College", ObjectKey: "sacramento city college"}
	sl := &store.Slot{Claims: []*store.Belief{college}, Winners: []*store.Belief{college}}
	res := &api.AnswerResponse{}
	(&Service{}).deterministic(&chain{hops: []hop{{slot: sl, claim: college}}}, timeAsk{before: "UC Davis"}, res)
	if res.Answer != "Sacramento City College" {
		t.Errorf("answer %q, want Sacramento City College", res.Answer)
	}
}

// "Where does Dmitri teach?" asks where he does it, not what: of his "teaches" and "teaches at" claims the
// place answers. "Who is Hannah marrying?" asks for a person: never the wedding's date.
func TestQuestionWordPicksTheRelationOfItsKind(t *testing.T) {
	f := newMemFacts()
	f.add("Dmitri", "teaches", "piano", "Dmitri teaches piano.", 1)
	f.add("Dmitri", "teaches at", "the Hanns Eisler School", "Dmitri teaches at the Hanns Eisler School.", 2)
	f.add("Hannah", "wedding", "3 May 2025", "Hannah's wedding is on 3 May 2025.", 3)
	f.add("Hannah", "engaged to", "Tom", "Hannah is engaged to Tom.", 4)
	checkResolved(t, f, map[string]string{
		"Where does Dmitri teach?": "the Hanns Eisler School",
		"What does Dmitri teach?":  "piano",
	})
	if resolvedObject(t, f, "Who is Hannah marrying?") == "3 May 2025" {
		t.Errorf("a who-question answered with a date")
	}
}

// A person is "based" where they live, and "at" a company where they work; a where-question is never
// answered with a role ("works as"), a when-question never with a value that is no date, and "someone new" is
// no answer to whom someone is seeing (each expected answer worked out from the claims by hand).
func TestQuestionsAboutAPersonReadAsAPersonsRelations(t *testing.T) {
	f := newMemFacts()
	f.add("Emma", "lives in", "Oakland", "Emma lives in Oakland.", 1)
	f.add("Emma", "works at", "Anthropic", "Emma works at Anthropic.", 2)
	f.add("Emma", "works as", "data scientist", "Emma works as a data scientist.", 3)
	f.add("Acme", "headquartered in", "Ohio", "Acme is headquartered in Ohio.", 4)
	f.add("Acme", "employs", "Lee", "Acme employs Lee.", 5)
	f.add("Goran", "works as", "head chef", "Goran works as head chef.", 6)
	f.add("Marcus", "has been seeing", "someone new", "Marcus has been seeing someone new.", 7)
	f.add("Ruth", "wedding", "a vineyard in Napa", "Ruth's wedding is at a vineyard in Napa.", 8)
	checkResolved(t, f, map[string]string{
		"Where is Emma based?":          "Oakland",
		"Where is Acme based?":          "Ohio",
		"Which company is Emma at now?": "Anthropic",
		"What's Emma's role?":           "data scientist",
		"Where does Goran work now?":    "",
		"Who is Marcus seeing now?":     "",
		"When is Ruth's wedding?":       "",
	})
}

// Where one works and the town one works in are two relations: "Where does X work?" asks for the workplace,
// though the town was said after it, and no question of the job or the employer is answered by the town; a
// question naming a kind of place, or "based", asks for the town, and "based" for the newer of where one lives
// and where one works (each expected answer worked out from the claims by hand).
func TestAnEmployerAndTheTownOfTheJob(t *testing.T) {
	f := newMemFacts()
	f.add("Lukas", "works at", "Siemens", "Lukas works at Siemens.", 1)
	f.add("Lukas", "works in", "Munich", "Lukas works in Munich.", 2)
	f.add("Lukas", "works as", "test engineer", "Lukas works as a test engineer.", 3)
	f.add("Tom", "works at", "a bakery in Leeds", "Tom works at a bakery in Leeds.", 4)
	f.add("Tom", "works in", "Leeds", "Tom works in Leeds.", 5)
	f.add("Tom", "hired by", "Greggs", "Tom was hired by Greggs.", 6)
	f.add("Tomas", "works as", "nurse", "Tomas works as a nurse.", 9)
	f.add("Tomas", "works in", "Lyon", "Tomas works in Lyon.", 10)
	f.add("Ioana", "works at", "Endava", "Ioana works at Endava.", 11)
	f.add("Ioana", "transferred to", "our Cluj office", "Ioana transferred to our Cluj office.", 12)
	f.add("Rafa", "lives in", "Madrid", "Rafa is based in Madrid.", 7)
	f.add("Rafa", "works in", "their Lisbon office", "Rafa was transferred to their Lisbon office.", 8)
	checkResolved(t, f, map[string]string{
		"Where does Lukas work?":           "Siemens",
		"Where does Lukas work now?":       "Siemens",
		"Who does Lukas work for?":         "Siemens",
		"Which city does Lukas work in?":   "Munich",
		"Which city is Lukas in?":          "Munich",
		"Which city is Lukas based in?":    "Munich",
		"What does Lukas do?":              "test engineer",
		"Where does Tom work these days?":  "Greggs",
		"Which city is Rafa based in now?": "their Lisbon office",
		"Which office is Ioana in now?":    "our Cluj office",
		"Where does Ioana work?":           "Endava",
		"What is Tomas's job?":             "nurse",
		"What does Tomas do for work?":     "nurse",
		"Where does Tomas work?":           "",
		"Which town does Tom work in now?": "Leeds",
	})
}

// The slot a claim was filed in names its relation too ("When does Nadia see the dentist?" and the slot
// dentist_appointment, whose claim says only "appointment"); a when-question sharing part of a relation's words
// is answered by a date. A where-question is not answered by a thing whose relation shares a word with it
// ("Where does Owen buy his coffee?" and his usual coffee order).
func TestSlotKeyAndKindOfValueSupportAPartialMatch(t *testing.T) {
	f := newMemFacts()
	f.add("Nadia", "appointment", "Friday 15 March 2024 at 2 pm", "Nadia's appointment got moved to Friday 15 March 2024 at 2 pm.", 1)
	rows := f.bySubject["nadia"]
	rows[len(rows)-1].SlotKey = "dentist_appointment"
	f.add("Nadia", "mother-in-law", "Rosa", "Nadia's mother-in-law is Rosa.", 2)
	f.add("Owen", "usual coffee order", "an oat milk latte", "Owen's usual coffee order is an oat milk latte.", 3)
	checkResolved(t, f, map[string]string{
		"When does Nadia see the dentist?":  "Friday 15 March 2024 at 2 pm",
		"Where does Owen buy his coffee?":   "",
		"What's Owen's usual coffee order?": "an oat milk latte",
	})
}

// Being "in" a kind of group is being its member, and a school year is asked for as a grade.
func TestGroupAndGradeQuestions(t *testing.T) {
	f := newMemFacts()
	f.add("Ola", "member of", "Blue Hour", "Ola joined a jazz trio called Blue Hour.", 1)
	f.add("Ola", "plays", "bass", "Ola plays bass.", 2)
	f.add("Isha", "grade", "fifth grade", "Isha just started fifth grade.", 3)
	checkResolved(t, f, map[string]string{
		"Which band is Ola in now?": "Blue Hour",
		"What does Ola play?":       "bass",
		"What grade is Isha in?":    "fifth grade",
	})
}

// One relation said two ways lands in two slots ("I drive a Saab", later "My car is now a Kia"): for the
// present, the newer statement answers, though the question's words ("drive") name the older one's slot first;
// a newer value of a relation the question does not name (what Ilse sold) changes nothing, and neither does a
// newer value of something one may have several of ("Ilse has a Vespa too" as her car), nor one of another
// relation the question's words also reach ("lives in" for whom one lives with).
func TestNewestStatementOfOneRelationAnswers(t *testing.T) {
	f := newMemFacts()
	f.add("Ilse", "drives", "a Saab 900", "Ilse drives a Saab 900.", 1)
	f.add("Ilse", "car", "a Kia Niro", "Ilse's car is now a Kia Niro.", 2)
	f.add("Ilse", "sold", "a Vespa", "Ilse sold a Vespa.", 3)
	checkResolved(t, f, map[string]string{"What car does Ilse drive?": "a Kia Niro"})

	g := newMemFacts()
	g.add("Ilse", "drives", "a Saab 900", "Ilse drives a Saab 900.", 1)
	g.add("Ilse", "car", "a Vespa", "Ilse has a Vespa too.", 2)
	g.bySubject["ilse"][1].Functional = false
	checkResolved(t, g, map[string]string{"What car does Ilse drive?": "a Saab 900"})

	// Another relation the question's words also reach is not the same relation said another way.
	h := newMemFacts()
	h.add("Noor", "lives with", "Joaquín", "Noor lives with Joaquín.", 1)
	h.add("Noor", "lives in", "Ñuñoa", "Noor lives in Ñuñoa.", 2)
	checkResolved(t, h, map[string]string{"Who does Noor live with?": "Joaquín"})
}

// A negative assertion is no answer: "Liam does not work at Beanstalk anymore" says where he does not work.
func TestNegatedClaimIsNoAnswer(t *testing.T) {
	f := newMemFacts()
	f.add("Liam", "works at", "Beanstalk", "Liam does not work at Beanstalk.", 1)
	c := &f.bySubject["liam"][0]
	c.Negated, c.Functional, c.SlotKey = true, false, "not:"+c.PredicateKey
	checkResolved(t, f, map[string]string{"Where does Liam work?": ""})
}
