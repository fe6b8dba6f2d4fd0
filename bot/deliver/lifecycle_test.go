package deliver

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine/feed"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

const otherChat = 5151

// entries returns n entries titled "Entry 1"…
func entries(prefix string, n int) []feed.Entry {
	out := make([]feed.Entry, n)
	for i := range out {
		id := prefix + strconv.Itoa(i+1)
		out[i] = feed.Entry{Identity: id, Title: "Entry " + id}
	}
	return out
}

// titles are the first lines of the messages sent to chat, in order.
func titles(tg *telegramtest.Server, chat int64) []string {
	var out []string
	for _, m := range tg.MessagesTo(chat) {
		first, _, _ := strings.Cut(m.Plain, "\n")
		out = append(out, first)
	}
	return out
}

func want(prefix string, n int) []string {
	var out []string
	for _, e := range entries(prefix, n) {
		out = append(out, e.Title)
	}
	return out
}

// requestsTo counts the calls of method addressed to chat.
func requestsTo(tg *telegramtest.Server, method string, chat int64) int {
	n := 0
	for _, r := range tg.Requests(method) {
		if r.Params["chat_id"] == strconv.FormatInt(chat, 10) {
			n++
		}
	}
	return n
}

// noticesOf returns the stored notices of kind with their fields.
func noticesOf(t *testing.T, fx *fixture, kind string) []NoticeFields {
	t.Helper()
	var out []NoticeFields
	for _, n := range fx.notices(t) {
		if n.Kind != kind {
			continue
		}
		if n.ChatID != adminID {
			t.Errorf("notice %s went to chat %d, want the admin", kind, n.ChatID)
		}
		f, ok := DecodeNoticeFields(n.Text)
		if !ok {
			t.Errorf("notice %s text %q is not notice fields", kind, n.Text)
		}
		out = append(out, f)
	}
	return out
}

func mustSub(t *testing.T, st *storage.Store, id int64) storage.Subscription {
	t.Helper()
	sub, err := st.SubscriptionByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sub
}

// Telegram saying the bot cannot post in a chat pauses the chat's
// subscriptions with the reason, keeps their rows pending (nothing lost),
// tells the admin once, and leaves other chats alone. After a resume the
// kept rows go out in order.
func TestDeliverChatGonePausesAndKeepsRows(t *testing.T) {
	cases := []struct {
		code int
		desc string
	}{
		{403, telegramtest.DescBlocked},
		{403, telegramtest.DescKickedGroup},
		{403, telegramtest.DescNotMember},
		{403, telegramtest.DescDeactivated},
		{403, "Forbidden: the group chat was deleted"},
		{400, telegramtest.DescChatNotFound},
	}
	for _, c := range cases {
		t.Run(c.desc, func(t *testing.T) {
			storagetest.Each(t, func(t *testing.T, databaseURL string) {
				tg, api := newAPI(t)
				fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
				fx.subscribe(t, fx.feed, storage.Subscription{ChatID: otherChat, MediaMode: storage.MediaNone})
				fx.queue(t, entries("e", 3)...)
				tg.FailChat(chatID, &telegramtest.APIError{Code: c.code, Description: c.desc})
				d := fx.deliverer(api, templates.Default(time.UTC))
				fx.drain(t, d, 10)

				if got := titles(tg, otherChat); !slices.Equal(got, want("e", 3)) {
					t.Errorf("other chat got %v, want all 3 in order", got)
				}
				if n := requestsTo(tg, "sendMessage", chatID); n != 1 {
					t.Errorf("%d sends to the gone chat, want 1", n)
				}
				sub := mustSub(t, fx.store, fx.sub.ID)
				if !sub.Paused || sub.PausedReason != ReasonChat+c.desc {
					t.Errorf("subscription paused %v %q, want the reason %q", sub.Paused, sub.PausedReason, ReasonChat+c.desc)
				}
				if got := fx.outbox(t); got[storage.StatePending] != 3 || got[storage.StateFailed] != 0 {
					t.Errorf("outbox = %v, want the gone chat's 3 rows kept pending", got)
				}
				notices := noticesOf(t, fx, NoticeChatPaused)
				if len(notices) != 1 || notices[0].Count != 1 || notices[0].Waiting != 3 || notices[0].Reason != c.desc ||
					!strings.Contains(notices[0].Chat, strconv.Itoa(chatID)) {
					t.Errorf("notices = %+v, want one naming the chat, the reason and 3 waiting posts", notices)
				}

				// The admin resumes once the chat is back: the kept rows go, in order.
				tg.ClearChatFailure(chatID)
				if _, err := fx.store.SetChatPaused(context.Background(), chatID, false, ""); err != nil {
					t.Fatal(err)
				}
				fx.drain(t, d, 10)
				if got := titles(tg, chatID); !slices.Equal(got, want("e", 3)) {
					t.Errorf("after the resume the chat got %v, want all 3 in order", got)
				}
				if got := fx.outbox(t); got[storage.StateSent] != 6 {
					t.Errorf("outbox = %v, want all 6 sent", got)
				}
			})
		})
	}
}

// A group that became a supergroup: its subscriptions and waiting rows
// move to the new id, the post goes there, and the admin is told once.
func TestDeliverMigratedGroup(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		const group, super = -5, -1005
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{ChatID: group, MediaMode: storage.MediaNone})
		if err := fx.store.UpsertChat(context.Background(), storage.Chat{ID: group, Type: "group", Title: "Team"}); err != nil {
			t.Fatal(err)
		}
		fx.queue(t, entries("e", 3)...)
		tg.FailChat(group, telegramtest.MigrateError(super))
		d := fx.deliverer(api, templates.Default(time.UTC))
		fx.drain(t, d, 20)

		if got := titles(tg, super); !slices.Equal(got, want("e", 3)) {
			t.Errorf("supergroup got %v, want all 3 in order", got)
		}
		if n := requestsTo(tg, "sendMessage", group); n != 1 {
			t.Errorf("%d sends to the old group, want 1", n)
		}
		if sub := mustSub(t, fx.store, fx.sub.ID); sub.ChatID != super || sub.Paused {
			t.Errorf("subscription = %+v, want it active in the supergroup", sub)
		}
		if _, err := fx.store.ChatByID(context.Background(), group); err == nil {
			t.Error("the old group is still stored")
		}
		notices := noticesOf(t, fx, NoticeChatMigrated)
		if len(notices) != 1 || notices[0].From != group || notices[0].To != super || notices[0].Count != 1 ||
			!strings.Contains(notices[0].Chat, "Team") {
			t.Errorf("notices = %+v, want one about the move", notices)
		}
		if got := fx.outbox(t); got[storage.StateSent] != 3 || len(got) != 1 {
			t.Errorf("outbox = %v, want 3 sent", got)
		}
	})
}

// A deleted forum topic pauses the subscriptions posting there; the
// chat's other topics go on.
func TestDeliverTopicGone(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		const group = -7 // a made-up group, no forum: every thread is "not found"
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{ChatID: group, TopicID: 9, MediaMode: storage.MediaNone})
		general := fx.subscribe(t, fx.feed, storage.Subscription{ChatID: group, MediaMode: storage.MediaNone})
		fx.queue(t, entries("e", 2)...)
		d := fx.deliverer(api, templates.Default(time.UTC))
		fx.drain(t, d, 20)

		if got := titles(tg, group); !slices.Equal(got, want("e", 2)) {
			t.Errorf("the general topic got %v, want both", got)
		}
		if sub := mustSub(t, fx.store, fx.sub.ID); !sub.Paused || !strings.HasPrefix(sub.PausedReason, ReasonTopic) {
			t.Errorf("topic subscription = %+v, want paused for the topic", sub)
		}
		if sub := mustSub(t, fx.store, general.ID); sub.Paused {
			t.Error("the general topic's subscription was paused too")
		}
		notices := noticesOf(t, fx, NoticeTopicPaused)
		if len(notices) != 1 || notices[0].Topic != 9 || notices[0].Count != 1 || notices[0].Waiting != 2 ||
			notices[0].Reason != telegramtest.DescThreadNotFound {
			t.Errorf("notices = %+v, want one about topic 9 with 2 waiting posts", notices)
		}
		if got := fx.outbox(t); got[storage.StatePending] != 2 || got[storage.StateSent] != 2 {
			t.Errorf("outbox = %v, want the topic's 2 rows kept pending", got)
		}
	})
}

// HTML Telegram refuses (the renderer's validator should prevent it) goes
// again as plain text, so the entry is not lost.
func TestDeliverPlainTextFallback(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
		fx.queue(t, feed.Entry{Identity: "a", Title: "Fish <&> Chips"})
		tg.FailNext("sendMessage", 400, telegramtest.DescParsePrefix+`Unsupported start tag "b" at byte offset 0`, nil)
		fx.drain(t, fx.deliverer(api, templates.Default(time.UTC)), 3)

		msgs := tg.Messages()
		if len(msgs) != 1 || msgs[0].ParseMode != "" || msgs[0].Text != "Fish <&> Chips" {
			t.Fatalf("messages = %+v, want the post as plain text", msgs)
		}
		if reqs := tg.Requests("sendMessage"); len(reqs) != 2 || reqs[0].Params["parse_mode"] != "HTML" {
			t.Errorf("requests = %+v, want the HTML refused then plain text", reqs)
		}
		if got := fx.outbox(t); got[storage.StateSent] != 1 {
			t.Errorf("outbox = %v, want it sent", got)
		}
	})
}

// A 429 gives the row back without counting an attempt, due after
// retry_after; nothing goes before, and the pacer spaces the chat wider.
func TestDeliverRateLimited(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
		fx.queue(t, entries("e", 1)...)
		tg.FailNextWith("sendMessage", telegramtest.RetryAfterError(5))
		d := fx.deliverer(api, templates.Default(time.UTC))
		ctx := context.Background()
		start := fx.clock.Now()
		d.Due(ctx)
		row, err := fx.store.OutboxByID(ctx, 1)
		if err != nil || row.State != storage.StatePending || row.Attempts != 0 || !row.NextAttemptAt.Equal(start.Add(5*time.Second)) ||
			!strings.Contains(row.LastError, "retry after 5") {
			t.Fatalf("row after the 429 = %+v, %v; want pending, no attempt, due in 5s", row, err)
		}
		fx.clock.Advance(4 * time.Second)
		d.Due(ctx)
		if n := tg.Calls("sendMessage"); n != 1 {
			t.Fatalf("%d sends before retry_after ran out, want 1", n)
		}
		fx.clock.Advance(time.Second)
		d.Due(ctx)
		if got := titles(tg, chatID); !slices.Equal(got, want("e", 1)) {
			t.Fatalf("after retry_after the chat got %v", got)
		}
		if ready := d.pacer.Ready(chatID).Sub(fx.clock.Now()); ready != 2*PrivateGap {
			t.Errorf("after the 429 the chat is spaced %v, want %v (learned)", ready, 2*PrivateGap)
		}
	})
}

// Fairness: a chat Telegram rate-limits for a minute holds up nobody else;
// its rows wait (no attempts counted) and follow in order.
func TestDeliverRateLimitedChatDoesNotHoldOthers(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
		fx.subscribe(t, fx.feed, storage.Subscription{ChatID: otherChat, MediaMode: storage.MediaNone})
		fx.queue(t, entries("e", 5)...)
		d := fx.deliverer(api, templates.Default(time.UTC))
		d.Due(context.Background())
		fx.clock.Advance(time.Second)
		tg.FailChat(chatID, telegramtest.RetryAfterError(60))
		fx.drain(t, d, 20)

		if got := titles(tg, otherChat); !slices.Equal(got, want("e", 5)) {
			t.Errorf("the other chat got %v during the wait, want all 5", got)
		}
		if got := titles(tg, chatID); !slices.Equal(got, want("e", 1)) {
			t.Errorf("the limited chat got %v, want only the first", got)
		}
		if n := requestsTo(tg, "sendMessage", chatID); n != 2 {
			t.Errorf("%d sends to the limited chat, want 2 (one refused, then waiting)", n)
		}
		tg.ClearChatFailure(chatID)
		fx.clock.Advance(time.Minute)
		fx.drain(t, d, 30)
		if got := titles(tg, chatID); !slices.Equal(got, want("e", 5)) {
			t.Errorf("after the wait the chat got %v, want all 5 in order", got)
		}
		for id := int64(1); id <= 10; id++ {
			if row, err := fx.store.OutboxByID(context.Background(), id); err != nil || row.State != storage.StateSent || row.Attempts != 0 {
				t.Errorf("row %d = %+v, %v; want sent with no failed attempt counted", id, row, err)
			}
		}
	})
}

// gatedAPI holds sends to one chat until the gate opens: a slow chat.
type gatedAPI struct {
	API
	chat    int64
	entered chan struct{}
	gate    chan struct{}
}

func (g *gatedAPI) wait(chat any) {
	if chat == g.chat {
		g.entered <- struct{}{}
		<-g.gate
	}
}

func (g *gatedAPI) SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	g.wait(p.ChatID)
	return g.API.SendMessage(ctx, p)
}

// Fairness: while a send to one chat hangs, the other chats are sent to.
func TestDeliverSlowChatDoesNotHoldOthers(t *testing.T) {
	tg, api := newAPI(t)
	fx := newFixture(t, storagetest.SQLiteURL(t), storage.Subscription{MediaMode: storage.MediaNone})
	fx.subscribe(t, fx.feed, storage.Subscription{ChatID: otherChat, MediaMode: storage.MediaNone})
	fx.queue(t, entries("e", 1)...)
	gated := &gatedAPI{API: api, chat: chatID, entered: make(chan struct{}), gate: make(chan struct{})}
	d := fx.deliverer(gated, templates.Default(time.UTC))
	done := make(chan struct{})
	go func() { d.Due(context.Background()); close(done) }()
	<-gated.entered
	tg.WaitMessages(t, 1, 10*time.Second)
	if got := titles(tg, otherChat); !slices.Equal(got, want("e", 1)) {
		t.Errorf("while chat %d hangs the other chat got %v", chatID, got)
	}
	close(gated.gate)
	<-done
	if got := titles(tg, chatID); !slices.Equal(got, want("e", 1)) {
		t.Errorf("the slow chat got %v", got)
	}
}

// Network errors and 5xx are retried with backoff; rows that run out of
// attempts fail, and the admin gets one summary for them, not one each.
func TestDeliverTransientFailuresSummarised(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
		chats := []int64{chatID, otherChat, 6161}
		for _, c := range chats[1:] {
			fx.subscribe(t, fx.feed, storage.Subscription{ChatID: c, MediaMode: storage.MediaNone})
		}
		for _, c := range chats {
			tg.FailChat(c, &telegramtest.APIError{Code: 500, Description: "Internal Server Error"})
		}
		fx.queue(t, entries("e", 1)...)
		d := fx.deliverer(api, templates.Default(time.UTC))
		for range 100 {
			d.Due(context.Background())
			fx.clock.Advance(time.Minute)
		}
		if got := fx.outbox(t); got[storage.StateFailed] != 3 || len(got) != 1 {
			t.Fatalf("outbox = %v, want all 3 failed", got)
		}
		for _, c := range chats {
			if n := requestsTo(tg, "sendMessage", c); n != MaxAttempts {
				t.Errorf("chat %d: %d attempts, want %d", c, n, MaxAttempts)
			}
		}
		notices := noticesOf(t, fx, NoticeDeliveryFailed)
		if len(notices) != 1 || notices[0].Count != 3 || len(notices[0].Chats) != 3 || !strings.Contains(notices[0].Reason, "500") {
			t.Errorf("notices = %+v, want one summary of 3 failed posts", notices)
		}
	})
}

// A refusal of the post itself fails the row at once (with a summary) and
// does not hold up the chat's next rows.
func TestDeliverRefusedPostFailsAtOnce(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
		fx.queue(t, entries("e", 2)...)
		tg.FailNext("sendMessage", 400, telegramtest.DescTooLong, nil)
		fx.drain(t, fx.deliverer(api, templates.Default(time.UTC)), 5)
		if got := titles(tg, chatID); !slices.Equal(got, []string{"Entry e2"}) {
			t.Errorf("chat got %v, want the second entry", got)
		}
		row, err := fx.store.OutboxByID(context.Background(), 1)
		if err != nil || row.State != storage.StateFailed || row.Attempts != 1 || !strings.Contains(row.LastError, "message is too long") {
			t.Errorf("refused row = %+v, %v", row, err)
		}
		if notices := noticesOf(t, fx, NoticeDeliveryFailed); len(notices) != 1 || notices[0].Count != 1 {
			t.Errorf("notices = %+v, want one summary", notices)
		}
	})
}
