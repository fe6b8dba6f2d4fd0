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
	// AdminChatID receives notices (feed disabled, moved, flooded).
	AdminChatID int64
	// Owner names this instance in lease rows.
	Owner  string
	Logger *slog.Logger
	// Now is the clock; nil = time.Now.
	Now func() time.Time
}

// FloodLimit is the most new entries one poll queues for a feed that already
// had entries; the rest are stored as seen (a CMS that reissued every guid).
const FloodLimit = 25

// Engine polls feeds and imports their entries.
type Engine struct {
	store   *storage.Store
	fetcher *fetch.Client
	opts    Options
	log     *slog.Logger
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
	return &Engine{store: store, fetcher: fetcher, opts: opts, log: opts.Logger}
}

// Run polls due feeds every tick until ctx ends, and prunes forgotten
// entries once an hour.
func (e *Engine) Run(ctx context.Context) error {
	ticker := time.NewTicker(e.opts.Tick)
	defer ticker.Stop()
	var lastPrune time.Time
	for {
		if _, err := e.Tick(ctx); err != nil && ctx.Err() == nil {
			e.log.Error("engine: tick failed", "error", err)
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

func (e *Engine) prune(ctx context.Context, now time.Time) {
	n, err := e.store.PruneEntries(ctx, now.Add(-e.opts.EntryRetention))
	if err != nil {
		e.log.Error("engine: pruning entries failed", "error", err)
		return
	}
	if n > 0 {
		e.log.Info("engine: forgot old entries", "entries", n)
	}
}

// parseFeed is the one entry point into the parser, so the poller and the
// subscribe path read bodies alike.
func parseFeed(res fetch.Result) (*feed.Feed, error) {
	return feed.Parse(res.Body, res.ContentType, res.FinalURL)
}
