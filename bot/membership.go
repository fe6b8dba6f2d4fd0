package bot

import (
	"context"

	"github.com/go-telegram/bot/models"
)

// onMembership handles the bot being added to, or removed from, a chat.
// Placeholder: the delivery-robustness work fills it in.
func (b *Bot) onMembership(ctx context.Context, u *models.ChatMemberUpdated) {
	b.log.Info("bot: membership changed", "chat_id", u.Chat.ID)
}
