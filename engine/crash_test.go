package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// crashEnv carries the child's task: database URL, clock (unix ms), the
// feed whose import to die in, and after how many queue decisions.
const crashEnv = "RSSBOT_ENGINE_CRASH_CHILD"

// TestKilledMidImport kills a poller (SIGKILL, a separate process) inside
// the import transaction of its second feed, then restarts: the feed
// imported before the kill keeps its entries and rows, the interrupted one
// has none, and after the restart every new entry is queued exactly once
// per subscription: nothing lost, nothing repeated.
func TestKilledMidImport(t *testing.T) {
	if spec := os.Getenv(crashEnv); spec != "" {
		runCrashChild(t, spec)
		return
	}
	storagetest.Each(t, func(t *testing.T, dbURL string) {
		st := storagetest.Open(t, dbURL)
		clk := newClock()
		h := newFarm(t, 60, 1)[0]
		paths := []string{"/a.xml", "/b.xml", "/c.xml"}
		var urls []string
		for _, p := range paths {
			h.set(p, farmFeed{items: 2})
			urls = append(urls, h.url(p))
		}
		e := newTestEngine(t, st, clk, nil)
		subscribeAll(t, e, 1, urls...)
		subscribeAll(t, e, 2, urls...)
		mustTick(t, e)
		for _, p := range paths {
			h.update(p, func(f *farmFeed) { f.items = 12 })
		}
		clk.advance(11 * time.Minute)
		feeds := make([]storage.Feed, len(urls))
		for i, u := range urls {
			feeds[i] = mustFeedByURL(t, st, u)
		}

		out, err := runChild(t, fmt.Sprintf("%s|%d|%d|%d", dbURL, clk.Now().UnixMilli(), feeds[1].ID, 5))
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("child was not killed mid-import: %v\n%s", err, out)
		}
		counts := func() []int {
			var n []int
			for _, f := range feeds {
				c, err := st.CountEntries(ctxT(t), f.ID)
				if err != nil {
					t.Fatal(err)
				}
				n = append(n, c)
			}
			return n
		}
		if got := counts(); fmt.Sprint(got) != "[12 2 2]" || outboxCount(t, st) != 20 {
			t.Fatalf("after the kill: entries %v, outbox %d; want a imported (12, 20 rows), b rolled back, c untouched", got, outboxCount(t, st))
		}
		if b, _ := st.FeedByID(ctxT(t), feeds[1].ID); !b.LastPollAt.Equal(feeds[1].LastPollAt) {
			t.Fatalf("the interrupted feed's state changed: last poll %v → %v", feeds[1].LastPollAt, b.LastPollAt)
		}

		// Restart after the dead poller's host lease ran out.
		clk.advance(2 * time.Minute)
		restarted := newTestEngine(t, st, clk, func(o *Options) { o.Owner = "restarted" })
		if sum := mustTick(t, restarted); sum.Feeds != 2 || sum.Queued != 40 {
			t.Fatalf("restart tick = %+v; want b and c polled, 2 × 10 × 2 queued", sum)
		}
		clk.advance(time.Hour)
		mustTick(t, restarted)
		if got := counts(); fmt.Sprint(got) != "[12 12 12]" || outboxCount(t, st) != 60 {
			t.Fatalf("after restart: entries %v, outbox %d; want 12 each and 60 rows", got, outboxCount(t, st))
		}
		ds, err := st.ClaimOutbox(ctxT(t), "w", clk.Now(), time.Minute, 100)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, d := range ds {
			k := fmt.Sprintf("%d/%s", d.Subscription.ID, d.Entry.Identity)
			if seen[k] {
				t.Errorf("queued twice: %s", k)
			}
			seen[k] = true
		}
		if len(seen) != 60 {
			t.Errorf("%d distinct rows, want 60", len(seen))
		}
	})
}

func runChild(t *testing.T, spec string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKilledMidImport$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+spec)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// runCrashChild is the child: poll once and die inside the chosen feed's
// import transaction.
func runCrashChild(t *testing.T, spec string) {
	parts := strings.Split(spec, "|")
	if len(parts) != 4 {
		t.Fatalf("bad %s %q", crashEnv, spec)
	}
	ms, _ := strconv.ParseInt(parts[1], 10, 64)
	feedID, _ := strconv.ParseInt(parts[2], 10, 64)
	killAt, _ := strconv.Atoi(parts[3])
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	st, err := storage.Open(ctx, parts[0])
	if err != nil {
		t.Fatal(err)
	}
	clk := &testClock{now: time.UnixMilli(ms).UTC()}
	e := newTestEngine(t, st, clk, func(o *Options) { o.Owner, o.Concurrency = "doomed", 1 })
	calls := 0
	e.hooks.accept = func(id int64) {
		if id != feedID {
			return
		}
		if calls++; calls == killAt {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
	}
	if _, err := e.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	t.Fatal("the import never reached the kill point")
}
