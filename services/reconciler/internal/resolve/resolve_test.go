package resolve

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }

func seq(n int64) *int64 { return &n }

func cl(id, obj string, h int, opts ...func(*Claim)) Claim {
	c := Claim{ID: id, ObjectKey: obj, ValidFrom: at(h), Confidence: 0.5, Source: "src-" + id}
	for _, o := range opts {
		o(&c)
	}
	return c
}

func withSeq(n int64) func(*Claim)     { return func(c *Claim) { c.Sequence = seq(n) } }
func withSource(s string) func(*Claim) { return func(c *Claim) { c.Source = s } }
func withConf(x float32) func(*Claim)  { return func(c *Claim) { c.Confidence = x } }
func held() func(*Claim)               { return func(c *Claim) { c.Held = true } }
func gateRejected() func(*Claim)       { return func(c *Claim) { c.GateRejected = true } }
func statusesOf(r Result) map[string]Status {
	out := map[string]Status{}
	for id, s := range r.States {
		out[id] = s.Status
	}
	return out
}

// permutations calls f with every ordering of cs.
func permutations(cs []Claim, f func([]Claim)) {
	var rec func(int)
	a := append([]Claim(nil), cs...)
	rec = func(k int) {
		if k == len(a) {
			f(append([]Claim(nil), a...))
			return
		}
		for i := k; i < len(a); i++ {
			a[k], a[i] = a[i], a[k]
			rec(k + 1)
			a[k], a[i] = a[i], a[k]
		}
	}
	rec(0)
}

func TestFold(t *testing.T) {
	tests := []struct {
		name       string
		ranker     Ranker
		functional bool
		claims     []Claim
		verdicts   map[Pair]bool
		want       map[string]Status
		supBy      map[string]string
		validTo    map[string]time.Time
	}{
		{
			name: "lww later valid time wins", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1), cl("b", "london", 2)},
			want:   map[string]Status{"a": Superseded, "b": Active},
			supBy:  map[string]string{"a": "b"}, validTo: map[string]time.Time{"a": at(2)},
		},
		{
			name: "lww sequence breaks a valid-time tie", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1, withSeq(2)), cl("b", "london", 1, withSeq(1))},
			want:   map[string]Status{"a": Active, "b": Superseded},
			supBy:  map[string]string{"b": "a"}, validTo: map[string]time.Time{"b": at(1)},
		},
		{
			name: "lww truly simultaneous is disputed", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1), cl("b", "london", 1), cl("c", "rome", 0)},
			want:   map[string]Status{"a": Disputed, "b": Disputed, "c": Superseded},
			supBy:  map[string]string{"c": "a"},
		},
		{
			name: "lww one sequence absent is simultaneous", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1, withSeq(3)), cl("b", "london", 1)},
			want:   map[string]Status{"a": Disputed, "b": Disputed},
		},
		{
			name: "lww simultaneous restatement collapses to one", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1, withConf(0.4)), cl("b", "paris", 1, withConf(0.8))},
			want:   map[string]Status{"a": Superseded, "b": Active},
			supBy:  map[string]string{"a": "b"},
		},
		{
			name: "lww later restatement supersedes the earlier", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1), cl("b", "london", 2), cl("c", "paris", 3)},
			want:   map[string]Status{"a": Superseded, "b": Superseded, "c": Active},
			supBy:  map[string]string{"a": "b", "b": "c"},
		},
		{
			name: "accumulating values coexist", ranker: LWW, functional: false,
			claims: []Claim{cl("a", "pizza", 1), cl("b", "pasta", 2), cl("c", "pizza", 3)},
			want:   map[string]Status{"a": Superseded, "b": Active, "c": Active},
			supBy:  map[string]string{"a": "c"},
		},
		{
			name: "accumulating with a contradict verdict", ranker: LWW, functional: false,
			claims:   []Claim{cl("a", "dog", 1), cl("b", "cat", 2)},
			verdicts: map[Pair]bool{PairOf("a", "b"): true},
			want:     map[string]Status{"a": Superseded, "b": Active},
		},
		{
			name: "functional with a compatible verdict", ranker: LWW, functional: true,
			claims:   []Claim{cl("a", "acme", 1), cl("b", "acme research", 2)},
			verdicts: map[Pair]bool{PairOf("a", "b"): false},
			want:     map[string]Status{"a": Active, "b": Active},
		},
		{
			name: "held and gate-rejected claims stay out", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "paris", 1), cl("b", "london", 2, held()), cl("c", "rome", 3, gateRejected())},
			want:   map[string]Status{"a": Active, "b": Pending, "c": Rejected},
		},
		{
			name: "evidence: more independent sources win regardless of time", ranker: Evidence, functional: true,
			claims: []Claim{cl("a", "paris", 1, withSource("x")), cl("b", "paris", 2, withSource("y")), cl("c", "london", 3, withSource("z"), withConf(0.99))},
			want:   map[string]Status{"a": Superseded, "b": Active, "c": Rejected},
			supBy:  map[string]string{"a": "b", "c": "b"},
		},
		{
			name: "evidence: same source counts once", ranker: Evidence, functional: true,
			claims: []Claim{cl("a", "paris", 1, withSource("x")), cl("b", "paris", 2, withSource("x")), cl("c", "london", 3, withSource("z"), withConf(0.9))},
			want:   map[string]Status{"a": Rejected, "b": Rejected, "c": Active},
		},
		{
			name: "evidence: equal evidence is disputed", ranker: Evidence, functional: true,
			claims: []Claim{cl("a", "paris", 1), cl("b", "london", 2)},
			want:   map[string]Status{"a": Disputed, "b": Disputed},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var first map[string]State
			permutations(tc.claims, func(cs []Claim) {
				r := Fold(Input{Ranker: tc.ranker, Functional: tc.functional, Claims: cs, Verdicts: tc.verdicts})
				if got := statusesOf(r); !reflect.DeepEqual(got, tc.want) {
					t.Fatalf("statuses %v, want %v", got, tc.want)
				}
				for id, by := range tc.supBy {
					if r.States[id].SupersededBy != by {
						t.Fatalf("%s superseded by %q, want %q", id, r.States[id].SupersededBy, by)
					}
				}
				for id, vt := range tc.validTo {
					if got := r.States[id].ValidTo; got == nil || !got.Equal(vt) {
						t.Fatalf("%s valid_to %v, want %s", id, got, vt)
					}
				}
				if first == nil {
					first = r.States
				} else if !reflect.DeepEqual(first, r.States) {
					t.Fatalf("outcome depends on input order:\n%v\n%v", first, r.States)
				}
			})
		})
	}
}

// Growing the set one claim at a time in any order ends where folding the whole set ends: LWW's final state is
// independent of arrival order.
func TestFoldIncrementalOrderIndependent(t *testing.T) {
	claims := []Claim{cl("a", "paris", 1), cl("b", "london", 2), cl("c", "rome", 2, withSeq(1)), cl("d", "berlin", 2, withSeq(2)),
		cl("e", "madrid", 4), cl("f", "oslo", 4)}
	want := Fold(Input{Ranker: LWW, Functional: true, Claims: claims}).States
	permutations(claims, func(cs []Claim) {
		var set []Claim
		var last map[string]State
		for _, c := range cs {
			set = append(set, c)
			last = Fold(Input{Ranker: LWW, Functional: true, Claims: set}).States
		}
		if !reflect.DeepEqual(last, want) {
			t.Fatalf("order %v: %v, want %v", ids(cs), last, want)
		}
	})
}

func ids(cs []Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func TestConflicts(t *testing.T) {
	base := []Claim{cl("a", "paris", 1)}
	tests := []struct {
		name       string
		functional bool
		newcomer   Claim
		want       bool
	}{
		{"newer other value conflicts", true, cl("n", "london", 2, held()), true},
		{"older other value is outranked on arrival", true, cl("n", "london", 0, held()), false},
		{"restatement does not conflict", true, cl("n", "paris", 2, held()), false},
		{"simultaneous other value conflicts", true, cl("n", "london", 1, held()), true},
		{"accumulating never conflicts", false, cl("n", "london", 2, held()), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := Input{Ranker: LWW, Functional: tc.functional, Claims: append(append([]Claim(nil), base...), tc.newcomer)}
			if got := Conflicts(in, "n"); got != tc.want {
				t.Fatalf("Conflicts = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestCompareTime(t *testing.T) {
	a, b := cl("a", "x", 1, withSeq(1)), cl("b", "y", 1, withSeq(2))
	if CompareTime(&a, &b) >= 0 || CompareTime(&b, &a) <= 0 {
		t.Fatal("sequence does not order equal valid times")
	}
	c := cl("c", "z", 1)
	if CompareTime(&a, &c) != 0 {
		t.Fatal("an absent sequence must make equal valid times simultaneous")
	}
	if got := fmt.Sprint(PairOf("b", "a")); got != "{a b}" {
		t.Fatalf("PairOf = %s", got)
	}
}

// The O(n log n) folds agree with the pairwise definitions on random conflict sets.
func TestFastFoldsMatchPairwise(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 9))
	for round := range 3000 {
		n := 1 + rng.IntN(9)
		var cs []Claim
		allSeq := rng.IntN(2) == 0
		for i := range n {
			c := cl(fmt.Sprintf("c%02d", i), fmt.Sprintf("o%d", rng.IntN(3)), rng.IntN(4),
				withSource(fmt.Sprintf("s%d", rng.IntN(3))), withConf(float32(rng.IntN(3))/4))
			if allSeq {
				c.Sequence = seq(int64(rng.IntN(3)))
			}
			cs = append(cs, c)
		}
		for _, functional := range []bool{true, false} {
			for _, r := range []Ranker{LWW, Evidence} {
				in := Input{Ranker: r, Functional: functional, Claims: cs}
				fast := Fold(in).States
				slow := map[string]State{}
				var cands []*Claim
				sorted := append([]Claim(nil), cs...)
				slices.SortFunc(sorted, func(a, b Claim) int { return cmp.Compare(a.ID, b.ID) })
				for i := range sorted {
					cands = append(cands, &sorted[i])
				}
				if r == LWW {
					foldLWW(in, cands, slow)
				} else {
					foldEvidence(in, cands, slow)
				}
				for id, s := range slow {
					f := fast[id]
					if f.Status != s.Status || f.SupersededBy != s.SupersededBy || !eqTimePtr(f.ValidTo, s.ValidTo) {
						t.Fatalf("round %d %s functional=%v claim %s: fast %+v, pairwise %+v\nclaims %+v", round, r, functional, id, f, s, cs)
					}
				}
			}
		}
	}
}

func eqTimePtr(a, b *time.Time) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return a.Equal(*b)
}

// Adding claims one at a time and updating only what FoldLWWAdded returns gives, at every step, exactly Fold of
// the whole set.
func TestFoldLWWAddedMatchesFold(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for round := range 2000 {
		functional := rng.IntN(2) == 0
		allSeq := rng.IntN(2) == 0
		var set []Claim
		state := map[string]State{}
		for i := range 1 + rng.IntN(10) {
			c := cl(fmt.Sprintf("c%02d", rng.IntN(100)*100+i), fmt.Sprintf("o%d", rng.IntN(3)), rng.IntN(4), withConf(float32(rng.IntN(3))/4))
			if allSeq {
				c.Sequence = seq(int64(rng.IntN(3)))
			}
			set = append(set, c)
			in := Input{Ranker: LWW, Functional: functional, Claims: set}
			if !PlainLWW(in) {
				t.Fatal("plain LWW input not recognised")
			}
			for id, s := range FoldLWWAdded(in, c.ID) {
				state[id] = s
			}
			want := Fold(in).States
			if !reflect.DeepEqual(state, want) {
				t.Fatalf("round %d step %d (functional=%v): incremental\n%v\nfull\n%v", round, i, functional, state, want)
			}
		}
	}
}
