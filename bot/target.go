package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/storage"
)

// chatTarget is where a command acts: a chat and a forum topic (0 = none).
type chatTarget struct {
	chat  storage.Chat
	topic int64
}

// chatRef is a parsed "[chat]" argument: @username or a numeric id, with an
// optional "/topic".
type chatRef struct {
	username string
	id       int64
	topic    int64
}

var errBadChatRef = errors.New("expected @username, a numeric chat id, or chat/topic")

// parseChatRef parses "@name", "-100123", "@name/7" or "-100123/7".
func parseChatRef(s string) (chatRef, error) {
	var r chatRef
	base, topic, hasTopic := strings.Cut(s, "/")
	if hasTopic {
		t, err := strconv.ParseInt(topic, 10, 64)
		if err != nil || t <= 0 {
			return r, errBadChatRef
		}
		r.topic = t
	}
	switch {
	case strings.HasPrefix(base, "@") && len(base) > 1:
		r.username = base
	default:
		id, err := strconv.ParseInt(base, 10, 64)
		if err != nil || id == 0 {
			return r, errBadChatRef
		}
		r.id = id
	}
	return r, nil
}

// target resolves the optional chat argument of a command (the command's own
// chat and topic when absent), records the chat, and replies with the
// reason when it cannot.
func (b *Bot) target(ctx context.Context, c command, args []string) (chatTarget, bool) {
	if len(args) == 0 {
		t := chatTarget{chat: chatOf(c.msg.Chat), topic: topicOf(c.msg)}
		if err := b.opts.Store.UpsertChat(ctx, t.chat); err != nil {
			b.reply(ctx, c, "error_internal", map[string]any{"Error": err.Error()})
			return t, false
		}
		return t, true
	}
	t, err := b.resolve(ctx, args[0])
	if err != nil {
		b.reply(ctx, c, "chat_bad", map[string]any{"Chat": args[0], "Error": err.Error()})
		return t, false
	}
	return t, true
}

// resolve looks a chat reference up with getChat and stores the chat.
func (b *Bot) resolve(ctx context.Context, ref string) (chatTarget, error) {
	r, err := parseChatRef(ref)
	if err != nil {
		return chatTarget{}, err
	}
	var id any = r.id
	if r.username != "" {
		id = r.username
	}
	info, err := b.api.GetChat(ctx, &tgbot.GetChatParams{ChatID: id})
	if err != nil {
		return chatTarget{}, fmt.Errorf("bot: getChat: %w", err)
	}
	chat := storage.Chat{ID: info.ID, Type: string(info.Type), Title: chatTitle(info.Title, info.FirstName, info.LastName), Username: info.Username, IsForum: info.IsForum}
	if err := b.opts.Store.UpsertChat(ctx, chat); err != nil {
		return chatTarget{}, err
	}
	return chatTarget{chat: chat, topic: r.topic}, nil
}

func chatOf(c models.Chat) storage.Chat {
	return storage.Chat{ID: c.ID, Type: string(c.Type), Title: chatTitle(c.Title, c.FirstName, c.LastName), Username: c.Username, IsForum: c.IsForum}
}

func chatTitle(title, first, last string) string {
	if title != "" {
		return title
	}
	return strings.TrimSpace(first + " " + last)
}

// topicOf is the forum topic a message was written in (0 = none).
func topicOf(m *models.Message) int64 {
	if m.IsTopicMessage {
		return int64(m.MessageThreadID)
	}
	return 0
}
