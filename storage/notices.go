package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// AddNotice stores a pending notice and returns its id. It is due at
// n.NextAttemptAt (zero: at once) and created at n.CreatedAt (zero: now).
func (s *Store) AddNotice(ctx context.Context, n Notice) (int64, error) {
	if n.CreatedAt.IsZero() {
		n.CreatedAt = time.Now()
	}
	id, err := insertNotice(ctx, s.db, n)
	if err != nil && s.d.isMissingParent(err) {
		err = fmt.Errorf("%w: %w", notFound("feed", n.FeedID), err)
	}
	if err != nil {
		return 0, fmt.Errorf("storage: add notice: %w", err)
	}
	return id, nil
}

// insertNotice stores a pending notice and returns its id.
func insertNotice(ctx context.Context, q querier, n Notice) (int64, error) {
	res, err := q.ExecContext(ctx, `INSERT INTO notices
		(chat_id, feed_id, kind, text, state, attempts, next_attempt_at, last_error, created_at, updated_at)
		VALUES (?, ?, ?, ?, ?, 0, ?, '', ?, ?)`,
		n.ChatID, idOrNull(n.FeedID), n.Kind, n.Text, StatePending, msOf(n.NextAttemptAt), msOf(n.CreatedAt), msOf(n.CreatedAt))
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

const noticeColumns = `o.id, o.chat_id, o.feed_id, o.kind, o.text, o.state, o.attempts, o.next_attempt_at,
	o.lease_owner, o.lease_until, o.last_error, o.sent_at, o.created_at`

// ClaimNotices leases up to limit due notices (pending and due, or sending
// with an expired lease), oldest first.
func (s *Store) ClaimNotices(ctx context.Context, owner string, now time.Time, leaseFor time.Duration, limit int) ([]Notice, error) {
	if limit <= 0 {
		return nil, nil
	}
	var out []Notice
	err := s.inTx(ctx, "claim notices", func(tx *sql.Tx) error {
		ids, err := s.claimRows(ctx, tx, "notices", owner, now, leaseFor, limit, "")
		if err != nil || len(ids) == 0 {
			return err
		}
		args := make([]any, len(ids))
		for i, id := range ids {
			args[i] = id
		}
		out, err = queryNotices(ctx, tx, "WHERE o.id IN ("+placeholders(len(ids))+")", args...)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

func queryNotices(ctx context.Context, q querier, where string, args ...any) ([]Notice, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+noticeColumns+" FROM notices o "+where+" ORDER BY o.id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Notice
	for rows.Next() {
		var (
			n                          Notice
			feedID                     sql.NullInt64
			next, lease, sent, created sql.NullInt64
		)
		err := rows.Scan(&n.ID, &n.ChatID, &feedID, &n.Kind, &n.Text, &n.State, &n.Attempts, &next,
			&n.LeaseOwner, &lease, &n.LastError, &sent, &created)
		if err != nil {
			return nil, err
		}
		n.FeedID = feedID.Int64
		n.NextAttemptAt, n.LeaseUntil, n.SentAt, n.CreatedAt = timeOf(next), timeOf(lease), timeOf(sent), timeOf(created)
		out = append(out, n)
	}
	return out, rows.Err()
}

// MarkNoticeSent records a delivered notice (only while owner holds its
// lease; otherwise ErrLeaseLost).
func (s *Store) MarkNoticeSent(ctx context.Context, id int64, owner string, now time.Time) error {
	if err := s.markSent(ctx, "notices", id, owner, now, ""); err != nil {
		return fmt.Errorf("storage: mark notice sent: %w", err)
	}
	return nil
}

// MarkNoticeRetry puts a notice back to pending, attempts+1, due at next
// (only while owner holds its lease).
func (s *Store) MarkNoticeRetry(ctx context.Context, id int64, owner, errText string, next time.Time) error {
	if err := s.markRetry(ctx, "notices", id, owner, errText, next); err != nil {
		return fmt.Errorf("storage: mark notice retry: %w", err)
	}
	return nil
}

// MarkNoticeFailed gives up on a notice (only while owner holds its lease).
func (s *Store) MarkNoticeFailed(ctx context.Context, id int64, owner, errText string, now time.Time) error {
	if err := s.markFailed(ctx, "notices", id, owner, errText, now); err != nil {
		return fmt.Errorf("storage: mark notice failed: %w", err)
	}
	return nil
}

// NoticeByID returns one notice or ErrNotFound.
func (s *Store) NoticeByID(ctx context.Context, id int64) (Notice, error) {
	ns, err := queryNotices(ctx, s.db, "WHERE o.id = ?", id)
	if err == nil && len(ns) == 0 {
		err = notFound("notice", id)
	}
	if err != nil {
		return Notice{}, fmt.Errorf("storage: notice by id: %w", err)
	}
	return ns[0], nil
}

// PruneNotices forgets notices that were done (sent or failed) before
// cutoff and returns how many went. Nothing reads them again, and without
// this the table grows with every event for as long as the bot runs.
func (s *Store) PruneNotices(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, "DELETE FROM notices WHERE state IN (?, ?) AND COALESCE(updated_at, created_at) < ?",
		StateSent, StateFailed, cutoff.UnixMilli())
	if err != nil {
		return 0, fmt.Errorf("storage: prune notices: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: prune notices: %w", err)
	}
	return n, nil
}
