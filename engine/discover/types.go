package discover

import (
	"mime"
	"strings"
)

// feedType reports whether a declared media type names a feed, and returns
// it without parameters. application/json alone is too common to trust
// (WordPress declares its REST API with it), so it counts only when the
// href or title says "feed", as JSON Feed 1.0 sites declared themselves.
func feedType(declared, href, title string) (string, bool) {
	typ := mediaType(declared)
	switch typ {
	case "application/rss+xml", "application/atom+xml", "application/rdf+xml",
		"application/feed+json", "text/calendar", "application/xml", "text/xml",
		"application/x-rss+xml", "application/x-atom+xml":
		return typ, true
	case "application/json":
		mentions := strings.Contains(strings.ToLower(href), "feed") ||
			strings.Contains(strings.ToLower(title), "feed")
		return typ, mentions
	}
	return typ, false
}

// mediaType lower-cases a Content-Type or type attribute and drops its
// parameters; a value that does not parse is returned trimmed.
func mediaType(v string) string {
	v = strings.TrimSpace(v)
	if v == "" {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(v); err == nil {
		return mt
	}
	if i := strings.IndexByte(v, ';'); i >= 0 {
		v = v[:i]
	}
	return strings.ToLower(strings.TrimSpace(v))
}
