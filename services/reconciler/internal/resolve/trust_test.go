package resolve

import (
	"reflect"
	"testing"
)

func trust(x float32) func(*Claim) { return func(c *Claim) { c.Trust = x } }
func quarantined() func(*Claim)    { return func(c *Claim) { c.Quarantined = true } }

// Source trust ranks before the operator: a claim never outranks a claim of a more trusted source, whatever
// their valid times; among equally trusted claims the operator decides as always. The outcome is the same for
// every arrival order.
func TestFoldTrust(t *testing.T) {
	tests := []struct {
		name       string
		ranker     Ranker
		functional bool
		claims     []Claim
		want       map[string]Status
		by         map[string]string // SupersededBy
	}{
		{
			name: "a later untrusted claim cannot supersede a trusted one", ranker: LWW, functional: true,
			claims: []Claim{cl("t", "berlin", 1, trust(1)), cl("u", "paris", 5, trust(0.2))},
			want:   map[string]Status{"t": Active, "u": Rejected},
			by:     map[string]string{"u": "t"},
		},
		{
			name: "a later trusted claim supersedes an untrusted one as usual", ranker: LWW, functional: true,
			claims: []Claim{cl("u", "paris", 1, trust(0.2)), cl("t", "berlin", 5, trust(1))},
			want:   map[string]Status{"t": Active, "u": Rejected},
			by:     map[string]string{"u": "t"},
		},
		{
			name: "untrusted claims resolve among themselves when no trusted claim is current", ranker: LWW, functional: true,
			claims: []Claim{cl("u1", "paris", 1, trust(0.2)), cl("u2", "rome", 5, trust(0.2))},
			want:   map[string]Status{"u1": Superseded, "u2": Active},
			by:     map[string]string{"u1": "u2"},
		},
		{
			name: "agreeing with the trusted value is represented by it", ranker: LWW, functional: true,
			claims: []Claim{cl("t", "berlin", 1, trust(1)), cl("u", "berlin", 5, trust(0.5))},
			want:   map[string]Status{"t": Active, "u": Superseded},
			by:     map[string]string{"u": "t"},
		},
		{
			name: "the trusted tier's own history still applies", ranker: LWW, functional: true,
			claims: []Claim{cl("t1", "berlin", 1, trust(1)), cl("t2", "lisbon", 3, trust(1)), cl("u", "berlin", 5, trust(0.2))},
			want:   map[string]Status{"t1": Superseded, "t2": Active, "u": Rejected},
			by:     map[string]string{"t1": "t2", "u": "t2"},
		},
		{
			name: "three levels", ranker: LWW, functional: true,
			claims: []Claim{cl("lo", "a", 9, trust(0.1)), cl("mid", "b", 5, trust(0.5)), cl("hi", "c", 1, trust(0.9))},
			want:   map[string]Status{"lo": Rejected, "mid": Rejected, "hi": Active},
			by:     map[string]string{"lo": "hi", "mid": "hi"},
		},
		{
			name: "evidence cannot be outvoted by untrusted sources", ranker: Evidence, functional: true,
			claims: []Claim{cl("t", "berlin", 1, trust(1)), cl("u1", "paris", 2, trust(0.2), withSource("x")),
				cl("u2", "paris", 3, trust(0.2), withSource("y")), cl("u3", "paris", 4, trust(0.2), withSource("z"))},
			want: map[string]Status{"t": Active, "u1": Rejected, "u2": Rejected, "u3": Rejected},
			by:   map[string]string{"u1": "t", "u2": "t", "u3": "t"},
		},
		{
			name: "accumulating slot: different values of any trust coexist", ranker: LWW, functional: false,
			claims: []Claim{cl("t", "tea", 1, trust(1)), cl("u", "coffee", 5, trust(0.2))},
			want:   map[string]Status{"t": Active, "u": Active},
		},
		{
			name: "a quarantined claim takes no part", ranker: LWW, functional: true,
			claims: []Claim{cl("a", "berlin", 1), cl("q", "paris", 9, quarantined())},
			want:   map[string]Status{"a": Active, "q": Quarantined},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			permutations(tt.claims, func(cs []Claim) {
				r := Fold(Input{Ranker: tt.ranker, Functional: tt.functional, Claims: cs})
				if got := statusesOf(r); !reflect.DeepEqual(got, tt.want) {
					t.Fatalf("order %v: statuses %v, want %v", ids(cs), got, tt.want)
				}
				for id, by := range tt.by {
					if r.States[id].SupersededBy != by {
						t.Fatalf("order %v: %s superseded by %q, want %q (%s)", ids(cs), id, r.States[id].SupersededBy, by, r.States[id].Why)
					}
				}
			})
		})
	}
	if PlainLWW(Input{Ranker: LWW, Claims: []Claim{cl("a", "x", 1, trust(1)), cl("b", "y", 2, trust(0.5))}}) {
		t.Fatal("PlainLWW holds for a tier with two trust levels")
	}
	if PlainLWW(Input{Ranker: LWW, Claims: []Claim{cl("a", "x", 1), cl("q", "y", 2, quarantined())}}) {
		t.Fatal("PlainLWW holds for a tier with a quarantined claim")
	}
}
