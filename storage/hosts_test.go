package storage_test

import (
	"slices"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestClaimDueHosts(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		// due.example: due and subscribed. later.example: subscribed, due in
		// an hour. lonely.example: due, no subscription. off.example: due,
		// subscribed, disabled.
		due := mustFeed(t, st, "https://due.example/rss", "due.example")
		mustSub(t, st, due.ID, 1)
		later, _, err := st.EnsureFeed(ctx, "https://later.example/rss", "later.example", t0.Add(time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		mustSub(t, st, later.ID, 1)
		mustFeed(t, st, "https://lonely.example/rss", "lonely.example")
		off := mustFeed(t, st, "https://off.example/rss", "off.example")
		mustSub(t, st, off.ID, 1)
		off.DisabledAt = t0
		if err := st.SaveFeed(ctx, off); err != nil {
			t.Fatal(err)
		}

		tests := []struct {
			name           string
			owner          string
			now            time.Time
			notPolledSince time.Time
			want           []string
		}{
			{"only the due, enabled, subscribed host", "a", t0, time.Time{}, []string{"due.example"}},
			{"a live lease hides the host from others", "b", t0.Add(time.Second), time.Time{}, nil},
			{"a cutoff adds feeds never polled", "b", t0.Add(time.Second), t0, []string{"later.example"}},
			{"an expired lease can be claimed", "c", t0.Add(2 * time.Minute), time.Time{}, []string{"due.example"}},
		}
		for _, tt := range tests {
			got, err := st.ClaimDueHosts(ctx, tt.owner, tt.now, time.Minute, 10, tt.notPolledSince)
			if err != nil {
				t.Fatalf("%s: %v", tt.name, err)
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("%s: ClaimDueHosts = %v, want %v", tt.name, got, tt.want)
			}
		}

		// The lease belongs to c now: a cannot renew it, c can.
		if ok, err := st.RenewHostLease(ctx, "due.example", "a", t0.Add(time.Hour)); err != nil || ok {
			t.Fatalf("RenewHostLease by the old owner = %v, %v; want false", ok, err)
		}
		if ok, err := st.RenewHostLease(ctx, "due.example", "c", t0.Add(time.Hour)); err != nil || !ok {
			t.Fatalf("RenewHostLease by the owner = %v, %v; want true", ok, err)
		}
		// Renewed until t0+1h: still held at t0+30m, even after a's release.
		if err := st.ReleaseHost(ctx, "due.example", "a"); err != nil {
			t.Fatal(err)
		}
		if got, err := st.ClaimDueHosts(ctx, "d", t0.Add(30*time.Minute), time.Minute, 10, time.Time{}); err != nil || len(got) != 0 {
			t.Fatalf("claim during renewed lease = %v, %v; want none", got, err)
		}
		if err := st.ReleaseHost(ctx, "due.example", "c"); err != nil {
			t.Fatal(err)
		}
		if got, err := st.ClaimDueHosts(ctx, "d", t0.Add(30*time.Minute), time.Minute, 10, time.Time{}); err != nil || !slices.Equal(got, []string{"due.example"}) {
			t.Fatalf("claim after release = %v, %v; want due.example", got, err)
		}
	})
}

func TestClaimDueHostsLimit(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		for _, h := range []string{"a.example", "b.example", "c.example"} {
			f := mustFeed(t, st, "https://"+h+"/rss", h)
			mustSub(t, st, f.ID, 1)
		}
		ctx := ctxT(t)
		first, err := st.ClaimDueHosts(ctx, "w1", t0, time.Minute, 2, time.Time{})
		if err != nil || !slices.Equal(first, []string{"a.example", "b.example"}) {
			t.Fatalf("first claim = %v, %v", first, err)
		}
		second, err := st.ClaimDueHosts(ctx, "w2", t0, time.Minute, 2, time.Time{})
		if err != nil || !slices.Equal(second, []string{"c.example"}) {
			t.Fatalf("second claim = %v, %v", second, err)
		}
		if got, err := st.ClaimDueHosts(ctx, "w3", t0, time.Minute, 0, time.Time{}); err != nil || got != nil {
			t.Fatalf("limit 0 = %v, %v", got, err)
		}
	})
}

func TestDueFeeds(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		mk := func(path string, next time.Time, subscribed bool) storage.Feed {
			f, _, err := st.EnsureFeed(ctx, "https://h.example/"+path, "h.example", next)
			if err != nil {
				t.Fatal(err)
			}
			if subscribed {
				mustSub(t, st, f.ID, 1)
			}
			return f
		}
		late := mk("late", t0.Add(-time.Minute), true)
		early := mk("early", t0.Add(-time.Hour), true)
		never := mk("never", time.Time{}, true)
		future := mk("future", t0.Add(time.Hour), true)
		mk("unsubscribed", t0.Add(-time.Hour), false)
		other, _, err := st.EnsureFeed(ctx, "https://other.example/rss", "other.example", t0.Add(-time.Hour))
		if err != nil {
			t.Fatal(err)
		}
		mustSub(t, st, other.ID, 1)

		ids := func(fs []storage.Feed) []int64 {
			var out []int64
			for _, f := range fs {
				out = append(out, f.ID)
			}
			return out
		}
		got, err := st.DueFeeds(ctx, "h.example", t0, time.Time{})
		if err != nil || !slices.Equal(ids(got), []int64{never.ID, early.ID, late.ID}) {
			t.Fatalf("DueFeeds = %v, %v; want never-scheduled, then by next_poll_at", ids(got), err)
		}
		got, err = st.DueFeeds(ctx, "h.example", t0, t0)
		if err != nil || !slices.Equal(ids(got), []int64{never.ID, early.ID, late.ID, future.ID}) {
			t.Fatalf("DueFeeds(cutoff) = %v, %v", ids(got), err)
		}
		// A forced round ends for a feed once it was polled after the cutoff.
		future.LastPollAt = t0.Add(time.Second)
		if err := st.SaveFeed(ctx, future); err != nil {
			t.Fatal(err)
		}
		got, err = st.DueFeeds(ctx, "h.example", t0, t0)
		if err != nil || !slices.Equal(ids(got), []int64{never.ID, early.ID, late.ID}) {
			t.Fatalf("DueFeeds(cutoff) after polling = %v, %v", ids(got), err)
		}
		n, err := st.CountDueFeeds(ctx, t0)
		if err != nil || n != 4 { // never, early, late on h.example and other.example
			t.Fatalf("CountDueFeeds = %d, %v; want 4", n, err)
		}
	})
}

func TestNamedLeases(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		steps := []struct {
			owner string
			now   time.Time
			want  bool
		}{
			{"a", t0, true},                        // free
			{"b", t0.Add(10 * time.Second), false}, // a holds it
			{"a", t0.Add(20 * time.Second), true},  // a renews until +50s
			{"b", t0.Add(40 * time.Second), false}, // still a's
			{"b", t0.Add(50 * time.Second), true},  // expired: b takes it
			{"a", t0.Add(55 * time.Second), false}, // b holds it
		}
		for i, s := range steps {
			ok, err := st.AcquireLease(ctx, "telegram", s.owner, s.now, 30*time.Second)
			if err != nil || ok != s.want {
				t.Fatalf("step %d: AcquireLease(%s) = %v, %v; want %v", i, s.owner, ok, err, s.want)
			}
		}
		if err := st.ReleaseLease(ctx, "telegram", "a"); err != nil {
			t.Fatal(err)
		}
		if ok, _ := st.AcquireLease(ctx, "telegram", "a", t0.Add(60*time.Second), 30*time.Second); ok {
			t.Fatal("a's release freed b's lease")
		}
		if err := st.ReleaseLease(ctx, "telegram", "b"); err != nil {
			t.Fatal(err)
		}
		if ok, err := st.AcquireLease(ctx, "telegram", "a", t0.Add(60*time.Second), 30*time.Second); err != nil || !ok {
			t.Fatalf("after b's release AcquireLease(a) = %v, %v", ok, err)
		}
		// Names are independent.
		if ok, err := st.AcquireLease(ctx, "other", "b", t0.Add(60*time.Second), 30*time.Second); err != nil || !ok {
			t.Fatalf("another name = %v, %v", ok, err)
		}
	})
}

func TestClaimHost(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		steps := []struct {
			name  string
			owner string
			now   time.Time
			want  bool
		}{
			{"a host without a row is created and claimed", "a", t0, true},
			{"another owner waits for a live lease", "b", t0.Add(10 * time.Second), false},
			{"the owner extends its own lease", "a", t0.Add(50 * time.Second), true},
			{"still held after the first lease would have ended", "b", t0.Add(70 * time.Second), false},
			{"an expired lease can be taken", "b", t0.Add(111 * time.Second), true},
		}
		for _, s := range steps {
			ok, err := st.ClaimHost(ctx, "manual.example", s.owner, s.now, time.Minute)
			if err != nil || ok != s.want {
				t.Fatalf("%s: ClaimHost(%s) = %v, %v; want %v", s.name, s.owner, ok, err, s.want)
			}
		}
		// A host claimed by hand is hidden from the due claim too.
		f := mustFeed(t, st, "https://manual.example/rss", "manual.example")
		mustSub(t, st, f.ID, 1)
		got, err := st.ClaimDueHosts(ctx, "c", t0.Add(112*time.Second), time.Minute, 10, time.Time{})
		if err != nil || len(got) != 0 {
			t.Fatalf("ClaimDueHosts during a manual claim = %v, %v; want none", got, err)
		}
	})
}
