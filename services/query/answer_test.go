package query

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/store"
)

func TestTimeReading(t *testing.T) {
	for q, want := range map[string]temporal{
		"Where does Alice live?":                                    askCurrent,
		"Where did Alice use to live?":                              askFormer,
		"Where did Alice live before?":                              askFormer,
		"Where did Alice originally live?":                          askEarliest,
		"Does Alice still live in Paris?":                           askChange,
		"Has Alice's address changed?":                              askChange,
		"On which continent was Le Petit Parisien originally made?": askCurrent,
		"Which country does the sport originally come from?":        askCurrent,
	} {
		if got := parseQuestion(q, nil).time.mode; got != want {
			t.Errorf("time mode of %q = %v, want %v", q, got, want)
		}
	}
}

// An answer read from a slot of sentence claims is its newest sentence: the sentences are every statement
// the speaker made, not the values of one attribute, and listing the older ones would present what they
// said as still true. A slot of one attribute with several values still lists them all.
func TestSentenceSlotAnswersWithNewest(t *testing.T) {
	older := &store.Belief{ID: "c1", Subject: "Chloe", Predicate: "said", PredicateKey: "said", Object: "My favourite band right now is Arctic Monkeys."}
	newer := &store.Belief{ID: "c2", Subject: "Chloe", Predicate: "said", PredicateKey: "said", Object: "They have officially replaced Arctic Monkeys as my favourite band."}
	miso := &store.Belief{ID: "c3", Subject: "Jonah", Predicate: "cat", PredicateKey: "cat", Object: "Miso"}
	tofu := &store.Belief{ID: "c4", Subject: "Jonah", Predicate: "cat", PredicateKey: "cat", Object: "Tofu"}
	for _, tc := range []struct {
		winners []*store.Belief
		want    string
	}{
		{[]*store.Belief{newer, older}, "They have officially replaced Arctic Monkeys as my favourite band."},
		{[]*store.Belief{tofu, miso}, "Tofu, Miso"},
	} {
		sl := &store.Slot{Winners: tc.winners, Claims: tc.winners}
		c := &chain{hops: []hop{{slot: sl, claim: tc.winners[0]}}}
		res := &api.AnswerResponse{}
		(&Service{}).deterministic(c, timeAsk{}, res)
		if res.Answer != tc.want {
			t.Errorf("answer %q, want %q", res.Answer, tc.want)
		}
	}
}
