package deliver

import (
	"context"
	"errors"

	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/storage"
)

// CanPost reports whether a chat member with this status may post in a
// chat of chatType: owners, administrators (of a channel: with
// can_post_messages) and members may; restricted members only while they
// are members allowed to send messages; those who left or were banned
// ("kicked", also a private chat's user blocking the bot) may not.
func CanPost(m models.ChatMember, chatType models.ChatType) bool {
	switch m.Type {
	case models.ChatMemberTypeOwner, models.ChatMemberTypeMember:
		return true
	case models.ChatMemberTypeAdministrator:
		return chatType != models.ChatTypeChannel || m.Administrator == nil || m.Administrator.CanPostMessages
	case models.ChatMemberTypeRestricted:
		return m.Restricted != nil && m.Restricted.IsMember && m.Restricted.CanSendMessages
	}
	return false
}

// OnMembership acts on a my_chat_member update, Telegram's word that the
// bot's own membership in a chat changed. Removed (or muted, or blocked by
// a private chat's user): the chat's active subscriptions pause, their
// posts wait, and the admin is told. Back with the right to post: the
// subscriptions paused because the bot could not post there resume, and
// the admin is told. Chats the bot has no subscriptions in are left alone.
func (d *Deliverer) OnMembership(ctx context.Context, u *models.ChatMemberUpdated) {
	ctx = context.WithoutCancel(ctx)
	now := d.opts.Now()
	status := string(u.NewChatMember.Type)
	log := d.log.With("chat_id", u.Chat.ID, "status", status, "by_user_id", u.From.ID)
	chat, err := d.opts.Store.ChatByID(ctx, u.Chat.ID)
	if errors.Is(err, storage.ErrNotFound) {
		log.Info("deliver: membership changed in a chat without subscriptions")
		return
	}
	if err != nil {
		log.Error("deliver: membership: loading the chat", "error", err)
		return
	}
	// Keep the chat's description current while we are at it.
	chat.Type, chat.Title, chat.Username, chat.IsForum = string(u.Chat.Type), chatTitle(u.Chat), u.Chat.Username, u.Chat.IsForum
	if err := d.opts.Store.UpsertChat(ctx, chat); err != nil {
		log.Warn("deliver: membership: updating the chat", "error", err)
	}
	if !CanPost(u.NewChatMember, u.Chat.Type) {
		reason := "status " + status
		n, err := d.opts.Store.PauseChatActive(ctx, chat.ID, ReasonChat+reason)
		if err != nil {
			log.Error("deliver: membership: pausing the chat", "error", err)
			return
		}
		log.Warn("deliver: the bot may no longer post in the chat; its subscriptions are paused", "paused", n)
		if n > 0 {
			waiting, _ := d.opts.Store.WaitingInChat(ctx, chat.ID)
			d.notify.Add(ctx, NoticeChatPaused, NoticeFields{Chat: ChatLabel(chat), Reason: reason, Count: n, Waiting: waiting}, now)
		}
		return
	}
	n, err := d.opts.Store.ResumeChatPaused(ctx, chat.ID, ReasonChat)
	if err != nil {
		log.Error("deliver: membership: resuming the chat", "error", err)
		return
	}
	log.Info("deliver: the bot may post in the chat", "resumed", n)
	if n > 0 {
		waiting, _ := d.opts.Store.WaitingInChat(ctx, chat.ID)
		d.notify.Add(ctx, NoticeChatResumed, NoticeFields{Chat: ChatLabel(chat), Count: n, Waiting: waiting}, now)
	}
}

// chatTitle is a chat's title, or for a private chat its user's name.
func chatTitle(c models.Chat) string {
	if c.Title != "" {
		return c.Title
	}
	name := c.FirstName
	if c.LastName != "" {
		name += " " + c.LastName
	}
	return name
}
