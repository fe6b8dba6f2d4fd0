package engine

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestReadyAndMetrics(t *testing.T) {
	st := storagetest.Open(t, storagetest.SQLiteURL(t))
	clk := newClock()
	h := newFarm(t, 70, 1)[0]
	h.set("/a.xml", farmFeed{items: 3})
	h.set("/b.xml", farmFeed{status: 404})
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	e := newTestEngine(t, st, clk, func(o *Options) { o.Metrics, o.Tick = m, 50*time.Millisecond })
	feeds := subscribeAll(t, e, 1, h.url("/a.xml"), h.url("/b.xml"))

	if err := e.Ready(ctxT(t)); err == nil {
		t.Error("ready before the poller started")
	}
	rec := httptest.NewRecorder()
	e.Readyz(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if rec.Code != http.StatusServiceUnavailable {
		t.Errorf("/readyz before start = %d", rec.Code)
	}
	rec = httptest.NewRecorder()
	e.Healthz(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("/healthz = %d", rec.Code)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- e.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for testutil.ToFloat64(m.polls.WithLabelValues("ok")) < 1 || testutil.ToFloat64(m.polls.WithLabelValues("not_found")) < 1 {
		if time.Now().After(deadline) {
			t.Fatal("the feeds were never polled")
		}
		time.Sleep(10 * time.Millisecond)
	}
	rec = httptest.NewRecorder()
	e.Readyz(rec, httptest.NewRequest(http.MethodGet, "/readyz", nil))
	if rec.Code != http.StatusOK {
		t.Errorf("/readyz while running = %d %s", rec.Code, rec.Body)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(m.imported); got != 3 {
		t.Errorf("entries imported = %v, want 3", got)
	}
	if got := testutil.ToFloat64(m.fetchBytes); got <= 0 {
		t.Errorf("fetch bytes = %v", got)
	}
	if n := testutil.CollectAndCount(m.fetchSeconds); n != 1 {
		t.Errorf("fetch duration series = %d", n)
	}
	// The backlog is counted at the start of each tick: the first saw 2.
	clk.advance(time.Hour)
	e.observeBacklog(ctxT(t))
	if got := testutil.ToFloat64(m.dueBacklog); got != 2 {
		t.Errorf("due backlog an hour later = %v, want 2", got)
	}
	// A manual poll waiting for a held host counts a lease conflict.
	if ok, _ := st.ClaimHost(ctxT(t), h.ip, "other", clk.Now(), time.Minute); !ok {
		t.Fatal("could not hold the host")
	}
	go func() {
		time.Sleep(250 * time.Millisecond)
		st.ReleaseHost(context.Background(), h.ip, "other")
	}()
	if _, err := e.PollNow(ctxT(t), feeds[0].FeedID); err != nil {
		t.Fatal(err)
	}
	if got := testutil.ToFloat64(m.leaseConflicts); got < 1 {
		t.Errorf("lease conflicts = %v, want at least 1", got)
	}
	if got := testutil.ToFloat64(m.polls.WithLabelValues("not_modified")); got != 1 {
		t.Errorf("not_modified polls = %v, want the manual poll's 1 (a 200 with the same body)", got)
	}
}
