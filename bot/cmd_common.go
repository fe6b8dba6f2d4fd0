package bot

import (
	"context"
	"errors"
	"maps"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rssbot/rssbot/storage"
)

// userError is a refusal worded by a catalog message: what the admin asked
// for cannot be done, and the message says why.
type userError struct {
	id   string
	data map[string]any
}

func (e *userError) Error() string { return "bot: refused: " + e.id }

// refuse returns a userError for catalog message id.
func refuse(id string, data map[string]any) error {
	return &userError{id: id, data: data}
}

// replyError answers with a userError's own message, or with the internal
// error message for anything else. extra adds data (e.g. the argument).
func (b *Bot) replyError(ctx context.Context, c command, err error, extra map[string]any) {
	b.sayError(ctx, c.at, err, extra)
}

// sayError is replyError for a place.
func (b *Bot) sayError(ctx context.Context, p place, err error, extra map[string]any) {
	var ue *userError
	if errors.As(err, &ue) {
		data := maps.Clone(extra)
		if data == nil {
			data = map[string]any{}
		}
		maps.Copy(data, ue.data)
		b.say(ctx, p, ue.id, data)
		return
	}
	b.say(ctx, p, "error_internal", map[string]any{"Error": err})
}

// parseID reads a positive id (of a subscription, filter or rule).
func parseID(s string) (int64, bool) {
	id, err := strconv.ParseInt(s, 10, 64)
	return id, err == nil && id > 0
}

// subscriptionView returns a subscription with its feed's fields, or a
// userError when there is none with this id.
func (b *Bot) subscriptionView(ctx context.Context, id int64) (storage.SubscriptionView, error) {
	sub, err := b.opts.Store.SubscriptionByID(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.SubscriptionView{}, refuse("sub_not_found", map[string]any{"Ref": strconv.FormatInt(id, 10)})
	}
	if err != nil {
		return storage.SubscriptionView{}, err
	}
	f, err := b.opts.Store.FeedByID(ctx, sub.FeedID)
	if err != nil {
		return storage.SubscriptionView{}, err
	}
	return storage.SubscriptionView{Subscription: sub, FeedURL: f.URL, FeedTitle: f.Title, FeedSiteURL: f.SiteURL,
		FeedDisabledAt: f.DisabledAt, FeedLastError: f.LastError}, nil
}

// subscriptionByRef finds the subscription a command names: an id (in any
// chat, unless a chat was named), or a feed URL in the target's chat and
// topic.
func (b *Bot) subscriptionByRef(ctx context.Context, ref string, t chatTarget) (storage.SubscriptionView, error) {
	if id, ok := parseID(ref); ok && !t.explicit {
		return b.subscriptionView(ctx, id)
	}
	subs, err := b.opts.Store.SubscriptionsByChat(ctx, t.chat.ID)
	if err != nil {
		return storage.SubscriptionView{}, err
	}
	if sub, found := findSubscription(subs, ref, t.topic); found {
		return sub, nil
	}
	return storage.SubscriptionView{}, refuse("sub_not_found", map[string]any{"Ref": ref})
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

// clip shortens s to at most n characters, with "…" when cut, so that
// long feed texts cannot push a reply over Telegram's limit.
func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// timeFormat is how the bot writes times (in UTC) in its replies.
const timeFormat = "2006-01-02 15:04:05 UTC"

// when writes a time for a reply; never for the zero time.
func (b *Bot) when(t time.Time) string {
	if t.IsZero() {
		return b.msg.T("time_never", nil)
	}
	s := t.UTC().Format(timeFormat)
	d := t.Sub(b.opts.Now()).Round(time.Second)
	switch {
	case d > 0:
		return b.msg.T("time_in", map[string]any{"Time": s, "Wait": d.String()})
	case d < 0:
		return b.msg.T("time_ago", map[string]any{"Time": s, "Ago": (-d).String()})
	}
	return s
}
