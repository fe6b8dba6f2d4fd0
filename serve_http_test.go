package main

import (
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot"
	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// freeAddr returns a loopback address nobody listens on.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// With HTTP_ADDR and PUBLIC_URL, serve mounts the health endpoints, the
// Telegram webhook (which refuses a request without the secret) and the
// WebSub callbacks.
func TestServeHTTPRoutes(t *testing.T) {
	tg := telegramtest.New(t)
	addr := freeAddr(t)
	settings := map[string]string{
		"BOT_TOKEN":              tg.Token,
		"ADMIN_ID":               strconv.Itoa(adminID),
		"TELEGRAM_API_URL":       tg.URL,
		"DATABASE_URL":           storagetest.SQLiteURL(t),
		"ALLOW_PRIVATE_NETWORKS": "true",
		"HTTP_ADDR":              addr,
		"PUBLIC_URL":             "https://" + addr, // loopback only: nothing leaves the machine
	}
	stop, logs := startServe(t, settings)
	defer func() {
		if code := stop(); code != 0 {
			t.Errorf("serve exited %d; logs:\n%s", code, logs)
		}
	}()
	base := "http://" + addr
	waitFor(t, 10*time.Second, "the HTTP listener", func() bool {
		resp, err := http.Get(base + "/healthz")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	tests := []struct {
		method, path string
		want         int
	}{
		{"POST", bot.WebhookPath(tg.Token), http.StatusUnauthorized}, // mounted, and no secret: refused
		{"GET", "/websub/not-a-token?hub.mode=subscribe&hub.topic=x&hub.challenge=c", http.StatusNotFound},
		{"GET", "/no-such-page", http.StatusNotFound},
	}
	for _, tt := range tests {
		req, _ := http.NewRequest(tt.method, base+tt.path, strings.NewReader(`{"update_id":1}`))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tt.want {
			t.Errorf("%s %s = %d, want %d", tt.method, tt.path, resp.StatusCode, tt.want)
		}
	}
	waitFor(t, 10*time.Second, "setWebhook", func() bool { return tg.Webhook() == bot.WebhookURL("https://"+addr, tg.Token) })
}
