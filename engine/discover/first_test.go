package discover

import (
	"context"
	"reflect"
	"strings"
	"testing"
)

func TestFirstFeed(t *testing.T) {
	const rss = `<?xml version="1.0"?><rss version="2.0"/>`
	s := newSite(t, map[string]page{
		"/feed.xml": {contentType: "application/rss+xml", body: rss},
		"/": {contentType: "text/html", body: `<html><head>
			<link rel="alternate" type="application/rss+xml" href="/feed.xml">
			<link rel="alternate" type="application/atom+xml" href="/gone.xml"></head></html>`},
		"/broken": {contentType: "text/html", body: `<html><head>
			<link rel="alternate" type="application/rss+xml" href="/gone.xml"></head></html>`},
	})
	c := client(t, false)
	tests := []struct {
		name      string
		path      string
		wantPaths []string // requests made
		wantErr   string
		found     int
	}{
		// A feed URL is fetched once: its answer is the feed.
		{"feed itself", "/feed.xml", []string{"/feed.xml"}, "", 1},
		// A page: the page, then its first declared feed.
		{"web page", "/", []string{"/", "/feed.xml"}, "", 2},
		// The first candidate fails: the error names it.
		{"failing candidate", "/broken", []string{"/broken", "/gone.xml"}, "/gone.xml", 1},
	}
	for _, tt := range tests {
		before := len(s.requested())
		res, found, err := FirstFeed(context.Background(), c, s.URL+tt.path, sniff)
		got := s.requested()[before:]
		if !reflect.DeepEqual(got, tt.wantPaths) {
			t.Errorf("%s: requests %v, want %v", tt.name, got, tt.wantPaths)
		}
		if len(found.Candidates) != tt.found {
			t.Errorf("%s: %d candidates, want %d", tt.name, len(found.Candidates), tt.found)
		}
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%s: error %v, want one naming %s", tt.name, err, tt.wantErr)
			}
			continue
		}
		if err != nil || string(res.Body) != rss {
			t.Errorf("%s: body %q, err %v; want the feed", tt.name, res.Body, err)
		}
	}
}
