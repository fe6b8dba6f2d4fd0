package bot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/go-telegram/bot/models"
)

// A chat argument is checked before anything is done there: the admin must
// administer the chat, the bot must be able to post, a topic needs a forum.
func TestChatRights(t *testing.T) {
	h := newHarness(t)
	bot := h.tg.Bot().ID
	quiet := models.Chat{ID: -1007777, Type: models.ChatTypeChannel, Title: "Quiet", Username: "quiet"}
	notMine := models.Chat{ID: -1008888, Type: models.ChatTypeSupergroup, Title: "Not mine", Username: "notmine"}
	gone := models.Chat{ID: -1006666, Type: models.ChatTypeSupergroup, Title: "Gone", Username: "gone"}
	muted := models.Chat{ID: -1004444, Type: models.ChatTypeSupergroup, Title: "Muted", Username: "muted"}
	for _, c := range []models.Chat{quiet, notMine, gone, muted} {
		h.tg.AddChat(c)
		h.tg.SetChatMemberStatus(c.ID, testAdmin, "creator")
	}
	h.tg.SetChatMemberStatus(quiet.ID, bot, "member") // in a channel, only an admin may post
	h.tg.SetChatMemberStatus(notMine.ID, testAdmin, "member")
	h.tg.SetChatMemberStatus(gone.ID, bot, "left")
	h.tg.SetChatMemberStatus(muted.ID, bot, "restricted")

	tests := []struct {
		chat string
		want string
		ok   bool
	}{
		{"@news", "Subscribed to Channel <News> in @news", true},
		{"@forum/12", "Subscribed to Channel <News> in @forum, topic 12", true},
		{"-1005555", "Subscribed to Channel <News> in @forum", true},
		{"1001", "Subscribed to Channel <News> in Admin", true}, // the admin's own private chat, by id
		{"@quiet", "cannot post in the channel @quiet: make it an administrator", false},
		{"@notmine", "You are not an administrator of @notmine", false},
		{"@gone", "cannot post in @gone: add it to the chat", false},
		{"@muted", "cannot post in @muted", false},
		{"@news/3", "@news/3 has no forum topics", false},
		{"55", "55 is someone else's private chat", false},
		{"@nobody", "Unknown chat @nobody", false},
	}
	h.tg.AddUser(models.User{ID: testAdmin, FirstName: "Admin"})
	for _, tt := range tests {
		r := h.say(t, "/sub "+h.feed+" "+tt.chat)
		wantAll(t, tt.chat, r.Plain, tt.want)
	}
	subs, err := h.store.AllSubscriptions(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[[2]int64]bool{}
	for _, s := range subs {
		got[[2]int64{s.ChatID, s.TopicID}] = true
	}
	want := map[[2]int64]bool{{newsChannel.ID, 0}: true, {forumChat.ID, 12}: true, {forumChat.ID, 0}: true, {testAdmin, 0}: true}
	if len(got) != len(want) {
		t.Errorf("subscriptions at %v, want %v", got, want)
	}
	for k := range want {
		if !got[k] {
			t.Errorf("no subscription at %v", k)
		}
	}

	// Managing needs the admin's rights too, but a chat the bot can no
	// longer see is still listed from what the store knows.
	wantAll(t, "rss @notmine", h.say(t, "/rss @notmine").Plain, "You are not an administrator")
	h.tg.FailNext("getChat", 400, "Bad Request: chat not found", nil)
	wantAll(t, "rss of a vanished chat", h.say(t, "/rss -1009876").Plain, "1 subscription:", "Channel <News>")
	h.tg.FailNext("getChat", 400, "Bad Request: chat not found", nil)
	wantAll(t, "sub to a vanished chat", h.say(t, "/sub "+h.feed+" -1009876").Plain, "Unknown chat -1009876", "chat not found")
	h.tg.FailNext("getChatMember", 400, "Bad Request: member list is inaccessible", nil)
	wantAll(t, "rights unreadable", h.say(t, "/sub "+h.feed+" @news").Plain, "Could not check the rights in @news", "member list is inaccessible")
}

// A website's feeds are offered as buttons: ➕ subscribes (in the chat
// /sub named), 👁 posts a preview. Tokens expire; strangers' presses are
// not even answered.
func TestDiscoveryButtons(t *testing.T) {
	h := newHarness(t)
	offer := h.say(t, "/sub "+h.site.url("/page")+" @news")
	wantAll(t, "offer", offer.Plain, "is a web page, not a feed", "2 feeds", "1. Channel <News>", h.feed, "2. Other & Co", h.site.url("/other.xml"))
	bs := buttons(t, offer)
	if len(bs) != 4 || !strings.HasPrefix(bs[0][0], "➕ 1. Channel <News>") || bs[1][0] != "👁 Preview" ||
		!strings.HasPrefix(bs[2][0], "➕ 2. Other & Co") {
		t.Fatalf("buttons = %q", bs)
	}
	for _, b := range bs {
		if len(b[1]) > 64 {
			t.Errorf("callback data %q is over 64 bytes", b[1])
		}
	}
	if subs, _ := h.store.AllSubscriptions(context.Background()); len(subs) != 0 {
		t.Fatalf("the offer subscribed already: %+v", subs)
	}

	// A stranger's press does nothing, not even an answer.
	h.tg.PressButton(55, testAdmin, offer.MessageID, bs[2][1])

	// Preview of the second feed: a marked header, then the post itself.
	before := len(h.tg.MessagesTo(testAdmin))
	h.tg.PressButton(testAdmin, testAdmin, offer.MessageID, bs[3][1])
	got := h.wait(t, testAdmin, before+2)[before:]
	wantAll(t, "preview head", got[0].Plain, "Preview of Other & Co", "first entry")
	wantAll(t, "preview post", got[1].Plain, "Read more on Other: first", "Hello world")
	if got[1].Method != "sendMessage" || got[1].ParseMode != "HTML" || !strings.Contains(got[1].Text, "<b>") {
		t.Errorf("preview post = %s %q", got[1].Method, got[1].Text)
	}

	// Subscribe to the second feed: it goes to @news, as /sub named.
	before = len(h.tg.MessagesTo(testAdmin))
	h.tg.PressButton(testAdmin, testAdmin, offer.MessageID, bs[2][1])
	reply := h.wait(t, testAdmin, before+1)[before]
	wantAll(t, "subscribe button", reply.Plain, "Subscribed to Other & Co", "1 entries")
	subs, err := h.store.SubscriptionsByChat(context.Background(), newsChannel.ID)
	if err != nil || len(subs) != 1 || subs[0].FeedURL != h.site.url("/other.xml") {
		t.Fatalf("@news subscriptions = %+v, %v", subs, err)
	}

	// Unknown (or expired) tokens are refused with an alert.
	before = len(h.tg.CallbackAnswers())
	h.tg.PressButton(testAdmin, testAdmin, offer.MessageID, "sub:nosuchtoken")
	h.tg.PressButton(testAdmin, testAdmin, offer.MessageID, "bogus")
	deadline := time.Now().Add(10 * time.Second)
	for len(h.tg.CallbackAnswers()) < before+2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	answers := h.tg.CallbackAnswers()
	if len(answers) != 4 { // preview, subscribe, and the two refusals; none for the stranger
		t.Fatalf("callback answers = %+v, want 4", answers)
	}
	for _, a := range answers[2:] {
		if !a.ShowAlert || !strings.Contains(a.Text, "expired") {
			t.Errorf("answer to a stale button = %+v", a)
		}
	}
}

// Subscribing again to a disabled feed enables it and says so.
func TestSubEnablesDisabledFeed(t *testing.T) {
	h := newHarness(t)
	h.subscribe(t, h.feed, "")
	ctx := context.Background()
	f, err := h.store.FeedByURL(ctx, h.feed)
	if err != nil {
		t.Fatal(err)
	}
	f.DisabledAt, f.DisabledReason = time.Now(), "gone"
	if err := h.store.SaveFeed(ctx, f); err != nil {
		t.Fatal(err)
	}
	wantAll(t, "rss", h.say(t, "/rss").Plain, "🚫 Channel <News>")
	wantAll(t, "sub again", h.say(t, "/sub "+h.feed).Plain, "was disabled; it is enabled again")
	if f, _ = h.store.FeedByURL(ctx, h.feed); !f.DisabledAt.IsZero() {
		t.Errorf("feed still disabled: %+v", f)
	}
}

func TestSubNoFeedOnPage(t *testing.T) {
	h := newHarness(t)
	// A page without feeds, on a host where no well-known path answers.
	bare := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<html><body>just a page</body></html>`))
	}))
	defer bare.Close()
	r := h.say(t, "/sub "+bare.URL+"/page")
	wantAll(t, "no feed", r.Plain, "No feed found at", "tried", bare.URL+"/feed.xml")
	if subs, _ := h.store.AllSubscriptions(context.Background()); len(subs) != 0 {
		t.Errorf("subscriptions = %+v", subs)
	}
}
