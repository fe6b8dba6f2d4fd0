package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
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
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

const testAdmin = 1001

// Chats of the harness: a channel and a forum the admin administers.
var (
	newsChannel = models.Chat{ID: -1009876, Type: models.ChatTypeChannel, Title: "News", Username: "news"}
	forumChat   = models.Chat{ID: -1005555, Type: models.ChatTypeSupergroup, Title: "Forum", Username: "forum", IsForum: true}
)

// site serves feeds and web pages; /feed.xml grows with add.
type site struct {
	srv *httptest.Server

	mu    sync.Mutex
	items []string // titles, oldest first
}

func newSite(t *testing.T) *site {
	t.Helper()
	s := &site{items: []string{"Two", "One"}}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *site) url(path string) string { return s.srv.URL + path }

// add appends entries to /feed.xml.
func (s *site) add(titles ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.items = append(s.items, titles...)
}

func (s *site) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/feed.xml":
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprint(w, s.feed())
	case "/other.xml":
		w.Header().Set("Content-Type", "application/atom+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Other &amp; Co</title><id>urn:other</id>
<updated>2025-01-01T00:00:00Z</updated><entry><title>Read more on Other: first</title><id>urn:o1</id><link href="%s/o1"/>
<updated>2025-01-01T00:00:00Z</updated><content type="html">&lt;p&gt;Hello &lt;b&gt;world&lt;/b&gt;. Read more on Other&lt;/p&gt;</content></entry></feed>`, s.srv.URL)
	case "/page":
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<html><head><title>A site</title>
<link rel="alternate" type="application/rss+xml" title="Channel &lt;News&gt;" href="/feed.xml">
<link rel="alternate" type="application/atom+xml" title="Other &amp; Co" href="/other.xml"></head><body>hi</body></html>`)
	case "/empty":
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprint(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Empty</title></channel></rss>`)
	default:
		http.NotFound(w, r)
	}
}

// feed is /feed.xml: the items newest first, each linked.
func (s *site) feed() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><rss version="2.0"><channel><title>Channel &lt;News&gt;</title>`)
	for i := len(s.items) - 1; i >= 0; i-- {
		title := s.items[i]
		fmt.Fprintf(&b, `<item><title>%s</title><guid>urn:%s</guid><link>%s/post/%s</link></item>`,
			html.EscapeString(title), slug(title), s.srv.URL, slug(title))
	}
	b.WriteString(`</channel></rss>`)
	return b.String()
}

// slug is the guid and link path of a title: its first word, lower-cased.
func slug(title string) string { return strings.ToLower(strings.Fields(title)[0]) }

// harness runs a Bot against the fake Bot API with a real store and engine.
type harness struct {
	tg    *telegramtest.Server
	store *storage.Store
	site  *site
	feed  string // URL of a working feed
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessLang(t, "en")
}

func newHarnessLang(t *testing.T, lang string) *harness {
	t.Helper()
	s := newSite(t)
	store := storagetest.Open(t, storagetest.SQLiteURL(t))
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	fetcher := fetch.New(fetch.Options{AllowPrivateNetworks: true, Logger: log})
	t.Cleanup(fetcher.CloseIdleConnections)
	eng := engine.New(store, fetcher, engine.Options{AdminChatID: testAdmin, Logger: log})
	tg := telegramtest.New(t)
	tg.AddChat(newsChannel)
	tg.AddChat(forumChat)
	for _, c := range []models.Chat{newsChannel, forumChat} {
		tg.SetChatMemberStatus(c.ID, testAdmin, "administrator")
	}
	b, err := New(Options{Token: tg.Token, APIURL: tg.URL, AdminID: testAdmin, Language: lang, Store: store, Engine: eng,
		Renderer: templates.Default(time.UTC), Fetcher: fetcher, Logger: log, SendInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(ctx) })
	t.Cleanup(func() { cancel(); wg.Wait() })
	return &harness{tg: tg, store: store, site: s, feed: s.url("/feed.xml")}
}

// say sends a command from the admin's private chat and returns the reply.
func (h *harness) say(t *testing.T, text string) telegramtest.Message {
	t.Helper()
	return h.sayN(t, text, 1)[0]
}

// sayN sends a command and returns the next n messages to the admin.
func (h *harness) sayN(t *testing.T, text string, n int) []telegramtest.Message {
	t.Helper()
	before := len(h.tg.MessagesTo(testAdmin))
	h.tg.SendText(testAdmin, testAdmin, text)
	return h.wait(t, testAdmin, before+n)[before:]
}

// wait returns the messages to chat once there are at least n.
func (h *harness) wait(t *testing.T, chat int64, n int) []telegramtest.Message {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		got := h.tg.MessagesTo(chat)
		if len(got) >= n {
			return got
		}
		if time.Now().After(deadline) {
			var texts []string
			for _, m := range got {
				texts = append(texts, m.Method+": "+m.Plain)
			}
			t.Fatalf("waited for %d messages to %d, got %d:\n%s", n, chat, len(got), strings.Join(texts, "\n"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// subscribe subscribes chat (a "chat" argument, or "" for the admin's own)
// to url and returns the subscription's id.
func (h *harness) subscribe(t *testing.T, url, chat string) int64 {
	t.Helper()
	cmd := "/sub " + url
	if chat != "" {
		cmd += " " + chat
	}
	if r := h.say(t, cmd); !strings.Contains(r.Plain, "Subscribed") {
		t.Fatalf("%s: %q", cmd, r.Plain)
	}
	subs, err := h.store.AllSubscriptions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return subs[len(subs)-1].ID
}

// wantAll checks that text holds every substring of want.
func wantAll(t *testing.T, what, text string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s: %q lacks %q", what, text, w)
		}
	}
}

// buttons returns an inline keyboard's buttons as (text, callback data).
func buttons(t *testing.T, m telegramtest.Message) [][2]string {
	t.Helper()
	if m.ReplyMarkup == nil {
		return nil
	}
	var kb models.InlineKeyboardMarkup
	if err := json.Unmarshal(m.ReplyMarkup, &kb); err != nil {
		t.Fatalf("reply_markup %s: %v", m.ReplyMarkup, err)
	}
	var out [][2]string
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			out = append(out, [2]string{b.Text, b.CallbackData})
		}
	}
	return out
}

func TestCommands(t *testing.T) {
	h := newHarness(t)
	steps := []struct {
		say  string
		want []string // substrings of the reply's plain text
	}{
		{"/help", []string{"/sub URL [chat]", "/unsub", "/rss", "/filter", "/repl_add", "/import"}},
		{"/sub", []string{"Usage: /sub URL [chat]"}},
		{"/sub ftp://example.org/feed", []string{"Could not subscribe", "not an absolute http(s) URL"}},
		{"/sub " + h.site.url("/missing.xml"), []string{"Could not subscribe", "404"}},
		{"/rss", []string{"No subscriptions yet"}},
		{"/sub " + h.feed + " @news", []string{"Subscribed to Channel <News> in @news", "2 entries"}},
		{"/sub " + h.feed + " @news", []string{"Already subscribed to Channel <News> in @news"}},
		{"/rss @news", []string{"1 subscription:", "Channel <News>"}},
		{"/rss", []string{"No subscriptions yet"}}, // the admin's own chat has none
		{"/rss @nobody", []string{"Unknown chat @nobody", "chat not found"}},
		{"/rss news", []string{"Unknown chat news", "expected @username"}},
		{"/rss @news extra", []string{"Usage: /rss [chat]"}},
		{"/unsub 999 @news", []string{"No subscription 999"}},
		{"/unsub " + h.feed + " @news", []string{"Unsubscribed from Channel <News>"}},
		{"/rss @news", []string{"No subscriptions yet"}},
	}
	for _, s := range steps {
		reply := h.say(t, s.say)
		if reply.ChatID != testAdmin || reply.ParseMode != "HTML" {
			t.Errorf("%q: reply went to %d (%s), want HTML to the admin's chat", s.say, reply.ChatID, reply.ParseMode)
		}
		wantAll(t, s.say, reply.Plain, s.want...)
	}
}

func TestStrangersAreIgnored(t *testing.T) {
	h := newHarness(t)
	h.tg.SendText(55, 55, "/sub "+h.feed)
	h.tg.SendText(55, 55, "/help")
	h.tg.SendText(55, -1005555, "/export")
	// The admin's command is answered; by then the stranger's were handled.
	if reply := h.say(t, "/rss"); !strings.Contains(reply.Plain, "No subscriptions yet") {
		t.Errorf("admin reply = %q", reply.Plain)
	}
	time.Sleep(200 * time.Millisecond)
	if n := len(h.tg.MessagesTo(55)) + len(h.tg.MessagesTo(-1005555)); n != 0 {
		t.Errorf("stranger got %d replies", n)
	}
	if subs, _ := h.store.AllSubscriptions(context.Background()); len(subs) != 0 {
		t.Errorf("the stranger's /sub stored %d subscriptions", len(subs))
	}
}

// Every command is in the menu (setMyCommands) with a worded description,
// and in /help; the menu is worded in the bot's language.
func TestCommandMenuAndHelp(t *testing.T) {
	for _, lang := range []string{"en", "de"} {
		t.Run(lang, func(t *testing.T) {
			h := newHarnessLang(t, lang)
			help := h.say(t, "/help").Plain
			cmds := h.tg.Commands()
			if len(cmds) != len(commandNames()) {
				t.Fatalf("setMyCommands registered %d commands, want %d: %+v", len(cmds), len(commandNames()), cmds)
			}
			handlers := commandHandlers()
			for i, name := range commandNames() {
				if cmds[i].Command != name || cmds[i].Description == "" || cmds[i].Description == "cmd_"+name {
					t.Errorf("menu entry %d = %+v, want %s with a description", i, cmds[i], name)
				}
				if !strings.Contains(help, "/"+name) {
					t.Errorf("/help lacks /%s", name)
				}
				if handlers[name] == nil {
					t.Errorf("/%s has no handler", name)
				}
			}
			if lang == "de" && !strings.Contains(help, "Abos") {
				t.Errorf("German /help = %q", help)
			}
		})
	}
}

// A command written in a forum topic is answered in that topic, and acts
// on it.
func TestRepliesInForumTopic(t *testing.T) {
	h := newHarness(t)
	send := func(text string) telegramtest.Message {
		before := len(h.tg.MessagesTo(forumChat.ID))
		h.tg.AddUpdate(models.Update{Message: &models.Message{
			ID: 900 + before, Date: int(time.Now().Unix()), Chat: forumChat, From: &models.User{ID: testAdmin, FirstName: "Admin"},
			Text: text, MessageThreadID: 7, IsTopicMessage: true,
		}})
		return h.wait(t, forumChat.ID, before+1)[before]
	}
	r := send("/sub " + h.feed)
	if r.MessageThreadID != 7 || !strings.Contains(r.Plain, "Subscribed to Channel <News>") {
		t.Errorf("reply in topic %d: %q", r.MessageThreadID, r.Plain)
	}
	subs, err := h.store.SubscriptionsByChat(context.Background(), forumChat.ID)
	if err != nil || len(subs) != 1 || subs[0].TopicID != 7 {
		t.Fatalf("forum subscriptions = %+v, %v; want one in topic 7", subs, err)
	}
	r = send("/rss")
	if r.MessageThreadID != 7 || !strings.Contains(r.Plain, "· topic 7") {
		t.Errorf("/rss in topic %d: %q", r.MessageThreadID, r.Plain)
	}
}
