package websub

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// TestValidSignature checks WebSub §8: X-Hub-Signature is method=HMAC(body)
// hex with sha1, sha256, sha384 or sha512; anything else is invalid.
func TestValidSignature(t *testing.T) {
	body := []byte("<feed/>")
	tests := []struct {
		name, header, secret string
		want                 bool
	}{
		{"sha1", Sign("sha1", body, "k"), "k", true},
		{"sha256", Sign("sha256", body, "k"), "k", true},
		{"sha384", Sign("sha384", body, "k"), "k", true},
		{"sha512", Sign("sha512", body, "k"), "k", true},
		{"method in capitals", "SHA256" + strings.TrimPrefix(Sign("sha256", body, "k"), "sha256"), "k", true},
		{"wrong secret", Sign("sha256", body, "k"), "other", false},
		{"missing", "", "k", false},
		{"unknown method", "md5=" + strings.TrimPrefix(Sign("sha1", body, "k"), "sha1="), "k", false},
		{"not hex", "sha1=zz", "k", false},
		{"no secret", Sign("sha1", body, ""), "", false},
	}
	for _, tt := range tests {
		if got := ValidSignature(tt.header, body, tt.secret); got != tt.want {
			t.Errorf("%s: ValidSignature(%q) = %v, want %v", tt.name, tt.header, got, tt.want)
		}
	}
	if ValidSignature(Sign("sha256", body, "k"), []byte("<feed>changed</feed>"), "k") {
		t.Error("a signature matched a changed body")
	}
}

// TestExpects checks §5.3: only a request the subscriber is waiting for is
// confirmed.
func TestExpects(t *testing.T) {
	tests := []struct {
		state, mode string
		want        bool
	}{
		{storage.WebSubPending, ModeSubscribe, true},
		{storage.WebSubActive, ModeSubscribe, true}, // renewal
		{storage.WebSubUnsubscribing, ModeSubscribe, false},
		{storage.WebSubDenied, ModeSubscribe, false},
		{storage.WebSubUnsubscribing, ModeUnsubscribe, true},
		{storage.WebSubActive, ModeUnsubscribe, false},
		{storage.WebSubPending, ModeDenied, true},
		{storage.WebSubFailed, ModeDenied, false},
		{storage.WebSubPending, "bogus", false},
	}
	for _, tt := range tests {
		if got := Expects(tt.state, tt.mode); got != tt.want {
			t.Errorf("Expects(%s, %s) = %v, want %v", tt.state, tt.mode, got, tt.want)
		}
	}
}

func TestFormAndRenewal(t *testing.T) {
	f := Form(ModeSubscribe, "https://t/", "https://cb/websub/x", "sec", 240*time.Hour)
	if f.Get("hub.lease_seconds") != "864000" || f.Get("hub.secret") != "sec" || f.Get("hub.callback") != "https://cb/websub/x" {
		t.Errorf("subscribe form = %v", f)
	}
	if u := Form(ModeUnsubscribe, "https://t/", "cb", "sec", time.Hour); u.Has("hub.secret") || u.Has("hub.lease_seconds") {
		t.Errorf("unsubscribe form carries a secret or lease: %v", u)
	}
	if got := CallbackURL("https://bot.example/base/", "tok"); got != "https://bot.example/base/websub/tok" {
		t.Errorf("CallbackURL = %q", got)
	}
	v := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := RenewAt(v, 100*time.Hour); !got.Equal(v.Add(90 * time.Hour)) {
		t.Errorf("RenewAt = %v, want 90 %% into the lease", got)
	}
	if a, b := NewToken(), NewToken(); a == b || len(a) != 32 {
		t.Errorf("NewToken = %q, %q; want distinct 128-bit hex tokens", a, b)
	}
}

// fakeBackend records what the handler passes on.
type fakeBackend struct {
	mu       sync.Mutex
	subs     map[string]storage.WebSubSubscription
	verified []string
	denied   []string
	pushes   []string
	pushErr  error
}

func (f *fakeBackend) Subscription(_ context.Context, token string) (storage.WebSubSubscription, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	s, ok := f.subs[token]
	if !ok {
		return s, fmt.Errorf("fake: %w", storage.ErrNotFound)
	}
	return s, nil
}

func (f *fakeBackend) Verified(_ context.Context, s storage.WebSubSubscription, mode string, lease time.Duration) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.verified = append(f.verified, fmt.Sprintf("%d:%s:%s", s.FeedID, mode, lease))
	return nil
}

func (f *fakeBackend) Denied(_ context.Context, s storage.WebSubSubscription, reason string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.denied = append(f.denied, fmt.Sprintf("%d:%s", s.FeedID, reason))
	return nil
}

func (f *fakeBackend) Push(_ context.Context, s storage.WebSubSubscription, body []byte, _ string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pushes = append(f.pushes, fmt.Sprintf("%d:%s", s.FeedID, body))
	return f.pushErr
}

func TestHandler(t *testing.T) {
	be := &fakeBackend{subs: map[string]storage.WebSubSubscription{
		"pend": {FeedID: 1, Topic: "https://t/1", Secret: "k1", State: storage.WebSubPending},
		"act":  {FeedID: 2, Topic: "https://t/2", Secret: "k2", State: storage.WebSubActive},
		"bye":  {FeedID: 3, Topic: "https://t/3", Secret: "k3", State: storage.WebSubUnsubscribing},
	}}
	srv := httptest.NewServer(http.StripPrefix("/websub/", NewHandler(be, 64, nil)))
	defer srv.Close()
	get := func(path string) (int, string) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(b)
	}
	post := func(token, sig, body string) int {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/websub/"+token, strings.NewReader(body))
		if sig != "" {
			req.Header.Set("X-Hub-Signature", sig)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}

	gets := []struct {
		name, path string
		status     int
		body       string
	}{
		{"unknown token", "/websub/nope?hub.mode=subscribe&hub.topic=https://t/1&hub.challenge=c", 404, ""},
		{"wrong topic", "/websub/pend?hub.mode=subscribe&hub.topic=https://t/9&hub.challenge=c", 404, ""},
		{"unasked mode", "/websub/pend?hub.mode=unsubscribe&hub.topic=https://t/1&hub.challenge=c", 404, ""},
		{"no challenge", "/websub/pend?hub.mode=subscribe&hub.topic=https://t/1", 400, ""},
		{"subscribe confirmed", "/websub/pend?hub.mode=subscribe&hub.topic=https://t/1&hub.challenge=abc&hub.lease_seconds=600", 200, "abc"},
		{"renewal confirmed", "/websub/act?hub.mode=subscribe&hub.topic=https://t/2&hub.challenge=xyz", 200, "xyz"},
		{"unsubscribe confirmed", "/websub/bye?hub.mode=unsubscribe&hub.topic=https://t/3&hub.challenge=q", 200, "q"},
		{"denial", "/websub/pend?hub.mode=denied&hub.topic=https://t/1&hub.reason=no", 200, ""},
	}
	for _, g := range gets {
		status, body := get(g.path)
		if status != g.status || (g.body != "" && body != g.body) {
			t.Errorf("%s: GET = %d %q, want %d %q", g.name, status, body, g.status, g.body)
		}
	}
	if got := strings.Join(be.verified, ","); got != "1:subscribe:10m0s,2:subscribe:0s,3:unsubscribe:0s" {
		t.Errorf("verified = %s", got)
	}
	if got := strings.Join(be.denied, ","); got != "1:no" {
		t.Errorf("denied = %s", got)
	}

	posts := []struct {
		name, token, sig, body string
		status                 int
	}{
		{"unknown token", "nope", Sign("sha1", []byte("x"), "k2"), "x", 404},
		{"no signature: acknowledged, dropped", "act", "", "a", 202},
		{"wrong signature: acknowledged, dropped", "act", Sign("sha256", []byte("b"), "other"), "b", 202},
		{"inactive subscription: dropped", "pend", Sign("sha256", []byte("c"), "k1"), "c", 202},
		{"too large", "act", Sign("sha256", []byte(strings.Repeat("d", 65)), "k2"), strings.Repeat("d", 65), 413},
		{"signed", "act", Sign("sha512", []byte("ok"), "k2"), "ok", 204},
	}
	for _, p := range posts {
		if got := post(p.token, p.sig, p.body); got != p.status {
			t.Errorf("%s: POST = %d, want %d", p.name, got, p.status)
		}
	}
	if got := strings.Join(be.pushes, ","); got != "2:ok" {
		t.Errorf("pushes = %s; want only the signed one", got)
	}
	be.pushErr = fmt.Errorf("parse: %w", ErrRejected)
	if got := post("act", Sign("sha1", []byte("bad"), "k2"), "bad"); got != 202 {
		t.Errorf("rejected push = %d, want 202", got)
	}
	be.pushErr = errors.New("database down")
	if got := post("act", Sign("sha1", []byte("later"), "k2"), "later"); got != 503 {
		t.Errorf("failed push = %d, want 503 so the hub retries", got)
	}
}
