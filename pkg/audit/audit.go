// Package audit records Mneme's administrative actions — workspace creation, key issue and revocation,
// erasures, resolution-policy changes, quarantine releases — in Postgres (table audit_log) and relays them to
// the ledger stream as io.mneme.audit.v1.recorded events.
//
// An entry says who (the agent a key acted as, or "cli"; the key's public id), what (the action and its
// parameters: ids, roles, scopes, hashes) and when. It never holds erased content or a secret: callers pass
// only such values, and Record refuses details that are not strings, numbers or booleans.
//
// Writers record an entry in Postgres, inside the transaction of the action where there is one, so an action
// and its audit entry commit together. They need no broker: Relay (run by the reconciler) publishes the
// entries not yet published, with the entry id as the message id, and marks them published. A crash between
// publish and mark republishes the same id, which the stream's duplicate window drops.
package audit

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/mneme-ai/mneme/pkg/bus"
	"github.com/mneme-ai/mneme/pkg/event"
)

// ActorCLI is the actor of actions taken with the mneme admin commands.
const ActorCLI = "cli"

// SystemLedger is the ledger subject token of actions that concern no workspace (policy changes). Workspace
// ids start with a letter or digit, so it never names a workspace.
const SystemLedger = "_system"

// maxDetails bounds an entry's details (the event schema allows 32).
const maxDetails = 32

// Entry is one administrative action.
type Entry struct {
	// Workspace is the workspace acted on; empty for actions of no workspace.
	Workspace string
	// Action is one of the event.Audit* constants.
	Action string
	// Actor is the agent a key acted as, or ActorCLI.
	Actor string
	// KeyID is the public id of the key that acted, if any.
	KeyID string
	// Details are the action's parameters: ids, roles, scopes, hashes; string, number or boolean values.
	Details map[string]any
}

// Execer is a pool, connection or transaction.
type Execer interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// Record stores e and returns its id. Call it inside the action's transaction where there is one.
func Record(ctx context.Context, db Execer, e Entry) (string, error) {
	if e.Action == "" || e.Actor == "" {
		return "", errors.New("audit: an entry needs an action and an actor")
	}
	if len(e.Details) > maxDetails {
		return "", fmt.Errorf("audit: %d details, limit %d", len(e.Details), maxDetails)
	}
	for k, v := range e.Details {
		switch v.(type) {
		case string, bool, int, int64, float64:
		default:
			return "", fmt.Errorf("audit: detail %q is a %T; use a string, number or boolean", k, v)
		}
	}
	details := e.Details
	if details == nil {
		details = map[string]any{}
	}
	id := uuid.NewString()
	var ws, key any
	if e.Workspace != "" {
		ws = e.Workspace
	}
	if e.KeyID != "" {
		key = e.KeyID
	}
	if _, err := db.Exec(ctx, `INSERT INTO audit_log (id, workspace_id, action, actor, key_id, details) VALUES ($1, $2, $3, $4, $5, $6)`,
		id, ws, e.Action, e.Actor, key, details); err != nil {
		return "", fmt.Errorf("audit: record %s: %w", e.Action, err)
	}
	return id, nil
}

// Recorded is one stored entry.
type Recorded struct {
	Entry
	ID         string
	RecordedAt time.Time
	Published  bool
}

// List returns the entries of workspace ws (all workspaces when ws is empty), oldest first, at most limit.
func List(ctx context.Context, db *pgxpool.Pool, ws string, limit int) ([]Recorded, error) {
	rows, err := db.Query(ctx, `SELECT id::text, coalesce(workspace_id, ''), action, actor, coalesce(key_id, ''), details,
			recorded_at, published_at IS NOT NULL
		FROM audit_log WHERE $1 = '' OR workspace_id = $1 ORDER BY seq LIMIT $2`, ws, limit)
	if err != nil {
		return nil, fmt.Errorf("audit: list: %w", err)
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Recorded, error) {
		var e Recorded
		err := r.Scan(&e.ID, &e.Workspace, &e.Action, &e.Actor, &e.KeyID, &e.Details, &e.RecordedAt, &e.Published)
		return e, err
	})
}

// Event returns the ledger event of a stored entry and the subject it goes to.
func (r Recorded) Event() (string, event.Envelope, error) {
	at := r.RecordedAt.UTC()
	p := event.AuditRecordedV1{AuditID: r.ID, Workspace: r.Workspace, Action: r.Action, Actor: r.Actor, KeyID: r.KeyID,
		Details: r.Details, RecordedAt: at}
	if len(p.Details) == 0 {
		p.Details = nil
	}
	env, err := event.New(event.TypeAuditRecorded, "audit:"+r.ID, "mneme/audit", r.Workspace, at, p)
	if err != nil {
		return "", event.Envelope{}, err
	}
	ws := r.Workspace
	if ws == "" {
		ws = SystemLedger
	}
	return bus.LedgerSubject(ws), env, nil
}

// PublishPending publishes up to limit unpublished entries, oldest first, and marks them published. Rows are
// claimed with FOR UPDATE SKIP LOCKED, so replicas relaying at once publish each entry once (and a repeat is
// dropped by the message id anyway). It returns how many it published.
func PublishPending(ctx context.Context, db *pgxpool.Pool, js jetstream.JetStream, limit int) (int, error) {
	n := 0
	err := pgx.BeginFunc(ctx, db, func(tx pgx.Tx) error {
		rows, err := tx.Query(ctx, `SELECT id::text, coalesce(workspace_id, ''), action, actor, coalesce(key_id, ''), details, recorded_at
			FROM audit_log WHERE published_at IS NULL ORDER BY seq LIMIT $1 FOR UPDATE SKIP LOCKED`, limit)
		if err != nil {
			return err
		}
		pending, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Recorded, error) {
			var e Recorded
			err := r.Scan(&e.ID, &e.Workspace, &e.Action, &e.Actor, &e.KeyID, &e.Details, &e.RecordedAt)
			return e, err
		})
		if err != nil {
			return err
		}
		var done []string
		for _, e := range pending {
			subject, env, err := e.Event()
			if err != nil {
				return err
			}
			if _, err := bus.PublishEvent(ctx, js, subject, env); err != nil {
				return err
			}
			done = append(done, e.ID)
		}
		if len(done) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE audit_log SET published_at = now() WHERE id = ANY($1::uuid[])`, done); err != nil {
			return err
		}
		n = len(done)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("audit: publish: %w", err)
	}
	return n, nil
}

// Relay publishes unpublished entries every interval until ctx ends. Failures are logged and retried at the
// next tick: an entry stays in Postgres until it is on the ledger.
func Relay(ctx context.Context, db *pgxpool.Pool, js jetstream.JetStream, interval time.Duration, log *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		for {
			n, err := PublishPending(ctx, db, js, 100)
			if err != nil {
				if ctx.Err() == nil {
					log.Warn("audit: relay to the ledger failed; retrying", "err", err)
				}
				break
			}
			if n < 100 {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
