package deliver

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	tgbot "github.com/go-telegram/bot"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine/fetch"
)

const chatID = 4242

// fakeClock is the deliverer's clock in tests: sleeping moves it on.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// Sleep moves the clock on by d at once.
func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) bool {
	c.Advance(d)
	return ctx.Err() == nil
}

// newAPI connects a go-telegram/bot client to a fresh fake Bot API.
func newAPI(t *testing.T) (*telegramtest.Server, *tgbot.Bot) {
	t.Helper()
	tg := telegramtest.New(t)
	api, err := tgbot.New(tg.Token, tgbot.WithServerURL(tg.URL), tgbot.WithSkipGetMe())
	if err != nil {
		t.Fatal(err)
	}
	return tg, api
}

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sha(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func dataURL(b []byte) string {
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b)
}

// imageServer serves PNG images under /img/… and nothing else (404).
func imageServer(t *testing.T, images map[string][]byte) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := images[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// newSender is a Sender on the fake API that downloads from loopback.
func newSender(api API) *Sender {
	return &Sender{API: api, Media: Media{Fetcher: fetch.New(fetch.Options{AllowPrivateNetworks: true})}}
}
