package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/storage"
)

// Callback data kinds: "<kind>:<payload>", at most 64 bytes.
const (
	cbSubscribe = "sub" // sub:<token>: subscribe to a discovered feed
	cbPreview   = "pv"  // pv:<token>: preview a discovered feed
	cbRSSPage   = "rss" // rss:<chat id>:<page>: a page of /rss
)

// callbackData is parsed callback data.
type callbackData struct {
	kind  string
	token string // cbSubscribe, cbPreview
	chat  int64  // cbRSSPage
	page  int    // cbRSSPage
}

var errBadCallback = errors.New("bot: unknown callback data")

// parseCallback reads callback data the bot's own keyboards wrote.
func parseCallback(data string) (callbackData, error) {
	kind, payload, _ := strings.Cut(data, ":")
	switch kind {
	case cbSubscribe, cbPreview:
		if payload == "" {
			return callbackData{}, errBadCallback
		}
		return callbackData{kind: kind, token: payload}, nil
	case cbRSSPage:
		chatPart, pagePart, ok := strings.Cut(payload, ":")
		chat, err1 := strconv.ParseInt(chatPart, 10, 64)
		page, err2 := strconv.Atoi(pagePart)
		if !ok || err1 != nil || err2 != nil || chat == 0 || page < 0 {
			return callbackData{}, errBadCallback
		}
		return callbackData{kind: kind, chat: chat, page: page}, nil
	}
	return callbackData{}, errBadCallback
}

// callbackFor writes callback data; parseCallback reads it back.
func callbackFor(d callbackData) string {
	if d.kind == cbRSSPage {
		return cbRSSPage + ":" + strconv.FormatInt(d.chat, 10) + ":" + strconv.Itoa(d.page)
	}
	return d.kind + ":" + d.token
}

// onCallback handles a button press. Presses by anyone but the admin are
// ignored like their messages: not even answered.
func (b *Bot) onCallback(ctx context.Context, q *models.CallbackQuery) {
	if q.From.ID != b.opts.AdminID {
		return
	}
	at, msgID, ok := callbackPlace(q)
	if !ok {
		b.answer(ctx, q, "button_expired", true)
		return
	}
	d, err := parseCallback(q.Data)
	if err != nil {
		b.answer(ctx, q, "button_expired", true)
		return
	}
	b.log.Info("bot: button", "kind", d.kind, "chat_id", at.chatID)
	switch d.kind {
	case cbRSSPage:
		b.answer(ctx, q, "", false)
		b.editRSSPage(ctx, at, msgID, d.chat, d.page)
	case cbSubscribe, cbPreview:
		cand, found := b.tokens.get(d.token)
		if !found {
			b.answer(ctx, q, "button_expired", true)
			return
		}
		if d.kind == cbPreview {
			b.answer(ctx, q, "button_previewing", false)
			b.preview(ctx, at, cand.URL)
			return
		}
		b.answer(ctx, q, "button_subscribing", false)
		b.subscribe(ctx, at, cand.URL, chatTarget{chat: storage.Chat{ID: cand.ChatID}, topic: cand.Topic})
	}
}

// callbackPlace is the chat, topic and message of the pressed button.
func callbackPlace(q *models.CallbackQuery) (place, int, bool) {
	switch m := q.Message; {
	case m.Message != nil:
		return placeOf(m.Message), m.Message.ID, true
	case m.InaccessibleMessage != nil:
		return place{chatID: m.InaccessibleMessage.Chat.ID}, m.InaccessibleMessage.MessageID, true
	}
	return place{}, 0, false
}

// answer acknowledges a press, optionally with a catalog text (shown as
// an alert when alert is set).
func (b *Bot) answer(ctx context.Context, q *models.CallbackQuery, id string, alert bool) {
	p := &tgbot.AnswerCallbackQueryParams{CallbackQueryID: q.ID, ShowAlert: alert}
	if id != "" {
		p.Text = b.msg.T(id, nil)
	}
	if _, err := b.api.AnswerCallbackQuery(ctx, p); err != nil {
		b.log.Warn("bot: answerCallbackQuery", "error", err)
	}
}
