package storage_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestImportWritesLogsAndStateWithNew(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		empty, withNew := f, f
		empty.NextPollReason, withNew.NextPollReason = "adaptive", "interval"
		batch := storage.ImportBatch{
			Feed: empty, WithNew: &withNew, Queue: true, Now: t0,
			Log: func(res storage.ImportResult) ([]storage.Activity, []storage.Notice) {
				acts := []storage.Activity{{Kind: storage.ActivityPoll, At: t0.Add(-time.Second)},
					{Kind: storage.ActivityImported, Detail: fmt.Sprintf("%d new, %d queued", res.New, res.Queued)}}
				if res.New > 0 {
					return acts, nil
				}
				return acts, []storage.Notice{{ChatID: 99, FeedID: f.ID, Kind: "feed_moved", Text: "a → b"}}
			},
		}
		// Nothing new: Feed is saved; logs and notices are written.
		if _, err := st.Import(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.FeedByID(ctx, f.ID); got.NextPollReason != "adaptive" {
			t.Errorf("without news saved reason %q, want adaptive", got.NextPollReason)
		}
		batch.Entries = recs("a")
		if _, err := st.Import(ctx, batch); err != nil {
			t.Fatal(err)
		}
		if got, _ := st.FeedByID(ctx, f.ID); got.NextPollReason != "interval" {
			t.Errorf("with news saved reason %q, want interval (WithNew)", got.NextPollReason)
		}
		acts, err := st.Activities(ctx, f.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, a := range acts {
			kinds = append(kinds, a.Kind)
			if a.FeedID != f.ID {
				t.Errorf("activity %+v not on the feed", a)
			}
		}
		if !slices.Equal(kinds, []string{"imported", "poll", "imported", "poll"}) {
			t.Errorf("activity kinds = %v", kinds)
		}
		if acts[0].Detail != "1 new, 1 queued" || acts[2].Detail != "0 new, 0 queued" {
			t.Errorf("details = %q, %q; want the import's own counts", acts[0].Detail, acts[2].Detail)
		}
		if !acts[1].At.Equal(t0.Add(-time.Second)) || !acts[0].At.Equal(t0) {
			t.Errorf("activity times = %v, %v; want given time, then Now", acts[1].At, acts[0].At)
		}
		ns, err := st.ClaimNotices(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ns) != 1 || ns[0].Kind != "feed_moved" || ns[0].ChatID != 99 {
			t.Fatalf("notices = %+v, %v; want the one moved notice", ns, err)
		}
	})
}

func TestFeedCounts(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		// First poll: 2 entries seen, none queued.
		if _, err := st.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs("a", "b"), Now: t0}); err != nil {
			t.Fatal(err)
		}
		// Then 3 queued, one of which is sent.
		mustImport(t, st, f, t0, recs("c", "d", "e")...)
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 1)
		if err != nil || len(ds) != 1 {
			t.Fatalf("ClaimOutbox = %v, %v", ds, err)
		}
		if err := st.MarkSent(ctx, ds[0].Outbox.ID, "w", []int{1}, t0); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{storage.ActivityPoll, storage.ActivityError, storage.ActivityPoll, storage.ActivityImported} {
			if err := st.AddActivity(ctx, storage.Activity{FeedID: f.ID, Kind: k}); err != nil {
				t.Fatal(err)
			}
		}
		got, err := st.FeedCounts(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		want := storage.FeedCounts{Entries: 5, Skipped: 2, Pending: 2, Sent: 1, Polls: 2, Errors: 1}
		if got != want {
			t.Errorf("FeedCounts = %+v, want %+v", got, want)
		}
		known, err := st.KnownIdentities(ctx, f.ID, []string{rec("a").IdentityHash, rec("zz").IdentityHash, rec("e").IdentityHash})
		if err != nil || len(known) != 2 || !known[rec("a").IdentityHash] || !known[rec("e").IdentityHash] {
			t.Errorf("KnownIdentities = %v, %v; want a and e", known, err)
		}
	})
}

func TestFiltersForFeed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		a := mustFeed(t, st, "https://a.example/rss", "a.example")
		b := mustFeed(t, st, "https://b.example/rss", "b.example")
		sa := mustSub(t, st, a.ID, 1)
		sb := mustSub(t, st, b.ID, 1)
		add := func(sub int64, pattern string) {
			if _, err := st.AddFilter(ctx, storage.Filter{SubscriptionID: sub, Action: "include", Field: "title", Pattern: pattern}); err != nil {
				t.Fatal(err)
			}
		}
		add(0, "global")
		add(sa.ID, "mine")
		add(sb.ID, "other")
		fs, err := st.FiltersForFeed(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.Pattern)
		}
		if !slices.Equal(got, []string{"global", "mine"}) {
			t.Errorf("FiltersForFeed = %v, want global and mine", got)
		}
	})
}

func TestPruneKeepsLatestListing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		quiet := mustFeed(t, st, "https://quiet.example/rss", "quiet.example")
		busy := mustFeed(t, st, "https://busy.example/rss", "busy.example")
		// quiet was last read (200) at t0 and has answered 304 since: its
		// listing is a, b. busy listed x, y at t0, then only y.
		mustImport(t, st, quiet, t0, recs("a", "b")...)
		mustImport(t, st, busy, t0, recs("x", "y")...)
		mustImport(t, st, busy, t0.Add(time.Hour), recs("y")...)
		n, err := st.PruneEntries(ctx, t0.Add(365*24*time.Hour))
		if err != nil || n != 1 {
			t.Fatalf("PruneEntries = %d, %v; want only x, which busy stopped listing", n, err)
		}
		for _, c := range []struct {
			f    storage.Feed
			want []string
		}{{quiet, []string{"a", "b"}}, {busy, []string{"y"}}} {
			hashes := []string{rec("a").IdentityHash, rec("b").IdentityHash, rec("x").IdentityHash, rec("y").IdentityHash}
			known, err := st.KnownIdentities(ctx, c.f.ID, hashes)
			if err != nil || len(known) != len(c.want) {
				t.Fatalf("%s keeps %d entries, %v; want %v", c.f.URL, len(known), err, c.want)
			}
			for _, id := range c.want {
				if !known[rec(id).IdentityHash] {
					t.Errorf("%s forgot %s", c.f.URL, id)
				}
			}
		}
	})
}
