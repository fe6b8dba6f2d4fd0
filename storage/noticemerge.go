package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// MergeNotice stores n, or folds it into the newest notice of the same
// chat, kind and feed that is still pending (not being sent, not sent):
// merge gets that notice's text and returns its new text, which keeps its
// due time. It returns the id of the notice holding the text. Summaries
// ("12 posts failed") use it so that a burst of events is one message
// rather than one per event: give n a due time a little ahead, and events
// until then join it. merge must not keep state: it may run more than once.
func (s *Store) MergeNotice(ctx context.Context, n Notice, merge func(prev string) string) (int64, error) {
	if n.CreatedAt.IsZero() {
		n.CreatedAt = time.Now()
	}
	var id int64
	err := s.inTx(ctx, "merge notice", func(tx *sql.Tx) error {
		var (
			prev string
			err  error
		)
		id, prev, err = s.pendingNotice(ctx, tx, n)
		if err != nil {
			return err
		}
		if id != 0 {
			res, err := tx.ExecContext(ctx, "UPDATE notices SET text = ?, updated_at = ? WHERE id = ? AND state = ?",
				merge(prev), msOf(n.CreatedAt), id, StatePending)
			if err != nil {
				return err
			}
			if ok, err := affectedOne(res); err != nil || ok {
				return err
			}
		}
		id, err = insertNotice(ctx, tx, n)
		return err
	})
	if err != nil && s.d.isMissingParent(err) {
		err = fmt.Errorf("%w: %w", notFound("feed", n.FeedID), err)
	}
	if err != nil {
		return 0, fmt.Errorf("storage: merge notice: %w", err)
	}
	return id, nil
}

// pendingNotice finds the newest pending notice like n and locks it
// (MySQL); 0 when there is none, or it is locked by its sender.
func (s *Store) pendingNotice(ctx context.Context, tx *sql.Tx, n Notice) (int64, string, error) {
	feedCond, args := "feed_id IS NULL", []any{n.ChatID, n.Kind, StatePending}
	if n.FeedID != 0 {
		feedCond = "feed_id = ?"
		args = append(args, n.FeedID)
	}
	var (
		id   int64
		prev string
	)
	err := tx.QueryRowContext(ctx, "SELECT id, text FROM notices WHERE chat_id = ? AND kind = ? AND state = ? AND "+feedCond+
		" ORDER BY id DESC LIMIT 1"+s.d.lockSkip, args...).Scan(&id, &prev)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, "", nil
	}
	return id, prev, err
}
