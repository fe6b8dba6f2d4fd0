package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// activityKeep is how many lines of activity a feed keeps.
const activityKeep = 100

// AddActivity appends to a feed's activity log, keeping only the newest 100
// lines. At zero means now.
func (s *Store) AddActivity(ctx context.Context, a Activity) error {
	if a.At.IsZero() {
		a.At = time.Now()
	}
	return s.inTx(ctx, "add activity", func(tx *sql.Tx) error { return s.insertActivities(ctx, tx, []Activity{a}) })
}

// insertActivities appends lines in one statement and trims the logs of
// their feeds.
func (s *Store) insertActivities(ctx context.Context, tx *sql.Tx, lines []Activity) error {
	if len(lines) == 0 {
		return nil
	}
	args := make([]any, 0, 4*len(lines))
	feeds := map[int64]bool{}
	for _, a := range lines {
		args = append(args, a.FeedID, msOf(a.At), a.Kind, a.Detail)
		feeds[a.FeedID] = true
	}
	_, err := tx.ExecContext(ctx, "INSERT INTO feed_activity (feed_id, happened_at, kind, detail) VALUES "+rowsOf(len(lines), 4), args...)
	if err != nil && s.d.isMissingParent(err) {
		return fmt.Errorf("%w: %w", notFound("feed", lines[0].FeedID), err)
	}
	if err != nil {
		return err
	}
	for id := range feeds {
		if err := trimActivity(ctx, tx, id); err != nil {
			return err
		}
	}
	return nil
}

// trimActivity keeps only the newest lines of a feed's log.
func trimActivity(ctx context.Context, tx *sql.Tx, feedID int64) error {
	// The newest line that falls off the end; everything up to it goes.
	var cut int64
	err := tx.QueryRowContext(ctx, "SELECT id FROM feed_activity WHERE feed_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?",
		feedID, activityKeep).Scan(&cut)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, "DELETE FROM feed_activity WHERE feed_id = ? AND id <= ?", feedID, cut)
	return err
}

// Activities returns a feed's log, newest first, at most limit lines.
func (s *Store) Activities(ctx context.Context, feedID int64, limit int) ([]Activity, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, feed_id, happened_at, kind, detail FROM feed_activity
		WHERE feed_id = ? ORDER BY id DESC LIMIT ?`, feedID, limit)
	if err != nil {
		return nil, fmt.Errorf("storage: activities: %w", err)
	}
	defer rows.Close()
	var out []Activity
	for rows.Next() {
		var (
			a  Activity
			at sql.NullInt64
		)
		if err := rows.Scan(&a.ID, &a.FeedID, &at, &a.Kind, &a.Detail); err != nil {
			return nil, fmt.Errorf("storage: activities: %w", err)
		}
		a.At = timeOf(at)
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: activities: %w", err)
	}
	return out, nil
}
