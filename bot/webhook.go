package bot

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// WebhookSecretHeader is the header in which Telegram sends setWebhook's
// secret_token with every update.
const WebhookSecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// maxWebhookBody bounds one update's JSON; real ones are a few kilobytes.
const maxWebhookBody = 1 << 20

// WebhookPath is the path on HTTP_ADDR where the webhook for token is served:
// "/telegram/" and 32 hex digits of HMAC-SHA256 keyed with the token. Every
// instance derives the same path, so any of them behind a load balancer can
// take a delivery, and the path reveals nothing of the token.
func WebhookPath(token string) string {
	return "/telegram/" + tokenHMAC(token, "rssbot webhook path")[:32]
}

// WebhookURL is the public webhook URL for Options.WebhookURL: publicURL
// (PUBLIC_URL) followed by WebhookPath(token).
func WebhookURL(publicURL, token string) string {
	return strings.TrimRight(publicURL, "/") + WebhookPath(token)
}

// webhookSecret is setWebhook's secret_token: 64 hex digits (within the Bot
// API's 1-256 of [A-Za-z0-9_-]). It is derived from the token rather than
// drawn at random so that every instance checks the same secret whichever of
// them set the webhook, and it differs from the path so that a logged URL
// doesn't give it away.
func webhookSecret(token string) string {
	return tokenHMAC(token, "rssbot webhook secret")
}

// tokenHMAC is hex(HMAC-SHA256(key=token, label)).
func tokenHMAC(token, label string) string {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(label))
	return hex.EncodeToString(m.Sum(nil))
}

// checkWebhookURL refuses what Telegram could never call back.
func checkWebhookURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("bot: webhook URL %q is not an absolute http(s) URL", raw)
	}
	return nil
}

// allowedUpdates are the update types rssbot handles, for getUpdates and
// setWebhook alike.
func allowedUpdates() []string { return []string{"message", "callback_query", "my_chat_member"} }

// WebhookHandler serves Telegram's webhook deliveries; mount it at
// WebhookPath(token) on HTTP_ADDR. Every instance serves it, leader or not:
// Telegram may reach any of them, and the commands work from the database.
// A delivery without the right secret header gets 401 and is not processed;
// while Run is not running it gets 503, which Telegram retries later.
func (b *Bot) WebhookHandler() http.Handler { return http.HandlerFunc(b.serveWebhook) }

func (b *Bot) serveWebhook(w http.ResponseWriter, r *http.Request) {
	if b.opts.WebhookURL == "" {
		http.NotFound(w, r)
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, http.StatusText(http.StatusMethodNotAllowed), http.StatusMethodNotAllowed)
		return
	}
	if !secretMatches(r.Header.Get(WebhookSecretHeader), b.secret) {
		b.log.Warn("bot: webhook delivery with a wrong secret", "remote_addr", r.RemoteAddr)
		http.Error(w, http.StatusText(http.StatusUnauthorized), http.StatusUnauthorized)
		return
	}
	u := new(models.Update)
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxWebhookBody)).Decode(u); err != nil {
		b.log.Warn("bot: webhook delivery is not an update", "error", err)
		http.Error(w, http.StatusText(http.StatusBadRequest), http.StatusBadRequest)
		return
	}
	err := b.inbox.dispatch(r.Context(), func(ctx context.Context) { b.onUpdate(ctx, b.api, u) })
	if err != nil {
		b.log.Warn("bot: webhook delivery refused", "update_id", u.ID, "error", err)
		w.Header().Set("Retry-After", "1")
		http.Error(w, http.StatusText(http.StatusServiceUnavailable), http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusOK)
}

// secretMatches compares in constant time, so the secret can't be guessed
// byte by byte from response times.
func secretMatches(got, want string) bool {
	return subtle.ConstantTimeCompare([]byte(got), []byte(want)) == 1
}

// setWebhook points Telegram at this bot's webhook. It is called by each new
// leader and never undone on leaving: the next leader sets the same URL, and
// every instance serves it meanwhile.
func (b *Bot) setWebhook(ctx context.Context) error {
	_, err := b.api.SetWebhook(ctx, &tgbot.SetWebhookParams{
		URL: b.opts.WebhookURL, SecretToken: b.secret, AllowedUpdates: allowedUpdates(),
	})
	if err != nil {
		return fmt.Errorf("bot: setWebhook: %w", err)
	}
	return nil
}
