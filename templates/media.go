package templates

import (
	"net/url"
	"path"
	"strings"

	"github.com/rssbot/rssbot/engine/feed"
)

// MaxAlbum is how many images one album (sendMediaGroup) may hold.
const MaxAlbum = 10

// mediaImages lists the pictures an entry can be posted with, best first:
// the feed's own images (media:content, enclosures, the first image of the
// content as the parser found it), then the other images of the content,
// then image enclosures. Only http(s) and data: images that Telegram can
// show as photos are kept (no SVG), each once.
func mediaImages(e feed.Entry, fromContent []string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		u = strings.TrimSpace(u)
		if u == "" || seen[u] || !photoURL(u) {
			return
		}
		seen[u] = true
		out = append(out, u)
	}
	for _, img := range e.Images {
		add(img.URL)
	}
	for _, u := range fromContent {
		add(u)
	}
	for _, enc := range e.Enclosures {
		if strings.HasPrefix(strings.ToLower(enc.Type), "image/") {
			add(enc.URL)
		}
	}
	return out
}

// photoURL reports whether u can be sent as a photo: an http(s) URL not
// naming an SVG file, or a data: URL of a raster image.
func photoURL(u string) bool {
	lower := strings.ToLower(u)
	if rest, ok := strings.CutPrefix(lower, "data:"); ok {
		return strings.HasPrefix(rest, "image/") && !strings.HasPrefix(rest, "image/svg")
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return false
	}
	return !strings.EqualFold(path.Ext(p.Path), ".svg")
}

// IsDataURL reports whether an image URL is a data: URL, whose bytes are
// uploaded rather than given to Telegram by URL.
func IsDataURL(u string) bool {
	return len(u) >= 5 && strings.EqualFold(u[:5], "data:")
}
