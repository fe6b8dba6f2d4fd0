package bot

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/rssbot/rssbot/bot/telegramtest"
	"github.com/rssbot/rssbot/engine"
	"github.com/rssbot/rssbot/engine/fetch"
	"github.com/rssbot/rssbot/storage"
	"github.com/rssbot/rssbot/storage/storagetest"
	"github.com/rssbot/rssbot/templates"
)

// hookRig is one fake Telegram, one database and a TLS "public URL" whose
// webhook path is routed to whichever bot's handler the test chooses.
type hookRig struct {
	tg    *telegramtest.Server
	store *storage.Store
	eng   *engine.Engine
	fetch *fetch.Client
	log   *slog.Logger
	pub   *httptest.Server
	route atomic.Pointer[http.Handler] // where the webhook path leads
	hits  atomic.Int64                 // deliveries that reached route
}

func newHookRig(t *testing.T) *hookRig {
	t.Helper()
	r := &hookRig{log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	r.store = storagetest.Open(t, storagetest.SQLiteURL(t))
	r.fetch = fetch.New(fetch.Options{AllowPrivateNetworks: true, Logger: r.log})
	t.Cleanup(r.fetch.CloseIdleConnections)
	r.eng = engine.New(r.store, r.fetch, engine.Options{AdminChatID: testAdmin, Logger: r.log})
	mux := http.NewServeMux()
	mux.HandleFunc(WebhookPath(telegramtest.DefaultToken), func(w http.ResponseWriter, req *http.Request) {
		h := r.route.Load()
		if h == nil {
			http.Error(w, "no bot yet", http.StatusServiceUnavailable)
			return
		}
		r.hits.Add(1)
		(*h).ServeHTTP(w, req)
	})
	r.pub = httptest.NewTLSServer(mux)
	t.Cleanup(r.pub.Close)
	r.tg = telegramtest.New(t, telegramtest.WithWebhookClient(r.pub.Client()), telegramtest.WithWebhookRetry(5*time.Millisecond))
	return r
}

// hookURL is WebhookURL for the rig's public server.
func (r *hookRig) hookURL() string { return WebhookURL(r.pub.URL+"/", r.tg.Token) }

// newBot builds a bot; webhook selects webhook mode.
func (r *hookRig) newBot(t *testing.T, owner string, webhook bool) *Bot {
	t.Helper()
	opts := Options{Token: r.tg.Token, APIURL: r.tg.URL, AdminID: testAdmin, Store: r.store, Engine: r.eng,
		Renderer: templates.Default(time.UTC), Fetcher: r.fetch, Logger: r.log, Owner: owner,
		SendInterval: 50 * time.Millisecond, LeaseTTL: 3 * time.Second}
	if webhook {
		opts.WebhookURL = r.hookURL()
	}
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// run runs b until the returned stop is called (or the test ends).
func run(t *testing.T, b *Bot) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { _ = b.Run(ctx) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	t.Cleanup(stop)
	return stop
}

// serveBy routes the webhook path to b's handler.
func (r *hookRig) serveBy(b *Bot) {
	h := b.WebhookHandler()
	r.route.Store(&h)
}

// waitUntil polls cond for up to 15 s.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitWebhook waits until the leader has set the webhook.
func (r *hookRig) waitWebhook(t *testing.T) {
	t.Helper()
	waitUntil(t, "setWebhook", func() bool { return r.tg.Webhook() == r.hookURL() })
}

// helpReply sends /help and waits for the reply to the admin.
func (r *hookRig) helpReply(t *testing.T) telegramtest.Message {
	t.Helper()
	before := len(r.tg.MessagesTo(testAdmin))
	r.tg.SendText(testAdmin, testAdmin, "/help")
	waitUntil(t, "the /help reply", func() bool { return len(r.tg.MessagesTo(testAdmin)) > before })
	return r.tg.MessagesTo(testAdmin)[before]
}

// Rules for the derived path and secret: the same on every instance, different
// per bot, neither containing the token, the secret within setWebhook's
// 1-256 of [A-Za-z0-9_-], and the path not giving the secret away.
func TestWebhookPathAndSecret(t *testing.T) {
	secretRule := regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)
	pathRule := regexp.MustCompile(`^/telegram/[0-9a-f]{32}$`)
	tokens := []string{"123456:TEST", "123456:TESU", "987654321:AAE-very_long-secret-part"}
	seen := map[string]bool{}
	for _, token := range tokens {
		path, secret := WebhookPath(token), webhookSecret(token)
		if path != WebhookPath(token) || secret != webhookSecret(token) {
			t.Errorf("%s: derivation is not deterministic", token)
		}
		if !pathRule.MatchString(path) || !secretRule.MatchString(secret) {
			t.Errorf("%s: path %q or secret %q breaks its rule", token, path, secret)
		}
		_, tail, _ := strings.Cut(token, ":")
		for _, v := range []string{path, secret} {
			if strings.Contains(v, token) || strings.Contains(v, tail) {
				t.Errorf("%s: %q contains the token", token, v)
			}
		}
		if strings.Contains(secret, strings.TrimPrefix(path, "/telegram/")) {
			t.Errorf("%s: the path %q gives the secret away", token, path)
		}
		if seen[path] || seen[secret] {
			t.Errorf("%s: path or secret shared with another token", token)
		}
		seen[path], seen[secret] = true, true
	}
	if got, want := WebhookURL("https://bot.example/base/", "123456:TEST"), "https://bot.example/base"+WebhookPath("123456:TEST"); got != want {
		t.Errorf("WebhookURL = %q, want %q", got, want)
	}
}

// New refuses a webhook URL Telegram could never call.
func TestNewRefusesBadWebhookURL(t *testing.T) {
	tg := telegramtest.New(t)
	for _, u := range []string{"bot.example/hook", "ftp://bot.example/hook", "https://"} {
		if _, err := New(Options{Token: tg.Token, APIURL: tg.URL, WebhookURL: u}); err == nil {
			t.Errorf("WebhookURL %q accepted", u)
		}
	}
}

// /help pushed by Telegram to the webhook gets its reply, and the leader
// neither long-polls nor loses the webhook when it stops.
func TestWebhookHelp(t *testing.T) {
	r := newHookRig(t)
	b := r.newBot(t, "a", true)
	r.serveBy(b)
	stop := run(t, b)
	r.waitWebhook(t)
	if got := r.tg.WebhookSecret(); got != webhookSecret(r.tg.Token) {
		t.Errorf("setWebhook secret_token = %q, want the derived one", got)
	}
	reply := r.helpReply(t)
	if !strings.Contains(reply.Plain, "/sub") {
		t.Errorf("/help reply %q lacks the command list", reply.Plain)
	}
	if r.hits.Load() == 0 {
		t.Error("the reply did not come through the webhook")
	}
	stop()
	if n := r.tg.Calls("getUpdates"); n != 0 {
		t.Errorf("getUpdates called %d times in webhook mode", n)
	}
	if n := r.tg.Calls("deleteWebhook"); n != 0 || r.tg.Webhook() != r.hookURL() {
		t.Errorf("stopping removed the webhook: %d deleteWebhook calls, webhook %q", n, r.tg.Webhook())
	}
}

// A delivery with the wrong secret gets 401 and is not processed; Telegram
// keeps it, and once the secret is right it is handled exactly once.
func TestWebhookWrongSecret(t *testing.T) {
	r := newHookRig(t)
	b := r.newBot(t, "a", true)
	r.serveBy(b)
	run(t, b)
	r.waitWebhook(t)
	setWebhook(t, r.tg, r.hookURL(), "wrong-secret")
	r.tg.Reset()
	r.tg.SendText(testAdmin, testAdmin, "/help")
	waitUntil(t, "two refused deliveries", func() bool { return len(r.tg.WebhookDeliveries()) >= 2 })
	for _, d := range r.tg.WebhookDeliveries() {
		if d.Status != http.StatusUnauthorized {
			t.Errorf("delivery with the wrong secret: %+v, want 401", d)
		}
	}
	if got := r.tg.MessagesTo(testAdmin); len(got) != 0 {
		t.Errorf("a refused delivery was processed: %d replies", len(got))
	}
	if n := r.tg.PendingUpdates(); n != 1 {
		t.Errorf("%d updates pending, want the refused one kept", n)
	}

	setWebhook(t, r.tg, r.hookURL(), webhookSecret(r.tg.Token))
	waitUntil(t, "the reply", func() bool { return len(r.tg.MessagesTo(testAdmin)) > 0 })
	time.Sleep(200 * time.Millisecond) // room for a wrongful second reply
	if n := len(r.tg.MessagesTo(testAdmin)); n != 1 {
		t.Errorf("%d replies to one /help", n)
	}
}

// setWebhook calls the fake's setWebhook as another client would.
func setWebhook(t *testing.T, tg *telegramtest.Server, url, secret string) {
	t.Helper()
	form := "url=" + url + "&secret_token=" + secret
	resp, err := http.Post(tg.URL+"/bot"+tg.Token+"/setWebhook", "application/x-www-form-urlencoded", strings.NewReader(form))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("setWebhook: %s", resp.Status)
	}
}

// Telegram may deliver to any instance: one that doesn't hold the leader
// lease handles the update too, while only the leader set the webhook.
func TestWebhookOnNonLeader(t *testing.T) {
	r := newHookRig(t)
	leader := r.newBot(t, "leader", true)
	run(t, leader)
	r.waitWebhook(t)
	follower := r.newBot(t, "follower", true)
	r.serveBy(follower)
	run(t, follower)

	r.helpReply(t)
	if r.hits.Load() == 0 {
		t.Error("the update did not reach the follower")
	}
	ok, err := r.store.AcquireLease(context.Background(), LeaderLease, "follower", time.Now(), time.Second)
	if err != nil || ok {
		t.Errorf("the follower could take the lease (%v, %v): the test proves nothing", ok, err)
	}
	if n := r.tg.Calls("setWebhook"); n != 1 {
		t.Errorf("setWebhook called %d times, want once by the leader", n)
	}
}

// A bot started without a webhook URL deletes the one left behind and
// long-polls again.
func TestSwitchBackToPolling(t *testing.T) {
	r := newHookRig(t)
	hooked := r.newBot(t, "a", true)
	r.serveBy(hooked)
	stop := run(t, hooked)
	r.waitWebhook(t)
	stop()

	polling := r.newBot(t, "b", false)
	run(t, polling)
	waitUntil(t, "deleteWebhook", func() bool { return r.tg.Webhook() == "" })
	hits := r.hits.Load()
	reply := r.helpReply(t)
	if !strings.Contains(reply.Plain, "/sub") {
		t.Errorf("/help reply %q lacks the command list", reply.Plain)
	}
	if r.tg.Calls("getUpdates") == 0 || r.hits.Load() != hits {
		t.Errorf("the reply did not come by long polling (getUpdates %d, webhook hits %d→%d)",
			r.tg.Calls("getUpdates"), hits, r.hits.Load())
	}
}

// The handler's answers before any update is processed.
func TestWebhookHandlerRefusals(t *testing.T) {
	tg := telegramtest.New(t)
	b, err := New(Options{Token: tg.Token, APIURL: tg.URL, AdminID: testAdmin, WebhookURL: "https://bot.example" + WebhookPath(tg.Token),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	polling, err := New(Options{Token: tg.Token, APIURL: tg.URL, AdminID: testAdmin, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	update := `{"update_id":1,"message":{"message_id":1,"date":1,"chat":{"id":1001,"type":"private"},"from":{"id":1001,"is_bot":false,"first_name":"A"},"text":"/help"}}`
	good := webhookSecret(tg.Token)
	tests := []struct {
		name   string
		bot    *Bot
		method string
		secret string
		body   string
		want   int
	}{
		{"no secret", b, http.MethodPost, "", update, http.StatusUnauthorized},
		{"wrong secret", b, http.MethodPost, good[:63] + "x", update, http.StatusUnauthorized},
		{"secret of the wrong length", b, http.MethodPost, good + "0", update, http.StatusUnauthorized},
		{"GET", b, http.MethodGet, good, "", http.StatusMethodNotAllowed},
		{"not JSON", b, http.MethodPost, good, "{", http.StatusBadRequest},
		{"Run not running", b, http.MethodPost, good, update, http.StatusServiceUnavailable},
		{"polling mode", polling, http.MethodPost, good, update, http.StatusNotFound},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, WebhookPath(tg.Token), strings.NewReader(tt.body))
		if tt.secret != "" {
			req.Header.Set(WebhookSecretHeader, tt.secret)
		}
		rec := httptest.NewRecorder()
		tt.bot.WebhookHandler().ServeHTTP(rec, req)
		if rec.Code != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, rec.Code, tt.want)
		}
	}
	if n := len(tg.Messages()); n != 0 {
		t.Errorf("refused deliveries sent %d messages", n)
	}
}

// A refused setWebhook (Telegram's 429 on a rapid re-set) is tried again at
// the next lease renewal.
func TestSetWebhookRetried(t *testing.T) {
	r := newHookRig(t)
	r.tg.FailNextWith("setWebhook", telegramtest.RetryAfterError(1))
	b := r.newBot(t, "a", true)
	r.serveBy(b)
	run(t, b)
	r.waitWebhook(t)
	if n := r.tg.Calls("setWebhook"); n != 2 {
		t.Errorf("setWebhook called %d times, want a refusal and a retry", n)
	}
	r.helpReply(t)
}
