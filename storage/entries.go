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

// KnownIdentities reports which of the identity hashes the feed remembers.
func (s *Store) KnownIdentities(ctx context.Context, feedID int64, hashes []string) (map[string]bool, error) {
	records := make([]EntryRecord, len(hashes))
	for i, h := range hashes {
		records[i].IdentityHash = h
	}
	known, err := knownEntries(ctx, s.db, feedID, records)
	if err != nil {
		return nil, fmt.Errorf("storage: known identities: %w", err)
	}
	out := make(map[string]bool, len(known))
	for h := range known {
		out[h] = true
	}
	return out, nil
}

// PruneEntries forgets entries last seen before cutoff that have no
// undelivered (pending or sending) outbox row; it returns how many went.
// Their delivered and failed outbox rows go with them. The entries of a
// feed's latest listing (its greatest last_seen_at) are never forgotten: a
// feed that has answered "not modified" for months still lists them.
func (s *Store) PruneEntries(ctx context.Context, cutoff time.Time) (int64, error) {
	// The doomed ids are collected in a derived table, which MySQL needs
	// to delete from the table it reads.
	res, err := s.db.ExecContext(ctx, `DELETE FROM entries WHERE id IN (SELECT id FROM (
		SELECT e.id FROM entries e WHERE e.last_seen_at < ?
		AND e.last_seen_at < (SELECT MAX(l.last_seen_at) FROM entries l WHERE l.feed_id = e.feed_id)
		AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.entry_id = e.id AND o.state IN (?, ?))
		) doomed)`, cutoff.UnixMilli(), StatePending, StateSending)
	if err != nil {
		return 0, fmt.Errorf("storage: prune entries: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: prune entries: %w", err)
	}
	return n, nil
}
