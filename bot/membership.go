package bot

import (
	"context"

	"github.com/go-telegram/bot/models"
)

// onMembership handles the bot being added to, removed from, muted in or
// blocked in a chat (my_chat_member): delivery pauses the chat's
// subscriptions, or resumes those it paused, and tells the admin.
func (b *Bot) onMembership(ctx context.Context, u *models.ChatMemberUpdated) {
	b.deliver.OnMembership(ctx, u)
}
