package deliver

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// botRefusedWait is how long every chat waits after a 401 or 404: the
// token or API URL is wrong, and asking again at once would only repeat it.
const botRefusedWait = time.Minute

// settle records what a send did with the row, and acts on what Telegram
// said about the chat; a halt when the chat's next rows must wait. A post
// that went out, even in part, is sent: repeating it would post it twice.
// Nothing Telegram says about the chat (rather than the post) fails a row:
// such rows go back to pending, and only a post's own problem or running
// out of retries makes it failed, which the admin is told of.
func (d *Deliverer) settle(ctx context.Context, row storage.Delivery, sent Sent, sendErr error, log *slog.Logger) *halt {
	ctx = context.WithoutCancel(ctx) // record the outcome even while shutting down
	now := d.opts.Now()
	done := sendErr == nil || len(sent.IDs) > 0
	if done {
		if sendErr != nil {
			log.Warn("deliver: post partly sent", "messages", len(sent.IDs), "error", sendErr)
		}
		d.record(log, "sent", d.opts.Store.MarkSent(ctx, row.Outbox.ID, d.opts.Owner, sent.IDs, now))
	}
	if sent.Plain {
		log.Error("deliver: the post went as plain text: Telegram refused its HTML", "outbox_id", row.Outbox.ID)
	}
	var h *halt
	if sent.ChatID != row.Chat.ID {
		d.migrate(ctx, row.Chat, sent.ChatID, log)
		h = &halt{now} // the chat's other rows are claimed again under the new id
	}
	if sendErr == nil {
		return h
	}
	chat := row.Chat
	chat.ID = sent.ChatID
	problem := Classify(sendErr)
	log = log.With("problem", problem.String(), "error", sendErr)
	switch problem {
	case RateLimited:
		wait := retryAfter(sendErr)
		global := d.pacer.Backoff(chat.ID, wait, now)
		log.Warn("deliver: Telegram asked to slow down", "retry_after", wait, "global", global)
		until := now.Add(wait)
		if !done {
			d.release(ctx, row, until, sendErr.Error())
		}
		return &halt{until}
	case ChatGone:
		next := d.pauseChat(ctx, chat, sendErr, now, log)
		if !done {
			d.release(ctx, row, next, sendErr.Error())
		}
		return &halt{next}
	case TopicGone:
		next := d.pauseTopic(ctx, chat, row.Subscription.TopicID, sendErr, now, log)
		if !done {
			d.release(ctx, row, next, sendErr.Error())
		}
		return &halt{next}
	case BotRefused:
		until := now.Add(botRefusedWait)
		log.Error("deliver: the Bot API refused the bot itself; check BOT_TOKEN and TELEGRAM_API_URL")
		d.pacer.Hold(until)
		if !done {
			d.release(ctx, row, until, sendErr.Error())
		}
		return &halt{until}
	}
	if done {
		return h
	}
	final := errors.Is(sendErr, errUnrenderable) || problem == Refused || problem == BadEntities
	next := now
	if !final {
		next, final = RetryPlan(sendErr, row.Outbox.Attempts+1, now)
	}
	if final {
		log.Error("deliver: delivery failed", "attempts", row.Outbox.Attempts+1)
		d.record(log, "failed", d.opts.Store.MarkFailed(ctx, row.Outbox.ID, d.opts.Owner, sendErr.Error(), now))
		d.notify.Failed(ctx, ChatLabel(chat), sendErr.Error(), now)
		return h // the row is done with: the chat's next rows may go
	}
	log.Warn("deliver: delivery will be retried", "next_attempt", next)
	d.record(log, "retry", d.opts.Store.MarkRetry(ctx, row.Outbox.ID, d.opts.Owner, sendErr.Error(), next))
	return &halt{now} // held behind the retried row by the claim's order
}

func (d *Deliverer) record(log *slog.Logger, what string, err error) {
	if err != nil {
		log.Error("deliver: recording delivery", "outcome", what, "error", err)
	}
}

// pauseChat pauses the chat's subscriptions and tells the admin, once per
// pause. It returns when the chat's rows are due again: at once (they are
// not claimed while paused), or in a minute if the pause could not be
// stored, so that a broken database does not make a busy loop.
func (d *Deliverer) pauseChat(ctx context.Context, chat storage.Chat, cause error, now time.Time, log *slog.Logger) time.Time {
	reason := ReasonChat + telegramText(cause)
	n, err := d.opts.Store.PauseChatActive(ctx, chat.ID, reason)
	if err != nil {
		log.Error("deliver: pausing the chat", "pause_error", err)
		return now.Add(time.Minute)
	}
	log.Warn("deliver: the bot cannot post in the chat; its subscriptions are paused", "paused", n)
	if n > 0 {
		waiting, err := d.opts.Store.WaitingInChat(ctx, chat.ID)
		if err != nil {
			log.Error("deliver: counting waiting posts", "count_error", err)
		}
		d.notify.Add(ctx, NoticeChatPaused, NoticeFields{
			Chat: ChatLabel(chat), Reason: telegramText(cause), Count: n, Waiting: waiting,
		}, now)
	}
	return now
}

// pauseTopic pauses the subscriptions of a forum topic that is gone and
// tells the admin, as pauseChat does for a chat.
func (d *Deliverer) pauseTopic(ctx context.Context, chat storage.Chat, topicID int64, cause error, now time.Time, log *slog.Logger) time.Time {
	reason := ReasonTopic + telegramText(cause)
	n, err := d.opts.Store.PauseTopicActive(ctx, chat.ID, topicID, reason)
	if err != nil {
		log.Error("deliver: pausing the topic", "pause_error", err)
		return now.Add(time.Minute)
	}
	log.Warn("deliver: the forum topic is gone; its subscriptions are paused", "topic_id", topicID, "paused", n)
	if n > 0 {
		waiting, err := d.opts.Store.WaitingInTopic(ctx, chat.ID, topicID)
		if err != nil {
			log.Error("deliver: counting waiting posts", "count_error", err)
		}
		d.notify.Add(ctx, NoticeTopicPaused, NoticeFields{
			Chat: ChatLabel(chat), Topic: topicID, Reason: telegramText(cause), Count: n, Waiting: waiting,
		}, now)
	}
	return now
}

// migrate moves a group that became a supergroup to its new id (its
// subscriptions and waiting rows) and tells the admin.
func (d *Deliverer) migrate(ctx context.Context, chat storage.Chat, to int64, log *slog.Logger) {
	res, err := d.opts.Store.MigrateChat(ctx, chat.ID, to)
	if err != nil {
		log.Error("deliver: moving the chat to its supergroup", "new_chat_id", to, "migrate_error", err)
		return
	}
	log.Info("deliver: the group became a supergroup; its subscriptions moved", "new_chat_id", to,
		"moved", res.Moved, "merged", res.Merged)
	d.notify.Add(ctx, NoticeChatMigrated, NoticeFields{
		Chat: ChatLabel(chat), From: chat.ID, To: to, Count: res.Moved + res.Merged,
	}, d.opts.Now())
}
