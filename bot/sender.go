package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/templates"
)

// Delivery tuning.
const (
	sendLease   = 2 * time.Minute // a claimed row is ours this long
	claimBatch  = 20
	maxAttempts = 8
	sendTimeout = 30 * time.Second // one Bot API call, also during shutdown
)

// sendLoop drains the outbox and the notices until ctx ends.
func (b *Bot) sendLoop(ctx context.Context) {
	t := time.NewTicker(b.opts.SendInterval)
	defer t.Stop()
	for ctx.Err() == nil {
		n := b.sendNotices(ctx) + b.sendDue(ctx)
		if n > 0 {
			continue // more may be due: look again at once
		}
		select {
		case <-ctx.Done():
		case <-t.C:
		}
	}
}

// sendDue claims due outbox rows and sends them in order; it returns how
// many it handled.
func (b *Bot) sendDue(ctx context.Context) int {
	rows, err := b.opts.Store.ClaimOutbox(ctx, b.opts.Owner, b.opts.Now(), sendLease, claimBatch)
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("bot: claiming outbox", "error", err)
		}
		return 0
	}
	for _, d := range rows {
		if ctx.Err() != nil {
			break // the lease runs out and another sender takes the rest
		}
		b.deliver(ctx, d)
	}
	return len(rows)
}

// deliver renders and sends one outbox row and records what happened.
func (b *Bot) deliver(ctx context.Context, d storage.Delivery) {
	log := b.log.With("outbox_id", d.Outbox.ID, "chat_id", d.Chat.ID, "feed_id", d.FeedID)
	msgs, err := b.render(d)
	if err != nil {
		log.Error("bot: rendering failed", "error", err)
		b.finish(ctx, d, nil, err, log)
		return
	}
	// A send in flight is finished even while shutting down: cancelling it
	// after Telegram got it would post it again after the restart.
	sendCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), sendTimeout)
	defer cancel()
	var ids []int
	for _, m := range msgs {
		sent, err := b.api.SendMessage(sendCtx, sendParams(d, m))
		if err != nil {
			b.finish(ctx, d, ids, err, log)
			return
		}
		ids = append(ids, sent.ID)
	}
	b.finish(ctx, d, ids, nil, log)
}

// render turns a delivery's stored entry into messages.
func (b *Bot) render(d storage.Delivery) ([]templates.Message, error) {
	var e feed.Entry
	if err := json.Unmarshal(d.Entry.Payload, &e); err != nil {
		return nil, fmt.Errorf("bot: decoding entry %d: %w", d.Entry.ID, err)
	}
	return b.opts.Renderer.Render(e, d.FeedTitle)
}

func sendParams(d storage.Delivery, m templates.Message) *tgbot.SendMessageParams {
	p := &tgbot.SendMessageParams{
		ChatID:              d.Chat.ID,
		MessageThreadID:     int(d.Subscription.TopicID),
		Text:                m.Text,
		ParseMode:           models.ParseModeHTML,
		DisableNotification: d.Subscription.Silent,
	}
	if m.DisablePreview || d.Subscription.MediaMode == storage.MediaNone {
		p.LinkPreviewOptions = &models.LinkPreviewOptions{IsDisabled: tgbot.True()}
	}
	return p
}

// finish records a delivery's result: sent, retried later, or failed.
func (b *Bot) finish(ctx context.Context, d storage.Delivery, ids []int, sendErr error, log *slog.Logger) {
	ctx = context.WithoutCancel(ctx) // record the outcome even while shutting down
	now := b.opts.Now()
	var err error
	switch {
	case sendErr == nil:
		err = b.opts.Store.MarkSent(ctx, d.Outbox.ID, b.opts.Owner, ids, now)
	case len(ids) > 0:
		// Part of the post went out: retrying would repeat it.
		log.Warn("bot: post partly sent", "error", sendErr)
		err = b.opts.Store.MarkSent(ctx, d.Outbox.ID, b.opts.Owner, ids, now)
	default:
		next, final := retryPlan(sendErr, d.Outbox.Attempts+1, now)
		if final {
			log.Error("bot: delivery failed", "attempts", d.Outbox.Attempts+1, "error", sendErr)
			err = b.opts.Store.MarkFailed(ctx, d.Outbox.ID, b.opts.Owner, sendErr.Error(), now)
		} else {
			log.Warn("bot: delivery will be retried", "next_attempt", next, "error", sendErr)
			err = b.opts.Store.MarkRetry(ctx, d.Outbox.ID, b.opts.Owner, sendErr.Error(), next)
		}
	}
	if err != nil {
		log.Error("bot: recording delivery", "error", err)
	}
}

// retryPlan decides when to try again after a failed send, or that the row
// failed for good: Telegram's retry_after is obeyed; a refusal that cannot
// change (bad request, forbidden) fails at once; anything else backs off
// exponentially from 30 s until maxAttempts.
func retryPlan(err error, attempt int, now time.Time) (next time.Time, final bool) {
	var tooMany *tgbot.TooManyRequestsError
	if errors.As(err, &tooMany) {
		return now.Add(time.Duration(max(tooMany.RetryAfter, 1)) * time.Second), false
	}
	if errors.Is(err, tgbot.ErrorBadRequest) || errors.Is(err, tgbot.ErrorForbidden) || errors.Is(err, tgbot.ErrorUnauthorized) {
		return now, true
	}
	if attempt >= maxAttempts {
		return now, true
	}
	return now.Add(30 * time.Second << (attempt - 1)), false
}
