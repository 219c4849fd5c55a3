package main

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The load's turns are everyday statements about people — where they live, what they do, whom they work for,
// what they like — made from the small lists below (common English given names, occupations, world cities,
// pastimes: general vocabulary, chosen here, not read from any data set). Combinations give tens of thousands
// of distinct sentences, so claims, subjects and updates (a person moving city or changing job) keep arriving
// as in a real conversation, and the questions ask about the same people.
var (
	firstNames = []string{
		"Maria", "James", "Aisha", "Liam", "Sofia", "Noah", "Priya", "Lucas", "Hannah", "Mateo", "Chloe", "Ethan",
		"Yuki", "Omar", "Grace", "Daniel", "Leila", "Samuel", "Nina", "Victor", "Elena", "Tomas", "Zara", "Felix",
		"Clara", "Hugo", "Amara", "Jonah", "Ines", "Ravi", "Mila", "Oscar", "Fatima", "Leo", "Ava", "Kenji",
	}
	surnames = []string{
		"Garcia", "Smith", "Khan", "Murphy", "Rossi", "Nguyen", "Patel", "Silva", "Becker", "Lopez", "Martin", "Cohen",
		"Tanaka", "Haddad", "Okafor", "Novak", "Larsen", "Moreau", "Kowalski", "Dubois",
	}
	cities = []string{
		"Lisbon", "Toronto", "Nairobi", "Seoul", "Madrid", "Denver", "Melbourne", "Oslo", "Chicago", "Dublin",
		"Mumbai", "Vienna", "Austin", "Prague", "Lima", "Osaka", "Porto", "Montreal", "Seattle", "Edinburgh",
	}
	jobs = []string{
		"nurse", "software engineer", "teacher", "architect", "chef", "accountant", "pharmacist", "photographer",
		"electrician", "lawyer", "data analyst", "veterinarian", "journalist", "pilot", "dentist", "product designer",
	}
	companies = []string{
		"Northwind", "Bluepeak Labs", "Harbor Health", "Greenline Energy", "Atlas Logistics", "Summit Bank",
		"Riverside Clinic", "Brightside Media", "Ironwood Studios", "Cedar Analytics", "Maple Foods", "Orbit Air",
	}
	hobbies = []string{
		"rock climbing", "painting", "chess", "sailing", "baking bread", "running marathons", "playing the cello",
		"birdwatching", "gardening", "salsa dancing", "photography", "cycling", "knitting", "surfing",
	}
	foods    = []string{"sushi", "lasagna", "ramen", "tacos", "curry", "paella", "dumplings", "pho", "falafel", "risotto"}
	pets     = []string{"dog", "cat", "parrot", "rabbit", "turtle"}
	petNames = []string{"Biscuit", "Pepper", "Mochi", "Luna", "Rocket", "Olive", "Ziggy", "Maple", "Pickles", "Nova"}
	months   = []string{"January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"}
)

// generator makes turns and questions from a seed; turn(i) is a function of the seed and i alone.
type generator struct{ seed uint64 }

func newGenerator(seed uint64) *generator { return &generator{seed: seed} }

type genTurn struct{ speaker, content string }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

func (g *generator) person(r *rand.Rand) string {
	return pick(r, firstNames) + " " + pick(r, surnames)
}

// turn returns the i-th turn: one to three statements, in the first person (the speaker's facts) or about
// someone else.
func (g *generator) turn(i int64) genTurn {
	r := rand.New(rand.NewPCG(g.seed, uint64(i)))
	speaker := g.person(r)
	n := 1 + r.IntN(3)
	var parts []string
	for range n {
		parts = append(parts, g.statement(r))
	}
	return genTurn{speaker: speaker, content: strings.Join(parts, " ")}
}

func (g *generator) statement(r *rand.Rand) string {
	other := g.person(r)
	switch r.IntN(12) {
	case 0:
		return fmt.Sprintf("I moved to %s in %s.", pick(r, cities), pick(r, months))
	case 1:
		return fmt.Sprintf("I work as a %s at %s.", pick(r, jobs), pick(r, companies))
	case 2:
		return fmt.Sprintf("%s lives in %s.", other, pick(r, cities))
	case 3:
		return fmt.Sprintf("%s works at %s as a %s.", other, pick(r, companies), pick(r, jobs))
	case 4:
		return fmt.Sprintf("My favourite food is %s these days.", pick(r, foods))
	case 5:
		return fmt.Sprintf("%s's favourite hobby is %s.", other, pick(r, hobbies))
	case 6:
		return fmt.Sprintf("We adopted a %s named %s last %s.", pick(r, pets), pick(r, petNames), pick(r, months))
	case 7:
		return fmt.Sprintf("%s just started a new job at %s.", other, pick(r, companies))
	case 8:
		return fmt.Sprintf("I have been %s every weekend since %s.", pick(r, hobbies), pick(r, months))
	case 9:
		return fmt.Sprintf("%s was born in %s.", other, pick(r, cities))
	case 10:
		return fmt.Sprintf("My sister %s is a %s in %s.", pick(r, firstNames), pick(r, jobs), pick(r, cities))
	default:
		return fmt.Sprintf("%s is married to %s.", other, g.person(r))
	}
}

// question returns a question about the people and things the turns talk about.
func (g *generator) question(r *rand.Rand) string {
	p := g.person(r)
	switch r.IntN(8) {
	case 0:
		return fmt.Sprintf("Where does %s live?", p)
	case 1:
		return fmt.Sprintf("What does %s do for a living?", p)
	case 2:
		return fmt.Sprintf("Where does %s work?", p)
	case 3:
		return fmt.Sprintf("What is %s's favourite hobby?", p)
	case 4:
		return fmt.Sprintf("Who works at %s?", pick(r, companies))
	case 5:
		return fmt.Sprintf("Where was %s born?", p)
	case 6:
		return fmt.Sprintf("Who lives in %s?", pick(r, cities))
	default:
		return fmt.Sprintf("Who is %s married to?", p)
	}
}
