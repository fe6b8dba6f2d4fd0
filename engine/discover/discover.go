package discover

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/rssbot/rssbot/engine/fetch"
)

// ErrNoFeed is wrapped by Discover's error when a page has no feed.
var ErrNoFeed = errors.New("no feed found")

// Candidate is one feed found for a URL.
type Candidate struct {
	URL   string
	Title string // as the site declared it; empty for the URL itself and guesses
	Type  string // media type as declared or served, without parameters; may be empty
	// Guess marks a feed found by probing a well-known path rather than
	// declared by the site.
	Guess bool
}

// Result is what Discover found.
type Result struct {
	// Candidates are deduplicated, declared feeds first.
	Candidates []Candidate
	// Direct is the fetch of the URL itself when it is a feed; its body can
	// be parsed at once, with no second request.
	Direct *fetch.Result
	// Hub and Self are the first rel="hub" and rel="self" targets of the
	// response's Link headers (WebSub); empty when absent.
	Hub, Self string
	// Tried lists every URL requested, in order.
	Tried []string
}

// IsFeed reports whether a body looks like a feed; the parser's
// feed.Detect supplies the real one. It must be cheap: it sees every page
// and, truncated, every probe.
type IsFeed func(body []byte, contentType string) bool

// probeBytes is how much of a well-known path is read to sniff it.
const probeBytes = 64 << 10

// Discover finds the feeds behind rawURL with client c. A URL without a
// scheme is taken as https; the feed: pseudo-scheme is understood. It fails
// when the URL cannot be fetched (the error wraps the fetch error, so
// errors.As finds a *fetch.PrivateAddressError or *fetch.StatusError) or
// has no feed (the error wraps ErrNoFeed and lists what was tried).
func Discover(ctx context.Context, c *fetch.Client, rawURL string, isFeed IsFeed) (Result, error) {
	if isFeed == nil {
		return Result{}, errors.New("discover: no feed sniffer given")
	}
	target, err := normalizeURL(rawURL)
	if err != nil {
		return Result{}, fmt.Errorf("discover: %w", err)
	}
	res := Result{Tried: []string{target}}
	page := c.Fetch(ctx, fetch.Request{URL: target, Fresh: true})
	if page.Outcome != fetch.OK {
		return res, fmt.Errorf("discover: %s: %w", target, page.Err)
	}
	res.Hub, res.Self = hubAndSelf(page.Links)
	if isFeed(page.Body, page.ContentType) {
		feedURL := target
		if page.PermanentURL != "" {
			feedURL = page.PermanentURL // moved for good: subscribe to where it lives now
		}
		res.Direct = &page
		res.Candidates = []Candidate{{URL: feedURL, Type: mediaType(page.ContentType)}}
		return res, nil
	}
	final, err := url.Parse(page.FinalURL)
	if err != nil {
		return res, fmt.Errorf("discover: final URL: %w", err)
	}
	found := declaredInHTML(page.Body, page.ContentType, final)
	found = append(found, declaredInLinks(page.Links)...)
	if len(found) == 0 {
		found = probeWellKnown(ctx, c, final, isFeed, &res.Tried)
	}
	res.Candidates = rank(found)
	if len(res.Candidates) == 0 {
		return res, fmt.Errorf("discover: %w at %s (tried: %s)", ErrNoFeed, target, strings.Join(res.Tried, ", "))
	}
	return res, nil
}

// normalizeURL accepts what people paste: a bare host or path gets https,
// and the feed: pseudo-scheme of old browsers is unwrapped.
func normalizeURL(raw string) (string, error) {
	s := strings.TrimSpace(raw)
	lower := strings.ToLower(s)
	switch {
	case strings.HasPrefix(lower, "feed://"):
		s = "http://" + s[len("feed://"):]
	case strings.HasPrefix(lower, "feed:"):
		s = s[len("feed:"):]
	}
	if s == "" {
		return "", errors.New("empty URL")
	}
	if !strings.Contains(s, "://") {
		if scheme, ok := otherScheme(s); ok {
			return "", fmt.Errorf("not an http(s) URL: %s: scheme", scheme)
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return "", err
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("not an http(s) URL: %q", raw)
	}
	return u.String(), nil
}

// otherScheme spots a scheme in a URL without "//" ("mailto:…"), as
// opposed to a host and port ("example.org:8080/…").
func otherScheme(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 || (i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9') {
		return "", false
	}
	for j, c := range s[:i] {
		alpha := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !alpha && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	return s[:i], true
}

// hubAndSelf picks the WebSub links from Link headers.
func hubAndSelf(links []fetch.Link) (hub, self string) {
	for _, l := range links {
		switch {
		case l.Rel == "hub" && hub == "":
			hub = l.URL
		case l.Rel == "self" && self == "":
			self = l.URL
		}
	}
	return hub, self
}

// declaredInLinks turns Link headers with rel="alternate" and a feed type
// into candidates.
func declaredInLinks(links []fetch.Link) []Candidate {
	var out []Candidate
	for _, l := range links {
		if l.Rel != "alternate" {
			continue
		}
		if typ, ok := feedType(l.Type, l.URL, l.Title); ok && httpURL(l.URL) {
			out = append(out, Candidate{URL: l.URL, Title: l.Title, Type: typ})
		}
	}
	return out
}

// rank removes duplicates (same URL), keeping the first but filling in a
// title or type a later duplicate knows, and puts declared feeds before
// guesses, otherwise keeping the order found.
func rank(found []Candidate) []Candidate {
	var out []Candidate
	index := make(map[string]int, len(found))
	for _, guess := range []bool{false, true} {
		for _, cand := range found {
			if cand.Guess != guess {
				continue
			}
			if i, dup := index[cand.URL]; dup {
				out[i].Title = cmp.Or(out[i].Title, cand.Title)
				out[i].Type = cmp.Or(out[i].Type, cand.Type)
				continue
			}
			index[cand.URL] = len(out)
			out = append(out, cand)
		}
	}
	return out
}

func httpURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}
