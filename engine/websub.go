package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/rssbot/rssbot/engine/websub"
	"github.com/rssbot/rssbot/storage"
)

// WebSubOptions configure the WebSub subscriber.
type WebSubOptions struct {
	// PublicURL is the public base URL of HTTP_ADDR; callbacks are
	// PublicURL + "/websub/" + token. Empty disables WebSub.
	PublicURL string
	// MaxBytes limits a push body (FETCH_MAX_BYTES); default 16 MiB.
	MaxBytes int64
	// Lease is the lease asked of hubs; default websub.DefaultLease.
	Lease time.Duration
	// Interval is how often Run looks for subscriptions to make, renew or
	// end; default 5 minutes.
	Interval time.Duration
}

// WebSub subscribes the engine's feeds at their hubs and imports what the
// hubs push. Polling goes on beside it at the normal schedule: a hub that
// falls silent loses nothing.
type WebSub struct {
	e       *Engine
	opts    WebSubOptions
	handler *websub.Handler
}

// pendingTimeout is how long a hub may take to verify a request before it
// is sent again (or, for an unsubscription, given up).
const pendingTimeout = time.Hour

// NewWebSub returns the WebSub subscriber of e. Mount Handler at
// PUBLIC_URL + "/websub/" and run Run beside Engine.Run.
func NewWebSub(e *Engine, opts WebSubOptions) *WebSub {
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 16 << 20
	}
	if opts.Lease <= 0 {
		opts.Lease = websub.DefaultLease
	}
	if opts.Interval <= 0 {
		opts.Interval = 5 * time.Minute
	}
	w := &WebSub{e: e, opts: opts}
	w.handler = websub.NewHandler(webSubBackend{w}, opts.MaxBytes, e.log)
	return w
}

// Enabled reports whether a public URL was configured.
func (w *WebSub) Enabled() bool { return w.opts.PublicURL != "" }

// Handler answers hubs' verifications and pushes at /websub/<token>.
func (w *WebSub) Handler() http.Handler { return w.handler }

// Run calls Maintain every Interval until ctx ends. Without a public URL
// it returns at once.
func (w *WebSub) Run(ctx context.Context) error {
	if !w.Enabled() {
		return nil
	}
	ticker := time.NewTicker(w.opts.Interval)
	defer ticker.Stop()
	for {
		if err := w.Maintain(ctx); err != nil && ctx.Err() == nil {
			w.e.log.Error("engine: websub maintenance failed", "error", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-ticker.C:
		}
	}
}

// Maintain subscribes feeds that announce a hub, renews leases at 90 %,
// asks again after a failure or denial, and unsubscribes feeds that were
// deleted, disabled or lost their last subscription. A failing hub is
// recorded on its row and does not stop the others.
func (w *WebSub) Maintain(ctx context.Context) error {
	if !w.Enabled() {
		return nil
	}
	feeds, err := w.e.store.WebSubFeeds(ctx)
	if err != nil {
		return fmt.Errorf("engine: websub: %w", err)
	}
	subs, err := w.e.store.ListWebSubs(ctx)
	if err != nil {
		return fmt.Errorf("engine: websub: %w", err)
	}
	byFeed := make(map[int64]storage.WebSubSubscription, len(subs))
	for _, s := range subs {
		byFeed[s.FeedID] = s
	}
	var errs []error
	wanted := make(map[int64]bool, len(feeds))
	for _, f := range feeds {
		wanted[f.ID] = true
		if err := w.keep(ctx, f, byFeed[f.ID]); err != nil {
			errs = append(errs, err)
		}
	}
	for _, s := range subs {
		if !wanted[s.FeedID] {
			if err := w.end(ctx, s); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// keep makes sure feed f has a live subscription; cur is its row (zero
// when none).
func (w *WebSub) keep(ctx context.Context, f storage.Feed, cur storage.WebSubSubscription) error {
	topic := f.SelfURL
	if topic == "" {
		topic = f.URL
	}
	if !w.due(cur, f.HubURL, topic) {
		return nil
	}
	s := cur
	if s.ID == 0 {
		s = storage.WebSubSubscription{FeedID: f.ID, Token: websub.NewToken(), Secret: websub.NewSecret()}
	}
	if s.Hub != f.HubURL || s.Topic != topic || s.State != storage.WebSubActive {
		s.State = storage.WebSubPending
	}
	s.Hub, s.Topic, s.RequestedAt = f.HubURL, topic, w.e.opts.Now()
	// Saved before asking: the hub may verify before its answer arrives.
	save := w.e.store.SaveWebSub
	if s.ID == 0 {
		save = w.e.store.CreateWebSub // another instance's new row is not overwritten
	}
	if _, err := save(ctx, s); errors.Is(err, storage.ErrWebSubExists) {
		return nil
	} else if err != nil {
		return fmt.Errorf("engine: websub: feed %d: %w", f.ID, err)
	}
	form := websub.Form(websub.ModeSubscribe, topic, websub.CallbackURL(w.opts.PublicURL, s.Token), s.Secret, w.opts.Lease)
	if herr := w.ask(ctx, s.Hub, form); herr != nil {
		w.e.log.Warn("engine: websub subscription failed", "feed_id", f.ID, "error", herr)
		if s.State != storage.WebSubActive || !w.e.opts.Now().Before(s.ExpiresAt) {
			s.State = storage.WebSubFailed
		}
		s.LastError = herr.Error()
		if _, err := w.e.store.SaveWebSub(ctx, s); err != nil {
			return fmt.Errorf("engine: websub: feed %d: %w", f.ID, err)
		}
	}
	return nil
}

// due reports whether a (new) subscription request is to be sent for a
// feed whose row is cur, announcing hub and topic.
func (w *WebSub) due(cur storage.WebSubSubscription, hub, topic string) bool {
	now := w.e.opts.Now()
	switch {
	case cur.ID == 0, cur.Hub != hub, cur.Topic != topic:
		return true
	case cur.State == storage.WebSubActive:
		lease := time.Duration(cur.LeaseSeconds) * time.Second
		renew := websub.RenewAt(cur.VerifiedAt, lease)
		if now.Before(renew) {
			return false
		}
		// A renewal already asked for waits for its verification a while.
		return cur.RequestedAt.Before(renew) || !now.Before(cur.RequestedAt.Add(pendingTimeout))
	case cur.State == storage.WebSubPending, cur.State == storage.WebSubUnsubscribing:
		return !now.Before(cur.RequestedAt.Add(pendingTimeout))
	default: // failed, denied
		return !now.Before(cur.RequestedAt.Add(websub.RetryAfter(cur.State)))
	}
}

// end unsubscribes a feed no longer wanted; a row the hub never granted,
// or whose unsubscription the hub did not confirm in time, is dropped.
func (w *WebSub) end(ctx context.Context, s storage.WebSubSubscription) error {
	now := w.e.opts.Now()
	drop := s.State == storage.WebSubFailed || s.State == storage.WebSubDenied ||
		s.State == storage.WebSubUnsubscribing && !now.Before(s.RequestedAt.Add(pendingTimeout))
	if s.State == storage.WebSubUnsubscribing && !drop {
		return nil
	}
	if !drop {
		s.State, s.RequestedAt = storage.WebSubUnsubscribing, now
		if _, err := w.e.store.SaveWebSub(ctx, s); err != nil {
			return fmt.Errorf("engine: websub: feed %d: %w", s.FeedID, err)
		}
		form := websub.Form(websub.ModeUnsubscribe, s.Topic, websub.CallbackURL(w.opts.PublicURL, s.Token), "", 0)
		herr := w.ask(ctx, s.Hub, form)
		if herr == nil {
			return nil // the row goes when the hub confirms
		}
		// The lease runs out at the hub anyway; nothing is left to try.
		w.e.log.Info("engine: websub unsubscription failed", "feed_id", s.FeedID, "error", herr)
	}
	if err := w.e.store.DeleteWebSub(ctx, s.FeedID); err != nil {
		return fmt.Errorf("engine: websub: %w", err)
	}
	return nil
}

// ask sends a request to a hub; anything but a 2xx answer is an error.
func (w *WebSub) ask(ctx context.Context, hub string, form url.Values) error {
	ans, err := w.e.fetcher.PostForm(ctx, hub, form)
	if err != nil {
		return err
	}
	if ans.StatusCode < 200 || ans.StatusCode > 299 {
		return fmt.Errorf("websub: hub answered %d: %.200s", ans.StatusCode, ans.Body)
	}
	return nil
}
