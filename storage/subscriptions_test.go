package storage_test

import (
	"testing"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestChats(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		_, err := st.ChatByID(ctx, -100123)
		wantErrIs(t, err, storage.ErrNotFound)
		c := storage.Chat{ID: -100123, Type: "supergroup", Title: "Group ✓", Username: "grp", IsForum: true}
		if err := st.UpsertChat(ctx, c); err != nil {
			t.Fatal(err)
		}
		if got, err := st.ChatByID(ctx, c.ID); err != nil || got != c {
			t.Fatalf("ChatByID = %+v, %v; want %+v", got, err, c)
		}
		c.Title, c.IsForum = "Renamed", false
		if err := st.UpsertChat(ctx, c); err != nil {
			t.Fatal(err)
		}
		if got, err := st.ChatByID(ctx, c.ID); err != nil || got != c {
			t.Fatalf("after update ChatByID = %+v, %v; want %+v", got, err, c)
		}
	})
}

func TestSubscribeDefaultsAndIdempotence(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		// Chat 42 is unknown: Subscribe creates a bare chats row.
		sub := mustSub(t, st, f.ID, 42)
		if sub.ID == 0 || sub.MediaMode != storage.MediaPreview || sub.Backfill != storage.BackfillNone || !sub.CreatedAt.Equal(t0) || sub.Paused {
			t.Fatalf("new subscription = %+v", sub)
		}
		if c, err := st.ChatByID(ctx, 42); err != nil || c.ID != 42 {
			t.Fatalf("bare chat = %+v, %v", c, err)
		}
		again, created, err := st.Subscribe(ctx, storage.Subscription{FeedID: f.ID, ChatID: 42, MediaMode: storage.MediaAlbum})
		if err != nil || created || again != sub {
			t.Fatalf("Subscribe again = %+v, %v, %v; want the existing %+v", again, created, err, sub)
		}
		// Another topic of the same chat is another subscription.
		topic, created, err := st.Subscribe(ctx, storage.Subscription{FeedID: f.ID, ChatID: 42, TopicID: 7})
		if err != nil || !created || topic.ID == sub.ID || topic.TopicID != 7 {
			t.Fatalf("Subscribe topic = %+v, %v, %v", topic, created, err)
		}
		_, _, err = st.Subscribe(ctx, storage.Subscription{FeedID: 987654, ChatID: 42})
		wantErrIs(t, err, storage.ErrNotFound)
	})
}

func TestUpdateAndListSubscriptions(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		g := mustFeed(t, st, "https://other.example/atom", "other.example")
		a := mustSub(t, st, f.ID, 1)
		b := mustSub(t, st, g.ID, 1)
		c := mustSub(t, st, f.ID, 2)

		a.Paused, a.PausedReason, a.Silent, a.MediaMode, a.Split = true, "admin", true, storage.MediaNone, true
		a.Template, a.Backfill, a.TopicID = "{{.Title}}", storage.BackfillPage, 3
		if err := st.UpdateSubscription(ctx, a); err != nil {
			t.Fatal(err)
		}
		if got, err := st.SubscriptionByID(ctx, a.ID); err != nil || got != a {
			t.Fatalf("SubscriptionByID = %+v, %v; want %+v", got, err, a)
		}
		// a moved to topic 3, so chat 1 may subscribe to f again in topic 0;
		// moving that one into topic 3 collides with a.
		twin := mustSub(t, st, f.ID, 1)
		twin.TopicID = 3
		wantErrIs(t, st.UpdateSubscription(ctx, twin), storage.ErrDuplicate)
		wantErrIs(t, st.UpdateSubscription(ctx, storage.Subscription{ID: 999999}), storage.ErrNotFound)
		_, err := st.SubscriptionByID(ctx, 999999)
		wantErrIs(t, err, storage.ErrNotFound)

		g.DisabledAt, g.LastError, g.Title = t0, "410", "Other"
		if err := st.SaveFeed(ctx, g); err != nil {
			t.Fatal(err)
		}
		views, err := st.SubscriptionsByChat(ctx, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(views) != 3 || views[0].ID != a.ID || views[1].ID != b.ID || views[2].ID != twin.ID {
			t.Fatalf("SubscriptionsByChat(1) = %+v", views)
		}
		if v := views[1]; v.FeedURL != g.URL || v.FeedTitle != "Other" || !v.FeedDisabledAt.Equal(t0) || v.FeedLastError != "410" {
			t.Fatalf("view of b = %+v", v)
		}
		byFeed, err := st.SubscriptionsByFeed(ctx, f.ID)
		if err != nil || len(byFeed) != 3 || byFeed[0].ID != a.ID || byFeed[1].ID != c.ID || byFeed[2].ID != twin.ID {
			t.Fatalf("SubscriptionsByFeed = %+v, %v", byFeed, err)
		}
		all, err := st.AllSubscriptions(ctx)
		if err != nil || len(all) != 4 {
			t.Fatalf("AllSubscriptions = %+v, %v", all, err)
		}
	})
}

func TestUnsubscribeDeletesLastFeed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		a := mustSub(t, st, f.ID, 1)
		b := mustSub(t, st, f.ID, 2)
		mustImport(t, st, f, t0, rec("x"))
		if got := outboxCounts(t, st)[storage.StatePending]; got != 2 {
			t.Fatalf("pending = %d, want 2", got)
		}

		deleted, err := st.Unsubscribe(ctx, a.ID)
		if err != nil || deleted {
			t.Fatalf("Unsubscribe(a) = %v, %v; want the feed kept", deleted, err)
		}
		if got := outboxCounts(t, st)[storage.StatePending]; got != 1 {
			t.Fatalf("pending after unsubscribing a = %d, want 1 (a's row cascaded)", got)
		}
		deleted, err = st.Unsubscribe(ctx, b.ID)
		if err != nil || !deleted {
			t.Fatalf("Unsubscribe(b) = %v, %v; want the feed deleted", deleted, err)
		}
		_, err = st.FeedByID(ctx, f.ID)
		wantErrIs(t, err, storage.ErrNotFound)
		if n, err := st.CountEntries(ctx, f.ID); err != nil || n != 0 {
			t.Fatalf("entries left = %d, %v", n, err)
		}
		_, err = st.Unsubscribe(ctx, b.ID)
		wantErrIs(t, err, storage.ErrNotFound)
	})
}
