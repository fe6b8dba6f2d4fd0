package storage_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// claimIDs claims in order and returns the outbox ids.
func claimIDs(t *testing.T, st *storage.Store, owner string, now time.Time, limit int) []int64 {
	t.Helper()
	ds, err := st.ClaimOutbox(ctxT(t), owner, now, time.Minute, limit)
	if err != nil {
		t.Fatalf("ClaimOutbox: %v", err)
	}
	ids := make([]int64, len(ds))
	for i, d := range ds {
		ids[i] = d.Outbox.ID
	}
	return ids
}

// outboxIDs maps "entry identity/chat" to the outbox id, for readable tests.
func outboxIDs(t *testing.T, st *storage.Store, now time.Time) map[string]int64 {
	t.Helper()
	// A claim by a throwaway owner far in the future sees every row; it is
	// rolled back by releasing each row untouched.
	ds, err := st.ClaimOutbox(ctxT(t), "peek", now, time.Millisecond, 1000)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, d := range ds {
		out[d.Entry.Identity+"/"+strconv.FormatInt(d.Chat.ID, 10)] = d.Outbox.ID
		if err := st.ReleaseOutbox(ctxT(t), d.Outbox.ID, "peek", "", d.Outbox.NextAttemptAt); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The per-chat order rule: a chat's row that is retried later holds back
// the chat's newer rows (of every subscription), and nothing of other chats.
func TestClaimOutboxHoldsChatBehindRetry(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		fa := mustFeed(t, st, "https://a.example/rss", "a.example")
		fb := mustFeed(t, st, "https://b.example/rss", "b.example")
		mustSub(t, st, fa.ID, 1)
		mustSub(t, st, fa.ID, 2)
		mustSub(t, st, fb.ID, 1)
		mustImport(t, st, fa, t0, recs("a1", "a2")...)
		mustImport(t, st, fb, t0, rec("b1"))
		id := outboxIDs(t, st, t0)

		first := claimIDs(t, st, "w", t0, 1)
		if !slices.Equal(first, []int64{id["a1/1"]}) {
			t.Fatalf("first claim = %v, want a1 of chat 1 (%d)", first, id["a1/1"])
		}
		retryAt := t0.Add(5 * time.Minute)
		if err := st.MarkRetry(ctx, first[0], "w", "connection reset", retryAt); err != nil {
			t.Fatal(err)
		}
		got := claimIDs(t, st, "w", t0.Add(time.Second), 10)
		if want := []int64{id["a1/2"], id["a2/2"]}; !slices.Equal(got, want) {
			t.Fatalf("claim while chat 1 retries = %v, want only chat 2's rows %v", got, want)
		}
		for _, oid := range got {
			if err := st.MarkSent(ctx, oid, "w", []int{1}, t0); err != nil {
				t.Fatal(err)
			}
		}
		if got := claimIDs(t, st, "w", retryAt.Add(-time.Millisecond), 10); len(got) != 0 {
			t.Fatalf("claim before the retry is due = %v, want none", got)
		}
		got = claimIDs(t, st, "w", retryAt, 10)
		if want := []int64{id["a1/1"], id["a2/1"], id["b1/1"]}; !slices.Equal(got, want) {
			t.Fatalf("claim once due = %v, want chat 1 in order %v", got, want)
		}
	})
}

// A row leased to a live sender holds its chat for every other claimer; a
// paused subscription's waiting row holds nothing.
func TestClaimOutboxLeaseAndPause(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		fa := mustFeed(t, st, "https://a.example/rss", "a.example")
		fb := mustFeed(t, st, "https://b.example/rss", "b.example")
		subA := mustSub(t, st, fa.ID, 1)
		mustSub(t, st, fb.ID, 1)
		mustSub(t, st, fb.ID, 2)
		mustImport(t, st, fa, t0, rec("a1"))
		mustImport(t, st, fb, t0, rec("b1"))
		id := outboxIDs(t, st, t0)

		if got := claimIDs(t, st, "w", t0, 1); !slices.Equal(got, []int64{id["a1/1"]}) {
			t.Fatalf("w claimed %v", got)
		}
		if got := claimIDs(t, st, "x", t0, 10); !slices.Equal(got, []int64{id["b1/2"]}) {
			t.Fatalf("x claimed %v, want only chat 2's row while w sends to chat 1", got)
		}
		if err := st.MarkSent(ctx, id["b1/2"], "x", nil, t0); err != nil {
			t.Fatal(err)
		}
		// w is told to retry a1 later, then the subscription is paused:
		// its waiting row must not stall chat 1's other subscription.
		if err := st.MarkRetry(ctx, id["a1/1"], "w", "x", t0.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if got := claimIDs(t, st, "x", t0.Add(2*time.Minute), 10); len(got) != 0 {
			t.Fatalf("claimed %v while chat 1's older row waits", got)
		}
		if err := st.SetPaused(ctx, subA.ID, true, "test"); err != nil {
			t.Fatal(err)
		}
		if got := claimIDs(t, st, "x", t0.Add(2*time.Minute), 10); !slices.Equal(got, []int64{id["b1/1"]}) {
			t.Fatalf("claimed %v, want b1 of chat 1 once a1's subscription is paused", got)
		}
	})
}

// Property: whatever happens to claimed rows (sent, retried, released),
// each chat's rows are sent exactly once and oldest first.
func TestClaimOutboxUnderRetries(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		rng := rand.New(rand.NewPCG(1, 2))
		const chats, entries = 4, 12
		var feeds []storage.Feed
		for i, host := range []string{"a.example", "b.example"} {
			f := mustFeed(t, st, "https://"+host+"/rss", host)
			feeds = append(feeds, f)
			for c := int64(1); c <= chats; c++ {
				if i == 0 || c%2 == 0 {
					mustSub(t, st, f.ID, c)
				}
			}
		}
		for e := 0; e < entries; e++ {
			f := feeds[e%2]
			mustImport(t, st, f, t0, rec(fmt.Sprintf("%s-%d", f.Host, e)))
		}
		total := outboxCounts(t, st)[storage.StatePending]
		sent := map[int64][]int64{} // chat → outbox ids in the order sent
		now := t0
		for round := 0; round < 400 && len(flatten(sent)) < total; round++ {
			now = now.Add(time.Second)
			ds, err := st.ClaimOutbox(ctx, "w", now, time.Minute, 5)
			if err != nil {
				t.Fatal(err)
			}
			stopped := map[int64]bool{}
			for _, d := range ds {
				oid, chat := d.Outbox.ID, d.Chat.ID
				if stopped[chat] { // an older row of the chat did not go
					err = st.ReleaseOutbox(ctx, oid, "w", "", now)
				} else {
					switch r := rng.IntN(10); {
					case r < 5:
						sent[chat] = append(sent[chat], oid)
						err = st.MarkSent(ctx, oid, "w", []int{int(oid)}, now)
					case r < 8:
						stopped[chat] = true
						err = st.MarkRetry(ctx, oid, "w", "network", now.Add(time.Duration(rng.IntN(4))*time.Second))
					default:
						stopped[chat] = true
						err = st.ReleaseOutbox(ctx, oid, "w", "429", now.Add(time.Duration(rng.IntN(3))*time.Second))
					}
				}
				if err != nil {
					t.Fatal(err)
				}
			}
		}
		if got := len(flatten(sent)); got != total {
			t.Fatalf("%d of %d rows sent", got, total)
		}
		seen := map[int64]bool{}
		for chat, ids := range sent {
			if !slices.IsSorted(ids) {
				t.Errorf("chat %d got rows in the order %v, want oldest first", chat, ids)
			}
			for _, id := range ids {
				if seen[id] {
					t.Errorf("row %d sent twice", id)
				}
				seen[id] = true
			}
		}
		if c := outboxCounts(t, st); c[storage.StateSent] != total || len(c) != 1 {
			t.Errorf("outbox = %v, want all %d sent", c, total)
		}
	})
}

func flatten(m map[int64][]int64) []int64 {
	var out []int64
	for _, ids := range m {
		out = append(out, ids...)
	}
	return out
}

// ReleaseOutbox returns a row without counting an attempt.
func TestReleaseOutbox(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		mustSub(t, st, f.ID, 1)
		mustImport(t, st, f, t0, rec("a"))
		ds, err := st.ClaimOutbox(ctx, "w", t0, time.Minute, 10)
		if err != nil || len(ds) != 1 {
			t.Fatalf("claim = %v, %v", ds, err)
		}
		oid := ds[0].Outbox.ID
		next := t0.Add(7 * time.Second)
		if err := st.ReleaseOutbox(ctx, oid, "w", "Too Many Requests: retry after 7", next); err != nil {
			t.Fatal(err)
		}
		row, err := st.OutboxByID(ctx, oid)
		if err != nil || row.State != storage.StatePending || row.Attempts != 0 || !row.NextAttemptAt.Equal(next) ||
			row.LastError != "Too Many Requests: retry after 7" || row.LeaseOwner != "" {
			t.Fatalf("released row = %+v, %v", row, err)
		}
		wantErrIs(t, st.ReleaseOutbox(ctx, oid, "w", "", next), storage.ErrLeaseLost)
		if _, err := st.ClaimOutbox(ctx, "w", next, time.Minute, 10); err != nil {
			t.Fatal(err)
		}
		if err := st.ReleaseOutbox(ctx, oid, "w", "", next); err != nil {
			t.Fatal(err)
		}
		if row, err := st.OutboxByID(ctx, oid); err != nil || row.LastError != "Too Many Requests: retry after 7" || row.Attempts != 0 {
			t.Fatalf("released without error text = %+v, %v; want the last error kept", row, err)
		}
	})
}
