package storage_test

import (
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
)

func TestFeedsRoundTrip(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		// A URL longer than any VARCHAR key: uniqueness goes by its hash.
		long := "https://example.org/feed?" + strings.Repeat("x", 3000)
		f := mustFeed(t, st, long, "example.org")
		if f.ID == 0 || f.URL != long || f.Host != "example.org" || !f.NextPollAt.Equal(t0) || f.CreatedAt.IsZero() {
			t.Fatalf("new feed = %+v", f)
		}
		again, created, err := st.EnsureFeed(ctx, long, "example.org", t0.Add(time.Hour))
		if err != nil || created || again.ID != f.ID || !again.NextPollAt.Equal(t0) {
			t.Fatalf("EnsureFeed again = %+v, %v, %v; want the same feed, unchanged", again, created, err)
		}

		// Servers send what they like: long validators must still save.
		f.Title, f.SiteURL, f.ETag, f.BodySHA256 = "Title ✓", "https://example.org/", `"`+strings.Repeat("e", 2000)+`"`, "abc"
		f.LastModified = "Mon, 01 Jan 2024 00:00:00 GMT" + strings.Repeat(" ", 1000)
		f.NextPollAt, f.NextPollReason = t0.Add(10*time.Minute), "base"
		f.LastPollAt, f.LastSuccessAt = t0.Add(time.Millisecond), t0
		f.EmptyPolls, f.ConsecutiveErrors, f.FailingSince, f.LastError = 2, 3, t0.Add(-time.Hour), "boom"
		f.HintSeconds, f.RateLimitedUntil = 3600, t0.Add(time.Hour)
		f.SkipHours, f.SkipDays = "0,1,2", strings.Repeat("Saturday,", 100)
		f.DisabledAt, f.DisabledReason = t0.Add(2*time.Hour), "gone"
		f.PendingPageURL, f.HubURL, f.SelfURL = "https://example.org/page2", "https://hub.example/", "https://example.org/self"
		f.UserAgent, f.Headers, f.CredentialsRef = "ua/1", `{"X-A":"b"}`, "cred-1"
		if err := st.SaveFeed(ctx, f); err != nil {
			t.Fatalf("SaveFeed: %v", err)
		}
		got, err := st.FeedByID(ctx, f.ID)
		if err != nil {
			t.Fatalf("FeedByID: %v", err)
		}
		assertFeedEqual(t, got, f)
		byURL, err := st.FeedByURL(ctx, long)
		if err != nil || byURL.ID != f.ID {
			t.Fatalf("FeedByURL = %+v, %v", byURL, err)
		}

		// A second feed lists after the first.
		g := mustFeed(t, st, "https://other.example/rss", "other.example")
		all, err := st.ListFeeds(ctx)
		if err != nil || len(all) != 2 || all[0].ID != f.ID || all[1].ID != g.ID {
			t.Fatalf("ListFeeds = %v, %v", all, err)
		}

		if err := st.DeleteFeed(ctx, g.ID); err != nil {
			t.Fatalf("DeleteFeed: %v", err)
		}
		_, err = st.FeedByID(ctx, g.ID)
		wantErrIs(t, err, storage.ErrNotFound)
		wantErrIs(t, st.DeleteFeed(ctx, g.ID), storage.ErrNotFound)
		_, err = st.FeedByURL(ctx, "https://nowhere.example/")
		wantErrIs(t, err, storage.ErrNotFound)
		wantErrIs(t, st.SaveFeed(ctx, storage.Feed{ID: 999999}), storage.ErrNotFound)
	})
}

// assertFeedEqual compares every field; times with Equal.
func assertFeedEqual(t *testing.T, got, want storage.Feed) {
	t.Helper()
	times := [][3]any{
		{"NextPollAt", got.NextPollAt, want.NextPollAt}, {"LastPollAt", got.LastPollAt, want.LastPollAt},
		{"LastSuccessAt", got.LastSuccessAt, want.LastSuccessAt}, {"FailingSince", got.FailingSince, want.FailingSince},
		{"RateLimitedUntil", got.RateLimitedUntil, want.RateLimitedUntil}, {"DisabledAt", got.DisabledAt, want.DisabledAt},
		{"CreatedAt", got.CreatedAt, want.CreatedAt},
	}
	for _, tt := range times {
		if !tt[1].(time.Time).Equal(tt[2].(time.Time)) {
			t.Errorf("%s = %v, want %v", tt[0], tt[1], tt[2])
		}
	}
	g, w := got, want
	g.NextPollAt, g.LastPollAt, g.LastSuccessAt, g.FailingSince, g.RateLimitedUntil, g.DisabledAt, g.CreatedAt = w.NextPollAt, w.LastPollAt, w.LastSuccessAt, w.FailingSince, w.RateLimitedUntil, w.DisabledAt, w.CreatedAt
	if g != w {
		t.Errorf("feed = %+v\nwant   %+v", got, want)
	}
}

func TestEnsureFeedEnablesDisabledFeed(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, url string) {
		st := storagetest.Open(t, url)
		ctx := ctxT(t)
		f := mustFeed(t, st, "https://example.org/rss", "example.org")
		f.DisabledAt, f.DisabledReason = t0, "410 Gone"
		f.ConsecutiveErrors, f.FailingSince = 12, t0.Add(-8*24*time.Hour)
		f.NextPollAt = t0.Add(24 * time.Hour)
		if err := st.SaveFeed(ctx, f); err != nil {
			t.Fatal(err)
		}
		now := t0.Add(time.Hour)
		got, created, err := st.EnsureFeed(ctx, f.URL, f.Host, now)
		if err != nil || created {
			t.Fatalf("EnsureFeed = %v, %v", created, err)
		}
		if !got.DisabledAt.IsZero() || got.DisabledReason != "" || got.ConsecutiveErrors != 0 ||
			!got.FailingSince.IsZero() || !got.NextPollAt.Equal(now) {
			t.Fatalf("re-enabled feed = %+v", got)
		}
	})
}
