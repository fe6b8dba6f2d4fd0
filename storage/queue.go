package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The outbox and the notices share one delivery flow:
// pending → sending (leased to a worker) → sent, or back to pending for a
// retry, or failed. A sending row whose lease ran out is due again: that is
// crash recovery, and the only way a message can go out twice.

// isDue is the condition on alias o for "may be claimed at ?, ?".
const isDue = `((o.state = 'pending' AND (o.next_attempt_at IS NULL OR o.next_attempt_at <= ?))
	OR (o.state = 'sending' AND o.lease_until <= ?))`

// claimWindow is how many more candidates than wanted a claim looks at,
// so that a worker still finds rows while another one holds the first few.
const claimWindow = 4

// claimRows leases up to limit due rows of table (outbox or notices) to
// owner, oldest first, and returns their ids. extra narrows the candidates
// (a condition on alias o, with its arguments).
//
// Candidates are found with a plain read and then locked by primary key
// (MySQL: FOR UPDATE SKIP LOCKED). Locking in the search itself would lock
// every due row whenever the server sorts before applying the LIMIT, and a
// concurrent claimer would then find nothing at all.
func (s *Store) claimRows(ctx context.Context, tx *sql.Tx, table, owner string, now time.Time, leaseFor time.Duration, limit int, extra string, extraArgs ...any) ([]int64, error) {
	nowMS := now.UnixMilli()
	args := append([]any{nowMS, nowMS}, extraArgs...)
	args = append(args, limit*claimWindow)
	found, err := queryIDs(ctx, tx, "SELECT o.id FROM "+table+" o WHERE "+isDue+extra+" ORDER BY o.id LIMIT ?", args...)
	if err != nil || len(found) == 0 {
		return nil, err
	}
	args = append(found, nowMS, nowMS, limit)
	candidates, err := queryIDs(ctx, tx, "SELECT o.id FROM "+table+" o WHERE o.id IN ("+placeholders(len(found))+") AND "+isDue+
		" ORDER BY o.id LIMIT ?"+s.d.lockSkip, args...)
	if err != nil {
		return nil, err
	}
	var claimed []int64
	for _, c := range candidates {
		id := c.(int64)
		// Due is checked again so a claim holds even over a stale read.
		res, err := tx.ExecContext(ctx, "UPDATE "+table+" AS o SET state = 'sending', lease_owner = ?, lease_until = ?, updated_at = ?"+
			" WHERE o.id = ? AND "+isDue, owner, now.Add(leaseFor).UnixMilli(), nowMS, id, nowMS, nowMS)
		if err != nil {
			return nil, err
		}
		if ok, err := affectedOne(res); err != nil {
			return nil, err
		} else if ok {
			claimed = append(claimed, id)
		}
	}
	return claimed, nil
}

// queryIDs runs a query returning ids, as arguments for a later IN (…).
func queryIDs(ctx context.Context, q querier, query string, args ...any) ([]any, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []any
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		out = append(out, id)
	}
	return out, rows.Err()
}

// finishRow applies set (an assignment list with its arguments) to a row of
// table that owner is still sending. When owner no longer holds it the
// error wraps ErrLeaseLost (or ErrNotFound when the row is gone).
func (s *Store) finishRow(ctx context.Context, table string, id int64, owner, set string, setArgs ...any) error {
	args := append(setArgs, id, owner)
	res, err := s.db.ExecContext(ctx, "UPDATE "+table+" SET "+set+", lease_owner = '', lease_until = NULL"+
		" WHERE id = ? AND state = 'sending' AND lease_owner = ?", args...)
	if err != nil {
		return err
	}
	if ok, err := affectedOne(res); err != nil || ok {
		return err
	}
	var state, holder string
	err = s.db.QueryRowContext(ctx, "SELECT state, lease_owner FROM "+table+" WHERE id = ?", id).Scan(&state, &holder)
	if errors.Is(err, sql.ErrNoRows) {
		return notFound(table+" row", id)
	}
	if err != nil {
		return err
	}
	return fmt.Errorf("%w: %s row %d is %s (lease owner %q, not %q)", ErrLeaseLost, table, id, state, holder, owner)
}

func (s *Store) markSent(ctx context.Context, table string, id int64, owner string, now time.Time, extraSet string, extraArgs ...any) error {
	args := append([]any{now.UnixMilli(), now.UnixMilli()}, extraArgs...)
	return s.finishRow(ctx, table, id, owner, "state = 'sent', sent_at = ?, updated_at = ?, last_error = ''"+extraSet, args...)
}

func (s *Store) markRetry(ctx context.Context, table string, id int64, owner, errText string, next time.Time) error {
	return s.finishRow(ctx, table, id, owner, "state = 'pending', attempts = attempts + 1, next_attempt_at = ?, last_error = ?, updated_at = ?",
		msOf(next), errText, time.Now().UnixMilli())
}

func (s *Store) markFailed(ctx context.Context, table string, id int64, owner, errText string, now time.Time) error {
	return s.finishRow(ctx, table, id, owner, "state = 'failed', attempts = attempts + 1, last_error = ?, updated_at = ?",
		errText, now.UnixMilli())
}
