// Package engine is the poller: every tick it claims the hosts of due feeds,
// polls each host's feeds one after another, imports new entries into
// storage with their outbox rows, reschedules every feed and raises notices
// for the admin. It knows nothing of Telegram.
package engine

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"sync/atomic"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// Options configure an Engine. Zero values get the defaults of DESIGN.md.
type Options struct {
	Schedule    schedule.Settings
	Tick        time.Duration // POLL_TICK
	Concurrency int           // POLL_CONCURRENCY: hosts polled in parallel
	// HostLease is how long a claimed host stays ours without renewal; it
	// must outlast one request (FETCH_TIMEOUT).
	HostLease      time.Duration
	EntryRetention time.Duration // ENTRY_RETENTION
	// MediaMaxBytes (MEDIA_MAX_BYTES) bounds a data: image decoded from a
	// feed; 0 = the parser's default (20 MiB).
	MediaMaxBytes int64
	// AdminChatID receives notices (feed disabled, moved, flooded).
	AdminChatID int64
	// Owner names this instance in lease rows.
	Owner string
	// Metrics receives the poller's counters; nil records nothing.
	Metrics *Metrics
	Logger  *slog.Logger
	// Now is the clock; nil = time.Now.
	Now func() time.Time
}

// FloodLimit is the most new entries one poll queues for a feed that already
// had entries; the rest are stored as seen (a CMS that reissued every guid).
const FloodLimit = 25

// writeTimeout bounds the database writes that finish a poll. They run even
// when the poller is being stopped, so that what was fetched is stored.
const writeTimeout = 30 * time.Second

// Engine polls feeds and imports their entries.
type Engine struct {
	store    *storage.Store
	fetcher  *fetch.Client
	opts     Options
	log      *slog.Logger
	metrics  *Metrics
	lastTick atomic.Int64 // unix nanoseconds of the poll loop's last progress; 0 = not started
	manual   atomic.Int64 // numbers the lease owners of manual host claims
	hooks    hooks
}

// hooks let tests of this package act at points no outside event marks.
type hooks struct {
	// accept is called inside the import transaction for every outbox row
	// considered.
	accept func(feedID int64)
}

// New returns an Engine over store that fetches with fetcher.
func New(store *storage.Store, fetcher *fetch.Client, opts Options) *Engine {
	if opts.Schedule.Base <= 0 {
		opts.Schedule.Base = 10 * time.Minute
	}
	if opts.Schedule.Max < opts.Schedule.Base {
		opts.Schedule.Max = max(6*time.Hour, opts.Schedule.Base)
	}
	if opts.Tick <= 0 {
		opts.Tick = 30 * time.Second
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 8
	}
	if opts.HostLease <= 0 {
		opts.HostLease = 2 * time.Minute
	}
	if opts.EntryRetention <= 0 {
		opts.EntryRetention = 90 * 24 * time.Hour
	}
	if opts.Owner == "" {
		host, _ := os.Hostname()
		opts.Owner = fmt.Sprintf("%s/%d/%d", host, os.Getpid(), time.Now().UnixNano())
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Engine{store: store, fetcher: fetcher, opts: opts, log: opts.Logger, metrics: opts.Metrics}
}

// Run polls due feeds every tick until ctx ends, and prunes forgotten
// entries once an hour. On return every host lease it held is released.
func (e *Engine) Run(ctx context.Context) error {
	ticker := time.NewTicker(e.opts.Tick)
	defer ticker.Stop()
	var lastPrune time.Time
	for {
		e.alive()
		e.observeBacklog(ctx)
		if _, err := e.Tick(ctx); err != nil && ctx.Err() == nil {
			e.log.Error("engine: tick failed", "error", err)
		} else if err == nil {
			e.alive()
		}
		if now := e.opts.Now(); now.Sub(lastPrune) >= time.Hour {
			lastPrune = now
			e.prune(ctx, now)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		}
	}
}

// observeBacklog counts the due feeds for the metrics.
func (e *Engine) observeBacklog(ctx context.Context) {
	if e.metrics == nil {
		return
	}
	n, err := e.store.CountDueFeeds(ctx, e.opts.Now())
	if err != nil {
		if ctx.Err() == nil {
			e.log.Warn("engine: counting due feeds failed", "error", err)
		}
		return
	}
	e.metrics.dueBacklog.Set(float64(n))
}

func (e *Engine) prune(ctx context.Context, now time.Time) {
	n, err := e.store.PruneEntries(ctx, now.Add(-e.opts.EntryRetention))
	if err != nil {
		if ctx.Err() == nil {
			e.log.Error("engine: pruning entries failed", "error", err)
		}
		return
	}
	if n > 0 {
		e.log.Info("engine: forgot old entries", "entries", n)
	}
	// Done notices go after the same time, so that table is bounded too.
	if n, err = e.store.PruneNotices(ctx, now.Add(-e.opts.EntryRetention)); err != nil {
		if ctx.Err() == nil {
			e.log.Error("engine: pruning notices failed", "error", err)
		}
	} else if n > 0 {
		e.log.Info("engine: forgot old notices", "notices", n)
	}
}

// parseFeed parses a fetched answer; see parse.
func (e *Engine) parseFeed(res fetch.Result) (*feed.Feed, error) {
	return e.parse(res.Body, res.ContentType, res.FinalURL)
}

// parse is the one entry point into the parser, so polls, pages, new
// subscriptions, previews and WebSub pushes read bodies alike, with
// data: images held to MEDIA_MAX_BYTES.
func (e *Engine) parse(body []byte, contentType, baseURL string) (*feed.Feed, error) {
	return feed.ParseWith(body, contentType, baseURL, feed.Options{MaxDataURLBytes: e.opts.MediaMaxBytes})
}

// fetch runs one request and records it in the metrics.
func (e *Engine) fetch(ctx context.Context, req fetch.Request) fetch.Result {
	res := e.fetcher.Fetch(ctx, req)
	if e.metrics != nil {
		e.metrics.fetchSeconds.Observe(res.Duration.Seconds())
		e.metrics.fetchBytes.Add(float64(res.BytesRead))
	}
	return res
}
