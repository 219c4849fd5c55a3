package embedder

import (
	"os"
	"testing"
)

// FuzzDecodeProposed: the embedder's decoder of claims-to-embed never panics, and whatever it accepts is a
// complete proposed claim.
func FuzzDecodeProposed(f *testing.F) {
	for _, p := range []string{"../../schemas/claim/v1/examples/proposed.json", "../../schemas/claim/v1/examples/proposed.structured.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"specversion":"1.0","id":"x","source":"s","type":"io.mneme.claim.v1.proposed","time":"2026-01-01T00:00:00Z","data":{}}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := decodeProposed(b)
		if err != nil {
			return
		}
		if c.ClaimID == "" || c.Workspace == "" || c.SubjectKey == "" || c.Text == "" || !c.Scope.Valid() || c.ValidFrom.IsZero() {
			t.Fatalf("accepted an incomplete claim: %+v", c)
		}
	})
}
