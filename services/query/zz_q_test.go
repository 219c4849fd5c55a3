package query

import (
	"fmt"
	"testing"
)

func TestZZQ(t *testing.T) {
	for _, q := range []string{"When was the offsite originally planned?", "When was Alice's offsite originally planned?", "When was the offsite originally planned for?", "Who does Hamish work for?", "Which team does Lorenzo support?", "Who is the treasurer of the allotment society?", "What does Declan do?"} {
		fmt.Printf("%s => %+v\n", q, parseQuestion(q, nil))
	}
}
