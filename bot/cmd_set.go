package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rssbot/rssbot/storage"
)

// templateReset is the /set template value that goes back to the default.
const templateReset = "reset"

// settingValues are the values each /set option takes, as /set's
// messages show them; the template option takes the rest of the message.
func settingValues() [][2]string {
	return [][2]string{
		{"silent", "on|off"},
		{"media", "none|preview|photo|album"},
		{"split", "on|off"},
		{"topic", "N|none"},
		{"template", "TEXT|reset"},
		{"backfill", "none|page|all"},
	}
}

// allowedValues returns the allowed values of an option; ok is false for
// an unknown option.
func allowedValues(option string) (string, bool) {
	for _, ov := range settingValues() {
		if ov[0] == option {
			return ov[1], true
		}
	}
	return "", false
}

// applySetting returns sub with one option changed. An unknown option or
// value is a userError listing what is allowed.
func applySetting(sub storage.Subscription, option, value string) (storage.Subscription, error) {
	option = strings.ToLower(option)
	allowed, known := allowedValues(option)
	if !known {
		return sub, refuse("set_bad_option", map[string]any{"Option": option})
	}
	bad := refuse("set_bad_value", map[string]any{"Option": option, "Value": value, "Allowed": allowed})
	if option == "template" {
		if value == "" {
			return sub, bad
		}
		if strings.EqualFold(value, templateReset) {
			value = ""
		}
		sub.Template = value
		return sub, nil
	}
	v := strings.ToLower(value)
	switch option {
	case "silent", "split":
		on, ok := onOff(v)
		if !ok {
			return sub, bad
		}
		if option == "silent" {
			sub.Silent = on
		} else {
			sub.Split = on
		}
	case "media":
		switch v {
		case storage.MediaNone, storage.MediaPreview, storage.MediaPhoto, storage.MediaAlbum:
			sub.MediaMode = v
		default:
			return sub, bad
		}
	case "backfill":
		switch v {
		case storage.BackfillNone, storage.BackfillPage, storage.BackfillAll:
			sub.Backfill = v
		default:
			return sub, bad
		}
	case "topic":
		if v == "none" {
			sub.TopicID = 0
			break
		}
		topic, ok := parseID(v)
		if !ok {
			return sub, bad
		}
		sub.TopicID = topic
	}
	return sub, nil
}

func onOff(v string) (on, ok bool) {
	switch v {
	case "on":
		return true, true
	case "off":
		return false, true
	}
	return false, false
}

// cmdSet is /set ID option value, and /set ID to show the options.
func (b *Bot) cmdSet(ctx context.Context, c command) {
	if len(c.args) < 1 {
		b.reply(ctx, c, "set_usage", nil)
		return
	}
	id, ok := parseID(c.args[0])
	if !ok {
		b.reply(ctx, c, "set_usage", nil)
		return
	}
	view, err := b.subscriptionView(ctx, id)
	if err != nil {
		b.replyError(ctx, c, err, nil)
		return
	}
	title := titleOr(view.FeedTitle, view.FeedURL)
	if len(c.args) == 1 {
		b.reply(ctx, c, "set_show", b.settingsData(view.Subscription, title))
		return
	}
	option, value := strings.ToLower(c.args[1]), ""
	switch {
	case option == "template":
		value = restAfter(c.text, 3)
	case len(c.args) == 3:
		value = c.args[2]
	case len(c.args) == 2:
		// no value: applySetting names the allowed ones
	default:
		b.reply(ctx, c, "set_usage", nil)
		return
	}
	sub, err := applySetting(view.Subscription, option, value)
	if err == nil {
		err = b.checkSetting(ctx, sub, option)
	}
	if err == nil {
		err = b.opts.Store.UpdateSubscription(ctx, sub)
		if errors.Is(err, storage.ErrDuplicate) {
			err = refuse("set_topic_taken", map[string]any{"Topic": sub.TopicID})
		}
	}
	if err != nil {
		b.replyError(ctx, c, err, map[string]any{"Title": title})
		return
	}
	data := b.settingsData(sub, title)
	data["Option"] = option
	data["Value"] = settingValue(data, option)
	b.reply(ctx, c, "set_ok", data)
}

// checkSetting refuses what the store would accept but delivery could not
// use: a template that does not work, a topic outside a forum.
func (b *Bot) checkSetting(ctx context.Context, sub storage.Subscription, option string) error {
	switch option {
	case "template":
		if sub.Template == "" {
			return nil
		}
		if err := b.opts.Renderer.Check("subscription "+strconv.FormatInt(sub.ID, 10), sub.Template); err != nil {
			return refuse("set_template_bad", map[string]any{"Error": err})
		}
	case "topic":
		if sub.TopicID == 0 {
			return nil
		}
		chat, err := b.opts.Store.ChatByID(ctx, sub.ChatID)
		if err == nil && chat.Type != "" && !chat.IsForum {
			return refuse("set_topic_no_forum", nil)
		}
	}
	return nil
}

// settingsData are a subscription's options as /set shows them.
func (b *Bot) settingsData(sub storage.Subscription, title string) map[string]any {
	onOffWord := func(v bool) string {
		if v {
			return "on"
		}
		return "off"
	}
	topic := "none"
	if sub.TopicID != 0 {
		topic = strconv.FormatInt(sub.TopicID, 10)
	}
	tmpl := b.msg.T("set_template_default", nil)
	if sub.Template != "" {
		tmpl = b.msg.N("set_template_custom", utf8.RuneCountInString(sub.Template), nil)
	}
	return map[string]any{
		"ID": sub.ID, "Title": title, "silent": onOffWord(sub.Silent), "media": sub.MediaMode,
		"split": onOffWord(sub.Split), "topic": topic, "template": tmpl, "backfill": sub.Backfill,
	}
}

// settingValue is the shown value of option in settingsData's data.
func settingValue(data map[string]any, option string) string {
	v, _ := data[option].(string)
	return v
}
