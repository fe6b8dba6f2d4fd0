package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/storage"
)

// Listings of rules the admin wrote stay within Telegram's 4096-character
// limit however long the patterns are (each command itself is within it),
// so /repl_list and /filter … list always answer.
func TestLongRuleListsAreAnswered(t *testing.T) {
	h := newHarness(t)
	long := strings.Repeat("x", 1500)
	for i := range 4 {
		pat := long + string(rune('a'+i))
		wantAll(t, "repl_add", h.say(t, "/repl_add "+pat+" => "+pat).Plain, "Rule")
		wantAll(t, "filter add", h.say(t, "/filter global add exclude title keyword "+pat).Plain, "Filter")
	}
	// A rule line is about 3030 characters: one per message. A filter line
	// is about 1540: two per message.
	wantAll(t, "repl_list", joined(h.sayN(t, "/repl_list", 4)), "4 replacement rules:", "1. [global]", "4. [global]")
	wantAll(t, "filter list", joined(h.sayN(t, "/filter global", 2)), "4 filters:", "1. [global]", "4. [global]")
}

// joined is the visible text of several messages, one after another.
func joined(msgs []telegramtest.Message) string {
	var texts []string
	for _, m := range msgs {
		texts = append(texts, m.Plain)
	}
	return strings.Join(texts, "\n")
}

// A reply that echoes a huge argument (a URL near the message limit, also
// quoted in the error) still reaches the admin.
func TestHugeArgumentIsAnswered(t *testing.T) {
	h := newHarness(t)
	url := "http://127.0.0.1:1/" + strings.Repeat("a", 4000)
	wantAll(t, "sub", h.say(t, "/sub "+url).Plain, "Could not subscribe")
}

// A command addressed to another bot ("/rss@other_bot", as Telegram shows
// commands in groups with several bots) is not this bot's to run; one
// addressed to it (its username in any case) is.
func TestCommandForAnotherBotIsIgnored(t *testing.T) {
	h := newHarness(t)
	before := len(h.tg.MessagesTo(testAdmin))
	h.tg.SendText(testAdmin, testAdmin, "/rss@other_bot")
	h.tg.SendText(testAdmin, testAdmin, "/help@Test_Bot")
	h.wait(t, testAdmin, before+1)
	time.Sleep(300 * time.Millisecond) // room for a wrong second reply
	got := h.tg.MessagesTo(testAdmin)[before:]
	if len(got) != 1 || strings.Contains(got[0].Plain, "No subscriptions") {
		t.Fatalf("replies = %d, first %q; want only /help's", len(got), got[0].Plain)
	}
}

// A notice whose detail is huge (a feed moved to a URL of thousands of
// characters, an error quoting it) still reaches the admin: a refused
// notice would be marked failed and never be seen.
func TestHugeNoticeIsDelivered(t *testing.T) {
	h := newHarness(t)
	before := len(h.tg.MessagesTo(testAdmin))
	detail := "http://old.example/feed → http://new.example/" + strings.Repeat("&b", 5000)
	_, err := h.store.AddNotice(context.Background(), storage.Notice{
		ChatID: testAdmin, Kind: "feed_moved", Text: detail, CreatedAt: time.Now(),
	})
	if err != nil {
		t.Fatal(err)
	}
	got := h.wait(t, testAdmin, before+1)[before:]
	wantAll(t, "notice", got[0].Plain, "A feed moved permanently", "http://new.example/&b&b")
}
