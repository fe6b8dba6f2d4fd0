package engine

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rssbot/rssbot/engine/discover"
	"github.com/rssbot/rssbot/storage/storagetest"
)

const peekFeed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Peek</title>
<item><title>Newest</title><guid>urn:2</guid></item><item><title>Older</title><guid>urn:1</guid></item></channel></rss>`

// peekSite serves a feed, a page declaring two feeds, a page without any
// and a 500; it counts requests per path.
func peekSite(t *testing.T) (*httptest.Server, map[string]*atomic.Int32) {
	t.Helper()
	hits := map[string]*atomic.Int32{}
	for _, p := range []string{"/feed.xml", "/page", "/plain", "/broken", "/atom.xml"} {
		hits[p] = &atomic.Int32{}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, ok := hits[r.URL.Path]; ok {
			c.Add(1)
		}
		switch r.URL.Path {
		case "/feed.xml":
			w.Header().Set("Content-Type", "application/rss+xml")
			w.Write([]byte(peekFeed))
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><head><title>Site</title>
<link rel="alternate" type="application/rss+xml" title="Main feed" href="/feed.xml">
<link rel="alternate" type="application/atom+xml" title="Comments" href="/atom.xml">
</head><body>hi</body></html>`))
		case "/plain":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<html><body>no feeds here</body></html>`))
		case "/broken":
			http.Error(w, "boom", http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv, hits
}

// Discover on a website lists the declared feeds, declared order kept.
func TestDiscoverWebsite(t *testing.T) {
	srv, _ := peekSite(t)
	e := newTestEngine(t, storagetest.Open(t, storagetest.SQLiteURL(t)), newClock(), nil)
	res, err := e.Discover(ctxT(t), srv.URL+"/page")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Candidates) != 2 || res.Candidates[0].URL != srv.URL+"/feed.xml" || res.Candidates[0].Title != "Main feed" ||
		res.Candidates[1].URL != srv.URL+"/atom.xml" {
		t.Errorf("candidates = %+v", res.Candidates)
	}
	if res.Direct != nil {
		t.Error("a web page reported as a direct feed")
	}
}

// Peek reads a feed URL with one request, and a website through its first
// declared feed; the entries keep the feed's order.
func TestPeek(t *testing.T) {
	srv, hits := peekSite(t)
	e := newTestEngine(t, storagetest.Open(t, storagetest.SQLiteURL(t)), newClock(), nil)
	for _, path := range []string{"/feed.xml", "/page"} {
		before := hits["/feed.xml"].Load()
		got, err := e.Peek(ctxT(t), srv.URL+path)
		if err != nil {
			t.Fatalf("Peek(%s): %v", path, err)
		}
		if got.URL != srv.URL+"/feed.xml" || got.Feed.Title != "Peek" || len(got.Feed.Entries) != 2 ||
			got.Feed.Entries[0].Title != "Newest" {
			t.Errorf("Peek(%s) = %s %+v", path, got.URL, got.Feed)
		}
		if n := hits["/feed.xml"].Load() - before; n != 1 {
			t.Errorf("Peek(%s) fetched the feed %d times, want 1", path, n)
		}
	}
	if n := hits["/atom.xml"].Load(); n != 0 {
		t.Errorf("the second candidate was fetched %d times", n)
	}
}

func TestPeekFailures(t *testing.T) {
	srv, _ := peekSite(t)
	e := newTestEngine(t, storagetest.Open(t, storagetest.SQLiteURL(t)), newClock(), nil)
	// A page without declared feeds falls back to well-known paths.
	if got, err := e.Peek(ctxT(t), srv.URL+"/plain"); err != nil || got.URL != srv.URL+"/feed.xml" {
		t.Errorf("Peek(page without links) = %s, %v; want the well-known /feed.xml", got.URL, err)
	}
	empty := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><body>nothing</body></html>`))
	}))
	defer empty.Close()
	_, err := e.Peek(ctxT(t), empty.URL+"/")
	if !errors.Is(err, discover.ErrNoFeed) {
		t.Errorf("Peek(no feed) = %v, want ErrNoFeed", err)
	}
	_, err = e.Peek(ctxT(t), srv.URL+"/broken")
	if err == nil || !strings.Contains(err.Error(), "500") {
		t.Errorf("Peek(500) = %v, want an error naming the status", err)
	}
}
