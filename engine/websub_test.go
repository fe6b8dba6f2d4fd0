package engine

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/engine/websub"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// testHub plays a WebSub hub: it records requests and answers a
// (un)subscription by verifying intent (or denying) at the callback.
type testHub struct {
	t       testing.TB
	srv     *httptest.Server
	mu      sync.Mutex
	forms   []url.Values
	lease   int    // hub.lease_seconds it grants
	deny    bool   // deny instead of verifying
	echoed  string // what the last verification got back
	checked int    // HTTP status of the last verification
}

func newTestHub(t testing.TB) *testHub {
	h := &testHub{t: t, lease: 3600}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	return h
}

func (h *testHub) serve(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	h.mu.Lock()
	h.forms = append(h.forms, r.PostForm)
	deny, lease := h.deny, h.lease
	h.mu.Unlock()
	q := url.Values{"hub.topic": {r.PostForm.Get("hub.topic")}}
	if deny {
		q.Set("hub.mode", websub.ModeDenied)
		q.Set("hub.reason", "not allowed")
	} else {
		q.Set("hub.mode", r.PostForm.Get("hub.mode"))
		q.Set("hub.challenge", "challenge-"+fmt.Sprint(len(h.requests())))
		q.Set("hub.lease_seconds", fmt.Sprint(lease))
	}
	// Verifying before answering is allowed (§5.3 may run at any time).
	resp, err := http.Get(r.PostForm.Get("hub.callback") + "?" + q.Encode())
	if err != nil {
		h.t.Errorf("hub: verification: %v", err)
		return
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	h.mu.Lock()
	h.echoed, h.checked = string(body), resp.StatusCode
	h.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

// last returns what the last verification got back, and its status.
func (h *testHub) last() (string, int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.echoed, h.checked
}

func (h *testHub) requests() []url.Values {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]url.Values(nil), h.forms...)
}

func lastStatus(h *testHub) int {
	_, status := h.last()
	return status
}

// webSubFeed serves an RSS feed of items 1..n announcing hub.
func webSubFeed(t testing.TB, hub string, n *int, mu *sync.Mutex) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		items := *n
		mu.Unlock()
		w.Header().Set("Content-Type", "application/rss+xml")
		_, _ = io.WriteString(w, rssWithHub(srv.URL+"/feed.xml", hub, items))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func rssWithHub(self, hub string, items int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Pushed</title><link>http://example.org/</link><atom:link rel="self" href="%s"/><atom:link rel="hub" href="%s"/>`, self, hub)
	for i := items; i >= 1; i-- {
		fmt.Fprintf(&b, `<item><title>Item %d</title><guid>%s#%d</guid><pubDate>%s</pubDate></item>`, i, self, i, itemDate(i).Format(time.RFC1123Z))
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

// push sends body to callback signed with secret (or with sig when set).
func push(t testing.TB, callback, secret, sig, body string) int {
	t.Helper()
	if sig == "" {
		sig = websub.Sign("sha256", []byte(body), secret)
	}
	req, _ := http.NewRequest(http.MethodPost, callback, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/rss+xml")
	req.Header.Set("X-Hub-Signature", sig)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

func mustWebSub(t testing.TB, st *storage.Store, feedID int64) storage.WebSubSubscription {
	t.Helper()
	s, err := st.WebSubByFeed(context.Background(), feedID)
	if err != nil {
		t.Fatalf("WebSubByFeed(%d): %v", feedID, err)
	}
	return s
}

// TestWebSubLifecycle: subscribe → verification → signed pushes import
// and queue exactly once (entries already polled queue nothing, the poll
// schedule and validators stay) → a bad signature is dropped → renewal at
// 90 % of the lease → unsubscribe once the feed is gone.
func TestWebSubLifecycle(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, dbURL string) {
		st := storagetest.Open(t, dbURL)
		clk := newClock()
		hub := newTestHub(t)
		var mu sync.Mutex
		items := 2
		feedSrv := webSubFeed(t, hub.srv.URL, &items, &mu)
		feedURL := feedSrv.URL + "/feed.xml"
		e := newTestEngine(t, st, clk, nil)
		ws := NewWebSub(e, WebSubOptions{PublicURL: "http://placeholder", MaxBytes: 1 << 20})
		cb := httptest.NewServer(http.StripPrefix("/websub/", ws.Handler()))
		t.Cleanup(cb.Close)
		ws.opts.PublicURL = cb.URL

		subscribeAll(t, e, 1, feedURL)
		mustTick(t, e) // the first poll stores items 1-2 as seen and learns the hub
		f := mustFeedByURL(t, st, feedURL)
		if f.HubURL != hub.srv.URL || f.SelfURL != feedURL {
			t.Fatalf("feed hub %q self %q; want them from the feed", f.HubURL, f.SelfURL)
		}

		if err := ws.Maintain(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		reqs := hub.requests()
		if len(reqs) != 1 || reqs[0].Get("hub.mode") != "subscribe" || reqs[0].Get("hub.topic") != feedURL ||
			reqs[0].Get("hub.lease_seconds") != "864000" || reqs[0].Get("hub.secret") == "" ||
			!strings.HasPrefix(reqs[0].Get("hub.callback"), cb.URL+"/websub/") {
			t.Fatalf("hub requests = %v; want one subscribe for the feed", reqs)
		}
		if echoed, checked := hub.last(); checked != http.StatusOK || echoed != "challenge-1" {
			t.Fatalf("verification answered %d %q; want the challenge echoed", checked, echoed)
		}
		sub := mustWebSub(t, st, f.ID)
		if sub.State != storage.WebSubActive || sub.LeaseSeconds != 3600 || !sub.ExpiresAt.Equal(clk.Now().Add(time.Hour)) {
			t.Fatalf("subscription = %+v; want active with the hub's lease", sub)
		}
		if err := ws.Maintain(ctxT(t)); err != nil || len(hub.requests()) != 1 {
			t.Fatalf("Maintain again = %v, %d hub requests; want no new request", err, len(hub.requests()))
		}

		callback := reqs[0].Get("hub.callback")
		body := rssWithHub(feedURL, hub.srv.URL, 3) // item 3 is new
		if got := push(t, callback, sub.Secret, "", body); got != http.StatusNoContent {
			t.Fatalf("signed push = %d, want 204", got)
		}
		if n := outboxCount(t, st); n != 1 {
			t.Fatalf("outbox after the push = %d rows; want item 3 queued once", n)
		}
		if got := push(t, callback, sub.Secret, "", body); got != http.StatusNoContent || outboxCount(t, st) != 1 {
			t.Fatalf("repeated push = %d, outbox %d; want nothing more queued", got, outboxCount(t, st))
		}
		if after := mustFeedByURL(t, st, feedURL); after != f {
			t.Fatalf("feed after pushes = %+v; want schedule and validators untouched %+v", after, f)
		}
		// A poll listing what the push brought queues nothing again.
		mu.Lock()
		items = 3
		mu.Unlock()
		clk.advance(11 * time.Minute)
		if sum := mustTick(t, e); sum.Feeds != 1 || sum.Queued != 0 || outboxCount(t, st) != 1 {
			t.Fatalf("poll after the push = %+v, outbox %d; want nothing queued twice", sum, outboxCount(t, st))
		}

		forged := rssWithHub(feedURL, hub.srv.URL, 4)
		if got := push(t, callback, sub.Secret, websub.Sign("sha256", []byte(forged), "guess"), forged); got != http.StatusAccepted {
			t.Fatalf("forged push = %d, want 202 (acknowledged and dropped)", got)
		}
		if n, err := st.CountEntries(ctxT(t), f.ID); err != nil || n != 3 || outboxCount(t, st) != 1 {
			t.Fatalf("after a forged push: %d entries (%v), outbox %d; want it ignored", n, err, outboxCount(t, st))
		}
		if got := push(t, cb.URL+"/websub/unknown", sub.Secret, "", body); got != http.StatusNotFound {
			t.Fatalf("push to an unknown token = %d, want 404", got)
		}

		// Renewal at 90 % of the lease, with the same callback.
		clk.advance(sub.VerifiedAt.Add(54*time.Minute).Sub(clk.Now()) - time.Second)
		if err := ws.Maintain(ctxT(t)); err != nil || len(hub.requests()) != 1 {
			t.Fatalf("Maintain before 90 %% = %v, %d hub requests; want none new", err, len(hub.requests()))
		}
		clk.advance(time.Second)
		if err := ws.Maintain(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		reqs = hub.requests()
		if len(reqs) != 2 || reqs[1].Get("hub.mode") != "subscribe" || reqs[1].Get("hub.callback") != callback {
			t.Fatalf("hub requests = %v; want a renewal on the same callback", reqs)
		}
		if renewed := mustWebSub(t, st, f.ID); !renewed.VerifiedAt.Equal(clk.Now()) || renewed.State != storage.WebSubActive {
			t.Fatalf("after renewal: %+v; want verified now", renewed)
		}

		// The feed goes: the hub is told, and the row goes once it confirms.
		if err := st.DeleteFeed(ctxT(t), f.ID); err != nil {
			t.Fatal(err)
		}
		if err := ws.Maintain(ctxT(t)); err != nil {
			t.Fatal(err)
		}
		reqs = hub.requests()
		if len(reqs) != 3 || reqs[2].Get("hub.mode") != "unsubscribe" || reqs[2].Get("hub.callback") != callback || lastStatus(hub) != http.StatusOK {
			t.Fatalf("hub requests = %v (last verification %d); want a verified unsubscribe", reqs, lastStatus(hub))
		}
		if all, err := st.ListWebSubs(ctxT(t)); err != nil || len(all) != 0 {
			t.Fatalf("subscriptions after unsubscribing = %+v, %v; want none", all, err)
		}
	})
}

// hubFeed creates a subscribed feed announcing hub without polling it.
func hubFeed(t *testing.T, e *Engine, feedURL, hub string) storage.Feed {
	t.Helper()
	subscribeAll(t, e, 1, feedURL)
	f := mustFeedByURL(t, e.store, feedURL)
	f.HubURL = hub
	if err := e.store.SaveFeed(ctxT(t), f); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestWebSubDenied(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	hub := newTestHub(t)
	hub.deny = true
	e := newTestEngine(t, st, clk, nil)
	ws := NewWebSub(e, WebSubOptions{})
	cb := httptest.NewServer(http.StripPrefix("/websub/", ws.Handler()))
	t.Cleanup(cb.Close)
	ws.opts.PublicURL = cb.URL
	f := hubFeed(t, e, "http://feeds.example/denied.xml", hub.srv.URL)

	if err := ws.Maintain(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	s := mustWebSub(t, st, f.ID)
	if s.State != storage.WebSubDenied || !strings.Contains(s.LastError, "not allowed") || lastStatus(hub) != http.StatusOK {
		t.Fatalf("after a denial: %+v (answered %d); want denied with the reason", s, lastStatus(hub))
	}
	// Asked again only after RetryAfter.
	clk.advance(websub.RetryAfter(storage.WebSubDenied) - time.Minute)
	_ = ws.Maintain(ctxT(t))
	if n := len(hub.requests()); n != 1 {
		t.Fatalf("%d hub requests before the retry time; want 1", n)
	}
	clk.advance(time.Minute)
	_ = ws.Maintain(ctxT(t))
	if n := len(hub.requests()); n != 2 {
		t.Fatalf("%d hub requests after the retry time; want 2", n)
	}
}

func TestWebSubPrivateHubRefused(t *testing.T) {
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow_private_networks=%v", allow), func(t *testing.T) {
			st := storagetest.Open(t, storagetest.SQLiteURL(t))
			clk := newClock()
			hub := newTestHub(t)
			log := slog.New(slog.NewTextHandler(io.Discard, nil))
			fetcher := fetch.New(fetch.Options{AllowPrivateNetworks: allow, Logger: log})
			t.Cleanup(fetcher.CloseIdleConnections)
			e := New(st, fetcher, Options{Schedule: testSchedule, Logger: log, Now: clk.Now})
			ws := NewWebSub(e, WebSubOptions{})
			cb := httptest.NewServer(http.StripPrefix("/websub/", ws.Handler()))
			t.Cleanup(cb.Close)
			ws.opts.PublicURL = cb.URL
			f := hubFeed(t, e, "http://feeds.example/private.xml", hub.srv.URL)

			if err := ws.Maintain(ctxT(t)); err != nil {
				t.Fatal(err)
			}
			s := mustWebSub(t, st, f.ID)
			if allow {
				if s.State != storage.WebSubActive || len(hub.requests()) != 1 {
					t.Fatalf("with private networks allowed: %+v, %d hub requests; want active", s, len(hub.requests()))
				}
				return
			}
			if s.State != storage.WebSubFailed || !strings.Contains(s.LastError, "private") || len(hub.requests()) != 0 {
				t.Fatalf("private hub: %+v, %d hub requests; want failed, nothing sent", s, len(hub.requests()))
			}
		})
	}
}

// TestWebSubPushBeforeFirstPoll: a push that arrives before the feed's
// first successful poll stores its entries as seen and queues nothing (no
// back catalogue); the first poll then queues nothing either.
func TestWebSubPushBeforeFirstPoll(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	hub := newTestHub(t)
	var mu sync.Mutex
	items := 2
	feedSrv := webSubFeed(t, hub.srv.URL, &items, &mu)
	feedURL := feedSrv.URL + "/feed.xml"
	e := newTestEngine(t, st, clk, nil)
	ws := NewWebSub(e, WebSubOptions{})
	cb := httptest.NewServer(http.StripPrefix("/websub/", ws.Handler()))
	t.Cleanup(cb.Close)
	ws.opts.PublicURL = cb.URL
	f := hubFeed(t, e, feedURL, hub.srv.URL)
	if err := ws.Maintain(ctxT(t)); err != nil {
		t.Fatal(err)
	}
	sub := mustWebSub(t, st, f.ID)
	body := rssWithHub(feedURL, hub.srv.URL, 2)
	if got := push(t, hub.requests()[0].Get("hub.callback"), sub.Secret, "", body); got != http.StatusNoContent {
		t.Fatalf("push = %d, want 204", got)
	}
	if n, err := st.CountEntries(ctxT(t), f.ID); err != nil || n != 2 || outboxCount(t, st) != 0 {
		t.Fatalf("after an early push: %d entries (%v), outbox %d; want 2 stored as seen, none queued", n, err, outboxCount(t, st))
	}
	if sum := mustTick(t, e); sum.Feeds != 1 || sum.Queued != 0 {
		t.Fatalf("first poll = %+v; want it to run and queue nothing", sum)
	}
	// A body that is no feed is acknowledged and dropped.
	if got := push(t, hub.requests()[0].Get("hub.callback"), sub.Secret, "", "not a feed"); got != http.StatusAccepted {
		t.Fatalf("unparsable push = %d, want 202", got)
	}
}

// TestWebSubRun: Run does nothing without a public URL, and with one it
// maintains subscriptions until its context ends.
func TestWebSubRun(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	hub := newTestHub(t)
	e := newTestEngine(t, st, clk, nil)
	hubFeed(t, e, "http://feeds.example/run.xml", hub.srv.URL)

	off := NewWebSub(e, WebSubOptions{})
	if off.Enabled() {
		t.Fatal("a WebSub without a public URL says it is enabled")
	}
	if err := off.Run(ctxT(t)); err != nil || len(hub.requests()) != 0 {
		t.Fatalf("disabled Run = %v with %d hub requests; want nil and none", err, len(hub.requests()))
	}

	ws := NewWebSub(e, WebSubOptions{Interval: time.Hour})
	cb := httptest.NewServer(http.StripPrefix("/websub/", ws.Handler()))
	t.Cleanup(cb.Close)
	ws.opts.PublicURL = cb.URL
	ctx, cancel := context.WithCancel(ctxT(t))
	done := make(chan error, 1)
	go func() { done <- ws.Run(ctx) }()
	// Wait for the hub to finish verifying, not only to be asked: the
	// callback server must outlive that request.
	for _, status := hub.last(); status == 0; _, status = hub.last() {
		select {
		case err := <-done:
			t.Fatalf("Run returned %v before maintaining anything", err)
		case <-time.After(5 * time.Millisecond):
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run = %v after cancel; want nil", err)
	}
}
