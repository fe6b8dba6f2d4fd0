package fetch

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// Validators round-trip: a 200 reports ETag and Last-Modified, sending them
// back yields 304 "not modified" with no body, and Fresh drops them.
func TestValidatorsRoundTrip(t *testing.T) {
	const etag, lastMod = `"v1"`, "Tue, 03 Mar 2026 10:00:00 GMT"
	srv, rec := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("If-None-Match") == etag && r.Header.Get("If-Modified-Since") == lastMod {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lastMod)
		w.Header().Set("Content-Type", "application/rss+xml")
		_, _ = w.Write([]byte("<rss/>"))
	}))
	c := newClient(t, Options{}, false)
	ctx := context.Background()

	first := c.Fetch(ctx, Request{URL: srv.URL + "/feed"})
	if first.Outcome != OK || first.Err != nil || string(first.Body) != "<rss/>" {
		t.Fatalf("first fetch: %v %v %q", first.Outcome, first.Err, first.Body)
	}
	if first.ETag != etag || first.LastModified != lastMod || first.ContentType != "application/rss+xml" {
		t.Fatalf("validators not reported: %q %q %q", first.ETag, first.LastModified, first.ContentType)
	}

	second := c.Fetch(ctx, Request{URL: srv.URL + "/feed", ETag: first.ETag, LastModified: first.LastModified})
	if second.Outcome != NotModified || second.Err != nil || second.Body != nil || second.StatusCode != 304 {
		t.Fatalf("conditional fetch: %v %v %q", second.Outcome, second.Err, second.Body)
	}

	fresh := c.Fetch(ctx, Request{URL: srv.URL + "/feed", ETag: etag, LastModified: lastMod, Fresh: true})
	if fresh.Outcome != OK {
		t.Fatalf("fresh fetch: %v %v", fresh.Outcome, fresh.Err)
	}
	if r := rec.lastRequest(); r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
		t.Fatalf("fresh request carried validators: %v", r.Header)
	}
}

func TestRequestHeaders(t *testing.T) {
	srv, rec := newServer(t, text("text/plain", "x"))
	c := newClient(t, Options{UserAgent: "rssbot/1.2 (+https://example.org)"}, false)
	ctx := context.Background()

	c.Fetch(ctx, Request{URL: srv.URL})
	h := rec.lastRequest().Header
	if got := h.Get("User-Agent"); got != "rssbot/1.2 (+https://example.org)" {
		t.Errorf("User-Agent = %q", got)
	}
	wantAccept := "application/rss+xml, application/atom+xml, application/feed+json, application/json, " +
		"text/calendar, application/xml, text/xml, text/html;q=0.8, */*;q=0.5"
	if got := h.Get("Accept"); got != wantAccept {
		t.Errorf("Accept = %q", got)
	}
	if got := h.Get("Accept-Encoding"); got != "gzip, br" {
		t.Errorf("Accept-Encoding = %q", got)
	}

	// Per-feed User-Agent and extra headers; managed headers stay ours.
	c.Fetch(ctx, Request{URL: srv.URL, UserAgent: "Mozilla/5.0 feedreader", Headers: map[string]string{
		"cookie": "session=abc", "Accept-Encoding": "zstd", "X-Api-Key": "k",
	}})
	h = rec.lastRequest().Header
	if h.Get("User-Agent") != "Mozilla/5.0 feedreader" || h.Get("Cookie") != "session=abc" || h.Get("X-Api-Key") != "k" {
		t.Errorf("per-feed headers not sent: %v", h)
	}
	if h.Get("Accept-Encoding") != "gzip, br" {
		t.Errorf("extra header overrode Accept-Encoding: %q", h.Get("Accept-Encoding"))
	}

	c.Fetch(ctx, Request{URL: srv.URL, Media: true})
	if got := rec.lastRequest().Header.Get("Accept"); got != "*/*" {
		t.Errorf("media Accept = %q", got)
	}

	newClient(t, Options{}, false).Fetch(ctx, Request{URL: srv.URL})
	if got := rec.lastRequest().Header.Get("User-Agent"); got != DefaultUserAgent {
		t.Errorf("default User-Agent = %q", got)
	}
}

func TestStatusOutcomes(t *testing.T) {
	cases := []struct {
		code    int
		outcome Outcome
		err     string
	}{
		{200, OK, ""},
		{204, OK, ""},
		{304, NotModified, ""},
		{400, ClientError, "fetch: HTTP 400 Bad Request"},
		{401, ClientError, "fetch: HTTP 401 Unauthorized"},
		{404, NotFound, "fetch: HTTP 404 Not Found"},
		{410, Gone, "fetch: HTTP 410 Gone"},
		{429, RateLimited, "fetch: HTTP 429 Too Many Requests"},
		{500, ServerError, "fetch: HTTP 500 Internal Server Error"},
		{502, ServerError, "fetch: HTTP 502 Bad Gateway"},
		{503, RateLimited, "fetch: HTTP 503 Service Unavailable"},
		{599, ServerError, "fetch: HTTP 599"},
		{301, ServerError, "fetch: HTTP 301 Moved Permanently without a usable Location"},
	}
	c := newClient(t, Options{}, false)
	for _, tc := range cases {
		srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(tc.code)
		}))
		res := c.Fetch(context.Background(), Request{URL: srv.URL})
		if res.Outcome != tc.outcome || res.StatusCode != tc.code {
			t.Errorf("HTTP %d: outcome %v status %d, want %v", tc.code, res.Outcome, res.StatusCode, tc.outcome)
		}
		if (res.Err == nil) != (tc.err == "") || (res.Err != nil && res.Err.Error() != tc.err) {
			t.Errorf("HTTP %d: err %v, want %q", tc.code, res.Err, tc.err)
		}
		var se *StatusError
		if tc.err != "" && (!errors.As(res.Err, &se) || se.Code != tc.code) {
			t.Errorf("HTTP %d: err is not a *StatusError with the code", tc.code)
		}
	}
}

func TestResponseHints(t *testing.T) {
	now := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	srv, _ := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/429":
			w.Header().Set("Retry-After", "120")
			w.WriteHeader(http.StatusTooManyRequests)
		case "/503":
			w.Header().Set("Retry-After", now.Add(90*time.Second).Format(http.TimeFormat))
			w.WriteHeader(http.StatusServiceUnavailable)
		default:
			w.Header().Add("Cache-Control", "public")
			w.Header().Add("Cache-Control", "max-age=3600")
			w.Header().Set("Link", `</hub>; rel="hub", <https://example.org/feed>; rel=self; type="application/atom+xml"`)
			_, _ = w.Write([]byte("<feed/>"))
		}
	}))
	c := newClient(t, Options{}, false)
	c.now = func() time.Time { return now }
	ctx := context.Background()

	res := c.Fetch(ctx, Request{URL: srv.URL + "/429"})
	if res.Outcome != RateLimited || !res.HasRetryAfter || res.RetryAfter != 120*time.Second {
		t.Errorf("429: %v %v %v", res.Outcome, res.HasRetryAfter, res.RetryAfter)
	}
	res = c.Fetch(ctx, Request{URL: srv.URL + "/503"})
	if res.Outcome != RateLimited || !res.HasRetryAfter || res.RetryAfter != 90*time.Second {
		t.Errorf("503: %v %v %v", res.Outcome, res.HasRetryAfter, res.RetryAfter)
	}
	res = c.Fetch(ctx, Request{URL: srv.URL + "/feed"})
	if !res.HasMaxAge || res.MaxAge != time.Hour {
		t.Errorf("max-age across header lines: %v %v", res.HasMaxAge, res.MaxAge)
	}
	want := []Link{
		{URL: srv.URL + "/hub", Rel: "hub"},
		{URL: "https://example.org/feed", Rel: "self", Type: "application/atom+xml"},
	}
	if len(res.Links) != 2 || res.Links[0] != want[0] || res.Links[1] != want[1] {
		t.Errorf("links = %+v, want %+v", res.Links, want)
	}
}

func TestInvalidTargets(t *testing.T) {
	c := newClient(t, Options{}, false)
	cases := []struct {
		url  string
		want error
	}{
		{"ftp://example.org/feed", ErrScheme},
		{"file:///etc/passwd", ErrScheme},
		{"javascript:alert(1)", ErrScheme},
		{"/relative/path", ErrScheme},
		{"http://[::1", nil},
	}
	for _, tc := range cases {
		res := c.Fetch(context.Background(), Request{URL: tc.url})
		if res.Outcome != Refused || res.Err == nil {
			t.Errorf("%q: %v %v, want refused", tc.url, res.Outcome, res.Err)
		}
		if tc.want != nil && !errors.Is(res.Err, tc.want) {
			t.Errorf("%q: err %v, want %v", tc.url, res.Err, tc.want)
		}
	}
}

func TestTimeoutAndCancel(t *testing.T) {
	srv, _ := newServer(t, http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	c := newClient(t, Options{Timeout: 150 * time.Millisecond}, false)
	res := c.Fetch(context.Background(), Request{URL: srv.URL})
	if res.Outcome != NetworkError || !errors.Is(res.Err, context.DeadlineExceeded) {
		t.Fatalf("timeout: %v %v", res.Outcome, res.Err)
	}
	if !strings.HasPrefix(res.Err.Error(), "fetch: timed out after 150ms: ") {
		t.Fatalf("timeout text = %q", res.Err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res = newClient(t, Options{}, false).Fetch(ctx, Request{URL: srv.URL})
	if res.Outcome != NetworkError || !errors.Is(res.Err, context.Canceled) {
		t.Fatalf("cancelled: %v %v", res.Outcome, res.Err)
	}
}

func TestNetworkError(t *testing.T) {
	srv, _ := newServer(t, text("text/plain", "x"))
	url := srv.URL
	srv.Close() // nothing listens there any more
	res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: url})
	if res.Outcome != NetworkError || res.Err == nil || !strings.HasPrefix(res.Err.Error(), "fetch: ") {
		t.Fatalf("closed port: %v %v", res.Outcome, res.Err)
	}
}

// Connections are kept alive and reused between fetches.
func TestKeepAlive(t *testing.T) {
	srv, rec := newServer(t, text("text/plain", "x"))
	c := newClient(t, Options{}, false)
	for range 3 {
		if res := c.Fetch(context.Background(), Request{URL: srv.URL}); res.Outcome != OK {
			t.Fatalf("fetch: %v %v", res.Outcome, res.Err)
		}
	}
	if n := rec.conns.Load(); n != 1 {
		t.Fatalf("%d connections for 3 sequential fetches, want 1", n)
	}
}

// The custom dialer must not cost HTTP/2.
func TestHTTP2(t *testing.T) {
	var proto atomic.Int32
	srv, _ := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		proto.Store(int32(r.ProtoMajor))
		_, _ = w.Write([]byte("two"))
	}), true)
	c := newClient(t, Options{}, false)
	trustTestCert(c, srv)
	res := c.Fetch(context.Background(), Request{URL: srv.URL})
	if res.Outcome != OK || proto.Load() != 2 {
		t.Fatalf("outcome %v err %v, server saw HTTP/%d", res.Outcome, res.Err, proto.Load())
	}
}

func TestOutcomeString(t *testing.T) {
	want := map[Outcome]string{
		OK: "ok", NotModified: "not_modified", RateLimited: "rate_limited", Gone: "gone",
		NotFound: "not_found", ClientError: "client_error", ServerError: "server_error",
		NetworkError: "network_error", Refused: "refused", 0: "unknown",
	}
	for o, s := range want {
		if o.String() != s {
			t.Errorf("Outcome(%d).String() = %q, want %q", int(o), o.String(), s)
		}
	}
}
