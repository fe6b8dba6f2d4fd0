// Package deliver drains the outbox into Telegram: it claims due rows,
// renders each entry for its subscription (templates), sends the Bot API
// calls with the media fallbacks, and records the outcome. A send in
// flight is always finished, also during shutdown: cancelling it after
// Telegram got it would post it again after the restart.
package deliver

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/templates"
)

// Options configure a Deliverer.
type Options struct {
	API      API
	Store    *storage.Store
	Renderer *templates.Renderer
	// Fetcher downloads images Telegram refuses by URL; nil: such images
	// are left out.
	Fetcher *fetch.Client
	// MediaMaxBytes is MEDIA_MAX_BYTES (0: Telegram's photo limit alone).
	MediaMaxBytes int64
	// Language is BOT_LANGUAGE: the built-in template and the dates.
	Language string
	// AdminID receives notices about failing templates; 0: none.
	AdminID int64
	// Owner names this instance in outbox leases.
	Owner  string
	Now    func() time.Time
	Logger *slog.Logger
}

// noticeEvery is how often one failing template is reported for one
// subscription: once is news, every entry would be noise.
const noticeEvery = 24 * time.Hour

// NoticeTemplateFailed is the notice kind for a template that failed for
// an entry (the bot's catalogs word it).
const NoticeTemplateFailed = "template_failed"

// Deliverer sends due outbox rows.
type Deliverer struct {
	opts   Options
	sender *Sender
	log    *slog.Logger

	pacer *Pacer

	mu       sync.Mutex
	reported map[string]time.Time // template failures already noticed
}

// New returns a Deliverer; zero options get defaults.
func New(opts Options) *Deliverer {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	return &Deliverer{
		opts:     opts,
		sender:   &Sender{API: opts.API, Media: Media{Fetcher: opts.Fetcher, MaxBytes: opts.MediaMaxBytes}, Logger: opts.Logger},
		log:      opts.Logger,
		pacer:    NewPacer(),
		reported: map[string]time.Time{},
	}
}

// Due claims due outbox rows and sends them in order; it returns how many
// it handled.
func (d *Deliverer) Due(ctx context.Context) int {
	rows, err := d.opts.Store.ClaimOutbox(ctx, d.opts.Owner, d.opts.Now(), Lease, ClaimBatch)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Error("deliver: claiming outbox", "error", err)
		}
		return 0
	}
	for _, row := range rows {
		if ctx.Err() != nil {
			break // the lease runs out and another sender takes the rest
		}
		d.deliver(ctx, row)
	}
	return len(rows)
}

// deliver renders and sends one outbox row and records what happened.
func (d *Deliverer) deliver(ctx context.Context, row storage.Delivery) {
	log := d.log.With("outbox_id", row.Outbox.ID, "chat_id", row.Chat.ID, "feed_id", row.FeedID)
	post, err := d.render(ctx, row)
	if err != nil {
		log.Error("deliver: rendering failed", "error", err)
		d.finish(ctx, row, nil, err, log)
		return
	}
	if post.TemplateErr != nil {
		log.Warn("deliver: template failed; posted with the built-in one", "error", post.TemplateErr)
		d.reportTemplate(ctx, row, post.TemplateErr, log)
	}
	if !d.waitTurn(ctx, row.Chat.ID) {
		// Shutting down before the send: give the row back untouched in effect.
		if err := d.opts.Store.MarkRetry(context.WithoutCancel(ctx), row.Outbox.ID, d.opts.Owner, "not sent: shutting down", d.opts.Now()); err != nil {
			log.Error("deliver: releasing the row", "error", err)
		}
		return
	}
	target := Target{ChatID: row.Chat.ID, TopicID: row.Subscription.TopicID, Silent: row.Subscription.Silent}
	ids, err := d.sender.Send(ctx, target, post)
	d.pacer.Sent(row.Chat.ID, row.Chat.Type, max(len(ids), 1), d.opts.Now())
	log.Debug("deliver: sent", "calls", describe(post), "messages", len(ids), "error", err)
	d.finish(ctx, row, ids, err, log)
}

// waitTurn waits until the pacer lets the next message go to chatID; false
// when ctx ended first.
func (d *Deliverer) waitTurn(ctx context.Context, chatID int64) bool {
	wait := d.pacer.Wait(chatID, d.opts.Now())
	if wait <= 0 {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// render decodes the stored entry and renders it for the subscription.
func (d *Deliverer) render(ctx context.Context, row storage.Delivery) (templates.Post, error) {
	var e feed.Entry
	if err := json.Unmarshal(row.Entry.Payload, &e); err != nil {
		return templates.Post{}, fmt.Errorf("deliver: decoding entry %d: %w", row.Entry.ID, err)
	}
	rules, err := d.replacements(ctx, row.FeedID)
	if err != nil {
		return templates.Post{}, err
	}
	return d.opts.Renderer.Render(e, templates.Options{
		FeedTitle:    row.FeedTitle,
		FeedURL:      row.FeedURL,
		Language:     d.opts.Language,
		MediaMode:    row.Subscription.MediaMode,
		Split:        row.Subscription.Split,
		Template:     row.Subscription.Template,
		Replacements: rules,
	})
}

// replacements loads and compiles the global and the feed's rules. A rule
// that no longer compiles is skipped (and logged): the bot refuses such
// rules when they are added.
func (d *Deliverer) replacements(ctx context.Context, feedID int64) ([]*templates.Replacement, error) {
	stored, err := d.opts.Store.Replacements(ctx, feedID)
	if err != nil {
		return nil, err
	}
	rules := make([]*templates.Replacement, 0, len(stored))
	for _, s := range stored {
		r, err := templates.CompileReplacement(s.Pattern, s.IsRegex, s.Replacement)
		if err != nil {
			d.log.Warn("deliver: skipping a replacement", "replacement_id", s.ID, "error", err)
			continue
		}
		rules = append(rules, r)
	}
	return rules, nil
}

// reportTemplate leaves the admin a notice about a failing template, once
// a day per subscription and error.
func (d *Deliverer) reportTemplate(ctx context.Context, row storage.Delivery, failure error, log *slog.Logger) {
	if d.opts.AdminID == 0 {
		return
	}
	now := d.opts.Now()
	key := fmt.Sprintf("%d\x00%s", row.Subscription.ID, failure)
	d.mu.Lock()
	last, seen := d.reported[key]
	if !seen || now.Sub(last) >= noticeEvery {
		d.reported[key] = now
		for k, at := range d.reported {
			if now.Sub(at) >= noticeEvery {
				delete(d.reported, k)
			}
		}
	}
	d.mu.Unlock()
	if seen && now.Sub(last) < noticeEvery {
		return
	}
	_, err := d.opts.Store.AddNotice(context.WithoutCancel(ctx), storage.Notice{
		ChatID: d.opts.AdminID, FeedID: row.FeedID, Kind: NoticeTemplateFailed, Text: failure.Error(), CreatedAt: now,
	})
	if err != nil {
		log.Error("deliver: storing the template notice", "error", err)
	}
}

// finish records a delivery's result: sent, retried later, or failed.
func (d *Deliverer) finish(ctx context.Context, row storage.Delivery, ids []int, sendErr error, log *slog.Logger) {
	ctx = context.WithoutCancel(ctx) // record the outcome even while shutting down
	now := d.opts.Now()
	var err error
	switch {
	case sendErr == nil:
		err = d.opts.Store.MarkSent(ctx, row.Outbox.ID, d.opts.Owner, ids, now)
	case len(ids) > 0:
		// Part of the post went out: retrying would repeat it.
		log.Warn("deliver: post partly sent", "error", sendErr)
		err = d.opts.Store.MarkSent(ctx, row.Outbox.ID, d.opts.Owner, ids, now)
	default:
		next, final := RetryPlan(sendErr, row.Outbox.Attempts+1, now)
		if final {
			log.Error("deliver: delivery failed", "attempts", row.Outbox.Attempts+1, "error", sendErr)
			err = d.opts.Store.MarkFailed(ctx, row.Outbox.ID, d.opts.Owner, sendErr.Error(), now)
		} else {
			log.Warn("deliver: delivery will be retried", "next_attempt", next, "error", sendErr)
			err = d.opts.Store.MarkRetry(ctx, row.Outbox.ID, d.opts.Owner, sendErr.Error(), next)
		}
	}
	if err != nil {
		log.Error("deliver: recording delivery", "error", err)
	}
}
