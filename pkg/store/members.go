package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Reconciler membership and partition ownership: a replica registers as a member (reconciler_members) and holds,
// on one dedicated connection, a session advisory lock that makes it count as live and one per partition it
// owns. Postgres releases them when the connection dies, even on kill -9. services/reconciler/ownership.go
// decides which partitions to take; these are its statements.

// RegisterMember adds a member row for instance and takes its member lock (class memberClass, key the member
// number) on conn, in one transaction, so the row becomes visible together with its lock and no survivor can
// mistake it for a dead member. It returns the member number and the database's oid (pg_locks names it).
func RegisterMember(ctx context.Context, conn *pgx.Conn, instance string, memberClass int32) (memberNo int64, dbOID uint32, err error) {
	err = pgx.BeginFunc(ctx, conn, func(tx pgx.Tx) error {
		if err := tx.QueryRow(ctx, `INSERT INTO reconciler_members (instance) VALUES ($1) RETURNING member_no`, instance).Scan(&memberNo); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_lock($1, $2::int)`, memberClass, memberNo); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT oid FROM pg_database WHERE datname = current_database()`).Scan(&dbOID)
	})
	if err != nil {
		return 0, 0, fmt.Errorf("store: register member: %w", err)
	}
	return memberNo, dbOID, nil
}

// PruneMembers counts the live members — those whose member lock (class memberClass in database dbOID) is held
// right now — and deletes the rows of the others.
func PruneMembers(ctx context.Context, db DB, dbOID uint32, memberClass int32) (live int, err error) {
	if err := db.QueryRow(ctx, `SELECT count(*) FROM reconciler_members m WHERE EXISTS (
			SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.database = $1 AND l.classid = $2::int::oid
			  AND l.objid = m.member_no::int::oid AND l.objsubid = 2 AND l.granted)`, dbOID, memberClass).Scan(&live); err != nil {
		return 0, fmt.Errorf("store: count live members: %w", err)
	}
	if _, err := db.Exec(ctx, `DELETE FROM reconciler_members m WHERE NOT EXISTS (
			SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' AND l.database = $1 AND l.classid = $2::int::oid
			  AND l.objid = m.member_no::int::oid AND l.objsubid = 2 AND l.granted)`, dbOID, memberClass); err != nil {
		return 0, fmt.Errorf("store: remove dead members: %w", err)
	}
	return live, nil
}

// RemoveMember deletes member memberNo's row (its locks go with its connection).
func RemoveMember(ctx context.Context, db DB, memberNo int64) error {
	if _, err := db.Exec(ctx, `DELETE FROM reconciler_members WHERE member_no = $1`, memberNo); err != nil {
		return fmt.Errorf("store: remove member: %w", err)
	}
	return nil
}

// TryLock takes the session advisory lock (class, key) if it is free and reports whether it did.
func TryLock(ctx context.Context, db DB, class, key int32) (bool, error) {
	var got bool
	if err := db.QueryRow(ctx, `SELECT pg_try_advisory_lock($1, $2)`, class, key).Scan(&got); err != nil {
		return false, fmt.Errorf("store: lock (%d, %d): %w", class, key, err)
	}
	return got, nil
}

// Unlock releases the session advisory lock (class, key).
func Unlock(ctx context.Context, db DB, class, key int32) error {
	if _, err := db.Exec(ctx, `SELECT pg_advisory_unlock($1, $2)`, class, key); err != nil {
		return fmt.Errorf("store: unlock (%d, %d): %w", class, key, err)
	}
	return nil
}
