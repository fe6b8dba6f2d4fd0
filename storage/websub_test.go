package storage_test

import (
	"errors"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestWebSubSubscriptions(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		w := storage.WebSubSubscription{FeedID: f.ID, Hub: "https://hub.example/", Topic: f.URL,
			Secret: "s3cret", Token: "tok1", State: storage.WebSubPending, RequestedAt: t0}
		id, err := st.CreateWebSub(ctx, w)
		if err != nil || id == 0 {
			t.Fatalf("CreateWebSub = %d, %v", id, err)
		}
		w.ID = id
		other := w
		other.Token = "tok2"
		if _, err := st.CreateWebSub(ctx, other); !errors.Is(err, storage.ErrWebSubExists) {
			t.Fatalf("CreateWebSub for a feed with a row = %v; want ErrWebSubExists", err)
		}
		got, err := st.WebSubByToken(ctx, "tok1")
		if err != nil || got != w {
			t.Fatalf("WebSubByToken = %+v, %v; want %+v", got, err, w)
		}
		// Saving again for the same feed replaces the row, keeping its id.
		w.State, w.LeaseSeconds, w.VerifiedAt, w.ExpiresAt = storage.WebSubActive, 864000, t0.Add(time.Minute), t0.Add(240*time.Hour)
		if id2, err := st.SaveWebSub(ctx, w); err != nil || id2 != id {
			t.Fatalf("SaveWebSub again = %d, %v; want id %d", id2, err, id)
		}
		if got, err := st.WebSubByFeed(ctx, f.ID); err != nil || got != w {
			t.Fatalf("WebSubByFeed = %+v, %v; want %+v", got, err, w)
		}
		if all, err := st.ListWebSubs(ctx); err != nil || len(all) != 1 || all[0] != w {
			t.Fatalf("ListWebSubs = %+v, %v", all, err)
		}
		if _, err := st.WebSubByToken(ctx, "nope"); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("WebSubByToken(unknown) = %v; want ErrNotFound", err)
		}
		// The row outlives its feed, so the hub can still be told to stop.
		if err := st.DeleteFeed(ctx, f.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := st.WebSubByFeed(ctx, f.ID); err != nil {
			t.Fatalf("WebSubByFeed after the feed's deletion = %v; want the row kept", err)
		}
		if err := st.DeleteWebSub(ctx, f.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := st.WebSubByFeed(ctx, f.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("WebSubByFeed after DeleteWebSub = %v; want ErrNotFound", err)
		}
	})
}

func TestWebSubFeeds(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		// hub: subscribed with a hub. nohub: subscribed without. lonely: a hub,
		// no subscription. off: a hub, subscribed, disabled.
		feeds := map[string]storage.Feed{}
		for _, name := range []string{"hub", "nohub", "lonely", "off"} {
			f := mustFeed(t, st, "https://"+name+".example/rss", name+".example")
			if name != "nohub" {
				f.HubURL = "https://hub.example/"
			}
			if name == "off" {
				f.DisabledAt = t0
			}
			if err := st.SaveFeed(ctx, f); err != nil {
				t.Fatal(err)
			}
			if name != "lonely" {
				mustSub(t, st, f.ID, 1)
			}
			feeds[name] = f
		}
		got, err := st.WebSubFeeds(ctx)
		if err != nil || len(got) != 1 || got[0].ID != feeds["hub"].ID {
			t.Fatalf("WebSubFeeds = %+v, %v; want only the subscribed, enabled feed with a hub", got, err)
		}
	})
}

func TestImportPushLeavesFeedAlone(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		f.ETag, f.NextPollAt, f.LastSuccessAt = `"v1"`, t0.Add(time.Hour), t0
		if err := st.SaveFeed(ctx, f); err != nil {
			t.Fatal(err)
		}
		f, _ = st.FeedByID(ctx, f.ID)
		mustSub(t, st, f.ID, 1)
		mustSub(t, st, f.ID, 2)
		rec := func(id string) storage.EntryRecord {
			return storage.EntryRecord{IdentityHash: id + "-hash", Identity: id, Checksum: "c", Title: id}
		}
		b := storage.ImportBatch{Feed: storage.Feed{ID: f.ID}, Entries: []storage.EntryRecord{rec("a"), rec("b")}, Queue: true, Now: t0.Add(time.Minute)}
		res, err := st.ImportPush(ctx, b)
		if err != nil || res.New != 2 || res.Queued != 4 {
			t.Fatalf("ImportPush = %+v, %v; want 2 new entries queued for 2 chats", res, err)
		}
		// The same push again stores and queues nothing.
		if res, err := st.ImportPush(ctx, b); err != nil || res.New != 0 || res.Queued != 0 {
			t.Fatalf("repeated ImportPush = %+v, %v; want nothing", res, err)
		}
		after, err := st.FeedByID(ctx, f.ID)
		if err != nil || after != f {
			t.Fatalf("feed after pushes = %+v, %v; want unchanged %+v", after, err, f)
		}
		b.Feed.ID = f.ID + 100
		if _, err := st.ImportPush(ctx, b); !errors.Is(err, storage.ErrNotFound) {
			t.Fatalf("ImportPush for a missing feed = %v; want ErrNotFound", err)
		}
	})
}
