package bot

import (
	"context"
	"fmt"
	"html"
	"strconv"
	"strings"

	tgbot "github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/rssbot/rssbot/storage"
)

// command is one parsed admin command.
type command struct {
	name string   // without "/" and "@botname", lower-cased
	args []string // whitespace-separated arguments
	msg  *models.Message
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

// onUpdate is the one handler: everything not from the admin is ignored
// without a reply.
func (b *Bot) onUpdate(ctx context.Context, _ *tgbot.Bot, u *models.Update) {
	if u.MyChatMember != nil {
		b.onMembership(ctx, u.MyChatMember)
		return
	}
	m := u.Message
	if m == nil || m.From == nil || m.From.ID != b.opts.AdminID {
		return
	}
	name, args, ok := parseCommand(m.Text)
	if !ok {
		return
	}
	c := command{name: name, args: args, msg: m}
	b.log.Info("bot: command", "command", name, "chat_id", m.Chat.ID)
	switch name {
	case "sub":
		b.cmdSub(ctx, c)
	case "unsub":
		b.cmdUnsub(ctx, c)
	case "rss":
		b.cmdRSS(ctx, c)
	case "help", "start":
		b.reply(ctx, c, "help", nil)
	}
}

// subjectAndTarget checks the "SUBJECT [chat]" form of a command, replying
// with the usage text when it is wrong, and resolves the chat.
func (b *Bot) subjectAndTarget(ctx context.Context, c command, usageID string) (chatTarget, bool) {
	if len(c.args) < 1 || len(c.args) > 2 {
		b.reply(ctx, c, usageID, nil)
		return chatTarget{}, false
	}
	return b.target(ctx, c, c.args[1:])
}

func (b *Bot) cmdSub(ctx context.Context, c command) {
	target, ok := b.subjectAndTarget(ctx, c, "sub_usage")
	if !ok {
		return
	}
	res, err := b.opts.Engine.Subscribe(ctx, c.args[0], target.chat.ID, target.topic)
	if err != nil {
		b.reply(ctx, c, "sub_failed", map[string]any{"URL": c.args[0], "Error": err.Error()})
		return
	}
	data := map[string]any{"Title": titleOr(res.Feed.Title, res.Feed.URL), "URL": res.Feed.URL, "Entries": res.Entries}
	if res.Existed {
		b.reply(ctx, c, "sub_exists", data)
		return
	}
	b.reply(ctx, c, "sub_ok", data)
}

func (b *Bot) cmdUnsub(ctx context.Context, c command) {
	target, ok := b.subjectAndTarget(ctx, c, "unsub_usage")
	if !ok {
		return
	}
	subs, err := b.opts.Store.SubscriptionsByChat(ctx, target.chat.ID)
	if err != nil {
		b.reply(ctx, c, "error_internal", map[string]any{"Error": err.Error()})
		return
	}
	sub, found := findSubscription(subs, c.args[0], target.topic)
	if !found {
		b.reply(ctx, c, "unsub_not_found", map[string]any{"Ref": c.args[0]})
		return
	}
	if err := b.opts.Engine.Unsubscribe(ctx, sub.ID); err != nil {
		b.reply(ctx, c, "error_internal", map[string]any{"Error": err.Error()})
		return
	}
	b.reply(ctx, c, "unsub_ok", map[string]any{"Title": titleOr(sub.FeedTitle, sub.FeedURL), "URL": sub.FeedURL})
}

// findSubscription finds a subscription by its id or its feed URL.
func findSubscription(subs []storage.SubscriptionView, ref string, topic int64) (storage.SubscriptionView, bool) {
	id, idErr := strconv.ParseInt(ref, 10, 64)
	for _, s := range subs {
		if idErr == nil && s.ID == id {
			return s, true
		}
		if idErr != nil && s.FeedURL == ref && s.TopicID == topic {
			return s, true
		}
	}
	return storage.SubscriptionView{}, false
}

func (b *Bot) cmdRSS(ctx context.Context, c command) {
	target, ok := b.target(ctx, c, c.args)
	if !ok {
		return
	}
	subs, err := b.opts.Store.SubscriptionsByChat(ctx, target.chat.ID)
	if err != nil {
		b.reply(ctx, c, "error_internal", map[string]any{"Error": err.Error()})
		return
	}
	if len(subs) == 0 {
		b.reply(ctx, c, "rss_empty", nil)
		return
	}
	lines := []string{b.msg.N("rss_header", len(subs), nil)}
	for _, s := range subs {
		disabled := ""
		if !s.FeedDisabledAt.IsZero() {
			disabled = "🚫 "
		}
		title := titleOr(s.FeedTitle, s.FeedURL)
		if s.TopicID != 0 {
			title = fmt.Sprintf("%s (#%d)", title, s.TopicID)
		}
		lines = append(lines, b.msg.T("rss_line", escapeAll(map[string]any{"ID": s.ID, "Disabled": disabled, "URL": s.FeedURL, "Title": title})))
	}
	b.send(ctx, c.msg.Chat.ID, int(topicOf(c.msg)), strings.Join(lines, "\n"))
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
	b.send(ctx, c.msg.Chat.ID, int(topicOf(c.msg)), b.msg.T(id, escapeAll(data)))
}

func (b *Bot) send(ctx context.Context, chatID int64, thread int, text string) {
	_, err := b.api.SendMessage(ctx, &tgbot.SendMessageParams{
		ChatID:             chatID,
		MessageThreadID:    thread,
		Text:               text,
		ParseMode:          models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: tgbot.True()},
	})
	if err != nil {
		b.log.Warn("bot: reply failed", "chat_id", chatID, "error", err)
	}
}

func escapeAll(data map[string]any) map[string]any {
	out := make(map[string]any, len(data))
	for k, v := range data {
		if s, ok := v.(string); ok {
			v = html.EscapeString(s)
		}
		out[k] = v
	}
	return out
}
