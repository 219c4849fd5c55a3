package audit_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/mneme-ai/mneme/pkg/audit"
	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/bus/bustest"
	"github.com/mneme-ai/mneme/pkg/event"
	"github.com/mneme-ai/mneme/pkg/pgtest"
	"github.com/mneme-ai/mneme/pkg/store"
	"github.com/mneme-ai/mneme/schemas"
)

// Entries recorded in Postgres reach the ledger once each, as schema-valid events on their workspace's ledger
// subject (or the system ledger), and are marked published.
func TestRecordAndRelay(t *testing.T) {
	pool := pgtest.New(t)
	ctx := context.Background()
	if _, err := store.Migrate(ctx, pool); err != nil {
		t.Fatal(err)
	}
	srv := bustest.Start(t)

	if _, err := audit.Record(ctx, pool, audit.Entry{Workspace: "acme", Action: event.AuditKeyRevoked, Actor: "dpo", KeyID: "mk_0123456789abcdef",
		Details: map[string]any{"key_id": "mk_fedcba9876543210"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := audit.Record(ctx, pool, audit.Entry{Action: event.AuditPolicyChanged, Actor: "reconciler",
		Details: map[string]any{"from": "builtin-1", "to": "2026-11#abc"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := audit.Record(ctx, pool, audit.Entry{Workspace: "acme", Action: event.AuditKeyIssued, Actor: "cli",
		Details: map[string]any{"payload": []byte("x")}}); err == nil {
		t.Fatal("a detail that is not a string, number or boolean was recorded")
	}

	n, err := audit.PublishPending(ctx, pool, srv.JS, 100)
	if err != nil || n != 2 {
		t.Fatalf("published %d, %v; want 2", n, err)
	}
	if n, err := audit.PublishPending(ctx, pool, srv.JS, 100); err != nil || n != 0 {
		t.Fatalf("second relay published %d, %v; want 0", n, err)
	}
	for _, tt := range []struct{ subject, action, actor string }{
		{bus.LedgerSubject("acme"), event.AuditKeyRevoked, "dpo"},
		{bus.LedgerSubject(audit.SystemLedger), event.AuditPolicyChanged, "reconciler"},
	} {
		msgs := srv.Collect(t, bus.StreamLedger, tt.subject, 2, 2*time.Second)
		if len(msgs) != 1 {
			t.Fatalf("%s: %d messages, want 1", tt.subject, len(msgs))
		}
		if err := schemas.Validate(event.TypeAuditRecorded, msgs[0].Data()); err != nil {
			t.Fatalf("%s: %v", tt.subject, err)
		}
		env, err := event.Decode(msgs[0].Data())
		if err != nil {
			t.Fatal(err)
		}
		var p event.AuditRecordedV1
		if err := env.Into(event.TypeAuditRecorded, &p); err != nil {
			t.Fatal(err)
		}
		if p.Action != tt.action || p.Actor != tt.actor || msgs[0].Headers().Get("Nats-Msg-Id") != "audit:"+p.AuditID {
			b, _ := json.Marshal(p)
			t.Fatalf("event %s with message id %q", b, msgs[0].Headers().Get("Nats-Msg-Id"))
		}
	}
	entries, err := audit.List(ctx, pool, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.Published {
			t.Fatalf("entry %s not marked published", e.ID)
		}
	}
}
