package bot

import (
	"context"
	"errors"
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
	// explicit: named by a chat argument, not the command's own chat.
	explicit bool
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

// access is what a command is about to do in a chat named by an argument.
type access int

const (
	// accessManage reads or changes the chat's subscriptions: the admin
	// must administer the chat. When the bot can no longer see the chat
	// (it was removed), a chat the store knows is still accepted, so that
	// what is left of it can be listed and cleaned up.
	accessManage access = iota
	// accessPost makes the bot post there: the bot must also be allowed to
	// post, and a topic needs a forum.
	accessPost
)

// target resolves the optional chat argument of a command (the command's own
// chat and topic when absent), records the chat, and replies with the
// reason when it cannot.
func (b *Bot) target(ctx context.Context, c command, args []string, need access) (chatTarget, bool) {
	if len(args) == 0 {
		t := chatTarget{chat: chatOf(c.msg.Chat), topic: topicOf(c.msg)}
		if err := b.opts.Store.UpsertChat(ctx, t.chat); err != nil {
			b.reply(ctx, c, "error_internal", map[string]any{"Error": err})
			return t, false
		}
		return t, true
	}
	t, err := b.resolve(ctx, args[0], need)
	if err != nil {
		b.replyError(ctx, c, err, map[string]any{"Chat": args[0]})
		return t, false
	}
	return t, true
}

// resolve looks a chat reference up with getChat, checks the admin's and
// the bot's rights there, and stores the chat. Refusals are userErrors.
func (b *Bot) resolve(ctx context.Context, ref string, need access) (chatTarget, error) {
	r, err := parseChatRef(ref)
	if err != nil {
		return chatTarget{}, refuse("chat_ref_bad", nil)
	}
	var id any = r.id
	if r.username != "" {
		id = r.username
	}
	info, err := b.api.GetChat(ctx, &tgbot.GetChatParams{ChatID: id})
	if err != nil {
		if known, ok := b.knownChat(ctx, r, need); ok {
			return known, nil
		}
		return chatTarget{}, refuse("chat_unknown", map[string]any{"Error": err})
	}
	t := chatTarget{
		chat:     storage.Chat{ID: info.ID, Type: string(info.Type), Title: chatTitle(info.Title, info.FirstName, info.LastName), Username: info.Username, IsForum: info.IsForum},
		topic:    r.topic,
		explicit: true,
	}
	if err := b.checkRights(ctx, t, need); err != nil {
		var ue *userError
		if errors.As(err, &ue) {
			return chatTarget{}, err
		}
		if known, ok := b.knownChat(ctx, chatRef{id: t.chat.ID, topic: r.topic}, need); ok {
			return known, nil
		}
		return chatTarget{}, refuse("chat_check_failed", map[string]any{"Error": err})
	}
	if err := b.opts.Store.UpsertChat(ctx, t.chat); err != nil {
		return chatTarget{}, err
	}
	return t, nil
}

// knownChat is the stored chat of a numeric reference, accepted for
// managing what the store holds when Telegram no longer shows the chat.
func (b *Bot) knownChat(ctx context.Context, r chatRef, need access) (chatTarget, bool) {
	if need != accessManage || r.id == 0 {
		return chatTarget{}, false
	}
	chat, err := b.opts.Store.ChatByID(ctx, r.id)
	if err != nil {
		return chatTarget{}, false
	}
	return chatTarget{chat: chat, topic: r.topic, explicit: true}, true
}

// checkRights refuses a chat the admin does not administer, or, for
// posting, one the bot may not post in or a topic outside a forum. Plain
// errors mean the rights could not be read.
func (b *Bot) checkRights(ctx context.Context, t chatTarget, need access) error {
	if t.chat.Type == string(models.ChatTypePrivate) {
		if t.chat.ID != b.opts.AdminID {
			return refuse("chat_private_other", nil)
		}
		if t.topic != 0 && need == accessPost {
			return refuse("chat_not_forum", nil)
		}
		return nil
	}
	admin, err := b.api.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: t.chat.ID, UserID: b.opts.AdminID})
	if err != nil {
		return err
	}
	if !isChatAdmin(admin) {
		return refuse("chat_admin_not_admin", nil)
	}
	if need != accessPost {
		return nil
	}
	if t.topic != 0 && !t.chat.IsForum {
		return refuse("chat_not_forum", nil)
	}
	self, err := b.api.GetChatMember(ctx, &tgbot.GetChatMemberParams{ChatID: t.chat.ID, UserID: b.api.ID()})
	if err != nil {
		return err
	}
	if !botCanPost(t.chat.Type, self) {
		if t.chat.Type == string(models.ChatTypeChannel) {
			return refuse("chat_bot_not_channel_admin", nil)
		}
		return refuse("chat_bot_not_member", nil)
	}
	return nil
}

// isChatAdmin: the chat's creator or one of its administrators.
func isChatAdmin(m *models.ChatMember) bool {
	return m != nil && (m.Type == models.ChatMemberTypeOwner || m.Type == models.ChatMemberTypeAdministrator)
}

// botCanPost says whether a bot with membership m may post in a chat of
// chatType: in a channel only an administrator with the right to post
// messages (Bot API: can_post_messages), in a group any member that is
// not restricted from sending messages.
func botCanPost(chatType string, m *models.ChatMember) bool {
	if m == nil {
		return false
	}
	if chatType == string(models.ChatTypeChannel) {
		return m.Type == models.ChatMemberTypeAdministrator && m.Administrator != nil && m.Administrator.CanPostMessages
	}
	switch m.Type {
	case models.ChatMemberTypeOwner, models.ChatMemberTypeAdministrator, models.ChatMemberTypeMember:
		return true
	case models.ChatMemberTypeRestricted:
		return m.Restricted != nil && m.Restricted.IsMember && m.Restricted.CanSendMessages
	}
	return false
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
