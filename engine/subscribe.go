package engine

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/rssbot/rssbot/engine/discover"
	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// Subscribed tells the caller what Subscribe did.
type Subscribed struct {
	Subscription storage.Subscription
	Feed         storage.Feed
	Existed      bool // the chat was subscribed already
	Entries      int  // entries the feed lists now (stored as seen)
}

// ErrBadURL is wrapped when a subscription URL is not an absolute http(s) URL.
var ErrBadURL = errors.New("not an absolute http(s) URL")

// NormalizeURL checks a feed URL given by a person and returns it in the
// form it is stored under.
func NormalizeURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("engine: %q: %w", raw, ErrBadURL)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	u.Host = strings.ToLower(u.Host)
	u.Fragment = ""
	if u.Path == "" {
		u.Path = "/"
	}
	return u.String(), nil
}

// Subscribe subscribes a chat (and forum topic, 0 = none) to a feed URL. A
// feed not yet known is fetched and parsed first, so a bad URL is refused at
// once, and what it lists now is stored as seen: a new subscription never
// receives the back catalogue.
func (e *Engine) Subscribe(ctx context.Context, rawURL string, chatID, topicID int64) (Subscribed, error) {
	u, err := NormalizeURL(rawURL)
	if err != nil {
		return Subscribed{}, err
	}
	f, err := e.store.FeedByURL(ctx, u)
	switch {
	case errors.Is(err, storage.ErrNotFound) || (err == nil && !f.DisabledAt.IsZero()):
		f, err = e.addFeed(ctx, u)
		if err != nil {
			return Subscribed{}, err
		}
	case err != nil:
		return Subscribed{}, err
	}
	sub, created, err := e.store.Subscribe(ctx, storage.Subscription{FeedID: f.ID, ChatID: chatID, TopicID: topicID})
	if err != nil {
		return Subscribed{}, err
	}
	n, err := e.store.CountEntries(ctx, f.ID)
	if err != nil {
		return Subscribed{}, err
	}
	return Subscribed{Subscription: sub, Feed: f, Existed: !created, Entries: n}, nil
}

// WebsiteError reports that a subscription URL is a web page, not a feed;
// Found holds the feeds the page declares, for the caller to offer.
type WebsiteError struct {
	URL   string
	Found discover.Result
}

func (e *WebsiteError) Error() string {
	return fmt.Sprintf("engine: %s is a web page, not a feed", e.URL)
}

// Is makes a WebsiteError match feed.ErrNotFeed.
func (e *WebsiteError) Is(target error) bool { return target == feed.ErrNotFeed }

// addFeed fetches and parses a feed, then stores it with its current entries
// marked as seen and its first scheduled poll. The request waits for the
// host like any poll, so a server never sees it beside one.
func (e *Engine) addFeed(ctx context.Context, u string) (storage.Feed, error) {
	host, err := fetch.HostOf(u)
	if err != nil {
		return storage.Feed{}, err
	}
	// Discovery makes the one request (and, for a web page without declared
	// feeds, the well-known-path guesses) and hands back the body when the
	// URL is itself a feed, so nothing is fetched twice.
	var (
		found discover.Result
		dErr  error
	)
	err = e.withHost(ctx, host, func(*hostLease) {
		found, dErr = e.Discover(ctx, u)
	})
	if err == nil {
		err = dErr
	}
	if err != nil {
		return storage.Feed{}, err
	}
	if found.Direct == nil {
		return storage.Feed{}, &WebsiteError{URL: u, Found: found}
	}
	res := *found.Direct
	parsed, err := e.parseFeed(res)
	if err != nil {
		return storage.Feed{}, err
	}
	if res.PermanentURL != "" {
		if moved, err := NormalizeURL(res.PermanentURL); err == nil {
			u = moved
		}
	}
	if host, err = fetch.HostOf(u); err != nil {
		return storage.Feed{}, err
	}
	now := e.opts.Now()
	f, _, err := e.store.EnsureFeed(ctx, u, host, now.Add(e.opts.Schedule.Base))
	if err != nil {
		return storage.Feed{}, err
	}
	recs, err := records(parsed.Entries)
	if err != nil {
		return storage.Feed{}, err
	}
	applyFeedMeta(&f, parsed)
	f.BodySHA256 = bodyHash(res.Body)
	f.ETag, f.LastModified = res.ETag, res.LastModified
	f.HintSeconds = int64(hintOf(parsed.Hints, res).Seconds())
	f.LastPollAt, f.LastSuccessAt = now, now
	f = apply(f, e.decide(f, schedule.Poll{Outcome: schedule.Success, NewEntries: 1, Now: now}), &PollResult{})
	log := func(storage.ImportResult) ([]storage.Activity, []storage.Notice) {
		return []storage.Activity{{Kind: storage.ActivityPoll, Detail: "unconditional, subscribing"},
			{Kind: storage.ActivityImported, Detail: fmt.Sprintf("%d entries stored as seen", len(recs))}}, nil
	}
	if _, err := e.store.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs, Queue: false, Now: now, Log: log}); err != nil {
		return storage.Feed{}, err
	}
	return f, nil
}

// Unsubscribe removes a subscription; the feed goes when nobody follows it.
func (e *Engine) Unsubscribe(ctx context.Context, subscriptionID int64) error {
	_, err := e.store.Unsubscribe(ctx, subscriptionID)
	return err
}
