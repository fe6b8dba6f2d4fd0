package engine

import (
	"fmt"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// pageQueries lists the page numbers requested for path, in order.
func pageQueries(h *farmHost, path string) []string {
	var out []string
	for _, r := range h.requests(path) {
		q := r.query
		if q == "" {
			q = "page=1"
		}
		out = append(out, q)
	}
	return out
}

func sameStrings(a, b []string) bool {
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// TestPagination: the first poll reads the first page only; later polls
// follow rel=next until a page holds a seen entry; validators are kept only
// after a complete single-page poll.
func TestPagination(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 40, 1)[0]
	h.set("/p.xml", farmFeed{items: 30, pageSize: 5})
	e := newTestEngine(t, st, clk, nil)
	subscribeAll(t, e, 1, h.url("/p.xml"))

	sum := mustTick(t, e)
	if got := pageQueries(h, "/p.xml"); !sameStrings(got, []string{"page=1"}) || sum.Imported != 5 || sum.Queued != 0 {
		t.Fatalf("first poll: pages %v, %+v; want page 1 only, 5 stored as seen", got, sum)
	}
	f := mustFeedByURL(t, st, h.url("/p.xml"))
	if f.ETag == "" || f.PendingPageURL != "" {
		t.Fatalf("after a complete single-page poll: etag %q, pending %q", f.ETag, f.PendingPageURL)
	}

	// 12 new items: pages 1 and 2 hold only new ones, page 3 holds 2 new and 3 seen.
	h.update("/p.xml", func(f *farmFeed) { f.items = 42 })
	clk.advance(time.Hour)
	sum = mustTick(t, e)
	if got := pageQueries(h, "/p.xml")[1:]; !sameStrings(got, []string{"page=1", "page=2", "page=3"}) {
		t.Fatalf("second poll pages = %v; want 1, 2, 3", got)
	}
	if sum.Imported != 12 || sum.Queued != 12 {
		t.Fatalf("second poll = %+v; want 12 new items queued", sum)
	}
	f = mustFeedByURL(t, st, h.url("/p.xml"))
	if f.ETag != "" || f.LastModified != "" || f.PendingPageURL != "" {
		t.Fatalf("after a multi-page poll: etag %q, last-modified %q, pending %q; want no validators", f.ETag, f.LastModified, f.PendingPageURL)
	}
	ds, err := st.ClaimOutbox(ctxT(t), "w", clk.Now(), time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 12 || ds[0].Entry.Title != "Item 31" || ds[11].Entry.Title != "Item 42" {
		t.Fatalf("queued %d, first %q, last %q; want items 31..42 oldest first", len(ds), ds[0].Entry.Title, ds[len(ds)-1].Entry.Title)
	}
	// Nothing new: the page-1 request is unconditional (no validators
	// kept), holds seen entries, and nothing is followed.
	clk.advance(time.Hour)
	mustTick(t, e)
	reqs := h.requests("/p.xml")
	if last := reqs[len(reqs)-1]; len(reqs) != 5 || last.ifNoneMatch != "" || last.query != "" {
		t.Fatalf("third poll requests %+v; want one unconditional page 1", reqs[4:])
	}
}

// TestPaginationLimitsAndFailures: backfill all reads every page from the
// first poll, at most MaxPages per run, and resumes; a failed page resumes
// from its URL; a loop is not followed.
func TestPaginationLimitsAndFailures(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 41, 1)[0]
	h.set("/long.xml", farmFeed{items: MaxPages + 5, pageSize: 1})
	h.set("/broken.xml", farmFeed{items: 20, pageSize: 5})
	h.set("/loop.xml", farmFeed{items: 10, pageSize: 5, loopTo: 1})
	h.set("/loop2.xml", farmFeed{items: 15, pageSize: 5, loopTo: 2})
	e := newTestEngine(t, st, clk, nil)
	res := subscribeAll(t, e, 1, h.url("/long.xml"), h.url("/broken.xml"), h.url("/loop.xml"), h.url("/loop2.xml"))
	for _, r := range res {
		sub, err := st.SubscriptionByID(ctxT(t), r.SubscriptionID)
		if err != nil {
			t.Fatal(err)
		}
		sub.Backfill = storage.BackfillAll
		if err := st.UpdateSubscription(ctxT(t), sub); err != nil {
			t.Fatal(err)
		}
	}
	h.update("/broken.xml", func(f *farmFeed) { f.failPage = 3 })
	mustTick(t, e)

	long := mustFeedByURL(t, st, h.url("/long.xml"))
	if n := len(h.requests("/long.xml")); n != MaxPages || long.PendingPageURL != h.url("/long.xml")+"?page=101" {
		t.Fatalf("long feed: %d requests, pending %q; want %d and page 101", n, long.PendingPageURL, MaxPages)
	}
	broken := mustFeedByURL(t, st, h.url("/broken.xml"))
	if broken.PendingPageURL != h.url("/broken.xml")+"?page=3" || broken.ConsecutiveErrors != 0 {
		t.Fatalf("broken feed: pending %q, errors %d; want page 3 saved, not a failure", broken.PendingPageURL, broken.ConsecutiveErrors)
	}
	if got := pageQueries(h, "/loop.xml"); !sameStrings(got, []string{"page=1", "page=2"}) {
		t.Fatalf("loop feed pages = %v; want 1, 2 and no loop back", got)
	}
	if got := pageQueries(h, "/loop2.xml"); !sameStrings(got, []string{"page=1", "page=2", "page=3"}) {
		t.Fatalf("loop2 feed pages = %v; want 1, 2, 3 and no loop back to 2", got)
	}
	if n := outboxCount(t, st); n != MaxPages+10+10+15 {
		t.Fatalf("backfill all queued %d, want %d", n, MaxPages+10+10+15)
	}

	h.update("/broken.xml", func(f *farmFeed) { f.failPage = 0 })
	clk.advance(time.Hour)
	mustTick(t, e)
	if got := pageQueries(h, "/long.xml")[MaxPages:]; !sameStrings(got, []string{"page=1", "page=101", "page=102", "page=103", "page=104", "page=105"}) {
		t.Fatalf("long feed resumed with pages %v", got)
	}
	if got := pageQueries(h, "/broken.xml")[3:]; !sameStrings(got, []string{"page=1", "page=3", "page=4"}) {
		t.Fatalf("broken feed resumed with pages %v; want page 1, then 3 and 4", got)
	}
	for _, u := range []string{"/long.xml", "/broken.xml"} {
		if f := mustFeedByURL(t, st, h.url(u)); f.PendingPageURL != "" {
			t.Errorf("%s still pending %q", u, f.PendingPageURL)
		}
	}
	if n := outboxCount(t, st); n != MaxPages+5+20+10+15 {
		t.Errorf("after resuming %d queued, want every item once: %d", n, MaxPages+5+20+10+15)
	}
}
