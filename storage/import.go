package storage

import (
	"context"
	"database/sql"
	"fmt"
)

// hashChunk bounds the identity hashes in one IN (…) list, well below every
// placeholder limit.
const hashChunk = 200

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

// Import writes one poll's outcome in one transaction: the feed's state,
// new and known entries, and outbox rows for new entries (see ImportBatch).
// A feed deleted meanwhile is ErrNotFound and nothing is written.
func (s *Store) Import(ctx context.Context, b ImportBatch) (ImportResult, error) {
	var res ImportResult
	err := s.inTx(ctx, "import", func(tx *sql.Tx) error {
		res = ImportResult{}
		// Saving the feed first also locks its row on MySQL, so concurrent
		// imports of one feed run one after the other.
		if err := saveFeed(ctx, tx, b.Feed); err != nil {
			return fmt.Errorf("save feed: %w", err)
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
			// Entries are oldest first: the flood guard keeps the newest.
			res.Flooded = len(added) - b.QueueLimit
			added = added[res.Flooded:]
		}
		res.Queued, err = s.queue(ctx, tx, b, added)
		return err
	})
	return res, err
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
		added []newEntry
		seen  []string
	)
	for _, r := range records {
		k, ok := known[r.IdentityHash]
		if !ok {
			id, inserted, err := s.insertEntry(ctx, tx, b.Feed.ID, r, now)
			if err != nil {
				return nil, fmt.Errorf("insert entry: %w", err)
			}
			if inserted {
				added = append(added, newEntry{id: id, rec: r})
				continue
			}
			// Another transaction stored it first: it is a known entry.
			k.checksum = r.Checksum
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

// insertEntry stores a new identity; inserted is false when the identity
// was already there (a concurrent import got it first), and id is then the
// stored entry's id.
func (s *Store) insertEntry(ctx context.Context, tx *sql.Tx, feedID int64, r EntryRecord, now any) (id int64, inserted bool, err error) {
	res, err := tx.ExecContext(ctx, s.d.insertIgnore+` entries
		(feed_id, identity_hash, identity, checksum, title, link, published_at, first_seen_at, last_seen_at, payload)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		feedID, r.IdentityHash, r.Identity, r.Checksum, r.Title, r.Link, msOf(r.PublishedAt), now, now, r.Payload)
	if err != nil {
		return 0, false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, false, err
	}
	if n == 1 {
		id, err = res.LastInsertId()
		return id, true, err
	}
	err = tx.QueryRowContext(ctx, "SELECT id FROM entries WHERE feed_id = ? AND identity_hash = ?", feedID, r.IdentityHash).Scan(&id)
	return id, false, err
}

// queue creates outbox rows for the new entries: one per active
// subscription that accepts the entry. The unique (subscription, entry) key
// makes a second row for the same pair impossible.
func (s *Store) queue(ctx context.Context, tx *sql.Tx, b ImportBatch, added []newEntry) (int, error) {
	subs, err := querySubscriptions(ctx, tx, "WHERE s.feed_id = ? AND s.paused = ?", b.Feed.ID, false)
	if err != nil {
		return 0, fmt.Errorf("list subscriptions: %w", err)
	}
	now := msOf(b.Now)
	queued := 0
	for _, e := range added {
		for _, sub := range subs {
			if b.Accept != nil && !b.Accept(sub, e.rec) {
				continue
			}
			res, err := tx.ExecContext(ctx, s.d.insertIgnore+` outbox
				(subscription_id, entry_id, chat_id, state, attempts, next_attempt_at, last_error, message_ids, created_at, updated_at)
				VALUES (?, ?, ?, ?, 0, ?, '', '', ?, ?)`,
				sub.ID, e.id, sub.ChatID, StatePending, now, now, now)
			if err != nil {
				return 0, fmt.Errorf("queue entry: %w", err)
			}
			n, err := res.RowsAffected()
			if err != nil {
				return 0, err
			}
			queued += int(n)
		}
	}
	return queued, nil
}
