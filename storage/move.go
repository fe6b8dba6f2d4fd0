package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// MoveResult says what MoveFeed did.
type MoveResult struct {
	// Feed is the feed now at the new URL: the moved feed, or the one it
	// was merged into.
	Feed Feed
	// Merged: another feed already had the URL; the moved feed was merged
	// into it and deleted.
	Merged bool
}

// MoveFeed gives feed id a new URL and host, after a permanent redirect
// (301/308). When another feed already has that URL the two become one, in
// one transaction, losing and repeating nothing:
//   - subscriptions move over, unless the chat (and topic) already follows
//     the other feed; then the duplicate's undelivered rows and filters go
//     to the surviving subscription;
//   - remembered entries move over unless the other feed knows the same
//     identity, whose entry then takes over their outbox rows;
//   - replacements, activity and notices follow; the old feed is deleted;
//   - the surviving feed is enabled (due at nextPoll) if it was disabled.
func (s *Store) MoveFeed(ctx context.Context, id int64, newURL, newHost string, nextPoll time.Time) (MoveResult, error) {
	var out MoveResult
	err := s.inTx(ctx, "move feed", func(tx *sql.Tx) error {
		out = MoveResult{}
		if err := s.ensureHost(ctx, tx, newHost); err != nil {
			return err
		}
		target, err := feedByURL(ctx, tx, newURL)
		switch {
		case errors.Is(err, ErrNotFound):
			res, err := tx.ExecContext(ctx, "UPDATE feeds SET url = ?, url_hash = ?, host = ? WHERE id = ?",
				newURL, urlHash(newURL), newHost, id)
			if err == nil {
				err = mustAffect(res, "feed", id)
			}
			if err != nil {
				return err
			}
			out.Feed, err = feedByID(ctx, tx, id)
			return err
		case err != nil:
			return err
		case target.ID == id:
			out.Feed = target
			return nil
		}
		// Lock both rows as an import does, so no import of either feed
		// runs beside the merge.
		for _, fid := range []int64{target.ID, id} {
			res, err := tx.ExecContext(ctx, "UPDATE feeds SET url_hash = url_hash WHERE id = ?", fid)
			if err == nil {
				err = mustAffect(res, "feed", fid)
			}
			if err != nil {
				return err
			}
		}
		if err := s.mergeFeed(ctx, tx, id, target.ID); err != nil {
			return err
		}
		if err := enableFeed(ctx, tx, "id = ?", target.ID, nextPoll); err != nil {
			return err
		}
		out.Merged = true
		out.Feed, err = feedByID(ctx, tx, target.ID)
		return err
	})
	if err != nil {
		return MoveResult{}, err
	}
	return out, nil
}

func feedByID(ctx context.Context, q querier, id int64) (Feed, error) {
	f, err := scanFeed(q.QueryRowContext(ctx, "SELECT "+feedColumns+" FROM feeds WHERE id = ?", id))
	if errors.Is(err, sql.ErrNoRows) {
		return Feed{}, notFound("feed", id)
	}
	return f, err
}

// mergeFeed moves everything of feed from onto feed to and deletes from.
func (s *Store) mergeFeed(ctx context.Context, tx *sql.Tx, from, to int64) error {
	if err := s.mergeEntries(ctx, tx, from, to); err != nil {
		return fmt.Errorf("merge entries: %w", err)
	}
	if err := s.mergeSubscriptions(ctx, tx, from, to); err != nil {
		return fmt.Errorf("merge subscriptions: %w", err)
	}
	for _, table := range []string{"replacements", "feed_activity", "notices"} {
		if _, err := tx.ExecContext(ctx, "UPDATE "+table+" SET feed_id = ? WHERE feed_id = ?", to, from); err != nil {
			return fmt.Errorf("merge %s: %w", table, err)
		}
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM feeds WHERE id = ?", from); err != nil {
		return fmt.Errorf("delete merged feed: %w", err)
	}
	return nil
}

// mergeEntries moves from's entries to to; an identity both know keeps to's
// entry, which takes over the outbox rows of from's.
func (s *Store) mergeEntries(ctx context.Context, tx *sql.Tx, from, to int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT a.id, b.id FROM entries a
		LEFT JOIN entries b ON b.feed_id = ? AND b.identity_hash = a.identity_hash
		WHERE a.feed_id = ?`, to, from)
	if err != nil {
		return err
	}
	var (
		move []any
		both [][2]int64
	)
	for rows.Next() {
		var (
			old  int64
			kept sql.NullInt64
		)
		if err := rows.Scan(&old, &kept); err != nil {
			rows.Close()
			return err
		}
		if kept.Valid {
			both = append(both, [2]int64{old, kept.Int64})
		} else {
			move = append(move, old)
		}
	}
	if err := rows.Close(); err != nil {
		return err
	}
	for _, pair := range both {
		// A row that would duplicate one to's entry already has stays
		// behind and goes with the old entry.
		if _, err := tx.ExecContext(ctx, s.d.updateIgnore+" outbox SET entry_id = ? WHERE entry_id = ?", pair[1], pair[0]); err != nil {
			return err
		}
	}
	for start := 0; start < len(move); start += hashChunk {
		chunk := move[start:min(start+hashChunk, len(move))]
		args := append([]any{to}, chunk...)
		if _, err := tx.ExecContext(ctx, "UPDATE entries SET feed_id = ? WHERE id IN ("+placeholders(len(chunk))+")", args...); err != nil {
			return err
		}
	}
	return nil
}

// mergeSubscriptions moves from's subscriptions to to; a chat (and topic)
// following both keeps its subscription of to, which takes over the
// duplicate's outbox rows and filters.
func (s *Store) mergeSubscriptions(ctx context.Context, tx *sql.Tx, from, to int64) error {
	olds, err := querySubscriptions(ctx, tx, "WHERE s.feed_id = ?", from)
	if err != nil {
		return err
	}
	for _, old := range olds {
		var kept int64
		err := tx.QueryRowContext(ctx, "SELECT id FROM subscriptions WHERE feed_id = ? AND chat_id = ? AND topic_id = ?",
			to, old.ChatID, old.TopicID).Scan(&kept)
		if errors.Is(err, sql.ErrNoRows) {
			if _, err := tx.ExecContext(ctx, "UPDATE subscriptions SET feed_id = ? WHERE id = ?", to, old.ID); err != nil {
				return err
			}
			continue
		}
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.d.updateIgnore+" outbox SET subscription_id = ? WHERE subscription_id = ?", kept, old.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE filters SET subscription_id = ? WHERE subscription_id = ?", kept, old.ID); err != nil {
			return err
		}
	}
	return nil
}
