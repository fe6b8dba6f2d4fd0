package engine

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage/storagetest"
)

// TestTwoInstancesOneDatabase runs two pollers (separate stores, owners and
// workers) on one database at the same time, round after round: no host
// ever sees two requests at once, every feed is polled exactly once per
// round, and every new entry is queued exactly once per subscription.
func TestTwoInstancesOneDatabase(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, dbURL string) {
		stA, stB := storagetest.Open(t, dbURL), storagetest.Open(t, dbURL)
		clk := newClock()
		hosts := newFarm(t, 50, 6)
		var urls []string
		for _, h := range hosts {
			h.delay = 3 * time.Millisecond
			for i := range 8 {
				path := fmt.Sprintf("/f%d.xml", i)
				h.set(path, farmFeed{items: 2})
				urls = append(urls, h.url(path))
			}
		}
		a := newTestEngine(t, stA, clk, func(o *Options) { o.Owner, o.Concurrency = "instance-a", 3 })
		b := newTestEngine(t, stB, clk, func(o *Options) { o.Owner, o.Concurrency = "instance-b", 3 })
		subscribeAll(t, a, 1, urls...)
		subscribeAll(t, b, 2, urls...)

		both := func(round func(*Engine) (Summary, error)) Summary { return runBoth(t, a, b, round) }
		tick := func(e *Engine) (Summary, error) { return e.Tick(ctxT(t)) }
		forced := func(e *Engine) (Summary, error) { return e.PollOnce(ctxT(t), true) }
		wantEach := func(round, n int) {
			t.Helper()
			for k, v := range requestsByFeed(hosts) {
				if v != n {
					t.Fatalf("round %d: %s requested %d times, want %d", round, k, v, n)
				}
			}
		}

		if sum := both(tick); sum.Feeds != len(urls) || sum.Queued != 0 {
			t.Fatalf("first round = %+v; want %d polls, nothing queued", sum, len(urls))
		}
		wantEach(1, 1)
		queued := 0
		for round := 2; round <= 4; round++ {
			for _, h := range hosts {
				for i := range 8 {
					h.update(fmt.Sprintf("/f%d.xml", i), func(f *farmFeed) { f.items += round })
				}
			}
			clk.advance(11 * time.Minute)
			sum := both(tick)
			queued += 2 * round * len(urls)
			if sum.Feeds != len(urls) || sum.Queued != 2*round*len(urls) {
				t.Fatalf("round %d = %+v; want %d polls, %d queued", round, sum, len(urls), 2*round*len(urls))
			}
			wantEach(round, round)
			if n := outboxCount(t, stA); n != queued {
				t.Fatalf("round %d: %d outbox rows, want %d", round, n, queued)
			}
		}
		// Forced rounds started together count each feed once.
		clk.advance(time.Second)
		if sum := both(forced); sum.Feeds != len(urls) || sum.Queued != 0 {
			t.Fatalf("forced round = %+v; want %d polls, nothing queued", sum, len(urls))
		}
		wantEach(5, 5)
		for _, h := range hosts {
			if p := h.peak(); p != 1 {
				t.Errorf("host %s saw %d requests at once", h.ip, p)
			}
		}
	})
}

// runBoth runs one round on both engines at once and adds up what they did.
func runBoth(t *testing.T, a, b *Engine, round func(*Engine) (Summary, error)) Summary {
	t.Helper()
	var (
		wg   sync.WaitGroup
		sums [2]Summary
		errs [2]error
	)
	for i, e := range []*Engine{a, b} {
		wg.Go(func() { sums[i], errs[i] = round(e) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("instance a polled %d feeds, b %d", sums[0].Feeds, sums[1].Feeds)
	total := sums[0]
	total.Feeds += sums[1].Feeds
	total.Imported += sums[1].Imported
	total.Queued += sums[1].Queued
	return total
}

// requestsByFeed counts the farm's requests per host and path.
func requestsByFeed(hosts []*farmHost) map[string]int {
	out := map[string]int{}
	for _, h := range hosts {
		for _, r := range h.requests("") {
			out[h.ip+r.path]++
		}
	}
	return out
}
