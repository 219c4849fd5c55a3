package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/mneme-ai/mneme/pkg/store"
)

// The values a subject's single-valued slots no longer have: superseded versions of functional claims the
// reader may see, newest first — not an accumulating slot's, not another subject's or workspace's, not another
// agent's private tier, and nothing for a view set in another time.
func TestReplacedValuesAreTheSubjectsSupersededSingleValues(t *testing.T) {
	pool := migrated(t)
	ctx := context.Background()
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	dec := "00000000-0000-5000-8000-999999999999"
	ch := &store.Changes{}
	n := 0
	add := func(ws, subject, slot, object string, functional bool, scope, owner, status string, month int, until int) {
		n++
		id := fmt.Sprintf("00000000-0000-5000-8000-%012d", n)
		from := t0.AddDate(0, month, 0)
		ch.Claims = append(ch.Claims, store.ClaimRow{ID: id, Workspace: ws, SubjectKey: subject, Subject: subject,
			PredicateKey: slot, Predicate: slot, SlotKey: slot, Object: object, ObjectKey: object,
			Text: subject + " " + slot + " " + object, Functional: functional, Scope: scope, OwnerAgent: owner,
			Confidence: 1, ValidFrom: from, Provenance: `{"agent_id":"` + owner + `"}`, StreamSeq: int64(n), RecordedAt: t0,
			SourceKey: "agent:" + owner, Extractor: "structured", Trust: 1})
		v := store.VersionRow{ClaimID: id, Version: 1, Workspace: ws, Status: status, ValidFrom: from, RecordedAt: t0, DecisionID: dec}
		if until > 0 {
			to := t0.AddDate(0, until, 0)
			v.ValidTo = &to
		}
		ch.Versions = append(ch.Versions, v)
	}
	add("w", "liam", "lives_in", "Leeds", true, "shared", "a", "superseded", 0, 3)
	add("w", "liam", "lives_in", "York", true, "shared", "a", "superseded", 3, 6)
	add("w", "liam", "lives_in", "Hull", true, "shared", "a", "active", 6, 0)
	add("w", "liam", "hobby", "chess", false, "shared", "a", "superseded", 1, 2)   // accumulating
	add("w", "liam", "works_at", "Acme", true, "private", "b", "superseded", 1, 2) // another agent's tier
	add("w", "liam", "works_at", "Initech", true, "private", "a", "superseded", 2, 4)
	add("w", "noah", "lives_in", "Bath", true, "shared", "a", "superseded", 1, 2) // another subject
	add("x", "liam", "lives_in", "Oslo", true, "shared", "a", "superseded", 1, 2) // another workspace
	if err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error { return store.Write(ctx, tx, ch) }); err != nil {
		t.Fatal(err)
	}
	v := store.View{Workspace: "w", Agent: "a"}
	got, err := store.ReplacedValues(ctx, pool, v, []string{"liam"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	var objects []string
	for _, b := range got {
		objects = append(objects, b.Object)
		if b.ValidTo == nil || b.Status != store.StatusSuperseded {
			t.Errorf("%s: status %s, valid to %v; want superseded with an end", b.Object, b.Status, b.ValidTo)
		}
	}
	if fmt.Sprint(objects) != "[York Initech Leeds]" {
		t.Errorf("replaced values of liam = %v, want [York Initech Leeds] (newest first)", objects)
	}
	if got, _ := store.ReplacedValues(ctx, pool, v, []string{"liam"}, 1); len(got) != 1 || got[0].Object != "York" {
		t.Errorf("limit 1: %v, want York alone", got)
	}
	past := t0.AddDate(0, 4, 0)
	for _, view := range []store.View{{Workspace: "w", Agent: "a", AsOf: &past}, {Workspace: "w", Agent: "a", KnownAt: &past}} {
		if got, err := store.ReplacedValues(ctx, pool, view, []string{"liam"}, 10); err != nil || got != nil {
			t.Errorf("a view in another time read %v (%v); want nothing", got, err)
		}
	}
}
