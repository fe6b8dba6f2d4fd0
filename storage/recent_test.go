package storage_test

import (
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage/storagetest"
)

// EntriesSeenSince returns exactly the entries a later import stored, in
// the order they were stored, and honours the limit.
func TestEntriesSeenSince(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		other := mustFeed(t, st, "https://example.org/other", "example.org")
		mustImport(t, st, f, t0, recs("a", "b")...)
		later := t0.Add(time.Minute)
		mustImport(t, st, f, later, recs("a", "b", "c", "d")...)
		mustImport(t, st, other, later, recs("x")...)

		got, err := st.EntriesSeenSince(ctx, f.ID, later, 10)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, e := range got {
			ids = append(ids, e.Identity)
			if e.FeedID != f.ID || !e.FirstSeenAt.Equal(later) || e.Payload != nil || e.Title != "Title "+e.Identity {
				t.Errorf("entry %+v", e)
			}
		}
		if len(ids) != 2 || ids[0] != "c" || ids[1] != "d" {
			t.Errorf("seen since the second import = %v, want [c d]", ids)
		}
		if got, _ := st.EntriesSeenSince(ctx, f.ID, t0, 3); len(got) != 3 || got[0].Identity != "a" {
			t.Errorf("limit 3 from the start = %d entries", len(got))
		}
		if got, _ := st.EntriesSeenSince(ctx, f.ID, later.Add(time.Millisecond), 10); len(got) != 0 {
			t.Errorf("after the last import = %d entries, want none", len(got))
		}
	})
}
