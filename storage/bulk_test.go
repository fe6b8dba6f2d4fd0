package storage_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestSubscribeMany(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		known := mustFeed(t, st, "https://known.example/rss", "known.example")
		mustSub(t, st, known.ID, 7)
		off := mustFeed(t, st, "https://off.example/rss", "off.example")
		off.DisabledAt, off.ConsecutiveErrors = t0, 12
		if err := st.SaveFeed(ctx, off); err != nil {
			t.Fatal(err)
		}
		// More than one transaction's worth, with the known feeds and a
		// repeat in between.
		var refs []storage.FeedRef
		for i := range 600 {
			host := fmt.Sprintf("h%d.example", i%30)
			refs = append(refs, storage.FeedRef{URL: fmt.Sprintf("https://%s/%d.xml", host, i), Host: host})
		}
		refs = append(refs,
			storage.FeedRef{URL: known.URL, Host: known.Host},
			storage.FeedRef{URL: off.URL, Host: off.Host},
			storage.FeedRef{URL: refs[0].URL, Host: refs[0].Host})
		due := t0.Add(time.Minute)
		res, err := st.SubscribeMany(ctx, 7, 3, refs, due)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != len(refs) {
			t.Fatalf("%d results for %d refs", len(res), len(refs))
		}
		for i := range 600 {
			if !res[i].NewFeed || !res[i].NewSub || res[i].FeedID == 0 || res[i].SubscriptionID == 0 {
				t.Fatalf("result %d = %+v, want a new feed and subscription", i, res[i])
			}
			if i > 0 && (res[i].FeedID <= res[i-1].FeedID || res[i].SubscriptionID <= res[i-1].SubscriptionID) {
				t.Fatalf("result %d = %+v after %+v; want ids in the order of the list", i, res[i], res[i-1])
			}
		}
		if r := res[600]; r.NewFeed || !r.NewSub || r.FeedID != known.ID {
			t.Errorf("known feed, new topic: %+v", r)
		}
		if r := res[601]; r.NewFeed || !r.NewSub || r.FeedID != off.ID {
			t.Errorf("disabled feed: %+v", r)
		}
		if r := res[602]; r.NewFeed || r.NewSub || r.FeedID != res[0].FeedID || r.SubscriptionID != res[0].SubscriptionID {
			t.Errorf("repeated URL: %+v, want the first one's feed and subscription", r)
		}
		got, err := st.FeedByID(ctx, off.ID)
		if err != nil || !got.DisabledAt.IsZero() || got.ConsecutiveErrors != 0 || !got.NextPollAt.Equal(due) {
			t.Errorf("disabled feed not enabled and due: %+v, %v", got, err)
		}
		f, err := st.FeedByID(ctx, res[5].FeedID)
		if err != nil || !f.NextPollAt.Equal(due) || !f.LastPollAt.IsZero() {
			t.Errorf("new feed = %+v, %v; want due at %v, never polled", f, err, due)
		}
		sub, err := st.SubscriptionByID(ctx, res[5].SubscriptionID)
		if err != nil || sub.ChatID != 7 || sub.TopicID != 3 || sub.MediaMode != storage.MediaPreview || sub.Backfill != storage.BackfillNone {
			t.Errorf("new subscription = %+v, %v", sub, err)
		}
		n, err := st.CountDueFeeds(ctx, due)
		if err != nil || n != 602 {
			t.Errorf("CountDueFeeds = %d, %v; want 602", n, err)
		}
	})
}

func TestSetPaused(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		a := mustFeed(t, st, "https://a.example/rss", "a.example")
		b := mustFeed(t, st, "https://b.example/rss", "b.example")
		s1 := mustSub(t, st, a.ID, 1)
		s2 := mustSub(t, st, b.ID, 1)
		s3 := mustSub(t, st, a.ID, 2)
		if err := st.SetPaused(ctx, s1.ID, true, "by hand"); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.SubscriptionByID(ctx, s1.ID); !got.Paused || got.PausedReason != "by hand" {
			t.Errorf("after SetPaused: %+v", got)
		}
		wantErrIs(t, st.SetPaused(ctx, 999999, true, ""), storage.ErrNotFound)
		n, err := st.SetChatPaused(ctx, 1, false, "ignored")
		if err != nil || n != 2 {
			t.Fatalf("SetChatPaused = %d, %v; want 2", n, err)
		}
		for _, id := range []int64{s1.ID, s2.ID} {
			if got, _ := st.SubscriptionByID(ctx, id); got.Paused || got.PausedReason != "" {
				t.Errorf("subscription %d not resumed: %+v", id, got)
			}
		}
		if _, err := st.SetChatPaused(ctx, 1, true, "holiday"); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.SubscriptionByID(ctx, s3.ID); got.Paused {
			t.Error("another chat's subscription was paused")
		}
		// A paused subscription gets nothing queued.
		mustImport(t, st, a, t0, recs("x")...)
		c := outboxCounts(t, st)
		if c[storage.StatePending] != 1 {
			t.Errorf("outbox = %v; want only chat 2's row", c)
		}
	})
}

func TestImportManyEntriesInOrder(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustSub(t, st, f.ID, 2)
		var ids []string
		for i := range 250 {
			ids = append(ids, fmt.Sprintf("e%03d", i))
		}
		// More rows than one statement takes, with a known entry first.
		mustImport(t, st, f, t0, recs("e000")...)
		res := mustImport(t, st, f, t0.Add(time.Minute), recs(ids...)...)
		if res.New != 249 || res.Queued != 2*249 {
			t.Fatalf("result = %+v; want 249 new, 498 queued", res)
		}
		ds, err := st.ClaimOutbox(ctx, "w", t0.Add(time.Hour), time.Minute, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if len(ds) != 2*250 {
			t.Fatalf("%d rows, want 500", len(ds))
		}
		for i, d := range ds[2:] {
			want := fmt.Sprintf("e%03d", 1+i/2)
			if d.Entry.Identity != want || d.Subscription.ChatID != int64(1+i%2) {
				t.Fatalf("row %d = %s for chat %d; want %s for chat %d (entries oldest first, then chats)", i, d.Entry.Identity, d.Subscription.ChatID, want, 1+i%2)
			}
			if string(d.Entry.Payload) != fmt.Sprintf(`{"id":%q}`, want) {
				t.Fatalf("row %d payload %s", i, d.Entry.Payload)
			}
		}
		// The activity bound holds for lines written by imports too.
		for i := range 60 {
			_, err := st.Import(ctx, storage.ImportBatch{Feed: f, Now: t0, Log: func(storage.ImportResult) ([]storage.Activity, []storage.Notice) {
				return []storage.Activity{{Kind: storage.ActivityPoll}, {Kind: storage.ActivityNotModified, Detail: fmt.Sprint(i)}}, nil
			}})
			if err != nil {
				t.Fatal(err)
			}
		}
		acts, err := st.Activities(ctx, f.ID, 1000)
		if err != nil || len(acts) != 100 || acts[0].Detail != "59" {
			t.Fatalf("activity after 120 lines = %d lines (newest %+v), %v; want the newest 100", len(acts), acts[0], err)
		}
	})
}
