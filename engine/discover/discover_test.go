package discover

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/rssbot/rssbot/engine/fetch"
)

// sniff is the test's stand-in for feed.Detect: a root element or marker
// near the start of the body.
func sniff(body []byte, _ string) bool {
	head := body[:min(len(body), 512)]
	for _, marker := range []string{"<rss", "<feed", "<rdf:RDF", "BEGIN:VCALENDAR", `"https://jsonfeed.org/version/`} {
		if bytes.Contains(head, []byte(marker)) {
			return true
		}
	}
	return false
}

// site is a recording test server serving fixed paths.
type site struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
}

type page struct {
	contentType, body string
	header            http.Header
	status            int
}

func newSite(t *testing.T, pages map[string]page) *site {
	t.Helper()
	s := &site{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range p.header {
			w.Header()[k] = v
		}
		if p.contentType != "" {
			w.Header().Set("Content-Type", p.contentType)
		}
		if p.status != 0 {
			w.WriteHeader(p.status)
		}
		_, _ = io.WriteString(w, strings.ReplaceAll(p.body, "{{root}}", s.URL))
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) requested() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

func client(t *testing.T, guarded bool) *fetch.Client {
	c := fetch.New(fetch.Options{AllowPrivateNetworks: !guarded, Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(c.CloseIdleConnections)
	return c
}

const blogHTML = `<!doctype html>
<html><head>
<meta charset="utf-8">
<title>A blog</title>
<base href="/blog/">
<link rel="stylesheet" href="style.css">
<link rel="alternate" type="application/rss+xml" title="  Posts
   (RSS) " href="feed.rss">
<link rel="alternate" type="application/atom+xml" title="Posts (Atom)" href="{{root}}/atom">
<link rel="Alternate Feed" type="application/feed+json" href="/feed.json">
<link rel="alternate" type="text/calendar" href="events.ics#frag">
<link rel="alternate" hreflang="de" href="/de/">
<link rel="alternate" type="application/json+oembed" href="/oembed?x">
<link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/2">
<link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
<link rel="alternate" type="application/rss+xml" href="feed.rss" title="duplicate">
<script>var s = "<link rel='alternate' type='application/rss+xml' href='/in-script'>";</script>
</head>
<body>
<link rel="alternate" type="application/rss+xml" href="/in-body">
</body></html>`

func TestDiscoverDeclaredFeeds(t *testing.T) {
	s := newSite(t, map[string]page{
		"/": {contentType: "text/html; charset=utf-8", body: blogHTML, header: http.Header{
			"Link": {`</comments.xml>; rel="alternate"; type="application/rss+xml"; title="Comments"`,
				`<https://hub.example/>; rel="hub", </blog/feed.rss>; rel="alternate"; type="application/rss+xml"; title="from header"`},
		}},
	})
	res, err := Discover(context.Background(), client(t, false), s.URL+"/", sniff)
	if err != nil {
		t.Fatal(err)
	}
	want := []Candidate{
		{URL: s.URL + "/blog/feed.rss", Title: "Posts (RSS)", Type: "application/rss+xml"},
		{URL: s.URL + "/atom", Title: "Posts (Atom)", Type: "application/atom+xml"},
		{URL: s.URL + "/feed.json", Type: "application/feed+json"},
		{URL: s.URL + "/blog/events.ics", Type: "text/calendar"},
		{URL: s.URL + "/comments.xml", Title: "Comments", Type: "application/rss+xml"},
	}
	if !reflect.DeepEqual(res.Candidates, want) {
		t.Fatalf("candidates:\n got %+v\nwant %+v", res.Candidates, want)
	}
	if res.Direct != nil || res.Hub != "https://hub.example/" {
		t.Fatalf("direct %v, hub %q", res.Direct, res.Hub)
	}
	// Declared feeds were found, so no well-known path was probed.
	if got := s.requested(); !reflect.DeepEqual(got, []string{"/"}) {
		t.Fatalf("requests %v, want only the page", got)
	}
}

// The URL itself is a feed: one GET, the body handed back for reuse.
func TestDiscoverDirectFeed(t *testing.T) {
	s := newSite(t, map[string]page{
		"/feed": {contentType: "application/rss+xml; charset=utf-8", body: `<?xml version="1.0"?><rss version="2.0"/>`,
			header: http.Header{"Link": {`<https://hub.example/>; rel=hub, <https://example.org/feed>; rel=self`}}},
		"/old": {status: http.StatusMovedPermanently, header: http.Header{"Location": {"/feed"}}},
		"/tmp": {status: http.StatusFound, header: http.Header{"Location": {"/feed"}}},
	})
	c := client(t, false)
	cases := []struct{ path, want string }{
		{"/feed", s.URL + "/feed"},
		{"/old", s.URL + "/feed"}, // moved for good: the new address
		{"/tmp", s.URL + "/tmp"},  // moved for now: keep the given address
	}
	for _, tc := range cases {
		before := len(s.requested())
		res, err := Discover(context.Background(), c, s.URL+tc.path, sniff)
		if err != nil {
			t.Fatal(err)
		}
		if res.Direct == nil || !strings.Contains(string(res.Direct.Body), "<rss") {
			t.Fatalf("%s: Direct not set to the fetched feed", tc.path)
		}
		want := []Candidate{{URL: tc.want, Type: "application/rss+xml"}}
		if !reflect.DeepEqual(res.Candidates, want) {
			t.Fatalf("%s: got %+v, want %+v", tc.path, res.Candidates, want)
		}
		if res.Hub != "https://hub.example/" || res.Self != "https://example.org/feed" {
			t.Fatalf("%s: hub %q self %q", tc.path, res.Hub, res.Self)
		}
		if n := len(s.requested()) - before; n > 2 || (tc.path == "/feed" && n != 1) {
			t.Fatalf("%s: %d requests; the feed must be fetched once", tc.path, n)
		}
	}
}

// Only when nothing is declared: well-known paths at the site root,
// without following redirects.
func TestDiscoverWellKnownGuesses(t *testing.T) {
	s := newSite(t, map[string]page{
		"/blog/post": {contentType: "text/html", body: "<html><head><title>x</title></head><body>hi</body></html>"},
		"/feed":      {status: http.StatusMovedPermanently, header: http.Header{"Location": {"/feed/"}}},
		"/feed/":     {contentType: "application/rss+xml", body: "<rss/>"},
		"/rss":       {contentType: "text/html", body: "<html>not a feed</html>"},
		"/atom.xml":  {contentType: "application/atom+xml", body: `<feed xmlns="http://www.w3.org/2005/Atom"/>`},
		"/feed.json": {contentType: "application/feed+json", body: `{"version": "https://jsonfeed.org/version/1.1", "items": [` + strings.Repeat(`{"id":"x"},`, 20000) + `{}]}`},
	})
	res, err := Discover(context.Background(), client(t, false), s.URL+"/blog/post", sniff)
	if err != nil {
		t.Fatal(err)
	}
	want := []Candidate{
		{URL: s.URL + "/atom.xml", Type: "application/atom+xml", Guess: true},
		{URL: s.URL + "/feed.json", Type: "application/feed+json", Guess: true},
	}
	if !reflect.DeepEqual(res.Candidates, want) {
		t.Fatalf("got %+v, want %+v", res.Candidates, want)
	}
	for _, p := range s.requested() {
		if p == "/feed/" {
			t.Fatal("a well-known probe followed a redirect")
		}
	}
	if len(res.Tried) != 8 {
		t.Fatalf("tried %v", res.Tried)
	}
}

func TestDiscoverNoFeed(t *testing.T) {
	s := newSite(t, map[string]page{
		"/": {contentType: "text/html", body: `<html><head><link rel="alternate" hreflang="fr" href="/fr/"></head></html>`},
	})
	res, err := Discover(context.Background(), client(t, false), s.URL+"/", sniff)
	if !errors.Is(err, ErrNoFeed) {
		t.Fatalf("err = %v, want ErrNoFeed", err)
	}
	wantTried := []string{s.URL + "/"}
	for _, p := range wellKnownPaths() {
		wantTried = append(wantTried, s.URL+p)
	}
	if !reflect.DeepEqual(res.Tried, wantTried) {
		t.Fatalf("tried %v", res.Tried)
	}
	want := "discover: no feed found at " + s.URL + "/ (tried: " + strings.Join(wantTried, ", ") + ")"
	if err.Error() != want {
		t.Fatalf("err text:\n got %q\nwant %q", err, want)
	}
}

func TestDiscoverFetchFailures(t *testing.T) {
	s := newSite(t, map[string]page{})
	_, err := Discover(context.Background(), client(t, false), s.URL+"/missing", sniff)
	var se *fetch.StatusError
	if !errors.As(err, &se) || se.Code != 404 || !strings.HasPrefix(err.Error(), "discover: ") {
		t.Fatalf("404 page: %v", err)
	}
	_, err = Discover(context.Background(), client(t, true), s.URL+"/", sniff)
	var pe *fetch.PrivateAddressError
	if !errors.As(err, &pe) {
		t.Fatalf("guarded: %v", err)
	}
	if got := s.requested(); len(got) != 1 {
		t.Fatalf("requests %v: the guarded attempt must not arrive", got)
	}
	if _, err := Discover(context.Background(), client(t, false), "ftp://x/", sniff); err == nil {
		t.Fatal("ftp URL accepted")
	}
	if _, err := Discover(context.Background(), client(t, false), s.URL, nil); err == nil {
		t.Fatal("nil sniffer accepted")
	}
}

func TestNormalizeURL(t *testing.T) {
	cases := []struct{ in, want string }{
		{"https://example.org/feed", "https://example.org/feed"},
		{"  example.org/blog ", "https://example.org/blog"},
		{"example.org:8080/x", "https://example.org:8080/x"},
		{"HTTP://example.org/", "http://example.org/"},
		{"feed://example.org/rss", "http://example.org/rss"},
		{"feed:https://example.org/rss", "https://example.org/rss"},
		{"", ""},
		{"ftp://example.org/", ""},
		{"mailto:a@example.org", ""},
		{"javascript:alert(1)", ""},
		{"localhost:8080/feed", "https://localhost:8080/feed"},
		{"https://", ""},
	}
	for _, tc := range cases {
		got, err := normalizeURL(tc.in)
		if got != tc.want || (err != nil) != (tc.want == "") {
			t.Errorf("normalizeURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
}
