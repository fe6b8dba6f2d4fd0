package storage_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// claimRounds is how often each worker tries to claim hosts.
const claimRounds = 30

// hostHolders proves mutual exclusion with files created O_EXCL: creating
// a host's file fails while another worker (goroutine or process) holds it.
type hostHolders struct{ dir string }

func (h hostHolders) take(host string) error {
	f, err := os.OpenFile(filepath.Join(h.dir, host), os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrExist) {
		return fmt.Errorf("host %s claimed while another worker holds it", host)
	}
	if err != nil {
		return err
	}
	return f.Close()
}

func (h hostHolders) give(host string) error { return os.Remove(filepath.Join(h.dir, host)) }

// seedHosts creates n hosts with one due, subscribed feed each, and
// returns the first feed's id.
func seedHosts(t *testing.T, st *storage.Store, n int) int64 {
	t.Helper()
	var first int64
	for i := range n {
		host := fmt.Sprintf("h%d.example", i)
		f := mustFeed(t, st, "https://"+host+"/rss", host)
		mustSub(t, st, f.ID, 1)
		if i == 0 {
			first = f.ID
		}
	}
	return first
}

// claimLoop is one worker: claim, hold briefly, give back, release. Every
// claim is also logged as activity, to add writers to the contention. It
// returns how many hosts it held.
func claimLoop(ctx context.Context, st *storage.Store, owner string, holders hostHolders, feedID int64) (int, error) {
	held := 0
	for range claimRounds {
		hosts, err := st.ClaimDueHosts(ctx, owner, time.Now(), time.Minute, 2, time.Time{})
		if err != nil {
			return held, err
		}
		for _, h := range hosts {
			if err := holders.take(h); err != nil {
				return held, err
			}
		}
		if len(hosts) > 0 {
			if err := st.AddActivity(ctx, storage.Activity{FeedID: feedID, Kind: "poll", Detail: owner}); err != nil {
				return held, err
			}
		}
		time.Sleep(time.Millisecond) // hold the hosts a moment
		for _, h := range hosts {
			// Give up the file first: once released, the host may be
			// claimed again at once.
			if err := holders.give(h); err != nil {
				return held, err
			}
			if err := st.ReleaseHost(ctx, h, owner); err != nil {
				return held, err
			}
		}
		held += len(hosts)
	}
	return held, nil
}

func TestHostClaimsFromTwoStores(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		seed := storagetest.Open(t, url)
		ctx := ctxT(t)
		feedID := seedHosts(t, seed, 3)
		holders := hostHolders{t.TempDir()}
		var (
			wg   sync.WaitGroup
			held [2]int
			errs [2]error
		)
		stores := []*storage.Store{storagetest.Open(t, url), storagetest.Open(t, url)}
		for w, st := range stores {
			wg.Go(func() { held[w], errs[w] = claimLoop(ctx, st, fmt.Sprintf("worker-%d", w), holders, feedID) })
		}
		wg.Wait()
		for w := range 2 {
			if errs[w] != nil {
				t.Errorf("worker %d: %v", w, errs[w])
			}
		}
		t.Logf("hosts held per worker: %v", held)
		if held[0] == 0 || held[1] == 0 {
			t.Errorf("hosts held per worker = %v; want both to get hosts", held)
		}
	})
}

// childEnv makes the test binary a claim worker on a SQLite file:
// "DATABASE_URL|HOLDERS_DIR|START_FILE|NAME|READY_FILE".
const childEnv = "RSSBOT_STORAGE_TEST_CLAIM_WORKER"

func TestHostClaimsFromTwoProcesses(t *testing.T) {
	if spec := os.Getenv(childEnv); spec != "" {
		runClaimChild(t, spec)
		return
	}
	dir := t.TempDir()
	url := "sqlite:" + filepath.Join(dir, "shared.db")
	st := storagetest.Open(t, url)
	seedHosts(t, st, 3)
	holders := t.TempDir()
	goFile := filepath.Join(dir, "go")

	cmds := make([]*childProc, 2)
	for i := range cmds {
		cmds[i] = startChild(t, fmt.Sprintf("%s|%s|%s|proc-%d", url, holders, goFile, i), filepath.Join(dir, fmt.Sprintf("ready-%d", i)))
	}
	for _, c := range cmds {
		c.waitReady(t)
	}
	if err := os.WriteFile(goFile, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for i, c := range cmds {
		held, out, err := c.finish()
		if err != nil {
			t.Fatalf("process %d: %v\n%s", i, err, out)
		}
		t.Logf("process %d held %d hosts", i, held)
		if held == 0 {
			t.Errorf("process %d held no host; want both processes to get hosts\n%s", i, out)
		}
	}
}

func TestConcurrentImportsQueueOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		seed := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, seed, "https://example.org/rss", "example.org")
		mustSub(t, seed, f.ID, 1)
		mustSub(t, seed, f.ID, 2)
		stores := []*storage.Store{storagetest.Open(t, url), storagetest.Open(t, url)}

		const rounds, perRound = 10, 5
		var totalNew, totalQueued int
		for r := range rounds {
			var batch []storage.EntryRecord
			for i := range perRound {
				batch = append(batch, rec(fmt.Sprintf("r%d-e%d", r, i)))
			}
			var (
				wg   sync.WaitGroup
				res  [2]storage.ImportResult
				errs [2]error
			)
			for w, st := range stores {
				wg.Go(func() {
					res[w], errs[w] = st.Import(ctx, storage.ImportBatch{Feed: f, Entries: batch, Queue: true, Now: t0})
				})
			}
			wg.Wait()
			for w := range stores {
				if errs[w] != nil {
					t.Fatalf("round %d, importer %d: %v", r, w, errs[w])
				}
				totalNew += res[w].New
				totalQueued += res[w].Queued
			}
		}
		if totalNew != rounds*perRound || totalQueued != rounds*perRound*2 {
			t.Errorf("new = %d, queued = %d; want %d and %d (each entry once, for each of 2 subscriptions)",
				totalNew, totalQueued, rounds*perRound, rounds*perRound*2)
		}
		if c := outboxCounts(t, seed); c[storage.StatePending] != rounds*perRound*2 {
			t.Errorf("outbox = %v; want %d pending rows", c, rounds*perRound*2)
		}
	})
}

func TestConcurrentOutboxClaimsNeverShareRows(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		seed := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, seed, "https://example.org/rss", "example.org")
		for chat := range int64(3) {
			mustSub(t, seed, f.ID, chat+1)
		}
		var batch []storage.EntryRecord
		for i := range 20 {
			batch = append(batch, rec(fmt.Sprint(i)))
		}
		total := mustImport(t, seed, f, t0, batch...).Queued

		var (
			wg      sync.WaitGroup
			claimed [2][]int64
			errs    [2]error
		)
		stores := []*storage.Store{storagetest.Open(t, url), storagetest.Open(t, url)}
		for w, st := range stores {
			owner := fmt.Sprintf("sender-%d", w)
			wg.Go(func() {
				for {
					ds, err := st.ClaimOutbox(ctx, owner, t0, time.Hour, 4)
					if err != nil || len(ds) == 0 {
						errs[w] = err
						return
					}
					time.Sleep(time.Millisecond) // sending takes a moment
					for _, d := range ds {
						claimed[w] = append(claimed[w], d.Outbox.ID)
						if err := st.MarkSent(ctx, d.Outbox.ID, owner, []int{int(d.Outbox.ID)}, t0); err != nil {
							errs[w] = err
							return
						}
					}
				}
			})
		}
		wg.Wait()
		seen := map[int64]int{}
		for w := range 2 {
			if errs[w] != nil {
				t.Fatalf("sender %d: %v", w, errs[w])
			}
			for _, id := range claimed[w] {
				seen[id]++
				if seen[id] > 1 {
					t.Errorf("row %d claimed twice", id)
				}
			}
		}
		if len(seen) != total {
			t.Errorf("claimed %d distinct rows, want all %d", len(seen), total)
		}
		if c := outboxCounts(t, seed); c[storage.StateSent] != total || len(c) != 1 {
			t.Errorf("outbox = %v; want all %d sent", c, total)
		}
		t.Logf("rows per sender: %d, %d", len(claimed[0]), len(claimed[1]))
	})
}

// The bot and `rssbot migrate` may start together on a fresh file.
func TestConcurrentMigrations(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		ctx := ctxT(t)
		stores := make([]*storage.Store, 2)
		for i := range stores {
			st, err := storage.Open(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st.Close() })
			stores[i] = st
		}
		var (
			wg   sync.WaitGroup
			errs [2]error
		)
		for i, st := range stores {
			wg.Go(func() { errs[i] = st.Migrate(ctx) })
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Errorf("Migrate %d: %v", i, err)
			}
		}
		mustFeed(t, stores[0], "https://example.org/rss", "example.org")
	})
}
