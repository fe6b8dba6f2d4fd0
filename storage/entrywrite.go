package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
)

// hashChunk bounds the identity hashes in one IN (…) list, well below every
// placeholder limit.
const hashChunk = 200

// rowChunk bounds the rows of one multi-row INSERT (about ten values each).
const rowChunk = 100

// errConcurrentImport: an identity appeared between the look-up and the
// insert, which the feed row lock taken first rules out; the transaction
// is abandoned rather than guessing which rows are new.
var errConcurrentImport = errors.New("entries of the feed changed during the import")

// knownEntry is what Import needs to know about a stored entry.
type knownEntry struct {
	id       int64
	checksum string
}

// newEntry is an entry Import inserted, with the record it came from.
type newEntry struct {
	id  int64
	rec EntryRecord
}

// storeEntries inserts the batch's new identities in order and refreshes
// the known ones; it returns the inserted entries, oldest first.
func (s *Store) storeEntries(ctx context.Context, tx *sql.Tx, b ImportBatch) ([]newEntry, error) {
	records := uniqueRecords(b.Entries)
	known, err := knownEntries(ctx, tx, b.Feed.ID, records)
	if err != nil {
		return nil, fmt.Errorf("look up entries: %w", err)
	}
	now := msOf(b.Now)
	var (
		fresh []EntryRecord
		seen  []string
	)
	for _, r := range records {
		k, ok := known[r.IdentityHash]
		if !ok {
			fresh = append(fresh, r)
			continue
		}
		seen = append(seen, r.IdentityHash)
		if k.checksum != r.Checksum {
			_, err := tx.ExecContext(ctx, `UPDATE entries SET checksum = ?, title = ?, link = ?, published_at = ?, payload = ?
				WHERE id = ?`, r.Checksum, r.Title, r.Link, msOf(r.PublishedAt), r.Payload, k.id)
			if err != nil {
				return nil, fmt.Errorf("update entry: %w", err)
			}
		}
	}
	added, err := s.insertEntries(ctx, tx, b.Feed.ID, fresh, now)
	if err != nil {
		return nil, fmt.Errorf("insert entries: %w", err)
	}
	for start := 0; start < len(seen); start += hashChunk {
		chunk := seen[start:min(start+hashChunk, len(seen))]
		args := []any{now, b.Feed.ID}
		for _, h := range chunk {
			args = append(args, h)
		}
		_, err := tx.ExecContext(ctx, "UPDATE entries SET last_seen_at = ? WHERE feed_id = ? AND identity_hash IN ("+
			placeholders(len(chunk))+")", args...)
		if err != nil {
			return nil, fmt.Errorf("touch entries: %w", err)
		}
	}
	return added, nil
}

// insertEntries stores new identities, a few rows per statement, in order,
// and returns them with their ids.
func (s *Store) insertEntries(ctx context.Context, tx *sql.Tx, feedID int64, fresh []EntryRecord, now any) ([]newEntry, error) {
	added := make([]newEntry, 0, len(fresh))
	for start := 0; start < len(fresh); start += rowChunk {
		chunk := fresh[start:min(start+rowChunk, len(fresh))]
		args := make([]any, 0, 10*len(chunk))
		for _, r := range chunk {
			args = append(args, feedID, r.IdentityHash, r.Identity, r.Checksum, r.Title, r.Link, msOf(r.PublishedAt), now, now, r.Payload)
		}
		res, err := tx.ExecContext(ctx, s.d.insertIgnore+` entries
			(feed_id, identity_hash, identity, checksum, title, link, published_at, first_seen_at, last_seen_at, payload)
			VALUES `+rowsOf(len(chunk), 10), args...)
		if err != nil {
			return nil, err
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, err
		} else if int(n) != len(chunk) {
			return nil, errConcurrentImport
		}
		ids, err := knownEntries(ctx, tx, feedID, chunk)
		if err != nil {
			return nil, err
		}
		for _, r := range chunk {
			added = append(added, newEntry{id: ids[r.IdentityHash].id, rec: r})
		}
	}
	return added, nil
}

// rowsOf returns "(?, …), (?, …)" for n rows of width values.
func rowsOf(n, width int) string {
	row := "(" + placeholders(width) + ")"
	return strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
}

// uniqueRecords drops repeated identities (a feed listing one item twice),
// keeping the first.
func uniqueRecords(in []EntryRecord) []EntryRecord {
	seen := make(map[string]bool, len(in))
	out := make([]EntryRecord, 0, len(in))
	for _, r := range in {
		if seen[r.IdentityHash] {
			continue
		}
		seen[r.IdentityHash] = true
		out = append(out, r)
	}
	return out
}

func knownEntries(ctx context.Context, q querier, feedID int64, records []EntryRecord) (map[string]knownEntry, error) {
	known := make(map[string]knownEntry, len(records))
	for start := 0; start < len(records); start += hashChunk {
		chunk := records[start:min(start+hashChunk, len(records))]
		args := []any{feedID}
		for _, r := range chunk {
			args = append(args, r.IdentityHash)
		}
		rows, err := q.QueryContext(ctx, "SELECT identity_hash, id, checksum FROM entries WHERE feed_id = ? AND identity_hash IN ("+
			placeholders(len(chunk))+")", args...)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var (
				h string
				k knownEntry
			)
			if err := rows.Scan(&h, &k.id, &k.checksum); err != nil {
				rows.Close()
				return nil, err
			}
			known[h] = k
		}
		if err := rows.Close(); err != nil {
			return nil, err
		}
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	return known, nil
}

// queue creates outbox rows for the new entries: one per active
// subscription that accepts the entry, entry by entry, so rows (and
// deliveries) follow the entries' order. The unique (subscription, entry)
// key makes a second row for the same pair impossible.
func (s *Store) queue(ctx context.Context, tx *sql.Tx, b ImportBatch, added []newEntry) (int, error) {
	subs, err := querySubscriptions(ctx, tx, "WHERE s.feed_id = ? AND s.paused = ?", b.Feed.ID, false)
	if err != nil {
		return 0, fmt.Errorf("list subscriptions: %w", err)
	}
	now := msOf(b.Now)
	var args []any
	rows, queued := 0, 0
	flush := func() error {
		if rows == 0 {
			return nil
		}
		res, err := tx.ExecContext(ctx, s.d.insertIgnore+` outbox
			(subscription_id, entry_id, chat_id, state, attempts, next_attempt_at, last_error, message_ids, created_at, updated_at)
			VALUES `+rowsOf(rows, 10), args...)
		if err != nil {
			return fmt.Errorf("queue entries: %w", err)
		}
		n, err := res.RowsAffected()
		queued += int(n)
		args, rows = args[:0], 0
		return err
	}
	for _, e := range added {
		for _, sub := range subs {
			if b.Accept != nil && !b.Accept(sub, e.rec) {
				continue
			}
			args = append(args, sub.ID, e.id, sub.ChatID, StatePending, 0, now, "", "", now, now)
			rows++
			if rows == rowChunk {
				if err := flush(); err != nil {
					return 0, err
				}
			}
		}
	}
	if err := flush(); err != nil {
		return 0, err
	}
	return queued, nil
}
