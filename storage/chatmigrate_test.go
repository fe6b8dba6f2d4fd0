package storage_test

import (
	"slices"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// A group that became a supergroup: subscriptions and their pending rows
// move to the new id; a feed the supergroup follows already is merged.
func TestMigrateChat(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		const from, to = -5, -1005
		if err := st.UpsertChat(ctx, storage.Chat{ID: from, Type: "group", Title: "Team"}); err != nil {
			t.Fatal(err)
		}
		fa := mustFeed(t, st, "https://a.example/rss", "a.example")
		fb := mustFeed(t, st, "https://b.example/rss", "b.example")
		moved := mustSub(t, st, fa.ID, from)
		dup := mustSub(t, st, fb.ID, from)
		kept := mustSub(t, st, fb.ID, to)
		if _, err := st.AddFilter(ctx, storage.Filter{SubscriptionID: dup.ID, Action: "exclude", Field: "title", Pattern: "ad"}); err != nil {
			t.Fatal(err)
		}
		mustImport(t, st, fa, t0, recs("a1", "a2")...)
		mustImport(t, st, fb, t0, rec("b1"))

		res, err := st.MigrateChat(ctx, from, to)
		if err != nil || res != (storage.ChatMigration{Moved: 1, Merged: 1}) {
			t.Fatalf("MigrateChat = %+v, %v", res, err)
		}
		if _, err := st.ChatByID(ctx, from); err == nil {
			t.Error("the old chat is still there")
		}
		c, err := st.ChatByID(ctx, to)
		if err != nil || c.Type != "supergroup" || c.Title != "Team" {
			t.Errorf("new chat = %+v, %v", c, err)
		}
		sub, err := st.SubscriptionByID(ctx, moved.ID)
		if err != nil || sub.ChatID != to {
			t.Errorf("moved subscription = %+v, %v", sub, err)
		}
		if _, err := st.SubscriptionByID(ctx, dup.ID); err == nil {
			t.Error("the duplicate subscription is still there")
		}
		filters, err := st.Filters(ctx, kept.ID)
		if err != nil || len(filters) != 1 || filters[0].Pattern != "ad" {
			t.Errorf("kept subscription's filters = %+v, %v; want the duplicate's", filters, err)
		}
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			if d.Chat.ID != to {
				t.Errorf("row %d goes to chat %d, want %d", d.Outbox.ID, d.Chat.ID, to)
			}
			got = append(got, d.Entry.Identity)
		}
		// b1 was queued for both b subscriptions; the kept one delivers it once.
		if !slices.Equal(got, []string{"a1", "a2", "b1"}) {
			t.Errorf("rows after the migration = %v, want a1 a2 b1", got)
		}
		if n, err := st.WaitingInChat(ctx, to); err != nil || n != 3 {
			t.Errorf("WaitingInChat(new) = %d, %v; want 3", n, err)
		}
		if _, err := st.MigrateChat(ctx, to, to); err == nil {
			t.Error("MigrateChat onto itself succeeded")
		}
	})
}
