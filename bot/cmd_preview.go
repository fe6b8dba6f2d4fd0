package bot

import (
	"context"
	"errors"

	"github.com/rssbot/rssbot/bot/deliver"
	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/templates"
)

// cmdPreview is /preview URL: the feed's first entry, posted here exactly
// as a subscription would receive it, after a line marking it a preview.
func (b *Bot) cmdPreview(ctx context.Context, c command) {
	if len(c.args) != 1 {
		b.reply(ctx, c, "preview_usage", nil)
		return
	}
	b.preview(ctx, c.at, c.args[0])
}

// preview renders the first entry of the feed behind rawURL with the
// delivery path (templates.Renderer, then deliver.Sender's calls) and
// posts it at p with the default options of a new subscription.
func (b *Bot) preview(ctx context.Context, p place, rawURL string) {
	peek, err := b.opts.Engine.Peek(ctx, rawURL)
	if err != nil {
		b.say(ctx, p, "preview_failed", map[string]any{"URL": rawURL, "Error": err})
		return
	}
	title := titleOr(peek.Feed.Title, peek.URL)
	if len(peek.Feed.Entries) == 0 {
		b.say(ctx, p, "preview_empty", map[string]any{"Title": title, "URL": peek.URL})
		return
	}
	rules, err := b.replacementsFor(ctx, peek.URL)
	if err != nil {
		b.sayError(ctx, p, err, nil)
		return
	}
	post, err := b.opts.Renderer.Render(peek.Feed.Entries[0], templates.Options{
		FeedTitle: peek.Feed.Title, FeedURL: peek.URL, Language: b.opts.Language,
		MediaMode: storage.MediaPreview, Replacements: rules,
	})
	if err != nil {
		b.say(ctx, p, "preview_failed", map[string]any{"URL": peek.URL, "Error": err})
		return
	}
	b.say(ctx, p, "preview_head", map[string]any{"Title": clip(title, 150), "URL": peek.URL, "Found": peek.Found})
	sender := &deliver.Sender{
		API:    b.api,
		Media:  deliver.Media{Fetcher: b.opts.Fetcher, MaxBytes: b.opts.MediaMaxBytes},
		Logger: b.log,
	}
	if _, err := sender.Send(ctx, deliver.Target{ChatID: p.chatID, TopicID: int64(p.thread)}, post); err != nil {
		b.say(ctx, p, "preview_send_failed", map[string]any{"Error": err})
	}
}

// replacementsFor compiles the global replacement rules and, when the
// feed is known, its own: the rules delivery would apply.
func (b *Bot) replacementsFor(ctx context.Context, feedURL string) ([]*templates.Replacement, error) {
	var feedID int64
	if u, err := engine.NormalizeURL(feedURL); err == nil {
		f, err := b.opts.Store.FeedByURL(ctx, u)
		switch {
		case err == nil:
			feedID = f.ID
		case !errors.Is(err, storage.ErrNotFound):
			return nil, err
		}
	}
	return deliver.Replacements(ctx, b.opts.Store, feedID, b.log)
}
