package bench

import (
	"testing"
	"time"
)

func TestAskKind(t *testing.T) {
	said := map[string]string{"D1:1": "ayla", "D1:2": "bruno", "D1:3": "ayla"}
	cases := []struct {
		asker    string
		evidence []string
		want     string
	}{
		{"ayla", []string{"D1:1"}, AskSameAgent},
		{"ayla", []string{"D1:1", "D1:3"}, AskSameAgent},
		{"bruno", []string{"D1:1", "D1:3"}, AskCrossAgent}, // every evidence turn said by the other agent
		{"ayla", []string{"D1:1", "D1:2"}, AskMixed},
		{"bruno", []string{"D1:2", "D9:9"}, AskSameAgent}, // unknown turns are ignored
		{"ayla", []string{"D9:9"}, ""},
		{"ayla", nil, ""},
	}
	for _, c := range cases {
		if got := AskKind(c.asker, c.evidence, said); got != c.want {
			t.Errorf("AskKind(%s, %v) = %q, want %q", c.asker, c.evidence, got, c.want)
		}
	}
}

func TestAgentID(t *testing.T) {
	for in, want := range map[string]string{"Caroline": "caroline", "Mary Jane": "mary-jane", "  ": "agent", "O'Brien": "o-brien", "jo.doe@x": "jo.doe@x"} {
		if got := AgentID(in); got != want {
			t.Errorf("AgentID(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestPercentile(t *testing.T) {
	var d []time.Duration
	for i := 1; i <= 100; i++ {
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	// Nearest rank: p50 of 1..100 ms is the 50th value, p99 the 99th.
	if p := percentile(d, 0.5); p != 50 {
		t.Errorf("p50 %v, want 50", p)
	}
	if p := percentile(d, 0.99); p != 99 {
		t.Errorf("p99 %v, want 99", p)
	}
	if p := percentile(nil, 0.5); p != 0 {
		t.Errorf("p50 of nothing %v", p)
	}
}
