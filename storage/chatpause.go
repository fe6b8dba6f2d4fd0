package storage

import (
	"context"
	"fmt"
	"unicode/utf8"
)

// Delivery pauses a chat when Telegram says the bot can no longer post
// there, and resumes it when the bot is back. Both touch only what such a
// pause is about: a subscription the admin paused keeps its own reason and
// stays paused, and resuming by reason leaves other pauses alone.

// PauseChatActive pauses the chat's subscriptions that are not paused yet,
// with reason, and returns how many it paused (0: nothing new to report).
// Their pending outbox rows stay pending and are delivered after a resume.
func (s *Store) PauseChatActive(ctx context.Context, chatID int64, reason string) (int, error) {
	res, err := s.db.ExecContext(ctx, "UPDATE subscriptions SET paused = ?, paused_reason = ? WHERE chat_id = ? AND paused = ?",
		true, reason, chatID, false)
	if err != nil {
		return 0, fmt.Errorf("storage: pause chat: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: pause chat: %w", err)
	}
	return int(n), nil
}

// ResumeChatPaused resumes the chat's subscriptions whose pause reason
// starts with reasonPrefix (which must not be empty) and returns how many.
func (s *Store) ResumeChatPaused(ctx context.Context, chatID int64, reasonPrefix string) (int, error) {
	if reasonPrefix == "" {
		return 0, fmt.Errorf("storage: resume chat: empty reason prefix")
	}
	// SUBSTR counts characters in both dialects, and compares exactly
	// (no LIKE wildcards to escape).
	res, err := s.db.ExecContext(ctx, `UPDATE subscriptions SET paused = ?, paused_reason = ''
		WHERE chat_id = ? AND paused = ? AND SUBSTR(paused_reason, 1, ?) = ?`,
		false, chatID, true, utf8.RuneCountInString(reasonPrefix), reasonPrefix)
	if err != nil {
		return 0, fmt.Errorf("storage: resume chat: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: resume chat: %w", err)
	}
	return int(n), nil
}

// PauseTopicActive pauses the subscriptions of one forum topic of a chat
// (topicID 0: those without a topic) that are not paused yet, with reason,
// and returns how many it paused.
func (s *Store) PauseTopicActive(ctx context.Context, chatID, topicID int64, reason string) (int, error) {
	res, err := s.db.ExecContext(ctx, "UPDATE subscriptions SET paused = ?, paused_reason = ? WHERE chat_id = ? AND topic_id = ? AND paused = ?",
		true, reason, chatID, topicID, false)
	if err != nil {
		return 0, fmt.Errorf("storage: pause topic: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("storage: pause topic: %w", err)
	}
	return int(n), nil
}

// WaitingInChat counts the chat's outbox rows not delivered yet (pending or
// being sent), for telling the admin what a pause holds back.
func (s *Store) WaitingInChat(ctx context.Context, chatID int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, "SELECT COUNT(*) FROM outbox WHERE chat_id = ? AND state IN (?, ?)",
		chatID, StatePending, StateSending).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("storage: waiting in chat: %w", err)
	}
	return n, nil
}

// WaitingInTopic counts the outbox rows not delivered yet (pending or being
// sent) of one forum topic of a chat.
func (s *Store) WaitingInTopic(ctx context.Context, chatID, topicID int64) (int, error) {
	var n int
	err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM outbox o JOIN subscriptions s ON s.id = o.subscription_id
		WHERE o.chat_id = ? AND s.topic_id = ? AND o.state IN (?, ?)`,
		chatID, topicID, StatePending, StateSending).Scan(&n)
	if err != nil {
		return 0, fmt.Errorf("storage: waiting in topic: %w", err)
	}
	return n, nil
}
