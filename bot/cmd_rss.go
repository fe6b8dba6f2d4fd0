package bot

import (
	"context"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/storage"
)

// rssPageSize is how many subscriptions one page of /rss lists.
const rssPageSize = 10

// cmdRSS is /rss [chat]: the chat's subscriptions, a page at a time.
func (b *Bot) cmdRSS(ctx context.Context, c command) {
	if len(c.args) > 1 {
		b.reply(ctx, c, "rss_usage", nil)
		return
	}
	target, ok := b.target(ctx, c, c.args, accessManage)
	if !ok {
		return
	}
	text, kb, err := b.rssPage(ctx, target.chat.ID, 0)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	b.sendAt(ctx, c.at, text, kb)
}

// editRSSPage shows another page in the message whose ◀ or ▶ was pressed.
func (b *Bot) editRSSPage(ctx context.Context, at place, msgID int, chatID int64, page int) {
	text, kb, err := b.rssPage(ctx, chatID, page)
	if err != nil {
		b.sayError(ctx, at, err, nil)
		return
	}
	params := &tgbot.EditMessageTextParams{
		ChatID: at.chatID, MessageID: msgID, Text: text, ParseMode: models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tgbot.True()},
	}
	if kb != nil {
		params.ReplyMarkup = kb
	}
	if _, err := b.api.EditMessageText(ctx, params); err != nil {
		b.log.Warn("bot: editMessageText", "chat_id", at.chatID, "error", err)
	}
}

// rssPage renders page (0-based; clamped to the last page) of a chat's
// subscriptions with its ◀ ▶ keyboard.
func (b *Bot) rssPage(ctx context.Context, chatID int64, page int) (string, *models.InlineKeyboardMarkup, error) {
	subs, err := b.opts.Store.SubscriptionsByChat(ctx, chatID)
	if err != nil {
		return "", nil, err
	}
	if len(subs) == 0 {
		return b.msg.T("rss_empty", nil), nil, nil
	}
	pages := (len(subs) + rssPageSize - 1) / rssPageSize
	page = min(max(page, 0), pages-1)
	head := b.msg.N("rss_header", len(subs), nil)
	if pages > 1 {
		head += " " + b.msg.T("rss_page", map[string]any{"Page": page + 1, "Pages": pages})
	}
	lines := []string{head}
	for _, s := range subs[page*rssPageSize : min(len(subs), (page+1)*rssPageSize)] {
		lines = append(lines, b.rssLine(s))
	}
	return strings.Join(lines, "\n"), pageKeyboard(chatID, page, pages), nil
}

// rssLine is one subscription: id, 🚫 for a disabled feed, ⏸ for a paused
// subscription, the linked title, and the forum topic.
func (b *Bot) rssLine(s storage.SubscriptionView) string {
	marks := ""
	if !s.FeedDisabledAt.IsZero() {
		marks += "🚫 "
	}
	if s.Paused {
		marks += "⏸ "
	}
	return b.msg.T("rss_line", escapeAll(map[string]any{
		"ID": s.ID, "Marks": marks, "URL": s.FeedURL, "Title": clip(titleOr(s.FeedTitle, s.FeedURL), 120), "Topic": s.TopicID,
	}))
}
