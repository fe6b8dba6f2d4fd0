package bot

import (
	"context"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/bot/deliver"
	"github.com/rssbot/rssbot/storage"
)

// sendNotices delivers due admin notices; it returns how many it handled.
func (b *Bot) sendNotices(ctx context.Context) int {
	notices, err := b.opts.Store.ClaimNotices(ctx, b.opts.Owner, b.opts.Now(), deliver.Lease, deliver.ClaimBatch)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("bot: claiming notices", "error", err)
		}
		return 0
	}
	for _, n := range notices {
		if ctx.Err() != nil {
			break
		}
		b.sendNotice(ctx, n)
	}
	return len(notices)
}

func (b *Bot) sendNotice(ctx context.Context, n storage.Notice) {
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), deliver.SendTimeout)
	defer cancel()
	_, err := b.api.SendMessage(sendCtx, &tgbot.SendMessageParams{
		ChatID:             n.ChatID,
		Text:               b.noticeText(ctx, n),
		ParseMode:          models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tgbot.True()},
	})
	ctx = context.WithoutCancel(ctx)
	now := b.opts.Now()
	switch {
	case err == nil:
		err = b.opts.Store.MarkNoticeSent(ctx, n.ID, b.opts.Owner, now)
	default:
		next, final := deliver.RetryPlan(err, n.Attempts+1, now)
		if final {
			b.log.Error("bot: notice failed", "notice_id", n.ID, "error", err)
			err = b.opts.Store.MarkNoticeFailed(ctx, n.ID, b.opts.Owner, err.Error(), now)
		} else {
			err = b.opts.Store.MarkNoticeRetry(ctx, n.ID, b.opts.Owner, err.Error(), next)
		}
	}
	if err != nil {
		b.log.Error("bot: recording notice", "notice_id", n.ID, "error", err)
	}
}

// noticeText words a notice in the bot's language.
func (b *Bot) noticeText(ctx context.Context, n storage.Notice) string {
	id := "notice_" + n.Kind
	if deliver.IsDeliveryNotice(n.Kind) {
		if f, ok := deliver.DecodeNoticeFields(n.Text); ok {
			if text := b.msg.N(id, f.Count, deliveryNoticeData(f)); text != id {
				return text
			}
		}
	}
	url := ""
	if n.FeedID != 0 {
		if f, err := b.opts.Store.FeedByID(ctx, n.FeedID); err == nil {
			url = f.URL
		}
	}
	data := escapeClipped(map[string]any{"URL": url, "Detail": n.Text}, noticeFieldMax)
	if text := b.msg.T(id, data); text != id {
		return text
	}
	return b.msg.T("notice_unknown", data)
}

// deliveryNoticeData is the template data of a delivery notice, every
// text HTML-escaped (chat titles and Telegram's words are not ours).
func deliveryNoticeData(f deliver.NoticeFields) map[string]any {
	return escapeClipped(map[string]any{
		"Chat": f.Chat, "Topic": f.Topic, "Reason": f.Reason, "Waiting": f.Waiting,
		"From": f.From, "To": f.To, "Chats": strings.Join(f.Chats, ", "),
	}, noticeFieldMax)
}

// noticeFieldMax bounds each text of a notice (a URL, an error, a list of
// chats), so that even three of them stay within Telegram's 4096
// characters: a notice Telegram refuses would be marked failed unseen.
const noticeFieldMax = 1000
