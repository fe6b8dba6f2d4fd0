package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// pollOutcome is what one poll of one feed did.
type pollOutcome struct {
	FeedID  int64
	Outcome string // fetch outcome, or "invalid" when the body did not parse
	New     int
	Queued  int
	Err     error
}

// pollFeed fetches one feed with its validators, parses it, imports new
// entries and reschedules it. No transaction is open during the fetch.
func (e *Engine) pollFeed(ctx context.Context, f storage.Feed) pollOutcome {
	log := e.log.With("feed_id", f.ID, "host", f.Host)
	res := e.fetcher.Fetch(ctx, fetchRequest(f, false))
	now := e.opts.Now()
	out := pollOutcome{FeedID: f.ID, Outcome: res.Outcome.String(), Err: res.Err}
	poll := schedule.Poll{Now: now, RetryAfter: res.RetryAfter, HasRetryAfter: res.HasRetryAfter, Outcome: classify(res.Outcome)}
	if poll.Outcome == schedule.Failure && ctx.Err() != nil {
		return out // shutting down mid-request is not the feed's fault: it stays due
	}

	before := f
	batch := storage.ImportBatch{Now: now, Queue: !f.LastSuccessAt.IsZero()}
	if res.Outcome == fetch.OK {
		parsed, unchanged, err := parseChanged(f, res)
		switch {
		case err != nil:
			out.Outcome, out.Err, poll.Outcome = "invalid", err, schedule.Failure
		case unchanged:
			poll.Outcome = schedule.NotModified
		default:
			if err := e.prepareImport(ctx, &f, &batch, parsed, res); err != nil {
				out.Outcome, out.Err, poll.Outcome = "invalid", err, schedule.Failure
			}
		}
	}
	f.LastPollAt = now
	if poll.Outcome == schedule.Success || poll.Outcome == schedule.NotModified {
		f.LastSuccessAt = now
	}
	// The schedule first assumes an empty poll: which entries are new is
	// only known once the import transaction ran.
	d := e.decide(f, poll, out)
	batch.Feed = apply(f, d, out)

	result, err := e.store.Import(ctx, batch)
	if err != nil {
		log.Error("engine: import failed", "error", err)
		out.Outcome, out.Err = "error", err
		return out
	}
	out.New, out.Queued = result.New, result.Queued
	if result.New > 0 {
		poll.NewEntries = result.New
		f.EmptyPolls = before.EmptyPolls
		d = e.decide(f, poll, out)
		if err := e.store.SaveFeed(ctx, apply(f, d, out)); err != nil {
			log.Error("engine: saving schedule failed", "error", err)
		}
	}
	e.report(ctx, before, d, out, result, log)
	return out
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

// parseChanged parses a 200 body unless it is byte for byte the body of the
// last successful poll (servers without validators).
func parseChanged(f storage.Feed, res fetch.Result) (parsed *feed.Feed, unchanged bool, err error) {
	if f.BodySHA256 != "" && bodyHash(res.Body) == f.BodySHA256 && f.PendingPageURL == "" {
		return nil, true, nil
	}
	parsed, err = parseFeed(res)
	return parsed, false, err
}

func bodyHash(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// prepareImport fills the batch and the feed's metadata from a parsed body.
func (e *Engine) prepareImport(ctx context.Context, f *storage.Feed, batch *storage.ImportBatch, parsed *feed.Feed, res fetch.Result) error {
	recs, err := records(parsed.Entries)
	if err != nil {
		return err
	}
	batch.Entries = recs
	if batch.Queue {
		n, err := e.store.CountEntries(ctx, f.ID)
		if err != nil {
			return err
		}
		if n > 0 {
			batch.QueueLimit = FloodLimit
		}
	}
	applyFeedMeta(f, parsed)
	f.BodySHA256 = bodyHash(res.Body)
	f.ETag, f.LastModified = res.ETag, res.LastModified
	f.HintSeconds = int64(hintOf(parsed.Hints, res).Seconds())
	return nil
}
