package storage_test

import (
	"bytes"
	"slices"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestClaimOutboxDelivery(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		chat := storage.Chat{ID: -1001, Type: "channel", Title: "News", Username: "news"}
		if err := st.UpsertChat(ctx, chat); err != nil {
			t.Fatal(err)
		}
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		f.Title = "Example"
		sub := mustSub(t, st, f.ID, chat.ID)
		mustImport(t, st, f, t0, rec("a"))

		if ds, err := st.ClaimOutbox(ctx, "w", t0.Add(-time.Second), time.Minute, 10); err != nil || len(ds) != 0 {
			t.Fatalf("claim before next_attempt_at = %v, %v; want none", ds, err)
		}
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ds) != 1 {
			t.Fatalf("ClaimOutbox = %v, %v", ds, err)
		}
		d := ds[0]
		if d.Outbox.State != storage.StateSending || d.Outbox.LeaseOwner != "w" || !d.Outbox.LeaseUntil.Equal(t0.Add(time.Minute)) ||
			d.Outbox.SubscriptionID != sub.ID || d.Outbox.Attempts != 0 || !d.Outbox.CreatedAt.Equal(t0) {
			t.Errorf("outbox = %+v", d.Outbox)
		}
		if d.Subscription != sub || d.Chat != chat || d.FeedID != f.ID || d.FeedURL != f.URL || d.FeedTitle != "Example" {
			t.Errorf("delivery = %+v", d)
		}
		want := rec("a")
		if d.Entry.Identity != "a" || d.Entry.Title != want.Title || d.Entry.Link != want.Link ||
			!bytes.Equal(d.Entry.Payload, want.Payload) || !d.Entry.PublishedAt.Equal(want.PublishedAt) || d.Outbox.EntryID != d.Entry.ID {
			t.Errorf("entry = %+v", d.Entry)
		}
		if ds, err := st.ClaimOutbox(ctx, "x", t0.Add(30*time.Second), time.Minute, 10); err != nil || len(ds) != 0 {
			t.Fatalf("claim under a live lease = %v, %v; want none", ds, err)
		}
	})
}

func TestOutboxStates(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, recs("sent", "retry", "failed")...)
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ds) != 3 {
			t.Fatalf("claim = %v, %v", ds, err)
		}
		sent, retry, failed := ds[0].Outbox.ID, ds[1].Outbox.ID, ds[2].Outbox.ID

		if err := st.MarkSent(ctx, sent, "w", []int{11, 12}, t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}
		next := t0.Add(5 * time.Minute)
		if err := st.MarkRetry(ctx, retry, "w", "429 Too Many Requests", next); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkFailed(ctx, failed, "w", "400 chat not found", t0.Add(time.Second)); err != nil {
			t.Fatal(err)
		}

		row, err := st.OutboxByID(ctx, sent)
		if err != nil || row.State != storage.StateSent || !slices.Equal(row.MessageIDs, []int{11, 12}) ||
			!row.SentAt.Equal(t0.Add(time.Second)) || row.LeaseOwner != "" || !row.LeaseUntil.IsZero() {
			t.Fatalf("sent row = %+v, %v", row, err)
		}
		row, err = st.OutboxByID(ctx, retry)
		if err != nil || row.State != storage.StatePending || row.Attempts != 1 || !row.NextAttemptAt.Equal(next) ||
			row.LastError != "429 Too Many Requests" || row.LeaseOwner != "" {
			t.Fatalf("retried row = %+v, %v", row, err)
		}
		row, err = st.OutboxByID(ctx, failed)
		if err != nil || row.State != storage.StateFailed || row.Attempts != 1 || row.LastError != "400 chat not found" {
			t.Fatalf("failed row = %+v, %v", row, err)
		}
		if c := outboxCounts(t, st); c[storage.StateSent] != 1 || c[storage.StatePending] != 1 || c[storage.StateFailed] != 1 || len(c) != 3 {
			t.Fatalf("CountOutbox = %v", c)
		}

		// Long after every lease: only the retry comes back, once it is due.
		if ds, err := st.ClaimOutbox(ctx, "w", next.Add(-time.Millisecond), time.Minute, 10); err != nil || len(ds) != 0 {
			t.Fatalf("claim before the retry is due = %v, %v", ds, err)
		}
		ds, err = st.ClaimOutbox(ctx, "w", t0.Add(time.Hour), time.Minute, 10)
		if err != nil || len(ds) != 1 || ds[0].Outbox.ID != retry || ds[0].Outbox.Attempts != 1 {
			t.Fatalf("claim later = %+v, %v; want only the retried row", ds, err)
		}

		// Reporting on a row that is not sending, or not ours, fails.
		wantErrIs(t, st.MarkSent(ctx, sent, "w", nil, t0), storage.ErrLeaseLost)
		wantErrIs(t, st.MarkRetry(ctx, retry, "someone-else", "x", t0), storage.ErrLeaseLost)
		wantErrIs(t, st.MarkFailed(ctx, 999999, "w", "x", t0), storage.ErrNotFound)
		_, err = st.OutboxByID(ctx, 999999)
		wantErrIs(t, err, storage.ErrNotFound)
	})
}

func TestExpiredSendingLeaseIsReclaimed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, rec("a"))
		first, err := st.ClaimOutbox(ctx, "crashed", t0, time.Minute, 10)
		if err != nil || len(first) != 1 {
			t.Fatalf("first claim = %v, %v", first, err)
		}
		// The first worker died; its lease runs out.
		second, err := st.ClaimOutbox(ctx, "rescuer", t0.Add(time.Minute), time.Minute, 10)
		if err != nil || len(second) != 1 || second[0].Outbox.ID != first[0].Outbox.ID || second[0].Outbox.LeaseOwner != "rescuer" {
			t.Fatalf("reclaim = %+v, %v", second, err)
		}
		wantErrIs(t, st.MarkSent(ctx, first[0].Outbox.ID, "crashed", []int{1}, t0), storage.ErrLeaseLost)
		if err := st.MarkSent(ctx, second[0].Outbox.ID, "rescuer", []int{2}, t0); err != nil {
			t.Fatal(err)
		}
	})
}

func TestPausedSubscriptionRowsWait(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		sub := mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, rec("a"))
		sub.Paused = true
		if err := st.UpdateSubscription(ctx, sub); err != nil {
			t.Fatal(err)
		}
		if ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10); err != nil || len(ds) != 0 {
			t.Fatalf("claim while paused = %v, %v; want none", ds, err)
		}
		sub.Paused = false
		if err := st.UpdateSubscription(ctx, sub); err != nil {
			t.Fatal(err)
		}
		if ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10); err != nil || len(ds) != 1 {
			t.Fatalf("claim after resume = %v, %v; want the waiting row", ds, err)
		}
	})
}

func TestNotices(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		moved, err := st.AddNotice(ctx, storage.Notice{ChatID: 7, FeedID: f.ID, Kind: "moved", Text: "moved ✓", CreatedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		later, err := st.AddNotice(ctx, storage.Notice{ChatID: 7, Kind: "hello", Text: "later", NextAttemptAt: t0.Add(time.Hour), CreatedAt: t0})
		if err != nil {
			t.Fatal(err)
		}
		_, err = st.AddNotice(ctx, storage.Notice{ChatID: 7, FeedID: 987654, Kind: "x", Text: "x"})
		wantErrIs(t, err, storage.ErrNotFound)

		ns, err := st.ClaimNotices(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ns) != 1 {
			t.Fatalf("ClaimNotices = %+v, %v", ns, err)
		}
		n := ns[0]
		if n.ID != moved || n.ChatID != 7 || n.FeedID != f.ID || n.Kind != "moved" || n.Text != "moved ✓" ||
			n.State != storage.StateSending || n.LeaseOwner != "w" || !n.CreatedAt.Equal(t0) {
			t.Fatalf("claimed notice = %+v", n)
		}
		if err := st.MarkNoticeRetry(ctx, moved, "w", "timeout", t0.Add(time.Minute)); err != nil {
			t.Fatal(err)
		}
		ns, err = st.ClaimNotices(ctx, "w2", t0.Add(2*time.Hour), time.Minute, 10)
		if err != nil || len(ns) != 2 || ns[0].ID != moved || ns[0].Attempts != 1 || ns[1].ID != later {
			t.Fatalf("second claim = %+v, %v; want both, oldest first", ns, err)
		}
		wantErrIs(t, st.MarkNoticeSent(ctx, moved, "w", t0), storage.ErrLeaseLost)
		if err := st.MarkNoticeSent(ctx, moved, "w2", t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkNoticeFailed(ctx, later, "w2", "blocked", t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		got, err := st.NoticeByID(ctx, moved)
		if err != nil || got.State != storage.StateSent || !got.SentAt.Equal(t0.Add(2*time.Hour)) {
			t.Fatalf("sent notice = %+v, %v", got, err)
		}
		got, err = st.NoticeByID(ctx, later)
		if err != nil || got.State != storage.StateFailed || got.LastError != "blocked" || got.Attempts != 1 {
			t.Fatalf("failed notice = %+v, %v", got, err)
		}
		if ns, err := st.ClaimNotices(ctx, "w3", t0.Add(24*time.Hour), time.Minute, 10); err != nil || len(ns) != 0 {
			t.Fatalf("claim after sent/failed = %+v, %v; want none", ns, err)
		}
		// A notice outlives its feed.
		if err := st.DeleteFeed(ctx, f.ID); err != nil {
			t.Fatal(err)
		}
		if got, err := st.NoticeByID(ctx, moved); err != nil || got.FeedID != 0 {
			t.Fatalf("notice after feed deletion = %+v, %v", got, err)
		}
		_, err = st.NoticeByID(ctx, 999999)
		wantErrIs(t, err, storage.ErrNotFound)
	})
}
