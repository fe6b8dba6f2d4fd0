package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// feedIsDue is the condition on feeds f for "enabled, subscribed and due at
// ?" (a feed never scheduled is due). feedIsDueOrStale adds "or not polled
// since ?", the cutoff of a forced round (`rssbot poll --all`).
const (
	feedIsDue = `f.disabled_at IS NULL AND (f.next_poll_at IS NULL OR f.next_poll_at <= ?)
		AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.feed_id = f.id)`
	feedIsDueOrStale = `f.disabled_at IS NULL
		AND (f.next_poll_at IS NULL OR f.next_poll_at <= ? OR f.last_poll_at IS NULL OR f.last_poll_at < ?)
		AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.feed_id = f.id)`
)

// dueCondition returns the feed condition and its arguments. A zero
// notPolledSince means "due by schedule only".
func dueCondition(now, notPolledSince time.Time) (string, []any) {
	if notPolledSince.IsZero() {
		return feedIsDue, []any{now.UnixMilli()}
	}
	return feedIsDueOrStale, []any{now.UnixMilli(), notPolledSince.UnixMilli()}
}

// ClaimDueHosts leases up to limit hosts that have a due, enabled feed with at
// least one subscription and no live lease (MySQL: FOR UPDATE SKIP LOCKED;
// SQLite: one IMMEDIATE transaction). When notPolledSince is not zero, a feed
// that has not been polled since then counts as due too: a forced round over
// every enabled feed that ends once each was polled. Hosts come back in name
// order.
func (s *Store) ClaimDueHosts(ctx context.Context, owner string, now time.Time, leaseFor time.Duration, limit int, notPolledSince time.Time) ([]string, error) {
	if limit <= 0 {
		return nil, nil
	}
	cond, condArgs := dueCondition(now, notPolledSince)
	nowMS, until := now.UnixMilli(), now.Add(leaseFor).UnixMilli()
	var claimed []string
	err := s.inTx(ctx, "claim due hosts", func(tx *sql.Tx) error {
		claimed = nil
		// Find with a plain read, then lock by key: see claimRows.
		args := append([]any{nowMS}, condArgs...)
		args = append(args, limit*claimWindow)
		found, err := queryStrings(ctx, tx, `SELECT h.host FROM hosts h
			WHERE (h.lease_until IS NULL OR h.lease_until <= ?)
			AND EXISTS (SELECT 1 FROM feeds f WHERE f.host = h.host AND `+cond+`)
			ORDER BY h.host LIMIT ?`, args...)
		if err != nil || len(found) == 0 {
			return err
		}
		args = make([]any, 0, len(found)+2)
		for _, h := range found {
			args = append(args, h)
		}
		args = append(args, nowMS, limit)
		candidates, err := queryStrings(ctx, tx, "SELECT host FROM hosts WHERE host IN ("+placeholders(len(found))+
			") AND (lease_until IS NULL OR lease_until <= ?) ORDER BY host LIMIT ?"+s.d.lockSkip, args...)
		if err != nil {
			return err
		}
		for _, host := range candidates {
			// The lease condition is checked again: the claim must hold even
			// if the SELECT above saw a stale row.
			res, err := tx.ExecContext(ctx, `UPDATE hosts SET lease_owner = ?, lease_until = ?
				WHERE host = ? AND (lease_until IS NULL OR lease_until <= ?)`, owner, until, host, nowMS)
			if err != nil {
				return err
			}
			if n, err := res.RowsAffected(); err != nil {
				return err
			} else if n == 1 {
				claimed = append(claimed, host)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return claimed, nil
}

// ClaimHost leases one given host to owner until now+leaseFor, whether or
// not it has due feeds (a manual "poll now"); false when another owner
// holds a live lease. Owner's own live lease is extended.
func (s *Store) ClaimHost(ctx context.Context, host, owner string, now time.Time, leaseFor time.Duration) (bool, error) {
	var ok bool
	err := s.inTx(ctx, "claim host", func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.insertIgnore+" hosts (host) VALUES (?)", host); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE hosts SET lease_owner = ?, lease_until = ?
			WHERE host = ? AND (lease_until IS NULL OR lease_until <= ? OR lease_owner = ?)`,
			owner, now.Add(leaseFor).UnixMilli(), host, now.UnixMilli(), owner)
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

// CountDueFeeds counts the enabled, subscribed feeds due at now: the
// poller's backlog.
func (s *Store) CountDueFeeds(ctx context.Context, now time.Time) (int, error) {
	cond, args := dueCondition(now, time.Time{})
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM feeds f WHERE "+cond, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: count due feeds: %w", err)
	}
	return n, nil
}

// RenewHostLease extends owner's lease on host; false when owner lost it.
func (s *Store) RenewHostLease(ctx context.Context, host, owner string, until time.Time) (bool, error) {
	res, err := s.db.ExecContext(ctx, "UPDATE hosts SET lease_until = ? WHERE host = ? AND lease_owner = ?",
		until.UnixMilli(), host, owner)
	if err != nil {
		return false, fmt.Errorf("storage: renew host lease: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("storage: renew host lease: %w", err)
	}
	return n == 1, nil
}

// ReleaseHost ends owner's lease on host. Releasing a lease owner no longer
// holds is not an error and leaves the new holder's lease alone.
func (s *Store) ReleaseHost(ctx context.Context, host, owner string) error {
	_, err := s.db.ExecContext(ctx, "UPDATE hosts SET lease_owner = '', lease_until = NULL WHERE host = ? AND lease_owner = ?",
		host, owner)
	if err != nil {
		return fmt.Errorf("storage: release host: %w", err)
	}
	return nil
}

// DueFeeds lists the host's enabled, subscribed feeds with next_poll_at <= now
// (and, when notPolledSince is not zero, those not polled since then), by
// next_poll_at (never scheduled first), then id.
func (s *Store) DueFeeds(ctx context.Context, host string, now, notPolledSince time.Time) ([]Feed, error) {
	cond, condArgs := dueCondition(now, notPolledSince)
	feeds, err := queryFeeds(ctx, s.db, "SELECT "+feedColumns+" FROM feeds f WHERE f.host = ? AND "+cond+
		" ORDER BY f.next_poll_at, f.id", append([]any{host}, condArgs...)...)
	if err != nil {
		return nil, fmt.Errorf("storage: due feeds: %w", err)
	}
	return feeds, nil
}

func queryStrings(ctx context.Context, q querier, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}
