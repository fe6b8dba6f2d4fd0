package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// seedSubscriptions subscribes chat to n feeds directly in the store (no
// fetching) and returns the subscriptions in id order.
func seedSubscriptions(t *testing.T, st *storage.Store, chat int64, n int) []storage.Subscription {
	t.Helper()
	ctx := context.Background()
	if err := st.UpsertChat(ctx, storage.Chat{ID: chat, Type: "private"}); err != nil {
		t.Fatal(err)
	}
	var out []storage.Subscription
	for i := range n {
		f, _, err := st.EnsureFeed(ctx, fmt.Sprintf("https://feeds.example/%02d.xml", i+1), "feeds.example", time.Now().Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		f.Title = fmt.Sprintf("Feed %02d", i+1)
		if err := st.SaveFeed(ctx, f); err != nil {
			t.Fatal(err)
		}
		sub, _, err := st.Subscribe(ctx, storage.Subscription{FeedID: f.ID, ChatID: chat})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, sub)
	}
	return out
}

// /rss pages through ◀ ▶ buttons that edit the list in place, and marks
// disabled feeds, paused subscriptions and topics.
func TestRSSPagination(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	subs := seedSubscriptions(t, h.store, testAdmin, 23)
	f, _ := h.store.FeedByID(ctx, subs[11].FeedID)
	f.DisabledAt = time.Now()
	if err := h.store.SaveFeed(ctx, f); err != nil {
		t.Fatal(err)
	}
	if err := h.store.SetPaused(ctx, subs[12].ID, true, "test"); err != nil {
		t.Fatal(err)
	}
	sub := subs[13]
	sub.TopicID = 4
	if err := h.store.UpdateSubscription(ctx, sub); err != nil {
		t.Fatal(err)
	}

	first := h.say(t, "/rss")
	wantAll(t, "page 1", first.Plain, "23 subscriptions: (page 1 of 3)", "Feed 01", "Feed 10")
	if strings.Contains(first.Plain, "Feed 11") {
		t.Errorf("page 1 shows Feed 11: %q", first.Plain)
	}
	bs := buttons(t, first)
	if len(bs) != 1 || bs[0][0] != "▶" {
		t.Fatalf("page 1 buttons = %q, want ▶ only", bs)
	}

	next := func(msg int, data string) string {
		before := len(h.tg.MessagesTo(testAdmin))
		h.tg.PressButton(testAdmin, testAdmin, msg, data)
		edit := h.wait(t, testAdmin, before+1)[before]
		if edit.Method != "editMessageText" || edit.MessageID != msg {
			t.Fatalf("press %s: %s of message %d, want editMessageText of %d", data, edit.Method, edit.MessageID, msg)
		}
		bs = buttons(t, edit)
		return edit.Plain
	}
	page2 := next(first.MessageID, bs[0][1])
	wantAll(t, "page 2", page2, "(page 2 of 3)", fmt.Sprintf("%d. 🚫 Feed 12", subs[11].ID),
		fmt.Sprintf("%d. ⏸ Feed 13", subs[12].ID), "Feed 14 · topic 4", "Feed 20")
	if len(bs) != 2 || bs[0][0] != "◀" || bs[1][0] != "▶" {
		t.Fatalf("page 2 buttons = %q, want ◀ ▶", bs)
	}
	page3 := next(first.MessageID, bs[1][1])
	wantAll(t, "page 3", page3, "(page 3 of 3)", "Feed 21", "Feed 23")
	if len(bs) != 1 || bs[0][0] != "◀" {
		t.Fatalf("page 3 buttons = %q, want ◀ only", bs)
	}
	wantAll(t, "back", next(first.MessageID, bs[0][1]), "(page 2 of 3)")
}

func TestPauseResume(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	subs := seedSubscriptions(t, h.store, testAdmin, 3)
	paused := func() []bool {
		views, err := h.store.SubscriptionsByChat(ctx, testAdmin)
		if err != nil {
			t.Fatal(err)
		}
		var out []bool
		for _, v := range views {
			out = append(out, v.Paused)
		}
		return out
	}
	id := fmt.Sprint(subs[1].ID)
	steps := []struct {
		say  string
		want string
		then []bool
	}{
		{"/pause " + id, "Paused " + id + ". Feed 02", []bool{false, true, false}},
		{"/rss", id + ". ⏸ Feed 02", []bool{false, true, false}},
		{"/resume " + id, "Resumed " + id + ". Feed 02", []bool{false, false, false}},
		{"/pause", "Paused 3 subscriptions.", []bool{true, true, true}},
		{"/resume all", "Resumed 3 subscriptions.", []bool{false, false, false}},
		{"/pause all 1001", "Paused 3 subscriptions in", []bool{true, true, true}},
		{"/resume 1001", "No subscription 1001", []bool{true, true, true}}, // a lone number is an ID
		{"/resume all @news", "Resumed 0 subscriptions in @news", []bool{true, true, true}},
		{"/pause 99999", "No subscription 99999", []bool{true, true, true}},
		{"/pause x y z", "Usage: /pause", []bool{true, true, true}},
	}
	for _, s := range steps {
		wantAll(t, s.say, h.say(t, s.say).Plain, s.want)
		if got := paused(); fmt.Sprint(got) != fmt.Sprint(s.then) {
			t.Errorf("after %q paused = %v, want %v", s.say, got, s.then)
		}
	}
}
