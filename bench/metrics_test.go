package bench

import (
	"math"
	"strings"
	"testing"
)

func TestContainsAny(t *testing.T) {
	got := ContainsAny("1. Alice lives in Paris.\n2. Alice lives in Berlin.", []string{"Berlin", "Rome", "paris"})
	if strings.Join(got, ",") != "Berlin,paris" {
		t.Fatal(got)
	}
}

func TestLoCoMoF1(t *testing.T) {
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if got := LoCoMoF1("temporal", "7 May 2023", []string{"7 May 2023"}); !near(got, 1) {
		t.Errorf("exact: %v", got)
	}
	// "running" and "runs" stem alike; articles and "and" are dropped.
	if got := LoCoMoF1("single-hop", "the running and painting", []string{"runs, painting"}); !near(got, 1) {
		t.Errorf("stemmed: %v", got)
	}
	// Multi-hop: each gold part takes its best prediction part.
	if got := LoCoMoF1("multi-hop", "pottery, camping", []string{"camping, pottery, painting"}); !near(got, 2.0/3) {
		t.Errorf("multi-hop: %v", got)
	}
	// Open-domain keeps the gold before ';'.
	if got := LoCoMoF1("open-domain", "likely yes", []string{"Likely yes; because she likes it"}); !near(got, 1) {
		t.Errorf("open-domain: %v", got)
	}
	if LoCoMoF1("adversarial", "That is not mentioned in the conversation.", nil) != 1 || LoCoMoF1("adversarial", "Paris", nil) != 0 {
		t.Error("adversarial rule")
	}
	if LoCoMoF1("single-hop", "", []string{"x"}) != 0 || LoCoMoF1("single-hop", "x", nil) != 0 {
		t.Error("empty")
	}
	// Partial overlap: precision 1/2, recall 1/1.
	if got := LoCoMoF1("single-hop", "Paris France", []string{"Paris"}); !near(got, 2*0.5*1/(1.5)) {
		t.Errorf("partial: %v", got)
	}
}

func TestRecall(t *testing.T) {
	r, hit := Recall([]string{"a", "b", "c", "d"}, map[string]bool{"b": true, "d": true, "z": true})
	if r != 0.5 || strings.Join(hit, ",") != "b,d" {
		t.Fatal(r, hit)
	}
	if r, _ := Recall(nil, nil); r != 1 {
		t.Fatal(r)
	}
}
