package canon

import "strings"

// Relation identity: the same relation said in other words gets one key, so that a fact restated in another
// phrasing lands in the same slot and supersedes (or corroborates) the first.
//
// Most of it is structural and done by the extractor from parts of speech (auxiliaries, determiners and adverbs
// dropped, verbs lemmatized, a passive "founded by" keyed by its agent noun "founder", "X's capital" and "the
// capital of X" alike). What structure cannot show is that two different words name one relation: "birthplace" and
// "born in", "spouse" and "married to", "employer" and "works for". relationAliases lists those, for the relations
// people state most about persons, organizations, places and works: the aliases Wikidata gives its most used
// properties (place and date of birth and death, spouse, employer, occupation, citizenship, education,
// headquarters, notable work, author, creator, developer, performer, founder, producer and manufacturer,
// chairperson, chief executive, capital, location, origin, religion, languages spoken, membership, child, head of
// state — "president", "monarch" —, head of government — "prime minister", "premier", the government's leader —, original broadcaster,
// twinned administrative body, genre, original language, language of a work, sport, member of sports team — "plays
// for" —, native language — "mother tongue"), and the everyday attributes of a person (the names forms and profiles
// give salary — net or gross, take-home or base pay — phone number and e-mail address). It is general English for
// these relations, written from the properties' meaning, not from any data set's sentences; relations outside it keep their structural key, and the
// reconciler still merges a subject's paraphrased predicates by embedding similarity. The converse nouns of a
// relation said of its subject ("X is an alumnus of Y", "X is a creation of Y") and Wikidata's own aliases of these
// properties ("built by" for manufacturer, "head office" for headquarters, "premiered on" for original broadcaster)
// are listed with them, and so are the dictionary synonyms of a relation's verb or noun in everyday English: "hails
// from" is "comes from", a passport is the document of a citizenship, an adherent, follower or believer of a faith
// holds it as their religion, a home base or being "based out of" a place (American English) is where an
// organization is based; whoever leads, heads or runs an organization is its chief executive; whoever hired someone
// (at or by) and a job, position, role or post at or with an organization name the employer, a promotion to a title
// names the occupation, and being transferred to a place (another post of the same employer) names where one works;
// a parent company owns its subsidiary, one's boss is one's manager, whoever one dates (a girlfriend, a boyfriend)
// is one's partner, one who converts to a faith holds it, a degree from (or attending) a university, college or
// school says one was educated there, a (native, fluent) speaker of a language speaks it, one reports to one's manager
// (supervisor, line manager, team lead), a musician records for their label, what one takes up (a pastime) is a
// hobby, and one's role, line of work, vocation or trade, what one freelances as, and what one has retrained or
// requalified as (Oxford, "retrain": "teach or learn new skills, especially for a different job"), is one's
// occupation; what one studies (one's field, what one majors in) is another relation than where one studies
// (educated_at), so that a new university does not replace the subject.
// Also: one's eldest or youngest (said as a noun, Oxford "eldest": "the oldest of three or more people,
// especially children of a family") is one's child; a child of, a son or daughter of, or born to someone names
// one's parent (the converse of child); a
// country or region "has its capital in" a city as "has its headquarters in" names the headquarters; "hq" is the
// common abbreviation of headquarters; to start an organization is, in the dictionary, to found it ("started
// by" is "founded by"); what is sung by someone (its singer) is performed by them (Wikidata's "singer" alias of
// performer); and being "from" a place or "created in" it says where a thing comes from, its origin ("made
// in" is left as said: a film is made in a language as well as in a country). And, from the synsets of
// WordNet 3.0 (the words it puts in one sense with the relation's word): to wed is to marry, and a partner in
// marriage a spouse; a country's seat of government is its capital; what one is remembered for, one's major
// work, masterpiece, magnum opus or greatest work (WordNet's gloss of "masterpiece": the most outstanding work
// of a creative artist) is what one is known for; what is dreamed up, thought up or invented by
// someone is their creation; what is set up or started up by someone is founded by them; the chair of a
// board, the chair; a top executive, the chief executive; a recording's artist (recorded by) its
// performer; and a thing that is a product of a company (WordNet's "product": an article that is manufactured)
// is made by it. A fan of a team or a band supports it (Oxford, "supporter": "a person who is actively interested
// in and wishes success for a particular sports team"; "fan": "a person who has a strong interest in or
// admiration for a particular sport, art form, or famous person"). Where a thing came into existence is where it
// comes from: WordNet's verbs of coming into existence (the synset "originate, arise, develop, spring up" and its
// "emerge"), said with "in" a place. One's pay is also said as one's remuneration or pay package, and in Indian
// English as one's CTC ("cost to company", the yearly cost of an employee's pay and benefits, the figure offers
// and salary talk name); in British English one's basic pay is "one's basic" (Oxford, "basic": "a basic
// wage or salary"). Fees, said in the plural as a household pays them, are one fee's amount.
var relationAliases = map[string][]string{
	"born_in":            {"birthplace", "place_of_birth", "birth_place", "native_of", "born_at", "hometown_of_birth"},
	"born_on":            {"birthday", "date_of_birth", "birth_date", "birthdate"},
	"died_in":            {"place_of_death", "death_place", "passes_away_in", "passed_away_in", "passes_away_at", "passed_away_at", "dies_in", "died_at", "dies_at"},
	"died_on":            {"date_of_death", "death_date", "dies_on", "passes_away_on", "passed_away_on"},
	"partner":            {"girlfriend", "boyfriend", "dates", "significant_other", "romantic_partner", "in_relationship_with"},
	"spouse":             {"wed_to", "partner_in_marriage", "married_to", "husband", "wife", "marries", "married", "is_married_to", "weds", "wed", "wedded"},
	"works_at":           {"job_at", "job_with", "position_at", "role_at", "post_at", "works_for", "contracts_for", "freelances_for", "consults_for", "employer", "employed_by", "employed_at", "employee_of", "hired_at", "hired_by", "hirer"},
	"works_in":           {"place_of_work", "work_location", "workplace", "transferred_to"},
	"occupation":         {"profession", "job", "works_as", "job_title", "career", "promoted_to", "role", "job_role", "line_of_work", "vocation", "trade", "freelances_as", "retrained_as", "retrains_as", "requalified_as", "requalifies_as"},
	"citizen_of":         {"citizenship_in", "citizenship", "nationality", "national_of", "country_of_citizenship", "citizenship_of", "passport", "passport_from", "passport_of"},
	"educated_at":        {"alumnus_of", "alumna_of", "alumni_of", "graduate_of", "educated_in", "studies_at", "degree_from", "degree_at", "graduates_from", "graduated_from", "alma_mater", "studied_at", "education", "attends_university", "attends_college", "attends_school"},
	"studies":            {"majors_in", "major", "field_of_study", "subject_of_study", "course_subject", "degree_subject"},
	"headquartered_in":   {"head_office", "head_office_in", "main_office", "main_office_in", "headquarters", "headquarters_located_in", "headquarters_in", "based_in", "hq", "hq_in", "headquarter", "headquarter_in", "based_out_of", "headquartered_out_of", "home_base"},
	"known_for":          {"remembered_for", "best_remembered_for", "major_work", "masterpiece", "magnum_opus", "best_known_work", "well_known_work", "best_known_for", "well_known_for", "famous_for", "best_known_for", "most_famous_work", "notable_work", "famous_work", "renowned_for", "greatest_work"},
	"author":             {"writer", "written_by", "authored_by"},
	"creator":            {"created_by", "creation_of", "dreamed_up_by", "dreamt_up_by", "thought_up_by", "invented_by"},
	"developer":          {"developed_by"},
	"performer":          {"performed_by", "sung_by", "singer", "recorded_by"},
	"founder":            {"founded_by", "set_up_by", "started_up_by", "established_by", "cofounder", "co-founder", "started_by", "starter"},
	"founded_in":         {"established_in", "formed_in"},
	"owner":              {"owned_by", "parent_company", "parent_organization", "subsidiary_of"},
	"producer":           {"builder", "built_by", "produced_by", "manufacturer", "made_by", "maker", "manufactured_by", "product_of"},
	"chair":              {"chairperson", "chairman", "chairwoman", "chaired_by", "chair_of_board", "chairman_of_board", "chairperson_of_board"},
	"head_of_state":      {"president", "monarch"},
	"head_of_government": {"prime_minister", "premier", "leader_of_government"},
	"ceo":                {"chief_executive_officer", "chief_executive", "top_executive", "leader", "led_by", "head", "headed_by", "runner", "run_by"},
	"director":           {"directed_by", "managing_director"},
	"capital":            {"capital_city", "capital_in", "seat_of_government"},
	"located_in":         {"in", "is_in", "lies_in", "lies_on", "lies_within", "situated_in", "located_within", "located_on"},
	"comes_from":         {"from", "origin_country", "created_in", "hails_from", "originates_in", "originated_in", "originates_from", "country_of_origin", "origin", "place_of_origin", "emerges_in", "emerged_in", "arises_in", "arose_in", "developed_in", "springs_up_in", "sprang_up_in", "sprung_up_in"},
	"religion":           {"faith", "religious_affiliation", "religion_or_worldview", "adherent_of", "follower_of", "believer_in", "converts_to", "converted_to"},
	"speaks":             {"fluent_in", "languages_spoken", "language_spoken", "speaker_of", "native_speaker_of", "fluent_speaker_of"},
	"member_of":          {"part_of", "membership_of", "member"},
	"child":              {"son", "daughter", "children", "kid", "eldest", "youngest"},
	"parent":             {"child_of", "son_of", "daughter_of", "born_to"},
	"lives_in":           {"resides_in", "residence", "home", "current_city", "place_of_residence", "moves_to", "moved_to", "relocates_to", "relocated_to", "moves_back_to", "moved_back_to", "moves_down_to", "moved_down_to", "moves_up_to", "moved_up_to", "moves_over_to", "moved_over_to", "moves_across_to", "moved_across_to", "moves_out_to", "moved_out_to", "rents_in", "rented_in"},
	"head_coach":         {"coach", "coached_by"},
	"manager":            {"line_manager", "boss", "supervisor", "supervised_by", "managed_by", "reports_to", "team_lead", "team_leader"},
	"record_label":       {"signed_to", "label", "records_for"},
	"official_language":  {"language_of_state", "official_tongue"},
	"position":           {"plays_as", "position_played", "plays_position", "plays_position_of"},
	"broadcaster":        {"aired_by", "premieres_on", "premiered_on", "premiers_on", "broadcast_on", "original_broadcaster", "broadcast_by", "airs_on", "aired_on", "original_network", "tv_channel", "original_channel", "broadcasts_on"},
	"twinned_with":       {"sister_city", "twin_city", "twin_town", "sister_town", "partner_city", "twinned_administrative_body", "sister_city_of", "twin_city_of", "twin_town_of", "sister_town_of", "partner_city_of"},
	"genre":              {"music", "music_genre", "musical_genre", "film_genre", "literary_genre", "artistic_genre", "type_of_music", "kind_of_music", "style_of_music"},
	"original_language":  {"original_language_of_work", "language_of_original_work"},
	"written_in":         {"language_of_work", "language_of_work_or_name", "in_language"},
	"sport":              {"plays_sport", "sports"},
	"team":               {"plays_for", "played_for", "member_of_sports_team", "club", "sports_team"},
	"native_language":    {"mother_tongue", "first_language", "native_tongue"},
	"salary":             {"pay", "wage", "wages", "income", "paycheck", "annual_salary", "earns", "take_home_pay", "take_home", "takes_home", "net_pay", "net_salary", "net_income", "gross_pay", "gross_salary", "gross_income", "base_salary", "base_pay", "basic_salary", "basic_pay", "basic", "ctc", "cost_to_company", "pay_package", "salary_package", "remuneration"},
	"phone_number":       {"phone", "mobile", "cell", "cell_number", "mobile_number", "telephone", "telephone_number", "phone_no"},
	"email":              {"email_address", "e-mail", "e_mail", "mail_address"},
	"hobby":              {"hobbies", "pastime", "pastimes", "takes_up", "took_up", "taken_up", "take_up"},
	"supports":           {"fan_of", "supporter_of"},
	"fee":                {"fees"},
}

var canonicalRelation = func() map[string]string {
	m := map[string]string{}
	for canon, aliases := range relationAliases {
		m[canon] = canon
		for _, a := range aliases {
			m[a] = canon
		}
	}
	return m
}()

// RelationKey returns the canonical key of a relation key: the key its alias group is known by
// ("birthplace" → "born_in", "works_for" → "works_at"), or the key itself. It is idempotent.
func RelationKey(key string) string {
	if c, ok := canonicalRelation[key]; ok {
		return c
	}
	for _, placed := range []string{"_located_in", "_situated_in", "_located_at", "_situated_at"} {
		// "main offices located in", "headquarters situated in": a participle of place between a relational
		// noun and its preposition says no more than the preposition ("the head office is in …").
		if head, ok := strings.CutSuffix(key, placed); ok && head != "" {
			if c := RelationKey(head + placed[strings.LastIndexByte(placed, '_'):]); c != head+placed[strings.LastIndexByte(placed, '_'):] {
				return c
			}
		}
	}
	if strings.Contains(key, "-") {
		// A hyphenated compound is the same words as the open one: "best-known work" is "best known work".
		if c := RelationKey(strings.ReplaceAll(key, "-", "_")); c != strings.ReplaceAll(key, "-", "_") {
			return c
		}
	}
	// "most notable work", "more famous work": the degree adverb of a superlative or a comparative before a
	// relation the table knows adds nothing to it.
	for _, degree := range []string{"most_", "more_"} {
		if rest, ok := strings.CutPrefix(key, degree); ok {
			if c, ok := canonicalRelation[rest]; ok {
				return c
			}
		}
	}
	// "chairperson", "spokesperson", "chairman": the person suffix adds nothing to the relation.
	for _, suffix := range []string{"person", "woman", "man"} {
		if base := strings.TrimSuffix(key, suffix); base != key && len(base) > 3 && !strings.HasSuffix(base, "_") {
			if c, ok := canonicalRelation[base]; ok {
				return c
			}
		}
	}
	// "the genre X performs", "the position X plays", "X holds citizenship": a verb whose object is a
	// relational noun says the noun's relation ("performs_genre" is genre). Only a verb in the third person
	// qualifies (how the extractor keys active verbs), and only a noun — a preposition after the verb
	// ("lives_in") is the verb's own.
	if verb, noun, ok := strings.Cut(key, "_"); ok && len(verb) > 2 && strings.HasSuffix(verb, "s") && !auxiliaries[verb] && !prepositions[lastWord(noun)] {
		if c, ok := canonicalRelation[noun]; ok {
			return c
		}
	}
	return key
}

// prepositions end relation keys that are verbs with their preposition ("lives_in", "works_at").
var prepositions = map[string]bool{"in": true, "at": true, "on": true, "of": true, "to": true, "for": true,
	"from": true, "by": true, "with": true, "as": true, "into": true, "about": true, "within": true}

func lastWord(key string) string { return key[strings.LastIndexByte(key, '_')+1:] }

// RelationAliases returns the alias groups: canonical key → its aliases.
func RelationAliases() map[string][]string {
	out := make(map[string][]string, len(relationAliases))
	for k, v := range relationAliases {
		out[k] = append([]string(nil), v...)
	}
	return out
}

// KnownRelation reports whether key is a canonical relation key or one of its aliases.
func KnownRelation(key string) bool {
	_, ok := canonicalRelation[key]
	return ok
}

// DistinctRelations reports two relation keys that the alias table knows as different relations (both known,
// with different canonical keys): "works_at" and "works_in" are close phrases — the local model's embeddings of
// "works at" and "works in" are nearer than the reconciler's merge threshold — but an employer and a town are
// two attributes. Where the table tells relations apart, its distinction is the more precise knowledge than a
// similarity of phrases; similarity merges the paraphrases the table does not know.
//
// A relation's source and its goal are told apart as well: the same verb with "from" and with "to"
// ("switches_from" and "switches_to", "moved_from" and "moved_to") names what was left and what was taken up,
// opposite roles of one event (the source and goal of English grammars' thematic roles), however alike the
// phrases sound.
func DistinctRelations(a, b string) bool {
	if a == b {
		return false
	}
	if KnownRelation(a) && KnownRelation(b) && RelationKey(a) != RelationKey(b) {
		return true
	}
	return sourceAndGoal(a, b) || sourceAndGoal(b, a) || eventAndDate(a, b) || eventAndDate(b, a)
}

// eventAndDate reports an event's key and the key of an event's date ("wedding", "wedding_date"): where an
// event is and when it is are two values (EventDateKey), however alike the words.
func eventAndDate(event, date string) bool {
	_, isDate := EventOfDateKey(date)
	return isDate && EventKey(event)
}

// sourceAndGoal reports a key said with "from" and another of the same stem said with "to" or "into".
func sourceAndGoal(from, to string) bool {
	stem, ok := strings.CutSuffix(from, "_from")
	if !ok || stem == "" {
		return false
	}
	return to == stem+"_to" || to == stem+"_into"
}

// converses maps a relation to its converse: if (A, r, B) then (B, converse(r), A). These are the converse
// pairs of English kinship and marriage terms (a parent's child, a child's parent, a spouse's spouse, a
// sibling's sibling), the relations whose converse a person asks about as often as the relation itself
// ("Who is X's child?" after "X is the parent of Y"), and twinning, which is mutual (a town's twin town has it
// as its own). Keys are canonical (RelationKey).
var converses = map[string]string{
	"parent": "child", "father": "child", "mother": "child", "child": "parent", "son": "parent",
	"daughter": "parent", "spouse": "spouse", "sibling": "sibling", "brother": "sibling", "sister": "sibling",
	"twinned_with": "twinned_with",
}

// ConverseRelation returns the canonical key of the converse of a relation key ("parent" → "child",
// "spouse" → "spouse") and whether it has one.
func ConverseRelation(key string) (string, bool) {
	c, ok := converses[RelationKey(key)]
	return c, ok
}

// CountKeyPrefix starts the relation key of a count of things of a kind: "number_of_cupcake_ordered" (how many
// cupcakes were ordered), "number_of_cat" (how many cats one has). The extractor keys counts so; a count names
// its kind in the key, so two counts are one relation only when their keys are equal (IsCountKey).
const CountKeyPrefix = "number_of_"

// IsCountKey reports whether a predicate key is a count's. The verb of a count is said the same for every
// kind ("completed 10 classification problems", "completed 12 area problems"), so a count's relation phrase
// says less than its key: paraphrase merging by the phrase must leave counts to their keys.
func IsCountKey(k string) bool { return strings.HasPrefix(k, CountKeyPrefix) }

// SameHead reports whether two predicate keys name one attribute by the head of an English compound noun:
// one key is the other with modifiers before it ("number" and "phone_number", "appointment" and
// "dentist_appointment", "budget" and "apartment_budget"), or with modifiers between its first word and its
// head (innerModifierDropped: "kitchen_budget" and "kitchen_renovation_budget"). A compound names a kind of
// what its last noun names, and a later bare head ("my number") refers back to the compound already
// established, as a definite noun phrase does. Keys that end in a preposition or a particle ("lives_in",
// "works_at") are relations, not attribute nouns, and never match this way; nor do the fallback predicates, nor
// counts ("number_of_cat" is how many cats, not a kind of cat).
func SameHead(a, b string) bool {
	if a == b || a == "" || b == "" || IsCountKey(a) || IsCountKey(b) {
		return false
	}
	short, long := a, b
	if len(short) > len(long) {
		short, long = long, short
	}
	last := short[strings.LastIndexByte(short, '_')+1:]
	if keyRelationWords[last] {
		return false
	}
	if !strings.HasSuffix(long, "_"+short) {
		return innerModifierDropped(short, long)
	}
	// The words before the head must modify it: "used_to_diet" is the past habitual of the diet, and
	// "trip_to_diet" no kind of diet; a modifier phrase never ends in a preposition.
	prefix := strings.TrimSuffix(long, "_"+short)
	return !keyRelationWords[prefix[strings.LastIndexByte(prefix, '_')+1:]]
}

// innerModifierDropped reports a compound said again without a modifier between its first word and its
// head ("kitchen_budget" for "kitchen_renovation_budget", "wedding_venue" for "wedding_reception_venue"): the
// shorter keeps the first modifier and the head, and its words are the longer's in order. Every word of the
// longer is a noun or adjective of the compound (none of keyRelationWords: "trip_to_paris_budget" is no
// kind of "trip_budget").
func innerModifierDropped(short, long string) bool {
	sw, lw := strings.Split(short, "_"), strings.Split(long, "_")
	if len(sw) < 2 || len(lw) <= len(sw) || sw[0] != lw[0] || sw[len(sw)-1] != lw[len(lw)-1] {
		return false
	}
	for _, w := range lw {
		if keyRelationWords[w] {
			return false
		}
	}
	i := 0
	for _, w := range lw {
		if i < len(sw) && w == sw[i] {
			i++
		}
	}
	return i == len(sw)
}

// keyRelationWords end the keys that are relations rather than attribute nouns (a preposition, a particle, a
// verb of the fallback predicates, an article).
var keyRelationWords = map[string]bool{"in": true, "at": true, "on": true, "of": true, "to": true, "for": true,
	"from": true, "by": true, "with": true, "as": true, "into": true, "about": true, "up": true, "out": true,
	"off": true, "said": true, "mentioned": true, "is": true, "a": true, "has": true, "did": true}
