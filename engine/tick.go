package engine

import (
	"context"
	"sync"
	"time"
)

// Summary counts what one round of polling did.
type Summary struct {
	Hosts    int            // hosts claimed
	Feeds    int            // polls made
	Polls    map[string]int // polls by outcome
	Imported int            // new entries stored
	Queued   int            // outbox rows created
	Elapsed  time.Duration
}

func (s *Summary) add(r PollResult) {
	if s.Polls == nil {
		s.Polls = map[string]int{}
	}
	s.Feeds++
	s.Polls[r.Outcome]++
	s.Imported += r.New
	s.Queued += r.Queued
}

// Tick polls every feed that is due now: Concurrency workers each claim one
// host at a time (a database lease, so other workers and instances leave it
// alone), poll its due feeds one after another and release it, until no
// claimable host is left.
func (e *Engine) Tick(ctx context.Context) (Summary, error) {
	return e.round(ctx, time.Time{})
}

// PollOnce is `rssbot poll`: one round over the due feeds, or with all over
// every enabled, subscribed feed, with the politeness, import and schedule
// of the running bot. A feed counts as done once it was polled after the
// round began, so the round ends even though polled feeds stay enabled.
func (e *Engine) PollOnce(ctx context.Context, all bool) (Summary, error) {
	var since time.Time
	if all {
		since = e.opts.Now()
	}
	return e.round(ctx, since)
}

// round runs the claim workers; a non-zero notPolledSince adds every feed
// not polled since then.
func (e *Engine) round(ctx context.Context, notPolledSince time.Time) (Summary, error) {
	start := time.Now()
	var (
		mu       sync.Mutex
		sum      Summary
		firstErr error
		wg       sync.WaitGroup
	)
	for range e.opts.Concurrency {
		wg.Go(func() {
			for ctx.Err() == nil {
				hosts, err := e.store.ClaimDueHosts(ctx, e.opts.Owner, e.opts.Now(), e.opts.HostLease, 1, notPolledSince)
				if err == nil && len(hosts) == 0 {
					return
				}
				var results []PollResult
				if err == nil {
					results, err = e.pollHost(ctx, &hostLease{host: hosts[0], owner: e.opts.Owner, renewed: e.opts.Now()}, notPolledSince)
					if err == nil && e.lastTick.Load() != 0 {
						e.alive()
					}
				}
				mu.Lock()
				if len(hosts) > 0 {
					sum.Hosts++
				}
				for _, r := range results {
					sum.add(r)
				}
				if err != nil && firstErr == nil && ctx.Err() == nil {
					firstErr = err
				}
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	sum.Elapsed = time.Since(start)
	return sum, firstErr
}

// pollHost polls the host's due feeds one after another, keeping the lease
// alive, and releases the host. It is released even when ctx is cancelled,
// so a shutdown frees its hosts at once instead of after the lease runs
// out. An error means the database failed and the worker should stop: a
// feed whose poll could not be stored would otherwise be claimed again and
// again.
func (e *Engine) pollHost(ctx context.Context, lease *hostLease, notPolledSince time.Time) ([]PollResult, error) {
	defer e.release(ctx, lease)
	feeds, err := e.store.DueFeeds(ctx, lease.host, e.opts.Now(), notPolledSince)
	if err != nil {
		return nil, err
	}
	var results []PollResult
	polled := map[int64]bool{}
	for _, f := range feeds {
		if polled[f.ID] {
			continue // a feed merged into this one was just polled in its stead
		}
		if ctx.Err() != nil || !e.keepLease(ctx, lease) {
			break
		}
		r := e.pollFeed(ctx, f, false, lease)
		polled[r.FeedID] = true
		results = append(results, r)
		if r.storeErr != nil {
			return results, r.storeErr
		}
	}
	return results, nil
}

func (e *Engine) release(ctx context.Context, l *hostLease) {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := e.store.ReleaseHost(rctx, l.host, l.owner); err != nil {
		e.log.Warn("engine: releasing host failed", "host", l.host, "error", err)
	}
}

// hostLease is a host this worker holds, the owner it holds it as, and
// when its lease was last extended.
type hostLease struct {
	host    string
	owner   string
	renewed time.Time
}

// keepLease extends the lease once a quarter of it has passed, so that each
// request starts with at least three quarters of a lease ahead, without a
// write before every feed. False when the lease was lost (it ran out and
// another worker took the host): the worker must stop touching the host.
func (e *Engine) keepLease(ctx context.Context, l *hostLease) bool {
	now := e.opts.Now()
	if now.Sub(l.renewed) < e.opts.HostLease/4 {
		return true
	}
	ok, err := e.store.RenewHostLease(ctx, l.host, l.owner, now.Add(e.opts.HostLease))
	if err != nil || !ok {
		if ctx.Err() == nil {
			e.metrics.leaseConflict()
			e.log.Warn("engine: lost host lease", "host", l.host, "error", err)
		}
		return false
	}
	l.renewed = now
	return true
}
