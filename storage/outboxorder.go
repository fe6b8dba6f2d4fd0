package storage

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// holdsChat is a derived table (alias h) of the chats that have a row
// still on its way: pending until later (a retry, or a wait for Telegram's
// limits) or leased to a live sender. first_id is the oldest such row; the
// chat's newer rows wait behind it. Rows of paused subscriptions hold
// nothing: they wait for /resume and must not stall the chat's other
// subscriptions. Each half of the union can use its state index.
const holdsChat = `(SELECT w.chat_id AS chat_id, MIN(w.id) AS first_id FROM (
		SELECT b.chat_id, b.id, b.subscription_id FROM outbox b WHERE b.state = 'pending' AND b.next_attempt_at > ?
		UNION ALL
		SELECT b.chat_id, b.id, b.subscription_id FROM outbox b WHERE b.state = 'sending' AND b.lease_until > ?
	) w JOIN subscriptions ws ON ws.id = w.subscription_id
	WHERE ws.paused = ?
	GROUP BY w.chat_id) h`

// ClaimOutbox leases up to limit due rows (pending with next_attempt_at <=
// now, or sending with an expired lease) of unpaused subscriptions, oldest
// first, with what delivery needs, and keeps every chat's order: a row is
// claimed only while no older row of its chat is still on its way (pending
// with a later next attempt, or leased to a live sender). So a row that is
// retried, or held back for the chat's rate limit, is always sent before
// the chat's newer rows, and another chat's rows are never held up by it.
// Rows of one chat claimed together come back oldest first; the caller
// must send them in that order and stop at the first that does not go.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, now time.Time, leaseFor time.Duration, limit int) ([]Delivery, error) {
	if limit <= 0 {
		return nil, nil
	}
	var out []Delivery
	err := s.inTx(ctx, "claim outbox in order", func(tx *sql.Tx) error {
		ids, err := s.claimInOrder(ctx, tx, owner, now, leaseFor, limit)
		if err != nil {
			return err
		}
		out, err = deliveries(ctx, tx, ids)
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// claimInOrder finds the candidates with a plain read, locks them by
// primary key (as claimRows does) and leases them. A candidate that cannot
// be had (locked or taken meanwhile) holds back its chat's newer candidates.
func (s *Store) claimInOrder(ctx context.Context, tx *sql.Tx, owner string, now time.Time, leaseFor time.Duration, limit int) ([]int64, error) {
	nowMS := now.UnixMilli()
	found, err := candidatesInOrder(ctx, tx, nowMS, limit*claimWindow)
	if err != nil || len(found) == 0 {
		return nil, err
	}
	args := make([]any, 0, len(found)+3)
	for _, c := range found {
		args = append(args, c.id)
	}
	args = append(args, nowMS, nowMS, len(found))
	locked, err := queryIDs(ctx, tx, "SELECT o.id FROM outbox o WHERE o.id IN ("+placeholders(len(found))+") AND "+isDue+
		" ORDER BY o.id LIMIT ?"+s.d.lockSkip, args...)
	if err != nil {
		return nil, err
	}
	lockedSet := make(map[int64]bool, len(locked))
	for _, id := range locked {
		lockedSet[id.(int64)] = true
	}
	held := map[int64]bool{} // chats whose next candidate must not go before an older one
	var claimed []int64
	for _, c := range found {
		if len(claimed) == limit {
			break
		}
		if held[c.chatID] {
			continue
		}
		ok := lockedSet[c.id]
		if ok {
			res, err := tx.ExecContext(ctx, "UPDATE outbox AS o SET state = 'sending', lease_owner = ?, lease_until = ?, updated_at = ?"+
				" WHERE o.id = ? AND "+isDue, owner, now.Add(leaseFor).UnixMilli(), nowMS, c.id, nowMS, nowMS)
			if err != nil {
				return nil, err
			}
			if ok, err = affectedOne(res); err != nil {
				return nil, err
			}
		}
		if !ok {
			held[c.chatID] = true
			continue
		}
		claimed = append(claimed, c.id)
	}
	return claimed, nil
}

type candidate struct{ id, chatID int64 }

// candidatesInOrder lists up to n due rows of unpaused subscriptions that
// no older row of their chat holds back, oldest first.
func candidatesInOrder(ctx context.Context, tx *sql.Tx, nowMS int64, n int) ([]candidate, error) {
	rows, err := tx.QueryContext(ctx, `SELECT o.id, o.chat_id FROM outbox o
		JOIN subscriptions s ON s.id = o.subscription_id
		LEFT JOIN `+holdsChat+` ON h.chat_id = o.chat_id
		WHERE s.paused = ? AND `+isDue+` AND (h.first_id IS NULL OR o.id < h.first_id)
		ORDER BY o.id LIMIT ?`, nowMS, nowMS, false, false, nowMS, nowMS, n)
	if err != nil {
		return nil, fmt.Errorf("find candidates: %w", err)
	}
	defer rows.Close()
	var out []candidate
	for rows.Next() {
		var c candidate
		if err := rows.Scan(&c.id, &c.chatID); err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ReleaseOutbox gives a claimed row back without counting an attempt: it is
// pending again, due at next. Delivery uses it for rows that were not
// tried (the chat must wait for Telegram's limits, an older row of the chat
// did not go, shutdown) or that Telegram refused for a reason that is not
// the row's fault (rate limit, a paused chat). errText, when not empty,
// replaces the last error. Only while owner holds the lease, as MarkSent.
func (s *Store) ReleaseOutbox(ctx context.Context, id int64, owner, errText string, next time.Time) error {
	set := "state = 'pending', next_attempt_at = ?, updated_at = ?"
	args := []any{msOf(next), time.Now().UnixMilli()}
	if errText != "" {
		set += ", last_error = ?"
		args = append(args, errText)
	}
	if err := s.finishRow(ctx, "outbox", id, owner, set, args...); err != nil {
		return fmt.Errorf("storage: release outbox row: %w", err)
	}
	return nil
}
