package discover

import (
	"context"
	"fmt"

	"github.com/rssbot/rssbot/engine/fetch"
)

// FirstFeed discovers the feeds behind rawURL and returns the answer that
// holds the first one's body: the URL's own answer when it is a feed (no
// second request), else a fresh fetch of the first candidate. found tells
// how many feeds there were.
func FirstFeed(ctx context.Context, c *fetch.Client, rawURL string, isFeed IsFeed) (res fetch.Result, found Result, err error) {
	found, err = Discover(ctx, c, rawURL, isFeed)
	if err != nil {
		return fetch.Result{}, found, err
	}
	if found.Direct != nil {
		return *found.Direct, found, nil
	}
	first := found.Candidates[0].URL
	res = c.Fetch(ctx, fetch.Request{URL: first, Fresh: true})
	if res.Outcome != fetch.OK {
		if res.Err != nil {
			return res, found, fmt.Errorf("discover: %s: %w", first, res.Err)
		}
		return res, found, fmt.Errorf("discover: %s: fetch: %s", first, res.Outcome)
	}
	return res, found, nil
}
