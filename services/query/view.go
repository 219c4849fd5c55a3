package query

import (
	"fmt"
	"strings"

	"github.com/mneme-ai/mneme/pkg/api"
	"github.com/mneme-ai/mneme/pkg/store"
)

// Every read of the projection goes through a store.View (visibility and bitemporal coordinates) and the read
// model of pkg/store (store.Belief, store.Slot): this file holds only what the query service adds to it.

// apiClaim converts a belief to its wire form.
func apiClaim(r *store.Belief) api.Claim {
	c := api.Claim{
		ID: r.ID, Text: r.Text, Subject: r.Subject, SubjectKey: r.SubjectKey, Predicate: r.Predicate,
		PredicateKey: r.PredicateKey, Object: r.Object, Functional: r.Functional, Status: r.Status,
		ValidFrom: r.ValidFrom.UTC(), RecordedAt: r.RecordedAt.UTC(), Sequence: r.Sequence, Scope: r.Scope,
		Owner: r.Owner, Confidence: r.Confidence, Negated: r.Negated,
		Corroborations: r.Corroborations, Corroborated: r.Corroborations >= store.CorroboratedAt,
		SupportConfidence: r.SupportConfidence,
	}
	if r.ValidTo != nil {
		t := r.ValidTo.UTC()
		c.ValidTo = &t
	}
	if r.RetiredAt != nil {
		t := r.RetiredAt.UTC()
		c.RetiredAt = &t
	}
	return c
}

// subjectClaimsLimit bounds how many claims one subject contributes to a lookup; popular subjects are cut
// newest-first so a query stays bounded.
const subjectClaimsLimit = 500

// vectorLiteral formats a query vector for a ::vector cast without depending on a registered vector type.
func vectorLiteral(v []float32) string {
	var b strings.Builder
	b.Grow(len(v) * 10)
	b.WriteByte('[')
	for i, x := range v {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%g", x)
	}
	b.WriteByte(']')
	return b.String()
}
