package storage_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
)

// t0 is the fixed "now" of most tests: milliseconds only, as stored.
var t0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func ctxT(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// mustFeed creates a feed due at t0 on host.
func mustFeed(t *testing.T, st *storage.Store, url, host string) storage.Feed {
	t.Helper()
	f, created, err := st.EnsureFeed(ctxT(t), url, host, t0)
	if err != nil {
		t.Fatalf("EnsureFeed(%s): %v", url, err)
	}
	if !created {
		t.Fatalf("EnsureFeed(%s): created = false for a new feed", url)
	}
	return f
}

// mustSub subscribes chat to feed (topic 0) with defaults.
func mustSub(t *testing.T, st *storage.Store, feedID, chatID int64) storage.Subscription {
	t.Helper()
	sub, created, err := st.Subscribe(ctxT(t), storage.Subscription{FeedID: feedID, ChatID: chatID, CreatedAt: t0})
	if err != nil {
		t.Fatalf("Subscribe(feed %d, chat %d): %v", feedID, chatID, err)
	}
	if !created {
		t.Fatalf("Subscribe(feed %d, chat %d): created = false for a new subscription", feedID, chatID)
	}
	return sub
}

// rec builds an entry record whose identity is id.
func rec(id string) storage.EntryRecord {
	sum := sha256.Sum256([]byte(id))
	return storage.EntryRecord{
		IdentityHash: hex.EncodeToString(sum[:]),
		Identity:     id,
		Checksum:     "c-" + id,
		Title:        "Title " + id,
		Link:         "https://example.org/" + id,
		PublishedAt:  t0.Add(-time.Hour),
		Payload:      []byte(fmt.Sprintf(`{"id":%q}`, id)),
	}
}

func recs(ids ...string) []storage.EntryRecord {
	out := make([]storage.EntryRecord, len(ids))
	for i, id := range ids {
		out[i] = rec(id)
	}
	return out
}

// mustImport imports entries into f with queueing on.
func mustImport(t *testing.T, st *storage.Store, f storage.Feed, now time.Time, entries ...storage.EntryRecord) storage.ImportResult {
	t.Helper()
	res, err := st.Import(ctxT(t), storage.ImportBatch{Feed: f, Entries: entries, Queue: true, Now: now})
	if err != nil {
		t.Fatalf("Import: %v", err)
	}
	return res
}

func wantErrIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error = %v, want one wrapping %v", err, target)
	}
}

func outboxCounts(t *testing.T, st *storage.Store) map[string]int {
	t.Helper()
	c, err := st.CountOutbox(ctxT(t))
	if err != nil {
		t.Fatalf("CountOutbox: %v", err)
	}
	return c
}
