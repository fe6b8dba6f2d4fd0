package deliver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

const adminID = 7

// fixture is a store with one feed and one subscription of chatID, and a
// fake clock the deliverer runs on.
type fixture struct {
	store *storage.Store
	feed  storage.Feed
	sub   storage.Subscription
	clock *fakeClock
	now   time.Time // when the fixture was made
}

func newFixture(t *testing.T, databaseURL string, sub storage.Subscription) *fixture {
	t.Helper()
	st := storagetest.Open(t, databaseURL)
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	fx := &fixture{store: st, clock: &fakeClock{t: now}, now: now}
	fx.feed = fx.addFeed(t, "https://example.org/feed.xml", "Example & Co")
	if sub.ChatID == 0 {
		sub.ChatID = chatID
	}
	fx.sub = fx.subscribe(t, fx.feed, sub)
	return fx
}

// addFeed stores a feed.
func (fx *fixture) addFeed(t *testing.T, url, title string) storage.Feed {
	t.Helper()
	f, _, err := fx.store.EnsureFeed(context.Background(), url, "example.org", fx.now)
	if err != nil {
		t.Fatal(err)
	}
	f.Title = title
	return f
}

// subscribe subscribes sub.ChatID to f.
func (fx *fixture) subscribe(t *testing.T, f storage.Feed, sub storage.Subscription) storage.Subscription {
	t.Helper()
	sub.FeedID = f.ID
	sub, _, err := fx.store.Subscribe(context.Background(), sub)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// queue stores entries as new in the fixture's feed and queues them.
func (fx *fixture) queue(t *testing.T, entries ...feed.Entry) {
	t.Helper()
	fx.queueIn(t, fx.feed, entries...)
}

// queueIn stores entries as new in f and queues them for its subscriptions.
func (fx *fixture) queueIn(t *testing.T, f storage.Feed, entries ...feed.Entry) {
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
	if _, err := fx.store.Import(context.Background(), storage.ImportBatch{Feed: f, Entries: recs, Queue: true, Now: fx.clock.Now()}); err != nil {
		t.Fatal(err)
	}
}

func (fx *fixture) deliverer(api API, r *templates.Renderer) *Deliverer {
	return New(Options{API: api, Store: fx.store, Renderer: r, Language: "en", AdminID: adminID, Owner: "test",
		Now: fx.clock.Now, Sleep: fx.clock.Sleep})
}

// drain runs rounds of delivery, a second of fake time apart, until
// nothing is pending or being sent, or rounds run out.
func (fx *fixture) drain(t *testing.T, d *Deliverer, rounds int) {
	t.Helper()
	for range rounds {
		d.Due(context.Background())
		if c := fx.outbox(t); c[storage.StatePending]+c[storage.StateSending] == 0 {
			return
		}
		fx.clock.Advance(time.Second)
	}
}

func (fx *fixture) outbox(t *testing.T) map[string]int {
	t.Helper()
	n, err := fx.store.CountOutbox(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// notices claims every notice stored so far (also those due later).
func (fx *fixture) notices(t *testing.T) []storage.Notice {
	t.Helper()
	ns, err := fx.store.ClaimNotices(context.Background(), "peek", fx.clock.Now().Add(24*time.Hour), time.Hour, 100)
	if err != nil {
		t.Fatal(err)
	}
	return ns
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
		if n := len(tg.Messages()); n != 1 {
			t.Fatalf("%d messages after one round, want 1: the chat's second post waits for its rate limit", n)
		}
		fx.drain(t, d, 5)
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
		fx.drain(t, d, 5)
		msgs := tg.Messages()
		if len(msgs) != 2 || msgs[0].Plain != "One" || msgs[1].Plain != "Two" {
			t.Fatalf("messages = %+v, want both entries posted with the built-in template", msgs)
		}
		notices := fx.notices(t)
		if len(notices) != 1 {
			t.Fatalf("%d notices, want 1 (one per failure, not per entry)", len(notices))
		}
		n := notices[0]
		if n.Kind != NoticeTemplateFailed || n.ChatID != adminID || n.FeedID != fx.feed.ID || !strings.Contains(n.Text, "post template subscription:1:") {
			t.Errorf("notice = %+v", n)
		}
	})
}
