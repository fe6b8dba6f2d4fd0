package storage_test

import (
	"bytes"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestImportFirstPollQueuesNothing(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		f.Title, f.ETag, f.LastSuccessAt = "Example", `"v1"`, t0
		res, err := st.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs("a", "b", "c"), Queue: false, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		if res != (storage.ImportResult{New: 3}) {
			t.Fatalf("result = %+v, want 3 new, nothing queued", res)
		}
		if c := outboxCounts(t, st); len(c) != 0 {
			t.Fatalf("outbox = %v, want empty", c)
		}
		got, err := st.FeedByID(ctx, f.ID)
		if err != nil || got.Title != "Example" || got.ETag != `"v1"` || !got.LastSuccessAt.Equal(t0) {
			t.Fatalf("feed state not saved by Import: %+v, %v", got, err)
		}
		if n, err := st.CountEntries(ctx, f.ID); err != nil || n != 3 {
			t.Fatalf("CountEntries = %d, %v", n, err)
		}
	})
}

func TestImportQueuesNewEntriesInOrder(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		active := mustSub(t, st, f.ID, 1)
		paused := mustSub(t, st, f.ID, 2)
		paused.Paused = true
		if err := st.UpdateSubscription(ctx, paused); err != nil {
			t.Fatal(err)
		}
		filtered := mustSub(t, st, f.ID, 3)
		mustImport(t, st, f, t0, recs("a", "b")...)
		if c := outboxCounts(t, st); c[storage.StatePending] != 4 {
			t.Fatalf("outbox after a, b = %v; want 4 pending (2 entries × 2 active subscriptions)", c)
		}

		// Second poll: a is known, a repeated c counts once, d is new.
		t1 := t0.Add(10 * time.Minute)
		batch := storage.ImportBatch{
			Feed: f, Entries: recs("a", "c", "c", "d"), Queue: true, Now: t1,
			Accept: func(sub storage.Subscription, e storage.EntryRecord) bool {
				return sub.ID != filtered.ID || e.Identity != "c"
			},
		}
		res, err := st.Import(ctx, batch)
		if err != nil {
			t.Fatal(err)
		}
		if res != (storage.ImportResult{New: 2, Queued: 3}) {
			t.Fatalf("result = %+v; want 2 new (c, d), 3 queued (c→active, d→active, d→filtered)", res)
		}
		ds, err := st.ClaimOutbox(ctx, "w", t1, time.Minute, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			if d.Subscription.ID == paused.ID {
				t.Errorf("paused subscription got row %d", d.Outbox.ID)
			}
			got = append(got, d.Entry.Identity)
			if d.Subscription.ID == active.ID {
				got[len(got)-1] += "→active"
			} else {
				got[len(got)-1] += "→filtered"
			}
		}
		want := []string{"a→active", "a→filtered", "b→active", "b→filtered", "c→active", "d→active", "d→filtered"}
		if len(got) != len(want) {
			t.Fatalf("claimed %v, want %v", got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("claimed %v, want %v (oldest entry first)", got, want)
			}
		}
	})
}

func TestImportKnownEntries(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, recs("a", "b")...)
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ds) != 2 {
			t.Fatalf("claim = %d rows, %v", len(ds), err)
		}
		a := ds[0].Entry

		// a changes its content, b is listed unchanged: nothing new, nothing queued.
		changed := rec("a")
		changed.Checksum, changed.Title, changed.Link, changed.Payload = "c2", "New title", "https://example.org/a2", []byte(`{"v":2}`)
		t1 := t0.Add(time.Hour)
		res := mustImport(t, st, f, t1, changed, rec("b"))
		if res != (storage.ImportResult{}) {
			t.Fatalf("result = %+v, want nothing new or queued", res)
		}
		got, err := st.EntryByID(ctx, a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.Checksum != "c2" || got.Title != "New title" || got.Link != changed.Link || !bytes.Equal(got.Payload, changed.Payload) ||
			!got.LastSeenAt.Equal(t1) || !got.FirstSeenAt.Equal(t0) || got.Identity != "a" || got.FeedID != f.ID {
			t.Fatalf("changed entry = %+v", got)
		}
		b, err := st.EntryByID(ctx, ds[1].Entry.ID)
		if err != nil || !b.LastSeenAt.Equal(t1) || b.Title != "Title b" {
			t.Fatalf("unchanged entry = %+v, %v", b, err)
		}
		_, err = st.EntryByID(ctx, 999999)
		wantErrIs(t, err, storage.ErrNotFound)
	})
}

func TestImportFloodGuard(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		res, err := st.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs("1", "2", "3", "4", "5"), Queue: true, QueueLimit: 2, Now: t0})
		if err != nil {
			t.Fatal(err)
		}
		if res != (storage.ImportResult{New: 5, Queued: 2, Flooded: 3}) {
			t.Fatalf("result = %+v", res)
		}
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ds) != 2 || ds[0].Entry.Identity != "4" || ds[1].Entry.Identity != "5" {
			t.Fatalf("claimed %+v, %v; want the newest two, 4 then 5", ds, err)
		}
	})
}

func TestNewSubscriptionGetsNoBackCatalogue(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, recs("old")...)
		late := mustSub(t, st, f.ID, 2)
		res := mustImport(t, st, f, t0.Add(time.Hour), recs("old", "new")...)
		if res.Queued != 2 {
			t.Fatalf("queued = %d, want 2 (new → both)", res.Queued)
		}
		ds, err := st.ClaimOutbox(ctxT(t), "w", t0.Add(time.Hour), time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Subscription.ID == late.ID && d.Entry.Identity == "old" {
				t.Fatalf("late subscription got the old entry")
			}
		}
	})
}

func TestImportDeletedFeed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		if err := st.DeleteFeed(ctx, f.ID); err != nil {
			t.Fatal(err)
		}
		_, err := st.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs("a"), Queue: true, Now: t0})
		wantErrIs(t, err, storage.ErrNotFound)
	})
}

func TestPruneEntries(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, recs("queued", "sent")...)
		if _, err := st.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs("seen"), Now: t0}); err != nil {
			t.Fatal(err)
		}
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ds) != 2 {
			t.Fatalf("claim = %v, %v", ds, err)
		}
		if err := st.MarkSent(ctx, ds[1].Outbox.ID, "w", []int{1}, t0); err != nil {
			t.Fatal(err)
		}
		// Still listed later: kept whatever its outbox state.
		mustImport(t, st, f, t0.Add(48*time.Hour), recs("listed")...)

		n, err := st.PruneEntries(ctx, t0.Add(24*time.Hour))
		if err != nil || n != 2 {
			t.Fatalf("PruneEntries = %d, %v; want 2 (sent, seen)", n, err)
		}
		if _, err := st.EntryByID(ctx, ds[0].Entry.ID); err != nil {
			t.Fatalf("entry with a sending row was pruned: %v", err)
		}
		if c, err := st.CountEntries(ctx, f.ID); err != nil || c != 2 {
			t.Fatalf("entries left = %d, %v; want queued and listed", c, err)
		}
	})
}
