package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// The rule: with the guard on, a fetch that would reach a private
// address is refused at dial time, names that address, and the server sees
// no connection and no request. Each case has a positive control with the
// guard off, proving the URL really reaches the server.
func TestGuardRefusesLoopbackTargets(t *testing.T) {
	cases := []struct {
		name     string
		url      func(*httptest.Server) string
		resolver bool
		refused  string
	}{
		{"ipv4 loopback", func(s *httptest.Server) string { return s.URL + "/" }, false, "127.0.0.1"},
		{"unspecified", func(s *httptest.Server) string { return hostPortURL(s, "0.0.0.0", "/") }, false, "0.0.0.0"},
		{"ipv4-mapped ipv6", func(s *httptest.Server) string { return hostPortURL(s, "::ffff:127.0.0.1", "/") }, false, "127.0.0.1"},
		{"name resolving to loopback", func(s *httptest.Server) string { return hostPortURL(s, "feeds.example.com", "/") }, true, "127.0.0.1"},
		{"localhost", func(s *httptest.Server) string { return hostPortURL(s, "localhost", "/") }, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			target, rec := newServer(t, text("text/plain", "hello"))
			opts := Options{}
			if tc.resolver {
				opts.Resolver = loopbackResolver()
			}
			c := newClient(t, opts, true)
			res := c.Fetch(context.Background(), Request{URL: tc.url(target)})
			assertRefusedPrivate(t, res, tc.refused)
			if n, m := rec.conns.Load(), rec.requests.Load(); n != 0 || m != 0 {
				t.Fatalf("server saw %d connections and %d requests; want none", n, m)
			}

			open := newClient(t, opts, false)
			res = open.Fetch(context.Background(), Request{URL: tc.url(target)})
			if res.Outcome != OK || string(res.Body) != "hello" {
				t.Fatalf("control with guard off: %v %v %q", res.Outcome, res.Err, res.Body)
			}
		})
	}
}

func TestGuardRefusesIPv6Loopback(t *testing.T) {
	ln, err := net.Listen("tcp", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback here: %v", err)
	}
	rec := &recorder{}
	srv := httptest.NewUnstartedServer(rec.wrap(text("text/plain", "six")))
	srv.Listener.Close()
	srv.Listener = ln
	srv.Config.ConnState = rec.connState
	srv.Start()
	defer srv.Close()

	res := newClient(t, Options{}, true).Fetch(context.Background(), Request{URL: srv.URL + "/"})
	assertRefusedPrivate(t, res, "::1")
	if n, m := rec.conns.Load(), rec.requests.Load(); n != 0 || m != 0 {
		t.Fatalf("server saw %d connections and %d requests; want none", n, m)
	}
	res = newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL + "/"})
	if res.Outcome != OK || string(res.Body) != "six" {
		t.Fatalf("control with guard off: %v %v", res.Outcome, res.Err)
	}
}

// A redirect is dialled like any first request, so the guard stops it: the
// first hop is admitted through the test seam, its redirect target is not.
func TestGuardRefusesRedirectToLoopback(t *testing.T) {
	for _, viaName := range []bool{false, true} {
		name := "ip"
		if viaName {
			name = "resolved name"
		}
		t.Run(name, func(t *testing.T) {
			target, targetRec := newServer(t, text("text/plain", "secret"))
			location := target.URL + "/admin"
			if viaName {
				location = hostPortURL(target, "internal.example.net", "/admin")
			}
			first, firstRec := newServer(t, http.RedirectHandler(location, http.StatusFound))

			c := newClient(t, Options{Resolver: loopbackResolver()}, true)
			allowOnly(c, first)
			res := c.Fetch(context.Background(), Request{URL: first.URL + "/feed"})
			assertRefusedPrivate(t, res, "127.0.0.1")
			if firstRec.requests.Load() != 1 {
				t.Fatalf("first hop saw %d requests, want 1", firstRec.requests.Load())
			}
			if n, m := targetRec.conns.Load(), targetRec.requests.Load(); n != 0 || m != 0 {
				t.Fatalf("redirect target saw %d connections and %d requests; want none", n, m)
			}
		})
	}
}

func assertRefusedPrivate(t *testing.T, res Result, addr string) {
	t.Helper()
	if res.Outcome != Refused {
		t.Fatalf("outcome = %v (%v), want refused", res.Outcome, res.Err)
	}
	var pe *PrivateAddressError
	if !errors.As(res.Err, &pe) {
		t.Fatalf("err = %v, want *PrivateAddressError", res.Err)
	}
	if addr != "" {
		if want := "fetch: refusing to connect to private address " + addr; res.Err.Error() != want {
			t.Fatalf("err = %q, want %q", res.Err, want)
		}
	}
}

// The proxy is a trusted hop: with the guard on, a request through a proxy
// on loopback goes out (the proxy reaches the target itself), while NO_PROXY
// sends the same request direct, where the guard applies again.
func TestGuardTrustsEnvironmentProxy(t *testing.T) {
	proxy, proxyRec := newServer(t, text("application/rss+xml", "<rss/>"))
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("HTTPS_PROXY", "")
	t.Setenv("NO_PROXY", "")
	c := newClient(t, Options{}, true)
	res := c.Fetch(context.Background(), Request{URL: "http://feeds.example.org/rss"})
	if res.Outcome != OK || string(res.Body) != "<rss/>" {
		t.Fatalf("through proxy: %v %v", res.Outcome, res.Err)
	}
	if r := proxyRec.lastRequest(); r == nil || r.URL.Host != "feeds.example.org" {
		t.Fatalf("proxy did not see the absolute-form request: %+v", r)
	}

	t.Setenv("NO_PROXY", "feeds.example.org")
	direct := newClient(t, Options{Resolver: loopbackResolver()}, true)
	res = direct.Fetch(context.Background(), Request{URL: hostPortURL(proxy, "feeds.example.org", "/rss")})
	assertRefusedPrivate(t, res, "127.0.0.1")
	if proxyRec.requests.Load() != 1 {
		t.Fatalf("proxy saw %d requests, want 1 (the NO_PROXY one must not reach it)", proxyRec.requests.Load())
	}
}

func TestProxyAddr(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", ""},
		{"http://proxy.corp:3128", "proxy.corp:3128"},
		{"http://Proxy.Corp", "proxy.corp:80"},
		{"https://proxy.corp", "proxy.corp:443"},
		{"socks5://127.0.0.1", "127.0.0.1:1080"},
		{"proxy.corp:8080", "proxy.corp:8080"}, // bare host:port means http
		{"http://user:pw@[::1]:3128", "[::1]:3128"},
	}
	for _, tc := range cases {
		if got := proxyAddr(tc.in); got != tc.want {
			t.Errorf("proxyAddr(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
