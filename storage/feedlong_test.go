package storage_test

import (
	"strings"
	"testing"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// What a feed or its server says about the feed (site and self links, hub,
// validators, the next page) is stored whatever its length, on both
// dialects alike: on MySQL a TEXT column (64 KiB) in strict mode refused a
// longer value, the import failed, and the feed was never imported again.
func TestSaveFeedLongServerValues(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://a.example/rss", "a.example")
		long := "https://a.example/" + strings.Repeat("x", 70<<10)
		f.SiteURL, f.SelfURL, f.HubURL, f.PendingPageURL = long, long, long, long
		f.ETag, f.LastModified, f.LastError = long, long, long
		res, err := st.Import(ctx, storage.ImportBatch{Feed: f, Entries: recs("a"), Now: t0})
		if err != nil || res.New != 1 {
			t.Fatalf("Import with long feed values = %+v, %v", res, err)
		}
		got, err := st.FeedByID(ctx, f.ID)
		if err != nil {
			t.Fatal(err)
		}
		for name, v := range map[string]string{"site_url": got.SiteURL, "self_url": got.SelfURL, "hub_url": got.HubURL,
			"pending_page_url": got.PendingPageURL, "etag": got.ETag, "last_modified": got.LastModified, "last_error": got.LastError} {
			if v != long {
				t.Errorf("%s: stored %d bytes; want %d", name, len(v), len(long))
			}
		}
		if err := st.AddActivity(ctx, storage.Activity{FeedID: f.ID, Kind: storage.ActivityError, Detail: long}); err != nil {
			t.Errorf("AddActivity with a long detail: %v", err)
		}
	})
}
