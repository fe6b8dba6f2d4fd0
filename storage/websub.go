package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// WebSub subscription states.
const (
	WebSubPending       = "pending"       // asked the hub; waiting for its verification
	WebSubActive        = "active"        // verified; pushes are accepted
	WebSubDenied        = "denied"        // the hub refused (hub.mode=denied)
	WebSubFailed        = "failed"        // the hub request itself failed
	WebSubUnsubscribing = "unsubscribing" // asked the hub to stop; the row goes once verified
)

// WebSubSubscription is one row of websub_subscriptions: the subscriber's
// side of a subscription at a hub for one feed. The row outlives its feed
// so that the hub can still be told to stop.
type WebSubSubscription struct {
	ID           int64
	FeedID       int64
	Hub          string
	Topic        string
	Secret       string // hub.secret: the HMAC key of pushes
	Token        string // the unguessable last segment of the callback URL
	State        string
	LeaseSeconds int64 // as granted by the hub's verification (else as asked)
	RequestedAt  time.Time
	VerifiedAt   time.Time
	ExpiresAt    time.Time
	LastError    string
}

const webSubColumns = `id, feed_id, hub, topic, secret, token, state, lease_seconds, requested_at, verified_at, expires_at, last_error`

// SaveWebSub inserts the feed's WebSub subscription, or replaces the one
// the feed has; it returns the row's id.
func (s *Store) SaveWebSub(ctx context.Context, w WebSubSubscription) (int64, error) {
	var id int64
	err := s.inTx(ctx, "save websub", func(tx *sql.Tx) error {
		var err error
		id, err = saveWebSub(ctx, tx, w)
		return err
	})
	return id, err
}

func saveWebSub(ctx context.Context, tx *sql.Tx, w WebSubSubscription) (int64, error) {
	args := []any{w.Hub, w.Topic, w.Secret, w.Token, w.State, w.LeaseSeconds,
		msOf(w.RequestedAt), msOf(w.VerifiedAt), msOf(w.ExpiresAt), w.LastError}
	res, err := tx.ExecContext(ctx, `UPDATE websub_subscriptions SET hub = ?, topic = ?, secret = ?, token = ?, state = ?,
		lease_seconds = ?, requested_at = ?, verified_at = ?, expires_at = ?, last_error = ? WHERE feed_id = ?`,
		append(args, w.FeedID)...)
	if err != nil {
		return 0, err
	}
	if n, err := res.RowsAffected(); err != nil || n > 0 {
		var id int64
		if err == nil {
			err = tx.QueryRowContext(ctx, `SELECT id FROM websub_subscriptions WHERE feed_id = ?`, w.FeedID).Scan(&id)
		}
		return id, err
	}
	res, err = tx.ExecContext(ctx, `INSERT INTO websub_subscriptions
		(feed_id, hub, topic, secret, token, state, lease_seconds, requested_at, verified_at, expires_at, last_error)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, append([]any{w.FeedID}, args...)...)
	if err != nil {
		return 0, err
	}
	return res.LastInsertId()
}

// ErrWebSubExists is returned (wrapped) by CreateWebSub when the feed has
// a subscription row already: another instance made it first.
var ErrWebSubExists = errors.New("storage: websub subscription exists")

// CreateWebSub inserts the feed's first WebSub subscription and returns its
// id; ErrWebSubExists when the feed has one, which is left alone.
func (s *Store) CreateWebSub(ctx context.Context, w WebSubSubscription) (int64, error) {
	var id int64
	err := s.inTx(ctx, "create websub", func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM websub_subscriptions WHERE feed_id = ?`, w.FeedID).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return fmt.Errorf("%w: feed %d", ErrWebSubExists, w.FeedID)
		}
		var err error
		id, err = saveWebSub(ctx, tx, w)
		if s.d.isDuplicate(err) {
			return fmt.Errorf("%w: feed %d", ErrWebSubExists, w.FeedID)
		}
		return err
	})
	return id, err
}

// WebSubByToken returns the subscription whose callback ends in token, or
// ErrNotFound.
func (s *Store) WebSubByToken(ctx context.Context, token string) (WebSubSubscription, error) {
	return s.oneWebSub(ctx, "token", token)
}

// WebSubByFeed returns the feed's subscription, or ErrNotFound.
func (s *Store) WebSubByFeed(ctx context.Context, feedID int64) (WebSubSubscription, error) {
	return s.oneWebSub(ctx, "feed_id", feedID)
}

func (s *Store) oneWebSub(ctx context.Context, column string, key any) (WebSubSubscription, error) {
	ws, err := s.queryWebSubs(ctx, "WHERE "+column+" = ?", key)
	if err != nil {
		return WebSubSubscription{}, fmt.Errorf("storage: websub by %s: %w", column, err)
	}
	if len(ws) == 0 {
		return WebSubSubscription{}, fmt.Errorf("storage: websub by %s: %w", column, notFound("websub subscription", key))
	}
	return ws[0], nil
}

// ListWebSubs returns every WebSub subscription by id; there is at most one
// per feed, so the list stays small.
func (s *Store) ListWebSubs(ctx context.Context) ([]WebSubSubscription, error) {
	ws, err := s.queryWebSubs(ctx, "")
	if err != nil {
		return nil, fmt.Errorf("storage: list websub: %w", err)
	}
	return ws, nil
}

func (s *Store) queryWebSubs(ctx context.Context, where string, args ...any) ([]WebSubSubscription, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+webSubColumns+" FROM websub_subscriptions "+where+" ORDER BY id", args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []WebSubSubscription
	for rows.Next() {
		var w WebSubSubscription
		var req, ver, exp sql.NullInt64
		if err := rows.Scan(&w.ID, &w.FeedID, &w.Hub, &w.Topic, &w.Secret, &w.Token, &w.State, &w.LeaseSeconds,
			&req, &ver, &exp, &w.LastError); err != nil {
			return nil, err
		}
		w.RequestedAt, w.VerifiedAt, w.ExpiresAt = timeOf(req), timeOf(ver), timeOf(exp)
		out = append(out, w)
	}
	return out, rows.Err()
}

// DeleteWebSub removes the feed's subscription row; a missing row is no
// error (the hub's unsubscribe verification may arrive twice).
func (s *Store) DeleteWebSub(ctx context.Context, feedID int64) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM websub_subscriptions WHERE feed_id = ?`, feedID); err != nil {
		return fmt.Errorf("storage: delete websub: %w", err)
	}
	return nil
}

// WebSubFeeds returns the feeds a WebSub subscription is wanted for: enabled,
// announcing a hub, with at least one subscription.
func (s *Store) WebSubFeeds(ctx context.Context) ([]Feed, error) {
	fs, err := queryFeeds(ctx, s.db, "SELECT "+feedColumns+` FROM feeds WHERE hub_url <> '' AND disabled_at IS NULL
		AND EXISTS (SELECT 1 FROM subscriptions s WHERE s.feed_id = feeds.id) ORDER BY id`)
	if err != nil {
		return nil, fmt.Errorf("storage: websub feeds: %w", err)
	}
	return fs, nil
}

// ImportPush stores the entries of a pushed feed body like Import does,
// with outbox rows for the new ones as b's Queue, QueueLimit and Accept
// say, but leaves the feed's row alone: a push is no poll, so neither the
// schedule nor the validators change. Only b.Feed.ID is read of b.Feed. A
// feed deleted meanwhile is ErrNotFound.
func (s *Store) ImportPush(ctx context.Context, b ImportBatch) (ImportResult, error) {
	var res ImportResult
	err := s.inTx(ctx, "import push", func(tx *sql.Tx) error {
		res = ImportResult{}
		// Locking the feed row serializes the push with a poll's import of
		// the same feed, as Import's own feed update does.
		lock := `SELECT id FROM feeds WHERE id = ?`
		if s.d.name == "mysql" {
			lock += " FOR UPDATE"
		}
		var id int64
		if err := tx.QueryRowContext(ctx, lock, b.Feed.ID).Scan(&id); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return notFound("feed", b.Feed.ID)
			}
			return fmt.Errorf("lock feed: %w", err)
		}
		added, err := s.storeEntries(ctx, tx, b)
		if err != nil {
			return err
		}
		res.New = len(added)
		if !b.Queue || len(added) == 0 {
			return nil
		}
		if b.QueueLimit > 0 && len(added) > b.QueueLimit {
			res.Flooded = len(added) - b.QueueLimit
			added = added[res.Flooded:]
		}
		res.Queued, err = s.queue(ctx, tx, b, added)
		return err
	})
	return res, err
}
