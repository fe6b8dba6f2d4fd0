package main

import (
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// TestServeHTTPAddr: with HTTP_ADDR set, serve answers /healthz, /readyz
// once the poller ticks, and /metrics with the poller's metrics.
func TestServeHTTPAddr(t *testing.T) {
	tg := telegramtest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	stop, logs := startServe(t, map[string]string{
		"BOT_TOKEN": tg.Token, "ADMIN_ID": strconv.Itoa(adminID), "TELEGRAM_API_URL": tg.URL,
		"DATABASE_URL": storagetest.SQLiteURL(t), "HTTP_ADDR": addr, "POLL_TICK": "1s",
	})
	get := func(path string) (int, string) {
		resp, err := http.Get("http://" + addr + path)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	waitFor(t, 10*time.Second, "/readyz to answer 200", func() bool {
		code, _ := get("/readyz")
		return code == http.StatusOK
	})
	if code, body := get("/healthz"); code != http.StatusOK || strings.TrimSpace(body) != "ok" {
		t.Errorf("/healthz = %d %q", code, body)
	}
	code, body := get("/metrics")
	for _, want := range []string{"rssbot_due_feeds 0", "rssbot_lease_conflicts_total 0", "rssbot_fetch_duration_seconds_count 0", "go_goroutines"} {
		if code != http.StatusOK || !strings.Contains(body, want) {
			t.Errorf("/metrics (%d) lacks %q", code, want)
		}
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited %d; logs:\n%s", code, logs)
	}
	if code, _ := get("/healthz"); code != 0 {
		t.Errorf("listener still up after stop: %d", code)
	}
}
