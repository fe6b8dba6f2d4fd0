package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/engine/discover"
)

// maxCandidates is how many discovered feeds /sub offers as buttons.
const maxCandidates = 8

// subjectAndTarget checks the "SUBJECT [chat]" form of a command, replying
// with the usage text when it is wrong, and resolves the chat.
func (b *Bot) subjectAndTarget(ctx context.Context, c command, usageID string, need access) (chatTarget, bool) {
	if len(c.args) < 1 || len(c.args) > 2 {
		b.reply(ctx, c, usageID, nil)
		return chatTarget{}, false
	}
	return b.target(ctx, c, c.args[1:], need)
}

// cmdSub is /sub URL [chat]: a feed is subscribed at once; a website's
// feeds are offered as buttons.
func (b *Bot) cmdSub(ctx context.Context, c command) {
	target, ok := b.subjectAndTarget(ctx, c, "sub_usage", accessPost)
	if !ok {
		return
	}
	b.subscribe(ctx, c.at, c.args[0], target)
}

// subscribe subscribes target to rawURL and reports it at p. When the URL
// is a web page rather than a feed, it offers the page's feeds instead.
func (b *Bot) subscribe(ctx context.Context, p place, rawURL string, target chatTarget) {
	wasDisabled := b.feedDisabled(ctx, rawURL)
	res, err := b.opts.Engine.Subscribe(ctx, rawURL, target.chat.ID, target.topic)
	var site *engine.WebsiteError
	switch {
	case errors.As(err, &site):
		b.offerFeeds(ctx, p, rawURL, target, site.Found)
		return
	case errors.Is(err, discover.ErrNoFeed):
		b.say(ctx, p, "sub_no_feed", map[string]any{"URL": rawURL, "Error": err})
		return
	case err != nil:
		b.say(ctx, p, "sub_failed", map[string]any{"URL": rawURL, "Error": err})
		return
	}
	data := map[string]any{"Title": titleOr(res.Feed.Title, res.Feed.URL), "URL": res.Feed.URL, "Entries": res.Entries,
		"ID": res.Subscription.ID, "Where": b.where(target)}
	switch {
	case wasDisabled:
		b.say(ctx, p, "sub_enabled", data)
	case res.Existed:
		b.say(ctx, p, "sub_exists", data)
	default:
		b.say(ctx, p, "sub_ok", data)
	}
}

// feedDisabled reports whether rawURL is a known, disabled feed (which
// subscribing enables again).
func (b *Bot) feedDisabled(ctx context.Context, rawURL string) bool {
	u, err := engine.NormalizeURL(rawURL)
	if err != nil {
		return false
	}
	f, err := b.opts.Store.FeedByURL(ctx, u)
	return err == nil && !f.DisabledAt.IsZero()
}

// offerFeeds offers each feed a web page declares as a subscribe button
// with a preview button beside it.
func (b *Bot) offerFeeds(ctx context.Context, p place, rawURL string, target chatTarget, found discover.Result) {
	cands := found.Candidates[:min(len(found.Candidates), maxCandidates)]
	lines := []string{b.msg.N("sub_candidates", len(found.Candidates), escapeAll(map[string]any{"URL": rawURL}))}
	buttons := make([]candidateButton, len(cands))
	for i, fc := range cands {
		title := titleOr(fc.Title, fc.URL)
		lines = append(lines, b.msg.T("sub_candidate_line", escapeAll(map[string]any{
			"N": i + 1, "Title": clip(title, 100), "URL": fc.URL, "Type": fc.Type,
		})))
		tok := b.tokens.put(candidate{URL: fc.URL, Title: title, ChatID: target.chat.ID, Topic: target.topic})
		buttons[i] = candidateButton{n: i + 1, title: title, token: tok}
	}
	b.sendAt(ctx, p, strings.Join(lines, "\n"), b.candidateKeyboard(buttons))
}

// where names a target chat and topic in a reply: empty for the chat the
// command came from.
func (b *Bot) where(t chatTarget) string {
	if !t.explicit {
		return ""
	}
	name := t.chat.Title
	if t.chat.Username != "" {
		name = "@" + t.chat.Username
	}
	if name == "" {
		name = strconv.FormatInt(t.chat.ID, 10)
	}
	if t.topic != 0 {
		return b.msg.T("where_topic", map[string]any{"Chat": name, "Topic": t.topic})
	}
	return b.msg.T("where_chat", map[string]any{"Chat": name})
}

// cmdUnsub is /unsub ID|URL [chat].
func (b *Bot) cmdUnsub(ctx context.Context, c command) {
	target, ok := b.subjectAndTarget(ctx, c, "unsub_usage", accessManage)
	if !ok {
		return
	}
	sub, err := b.subscriptionByRef(ctx, c.args[0], target)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	if err := b.opts.Engine.Unsubscribe(ctx, sub.ID); err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	b.reply(ctx, c, "unsub_ok", map[string]any{"Title": titleOr(sub.FeedTitle, sub.FeedURL), "URL": sub.FeedURL})
}
