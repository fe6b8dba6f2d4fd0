package bot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

const testAdmin = 1001

const testFeed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Channel &lt;News&gt;</title>
<item><title>One</title><guid>urn:1</guid></item><item><title>Two</title><guid>urn:2</guid></item></channel></rss>`

// harness runs a Bot against the fake Bot API with a real store and engine.
type harness struct {
	tg   *telegramtest.Server
	feed string // URL of a working feed
	sent int    // messages seen so far
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	feeds := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/feed.xml" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		w.Write([]byte(testFeed))
	}))
	t.Cleanup(feeds.Close)
	store := storagetest.Open(t, storagetest.SQLiteURL(t))
	fetcher := fetch.New(fetch.Options{AllowPrivateNetworks: true})
	eng := engine.New(store, fetcher, engine.Options{AdminChatID: testAdmin})
	tg := telegramtest.New(t)
	b, err := New(Options{Token: tg.Token, APIURL: tg.URL, AdminID: testAdmin, Store: store, Engine: eng, Renderer: templates.Default(time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return &harness{tg: tg, feed: feeds.URL + "/feed.xml"}
}

// say sends a command from the admin's private chat and returns the reply.
func (h *harness) say(t *testing.T, text string) telegramtest.Message {
	t.Helper()
	h.tg.SendText(testAdmin, testAdmin, text)
	h.sent++
	msgs := h.tg.WaitMessages(t, h.sent, 10*time.Second)
	return msgs[h.sent-1]
}

func TestCommands(t *testing.T) {
	h := newHarness(t)
	channel := models.Chat{ID: -1009876, Type: models.ChatTypeChannel, Title: "News", Username: "news"}
	h.tg.AddChat(channel)

	steps := []struct {
		say  string
		want []string // substrings of the reply's plain text
	}{
		{"/help", []string{"/sub URL [chat]", "/unsub", "/rss"}},
		{"/sub", []string{"Usage: /sub URL [chat]"}},
		{"/sub ftp://example.org/feed", []string{"Could not subscribe", "not an absolute http(s) URL"}},
		{"/sub " + strings.Replace(h.feed, "feed.xml", "missing.xml", 1), []string{"Could not subscribe", "404"}},
		{"/rss", []string{"No subscriptions yet"}},
		{"/sub " + h.feed + " @news", []string{"Subscribed to Channel <News>", "2 entries"}},
		{"/sub " + h.feed + " @news", []string{"Already subscribed to Channel <News>"}},
		{"/rss @news", []string{"1 subscription:", "Channel <News>"}},
		{"/rss", []string{"No subscriptions yet"}}, // the admin's own chat has none
		{"/rss @nobody", []string{"Unknown chat @nobody"}},
		{"/rss news", []string{"Unknown chat news", "expected @username"}},
		{"/unsub 999 @news", []string{"No subscription 999"}},
		{"/unsub " + h.feed + " @news", []string{"Unsubscribed from Channel <News>"}},
		{"/rss @news", []string{"No subscriptions yet"}},
	}
	for _, s := range steps {
		reply := h.say(t, s.say)
		if reply.ChatID != testAdmin {
			t.Errorf("%q: reply went to %d, want the admin's chat", s.say, reply.ChatID)
		}
		for _, w := range s.want {
			if !strings.Contains(reply.Plain, w) {
				t.Errorf("%q: reply %q lacks %q", s.say, reply.Plain, w)
			}
		}
	}
}

func TestStrangersAreIgnored(t *testing.T) {
	h := newHarness(t)
	h.tg.SendText(55, 55, "/sub "+h.feed)
	h.tg.SendText(55, 55, "/help")
	// The admin's command is answered; by then the stranger's were handled.
	if reply := h.say(t, "/rss"); !strings.Contains(reply.Plain, "No subscriptions yet") {
		t.Errorf("admin reply = %q", reply.Plain)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(h.tg.MessagesTo(55)); n != 0 {
		t.Errorf("stranger got %d replies", n)
	}
}
