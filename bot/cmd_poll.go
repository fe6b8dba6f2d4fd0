package bot

import (
	"context"
	"errors"
	"strings"
	"time"
	"unicode"

	"github.com/rssbot/rssbot/engine"
)

// pollNowListed is how many new entries /pollnow names.
const pollNowListed = 10

// cmdPollNow is /pollnow ID: a fresh poll of the subscription's feed now,
// whatever its schedule, reported with what it found.
func (b *Bot) cmdPollNow(ctx context.Context, c command) {
	if len(c.args) != 1 {
		b.reply(ctx, c, "pollnow_usage", nil)
		return
	}
	id, ok := parseID(c.args[0])
	if !ok {
		b.reply(ctx, c, "pollnow_usage", nil)
		return
	}
	sub, err := b.subscriptionView(ctx, id)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	title := titleOr(sub.FeedTitle, sub.FeedURL)
	since := b.opts.Now().Truncate(time.Millisecond)
	r, err := b.opts.Engine.PollNow(ctx, sub.FeedID)
	if errors.Is(err, engine.ErrDisabled) {
		b.reply(ctx, c, "pollnow_disabled", map[string]any{"Title": title, "URL": sub.FeedURL})
		return
	}
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	lines := []string{b.msg.T("pollnow_done", escapeAll(map[string]any{"Title": title, "Outcome": b.worded("outcome_", r.Outcome)}))}
	if r.Err != nil {
		lines = append(lines, b.msg.T("pollnow_error", escapeAll(map[string]any{"Error": clip(r.Err.Error(), 500)})))
	}
	lines = append(lines, b.msg.N("pollnow_counts", r.New, map[string]any{"Queued": r.Queued}))
	if r.MovedTo != "" {
		lines = append(lines, b.msg.T("pollnow_moved", escapeAll(map[string]any{"URL": r.MovedTo})))
	}
	if r.Disabled {
		lines = append(lines, b.msg.T("pollnow_now_disabled", nil))
	}
	lines = append(lines, b.msg.T("pollnow_next", escapeAll(map[string]any{"When": b.when(r.Next), "Reason": b.worded("reason_", r.Reason)})))
	if r.New > 0 {
		lines = append(lines, b.newEntryLines(ctx, sub.FeedID, since, r.New)...)
	}
	b.sendAt(ctx, c.at, strings.Join(lines, "\n"), nil)
}

// newEntryLines names the entries a poll stored (first seen since), at
// most pollNowListed of total.
func (b *Bot) newEntryLines(ctx context.Context, feedID int64, since time.Time, total int) []string {
	entries, err := b.opts.Store.EntriesSeenSince(ctx, feedID, since, pollNowListed)
	if err != nil {
		b.log.Warn("bot: listing new entries", "feed_id", feedID, "error", err)
		return nil
	}
	var lines []string
	for _, e := range entries {
		data := escapeAll(map[string]any{"Title": clip(titleOr(e.Title, e.Identity), 150), "URL": e.Link})
		if strings.HasPrefix(e.Link, "http://") || strings.HasPrefix(e.Link, "https://") {
			lines = append(lines, b.msg.T("entry_line_link", data))
		} else {
			lines = append(lines, b.msg.T("entry_line", data))
		}
	}
	if more := total - len(entries); more > 0 && len(entries) > 0 {
		lines = append(lines, b.msg.N("entry_more", more, nil))
	}
	return lines
}

// worded words a machine value (an outcome, a schedule reason, an
// activity kind) through the catalog message prefix+value, with anything
// but letters and digits as "_"; a value the catalogs lack shows as is.
func (b *Bot) worded(prefix, value string) string {
	if value == "" {
		return ""
	}
	key := strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return unicode.ToLower(r)
		}
		return '_'
	}, value)
	if s := b.msg.T(prefix+key, nil); s != prefix+key {
		return s
	}
	return value
}
