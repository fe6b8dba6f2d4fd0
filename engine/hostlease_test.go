package engine

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage/storagetest"
)

// One request at a time per host holds inside one process too: a manual
// poll waits while this engine's own poll worker holds the host (both use
// the engine's Owner), and giving up leaves that worker's lease alone.
func TestPollNowWaitsForOwnWorker(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 35, 1)[0]
	h.set("/a.xml", farmFeed{items: 1})
	e := newTestEngine(t, st, clk, nil)
	sub := subscribeAll(t, e, 1, h.url("/a.xml"))[0]
	// A poll worker of this engine holds the host, as Tick does while it
	// polls the host's feeds.
	if ok, err := st.ClaimHost(ctxT(t), h.ip, e.opts.Owner, clk.Now(), time.Minute); err != nil || !ok {
		t.Fatalf("ClaimHost = %v, %v", ok, err)
	}
	ctx, cancel := context.WithTimeout(ctxT(t), 500*time.Millisecond)
	defer cancel()
	_, err := e.PollNow(ctx, sub.FeedID)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("PollNow while the engine's worker holds the host = %v; want it to wait until ctx ends", err)
	}
	if n := len(h.requests("/a.xml")); n != 0 {
		t.Errorf("host got %d requests beside the worker's; want 0", n)
	}
	if ok, err := st.ClaimHost(ctxT(t), h.ip, "other", clk.Now(), time.Minute); err != nil || ok {
		t.Errorf("another instance could claim the host = %v, %v; the worker's lease must still hold", ok, err)
	}
}
