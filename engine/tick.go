package engine

import (
	"context"
	"sync"
	"time"
)

// Summary counts what one tick did.
type Summary struct {
	Hosts    int
	Polls    map[string]int // by outcome
	Imported int
	Queued   int
	Elapsed  time.Duration
}

func (s *Summary) add(o pollOutcome) {
	if s.Polls == nil {
		s.Polls = map[string]int{}
	}
	s.Polls[o.Outcome]++
	s.Imported += o.New
	s.Queued += o.Queued
}

// Tick polls every feed that is due now: Concurrency workers each claim one
// host at a time (a database lease, so other workers and instances leave it
// alone), poll its due feeds one after another and release it, until no
// claimable host is left.
func (e *Engine) Tick(ctx context.Context) (Summary, error) {
	start := time.Now()
	var (
		mu       sync.Mutex
		sum      Summary
		firstErr error
		wg       sync.WaitGroup
	)
	for range e.opts.Concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				hosts, err := e.store.ClaimDueHosts(ctx, e.opts.Owner, e.opts.Now(), e.opts.HostLease, 1, false)
				if err != nil {
					mu.Lock()
					firstErr = cmpErr(firstErr, err)
					mu.Unlock()
					return
				}
				if len(hosts) == 0 {
					return
				}
				outcomes := e.pollHost(ctx, hosts[0])
				mu.Lock()
				sum.Hosts++
				for _, o := range outcomes {
					sum.add(o)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	sum.Elapsed = time.Since(start)
	return sum, firstErr
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}

// pollHost polls the host's due feeds one after another, renewing the lease
// before each, and releases the host. Released even when ctx is cancelled, so
// a shutdown frees its hosts at once instead of after the lease runs out.
func (e *Engine) pollHost(ctx context.Context, host string) []pollOutcome {
	defer func() {
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if err := e.store.ReleaseHost(rctx, host, e.opts.Owner); err != nil {
			e.log.Warn("engine: releasing host failed", "host", host, "error", err)
		}
	}()
	feeds, err := e.store.DueFeeds(ctx, host, e.opts.Now(), false)
	if err != nil {
		e.log.Error("engine: listing due feeds failed", "host", host, "error", err)
		return nil
	}
	var outcomes []pollOutcome
	for _, f := range feeds {
		if ctx.Err() != nil {
			break
		}
		ok, err := e.store.RenewHostLease(ctx, host, e.opts.Owner, e.opts.Now().Add(e.opts.HostLease))
		if err != nil || !ok {
			e.log.Warn("engine: lost host lease", "host", host, "error", err)
			break
		}
		outcomes = append(outcomes, e.pollFeed(ctx, f))
	}
	return outcomes
}
