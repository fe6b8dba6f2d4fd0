package engine

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
)

// farmFeed is one feed a farm host serves: items 1..items, newest first.
type farmFeed struct {
	items    int
	status   int         // when set, the answer is this status
	header   http.Header // extra response headers
	pageSize int         // > 0: pages of pageSize items linked by rel=next (?page=N)
	loopTo   int         // > 0: the last page links back to this page
	failPage int         // > 0: this page answers 500
	title    func(n int) string
}

// farmRequest is one request a farm host answered.
type farmRequest struct {
	path, query     string
	ifNoneMatch     string
	ifModifiedSince string
}

// farmHost is a feed server on its own loopback address. It counts the
// requests in flight, so a test can prove it never saw two at once.
type farmHost struct {
	ip  string
	srv *httptest.Server

	mu          sync.Mutex
	feeds       map[string]*farmFeed
	reqs        []farmRequest
	inFlight    int
	maxInFlight int
	delay       time.Duration
	block       chan struct{} // when set, requests wait for it to close
	arrived     chan string   // when set, receives each request's path
}

// newFarm starts n hosts on 127.0.0.first … 127.0.0.first+n-1.
func newFarm(t testing.TB, first, n int) []*farmHost {
	t.Helper()
	hosts := make([]*farmHost, n)
	for i := range hosts {
		h := &farmHost{ip: fmt.Sprintf("127.0.0.%d", first+i), feeds: map[string]*farmFeed{}}
		ln, err := net.Listen("tcp", h.ip+":0")
		if err != nil {
			t.Skipf("cannot listen on %s (loopback aliases unavailable): %v", h.ip, err)
		}
		h.srv = httptest.NewUnstartedServer(h)
		h.srv.Listener.Close()
		h.srv.Listener = ln
		h.srv.Start()
		t.Cleanup(h.srv.Close)
		hosts[i] = h
	}
	return hosts
}

func (h *farmHost) url(path string) string { return h.srv.URL + path }

// set serves f at path.
func (h *farmHost) set(path string, f farmFeed) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.feeds[path] = &f
}

// update changes the feed at path.
func (h *farmHost) update(path string, fn func(*farmFeed)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	fn(h.feeds[path])
}

// requests returns the requests for path ("" = all).
func (h *farmHost) requests(path string) []farmRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []farmRequest
	for _, r := range h.reqs {
		if path == "" || r.path == path {
			out = append(out, r)
		}
	}
	return out
}

func (h *farmHost) peak() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.maxInFlight
}

func (h *farmHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.inFlight++
	h.maxInFlight = max(h.maxInFlight, h.inFlight)
	h.reqs = append(h.reqs, farmRequest{path: r.URL.Path, query: r.URL.RawQuery,
		ifNoneMatch: r.Header.Get("If-None-Match"), ifModifiedSince: r.Header.Get("If-Modified-Since")})
	var f farmFeed
	found := h.feeds[r.URL.Path] != nil
	if found {
		f = *h.feeds[r.URL.Path]
	}
	delay, block, arrived := h.delay, h.block, h.arrived
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.inFlight--
		h.mu.Unlock()
	}()
	if arrived != nil {
		arrived <- r.URL.Path
	}
	if block != nil {
		select {
		case <-block:
		case <-r.Context().Done():
			return
		}
	}
	time.Sleep(delay)
	if !found {
		http.NotFound(w, r)
		return
	}
	f.serve(w, r, h.url(r.URL.Path))
}

func (f farmFeed) serve(w http.ResponseWriter, r *http.Request, self string) {
	for k, v := range f.header {
		w.Header()[k] = v
	}
	if f.status != 0 {
		w.WriteHeader(f.status)
		return
	}
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1)
	if page == f.failPage {
		http.Error(w, "broken page", http.StatusInternalServerError)
		return
	}
	etag := fmt.Sprintf(`"%d-%d"`, f.items, page)
	modified := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(f.items) * time.Minute).Format(http.TimeFormat)
	if r.Header.Get("If-None-Match") == etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	w.Header().Set("ETag", etag)
	w.Header().Set("Last-Modified", modified)
	w.Header().Set("Content-Type", "application/rss+xml")
	io.WriteString(w, f.body(self, page))
}

// body renders one page of the feed as RSS 2.0.
func (f farmFeed) body(self string, page int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Farm feed</title><link>http://example.org/</link>`)
	first, last := f.items, 1
	if f.pageSize > 0 {
		first = f.items - (page-1)*f.pageSize
		last = max(first-f.pageSize+1, 1)
		switch {
		case last > 1:
			fmt.Fprintf(&b, `<atom:link rel="next" href="%s?page=%d"/>`, self, page+1)
		case f.loopTo == 1:
			fmt.Fprintf(&b, `<atom:link rel="next" href="%s"/>`, self)
		case f.loopTo > 1:
			fmt.Fprintf(&b, `<atom:link rel="next" href="%s?page=%d"/>`, self, f.loopTo)
		}
	}
	for n := first; n >= last; n-- {
		title := fmt.Sprintf("Item %d", n)
		if f.title != nil {
			title = f.title(n)
		}
		fmt.Fprintf(&b, `<item><title>%s</title><link>%s/%d</link><guid>%s#%d</guid><pubDate>%s</pubDate></item>`,
			title, self, n, self, n, itemDate(n).Format(time.RFC1123Z))
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

func itemDate(n int) time.Time {
	return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Minute)
}

// testClock is a clock tests move by hand.
type testClock struct {
	mu  sync.Mutex
	now time.Time
}

func newClock() *testClock { return &testClock{now: time.Now().UTC().Truncate(time.Second)} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *testClock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

const testAdmin = 4242

var testSchedule = schedule.Settings{Base: 10 * time.Minute, Max: 6 * time.Hour, Adaptive: true}

// newTestEngine returns an engine on st with the test clock; mod may change
// its options.
func newTestEngine(t testing.TB, st *storage.Store, clk *testClock, mod func(*Options)) *Engine {
	t.Helper()
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	opts := Options{
		Schedule: testSchedule, Concurrency: 4, HostLease: time.Minute,
		AdminChatID: testAdmin, Logger: log, Now: clk.Now,
	}
	if mod != nil {
		mod(&opts)
	}
	fetcher := fetch.New(fetch.Options{AllowPrivateNetworks: true, Timeout: 10 * time.Second, Logger: log})
	t.Cleanup(fetcher.CloseIdleConnections)
	return New(st, fetcher, opts)
}

// subscribeAll subscribes chat to urls without fetching (as `opml import`
// does): each feed is due at once.
func subscribeAll(t testing.TB, e *Engine, chat int64, urls ...string) []storage.SubscribeResult {
	t.Helper()
	refs := make([]storage.FeedRef, len(urls))
	for i, u := range urls {
		host, err := fetch.HostOf(u)
		if err != nil {
			t.Fatal(err)
		}
		refs[i] = storage.FeedRef{URL: u, Host: host}
	}
	res, err := e.store.SubscribeMany(context.Background(), chat, 0, refs, e.opts.Now())
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func ctxT(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func mustTick(t testing.TB, e *Engine) Summary {
	t.Helper()
	sum, err := e.Tick(ctxT(t))
	if err != nil {
		t.Fatalf("Tick: %v", err)
	}
	return sum
}

func mustFeedByURL(t testing.TB, st *storage.Store, u string) storage.Feed {
	t.Helper()
	f, err := st.FeedByURL(context.Background(), u)
	if err != nil {
		t.Fatalf("FeedByURL(%s): %v", u, err)
	}
	return f
}

func outboxCount(t testing.TB, st *storage.Store) int {
	t.Helper()
	c, err := st.CountOutbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, v := range c {
		n += v
	}
	return n
}
