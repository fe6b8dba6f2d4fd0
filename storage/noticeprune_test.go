package storage_test

import (
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// Notices that are done (sent or failed) before the cutoff are forgotten,
// so the table does not grow forever; waiting ones and recent ones stay.
func TestPruneNotices(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		ids := map[string]int64{}
		for _, name := range []string{"old_sent", "old_failed", "new_sent", "pending"} {
			id, err := st.AddNotice(ctx, storage.Notice{ChatID: 7, Kind: name, Text: name, CreatedAt: t0})
			if err != nil {
				t.Fatal(err)
			}
			ids[name] = id
		}
		claimed, err := st.ClaimNotices(ctx, "w", t0, time.Hour, 3)
		if err != nil || len(claimed) != 3 {
			t.Fatalf("ClaimNotices = %v, %v", claimed, err)
		}
		if err := st.MarkNoticeSent(ctx, ids["old_sent"], "w", t0); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkNoticeFailed(ctx, ids["old_failed"], "w", "gone", t0); err != nil {
			t.Fatal(err)
		}
		if err := st.MarkNoticeSent(ctx, ids["new_sent"], "w", t0.Add(2*time.Hour)); err != nil {
			t.Fatal(err)
		}
		n, err := st.PruneNotices(ctx, t0.Add(time.Hour))
		if err != nil || n != 2 {
			t.Fatalf("PruneNotices = %d, %v; want 2", n, err)
		}
		for name, id := range ids {
			_, err := st.NoticeByID(ctx, id)
			gone := name == "old_sent" || name == "old_failed"
			if gone {
				wantErrIs(t, err, storage.ErrNotFound)
			} else if err != nil {
				t.Errorf("notice %s: %v; want it kept", name, err)
			}
		}
	})
}
