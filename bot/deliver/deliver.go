// Package deliver drains the outbox into Telegram: it claims due rows,
// renders each entry for its subscription (templates), sends the Bot API
// calls with the media fallbacks, and records the outcome. A send in
// flight is always finished, also during shutdown: cancelling it after
// Telegram got it would post it again after the restart.
//
// Telegram's answers never lose an entry and never stop other chats (see
// Classify and settle): a chat the bot cannot post in, or a deleted forum
// topic, is paused with its posts kept pending for after a resume; a group
// that became a supergroup is moved; refused HTML goes again as plain
// text; a 429 makes the chat (or the bot) wait without counting an
// attempt. Each chat's posts go oldest first, and a chat that must wait
// gives its rows back for later instead of holding up the others.
package deliver

import (
	"context"
	"encoding/json"
	"errors"
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
	// AdminID receives notices (failing templates, paused chats, failed
	// posts); 0: none.
	AdminID int64
	// Owner names this instance in outbox leases.
	Owner  string
	Now    func() time.Time
	Logger *slog.Logger
	// Workers is how many chats are sent to at once (default 4): a slow
	// chat holds up only its own worker.
	Workers int
	// Sleep waits d, or less when ctx ends (then false); nil: a timer.
	// Tests pass one that moves their clock.
	Sleep func(ctx context.Context, d time.Duration) bool
}

// noticeEvery is how often one failing template is reported for one
// subscription: once is news, every entry would be noise.
const noticeEvery = 24 * time.Hour

// NoticeTemplateFailed is the notice kind for a template that failed for
// an entry (the bot's catalogs word it).
const NoticeTemplateFailed = "template_failed"

// defaultWorkers is Options.Workers' default.
const defaultWorkers = 4

// Deliverer sends due outbox rows. Each chat's rows go oldest first; a
// chat that must wait (its rate limit, a retry, a 429) has its rows given
// back for later while the other chats go on.
type Deliverer struct {
	opts   Options
	sender *Sender
	notify *Notifier
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
	if opts.Workers <= 0 {
		opts.Workers = defaultWorkers
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepCtx
	}
	return &Deliverer{
		opts: opts,
		sender: &Sender{API: opts.API, Media: Media{Fetcher: opts.Fetcher, MaxBytes: opts.MediaMaxBytes},
			Logger: opts.Logger, Sleep: opts.Sleep},
		notify:   &Notifier{Store: opts.Store, AdminID: opts.AdminID, Logger: opts.Logger},
		log:      opts.Logger,
		pacer:    NewPacer(),
		reported: map[string]time.Time{},
	}
}

// Due claims due outbox rows and sends them, each chat's in order and up
// to Workers chats at once; it returns how many rows it handled. While
// Telegram holds the whole bot back (a bot-wide 429), it claims nothing.
func (d *Deliverer) Due(ctx context.Context) int {
	now := d.opts.Now()
	if d.pacer.Held().After(now) {
		return 0
	}
	rows, err := d.opts.Store.ClaimOutbox(ctx, d.opts.Owner, now, Lease, ClaimBatch)
	if err != nil {
		if ctx.Err() == nil {
			d.log.Error("deliver: claiming outbox", "error", err)
		}
		return 0
	}
	chats := byChat(rows)
	jobs := make(chan []storage.Delivery)
	var wg sync.WaitGroup
	for range min(d.opts.Workers, len(chats)) {
		wg.Go(func() {
			for rows := range jobs {
				d.deliverChat(ctx, rows)
			}
		})
	}
	for _, c := range chats {
		jobs <- c
	}
	close(jobs)
	wg.Wait()
	return len(rows)
}

// byChat splits claimed rows by chat, keeping their order.
func byChat(rows []storage.Delivery) [][]storage.Delivery {
	index := map[int64]int{}
	var out [][]storage.Delivery
	for _, r := range rows {
		i, ok := index[r.Chat.ID]
		if !ok {
			i = len(out)
			index[r.Chat.ID] = i
			out = append(out, nil)
		}
		out[i] = append(out[i], r)
	}
	return out
}

// deliverChat sends one chat's rows in order. At the first row that does
// not go, the rest are given back untried: they must not overtake it.
func (d *Deliverer) deliverChat(ctx context.Context, rows []storage.Delivery) {
	for i, row := range rows {
		if h := d.deliver(ctx, row); h != nil {
			for _, rest := range rows[i+1:] {
				d.release(ctx, rest, h.until, "")
			}
			return
		}
	}
}

// halt stops a chat's round: its remaining rows are due again at until.
type halt struct{ until time.Time }

// deliver renders and sends one outbox row and records what happened; a
// halt when the chat's next rows must wait.
func (d *Deliverer) deliver(ctx context.Context, row storage.Delivery) *halt {
	log := d.log.With("outbox_id", row.Outbox.ID, "chat_id", row.Chat.ID, "feed_id", row.FeedID)
	now := d.opts.Now()
	if ctx.Err() != nil {
		// Shutting down before the send: the row goes back untouched in effect.
		d.release(ctx, row, now, "")
		return &halt{now}
	}
	if ready := d.pacer.Ready(row.Chat.ID); ready.After(now) {
		d.release(ctx, row, ready, "")
		return &halt{ready}
	}
	post, err := d.render(ctx, row)
	if err != nil {
		log.Error("deliver: rendering failed", "error", err)
		return d.settle(ctx, row, Sent{ChatID: row.Chat.ID}, err, log)
	}
	if post.TemplateErr != nil {
		log.Warn("deliver: template failed; posted with the built-in one", "error", post.TemplateErr)
		d.reportTemplate(ctx, row, post.TemplateErr, log)
	}
	if wait := d.pacer.Reserve(messages(post), now); wait > 0 && !d.opts.Sleep(ctx, wait) {
		d.release(ctx, row, now, "")
		return &halt{now}
	}
	target := Target{ChatID: row.Chat.ID, TopicID: row.Subscription.TopicID, Silent: row.Subscription.Silent}
	sent, err := d.sender.Send(ctx, target, post)
	d.pacer.Sent(sent.ChatID, row.Chat.Type, len(sent.IDs), d.opts.Now())
	log.Debug("deliver: sent", "calls", describe(post), "messages", len(sent.IDs), "error", err)
	return d.settle(ctx, row, sent, err, log)
}

// messages counts the messages a post makes: one per call, one per photo
// of an album.
func messages(post templates.Post) int {
	n := 0
	for _, c := range post.Calls {
		n += max(len(c.Images), 1)
	}
	return n
}

// release gives a row back without counting an attempt, due at next.
func (d *Deliverer) release(ctx context.Context, row storage.Delivery, next time.Time, why string) {
	if err := d.opts.Store.ReleaseOutbox(context.WithoutCancel(ctx), row.Outbox.ID, d.opts.Owner, why, next); err != nil {
		d.log.Error("deliver: releasing a row", "outbox_id", row.Outbox.ID, "error", err)
	}
}

// render decodes the stored entry and renders it for the subscription.
func (d *Deliverer) render(ctx context.Context, row storage.Delivery) (templates.Post, error) {
	var e feed.Entry
	if err := json.Unmarshal(row.Entry.Payload, &e); err != nil {
		return templates.Post{}, fmt.Errorf("deliver: decoding entry %d: %w: %w", row.Entry.ID, errUnrenderable, err)
	}
	rules, err := Replacements(ctx, d.opts.Store, row.FeedID, d.log)
	if err != nil {
		return templates.Post{}, err
	}
	post, err := d.opts.Renderer.Render(e, templates.Options{
		FeedTitle:    row.FeedTitle,
		FeedURL:      row.FeedURL,
		Language:     d.opts.Language,
		MediaMode:    row.Subscription.MediaMode,
		Split:        row.Subscription.Split,
		Template:     row.Subscription.Template,
		Replacements: rules,
	})
	if err != nil {
		return templates.Post{}, fmt.Errorf("deliver: rendering entry %d: %w: %w", row.Entry.ID, errUnrenderable, err)
	}
	return post, nil
}

// errUnrenderable marks an entry that cannot be rendered: trying again
// would fail the same way.
var errUnrenderable = errors.New("cannot be rendered")

// Replacements loads and compiles the global rules and those of feedID (0 =
// global only): the rules delivery applies. A rule that no longer compiles
// is skipped (and logged): the bot refuses such rules when they are added.
func Replacements(ctx context.Context, store *storage.Store, feedID int64, log *slog.Logger) ([]*templates.Replacement, error) {
	stored, err := store.Replacements(ctx, feedID)
	if err != nil {
		return nil, err
	}
	rules := make([]*templates.Replacement, 0, len(stored))
	for _, s := range stored {
		r, err := templates.CompileReplacement(s.Pattern, s.IsRegex, s.Replacement)
		if err != nil {
			log.Warn("deliver: skipping a replacement", "replacement_id", s.ID, "error", err)
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
