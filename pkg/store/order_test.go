package store

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The expectations below are the design brief's rules, worked out by hand:
//   - LWW: "latest valid time wins; ties broken by source sequence, then marked disputed when truly
//     simultaneous";
//   - tiers: "an agent reads its private claims plus the shared tier; private wins ties unless the shared claim
//     is newer and corroborated".

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func hours(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }

func seq(n int64) *int64 { return &n }

func TestCompareBelief(t *testing.T) {
	for _, tc := range []struct {
		name         string
		aFrom, bFrom time.Time
		aSeq, bSeq   *int64
		want         int
	}{
		{"later valid time is newer", hours(2), hours(1), nil, nil, 1},
		{"later valid time is newer whatever the sequences", hours(1), hours(2), seq(9), seq(1), -1},
		{"same valid time: the higher sequence is newer", hours(1), hours(1), seq(2), seq(1), 1},
		{"same valid time: the lower sequence is older", hours(1), hours(1), seq(1), seq(2), -1},
		{"same valid time and sequence: simultaneous", hours(1), hours(1), seq(3), seq(3), 0},
		{"same valid time, no sequences: simultaneous", hours(1), hours(1), nil, nil, 0},
		// The tie cannot be broken by the source sequence when one claim has none: truly simultaneous.
		{"same valid time, only one sequence: simultaneous", hours(1), hours(1), seq(4), nil, 0},
		{"same valid time, only the other sequence: simultaneous", hours(1), hours(1), nil, seq(4), 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CompareBelief(tc.aFrom, tc.aSeq, tc.bFrom, tc.bSeq); got != tc.want {
				t.Fatalf("CompareBelief = %d, want %d", got, tc.want)
			}
			if got := CompareBelief(tc.bFrom, tc.bSeq, tc.aFrom, tc.aSeq); got != -tc.want {
				t.Fatalf("CompareBelief reversed = %d, want %d", got, -tc.want)
			}
		})
	}
}

// Newer lists a slot newest first the same way for every reader: belief order, then (among simultaneous claims)
// a sequence before none, the later transaction time, the larger id.
func TestNewerListsDeterministically(t *testing.T) {
	b := func(id string, from time.Time, s *int64, recorded int) *Belief {
		return &Belief{ID: id, ValidFrom: from, Sequence: s, RecordedAt: hours(100 + recorded)}
	}
	cs := []*Belief{
		b("e", hours(1), nil, 1),
		b("a", hours(3), nil, 0),
		b("c", hours(2), nil, 5),
		b("d", hours(2), seq(1), 0),
		b("b", hours(2), nil, 5),
		b("f", hours(2), nil, 9),
	}
	slices.SortStableFunc(cs, func(x, y *Belief) int {
		switch {
		case Newer(x, y):
			return -1
		case Newer(y, x):
			return 1
		}
		return 0
	})
	var got []string
	for _, c := range cs {
		got = append(got, c.ID)
	}
	if want := "a d f c b e"; strings.Join(got, " ") != want {
		t.Fatalf("order %v, want %s", got, want)
	}
}

// belief builds a claim of slot "lives_in" of subject "alice" for agent "me"'s view.
type beliefOpt func(*Belief)

func private(b *Belief) { b.Scope, b.Owner = ScopePrivate, "me" }
func sources(n int) beliefOpt {
	return func(b *Belief) { b.Corroborations = n }
}
func status(s string) beliefOpt { return func(b *Belief) { b.Status = s } }
func withSeq(n int64) beliefOpt { return func(b *Belief) { b.Sequence = &n } }
func recorded(h int) beliefOpt  { return func(b *Belief) { b.RecordedAt = hours(h) } }
func accumulating(b *Belief)    { b.Functional = false }
func validTo(h int) beliefOpt   { return func(b *Belief) { t := hours(h); b.ValidTo = &t } }
func supersededBy(id string) beliefOpt {
	return func(b *Belief) { b.SupersededBy = append(b.SupersededBy, id) }
}

func belief(id, object string, from int, opts ...beliefOpt) Belief {
	b := Belief{ID: id, SubjectKey: "alice", SlotKey: "lives_in", Object: object, ObjectKey: strings.ToLower(object),
		Functional: true, Scope: ScopeShared, Owner: "other", Status: StatusActive, ValidFrom: hours(from),
		RecordedAt: hours(50), Corroborations: 1}
	for _, o := range opts {
		o(&b)
	}
	return b
}

func ids(bs []*Belief) string {
	var out []string
	for _, b := range bs {
		out = append(out, b.ID)
	}
	return strings.Join(out, ",")
}

func TestSlotResolution(t *testing.T) {
	asOf := func(h int) *time.Time { x := hours(h); return &x }
	for _, tc := range []struct {
		name       string
		asOf       *time.Time
		rows       []Belief
		winners    string
		disputed   bool
		overridden string
	}{
		{name: "the newest claim of a tier wins",
			rows:    []Belief{belief("a", "Paris", 1, status(StatusSuperseded)), belief("b", "Rome", 2)},
			winners: "b"},
		{name: "private wins over an older shared claim",
			rows:    []Belief{belief("p", "Paris", 2, private), belief("s", "Rome", 1, sources(3))},
			winners: "p", overridden: "s"},
		{name: "private wins over a newer shared claim that is not corroborated",
			rows:    []Belief{belief("p", "Paris", 1, private), belief("s", "Rome", 2)},
			winners: "p", overridden: "s"},
		{name: "a newer corroborated shared claim overrides private",
			rows:    []Belief{belief("p", "Paris", 1, private), belief("s", "Rome", 2, sources(2))},
			winners: "s", overridden: "p"},
		// Same valid time and no sequences is a tie, whatever the transaction times: private wins.
		{name: "private wins a tie against a corroborated shared claim recorded later",
			rows:    []Belief{belief("p", "Paris", 2, private, recorded(10)), belief("s", "Rome", 2, sources(3), recorded(20))},
			winners: "p", overridden: "s"},
		// At the same valid time the source sequence breaks the tie: the shared claim is newer.
		{name: "a corroborated shared claim newer by sequence overrides private",
			rows:    []Belief{belief("p", "Paris", 2, private, withSeq(1)), belief("s", "Rome", 2, sources(2), withSeq(2))},
			winners: "s", overridden: "p"},
		// One sequence missing: the tie cannot be broken, so private wins.
		{name: "private wins when only the shared claim has a sequence",
			rows:    []Belief{belief("p", "Paris", 2, private), belief("s", "Rome", 2, sources(2), withSeq(7))},
			winners: "p", overridden: "s"},
		// An accumulating slot has no tie to break: the reader sees its private values and the shared ones.
		{name: "accumulating slot: private values and shared values together",
			rows: []Belief{belief("p", "tea", 1, private, accumulating),
				belief("s", "coffee", 2, sources(3), accumulating)},
			winners: "s,p"},
		{name: "a disputed pair keeps both sides",
			rows:     []Belief{belief("a", "Paris", 2, status(StatusDisputed)), belief("b", "Rome", 2, status(StatusDisputed))},
			winners:  "b,a", // listed by id among equals
			disputed: true},
		// As of an instant when both were true, two claims the writer found simultaneous (one with a sequence,
		// one without) are a dispute, even after a later claim superseded both.
		{name: "as of a past instant, simultaneous claims with one sequence are disputed",
			asOf: asOf(3),
			rows: []Belief{belief("x", "Paris", 2, status(StatusSuperseded), validTo(5), supersededBy("z")),
				belief("y", "Rome", 2, withSeq(3), status(StatusSuperseded), validTo(5), supersededBy("z")),
				belief("z", "Oslo", 5)},
			winners: "y,x", disputed: true},
		// A superseded restatement without a valid_to is represented by its representative: as of any time it
		// is history, never the value shown, even when it was recorded later.
		{name: "as of a past instant, a restatement is represented by its representative",
			asOf: asOf(4),
			rows: []Belief{belief("rep", "Paris", 1, recorded(10)),
				belief("dup", "Paris", 1, status(StatusSuperseded), recorded(20), supersededBy("rep"))},
			winners: "rep"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			slots := GroupSlots(tc.rows, View{Workspace: "ws", Agent: "me", AsOf: tc.asOf})
			if len(slots) != 1 {
				t.Fatalf("%d slots", len(slots))
			}
			s := slots[0]
			if got := ids(s.Winners); got != tc.winners {
				t.Errorf("winners %s, want %s", got, tc.winners)
			}
			if s.Disputed != tc.disputed {
				t.Errorf("disputed %v, want %v", s.Disputed, tc.disputed)
			}
			if got := ids(s.Overridden); got != tc.overridden {
				t.Errorf("overridden %s, want %s", got, tc.overridden)
			}
		})
	}
}

// Quarantined beliefs never win and are kept apart.
func TestSlotQuarantined(t *testing.T) {
	rows := []Belief{belief("q", "Evil", 9, status(StatusQuarantined)), belief("a", "Paris", 1)}
	s := GroupSlots(rows, View{Workspace: "ws", Agent: "me", Quarantined: true})[0]
	if ids(s.Winners) != "a" || ids(s.Quarantined) != "q" || ids(s.Claims) != "a" {
		t.Fatalf("winners %s quarantined %s claims %s", ids(s.Winners), ids(s.Quarantined), ids(s.Claims))
	}
}

func ExampleCompareBelief() {
	noon := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	two := int64(2)
	fmt.Println(CompareBelief(noon, &two, noon, nil))
	fmt.Println(CompareBelief(noon.Add(time.Hour), nil, noon, &two))
	// Output:
	// 0
	// 1
}
