package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/schedule"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// TestFarmPoliteness polls 8 loopback hosts × 6 feeds with 4 workers: every
// host sees one request at a time; the first poll stores what is there
// as seen; repeat polls are conditional and 304s import nothing; new items
// are queued oldest first; a restarted poller polls nothing early.
func TestFarmPoliteness(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, dbURL string) {
		st := storagetest.Open(t, dbURL)
		clk := newClock()
		hosts := newFarm(t, 10, 8)
		var urls []string
		for _, h := range hosts {
			h.delay = 2 * time.Millisecond
			for i := range 6 {
				path := fmt.Sprintf("/f%d.xml", i)
				h.set(path, farmFeed{items: 3})
				urls = append(urls, h.url(path))
			}
		}
		e := newTestEngine(t, st, clk, nil)
		subscribeAll(t, e, 1, urls...)
		subscribeAll(t, e, 2, urls[:6]...)

		sum := mustTick(t, e)
		if sum.Feeds != 48 || sum.Hosts != 8 || sum.Polls["ok"] != 48 || sum.Imported != 144 || sum.Queued != 0 {
			t.Fatalf("first tick = %+v; want 48 ok polls on 8 hosts, 144 entries stored as seen, none queued", sum)
		}
		if sum := mustTick(t, e); sum.Feeds != 0 {
			t.Fatalf("second tick at the same time polled %d feeds", sum.Feeds)
		}
		// A restarted poller (another owner, same database) polls nothing early.
		restarted := newTestEngine(t, st, clk, func(o *Options) { o.Owner = "restarted" })
		clk.advance(9 * time.Minute)
		if sum := mustTick(t, restarted); sum.Feeds != 0 {
			t.Fatalf("restarted poller polled %d feeds before they were due", sum.Feeds)
		}

		clk.advance(2 * time.Minute)
		sum = mustTick(t, restarted)
		if sum.Polls["not_modified"] != 48 || sum.Imported != 0 {
			t.Fatalf("repeat tick = %+v; want 48 × 304", sum)
		}
		for _, h := range hosts {
			reqs := h.requests("/f0.xml")
			if len(reqs) != 2 || reqs[0].ifNoneMatch != "" || reqs[1].ifNoneMatch != `"3-1"` || reqs[1].ifModifiedSince == "" {
				t.Fatalf("%s requests = %+v; want an unconditional one, then If-None-Match and If-Modified-Since", h.ip, reqs)
			}
		}

		hosts[0].update("/f0.xml", func(f *farmFeed) { f.items = 5 })
		clk.advance(21 * time.Minute) // after one empty poll the interval is 20 min
		sum = mustTick(t, e)
		if sum.Feeds != 48 || sum.Imported != 2 || sum.Queued != 4 {
			t.Fatalf("tick after news = %+v; want 2 new entries queued for 2 chats", sum)
		}
		ds, err := st.ClaimOutbox(ctxT(t), "w", clk.Now(), time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%d:%s", d.Subscription.ChatID, d.Entry.Title))
		}
		if strings.Join(got, ",") != "1:Item 4,2:Item 4,1:Item 5,2:Item 5" {
			t.Errorf("queued %v; want items 4 then 5 for chats 1 and 2", got)
		}
		for _, h := range hosts {
			if p := h.peak(); p != 1 {
				t.Errorf("host %s saw %d requests at once", h.ip, p)
			}
		}
		f := mustFeedByURL(t, st, urls[1])
		if f.EmptyPolls != 2 || f.NextPollReason != schedule.ReasonAdaptive || !f.NextPollAt.Equal(clk.Now().Add(30*time.Minute)) {
			t.Errorf("feed without news: empty polls %d, next %v (%s); want 2, +30 min, adaptive", f.EmptyPolls, f.NextPollAt.Sub(clk.Now()), f.NextPollReason)
		}
		f = mustFeedByURL(t, st, urls[0])
		if f.EmptyPolls != 0 || !f.NextPollAt.Equal(clk.Now().Add(10*time.Minute)) {
			t.Errorf("feed with news: empty polls %d, next +%v; want reset to 0, +10 min", f.EmptyPolls, f.NextPollAt.Sub(clk.Now()))
		}
	})
}

// TestRetryAfterHonoured: a 429 with Retry-After waits exactly that long,
// beyond POLL_INTERVAL_MAX, and tells the admin once; a 503 without it
// waits 4 × POLL_INTERVAL; neither counts as a failure.
func TestRetryAfterHonoured(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 30, 1)[0]
	h.set("/slow.xml", farmFeed{status: 429, header: map[string][]string{"Retry-After": {"28800"}}})
	h.set("/busy.xml", farmFeed{status: 503})
	e := newTestEngine(t, st, clk, nil)
	subscribeAll(t, e, 1, h.url("/slow.xml"), h.url("/busy.xml"))
	start := clk.Now()
	mustTick(t, e)
	slow, busy := mustFeedByURL(t, st, h.url("/slow.xml")), mustFeedByURL(t, st, h.url("/busy.xml"))
	if !slow.NextPollAt.Equal(start.Add(8*time.Hour)) || slow.NextPollReason != schedule.ReasonRetryAfter || slow.ConsecutiveErrors != 0 {
		t.Fatalf("429 + Retry-After 8h: next +%v (%s), errors %d", slow.NextPollAt.Sub(start), slow.NextPollReason, slow.ConsecutiveErrors)
	}
	if !busy.NextPollAt.Equal(start.Add(40*time.Minute)) || busy.NextPollReason != schedule.ReasonRateLimited || busy.ConsecutiveErrors != 0 {
		t.Fatalf("503: next +%v (%s), errors %d", busy.NextPollAt.Sub(start), busy.NextPollReason, busy.ConsecutiveErrors)
	}
	for _, step := range []struct {
		advance time.Duration
		want    int // requests for /slow.xml so far
	}{{time.Hour, 1}, {6*time.Hour + 59*time.Minute, 1}, {time.Minute, 2}} {
		clk.advance(step.advance)
		mustTick(t, e)
		if n := len(h.requests("/slow.xml")); n != step.want {
			t.Fatalf("at +%v: %d requests for the rate-limited feed, want %d", clk.Now().Sub(start), n, step.want)
		}
	}
	ns, err := st.ClaimNotices(ctxT(t), "w", clk.Now(), 1000*time.Hour, 10)
	if err != nil {
		t.Fatal(err)
	}
	perFeed := map[int64]int{}
	for _, n := range ns {
		if n.Kind != NoticeRateLimited || n.ChatID != testAdmin {
			t.Errorf("unexpected notice %+v", n)
		}
		perFeed[n.FeedID]++
	}
	// Both were rate limited again in later polls: one notice per episode.
	if perFeed[slow.ID] != 1 || perFeed[busy.ID] != 1 {
		t.Errorf("rate-limit notices per feed = %v; want one per feed", perFeed)
	}
	// The episode ends with an answer; the next 429 starts a new one.
	h.set("/busy.xml", farmFeed{items: 1})
	clk.advance(time.Hour)
	mustTick(t, e)
	h.set("/busy.xml", farmFeed{status: 429})
	clk.advance(time.Hour)
	mustTick(t, e)
	ns, err = st.ClaimNotices(ctxT(t), "w", clk.Now(), time.Minute, 10)
	if err != nil || len(ns) != 1 || ns[0].FeedID != busy.ID || ns[0].Kind != NoticeRateLimited {
		t.Errorf("after a new episode notices = %+v, %v; want one for busy", ns, err)
	}
}

// TestGoneDisables: a 410 disables the feed at once, tells the admin, and
// no request follows, not even in a forced round or a manual poll.
func TestGoneDisables(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 31, 1)[0]
	h.set("/gone.xml", farmFeed{status: 410})
	e := newTestEngine(t, st, clk, nil)
	subscribeAll(t, e, 1, h.url("/gone.xml"))
	sum := mustTick(t, e)
	if sum.Polls["gone"] != 1 {
		t.Fatalf("tick = %+v", sum)
	}
	f := mustFeedByURL(t, st, h.url("/gone.xml"))
	if f.DisabledAt.IsZero() || !strings.Contains(f.DisabledReason, "410") {
		t.Fatalf("feed after 410: %+v", f)
	}
	clk.advance(30 * 24 * time.Hour)
	mustTick(t, e)
	if _, err := e.PollOnce(ctxT(t), true); err != nil {
		t.Fatal(err)
	}
	if _, err := e.PollNow(ctxT(t), f.ID); !errors.Is(err, ErrDisabled) {
		t.Errorf("PollNow on a disabled feed = %v, want ErrDisabled", err)
	}
	if n := len(h.requests("")); n != 1 {
		t.Errorf("%d requests after the 410, want none", n-1)
	}
	ns, _ := st.ClaimNotices(ctxT(t), "w", clk.Now(), time.Minute, 10)
	if len(ns) != 1 || ns[0].Kind != NoticeDisabled || ns[0].FeedID != f.ID {
		t.Errorf("notices = %+v; want one feed_disabled", ns)
	}
	acts, _ := st.Activities(ctxT(t), f.ID, 10)
	if len(acts) == 0 || acts[0].Kind != storage.ActivityDisabled {
		t.Errorf("activity = %+v; want disabled last", acts)
	}
}

// TestMovedAndMerged: a 301 to a URL no feed has moves the feed; a 301 to
// the URL of another feed merges the two without duplicate subscriptions;
// later polls go to the new URL only.
func TestMovedAndMerged(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, dbURL string) {
		st := storagetest.Open(t, dbURL)
		clk := newClock()
		h := newFarm(t, 32, 1)[0]
		h.set("/new.xml", farmFeed{items: 4})
		h.set("/moved.xml", farmFeed{items: 2})
		h.set("/old.xml", farmFeed{status: 301, header: map[string][]string{"Location": {h.url("/new.xml")}}})
		h.set("/renamed.xml", farmFeed{status: 308, header: map[string][]string{"Location": {h.url("/moved.xml")}}})
		e := newTestEngine(t, st, clk, nil)
		subscribeAll(t, e, 1, h.url("/old.xml"), h.url("/renamed.xml"))
		subscribeAll(t, e, 2, h.url("/old.xml"), h.url("/new.xml"))
		subscribeAll(t, e, 3, h.url("/new.xml"))
		oldFeed := mustFeedByURL(t, st, h.url("/old.xml"))
		renamed := mustFeedByURL(t, st, h.url("/renamed.xml"))

		mustTick(t, e)
		if _, err := st.FeedByID(ctxT(t), oldFeed.ID); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("merged feed still there: %v", err)
		}
		target := mustFeedByURL(t, st, h.url("/new.xml"))
		subs, err := st.SubscriptionsByFeed(ctxT(t), target.ID)
		if err != nil {
			t.Fatal(err)
		}
		chats := map[int64]int{}
		for _, s := range subs {
			chats[s.ChatID]++
		}
		if len(chats) != 3 || chats[1] != 1 || chats[2] != 1 || chats[3] != 1 {
			t.Errorf("subscriptions after merge by chat = %v; want chats 1, 2, 3 once each", chats)
		}
		moved := mustFeedByURL(t, st, h.url("/moved.xml"))
		if moved.ID != renamed.ID || moved.LastSuccessAt.IsZero() {
			t.Errorf("308: feed %d at the new URL, want feed %d, polled", moved.ID, renamed.ID)
		}
		ns, _ := st.ClaimNotices(ctxT(t), "w", clk.Now(), time.Minute, 10)
		movedNotices := 0
		for _, n := range ns {
			if n.Kind == NoticeMoved && strings.Contains(n.Text, " → ") {
				movedNotices++
			}
		}
		if movedNotices != 2 {
			t.Errorf("notices = %+v; want two feed_moved", ns)
		}
		// Later polls: only the new URLs.
		clk.advance(time.Hour)
		before := len(h.requests("/old.xml")) + len(h.requests("/renamed.xml"))
		mustTick(t, e)
		if after := len(h.requests("/old.xml")) + len(h.requests("/renamed.xml")); after != before {
			t.Errorf("old URLs requested again (%d → %d)", before, after)
		}
		if n := len(h.requests("/moved.xml")); n != 2 {
			t.Errorf("/moved.xml requested %d times, want 2", n)
		}
		if p := h.peak(); p != 1 {
			t.Errorf("host saw %d requests at once", p)
		}
	})
}

// TestFloodGuardAndFilters: more than FloodLimit new entries queue only the
// newest FloodLimit and tell the admin; filters pick per subscription.
func TestFloodGuardAndFilters(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 33, 1)[0]
	title := func(n int) string {
		if n%2 == 0 {
			return fmt.Sprintf("Go news %d", n)
		}
		return fmt.Sprintf("Other %d", n)
	}
	h.set("/busy.xml", farmFeed{items: 2, title: title})
	e := newTestEngine(t, st, clk, nil)
	res := subscribeAll(t, e, 1, h.url("/busy.xml"))
	filtered := subscribeAll(t, e, 2, h.url("/busy.xml"))[0].SubscriptionID
	if _, err := st.AddFilter(ctxT(t), storage.Filter{SubscriptionID: filtered, Action: "include", Field: "title", Pattern: `^Go news \d+$`, IsRegex: true}); err != nil {
		t.Fatal(err)
	}
	mustTick(t, e)
	h.update("/busy.xml", func(f *farmFeed) { f.items = 42 }) // 40 new
	clk.advance(time.Hour)
	r, err := e.PollNow(ctxT(t), mustFeedByURL(t, st, h.url("/busy.xml")).ID)
	if err != nil {
		t.Fatal(err)
	}
	// Chat 1 gets the newest 25 (items 18..42), chat 2 the even ones among them.
	if r.New != 40 || r.Flooded != 15 || r.Queued != 25+13 {
		t.Fatalf("poll = %+v; want 40 new, 15 flooded, 38 queued", r)
	}
	ds, err := st.ClaimOutbox(ctxT(t), "w", clk.Now(), time.Minute, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Subscription.ID == filtered && !strings.HasPrefix(d.Entry.Title, "Go news") {
			t.Errorf("filtered subscription got %q", d.Entry.Title)
		}
		if d.Subscription.ID == res[0].SubscriptionID && d.Entry.Title == "Other 17" {
			t.Errorf("entry older than the newest 25 was queued")
		}
	}
	ns, _ := st.ClaimNotices(ctxT(t), "w", clk.Now(), time.Minute, 10)
	if len(ns) != 1 || ns[0].Kind != NoticeFlooded || ns[0].Text != "15" {
		t.Errorf("notices = %+v; want feed_flooded with 15", ns)
	}
}

// TestPollNowPauseResumeStats: a manual poll is unconditional and waits for
// a host another worker holds; a paused subscription gets nothing; stats
// count what happened.
func TestPollNowPauseResumeStats(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 34, 1)[0]
	h.set("/a.xml", farmFeed{items: 1})
	e := newTestEngine(t, st, clk, nil)
	active := subscribeAll(t, e, 1, h.url("/a.xml"))[0]
	paused := subscribeAll(t, e, 2, h.url("/a.xml"))[0]
	mustTick(t, e)
	if err := e.Pause(ctxT(t), paused.SubscriptionID, "holiday"); err != nil {
		t.Fatal(err)
	}
	// Another instance holds the host for a moment.
	if ok, err := st.ClaimHost(ctxT(t), h.ip, "other", clk.Now(), time.Minute); err != nil || !ok {
		t.Fatalf("ClaimHost = %v, %v", ok, err)
	}
	go func() {
		time.Sleep(300 * time.Millisecond)
		st.ReleaseHost(context.Background(), h.ip, "other")
	}()
	h.update("/a.xml", func(f *farmFeed) { f.items = 3 })
	start := time.Now()
	r, err := e.PollNow(ctxT(t), active.FeedID)
	if err != nil {
		t.Fatal(err)
	}
	if waited := time.Since(start); waited < 250*time.Millisecond {
		t.Errorf("PollNow did not wait for the held host (%v)", waited)
	}
	if r.Outcome != "ok" || r.New != 2 || r.Queued != 2 {
		t.Errorf("PollNow = %+v; want 2 new, queued for the active subscription only", r)
	}
	reqs := h.requests("/a.xml")
	if last := reqs[len(reqs)-1]; last.ifNoneMatch != "" || last.ifModifiedSince != "" {
		t.Errorf("manual poll sent validators: %+v", last)
	}
	// Unchanged feed, polled now again: not modified, still unconditional.
	if r, err = e.PollNow(ctxT(t), active.FeedID); err != nil || r.New != 0 {
		t.Fatalf("second PollNow = %+v, %v", r, err)
	}
	if err := e.Resume(ctxT(t), paused.SubscriptionID); err != nil {
		t.Fatal(err)
	}
	h.update("/a.xml", func(f *farmFeed) { f.items = 4 })
	if r, err = e.PollNow(ctxT(t), active.FeedID); err != nil || r.Queued != 2 {
		t.Fatalf("after Resume: %+v, %v; want item 4 for both chats", r, err)
	}
	stats, err := e.Stats(ctxT(t), active.FeedID)
	if err != nil {
		t.Fatal(err)
	}
	want := storage.FeedCounts{Entries: 4, Skipped: 1, Pending: 4, Polls: 4}
	if stats.Counts != want {
		t.Errorf("counts = %+v, want %+v", stats.Counts, want)
	}
	if stats.Feed.LastPollAt.IsZero() || stats.Feed.NextPollReason == "" || len(stats.Recent) == 0 || stats.Recent[0].Kind != storage.ActivityImported {
		t.Errorf("stats = %+v", stats)
	}
	if _, err := e.PollNow(ctxT(t), 999999); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("PollNow(missing) = %v", err)
	}
}

// TestShutdownReleasesHost: cancelling the poller mid-request abandons the
// request, releases the host lease at once and leaves the feed due.
func TestShutdownReleasesHost(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 35, 1)[0]
	h.set("/hang.xml", farmFeed{items: 1})
	h.block = make(chan struct{})
	h.arrived = make(chan string, 1)
	defer close(h.block)
	e := newTestEngine(t, st, clk, func(o *Options) { o.Tick = time.Hour })
	subscribeAll(t, e, 1, h.url("/hang.xml"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	select {
	case <-h.arrived:
	case <-time.After(10 * time.Second):
		t.Fatal("the feed was never requested")
	}
	stopped := time.Now()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run = %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5 s of cancellation")
	}
	t.Logf("stopped in %v", time.Since(stopped))
	if ok, err := st.ClaimHost(ctxT(t), h.ip, "next", clk.Now(), time.Minute); err != nil || !ok {
		t.Errorf("host still leased after shutdown: %v, %v", ok, err)
	}
	f := mustFeedByURL(t, st, h.url("/hang.xml"))
	if !f.LastPollAt.IsZero() || f.NextPollAt.After(clk.Now()) {
		t.Errorf("abandoned poll changed the feed: %+v", f)
	}
}

// TestFailureBackoffAndInvalid: failures back off and count; an invalid
// body is a failure too; a success resets the streak.
func TestFailureBackoffAndInvalid(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 36, 1)[0]
	h.set("/err.xml", farmFeed{status: 500})
	e := newTestEngine(t, st, clk, nil)
	subscribeAll(t, e, 1, h.url("/err.xml"), h.url("/missing.xml"))
	start := clk.Now()
	mustTick(t, e)
	clk.advance(10 * time.Minute)
	sum := mustTick(t, e)
	if sum.Polls["server_error"] != 1 || sum.Polls["not_found"] != 1 {
		t.Fatalf("tick = %+v", sum)
	}
	f := mustFeedByURL(t, st, h.url("/err.xml"))
	if f.ConsecutiveErrors != 2 || !f.FailingSince.Equal(start) || !f.NextPollAt.Equal(clk.Now().Add(20*time.Minute)) || f.LastError == "" {
		t.Errorf("after 2 failures: %+v", f)
	}
	h.set("/err.xml", farmFeed{items: 1})
	h.set("/missing.xml", farmFeed{items: 1, title: func(int) string { return "<broken" }})
	clk.advance(20 * time.Minute)
	sum = mustTick(t, e)
	if sum.Polls["ok"] != 1 || sum.Polls[OutcomeInvalid] != 1 {
		t.Fatalf("tick = %+v; want one ok, one invalid", sum)
	}
	f = mustFeedByURL(t, st, h.url("/err.xml"))
	if f.ConsecutiveErrors != 0 || !f.FailingSince.IsZero() || f.LastError != "" {
		t.Errorf("success did not reset the streak: %+v", f)
	}
	bad := mustFeedByURL(t, st, h.url("/missing.xml"))
	if bad.ConsecutiveErrors != 3 || bad.LastError == "" || bad.ETag != "" || bad.LastSuccessAt.IsZero() == false {
		t.Errorf("invalid body: %+v; want a third failure, no validators, never a success", bad)
	}
}

// TestHintSurvives304: a publisher hint (Cache-Control max-age) read with a
// 200 is stored and still lengthens the wait after later 304s.
func TestHintSurvives304(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 37, 1)[0]
	h.set("/hinted.xml", farmFeed{items: 1, header: map[string][]string{"Cache-Control": {"max-age=5400"}}})
	e := newTestEngine(t, st, clk, nil)
	subscribeAll(t, e, 1, h.url("/hinted.xml"))
	for i := range 3 {
		mustTick(t, e)
		f := mustFeedByURL(t, st, h.url("/hinted.xml"))
		if !f.NextPollAt.Equal(clk.Now().Add(90*time.Minute)) || f.NextPollReason != schedule.ReasonHint || f.HintSeconds != 5400 {
			t.Fatalf("poll %d: next +%v (%s), hint %ds; want +90 min from the stored hint", i, f.NextPollAt.Sub(clk.Now()), f.NextPollReason, f.HintSeconds)
		}
		clk.advance(90 * time.Minute)
	}
	if reqs := h.requests(""); len(reqs) != 3 || reqs[2].ifNoneMatch == "" {
		t.Fatalf("requests = %+v; want 3, the later ones conditional (304)", reqs)
	}
}
