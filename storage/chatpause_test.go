package storage_test

import (
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// A delivery pause touches only active subscriptions and a resume by
// reason only its own pauses: the admin's /pause survives both.
func TestPauseAndResumeChatByReason(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		fa := mustFeed(t, st, "https://a.example/rss", "a.example")
		fb := mustFeed(t, st, "https://b.example/rss", "b.example")
		fc := mustFeed(t, st, "https://c.example/rss", "c.example")
		a, b, other := mustSub(t, st, fa.ID, -10), mustSub(t, st, fb.ID, -10), mustSub(t, st, fc.ID, -20)
		if err := st.SetPaused(ctx, b.ID, true, "holiday"); err != nil {
			t.Fatal(err)
		}
		mustImport(t, st, fa, t0, recs("a1", "a2")...)

		n, err := st.PauseChatActive(ctx, -10, "chat unreachable: Forbidden: bot was kicked from the group chat")
		if err != nil || n != 1 {
			t.Fatalf("PauseChatActive = %d, %v; want 1 (b was paused already)", n, err)
		}
		if n, err := st.PauseChatActive(ctx, -10, "chat unreachable: again"); err != nil || n != 0 {
			t.Fatalf("second PauseChatActive = %d, %v; want 0", n, err)
		}
		wantSub(t, st, a.ID, true, "chat unreachable: Forbidden: bot was kicked from the group chat")
		wantSub(t, st, b.ID, true, "holiday")
		wantSub(t, st, other.ID, false, "")
		if n, err := st.WaitingInChat(ctx, -10); err != nil || n != 2 {
			t.Errorf("WaitingInChat = %d, %v; want the 2 pending rows kept", n, err)
		}
		if ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10); err != nil || len(ds) != 0 {
			t.Fatalf("claimed %v, %v from a paused chat", ds, err)
		}

		if n, err := st.ResumeChatPaused(ctx, -10, "chat unreachable: "); err != nil || n != 1 {
			t.Fatalf("ResumeChatPaused = %d, %v; want 1", n, err)
		}
		wantSub(t, st, a.ID, false, "")
		wantSub(t, st, b.ID, true, "holiday")
		if _, err := st.ResumeChatPaused(ctx, -10, ""); err == nil {
			t.Error("an empty prefix would resume every pause; want an error")
		}
		if ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10); err != nil || len(ds) != 2 {
			t.Fatalf("after the resume claimed %d rows, %v; want the 2 kept rows", len(ds), err)
		}

		if err := st.UpdateSubscription(ctx, storage.Subscription{ID: a.ID, FeedID: fa.ID, ChatID: -10, TopicID: 9}); err != nil {
			t.Fatal(err)
		}
		if n, err := st.WaitingInTopic(ctx, -10, 9); err != nil || n != 2 {
			t.Errorf("WaitingInTopic = %d, %v; want 2", n, err)
		}
		n, err = st.PauseTopicActive(ctx, -10, 9, "topic unreachable: Bad Request: message thread not found")
		if err != nil || n != 1 {
			t.Fatalf("PauseTopicActive = %d, %v; want 1", n, err)
		}
		if n, err := st.PauseTopicActive(ctx, -10, 9, "other"); err != nil || n != 0 {
			t.Fatalf("second PauseTopicActive = %d, %v; want 0", n, err)
		}
		wantSub(t, st, a.ID, true, "topic unreachable: Bad Request: message thread not found")
		wantSub(t, st, b.ID, true, "holiday")
		if n, err := st.ResumeChatPaused(ctx, -10, "chat unreachable: "); err != nil || n != 0 {
			t.Errorf("ResumeChatPaused = %d, %v; a topic pause is not the chat's", n, err)
		}
	})
}

func wantSub(t *testing.T, st *storage.Store, id int64, paused bool, reason string) {
	t.Helper()
	sub, err := st.SubscriptionByID(ctxT(t), id)
	if err != nil || sub.Paused != paused || sub.PausedReason != reason {
		t.Errorf("subscription %d = paused %v %q, %v; want %v %q", id, sub.Paused, sub.PausedReason, err, paused, reason)
	}
}
