package bench

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// placeholder finds the template fields of a phrasing.
var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

// normPhrasing compares phrasings across pools: case, the lower-case mark and punctuation do not make two
// phrasings different.
func normPhrasing(p string) string {
	p = strings.ToLower(strings.TrimPrefix(p, "~"))
	return strings.Trim(strings.Join(strings.Fields(p), " "), ".?!")
}

func TestPhrasingTables(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range factRelations {
		if seen[r.ID] {
			t.Errorf("%s appears twice", r.ID)
		}
		seen[r.ID] = true
		if r.Published.SubexpIndex("s") < 0 || r.Published.SubexpIndex("o") < 0 {
			t.Errorf("%s: published shape %q lacks the s or o group", r.ID, r.Published)
		}
		for _, kind := range []struct {
			name   string
			pools  phrasingPools
			fields []string // every phrasing of the kind uses these
		}{
			{"fact", r.Facts, []string{"{s}", "{o}|{a_o}"}},
			{"question", r.Questions, []string{"{s}"}},
			{"role", r.Roles, []string{"{s}"}},
		} {
			dev, check := map[string]bool{}, map[string]bool{}
			for _, pool := range Pools {
				ps := kind.pools.pool(pool)
				if len(ps) < 2 {
					t.Errorf("%s %s: %d %s phrasings in the %s pool, want at least 2", r.ID, r.Name, len(ps), kind.name, pool)
				}
				if kind.name != "fact" && !slices.ContainsFunc(ps, func(p string) bool { return !strings.Contains(p, "{s}'s") }) {
					t.Errorf("%s %s %s: every phrasing is possessive; a multi-hop description needs another", r.ID, pool, kind.name)
				}
				for _, p := range ps {
					for _, f := range kind.fields {
						if !slices.ContainsFunc(strings.Split(f, "|"), func(x string) bool { return strings.Contains(p, x) }) {
							t.Errorf("%s %s %s phrasing %q lacks %s", r.ID, pool, kind.name, p, f)
						}
					}
					for _, f := range placeholder.FindAllString(p, -1) {
						if f != "{s}" && f != "{o}" && f != "{a_o}" {
							t.Errorf("%s %s phrasing %q: unknown field %s", r.ID, kind.name, p, f)
						}
					}
					if kind.name == "question" && !strings.HasSuffix(p, "?") && !strings.HasPrefix(p, "~") && !strings.HasSuffix(p, ".") {
						t.Errorf("%s question %q ends without punctuation but is not typed as chat", r.ID, p)
					}
					m := dev
					if pool == PoolCheck {
						m = check
					}
					if m[normPhrasing(p)] {
						t.Errorf("%s %s %s phrasing %q appears twice", r.ID, pool, kind.name, p)
					}
					m[normPhrasing(p)] = true
				}
			}
			for p := range dev {
				if check[p] {
					t.Errorf("%s %s phrasing %q is in both pools", r.ID, kind.name, p)
				}
			}
		}
	}
}

// Every published sentence shape maps to exactly the relation it names, with the right subject and object.
func TestParsePublishedFact(t *testing.T) {
	for _, c := range []struct{ sentence, rel, s, o string }{
		{"Thomas Kyd was born in the city of London", "P19", "Thomas Kyd", "London"},
		{"The univeristy where Galileo Galilei was educated is University of Pisa", "P69", "Galileo Galilei", "University of Pisa"},
		{"The name of the current head of state in United Kingdom is Elizabeth II", "P35", "United Kingdom", "Elizabeth II"},
		{"The name of the current head of the Pittsburgh government is Bill Peduto", "P6", "Pittsburgh", "Bill Peduto"},
		{"The headquarters of University of California, Berkeley is located in the city of Berkeley", "P159", "University of California, Berkeley", "Berkeley"},
		{"Pedro Pierluisi worked in the city of Washington, D.C.", "P937", "Pedro Pierluisi", "Washington, D.C."},
		{"Walter Chrysler's child is Walter Percy Chrysler Jr.", "P40", "Walter Chrysler", "Walter Percy Chrysler Jr."},
		{"quarterback is associated with the sport of American football", "P641", "quarterback", "American football"},
		{"Bengaluru is located in the continent of Asia", "P30", "Bengaluru", "Asia"},
		{"Bengaluru is located in Karnataka", "P131", "Bengaluru", "Karnataka"},
		{"The Prime Minister of Sweden is Stefan Löfven", "P1308", "Prime Minister of Sweden", "Stefan Löfven"},
		{"The capital of Tang Empire is Chang'an", "P36", "Tang Empire", "Chang'an"},
		{"The origianl broadcaster of 666 Park Avenue is American Broadcasting Company", "P449", "666 Park Avenue", "American Broadcasting Company"},
		{"Moshe Kahlon works in the field of politician", "P106", "Moshe Kahlon", "politician"},
		{"This Is England was created by Shane Meadows", "P170", "This Is England", "Shane Meadows"},
	} {
		f, ok := parsePublishedFact(c.sentence)
		if !ok || f.rel.ID != c.rel || f.s != c.s || f.o != c.o {
			got := "no match"
			if ok {
				got = f.rel.ID + " (" + f.s + " | " + f.o + ")"
			}
			t.Errorf("%q: got %s, want %s (%s | %s)", c.sentence, got, c.rel, c.s, c.o)
		}
	}
	if _, ok := parsePublishedFact("Hello there"); ok {
		t.Error("a sentence of no known shape matched")
	}
}

func TestRenderPhrasing(t *testing.T) {
	for _, c := range []struct{ tmpl, s, o, want string }{
		{"{s} worked in {o}.", "Pedro Pierluisi", "Washington, D.C.", "Pedro Pierluisi worked in Washington, D.C."},
		{"{s}'s sport is {o}.", "quarterback", "American football", "Quarterback's sport is American football."},
		{"~{s} was born in {o}", "Thomas Kyd", "London", "thomas kyd was born in london"},
		{"{s} works as {a_o}.", "Stephen McNeil", "actor", "Stephen McNeil works as an actor."},
		{"{s} works as {a_o}.", "Stephen McNeil", "journalist", "Stephen McNeil works as a journalist."},
		{"{s} works as {a_o}.", "Ann", "university lecturer", "Ann works as a university lecturer."},
		{"Which country is {s} a citizen of?", "the spouse of the author of X", "", "Which country is the spouse of the author of X a citizen of?"},
	} {
		if got := renderPhrasing(c.tmpl, c.s, c.o); got != c.want {
			t.Errorf("renderPhrasing(%q, %q, %q) = %q, want %q", c.tmpl, c.s, c.o, got, c.want)
		}
	}
}

// A hand-made chain: X's author A, A's spouse B, B's citizenship C.
func TestComposeQuestion(t *testing.T) {
	rel := func(id string) *factRelation {
		for i := range factRelations {
			if factRelations[i].ID == id {
				return &factRelations[i]
			}
		}
		t.Fatalf("no relation %s", id)
		return nil
	}
	facts := map[int64]parsedFact{
		1: {rel("P50"), "Our Mutual Friend", "Charles Dickens"},
		2: {rel("P26"), "Charles Dickens", "Catherine Hogarth"},
		3: {rel("P27"), "Catherine Hogarth", "Belgium"},
		4: {rel("P27"), "Someone Else", "France"},
	}
	for _, pool := range FactPools {
		for seed := range uint64(8) {
			q, ok := composeQuestion(facts, []int64{1, 2, 3}, pool, seed, "q")
			if !ok {
				t.Fatal("chain not composed")
			}
			// The entity is named, the intermediate answers are not, and no description is possessive.
			l := strings.ToLower(q)
			if !strings.Contains(l, "our mutual friend") || strings.Contains(l, "dickens") || strings.Contains(l, "catherine") || strings.Contains(l, "belgium") {
				t.Errorf("%s seed %d: %q", pool, seed, q)
			}
			single, _ := composeQuestion(facts, []int64{3}, pool, seed, "q")
			if !strings.Contains(strings.ToLower(single), "catherine hogarth") {
				t.Errorf("single hop %q does not name its subject", single)
			}
		}
	}
	if _, ok := composeQuestion(facts, []int64{1, 4}, PoolDev, 1, "q"); ok {
		t.Error("a chain whose hops do not link was composed")
	}
	if _, ok := composeQuestion(facts, []int64{9}, PoolDev, 1, "q"); ok {
		t.Error("a chain with an unknown fact was composed")
	}
}

func loadShippedFactConsolidation(t *testing.T) *Dataset {
	t.Helper()
	d, err := LoadFactConsolidation(sharedData(t, "memoryagentbench/factconsolidation_6k.json"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestRewordShippedFactConsolidation(t *testing.T) {
	pub := loadShippedFactConsolidation(t)
	// Every published fact has a known relation.
	for _, tr := range pub.Conversations[0].Turns() {
		m := factNumber.FindStringSubmatch(tr.Content)
		if m == nil {
			t.Fatalf("turn %q is not a numbered fact", tr.Content)
		}
		if _, ok := parsePublishedFact(trimFactStop(m[2])); !ok {
			t.Errorf("fact of no known relation: %q", tr.Content)
		}
	}
	for _, pool := range FactPools {
		for _, v := range []Variant{VariantFacts, VariantQuestions, VariantBoth} {
			d := loadShippedFactConsolidation(t)
			st, err := RewordFactConsolidation(d, RewordOptions{Variant: v, Pool: pool, Seed: 1})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := d.Validate(); err != nil {
				t.Fatalf("%s/%s: %v", v, pool, err)
			}
			if len(st.Unmatched) > 0 {
				t.Errorf("%s/%s: unmatched facts %v", v, pool, st.Unmatched)
			}
			if len(st.Relations) < 35 {
				t.Errorf("%s/%s: %d relations, want the 35 of the 6k data", v, pool, len(st.Relations))
			}
			wantFacts := 0
			if v.facts() {
				wantFacts = 455
			}
			if st.Facts != 455 || st.FactsReworded != wantFacts {
				t.Errorf("%s/%s: %s", v, pool, st)
			}
			// Every question whose answer chain the loader reconstructed is reworded.
			if v.questions() && st.QuestionsReworded < 195 {
				t.Errorf("%s/%s: only %d questions reworded (kept %v)", v, pool, st.QuestionsReworded, st.Kept)
			}
			pubTurns, turns := pub.Conversations[0].Turns(), d.Conversations[0].Turns()
			changed := 0
			for i := range turns {
				if turns[i].ID != pubTurns[i].ID || turns[i].Seq != pubTurns[i].Seq || !turns[i].Time.Equal(pubTurns[i].Time) {
					t.Fatalf("turn %d identity changed: %+v vs %+v", i, turns[i], pubTurns[i])
				}
				if turns[i].Content != pubTurns[i].Content {
					changed++
					num := strings.SplitN(pubTurns[i].Content, ". ", 2)[0] + ". "
					if !strings.HasPrefix(turns[i].Content, num) {
						t.Errorf("reworded fact lost its number: %q", turns[i].Content)
					}
				}
			}
			if v.facts() != (changed > 400) {
				t.Errorf("%s/%s: %d of 455 facts changed", v, pool, changed)
			}
			if v.facts() != (d.Conversations[0].ID != pub.Conversations[0].ID) {
				t.Errorf("%s/%s: conversation id %q (published %q)", v, pool, d.Conversations[0].ID, pub.Conversations[0].ID)
			}
			for i, q := range d.Questions {
				p := pub.Questions[i]
				// Gold answers and annotations are unchanged: only the words change.
				if q.ID != p.ID || !slices.Equal(q.Golds, p.Golds) || q.Category != p.Category || !slices.Equal(q.Chain, p.Chain) ||
					!slices.Equal(q.Stale, p.Stale) || q.ConversationID != d.Conversations[0].ID {
					t.Fatalf("question %s changed beyond its words: %+v vs %+v", p.ID, q, p)
				}
				if v.questions() != (q.Text != p.Text) && !slices.Contains(st.Kept, q.ID) {
					t.Errorf("%s/%s: question %s %q vs published %q", v, pool, q.ID, q.Text, p.Text)
				}
			}
		}
	}
}

// The rewording is a function of the seed: the same seed gives the same text, another seed other choices;
// the two pools share no sentence.
func TestRewordDeterministic(t *testing.T) {
	text := func(pool Pool, seed uint64) []string {
		d := loadShippedFactConsolidation(t)
		if _, err := RewordFactConsolidation(d, RewordOptions{Variant: VariantBoth, Pool: pool, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tr := range d.Conversations[0].Turns() {
			out = append(out, tr.Content)
		}
		for _, q := range d.Questions {
			out = append(out, q.Text)
		}
		return out
	}
	a, b, c := text(PoolDev, 7), text(PoolDev, 7), text(PoolDev, 8)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed gave different text")
	}
	diff := 0
	for i := range a {
		if a[i] != c[i] {
			diff++
		}
	}
	if diff < len(a)/4 {
		t.Errorf("seeds 7 and 8 differ in only %d of %d texts", diff, len(a))
	}
	check := text(PoolCheck, 7)
	same := 0
	for i := range a {
		if a[i] == check[i] {
			same++
		}
	}
	// Only questions kept as published (no chain) may coincide.
	if same > 5 {
		t.Errorf("dev and check pools give %d identical texts", same)
	}
	if testing.Verbose() {
		for i := 0; i < len(a); i += 23 {
			t.Logf("dev %q | check %q", a[i], check[i])
		}
	}
}

// The fresh and blind pools (blind rewordings) each cover every relation with at least three facts, two questions and two
// roles, valid placeholders, and a non-possessive question and role for multi-hop descriptions.
func TestFreshPhrasings(t *testing.T) {
	ids := map[string]bool{}
	for _, pool := range []Pool{PoolFresh, PoolBlind, PoolEveryday} {
		for _, r := range factRelations {
			ids[r.ID] = true
			for _, kind := range []struct {
				name   string
				ps     []string
				min    int
				fields []string // every phrasing of the kind uses these
			}{
				{"fact", r.Facts.pool(pool), 3, []string{"{s}", "{o}|{a_o}"}},
				{"question", r.Questions.pool(pool), 2, []string{"{s}"}},
				{"role", r.Roles.pool(pool), 2, []string{"{s}"}},
			} {
				if len(kind.ps) < kind.min {
					t.Errorf("%s %s: %d %s %s phrasings, want at least %d", r.ID, r.Name, len(kind.ps), pool, kind.name, kind.min)
				}
				if kind.name != "fact" && !slices.ContainsFunc(kind.ps, func(p string) bool { return !strings.Contains(p, "{s}'s") }) {
					t.Errorf("%s %s %s: every phrasing is possessive; a multi-hop description needs another", r.ID, pool, kind.name)
				}
				seen := map[string]bool{}
				for _, p := range kind.ps {
					for _, f := range kind.fields {
						if !slices.ContainsFunc(strings.Split(f, "|"), func(x string) bool { return strings.Contains(p, x) }) {
							t.Errorf("%s %s %s phrasing %q lacks %s", r.ID, pool, kind.name, p, f)
						}
					}
					for _, f := range placeholder.FindAllString(p, -1) {
						if f != "{s}" && f != "{o}" && f != "{a_o}" {
							t.Errorf("%s %s %s phrasing %q: unknown field %s", r.ID, pool, kind.name, p, f)
						}
					}
					if strings.Count(p, "{") != len(placeholder.FindAllString(p, -1)) || strings.Count(p, "{") != strings.Count(p, "}") {
						t.Errorf("%s %s %s phrasing %q: a brace that is no placeholder", r.ID, pool, kind.name, p)
					}
					if kind.name == "question" && !strings.HasSuffix(p, "?") && !strings.HasPrefix(p, "~") && !strings.HasSuffix(p, ".") {
						t.Errorf("%s %s question %q ends without punctuation but is not typed as chat", r.ID, pool, p)
					}
					if seen[normPhrasing(p)] {
						t.Errorf("%s %s %s phrasing %q appears twice", r.ID, pool, kind.name, p)
					}
					seen[normPhrasing(p)] = true
				}
			}
		}
	}
	for pool, m := range map[Pool]map[string]freshRelationPhrasings{PoolFresh: freshPhrasings, PoolBlind: blindPhrasings, PoolEveryday: everydayPhrasings} {
		for id := range m {
			if !ids[id] {
				t.Errorf("%s phrasings of %s, which is no relation", pool, id)
			}
		}
	}
	for _, pool := range []Pool{PoolFresh, PoolBlind, PoolEveryday} {
		if _, err := ParsePool(string(pool)); err != nil {
			t.Error(err)
		}
		if _, err := LoadConvUpdatesPool(pool); err == nil {
			t.Errorf("convupdates loaded the %s pool, which has no dialogs", pool)
		}
	}
}
