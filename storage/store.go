package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Store is the repository over MySQL/MariaDB or SQLite. It is safe for
// concurrent use, and several Stores (in one or many processes) may share a
// database: every cross-worker guarantee lives in the database.
type Store struct {
	db *sql.DB
	d  dialect
}

// querier is what both *sql.DB and *sql.Tx offer, so that read helpers run
// inside or outside a transaction.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: close: %w", err)
	}
	return nil
}

// Ping checks that the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.db.PingContext(ctx); err != nil {
		return fmt.Errorf("storage: ping: %w", err)
	}
	return nil
}

// Dialect names the database behind the store: "mysql" or "sqlite".
func (s *Store) Dialect() string { return s.d.name }

// maxTxAttempts bounds how often a transaction that lost a race (MySQL
// deadlock) is run again.
const maxTxAttempts = 5

// inTx runs fn in a write transaction (BEGIN IMMEDIATE on SQLite, READ
// COMMITTED on MySQL) and commits it. fn may run more than once when MySQL
// picks the transaction as a deadlock victim, so it must not carry state
// over from one run to the next. Inside fn, use only tx: a second
// connection from the small SQLite pool could wait forever.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	var err error
	for attempt := 1; attempt <= maxTxAttempts; attempt++ {
		err = s.runTx(ctx, fn)
		if err == nil || !s.d.isRetryable(err) || ctx.Err() != nil {
			break
		}
		// A short, growing pause lets the winner finish.
		time.Sleep(time.Duration(attempt*attempt) * 5 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("storage: %s: %w", op, err)
	}
	return nil
}

func (s *Store) runTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, s.d.writeTx)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, ignoreDone(tx.Rollback()))
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}

// ignoreDone drops the error of rolling back a transaction the driver
// already ended (e.g. after a deadlock).
func ignoreDone(err error) error {
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// notFound wraps ErrNotFound with what was looked for.
func notFound(what string, id any) error {
	return fmt.Errorf("%w: %s %v", ErrNotFound, what, id)
}

// msOf turns a time into the stored form: unix milliseconds, or NULL for the
// zero time.
func msOf(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return t.UnixMilli()
}

// timeOf turns a stored value back into a time (UTC); NULL is the zero time.
func timeOf(v sql.NullInt64) time.Time {
	if !v.Valid {
		return time.Time{}
	}
	return time.UnixMilli(v.Int64).UTC()
}

// idOrNull stores an optional reference: 0 means NULL.
func idOrNull(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// placeholders returns "?, ?, …" for n arguments.
func placeholders(n int) string {
	if n <= 0 {
		return ""
	}
	b := make([]byte, 0, 3*n)
	for i := range n {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, '?')
	}
	return string(b)
}
