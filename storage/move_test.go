package storage_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestMoveFeedRenames(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "http://old.example/rss", "old.example")
		sub := mustSub(t, st, f.ID, 1)
		res, err := st.MoveFeed(ctx, f.ID, "https://new.example/feed", "new.example", t0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Merged || res.Feed.ID != f.ID || res.Feed.URL != "https://new.example/feed" || res.Feed.Host != "new.example" {
			t.Fatalf("MoveFeed = %+v; want feed %d renamed in place", res, f.ID)
		}
		if _, err := st.FeedByURL(ctx, "http://old.example/rss"); err == nil {
			t.Error("the old URL still finds a feed")
		}
		if got, err := st.FeedByURL(ctx, "https://new.example/feed"); err != nil || got.ID != f.ID {
			t.Fatalf("FeedByURL(new) = %+v, %v", got, err)
		}
		if got, err := st.SubscriptionByID(ctx, sub.ID); err != nil || got.FeedID != f.ID {
			t.Fatalf("subscription after move = %+v, %v", got, err)
		}
		// The new host has a hosts row: the feed can be claimed there.
		hosts, err := st.ClaimDueHosts(ctx, "w", t0, time.Minute, 10, time.Time{})
		if err != nil || !slices.Equal(hosts, []string{"new.example"}) {
			t.Fatalf("ClaimDueHosts after move = %v, %v; want new.example", hosts, err)
		}
		_, err = st.MoveFeed(ctx, 999999, "https://x.example/", "x.example", t0)
		wantErrIs(t, err, storage.ErrNotFound)
	})
}

func TestMoveFeedMerges(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		old := mustFeed(t, st, "http://example.org/old", "example.org")
		target := mustFeed(t, st, "https://example.org/new", "example.org")
		// Chat 1 follows both (a duplicate after the merge), chat 2 only
		// the old feed, chat 3 only the target.
		dupOld := mustSub(t, st, old.ID, 1)
		only := mustSub(t, st, old.ID, 2)
		dupKept := mustSub(t, st, target.ID, 1)
		mustSub(t, st, target.ID, 3)
		if _, err := st.AddFilter(ctx, storage.Filter{SubscriptionID: dupOld.ID, Action: "exclude", Field: "title", Pattern: "ad"}); err != nil {
			t.Fatal(err)
		}
		// "shared" is known to both feeds, "mine" only to the old one; both
		// are queued (undelivered) for the old feed's subscribers.
		mustImport(t, st, old, t0, recs("shared", "mine")...)
		mustImport(t, st, target, t0, recs("shared", "theirs")...)
		before := outboxCounts(t, st)[storage.StatePending]
		if before != 8 { // old: 2 entries × 2 subs; target: 2 × 2
			t.Fatalf("pending before merge = %d, want 8", before)
		}
		target.DisabledAt, target.DisabledReason = t0, "gone"
		if err := st.SaveFeed(ctx, target); err != nil {
			t.Fatal(err)
		}

		res, err := st.MoveFeed(ctx, old.ID, "https://example.org/new", "example.org", t0.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Merged || res.Feed.ID != target.ID {
			t.Fatalf("MoveFeed = %+v; want merged into %d", res, target.ID)
		}
		if !res.Feed.DisabledAt.IsZero() || !res.Feed.NextPollAt.Equal(t0.Add(time.Minute)) {
			t.Errorf("merged-into feed not enabled and due: %+v", res.Feed)
		}
		if _, err := st.FeedByID(ctx, old.ID); err == nil {
			t.Error("the old feed still exists")
		}
		subs, err := st.SubscriptionsByFeed(ctx, target.ID)
		if err != nil {
			t.Fatal(err)
		}
		var chats []int64
		for _, s := range subs {
			chats = append(chats, s.ChatID)
		}
		slices.Sort(chats)
		if !slices.Equal(chats, []int64{1, 2, 3}) {
			t.Fatalf("chats of the merged feed = %v, want 1, 2, 3 once each", chats)
		}
		if _, err := st.SubscriptionByID(ctx, only.ID); err != nil {
			t.Errorf("chat 2's subscription was not kept: %v", err)
		}
		if n, err := st.CountEntries(ctx, target.ID); err != nil || n != 3 {
			t.Errorf("entries of the merged feed = %d, %v; want shared, theirs, mine", n, err)
		}
		// Undelivered rows: chat 1 had "shared" twice (old and target) and
		// "mine" once; chat 2 had both of the old feed's; chat 3 both of
		// the target's. Nothing lost, the duplicate gone: 7.
		wantRows(t, st, target.ID, map[string]int{
			"1/shared": 1, "1/mine": 1, "1/theirs": 1,
			"2/shared": 1, "2/mine": 1,
			"3/shared": 1, "3/theirs": 1,
		})
		fs, err := st.Filters(ctx, dupKept.ID)
		if err != nil || len(fs) != 1 || fs[0].Pattern != "ad" {
			t.Errorf("the duplicate's filter did not move to the kept subscription: %+v, %v", fs, err)
		}
	})
}

// wantRows claims every outbox row and compares them, as "chat/identity"
// counts, with want; every row must belong to feedID.
func wantRows(t *testing.T, st *storage.Store, feedID int64, want map[string]int) {
	t.Helper()
	ds, err := st.ClaimOutbox(ctxT(t), "w", t0.Add(time.Hour), time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, d := range ds {
		if d.FeedID != feedID {
			t.Errorf("row %d points at feed %d, want %d", d.Outbox.ID, d.FeedID, feedID)
		}
		got[fmt.Sprintf("%d/%s", d.Subscription.ChatID, d.Entry.Identity)]++
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("rows = %v, want %v", got, want)
	}
}
