package bot

import (
	"context"
	"strings"
	"unicode"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/templates"
)

// command is one parsed admin command.
type command struct {
	name string   // without "/" and "@botname", lower-cased
	args []string // whitespace-separated arguments
	text string   // the whole text (or caption) as written
	msg  *models.Message
	at   place // where replies go: the command's chat and topic
}

// parseCommand splits "/sub@mybot URL @chan" into name and arguments; ok is
// false for text that is not a command.
func parseCommand(text string) (name string, args []string, ok bool) {
	fields := strings.Fields(text)
	if len(fields) == 0 || !strings.HasPrefix(fields[0], "/") {
		return "", nil, false
	}
	name = strings.ToLower(strings.TrimPrefix(fields[0], "/"))
	if at := strings.IndexByte(name, '@'); at >= 0 {
		name = name[:at]
	}
	return name, fields[1:], name != ""
}

// forThisBot reports whether a command is this bot's: it names no bot
// ("/sub"), or this one ("/sub@ThisBot", usernames being case-insensitive).
// Groups with several bots show "/sub@OtherBot" for the others.
func forThisBot(text, username string) bool {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return false
	}
	_, addressee, named := strings.Cut(fields[0], "@")
	return !named || strings.EqualFold(addressee, username)
}

// restAfter returns text after its first n whitespace-separated fields,
// trimmed, with the white space inside it (newlines of a template, spaces
// of a pattern) kept as written.
func restAfter(text string, n int) string {
	rest := text
	for range n {
		rest = strings.TrimLeftFunc(rest, unicode.IsSpace)
		end := strings.IndexFunc(rest, unicode.IsSpace)
		if end < 0 {
			return ""
		}
		rest = rest[end:]
	}
	return strings.TrimSpace(rest)
}

// onUpdate is the one handler: everything not from the admin is ignored
// without a reply, button presses included.
func (b *Bot) onUpdate(ctx context.Context, _ *tgbot.Bot, u *models.Update) {
	switch {
	case u.MyChatMember != nil:
		b.onMembership(ctx, u.MyChatMember)
	case u.CallbackQuery != nil:
		b.onCallback(ctx, u.CallbackQuery)
	case u.Message != nil:
		b.onMessage(ctx, u.Message)
	}
}

// onMessage runs the admin's commands: a text, or a document's caption
// (an OPML file sent with the caption /import).
func (b *Bot) onMessage(ctx context.Context, m *models.Message) {
	if m.From == nil || m.From.ID != b.opts.AdminID {
		return
	}
	text := m.Text
	if text == "" {
		text = m.Caption
	}
	name, args, ok := parseCommand(text)
	if !ok || !forThisBot(text, b.username) {
		return
	}
	run, known := commandHandlers()[name]
	if !known {
		return
	}
	b.log.Info("bot: command", "command", name, "chat_id", m.Chat.ID)
	run(b, ctx, command{name: name, args: args, text: text, msg: m, at: placeOf(m)})
}

// place is where a reply goes: a chat and a forum topic (0 = none).
type place struct {
	chatID int64
	thread int
}

// placeOf is the chat and forum topic of a message.
func placeOf(m *models.Message) place {
	return place{chatID: m.Chat.ID, thread: int(topicOf(m))}
}

func titleOr(title, url string) string {
	if strings.TrimSpace(title) != "" {
		return title
	}
	return url
}

// reply answers in the command's chat and topic with a catalog message;
// every data value is HTML-escaped.
func (b *Bot) reply(ctx context.Context, c command, id string, data map[string]any) {
	b.say(ctx, c.at, id, data)
}

// say sends a catalog message to a place; every data value is HTML-escaped.
func (b *Bot) say(ctx context.Context, p place, id string, data map[string]any) {
	b.sendAt(ctx, p, b.msg.T(id, escapeAll(data)), nil)
}

// send sends finished Telegram HTML to a chat and topic.
func (b *Bot) send(ctx context.Context, chatID int64, thread int, text string) {
	b.sendAt(ctx, place{chatID: chatID, thread: thread}, text, nil)
}

// sendAt sends finished Telegram HTML, with an optional inline keyboard,
// and returns the message id (0 when it failed).
// A text over Telegram's limits goes out in parts (see fitReply); the
// keyboard is on the last, whose id is returned.
func (b *Bot) sendAt(ctx context.Context, p place, text string, kb *models.InlineKeyboardMarkup) int {
	parts := fitReply(text)
	if len(parts) == 0 {
		parts = []string{text} // nothing to cut: let Telegram say why
	}
	id := 0
	for i, part := range parts {
		params := &tgbot.SendMessageParams{
			ChatID:             p.chatID,
			MessageThreadID:    p.thread,
			Text:               part,
			ParseMode:          models.ParseModeHTML,
			LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tgbot.True()},
		}
		if kb != nil && i == len(parts)-1 {
			params.ReplyMarkup = kb
		}
		m, err := b.api.SendMessage(ctx, params)
		if err != nil {
			b.log.Warn("bot: reply failed", "chat_id", p.chatID, "error", err)
			return 0
		}
		id = m.ID
	}
	return id
}

// escapeAll HTML-escapes every string value: data from feeds, URLs and
// error texts never become markup.
func escapeAll(data map[string]any) map[string]any { return escapeClipped(data, 0) }

// escapeClipped is escapeAll with every text first clipped to max
// characters (0: no limit).
func escapeClipped(data map[string]any, max int) map[string]any {
	out := make(map[string]any, len(data))
	for k, v := range data {
		var text string
		switch s := v.(type) {
		case string:
			text = s
		case error:
			text = s.Error()
		default:
			out[k] = v
			continue
		}
		if max > 0 {
			text = clip(text, max)
		}
		out[k] = escape(text)
	}
	return out
}

// escape makes plain text safe in Telegram HTML, also inside an attribute.
func escape(s string) string { return templates.EscapeHTML(s) }
