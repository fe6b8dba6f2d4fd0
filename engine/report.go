package engine

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// Notice kinds stored for the admin; the bot words them.
const (
	NoticeDisabled    = "feed_disabled"
	NoticeRateLimited = "feed_rate_limited"
	NoticeFlooded     = "feed_flooded"
	NoticeMoved       = "feed_moved"
)

// report logs a poll, appends it to the feed's activity log and stores the
// notices the admin should read.
func (e *Engine) report(ctx context.Context, before storage.Feed, d schedule.Decision, out pollOutcome, res storage.ImportResult, log *slog.Logger) {
	kind, detail := activityOf(out)
	if out.Err != nil {
		log.Warn("engine: poll failed", "outcome", out.Outcome, "error", out.Err, "next_poll", d.Next)
	} else {
		log.Debug("engine: polled", "outcome", out.Outcome, "new", res.New, "queued", res.Queued, "next_poll", d.Next, "reason", d.Reason)
	}
	if err := e.store.AddActivity(ctx, storage.Activity{FeedID: before.ID, At: e.opts.Now(), Kind: kind, Detail: detail}); err != nil {
		log.Warn("engine: activity log failed", "error", err)
	}
	switch {
	case d.Disable:
		e.notify(ctx, before, NoticeDisabled, d.DisableReason)
	case out.Outcome == fetch.RateLimited.String() && !before.RateLimitedUntil.After(e.opts.Now()):
		e.notify(ctx, before, NoticeRateLimited, d.Next.UTC().Format("2006-01-02 15:04 MST"))
	}
	if res.Flooded > 0 {
		e.notify(ctx, before, NoticeFlooded, fmt.Sprintf("%d", res.Flooded))
	}
}

func activityOf(out pollOutcome) (kind, detail string) {
	switch {
	case out.Err != nil && out.Outcome == fetch.RateLimited.String():
		return "rate_limited", out.Err.Error()
	case out.Err != nil:
		return "error", out.Err.Error()
	case out.Outcome == fetch.NotModified.String():
		return "not_modified", ""
	default:
		return "imported", fmt.Sprintf("%d new, %d queued", out.New, out.Queued)
	}
}

// notify stores a durable notice for the admin. Text carries the detail the
// bot puts into its localized message.
func (e *Engine) notify(ctx context.Context, f storage.Feed, kind, detail string) {
	if e.opts.AdminChatID == 0 {
		return
	}
	_, err := e.store.AddNotice(ctx, storage.Notice{ChatID: e.opts.AdminChatID, FeedID: f.ID, Kind: kind, Text: detail})
	if err != nil {
		e.log.Error("engine: storing notice failed", "feed_id", f.ID, "kind", kind, "error", err)
	}
}
