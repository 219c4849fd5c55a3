package query

import (
	"strings"
	"testing"
	"time"
)

// The year a person is in is a school year ("Year 5"), read as the grade one is in is; the year one was born
// in is a date.
func TestTheYearAPersonIsInIsASchoolYear(t *testing.T) {
	for _, c := range []struct {
		q     string
		grade bool
		kind  answerKind
	}{
		{"What year is Noor in?", true, kindAny},
		{"Which year is Noor in now?", true, kindAny},
		{"What grade is Noor in?", true, kindAny},
		{"What year was Noor born in?", false, kindTime},
	} {
		m := mentionOf(t, c.q, "Noor")
		qp := readQuestion(analyzeQuestion(c.q), &m)
		grade := false
		for _, u := range qp.units {
			grade = grade || contains(u.keys, "grade")
		}
		if grade != c.grade || qp.kind != c.kind {
			t.Errorf("%q: grade among the relations %v, answer kind %d; want %v, %d", c.q, grade, qp.kind, c.grade, c.kind)
		}
	}
}

// TestQuestionReading checks, for hand-written questions, the entity and the chain of relations a reader of
// English gets from them: the relations in order from the entity outward, each by the canonical relation
// key the extractor files that relation under (pkg/canon's alias groups: a birthplace is born_in, an employer
// works_at, a husband a spouse). The expectations were written from the questions, not from the parser's
// output. Notation: "key" — a relation whose keys hold key; "~key" — a relation read backwards (the entity is
// its object, the answer its subject); "?noun" — a type noun that may name no relation ("the country where
// …"). Questions come reworded, in lower-case chat, with non-ASCII names, and about the past.
func TestQuestionReading(t *testing.T) {
	endOf2022 := time.Date(2022, 12, 31, 23, 59, 59, 0, time.UTC)
	for _, c := range []struct {
		q, entity string
		chain     []string
		kind      answerKind
		mode      temporal
		before    string // a word the "before" phrase must hold
		asOf      *time.Time
	}{
		{q: "Where was Victor Hugo born?", entity: "Victor Hugo", chain: []string{"born_in"}, kind: kindPlace},
		{q: "What is Victor Hugo's birthplace?", entity: "Victor Hugo", chain: []string{"born_in"}},
		{q: "What is the capital of the country where Victor Hugo was born?", entity: "Victor Hugo", chain: []string{"born_in", "?country", "capital"}},
		{q: "Who is the spouse of the CEO of Apple?", entity: "Apple", chain: []string{"ceo", "spouse"}, kind: kindPerson},
		{q: "What is Emma's employer's founder?", entity: "Emma", chain: []string{"works_at", "founder"}},
		{q: "Which country is the spouse of the author of Our Mutual Friend a citizen of?", entity: "Our Mutual Friend", chain: []string{"author", "spouse", "citizen_of"}, kind: kindPlace},
		{q: "What is the country of citizenship of the spouse of the author of Our Mutual Friend?", entity: "Our Mutual Friend", chain: []string{"author", "spouse", "citizen_of"}},
		{q: "Who founded the company that produced Windows?", entity: "Windows", chain: []string{"producer", "?company", "founder"}, kind: kindPerson},
		{q: "Where was the founder of Chanel born?", entity: "Chanel", chain: []string{"founder", "born_in"}, kind: kindPlace},
		{q: "Which city is the capital of the country where the CEO of the developer of SteamOS holds citizenship?", entity: "SteamOS", chain: []string{"developer", "ceo", "citizen_of", "?country", "capital"}, kind: kindPlace},
		{q: "What is the capital city of the country whose citizenship is held by the CEO of Apple?", entity: "Apple", chain: []string{"ceo", "citizen_of", "?country", "capital"}},
		{q: "What is the university that Zoë attended?", entity: "Zoë", chain: []string{"attends", "?university"}},
		{q: "Which university did Zoë attend?", entity: "Zoë", chain: []string{"attends"}},
		// Forms of the thirteenth session's blind rewording, with other names.
		{q: "Which country is Ida Berg a national of?", entity: "Ida Berg", chain: []string{"citizen_of"}, kind: kindPlace},
		{q: "Who penned The Salt Road?", entity: "The Salt Road", chain: []string{"author"}, kind: kindPerson},
		{q: "Who dreamed up Captain Velto?", entity: "Captain Velto", chain: []string{"creator"}, kind: kindPerson},
		{q: "In which town did Ida Berg come into the world?", entity: "Ida Berg", chain: []string{"born_in"}, kind: kindPlace},
		// A plural type noun the tagger reads as a verb ("pets"/VBZ before "does") is still the type noun: the
		// question asks what Lena has, not about a relation "pets" of hers.
		{q: "What pets does Lena have?", entity: "Lena", chain: []string{"has"}},
		{q: "Which languages does Mara speak?", entity: "Mara", chain: []string{"speaks"}},
		{q: "Who wrote Our Mutual Friend?", entity: "Our Mutual Friend", chain: []string{"author"}, kind: kindPerson},
		{q: "Who lives in Berlin?", entity: "Berlin", chain: []string{"~lives_in"}, kind: kindPerson},
		{q: "What is Kraków the capital of?", entity: "Kraków", chain: []string{"~capital"}},
		{q: "Where does Zoë work now?", entity: "Zoë", chain: []string{"works_at"}, kind: kindPlace},
		{q: "Which company is Anaïs's employer?", entity: "Anaïs", chain: []string{"works_at"}},
		{q: "Who does Anaïs work for?", entity: "Anaïs", chain: []string{"works_at"}, kind: kindPerson},
		{q: "What does Marcus do for a living?", entity: "Marcus", chain: []string{"occupation"}},
		{q: "What does Marcus do?", entity: "Marcus", chain: []string{"occupation"}},
		{q: "Who is Marcus seeing?", entity: "Marcus", chain: []string{"partner"}, kind: kindPerson},
		{q: "Who is Marcus going out with?", entity: "Marcus", chain: []string{"partner"}, kind: kindPerson},
		{q: "Which physio is Marcus seeing?", entity: "Marcus", chain: []string{"sees"}},
		{q: "What sport does Marcus do?", entity: "Marcus", chain: []string{"does"}},
		{q: "What kind of work does Marcus do?", entity: "Marcus", chain: []string{"occupation"}},
		{q: "What job does Marcus do?", entity: "Marcus", chain: []string{"occupation"}},
		{q: "What is Ivo Marek's place of birth?", entity: "Ivo Marek", chain: []string{"born_in"}},
		{q: "What is Anja Berg's country of citizenship?", entity: "Anja Berg", chain: []string{"citizen_of"}},
		{q: "Who is Marcus's boss?", entity: "Marcus", chain: []string{"manager"}, kind: kindPerson},
		{q: "Where has Zoë moved to?", entity: "Zoë", chain: []string{"lives_in"}, kind: kindPlace},
		{q: "Who set up Dunmore Labs?", entity: "Dunmore Labs", chain: []string{"founder"}, kind: kindPerson},
		{q: "Where did Nina Volkova go to university?", entity: "Nina Volkova", chain: []string{"educated_at"}, kind: kindPlace},
		{q: "Which university did Nina Volkova attend?", entity: "Nina Volkova", chain: []string{"educated_at"}},
		{q: "In which city did Ludwig van Beethoven pass away?", entity: "Ludwig van Beethoven", chain: []string{"died_in"}, kind: kindPlace},
		{q: "Which label is Ólafur Arnalds signed to?", entity: "Ólafur Arnalds", chain: []string{"record_label"}},
		// Chat's question words without the apostrophe of "'s".
		{q: "whats ivo marek's faith", entity: "ivo marek", chain: []string{"religion"}},
		{q: "whos the ceo of velto", entity: "velto", chain: []string{"ceo"}, kind: kindPerson},
		// A preposition stranded after a description that ends in a clause of its own belongs to the main "be".
		{q: "What continent is the city where Ivo Marek was born in?", entity: "Ivo Marek", chain: []string{"born_in", "?city", "?continent"}},
		{q: "Which continent is the country Le Petit Journal comes from in?", entity: "Le Petit Journal", chain: []string{"comes_from", "?country", "?continent"}},
		{q: "Who is Søren Kierkegaard married to?", entity: "Søren Kierkegaard", chain: []string{"spouse"}, kind: kindPerson},
		{q: "What language is Elena Ceaușescu fluent in?", entity: "Elena Ceaușescu", chain: []string{"speaks"}},
		{q: "Do you know where Łukasz lives?", entity: "Łukasz", chain: []string{"lives_in"}, kind: kindPlace},
		{q: "Where is Société Générale headquartered?", entity: "Société Générale", chain: []string{"headquartered_in"}, kind: kindPlace},
		{q: "Which sport is goaltender associated with?", entity: "goaltender", chain: []string{"associated_with"}},
		{q: "who is head of state in france", entity: "france", chain: []string{"head_of_state"}, kind: kindPerson},
		{q: "what's the capital of the country where mozart died", entity: "mozart", chain: []string{"died_in", "?country", "capital"}},
		{q: "What is the name of the current head of the Tucson government?", entity: "Tucson", chain: []string{"government", "ceo"}},
		{q: "How much rent does Daniel pay?", entity: "Daniel", chain: []string{"rent"}, kind: kindAmount},
		{q: "When is Nadia's dentist appointment?", entity: "Nadia", chain: []string{"dentist_appointment"}, kind: kindTime},
		// A follow-up question about the first answer: one more relation outward, and it says what is asked.
		{q: "In which country was Marta's sport invented, and who is the head of state of that country?", entity: "Marta", chain: []string{"?sport", "invented", "head_of_state"}, kind: kindPerson},
		{q: "Where was Zoë's husband born, and what is the capital of that country?", entity: "Zoë", chain: []string{"spouse", "born_in", "capital"}},
		// A position participle before "of" names no relation: the capital of the country.
		{q: "Which city is the capital located of the country where Zoë lives?", entity: "Zoë", chain: []string{"lives_in", "?country", "capital"}, kind: kindPlace},
		// Time.
		{q: "Where did Zoë live before Kraków?", entity: "Zoë", chain: []string{"lives_in"}, kind: kindPlace, mode: askFormer, before: "Kraków"},
		{q: "Where did Emma work before she joined Anthropic?", entity: "Emma", chain: []string{"works_at"}, kind: kindPlace, mode: askFormer, before: "Anthropic"},
		{q: "Where did Owen use to work?", entity: "Owen", chain: []string{"works_at"}, kind: kindPlace, mode: askFormer},
		// The place one moved from is where one lived before; a person's title is their occupation.
		{q: "What was Pedro's old number?", entity: "Pedro", chain: []string{"number"}, mode: askFormer},
		{q: "Who was Emma's previous employer?", entity: "Emma", chain: []string{"works_at"}, kind: kindPerson, mode: askFormer},
		{q: "How old is Mochi?", entity: "Mochi", chain: []string{"age"}},
		{q: "What did Kwame do before joining Paystack?", entity: "Kwame", chain: []string{"occupation"}, mode: askFormer, before: "Paystack"},
		{q: "Which city did Jonah move from?", entity: "Jonah", chain: []string{"lives_in"}, kind: kindPlace, mode: askFormer},
		{q: "What's Aiko's title now?", entity: "Aiko", chain: []string{"occupation"}},
		{q: "What was Emma's job in 2022?", entity: "Emma", chain: []string{"occupation"}, asOf: &endOf2022},
		{q: "Has Emma's job changed?", entity: "Emma", chain: []string{"occupation"}, mode: askChange},
		{q: "Is Emma still working at Anthropic?", entity: "Emma", chain: []string{"works_at"}, mode: askChange},
		{q: "What was Hannah's original wedding date?", entity: "Hannah", chain: []string{"wedding_date"}, mode: askEarliest},
		{q: "Where did Joaquín originally live?", entity: "Joaquín", chain: []string{"lives_in"}, kind: kindPlace, mode: askEarliest},
		{q: "In which language was Le Petit Parisien originally made?", entity: "Le Petit Parisien", chain: []string{"made_in"}},
		// A time adverb inside a relative clause belongs to its verb, not to the question's time.
		{q: "Who directs the network that originally aired The Brady Bunch?", entity: "The Brady Bunch", chain: []string{"broadcaster", "?network", "director"}, kind: kindPerson},
		{q: "Who leads the party that initially governed Tuvalu?", entity: "Tuvalu", chain: []string{"~governs", "?party", "ceo"}, kind: kindPerson},
		// Chat's question phrase left where the answer stands, "Where is X from?", a kind asked of a
		// description, and what one plays.
		{q: "tarvia is on which continent", entity: "tarvia", chain: []string{"?continent"}, kind: kindPlace},
		{q: "the city where ida berg was born is in which country", entity: "ida berg", chain: []string{"born_in", "?city", "?country"}, kind: kindPlace},
		{q: "Where is Ida Berg from?", entity: "Ida Berg", chain: []string{"comes_from"}, kind: kindPlace},
		{q: "Where was Ida Berg from?", entity: "Ida Berg", chain: []string{"comes_from"}, kind: kindPlace},
		{q: "where is the sport ida berg plays from", entity: "ida berg", chain: []string{"plays", "?sport", "comes_from"}, kind: kindPlace},
		{q: "What religion is the person Ida Berg married?", entity: "Ida Berg", chain: []string{"spouse", "?person", "?religion"}},
		{q: "Which sport is associated with Ida Berg?", entity: "Ida Berg", chain: []string{"associated_with"}},
		{q: "What does Ida Berg play?", entity: "Ida Berg", chain: []string{"position"}},
		{q: "Who is the partner in marriage of Ida Berg?", entity: "Ida Berg", chain: []string{"spouse"}, kind: kindPerson},
		{q: "Who is Ida Berg's partner in marriage?", entity: "Ida Berg", chain: []string{"spouse"}, kind: kindPerson},
		{q: "Who is in charge of Velto?", entity: "Velto", chain: []string{"ceo"}, kind: kindPerson},
		{q: "Where does Ida Berg line up on the field?", entity: "Ida Berg", chain: []string{"position"}},
		// A free relative is the one who does what its clause says; a relative clause on "whose" with a verb of
		// having says its noun is the subject's; a question phrase left after a verb other than "be" asks what
		// the fronted question asks.
		{q: "Whoever founded Velto Labs died in which city?", entity: "Velto Labs", chain: []string{"founder", "?person", "died_in"}, kind: kindPlace},
		{q: "Which religion does whoever founded Velto Labs practise?", entity: "Velto Labs", chain: []string{"founder", "?person", "practises"}},
		{q: "Who is the CEO of whoever developed Fennel OS?", entity: "Fennel OS", chain: []string{"developer", "?person", "ceo"}, kind: kindPerson},
		{q: "The country whose citizenship Ida Berg holds is on which continent?", entity: "Ida Berg", chain: []string{"citizen_of", "?country", "?continent"}, kind: kindPlace},
		{q: "What is the capital of the country whose citizenship Ida Berg holds?", entity: "Ida Berg", chain: []string{"citizen_of", "?country", "capital"}},
		{q: "Ida Berg's husband speaks which language?", entity: "Ida Berg", chain: []string{"spouse", "speaks"}},
		{q: "The country Ida Berg is a citizen of has which city as its capital?", entity: "Ida Berg", chain: []string{"citizen_of", "?country", "capital"}, kind: kindPlace},
		{q: "The person who wrote The Salt Road was born where?", entity: "The Salt Road", chain: []string{"author", "?person", "born_in"}, kind: kindPlace},
		{q: "Whoever wrote The Salt Road was born in which city?", entity: "The Salt Road", chain: []string{"author", "?person", "born_in"}, kind: kindPlace},
		{q: "Ida Berg plays for which team?", entity: "Ida Berg", chain: []string{"team"}},
		{q: "The Salt Road's author speaks which language?", entity: "The Salt Road", chain: []string{"author", "speaks"}},
		// A past form right after a noun and before its preposition is a participle (a reduced relative clause).
		{q: "What is the country of origin of the sport tied to Ida Berg?", entity: "Ida Berg", chain: []string{"tied_to", "?sport", "comes_from"}},
		{q: "Where was the person married to Ida Berg born?", entity: "Ida Berg", chain: []string{"spouse", "?person", "born_in"}, kind: kindPlace},
		{q: "Where does the person married to The Salt Road's writer hold citizenship?", entity: "The Salt Road", chain: []string{"author", "spouse", "?person", "citizen_of"}, kind: kindPlace},
		// A light verb's noun takes the preposition "where" stands for.
		{q: "Where does Ida Berg have a job?", entity: "Ida Berg", chain: []string{"works_at"}, kind: kindPlace},
		// An "of"-compound heads a relative clause whole.
		{q: "What is the style of music performed by the spouse of Ida Berg?", entity: "Ida Berg", chain: []string{"spouse", "performs", "?music"}},
		{q: "The country whose citizenship Ida Berg holds was founded by whom?", entity: "Ida Berg", chain: []string{"citizen_of", "?country", "founder"}, kind: kindPerson},
		{q: "The school Ida Berg graduated from has its HQ in which city?", entity: "Ida Berg", chain: []string{"educated_at", "?school", "headquartered_in"}, kind: kindPlace},
		{q: "The country Ida Berg is a citizen of has which official language?", entity: "Ida Berg", chain: []string{"citizen_of", "?country", "official_language"}},
		// A role said with "as" after a relative clause's object is part of the clause's relation.
		{q: "Where was the person who leads Velto Labs as CEO born?", entity: "Velto Labs", chain: []string{"ceo", "?person", "born_in"}, kind: kindPlace},
		{q: "The country whose passport whoever leads Velto Labs as CEO carries has which city as its capital?", entity: "Velto Labs", chain: []string{"ceo", "?person", "citizen_of", "?country", "capital"}, kind: kindPlace},
		// An event's being held or taking place is the event itself, whose slot says where or when it is; a
		// person held somewhere is held.
		{q: "Where is Valeria's quinceañera being held?", entity: "Valeria", chain: []string{"quinceañera"}, kind: kindPlace},
		{q: "When is the Berg wedding taking place?", entity: "Berg", chain: []string{"wedding"}},
		{q: "Where is Tom Berg being held?", entity: "Tom Berg", chain: []string{"held_in"}, kind: kindPlace},
		// "happening" after the event's noun, read by the tagger as a compound, is the event's happening too.
		{q: "Where is Tom's wedding happening?", entity: "Tom", chain: []string{"wedding"}, kind: kindPlace},
		// "Where" and a copula alone ask where the subject is: a person's home, a thing's place.
		{q: "Where is Bogdan's mum?", entity: "Bogdan's mum", chain: []string{"?where"}, kind: kindPlace},
		{q: "Where's Bogdan's mum these days?", entity: "Bogdan's mum", chain: []string{"?where"}, kind: kindPlace},
		{q: "Where is Ana?", entity: "Ana", chain: []string{"?where"}, kind: kindPlace},
		{q: "Where is Bogdan's office?", entity: "Bogdan", chain: []string{"office"}, kind: kindPlace},
		{q: "What time is Ana's recital happening?", entity: "Ana", chain: []string{"recital"}, kind: kindTime},
		{q: "When's Luis's book launch happening?", entity: "Luis", chain: []string{"book_launch"}, kind: kindTime},
		// A gerund before the type noun is part of the kind ("running watch"), no relation of its own.
		{q: "What running watch does Tomasz use?", entity: "Tomasz", chain: []string{"uses"}},
		// An event's date is asked of its date slot first (canon.EventDateKey).
		{q: "When is Declan's wedding?", entity: "Declan", chain: []string{"wedding_date"}, kind: kindTime},
	} {
		m := mentionOf(t, c.q, c.entity)
		qp := readQuestion(analyzeQuestion(c.q), &m)
		var got []string
		for _, u := range qp.units {
			got = append(got, describeUnit(u))
		}
		if len(qp.units) != len(c.chain) {
			t.Errorf("%q: %d relations %v, want %v", c.q, len(qp.units), got, c.chain)
			continue
		}
		for i, want := range c.chain {
			u := qp.units[i]
			ok := false
			switch {
			case strings.HasPrefix(want, "~"):
				ok = contains(u.inverse, want[1:])
			case strings.HasPrefix(want, "?"):
				ok = u.optional && contains(u.words, want[1:])
			default:
				ok = !u.optional && contains(u.keys, want)
			}
			if !ok {
				t.Errorf("%q: relation %d is %s, want %s (chain %v)", c.q, i+1, got[i], want, got)
			}
		}
		if c.kind != kindAny && qp.kind != c.kind {
			t.Errorf("%q: answer kind %d, want %d", c.q, qp.kind, c.kind)
		}
		if qp.time.mode != c.mode {
			t.Errorf("%q: time mode %d, want %d", c.q, qp.time.mode, c.mode)
		}
		if c.before != "" && !strings.Contains(qp.time.before, c.before) {
			t.Errorf("%q: before %q, want it to name %q", c.q, qp.time.before, c.before)
		}
		if (c.asOf == nil) != (qp.time.asOf == nil) || c.asOf != nil && !c.asOf.Equal(*qp.time.asOf) {
			t.Errorf("%q: as of %v, want %v", c.q, qp.time.asOf, c.asOf)
		}
	}
}

// mentionOf is the mention of entity in q, as the subject lookup would find it (whole fields, a possessive or
// question mark included).
func mentionOf(t *testing.T, q, entity string) mention {
	t.Helper()
	fs := fields(q)
	n := len(fields(entity))
	for i := 0; i+n <= len(fs); i++ {
		text := trimQuestionPunct(strings.Join(fs[i:i+n], " "))
		text = strings.TrimSuffix(strings.TrimSuffix(text, "'s"), "’s")
		if text == entity {
			return mention{from: i, to: i + n, text: strings.Join(fs[i:i+n], " "), key: entity}
		}
	}
	t.Fatalf("%q does not mention %q", q, entity)
	return mention{}
}

func describeUnit(u relUnit) string {
	var b strings.Builder
	if u.optional {
		b.WriteString("?")
	}
	b.WriteString(u.said)
	b.WriteString(" [")
	b.WriteString(strings.Join(u.keys, " "))
	if len(u.inverse) > 0 {
		b.WriteString(" ~" + strings.Join(u.inverse, " ~"))
	}
	b.WriteString("]")
	return b.String()
}

// A heading or an interjection before a question is no part of it; a name before a colon is.
func TestWithoutPreface(t *testing.T) {
	for q, want := range map[string]string{
		"Quick question: What sport does Hines Ward play?": "What sport does Hines Ward play?",
		"Hey, where does Emma work now?":                   "where does Emma work now?",
		"Also, one more thing: who is Olga's manager?":     "who is Olga's manager?",
		"Emma: where does she work?":                       "Emma: where does she work?",
		"What is the capital of France?":                   "What is the capital of France?",
	} {
		if got := withoutPreface(q); got != want {
			t.Errorf("withoutPreface(%q) = %q, want %q", q, got, want)
		}
	}
}

// A plan asked about in the past tense ("was going to", the future in the past) is one made before, which a
// later one may have replaced: the question asks for the former value. In the present tense it asks for the
// current one, and "going to" before a noun is a place one went, not a plan.
func TestAPlanInThePastTenseAsksForTheFormerValue(t *testing.T) {
	for q, want := range map[string]temporal{
		"Where was Callum's reception going to be held?": askFormer,
		"What was Nadia going to study?":                 askFormer,
		"Where is Callum's reception going to be held?":  askCurrent,
		"Where was Sam going to school?":                 askCurrent,
	} {
		if got := parseQuestion(q, nil).time.mode; got != want {
			t.Errorf("%q: time mode %v, want %v", q, got, want)
		}
	}
}
