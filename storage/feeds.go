package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// EnsureFeed returns the feed with this URL, creating it (and its hosts row)
// with next_poll_at = nextPoll when missing. A disabled feed is enabled
// again: disabled_at, its reason and the failure streak are cleared and it
// is due at nextPoll.
func (s *Store) EnsureFeed(ctx context.Context, url, host string, nextPoll time.Time) (f Feed, created bool, err error) {
	err = s.inTx(ctx, "ensure feed", func(tx *sql.Tx) error {
		f, created, err = s.ensureFeed(ctx, tx, url, host, nextPoll)
		return err
	})
	return f, created, err
}

// ensureFeed is EnsureFeed inside tx.
func (s *Store) ensureFeed(ctx context.Context, tx *sql.Tx, url, host string, nextPoll time.Time) (Feed, bool, error) {
	if err := s.ensureHost(ctx, tx, host); err != nil {
		return Feed{}, false, err
	}
	res, err := tx.ExecContext(ctx, s.d.insertIgnore+` feeds
		(url, url_hash, host, title, site_url, etag, last_modified, next_poll_reason, last_error,
		 skip_hours, skip_days, disabled_reason, pending_page_url, hub_url, self_url, user_agent, headers,
		 next_poll_at, created_at)
		VALUES (?, ?, ?, '', '', '', '', '', '', '', '', '', '', '', '', '', '', ?, ?)`,
		url, urlHash(url), host, msOf(nextPoll), time.Now().UnixMilli())
	if err != nil {
		return Feed{}, false, fmt.Errorf("insert feed: %w", err)
	}
	created, err := affectedOne(res)
	if err != nil {
		return Feed{}, false, err
	}
	if !created {
		if err := enableFeed(ctx, tx, "url_hash = ?", urlHash(url), nextPoll); err != nil {
			return Feed{}, false, err
		}
	}
	f, err := feedByURL(ctx, tx, url)
	return f, created, err
}

// ensureHost makes sure host has a hosts row to lease.
func (s *Store) ensureHost(ctx context.Context, q querier, host string) error {
	if _, err := q.ExecContext(ctx, s.d.insertIgnore+" hosts (host) VALUES (?)", host); err != nil {
		return fmt.Errorf("insert host: %w", err)
	}
	return nil
}

// enableFeed clears a disabled feed's disabled state and failure streak and
// makes it due at nextPoll; an enabled feed is left alone. where selects
// the feed.
func enableFeed(ctx context.Context, q querier, where string, key any, nextPoll time.Time) error {
	_, err := q.ExecContext(ctx, `UPDATE feeds SET disabled_at = NULL, disabled_reason = '',
		consecutive_errors = 0, failing_since = NULL, next_poll_at = ?
		WHERE `+where+` AND disabled_at IS NOT NULL`, msOf(nextPoll), key)
	if err != nil {
		return fmt.Errorf("enable feed: %w", err)
	}
	return nil
}

// FeedByID returns a feed or ErrNotFound.
func (s *Store) FeedByID(ctx context.Context, id int64) (Feed, error) {
	f, err := feedByID(ctx, s.db, id)
	if err != nil {
		return Feed{}, fmt.Errorf("storage: feed by id: %w", err)
	}
	return f, nil
}

// FeedByURL returns a feed or ErrNotFound.
func (s *Store) FeedByURL(ctx context.Context, url string) (Feed, error) {
	f, err := feedByURL(ctx, s.db, url)
	if err != nil {
		return Feed{}, fmt.Errorf("storage: feed by url: %w", err)
	}
	return f, nil
}

func feedByURL(ctx context.Context, q querier, url string) (Feed, error) {
	f, err := scanFeed(q.QueryRowContext(ctx, "SELECT "+feedColumns+" FROM feeds WHERE url_hash = ?", urlHash(url)))
	if errors.Is(err, sql.ErrNoRows) {
		return Feed{}, notFound("feed", url)
	}
	return f, err
}

// ListFeeds returns every feed, ordered by id.
func (s *Store) ListFeeds(ctx context.Context) ([]Feed, error) {
	feeds, err := queryFeeds(ctx, s.db, "SELECT "+feedColumns+" FROM feeds ORDER BY id")
	if err != nil {
		return nil, fmt.Errorf("storage: list feeds: %w", err)
	}
	return feeds, nil
}

func queryFeeds(ctx context.Context, q querier, query string, args ...any) ([]Feed, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Feed
	for rows.Next() {
		f, err := scanFeed(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, rows.Err()
}

// SaveFeed writes every mutable column of f (all but id, url, host,
// created). A missing feed is ErrNotFound.
func (s *Store) SaveFeed(ctx context.Context, f Feed) error {
	if err := saveFeed(ctx, s.db, f); err != nil {
		return fmt.Errorf("storage: save feed: %w", err)
	}
	return nil
}

func saveFeed(ctx context.Context, q querier, f Feed) error {
	res, err := q.ExecContext(ctx, updateFeedSQL, append(feedMutableArgs(f), f.ID)...)
	if err != nil {
		return err
	}
	return mustAffect(res, "feed", f.ID)
}

// DeleteFeed deletes a feed with its entries, subscriptions and outbox rows
// (ErrNotFound if missing).
func (s *Store) DeleteFeed(ctx context.Context, id int64) error {
	res, err := s.db.ExecContext(ctx, "DELETE FROM feeds WHERE id = ?", id)
	if err == nil {
		err = mustAffect(res, "feed", id)
	}
	if err != nil {
		return fmt.Errorf("storage: delete feed: %w", err)
	}
	return nil
}

// mustAffect turns "no row matched" into ErrNotFound. It relies on
// UPDATE reporting matched rows, which SQLite always does and MySQL does
// with clientFoundRows (forced in Open).
func mustAffect(res sql.Result, what string, id any) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return notFound(what, id)
	}
	return nil
}
