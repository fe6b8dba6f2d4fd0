package deliver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

const adminID = 7

// fixture is a store with one feed and one subscription of chatID.
type fixture struct {
	store *storage.Store
	feed  storage.Feed
	sub   storage.Subscription
	now   time.Time
}

func newFixture(t *testing.T, databaseURL string, sub storage.Subscription) *fixture {
	t.Helper()
	ctx := context.Background()
	st := storagetest.Open(t, databaseURL)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	f, _, err := st.EnsureFeed(ctx, "https://example.org/feed.xml", "example.org", now)
	if err != nil {
		t.Fatal(err)
	}
	f.Title = "Example & Co"
	sub.FeedID, sub.ChatID = f.ID, chatID
	if sub, _, err = st.Subscribe(ctx, sub); err != nil {
		t.Fatal(err)
	}
	return &fixture{store: st, feed: f, sub: sub, now: now}
}

// queue stores entries as new and queues them for the subscription.
func (fx *fixture) queue(t *testing.T, entries ...feed.Entry) {
	t.Helper()
	var recs []storage.EntryRecord
	for _, e := range entries {
		payload, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, storage.EntryRecord{IdentityHash: e.Identity, Identity: e.Identity, Checksum: e.Identity,
			Title: e.Title, Link: e.Link, Payload: payload})
	}
	if _, err := fx.store.Import(context.Background(), storage.ImportBatch{Feed: fx.feed, Entries: recs, Queue: true, Now: fx.now}); err != nil {
		t.Fatal(err)
	}
}

func (fx *fixture) deliverer(api API, r *templates.Renderer) *Deliverer {
	return New(Options{API: api, Store: fx.store, Renderer: r, Language: "en", AdminID: adminID, Owner: "test",
		Now: func() time.Time { return fx.now }})
}

func (fx *fixture) outbox(t *testing.T) map[string]int {
	t.Helper()
	n, err := fx.store.CountOutbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// Delivery renders with the subscription's options and the feed's
// replacements, sends, and marks the rows sent.
func TestDeliverSendsAndMarks(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone, Silent: true})
		ctx := context.Background()
		if _, err := fx.store.AddReplacement(ctx, storage.Replacement{Pattern: "Read more on XYZ"}); err != nil {
			t.Fatal(err)
		}
		if _, err := fx.store.AddReplacement(ctx, storage.Replacement{FeedID: fx.feed.ID, Pattern: `(\d+) EUR`, IsRegex: true, Replacement: "€$1"}); err != nil {
			t.Fatal(err)
		}
		fx.queue(t,
			feed.Entry{Identity: "a", Title: "First", Link: "https://example.org/a", ContentHTML: "<p>Costs 5 EUR.</p><p>Read more on <a href=\"https://xyz.example\">XYZ</a></p>"},
			feed.Entry{Identity: "b", Title: "Second", Link: "https://example.org/b"})
		d := fx.deliverer(api, templates.Default(time.UTC))
		if n := d.Due(ctx); n != 2 {
			t.Fatalf("Due handled %d rows, want 2", n)
		}
		msgs := tg.Messages()
		if len(msgs) != 2 {
			t.Fatalf("%d messages, want 2", len(msgs))
		}
		want := "First\n\nCosts €5.\n\nExample & Co"
		if msgs[0].Plain != want || !msgs[0].DisableNotification || msgs[0].LinkPreviewOptions == nil ||
			msgs[0].LinkPreviewOptions.IsDisabled == nil || !*msgs[0].LinkPreviewOptions.IsDisabled {
			t.Errorf("first post = %q %+v, want %q, silent, no preview", msgs[0].Plain, msgs[0], want)
		}
		if got := fx.outbox(t); got[storage.StateSent] != 2 {
			t.Errorf("outbox = %v, want 2 sent", got)
		}
	})
}

// A template that fails for an entry: the entry is posted with the
// built-in template and the admin gets one notice.
func TestDeliverTemplateFallbackNotice(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{Template: `<b>{{.Title}}</b> {{.Event.Location}}`})
		fx.queue(t, feed.Entry{Identity: "a", Title: "One"}, feed.Entry{Identity: "b", Title: "Two"})
		d := fx.deliverer(api, templates.Default(time.UTC))
		d.Due(context.Background())
		msgs := tg.Messages()
		if len(msgs) != 2 || msgs[0].Plain != "One" || msgs[1].Plain != "Two" {
			t.Fatalf("messages = %+v, want both entries posted with the built-in template", msgs)
		}
		notices, err := fx.store.ClaimNotices(context.Background(), "n", fx.now.Add(time.Minute), time.Minute, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(notices) != 1 {
			t.Fatalf("%d notices, want 1 (one per failure, not per entry)", len(notices))
		}
		n := notices[0]
		if n.Kind != NoticeTemplateFailed || n.ChatID != adminID || n.FeedID != fx.feed.ID || !strings.Contains(n.Text, "post template subscription:1:") {
			t.Errorf("notice = %+v", n)
		}
	})
}

// A failure that may pass is retried later; a refusal fails the row.
func TestDeliverRecordsFailures(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{})
		fx.queue(t, feed.Entry{Identity: "a", Title: "One"}, feed.Entry{Identity: "b", Title: "Two"})
		tg.FailNextWith("sendMessage", telegramtest.RetryAfterError(5))
		tg.FailNext("sendMessage", 403, telegramtest.DescBlocked, nil)
		fx.deliverer(api, templates.Default(time.UTC)).Due(context.Background())
		if got := fx.outbox(t); got[storage.StatePending] != 1 || got[storage.StateFailed] != 1 {
			t.Errorf("outbox = %v, want 1 pending (429) and 1 failed (403)", got)
		}
	})
}
