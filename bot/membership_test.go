package bot

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/deliver"
	"github.com/rssbot/rssbot/bot/i18n"
	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

const membershipAdmin = 2002

// myChatMember is a my_chat_member update for the bot in a group titled
// title, from old to new status.
func myChatMember(tg *telegramtest.Server, chat int64, title, old, new string) []byte {
	bot := tg.Bot()
	return fmt.Appendf(nil, `{"my_chat_member":{"chat":{"id":%d,"type":"group","title":%q},
		"from":{"id":%d,"is_bot":false,"first_name":"Admin"},"date":1767225600,
		"old_chat_member":{"status":%q,"user":{"id":%d,"is_bot":true,"first_name":%q}},
		"new_chat_member":{"status":%q,"user":{"id":%d,"is_bot":true,"first_name":%q}}}}`,
		chat, title, membershipAdmin, old, bot.ID, bot.FirstName, new, bot.ID, bot.FirstName)
}

// The bot removed from a group (a my_chat_member update): the group's
// subscription pauses and the admin reads why; added back, it resumes
// and the admin reads that too.
func TestMembershipUpdates(t *testing.T) {
	const group = -77
	ctx := context.Background()
	store := storagetest.Open(t, storagetest.SQLiteURL(t))
	f, _, err := store.EnsureFeed(ctx, "https://example.org/feed.xml", "example.org", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	sub, _, err := store.Subscribe(ctx, storage.Subscription{FeedID: f.ID, ChatID: group})
	if err != nil {
		t.Fatal(err)
	}
	tg := telegramtest.New(t)
	eng := engine.New(store, fetch.New(fetch.Options{AllowPrivateNetworks: true}), engine.Options{AdminChatID: membershipAdmin})
	b, err := New(Options{Token: tg.Token, APIURL: tg.URL, AdminID: membershipAdmin, Store: store, Engine: eng,
		Renderer: templates.Default(time.UTC), SendInterval: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Go(func() { b.Run(runCtx) })
	t.Cleanup(func() { cancel(); wg.Wait() })

	if _, err := tg.AddRawUpdate(myChatMember(tg, group, "Team <1>", "member", "kicked")); err != nil {
		t.Fatal(err)
	}
	msgs := tg.WaitMessages(t, 1, 10*time.Second)
	got := msgs[0]
	if got.ChatID != membershipAdmin || !strings.Contains(got.Plain, "can no longer post in Team <1> (-77): status kicked") {
		t.Fatalf("notice = %q to %d, want the admin told of the pause", got.Plain, got.ChatID)
	}
	s, err := store.SubscriptionByID(ctx, sub.ID)
	if err != nil || !s.Paused || !strings.HasPrefix(s.PausedReason, deliver.ReasonChat) {
		t.Fatalf("subscription = %+v, %v; want paused", s, err)
	}

	if _, err := tg.AddRawUpdate(myChatMember(tg, group, "Team <1>", "kicked", "member")); err != nil {
		t.Fatal(err)
	}
	msgs = tg.WaitMessages(t, 2, 10*time.Second)
	if got := msgs[1]; !strings.Contains(got.Plain, "may post in Team <1> (-77) again") {
		t.Fatalf("notice = %q, want the admin told of the resume", got.Plain)
	}
	if s, err := store.SubscriptionByID(ctx, sub.ID); err != nil || s.Paused {
		t.Fatalf("subscription = %+v, %v; want resumed", s, err)
	}
}

// Every delivery notice reads well in every language: all its fields
// filled, chat titles escaped, and the plural chosen by the count.
func TestDeliveryNoticeTexts(t *testing.T) {
	catalog, err := i18n.Load()
	if err != nil {
		t.Fatal(err)
	}
	fields := deliver.NoticeFields{Chat: "A <b> & Co (-5)", Topic: 9, Reason: "Forbidden: bot was kicked from the group chat",
		Count: 2, Waiting: 4, From: -5, To: -1005, Chats: []string{"A <b> & Co (-5)", "B (7)"}}
	for _, lang := range i18n.Languages() {
		loc := catalog.For(lang)
		for _, kind := range []string{deliver.NoticeChatPaused, deliver.NoticeChatResumed, deliver.NoticeTopicPaused,
			deliver.NoticeChatMigrated, deliver.NoticeDeliveryFailed} {
			id := "notice_" + kind
			for _, count := range []int{1, 2} {
				fields.Count = count
				text := loc.N(id, count, deliveryNoticeData(fields))
				if text == id || strings.Contains(text, "<no value>") || strings.Contains(text, "{{") {
					t.Errorf("%s %s (%d): %q", lang, id, count, text)
				}
				if !strings.Contains(text, "A &lt;b&gt; &amp; Co (-5)") || strings.Contains(text, "<b>") {
					t.Errorf("%s %s: %q, want the chat named and escaped", lang, id, text)
				}
				if count == 2 && !strings.Contains(text, "2") {
					t.Errorf("%s %s: %q does not give the count", lang, id, text)
				}
			}
		}
	}
}
