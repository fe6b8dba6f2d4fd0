package storage

import (
	"context"
	"database/sql"
	"fmt"
)

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
		if len(added) > 0 && b.WithNew != nil {
			if err := saveFeed(ctx, tx, *b.WithNew); err != nil {
				return fmt.Errorf("save feed: %w", err)
			}
		}
		if !b.Queue || len(added) == 0 {
			return s.writeLogs(ctx, tx, b, res)
		}
		if b.QueueLimit > 0 && len(added) > b.QueueLimit {
			// Entries are oldest first: the flood guard keeps the newest.
			res.Flooded = len(added) - b.QueueLimit
			added = added[res.Flooded:]
		}
		if res.Queued, err = s.queue(ctx, tx, b, added); err != nil {
			return err
		}
		return s.writeLogs(ctx, tx, b, res)
	})
	return res, err
}

// writeLogs stores the activity lines and notices the batch's Log returns.
func (s *Store) writeLogs(ctx context.Context, tx *sql.Tx, b ImportBatch, res ImportResult) error {
	if b.Log == nil {
		return nil
	}
	activity, notices := b.Log(res)
	for i := range activity {
		if activity[i].FeedID == 0 {
			activity[i].FeedID = b.Feed.ID
		}
		if activity[i].At.IsZero() {
			activity[i].At = b.Now
		}
	}
	if err := s.insertActivities(ctx, tx, activity); err != nil {
		return fmt.Errorf("activity: %w", err)
	}
	for _, n := range notices {
		if n.CreatedAt.IsZero() {
			n.CreatedAt = b.Now
		}
		if _, err := insertNotice(ctx, tx, n); err != nil {
			return fmt.Errorf("notice: %w", err)
		}
	}
	return nil
}
