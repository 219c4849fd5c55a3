package query

import "testing"

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
