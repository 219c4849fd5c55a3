package e2e

import (
	"time"

	"github.com/mneme-ai/mneme/pkg/api"
)

// onDay is midnight UTC of a YYYY-MM-DD date.
func onDay(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t.UTC()
}

func ptime(t time.Time) *time.Time { return &t }

func claimIDs(cs []api.Claim) []string {
	var out []string
	for _, c := range cs {
		out = append(out, c.ID)
	}
	return out
}

func findClaim(cs []api.Claim, id string) *api.Claim {
	for i := range cs {
		if cs[i].ID == id {
			return &cs[i]
		}
	}
	return nil
}
