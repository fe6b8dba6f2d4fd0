package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// routes is a handler from a path to a redirect ("302 /b") or a final
// status ("200", "304", "404").
func routes(m map[string]string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		spec, ok := m[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		codeText, loc, _ := strings.Cut(spec, " ")
		code, _ := strconv.Atoi(codeText)
		if loc != "" {
			w.Header().Set("Location", loc)
		}
		w.WriteHeader(code)
		if code == http.StatusOK {
			_, _ = fmt.Fprintf(w, "body of %s", r.URL.Path)
		}
	}
}

// DESIGN.md: 301/308 store the new URL, 302/307 are followed (and 303,
// per the issue). The permanent URL is the end of the unbroken leading run
// of 301/308 and is reported only when the chain ends in 200 or 304.
func TestRedirects(t *testing.T) {
	cases := []struct {
		name      string
		routes    map[string]string
		outcome   Outcome
		final     string
		permanent string
	}{
		{"301", map[string]string{"/a": "301 /b", "/b": "200"}, OK, "/b", "/b"},
		{"308", map[string]string{"/a": "308 /b", "/b": "200"}, OK, "/b", "/b"},
		{"302", map[string]string{"/a": "302 /b", "/b": "200"}, OK, "/b", ""},
		{"303", map[string]string{"/a": "303 /b", "/b": "200"}, OK, "/b", ""},
		{"307", map[string]string{"/a": "307 /b", "/b": "200"}, OK, "/b", ""},
		{"run of 301 and 308", map[string]string{"/a": "301 /b", "/b": "308 /c", "/c": "200"}, OK, "/c", "/c"},
		{"run broken by 302", map[string]string{"/a": "301 /b", "/b": "302 /c", "/c": "301 /d", "/d": "200"}, OK, "/d", "/b"},
		{"302 first: no permanent URL", map[string]string{"/a": "302 /b", "/b": "301 /c", "/c": "200"}, OK, "/c", ""},
		{"301 then 304", map[string]string{"/a": "301 /b", "/b": "304"}, NotModified, "/b", "/b"},
		{"301 then 404", map[string]string{"/a": "301 /b", "/b": "404"}, NotFound, "/b", ""},
		{"301 then 410", map[string]string{"/a": "301 /b", "/b": "410"}, Gone, "/b", ""},
		{"relative location", map[string]string{"/a": "301 b", "/b": "200"}, OK, "/b", "/b"},
	}
	c := newClient(t, Options{}, false)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := newServer(t, routes(tc.routes))
			res := c.Fetch(context.Background(), Request{URL: srv.URL + "/a"})
			if res.Outcome != tc.outcome {
				t.Fatalf("outcome %v (%v), want %v", res.Outcome, res.Err, tc.outcome)
			}
			if res.FinalURL != srv.URL+tc.final {
				t.Errorf("FinalURL = %q, want %q", res.FinalURL, srv.URL+tc.final)
			}
			wantPermanent := ""
			if tc.permanent != "" {
				wantPermanent = srv.URL + tc.permanent
			}
			if res.PermanentURL != wantPermanent {
				t.Errorf("PermanentURL = %q, want %q", res.PermanentURL, wantPermanent)
			}
			if tc.outcome == OK && string(res.Body) != "body of "+tc.final {
				t.Errorf("body = %q", res.Body)
			}
		})
	}
}

func TestRedirectLoop(t *testing.T) {
	srv, rec := newServer(t, routes(map[string]string{"/a": "302 /b", "/b": "301 /c", "/c": "307 /a"}))
	res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL + "/a"})
	if res.Outcome != Refused || !errors.Is(res.Err, ErrRedirectLoop) || res.PermanentURL != "" {
		t.Fatalf("%v %v %q", res.Outcome, res.Err, res.PermanentURL)
	}
	if n := rec.requests.Load(); n != 3 {
		t.Fatalf("%d requests, want 3 (the loop is seen before re-requesting /a)", n)
	}
}

// At most MaxRedirects hops: a chain of exactly ten redirects succeeds,
// eleven is refused without an eleventh hop.
func TestRedirectLimit(t *testing.T) {
	chain := func(n int) map[string]string {
		m := map[string]string{fmt.Sprintf("/%d", n): "200"}
		for i := range n {
			m[fmt.Sprintf("/%d", i)] = fmt.Sprintf("302 /%d", i+1)
		}
		return m
	}
	c := newClient(t, Options{}, false)
	srv, rec := newServer(t, routes(chain(MaxRedirects)))
	if res := c.Fetch(context.Background(), Request{URL: srv.URL + "/0"}); res.Outcome != OK {
		t.Fatalf("%d redirects: %v %v", MaxRedirects, res.Outcome, res.Err)
	}
	if n := rec.requests.Load(); n != MaxRedirects+1 {
		t.Fatalf("%d requests, want %d", n, MaxRedirects+1)
	}

	srv, rec = newServer(t, routes(chain(MaxRedirects+1)))
	res := c.Fetch(context.Background(), Request{URL: srv.URL + "/0"})
	if res.Outcome != Refused || !errors.Is(res.Err, ErrTooManyRedirects) {
		t.Fatalf("%d redirects: %v %v", MaxRedirects+1, res.Outcome, res.Err)
	}
	if n := rec.requests.Load(); n != MaxRedirects+1 {
		t.Fatalf("%d requests, want %d: the last redirect is not followed", n, MaxRedirects+1)
	}
}

func TestRedirectToOtherSchemeRefused(t *testing.T) {
	for _, loc := range []string{"ftp://example.org/feed", "file:///etc/passwd", "gopher://x/"} {
		srv, _ := newServer(t, routes(map[string]string{"/a": "302 " + loc}))
		res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL + "/a"})
		if res.Outcome != Refused || !errors.Is(res.Err, ErrScheme) {
			t.Errorf("to %s: %v %v", loc, res.Outcome, res.Err)
		}
	}
}

func TestNoRedirects(t *testing.T) {
	srv, rec := newServer(t, routes(map[string]string{"/feed": "301 /feed/", "/feed/": "200"}))
	res := newClient(t, Options{}, false).Fetch(context.Background(), Request{URL: srv.URL + "/feed", NoRedirects: true})
	if res.Outcome != Refused || !errors.Is(res.Err, ErrRedirectNotFollowed) || res.StatusCode != 301 {
		t.Fatalf("%v %v %d", res.Outcome, res.Err, res.StatusCode)
	}
	if n := rec.requests.Load(); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}
