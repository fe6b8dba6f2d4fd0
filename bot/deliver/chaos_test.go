package deliver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/url"
	"slices"
	"sync"
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

// chaosAPI makes a random share of sends fail as Telegram and the network
// make them fail: 429 with retry_after and 502 answered by the (fake)
// server, and connection errors before the request reaches it. Failures
// that could hide a delivered message (a lost answer) are left out: no
// sender can tell those from a lost request, and the outbox contract
// allows a repeat only after a crash.
type chaosAPI struct {
	API
	tg *telegramtest.Server

	mu       sync.Mutex
	rng      *rand.Rand
	injected map[string]int
}

func (c *chaosAPI) SendMessage(ctx context.Context, p *tgbot.SendMessageParams) (*models.Message, error) {
	c.mu.Lock()
	roll := c.rng.IntN(100)
	wait := 1 + c.rng.IntN(3)
	c.mu.Unlock()
	switch {
	case roll < 8:
		c.count("429")
		c.tg.FailNextWith("sendMessage", telegramtest.RetryAfterError(wait))
	case roll < 14:
		c.count("502")
		c.tg.FailNext("sendMessage", 502, "Bad Gateway", nil)
	case roll < 20:
		c.count("network")
		return nil, &url.Error{Op: "Post", URL: "http://127.0.0.1/sendMessage", Err: errors.New("connection reset by peer")}
	}
	return c.API.SendMessage(ctx, p)
}

func (c *chaosAPI) count(kind string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.injected[kind]++
}

// Many chats × many entries with random 429s, 5xx and network errors:
// every entry arrives exactly once, in each chat's order, and nothing is
// left pending or failed.
func TestDeliverChaos(t *testing.T) {
	storagetest.Each(t, func(t *testing.T, databaseURL string) {
		tg, api := newAPI(t)
		fx := newFixture(t, databaseURL, storage.Subscription{MediaMode: storage.MediaNone})
		chats := []int64{chatID, 1002, 1003, 1004, 1005, 1006, -2001, -2002, -2003, -2004}
		feeds := []storage.Feed{fx.feed,
			fx.addFeed(t, "https://example.org/two.xml", "Two"),
			fx.addFeed(t, "https://example.org/three.xml", "Three")}
		follows := func(chat, f int) bool { return f == 0 || (chat+f)%2 == 0 || chat%3 == f }
		for ci, c := range chats {
			for fi, f := range feeds {
				if follows(ci, fi) && !(ci == 0 && fi == 0) {
					fx.subscribe(t, f, storage.Subscription{ChatID: c, MediaMode: storage.MediaNone})
				}
			}
		}
		expect := map[int64][]string{}
		const rounds = 6
		for r := 1; r <= rounds; r++ {
			for fi, f := range feeds {
				e := feed.Entry{Identity: fmt.Sprintf("f%d-%d", fi, r), Title: fmt.Sprintf("Entry f%d-%d", fi, r)}
				fx.queueIn(t, f, e)
				for ci, c := range chats {
					if follows(ci, fi) {
						expect[c] = append(expect[c], e.Title)
					}
				}
			}
		}
		total := 0
		for _, titles := range expect {
			total += len(titles)
		}

		chaos := &chaosAPI{API: api, tg: tg, rng: rand.New(rand.NewPCG(7, 11)), injected: map[string]int{}}
		d := fx.deliverer(chaos, templates.Default(time.UTC))
		ctx := context.Background()
		round := 0
		for ; round < 5000; round++ {
			d.Due(ctx)
			if c := fx.outbox(t); c[storage.StatePending]+c[storage.StateSending] == 0 {
				break
			}
			fx.clock.Advance(time.Second)
		}
		t.Logf("%d rows delivered in %d rounds (%v of fake time); injected %v",
			total, round, fx.clock.Now().Sub(fx.now), chaos.injected)

		for _, c := range chats {
			if got := titles(tg, c); !slices.Equal(got, expect[c]) {
				t.Errorf("chat %d got %v,\nwant %v", c, got, expect[c])
			}
		}
		if got := fx.outbox(t); got[storage.StateSent] != total || len(got) != 1 {
			t.Errorf("outbox = %v, want all %d sent", got, total)
		}
		if chaos.injected["429"] == 0 || chaos.injected["502"] == 0 || chaos.injected["network"] == 0 {
			t.Errorf("injected %v: the test did not exercise every failure", chaos.injected)
		}
	})
}
