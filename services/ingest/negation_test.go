package ingest

import (
	"testing"

	"github.com/mneme-ai/mneme/pkg/event"
)

// A structured claim with negated: true reaches the pipeline negated, with a text that says so when none was
// given, and with another id than the same positive claim.
func TestBuildNegatedClaims(t *testing.T) {
	s := core(t, nil)
	body := claims(
		`{"subject":"Alice","predicate":"uses","object":"Zotero","valid_from":"2025-01-01T00:00:00Z","negated":true}`,
		`{"subject":"Alice","predicate":"uses","object":"Zotero","valid_from":"2025-01-01T00:00:00Z"}`,
		`{"subject":"Alice","predicate":"has used","object":"Mendeley","negated":true,"text":"Alice has never used Mendeley."}`,
	)
	events, ierr := s.decodeBatch(kindClaims, httpOrigin("alice"), []byte(body))
	if ierr != nil {
		t.Fatal(ierr)
	}
	var got []event.ClaimProposedV1
	for _, ev := range events {
		validEvent(t, ev.env)
		var c event.ClaimProposedV1
		if err := ev.env.Into(event.TypeClaimProposed, &c); err != nil {
			t.Fatal(err)
		}
		got = append(got, c)
	}
	neg, pos, given := got[0], got[1], got[2]
	if !neg.Negated || pos.Negated || !given.Negated {
		t.Fatalf("negated flags: %v %v %v", neg.Negated, pos.Negated, given.Negated)
	}
	if neg.ClaimID == pos.ClaimID {
		t.Fatal("a negated claim has the id of the same positive claim")
	}
	if neg.Text != "It is not true that "+pos.Text || given.Text != "Alice has never used Mendeley." {
		t.Fatalf("texts: %q / %q / %q", neg.Text, pos.Text, given.Text)
	}
	if _, ierr := s.decodeBatch(kindClaims, httpOrigin("alice"), []byte(claims(`{"subject":"A","predicate":"p","object":"o","negated":"yes"}`))); ierr == nil {
		t.Fatal("a non-boolean negated was accepted")
	}
}
