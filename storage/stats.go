package storage

import (
	"context"
	"fmt"
)

// FeedCounts are a feed's statistics, counted from what the store keeps.
type FeedCounts struct {
	// Entries is how many identities the feed's entries are remembered by.
	Entries int
	// Skipped counts remembered entries that were never queued for anyone:
	// listed at the first poll, beyond the flood guard, or filtered out.
	Skipped int
	// Outbox rows of the feed's entries by delivery state.
	Pending int // pending or sending
	Sent    int
	Failed  int
	// Polls and Errors are counted in the bounded activity log, so they
	// cover the most recent polls only.
	Polls  int
	Errors int
}

// FeedCounts counts a feed's entries, deliveries and recent polls.
func (s *Store) FeedCounts(ctx context.Context, feedID int64) (FeedCounts, error) {
	var c FeedCounts
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN NOT EXISTS
		(SELECT 1 FROM outbox o WHERE o.entry_id = e.id) THEN 1 ELSE 0 END), 0)
		FROM entries e WHERE e.feed_id = ?`, feedID).Scan(&c.Entries, &c.Skipped)
	if err != nil {
		return FeedCounts{}, fmt.Errorf("storage: feed counts: %w", err)
	}
	byState, err := s.groupCount(ctx, `SELECT o.state, COUNT(*) FROM outbox o
		JOIN entries e ON e.id = o.entry_id WHERE e.feed_id = ? GROUP BY o.state`, feedID)
	if err != nil {
		return FeedCounts{}, fmt.Errorf("storage: feed counts: %w", err)
	}
	c.Pending = byState[StatePending] + byState[StateSending]
	c.Sent, c.Failed = byState[StateSent], byState[StateFailed]
	byKind, err := s.groupCount(ctx, "SELECT kind, COUNT(*) FROM feed_activity WHERE feed_id = ? GROUP BY kind", feedID)
	if err != nil {
		return FeedCounts{}, fmt.Errorf("storage: feed counts: %w", err)
	}
	c.Polls, c.Errors = byKind[ActivityPoll], byKind[ActivityError]
	return c, nil
}

// groupCount runs a "SELECT key, COUNT(*) … GROUP BY key" query.
func (s *Store) groupCount(ctx context.Context, query string, args ...any) (map[string]int, error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]int{}
	for rows.Next() {
		var (
			k string
			n int
		)
		if err := rows.Scan(&k, &n); err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, rows.Err()
}
