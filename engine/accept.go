package engine

import (
	"context"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/filter"
	"github.com/rssbot/rssbot/storage"
)

// queueing decides who gets the batch's new entries. After the feed's first
// successful poll every active subscription does, through its filters; when
// the feed already had entries only the newest FloodLimit are queued. The
// first poll stores what is there as seen, except for subscriptions whose
// backfill option asks for the first page or for every page.
func (p *pollRun) queueing(ctx context.Context, b *storage.ImportBatch) error {
	firstPoll := p.f.LastSuccessAt.IsZero()
	if firstPoll {
		backfill := false
		for _, s := range p.subscriptions(ctx) {
			backfill = backfill || s.Backfill == storage.BackfillPage || s.Backfill == storage.BackfillAll
		}
		if !backfill {
			return nil
		}
	} else if len(b.Entries) > FloodLimit {
		// Only a poll listing more than FloodLimit entries can trip the
		// guard; only then is it worth counting what the feed had.
		n, err := p.e.store.CountEntries(ctx, p.f.ID)
		if err != nil {
			return err
		}
		if n > 0 {
			b.QueueLimit = FloodLimit
		}
	}
	accept, err := p.e.filtersFor(ctx, p.f.ID, p.pages.entries)
	if err != nil {
		return err
	}
	b.Queue = true
	firstPage, hook, feedID := p.pages.first, p.e.hooks.accept, p.f.ID
	b.Accept = func(sub storage.Subscription, rec storage.EntryRecord) bool {
		if hook != nil {
			hook(feedID)
		}
		if firstPoll {
			switch sub.Backfill {
			case storage.BackfillAll:
			case storage.BackfillPage:
				if !firstPage[rec.IdentityHash] {
					return false
				}
			default:
				return false
			}
		}
		return accept(sub, rec)
	}
	return nil
}

// filtersFor returns the filter policy for a feed's subscriptions: the
// global filters and each subscription's own (see filter.Set).
func (e *Engine) filtersFor(ctx context.Context, feedID int64, entries []feed.Entry) (func(storage.Subscription, storage.EntryRecord) bool, error) {
	stored, err := e.store.FiltersForFeed(ctx, feedID)
	if err != nil {
		return nil, err
	}
	if len(stored) == 0 {
		return func(storage.Subscription, storage.EntryRecord) bool { return true }, nil
	}
	var global []filter.Spec
	own := map[int64][]filter.Spec{}
	for _, f := range stored {
		spec := filter.Spec{Action: f.Action, Field: f.Field, Pattern: f.Pattern, IsRegex: f.IsRegex, Global: f.SubscriptionID == 0}
		if spec.Global {
			global = append(global, spec)
		} else {
			own[f.SubscriptionID] = append(own[f.SubscriptionID], spec)
		}
	}
	texts := make(map[string]filter.Entry, len(entries))
	for _, en := range entries {
		texts[IdentityHash(en.Identity)] = filter.Entry{
			Title: en.Title, Content: en.ContentHTML + "\n" + en.Summary,
			Authors: en.Authors, Categories: en.Categories,
		}
	}
	sets := map[int64]filter.Set{}
	return func(sub storage.Subscription, rec storage.EntryRecord) bool {
		set, ok := sets[sub.ID]
		if !ok {
			var errs []error
			set, errs = filter.NewSet(append(append([]filter.Spec(nil), global...), own[sub.ID]...))
			for _, err := range errs {
				e.log.Warn("engine: ignoring a filter", "feed_id", feedID, "subscription_id", sub.ID, "error", err)
			}
			sets[sub.ID] = set
		}
		return set.Empty() || set.Accept(texts[rec.IdentityHash])
	}, nil
}
