package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// ChatMigration says what MigrateChat did.
type ChatMigration struct {
	// Moved subscriptions now belong to the new chat.
	Moved int
	// Merged subscriptions duplicated one the new chat already had (same
	// feed and topic): that one took over their undelivered rows and
	// filters, and they were deleted.
	Merged int
}

// MigrateChat moves a chat to a new id, as Telegram does when a group
// becomes a supergroup (migrate_to_chat_id), in one transaction: the new
// chat takes the old one's description (type supergroup), every
// subscription moves over with its outbox rows, pending ones included, and
// the old chat is deleted. When the new chat already follows a feed in the
// same topic the two subscriptions become one, as MoveFeed merges them.
func (s *Store) MigrateChat(ctx context.Context, from, to int64) (ChatMigration, error) {
	if from == to || to == 0 {
		return ChatMigration{}, fmt.Errorf("storage: migrate chat %d to %d: not a new chat", from, to)
	}
	var out ChatMigration
	err := s.inTx(ctx, "migrate chat", func(tx *sql.Tx) error {
		out = ChatMigration{}
		if err := s.copyChat(ctx, tx, from, to); err != nil {
			return fmt.Errorf("new chat: %w", err)
		}
		subs, err := querySubscriptions(ctx, tx, "WHERE s.chat_id = ?", from)
		if err != nil {
			return err
		}
		for _, sub := range subs {
			merged, err := s.moveSubscriptionToChat(ctx, tx, sub, to)
			if err != nil {
				return fmt.Errorf("subscription %d: %w", sub.ID, err)
			}
			if merged {
				out.Merged++
			} else {
				out.Moved++
			}
		}
		_, err = tx.ExecContext(ctx, "DELETE FROM chats WHERE id = ?", from)
		return err
	})
	if err != nil {
		return ChatMigration{}, err
	}
	return out, nil
}

// copyChat creates chat to as a supergroup with from's title and username;
// a row for to that exists already only gets what it lacks (a bare row
// made by a subscription to the new id before the bot saw the chat).
func (s *Store) copyChat(ctx context.Context, tx *sql.Tx, from, to int64) error {
	var c Chat
	err := tx.QueryRowContext(ctx, "SELECT title, username FROM chats WHERE id = ?", from).
		Scan(&c.Title, &c.Username)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	if err := s.ensureChat(ctx, tx, to); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `UPDATE chats SET
		type = CASE WHEN type = '' THEN 'supergroup' ELSE type END,
		title = CASE WHEN title = '' THEN ? ELSE title END,
		username = CASE WHEN username = '' THEN ? ELSE username END
		WHERE id = ?`, c.Title, c.Username, to)
	return err
}

// moveSubscriptionToChat gives sub (and its outbox rows) the chat to, or,
// when to already has the same feed and topic, hands sub's undelivered
// rows and filters to that subscription and deletes sub. A row for an
// entry the kept subscription has already stays behind and goes with sub:
// the entry is not lost, the kept row delivers it.
func (s *Store) moveSubscriptionToChat(ctx context.Context, tx *sql.Tx, sub Subscription, to int64) (merged bool, err error) {
	var kept int64
	err = tx.QueryRowContext(ctx, "SELECT id FROM subscriptions WHERE feed_id = ? AND chat_id = ? AND topic_id = ?",
		sub.FeedID, to, sub.TopicID).Scan(&kept)
	if errors.Is(err, sql.ErrNoRows) {
		if _, err := tx.ExecContext(ctx, "UPDATE subscriptions SET chat_id = ? WHERE id = ?", to, sub.ID); err != nil {
			return false, err
		}
		_, err = tx.ExecContext(ctx, "UPDATE outbox SET chat_id = ? WHERE subscription_id = ?", to, sub.ID)
		return false, err
	}
	if err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, s.d.updateIgnore+" outbox SET subscription_id = ?, chat_id = ? WHERE subscription_id = ? AND state IN (?, ?)",
		kept, to, sub.ID, StatePending, StateSending); err != nil {
		return false, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE filters SET subscription_id = ? WHERE subscription_id = ?", kept, sub.ID); err != nil {
		return false, err
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM subscriptions WHERE id = ?", sub.ID)
	return true, err
}
