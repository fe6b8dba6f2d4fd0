package storage

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"time"
)

// golang-migrate serializes MySQL migrations with GET_LOCK, but its SQLite
// lock only works inside one process. When the bot and `rssbot migrate`
// start together on one file, both would read the same version and run the
// same migration. This lock is a row, like every other lease: one process
// migrates, the other waits and then finds nothing left to do.
const (
	migrateLockTable = "rssbot_migrate_lock"
	// migrateLockLease bounds how long a crashed migrator blocks others.
	migrateLockLease = 2 * time.Minute
	migrateLockPoll  = 25 * time.Millisecond
)

// lockSQLiteMigrations waits for the migration lock and returns its release.
func (s *Store) lockSQLiteMigrations(ctx context.Context) (release func(), err error) {
	_, err = s.db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+migrateLockTable+
		" (id INTEGER PRIMARY KEY CHECK (id = 1), owner TEXT NOT NULL, lease_until INTEGER NOT NULL)")
	if err != nil {
		return nil, fmt.Errorf("create migration lock: %w", err)
	}
	owner := rand.Text()
	for {
		got, err := s.tryMigrateLock(ctx, owner)
		if err != nil {
			return nil, fmt.Errorf("take migration lock: %w", err)
		}
		if got {
			return func() {
				// A fresh context: the lock must go even if ctx has ended.
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				s.db.ExecContext(ctx, "DELETE FROM "+migrateLockTable+" WHERE owner = ?", owner)
			}, nil
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("wait for another process's migration: %w", ctx.Err())
		case <-time.After(migrateLockPoll):
		}
	}
}

func (s *Store) tryMigrateLock(ctx context.Context, owner string) (bool, error) {
	var holder string
	err := s.inTx(ctx, "migration lock", func(tx *sql.Tx) error {
		now := time.Now()
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+migrateLockTable+" WHERE lease_until <= ?", now.UnixMilli()); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, "INSERT OR IGNORE INTO "+migrateLockTable+" (id, owner, lease_until) VALUES (1, ?, ?)",
			owner, now.Add(migrateLockLease).UnixMilli())
		if err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, "SELECT owner FROM "+migrateLockTable+" WHERE id = 1").Scan(&holder)
	})
	return holder == owner, err
}
