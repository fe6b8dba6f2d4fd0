package engine

import (
	"context"

	"github.com/rssbot/rssbot/engine/discover"
	"github.com/rssbot/rssbot/engine/feed"
)

// isFeed is the sniffer discovery uses: the parser's own format detection.
func isFeed(body []byte, _ string) bool { return feed.Detect(body) != "" }

// Discover finds the feeds behind a URL (a feed, or a website declaring
// feeds) with the engine's fetcher, so the same limits and private-network
// guard apply as to polls. Nothing is stored.
func (e *Engine) Discover(ctx context.Context, rawURL string) (discover.Result, error) {
	return discover.Discover(ctx, e.fetcher, rawURL, isFeed)
}

// Peeked is a feed fetched and parsed for a look (a preview), not stored.
type Peeked struct {
	// URL is the feed's address: the final URL after redirects.
	URL  string
	Feed *feed.Feed
	// Found is how many feeds discovery offered; the first was taken.
	Found int
}

// Peek fetches and parses the feed behind rawURL without storing
// anything: the URL itself when it is a feed, else the first feed the
// website declares. Entries keep the feed's order.
func (e *Engine) Peek(ctx context.Context, rawURL string) (Peeked, error) {
	res, found, err := discover.FirstFeed(ctx, e.fetcher, rawURL, isFeed)
	if err != nil {
		return Peeked{}, err
	}
	parsed, err := e.parseFeed(res)
	if err != nil {
		return Peeked{}, err
	}
	return Peeked{URL: res.FinalURL, Feed: parsed, Found: len(found.Candidates)}, nil
}
