package engine

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/websub"
	"github.com/rssbot/rssbot/storage"
)

// webSubBackend gives the callback handler the engine's storage and import.
type webSubBackend struct{ w *WebSub }

// Subscription implements websub.Backend.
func (b webSubBackend) Subscription(ctx context.Context, token string) (storage.WebSubSubscription, error) {
	return b.w.e.store.WebSubByToken(ctx, token)
}

// Verified implements websub.Backend: a confirmed subscription becomes
// active with the hub's lease (else the one asked for); a confirmed
// unsubscription removes the row.
func (b webSubBackend) Verified(ctx context.Context, s storage.WebSubSubscription, mode string, lease time.Duration) error {
	if mode == websub.ModeUnsubscribe {
		return b.w.e.store.DeleteWebSub(ctx, s.FeedID)
	}
	if lease <= 0 {
		lease = b.w.opts.Lease
	}
	now := b.w.e.opts.Now()
	s.State, s.LastError = storage.WebSubActive, ""
	s.LeaseSeconds = int64(lease / time.Second)
	s.VerifiedAt, s.ExpiresAt = now, now.Add(lease)
	_, err := b.w.e.store.SaveWebSub(ctx, s)
	b.w.e.log.Info("engine: websub subscription verified", "feed_id", s.FeedID, "lease_seconds", s.LeaseSeconds)
	return err
}

// Denied implements websub.Backend.
func (b webSubBackend) Denied(ctx context.Context, s storage.WebSubSubscription, reason string) error {
	s.State, s.LastError = storage.WebSubDenied, "denied by the hub"
	if reason != "" {
		s.LastError += ": " + reason
	}
	_, err := b.w.e.store.SaveWebSub(ctx, s)
	b.w.e.log.Info("engine: websub subscription denied", "feed_id", s.FeedID, "reason", reason)
	return err
}

// Push implements websub.Backend: the body is handled like the body of a
// poll's 200 answer (parsed, entries stored, the new ones queued through
// the same filters and flood guard) but the feed's schedule, validators
// and pagination are left alone, so polling goes on as before.
func (b webSubBackend) Push(ctx context.Context, s storage.WebSubSubscription, body []byte, contentType string) error {
	e := b.w.e
	f, err := e.store.FeedByID(ctx, s.FeedID)
	if err != nil {
		return fmt.Errorf("engine: websub push: %w", err)
	}
	parsed, err := e.parse(body, contentType, f.URL)
	if err != nil {
		return fmt.Errorf("%w: %w", websub.ErrRejected, err)
	}
	recs, err := records(parsed.Entries)
	if err != nil {
		return fmt.Errorf("%w: %w", websub.ErrRejected, err)
	}
	batch := storage.ImportBatch{Feed: storage.Feed{ID: f.ID}, Entries: recs, Now: e.opts.Now()}
	// Before the first successful poll nothing is queued: the poll decides
	// what counts as the back catalogue.
	if !f.LastSuccessAt.IsZero() && len(recs) > 0 {
		if err := e.pushQueueing(ctx, f.ID, parsed.Entries, &batch); err != nil {
			return fmt.Errorf("engine: websub push: %w", err)
		}
	}
	res, err := e.store.ImportPush(ctx, batch)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // the feed went meanwhile; the next Maintain unsubscribes
	}
	if err != nil {
		return fmt.Errorf("engine: websub push: %w", err)
	}
	e.log.Info("engine: websub push imported", "feed_id", f.ID, "host", f.Host, "entries", res.New, "queued", res.Queued)
	return nil
}

// pushQueueing sets the queueing policy of a push: every active
// subscription through its filters, and the flood guard as for a poll.
func (e *Engine) pushQueueing(ctx context.Context, feedID int64, entries []feed.Entry, b *storage.ImportBatch) error {
	if len(b.Entries) > FloodLimit {
		n, err := e.store.CountEntries(ctx, feedID)
		if err != nil {
			return err
		}
		if n > 0 {
			b.QueueLimit = FloodLimit
		}
	}
	accept, err := e.filtersFor(ctx, feedID, entries)
	if err != nil {
		return err
	}
	b.Queue, b.Accept = true, accept
	return nil
}
