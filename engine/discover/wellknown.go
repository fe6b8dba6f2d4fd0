package discover

import (
	"context"
	"net/url"

	"github.com/rssbot/rssbot/engine/fetch"
)

// wellKnownPaths are where feeds commonly live when a site does not say.
func wellKnownPaths() []string {
	return []string{"/feed", "/rss", "/rss.xml", "/atom.xml", "/feed.xml", "/index.xml", "/feed.json"}
}

// probeWellKnown tries the well-known paths at the root of page's site,
// one after another (one request at a time per host), without following
// redirects and reading only enough to sniff. Every URL requested is added
// to tried.
func probeWellKnown(ctx context.Context, c *fetch.Client, page *url.URL, isFeed IsFeed, tried *[]string) []Candidate {
	var out []Candidate
	root := url.URL{Scheme: page.Scheme, Host: page.Host}
	for _, path := range wellKnownPaths() {
		if ctx.Err() != nil {
			break
		}
		root.Path = path
		u := root.String()
		*tried = append(*tried, u)
		res := c.Fetch(ctx, fetch.Request{URL: u, Fresh: true, NoRedirects: true, PeekBytes: probeBytes})
		if res.Outcome == fetch.OK && isFeed(res.Body, res.ContentType) {
			out = append(out, Candidate{URL: u, Type: mediaType(res.ContentType), Guess: true})
		}
	}
	return out
}
