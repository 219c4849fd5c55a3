package pgtest

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// Scratch databases outside tests: benchmarks and tools that need a fresh database of their own use these
// (with their own name prefix), tests use New, URL or NewDB.

// CreateDatabase creates database name (from template0) on the server of the admin URL, whose role needs
// CREATEDB, installs pgvector in it, and returns its URL.
func CreateDatabase(ctx context.Context, admin, name string) (string, error) {
	conn, err := connect(ctx, admin)
	if err != nil {
		return "", fmt.Errorf("no PostgreSQL at %s: %w", Redact(admin), err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()+" TEMPLATE template0"); err != nil {
		return "", fmt.Errorf("create database %s on %s: %w (the role needs CREATEDB)", name, Redact(admin), err)
	}
	dbURL, err := WithDatabase(admin, name)
	if err != nil {
		return "", err
	}
	dbConn, err := connect(ctx, dbURL)
	if err != nil {
		return "", fmt.Errorf("connect to new database %s: %w", name, err)
	}
	defer dbConn.Close(context.Background())
	if _, err := dbConn.Exec(ctx, "CREATE EXTENSION IF NOT EXISTS vector"); err != nil {
		return "", fmt.Errorf("pgvector is not installed on this server (run scripts/deps.sh): %w", err)
	}
	return dbURL, nil
}

// DropDatabase drops database name on the server of the admin URL, ending any session still connected to it.
// A database that does not exist is not an error.
func DropDatabase(ctx context.Context, admin, name string) error {
	conn, err := connect(ctx, admin)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	_, err = conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)")
	return err
}

// DropStale drops the databases named by ScratchName with prefix that were created more than maxAge ago —
// left behind by runs killed before they cleaned up — and returns their names.
func DropStale(ctx context.Context, admin, prefix string, maxAge time.Duration) ([]string, error) {
	conn, err := connect(ctx, admin)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	return dropStaleWith(ctx, conn, prefix, maxAge, time.Now())
}
