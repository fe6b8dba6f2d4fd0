package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

const entryColumns = `e.id, e.feed_id, e.identity_hash, e.identity, e.checksum, e.title, e.link,
	e.published_at, e.first_seen_at, e.last_seen_at, e.payload`

// entryDest returns scan targets for entryColumns; call done after Scan.
func entryDest(e *Entry) (dest []any, done func()) {
	var published, first, last sql.NullInt64
	dest = []any{&e.ID, &e.FeedID, &e.IdentityHash, &e.Identity, &e.Checksum, &e.Title, &e.Link,
		&published, &first, &last, &e.Payload}
	return dest, func() {
		e.PublishedAt, e.FirstSeenAt, e.LastSeenAt = timeOf(published), timeOf(first), timeOf(last)
	}
}

// EntryByID returns an entry or ErrNotFound.
func (s *Store) EntryByID(ctx context.Context, id int64) (Entry, error) {
	var e Entry
	dest, done := entryDest(&e)
	err := s.db.QueryRowContext(ctx, "SELECT "+entryColumns+" FROM entries e WHERE e.id = ?", id).Scan(dest...)
	if errors.Is(err, sql.ErrNoRows) {
		err = notFound("entry", id)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("storage: entry by id: %w", err)
	}
	done()
	return e, nil
}

// CountEntries counts a feed's remembered entries.
func (s *Store) CountEntries(ctx context.Context, feedID int64) (int, error) {
	var n int
	if err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM entries WHERE feed_id = ?", feedID).Scan(&n); err != nil {
		return 0, fmt.Errorf("storage: count entries: %w", err)
	}
	return n, nil
}

// PruneEntries forgets entries last seen before cutoff that have no
// undelivered (pending or sending) outbox row; it returns how many went.
// Their delivered and failed outbox rows go with them.
func (s *Store) PruneEntries(ctx context.Context, cutoff time.Time) (int64, error) {
	res, err := s.db.ExecContext(ctx, `DELETE FROM entries WHERE last_seen_at < ?
		AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.entry_id = entries.id AND o.state IN (?, ?))`,
		cutoff.UnixMilli(), StatePending, StateSending)
	if err != nil {
		return 0, fmt.Errorf("storage: prune entries: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: prune entries: %w", err)
	}
	return n, nil
}
