package event_test

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/schemas"
)

// FuzzDecode feeds arbitrary bytes to the envelope decoder and the payload decoder: no panic, and anything
// accepted has the attributes CloudEvents requires.
func FuzzDecode(f *testing.F) {
	examples, err := schemas.Examples()
	if err != nil {
		f.Fatal(err)
	}
	for _, ex := range examples {
		f.Add([]byte(ex.JSON))
	}
	f.Add([]byte(`{"specversion":"1.0","id":"x","source":"s","type":"io.mneme.claim.v1.proposed","data":{"valid_from":7}}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, b []byte) {
		env, err := event.Decode(b)
		if err != nil {
			return
		}
		if env.ID == "" || env.Type == "" || env.Source == "" || env.SpecVersion != event.SpecVersion {
			t.Fatalf("accepted an envelope missing required attributes: %+v", env)
		}
		_, _ = env.Payload()
	})
}
