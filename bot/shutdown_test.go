package bot

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/storage/storagetest"
)

// blockingHandler holds the goroutine that logs a given message until
// released, so a test can keep a command in flight.
type blockingHandler struct {
	msg     string
	entered chan struct{}
	release chan struct{}
	once    sync.Once
}

func (h *blockingHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h *blockingHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *blockingHandler) WithGroup(string) slog.Handler            { return h }
func (h *blockingHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message == h.msg {
		h.once.Do(func() { close(h.entered) })
		<-h.release
	}
	return nil
}

// Run must not return while a command it received by getUpdates is still
// being handled: after Run, main closes the store the command is using,
// and the goroutine would outlive the bot.
func TestRunWaitsForCommandsInFlight(t *testing.T) {
	store := storagetest.Open(t, storagetest.SQLiteURL(t))
	tg := telegramtest.New(t)
	h := &blockingHandler{msg: "bot: command", entered: make(chan struct{}), release: make(chan struct{})}
	b, err := New(Options{Token: tg.Token, APIURL: tg.URL, AdminID: testAdmin, Store: store,
		Logger: slog.New(h), SendInterval: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan struct{})
	go func() { b.Run(ctx); close(returned) }()
	defer func() {
		cancel()
		<-returned
	}()

	tg.SendText(testAdmin, testAdmin, "/help")
	select {
	case <-h.entered:
	case <-time.After(15 * time.Second):
		close(h.release)
		t.Fatal("the command was never handled")
	}
	cancel()
	select {
	case <-returned:
		close(h.release)
		t.Fatal("Run returned while a command was still being handled")
	case <-time.After(200 * time.Millisecond):
	}
	close(h.release)
	select {
	case <-returned:
	case <-time.After(15 * time.Second):
		t.Fatal("Run did not return after the command finished")
	}
}
