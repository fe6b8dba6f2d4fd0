package fetch

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

func TestCredentialsSentToOrigin(t *testing.T) {
	srv, rec := newTLSServer(t, text("application/atom+xml", "<feed/>"), false)
	c := newClient(t, Options{}, false)
	trustTestCert(c, srv)
	cases := []struct {
		name  string
		url   string
		creds *Credentials
		want  string
	}{
		{"basic", srv.URL, &Credentials{Username: "ann", Password: "s3cret"}, "Basic YW5uOnMzY3JldA=="},
		{"bearer", srv.URL, &Credentials{BearerToken: "tok"}, "Bearer tok"},
		{"bearer wins", srv.URL, &Credentials{Username: "ann", Password: "x", BearerToken: "tok"}, "Bearer tok"},
		{"userinfo in URL", strings.Replace(srv.URL, "https://", "https://ann:s3cret@", 1), nil, "Basic YW5uOnMzY3JldA=="},
	}
	for _, tc := range cases {
		res := c.Fetch(context.Background(), Request{URL: tc.url, Credentials: tc.creds})
		if res.Outcome != OK {
			t.Fatalf("%s: %v %v", tc.name, res.Outcome, res.Err)
		}
		if got := rec.lastRequest().Header.Get("Authorization"); got != tc.want {
			t.Errorf("%s: Authorization = %q, want %q", tc.name, got, tc.want)
		}
		if strings.Contains(res.FinalURL, "s3cret") {
			t.Errorf("%s: FinalURL leaks the password: %s", tc.name, res.FinalURL)
		}
	}
}

// Credentials are sent only over https: asking for them on plain http is
// refused before anything is sent.
func TestCredentialsRefusedOverHTTP(t *testing.T) {
	srv, rec := newServer(t, text("text/plain", "x"))
	c := newClient(t, Options{}, false)
	for _, req := range []Request{
		{URL: srv.URL, Credentials: &Credentials{Username: "ann", Password: "s3cret"}},
		{URL: srv.URL, Credentials: &Credentials{BearerToken: "s3cret"}},
		{URL: strings.Replace(srv.URL, "http://", "http://ann:s3cret@", 1)},
	} {
		res := c.Fetch(context.Background(), req)
		if res.Outcome != Refused || !errors.Is(res.Err, ErrCredentialsOverHTTP) {
			t.Errorf("%v %v, want refused", res.Outcome, res.Err)
		}
		if res.Err != nil && strings.Contains(res.Err.Error(), "s3cret") {
			t.Errorf("error text leaks the secret: %v", res.Err)
		}
	}
	if n := rec.requests.Load(); n != 0 {
		t.Fatalf("server saw %d requests, want none", n)
	}
}

// Credentials and per-feed headers go only to the requested origin; after a
// hop to another origin they are gone for the rest of the chain, even when
// it comes back. Same-origin redirects keep them.
func TestCredentialsDroppedAcrossOrigins(t *testing.T) {
	var home *httptest.Server
	other, otherRec := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, home.URL+"/back", http.StatusFound)
	}), false)
	type seen struct{ auth, cookie string }
	var mu sync.Mutex
	got := map[string]seen{}
	home, _ = newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got[r.URL.Path] = seen{r.Header.Get("Authorization"), r.Header.Get("Cookie")}
		mu.Unlock()
		switch r.URL.Path {
		case "/start":
			http.Redirect(w, r, "/same-origin", http.StatusMovedPermanently)
		case "/same-origin":
			http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
		default:
			_, _ = w.Write([]byte("<rss/>"))
		}
	}), false)
	c := newClient(t, Options{}, false)
	trustTestCert(c, home)
	res := c.Fetch(context.Background(), Request{
		URL:         home.URL + "/start",
		Credentials: &Credentials{Username: "ann", Password: "s3cret"},
		Headers:     map[string]string{"Cookie": "session=xyz"},
	})
	if res.Outcome != OK {
		t.Fatalf("%v %v", res.Outcome, res.Err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, path := range []string{"/start", "/same-origin"} {
		if got[path].auth == "" || got[path].cookie != "session=xyz" {
			t.Errorf("%s (same origin) did not get credentials and headers: %+v", path, got[path])
		}
	}
	if r := otherRec.lastRequest(); r.Header.Get("Authorization") != "" || r.Header.Get("Cookie") != "" {
		t.Errorf("other origin got secrets: %v", r.Header)
	}
	if got["/back"].auth != "" || got["/back"].cookie != "" {
		t.Errorf("credentials came back after leaving the origin: %+v", got["/back"])
	}
}

// Secrets never reach logs or error texts, on success or failure.
func TestSecretsNeverLoggedOrInErrors(t *testing.T) {
	var logs bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	srv, _ := newTLSServer(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
	}), false)
	c := newClient(t, Options{Logger: logger}, false)
	trustTestCert(c, srv)
	dead := httptest.NewTLSServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()

	reqs := []Request{
		{URL: srv.URL, Credentials: &Credentials{Username: "ann", Password: "pw-s3cret"}, Headers: map[string]string{"Cookie": "ck-s3cret"}},
		{URL: deadURL, Credentials: &Credentials{BearerToken: "tok-s3cret"}},
		{URL: strings.Replace(deadURL, "https://", "https://ann:url-s3cret@", 1)},
		{URL: "https://ann:url-s3cret@[::1"},
	}
	for _, req := range reqs {
		res := c.Fetch(context.Background(), req)
		if res.Err == nil {
			t.Fatalf("expected a failure for %v", res.Outcome)
		}
		if strings.Contains(res.Err.Error(), "s3cret") {
			t.Errorf("error leaks a secret: %v", res.Err)
		}
	}
	if logs.Len() == 0 {
		t.Fatal("nothing was logged at debug level; the check below would be empty")
	}
	if strings.Contains(logs.String(), "s3cret") {
		t.Errorf("log leaks a secret:\n%s", logs.String())
	}
	if s := (Credentials{Password: "pw-s3cret"}); strings.Contains(s.String(), "s3cret") {
		t.Error("Credentials.String leaks")
	}
}
