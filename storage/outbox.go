package storage

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

const outboxColumns = `o.id, o.subscription_id, o.entry_id, o.state, o.attempts, o.next_attempt_at,
	o.lease_owner, o.lease_until, o.last_error, o.sent_at, o.message_ids, o.created_at`

// deliveries loads claimed rows with their subscription, chat, feed and entry.
func deliveries(ctx context.Context, q querier, ids []int64) ([]Delivery, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	rows, err := q.QueryContext(ctx, "SELECT "+outboxColumns+", "+subscriptionColumns+`,
		c.id, c.type, c.title, c.username, c.is_forum, f.id, f.url, f.title, `+entryColumns+`
		FROM outbox o
		JOIN subscriptions s ON s.id = o.subscription_id
		JOIN chats c ON c.id = s.chat_id
		JOIN feeds f ON f.id = s.feed_id
		JOIN entries e ON e.id = o.entry_id
		WHERE o.id IN (`+placeholders(len(ids))+") ORDER BY o.id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Delivery
	for rows.Next() {
		var d Delivery
		outDest, outDone := outboxDest(&d.Outbox)
		subDest, subDone := subscriptionDest(&d.Subscription)
		eDest, entryDone := entryDest(&d.Entry)
		dest := append(outDest, subDest...)
		dest = append(dest, &d.Chat.ID, &d.Chat.Type, &d.Chat.Title, &d.Chat.Username, &d.Chat.IsForum,
			&d.FeedID, &d.FeedURL, &d.FeedTitle)
		dest = append(dest, eDest...)
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if err := outDone(); err != nil {
			return nil, err
		}
		subDone()
		entryDone()
		out = append(out, d)
	}
	return out, rows.Err()
}

// outboxDest returns scan targets for outboxColumns; call done after Scan.
func outboxDest(r *OutboxRow) (dest []any, done func() error) {
	var next, lease, sent, created sql.NullInt64
	var messageIDs string
	dest = []any{&r.ID, &r.SubscriptionID, &r.EntryID, &r.State, &r.Attempts, &next,
		&r.LeaseOwner, &lease, &r.LastError, &sent, &messageIDs, &created}
	return dest, func() error {
		r.NextAttemptAt, r.LeaseUntil, r.SentAt, r.CreatedAt = timeOf(next), timeOf(lease), timeOf(sent), timeOf(created)
		if messageIDs == "" {
			return nil
		}
		if err := json.Unmarshal([]byte(messageIDs), &r.MessageIDs); err != nil {
			return fmt.Errorf("outbox row %d: message ids %q: %w", r.ID, messageIDs, err)
		}
		return nil
	}
}

// MarkSent records a delivered row with the Telegram message ids (only
// while owner holds its lease; otherwise ErrLeaseLost, or ErrNotFound when
// the row was deleted with its subscription).
func (s *Store) MarkSent(ctx context.Context, id int64, owner string, messageIDs []int, now time.Time) error {
	ids, err := json.Marshal(messageIDs)
	if err == nil {
		if messageIDs == nil {
			ids = []byte("[]")
		}
		err = s.markSent(ctx, "outbox", id, owner, now, ", message_ids = ?", string(ids))
	}
	if err != nil {
		return fmt.Errorf("storage: mark sent: %w", err)
	}
	return nil
}

// MarkRetry puts a row back to pending with attempts+1 and next attempt at
// next (only while owner holds its lease, as MarkSent).
func (s *Store) MarkRetry(ctx context.Context, id int64, owner, errText string, next time.Time) error {
	if err := s.markRetry(ctx, "outbox", id, owner, errText, next); err != nil {
		return fmt.Errorf("storage: mark retry: %w", err)
	}
	return nil
}

// MarkFailed gives up on a row: state failed, attempts+1 (only while owner
// holds its lease, as MarkSent).
func (s *Store) MarkFailed(ctx context.Context, id int64, owner, errText string, now time.Time) error {
	if err := s.markFailed(ctx, "outbox", id, owner, errText, now); err != nil {
		return fmt.Errorf("storage: mark failed: %w", err)
	}
	return nil
}

// CountOutbox counts rows by state (for stats and tests); states without
// rows are absent.
func (s *Store) CountOutbox(ctx context.Context) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT state, COUNT(*) FROM outbox GROUP BY state")
	if err != nil {
		return nil, fmt.Errorf("storage: count outbox: %w", err)
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var (
			state string
			n     int
		)
		if err := rows.Scan(&state, &n); err != nil {
			return nil, fmt.Errorf("storage: count outbox: %w", err)
		}
		out[state] = n
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: count outbox: %w", err)
	}
	return out, nil
}

// OutboxByID returns one outbox row or ErrNotFound.
func (s *Store) OutboxByID(ctx context.Context, id int64) (OutboxRow, error) {
	var r OutboxRow
	dest, done := outboxDest(&r)
	err := s.db.QueryRowContext(ctx, "SELECT "+outboxColumns+" FROM outbox o WHERE o.id = ?", id).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		err = notFound("outbox row", id)
	}
	if err == nil {
		err = done()
	}
	if err != nil {
		return OutboxRow{}, fmt.Errorf("storage: outbox by id: %w", err)
	}
	return r, nil
}
