package storage_test

import (
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// Notices of one kind fold into the one still waiting; once it is being
// sent, the next event starts a new notice.
func TestMergeNotice(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://a.example/rss", "a.example")
		due := t0.Add(time.Minute)
		add := func(prev string) string { return prev + "+" }
		n := storage.Notice{ChatID: 7, Kind: "delivery_failed", Text: "+", NextAttemptAt: due, CreatedAt: t0}

		first, err := st.MergeNotice(ctx, n, add)
		if err != nil {
			t.Fatal(err)
		}
		if id, err := st.MergeNotice(ctx, n, add); err != nil || id != first {
			t.Fatalf("second MergeNotice = %d, %v; want notice %d", id, err, first)
		}
		other, err := st.MergeNotice(ctx, storage.Notice{ChatID: 7, Kind: "other", Text: "x"}, add)
		if err != nil || other == first {
			t.Fatalf("another kind = %d, %v; want a notice of its own", other, err)
		}
		perFeed, err := st.MergeNotice(ctx, storage.Notice{ChatID: 7, FeedID: f.ID, Kind: "delivery_failed", Text: "f"}, add)
		if err != nil || perFeed == first {
			t.Fatalf("a feed's notice = %d, %v; want a notice of its own", perFeed, err)
		}
		got, err := st.NoticeByID(ctx, first)
		if err != nil || got.Text != "++" || !got.NextAttemptAt.Equal(due) {
			t.Fatalf("merged notice = %+v, %v; want text ++ due %v", got, err, due)
		}

		claimed, err := st.ClaimNotices(ctx, "w", due, time.Minute, 10)
		if err != nil || len(claimed) != 3 {
			t.Fatalf("ClaimNotices = %v, %v", claimed, err)
		}
		third, err := st.MergeNotice(ctx, n, add)
		if err != nil || third == first {
			t.Fatalf("MergeNotice while the first is sent = %d, %v; want a new notice", third, err)
		}
		if got, err := st.NoticeByID(ctx, third); err != nil || got.Text != "+" || got.State != storage.StatePending {
			t.Errorf("new notice = %+v, %v", got, err)
		}
	})
}
