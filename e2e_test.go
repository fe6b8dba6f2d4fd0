package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/storage/storagetest"
)

const adminID = 4242

// feedServer serves one RSS feed whose items the test adds, and counts requests per path.
type feedServer struct {
	*httptest.Server
	mu       sync.Mutex
	items    []int
	requests map[string]int
}

func newFeedServer(t *testing.T, initial int) *feedServer {
	fs := &feedServer{requests: map[string]int{}}
	for i := 1; i <= initial; i++ {
		fs.items = append(fs.items, i)
	}
	fs.Server = httptest.NewServer(http.HandlerFunc(fs.serve))
	t.Cleanup(fs.Close)
	return fs
}

func (fs *feedServer) serve(w http.ResponseWriter, r *http.Request) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	fs.requests[r.URL.Path]++
	if r.URL.Path != "/feed.xml" {
		http.NotFound(w, r)
		return
	}
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Test &amp; Feed</title><link>https://example.org/</link>`)
	for i := len(fs.items) - 1; i >= 0; i-- { // newest first, as feeds do
		n := fs.items[i]
		fmt.Fprintf(&b, `<item><title>Entry %d &lt;x&gt;</title><link>https://example.org/%d</link><guid>urn:entry:%d</guid><pubDate>%s</pubDate><description>Body of entry %d</description></item>`,
			n, n, n, time.Date(2026, 1, 1, 0, n, 0, 0, time.UTC).Format(time.RFC1123Z), n)
	}
	b.WriteString(`</channel></rss>`)
	w.Header().Set("Content-Type", "application/rss+xml")
	w.Write([]byte(b.String()))
}

func (fs *feedServer) add(n int) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for range n {
		fs.items = append(fs.items, len(fs.items)+1)
	}
}

func (fs *feedServer) hits(path string) int {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.requests[path]
}

// startServe runs `rssbot serve` with the given settings until the returned
// stop function is called; stop returns the exit code.
func startServe(t *testing.T, settings map[string]string) (stop func() int, logs *syncBuffer) {
	ctx, cancel := context.WithCancel(context.Background())
	logs = &syncBuffer{}
	code := make(chan int, 1)
	dir := t.TempDir()
	go func() {
		code <- run(ctx, []string{"serve"}, env{getenv: func(k string) string { return settings[k] }, dir: dir, stdout: logs, stderr: logs})
	}()
	return func() int {
		cancel()
		select {
		case c := <-code:
			return c
		case <-time.After(15 * time.Second):
			t.Fatalf("serve did not stop within 15s; logs:\n%s", logs)
			return -1
		}
	}, logs
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(t *testing.T, timeout time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", timeout, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestEndToEnd runs the real bot against the fake Bot API and a feed server:
// subscribe; 3 new entries → exactly 3 posts; restart → nothing repeated; a
// non-admin's /sub → no reply, nothing stored.
func TestEndToEnd(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg := telegramtest.New(t)
		feeds := newFeedServer(t, 2)
		settings := map[string]string{
			"BOT_TOKEN":              tg.Token,
			"ADMIN_ID":               strconv.Itoa(adminID),
			"TELEGRAM_API_URL":       tg.URL,
			"DATABASE_URL":           databaseURL,
			"ALLOW_PRIVATE_NETWORKS": "true",
			"POLL_TICK":              "1s",
			"POLL_INTERVAL":          "1s",
			"POLL_INTERVAL_MAX":      "2s",
			"POLL_ADAPTIVE":          "false",
			"LOG_LEVEL":              "debug",
		}
		stop, logs := startServe(t, settings)
		defer func() {
			if t.Failed() {
				t.Logf("logs:\n%s", logs)
			}
		}()

		const stranger = 777
		tg.SendText(stranger, stranger, "/sub "+feeds.URL+"/stranger.xml")
		tg.SendText(adminID, adminID, "/sub "+feeds.URL+"/feed.xml")
		msgs := tg.WaitMessages(t, 1, 20*time.Second)
		if msgs[0].ChatID != adminID || !strings.Contains(msgs[0].Plain, "Subscribed to Test & Feed") {
			t.Fatalf("first message = %+v, want the subscription confirmation to the admin", msgs[0])
		}
		if !strings.Contains(msgs[0].Plain, "2 entries") {
			t.Errorf("confirmation does not say the 2 current entries count as seen: %q", msgs[0].Plain)
		}

		feeds.add(3)
		msgs = tg.WaitMessages(t, 4, 20*time.Second)
		for i, want := range []string{"Entry 3 <x>", "Entry 4 <x>", "Entry 5 <x>"} {
			m := msgs[1+i]
			if m.ChatID != adminID || !strings.HasPrefix(m.Plain, want) || m.ParseMode != "HTML" {
				t.Errorf("post %d = %q to %d (%s), want %q to the admin", i, m.Plain, m.ChatID, m.ParseMode, want)
			}
		}
		if code := stop(); code != 0 {
			t.Fatalf("serve exited %d", code)
		}

		// Restart: the feed is polled again and nothing is sent twice.
		before := feeds.hits("/feed.xml")
		stop, logs2 := startServe(t, settings)
		waitFor(t, 20*time.Second, "a poll after the restart", func() bool { return feeds.hits("/feed.xml") >= before+2 })
		time.Sleep(1500 * time.Millisecond) // one more sender round
		if code := stop(); code != 0 {
			t.Fatalf("serve exited %d after restart; logs:\n%s", code, logs2)
		}
		if got := tg.Messages(); len(got) != 4 {
			t.Errorf("after restart %d messages, want 4: %+v", len(got), got[4:])
		}
		if n := len(tg.MessagesTo(stranger)); n != 0 {
			t.Errorf("the stranger got %d replies", n)
		}
		if n := feeds.hits("/stranger.xml"); n != 0 {
			t.Errorf("the stranger's feed was fetched %d times", n)
		}
		store := storagetest.Open(t, databaseURL)
		if _, err := store.ChatByID(context.Background(), stranger); err == nil {
			t.Error("the stranger's chat was stored")
		}
		subs, err := store.AllSubscriptions(context.Background())
		if err != nil || len(subs) != 1 {
			t.Errorf("subscriptions = %d (%v), want only the admin's", len(subs), err)
		}
	})
}
