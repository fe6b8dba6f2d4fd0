package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const subscriptionColumns = `s.id, s.feed_id, s.chat_id, s.topic_id, s.paused, s.paused_reason, s.silent,
	s.media_mode, s.split, s.template, s.backfill, s.created_at`

// subscriptionDest returns scan targets for subscriptionColumns; call done
// after Scan to convert the time.
func subscriptionDest(sub *Subscription) (dest []any, done func()) {
	var created sql.NullInt64
	dest = []any{&sub.ID, &sub.FeedID, &sub.ChatID, &sub.TopicID, &sub.Paused, &sub.PausedReason, &sub.Silent,
		&sub.MediaMode, &sub.Split, &sub.Template, &sub.Backfill, &created}
	return dest, func() { sub.CreatedAt = timeOf(created) }
}

func scanSubscription(r rowScanner) (Subscription, error) {
	var sub Subscription
	dest, done := subscriptionDest(&sub)
	if err := r.Scan(dest...); err != nil {
		return Subscription{}, err
	}
	done()
	return sub, nil
}

// withDefaults fills the options a new subscription leaves empty.
func (sub Subscription) withDefaults() Subscription {
	if sub.MediaMode == "" {
		sub.MediaMode = MediaPreview
	}
	if sub.Backfill == "" {
		sub.Backfill = BackfillNone
	}
	return sub
}

// Subscribe creates the subscription (defaults: media preview, backfill
// none; created now unless sub.CreatedAt is set) or returns the existing one
// for (feed, chat, topic). A chat the store does not know yet gets a bare
// chats row, to be filled in by UpsertChat.
func (s *Store) Subscribe(ctx context.Context, sub Subscription) (Subscription, bool, error) {
	sub = sub.withDefaults()
	if sub.CreatedAt.IsZero() {
		sub.CreatedAt = time.Now()
	}
	var (
		out     Subscription
		created bool
	)
	err := s.inTx(ctx, "subscribe", func(tx *sql.Tx) error {
		var err error
		out, created, err = s.subscribe(ctx, tx, sub)
		return err
	})
	if err != nil {
		return Subscription{}, false, err
	}
	return out, created, nil
}

// subscribe is Subscribe inside tx, for a subscription with its defaults set.
func (s *Store) subscribe(ctx context.Context, tx *sql.Tx, sub Subscription) (Subscription, bool, error) {
	if err := s.ensureChat(ctx, tx, sub.ChatID); err != nil {
		return Subscription{}, false, fmt.Errorf("ensure chat: %w", err)
	}
	res, err := tx.ExecContext(ctx, s.d.insertIgnore+` subscriptions
		(feed_id, chat_id, topic_id, paused, paused_reason, silent, media_mode, split, template, backfill, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		sub.FeedID, sub.ChatID, sub.TopicID, sub.Paused, sub.PausedReason, sub.Silent,
		sub.MediaMode, sub.Split, sub.Template, sub.Backfill, msOf(sub.CreatedAt))
	if err != nil && s.d.isMissingParent(err) {
		return Subscription{}, false, fmt.Errorf("%w: %w", notFound("feed", sub.FeedID), err)
	}
	if err != nil {
		return Subscription{}, false, err
	}
	created, err := affectedOne(res)
	if err != nil {
		return Subscription{}, false, err
	}
	out, err := scanSubscription(tx.QueryRowContext(ctx, "SELECT "+subscriptionColumns+
		" FROM subscriptions s WHERE s.feed_id = ? AND s.chat_id = ? AND s.topic_id = ?",
		sub.FeedID, sub.ChatID, sub.TopicID))
	if errors.Is(err, sql.ErrNoRows) {
		// INSERT IGNORE also skips a row whose feed vanished (MySQL
		// turns the foreign key error into a warning).
		return Subscription{}, false, notFound("feed", sub.FeedID)
	}
	return out, created, err
}

// SubscriptionByID returns a subscription or ErrNotFound.
func (s *Store) SubscriptionByID(ctx context.Context, id int64) (Subscription, error) {
	sub, err := subscriptionByID(ctx, s.db, id)
	if err != nil {
		return Subscription{}, fmt.Errorf("storage: subscription by id: %w", err)
	}
	return sub, nil
}

func subscriptionByID(ctx context.Context, q querier, id int64) (Subscription, error) {
	sub, err := scanSubscription(q.QueryRowContext(ctx, "SELECT "+subscriptionColumns+" FROM subscriptions s WHERE s.id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Subscription{}, notFound("subscription", id)
	}
	return sub, err
}

// UpdateSubscription saves a subscription's options, topic and paused state
// (ErrNotFound if missing; ErrDuplicate when the chat already has this feed
// in the new topic).
func (s *Store) UpdateSubscription(ctx context.Context, sub Subscription) error {
	sub = sub.withDefaults()
	res, err := s.db.ExecContext(ctx, `UPDATE subscriptions SET topic_id = ?, paused = ?, paused_reason = ?,
		silent = ?, media_mode = ?, split = ?, template = ?, backfill = ? WHERE id = ?`,
		sub.TopicID, sub.Paused, sub.PausedReason, sub.Silent, sub.MediaMode, sub.Split, sub.Template, sub.Backfill, sub.ID)
	if err != nil && s.d.isDuplicate(err) {
		err = fmt.Errorf("%w: subscription of feed %d in chat %d topic %d: %w", ErrDuplicate, sub.FeedID, sub.ChatID, sub.TopicID, err)
	}
	if err == nil {
		err = mustAffect(res, "subscription", sub.ID)
	}
	if err != nil {
		return fmt.Errorf("storage: update subscription: %w", err)
	}
	return nil
}

// SetPaused pauses or resumes one subscription (ErrNotFound if missing). A
// paused subscription gets no outbox rows: what its feed lists meanwhile
// counts as seen.
func (s *Store) SetPaused(ctx context.Context, subscriptionID int64, paused bool, reason string) error {
	if !paused {
		reason = ""
	}
	res, err := s.db.ExecContext(ctx, "UPDATE subscriptions SET paused = ?, paused_reason = ? WHERE id = ?",
		paused, reason, subscriptionID)
	if err == nil {
		err = mustAffect(res, "subscription", subscriptionID)
	}
	if err != nil {
		return fmt.Errorf("storage: set paused: %w", err)
	}
	return nil
}

// SetChatPaused pauses or resumes every subscription of a chat (all
// topics) and returns how many there are.
func (s *Store) SetChatPaused(ctx context.Context, chatID int64, paused bool, reason string) (int, error) {
	if !paused {
		reason = ""
	}
	res, err := s.db.ExecContext(ctx, "UPDATE subscriptions SET paused = ?, paused_reason = ? WHERE chat_id = ?",
		paused, reason, chatID)
	if err != nil {
		return 0, fmt.Errorf("storage: set chat paused: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: set chat paused: %w", err)
	}
	return int(n), nil
}

// Unsubscribe deletes a subscription and its outbox rows (ErrNotFound if
// missing). When the feed has no subscriptions left it is deleted too
// (feedDeleted), with its entries.
func (s *Store) Unsubscribe(ctx context.Context, id int64) (feedDeleted bool, err error) {
	err = s.inTx(ctx, "unsubscribe", func(tx *sql.Tx) error {
		feedDeleted = false
		sub, err := subscriptionByID(ctx, tx, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM subscriptions WHERE id = ?", id); err != nil {
			return err
		}
		var left int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM subscriptions WHERE feed_id = ?", sub.FeedID).Scan(&left); err != nil {
			return err
		}
		if left > 0 {
			return nil
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM feeds WHERE id = ?", sub.FeedID); err != nil {
			return err
		}
		feedDeleted = true
		return nil
	})
	return feedDeleted, err
}

const subscriptionViewQuery = "SELECT " + subscriptionColumns + `, f.url, f.title, f.site_url, f.disabled_at, f.last_error
	FROM subscriptions s JOIN feeds f ON f.id = s.feed_id`

func querySubscriptionViews(ctx context.Context, q querier, where string, args ...any) ([]SubscriptionView, error) {
	rows, err := q.QueryContext(ctx, subscriptionViewQuery+" "+where+" ORDER BY s.id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []SubscriptionView
	for rows.Next() {
		var (
			v        SubscriptionView
			disabled sql.NullInt64
		)
		dest, done := subscriptionDest(&v.Subscription)
		if err := rows.Scan(append(dest, &v.FeedURL, &v.FeedTitle, &v.FeedSiteURL, &disabled, &v.FeedLastError)...); err != nil {
			return nil, err
		}
		done()
		v.FeedDisabledAt = timeOf(disabled)
		out = append(out, v)
	}
	return out, rows.Err()
}

// SubscriptionsByChat lists a chat's subscriptions (all topics), by id.
func (s *Store) SubscriptionsByChat(ctx context.Context, chatID int64) ([]SubscriptionView, error) {
	out, err := querySubscriptionViews(ctx, s.db, "WHERE s.chat_id = ?", chatID)
	if err != nil {
		return nil, fmt.Errorf("storage: subscriptions by chat: %w", err)
	}
	return out, nil
}

// AllSubscriptions lists every subscription with its feed, by id.
func (s *Store) AllSubscriptions(ctx context.Context) ([]SubscriptionView, error) {
	out, err := querySubscriptionViews(ctx, s.db, "")
	if err != nil {
		return nil, fmt.Errorf("storage: all subscriptions: %w", err)
	}
	return out, nil
}

// SubscriptionsByFeed lists a feed's subscriptions, by id.
func (s *Store) SubscriptionsByFeed(ctx context.Context, feedID int64) ([]Subscription, error) {
	out, err := querySubscriptions(ctx, s.db, "WHERE s.feed_id = ?", feedID)
	if err != nil {
		return nil, fmt.Errorf("storage: subscriptions by feed: %w", err)
	}
	return out, nil
}

func querySubscriptions(ctx context.Context, q querier, where string, args ...any) ([]Subscription, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+subscriptionColumns+" FROM subscriptions s "+where+" ORDER BY s.id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Subscription
	for rows.Next() {
		sub, err := scanSubscription(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, sub)
	}
	return out, rows.Err()
}
