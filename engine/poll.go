package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// Outcomes of a poll besides the fetch outcomes ("ok", "not_modified",
// "rate_limited", "gone", "not_found", "server_error", "network_error", …).
const (
	OutcomeInvalid   = "invalid"   // the body did not parse as a feed
	OutcomeError     = "error"     // the poll could not be stored
	OutcomeCancelled = "cancelled" // the poller stopped during the request; the feed stays due
)

// PollResult is what one poll of one feed did.
type PollResult struct {
	FeedID   int64
	URL      string
	Outcome  string
	New      int // entries stored
	Queued   int // outbox rows created
	Flooded  int // new entries the flood guard stored as seen
	Pages    int // pages read
	MovedTo  string
	Disabled bool
	Next     time.Time
	Reason   string
	Err      error
	// storeErr: the database failed and nothing of the poll was stored.
	storeErr error
}

// pollRun is one poll of one feed on its way from the fetch to the import.
type pollRun struct {
	e       *Engine
	before  storage.Feed // as stored when the poll began
	f       storage.Feed // the state being built
	res     fetch.Result
	r       *PollResult
	lease   *hostLease
	started time.Time
	now     time.Time
	fresh   bool
	sched   schedule.Poll
	parsed  *feed.Feed // the first page, when it parsed
	pages   pages
	subs    []storage.Subscription // loaded on demand
	moved   []storage.Activity
	notices []storage.Notice
}

// pollFeed fetches one feed with its validators (none when fresh), follows
// a permanent redirect, parses, reads further pages, imports new entries
// and reschedules the feed. The caller holds the feed's host. No
// transaction is open during a request; once the answer is in, the result
// is stored even when ctx ends meanwhile.
func (e *Engine) pollFeed(ctx context.Context, f storage.Feed, fresh bool, lease *hostLease) PollResult {
	started := e.opts.Now()
	res := e.fetch(ctx, fetchRequest(f, fresh))
	r := PollResult{FeedID: f.ID, URL: f.URL, Outcome: res.Outcome.String(), Err: res.Err}
	if ctx.Err() != nil && res.Outcome != fetch.OK && res.Outcome != fetch.NotModified {
		r.Outcome = OutcomeCancelled // not the feed's fault: it stays due
		return r
	}
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), writeTimeout)
	defer cancel()
	p := &pollRun{e: e, before: f, f: f, res: res, r: &r, lease: lease, started: started, now: e.opts.Now(), fresh: fresh}
	p.followMove(wctx)
	p.read(ctx, wctx)
	batch, err := p.batch(wctx)
	if err != nil {
		p.fail(OutcomeError, err)
		batch, _ = p.batch(wctx)
	}
	p.store(wctx, batch)
	e.metrics.observePoll(r)
	return r
}

// fail turns the poll into a failure with the given outcome.
func (p *pollRun) fail(outcome string, err error) {
	p.r.Outcome, p.r.Err = outcome, err
	p.sched.Outcome = schedule.Failure
	p.parsed, p.pages = nil, pages{}
}

// read classifies the answer and reads its pages.
func (p *pollRun) read(ctx, wctx context.Context) {
	p.sched = schedule.Poll{Now: p.now, RetryAfter: p.res.RetryAfter, HasRetryAfter: p.res.HasRetryAfter, Outcome: classify(p.res.Outcome)}
	switch p.res.Outcome {
	case fetch.OK:
		if p.unchanged() {
			p.r.Outcome, p.sched.Outcome = fetch.NotModified.String(), schedule.NotModified
			return
		}
		parsed, err := p.e.parseFeed(p.res)
		if err != nil {
			p.fail(OutcomeInvalid, err)
			return
		}
		p.parsed = parsed
		p.pages = p.readPages(ctx, wctx, p.followPages(wctx))
	case fetch.NotModified:
		if p.f.PendingPageURL != "" {
			p.pages = p.readPages(ctx, wctx, true)
		}
	}
	p.r.Pages = p.pages.count
}

// unchanged reports a 200 whose body is byte for byte the one of the last
// complete poll (a server without validators): nothing to parse.
func (p *pollRun) unchanged() bool {
	return p.f.BodySHA256 != "" && p.f.PendingPageURL == "" && bodyHash(p.res.Body) == p.f.BodySHA256
}

// followPages says whether pages after the first are read: on every poll
// after the first, and on the first only for a subscription that asked for
// the whole back catalogue.
func (p *pollRun) followPages(ctx context.Context) bool {
	if !p.f.LastSuccessAt.IsZero() {
		return true
	}
	for _, s := range p.subscriptions(ctx) {
		if s.Backfill == storage.BackfillAll {
			return true
		}
	}
	return false
}

// subscriptions loads the feed's subscriptions once per poll.
func (p *pollRun) subscriptions(ctx context.Context) []storage.Subscription {
	if p.subs == nil {
		subs, err := p.e.store.SubscriptionsByFeed(ctx, p.f.ID)
		if err != nil {
			p.e.log.Warn("engine: listing subscriptions failed", "feed_id", p.f.ID, "error", err)
		}
		p.subs = append(make([]storage.Subscription, 0, len(subs)), subs...)
	}
	return p.subs
}

// batch builds the import: entries, queueing policy, the feed's new state
// (with and without news) and its log. It may run twice (after a failure)
// and changes nothing in p.
func (p *pollRun) batch(ctx context.Context) (storage.ImportBatch, error) {
	b := storage.ImportBatch{Now: p.now}
	if len(p.pages.entries) > 0 {
		recs, err := records(p.pages.entries)
		if err != nil {
			return b, err
		}
		b.Entries = recs
		if err := p.queueing(ctx, &b); err != nil {
			return b, err
		}
	}
	f := p.f
	p.updateMeta(&f)
	f.LastPollAt = p.now
	if p.sched.Outcome == schedule.Success || p.sched.Outcome == schedule.NotModified {
		f.LastSuccessAt = p.now
	}
	b.Feed = apply(f, p.e.decide(f, p.sched), p.r)
	if len(b.Entries) > 0 {
		news := p.sched
		news.NewEntries = 1
		full := apply(f, p.e.decide(f, news), p.r)
		b.WithNew = &full
	}
	saved := b.Feed
	b.Log = func(res storage.ImportResult) ([]storage.Activity, []storage.Notice) {
		return p.logLines(saved, res)
	}
	return b, nil
}

// updateMeta copies what the answer says about the feed into f.
// Validators are kept only from a complete single-page poll: after reading
// several pages, or stopping early, the next poll must not be told "not
// modified" by the first page alone.
func (p *pollRun) updateMeta(f *storage.Feed) {
	if p.pages.tried {
		f.PendingPageURL = p.pages.pending
	}
	if p.parsed == nil {
		return
	}
	applyFeedMeta(f, p.parsed)
	f.HintSeconds = int64(hintOf(p.parsed.Hints, p.res).Seconds())
	if p.pages.complete() {
		f.ETag, f.LastModified, f.BodySHA256 = p.res.ETag, p.res.LastModified, bodyHash(p.res.Body)
	} else {
		f.ETag, f.LastModified, f.BodySHA256 = "", "", ""
	}
}

// store runs the import. When it fails the failure itself is recorded, so
// the feed backs off instead of being claimed again at once; when even
// that fails the database is down and the worker stops.
func (p *pollRun) store(ctx context.Context, b storage.ImportBatch) {
	res, err := p.e.store.Import(ctx, b)
	if err == nil {
		p.r.New, p.r.Queued, p.r.Flooded = res.New, res.Queued, res.Flooded
		saved := b.Feed
		if res.New > 0 && b.WithNew != nil {
			saved = *b.WithNew
		}
		p.r.Next, p.r.Reason, p.r.Disabled = saved.NextPollAt, saved.NextPollReason, !saved.DisabledAt.IsZero() && p.before.DisabledAt.IsZero()
		p.e.logPoll(p.r)
		return
	}
	p.r.Outcome, p.r.Err = OutcomeError, err
	if errors.Is(err, storage.ErrNotFound) {
		return // unsubscribed meanwhile: nothing left to record
	}
	p.e.log.Error("engine: storing a poll failed", "feed_id", p.f.ID, "host", p.f.Host, "error", err)
	fb := p.before
	fb.LastPollAt = p.now
	fb = apply(fb, p.e.decide(fb, schedule.Poll{Outcome: schedule.Failure, Now: p.now}), p.r)
	if err2 := p.e.store.SaveFeed(ctx, fb); err2 != nil && !errors.Is(err2, storage.ErrNotFound) {
		p.r.storeErr = fmt.Errorf("engine: feed %d: %w", p.f.ID, errors.Join(err, err2))
	}
}

// classify maps a fetch outcome to the schedule's view of it.
func classify(o fetch.Outcome) schedule.Outcome {
	switch o {
	case fetch.OK:
		return schedule.Success
	case fetch.NotModified:
		return schedule.NotModified
	case fetch.RateLimited:
		return schedule.RateLimited
	case fetch.Gone:
		return schedule.Gone
	default:
		return schedule.Failure
	}
}

func bodyHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
