package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// ErrDisabled is returned when a manual poll asks for a disabled feed;
// subscribing to it again enables it.
var ErrDisabled = errors.New("engine: the feed is disabled")

// hostWait is how often a manual action looks again for a host another
// worker holds.
const hostWait = 200 * time.Millisecond

// withHost runs fn while holding the host's lease, waiting (until ctx
// ends) while another worker or instance polls it.
func (e *Engine) withHost(ctx context.Context, host string, fn func(*hostLease)) error {
	// An owner of its own: ClaimHost extends its owner's live lease, and
	// the poll workers of this engine hold hosts as e.opts.Owner.
	owner := fmt.Sprintf("%s/manual/%d", e.opts.Owner, e.manual.Add(1))
	for {
		ok, err := e.store.ClaimHost(ctx, host, owner, e.opts.Now(), e.opts.HostLease)
		if err != nil {
			return err
		}
		if ok {
			break
		}
		e.metrics.leaseConflict()
		select {
		case <-ctx.Done():
			return fmt.Errorf("engine: waiting for host %s: %w", host, ctx.Err())
		case <-time.After(hostWait):
		}
	}
	lease := &hostLease{host: host, owner: owner, renewed: e.opts.Now()}
	defer e.release(ctx, lease)
	fn(lease)
	return nil
}

// PollNow polls one feed at once, whatever its schedule says, with an
// unconditional request (no validators), and imports and reschedules it
// like any poll. It waits while another worker polls the feed's host.
func (e *Engine) PollNow(ctx context.Context, feedID int64) (PollResult, error) {
	f, err := e.store.FeedByID(ctx, feedID)
	if err != nil {
		return PollResult{}, err
	}
	if !f.DisabledAt.IsZero() {
		return PollResult{}, fmt.Errorf("%w: %s", ErrDisabled, f.URL)
	}
	var r PollResult
	err = e.withHost(ctx, f.Host, func(l *hostLease) {
		// Read again under the lease: a poll that just finished changed it.
		if f, err = e.store.FeedByID(ctx, feedID); err == nil {
			r = e.pollFeed(ctx, f, true, l)
		}
	})
	if err != nil {
		return PollResult{}, err
	}
	if r.storeErr != nil {
		return r, r.storeErr
	}
	return r, nil
}

// Pause stops a subscription's deliveries: while paused, what the feed
// lists counts as seen and is not queued for it. The feed is still polled
// for its other subscriptions and to keep "seen" up to date.
func (e *Engine) Pause(ctx context.Context, subscriptionID int64, reason string) error {
	return e.store.SetPaused(ctx, subscriptionID, true, reason)
}

// Resume restarts a paused subscription's deliveries with the next new
// entry; nothing listed while it was paused is sent.
func (e *Engine) Resume(ctx context.Context, subscriptionID int64) error {
	return e.store.SetPaused(ctx, subscriptionID, false, "")
}

// PauseChat pauses (or with paused false resumes) every subscription of a
// chat and returns how many there are.
func (e *Engine) PauseChat(ctx context.Context, chatID int64, paused bool, reason string) (int, error) {
	return e.store.SetChatPaused(ctx, chatID, paused, reason)
}

// FeedStats are a feed's statistics for the admin.
type FeedStats struct {
	// Feed carries the last poll, last error, next poll and its reason,
	// failure streak and disabled state.
	Feed   storage.Feed
	Counts storage.FeedCounts
	// Recent is the newest part of the activity log, newest first.
	Recent []storage.Activity
}

// statsRecent is how many activity lines Stats returns.
const statsRecent = 10

// Stats returns a feed's statistics: entries imported and skipped,
// deliveries, errors, last poll and error, next poll and why.
func (e *Engine) Stats(ctx context.Context, feedID int64) (FeedStats, error) {
	f, err := e.store.FeedByID(ctx, feedID)
	if err != nil {
		return FeedStats{}, err
	}
	counts, err := e.store.FeedCounts(ctx, feedID)
	if err != nil {
		return FeedStats{}, err
	}
	recent, err := e.store.Activities(ctx, feedID, statsRecent)
	if err != nil {
		return FeedStats{}, err
	}
	return FeedStats{Feed: f, Counts: counts, Recent: recent}, nil
}
