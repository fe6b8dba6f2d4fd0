package bot

import (
	"context"
	"strings"

	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/storage"
)

// statsTroubled is how many failing or disabled feeds /stats names.
const statsTroubled = 10

// cmdStats is /stats [ID]: one subscription's feed in detail, or an
// overview of everything.
func (b *Bot) cmdStats(ctx context.Context, c command) {
	switch len(c.args) {
	case 0:
		b.statsOverview(ctx, c)
		return
	case 1:
	default:
		b.reply(ctx, c, "stats_usage", nil)
		return
	}
	id, ok := parseID(c.args[0])
	if !ok {
		b.reply(ctx, c, "stats_usage", nil)
		return
	}
	sub, err := b.subscriptionView(ctx, id)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	st, err := b.opts.Engine.Stats(ctx, sub.FeedID)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	b.sendAt(ctx, c.at, b.statsText(sub, st), nil)
}

// statsText words a feed's statistics for one of its subscriptions.
func (b *Bot) statsText(sub storage.SubscriptionView, st engine.FeedStats) string {
	f, n := st.Feed, st.Counts
	t := func(id string, data map[string]any) string { return b.msg.T(id, escapeAll(data)) }
	lines := []string{
		t("stats_head", map[string]any{"ID": sub.ID, "Title": clip(titleOr(f.Title, f.URL), 150), "URL": f.URL}),
		t("stats_entries", map[string]any{"Entries": n.Entries, "Skipped": n.Skipped}),
		t("stats_deliveries", map[string]any{"Sent": n.Sent, "Pending": n.Pending, "Failed": n.Failed}),
		t("stats_polls", map[string]any{"Polls": n.Polls, "Errors": n.Errors}),
		t("stats_last_poll", map[string]any{"When": b.when(f.LastPollAt), "Success": b.when(f.LastSuccessAt)}),
	}
	if f.LastError != "" {
		lines = append(lines, t("stats_last_error", map[string]any{"Error": clip(f.LastError, 300),
			"Streak": f.ConsecutiveErrors, "Since": b.when(f.FailingSince)}))
	}
	if !f.DisabledAt.IsZero() {
		lines = append(lines, t("stats_disabled", map[string]any{"When": b.when(f.DisabledAt), "Reason": f.DisabledReason}))
	} else {
		lines = append(lines, t("stats_next", map[string]any{"When": b.when(f.NextPollAt), "Reason": b.worded("reason_", f.NextPollReason)}))
	}
	if sub.Paused {
		lines = append(lines, t("stats_paused", map[string]any{"Reason": sub.PausedReason}))
	}
	if len(st.Recent) > 0 {
		lines = append(lines, t("stats_recent", nil))
		for _, a := range st.Recent {
			lines = append(lines, t("stats_activity", map[string]any{
				"At": a.At.UTC().Format("01-02 15:04:05"), "Kind": b.worded("activity_", a.Kind), "Detail": clip(a.Detail, 160),
			}))
		}
	}
	return strings.Join(lines, "\n")
}

// statsOverview counts subscriptions, feeds and deliveries, and names the
// feeds in trouble.
func (b *Bot) statsOverview(ctx context.Context, c command) {
	subs, err := b.opts.Store.AllSubscriptions(ctx)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	outbox, err := b.opts.Store.CountOutbox(ctx)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	chats, feeds, disabled, failing := map[int64]bool{}, map[string]bool{}, map[string]bool{}, map[string]bool{}
	paused := 0
	var troubled []string
	for _, s := range subs {
		chats[s.ChatID] = true
		feeds[s.FeedURL] = true
		if s.Paused {
			paused++
		}
		bad := !s.FeedDisabledAt.IsZero() || s.FeedLastError != ""
		if !s.FeedDisabledAt.IsZero() {
			disabled[s.FeedURL] = true
		} else if s.FeedLastError != "" {
			failing[s.FeedURL] = true
		}
		if bad && len(troubled) < statsTroubled {
			troubled = append(troubled, b.msg.T("stats_trouble_line", escapeAll(map[string]any{
				"ID": s.ID, "Title": clip(titleOr(s.FeedTitle, s.FeedURL), 80), "Error": clip(s.FeedLastError, 160),
			})))
		}
	}
	lines := []string{b.msg.T("stats_overview", map[string]any{
		"Subs": len(subs), "Paused": paused, "Chats": len(chats), "Feeds": len(feeds),
		"Disabled": len(disabled), "Failing": len(failing),
		"Pending": outbox[storage.StatePending] + outbox[storage.StateSending],
		"Sent":    outbox[storage.StateSent], "Failed": outbox[storage.StateFailed],
	})}
	if len(troubled) > 0 {
		lines = append(lines, b.msg.T("stats_trouble", nil))
		lines = append(lines, troubled...)
	}
	b.sendAt(ctx, c.at, strings.Join(lines, "\n"), nil)
}
