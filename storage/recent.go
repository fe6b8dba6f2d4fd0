package storage

import (
	"context"
	"fmt"
	"time"
)

// EntriesSeenSince lists a feed's entries first seen at or after since,
// oldest first (the order they were stored in), at most limit. The bot
// names what a manual poll found with it; payloads are left out.
func (s *Store) EntriesSeenSince(ctx context.Context, feedID int64, since time.Time, limit int) ([]Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, feed_id, identity_hash, identity, checksum, title, link,
		published_at, first_seen_at, last_seen_at FROM entries
		WHERE feed_id = ? AND first_seen_at >= ? ORDER BY id LIMIT ?`, feedID, since.UnixMilli(), limit)
	if err != nil {
		return nil, fmt.Errorf("storage: entries seen since: %w", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		var e Entry
		dest, done := entryDest(&e)
		if err := rows.Scan(dest[:len(dest)-1]...); err != nil { // all but the payload
			return nil, fmt.Errorf("storage: entries seen since: %w", err)
		}
		done()
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("storage: entries seen since: %w", err)
	}
	return out, nil
}
