package storage

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
)

// UpsertChat inserts or updates a chat.
func (s *Store) UpsertChat(ctx context.Context, c Chat) error {
	_, err := s.db.ExecContext(ctx, `INSERT INTO chats (id, type, title, username, is_forum)
		VALUES (?, ?, ?, ?, ?)`+s.d.upsert([]string{"id"}, []string{"type", "title", "username", "is_forum"}),
		c.ID, c.Type, c.Title, c.Username, c.IsForum)
	if err != nil {
		return fmt.Errorf("storage: upsert chat: %w", err)
	}
	return nil
}

// ChatByID returns a chat or ErrNotFound.
func (s *Store) ChatByID(ctx context.Context, id int64) (Chat, error) {
	var c Chat
	err := s.db.QueryRowContext(ctx, "SELECT id, type, title, username, is_forum FROM chats WHERE id = ?", id).
		Scan(&c.ID, &c.Type, &c.Title, &c.Username, &c.IsForum)
	if errors.Is(err, sql.ErrNoRows) {
		err = notFound("chat", id)
	}
	if err != nil {
		return Chat{}, fmt.Errorf("storage: chat by id: %w", err)
	}
	return c, nil
}

// ensureChat makes sure a chats row exists for id, so that a subscription
// can point at a chat the bot has not described yet (e.g. `opml import
// --chat ID`). An existing row is left as it is.
func (s *Store) ensureChat(ctx context.Context, q querier, id int64) error {
	_, err := q.ExecContext(ctx, s.d.insertIgnore+" chats (id, title) VALUES (?, '')", id)
	return err
}
