package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// AcquireLease takes or renews the named lease until now+ttl; false when
// another owner holds a live lease.
func (s *Store) AcquireLease(ctx context.Context, name, owner string, now time.Time, ttl time.Duration) (bool, error) {
	until := now.Add(ttl).UnixMilli()
	var ok bool
	err := s.inTx(ctx, "acquire lease", func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, s.d.insertIgnore+" leases (name, owner, lease_until) VALUES (?, ?, ?)", name, owner, until)
		if err != nil {
			return err
		}
		if ok, err = affectedOne(res); err != nil || ok {
			return err
		}
		// The row exists: take it over if it is ours or has run out.
		res, err = tx.ExecContext(ctx, "UPDATE leases SET owner = ?, lease_until = ? WHERE name = ? AND (owner = ? OR lease_until <= ?)",
			owner, until, name, owner, now.UnixMilli())
		if err != nil {
			return err
		}
		ok, err = affectedOne(res)
		return err
	})
	if err != nil {
		return false, err
	}
	return ok, nil
}

// ReleaseLease gives up owner's named lease; someone else's is left alone.
func (s *Store) ReleaseLease(ctx context.Context, name, owner string) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM leases WHERE name = ? AND owner = ?", name, owner); err != nil {
		return fmt.Errorf("storage: release lease: %w", err)
	}
	return nil
}

func affectedOne(res sql.Result) (bool, error) {
	n, err := res.RowsAffected()
	return n == 1, err
}
