package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"testing"
)

func TestPostForm(t *testing.T) {
	var got url.Values
	var ctype, ua string
	srv, rec := newServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			t.Errorf("method = %s, want POST", r.Method)
		}
		ctype, ua = r.Header.Get("Content-Type"), r.Header.Get("User-Agent")
		if err := r.ParseForm(); err != nil {
			t.Error(err)
		}
		got = r.PostForm
		w.WriteHeader(http.StatusAccepted)
		_, _ = w.Write([]byte("queued"))
	}))
	form := url.Values{"hub.mode": {"subscribe"}, "hub.topic": {"https://example.org/feed"}}

	t.Run("private networks allowed", func(t *testing.T) {
		c := New(Options{AllowPrivateNetworks: true, UserAgent: "test-agent"})
		ans, err := c.PostForm(context.Background(), srv.URL+"/hub", form)
		if err != nil {
			t.Fatal(err)
		}
		if ans.StatusCode != http.StatusAccepted || ans.Body != "queued" {
			t.Fatalf("answer = %+v, want 202 queued", ans)
		}
		if got.Get("hub.mode") != "subscribe" || got.Get("hub.topic") != "https://example.org/feed" {
			t.Fatalf("form = %v", got)
		}
		if ctype != "application/x-www-form-urlencoded" || ua != "test-agent" {
			t.Fatalf("Content-Type %q, User-Agent %q", ctype, ua)
		}
	})

	// The guard applies to hubs as to feeds: nothing reaches the server.
	t.Run("private address refused", func(t *testing.T) {
		before := rec.requests.Load()
		c := New(Options{})
		_, err := c.PostForm(context.Background(), srv.URL+"/hub", form)
		var pa *PrivateAddressError
		if !errors.As(err, &pa) {
			t.Fatalf("err = %v, want a PrivateAddressError", err)
		}
		if rec.requests.Load() != before {
			t.Fatal("the refused POST reached the server")
		}
	})

	for _, bad := range []string{"ftp://example.org/hub", "https://user:pw@example.org/hub", "http://%zz"} {
		if _, err := New(Options{AllowPrivateNetworks: true}).PostForm(context.Background(), bad, form); err == nil {
			t.Errorf("PostForm(%q) succeeded, want refused", bad)
		}
	}
}
