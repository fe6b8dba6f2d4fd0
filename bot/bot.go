// Package bot is the Telegram front end: the admin's commands, the delivery
// sender that drains the outbox under Telegram's limits, and notices. It
// knows nothing of HTTP feeds: it asks the engine and reads storage.
package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/rssbot/rssbot/bot/deliver"
	"github.com/rssbot/rssbot/bot/i18n"
	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/templates"
)

// Options configure a Bot.
type Options struct {
	Token    string
	APIURL   string // TELEGRAM_API_URL
	AdminID  int64
	Language string // BOT_LANGUAGE
	Store    *storage.Store
	Engine   *engine.Engine
	Renderer *templates.Renderer
	// Fetcher downloads images Telegram refuses by URL, for upload.
	Fetcher *fetch.Client
	// MediaMaxBytes is MEDIA_MAX_BYTES, the limit on an uploaded image.
	MediaMaxBytes int64
	// Owner names this instance in the Telegram leader lease.
	Owner  string
	Logger *slog.Logger
	// PollTimeout is the getUpdates long-poll timeout (default 50s).
	PollTimeout time.Duration
	// SendInterval is how often the sender looks for due rows when idle (default 1s).
	SendInterval time.Duration
	// LeaseTTL is how long the leader lease lasts without renewal (default 30s).
	LeaseTTL time.Duration
	// WebhookURL, when set, switches from getUpdates to a webhook: the full
	// public URL of WebhookHandler, WebhookURL(PUBLIC_URL, Token). Empty: long
	// polling, and any webhook left behind is deleted.
	WebhookURL string
	Now        func() time.Time
}

// LeaderLease is the leases row that decides which instance talks to Telegram.
const LeaderLease = "telegram"

// Bot is the Telegram side of rssbot.
type Bot struct {
	opts    Options
	api     *tgbot.Bot
	deliver *deliver.Deliverer
	msg     *i18n.Localizer
	log     *slog.Logger
	// tokens hold what inline buttons stand for (feed candidates), since
	// callback data is limited to 64 bytes.
	tokens *tokenStore
	// secret is setWebhook's secret_token, derived from the token.
	secret string
	// inbox runs webhook deliveries within Run.
	inbox *inbox
	// username is the bot's own (getMe), for telling "/cmd@thisbot" from
	// commands addressed to other bots.
	username string
}

// New connects to the Bot API (getMe checks the token).
func New(opts Options) (*Bot, error) {
	if opts.PollTimeout <= 0 {
		opts.PollTimeout = 50 * time.Second
	}
	if opts.SendInterval <= 0 {
		opts.SendInterval = time.Second
	}
	if opts.LeaseTTL <= 0 {
		opts.LeaseTTL = 30 * time.Second
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Renderer == nil {
		opts.Renderer = templates.Default(nil)
	}
	if opts.Owner == "" {
		host, _ := os.Hostname()
		opts.Owner = fmt.Sprintf("%s/%d/%d", host, os.Getpid(), time.Now().UnixNano())
	}
	if opts.WebhookURL != "" {
		if err := checkWebhookURL(opts.WebhookURL); err != nil {
			return nil, err
		}
	}
	catalog, err := i18n.Load()
	if err != nil {
		return nil, err
	}
	b := &Bot{
		opts: opts, msg: catalog.For(opts.Language), log: opts.Logger, tokens: newTokenStore(tokenTTL, opts.Now),
		secret: webhookSecret(opts.Token), inbox: newInbox(),
	}
	tgOpts := []tgbot.Option{
		tgbot.WithDefaultHandler(b.onUpdate),
		tgbot.WithHTTPClient(opts.PollTimeout+time.Second, &http.Client{Timeout: opts.PollTimeout + 15*time.Second}),
		tgbot.WithErrorsHandler(func(err error) {
			if !errors.Is(err, context.Canceled) {
				b.log.Warn("bot: telegram client", "error", err)
			}
		}),
		tgbot.WithAllowedUpdates(allowedUpdates()),
		// Handlers run on Start's own workers, so that Start (and Run)
		// returns only once the commands in flight are done, and at most
		// webhookWorkers run at once, as in webhook mode.
		tgbot.WithNotAsyncHandlers(),
		tgbot.WithWorkers(webhookWorkers),
		tgbot.WithCheckInitTimeout(30 * time.Second),
		tgbot.WithSkipGetMe(), // called below, for the username
	}
	if opts.APIURL != "" {
		tgOpts = append(tgOpts, tgbot.WithServerURL(opts.APIURL))
	}
	api, err := tgbot.New(opts.Token, tgOpts...)
	if err != nil {
		return nil, fmt.Errorf("bot: connecting to the Bot API: %w", err)
	}
	b.api = api
	gctx, gcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer gcancel()
	me, err := api.GetMe(gctx)
	if err != nil {
		return nil, fmt.Errorf("bot: connecting to the Bot API: getMe: %w", err)
	}
	b.username = me.Username
	b.deliver = deliver.New(deliver.Options{
		API: api, Store: opts.Store, Renderer: opts.Renderer, Fetcher: opts.Fetcher, MediaMaxBytes: opts.MediaMaxBytes,
		Language: opts.Language, AdminID: opts.AdminID, Owner: opts.Owner, Now: opts.Now, Logger: opts.Logger,
	})
	return b, nil
}

// Run serves until ctx ends. Only the instance holding the leader lease
// reads updates (getUpdates, or setWebhook) and sends; the others wait for the
// lease. In webhook mode every instance handles the deliveries that reach its
// WebhookHandler while Run runs.
func (b *Bot) Run(ctx context.Context) error {
	if b.opts.WebhookURL != "" {
		b.inbox.open(ctx)
		defer b.inbox.close()
	}
	for ctx.Err() == nil {
		ok, err := b.opts.Store.AcquireLease(ctx, LeaderLease, b.opts.Owner, b.opts.Now(), b.opts.LeaseTTL)
		if err != nil && ctx.Err() == nil {
			b.log.Error("bot: leader lease", "error", err)
		}
		if ok {
			b.lead(ctx)
			continue
		}
		select {
		case <-ctx.Done():
		case <-time.After(b.opts.LeaseTTL / 3):
		}
	}
	return nil
}

// lead runs getUpdates (or keeps the webhook set) and the sender while this
// instance holds the lease. Losing the lease leaves the webhook in place: the
// next leader sets the same one.
func (b *Bot) lead(ctx context.Context) {
	lctx, cancel := context.WithCancel(ctx)
	defer cancel()
	b.log.Info("bot: leading", "owner", b.opts.Owner, "webhook", b.opts.WebhookURL != "")
	hooked := b.setup(lctx)
	done := make(chan struct{}, 2)
	if b.opts.WebhookURL == "" {
		go func() { b.api.Start(lctx); done <- struct{}{} }()
	} else {
		done <- struct{}{}
	}
	go func() { b.sendLoop(lctx); done <- struct{}{} }()

	renew := time.NewTicker(b.opts.LeaseTTL / 3)
	defer renew.Stop()
	for lctx.Err() == nil {
		select {
		case <-lctx.Done():
		case <-renew.C:
			ok, err := b.opts.Store.AcquireLease(lctx, LeaderLease, b.opts.Owner, b.opts.Now(), b.opts.LeaseTTL)
			if !ok && lctx.Err() == nil {
				b.log.Warn("bot: lost the leader lease", "error", err)
				cancel()
			}
			if ok && !hooked {
				hooked = b.retrySetWebhook(lctx)
			}
		}
	}
	<-done
	<-done
	rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer rcancel()
	if err := b.opts.Store.ReleaseLease(rctx, LeaderLease, b.opts.Owner); err != nil {
		b.log.Warn("bot: releasing the leader lease", "error", err)
	}
}

// setup points Telegram at the webhook, or switches it to long polling, and
// registers the command list. It reports whether updates will arrive: false
// when setWebhook failed and must be tried again.
func (b *Bot) setup(ctx context.Context) bool {
	hooked := true
	if b.opts.WebhookURL != "" {
		hooked = b.retrySetWebhook(ctx)
	} else if _, err := b.api.DeleteWebhook(ctx, &tgbot.DeleteWebhookParams{}); err != nil {
		b.log.Warn("bot: deleteWebhook", "error", err)
	}
	if _, err := b.api.SetMyCommands(ctx, &tgbot.SetMyCommandsParams{Commands: b.botCommands()}); err != nil {
		b.log.Warn("bot: setMyCommands", "error", err)
	}
	return hooked
}

// retrySetWebhook calls setWebhook and logs a failure, which the next lease
// renewal retries.
func (b *Bot) retrySetWebhook(ctx context.Context) bool {
	if err := b.setWebhook(ctx); err != nil {
		if ctx.Err() == nil {
			b.log.Warn("bot: webhook not set; retrying", "error", err)
		}
		return false
	}
	return true
}
